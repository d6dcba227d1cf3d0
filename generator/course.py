"""A course: its folder, its lessons and its settings (``course.yaml``), found from where the author works.

A course is a folder with ``course.yaml`` (title, language, author, paper size, variants) and
``lessons/``.  The repository's bundled course has no ``course.yaml``: a folder with only ``lessons/``
is a course with the default settings, so it builds exactly as it always has.  ``damas check``,
``damas build`` and ``damas serve`` all start from :func:`find_course`.  The settings travel with the
build as a :class:`Course` value: the HTML writer reads its title and language, the PDF jobs its
paper size, author and language.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator

from .errors import DamasError
from .lessons.schema import located_errors
from .lessons.source import SourceError, load_document
from .resources import data_text
from .rules import get_variant

if TYPE_CHECKING:
    from .lessons.check import CheckReport
    from .lessons.glossary import Glossary

COURSE_FILE = "course.yaml"
LESSONS_DIR = "lessons"
SCHEMA_FILE = "course.schema.json"
DEFAULT_TITLE = "Regras de damas"
PAPERS = {"a4": "a4", "letter": "us-letter"}
"""course.yaml's paper names -> Typst's."""


class NoCourse(DamasError):
    """No course where the command looked (a usage mistake: wrong folder)."""


class CourseError(DamasError):
    """``course.yaml`` is unreadable or breaks its schema; ``errors`` carry file:line:col."""

    def __init__(self, errors: list[SourceError]) -> None:
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors))


@dataclass(frozen=True)
class Course:
    """Where a course lives and how it looks in print and on screen."""

    root: Path
    lessons: Path
    title: str = DEFAULT_TITLE
    language: str = "pt-BR"
    author: str = ""
    paper: str = "a4"
    variants: tuple[str, ...] = ()
    """Canonical variant names to build, in order; empty: every variant that has lessons."""
    summary: str = ""
    proof_budget: int | None = None
    """Search nodes per puzzle proof (None: ``$DAMAS_PROOF_BUDGET`` or the solver's default)."""
    strict_text: bool = False
    """Reader-text findings (internal references, avoided words, house style) are errors, not warnings."""
    source: Path | None = None
    """The course.yaml it was read from (None for a bare lessons/ folder)."""
    watch: tuple[Path, ...] = field(default=())
    """Extra files whose change means a rebuild (course.yaml)."""

    @property
    def english(self) -> bool:
        return self.language.lower().startswith("en")

    @property
    def typst_paper(self) -> str:
        return PAPERS[self.paper]

    def pdf_settings(self, data: dict[str, Any]) -> dict[str, Any]:
        """The Typst data of one PDF with the course's paper, author, title and language added.

        The bundled course (no course.yaml) keeps its PDFs as they were: no course line on the cover.  The
        keys are the templates' own (``paper_size``, not ``paper``, which a job may use for its own data)."""
        out = {**data, "paper_size": self.typst_paper, "author": self.author or "damas"}
        if self.source is not None:
            out["course"] = self.title
        if self.english and data.get("lang") == "en":
            out["region"] = "US" if self.paper == "letter" else "GB"
        return out


def _validator() -> Draft202012Validator:
    return Draft202012Validator(course_schema())


@cache
def course_schema() -> dict[str, Any]:
    return json.loads(data_text(SCHEMA_FILE))


def schema_text() -> str:
    return data_text(SCHEMA_FILE)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_course(path: str | os.PathLike[str], *, lessons: str | os.PathLike[str] | None = None) -> Course:
    """Read and validate ``course.yaml``; raises :class:`CourseError` with located errors."""
    file = Path(path)
    shown = _shown(file)
    try:
        text = file.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CourseError([SourceError(shown, 1, 1, "not UTF-8 text: save the file as UTF-8")]) from None
    except OSError as exc:
        raise CourseError([SourceError(shown, 1, 1, f"cannot read the file: {exc.strerror}")]) from None
    doc, errors = load_document(text, shown)
    if doc is None:
        raise CourseError(errors)
    errors = sorted(set(errors) | set(located_errors(_validator(), doc, "the course")))
    if errors:
        raise CourseError(errors)
    data: dict[str, Any] = doc.data
    root = file.parent
    names = tuple(dict.fromkeys(get_variant(v).name for v in data.get("variants", ())))
    return Course(
        root=root,
        lessons=Path(lessons) if lessons is not None else root / LESSONS_DIR,
        title=data["title"].strip(),
        language=data["language"],
        author=data.get("author", "").strip(),
        paper=data.get("paper", "a4"),
        proof_budget=data.get("proof_budget"),
        strict_text=bool(data.get("strict_text", False)),
        variants=names,
        summary=data.get("summary", "").strip(),
        source=file,
        watch=(file,),
    )


def find_course(
    folder: str | os.PathLike[str] | None = None, *, lessons: str | os.PathLike[str] | None = None
) -> Course:
    """The course in ``folder`` (default: the current folder): its ``course.yaml``, else its ``lessons/``.

    ``lessons`` overrides where the lesson files are (``--lessons``); with it, a folder without a course
    is fine and gets the default settings.
    """
    base = Path(folder) if folder is not None else Path()
    if folder is not None and not base.is_dir():
        raise NoCourse(f"{folder}: no such folder")
    if (base / COURSE_FILE).is_file():
        return load_course(base / COURSE_FILE, lessons=lessons)
    if lessons is not None:
        return Course(root=base, lessons=Path(lessons))
    if (base / LESSONS_DIR).is_dir():
        return Course(root=base, lessons=base / LESSONS_DIR)
    where = "here" if folder is None else f"in {folder}"
    raise NoCourse(
        f"no course {where}: no {COURSE_FILE} and no {LESSONS_DIR}/ folder "
        "(start one with 'damas init DIR', or name it with --course DIR)"
    )


def variant_errors(course: Course, checked: list[Any]) -> list[SourceError]:
    """A lesson whose variant course.yaml does not list would silently be left out of the build: say so."""
    if not course.variants:
        return []
    listed = set(course.variants)
    shown = _shown(course.source) if course.source else COURSE_FILE
    return [
        c.doc.error(
            ("variant",),
            f"variant '{c.lesson.variant.name}' is not among the variants of {shown} "
            f"({', '.join(course.variants)}): add it there or move the lesson",
        )
        for c in checked
        if c.lesson.variant.name not in listed
    ]


def check_course(
    course: Course,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    *,
    glossary: Glossary | None = None,
    check: Any = None,
) -> CheckReport:
    """Check the course's lessons (or ``paths`` inside it), plus the course-level rules (``check``:
    see :func:`generator.lessons.check.check_paths`)."""
    from .lessons.check import check_paths

    report = check_paths(
        list(paths) if paths is not None else [course.lessons],
        proof_budget=course.proof_budget,
        glossary=glossary,
        strict_text=course.strict_text,
        check=check,
    )
    report.errors.extend(variant_errors(course, report.lessons))
    report.errors.sort()
    return report
