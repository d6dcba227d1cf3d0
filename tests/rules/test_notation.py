"""Square names and move text (docs/spec.md §3, §6, §7, §8, §12.1, §12.2)."""

from __future__ import annotations

import pytest

from generator.rules import (
    AmbiguousMoveError,
    DamasError,
    IllegalMoveError,
    InvalidMoveError,
    Position,
)

# -- square naming per variant (docs/spec.md §12.1) -----------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        # FMJD 2.6: 1 = b10, 5 = j10, 46 = a1, 50 = i1
        pytest.param("international", {"1": "b10", "5": "j10", "6": "a9", "46": "a1", "50": "i1"}, id="fmjd-2.6"),
        # WCDF 1.5: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1 (Black on top)
        pytest.param("american", {"1": "b8", "4": "h8", "5": "a7", "29": "a1", "32": "g1"}, id="wcdf-1.5"),
        # FID 2.4 (mirrored board): 1 = a8, 4 = g8, 5 = b7, 29 = b1, 32 = h1
        pytest.param("italian", {"1": "a8", "4": "g8", "5": "b7", "29": "b1", "32": "h1"}, id="fid-2.4"),
        # FPD items 3-4: 1 = h1 counting right to left, 4 = b1, 5 = g2, 8 = a2, 32 = a8
        pytest.param("portuguese", {"1": "h1", "4": "b1", "5": "g2", "8": "a2", "32": "a8"}, id="fpd-3-4"),
    ],
)
def test_numbered_squares(variant: str, names: dict[str, str]) -> None:
    g = Position.start(variant).variant.geometry
    for number, coord in names.items():
        sq = g.parse_square(number)
        assert g.algebraic(sq) == coord
        assert g.name(sq) == number


def test_portuguese_number_is_33_minus_italian() -> None:
    it = Position.start("italian").variant.geometry
    pt = Position.start("portuguese").variant.geometry
    for sq in it.squares:
        f, r = it.file_of(sq), it.rank_of(sq)
        assert int(pt.name(pt.square(f, r))) == 33 - int(it.name(sq))


@pytest.mark.parametrize("variant", ["brazilian", "russian", "turkish"])
def test_algebraic_squares(variant: str) -> None:
    g = Position.start(variant).variant.geometry
    for sq in g.squares:
        assert g.name(sq) == g.algebraic(sq)
        assert g.parse_square(g.name(sq)) == sq
        assert g.parse_square(g.name(sq).upper()) == sq


@pytest.mark.parametrize(
    ("variant", "count"),
    [("international", 50), ("american", 32), ("italian", 32), ("portuguese", 32), ("brazilian", 32), ("turkish", 64)],
)
def test_number_of_playing_squares(variant: str, count: int) -> None:
    g = Position.start(variant).variant.geometry
    assert len(g.squares) == count
    assert g.mask.bit_count() == count
    assert sorted(g.bits(g.mask)) == sorted(g.squares)


def test_standard_and_mirrored_corners() -> None:
    # docs/spec.md §1.1: a1 is a playing square on the standard board, not on the mirrored one
    for v in ("international", "american", "brazilian", "russian"):
        g = Position.start(v).variant.geometry
        assert g.is_playing(0, 0)
    for v in ("italian", "portuguese"):
        g = Position.start(v).variant.geometry
        assert not g.is_playing(0, 0)
        assert g.is_playing(g.width - 1, 0)


# -- writing ------------------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    return text.split()


def texts(pos: Position, long: bool = False) -> list[str]:
    return [pos.move_text(m, long=long) for m in pos.legal_moves()]


def test_american_start_moves() -> None:
    assert texts(Position.start("american")) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_international_start_moves_in_notation_order() -> None:
    assert texts(Position.start("international")) == words("31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30")


def test_italian_start_moves() -> None:
    # FID 2.4: White's front row is b3 d3 f3 h3 = 21-24, the next row a4 c4 e4 g4 = 17-20
    assert texts(Position.start("italian")) == ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]


def test_portuguese_start_moves() -> None:
    # FPD numbering runs right to left: White's front row h3 f3 d3 b3 = 9-12, the next row
    # g4 e4 c4 a4 = 13-16, so h3 (9) has only g4 (13) and b3 (12) has c4 (15) and a4 (16)
    assert texts(Position.start("portuguese")) == ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]


