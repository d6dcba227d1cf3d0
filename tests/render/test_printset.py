"""The printable board-and-pieces set: read the PDFs back (pypdf) and look at their pixels (pdftoppm).

What a teacher relies on: every page is the paper size asked for, the squares print at least 4 cm
wide, the board's corners have the colours the rules require once the tiles are glued, the pieces
are told apart without colour, and the rules sheet says what the variant record says.
"""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from generator.i18n import translator
from generator.render import pdf, printset
from generator.render.comparison import ROWS
from generator.render.site import VariantItem
from generator.rules import VARIANTS, Position, Variant
from generator.rules.geometry import Layout

pypdf = pytest.importorskip("pypdf", reason="pypdf (test extra) needed")

MM_PT = 72 / 25.4
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
FOUR_CM_PT = 40 * MM_PT  # 113.39 pt

# docs/spec.md §1.1: on the standard board a1 (White's near-left corner) is dark; on the mirrored board
# (Italian, Portuguese) a1 is light and White's near-right corner is dark; the Turkish board has
# every square alike.
STANDARD = {"international", "brazilian", "russian", "american", "perde-ganha", "antidraughts"}
MIRRORED = {"italian", "portuguese"}
FULL = {"turkish"}

GREY_DARK = 0xBD  # print theme "square dark"
GREY_FULL = 0xE6  # print theme "square full"


def _pdftoppm() -> str:
    exe = shutil.which("pdftoppm")
    if exe is None:
        pytest.skip("pdftoppm not installed (apt-get install -y poppler-utils)")
    return exe


