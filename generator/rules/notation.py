"""Moves as text, in each variant's own notation (docs/spec.md §12.2).

Writing follows PDN 3.0: ``from-to`` for a quiet move, ``from<sep>to`` for a capture with the
variant's separator (``x``, or ``:`` in Russian), and the full path only where two legal moves share
origin and destination but capture different pieces.  ``long=True`` writes every landing square, as
the reference pages do (``27x18x11``).

Reading is liberal: short or full path, separators ``-``, ``x``, ``:`` or ``*``, leading zeros,
no separator at all (``3228``, ``a3b4``), trailing annotations (``!``, ``?``, ``+``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .geometry import Numbering, is_ascii_number
from .move import Move

if TYPE_CHECKING:
    from .position import Position

_SEPARATORS = re.compile(r"[-x:*×]", re.IGNORECASE)
_ALGEBRAIC_SQUARE = re.compile(r"[a-z][0-9]+", re.IGNORECASE)  # linear: one letter, then digits


def move_text(pos: Position, move: Move, *, long: bool = False, legal: Sequence[Move] | None = None) -> str:
    """``move`` in the variant's notation, short unless ``long`` or ambiguous among ``legal``."""
    g = pos.variant.geometry
    if not move.captures:
        return f"{g.name(move.origin)}-{g.name(move.dest)}"
    sep = pos.variant.capture_separator
    if not long:
        if legal is None:
            legal = pos.legal_moves()
        long = any(m.origin == move.origin and m.dest == move.dest and m.captures != move.captures for m in legal)
    squares = move.path if long else (move.origin, move.dest)
    return sep.join(g.name(s) for s in squares)


def move_texts(pos: Position, moves: Sequence[Move], *, long: bool = True) -> list[str]:
    """A sequence of moves from ``pos``, each written in the position it is played in."""
    out = []
    for m in moves:
        out.append(move_text(pos, m, long=long))
        pos = pos.play(m)
    return out


def line_text(pos: Position, moves: Sequence[Move], *, long: bool = True) -> str:
    """A sequence of moves from ``pos``, space-separated, each in the variant's notation."""
    return " ".join(move_texts(pos, moves, long=long))


def split_move_text(pos: Position, text: str) -> list[int]:
    """The squares written in a move, in order.

    Raises:
        InvalidMoveError: when the text is not a sequence of squares of this board.
    """
    g = pos.variant.geometry
    t = text.strip().rstrip("!?+#").strip()
    if not t:
        raise InvalidMoveError("empty move")
    tokens = [tok for tok in _SEPARATORS.split(t) if tok]
    if len(tokens) == 1:
        if g.numbering is Numbering.ALGEBRAIC:  # "a3b4"
            pieces = _ALGEBRAIC_SQUARE.findall(t)
            if "".join(pieces).lower() == t.lower():
                tokens = pieces
        elif is_ascii_number(tokens[0]) and len(tokens[0]) == 4:  # "3228"; three digits would be ambiguous
            tokens = [tokens[0][:2], tokens[0][2:]]
    if len(tokens) < 2:
        raise InvalidMoveError(f"'{text}' is not a move (expected two squares, like 32-28)")
    squares = []
    for tok in tokens:
        try:
            squares.append(g.parse_square(tok))
        except ValueError as exc:
            raise InvalidMoveError(f"'{text}': {exc}") from None
    return squares


def parse_move(pos: Position, text: str, legal: Sequence[Move] | None = None) -> Move:
    """The legal move that ``text`` names.

    Raises:
        InvalidMoveError: the text is not a move.
        IllegalMoveError: no legal move fits (the message lists what is legal).
        AmbiguousMoveError: several legal moves fit (the message lists them in full).
    """
    squares = split_move_text(pos, text)
    if legal is None:
        legal = pos.legal_moves()
    candidates = fitting(pos, squares, legal)
    if not candidates:
        raise IllegalMoveError(f"{text.strip()} is not legal here; legal: {_listing(pos, legal)}")
    if len(candidates) > 1:
        options = ", ".join(move_text(pos, m, long=True) for m in candidates)
        raise AmbiguousMoveError(f"{text.strip()} is ambiguous: write the path ({options})")
    return candidates[0]


def fitting(pos: Position, squares: Sequence[int], moves: Sequence[Move]) -> list[Move]:
    """The moves among ``moves`` that the written ``squares`` describe: same origin and
    destination and, when more squares are written, the pieces between them or the same route."""
    origin, dest = squares[0], squares[-1]
    candidates = [m for m in moves if m.origin == origin and m.dest == dest]
    if len(squares) > 2:
        wanted = captured_along(pos, squares)
        candidates = [m for m in candidates if m.captures == wanted or _is_subsequence(squares, m.path)]
    return candidates


def _listing(pos: Position, legal: Sequence[Move]) -> str:
    if not legal:
        return "none"
    return " ".join(move_text(pos, m, legal=legal) for m in pos.sorted_moves(legal))


def captured_along(pos: Position, squares: Sequence[int]) -> int | None:
    """The opponent's pieces lying between consecutive written squares, or None when two written
    squares share no line (then only the path comparison can match)."""
    g = pos.variant.geometry
    opp = pos.black if pos.turn == 0 else pos.white
    total = 0
    for a, b in itertools.pairwise(squares):
        d = g.direction_between(a, b)
        if d is None:
            return None
        for sq in g.rays[d][a]:
            if sq == b:
                break
            if (opp >> sq) & 1:
                total |= 1 << sq
    return total


def _is_subsequence(short: Sequence[int], full: Sequence[int]) -> bool:
    it = iter(full)
    return all(any(x == y for y in it) for x in short)
