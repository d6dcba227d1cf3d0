"""``damas check``: load, validate and verify lesson files, collecting every error.

Stages, each fed only by the one before: read the file, parse YAML with marks, validate against the
schema, build the typed lesson (positions parsed), verify every claim with the engine.  Nothing stops
at the first error of a file, and one file's errors never hide another's.
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from urllib.parse import urlparse

from ..i18n import anchor_names, available_languages, translator
from ..inputfile import InputFileError, read_input
from ..limits import limit, raise_hint
from .bounds import lesson_bounds
from .glossary import Glossary
from .markdown_safety import count_links, parse, scan
from .model import Lesson, build_lesson
from .reader_text import reader_text_report
from .schema import validate
from .source import Document, Path, SourceError, load_document
from .verify import DiagramProof, PuzzleProof, Verifier, text_fields

LESSON_SUFFIXES = (".yaml", ".yml")

BOOK_SLUG = "livro-de-golpes"
"""Page name of a variant's puzzle book."""
BOOK_SLUGS = {translator(lang).pgettext("file name", "puzzle-book") for lang in available_languages()}
"""The puzzle book's page name in every language (``puzzle-book`` in English)."""
RESERVED_SLUGS = {"index", BOOK_SLUG} | BOOK_SLUGS
"""Page names the build makes itself in each variant's folder: no lesson may take them."""
ROOT_PAGES = {"index.html", "comparacao.html", "glossario.html"}
RESERVED_ID = re.compile(
    "|".join(
        sorted(
            {
                re.escape(anchor_names(lang)[role]).replace(re.escape("%(num)s"), "[0-9]+")
                for lang in available_languages()
                for role in ("content", "puzzles", "reading", "indexes", "section", "diagram")
            }
        )
    )
)
"""Anchors the build makes on a lesson page itself (the main text, the puzzle list, the default
anchors of sections and diagrams without an id): an author's id equal to one would give the page
two elements with one id."""


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
    """Reader text that strays from the glossary or the house style, or names internal things: reported,
    a failure only where the course sets ``strict_text`` (then they are errors instead)."""

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
    """Every lesson file under the given files and folders, sorted.

    Nothing is left out silently: a missing path, a folder that cannot be read, a broken or looping
    symbolic link named ``*.yaml``, a folder linked back into itself and a folder without a single
    lesson are all errors.  Names starting with ``.`` (editor lock files, ``.git``) are skipped.  A
    path given by name is taken as a lesson whatever its suffix; devices and FIFOs are refused when
    the file is read.
    """
    found: list[FsPath] = []
    errors: list[SourceError] = []
    for p in paths:
        path = FsPath(p)
        try:
            info = path.stat()
        except OSError as exc:
            problem = "no such file or folder" if isinstance(exc, FileNotFoundError) else exc.strerror
            if path.is_symlink() and isinstance(exc, FileNotFoundError):
                problem = "a symbolic link to a file that does not exist"
            errors.append(SourceError(display_path(path), 1, 1, str(problem)))
            continue
        if not stat.S_ISDIR(info.st_mode):
            found.append(path)
            continue
        before = len(found)
        _walk_lessons(path, found, errors)
        if len(found) == before and not any(e.path.startswith(display_path(path)) for e in errors):
            errors.append(SourceError(display_path(path), 1, 1, f"no lesson files found in {display_path(path)}"))
    return found, errors


def _walk_lessons(top: FsPath, found: list[FsPath], errors: list[SourceError]) -> None:
    """Lesson files under the folder ``top`` (following links to folders, once each), in sorted
    order, appended to ``found``; every folder or link that cannot be followed becomes an error."""
    seen: set[tuple[int, int]] = set()
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            info = folder.stat()
            if (info.st_dev, info.st_ino) in seen:
                errors.append(
                    SourceError(display_path(folder), 1, 1, "this folder link leads back to a folder already read")
                )
                continue
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            errors.append(SourceError(display_path(folder), 1, 1, f"cannot read the folder: {exc.strerror}"))
            continue
        subfolders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = FsPath(entry.path)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                subfolders.append(path)
            elif path.suffix in LESSON_SUFFIXES:
                try:
                    path.stat()
                except OSError as exc:
                    reason = (
                        "a symbolic link to a file that does not exist"
                        if isinstance(exc, FileNotFoundError)
                        else "a symbolic link that loops"
                        if exc.errno == errno.ELOOP
                        else f"cannot read the file: {exc.strerror}"
                    )
                    errors.append(SourceError(display_path(path), 1, 1, reason))
                    continue
                found.append(path)
        stack.extend(reversed(subfolders))


