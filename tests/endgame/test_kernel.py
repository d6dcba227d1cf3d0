"""The compiled kernel against the engine and against the pure reference solver.

* its positions after each legal move equal the engine's (``Variant.generator.children``) on
  random positions of every variant, up to eight pieces;
* its moves back (``parents``) are exactly the positions whose quiet, material-keeping move leads
  to the position (checked both ways);
* its index equals ``index.py``'s;
* its tables equal the pure reference's (``retro.solve_pure``, forward iteration on the engine)
  on every slice of up to two pieces in every variant, and on 3-piece slices of several.
"""

from __future__ import annotations

import random

import pytest

from generator.endgame import solver
from generator.endgame.board import Board
from generator.endgame.index import slice_index
from generator.endgame.material import Material, materials_up_to, parse_material
from generator.endgame.retro import solve_pure
from generator.endgame.store import Slice

from .helpers import every_board, random_position

pytestmark = pytest.mark.skipif(not solver.COMPILED_AVAILABLE, reason=f"the endgame kernel: {solver.WHY_PURE}")

BOARDS = every_board()


def _kernel(board: Board):  # type: ignore[no-untyped-def]
    return solver.make_kernel(board)


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.variant.name)
def test_children_equal_the_engines(board: Board) -> None:
    kernel = _kernel(board)
    gen = board.variant.generator
    rng = random.Random(7)
    checked = captures = 0
    for _ in range(1500):
        m, (w, b, k), turn = random_position(board, rng, rng.randint(1, 8))
        if m.pieces <= 5:
            assert kernel.index(m, w, b, k) == slice_index(board, m).index(w, b, k)
            assert kernel.position(m, kernel.index(m, w, b, k)) == (w, b, k)
        is_capture, kids = gen.children(board.to_padded(w), board.to_padded(b), board.to_padded(k), turn)
        expected = sorted((c[0], c[1], c[2]) for c in kids)
        got = sorted(
            (board.to_padded(x), board.to_padded(y), board.to_padded(z))
            for x, y, z, _ in kernel.children(w, b, k, turn)
        )
        assert got == expected, (m.name, turn)
        checked += 1
        captures += is_capture
    assert checked == 1500 and captures > 100  # the sample holds captures, not only quiet moves


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.variant.name)
def test_parents_are_exactly_the_quiet_predecessors(board: Board) -> None:
    kernel = _kernel(board)
    rng = random.Random(11)
    links = 0
    for _ in range(600):
        _m, (w, b, k), turn = random_position(board, rng, rng.randint(1, 5))
        # forwards: every quiet child that keeps the material has this position among its parents
        for cw, cb, ck, changes in kernel.children(w, b, k, turn):
            if not changes:
                assert (w, b, k) in kernel.parents(cw, cb, ck, turn ^ 1)
                links += 1
        # backwards: every parent has this position among its material-keeping children
        for pw, pb, pk in kernel.parents(w, b, k, turn):
            kids = kernel.children(pw, pb, pk, turn ^ 1)
            assert (w, b, k, False) in kids
    assert links > 1000


def _solve_both(board: Board, wanted: list[Material]) -> int:
    """Solve ``wanted`` (and what they need) with both solvers; assert equal tables; return slices."""
    from generator.endgame.tables import closure

    kernel = _kernel(board)
    solved: dict[Material, Slice] = {}
    compared = 0
    for m in closure(wanted):
        exits = {x: solved[x] for x in m.successors()}
        results, dist, _ = solver.solve(board, m, exits, kernel)

        def lookup(x: Material, turn: int, index: int) -> tuple[int, int]:
            return solved[x].entry(turn, index)

        if m in wanted:
            pure_results, pure_dist, _ = solve_pure(board, m, lookup)
            assert (results, dist) == (pure_results, pure_dist), m.name
            compared += 1
        solved[m] = Slice(m, slice_index(board, m).size, bytes(results), bytes(dist), 2, {})
    return compared


SMALL_BOARDS = [b for b in BOARDS if b.size <= 32 and b.variant.name != "antidraughts"]
LARGE_BOARDS = [b for b in BOARDS if b not in SMALL_BOARDS]


@pytest.mark.parametrize("board", SMALL_BOARDS, ids=lambda b: b.variant.name)
def test_compiled_and_pure_tables_are_identical_up_to_two_pieces(board: Board) -> None:
    assert _solve_both(board, materials_up_to(2)) == 14


@pytest.mark.parametrize("board", LARGE_BOARDS, ids=lambda b: b.variant.name)
def test_compiled_and_pure_tables_are_identical_on_large_boards(board: Board) -> None:
    """10x10 and the 64-square Turkish board: the pure solver is slow there, so a sample of slices."""
    wanted = [parse_material(n) for n in ("1k-0", "0-1m", "1k-1k", "1m-1k", "1k-1m", "1m-1m")]
    assert _solve_both(board, wanted) == len(wanted)


@pytest.mark.parametrize(("variant", "name"), [("american", "2k-1k"), ("italian", "2m-1k"), ("russian", "1k-1k1m")])
def test_compiled_and_pure_tables_are_identical_on_three_pieces(variant: str, name: str) -> None:
    from generator.endgame.board import board_of

    assert _solve_both(board_of(variant), [parse_material(name)]) == 1
