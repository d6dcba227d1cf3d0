"""The puzzles a course already has, as position keys: what ``damas mine --known`` does not mine again.

The files are found and read the way ``damas check`` reads lessons (:func:`.check.lesson_files`,
:func:`generator.inputfile.read_input`, the bounded YAML reader of :mod:`.source`), so a FIFO or a
device among them is refused at once, before any mining starts, and a YAML bomb costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import DamasError
from ..inputfile import InputFileError, decode_utf8, read_input
from ..puzzles.dedup import line_keys, position_key
from ..rules import Position, Variant, get_variant
from .check import display_path, lesson_files
from .source import load_document


@dataclass
class Known:
    keys: set[str] = field(default_factory=set)
    """Position keys (:func:`generator.puzzles.dedup.position_key`) of the puzzles' starts and of
    the positions on their lines."""
    refused: list[str] = field(default_factory=list)
    """Files that cannot be read as input (``path: reason``): the run should not start."""
    problems: list[str] = field(default_factory=list)
    """Files read but not usable (not UTF-8, not YAML): reported, not fatal."""


def known_positions(variant: Variant | str, paths: Iterable[str | os.PathLike[str]]) -> Known:
    """The position keys of the puzzles of ``variant`` in the lesson files under ``paths``."""
    v = get_variant(variant)
    files, errors = lesson_files(paths)
    out = Known(refused=[str(e) for e in errors])
    for f in files:
        shown = display_path(f)
        try:
            text = decode_utf8(read_input(f, "lesson_file_bytes"))
        except InputFileError as exc:  # a place in the file: not UTF-8 text; else not readable at all
            (out.refused if exc.line is None else out.problems).append(exc.at(shown))
            continue
        doc, problems = load_document(text, shown)
        if doc is None:
            out.problems.extend(str(e) for e in problems)
            continue
        if isinstance(doc.data, dict) and _variant_of(doc.data.get("variant")) is v:
            _add_puzzles(out.keys, v, doc.data.get("puzzles"))
    return out


def _variant_of(name: object) -> Variant | None:
    try:
        return get_variant(str(name))
    except DamasError:
        return None


def _add_puzzles(keys: set[str], v: Variant, puzzles: Any) -> None:
    for p in puzzles if isinstance(puzzles, list) else []:
        if isinstance(p, dict) and isinstance(p.get("position"), str):
            try:
                pos = Position.from_fen(v, p["position"])
            except DamasError:
                continue  # damas check reports it
            keys.add(position_key(pos))
            if isinstance(p.get("solution"), list):
                keys.update(line_keys(pos, p["solution"]))
