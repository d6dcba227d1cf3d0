"""Board diagrams as SVG: one flat keyword function in the spirit of ``chess.svg.board``.

Python builds a *view model* (every coordinate, colour and text), and ``templates/board.svg.j2``
only draws it.  Every layer places itself with the one helper :func:`square_xy`, so flipping the
board moves squares, numbers, coordinates, pieces, arrows, routes and marks together.

The output follows the rendering notes (``shared/notes/rendering-stack.md``): presentation
attributes only (no ``<style>``, so nothing leaks between diagrams inlined in one page), the font
named explicitly, no CSS ``var()``, no ``font:`` shorthand, no CSS ``transform``, no foreignObject,
no paint-order, no markers (arrowheads are plain polygons), ids prefixed with a per-diagram uid.

>>> from generator.rules import Position
>>> from generator.render.svg import diagram, move_overlay
>>> pos = Position.from_fen("american", "W:W27,30:B15,23")
>>> svg = diagram(pos, **move_overlay(pos, "27x18x11"))
>>> svg.startswith("<svg") and "Lance indicado: 27x18x11; capturadas: 23, 15." in svg
True
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from jinja2 import Environment, StrictUndefined, select_autoescape

from ..i18n import MissingTranslation, translator
from ..resources import jinja_loader
from ..rules import BLACK, WHITE, Geometry, Move, Numbering, Square

if TYPE_CHECKING:
    from ..rules import Position

TEMPLATE = "board.svg.j2"

SQUARE = 50
"""Side of one square in user units (the viewBox scales the whole drawing)."""
FONT = "DejaVu Sans, Verdana, sans-serif"
"""Named first so cairosvg, Typst and browsers all pick the same face (cairosvg takes the first)."""

# -- themes -----------------------------------------------------------------------------------------

THEMES: dict[str, dict[str, str]] = {
    "classic": {
        "background": "#ffffff",
        "border": "#5b3a1e",
        "square light": "#f3e4c4",
        "square dark": "#a9744f",
        "square full": "#e2c08d",  # Turkish board: every square is played
        "grid": "#8a6239",
        # Square numbers: black on the dark square (5.3:1), drawn above the pieces with a halo of
        # the square's own colour, so a piece never hides a number (issue 12: legible in print).
        "number": "#000000",
        "number halo": "#a9744f",
        "number full": "#5b3a1e",  # square names on the light Turkish board, if asked for
        "coordinate": "#4a3520",
        "white man": "#fbfaf4",
        "white man edge": "#3b3b3b",
        "white man ring": "#b9b3a3",
        "black man": "#262626",
        "black man edge": "#000000",
        "black man ring": "#6a6a6a",
        "white crown": "#d4a017",
        "white crown edge": "#6b4e00",
        "black crown": "#e8b923",
        "black crown edge": "#fff3c4",
        "highlight": "#f4d03f",
        "highlight fill": "#f4d03f66",
        "arrow": "#1e8a3c",
        "arrow casing": "#ffffff",
        "route": "#1f5fbf",
        "route casing": "#ffffff",
        "captured": "#d32f2f",
        "captured casing": "#ffffff",
    },
    # For print and photocopies: light greys, black lines, nothing told by colour alone.
    "print": {
        "background": "#ffffff",
        "border": "#000000",
        "square light": "#ffffff",
        "square dark": "#bdbdbd",
        "square full": "#e6e6e6",
        "grid": "#000000",
        "number": "#000000",
        "number halo": "#bdbdbd",
        "number full": "#000000",
        "coordinate": "#000000",
        "white man": "#ffffff",
        "white man edge": "#000000",
        "white man ring": "#000000",
        "black man": "#1a1a1a",
        "black man edge": "#000000",
        "black man ring": "#9e9e9e",
        "white crown": "#000000",
        "white crown edge": "#000000",
        "black crown": "#ffffff",
        "black crown edge": "#ffffff",
        "highlight": "#000000",
        "highlight fill": "#00000000",
        "arrow": "#000000",
        "arrow casing": "#ffffff",
        "route": "#000000",
        "route casing": "#ffffff",
        "captured": "#000000",
        "captured casing": "#ffffff",
    },
}
ROLES = tuple(THEMES["classic"])
"""Every colour role a theme defines (``colors=`` may override any of them)."""

_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_UID = re.compile(r"[^\W\d][\w.-]*")  # an XML NCName (also a valid HTML id)


class Paint(NamedTuple):
    """A colour as SVG wants it: ``#rrggbb`` plus a separate opacity (8-digit hex is not portable)."""

    color: str
    opacity: float


