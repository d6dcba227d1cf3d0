"""What the page's script needs to draw a board exactly as :func:`generator.render.svg.diagram` does.

The pages draw their boards themselves (``templates/html/damas.js``, ``drawBoard``) instead of loading
one SVG file per position: the build embeds, once per page, a *board style* per kind of board shown
(variant, orientation, numbers, coordinates) and, per position, only its FEN and its marks.  The style
is the view model of ``svg.build_view`` for an empty board of that kind (every coordinate, colour and
size already placed by Python), so the script computes nothing but a piece's place and an arrowhead;
``tests/site/test_liveboard.py`` draws the same positions both ways and compares the two pictures
element by element.

The script still knows no rules: positions come from the build as FENs, marks as square names.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..rules import WHITE, Move, Position, Variant
from ..rules.geometry import Numbering
from .svg import CASING_W, HEAD_HALF, HEAD_LEN, LINE_W, SQUARE, build_view

STYLE_FORMAT = 1
"""Bump when the style's shape changes (the script reads this shape)."""


def resolved(variant: Variant, numbers: bool | None, coordinates: bool | None) -> tuple[bool, bool]:
    """``numbers`` and ``coordinates`` with None replaced by the variant's default (as svg.build_view)."""
    algebraic = variant.geometry.numbering is Numbering.ALGEBRAIC
    return (not algebraic if numbers is None else numbers, algebraic if coordinates is None else coordinates)


def style_key(
    variant: Variant, orientation: int = WHITE, numbers: bool | None = None, coordinates: bool | None = None
) -> str:
    """The name of a board style in a page's table: ``brazilian:0:0:1``."""
    n, c = resolved(variant, numbers, coordinates)
    return f"{variant.name}:{orientation}:{int(n)}:{int(c)}"


@cache
def board_style(key: str) -> dict[str, Any]:
    """The style named ``key`` (see :func:`style_key`): plain JSON data for ``drawBoard``."""
    from ..rules import get_variant

    name, orientation, numbers, coordinates = key.split(":")
    variant = get_variant(name)
    empty = Position.from_fen(variant, "W:W:B")
    v = build_view(empty, orientation=int(orientation), numbers=numbers == "1", coordinates=coordinates == "1")
    white = v.marker
    black = build_view(
        Position.from_fen(variant, "B:W:B"), orientation=int(orientation), coordinates=coordinates == "1"
    ).marker
    assert white is not None and black is not None
    return {
        "format": STYLE_FORMAT,
        "w": v.width,
        "h": v.height,
        "frame": list(v.frame),
        "border": v.border_width,
        "full": v.full,
        "square": SQUARE,
        "squares": [[s["name"], s["x"], s["y"]] for s in v.squares],
        "role": v.squares[0]["role"],
        "numbers": [[t["x"], t["y"], t["text"]] for t in v.numbers],
        "number_size": v.number_size,
        "number_role": v.number_role,
        "halo_role": v.halo_role,
        "halo": v.number_halo,
        "coordinates": [[t["x"], t["y"], t["text"]] for t in v.coordinates],
        "coordinate_size": v.coordinate_size,
        "paint": {role: [p.color, p.opacity] for role, p in v.paint.items()},
        "font": v.font,
        "piece_r": v.piece_r,
        "ring_r": v.ring_r,
        "crown": v.crown,
        "cross": v.cross,
        "line_w": LINE_W,
        "casing_w": LINE_W + CASING_W,
        "head": [HEAD_LEN, HEAD_HALF],
        # the side-to-move disc, [cx, cy, r], when White are to move and when Black are
        "marker": [[white["cx"], white["cy"], white["r"]], [black["cx"], black["cy"], black["r"]]],
        "order": [variant.geometry.name(s) for s in variant.geometry.squares],
        "described": _description_order(variant),
    }


def _description_order(variant: Variant) -> list[str]:
    """The squares in the order ``svg.describe_position`` lists pieces (numbering order, or file then
    rank on algebraic boards)."""
    g = variant.geometry
    squares = list(g.squares)
    if g.numbering is Numbering.ALGEBRAIC:
        squares.sort(key=lambda s: (g.file_of(s), g.rank_of(s)))
    return [g.name(s) for s in squares]


def move_marks(position: Position, move: Move) -> dict[str, Any]:
    """The marks of a move as the diagrams draw it: a capture's route and the pieces it takes, or an
    arrow for a quiet move (square names)."""
    name = position.square_name
    if move.is_capture:
        return {"r": [name(s) for s in move.path], "c": [name(s) for s in move.captured]}
    return {"a": [[name(move.origin), name(move.dest)]]}


def board_data(
    position: Position,
    key: str,
    *,
    arrows: list[tuple[str, str]] | None = None,
    route: list[str] | None = None,
    captured: list[str] | None = None,
    highlight: list[str] | None = None,
) -> dict[str, Any]:
    """A board as a page embeds it: its style's key, its FEN and its marks (square names)."""
    out: dict[str, Any] = {"b": key, "f": position.fen()}
    if arrows:
        out["a"] = [list(a) for a in arrows]
    if route:
        out["r"] = list(route)
    if captured:
        out["c"] = list(captured)
    if highlight:
        out["h"] = list(highlight)
    return out
