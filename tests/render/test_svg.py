"""Board diagrams: structure of the SVG, read back with ElementTree."""

from __future__ import annotations

import re

import pytest

from generator.render.svg import (
    ROLES,
    THEMES,
    Arrow,
    Svg,
    build_view,
    describe_position,
    diagram,
    move_overlay,
    parse_color,
)
from generator.rules import BLACK, WHITE, IllegalMoveError, Position, get_variant

from .helpers import NS, board_squares, centre, grid, layer, number_square, parse, pieces, points, translate

ALL_VARIANTS = ["international", "brazilian", "russian", "american", "portuguese", "italian", "turkish"]


def render(variant: str, fen: str = "start", **kw) -> str:
    return diagram(Position.from_fen(variant, fen), **kw)


# -- board geometry ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "count", "width"),
    [
        ("international", 50, 10),
        ("antidraughts", 50, 10),
        ("american", 32, 8),
        ("brazilian", 32, 8),
        ("russian", 32, 8),
        ("italian", 32, 8),
        ("portuguese", 32, 8),
        ("turkish", 64, 8),
    ],
)
def test_playing_squares_drawn(variant, count, width):
    root = parse(render(variant))
    cells = grid(root)
    assert len(cells) == count
    assert {c for c, _ in cells.values()} == set(range(width))
    assert {r for _, r in cells.values()} == set(range(width))


@pytest.mark.parametrize(
    ("variant", "layout"),
    [("international", "standard"), ("american", "standard"), ("italian", "mirrored")],
)
def test_playing_squares_have_the_right_colour_pattern(variant, layout):
    cells = grid(parse(render(variant))).values()
    # Standard: the bottom-left corner (col 0, bottom row) is played; mirrored: it is not.
    bottom = max(r for _, r in cells)
    assert ((0, bottom) in cells) is (layout == "standard")


def test_turkish_squares_are_all_one_playing_colour():
    root = parse(render("turkish"))
    board = layer(root, "board")
    fills = {el.get("fill") for el in board.iter(f"{NS}rect") if el.get("data-square")}
    assert fills == {THEMES["classic"]["square full"]}


@pytest.mark.parametrize(
    ("variant", "text", "cell", "flip"),
    [
        ("international", "1", (1, 0), False),  # top row, second column (FMJD 2.6)
        ("international", "5", (9, 0), False),
        ("international", "46", (0, 9), False),  # bottom-left corner
        ("international", "50", (8, 9), False),
        ("american", "1", (1, 0), False),
        ("american", "29", (0, 7), False),
        ("american", "32", (6, 7), False),
        ("portuguese", "1", (7, 7), False),  # bottom-right corner, counting right to left
        ("portuguese", "4", (1, 7), False),
        ("portuguese", "32", (0, 0), False),
        ("italian", "1", (0, 0), False),  # top-left corner
        ("italian", "32", (7, 7), False),
        ("international", "1", (8, 9), True),  # flipped: square 1 is at the bottom
        ("international", "46", (9, 0), True),
        ("italian", "1", (7, 7), True),
        ("portuguese", "1", (0, 0), True),
    ],
)
def test_square_numbers_sit_on_their_squares(variant, text, cell, flip):
    root = parse(render(variant, orientation=BLACK if flip else WHITE))
    square = number_square(root, text)
    assert square == text
    assert grid(root)[square] == cell


def test_every_number_is_on_its_own_square():
    for variant in ("international", "american", "italian", "portuguese"):
        for flip in (WHITE, BLACK):
            root = parse(render(variant, orientation=flip))
            assert len(grid(root)) == len(get_variant(variant).geometry.squares)
            for name in grid(root):
                assert number_square(root, name) == name


@pytest.mark.parametrize("variant", ["brazilian", "russian", "turkish"])
def test_algebraic_variants_default_to_coordinates(variant):
    root = parse(render(variant))
    assert layer(root, "numbers") is None
    texts = [el.text for el in layer(root, "coordinates").iter(f"{NS}text")]
    assert texts == [*"abcdefgh", *map(str, range(1, 9))]


@pytest.mark.parametrize("variant", ["international", "american", "italian", "portuguese"])
def test_numeric_variants_default_to_numbers(variant):
    root = parse(render(variant))
    assert layer(root, "coordinates") is None
    assert layer(root, "numbers") is not None