def parse_color(value: str, role: str = "color") -> Paint:
    """Read ``#rgb``, ``#rrggbb`` or ``#rrggbbaa`` (alpha last).

    Raises:
        ValueError: for anything else (no silent fallback).

    >>> parse_color("#ffffff80")
    Paint(color='#ffffff', opacity=0.5)
    """
    if not isinstance(value, str) or not _COLOR.fullmatch(value):
        raise ValueError(f"colour for '{role}' must be #rgb, #rrggbb or #rrggbbaa, not {value!r}")
    digits = value[1:].lower()
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    opacity = 1.0
    if len(digits) == 8:
        opacity = round(int(digits[6:], 16) / 255, 2)
        digits = digits[:6]
    return Paint("#" + digits, opacity)


def theme_paints(theme: str, colors: Mapping[str, str] | None = None) -> dict[str, Paint]:
    """The paints of ``theme`` with ``colors`` overriding some roles.

    Raises:
        ValueError: for an unknown theme, an unknown role or a malformed colour.
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme '{theme}' (themes: {', '.join(THEMES)})")
    merged = dict(THEMES[theme])
    for role, value in (colors or {}).items():
        if role not in merged:
            raise ValueError(f"unknown colour role '{role}' (roles: {', '.join(ROLES)})")
        merged[role] = value
    return {role: parse_color(value, role) for role, value in merged.items()}


# -- public value types -----------------------------------------------------------------------------


class Svg(str):
    """SVG text; shows itself as a picture in Jupyter."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


SquareRef = Square | str
"""A square as the engine's index or as its name in the variant's notation ("27", "c3")."""


@dataclass(frozen=True)
class Arrow:
    """An arrow from ``tail`` to ``head`` (a quiet move, or any pointer an author wants)."""

    tail: SquareRef
    head: SquareRef

    @classmethod
    def from_move(cls, move: Move) -> Arrow:
        return cls(move.origin, move.dest)


def move_overlay(position: Position, move: Move | str) -> dict[str, object]:
    """The keyword arguments that show ``move`` on a diagram of ``position``.

    A capture becomes ``route`` (through every landing square) plus ``captured``; a quiet move
    becomes one arrow.  ``move`` may be text, read with :meth:`Position.parse_move` (so it must be
    legal).

    Raises:
        InvalidMoveError, IllegalMoveError, AmbiguousMoveError: for text that is no legal move.

    >>> from generator.rules import Position
    >>> pos = Position.from_fen("american", "start")
    >>> move_overlay(pos, "9-13")["arrows"][0] == Arrow(pos.variant.geometry.parse_square("9"),
    ...                                                 pos.variant.geometry.parse_square("13"))
    True
    """
    if isinstance(move, str):
        move = position.parse_move(move)
    if move.is_capture:
        return {"route": move, "captured": tuple(move.captured)}
    return {"arrows": (Arrow.from_move(move),)}


# -- geometry of the drawing --------------------------------------------------------------------------


def square_xy(
    geometry: Geometry, file: int, rank: int, orientation: int, origin: tuple[float, float] = (0, 0)
) -> tuple[float, float]:
    """Top-left corner of the square at ``file``, ``rank`` as drawn.

    ``orientation`` is the colour at the bottom: with WHITE, file 0 is the left column and rank 0 the
    bottom row; with BLACK the board is turned half a turn.  Every layer uses this one helper.
    """
    if orientation == WHITE:
        col, row = file, geometry.height - 1 - rank
    else:
        col, row = geometry.width - 1 - file, rank
    return (origin[0] + col * SQUARE, origin[1] + row * SQUARE)


@dataclass
class _Frame:
    geometry: Geometry
    orientation: int
    origin: tuple[float, float]

    def corner(self, sq: Square) -> tuple[float, float]:
        g = self.geometry
        return square_xy(g, g.file_of(sq), g.rank_of(sq), self.orientation, self.origin)

    def centre(self, sq: Square) -> tuple[float, float]:
        x, y = self.corner(sq)
        return (x + SQUARE / 2, y + SQUARE / 2)


