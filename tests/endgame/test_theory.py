"""What the books teach about these endings holds in the tables.

Each fact cites its source (also in docs/endgames.md).
"""

from __future__ import annotations

import random

import pytest

from generator.endgame.index import slice_index
from generator.endgame.material import Material
from generator.endgame.probe import probe_position
from generator.endgame.retro import DRAW, LOSS, WIN
from generator.rules import Position
from generator.rules.draws import long_diagonal

from .helpers import position, tables


def _captures(variant, w: int, b: int, k: int, turn: int) -> bool:  # type: ignore[no-untyped-def]
    return any(m.captures for m in variant.generator.moves(w, b, k, turn))


SAMPLE = 25_000
"""Positions drawn from a slice for a statement about the whole slice (a full pass over millions of
positions in Python costs minutes; a sample of this size misses nothing a book would state)."""


def _scan(variant: str, material: Material, turn: int, sample: int = SAMPLE):  # type: ignore[no-untyped-def]
    """(dense placement, padded placement, lone side on the long diagonal, strong side on it,
    either side could capture, result, distance) for ``sample`` random placements of the slice
    (all of them when it is smaller), ``turn`` to move."""
    t = tables(variant)
    sl = t.slice(material)
    ix = slice_index(t.board, material)
    diagonal = t.board.to_dense(long_diagonal(t.variant.geometry))
    rng = random.Random(1827)
    indices = range(ix.size) if ix.size <= sample else sorted(rng.sample(range(ix.size), sample))
    for i in indices:
        w, b, k = ix.position(i)
        padded = (t.board.to_padded(w), t.board.to_padded(b), t.board.to_padded(k))
        tactics = _captures(t.variant, *padded, 0) or _captures(t.variant, *padded, 1)
        yield (w, b, k), padded, bool(b & diagonal), bool(w & diagonal), tactics, *sl.entry(turn, i)


# -- American checkers ------------------------------------------------------------------------------

# Edward Lasker, "Chess and Checkers: The Way to Mastership" (1918; Project Gutenberg eBook 4913),
# part II, chapter III "The five fundamental positions", Diagram 93, "The First Position": White
# kings on 19 and 23, Black king on 28 and man on 12, "White to Move and Win"; "If Black has the
# move the ending is a draw."
FIRST_POSITION = "W:WK19,K23:BK28,12"


def test_first_position_is_won_by_white_to_move() -> None:
    t = tables("american")
    probe = probe_position(t, Position.from_fen("american", FIRST_POSITION))
    assert probe.value.result == "win"
    assert probe.value.plies is not None and probe.value.plies > 25  # beyond the forward solver's reach


def test_first_position_with_black_to_move_is_a_draw() -> None:
    t = tables("american")
    probe = probe_position(t, Position.from_fen("american", "B" + FIRST_POSITION[1:]))
    assert probe.value.result == "draw"


def test_two_kings_beat_one() -> None:
    """Lasker, ibid., chapter II, Diagram 89: "With one King entrenched in the double corner it
    takes two Kings to force the win": White kings on 19 and 23, Black king on 32, White to move
    wins.  And in general: with the two kings to move and no capture pending for either side, the
    two kings win all but a handful of positions (kings jammed against the edge)."""
    t = tables("american")
    assert probe_position(t, Position.from_fen("american", "W:WK19,K23:BK32")).value.result == "win"
    won = others = 0
    for _dense, _padded, _lone, _strong, tactics, result, _d in _scan("american", Material(0, 2, 0, 1), 0):
        if not tactics:
            won += result == WIN
            others += result != WIN
    assert won > 10_000 and 0 < others < 20  # the whole slice: 15,872 placements


# -- Russian draughts: Petrov's triangle ------------------------------------------------------------

# A. D. Petrov, "Руководство к основательному познанию шашечной игры" (1827), as summarised in the
# Russian Wikipedia article "Треугольник Петрова": three kings catch a lone king that is not on the
# long diagonal ("большак") no later than their 13th move.


def test_three_kings_catch_a_lone_king_off_the_long_diagonal_within_13_moves() -> None:
    wins = 0
    longest = 0
    for _dense, _padded, lone_on_diagonal, _strong, tactics, result, d in _scan("russian", Material(0, 3, 0, 1), 0):
        if lone_on_diagonal or tactics:
            continue
        assert result == WIN
        wins += 1
        longest = max(longest, d)
    assert wins > 5_000
    assert 0 < longest <= 25  # 25 plies: the 13th move of the three kings takes the lone king


# -- Brazilian and International draughts: the long diagonal ----------------------------------------

# Hoyle's Games, "Polish draughts" (the 10x10 game): "If the player who has only one queen occupies
# the diagonal line which extends from 5 to 46, to draw the game he has only to move constantly from
# one extremity of this line to the other".  That four kings win is the common teaching this project
# was asked to check (no printed source was consulted for it): the tables confirm it.


@pytest.mark.parametrize("variant", ["brazilian", "international"])
def test_a_lone_king_holding_the_long_diagonal_draws_against_three(variant: str) -> None:
    draws = 0
    for _dense, _padded, lone_on_diagonal, strong_on_diagonal, tactics, result, _d in _scan(
        variant, Material(0, 3, 0, 1), 1
    ):
        if lone_on_diagonal and not strong_on_diagonal and not tactics:
            assert result == DRAW
            draws += 1
    assert draws > 1_000


def test_three_kings_holding_the_long_diagonal_win_in_brazilian() -> None:
    """The other half of the same teaching: take the long diagonal first, and three kings win (as in
    Russian draughts, Petrov's triangle)."""
    wins = 0
    for _dense, _padded, lone_on_diagonal, strong_on_diagonal, tactics, result, _d in _scan(
        "brazilian", Material(0, 3, 0, 1), 0
    ):
        if strong_on_diagonal and not lone_on_diagonal and not tactics:
            assert result == WIN
            wins += 1
    assert wins > 5_000


def test_four_kings_beat_one_in_brazilian() -> None:
    count = 0
    for _dense, _padded, _lone, _strong, tactics, result, _d in _scan("brazilian", Material(0, 4, 0, 1), 0):
        if not tactics:
            assert result == WIN
            count += 1
    assert count > 5_000


@pytest.mark.slow
def test_four_kings_beat_one_in_international() -> None:
    count = 0
    for _dense, _padded, _lone, _strong, tactics, result, _d in _scan("international", Material(0, 4, 0, 1), 0):
        if not tactics:
            assert result == WIN
            count += 1
    assert count > 5_000


def test_results_are_consistent_with_the_moves() -> None:
    """Every stored value is what its children say (a win has a child lost one ply sooner, a loss
    only children won, the slowest one ply sooner, a draw no losing child and a drawing one)."""
    t = tables("american")
    m = Material(1, 1, 0, 1)
    ix = slice_index(t.board, m)
    sl = t.slice(m)
    for i in range(0, ix.size, 7):
        for turn in (0, 1):
            pos = position("american", t.board, ix.position(i), turn)
            probe = probe_position(t, pos)
            values = [v for _, v in probe.moves]
            result, d = sl.entry(turn, i)
            if not values:
                assert (result, d) == (LOSS, 0)
            elif result == WIN:
                assert min(v.plies for v in values if v.result == "win") == d  # type: ignore[type-var]
            elif result == LOSS:
                assert all(v.result == "loss" for v in values) and max(v.plies for v in values) == d  # type: ignore[type-var]
            else:
                assert not any(v.result == "win" for v in values) and any(v.result == "draw" for v in values)
