"""Difficulty measures solving (generator/puzzles/difficulty.py): the formula, the cap, and the
bundled books' levels against the engine that ``damas play`` uses."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from generator.puzzles.difficulty import SHALLOW_CAP, Measure, engine_depth, measure
from generator.puzzles.engine import Engine
from generator.puzzles.line_facts import line_facts
from generator.rules.position import Position
from generator.rules.variants import get_variant

ROOT = Path(__file__).resolve().parents[2]
BOOKS = sorted(ROOT.glob("lessons/*/exercicios.yaml")) + sorted(ROOT.glob("lessons/*/golpes.yaml"))


def test_the_score_and_the_level() -> None:
    easy = Measure(depth=1, tempting=0, quiet=0, offers=1, plies=3)
    assert easy.score == 0 and easy.level == 1
    deep = Measure(depth=7, tempting=4, quiet=1, offers=2, plies=9)
    assert deep.score == 3 + 2 + 1 + 0.5 + 1.5 and deep.level == 5
    seen_at_once = Measure(depth=1, tempting=4, quiet=3, offers=3, plies=11)
    assert seen_at_once.level == 4, "a key the engine sees at 1 ply is no level 5"


def test_a_shot_the_engine_sees_at_once_measures_easy() -> None:
    am = get_variant("american")
    facts = line_facts(Position.from_fen(am, "B:W11,15,18,21,23,27,28:B2,4-6,8,13"), ["6-10", "15x6", "8x15x22"])
    m = measure(facts)
    assert m.depth == engine_depth(facts.start, facts.moves[0]) <= SHALLOW_CAP
    assert m.level <= 2


@cache  # read once per process, not three times (twice while collecting: the parameters and their ids)
def _level_five() -> list[tuple[str, dict]]:
    out = []
    for path in BOOKS:
        # the loader damas reads lessons with (generator/lessons/source.py): libyaml when it is there
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for p in doc.get("puzzles") or []:
            if p.get("difficulty") == 5:
                out.append((f"{doc['variant']}/{p['id']}", p | {"variant": doc["variant"]}))
    return out


def test_every_book_has_level_five_puzzles_to_test() -> None:
    assert len(_level_five()) >= 30


@pytest.mark.parametrize(("name", "puzzle"), _level_five(), ids=[n for n, _ in _level_five()])
def test_no_level_five_puzzle_is_found_by_the_engine_at_three_plies(name: str, puzzle: dict) -> None:
    v = get_variant(puzzle["variant"])
    pos = Position.from_fen(v, puzzle["position"])
    first = puzzle["solution"][0]
    key = pos.parse_move(first if isinstance(first, str) else first["move"])
    engine = Engine(v)
    assert engine.search(pos, 3, node_limit=200_000).move != key, f"{name}: the engine plays the key at 3 plies"
