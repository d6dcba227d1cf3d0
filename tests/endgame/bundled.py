"""The endgame slices that ship with damas (``generator.endgame.store.bundled_root()``): those the ending
claims of the bundled course read, with every slice they need.

A cold cache copies them instead of solving them, so a first check of the course starts at once.
After a change to the endgame solver, to a variant's rules, or to the course's ending claims, make
them again from the repository's root::

    python -m tests.endgame.bundled

``tests/endgame/test_bundled.py`` fails until the shipped slices are what this makes.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

from generator.endgame.material import Material
from generator.endgame.tables import Tables
from generator.lessons.ahead import file_lesson, lesson_endings
from generator.lessons.check import lesson_files

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def claimed() -> dict[str, list[Material]]:
    """Per variant, the materials of the bundled course's ending claims (each once, in course order;
    read once a run: reading the course takes two seconds)."""
    files, errors = lesson_files([ROOT / "lessons"])
    assert not errors, errors
    out: dict[str, list[Material]] = {}
    for f in files:
        lesson = file_lesson(f)
        if lesson is None:
            continue
        for wanted in lesson_endings(lesson):
            m = Material(*wanted)
            if m not in out.setdefault(lesson.variant.name, []):
                out[lesson.variant.name].append(m)
    return out


def build(root: Path) -> list[Path]:
    """Solve those slices (and what they need) into the tables folder ``root``; their folders."""
    folders = []
    for variant, wanted in claimed().items():
        tables = Tables(variant, root)
        tables.build_materials(wanted)
        folders.append(tables.folder)
    return folders


SHIPPED = ROOT / "generator" / "endgame" / "bundled"
"""Where they ship from (the package folder of this checkout)."""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        shutil.rmtree(SHIPPED, ignore_errors=True)
        shutil.copytree(Path(tmp), SHIPPED)
    print(f"{sum(1 for _ in SHIPPED.rglob('*.json'))} slices in {SHIPPED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
