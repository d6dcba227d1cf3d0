"""The public deep benchmark set (bench/data/deep-problems.yaml) is well formed.

bench/deep.py times the searches on these problems; a malformed entry would only show up there as a
crash or a meaningless "key fails".  These tests check the shape of every entry without solving
anything (the full uniqueness runs take seconds to minutes each: they belong to the benchmark), except
one cheap key proof through the same API as ``damas solve --first``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.search import Stipulation
from generator.rules import Position
from generator.rules.game import Game

DATA = Path(__file__).resolve().parents[2] / "bench" / "data" / "deep-problems.yaml"
MOVE_NUMBER = re.compile(r"^\d+\.+$")


def _load() -> dict:
    with DATA.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


DOC = _load()
PROBLEMS = DOC["problems"]


def _moves(solution: str) -> list[str]:
    return [t for t in solution.split() if not MOVE_NUMBER.match(t)]


def test_problem_and_rejected_ids_are_unique() -> None:
    ids = [p["id"] for p in PROBLEMS] + [r["id"] for r in DOC.get("rejected") or []]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_no_position_is_listed_twice() -> None:
    seen = [(p["variant"], Position.from_fen(p["variant"], p["fen"]).fen()) for p in PROBLEMS]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p["id"])
def test_entry_shape(problem: dict) -> None:
    for field in ("id", "variant", "fen", "goal", "depth", "key", "solution", "source", "verified"):
        assert problem.get(field) not in (None, ""), f"{problem.get('id')}: missing {field}"
    assert 13 <= problem["depth"] <= 25
    Stipulation.parse(problem["goal"])
    assert len(problem["source"].split()) >= 3, "a source names its publication"


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p["id"])
def test_published_line_replays_from_the_key(problem: dict) -> None:
    """The key is legal, the solution starts with it, and the whole line is legal and as long as
    the stated depth (the depth is the published main line)."""
    pos = Position.from_fen(problem["variant"], problem["fen"])
    key = pos.parse_move(problem["key"])
    moves = _moves(problem["solution"])
    assert pos.parse_move(moves[0]) == key
    for text in moves:
        pos = pos.play(pos.parse_move(text))
    assert len(moves) == problem["depth"]


def test_rejected_entries_say_why() -> None:
    rejected = DOC.get("rejected") or []
    assert rejected, "the file records the positions examined and left out"
    for entry in rejected:
        assert entry.get("fen") and entry.get("source") and entry.get("reason"), entry.get("id")


def _forces(problem: dict, move: str) -> bool:
    """What ``damas solve --first MOVE`` answers."""
    game = Game(problem["variant"], problem["fen"])
    solver = DfpnSolver(game.position.variant, game.profile)
    solver.prepare(game.position, Stipulation.parse(problem["goal"]))
    return solver.move_forces(game, game.position.parse_move(move), problem["depth"])


def test_one_cheap_key_is_proven_and_its_reported_dual_is_not() -> None:
    """Springer's "Crossing" (a few hundredths of a second each): the published key forces the win
    within the published 15 plies; 12-8, the dual KingsRow reported, does not under our rules."""
    crossing = next(p for p in PROBLEMS if p["id"] == "maven-crossing")
    assert _forces(crossing, crossing["key"])
    assert not _forces(crossing, "12-8")
