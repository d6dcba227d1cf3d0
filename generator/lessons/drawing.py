"""A position drawn as text, in the lessons' board format, read and written.

One format for everything that draws a board as characters: the ``board: |`` blocks of the lessons,
``damas fen`` (a drawing into a FEN) and ``damas board`` (a FEN into a drawing).  Rows run from the top
of the board down, White at the bottom, one character per square separated by spaces:

=====  ===================================
``w``  a white man      ``W``  a white king
``b``  a black man      ``B``  a black king
``.``  an empty playing square
``-``  a light square (not played on)
=====  ===================================

The reader knows nothing of YAML or files: each problem comes back with its row (0-based, counting
only non-blank lines) and column (0-based, in the row without its indentation), and the caller turns
that into ``file:line:col``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import BLACK, WHITE, Position, Variant

PIECE_CHARS = {"w": (WHITE, False), "W": (WHITE, True), "b": (BLACK, False), "B": (BLACK, True)}
EMPTY_PLAYING = "."
LIGHT = "-"
FILES = "abcdefghij"


@dataclass(frozen=True)
class DrawingError:
    """One problem of a drawing, at a cell or (``row is None``) in the drawing as a whole."""

    message: str
    row: int | None = None
    """Row of the drawing (0-based, blank lines not counted), or None for the whole drawing."""
    col: int = 0
    """Column in that row's text without its indentation (0-based)."""


def rows_of(text: str) -> list[str]:
    """The non-blank lines of a drawing, without their indentation: the rows the errors count."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_board(variant: Variant, text: str, turn: int) -> tuple[Position | None, list[DrawingError]]:
    """The position drawn in ``text`` with ``turn`` to move, or None and every problem found.

    Each cell is checked against the board's colours, so a drawing shifted by a square or drawn for
    the other corner is caught; a wrong colour pattern is one error (at its first square), not one
    per square.
    """
    g = variant.geometry
    rows = rows_of(text)
    if len(rows) != g.height:
        return None, [DrawingError(f"the board has {len(rows)} row(s); the {variant.name} board has {g.height}")]
    errors: list[DrawingError] = []
    white = black = kings = 0
    mismatched: list[tuple[int, int, str]] = []
    for r, line in enumerate(rows):
        rank = g.height - 1 - r
        cells = line.split()
        if len(cells) != g.width:
            errors.append(DrawingError(f"row {r + 1} has {len(cells)} squares; expected {g.width}", r, 0))
            continue
        for f, (cell, col) in enumerate(zip(cells, _cell_offsets(line), strict=True)):
            name = f"{FILES[f]}{rank + 1}"
            playing = g.is_playing(f, rank)
            if cell not in PIECE_CHARS and cell not in (EMPTY_PLAYING, LIGHT):
                message = f"'{cell}' is not a square: use w b (men), W B (kings), . (empty) or - (light)"
                errors.append(DrawingError(message, r, col))
                continue
            if cell in (LIGHT, EMPTY_PLAYING):
                if (cell == LIGHT) == playing:  # '-' on a playing square or '.' on a light one
                    mismatched.append((r, col, name))
                continue
            if not playing:
                errors.append(DrawingError(f"a piece on {name}, a light square (not played on)", r, col))
                continue
            color, king = PIECE_CHARS[cell]
            sq = g.square(f, rank)
            if not king and rank == variant.promotion_rank(color):
                who = "white" if color == WHITE else "black"
                message = f"a {who} man on {g.name(sq)}, its own promotion row (draw it as a king)"
                errors.append(DrawingError(message, r, col))
                continue
            if color == WHITE:
                white |= 1 << sq
            else:
                black |= 1 << sq
            if king:
                kings |= 1 << sq
    if mismatched:
        errors.append(_colour_mismatch(variant, mismatched))
    if errors:
        return None, errors
    for color, bits in ((WHITE, white), (BLACK, black)):
        if bits.bit_count() > variant.max_pieces:
            who = "white" if color == WHITE else "black"
            return None, [DrawingError(f"{who} has {bits.bit_count()} pieces; at most {variant.max_pieces} fit")]
    return Position(variant, white, black, kings, turn), []


def _colour_mismatch(variant: Variant, mismatched: list[tuple[int, int, str]]) -> DrawingError:
    g = variant.geometry
    r, col, name = mismatched[0]
    if g.orthogonal:
        rule = "every square is played on this board: use '.' for empty squares"
    else:
        corner = "a playing" if g.is_playing(0, 0) else "a light"
        rule = f"on the {variant.name} board a1 (bottom left) is {corner} square"
    return DrawingError(
        f"'.' and '-' do not match the board's colours at {name} and {len(mismatched) - 1} other square(s): "
        f"'.' is an empty playing square, '-' a light one; {rule}",
        r,
        col,
    )


def draw_board(position: Position) -> str:
    """``position`` drawn in the same format, one row per line from the top, ending with a newline.

    The side to move is not part of a drawing: a lesson gives it as ``turn``, ``damas fen`` as
    ``--turn``.
    """
    g = position.variant.geometry
    chars = {(WHITE, False): "w", (WHITE, True): "W", (BLACK, False): "b", (BLACK, True): "B"}
    lines = []
    for rank in range(g.height - 1, -1, -1):
        cells = []
        for f in range(g.width):
            if not g.is_playing(f, rank):
                cells.append(LIGHT)
                continue
            piece = position.piece_at(g.square(f, rank))
            cells.append(EMPTY_PLAYING if piece is None else chars[piece])
        lines.append(" ".join(cells))
    return "\n".join(lines) + "\n"


def _cell_offsets(line: str) -> list[int]:
    """Start column of each whitespace-separated cell of a stripped board row."""
    offsets = []
    in_cell = False
    for i, ch in enumerate(line):
        if not ch.isspace() and not in_cell:
            offsets.append(i)
        in_cell = not ch.isspace()
    return offsets
