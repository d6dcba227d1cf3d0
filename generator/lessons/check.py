"""``damas check``: load, validate and verify lesson files, collecting every error.

Stages, each fed only by the one before: read the file, parse YAML with marks, validate against the
schema, build the typed lesson (positions parsed), verify every claim with the engine.  Nothing stops
at the first error of a file, and one file's errors never hide another's.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from urllib.parse import urlparse

from .glossary import Glossary, glossary_warnings
from .markdown_safety import scan
from .model import Lesson, build_lesson
from .schema import validate
from .source import Document, Path, SourceError, load_document
from .verify import DiagramProof, PuzzleProof, Verifier, text_fields

LESSON_SUFFIXES = (".yaml", ".yml")

BOOK_SLUG = "livro-de-golpes"
"""Page name of a variant's puzzle book."""
RESERVED_SLUGS = {"index", BOOK_SLUG}
"""Page names the build makes itself in each variant's folder: no lesson may take them."""
ROOT_PAGES = {"index.html", "comparacao.html", "glossario.html"}


@dataclass
class CheckedLesson:
    lesson: Lesson
    proofs: dict[Path, DiagramProof]
    doc: Document
    puzzle_proofs: dict[Path, PuzzleProof] = field(default_factory=dict)


@dataclass
class CheckReport:
    files: list[str] = field(default_factory=list)
    lessons: list[CheckedLesson] = field(default_factory=list)
    errors: list[SourceError] = field(default_factory=list)
    warnings: list[SourceError] = field(default_factory=list)
    """Wording that strays from the glossary: reported, never a failure."""

    @property
    def ok(self) -> bool:
        return not self.errors

    def failed_files(self) -> list[str]:
        return sorted({e.path for e in self.errors})

    def counts(self) -> dict[str, int]:
        diagrams = [d for c in self.lessons for d in c.lesson.diagrams()]
        return {
            "files": len(self.files),
            "lessons": len(self.lessons),
            "diagrams": len(diagrams),
            "claims": sum(1 for d in diagrams for c in d.claims if c is not None),
            "puzzles": sum(len(c.lesson.puzzles) for c in self.lessons),
            "errors": len(self.errors),
        }


def display_path(path: FsPath) -> str:
    """The path as the user would type it: as given, or relative to the working folder when an
    absolute path lies inside it."""
    if not path.is_absolute():
        return str(path)
    try:
        return str(path.relative_to(FsPath.cwd()))
    except ValueError:
        return str(path)


def lesson_files(paths: Iterable[str | os.PathLike[str]]) -> tuple[list[FsPath], list[SourceError]]:
    """Every lesson file under the given files and folders, sorted; a missing path is an error."""
    found: list[FsPath] = []
    errors: list[SourceError] = []
    for p in paths:
        path = FsPath(p)
        if path.is_dir():
            found.extend(sorted(f for f in path.rglob("*") if f.suffix in LESSON_SUFFIXES and f.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            errors.append(SourceError(str(p), 1, 1, "no such file or folder"))
    return found, errors


def check_text(text: str, path: str) -> tuple[CheckedLesson | None, list[SourceError]]:
    """Check one lesson given as text (``path`` is only used in messages)."""
    doc, errors = load_document(text, path)
    if doc is None:
        return None, errors
    schema_errors = [(where, e) for where, e in validate(doc) if not any(where[: len(r)] == r for r in doc.refused)]
    errors.extend(e for _, e in schema_errors)
    invalid = {where for where, _ in schema_errors}
    lesson, build_errors = build_lesson(doc, invalid)
    errors.extend(build_errors)
    if lesson is None:
        return None, sorted(set(errors))
    verifier = Verifier(doc, lesson)
    errors.extend(verifier.verify())
    return CheckedLesson(lesson, verifier.proofs, doc, verifier.puzzle_proofs), sorted(set(errors))


def check_file(path: FsPath) -> tuple[CheckedLesson | None, list[SourceError]]:
    shown = display_path(path)
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [SourceError(shown, line, col, "not UTF-8 text: save the file as UTF-8")]
    except OSError as exc:
        return None, [SourceError(shown, 1, 1, f"cannot read the file: {exc.strerror}")]
    return check_text(text, shown)


def check_paths(paths: Iterable[str | os.PathLike[str]], glossary: Glossary | None = None) -> CheckReport:
    """Check every lesson under ``paths``; slugs must be unique within a variant.  Wording is
    compared with ``glossary`` (default: the bundled glossary of each lesson's language)."""
    report = CheckReport()
    files, errors = lesson_files(paths)
    report.errors.extend(errors)
    slugs: dict[tuple[str, str], str] = {}
    for f in files:
        report.files.append(display_path(f))
        checked, file_errors = check_file(f)
        report.errors.extend(file_errors)
        if checked is None:
            continue
        lesson = checked.lesson
        key = (lesson.variant.name, lesson.slug)
        if not lesson.slug:
            pass  # a missing slug is already reported
        elif lesson.slug in RESERVED_SLUGS:
            report.errors.append(
                checked.doc.error(
                    ("slug",), f"slug '{lesson.slug}' is the name of a page the build makes; choose another"
                )
            )
        elif key in slugs:
            report.errors.append(checked.doc.error(("slug",), f"slug '{lesson.slug}' is already used by {slugs[key]}"))
        else:
            slugs[key] = lesson.path
        report.lessons.append(checked)
    report.errors.extend(_link_errors(report.lessons))
    report.errors.sort()
    report.warnings = glossary_warnings(report.lessons, glossary)
    return report


def _link_errors(lessons: list[CheckedLesson]) -> list[SourceError]:
    """Links between pages of the course must reach a page the build makes, and an anchor on it."""
    pages: dict[str, set[str]] = {}
    puzzles: dict[str, int] = {}
    for c in lessons:
        v = c.lesson.variant.name
        pages[f"{v}/{c.lesson.slug}.html"] = c.lesson.anchors()
        puzzles[v] = puzzles.get(v, 0) + len(c.lesson.puzzles)
    for v, n in puzzles.items():
        pages[f"{v}/index.html"] = {"conteudo"}
        if n:
            pages[f"{v}/{BOOK_SLUG}.html"] = {"conteudo", "como-ler", "exercicios", "indices"} | {
                f"p{i}" for i in range(1, n + 1)
            }
    for root in ROOT_PAGES:
        pages[root] = {"conteudo"}
    errors = []
    for c in lessons:
        here = f"{c.lesson.variant.name}/{c.lesson.slug}.html"
        for where, text in text_fields(c.doc.data):
            for kind, href, line, col in scan(text):
                parsed = urlparse(href)
                if kind != "link" or parsed.scheme or parsed.netloc:
                    continue
                target = (
                    here
                    if not parsed.path
                    else posixpath.normpath(posixpath.join(posixpath.dirname(here), parsed.path))
                )
                anchor = parsed.fragment
                problem = None
                if target not in pages:
                    problem = f"link to '{href}': the course has no page {target}"
                elif anchor and anchor not in pages[target]:
                    problem = f"link to '{href}': {target} has no anchor '{anchor}'"
                if problem:
                    at = c.doc.text_position(where, line, col)
                    errors.append(SourceError(c.doc.path, *at, problem))
    return errors