def test_brazilian_start_moves() -> None:
    assert texts(Position.start("brazilian")) == words("a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4")


def test_turkish_start_moves() -> None:
    # only the rank-3 men can move (docs/spec.md §13.3 note)
    assert set(texts(Position.start("turkish"))) == {f"{f}3-{f}4" for f in "abcdefgh"}


def test_russian_uses_colon_for_captures_and_hyphen_for_moves() -> None:
    pos = Position.from_fen("russian", "W:Wc3,g3:Bd4")
    assert set(texts(pos)) == {"c3:e5"}
    pos = Position.from_fen("russian", "W:Wc3:Bh8")
    assert set(texts(pos)) == {"c3-b4", "c3-d4"}


@pytest.mark.parametrize(
    "variant",
    ["brazilian", "international", "american", "italian", "portuguese", "turkish", "perde-ganha", "antidraughts"],
)
def test_other_variants_use_x_for_captures(variant: str) -> None:
    pos = Position.start(variant)
    assert pos.variant.capture_separator == "x"


def test_short_form_for_an_unambiguous_multi_capture() -> None:
    pos = Position.from_fen("international", "W:W15:B8,19,20")
    assert texts(pos) == ["15x2"]
    assert texts(pos, long=True) == ["15x24x13x2"]


def test_long_form_of_a_quiet_move_is_the_short_form() -> None:
    pos = Position.start("international")
    assert texts(pos, long=True) == texts(pos)


# A 10x10 position where two king captures share origin (13) and destination (25) but take different
# pieces (18, 28, 30 or 18, 37, 30), and a man capture that is unambiguous.  PDN writing rules 8-9:
# the full path is written only for the ambiguous pair.
AMBIGUOUS = "W:W12,K13:B18,28,30,37"


def test_full_path_written_only_when_ambiguous() -> None:
    pos = Position.from_fen("international", AMBIGUOUS)
    assert texts(pos) == ["12x41", "13x22x39x25", "13x31x48x25"]
    assert texts(pos, long=True) == ["12x23x32x41", "13x22x39x25", "13x31x48x25"]


def test_ambiguous_pair_captures_different_pieces() -> None:
    pos = Position.from_fen("international", AMBIGUOUS)
    g = pos.variant.geometry
    king_moves = [m for m in pos.legal_moves() if g.name(m.origin) == "13"]
    assert len(king_moves) == 2
    a, b = king_moves
    assert (a.origin, a.dest) == (b.origin, b.dest)
    assert a.captures != b.captures
    assert a != b
    assert {g.name(s) for s in g.bits(a.captures | b.captures)} == {"18", "28", "30", "37"}


@pytest.mark.parametrize("text", ["13x25", "13-25", "1325", "13:25"])
def test_short_form_of_an_ambiguous_capture_is_rejected(text: str) -> None:
    pos = Position.from_fen("international", AMBIGUOUS)
    with pytest.raises(AmbiguousMoveError) as info:
        pos.parse_move(text)
    # the message names both full paths so the user can pick one
    assert "13x22x39x25" in str(info.value)
    assert "13x31x48x25" in str(info.value)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("13x22x39x25", "13x22x39x25"),
        ("13x31x48x25", "13x31x48x25"),
        ("13x22x25", "13x22x39x25"),  # part of the path is enough when it picks one route
        ("13x39x25", "13x22x39x25"),
        ("13x48x25", "13x31x48x25"),
        ("13-31-48-25", "13x31x48x25"),
        ("12x41", "12x23x32x41"),
        ("12x23x32x41", "12x23x32x41"),
    ],
)
def test_full_path_resolves_the_ambiguity(text: str, path: str) -> None:
    pos = Position.from_fen("international", AMBIGUOUS)
    assert pos.move_text(pos.parse_move(text), long=True) == path


def test_wrong_path_is_illegal() -> None:
    pos = Position.from_fen("international", AMBIGUOUS)
    with pytest.raises(IllegalMoveError):
        pos.parse_move("13x22x48x25")


# -- reading --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["32-28", "32x28", "32:28", "32*28", "3228", "032-028", "32-028", " 32-28 ", "32 - 28", "32-28!", "32-28?!"]
)
def test_liberal_reading_international(text: str) -> None:
    pos = Position.start("international")
    assert pos.move_text(pos.parse_move(text)) == "32-28"