def test_numbers_and_coordinates_can_be_switched():
    root = parse(render("international", numbers=False, coordinates=True))
    assert layer(root, "numbers") is None
    texts = [el.text for el in layer(root, "coordinates").iter(f"{NS}text")]
    assert texts[:10] == list("abcdefghij")
    assert texts[10:] == [str(i) for i in range(1, 11)]
    # names on an algebraic board when numbers are asked for
    root = parse(render("turkish", numbers=True))
    assert number_square(root, "c3") == "c3"


def test_coordinates_follow_the_orientation():
    for flip, left_file, top_rank in ((WHITE, "a", "8"), (BLACK, "h", "1")):
        root = parse(render("brazilian", orientation=flip))
        texts = list(layer(root, "coordinates").iter(f"{NS}text"))
        files = sorted((float(t.get("x")), t.text) for t in texts if t.text.isalpha())
        ranks = sorted((float(t.get("y")), t.text) for t in texts if t.text.isdigit())
        assert files[0][1] == left_file
        assert ranks[0][1] == top_rank
        # each label lines up with its column / row of squares
        cells = grid(root)
        a1 = centre(root, "a1")
        a_label = next(float(t.get("x")) for t in texts if t.text == "a")
        assert a_label == pytest.approx(a1[0])
        assert cells["a1"] == ((0, 7) if flip == WHITE else (7, 0))


# -- pieces ---------------------------------------------------------------------------------------


def test_men_and_kings_of_both_colours_at_square_centres():
    root = parse(render("international", "W:W46,K5:B1,K50"))
    found = pieces(root)
    assert {sq: kind for sq, (kind, _) in found.items()} == {
        "46": "white man",
        "5": "white king",
        "1": "black man",
        "50": "black king",
    }
    for sq, (_, el) in found.items():
        assert translate(el) == pytest.approx(centre(root, sq))
    cells = grid(root)
    assert cells["46"] == (0, 9) and cells["5"] == (9, 0)


def test_kings_wear_a_crown_path_and_men_do_not():
    root = parse(render("american", "W:W21,K5:B9,K30"))
    assert len(pieces(root)) == 4
    for _sq, (kind, el) in pieces(root).items():
        crowns = [p for p in el.iter(f"{NS}path") if p.get("data-crown")]
        assert len(crowns) == (1 if kind.endswith("king") else 0)
        if crowns:
            assert re.fullmatch(r"[MLZaz0-9.,\s-]+", crowns[0].get("d"))
    tags = {el.tag for _sq, (_k, group) in pieces(root).items() for el in group.iter()}
    assert tags == {f"{NS}g", f"{NS}circle", f"{NS}path"}  # no text glyphs, no <use>


def test_piece_colours_follow_the_theme():
    root = parse(render("american", "W:W21:B9", theme="classic"))
    found = pieces(root)
    white = found["21"][1].find(f"{NS}circle")
    black = found["9"][1].find(f"{NS}circle")
    assert white.get("fill") == THEMES["classic"]["white man"]
    assert black.get("fill") == THEMES["classic"]["black man"]


def test_flipped_board_moves_pieces_with_their_squares():
    pos = Position.from_fen("international", "W:W46:B5")
    for flip, cell46 in ((WHITE, (0, 9)), (BLACK, (9, 0))):
        root = parse(diagram(pos, orientation=flip))
        assert grid(root)["46"] == cell46
        assert translate(pieces(root)["46"][1]) == pytest.approx(centre(root, "46"))


# -- side to move ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "orientation", "colour", "at_bottom"),
    [
        ("W:W31:B19", WHITE, "white", True),
        ("B:W31:B19", WHITE, "black", False),
        ("W:W31:B19", BLACK, "white", False),
        ("B:W31:B19", BLACK, "black", True),
    ],
)
def test_side_to_move_marker(fen, orientation, colour, at_bottom):
    root = parse(render("american", fen, orientation=orientation))
    marker = layer(root, "side-to-move")
    assert marker.get("data-color") == colour
    ys = [y for _, y in board_squares(root).values()]
    board_mid = (min(ys) + max(ys) + 50) / 2
    assert (float(marker.get("cy")) > board_mid) is at_bottom
    root = parse(render("american", fen, side_to_move_marker=False))
    assert layer(root, "side-to-move") is None


