"""``damas check``: load, validate and verify lesson files, collecting every error.

Stages, each fed only by the one before: read the file, parse YAML with marks, validate against the
schema, build the typed lesson (positions parsed), verify every claim with the engine.  Nothing stops
at the first error of a file, and one file's errors never hide another's.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from urllib.parse import urlparse

from ..folders import each_file_once, leads_outside, pseudo_filesystem
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
    """Every lesson file under the given files and folders, sorted, each file once.

    Nothing is left out silently: a missing path, a folder that cannot be read, a broken or looping
    symbolic link named ``*.yaml``, a folder linked back into itself and a folder without a single
    lesson are all errors.  Names starting with ``.`` (editor lock files, ``.git``) are skipped.  A
    path given by name is taken as a lesson whatever its suffix; devices and FIFOs are refused when
    the file is read.  The walk stays inside each folder given: a folder link that leads outside it
    is an error and is not followed; pseudo file systems (``/proc``, ``/sys``, ``/dev``) are
    refused; the walk stops at the ``folder_depth`` and ``folder_entries`` limits.  A file named
    twice, by any path (a link, ``..``, a hard link), is listed once (:func:`generator.folders.file_key`).
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
        pseudo = pseudo_filesystem(path) if stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode) else None
        if pseudo is not None:  # a device is named as one when it is read
            errors.append(SourceError(display_path(path), 1, 1, _pseudo_message(pseudo)))
        elif not stat.S_ISDIR(info.st_mode):
            found.append(path)
        else:
            before = len(found)
            _Walk(path, found, errors).run()
            if len(found) == before and not any(e.path.startswith(display_path(path)) for e in errors):
                errors.append(SourceError(display_path(path), 1, 1, f"no lesson files found in {display_path(path)}"))
    return each_file_once(found), errors


def _pseudo_message(kind: str) -> str:
    return f"is on the {kind} pseudo file system (the running system, not files); damas reads lessons on disk only"


