"""A perfect index of one slice: every legal placement of its material gets one number, no gaps.

Positions are placed group by group, each group a combination of squares ranked in the
combinatorial number system (colex order) among the squares still free for it:

1. white men among the squares a white man may stand on (not White's crowning row);
2. black men among the squares a black man may stand on, less those the white men took;
3. white kings among the squares no man took; 4. black kings among what is left.

Groups 3 and 4 always choose from the same number of squares, but group 2 does not: a white man on
Black's crowning row leaves Black's men one square more.  ``offsets[r]`` is the number of men
placements whose white-men rank is below ``r``, which makes the men part exact too.  The index of a
position is ``((men * C(kings' squares, wk)) + white kings' rank) * C(rest, bk) + black kings' rank``
and the side to move doubles it (``turn * size + index``).

This is the reference implementation; the compiled kernel (``_retro.pyx``) has the same functions
and tests compare them.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from itertools import combinations
from math import comb

from ..rules.geometry import BLACK, WHITE
from .board import Board
from .material import Material


def _ordinals(mask: int, free: int) -> list[int]:
    """Each square of ``mask`` as its place among the squares of ``free`` (ascending)."""
    out = []
    while mask:
        low = mask & -mask
        out.append((free & (low - 1)).bit_count())
        mask ^= low
    return out


def rank_subset(mask: int, free: int) -> int:
    """Colex rank of the squares ``mask`` among the squares ``free``."""
    return sum(comb(c, i + 1) for i, c in enumerate(_ordinals(mask, free)))


def unrank_subset(rank: int, k: int, free: int) -> int:
    """The ``k`` squares of ``free`` whose colex rank is ``rank``."""
    squares = []
    f = free
    while f:
        low = f & -f
        squares.append(low)
        f ^= low
    out = 0
    c = len(squares)
    for i in range(k, 0, -1):
        c -= 1
        while comb(c, i) > rank:
            c -= 1
        rank -= comb(c, i)
        out |= squares[c]
    return out


class SliceIndex:
    """Index <-> position for one material on one board (dense bit sets, see board.py)."""

    def __init__(self, board: Board, material: Material) -> None:
        self.board = board
        self.material = material
        wm, wk, bm, bk = material
        self.white_men_squares = board.men_squares(WHITE)
        self.black_men_squares = board.men_squares(BLACK)
        self.offsets = _men_offsets(board, wm, bm)
        self.men_placements = self.offsets[-1]
        free = board.size - wm - bm
        self.white_kings_ways = comb(free, wk)
        self.black_kings_ways = comb(free - wk, bk)
        self.size = self.men_placements * self.white_kings_ways * self.black_kings_ways
        """Positions with one side to move; the slice holds ``2 * size``."""

    def index(self, white: int, black: int, kings: int) -> int:
        """The index of a placement (dense bit sets of this material), side to move left out."""
        wmen, bmen = white & ~kings, black & ~kings
        men = self.offsets[rank_subset(wmen, self.white_men_squares)] + rank_subset(
            bmen, self.black_men_squares & ~wmen
        )
        free = self.board.full & ~(wmen | bmen)
        wkings = white & kings
        rwk = rank_subset(wkings, free)
        rbk = rank_subset(black & kings, free & ~wkings)
        return (men * self.white_kings_ways + rwk) * self.black_kings_ways + rbk

    def position(self, index: int) -> tuple[int, int, int]:
        """(white, black, kings) dense bit sets of ``index`` (the inverse of :meth:`index`)."""
        wm, wk, bm, bk = self.material
        rest, rbk = divmod(index, self.black_kings_ways)
        men, rwk = divmod(rest, self.white_kings_ways)
        rw = bisect_right(self.offsets, men) - 1
        wmen = unrank_subset(rw, wm, self.white_men_squares)
        bmen = unrank_subset(men - self.offsets[rw], bm, self.black_men_squares & ~wmen)
        free = self.board.full & ~(wmen | bmen)
        wkings = unrank_subset(rwk, wk, free)
        bkings = unrank_subset(rbk, bk, free & ~wkings)
        return wmen | wkings, bmen | bkings, wkings | bkings


@cache
def _men_offsets(board: Board, wm: int, bm: int) -> tuple[int, ...]:
    """``offsets[r]``: men placements whose white-men rank is below ``r`` (one more entry at the end)."""
    white_sq = board.men_squares(WHITE)
    black_sq = board.men_squares(BLACK)
    squares = [1 << i for i in range(board.size) if (white_sq >> i) & 1]
    n = len(squares)
    counts = [0] * comb(n, wm)
    for combo in combinations(range(n), wm):
        rank = sum(comb(c, i + 1) for i, c in enumerate(combo))
        taken = sum(squares[c] for c in combo)
        counts[rank] = comb((black_sq & ~taken).bit_count(), bm)
    offsets = [0]
    for c in counts:
        offsets.append(offsets[-1] + c)
    return tuple(offsets)


@cache
def slice_index(board: Board, material: Material) -> SliceIndex:
    return SliceIndex(board, material)
