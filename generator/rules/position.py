"""An immutable position: where the pieces stand and whose turn it is, under one variant's rules.

Immutable so a position can be a dictionary key (repetition counting, transposition tables) and
so "play a move" cannot corrupt the position it came from; the game layer keeps a stack of them,
which is its make/unmake.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .fen import parse_fen, write_fen
from .geometry import BLACK, WHITE, Square
from .move import Move
from .notation import move_text, parse_move
from .variants import Goal, get_variant

if TYPE_CHECKING:
    from .variants import Variant


class Position:
    """Pieces and side to move.

    >>> from generator.rules import Position
    >>> p = Position.from_fen("american", "start")
    >>> [p.move_text(m) for m in p.legal_moves()]
    ['9-13', '9-14', '10-14', '10-15', '11-15', '11-16', '12-16']
    """

    __slots__ = ("black", "kings", "turn", "variant", "white")

    def __init__(self, variant: Variant | str, white: int, black: int, kings: int, turn: int) -> None:
        self.variant = get_variant(variant)
        self.white = white
        self.black = black
        self.kings = kings
        self.turn = turn

    # -- construction and text ------------------------------------------------------------------

    @classmethod
    def from_fen(cls, variant: Variant | str, fen: str) -> Position:
        """Read a PDN FEN (or ``start``).  Raises InvalidFenError, UnknownVariantError."""
        v = get_variant(variant)
        return cls(v, *parse_fen(v, fen))

    @classmethod
    def start(cls, variant: Variant | str) -> Position:
        """The initial position of ``variant``."""
        v = get_variant(variant)
        return cls(v, *v.start_state())

    def fen(self) -> str:
        return write_fen(self)

    def __repr__(self) -> str:
        return f"Position({self.variant.name!r}, {self.fen()!r})"

    # -- identity -------------------------------------------------------------------------------

    @property
    def state(self) -> tuple[int, int, int, int]:
        return (self.white, self.black, self.kings, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.state == other.state and self.variant.name == other.variant.name

    def __hash__(self) -> int:
        return hash((self.white, self.black, self.kings, self.turn))

    # -- pieces ---------------------------------------------------------------------------------

    def pieces(self, color: int) -> int:
        return self.white if color == WHITE else self.black

    def men(self, color: int) -> int:
        return self.pieces(color) & ~self.kings

    def kings_of(self, color: int) -> int:
        return self.pieces(color) & self.kings

    def piece_at(self, sq: Square) -> tuple[int, bool] | None:
        """(color, is_king) of the piece on ``sq``, or None when empty."""
        bit = 1 << sq
        if self.white & bit:
            return (WHITE, bool(self.kings & bit))
        if self.black & bit:
            return (BLACK, bool(self.kings & bit))
        return None

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, in notation order (by origin, then destination, then path)."""
        return self.sorted_moves(self.variant.generator.moves(*self.state))

    def sorted_moves(self, moves: Iterable[Move]) -> list[Move]:
        """``moves`` in notation order: by origin, destination, then path."""
        order = self.variant.geometry.notation_order
        return sorted(moves, key=lambda m: (order[m.origin], order[m.dest], [order[s] for s in m.path]))

    def play(self, move: Move) -> Position:
        """The position after ``move``; the move must be legal here (use ``parse_move`` for text)."""
        return Position(self.variant, *self.variant.generator.apply(*self.state, move))

    def has_legal_moves(self) -> bool:
        return self.variant.generator.has_moves(*self.state)

    def winner(self) -> int | None:
        """The winner when the side to move has no legal move (docs/spec.md §1.9), else None.

        Draw rules need history; see :mod:`generator.rules.game`.
        """
        if self.has_legal_moves():
            return None
        loser = self.turn
        return loser if self.variant.goal is Goal.LOSING else loser ^ 1

    def parse_move(self, text: str, legal: Sequence[Move] | None = None) -> Move:
        """The legal move named by ``text`` (liberal reading; see :mod:`generator.rules.notation`)."""
        return parse_move(self, text, legal)

    def move_text(self, move: Move, *, long: bool = False, legal: Sequence[Move] | None = None) -> str:
        return move_text(self, move, long=long, legal=legal)

    def square_name(self, sq: Square) -> str:
        return self.variant.geometry.name(sq)
