"""Every stored result against a forward proof: df-pn (generator/puzzles/dfpn.py, what
``damas solve`` runs) on random positions inside its horizon, in every variant.

For a position the tables call won in d plies (d within the horizon), df-pn proves "the side to
move wins within d plies", and a plain minimax on the engine's moves (the definition, without
df-pn's play-out of pending captures past its bound) finds no win within d - 2.  For a draw or a
loss df-pn proves no win within the horizon; for a loss in d plies every move lets the opponent
prove a win within d - 1.
"""

from __future__ import annotations

import random

import pytest

from generator.endgame.index import slice_index
from generator.endgame.material import materials_up_to
from generator.endgame.retro import LOSS, WIN
from generator.puzzles.dfpn import DfpnSolver
from generator.rules import VARIANTS

from .helpers import position, tables

HORIZON = 9
SAMPLES = 250
"""Positions per 8x8 variant (diagonal boards); the 50- and 64-square boards, slower to search, get
LARGE_SAMPLES: about 1,900 positions in all."""
LARGE_SAMPLES = 120


def _wins_within(solver: DfpnSolver, pos, plies: int) -> bool:  # type: ignore[no-untyped-def]
    if not pos.has_legal_moves():  # the game is over: won here only where the side that cannot move wins
        return pos.variant.goal.name == "LOSING"
    return plies >= 1 and bool(solver.solve(pos, "win", plies).solutions)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_tables_agree_with_dfpn(variant: str) -> None:
    t = tables(variant)
    pieces = 3
    t.build(pieces)
    rng = random.Random(2007)
    solver = DfpnSolver(t.variant, endgame=False)  # the forward proof alone: the tables are under test
    mats = [m for m in materials_up_to(pieces) if m.pieces >= 2]
    seen = {WIN: 0, LOSS: 0, 0: 0}
    checked = 0
    samples = SAMPLES if t.board.size <= 32 else LARGE_SAMPLES
    while checked < samples:
        m = rng.choice(mats)
        ix = slice_index(t.board, m)
        i, turn = rng.randrange(ix.size), rng.randrange(2)
        result, d = t.slice(m).entry(turn, i)
        if result != 0 and d > HORIZON:
            continue
        pos = position(variant, t.board, ix.position(i), turn)
        if not pos.has_legal_moves():
            continue
        checked += 1
        seen[result] += 1
        if result == WIN:
            assert _wins_within(solver, pos, d), pos.fen()
            assert not _minimax_win(t.variant, pos.state, d - 2, {}), pos.fen()
        elif result == LOSS:
            assert not _wins_within(solver, pos, HORIZON), pos.fen()
            for move in pos.legal_moves():
                assert _wins_within(solver, pos.play(move), d - 1), (pos.fen(), pos.move_text(move))
        else:
            assert not _wins_within(solver, pos, HORIZON), pos.fen()
    assert checked == samples and seen[WIN] > 10 and seen[LOSS] > 10, seen
    if t.variant.goal.name != "LOSING":  # few positions of three pieces are drawn in the losing games
        assert seen[0] > 10, seen


def _minimax_win(variant, state, plies: int, memo: dict) -> bool:  # type: ignore[no-untyped-def,type-arg]
    """Does the side to move end the game in its favour within ``plies`` against any defence?
    (No play-out of pending captures: exactly the tables' distance.)"""
    return _ends(variant, state, plies, True, memo)


def _ends(variant, state, plies: int, win: bool, memo: dict) -> bool:  # type: ignore[no-untyped-def,type-arg]
    """``win``: the side to move wins within ``plies``; else: it loses within ``plies``."""
    key = (state, plies, win)
    if key in memo:
        return memo[key]  # type: ignore[no-any-return]
    gen = variant.generator
    moves = gen.moves(*state)
    if not moves:
        out = win == (variant.goal.name == "LOSING")  # the side that cannot move loses (wins if inverted)
    elif plies < 1:
        out = False
    elif win:
        out = any(_ends(variant, gen.apply(*state, m), plies - 1, False, memo) for m in moves)
    else:
        out = all(_ends(variant, gen.apply(*state, m), plies - 1, True, memo) for m in moves)
    memo[key] = out
    return out
