"""FEN reading and writing (docs/spec.md §12.4): liberal reader, strict writer, clear errors."""

from __future__ import annotations

import pytest

from generator.rules import (
    BLACK,
    VARIANTS,
    WHITE,
    DamasError,
    InvalidFenError,
    Position,
    UnknownVariantError,
    get_variant,
)


def squares(pos: Position, bits: int) -> set[str]:
    g = pos.variant.geometry
    return {g.name(s) for s in g.bits(bits)}


# -- start positions (docs/spec.md §12.4 table) ---------------------------------------------------------

RUSSIAN_START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
TURKISH_START = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
START_FENS = {
    "international": "W:W31-50:B1-20",
    "american": "B:W21-32:B1-12",
    "italian": "W:W21-32:B1-12",
    "portuguese": "W:W1-12:B21-32",
    "russian": RUSSIAN_START,
    "brazilian": RUSSIAN_START,
    "turkish": TURKISH_START,
    "perde-ganha": RUSSIAN_START,
    "antidraughts": "W:W31-50:B1-20",
}


def test_every_variant_has_a_start_fen() -> None:
    assert set(START_FENS) == set(VARIANTS)


@pytest.mark.parametrize(("variant", "fen"), START_FENS.items())
def test_start_fen_is_written_as_in_the_spec(variant: str, fen: str) -> None:
    assert Position.start(variant).fen() == fen


@pytest.mark.parametrize(("variant", "fen"), START_FENS.items())
def test_start_fen_reads_as_the_start(variant: str, fen: str) -> None:
    assert Position.from_fen(variant, fen) == Position.start(variant)
    assert Position.from_fen(variant, "start") == Position.start(variant)
    assert Position.from_fen(variant, "START") == Position.start(variant)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_start_piece_counts(variant: str) -> None:
    pos = Position.start(variant)
    n = 20 if pos.variant.geometry.width == 10 else 16 if variant == "turkish" else 12
    assert pos.white.bit_count() == n
    assert pos.black.bit_count() == n
    assert pos.kings == 0
    assert pos.turn == (BLACK if variant == "american" else WHITE)


def test_english_first_player_is_black_on_1_to_12() -> None:
    pos = Position.start("english")
    assert pos.turn == BLACK
    assert squares(pos, pos.black) == {str(n) for n in range(1, 13)}


# -- reading --------------------------------------------------------------------------------------------


def test_ranges_expand() -> None:
    pos = Position.from_fen("international", "W:W31-50:B1-20")
    assert squares(pos, pos.white) == {str(n) for n in range(31, 51)}
    assert squares(pos, pos.black) == {str(n) for n in range(1, 21)}


def test_k_prefix_on_a_square() -> None:
    pos = Position.from_fen("international", "B:BK17,K24:W6,9,K31")
    assert squares(pos, pos.kings) == {"17", "24", "31"}
    assert squares(pos, pos.black) == {"17", "24"}
    assert squares(pos, pos.white) == {"6", "9", "31"}
    assert pos.turn == BLACK


def test_k_prefix_on_a_range_applies_to_the_whole_range() -> None:
    pos = Position.from_fen("international", "W:WK31-35,36:BK1-3,4")
    assert squares(pos, pos.kings) == {"31", "32", "33", "34", "35", "1", "2", "3"}
    assert squares(pos, pos.white & ~pos.kings) == {"36"}
    assert squares(pos, pos.black & ~pos.kings) == {"4"}


def test_all_kings_range_form() -> None:
    pos = Position.from_fen("international", "W:WK31-50:BK1-20")
    assert pos.kings == pos.white | pos.black
    assert pos.fen() == "W:WK31-50:BK1-20"


def test_algebraic_squares() -> None:
    pos = Position.from_fen("brazilian", "W:Wa1,Kc3:Bh8,Kb6")
    assert squares(pos, pos.white) == {"a1", "c3"}
    assert squares(pos, pos.black) == {"h8", "b6"}
    assert squares(pos, pos.kings) == {"c3", "b6"}


def test_algebraic_squares_are_case_insensitive() -> None:
    assert Position.from_fen("russian", "W:WA1,KC3:BH8") == Position.from_fen("russian", "W:Wa1,Kc3:Bh8")


@pytest.mark.parametrize("fen", ["W:W31-50:B1-20", "W:B1-20:W31-50"])
def test_either_side_first(fen: str) -> None:
    assert Position.from_fen("international", fen) == Position.start("international")


def test_side_to_move_is_the_first_letter() -> None:
    assert Position.from_fen("international", "B:W31-50:B1-20").turn == BLACK
    assert Position.from_fen("international", "W:B1-20:W31-50").turn == WHITE


def test_empty_side() -> None:
    pos = Position.from_fen("international", "W:W31:B")
    assert pos.black == 0
    assert squares(pos, pos.white) == {"31"}
    assert pos.fen() == "W:W31:B"


def test_missing_side_is_empty() -> None:
    assert Position.from_fen("international", "W:W31").black == 0


def test_trailing_dot() -> None:
    assert Position.from_fen("international", "W:W31-50:B1-20.") == Position.start("international")
    assert Position.from_fen("international", "W:W31:B.") == Position.from_fen("international", "W:W31:B")


def test_unknown_trailing_fields_are_ignored() -> None:
    pos = Position.from_fen("international", "W:W31-50:B1-20:H0:F1")
    assert pos == Position.start("international")
    assert pos.fen() == "W:W31-50:B1-20"


def test_spaces_quotes_and_lower_case_are_tolerated() -> None:
    expected = Position.from_fen("international", "W:W31:B1")
    for fen in ('"W:W31:B1"', " W:W31:B1 ", "W: W31 : B1", "w:w31:b1", "W:W,31,:B1"):
        assert Position.from_fen("international", fen) == expected, fen