# -- text alternative ------------------------------------------------------------------------------


def test_title_in_portuguese():
    svg = render("international", "W:W21,22,K5:B9,10")
    root = parse(svg)
    title = root.find(f"{NS}title")
    assert title.text == "Brancas: pedras em 21, 22; dama em 5. Pretas: pedras em 9, 10. Jogam as brancas."
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("lang") == "pt-BR"
    assert root.find(f"{NS}desc") is None  # nothing to describe


def test_title_in_english_and_singulars():
    pos = Position.from_fen("american", "B:W21:BK9,K10")
    assert describe_position(pos, "en") == "White: man on 21. Black: kings on 9, 10. Black to move."
    assert describe_position(pos) == "Brancas: pedra em 21. Pretas: damas em 9, 10. Jogam as pretas."
    empty = Position.from_fen("turkish", "W:Wa2,c3:B")
    assert describe_position(empty) == "Brancas: pedras em a2, c3. Pretas: nenhuma peça. Jogam as brancas."
    root = parse(diagram(pos, lang="en"))
    assert root.get("lang") == "en"
    assert root.find(f"{NS}title").text.startswith("White: man on 21.")


def test_unknown_language_raises():
    with pytest.raises(ValueError, match="language"):
        render("american", lang="xx")


def test_author_text_is_escaped():
    evil = '<script>alert("x")</script> & <b>bold</b>'
    svg = render("american", title=evil, description=evil + " ]]>")
    assert "<script" not in svg and "<b>" not in svg
    assert "&lt;script&gt;" in svg and "&amp;" in svg
    root = parse(svg)
    assert root.find(f"{NS}title").text == evil
    assert root.find(f"{NS}desc").text == evil + " ]]>"


# -- arrows, routes, captured, highlights ----------------------------------------------------------------


def test_capture_route_through_every_landing_square():
    pos = Position.from_fen("american", "W:W27,30:B15,23")
    svg = diagram(pos, **move_overlay(pos, "27x18x11"))
    root = parse(svg)
    route = layer(root, "route")
    assert route.get("data-route") == "27 18 11"
    line = next(el for el in route.iter(f"{NS}polyline") if el.get("data-path"))
    assert points(line.get("points")) == [pytest.approx(centre(root, s)) for s in ("27", "18", "11")]
    stops = [(float(c.get("cx")), float(c.get("cy"))) for c in route.iter(f"{NS}circle")]
    assert stops == [pytest.approx(centre(root, "18"))]
    # the arrowhead points at 11: its tip is inside square 11, beyond its centre seen from 18
    head = points(route.findall(f"{NS}polygon")[-1].get("points"))
    tip = head[0]
    c11, c18 = centre(root, "11"), centre(root, "18")
    assert abs(tip[0] - c11[0]) < 25 and abs(tip[1] - c11[1]) < 25
    assert (tip[0] - c18[0]) * (c11[0] - c18[0]) + (tip[1] - c18[1]) * (c11[1] - c18[1]) > 0
    marks = {el.get("data-captured"): translate(el) for el in layer(root, "captured")}
    assert marks == {"23": pytest.approx(centre(root, "23")), "15": pytest.approx(centre(root, "15"))}
    assert root.find(f"{NS}desc").text == "Lance indicado: 27x18x11; capturadas: 23, 15."
    assert root.get("aria-describedby") == root.find(f"{NS}desc").get("id")


def test_route_as_squares_and_flying_king_route():
    pos = Position.from_fen("international", "W:WK46:B41,23,13")
    move = pos.legal_moves()[0]
    assert len(move.path) == 4 and len(move.captured) == 3
    overlay = move_overlay(pos, move)
    root = parse(diagram(pos, **overlay, lang="en"))
    line = next(el for el in layer(root, "route").iter(f"{NS}polyline") if el.get("data-path"))
    names = [pos.square_name(s) for s in move.path]
    assert points(line.get("points")) == [pytest.approx(centre(root, s)) for s in names]
    assert set(el.get("data-captured") for el in layer(root, "captured")) == {"41", "23", "13"}
    assert root.find(f"{NS}desc").text.startswith(f"Indicated move: {pos.move_text(move, long=True)}")
    root = parse(diagram(pos, route=names, captured=["41"]))
    assert "x".join(names) in root.find(f"{NS}desc").text


