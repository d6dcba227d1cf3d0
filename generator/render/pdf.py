"""PDF with Typst: what a club prints, per variant, from JSON data.

Three files per variant, each named for its purpose and none overlapping the others:
``pdf/<variant>/regras.pdf`` (the rules booklet: every lesson's text and diagrams),
``pdf/<variant>/exercicios.pdf`` (the worksheet: exercises only, easiest first, hints at the end)
and ``pdf/<variant>/solucoes.pdf`` (the answer key, numbered as the worksheet).

The Typst template (``templates/typst/book.typ``) is plain Typst that reads a JSON file; lesson text
only ever arrives as JSON strings, so nothing an author writes can become Typst markup.  Diagrams are
the SVG files of the HTML build, referenced by path inside the build root (Typst's sandbox).  PDFs
are compiled in PDF/UA-1 mode, which makes Typst refuse a document without a title or an image
without alt text; the output is tagged, with each diagram's description as its alt text.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import typst

from ..errors import DamasError
from ..i18n import DEFAULT_LANGUAGE, translator
from ..resources import templates_dir
from ..rules.position import Position
from ..rules.variants import Variant
from .book import Book, answers_data, book_words, typst_language, worksheet_data
from .names import file_names
from .site import LessonItem, VariantItem
from .svg import NUMBER_SIZE, build_view

TEMPLATES = templates_dir() / "typst"
TEMPLATE = TEMPLATES / "book.typ"
WORKSHEET_TEMPLATE = TEMPLATES / "worksheet.typ"
ANSWERS_TEMPLATE = TEMPLATES / "answers.typ"

BOOKLET = "regras"
WORKSHEET = "exercicios"
ANSWERS = "solucoes"
"""File names (without ``.pdf``) of a variant's three PDFs, inside ``pdf/<variant>/``."""

DIAGRAM_CM = {"booklet": 6.8, "worksheet": 6.0, "final": 4.2}
"""Preferred printed width of a diagram in each document; :func:`diagram_cm` widens a numbered
board until its square numbers print at :data:`MIN_NUMBER_PT` (the final-position diagrams of the
answer key carry no numbers)."""

MIN_NUMBER_PT = 6.0
_PT_PER_CM = 72 / 2.54


def diagram_cm(variant: Variant) -> dict[str, float]:
    """The printed widths for ``variant``'s diagrams (the templates read them from the JSON)."""
    view = build_view(Position.start(variant))
    needed = MIN_NUMBER_PT / (NUMBER_SIZE / view.width) / _PT_PER_CM
    return {kind: cm if kind == "final" else round(max(cm, needed + 0.01), 2) for kind, cm in DIAGRAM_CM.items()}


TYPST_VERSION = version("typst")
"""Part of every PDF's cache key: a new compiler may lay pages out differently."""

WORK_DIR = "_typst"
"""Scratch folder inside the build root for the template and the JSON data; removed after the build."""


class PdfError(DamasError):
    """Typst could not compile a document (a bug in damas, not in the lesson: lessons are checked first)."""


@dataclass
class PdfJob:
    """One PDF to make: where it goes (relative to the build root), its data and its template."""

    output: str
    data: dict[str, Any]
    template: Path = TEMPLATE


def _paper_links(value: Any) -> Any:
    """Blocks/runs with links to other pages of the course turned into plain text: a PDF has no
    ``golpes.html`` next to it.  Web and mail links stay."""
    if isinstance(value, list):
        return [_paper_links(v) for v in value]
    if isinstance(value, dict):
        out = {k: _paper_links(v) for k, v in value.items()}
        link = out.get("link")
        if isinstance(link, str) and not link.lower().startswith(("http://", "https://", "mailto:")):
            out["link"] = None
        return out
    return value


KEEP_CHARS = 900
"""A section whose text before its first diagram is at most this long is kept on one page with
that diagram (heading, text and board move to the next page together): keep-with-next."""


def _chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return sum(_chars(v) for v in value)
    if isinstance(value, dict):
        return sum(_chars(v) for k, v in value.items() if k in ("text", "runs", "items", "blocks"))
    return 0


def _short(blocks: list[dict[str, Any]]) -> bool:
    return _chars(blocks) <= KEEP_CHARS


def lesson_data(lesson: LessonItem) -> dict[str, Any]:
    return {
        "title": lesson.title,
        "summary": lesson.summary,
        "sections": [
            {
                "title": s.title,
                "keep": _short(s.blocks),
                "blocks": _paper_links(s.blocks),
                "authors": _paper_links(s.authors_blocks),
                "diagrams": [
                    {
                        "path": "/" + d.svg_path,
                        "alt": d.alt,
                        "number": d.number,
                        "caption_runs": _paper_links(d.caption_runs),
                        "claims": d.claim_texts,
                    }
                    for d in s.diagrams
                ],
            }
            for s in lesson.sections
        ],
        "puzzles": len(lesson.puzzles),
    }


