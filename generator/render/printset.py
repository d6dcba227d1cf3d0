""" "Imprima seu jogo de damas": a printable board, pieces and a rules sheet for one variant, as one PDF.

A full-size board (squares of at least 4 cm) never fits one sheet: 8 × 4 cm = 32 cm is longer than
A4 (29.7 cm) and Letter (27.9 cm).  The board is cut into tiles laid out on portrait sheets; every
tile that has a neighbour on its right or below carries a glue tab ("cole aqui") there, with
alignment lines continuing the square edges, and the neighbour is cut at its board edge and glued
on top.  Geometry comes from the rules engine (:class:`~generator.rules.geometry.Geometry`): which
squares are played, which corner is dark (standard boards: at each player's left; mirrored boards:
at the right; the Turkish board: every square alike), and how squares are named.

Pieces are the diagram pieces (:mod:`generator.render.svg` shapes, print theme) at full size, on a
grid of straight cutting lines; white pieces are outlined, black pieces filled, kings carry the
crown path, so the set works in black-and-white printing.  The rules sheet is worded from the same
variant record as the comparison page (:data:`generator.render.comparison.ROWS`) plus verified facts
of the variant's rules lesson.

All measures are millimetres; the SVG sheets use a millimetre viewBox the size of the paper, so a
square of ``square_mm`` prints at exactly that size when printed at 100 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Translator, translator
from ..rules import BLACK, WHITE, Position, Variant
from ..rules.geometry import Layout, Numbering
from .comparison import ROWS
from .pdf import TEMPLATES, PdfJob
from .site import LessonItem, VariantItem
from .svg import CROWN, PIECE_R, RING_R, _environment, _n, diagram, theme_paints

TEMPLATE = TEMPLATES / "printset.typ"
BOARD_TEMPLATE = "printset-board.svg.j2"
PIECES_TEMPLATE = "printset-pieces.svg.j2"

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Portrait width and height in millimetres."""
LABELS = ("auto", "numbers", "coordinates")
"""Square names: in the playing squares ("numbers"), along the edges ("coordinates"), or the
variant's own habit ("auto": numbers for numbered notations, coordinates for algebraic ones)."""
MIN_SQUARE_MM = 40.0

MARGIN = 10.0
"""Kept blank on every paper edge: home printers cannot print there."""
HEADER = 16.0
"""Room for the sheet's title line (written by Typst) above the drawing."""
TAB = 12.0
"""Width of a glue tab."""
FRAME = 1.8
"""Thickness of the board's outer frame."""
BAND = 6.0
"""Room for edge coordinates outside the frame."""
CROP = 4.5
"""Room outside a cut line for the crop marks."""
TILE = 30.0
"""Side of one cut-out piece token."""
PIECE_RATIO = 0.34
"""Piece radius as a fraction of a board square (the diagrams use 0.36, printed tokens want a
little more paper round the disc)."""
SPARE_MEN = 2
MIN_KINGS = 4
PAINT = theme_paints("print")


def output_path(variant: str, language: str = "pt-BR", prefix: str = "") -> str:
    """Where the set goes, relative to the build root (``pdf/<variant>/tabuleiro.pdf``, its name from
    ``language``'s catalog; ``prefix`` is the language tree's folder)."""
    from .names import file_names

    return f"pdf/{prefix}{variant}/{file_names(language)['printset']}.pdf"


@dataclass(frozen=True)
class Settings:
    """How to print: paper (``a4`` or ``letter``), square side in mm, how squares are named."""

    paper: str = "a4"
    square_mm: float = MIN_SQUARE_MM
    labels: str = "auto"

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ValueError(f"unknown paper size '{self.paper}' (paper sizes: {', '.join(PAPERS)})")
        if (
            isinstance(self.square_mm, bool)
            or not isinstance(self.square_mm, int | float)
            or not math.isfinite(self.square_mm)
            or self.square_mm < MIN_SQUARE_MM
        ):
            raise ValueError(f"square_mm must be a number of at least {MIN_SQUARE_MM:g}, not {self.square_mm!r}")
        if self.labels not in LABELS:
            raise ValueError(f"unknown labels '{self.labels}' (labels: {', '.join(LABELS)})")

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    def coordinates(self, variant: Variant) -> bool:
        """True for edge coordinates, False for numbers in the playing squares."""
        if self.labels == "auto":
            return variant.geometry.numbering is Numbering.ALGEBRAIC
        return self.labels == "coordinates"