def test_leading_zeros_in_square_numbers() -> None:
    assert Position.from_fen("american", "B:W021,22:B01-03") == Position.from_fen("american", "B:W21,22:B1-3")


# -- writing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "written"),
    [
        # three or more consecutive squares of one kind become a range; two stay a list
        pytest.param("international", "W:W31,32,33,35,36:B1,2", "W:W31-33,35,36:B1,2", id="ranges-of-three"),
        pytest.param("international", "W:WK31,K32,K33,K34:B1", "W:WK31-34:B1", id="king-range"),
        pytest.param("international", "W:W31,K32,33:B1", "W:W31,K32,33:B1", id="kind-breaks-range"),
        pytest.param("international", "W:B1-20:W31-50", "W:W31-50:B1-20", id="white-list-first"),
        pytest.param("international", "W:W50,49,48:B3,1,2", "W:W48-50:B1-3", id="sorted"),
        pytest.param("brazilian", "W:Wc3,a1,Kh6:Bb8", "W:Wa1,c3,Kh6:Bb8", id="algebraic-by-rank-then-file"),
        pytest.param("american", "B:W32:B", "B:W32:B", id="empty-side"),
        pytest.param("turkish", "W:Wa2,b2,c2,d2:Bh7", "W:Wa2,b2,c2,d2:Bh7", id="algebraic-no-ranges"),
    ],
)
def test_writer(variant: str, fen: str, written: str) -> None:
    pos = Position.from_fen(variant, fen)
    assert pos.fen() == written
    assert Position.from_fen(variant, written) == pos


# -- errors ---------------------------------------------------------------------------------------------

BAD_FENS = [
    pytest.param("international", "", "empty", id="empty"),
    pytest.param("international", "W", "no piece lists", id="no-piece-lists"),
    pytest.param("international", "X:W31:B1", "side to move", id="bad-side-to-move"),
    pytest.param("international", "W:Q31:B1", "piece list", id="bad-colour-letter"),
    pytest.param("international", "W:W31:W32", "listed twice", id="same-colour-twice"),
    pytest.param("international", "W:W3a:B1", "not a square", id="malformed-square"),
    pytest.param("international", "W:WK:B1", "not a square", id="king-without-square"),
    pytest.param("international", "W:W31-:B1", "not a square", id="open-range"),
    pytest.param("international", "W:W40-31:B1", "backwards", id="backward-range"),
    pytest.param("international", "W:W51:B1", "out of range", id="square-above-range"),
    pytest.param("international", "W:W0:B1", "out of range", id="square-zero"),
    pytest.param("american", "B:W33:B1", "out of range", id="square-above-32"),
    pytest.param("brazilian", "W:Wb1:Bh8", "light square", id="light-square-b1-brazilian"),
    pytest.param("russian", "W:Wa2:B", "light square", id="light-square-a2-russian"),
    pytest.param("brazilian", "W:Wa9:B", "off the", id="algebraic-off-board"),
    pytest.param("brazilian", "W:Wz1:B", "off the", id="algebraic-bad-file"),
    pytest.param("brazilian", "W:W1:B", "not a square name", id="number-on-algebraic-board"),
    pytest.param("international", "W:Wb2:B", "not a square number", id="algebraic-on-numbered-board"),
    pytest.param("brazilian", "W:Wa1-c3:B", "ranges", id="range-on-algebraic-board"),
    pytest.param("international", "W:W3:B40", "promotion row", id="white-man-on-1-5-international"),
    pytest.param("international", "W:W31:B46", "promotion row", id="black-man-on-46-50-international"),
    pytest.param("american", "W:W1:B", "promotion row", id="white-man-on-1-4-american"),
    pytest.param("american", "B:W:B29", "promotion row", id="black-man-on-29-32-american"),
    pytest.param("brazilian", "W:Wb8:B", "promotion row", id="white-man-on-8th-rank-brazilian"),
    pytest.param("turkish", "W:Wa8:B", "promotion row", id="white-man-on-8th-rank-turkish"),
    pytest.param("turkish", "W:W:Ba1", "promotion row", id="black-man-on-1st-rank-turkish"),
    pytest.param("international", "W:W21-41:B1", "21 pieces", id="21-white-men-international"),
    pytest.param("international", "W:W31:BK1-21", "21 pieces", id="21-black-kings-international"),
    pytest.param("brazilian", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:B", "13 pieces", id="13-men-brazilian"),
    pytest.param("international", "W:W31,31:B1", "listed twice", id="square-twice-same-side"),
    pytest.param("international", "W:W31:B31", "listed twice", id="square-twice-both-sides"),
    pytest.param("international", "W:W31-35:B1,K33", "listed twice", id="square-in-range-and-list"),
]


@pytest.mark.parametrize(("variant", "fen", "reason"), BAD_FENS)
def test_bad_fen_raises_with_reason(variant: str, fen: str, reason: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Position.from_fen(variant, fen)
    err = info.value
    assert reason.lower() in err.reason.lower(), err.reason
    assert err.fen == fen
    assert reason.lower() in str(err).lower()
    assert isinstance(err, ValueError)
    assert isinstance(err, DamasError)


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError) as info:
        Position.from_fen("checkers-3d", "start")
    assert "international" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("english", "american"),
        ("English", "american"),
        ("checkers", "american"),
        ("giveaway", "antidraughts"),
        ("perde_ganha", "perde-ganha"),
        ("Brazilian", "brazilian"),
    ],
)
def test_variant_aliases(alias: str, name: str) -> None:
    assert get_variant(alias).name == name
    assert Position.start(alias).variant.name == name