@pytest.mark.parametrize("text", ["9-13", "09-13", "0913", "9x13", "9:13", "9*13"])
def test_liberal_reading_american(text: str) -> None:
    pos = Position.start("american")
    assert pos.move_text(pos.parse_move(text)) == "9-13"


@pytest.mark.parametrize("text", ["05-10", "5-10", "0510"])
def test_leading_zeros(text: str) -> None:
    pos = Position.from_fen("international", "B:B5:W50")
    assert pos.move_text(pos.parse_move(text)) == "5-10"


@pytest.mark.parametrize("text", ["a3-b4", "a3b4", "A3B4", "a3xb4", "a3:b4", "a3*b4"])
def test_liberal_reading_algebraic(text: str) -> None:
    pos = Position.start("brazilian")
    assert pos.move_text(pos.parse_move(text)) == "a3-b4"


@pytest.mark.parametrize("text", ["b6:g5", "b6xg5", "b6-g5", "b6:d8:g5", "b6xd8xg5", "b6d8g5"])
def test_russian_capture_read_short_or_full(text: str) -> None:
    pos = Position.from_fen("russian", "W:Wb6:Bc7,f6")
    assert pos.move_text(pos.parse_move(text), long=True) == "b6:d8:g5"


@pytest.mark.parametrize("text", ["15x2", "15x24x13x2", "15x24x2", "15x13x2", "15-2"])
def test_unambiguous_capture_read_short_or_full(text: str) -> None:
    pos = Position.from_fen("international", "W:W15:B8,19,20")
    assert pos.move_text(pos.parse_move(text), long=True) == "15x24x13x2"


@pytest.mark.parametrize(
    ("variant", "fen", "text"),
    [
        pytest.param("international", "start", "32-29", id="not-a-neighbour"),
        pytest.param("international", "start", "36-31", id="blocked-by-own-piece"),
        pytest.param("international", "start", "3-8", id="opponents-piece"),
        pytest.param("international", "start", "28-22", id="empty-origin"),
        pytest.param("international", "start", "32-28-23", id="two-steps"),
        pytest.param("international", "W:W28,32:B23", "32-27", id="capture-is-compulsory"),
        pytest.param("international", "W:W15:B8,19,20", "15x24x13", id="capture-stopped-early"),
        pytest.param("international", "W:W15:B8,19,20", "15x20x2", id="path-over-a-piece"),
        pytest.param("international", "W:W48:B24,K31,34,K42,43", "48x30", id="not-the-maximum"),
        pytest.param("american", "start", "22-18", id="not-your-turn"),
        pytest.param("american", "W:W18:B22", "18x25", id="man-captures-backward-in-american"),
        pytest.param("russian", "W:Wb6:Bc7,f6", "b6:d8", id="russian-must-continue-as-king"),
        pytest.param("brazilian", "start", "c3-e5", id="algebraic-too-far"),
    ],
)
def test_illegal_move(variant: str, fen: str, text: str) -> None:
    pos = Position.from_fen(variant, fen)
    with pytest.raises(IllegalMoveError) as info:
        pos.parse_move(text)
    assert "legal" in str(info.value)
    assert isinstance(info.value, DamasError)


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("international", ""),
        ("international", "   "),
        ("international", "abc"),
        ("international", "32"),
        ("international", "51-46"),
        ("international", "0-5"),
        ("international", "a1-b2"),
        ("brazilian", "c3-c4"),  # light square
        ("brazilian", "i3-j4"),  # off the board
        ("brazilian", "3-4"),
    ],
)
def test_unreadable_move(variant: str, text: str) -> None:
    pos = Position.start(variant)
    with pytest.raises(InvalidMoveError):
        pos.parse_move(text)


def test_error_classes_are_value_errors() -> None:
    for cls in (AmbiguousMoveError, IllegalMoveError, InvalidMoveError):
        assert issubclass(cls, ValueError)
        assert issubclass(cls, DamasError)


def test_parse_move_with_explicit_legal_list() -> None:
    pos = Position.start("international")
    legal = pos.legal_moves()
    m = pos.parse_move("32-28", legal)
    assert m in legal
    assert pos.move_text(m, legal=legal) == "32-28"
