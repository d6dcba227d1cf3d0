"""The board of a variant in the form the endgame tables use: playing squares numbered 0..n-1.

The engine numbers squares by bit index in a padded grid (``generator/rules/geometry.py``), up to
110 bits on 10x10.  The tables need dense numbers, so that a set of pieces is a 64-bit mask and a
combination of squares has a small rank: square ``c`` here is the ``c``-th playing square in the
engine's bit order.  The order is the engine's, so "lowest square first" means the same thing in
both, and the compiled kernel (``_retro.pyx``) explores capture routes in the engine's order.

Everything is read from the variant record and its move generator: a new variant needs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..rules.geometry import BLACK, WHITE, remap_bits
from ..rules.variants import CapturePromotion, Goal, Precedence, Removal, Variant, get_variant

MAX_SQUARES = 64
"""Dense masks are 64-bit: every board of the project fits (10x10: 50 squares, Turkish: 64)."""

PRECEDENCE_CODES = {
    Precedence.FREE: 0,
    Precedence.MOST_PIECES: 1,
    Precedence.MOST_PIECES_THEN_KINGS: 2,
    Precedence.ITALIAN: 3,
}
PROMOTION_CODES = {
    CapturePromotion.PASS_THROUGH: 0,
    CapturePromotion.PROMOTE_AND_CONTINUE: 1,
    CapturePromotion.PROMOTE_AND_STOP: 2,
}


@dataclass(frozen=True, eq=False)
class Board:
    """Dense squares, their lines, and the rule switches the tables' kernel needs."""

    variant: Variant
    padded: tuple[int, ...]
    """``padded[c]``: the engine square of dense square ``c``."""
    dense: dict[int, int]
    """Engine square -> dense square."""
    neighbours: tuple[tuple[int, ...], ...]
    """``neighbours[d][c]``: the dense square one step from ``c`` in direction ``d``, or -1."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """``rays[d][c]``: the dense squares from ``c`` (exclusive) to the edge in direction ``d``."""
    man_steps: tuple[tuple[int, ...], tuple[int, ...]]
    man_jumps: tuple[tuple[int, ...], ...]
    promotion: tuple[int, int]
    """Dense mask of each colour's crowning row."""

    @property
    def size(self) -> int:
        return len(self.padded)

    @property
    def full(self) -> int:
        return (1 << self.size) - 1

    def men_squares(self, color: int) -> int:
        """Where a man of ``color`` may stand: anywhere but its own crowning row (a man that
        reaches it is crowned), the legal positions that Schaeffer et al. count."""
        return self.full & ~self.promotion[color]

    def to_dense(self, bits: int) -> int:
        return remap_bits(bits, self.dense)

    def to_padded(self, mask: int) -> int:
        return remap_bits(mask, self.padded)

    def kernel_spec(self) -> dict[str, object]:
        """The plain data the compiled kernel is built from (``_retro.Kernel(spec)``)."""
        v = self.variant
        return {
            "size": self.size,
            "neighbours": self.neighbours,
            "rays": self.rays,
            "man_steps": self.man_steps,
            "man_jumps": self.man_jumps,
            "promotion": self.promotion,
            "flying": v.flying_kings,
            "immediate": v.removal is Removal.IMMEDIATE,
            "men_take_kings": v.men_capture_kings,
            "precedence": PRECEDENCE_CODES[v.precedence],
            "capture_promotion": PROMOTION_CODES[v.capture_promotion],
            "losing": v.goal is Goal.LOSING,
        }


@cache
def board_of(variant: Variant | str) -> Board:
    """The dense board of ``variant`` (built once per variant record)."""
    v = get_variant(variant)
    g = v.geometry
    gen = v.generator
    padded = tuple(sorted(g.squares))
    if len(padded) > MAX_SQUARES:
        raise ValueError(f"{v.name}: {len(padded)} squares do not fit the tables' 64-bit masks")
    dense = {sq: i for i, sq in enumerate(padded)}
    neighbours = tuple(tuple(dense.get(g.neighbours[d][sq], -1) for sq in padded) for d in range(4))
    rays = tuple(tuple(tuple(dense[s] for s in g.rays[d][sq]) for sq in padded) for d in range(4))
    promotion = (
        sum(1 << dense[sq] for sq in padded if g.rank_of(sq) == v.promotion_rank(WHITE)),
        sum(1 << dense[sq] for sq in padded if g.rank_of(sq) == v.promotion_rank(BLACK)),
    )
    return Board(
        variant=v,
        padded=padded,
        dense=dense,
        neighbours=neighbours,
        rays=rays,
        man_steps=gen.man_steps,
        man_jumps=tuple(gen.man_jumps),
        promotion=promotion,
    )


@cache
def half_turn(board: Board) -> tuple[int, ...] | None:
    """``image[c]``: the dense square of ``c`` once the board is turned half a turn (180°), or None
    when the board's data do not allow it.

    A slice and its colour-swapped twin hold the same game when this map exists: turn the board,
    swap the colours and the side to move, and every position of one slice is a position of the
    other with the same result and distance (tables.py derives the twin instead of solving it).
    That needs more than a square board: every playing square must turn into a playing square,
    every step in a direction into a step in the opposite one (so rays and flying moves follow),
    White's crowning row into Black's (so a white man's squares turn into a black man's), and a
    white man's steps and jumps into a black man's.  The answer is read from the board, never from
    a variant's name.
    """
    g = board.variant.geometry
    image = []
    for sq in board.padded:
        turned = g.square(g.width - 1 - g.file_of(sq), g.height - 1 - g.rank_of(sq))
        if turned not in board.dense:
            return None
        image.append(board.dense[turned])
    if sorted(image) != list(range(board.size)):
        return None
    for d in range(4):
        for c in range(board.size):
            nb, back = board.neighbours[d][c], board.neighbours[d ^ 1][image[c]]
            if (nb < 0) != (back < 0) or (nb >= 0 and image[nb] != back):
                return None
    white_row, black_row = board.promotion
    if turn_mask(image, white_row) != black_row or turn_mask(image, black_row) != white_row:
        return None
    for steps in (board.man_steps, board.man_jumps):
        if sorted(d ^ 1 for d in steps[0]) != sorted(steps[1]):
            return None
    return tuple(image)


def turn_mask(image: tuple[int, ...] | list[int], mask: int) -> int:
    """The dense ``mask`` with each square moved to its ``image``."""
    return remap_bits(mask, image)