# -- tiling the board ---------------------------------------------------------------------------------


def _split(n: int, most: int) -> list[int]:
    """``n`` squares in as few runs of at most ``most`` as possible, as even as possible, longer first."""
    if most < 1:
        raise ValueError("the paper is too small for even one square of this size")
    parts = math.ceil(n / most)
    base, extra = divmod(n, parts)
    return [base + 1] * extra + [base] * (parts - extra)


@dataclass(frozen=True)
class Tile:
    """One sheet's part of the board: drawn columns ``col0..col0+cols-1`` and drawn rows
    ``row0..row0+rows-1`` (row 0 is the top row with White at the bottom)."""

    number: int
    grid_col: int
    grid_row: int
    col0: int
    row0: int
    cols: int
    rows: int
    grid_cols: int
    grid_rows: int

    @property
    def left(self) -> bool:
        """A neighbour on the left (this tile is cut at its left board edge and glued over its tab)."""
        return self.grid_col > 0

    @property
    def top(self) -> bool:
        return self.grid_row > 0

    @property
    def right(self) -> bool:
        """A neighbour on the right: this tile carries the glue tab on that side."""
        return self.grid_col < self.grid_cols - 1

    @property
    def bottom(self) -> bool:
        return self.grid_row < self.grid_rows - 1


def plan_tiles(width: int, height: int, settings: Settings, coordinates: bool) -> list[Tile]:
    """Cut a ``width`` × ``height`` board into portrait sheets, reading order (left to right, top
    to bottom).  Each tile is checked to fit the printable area with its tabs, frame and marks."""
    pw, ph = settings.size
    s = settings.square_mm
    band = BAND if coordinates else 0.0
    # Left and top: the frame (and the coordinates) on outer tiles, nothing on seams; right and
    # bottom: a glue tab on seams, the frame (and coordinates below) on outer tiles.
    room_w = pw - 2 * MARGIN - 2 * CROP - (FRAME + band) - max(TAB, FRAME)
    room_h = ph - 2 * MARGIN - HEADER - 2 * CROP - FRAME - max(TAB, FRAME + band)
    col_runs = _split(width, math.floor(room_w / s))
    row_runs = _split(height, math.floor(room_h / s))
    tiles: list[Tile] = []
    row0 = 0
    for gr, rows in enumerate(row_runs):
        col0 = 0
        for gc, cols in enumerate(col_runs):
            tiles.append(Tile(len(tiles) + 1, gc, gr, col0, row0, cols, rows, len(col_runs), len(row_runs)))
            col0 += cols
        row0 += rows
    return tiles


# -- drawing one board sheet ----------------------------------------------------------------------------


def _square_role(variant: Variant, col: int, row: int) -> str:
    g = variant.geometry
    file, rank = col, g.height - 1 - row
    if g.layout is Layout.FULL:
        return "full"
    return "dark" if g.is_playing(file, rank) else "light"


@dataclass
class SheetLayout:
    """Where things are on one board sheet (mm from the page's top-left corner)."""

    tile: Tile
    x0: float
    y0: float
    square: float
    pads: dict[str, float]
    free_top: float
    """First y below the tile's crop marks: the rest of the page is free for text and pictures."""
    squares: list[dict[str, Any]] = field(default_factory=list)


def sheet_layout(variant: Variant, tile: Tile, settings: Settings) -> SheetLayout:
    """Place one tile on its sheet; every square with its drawn position, role and label."""
    g = variant.geometry
    s = settings.square_mm
    coords = settings.coordinates(variant)
    band = BAND if coords else 0.0
    pads = {
        "left": 0.0 if tile.left else FRAME + band,
        "top": 0.0 if tile.top else FRAME,
        "right": TAB if tile.right else FRAME,
        "bottom": TAB if tile.bottom else FRAME + band,
    }
    x0 = MARGIN + CROP + pads["left"]
    y0 = MARGIN + HEADER + CROP + pads["top"]
    layout = SheetLayout(
        tile=tile,
        x0=x0,
        y0=y0,
        square=s,
        pads=pads,
        free_top=y0 + tile.rows * s + pads["bottom"] + CROP,
    )
    for r in range(tile.rows):
        for c in range(tile.cols):
            col, row = tile.col0 + c, tile.row0 + r
            file, rank = col, g.height - 1 - row
            name = None
            if g.is_playing(file, rank):
                name = g.name(g.square(file, rank))
            layout.squares.append(
                {
                    "x": x0 + c * s,
                    "y": y0 + r * s,
                    "role": _square_role(variant, col, row),
                    "name": name,
                    "file": "abcdefghijklmnopqrstuvwxyz"[file],
                    "rank": rank + 1,
                    "col": col,
                    "row": row,
                }
            )
    return layout