def render_page(path: Path, page: int, dpi: int) -> Image.Image:
    """One page as a greyscale image (page numbers from 1)."""
    out = subprocess.run(
        [_pdftoppm(), "-r", str(dpi), "-f", str(page), "-l", str(page), "-gray", "-png", str(path)],
        capture_output=True,
        check=True,
    )
    return Image.open(io.BytesIO(out.stdout)).convert("L")


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Every variant on A4, three on Letter, compiled the way ``damas build`` compiles them."""
    root = tmp_path_factory.mktemp("printset")
    made = {}
    wanted = [(name, "a4") for name in VARIANTS] + [(n, "letter") for n in ("international", "italian", "turkish")]
    for i, (name, paper) in enumerate(wanted):
        job = printset.job_for(VariantItem(VARIANTS[name], []), printset.Settings(paper=paper))
        job.output = f"{paper}/{name}.pdf"
        made[(name, paper)] = pdf.compile_job(root, job, i)
    pdf.cleanup(root)
    return made


def _tiles(variant: Variant, paper: str = "a4") -> list[printset.Tile]:
    s = printset.Settings(paper=paper)
    return printset.plan_tiles(variant.geometry.width, variant.geometry.height, s, s.coordinates(variant))


# -- the plan ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_tiles_cover_every_square_once_and_fit_the_printable_area(name: str, paper: str) -> None:
    v = VARIANTS[name]
    settings = printset.Settings(paper=paper)
    tiles = _tiles(v, paper)
    seen: list[tuple[int, int]] = []
    pw, ph = settings.size
    for t in tiles:
        svg, layout = printset.board_sheet_svg(v, tiles, t, settings)
        seen += [(sq["col"], sq["row"]) for sq in layout.squares]
        left = layout.x0 - layout.pads["left"] - printset.CROP
        right = layout.x0 + t.cols * settings.square_mm + layout.pads["right"] + printset.CROP
        top = layout.y0 - layout.pads["top"] - printset.CROP
        bottom = layout.free_top
        assert top >= printset.MARGIN + printset.HEADER - 1e-9, (t, top)  # below the sheet's title
        assert left >= printset.MARGIN - 1e-9 and right <= pw - printset.MARGIN + 1e-9, (t, left, right)
        assert bottom <= ph - printset.MARGIN, (t, bottom)
        assert f'width="{pw:g}mm" height="{ph:g}mm"' in svg  # the drawing is the page, at 1:1
    assert sorted(seen) == sorted((c, r) for c in range(v.geometry.width) for r in range(v.geometry.height))


def test_few_sheets_for_the_board() -> None:
    """4 cm squares: 32 cm and 40 cm boards need 2 × 2 and 3 × 2 sheets on A4 and on Letter."""
    for paper in ("a4", "letter"):
        assert len(_tiles(VARIANTS["italian"], paper)) == 4
        assert len(_tiles(VARIANTS["brazilian"], paper)) == 4  # edge coordinates still fit
        assert len(_tiles(VARIANTS["international"], paper)) == 6


def test_bad_settings_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="paper size 'a3'"):
        printset.Settings(paper="a3")
    with pytest.raises(ValueError, match="at least 40"):
        printset.Settings(square_mm=35)
    with pytest.raises(ValueError, match="labels"):
        printset.Settings(labels="both")


def test_larger_squares_still_tile() -> None:
    settings = printset.Settings(square_mm=50)
    tiles = printset.plan_tiles(10, 10, settings, False)
    assert sum(t.cols for t in tiles if t.grid_row == 0) == 10
    assert sum(t.rows for t in tiles if t.grid_col == 0) == 10
    assert all(t.cols * 50 <= 210 - 2 * printset.MARGIN for t in tiles)


def test_every_join_has_a_glue_tab_and_a_cut_note_with_the_same_letter() -> None:
    v = VARIANTS["international"]
    settings = printset.Settings()
    tiles = _tiles(v)
    svgs = {t.number: printset.board_sheet_svg(v, tiles, t, settings)[0] for t in tiles}
    assert sum(t.right for t in tiles) == 4, "3 x 2 sheets: two joins in each row"
    for t in tiles:
        if t.right:
            other = t.number + 1
            tab = [line for line in svgs[t.number].splitlines() if f"COLE AQUI A PARTE {other} ·" in line]
            assert len(tab) == 1
            letter = tab[0].split("·")[1].strip()[0]
            assert f"aba {letter} da parte {t.number}" in svgs[other]
            # an alignment line at every square edge along the seam
            assert svgs[t.number].count('data-align="1"') >= t.rows + 1


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_pieces_are_enough_for_the_start_with_spares(name: str) -> None:
    v = VARIANTS[name]
    pages = printset.pieces_pages(v, printset.Settings())
    text = "".join(pages)
    for color in ("white", "black"):
        men = text.count(f'data-piece="{color} man"')
        kings = text.count(f'data-piece="{color} king"')
        assert men >= v.max_pieces + 2, (color, men)
        assert kings >= 4, (color, kings)
    assert len(pages) <= 2


# -- the PDF ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "paper"), [(n, "a4") for n in sorted(VARIANTS)] + [("italian", "letter")])
def test_every_page_has_the_paper_size_and_the_count_is_small(sets, name: str, paper: str) -> None:
    reader = pypdf.PdfReader(sets[(name, paper)])
    v = VARIANTS[name]
    expected = len(_tiles(v, paper)) + len(printset.pieces_pages(v, printset.Settings(paper=paper))) + 1
    assert len(reader.pages) == expected
    assert len(reader.pages) <= 9
    w, h = PAPER_PT[paper]
    for page in reader.pages:
        box = page.mediabox
        assert abs(float(box.width) - w) < 0.5 and abs(float(box.height) - h) < 0.5, (name, box)


def test_page_counts_for_a_class() -> None:
    """4 board sheets + 1 pieces + 1 rules for the 8×8 games; 6 + 2 + 1 for the 10×10 board."""
    for name, pages in (("italian", 6), ("american", 6), ("international", 9)):
        v = VARIANTS[name]
        assert len(_tiles(v)) + len(printset.pieces_pages(v, printset.Settings())) + 1 == pages


def _line_centres(pixels: list[int], dark: int = 140) -> list[float]:
    """Centres of runs of pixels darker than ``dark`` (grid lines crossed by a scan line)."""
    centres, start = [], None
    for i, p in enumerate([*pixels, 255]):
        if p < dark and start is None:
            start = i
        elif p >= dark and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


@pytest.mark.parametrize(("name", "paper"), [("international", "a4"), ("italian", "a4"), ("turkish", "letter")])
def test_printed_squares_measure_at_least_four_cm(sets, name: str, paper: str) -> None:
    """Measure the squares on the rendered page: the grid lines crossed by a scan line through the
    middle of the first row (and a column) are one square apart."""
    dpi = 150
    v = VARIANTS[name]
    settings = printset.Settings(paper=paper)
    tiles = _tiles(v, paper)
    _, layout = printset.board_sheet_svg(v, tiles, tiles[0], settings)
    image = render_page(sets[(name, paper)], 1, dpi)
    px = dpi / 25.4
    s = settings.square_mm
    y = round((layout.y0 + s / 2) * px)
    x = round((layout.x0 + s / 2) * px)
    row = [image.getpixel((i, y)) for i in range(round(layout.x0 * px) + 8, round((layout.x0 + 3 * s) * px) + 8)]
    col = [image.getpixel((x, j)) for j in range(round(layout.y0 * px) + 8, round((layout.y0 + 3 * s) * px) + 8)]
    for scan in (row, col):
        lines = _line_centres(scan)
        assert len(lines) == 3, lines  # the edges after the 1st, 2nd and 3rd squares
        for a, b in itertools.pairwise(lines):
            side_pt = (b - a) * 72 / dpi
            assert side_pt >= FOUR_CM_PT - 72 / dpi, side_pt  # one pixel of rendering tolerance
            assert side_pt < FOUR_CM_PT + 2


def _corner_tone(path: Path, v: Variant, tiles: list[printset.Tile], corner: str) -> tuple[int, int]:
    """(tone of the corner square's centre, tone just outside the board's corner, in the frame)."""
    settings = printset.Settings()
    last_col = max(t.grid_col for t in tiles)
    last_row = max(t.grid_row for t in tiles)
    want_col = 0 if "left" in corner else last_col
    want_row = 0 if "top" in corner else last_row
    tile = next(t for t in tiles if t.grid_col == want_col and t.grid_row == want_row)
    _, layout = printset.board_sheet_svg(v, tiles, tile, settings)
    s = settings.square_mm
    c = 0 if "left" in corner else tile.cols - 1
    r = 0 if "top" in corner else tile.rows - 1
    dpi = 40
    px = dpi / 25.4
    image = render_page(path, tile.number, dpi)
    cx, cy = layout.x0 + (c + 0.5) * s, layout.y0 + (r + 0.5) * s
    ox = layout.x0 - 0.9 if "left" in corner else layout.x0 + tile.cols * s + 0.9
    oy = layout.y0 - 0.9 if "top" in corner else layout.y0 + tile.rows * s + 0.9
    return image.getpixel((round(cx * px), round(cy * px))), image.getpixel((round(ox * px), round(oy * px)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_corner_squares_have_the_colours_the_rules_require(sets, name: str) -> None:
    v = VARIANTS[name]
    tiles = _tiles(v)
    tones = {}
    for corner in ("bottom-left", "bottom-right", "top-left", "top-right"):
        inside, frame = _corner_tone(sets[(name, "a4")], v, tiles, corner)
        assert frame < 60, (corner, frame)  # the black frame hugs the board: the square found is the corner
        tones[corner] = inside
    dark = range(GREY_DARK - 12, GREY_DARK + 13)
    if name in STANDARD:
        assert v.geometry.layout is Layout.STANDARD
        assert tones["bottom-left"] in dark and tones["top-right"] in dark, tones
        assert tones["bottom-right"] > 245 and tones["top-left"] > 245, tones
    elif name in MIRRORED:
        assert tones["bottom-right"] in dark and tones["top-left"] in dark, tones
        assert tones["bottom-left"] > 245 and tones["top-right"] > 245, tones
    else:
        assert name in FULL
        assert all(abs(t - GREY_FULL) < 12 for t in tones.values()), tones


def test_pieces_are_told_apart_in_black_and_white(sets) -> None:
    """White men are white inside their outline, black men dark; kings carry a crown."""
    v = VARIANTS["italian"]
    n_tiles = len(_tiles(v))
    pages = printset.pieces_pages(v, printset.Settings())
    image = render_page(sets[("italian", "a4")], n_tiles + 1, 60)
    px = 60 / 25.4
    centres = {}
    for line in pages[0].splitlines():
        if "data-piece=" in line:
            kind = line.split('data-piece="')[1].split('"')[0]
            cx, cy = line.split("translate(")[1].split(")")[0].split()
            centres.setdefault(kind, (float(cx), float(cy)))
    assert set(centres) == {"white man", "white king", "black man", "black king"}

    def tone(kind: str, dx: float = 0) -> int:
        x, y = centres[kind]
        return image.getpixel((round((x + dx) * px), round(y * px)))

    assert tone("white man") > 230 and tone("black man") < 60
    # the crown: the king's centre differs from a man's centre of the same colour
    assert tone("white king", 0) < 128 or tone("white king", 2) < 128
    assert tone("black king", 0) > 128 or tone("black king", 2) > 128


def _page_text(path: Path, index: int) -> str:
    return pypdf.PdfReader(path).pages[index].extract_text()


@pytest.mark.parametrize("name", ["american", "italian", "turkish", "international"])
def test_rules_sheet_is_worded_from_the_variant_record(sets, name: str) -> None:
    v = VARIANTS[name]
    text = " ".join(_page_text(sets[(name, "a4")], -1).split())
    for row in ROWS:
        assert " ".join(row.cell(v, translator("pt-BR")).split()) in text, row.label
    who = "as pretas" if name == "american" else "as brancas"
    assert f"Quem começa: {who}, que têm {len(Position.start(v).legal_moves())} lances" in text


def test_rules_sheet_quotes_the_verified_start_claim_of_the_rules_lesson(tmp_path: Path) -> None:
    from generator.lessons.check import check_paths
    from generator.render.site import plan_site

    root = Path(__file__).resolve().parents[2]
    report = check_paths([root / "lessons" / "italian" / "regras.yaml"])
    assert report.ok
    site = plan_site(report.lessons, [VARIANTS["italian"]])
    data = printset.rules_data(site.variants[0], printset.Settings())
    assert data["lesson"] == "Como jogar damas italianas"
    assert "As brancas têm sete primeiros lances possíveis." in data["facts"]
    # the engine agrees with the lesson: seven first moves
    assert len(Position.start(VARIANTS["italian"]).legal_moves()) == 7


def test_labels_follow_the_setting() -> None:
    v = VARIANTS["italian"]
    tiles = _tiles(v)
    numbers = printset.board_sheet_svg(v, tiles, tiles[0], printset.Settings())[0]
    coords = printset.board_sheet_svg(v, tiles, tiles[0], printset.Settings(labels="coordinates"))[0]
    assert 'data-layer="numbers"' in numbers and 'data-layer="coordinates"' not in numbers
    assert 'data-layer="coordinates"' in coords and 'data-layer="numbers"' not in coords
    assert ">1</text>" in numbers  # square 1 (a8) is on the top-left sheet of the Italian board


def test_template_compiles_without_warnings(tmp_path: Path) -> None:
    typst = pytest.importorskip("typst")
    import json

    job = printset.job_for(VariantItem(VARIANTS["brazilian"], []))
    (tmp_path / "data.json").write_text(json.dumps(job.data, ensure_ascii=False), encoding="utf-8")
    shutil.copyfile(job.template, tmp_path / "printset.typ")
    out, warnings = typst.compile_with_warnings(
        str(tmp_path / "printset.typ"), root=str(tmp_path), sys_inputs={"data": "/data.json"}, pdf_standards=["ua-1"]
    )
    assert out.startswith(b"%PDF-")
    assert warnings == []


@pytest.mark.parametrize(("name", "paper"), [("italian", "a4"), ("international", "letter")])
def test_the_ruler_on_the_rules_sheet_prints_ten_cm(sets, name: str, paper: str) -> None:
    """The reader checks the print scale against the ruler: its line is the longest black line on
    the rules sheet (the table's rules are grey) and must measure 10 cm."""
    dpi = 100
    path = sets[(name, paper)]
    image = render_page(path, len(pypdf.PdfReader(path).pages), dpi)
    width, height = image.size
    data = image.tobytes()
    dark = re.compile(rb"[\x00-\x63]+")  # pixels darker than 100
    longest = max(
        (len(m.group()) for y in range(height) for m in dark.finditer(data[y * width : (y + 1) * width])),
        default=0,
    )
    assert abs(longest * 25.4 / dpi - 100) < 0.6, longest