def check_text(text: str, path: str, proof_budget: int | None = None) -> tuple[CheckedLesson | None, list[SourceError]]:
    """Check one lesson given as text (``path`` is only used in messages); ``proof_budget`` is the
    node budget of each puzzle's proof (None: ``$DAMAS_PROOF_BUDGET`` or the default)."""
    doc, errors = load_document(text, path)
    if doc is None:
        return None, errors
    too_much = lesson_bounds(doc)
    if too_much:  # nothing more is checked: the limits exist so that no stage pays for it
        return None, sorted(set(errors + too_much))
    schema_errors = [(where, e) for where, e in validate(doc) if not any(where[: len(r)] == r for r in doc.refused)]
    errors.extend(e for _, e in schema_errors)
    invalid = {where for where, _ in schema_errors} | doc.refused  # refused values are unusable too
    lesson, build_errors = build_lesson(doc, invalid)
    errors.extend(build_errors)
    if lesson is None:
        return None, sorted(set(errors))
    verifier = Verifier(doc, lesson)
    verifier.proof_budget = proof_budget
    errors.extend(verifier.verify())
    errors.extend(_reserved_ids(doc, lesson))
    return CheckedLesson(lesson, verifier.proofs, doc, verifier.puzzle_proofs), sorted(set(errors))


def _reserved_ids(doc: Document, lesson: Lesson) -> list[SourceError]:
    items: list[tuple[str | None, Path]] = []
    for s in lesson.sections:
        items.append((s.id, (*s.where, "id")))
        items.extend((d.id, (*d.where, "id")) for d in s.diagrams)
    items.extend((p.id, (*p.where, "id")) for p in lesson.puzzles)
    return [
        doc.error(where, f"id '{ident}' is an anchor the build makes on every page; choose another")
        for ident, where in items
        if ident is not None and RESERVED_ID.fullmatch(ident)
    ]


def check_file(path: FsPath, proof_budget: int | None = None) -> tuple[CheckedLesson | None, list[SourceError]]:
    shown = display_path(path)
    try:
        raw = read_input(path, "lesson_file_bytes")
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [SourceError(shown, line, col, "not UTF-8 text: save the file as UTF-8")]
    except InputFileError as exc:
        return None, [SourceError(shown, 1, 1, str(exc))]
    return check_text(text, shown, proof_budget)


def check_paths(
    paths: Iterable[str | os.PathLike[str]],
    proof_budget: int | None = None,
    glossary: Glossary | None = None,
    *,
    strict_text: bool = False,
) -> CheckReport:
    """Check every lesson under ``paths``; slugs must be unique within a variant.  ``proof_budget``
    (the course's setting) bounds each puzzle's proof in search nodes; the reader text is checked
    against ``glossary`` (default: the bundled glossary of each lesson's language) and the house
    style, as warnings, or as errors when ``strict_text`` (the course's setting)."""
    report = CheckReport()
    files, errors = lesson_files(paths)
    report.errors.extend(errors)
    slugs: dict[tuple[str, str], str] = {}
    for f in files:
        report.files.append(display_path(f))
        checked, file_errors = check_file(f, proof_budget)
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
    text_errors, report.warnings = reader_text_report(report.lessons, strict=strict_text, glossary=glossary)
    report.errors.extend(text_errors)
    report.errors.sort()
    return report


def _link_errors(lessons: list[CheckedLesson]) -> list[SourceError]:
    """Links between pages of the course must reach a page the build makes, and an anchor on it."""
    pages: dict[str, set[str]] = {}
    puzzles: dict[tuple[str, str], int] = {}
    for c in lessons:
        v = c.lesson.variant.name
        pages[f"{v}/{c.lesson.slug}.html"] = c.lesson.anchors()
        key = (v, c.lesson.language)
        puzzles[key] = puzzles.get(key, 0) + len(c.lesson.puzzles)
    for (v, language), n in puzzles.items():  # each language's tree has its own index and book
        a = anchor_names(language)
        pages.setdefault(f"{v}/index.html", set()).add(a["content"])
        if n:
            book = translator(language).pgettext("file name", "puzzle-book")
            pages[f"{v}/{book}.html"] = {a["content"], a["reading"], a["puzzles"], a["indexes"]} | {
                f"p{i}" for i in range(1, n + 1)
            }
    for root in ROOT_PAGES:
        pages[root] = {"conteudo"}
    errors = []
    most = limit("markdown_links")
    for c in lessons:
        here = f"{c.lesson.variant.name}/{c.lesson.slug}.html"
        parsed = [(where, text, parse(text)) for where, text in text_fields(c.doc.data)]
        counts = [count_links(tokens) for _, _, tokens in parsed]
        if any(n > most for n in counts):
            continue  # that text is already reported (markdown_safety); its links are not checked one by one
        if sum(counts) > most:
            errors.append(
                c.doc.error(
                    (), f"the lesson has {sum(counts)} links and images in all, too many {raise_hint('markdown_links')}"
                )
            )
            continue
        for where, text, tokens in parsed:
            for kind, href, line, col in scan(text, tokens):
                url = urlparse(href)
                if kind != "link" or url.scheme or url.netloc:
                    continue
                target = here if not url.path else posixpath.normpath(posixpath.join(posixpath.dirname(here), url.path))
                anchor = url.fragment
                problem = None
                if target not in pages:
                    problem = f"link to '{href}': the course has no page {target}"
                elif anchor and anchor not in pages[target]:
                    problem = f"link to '{href}': {target} has no anchor '{anchor}'"
                if problem:
                    at = c.doc.text_position(where, line, col)
                    errors.append(SourceError(c.doc.path, *at, problem))
    return errors