def _seam_letter(tiles: list[Tile], a: Tile, b: Tile) -> str:
    """A letter naming the seam between two neighbouring tiles, the same on both sheets."""
    seams = []
    for t in tiles:
        if t.right:
            seams.append((t.number, t.number + 1))
        if t.bottom:
            seams.append((t.number, t.number + t.grid_cols))
    key = (min(a.number, b.number), max(a.number, b.number))
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[seams.index(key) % 26]


def _neighbour(tiles: list[Tile], tile: Tile, dc: int, dr: int) -> Tile:
    return next(t for t in tiles if t.grid_col == tile.grid_col + dc and t.grid_row == tile.grid_row + dr)


def _tabs(tiles: list[Tile], tile: Tile, layout: SheetLayout, tr: Translator) -> list[dict[str, Any]]:
    """Glue tabs on the right and below, with an alignment line at every square edge of the seam
    and the number of the part that goes on top (and the seam's letter, written on both sheets)."""
    s, x0, y0 = layout.square, layout.x0, layout.y0
    bw, bh = tile.cols * s, tile.rows * s
    tabs = []
    if tile.right:
        other = _neighbour(tiles, tile, 1, 0)
        tabs.append(
            {
                "x": x0 + bw,
                "y": y0,
                "w": TAB,
                "h": bh + (TAB if tile.bottom else 0),
                "ticks": [(x0 + bw, y0 + k * s, x0 + bw + TAB, y0 + k * s) for k in range(tile.rows + 1)],
                "text": tr.gettext("GLUE PART %(part)s HERE · %(seam)s")
                % {"part": other.number, "seam": _seam_letter(tiles, tile, other)},
                "cx": x0 + bw + TAB / 2,
                "cy": y0 + bh / 2,
                "rotate": 90,
            }
        )
    if tile.bottom:
        other = _neighbour(tiles, tile, 0, 1)
        tabs.append(
            {
                "x": x0,
                "y": y0 + bh,
                "w": bw,
                "h": TAB,
                "ticks": [(x0 + k * s, y0 + bh, x0 + k * s, y0 + bh + TAB) for k in range(tile.cols + 1)],
                "text": tr.gettext("GLUE PART %(part)s HERE · %(seam)s")
                % {"part": other.number, "seam": _seam_letter(tiles, tile, other)},
                "cx": x0 + bw / 2,
                "cy": y0 + bh + TAB / 2,
                "rotate": 0,
            }
        )
    for t in tabs:
        # the text sits on a patch of the tab's grey, so the alignment lines do not cross it;
        # DejaVu Sans Bold at 3 mm is about 0.66 em a letter
        t["text_w"] = len(str(t["text"])) * 3 * 0.66 + 2
    return tabs


def _glue_notes(tiles: list[Tile], tile: Tile, layout: SheetLayout, tr: Translator) -> list[dict[str, Any]]:
    """Where this sheet goes on top of a neighbour's tab: a note in the waste beyond the cut."""
    s, x0, y0 = layout.square, layout.x0, layout.y0
    notes = []
    for dc, dr, x, y, rotate in (
        (-1, 0, x0 - 2.5, y0 + tile.rows * s / 2, -90),
        (0, -1, x0 + tile.cols * s / 2, y0 - 2.5, 0),
    ):
        if not (tile.left if dc else tile.top):
            continue
        other = _neighbour(tiles, tile, dc, dr)
        letter = _seam_letter(tiles, tile, other)
        text = tr.gettext("cut along the line and glue over tab %(seam)s of part %(part)s") % {
            "seam": letter,
            "part": other.number,
        }
        notes.append({"x": x, "y": y, "rotate": rotate, "text": text})
    return notes