def _n(value: float) -> str:
    """A coordinate as short text: ``25``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


# Piece and mark shapes, in units relative to a square's centre.
NUMBER_SIZE = 0.32 * SQUARE
"""Font size of square numbers: at least 6 pt wherever the PDFs print a numbered board (the
printed widths are chosen from it: generator/render/pdf.py ``diagram_cm``)."""
NUMBER_HALO = 3.0
"""Width of the halo stroke behind each number (in the square's colour) where it crosses a piece."""
PIECE_R = 0.36 * SQUARE
RING_R = 0.25 * SQUARE
# A crown: a band and five points, tips capped with small balls.  Drawn as paths, never a glyph.
CROWN_PATH = (
    "M-10.5,8.5 L10.5,8.5 L10.5,4.5 L-10.5,4.5 Z "
    "M-10.5,2.5 L-12.5,-6 L-6,-0.5 L-4,-8.5 L0,-1.5 L4,-8.5 L6,-0.5 L12.5,-6 L10.5,2.5 Z"
)
CROWN_TIPS = ((-12.5, -6.5), (-4, -9), (4, -9), (12.5, -6.5))
CROWN_TIP_R = 1.9
CROSS = 0.27 * SQUARE


def _ball(x: float, y: float, r: float) -> str:
    return f"M{_n(x - r)},{_n(y)} a{_n(r)},{_n(r)} 0 1,0 {_n(2 * r)},0 a{_n(r)},{_n(r)} 0 1,0 {_n(-2 * r)},0 Z"


CROWN = CROWN_PATH + " " + " ".join(_ball(x, y, CROWN_TIP_R) for x, y in CROWN_TIPS)

LINE_W = 5.5  # arrow and route shaft
CASING_W = 3.0  # extra width of the light casing on each side together
HEAD_LEN = 17.0
HEAD_HALF = 9.5


def _arrowhead(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """Triangle for a shaft ending at ``b`` coming from ``a``.

    The tip goes just past ``b`` so the head is at least as wide as the shaft where the shaft ends
    (the polyline keeps ``b`` exactly, and its square end stays hidden inside the head).
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    overshoot = LINE_W / 2 * HEAD_LEN / HEAD_HALF + 0.5
    tip = (b[0] + ux * overshoot, b[1] + uy * overshoot)
    base = (tip[0] - ux * HEAD_LEN, tip[1] - uy * HEAD_LEN)
    px, py = -uy, ux
    return [
        tip,
        (base[0] + px * HEAD_HALF, base[1] + py * HEAD_HALF),
        (base[0] - px * HEAD_HALF, base[1] - py * HEAD_HALF),
    ]


# -- words ----------------------------------------------------------------------------------------


def _words(lang: str) -> dict:
    """The diagram's words in ``lang``, from its catalog (singular/plural pairs where they vary)."""
    try:
        tr = translator(lang.strip())
    except MissingTranslation:
        raise ValueError(f"unsupported diagram language '{lang}' (supported: pt, pt-BR, en)") from None
    _ = tr.gettext
    return {
        "side": (tr.pgettext("side heading", "White"), tr.pgettext("side heading", "Black")),
        "men": (tr.ngettext("man on", "men on", 1), tr.ngettext("man on", "men on", 2)),
        "kings": (tr.ngettext("king on", "kings on", 1), tr.ngettext("king on", "kings on", 2)),
        "none": _("no pieces"),
        "turn": (_("White to move."), _("Black to move.")),
        "move": _("Indicated move"),
        "captured_after": (tr.ngettext("captured", "captured", 1), tr.ngettext("captured", "captured", 2)),
        "captured": (
            tr.ngettext("Captured piece", "Captured pieces", 1),
            tr.ngettext("Captured piece", "Captured pieces", 2),
        ),
        "arrows": (tr.ngettext("Arrow", "Arrows", 1), tr.ngettext("Arrow", "Arrows", 2)),
        "highlight": (
            tr.ngettext("Highlighted square", "Highlighted squares", 1),
            tr.ngettext("Highlighted square", "Highlighted squares", 2),
        ),
        "lang": tr.html_lang,
    }


def description_words(lang: str) -> dict[str, object]:
    """The words :func:`describe_position` uses, for the pages' script, which describes the positions
    it draws the same way (generator/render/jswords.py)."""
    w = _words(lang)
    return {k: w[k] for k in ("side", "men", "kings", "none", "turn")}


def _plural(pair: tuple[str, str], n: int) -> str:
    return pair[0] if n == 1 else pair[1]


def _order_key(geometry: Geometry):
    if geometry.numbering is Numbering.ALGEBRAIC:
        return lambda sq: (geometry.file_of(sq), geometry.rank_of(sq))
    index = {sq: i for i, sq in enumerate(geometry.squares)}
    return lambda sq: (index[sq], 0)


def describe_position(position: Position, lang: str = "pt") -> str:
    """The position in words, for ``<title>``, alt text and screen readers.

    >>> from generator.rules import Position
    >>> describe_position(Position.from_fen("international", "W:W21,22,K5:B9,10"))
    'Brancas: pedras em 21, 22; dama em 5. Pretas: pedras em 9, 10. Jogam as brancas.'
    >>> describe_position(Position.from_fen("international", "B:W21:B9"), "en")
    'White: man on 21. Black: man on 9. Black to move.'
    """
    w = _words(lang)
    g = position.variant.geometry
    key = _order_key(g)
    sentences = []
    for color in (WHITE, BLACK):
        parts = []
        for kind, bits in (("men", position.men(color)), ("kings", position.kings_of(color))):
            squares = sorted(g.bits(bits), key=key)
            if squares:
                parts.append(f"{_plural(w[kind], len(squares))} {', '.join(g.name(s) for s in squares)}")
        sentences.append(f"{w['side'][color]}: {'; '.join(parts) if parts else w['none']}.")
    sentences.append(w["turn"][position.turn])
    return " ".join(sentences)


# -- the view model -----------------------------------------------------------------------------------


@dataclass
class DiagramView:
    """Everything the template draws, already placed (user units, theme paints, texts)."""

    uid: str
    width: float
    height: float
    view_width: str | None
    view_height: str | None
    lang: str
    title: str
    desc: str
    paint: dict[str, Paint]
    font: str = FONT
    frame: tuple[float, float, float, float] = (0, 0, 0, 0)
    border_width: float = 0
    squares: list[dict] = field(default_factory=list)
    full: bool = False
    numbers: list[dict] = field(default_factory=list)
    number_size: float = 0
    number_role: str = "number"
    halo_role: str = "number halo"
    coordinates: list[dict] = field(default_factory=list)
    coordinate_size: float = 0
    highlights: list[dict] = field(default_factory=list)
    pieces: list[dict] = field(default_factory=list)
    captured: list[dict] = field(default_factory=list)
    arrows: list[dict] = field(default_factory=list)
    route: dict | None = None
    marker: dict | None = None
    square: float = SQUARE
    crown: str = CROWN
    piece_r: float = PIECE_R
    number_halo: float = NUMBER_HALO
    ring_r: float = RING_R
    cross: float = CROSS
    line_w: float = LINE_W
    casing_w: float = LINE_W + CASING_W


def _resolve(geometry: Geometry, ref: SquareRef, what: str) -> Square:
    if isinstance(ref, bool):
        raise ValueError(f"{what}: {ref!r} is not a square")
    if isinstance(ref, int):
        if ref not in geometry.names:
            raise ValueError(f"{what}: {ref} is not a playing square of this board")
        return ref
    if isinstance(ref, str):
        try:
            return geometry.parse_square(ref)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
    raise ValueError(f"{what}: {ref!r} is not a square")


def _arrow_squares(geometry: Geometry, item: object) -> tuple[Square, Square]:
    if isinstance(item, Arrow):
        tail, head = item.tail, item.head
    elif isinstance(item, Move):
        tail, head = item.origin, item.dest
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        tail, head = item
    else:
        raise ValueError(f"arrow: expected Arrow(tail, head) or a pair of squares, not {item!r}")
    return _resolve(geometry, tail, "arrow"), _resolve(geometry, head, "arrow")


@dataclass(frozen=True)
class _Marks:
    """What the caller asked to show over the position, each square resolved (and checked)."""

    arrows: list[tuple[Square, Square]]
    route: list[Square]
    route_move: Move | None
    """The capture the route was given as, if it was a move (its text then describes it)."""
    captured: list[Square]
    highlight: list[Square]


def _route_squares(geometry: Geometry, route: Move | Sequence[SquareRef] | None) -> tuple[list[Square], Move | None]:
    """The squares the route passes through, and the move it was given as (None for squares)."""
    if route is None:
        return [], None
    if isinstance(route, Move):
        squares, move = list(route.path), route
    elif isinstance(route, str | bytes) or not isinstance(route, Sequence):
        raise ValueError(f"route: expected a Move or a sequence of squares, not {route!r}")
    else:
        squares, move = [_resolve(geometry, s, "route") for s in route], None
    if len(squares) < 2:
        raise ValueError("route: needs at least two squares")
    return squares, move


def _marks(
    geometry: Geometry,
    arrows: Iterable[Arrow | Move | tuple[SquareRef, SquareRef]],
    route: Move | Sequence[SquareRef] | None,
    captured: Iterable[SquareRef],
    highlight: Iterable[SquareRef],
) -> _Marks:
    arrow_list = [_arrow_squares(geometry, a) for a in arrows]
    route_squares, route_move = _route_squares(geometry, route)
    return _Marks(
        arrows=arrow_list,
        route=route_squares,
        route_move=route_move,
        captured=[_resolve(geometry, s, "captured") for s in captured],
        highlight=[_resolve(geometry, s, "highlight") for s in highlight],
    )


def _description(position: Position, marks: _Marks, words: dict) -> str:
    """The ``<desc>`` text: the move shown, the captured pieces, the arrows, the highlighted squares."""
    names = position.variant.geometry.name
    parts = []
    if marks.route:
        if marks.route_move is not None:
            text = position.move_text(marks.route_move, long=True)
        else:
            sep = position.variant.capture_separator if (marks.captured or len(marks.route) > 2) else "-"
            text = sep.join(names(s) for s in marks.route)
        line = f"{words['move']}: {text}"
        if marks.captured:
            caps = ", ".join(names(s) for s in marks.captured)
            line += f"; {_plural(words['captured_after'], len(marks.captured))}: {caps}"
        parts.append(line + ".")
    elif marks.captured:
        caps = ", ".join(names(s) for s in marks.captured)
        parts.append(f"{_plural(words['captured'], len(marks.captured))}: {caps}.")
    if marks.arrows:
        texts = ", ".join(f"{names(a)}-{names(b)}" for a, b in marks.arrows)
        parts.append(f"{_plural(words['arrows'], len(marks.arrows))}: {texts}.")
    if marks.highlight:
        texts = ", ".join(names(s) for s in marks.highlight)
        parts.append(f"{_plural(words['highlight'], len(marks.highlight))}: {texts}.")
    return " ".join(parts)


def _check_arguments(orientation: int, size: float | None) -> None:
    if orientation not in (WHITE, BLACK) or isinstance(orientation, bool):
        raise ValueError(f"orientation must be WHITE (0) or BLACK (1), not {orientation!r}")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int | float) or size <= 0):
        raise ValueError(f"size must be a positive number, not {size!r}")


