"""The perfect index: every legal placement once, and the published position counts.

Schaeffer et al., "Checkers Is Solved", Science 317 (2007), table 1, and OEIS A055213 count the
positions of American checkers with n pieces: 120; 6,972; 261,224; 7,092,774; 148,688,232.  Their
count is of placements, without the side to move; kings and men of both colours; a man never on
its own crowning row (it would have been crowned); one side may have no piece.  The 2-piece count
pins that down by hand: 4 kinds of 2-piece same-kind pairs (496 + 496 + 378 + 378) and the mixed
pairs (992 + 4 * 868 + 760) make 6,972.
"""

from __future__ import annotations

import random

import pytest

from generator.endgame.board import board_of
from generator.endgame.index import slice_index
from generator.endgame.material import Material, material_of, materials, parse_material

from .helpers import every_board

PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232}


@pytest.mark.parametrize("pieces", sorted(PUBLISHED))
def test_american_counts_equal_the_published_table(pieces: int) -> None:
    board = board_of("american")
    assert sum(slice_index(board, m).size for m in materials(pieces)) == PUBLISHED[pieces]


@pytest.mark.parametrize("pieces", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_enumeration_lists_every_legal_placement_once(pieces: int) -> None:
    """Decode every index of every slice: all distinct, all legal, the right material; and their
    number is the published one (3 pieces: about a minute, ``-m slow``)."""
    board = board_of("american")
    seen: set[tuple[int, int, int]] = set()
    for m in materials(pieces):
        ix = slice_index(board, m)
        for i in range(ix.size):
            w, b, k = ix.position(i)
            assert not w & b
            assert material_of(w, b, k) == m
            assert not (w & ~k) & board.promotion[0] and not (b & ~k) & board.promotion[1]
            assert ix.index(w, b, k) == i
            seen.add((w, b, k))
    assert len(seen) == PUBLISHED[pieces]


@pytest.mark.parametrize("board", every_board(), ids=lambda b: b.variant.name)
def test_index_round_trip_on_random_positions(board) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(25)
    most = 5 if board.size <= 32 else 4  # the men offsets of 5 pieces on 50-64 squares take a while
    for m in [m for n in range(2, most + 1) for m in materials(n)]:
        ix = slice_index(board, m)
        for _ in range(20):
            i = rng.randrange(ix.size)
            assert ix.index(*ix.position(i)) == i


def test_material_names_read_back() -> None:
    for m in [m for n in (1, 2, 3, 4, 5) for m in materials(n)]:
        assert parse_material(m.name) == m
    assert Material(1, 2, 0, 1).name == "2k1m-1k"
    with pytest.raises(ValueError):
        parse_material("3q-1k")


def test_solving_order_puts_every_successor_first() -> None:
    """Captures and crownings lead only to slices solved earlier."""
    order = list(materials(1)) + list(materials(2)) + list(materials(3)) + list(materials(4))
    place = {m: i for i, m in enumerate(order)}
    for m in order:
        for s in m.successors():
            assert place[s] < place[m], (m.name, s.name)