def _frame(tile: Tile, layout: SheetLayout) -> list[tuple[float, float, float, float]]:
    """Strips of the board's outer frame on the tile's outer sides, meeting squarely at corners."""
    s, x0, y0 = layout.square, layout.x0, layout.y0
    bw, bh = tile.cols * s, tile.rows * s
    frame = []
    if not tile.left:
        frame.append((x0 - FRAME, y0 - (0 if tile.top else FRAME), FRAME, bh + (0 if tile.top else FRAME)))
    if not tile.top:
        frame.append((x0, y0 - FRAME, bw + (0 if tile.right else FRAME), FRAME))
    if not tile.right:
        frame.append((x0 + bw, y0, FRAME, bh + (0 if tile.bottom else FRAME)))
    if not tile.bottom:
        frame.append((x0 - (0 if tile.left else FRAME), y0 + bh, bw + (0 if tile.left else FRAME), FRAME))
    return frame


EDGE_SIZE = 4.2
"""Font size of the edge coordinates (mm)."""


def _edge_labels(tile: Tile, layout: SheetLayout) -> list[dict[str, Any]]:
    """File letters under the bottom row and rank numbers left of the first column, as White sees
    the board, on the tiles that hold those edges."""
    s, x0, y0 = layout.square, layout.x0, layout.y0
    labels = []
    for sq in layout.squares:
        if not tile.bottom and sq["row"] == tile.row0 + tile.rows - 1:
            labels.append({"x": sq["x"] + s / 2, "y": y0 + tile.rows * s + FRAME + BAND - 1.8, "text": sq["file"]})
        if not tile.left and sq["col"] == tile.col0:
            labels.append({"x": x0 - FRAME - BAND / 2, "y": sq["y"] + s / 2 + EDGE_SIZE * 0.36, "text": sq["rank"]})
    return labels


def _assembly_map(tiles: list[Tile], tile: Tile, layout: SheetLayout) -> dict[str, Any]:
    """A small plan of all the parts with this one filled in."""
    cell, top = 6.0, layout.free_top + 2
    cells = [
        {
            "x": MARGIN + t.grid_col * cell,
            "y": top + t.grid_row * cell,
            "number": t.number,
            "here": t.number == tile.number,
        }
        for t in tiles
    ]
    return {"x": MARGIN, "y": top, "cell": cell, "cells": cells}


def board_sheet_svg(
    variant: Variant, tiles: list[Tile], tile: Tile, settings: Settings, tr: Translator | None = None
) -> tuple[str, SheetLayout]:
    """The drawing of one board sheet (the whole page, in mm) and where it put things."""
    tr = tr or PT
    layout = sheet_layout(variant, tile, settings)
    pw, ph = settings.size
    s = settings.square_mm
    coords = settings.coordinates(variant)
    x0, y0, pads = layout.x0, layout.y0, layout.pads
    cut = (x0 - pads["left"], y0 - pads["top"], x0 + tile.cols * s + pads["right"], y0 + tile.rows * s + pads["bottom"])
    view = {
        "width": pw,
        "height": ph,
        "square": s,
        "squares": layout.squares,
        "paint": {k: PAINT[k] for k in ("square dark", "square full", "grid", "border")},
        "numbers": not coords,
        "number_size": max(3.2, 0.1 * s),
        "edge": _edge_labels(tile, layout) if coords else [],
        "edge_size": EDGE_SIZE,
        "frame": _frame(tile, layout),
        "tabs": _tabs(tiles, tile, layout, tr),
        "glue_notes": _glue_notes(tiles, tile, layout, tr),
        "cut": cut,
        "crop": _crop_marks(*cut),
        "map": _assembly_map(tiles, tile, layout),
        "uid": f"{variant.name}-folha-{tile.number}",
    }
    return _environment().get_template(BOARD_TEMPLATE).render(v=view), layout


def _crop_marks(x1: float, y1: float, x2: float, y2: float) -> list[tuple[float, float, float, float]]:
    """Short lines just outside each corner of a cut rectangle, along its edges."""
    gap, length = 1.0, CROP - 1.5
    marks = []
    for x, sx in ((x1, -1), (x2, 1)):
        for y, sy in ((y1, -1), (y2, 1)):
            marks.append((x + sx * gap, y, x + sx * (gap + length), y))
            marks.append((x, y + sy * gap, x, y + sy * (gap + length)))
    return marks


# -- pieces -------------------------------------------------------------------------------------------


def piece_counts(variant: Variant, cols: int) -> tuple[int, int]:
    """(men, kings) per colour: the start position, spare men, and kings filling the last row."""
    n = variant.max_pieces + SPARE_MEN + MIN_KINGS
    rows = math.ceil(n / cols)
    return variant.max_pieces + SPARE_MEN, rows * cols - variant.max_pieces - SPARE_MEN


PIECES_HEADING = 9.0
"""Height (mm) of the title line above each colour's block of pieces."""


