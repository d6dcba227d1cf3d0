"""Which mined puzzles are the same puzzle.

* **Identical positions and mirror images** (colours swapped and the board turned half a turn, so
  Black's shot is White's): :func:`position_key`.
* **One combination, two starts**: a game reaches the same combination a move apart (the shot with a
  preparatory move in front, then the shot itself), and the later start lies on the earlier
  puzzle's line. :func:`line_keys` gives the positions on a puzzle's main line where the solver is
  to move again, so either start finds the other.
* **Near-duplicates**: the same combination in a slightly different setting, where every move of
  the side that solves (key and follow-ups, seen from the side to move) and the stipulation are the
  same: :func:`pattern_key`.  The whole line counts, not only the key: two shots that open with the
  same move and then go different ways are different puzzles.

Keys are computed from the position and the line only, so a puzzle found twice in different games
or runs gets the same keys and is kept once (the first in the run's order).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..errors import DamasError
from ..rules.geometry import BLACK, remap_bits
from ..rules.position import Position
from ..rules.variants import Variant


@cache
def _turn_table(variant: Variant) -> dict[int, int]:
    """Square -> the square it lands on when the board is turned half a turn."""
    g = variant.geometry
    return {sq: g.square(g.width - 1 - g.file_of(sq), g.height - 1 - g.rank_of(sq)) for sq in g.squares}


def mirror(pos: Position) -> Position:
    """The same position with the colours swapped and the board turned (the side to move swaps too)."""
    t = _turn_table(pos.variant)
    white, black, kings, turn = pos.state
    return Position(pos.variant, remap_bits(black, t), remap_bits(white, t), remap_bits(kings, t), turn ^ 1)


def position_key(pos: Position) -> str:
    """Equal for a position and its mirror image."""
    return min(pos.fen(), mirror(pos).fen())


def line_moves(solution: list[Any]) -> list[str]:
    """A lesson ``solution`` as move texts (items with ``others`` give their ``move``)."""
    return [item if isinstance(item, str) else item["move"] for item in solution]


def line_keys(pos: Position, solution: list[Any]) -> list[str]:
    """:func:`position_key` of every position on the main line where the solver is to move again
    (the start excluded); the line stops where a move does not parse (``damas check`` reports it)."""
    solver = pos.turn
    out = []
    for text in line_moves(solution):
        try:
            pos = pos.play(pos.parse_move(text))
        except DamasError:
            break
        if pos.turn == solver:
            out.append(position_key(pos))
    return out


def pattern_key(pos: Position, solution: list[Any], stipulation: str) -> str:
    """Equal for near-duplicates: the solver's moves along the line (origin and arrival squares, in
    White's frame) and the stipulation."""
    solver = pos.turn
    t = _turn_table(pos.variant) if solver == BLACK else None
    g = pos.variant.geometry
    steps = []
    for text in line_moves(solution):
        try:
            move = pos.parse_move(text)
        except DamasError:
            break
        if pos.turn == solver:
            origin, dest = (t[move.origin], t[move.dest]) if t else (move.origin, move.dest)
            steps.append(f"{g.name(origin)}>{g.name(dest)}")
        pos = pos.play(move)
    return f"{' '.join(steps)}|{stipulation}"