def _book(
    title: str,
    subtitle: str,
    lessons: list[LessonItem],
    running: str,
    widths: dict[str, float],
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    tr = translator(language)
    _ = tr.gettext
    return {
        "title": title,
        "subtitle": subtitle,
        "running": running,
        "note": _("Every move was checked by the damas rules engine."),
        **typst_language(tr),
        "words": {
            **book_words(tr),
            "see_worksheet": _(
                "The puzzles of this lesson are in the worksheet, and their solutions in the answer key."
            ),
        },
        "diagram_cm": widths,
        "lessons": [lesson_data(lesson) for lesson in lessons],
    }


def pdf_path(variant: str, kind: str, language: str = DEFAULT_LANGUAGE, prefix: str = "") -> str:
    """Where one of a variant's PDFs goes, relative to the build root (``kind`` as in BOOKLET …, named
    in ``language``'s catalog; ``prefix`` is the language tree's folder, ``"en/"`` for a second one)."""
    role = {BOOKLET: "booklet", WORKSHEET: "worksheet", ANSWERS: "answers"}.get(kind)
    name = file_names(language)[role] if role else kind
    return f"pdf/{prefix}{variant}/{name}.pdf"


def jobs_for(
    variant: VariantItem, book: Book | None = None, language: str = DEFAULT_LANGUAGE, prefix: str = ""
) -> list[PdfJob]:
    """The rules booklet, and the worksheet and answer key when the variant has puzzles."""
    jobs = []
    widths = diagram_cm(variant.variant)
    if variant.lessons:
        subtitle = translator(language).gettext("Rules and lessons")
        booklet = _book(variant.title, subtitle, variant.lessons, variant.title, widths, language)
        jobs.append(PdfJob(pdf_path(variant.name, BOOKLET, language, prefix), booklet))
    if book is not None:
        sheet = worksheet_data(book) | {"diagram_cm": widths}
        key = answers_data(book) | {"diagram_cm": widths}
        jobs.append(PdfJob(pdf_path(variant.name, WORKSHEET, language, prefix), sheet, WORKSHEET_TEMPLATE))
        jobs.append(PdfJob(pdf_path(variant.name, ANSWERS, language, prefix), key, ANSWERS_TEMPLATE))
    return jobs


NEAR_EMPTY = 0.2
"""A last page filled to less than this share of its height is near-empty: the document is laid out
again a notch tighter (``tight`` in ``templates/typst/print.typ``) to pull those lines back, or, when
that cannot save a page, looser, to carry more of the text onto the last page."""
RELAYOUTS = (1, 2, -1)
"""The ``tight`` settings tried, in order, for a document that ends near-empty."""


@dataclass(frozen=True)
class Ending:
    """Where a document's text ends: its page count and the share of the last page's body it fills."""

    pages: int
    fill: float

    @property
    def near_empty(self) -> bool:
        return self.pages > 1 and self.fill < NEAR_EMPTY


def _rank(ending: Ending) -> tuple[bool, int, float]:
    """Which of two layouts prints better (the smaller): not near-empty, fewer pages, a fuller last page."""
    return (ending.near_empty, ending.pages, -ending.fill)


def _ending(compiler: typst.Compiler) -> Ending | None:
    """Read the ``<damas-end>`` marker of the compiled document (None for a template without one)."""
    found = json.loads(compiler.query("<damas-end>", field="value"))
    if not found:
        return None
    end = found[-1]
    body = end["height"] - end["top"] - end["bottom"]
    return Ending(int(end["page"]), max(0.0, (end["y"] - end["top"]) / body) if body > 0 else 1.0)


def compile_job(root: Path, job: PdfJob, index: int) -> Path:
    """Compile one job inside ``root`` (which must already hold the SVG files).

    A document whose last page would be near-empty is laid out again (:data:`RELAYOUTS`), and the
    best layout kept: one that does not end near-empty, on the fewest pages, with the fullest last page."""
    work = root / WORK_DIR
    work.mkdir(exist_ok=True)
    for typ in job.template.parent.glob("*.typ"):  # the template and what it imports (print.typ)
        if not (work / typ.name).exists():  # another thread may be copying it too: each copy lands whole
            part = work / f"{typ.name}.{threading.get_ident()}.part"
            shutil.copyfile(typ, part)
            os.replace(part, work / typ.name)
    template = work / job.template.name
    data_file = work / f"data-{index}.json"
    data_file.write_text(json.dumps(job.data, ensure_ascii=False), encoding="utf-8")
    out = root / job.output
    out.parent.mkdir(parents=True, exist_ok=True)
    inputs = {"data": f"/{WORK_DIR}/{data_file.name}"}
    try:
        compiler = typst.Compiler(str(template), root=str(root), sys_inputs=inputs)
        best = compiler.compile(pdf_standards=["ua-1"])
        ending = _ending(compiler)
        for tight in RELAYOUTS if ending is not None and ending.near_empty else ():
            compiler = typst.Compiler(str(template), root=str(root), sys_inputs={**inputs, "tight": str(tight)})
            pdf = compiler.compile(pdf_standards=["ua-1"])
            now = _ending(compiler)
            if now is not None and ending is not None and _rank(now) < _rank(ending):
                best, ending = pdf, now
                if not now.near_empty:
                    break
    except typst.TypstError as exc:
        hints = "; ".join(getattr(exc, "hints", []) or [])
        raise PdfError(f"typst failed on {job.output}: {exc}{' (' + hints + ')' if hints else ''}") from None
    if not isinstance(best, bytes):  # typst returns a list of pages only for image formats
        raise PdfError(f"typst gave no PDF for {job.output}")
    out.write_bytes(best)
    return out


def cleanup(root: Path) -> None:
    shutil.rmtree(root / WORK_DIR, ignore_errors=True)