@dataclass(frozen=True)
class _PieceGrid:
    """The cutting grid of one colour's pieces: ``men`` tokens then ``kings``, ``cols`` to a row."""

    men: int
    kings: int
    cols: int

    @property
    def rows(self) -> int:
        return math.ceil((self.men + self.kings) / self.cols)


def pieces_pages(variant: Variant, settings: Settings, tr: Translator | None = None) -> list[str]:
    """Pages of cut-out pieces: per colour a block of tokens, men then kings, on a cutting grid."""
    tr = tr or PT
    pw, ph = settings.size
    cols = math.floor((pw - 2 * MARGIN - 2 * CROP) / TILE)
    grid = _PieceGrid(*piece_counts(variant, cols), cols)
    block_h = PIECES_HEADING + grid.rows * TILE + 2 * CROP
    top, bottom = MARGIN + HEADER, ph - MARGIN
    if top + block_h > bottom:
        raise ValueError("the paper is too small for the pieces")
    pages: list[list[dict[str, Any]]] = [[]]
    y = top
    for color in (WHITE, BLACK):
        if y + block_h > bottom:
            pages.append([])
            y = top
        pages[-1].append(_pieces_block(variant, color, grid, ((pw - cols * TILE) / 2, y), tr))
        y += block_h + 4
    return [_pieces_page(variant, settings, k, blocks) for k, blocks in enumerate(pages, start=1)]


def _pieces_block(
    variant: Variant, color: int, grid: _PieceGrid, at: tuple[float, float], tr: Translator
) -> dict[str, Any]:
    """One colour's pieces: the title line, then the tokens on their grid (``at``: its left edge and top)."""
    gx, y = at
    title = (
        tr.gettext("White: %(men)s men (%(start)s + %(spare)s spare) and %(kings)s kings")
        if color == WHITE
        else tr.gettext("Black: %(men)s men (%(start)s + %(spare)s spare) and %(kings)s kings")
    )
    gy = y + PIECES_HEADING + CROP
    tokens = []
    for i in range(grid.men + grid.kings):
        r, c = divmod(i, grid.cols)
        tokens.append({"cx": gx + (c + 0.5) * TILE, "cy": gy + (r + 0.5) * TILE, "king": i >= grid.men})
    counts = {"men": grid.men, "start": variant.max_pieces, "spare": grid.men - variant.max_pieces, "kings": grid.kings}
    return {
        "color": "white" if color == WHITE else "black",
        "title": title % counts,
        "tx": gx,
        "ty": y + PIECES_HEADING - 3,
        "x": gx,
        "y": gy,
        "cols": grid.cols,
        "rows": grid.rows,
        "tokens": tokens,
    }


def _pieces_page(variant: Variant, settings: Settings, number: int, blocks: list[dict[str, Any]]) -> str:
    pw, ph = settings.size
    view = {
        "width": pw,
        "height": ph,
        "tile": TILE,
        "blocks": blocks,
        "scale": PIECE_RATIO * settings.square_mm / PIECE_R,
        "piece_r": PIECE_R,
        "ring_r": RING_R,
        "crown": CROWN,
        "paint": PAINT,
        "uid": f"{variant.name}-pecas-{number}",
    }
    return _environment().get_template(PIECES_TEMPLATE).render(v=view)


# -- words --------------------------------------------------------------------------------------------
# Every reader-facing word comes from the catalog of the set's language (English msgids; the pt_BR
# translations are the set's original Portuguese wording).


def _squares_text(variant: Variant, color: int, tr: Translator) -> str:
    """Where one side's men stand at the start, as the variant writes squares."""
    g = variant.geometry
    start = Position.start(variant)
    squares = g.bits(start.men(color))
    count = len(squares)
    if g.numbering is Numbering.ALGEBRAIC:
        ranks = sorted({g.rank_of(sq) + 1 for sq in squares})
        dark = g.layout is not Layout.FULL
        if len(ranks) > 1:
            text = (
                tr.gettext("%(count)s men on the dark squares of ranks %(first)s to %(last)s")
                if dark
                else tr.gettext("%(count)s men on ranks %(first)s to %(last)s")
            )
        else:
            text = (
                tr.gettext("%(count)s men on the dark squares of rank %(first)s")
                if dark
                else tr.gettext("%(count)s men on rank %(first)s")
            )
        return text % {"count": count, "first": ranks[0], "last": ranks[-1]}
    numbers = sorted(int(g.name(sq)) for sq in squares)
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return tr.gettext("%(count)s men on squares %(first)s to %(last)s") % {
            "count": count,
            "first": numbers[0],
            "last": numbers[-1],
        }
    return tr.gettext("%(count)s men on squares %(list)s") % {"count": count, "list": ", ".join(map(str, numbers))}


