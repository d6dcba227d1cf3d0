"""``damas init``: write a starter course that checks and builds.

The starter files are package data (``generator/starter/``): a ``course.yaml``, a README for authors and,
per variant, a rules lesson and a puzzle lesson, in pt-BR or English.  The lessons are templates filled
from ``starter/variants.yaml`` (the first move, a compulsory capture and one proven puzzle per variant),
so every claim in them is a real claim the checker verifies.  Values are written as JSON scalars, which
YAML reads back unchanged whatever the title contains.  The course is assembled in a temporary folder
beside the target and moved into place at the end: a failure leaves nothing half-written.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

import yaml

from .course import COURSE_FILE, LESSONS_DIR, SCHEMA_FILE
from .errors import DamasError
from .lessons.schema import schema_text as lesson_schema_text
from .resources import data_text, starter_dir
from .rules import Variant, get_variant

LANGUAGES = ("pt-BR", "en")
PAPERS = ("a4", "letter")
LESSON_SCHEMA_FILE = "lesson.schema.json"

_WORDS = {
    "pt-BR": {
        "sides": ("brancas", "pretas"),
        "lessons": ("regras.yaml", "golpes.yaml"),
        "title": "Meu curso de damas",
        "summary": "Lições de damas com diagramas; cada lance citado foi conferido pelo motor de regras.",
    },
    "en": {
        "sides": ("White", "Black"),
        "lessons": ("rules.yaml", "puzzles.yaml"),
        "title": "My draughts course",
        "summary": "Draughts lessons with diagrams; every move quoted was checked by the rules engine.",
    },
}


class InitRefused(DamasError):
    """The target folder cannot take a new course (not empty, or not a folder)."""


@dataclass(frozen=True)
class Starter:
    """What ``damas init`` was asked for."""

    variants: tuple[Variant, ...]
    language: str = "pt-BR"
    title: str = ""
    author: str = ""
    paper: str = "a4"


def _material() -> dict[str, Any]:
    return yaml.safe_load((starter_dir() / "variants.yaml").read_text(encoding="utf-8"))


def _lesson_values(variant: Variant, language: str, facts: dict[str, Any]) -> dict[str, str]:
    english = language == "en"
    sides = _WORDS[language]["sides"]
    first = sides[0] if facts["first"] == "white" else sides[1]
    capture_side = sides[0] if facts["capture"]["position"].startswith("W") else sides[1]
    return {
        "variant": variant.name,
        "title": variant.title_en if english else variant.title,
        "first": first,
        "First": first[:1].upper() + first[1:],
        "count": str(len(facts["start_moves"])),
        "moves": json.dumps(facts["start_moves"]),
        "capture": facts["capture"]["move"],
        "capture_position": json.dumps(facts["capture"]["position"]),
        "capture_side": capture_side,
        "Capture_side": capture_side[:1].upper() + capture_side[1:],
        "puzzle_position": json.dumps(facts["puzzle"]["position"]),
        "stipulation": json.dumps(facts["puzzle"]["stipulation"]),
        "solution": json.dumps(facts["puzzle"]["solution"], ensure_ascii=False),
    }


def starter_files(starter: Starter) -> dict[str, str]:
    """Every file of the new course: path relative to the course folder -> text."""
    lang = starter.language
    words = _WORDS[lang]
    source = starter_dir() / lang
    title = starter.title.strip() or words["title"]
    course = {
        "course_title": json.dumps(title, ensure_ascii=False),
        "author": json.dumps(starter.author.strip(), ensure_ascii=False),
        "paper": starter.paper,
        "variants": json.dumps([v.name for v in starter.variants]),
        "summary": json.dumps(words["summary"], ensure_ascii=False),
    }
    files = {
        COURSE_FILE: Template((source / "course.yaml").read_text(encoding="utf-8")).substitute(course),
        "README.md": Template((source / "README.md").read_text(encoding="utf-8")).substitute(course_title=title),
        SCHEMA_FILE: data_text(SCHEMA_FILE),
        LESSON_SCHEMA_FILE: lesson_schema_text(),
        ".gitignore": "output/\n",
    }
    material = _material()
    for v in starter.variants:
        values = _lesson_values(v, lang, material[v.name])
        for name in words["lessons"]:
            text = Template((source / name).read_text(encoding="utf-8")).substitute(values)
            files[f"{LESSONS_DIR}/{v.name}/{name}"] = text
    return files


def write_starter(target: str | os.PathLike[str], starter: Starter) -> list[str]:
    """Write the starter course into ``target`` (missing or empty); returns the files written.

    Raises:
        InitRefused: when ``target`` is a file or a folder that is not empty.
    """
    dest = Path(target)
    if dest.exists() and not dest.is_dir():
        raise InitRefused(f"{target} is a file, not a folder")
    if dest.is_dir() and any(dest.iterdir()):
        raise InitRefused(f"{target} is not empty: give a new or empty folder")
    files = starter_files(starter)
    dest = dest.resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}-init-", dir=dest.parent))
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if dest.is_dir():
            _move_into(tmp, dest)  # keep the folder itself: it may be the shell's current folder
        else:
            os.chmod(tmp, 0o777 & ~_umask())
            os.replace(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return sorted(files)


def _move_into(tmp: Path, dest: Path) -> None:
    """Move the new course's top-level entries into an existing empty folder; undo on failure."""
    moved: list[Path] = []
    try:
        for entry in sorted(tmp.iterdir()):
            target = dest / entry.name
            if target.exists():
                raise InitRefused(f"{dest} is not empty any more: {entry.name} appeared")
            entry.rename(target)
            moved.append(target)
    except BaseException:
        for target in moved:
            if target.is_dir():
                shutil.rmtree(target, ignore_errors=True)
            else:
                target.unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def default_variants(language: str) -> tuple[Variant, ...]:
    return (get_variant("american" if language == "en" else "brazilian"),)