def test_quiet_move_is_an_arrow():
    pos = Position.from_fen("american", "start")
    overlay = move_overlay(pos, "9-13")
    assert set(overlay) == {"arrows"}
    root = parse(diagram(pos, **overlay))
    arrow = layer(root, "arrow")
    assert arrow.get("data-move") == "9-13"
    shaft = arrow.findall(f"{NS}polyline")[-1]
    assert points(shaft.get("points")) == [pytest.approx(centre(root, "9")), pytest.approx(centre(root, "13"))]
    assert root.find(f"{NS}desc").text == "Seta: 9-13."


def test_arrow_forms_and_several_arrows():
    pos = Position.from_fen("brazilian", "start")
    g = pos.variant.geometry
    root = parse(diagram(pos, arrows=[Arrow("c3", "d4"), ("e3", "f4"), Arrow(g.parse_square("g3"), "h4")]))
    arrows = [el for el in root.iter() if el.get("data-layer") == "arrow"]
    assert [a.get("data-move") for a in arrows] == ["c3-d4", "e3-f4", "g3-h4"]
    assert root.find(f"{NS}desc").text == "Setas: c3-d4, e3-f4, g3-h4."


def test_highlight_and_captured_without_route():
    root = parse(render("american", "W:W21:B17", highlight=["14", "18"], captured=["17"]))
    marks = {el.get("data-square") for el in layer(root, "highlight")}
    assert marks == {"14", "18"}
    assert root.find(f"{NS}desc").text == "Peça capturada: 17. Casas destacadas: 14, 18."


def test_illegal_overlay_move_raises():
    pos = Position.from_fen("american", "W:W27,30:B15,23")
    with pytest.raises(IllegalMoveError):
        move_overlay(pos, "30-26")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"highlight": ["33"]},
        {"highlight": ["a1"]},
        {"captured": [999]},
        {"arrows": [("1",)]},
        {"route": ["27"]},
        {"route": "27x18"},
        {"orientation": 2},
        {"size": -5},
        {"uid": "1 bad id"},
    ],
)
def test_bad_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        render("american", **kwargs)


# -- ids, determinism, size ---------------------------------------------------------------------------


def ids(root):
    return [el.get("id") for el in root.iter() if el.get("id")]


def test_ids_unique_within_and_across_diagrams():
    a = parse(render("american", "W:W27,30:B15,23", **{"captured": ["23"]}))
    b = parse(render("american", "W:W27,30:B15,19", **{"captured": ["19"]}))
    ia, ib = ids(a), ids(b)
    assert len(ia) == len(set(ia)) and len(ib) == len(set(ib))
    assert not set(ia) & set(ib)
    for root in (a, b):
        for ref in ("aria-labelledby", "aria-describedby"):
            assert root.get(ref) in ids(root)
    c = parse(render("american", "W:W27,30:B15,23", uid="lesson1-d2", captured=["23"]))
    assert all(i.startswith("lesson1-d2") for i in ids(c))


def test_output_is_deterministic():
    assert render("italian", "W:W21:B12") == render("italian", "W:W21:B12")
    assert render("italian", "W:W21:B12") != render("italian", "W:W21:B12", orientation=BLACK)


def test_size_sets_width_and_height_only():
    plain = parse(render("international"))
    sized = parse(render("international", size=300))
    assert plain.get("width") is None
    vb = [float(v) for v in sized.get("viewBox").split()]
    assert vb == [float(v) for v in plain.get("viewBox").split()]
    assert float(sized.get("width")) == 300
    assert float(sized.get("height")) == pytest.approx(300 * vb[3] / vb[2], abs=0.01)


def test_svg_wrapper():
    svg = render("american")
    assert isinstance(svg, Svg) and isinstance(svg, str)
    assert svg._repr_svg_() == str(svg)


# -- renderer safety and themes ------------------------------------------------------------------------