def _corner_text(variant: Variant, tr: Translator) -> str:
    g = variant.geometry
    if g.layout is Layout.FULL:
        return tr.gettext("All 64 squares are used; the pieces move along ranks and files, not diagonally.")
    text = (
        tr.gettext(
            "Play is on the %(count)s dark squares. Each player has a dark square in the corner "
            "on their left, right in front of them."
        )
        if g.layout is Layout.STANDARD
        else tr.gettext(
            "Play is on the %(count)s dark squares. Each player has a dark square in the corner "
            "on their right, right in front of them."
        )
    )
    return text % {"count": len(g.squares)}


def _labels_text(variant: Variant, coordinates: bool, tr: Translator) -> str:
    g = variant.geometry
    if coordinates:
        return tr.gettext(
            "Along the edges, the letters of the files (a, b, c ...) and the numbers of the ranks, as White sees them."
        )
    if g.numbering is Numbering.ALGEBRAIC:
        return tr.gettext("Every square carries its name (file and rank), as in the lessons.")
    text = (
        tr.gettext("Every dark square carries its number, from 1 to %(count)s; square 1 is at the top left.")
        if g.numbering is Numbering.TOP_LEFT
        else tr.gettext(
            "Every dark square carries its number, from 1 to %(count)s; square 1 is at the bottom, on White's right."
        )
    )
    return text % {"count": len(g.squares)}


def _first_moves(variant: Variant) -> int:
    return len(Position.start(variant).legal_moves())


def _lesson_facts(lessons: list[LessonItem]) -> tuple[str | None, list[str]]:
    """The rules lesson's title and the verified claims about its start diagram (``tabuleiro``)."""
    for lesson in lessons:
        for d in lesson.diagrams:
            if d.anchor == "tabuleiro":
                return lesson.title, list(d.claim_texts)
    return (lessons[0].title if lessons else None), []


def _words(tr: Translator, lesson: str | None) -> dict[str, str]:
    """The fixed headings of the rules sheet (the Typst template writes no words of its own)."""
    return {
        "before": tr.gettext("Before you start"),
        "checked": tr.gettext("From the rules lesson"),
        "start": tr.gettext("Starting position"),
        "rules": tr.gettext("The rules"),
        "rule": tr.gettext("Rule"),
        "assembly": tr.gettext("How to put the set together"),
        "lesson": (
            tr.gettext("Full rules, with diagrams: lesson %(title)s.") % {"title": tr.quote(lesson)} if lesson else ""
        ),
    }


def rules_data(
    item: VariantItem, settings: Settings, tiles: list[Tile] | None = None, tr: Translator | None = None
) -> dict[str, Any]:
    """The one-page rules summary: rows worded from the variant record, setup, lesson facts."""
    tr = tr or PT
    v = item.variant
    first = (
        tr.gettext("Who moves first: Black, who has %(count)s possible opening moves.")
        if v.first_to_move == BLACK
        else tr.gettext("Who moves first: White, who has %(count)s possible opening moves.")
    )
    setup = [
        _corner_text(v, tr),
        tr.gettext("White (bottom): %(white)s. Black (top): %(black)s.")
        % {"white": _squares_text(v, WHITE, tr), "black": _squares_text(v, BLACK, tr)},
        first % {"count": _first_moves(v)},
        _labels_text(v, settings.coordinates(v), tr),
    ]
    lesson_title, facts = _lesson_facts(item.lessons)
    if tiles is None:
        tiles = plan_tiles(v.geometry.width, v.geometry.height, settings, settings.coordinates(v))
    return {
        "title": tr.gettext("Rules in brief"),
        "variant": item.title,
        "setup": setup,
        "rows": [[tr.gettext(row.label), row.cell(v, tr)] for row in ROWS],
        "facts": facts,
        "lesson": lesson_title,
        "words": _words(tr, lesson_title),
        "diagram": _start_image(v, settings, f"{v.name}-inicio", tr),
        "assembly": assembly_steps(tiles, settings, tr),
        "note": tr.gettext("A summary of this course's rules pages, where every rule is shown with diagrams."),
    }


