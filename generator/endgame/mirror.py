"""A slice from its colour-swapped twin, without solving it: the pure reference of ``Kernel.derive``.

The slices ``2k1m-1k`` and ``1k-2k1m`` hold the same game.  Turn a position of one half a turn
(each square to its 180° image, ``board.half_turn``), swap the colours and hand the move to the
other side: it is a position of the other slice, and the side now to move stands where the side to
move stood before, with the same moves, so the same result and the same distance.  Copying the
solved twin's entries through that map gives a slice byte for byte equal to the one the solver
would make, at the price of one pass over the slice (tests/endgame/test_mirror.py checks it on
every variant).  Where ``half_turn`` is None the board is not symmetric and the slice is solved.

This is the reference, one position at a time through ``index.py``; the compiled kernel
(``_retro.pyx``, ``Kernel.derive``) does the same in C.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..rules.geometry import BLACK, WHITE
from .board import Board, half_turn, turn_mask
from .index import slice_index
from .material import Material
from .retro import DRAW
from .store import Slice


def derive_pure(board: Board, material: Material, source: Slice) -> tuple[bytearray, bytearray]:
    """``(results, dist16)`` of ``material`` (the kernel's format, as ``solve_pure`` returns them)
    read from ``source``, the solved slice of ``material.swapped()``.

    Every placement of the material is visited once (:func:`placements`, not the index's inverse,
    which is slow in Python) and gives its entry with either side to move.

    Raises:
        ValueError: when the board has no half-turn symmetry or ``source`` is not the twin.
    """
    image = half_turn(board)
    if image is None:
        raise ValueError(f"{board.variant.name}: the board is not symmetric; solve the slice instead")
    if source.material != material.swapped():
        raise ValueError(f"{source.material.name} is not the colour-swapped twin of {material.name}")
    ix = slice_index(board, material)
    src = slice_index(board, source.material)
    size = ix.size
    results = bytearray((2 * size + 3) // 4)
    dist = bytearray(4 * size)
    seen = 0
    for w, b, k in placements(board, material):
        index = ix.index(w, b, k)
        twin = src.index(turn_mask(image, b), turn_mask(image, w), turn_mask(image, k))
        for turn in (0, 1):
            r, d = source.entry(turn ^ 1, twin)
            i = turn * size + index
            results[i >> 2] |= r << ((i & 3) * 2)
            if r != DRAW:
                dist[2 * i] = d & 0xFF
                dist[2 * i + 1] = d >> 8
        seen += 1
    if seen != size or src.size != size:
        raise ValueError(f"{material.name}: {seen} placements, the index counts {size}")
    return results, dist


def placements(board: Board, material: Material) -> Iterator[tuple[int, int, int]]:
    """Every legal placement of ``material`` as (white, black, kings) dense masks, each once: the
    white men off White's crowning row, the black men off Black's, the kings anywhere free."""
    wm, wk, bm, bk = material
    for white_men in _choose(board.men_squares(WHITE), wm):
        for black_men in _choose(board.men_squares(BLACK) & ~white_men, bm):
            free = board.full & ~(white_men | black_men)
            for white_kings in _choose(free, wk):
                for black_kings in _choose(free & ~white_kings, bk):
                    yield white_men | white_kings, black_men | black_kings, white_kings | black_kings


def _choose(mask: int, k: int) -> Iterator[int]:
    """Every set of ``k`` squares of ``mask``."""
    squares = [1 << c for c in range(mask.bit_length()) if (mask >> c) & 1]
    for combo in combinations(squares, k):
        yield sum(combo)