def full_featured(variant: str, theme: str) -> str:
    pos = Position.from_fen(variant, "start")
    moves = pos.legal_moves()
    return diagram(
        pos,
        arrows=[moves[0]],
        route=[moves[0].origin, moves[0].dest],
        captured=[moves[0].dest],
        highlight=[moves[-1].origin],
        theme=theme,
        numbers=True,
        coordinates=True,
        size=400,
    )


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_no_constructs_that_break_renderers(variant, theme):
    svg = full_featured(variant, theme)
    parse(svg)
    for bad in ("var(", "foreignObject", "<style", "font:", "paint-order", "non-scaling-stroke", "marker"):
        assert bad not in svg, bad
    assert 'font-family="DejaVu Sans' in svg
    assert "transform:" not in svg


def test_print_theme_uses_no_colour():
    for role, value in THEMES["print"].items():
        paint = parse_color(value, role)
        r, g, b = (int(paint.color[i : i + 2], 16) for i in (1, 3, 5))
        assert r == g == b, role
    svg = full_featured("international", "print")
    values = re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', svg)
    assert len(values) > 10
    for value in values:
        assert value[1:3] == value[3:5] == value[5:7], value


def test_themes_define_every_role_and_reject_unknown_names():
    for theme in THEMES.values():
        assert tuple(theme) == ROLES
    with pytest.raises(ValueError, match="theme"):
        render("american", theme="neon")
    with pytest.raises(ValueError, match="role"):
        render("american", colors={"square darkk": "#000000"})
    with pytest.raises(ValueError, match="colour"):
        render("american", colors={"square dark": "red"})
    root = parse(render("american", colors={"square dark": "#123456"}))
    assert {el.get("fill") for el in layer(root, "board") if el.get("data-square")} == {"#123456"}


def test_colour_with_alpha_becomes_opacity():
    assert parse_color("#abc") == ("#aabbcc", 1.0)
    assert parse_color("#00000080") == ("#000000", 0.5)
    svg = render("american", colors={"highlight fill": "#ff000080"}, highlight=["1"])
    assert 'fill="#ff0000" fill-opacity="0.5"' in svg


def test_view_model_uses_one_placement_for_every_layer():
    pos = Position.from_fen("italian", "W:W21:B12")
    view = build_view(pos, orientation=BLACK, highlight=["21"], captured=["12"], arrows=[("21", "17")])
    squares = {s["name"]: (s["x"], s["y"]) for s in view.squares}
    assert (view.highlights[0]["x"] - 2.5, view.highlights[0]["y"] - 2.5) == squares["21"]
    assert (view.captured[0]["cx"] - 25, view.captured[0]["cy"] - 25) == squares["12"]
    piece = next(p for p in view.pieces if p["name"] == "21")
    assert (piece["cx"] - 25, piece["cy"] - 25) == squares["21"]


def test_board_layers_drawn_once_are_the_layers_of_each_board() -> None:
    """The squares, coordinates and numbers are drawn once per board and reused
    (svg._board_layers): a diagram drawn after others of other boards, orientations, sizes and
    themes is byte for byte the diagram drawn with nothing kept."""
    from generator.render import svg

    cases = [
        (Position.start("brazilian"), {}),
        (Position.start("brazilian"), {"orientation": BLACK}),
        (Position.start("brazilian"), {"theme": "print"}),
        (Position.start("brazilian"), {"numbers": True, "coordinates": False}),
        (Position.start("international"), {}),
        (Position.start("international"), {"size": 300}),
        (Position.start("italian"), {}),
        (Position.start("american"), {"colors": {"square dark": "#336699"}}),
    ]
    alone = []
    for pos, options in cases:
        svg._LAYERS.clear()
        alone.append(diagram(pos, uid="d", **options))
    assert len(set(alone)) == len(cases), "every case draws another diagram"
    svg._LAYERS.clear()
    assert [diagram(pos, uid="d", **options) for pos, options in cases] == alone
    kept = len(svg._LAYERS)
    assert kept >= len(cases), "each case has its own squares"
    assert [diagram(pos, uid="d", **options) for pos, options in cases] == alone
    assert len(svg._LAYERS) == kept, "drawn again, no layer is drawn anew"
