"""A worksheet and its answer key on disk, as the books print them.

PDF: the books' own Typst templates (``worksheet.typ``, ``answers.typ``) with the sheet's title,
class and date in the header.  HTML: one standalone page each (``worksheet.html.j2``: the diagrams
inline, the print style inside), the same data as the PDFs.  Two files either way, the answer key
beside the sheet (``aula.pdf`` and ``aula-solucoes.pdf``), so the teacher prints the sheet for the
class and keeps the key.

Both files are made in a temporary folder beside the destination and moved into place only when
both are complete: a failure leaves nothing half-written.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DamasError
from ..i18n import translator
from ..render import pdf as pdf_stage
from ..render.book import Book, answers_data, make_book, worksheet_data
from ..render.names import file_names
from ..render.site import VariantItem
from ..resources import jinja_loader
from ..rules import Variant
from .gather import Candidate

SUFFIXES = (".pdf", ".html")


class SheetOutputError(DamasError):
    """The destination cannot take the worksheet (usage: a folder, an unknown extension)."""

    exit_code = 2


@dataclass(frozen=True)
class Sheet:
    """What the teacher puts on the sheet."""

    title: str
    subtitle: str
    language: str
    class_name: str = ""
    date: str = ""
    hints: bool = True
    paper: str = "a4"
    author: str = ""


def key_path(out: Path, language: str) -> Path:
    """Where the answer key of the sheet ``out`` goes: ``aula.pdf`` -> ``aula-solucoes.pdf``."""
    return out.with_name(f"{out.stem}-{file_names(language)['answers']}{out.suffix}")


def make_sheet_book(variant: Variant, chosen: list[Candidate], language: str) -> Book:
    """The chosen puzzles as a book, numbered 1 to N in the order given."""
    item = VariantItem(variant, [], english=language.lower().startswith("en"))
    return make_book(item, [(c.source, c.item) for c in chosen], language)


def sheet_data(book: Book, sheet: Sheet) -> tuple[dict[str, Any], dict[str, Any]]:
    """The JSON of the worksheet and of its key: the books' data with the sheet's own head."""
    _ = translator(sheet.language).gettext
    variant = book.variant.title
    head = {
        "running": f"{variant} · {sheet.title}",
        "paper_size": "us-letter" if sheet.paper == "letter" else "a4",
        "author": sheet.author or "damas",
        "diagram_cm": pdf_stage.diagram_cm(book.variant.variant),
    }
    work = worksheet_data(book) | head | {"title": sheet.title, "subtitle": sheet.subtitle}
    work["header"] = {"class": sheet.class_name, "date": sheet.date}
    if not sheet.hints:
        work["hints"] = []
    key = answers_data(book) | head
    key["title"] = f"{sheet.title}: {_('Solutions')}"
    key["running"] = f"{variant} · {key['title']}"
    refs = {bp.number: bp.item.id for bp in book.puzzles}
    for p in key["puzzles"]:
        p["ref"] = refs.get(p["number"], "")
    return work, key


def write_sheet(book: Book, sheet: Sheet, out: Path) -> list[Path]:
    """Write the worksheet to ``out`` (``.pdf`` or ``.html``) and its key beside it; the paths written."""
    if out.suffix.lower() not in SUFFIXES:
        raise SheetOutputError(f"{out}: the worksheet is written as .pdf or .html")
    if out.is_dir():
        raise SheetOutputError(f"{out}: is a folder; name the worksheet file, e.g. {out / 'aula.pdf'}")
    folder = out.parent if str(out.parent) else Path()
    if not folder.is_dir():
        raise SheetOutputError(f"{out}: the folder {folder} does not exist")
    key = key_path(out, sheet.language)
    work_data, key_data = sheet_data(book, sheet)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".damas-worksheet-") as tmp:
        root = Path(tmp)
        if out.suffix.lower() == ".pdf":
            _pdfs(book, root, work_data, key_data)
        else:
            _htmls(book, root, work_data, key_data)
        os.replace(root / f"sheet{out.suffix.lower()}", out)
        os.replace(root / f"key{out.suffix.lower()}", key)
    return [out, key]


def _svgs(book: Book) -> dict[str, str]:
    out: dict[str, str] = {}
    for bp in book.puzzles:
        out[bp.item.svg_path] = bp.item.svg
        if bp.item.final_svg_path and bp.item.final_svg is not None:
            out[bp.item.final_svg_path] = bp.item.final_svg
    return out


def _pdfs(book: Book, root: Path, work: dict[str, Any], key: dict[str, Any]) -> None:
    for path, svg in _svgs(book).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(svg, encoding="utf-8")
    pdf_stage.compile_job(root, pdf_stage.PdfJob("sheet.pdf", work, pdf_stage.WORKSHEET_TEMPLATE), 0)
    pdf_stage.compile_job(root, pdf_stage.PdfJob("key.pdf", key, pdf_stage.ANSWERS_TEMPLATE), 1)
    pdf_stage.cleanup(root)


def _htmls(book: Book, root: Path, work: dict[str, Any], key: dict[str, Any]) -> None:
    from jinja2 import Environment, StrictUndefined, select_autoescape

    env = Environment(
        loader=jinja_loader("html"), autoescape=select_autoescape(default=True), undefined=StrictUndefined
    )
    template = env.get_template("worksheet.html.j2")
    svgs = {"/" + path: svg for path, svg in _svgs(book).items()}
    lang = translator(book.language).html_lang
    for name, data, kind in (("sheet.html", work, "sheet"), ("key.html", key, "key")):
        text = template.render(data=data, svgs=svgs, kind=kind, lang=lang)
        (root / name).write_text(text, encoding="utf-8")