class _Walk:
    """Lesson files under the folder ``top``, in sorted order, appended to ``found``; every folder
    or link that cannot or may not be followed becomes an error in ``errors``."""

    def __init__(self, top: FsPath, found: list[FsPath], errors: list[SourceError]) -> None:
        self.top, self.found, self.errors = top, found, errors
        self.top_real = os.path.realpath(top)
        self.seen: set[tuple[int, int]] = set()
        self.entries = 0

    def error(self, path: FsPath, message: str) -> None:
        self.errors.append(SourceError(display_path(path), 1, 1, message))

    def run(self) -> None:
        stack = [(self.top, 0)]
        most_entries, most_depth = limit("folder_entries"), limit("folder_depth")
        while stack:
            folder, depth = stack.pop()
            if depth > most_depth:
                self.error(folder, f"folders nested more than {most_depth} deep; not read {raise_hint('folder_depth')}")
                continue
            entries = self.list(folder)
            if entries is None:
                continue
            self.entries += len(entries)
            if self.entries > most_entries:
                self.error(folder, f"more than {most_entries} files and folders; the walk stops here "
                           f"{raise_hint('folder_entries')}")  # fmt: skip
                return
            subfolders = [f for f in (self.entry(e) for e in entries) if f is not None]
            stack.extend((f, depth + 1) for f in reversed(subfolders))

    def list(self, folder: FsPath) -> list[os.DirEntry[str]] | None:
        """The folder's entries by name, or None (and an error) when it was read or cannot be."""
        try:
            info = folder.stat()
            if (info.st_dev, info.st_ino) in self.seen:
                self.error(folder, "this folder link leads back to a folder already read")
                return None
            self.seen.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as it:
                return sorted((e for e in it if not e.name.startswith(".")), key=lambda e: e.name)
        except OSError as exc:
            self.error(folder, f"cannot read the folder: {exc.strerror}")
            return None

    def entry(self, entry: os.DirEntry[str]) -> FsPath | None:
        """The entry as a subfolder to walk, or None (a lesson file is added, anything else skipped)."""
        path = FsPath(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            return self.subfolder(path, entry)
        if path.suffix in LESSON_SUFFIXES:
            self.lesson(path)
        return None

    def subfolder(self, path: FsPath, entry: os.DirEntry[str]) -> FsPath | None:
        outside = leads_outside(path, self.top_real) if entry.is_symlink() else None
        if outside is not None:
            self.error(path, f"this folder link leads outside {display_path(self.top)} (to {outside}); not followed")
            return None
        pseudo = pseudo_filesystem(path) if _mount_point(path) else None
        if pseudo is not None:
            self.error(path, _pseudo_message(pseudo))
            return None
        return path

    def lesson(self, path: FsPath) -> None:
        try:
            info = path.stat()
        except OSError as exc:
            reason = (
                "a symbolic link to a file that does not exist"
                if isinstance(exc, FileNotFoundError)
                else "a symbolic link that loops"
                if exc.errno == errno.ELOOP
                else f"cannot read the file: {exc.strerror}"
            )
            self.error(path, reason)
            return
        pseudo = pseudo_filesystem(path) if path.is_symlink() and stat.S_ISREG(info.st_mode) else None
        if pseudo is not None:
            self.error(path, _pseudo_message(pseudo))
            return
        self.found.append(path)


def _mount_point(path: FsPath) -> bool:
    """True when ``path`` is on another file system than its parent folder (a mount inside the walk)."""
    try:
        return path.stat().st_dev != path.parent.stat().st_dev
    except OSError:
        return False


Read = tuple[Document | None, Lesson | None, list[SourceError]]
"""What :func:`read_lesson` gives: the document, the lesson (None when it cannot be built), the errors."""

_READ_AHEAD: contextvars.ContextVar[dict[tuple[str, str], Read] | None] = contextvars.ContextVar(
    "damas_lessons_read_ahead", default=None
)


@contextlib.contextmanager
def read_ahead() -> Iterator[dict[tuple[str, str], Read]]:
    """Inside the block, lessons read ahead (generator/lessons/ahead.py puts them in the dict it
    yields, by path as shown and text) are taken from it, once each, when the check reads the same
    text: each file is parsed once."""
    kept: dict[tuple[str, str], Read] = {}
    token = _READ_AHEAD.set(kept)
    try:
        yield kept
    finally:
        _READ_AHEAD.reset(token)


def read_lesson(text: str, path: str) -> Read:
    """The first stages of a check: the YAML with source positions, the bounds, the schema, the typed
    lesson (positions parsed; no claim verified yet), with the errors found on the way."""
    ahead = _READ_AHEAD.get()
    kept = ahead.pop((path, text), None) if ahead is not None else None
    if kept is not None:
        return kept
    doc, errors = load_document(text, path)
    if doc is None:
        return None, None, errors
    too_much = lesson_bounds(doc)
    if too_much:  # nothing more is checked: the limits exist so that no stage pays for it
        return doc, None, errors + too_much
    schema_errors = [(where, e) for where, e in validate(doc) if not any(where[: len(r)] == r for r in doc.refused)]
    errors.extend(e for _, e in schema_errors)
    invalid = {where for where, _ in schema_errors} | doc.refused  # refused values are unusable too
    lesson, build_errors = build_lesson(doc, invalid)
    return doc, lesson, errors + build_errors


def check_text(text: str, path: str, proof_budget: int | None = None) -> tuple[CheckedLesson | None, list[SourceError]]:
    """Check one lesson given as text (``path`` is only used in messages); ``proof_budget`` is the
    node budget of each puzzle's proof (None: ``$DAMAS_PROOF_BUDGET`` or the default)."""
    doc, lesson, errors = read_lesson(text, path)
    if doc is None or lesson is None:
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
    check: Callable[[FsPath, int | None], tuple[CheckedLesson | None, list[SourceError]]] | None = None,
) -> CheckReport:
    """Check every lesson under ``paths``; slugs must be unique within a variant.  ``proof_budget``
    (the course's setting) bounds each puzzle's proof in search nodes; the reader text is checked
    against ``glossary`` (default: the bundled glossary of each lesson's language) and the house
    style, as warnings, or as errors when ``strict_text`` (the course's setting).  ``check`` checks
    one file (default :func:`check_file`; ``damas serve`` keeps the results of files that did not change)."""
    check = check or check_file
    report = CheckReport()
    files, errors = lesson_files(paths)
    report.errors.extend(errors)
    slugs: dict[tuple[str, str], str] = {}
    for f in files:
        report.files.append(display_path(f))
        checked, file_errors = check(f, proof_budget)
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
