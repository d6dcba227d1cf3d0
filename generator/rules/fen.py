"""PDN FEN, read liberally and written strictly (docs/spec.md §12.4).

Read: ``W:W31-50:B1-20``, ``B:BK17,K24:W6,9``, algebraic ``W:Wa1,c1:Bb6``; either side's list first; a
``K`` before a square or a range; an empty side (``W:W31:B``); a trailing ``.``; unknown trailing
fields such as lidraughts' ``:H0:F1`` are ignored.  Write: side to move, White's list, Black's list,
no spaces; numeric lists use ranges for three or more consecutive squares of one kind.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .errors import InvalidFenError
from .geometry import BLACK, COLOR_NAMES, WHITE, Geometry, Numbering

if TYPE_CHECKING:
    from .position import Position
    from .variants import Variant

_COLOR_LETTERS = {"W": WHITE, "B": BLACK}
MAX_FEN_CHARS = 2_000
"""Far above any real FEN (every square of a 10x10 board listed one by one, with counters, is under
300 characters): a longer text is refused before it is split or parsed."""


State = tuple[int, int, int, int]
"""``(white, black, kings, turn)``: what a FEN describes (``Position.from_fen`` makes it a position)."""


def parse_fen(variant: Variant, text: str) -> State:
    """Read a PDN FEN for ``variant`` as ``(white, black, kings, turn)``; ``start`` gives the
    initial position.

    Raises:
        InvalidFenError: naming the first problem (syntax, a square off the board or on a light
            square, a square listed twice, a man on its own promotion row, too many pieces).
    """
    if len(text) > MAX_FEN_CHARS:
        raise InvalidFenError(text, f"longer than {MAX_FEN_CHARS} characters")
    fen = text.strip()
    if fen.lower() == "start":
        return variant.start_state()
    if fen.startswith('"') and fen.endswith('"') and len(fen) >= 2:
        fen = fen[1:-1].strip()
    if fen.endswith("."):
        fen = fen[:-1]
    fields = [f.strip() for f in fen.split(":")]
    if not fields or not fields[0]:
        raise InvalidFenError(text, "empty FEN (write 'start' for the initial position)")
    head = fields[0].upper()
    if head not in ("W", "B"):
        raise InvalidFenError(text, f"the side to move must be W or B, not '{fields[0]}'")
    sides, kings = _piece_lists(variant, text, fields[1:])
    white, black = sides.get(WHITE, 0), sides.get(BLACK, 0)
    for color, bits in ((WHITE, white), (BLACK, black)):
        n = bits.bit_count()
        if n > variant.max_pieces:
            raise InvalidFenError(
                text,
                f"{COLOR_NAMES[color]} has {n} pieces; at most {variant.max_pieces} fit in {variant.name}",
            )
    return white, black, kings, _COLOR_LETTERS[head]


def _piece_lists(variant: Variant, text: str, fields: list[str]) -> tuple[dict[int, int], int]:
    """The pieces of each colour (a bit set per colour present) and the kings, from the fields
    after the side to move."""
    sides: dict[int, int] = {}
    kings = 0
    owner: dict[int, str] = {}
    for field in fields:
        if not field:
            continue
        letter = field[0].upper()
        if letter not in _COLOR_LETTERS:
            # Unknown trailing fields (lidraughts' H<n>, F<n>, ...) are ignored; a stray letter
            # before the piece lists is not.
            if not sides:
                raise InvalidFenError(text, f"expected a piece list starting with W or B, got '{field}'")
            continue
        color = _COLOR_LETTERS[letter]
        if color in sides:
            raise InvalidFenError(text, f"{COLOR_NAMES[color]}'s pieces are listed twice")
        sides[color], found_kings = _one_list(variant, text, field[1:], color, owner)
        kings |= found_kings
    if not sides:
        raise InvalidFenError(text, "no piece lists (expected something like W:W31-50:B1-20)")
    return sides, kings


def _one_list(variant: Variant, text: str, body: str, color: int, owner: dict[int, str]) -> tuple[int, int]:
    """The pieces and the kings of one colour's list (``K17,24,31-35``); ``owner`` records every
    square already listed, to refuse a square listed twice."""
    g = variant.geometry
    bits = kings = 0
    for token in body.split(","):
        token = token.strip()
        if not token:
            continue
        is_king = token[0] in "Kk"
        for sq in _expand(variant, text, token[1:] if is_king else token):
            name = g.name(sq)
            if sq in owner:
                raise InvalidFenError(text, f"square {name} is listed twice")
            owner[sq] = COLOR_NAMES[color]
            bits |= 1 << sq
            if is_king:
                kings |= 1 << sq
            elif g.rank_of(sq) == variant.promotion_rank(color):
                raise InvalidFenError(
                    text,
                    f"{COLOR_NAMES[color]} man on {name}, its own promotion row (it would be a king)",
                )
    return bits, kings


def _expand(variant: Variant, fen: str, body: str) -> list[int]:
    g = variant.geometry
    if "-" in body:
        if g.numbering is Numbering.ALGEBRAIC:
            raise InvalidFenError(fen, f"ranges like '{body}' are only for numbered boards")
        lo_text, _, hi_text = body.partition("-")
        lo, hi = _square(variant, fen, lo_text), _square(variant, fen, hi_text)
        a, b = g.squares.index(lo), g.squares.index(hi)
        if a > b:
            raise InvalidFenError(fen, f"range '{body}' runs backwards")
        return list(g.squares[a : b + 1])
    return [_square(variant, fen, body)]


def _square(variant: Variant, fen: str, text: str) -> int:
    try:
        return variant.geometry.parse_square(text)
    except ValueError as exc:
        raise InvalidFenError(fen, str(exc)) from None


def write_fen(pos: Position) -> str:
    """The position as PDN FEN, side to move first, then White's and Black's pieces."""
    return _fen(pos.variant.geometry, pos.turn, pos.white, pos.black, pos.kings)


@functools.lru_cache(maxsize=1 << 15)
def _fen(g: Geometry, turn: int, white: int, black: int, kings: int) -> str:
    """:func:`write_fen`, remembered: the pages write the same positions again and again (the play
    trees of the bundled course's puzzles ask for 43,000 FENs of 21,000 positions)."""
    parts = ["W" if turn == WHITE else "B"]
    for letter, bits in (("W", white), ("B", black)):
        parts.append(letter + _piece_list(g, bits, kings))
    return ":".join(parts)


def _piece_list(g: Geometry, bits: int, kings: int) -> str:
    if g.numbering is Numbering.ALGEBRAIC:
        squares = sorted(g.bits(bits), key=lambda s: (g.rank_of(s), g.file_of(s)))
        return ",".join(("K" if (kings >> s) & 1 else "") + g.name(s) for s in squares)
    order = g.notation_order  # on a numbered board: the square's number less one
    pieces = sorted((order[s] + 1, (kings >> s) & 1) for s in g.bits(bits))
    numbers = [n for n, _ in pieces]
    items: list[str] = []
    i = 0
    while i < len(numbers):
        king = pieces[i][1]
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1 and pieces[j + 1][1] == king:
            j += 1
        prefix = "K" if king else ""
        if j - i >= 2:
            items.append(f"{prefix}{numbers[i]}-{numbers[j]}")
        else:
            items.extend(f"{prefix}{n}" for n in numbers[i : j + 1])
        i = j + 1
    return ",".join(items)