def _alt_start(v: Variant, tr: Translator) -> str:
    return tr.gettext("White: %(white)s. Black: %(black)s.") % {
        "white": _squares_text(v, WHITE, tr),
        "black": _squares_text(v, BLACK, tr),
    }


# -- the whole set ----------------------------------------------------------------------------------------


def _start_image(variant: Variant, settings: Settings, uid: str, tr: Translator) -> dict[str, str]:
    svg = diagram(
        Position.start(variant),
        theme="print",
        side_to_move_marker=False,
        numbers=not settings.coordinates(variant),
        coordinates=settings.coordinates(variant),
        uid=uid,
        lang=tr.language,
    )
    return {"svg": str(svg), "alt": tr.gettext("Starting position. %(setup)s") % {"setup": _alt_start(variant, tr)}}


RULER_H = 7.0
"""Height of the 10 cm ruler drawn by the template (line, ticks and labels)."""


def _cm(mm: float, tr: Translator) -> str:
    return tr.number(float(_n(mm / 10)))


def _paper_name(settings: Settings, tr: Translator) -> str:
    return tr.gettext("A4") if settings.paper == "a4" else tr.gettext("Letter")


def assembly_steps(tiles: list[Tile], settings: Settings, tr: Translator | None = None) -> list[str]:
    """How to print and put the set together (printed with the rules, where there is always room)."""
    tr = tr or PT
    glue_here = tr.quote(tr.gettext("glue here"))
    return [
        tr.gettext(
            "Print on %(paper)s paper at actual size (100 %%, no %(fit)s). "
            "Check: the ruler measures 10 cm and each square of the board %(size)s cm."
        )
        % {
            "paper": _paper_name(settings, tr),
            "fit": tr.quote(tr.gettext("fit to page")),
            "size": _cm(settings.square_mm, tr),
        },
        tr.gettext(
            "Cut out the %(count)s parts of the board along the dashed lines. Each part has its number "
            "and a map showing where it goes."
        )
        % {"count": len(tiles)},
        tr.gettext(
            "Glue in the order of the map: the part on the right and the part below go on top of the "
            "%(tab)s tabs, with the lines of the squares over the marks on the tab (the same letter on "
            "both sheets). A piece of cardboard underneath makes the board firm."
        )
        % {"tab": glue_here},
        tr.gettext(
            "Cut out the pieces along the dashed lines. The kings (with a crown) are for when a man is crowned."
        ),
    ]


def _sheet_texts(
    variant: Variant,
    tiles: list[Tile],
    tile: Tile,
    layout: SheetLayout,
    settings: Settings,
    tr: Translator,
    title: str | None = None,
) -> dict:
    """The words and pictures in the free space under a tile: where it goes; on the first sheet
    also the print check, the ruler and the start position when there is room for them."""
    pw = settings.size[0]
    where = _place_words(tile, tr)
    text_x = MARGIN + tile.grid_cols * 6.0 + 8
    top = layout.free_top + 2
    counts = {"part": tile.number, "parts": len(tiles)}
    title = title or variant.title
    page: dict[str, Any] = {
        "kind": "sheet",
        "heading": tr.gettext("%(variant)s · board, part %(part)s of %(parts)s") % {"variant": title, **counts},
        "subheading": where,
        "texts": [],
        "images": [],
    }
    text_w = pw - MARGIN - text_x
    lines = [
        tr.gettext("Part %(part)s of %(parts)s: %(where)s. The map shows where it goes.") % {**counts, "where": where}
    ]
    if tile.number == 1:
        text_w, check = _first_sheet(variant, settings, page, (text_x, top, text_w), tr)
        lines = [check, *lines]
    page["texts"].append({"x": text_x, "y": top, "w": text_w, "lines": lines})
    return page


