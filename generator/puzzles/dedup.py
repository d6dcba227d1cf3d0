"""Which mined puzzles are the same puzzle: identical positions, mirror images (colours swapped and
the board turned half a turn, so Black's shot is White's), and near-duplicates (the same key move,
seen from the side to move, with the same stipulation and theme pattern).

Keys are computed from the position and the key move only, so a puzzle found twice in different
games or runs gets the same keys and is kept once (the first in the run's order).
"""

from __future__ import annotations

from functools import cache

from ..rules.geometry import BLACK
from ..rules.position import Position
from ..rules.variants import Variant


@cache
def _turn_table(variant: Variant) -> dict[int, int]:
    """Square -> the square it lands on when the board is turned half a turn."""
    g = variant.geometry
    return {sq: g.square(g.width - 1 - g.file_of(sq), g.height - 1 - g.rank_of(sq)) for sq in g.squares}


def _turn_bits(bits: int, table: dict[int, int]) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << table[low.bit_length() - 1]
        bits ^= low
    return out


def mirror(pos: Position) -> Position:
    """The same position with the colours swapped and the board turned (the side to move swaps too)."""
    t = _turn_table(pos.variant)
    white, black, kings, turn = pos.state
    return Position(pos.variant, _turn_bits(black, t), _turn_bits(white, t), _turn_bits(kings, t), turn ^ 1)


def position_key(pos: Position) -> str:
    """Equal for a position and its mirror image."""
    return min(pos.fen(), mirror(pos).fen())


def pattern_key(pos: Position, key_text: str, stipulation: str, themes: list[str]) -> str:
    """Equal for near-duplicates: the key's squares in White's frame, the goal and the themes."""
    move = pos.parse_move(key_text)
    origin, dest = move.origin, move.dest
    if pos.turn == BLACK:
        t = _turn_table(pos.variant)
        origin, dest = t[origin], t[dest]
    g = pos.variant.geometry
    return f"{g.name(origin)}>{g.name(dest)}|{stipulation}|{','.join(sorted(themes))}"
