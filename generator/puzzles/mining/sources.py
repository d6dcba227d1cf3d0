"""Where mined positions come from: work units (one self-play game, or one PDN game's text) and the
positions each unit yields, with their provenance.

PDN files are streamed: :func:`pdn_units` reads a file line by line and cuts it into games at tag
lines, so a file of any size is never held in memory; each unit carries one game's text and the
line it starts on, and is parsed and replayed by the worker that gets it (bad games are reported
by file and line and skipped).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import DamasError
from ...inputfile import InputFileError, open_text
from ...rules.game import Game
from ...rules.move import Move
from ...rules.position import Position
from ...rules.variants import get_variant
from ..engine import Engine
from .openings import openings_for

MAX_GAME_TEXT = 1 << 20
"""A single game's text larger than this (1 MiB) is reported and skipped, not held in memory."""


@dataclass(frozen=True)
class Unit:
    """One piece of work: a self-play game (``seed``) or one PDN game (``text`` from ``file:line``)."""

    index: int
    """Position in the run's order (the output is assembled in this order)."""
    key: str
    """Stable name in checkpoints: ``self-play:SEED`` or ``pdn:FILE:LINE``."""
    seed: int | None = None
    file: str | None = None
    line: int = 0
    text: str | None = None


@dataclass
class Sample:
    position: Position
    source: dict[str, Any]


def self_play_units(games: int, seed: int, start: int = 0) -> Iterator[Unit]:
    for i in range(games):
        s = seed + i
        yield Unit(start + i, f"self-play:{s}", seed=s)


def self_play_positions(variant_name: str, seed: int, settings: Any) -> list[Sample]:
    """Every position of one self-play game: a named opening of the variant drawn from ``seed``
    (:mod:`.openings`; random opening plies where the variant has none listed), then the engine
    (seeded, so near-equal moves vary between games) until the game ends or ``max_plies``."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    game = Game(variant, Position.start(variant))
    engine = Engine(variant, seed=seed)
    named = openings_for(variant_name) if settings.named_openings else ()
    opening = rng.choice(named) if named else None
    book = list(opening.moves) if opening is not None else []
    low, high = settings.random_plies
    random_until = 0 if opening is not None else rng.randint(low, high)
    source: dict[str, Any] = {"kind": "self-play", "seed": seed}
    if opening is not None:
        source["opening"] = opening.name
    out: list[Sample] = []
    while game.ply < settings.max_plies and not game.status().is_over:
        pos = game.position
        out.append(Sample(pos, {**source, "ply": game.ply}))
        move: Move | None
        if game.ply < len(book):
            move = pos.parse_move(book[game.ply])
        elif game.ply < random_until:
            move = rng.choice(pos.legal_moves())
        else:
            engine.table.clear()  # a fresh search per move keeps the game a function of the seed alone
            move = engine.search(pos, settings.engine_depth, node_limit=50_000).move
        assert move is not None, "the game is not over, so the engine has a move"
        game.push(move)
    return out


def pdn_units(path: str, start: int, errors: list[str]) -> Iterator[Unit]:
    """The games of a PDN file as units, streamed (one game's text at a time).

    A game starts at a tag line (``[...``) that follows move text; a file without tags is one
    unit per run of text between tag blocks.  Unreadable files (and devices, FIFOs, sockets, refused
    at once by :func:`generator.inputfile.open_text`) are reported in ``errors``.
    """
    index = start
    lines: list[str] = []
    size = 0
    first = 0
    seen_moves = False
    too_big = False
    try:
        with open_text(path) as f:
            for number, raw in enumerate(f, 1):
                stripped = raw.lstrip()
                if stripped.startswith("[") and seen_moves:
                    if too_big:
                        errors.append(f"{path}:{first}: game text over {MAX_GAME_TEXT:,} bytes; skipped")
                    elif lines:
                        yield Unit(index, f"pdn:{path}:{first}", file=path, line=first, text="".join(lines))
                        index += 1
                    lines, size, seen_moves, too_big = [], 0, False, False
                if not lines and not too_big:
                    if not stripped:
                        continue
                    first = number
                if stripped and not stripped.startswith("["):
                    seen_moves = True
                size += len(raw)
                if size > MAX_GAME_TEXT:
                    too_big, lines = True, []
                elif not too_big:
                    lines.append(raw)
    except UnicodeDecodeError as exc:
        errors.append(f"{path}: not UTF-8 text ({exc.reason}); convert it first, e.g. iconv -f latin1 -t utf-8")
        return
    except InputFileError as exc:
        errors.append(exc.at(path))
        return
    except OSError as exc:
        errors.append(f"{path}: {exc.strerror or exc}")
        return
    if too_big:
        errors.append(f"{path}:{first}: game text over {MAX_GAME_TEXT:,} bytes; skipped")
    elif lines and any(s.strip() for s in lines):
        yield Unit(index, f"pdn:{path}:{first}", file=path, line=first, text="".join(lines))


def pdn_positions(variant_name: str, unit: Unit) -> tuple[list[Sample], list[str]]:
    """The main-line positions of the games in one PDN unit, and its problems (``file:line: ...``)."""
    from ...rules.pdn import read_pdn, replay

    variant = get_variant(variant_name)
    offset = unit.line - 1
    name = unit.file or "<pdn>"
    out: list[Sample] = []
    problems: list[str] = []
    try:
        games = read_pdn(unit.text or "", variant, name)
    except DamasError as exc:
        return [], [f"{name}:{unit.line}: {exc}"]
    for g in games:
        where = f"{name}:{g.line + offset}"
        if g.variant is None or g.variant.name != variant.name:
            other = g.variant.name if g.variant is not None else "an unknown variant"
            problems.append(f"{where}: game is {other}, not {variant.name}; skipped")
            continue
        result = replay(g)
        bad = [e for e in result.errors if e.is_error]
        if bad:
            e = bad[0]
            problems.append(f"{name}:{e.line + offset}:{e.col}: {e.message}; game skipped")
            continue
        tags = {k.lower(): g.tags[k] for k in ("Event", "White", "Black", "Date") if g.tags.get(k)}
        if g.tags.get("GameNumber"):  # an archive's own number for the game (tests/data/acf)
            tags["game"] = g.tags["GameNumber"]
        for node in g.moves:
            if node.before is None:
                break
            source: dict[str, Any] = {"kind": "pdn", "file": Path(name).name, "line": node.line + offset}
            source.update(tags)
            source["move"] = max(node.number, 1)
            out.append(Sample(node.before, source))
    return out, problems