def _first_sheet(
    variant: Variant, settings: Settings, page: dict[str, Any], text: tuple[float, float, float], tr: Translator
) -> tuple[float, str]:
    """On the first sheet: the start position and the ruler where there is room (added to ``page``),
    and the print check (returned, with the width left for the text that starts at ``text``: x, top, width)."""
    pw, ph = settings.size
    text_x, top, text_w = text
    free_h = ph - MARGIN - top
    diagram_w = min(free_h - 4, 56.0)
    if diagram_w >= 30:
        image = _start_image(variant, settings, f"{variant.name}-inicio-folha", tr)
        page["images"].append(
            {
                **image,
                "x": pw - MARGIN - diagram_w,
                "y": top,
                "w": diagram_w,
                "caption": tr.gettext("Starting position"),
            }
        )
        text_w -= diagram_w + 6
    ruler_here = free_h >= 14 + RULER_H and text_w >= 104
    if ruler_here:
        page["ruler"] = {"x": text_x, "y": ph - MARGIN - RULER_H}
    check = (
        tr.gettext(
            "Print at actual size (100 %%, no %(fit)s): the ruler below should measure 10 cm and each "
            "square %(size)s cm. Assembly instructions, pieces and rules on the last sheets."
        )
        if ruler_here
        else tr.gettext(
            "Print at actual size (100 %%, no %(fit)s): the ruler on the last sheet should measure 10 cm "
            "and each square %(size)s cm. Assembly instructions, pieces and rules on the last sheets."
        )
    )
    fit = tr.quote(tr.gettext("fit to page"))
    return text_w, check % {"fit": fit, "size": _cm(settings.square_mm, tr)}


def _place_words(tile: Tile, tr: Translator) -> str:
    if tile.grid_rows == 1 and tile.grid_cols == 1:
        return tr.gettext("the whole board")
    vertical = [tr.gettext("at the top"), tr.gettext("in the middle"), tr.gettext("at the bottom")]
    horizontal = [tr.gettext("on the left"), tr.gettext("in the center"), tr.gettext("on the right")]

    def pick(words: list[str], i: int, n: int) -> str:
        if n == 1:
            return ""
        if n == 2:
            return words[0] if i == 0 else words[2]
        if i == 0:
            return words[0]
        if i == n - 1:
            return words[2]
        return tr.gettext("%(where)s (%(nth)s of %(count)s)") % {"where": words[1], "nth": i + 1, "count": n}

    parts = [pick(vertical, tile.grid_row, tile.grid_rows), pick(horizontal, tile.grid_col, tile.grid_cols)]
    return ", ".join(p for p in parts if p)


def printset_data(item: VariantItem, settings: Settings | None = None, language: str = "pt-BR") -> dict[str, Any]:
    """Everything the Typst template prints for one variant, in ``language``: board sheets, pieces, rules."""
    settings = settings or Settings()
    tr = translator(language)
    v = item.variant
    g = v.geometry
    tiles = plan_tiles(g.width, g.height, settings, settings.coordinates(v))
    pages: list[dict[str, Any]] = []
    for tile in tiles:
        svg, layout = board_sheet_svg(v, tiles, tile, settings, tr)
        page = _sheet_texts(v, tiles, tile, layout, settings, tr, item.title)
        page["svg"] = svg
        page["alt"] = tr.gettext(
            "Part %(part)s of %(parts)s of the %(variant)s board, %(where)s, %(size)s mm squares, "
            "with cut lines and glue tabs."
        ) % {
            "part": tile.number,
            "parts": len(tiles),
            "variant": item.title,
            "where": _place_words(tile, tr),
            "size": tr.number(float(_n(settings.square_mm))),
        }
        pages.append(page)
    for k, svg in enumerate(pieces_pages(v, settings, tr), start=1):
        pages.append(
            {
                "kind": "pieces",
                "heading": tr.gettext("%(variant)s · pieces to cut out") % {"variant": item.title},
                "subheading": tr.gettext("Cut along the dashed lines. White: outlined; Black: filled; kings: crown."),
                "svg": svg,
                "alt": tr.gettext(
                    "Pieces to cut out, sheet %(sheet)s: men and kings, White outlined and Black filled; "
                    "the kings carry a crown."
                )
                % {"sheet": k},
                "texts": [],
                "images": [],
            }
        )
    pages.append({"kind": "rules", **rules_data(item, settings, tiles, tr)})
    w, h = settings.size
    lang, region = tr.typst
    return {
        "title": tr.gettext("Print your draughts set: %(variant)s") % {"variant": item.title},
        "lang": lang,
        "region": region,
        "paper": {"w": w, "h": h},
        "margin": MARGIN,
        "pages": pages,
    }


PT = translator("pt-BR")
"""The default language of the set's words (the course's language of the bundled course)."""


def job_for(item: VariantItem, settings: Settings | None = None, language: str = "pt-BR", prefix: str = "") -> PdfJob:
    """The PDF job of one variant's printable set (compiled like the other PDFs, see :mod:`.pdf`)."""
    return PdfJob(output_path(item.name, language, prefix), printset_data(item, settings, language), TEMPLATE)