def _checked_uid(uid: str | None, position: Position, marks: _Marks, shape: tuple[object, ...]) -> str:
    """The caller's uid, checked; by default one hashed from everything that shapes the drawing (the
    position, the marks, and ``shape``: orientation, numbers, coordinates, marker, size, theme, sorted
    paints, language, title, description), so the same picture always gets the same ids."""
    if uid is not None:
        if not isinstance(uid, str) or not _UID.fullmatch(uid):
            raise ValueError(f"uid must be an XML name (a letter or _, then letters, digits, _ . -), not {uid!r}")
        return uid
    orientation, numbers, coordinates, marker, size, theme, paints, lang, title, desc = shape
    key = (
        position.variant.name,
        position.fen(),
        orientation,
        numbers,
        coordinates,
        marks.arrows,
        marks.route,
        marks.captured,
        marks.highlight,
        marker,
        size,
        theme,
        paints,
        lang,
        title,
        desc,
    )
    return "dg" + hashlib.sha1(repr(key).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class _Layout:
    """Where the board sits in the drawing: the margins around it (border, gap, the coordinate bands,
    the side-to-move marker's column) and the board's own size."""

    left: float
    top: float
    board_w: float
    board_h: float
    width: float
    height: float
    border: float = 4.0
    gap: float = 2.0
    marker_r: float = 0.2 * SQUARE


def _layout(geometry: Geometry, coordinates: bool, side_to_move_marker: bool) -> _Layout:
    border, gap, marker_r = _Layout.border, _Layout.gap, _Layout.marker_r
    label_band = 0.5 * SQUARE
    left = border + gap + (label_band if coordinates else 0)
    bottom = border + gap + (label_band if coordinates else 0)
    top = border + gap
    right = border + gap + (2 * marker_r + 8 if side_to_move_marker else 0)
    board_w, board_h = geometry.width * SQUARE, geometry.height * SQUARE
    return _Layout(left, top, board_w, board_h, left + board_w + right, top + board_h + bottom)


def _blank_view(
    geometry: Geometry, layout: _Layout, uid: str, size: float | None, lang: str, texts: tuple[str, str], paint: dict
) -> DiagramView:
    """The drawing's frame and texts, before any layer."""
    border = layout.border
    return DiagramView(
        uid=uid,
        width=layout.width,
        height=layout.height,
        view_width=None if size is None else _n(size),
        view_height=None if size is None else _n(size * layout.height / layout.width),
        lang=lang,
        title=texts[0],
        desc=texts[1],
        paint=paint,
        frame=(layout.left - border / 2, layout.top - border / 2, layout.board_w + border, layout.board_h + border),
        border_width=border,
        full=geometry.layout.name == "FULL",
    )


def build_view(
    position: Position,
    *,
    orientation: int = WHITE,
    numbers: bool | None = None,
    coordinates: bool | None = None,
    arrows: Iterable[Arrow | Move | tuple[SquareRef, SquareRef]] = (),
    route: Move | Sequence[SquareRef] | None = None,
    captured: Iterable[SquareRef] = (),
    highlight: Iterable[SquareRef] = (),
    side_to_move_marker: bool = True,
    size: float | None = None,
    theme: str = "classic",
    colors: Mapping[str, str] | None = None,
    lang: str = "pt",
    uid: str | None = None,
    title: str | None = None,
    description: str | None = None,
) -> DiagramView:
    """The view model behind :func:`diagram` (same arguments); useful to test or to reuse in pages.

    Checks the arguments and describes the picture in words, places the board, then adds its layers
    from the bottom up: squares, numbers, coordinates, highlights, pieces, marks, the side to move."""
    _check_arguments(orientation, size)
    g = position.variant.geometry
    words = _words(lang)
    paint = theme_paints(theme, colors)
    algebraic = g.numbering is Numbering.ALGEBRAIC
    numbers = not algebraic if numbers is None else numbers
    coordinates = algebraic if coordinates is None else coordinates
    marks = _marks(g, arrows, route, captured, highlight)
    title = describe_position(position, lang) if title is None else title
    desc = _description(position, marks, words) if description is None else description
    paints = sorted(paint.items())
    shape = (orientation, numbers, coordinates, side_to_move_marker, size, theme, paints, words["lang"], title, desc)
    layout = _layout(g, coordinates, side_to_move_marker)
    view = _blank_view(g, layout, _checked_uid(uid, position, marks, shape), size, words["lang"], (title, desc), paint)
    frame = _Frame(g, orientation, (layout.left, layout.top))
    _add_squares(view, frame)
    if numbers:
        _add_numbers(view, frame)
    if coordinates:
        _add_coordinates(view, frame, layout)
    _add_highlights(view, frame, marks.highlight)
    _add_pieces(view, frame, position)
    _add_marks(view, frame, marks)
    if side_to_move_marker:
        _add_side_to_move(view, layout, position.turn, orientation)
    return view


# The layers of the picture, bottom up; each places itself with the frame (so flipping moves them all).


def _add_squares(view: DiagramView, frame: _Frame) -> None:
    """Only playing squares are drawn on top of the light board (all 64 on the Turkish board)."""
    g = frame.geometry
    role = "square full" if view.full else "square dark"
    for sq in g.squares:
        x, y = frame.corner(sq)
        view.squares.append({"x": x, "y": y, "name": g.name(sq), "role": role})


def _add_numbers(view: DiagramView, frame: _Frame) -> None:
    """Each playing square's number (its name on algebraic boards) in its top-left corner."""
    g = frame.geometry
    view.number_size = NUMBER_SIZE
    view.number_role = "number full" if view.full else "number"
    view.halo_role = "square full" if view.full else "number halo"
    for sq in g.squares:
        x, y = frame.corner(sq)
        view.numbers.append({"x": x + 2, "y": y + 1.5 + view.number_size * 0.73, "text": g.name(sq)})


def _add_coordinates(view: DiagramView, frame: _Frame, layout: _Layout) -> None:
    """File letters under the board, rank numbers on its left."""
    g = frame.geometry
    border, gap = layout.border, layout.gap
    view.coordinate_size = 0.3 * SQUARE
    letters = "abcdefghijklmnopqrstuvwxyz"
    for f in range(g.width):
        x, _ = square_xy(g, f, 0, frame.orientation, frame.origin)
        y = layout.top + layout.board_h + border + gap + view.coordinate_size * 0.95
        view.coordinates.append({"x": x + SQUARE / 2, "y": y, "text": letters[f]})
    for r in range(g.height):
        _, y = square_xy(g, 0, r, frame.orientation, frame.origin)
        x = (layout.left - border - gap) / 2 + gap / 2
        view.coordinates.append({"x": x, "y": y + SQUARE / 2 + view.coordinate_size * 0.36, "text": str(r + 1)})


def _add_highlights(view: DiagramView, frame: _Frame, squares: list[Square]) -> None:
    for sq in squares:
        x, y = frame.corner(sq)
        view.highlights.append({"x": x + 2.5, "y": y + 2.5, "size": SQUARE - 5, "name": frame.geometry.name(sq)})


def _add_pieces(view: DiagramView, frame: _Frame, position: Position) -> None:
    for sq in frame.geometry.squares:
        piece = position.piece_at(sq)
        if piece is None:
            continue
        color, king = piece
        cx, cy = frame.centre(sq)
        colour = "white" if color == WHITE else "black"
        view.pieces.append({"cx": cx, "cy": cy, "color": colour, "king": king, "name": frame.geometry.name(sq)})


def _add_marks(view: DiagramView, frame: _Frame, marks: _Marks) -> None:
    """Over the pieces: crosses on captured pieces, arrows, and the capture's route."""
    names = frame.geometry.name
    for sq in marks.captured:
        cx, cy = frame.centre(sq)
        view.captured.append({"cx": cx, "cy": cy, "name": names(sq)})
    for tail, head in marks.arrows:
        a, b = frame.centre(tail), frame.centre(head)
        view.arrows.append(
            {"points": _points([a, b]), "head": _points(_arrowhead(a, b)), "text": f"{names(tail)}-{names(head)}"}
        )
    if marks.route:
        pts = [frame.centre(s) for s in marks.route]
        view.route = {
            "points": _points(pts),
            "head": _points(_arrowhead(pts[-2], pts[-1])),
            "stops": [{"cx": x, "cy": y} for x, y in pts[1:-1]],
            "squares": " ".join(names(s) for s in marks.route),
        }


def _add_side_to_move(view: DiagramView, layout: _Layout, turn: int, orientation: int) -> None:
    """A disc of the side to move beside the board, level with that side's first row."""
    r = layout.marker_r
    at_bottom = turn == orientation
    cy = layout.top + layout.board_h - SQUARE / 2 if at_bottom else layout.top + SQUARE / 2
    view.marker = {
        "cx": layout.left + layout.board_w + layout.border + layout.gap + 4 + r,
        "cy": cy,
        "r": r,
        "color": "white" if turn == WHITE else "black",
    }


# -- rendering ----------------------------------------------------------------------------------------


@cache
def _environment() -> Environment:
    env = Environment(
        loader=jinja_loader(),
        autoescape=select_autoescape(enabled_extensions=("svg", "svg.j2", "html", "xml"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["n"] = _n
    return env


# whole: the public keyword signature and its documentation are most of it; the body is one call
def diagram(
    position: Position,
    *,
    orientation: int = WHITE,
    numbers: bool | None = None,
    coordinates: bool | None = None,
    arrows: Iterable[Arrow | Move | tuple[SquareRef, SquareRef]] = (),
    route: Move | Sequence[SquareRef] | None = None,
    captured: Iterable[SquareRef] = (),
    highlight: Iterable[SquareRef] = (),
    side_to_move_marker: bool = True,
    size: float | None = None,
    theme: str = "classic",
    colors: Mapping[str, str] | None = None,
    lang: str = "pt",
    uid: str | None = None,
    title: str | None = None,
    description: str | None = None,
) -> Svg:
    """Draw ``position`` as an SVG board diagram, White at the bottom unless ``orientation=BLACK``.

    Args:
        numbers: square numbers in a corner of each playing square (square names on algebraic
            boards); None means the variant's default (on for numeric notation).
        coordinates: file letters and rank numbers on the edges; None means the variant's
            default (on for algebraic notation).
        arrows: :class:`Arrow` objects, quiet :class:`Move` objects or (tail, head) pairs.
        route: a capture :class:`Move` or a sequence of squares; the line passes through every
            landing square and ends in an arrowhead.
        captured: squares whose pieces are marked as captured (a cross).
        highlight: squares framed and tinted.
        side_to_move_marker: a small disc of the side to move beside the board, on its side.
        size: width in user units/pixels (height follows); None leaves the SVG to scale freely.
        theme: ``"classic"`` or ``"print"``; ``colors`` overrides single roles (see :data:`ROLES`).
        lang: ``"pt"`` (pt-BR, the default) or ``"en"``, for ``<title>`` and ``<desc>``.
        uid: prefix of every id; by default a hash of the inputs, so output is deterministic.
            Pass distinct uids when the very same diagram is inlined twice in one page.
        title, description: replace the generated ``<title>`` / ``<desc>`` texts (escaped).

    Squares are engine indices or names in the variant's notation ("27", "c3").

    Raises:
        ValueError: for an unknown theme, colour role, language, a square off the board, or a
            malformed argument.
    """
    view = build_view(
        position,
        orientation=orientation,
        numbers=numbers,
        coordinates=coordinates,
        arrows=arrows,
        route=route,
        captured=captured,
        highlight=highlight,
        side_to_move_marker=side_to_move_marker,
        size=size,
        theme=theme,
        colors=colors,
        lang=lang,
        uid=uid,
        title=title,
        description=description,
    )
    return render_view(view)


def render_view(view: DiagramView) -> Svg:
    """Draw a view model with ``templates/board.svg.j2`` (kept in the proof cache when one is active:
    generator/cache.py)."""
    from ..cache import remembered_svg

    def draw() -> str:
        return _environment().get_template(TEMPLATE).render(v=view, layers=_board_layers(view))

    return Svg(remembered_svg(view, draw))


LAYERS_TEMPLATE = "board-layers.svg.j2"
_LAYERS: dict[tuple[str, str], str] = {}
"""The board layers drawn so far (Jinja markup: not escaped again), by layer and by what they show (at
most :data:`_LAYERS_KEPT`)."""
_LAYERS_KEPT = 256


def _board_layers(view: DiagramView) -> dict[str, str]:
    """The squares, coordinates and square numbers of ``view``, drawn by ``templates/board-layers.svg.j2``.

    They depend on the board, its orientation, size and theme, never on the position, and they are
    most of a diagram's text (a 10x10 board: 50 squares and 100 number texts): each is drawn once
    and reused for every diagram of that board, which makes drawing a course's diagrams about twice
    as fast (bench/README.md)."""
    module = _environment().get_template(LAYERS_TEMPLATE).module
    shown = {
        "board": (view.paint, view.frame, view.border_width, view.squares, view.square, view.full),
        "coordinates": (view.paint, view.font, view.coordinate_size, view.coordinates),
        "numbers": (view.paint, view.font, view.number_size, view.number_role, view.halo_role, view.number_halo,
                    view.numbers),
    }  # fmt: skip
    out = {}
    for name, what in shown.items():
        key = (name, repr(what))
        layer = _LAYERS.get(key)
        if layer is None:
            if len(_LAYERS) >= _LAYERS_KEPT:
                _LAYERS.clear()
            layer = _LAYERS[key] = getattr(module, name)(view)
        out[name] = layer
    return out
