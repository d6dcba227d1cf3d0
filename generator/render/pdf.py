"""PDF with Typst: the lesson pages (one PDF per lesson, one per variant) from JSON data.

The Typst template (``templates/typst/book.typ``) is plain Typst that reads a JSON file; lesson text
only ever arrives as JSON strings, so nothing an author writes can become Typst markup.  Diagrams are
the SVG files of the HTML build, referenced by path inside the build root (Typst's sandbox).  PDFs
are compiled in PDF/UA-1 mode, which makes Typst refuse a document without a title or an image
without alt text; the output is tagged, with each diagram's description as its alt text.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import typst

from ..rules.errors import DamasError
from .book import Book, book_data
from .site import LessonItem, VariantItem

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "typst"
TEMPLATE = TEMPLATES / "book.typ"
PUZZLE_TEMPLATE = TEMPLATES / "puzzles.typ"
TYPST_VERSION = version("typst")
"""Part of every PDF's cache key: a new compiler may lay pages out differently."""

WORK_DIR = "_typst"
"""Scratch folder inside the build root for the template and the JSON data; removed after the build."""

WORDS_PT = {
    "contents": "Sumário",
    "page": "Página",
    "of": "de",
    "diagram": "Diagrama",
    "puzzles": "Exercícios",
    "solutions": "Soluções",
}


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


def lesson_data(lesson: LessonItem) -> dict[str, Any]:
    return {
        "title": lesson.title,
        "summary": lesson.summary,
        "sections": [
            {
                "title": s.title,
                "blocks": _paper_links(s.blocks),
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
        "puzzles": [
            {
                "number": p.number,
                "path": "/" + p.svg_path,
                "alt": p.alt,
                "stipulation": p.stipulation,
                "caption": p.caption,
                "solution": p.solution,
            }
            for p in lesson.puzzles
        ],
    }


def _book(title: str, subtitle: str, lessons: list[LessonItem], running: str) -> dict[str, Any]:
    return {
        "title": title,
        "subtitle": subtitle,
        "running": running,
        "note": "Todos os lances foram conferidos pelo motor de regras do programa damas.",
        "lang": "pt",
        "region": "BR",
        "words": WORDS_PT,
        "lessons": [lesson_data(lesson) for lesson in lessons],
    }


def jobs_for(variant: VariantItem, book: Book | None = None) -> list[PdfJob]:
    """One PDF per lesson, one collecting the variant's lessons, and the puzzle book if any."""
    jobs = [
        PdfJob(f"pdf/{variant.name}/{lesson.slug}.pdf", _book(lesson.title, variant.title, [lesson], variant.title))
        for lesson in variant.lessons
    ]
    if variant.lessons:
        jobs.append(
            PdfJob(
                f"pdf/{variant.name}.pdf",
                _book(variant.title, "Regras e exercícios", variant.lessons, variant.title),
            )
        )
    if book is not None:
        jobs.append(PdfJob(f"pdf/{variant.name}-golpes.pdf", book_data(book), PUZZLE_TEMPLATE))
    return jobs


def compile_job(root: Path, job: PdfJob, index: int) -> Path:
    """Compile one job inside ``root`` (which must already hold the SVG files)."""
    work = root / WORK_DIR
    work.mkdir(exist_ok=True)
    template = work / job.template.name
    if not template.exists():
        shutil.copyfile(job.template, template)
    data_file = work / f"data-{index}.json"
    data_file.write_text(json.dumps(job.data, ensure_ascii=False), encoding="utf-8")
    out = root / job.output
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        typst.compile(
            str(template),
            output=str(out),
            root=str(root),
            sys_inputs={"data": f"/{WORK_DIR}/{data_file.name}"},
            pdf_standards=["ua-1"],
        )
    except typst.TypstError as exc:
        hints = "; ".join(getattr(exc, "hints", []) or [])
        raise PdfError(f"typst failed on {job.output}: {exc}{' (' + hints + ')' if hints else ''}") from None
    return out


def cleanup(root: Path) -> None:
    shutil.rmtree(root / WORK_DIR, ignore_errors=True)
