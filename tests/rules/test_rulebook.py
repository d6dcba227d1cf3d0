"""Rulebook positions: each case is the *complete* set of legal moves in one position.

Sources: docs/spec.md §3 (FMJD / FFJD examples as encoded in dctl's tests), §6 (WCDF), §8 (FID), §9
(Turkish, pydraughts), §13.5 (Russian / Brazilian promotion contrast), plus the American checkers
examples of the original American lesson text.  Moves are compared as sets
of ``move_text`` strings: the short PDN form as the spec lists them, and the full path
(``long=True``) wherever the spec gives one.
"""

from __future__ import annotations

import pytest

from generator.rules import BLACK, WHITE, Position


def short_set(pos: Position) -> set[str]:
    return {pos.move_text(m) for m in pos.legal_moves()}


def long_set(pos: Position) -> set[str]:
    return {pos.move_text(m, long=True) for m in pos.legal_moves()}


def case(variant: str, fen: str, moves: str, rule: str):
    return pytest.param(variant, fen, set(moves.split()), id=rule)


# -- International draughts, FMJD (docs/spec.md §3) ----------------------------------------------------

INTERNATIONAL = [
    case("international", "W:W28", "28-22 28-23", "fmjd-3.4-man-moves-diagonally-forward"),
    case("international", "B:B13", "13-18 13-19", "fmjd-3.4-black-man-moves-towards-50"),
    case("international", "W:W8", "8-2 8-3", "fmjd-3.5-man-reaches-promotion-row"),
    case(
        "international",
        "W:WK28",
        "28-22 28-17 28-11 28-6 28-23 28-19 28-14 28-10 28-5 28-32 28-37 28-41 28-46 28-33 28-39 28-44 28-50",
        "fmjd-3.9-flying-king-range",
    ),
    case(
        "international",
        "B:BK1",
        "1-6 1-7 1-12 1-18 1-23 1-29 1-34 1-40 1-45",
        "fmjd-3.9-flying-king-range-from-corner",
    ),
    case("international", "W:W28,32:B23", "28x19", "fmjd-4.1-capture-is-compulsory-man-capture"),
    case("international", "W:WK46:B23", "46x19 46x14 46x10 46x5", "fmjd-4.3-king-lands-on-any-square-beyond"),
    case("international", "W:W15:B8,19,20", "15x2", "fmjd-4.2-man-continues-capturing"),
    case("international", "W:WK47:B9,12,33", "47x17 47x21 47x26", "fmjd-4.6-king-continues-capturing"),
    case("international", "W:WK41,49:B9,10,12,19,38", "41x43", "fmjd-4.8-captured-piece-blocks"),
    case("international", "W:W48:B24,K31,34,K42,43", "48x19", "fmjd-4.13-maximum-capture-by-a-man"),
    case("international", "W:W35:B30,K40", "35x24 35x44", "fmjd-4.2-man-captures-backward-and-takes-kings"),
    case("international", "W:WK41:B23", "41x19 41x14 41x10 41x5", "fmjd-4.3-king-capture-at-a-distance"),
    case(
        "international",
        "W:W47:B13,14,22,24,31,34,K41,44",
        "47x49",
        "fmjd-4.2-man-multi-capture-forward-and-backward",
    ),
    case("international", "W:WK1:B7,9,17,19,20,30,31,33,43,44", "1x15", "fmjd-4.6-long-king-sequence"),
    case("international", "B:W27,28,38,39,42:BK25", "25x33", "fmjd-4.8-captured-piece-blocks-black-king"),
    case("international", "W:WK48:B7,8,31,34,K42,44", "48x50", "fmjd-4.13-maximum-capture-by-a-king"),
    case("international", "W:W26:B12,K21,31,32", "26x8 26x28", "fmjd-4.14-kings-count-as-men-no-quality-rule"),
    case("international", "W:W15:B9,10", "15x13", "fmjd-4.15-passing-promotion-row-continues-as-man"),
]

# -- English / American checkers, WCDF (docs/spec.md §6) -----------------------------------------------

AMERICAN = [
    case("american", "B:W26,27:B22", "22x31", "wcdf-1.16-crowning-ends-the-move"),
    case("american", "B:W21-32:B1-12", "9-13 9-14 10-14 10-15 11-15 11-16 12-16", "wcdf-1.13-black-moves-first"),
]

# The original lesson text for American checkers.  Its diagrams are
# not given as FEN; these positions hold exactly the pieces the text names, nothing else.
AMERICAN_SEED = [
    case("american", "W:W18:B22", "18-14 18-15", "wcdf-1.18-man-does-not-capture-backward"),
    case("american", "W:W27,30:B15,23", "27x11", "wcdf-1.20-capture-compulsory-and-completed"),
    case("american", "W:W26:B6,14,22,K16,K23", "26x1 26x12", "wcdf-1.20-free-choice-between-captures"),
    case("american", "W:WK18:B1", "18-14 18-15 18-22 18-23", "wcdf-1.17-king-moves-one-square"),
    case("american", "W:W11:B6,7", "11x2", "wcdf-1.16-crowning-capture-ends-the-move"),
    case("american", "W:W13,14:B5", "13-9 14-9 14-10", "wcdf-man-moves-block-position"),
]

# -- Italian draughts, FID (docs/spec.md §8) -----------------------------------------------------------

ITALIAN = [
    case("italian", "W:W30:B27", "30x23", "fid-man-captures-forward"),
    case("italian", "W:W31:B12,20,28", "31x8", "fid-man-multi-capture"),
    case("italian", "W:WK22:B18,19,27", "22x13 22x15 22x31", "fid-king-captures-in-every-direction"),
    case("italian", "W:WK27:B5,6,13,15,21,23", "27x25", "fid-king-continues-capturing"),
    case("italian", "W:WK21,31:B10,18,27", "31x6", "fid-precedence-1-quantity"),
    case("italian", "W:WK23,31:B19,26,27", "23x21", "fid-precedence-2-king-captures-before-man"),
    case("italian", "W:WK23:B19,K28", "23x32", "fid-precedence-3-most-kings"),
    case("italian", "W:WK30:B10,12,18,K20,K26,27", "30x5", "fid-precedence-4-earliest-king"),
    case("italian", "W:WK31:B18,20,K27,K28", "31x13 31x15", "fid-precedence-5-equal-captures-free-choice"),
    case(
        "italian",
        "W:WK30:B10,K12,K18,20,K26,K27",
        "30x5",
        "fid-precedence-4-earliest-king-compared-beyond-the-first",
    ),
    case("italian", "W:W24:B20,28", "24x15", "fid-3-men-capture-only-forward"),
    case("italian", "W:W30:BK26", "30-27", "fid-5.3-man-cannot-capture-a-king"),
    case("italian", "W:WK24:B20,28", "24x15 24x31", "fid-king-captures-forward-and-backward"),
    case("italian", "W:WK30:BK26", "30x21", "fid-king-captures-a-king"),
    # Not in the spec's table; found by the differential test against tests/rules/reference.py.
    # Two routes take the same five pieces from 1 to 10: 1x10x19x26x17x10 meets the king on 22 as
    # the 3rd piece, 1x10x17x26x19x10 only as the 4th.  The earliest-king rule is decided on the
    # *sequences* (dctl applies precedence to every route before merging duplicates), so the king
    # is met 3rd here and 1x12 (1x10x17x26x19x12, king 4th) is not legal.
    case("italian", "W:WK1:B5,13-15,21,K22", "1x10", "fid-precedence-4-earliest-king-over-every-route"),
]

# -- Turkish draughts (docs/spec.md §9) ----------------------------------------------------------------

TURKISH = [
    case("turkish", "W:Wd6:Bd7,c8", "d6xb8", "turkish-man-on-last-rank-mid-capture-continues-as-man"),
    case("turkish", "W:WKa1:Ba3,c5,e3", "a1xe2 a1xe1", "turkish-king-landing-chosen-to-continue"),
    case("turkish", "W:Wa3", "a3-a4 a3-b3", "turkish-man-moves-forward-or-sideways"),
    case("turkish", "B:Bc6", "c6-c5 c6-b6 c6-d6", "turkish-black-man-moves-forward-or-sideways"),
    case("turkish", "W:Wd4:Bd3,c4,e4,d5", "d4xd6 d4xb4 d4xf4", "turkish-man-captures-forward-and-sideways-not-back"),
]

# -- Promotion during a capture: Russian against International-style (docs/spec.md §1.6, §13.5) --------

PROMOTION = [
    case("russian", "W:Wb6:Bc7,f6", "b6:g5 b6:h4", "russian-1.5.15-promoted-mid-capture-continues-as-king"),
    case("brazilian", "W:Wb6:Bc7,f6", "b6xd8", "cbd-13-promotion-row-ends-the-capture-as-a-man"),
    case("international", "W:W6:B1", "", "fmjd-blocked-man-has-no-move"),
]

ALL_CASES = INTERNATIONAL + AMERICAN + AMERICAN_SEED + ITALIAN + TURKISH + PROMOTION


@pytest.mark.parametrize(("variant", "fen", "expected"), ALL_CASES)
def test_legal_move_set(variant: str, fen: str, expected: set[str]) -> None:
    pos = Position.from_fen(variant, fen)
    assert short_set(pos) == expected


# -- full paths where the spec writes them ------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "expected"),
    [
        case("turkish", "W:Wd6:Bd7,c8", "d6xd8xb8", "turkish-man-on-last-rank-mid-capture-continues-as-man"),
        case("turkish", "W:WKa1:Ba3,c5,e3", "a1xa5xe5xe2 a1xa5xe5xe1", "turkish-king-landing-chosen-to-continue"),
        case("russian", "W:Wb6:Bc7,f6", "b6:d8:g5 b6:d8:h4", "russian-1.5.15-promoted-mid-capture-continues-as-king"),
        case("brazilian", "W:Wb6:Bc7,f6", "b6xd8", "cbd-13-promotion-row-ends-the-capture-as-a-man"),
        case("american", "W:W27,30:B15,23", "27x18x11", "wcdf-1.20-capture-compulsory-and-completed"),
        case("american", "W:W26:B6,14,22,K16,K23", "26x17x10x1 26x19x12", "wcdf-1.20-free-choice-between-captures"),
        case("italian", "W:WK1:B5,13-15,21,K22", "1x10x19x26x17x10", "fid-precedence-4-earliest-king-over-every-route"),
    ],
)
def test_long_move_text(variant: str, fen: str, expected: set[str]) -> None:
    assert long_set(Position.from_fen(variant, fen)) == expected


# -- who is crowned ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "move", "crowned"),
    [
        pytest.param("international", "W:W8", "8-2", True, id="fmjd-3.5-quiet-move-to-far-row-promotes"),
        pytest.param("international", "W:W15:B9,10", "15x13", False, id="fmjd-4.15-passing-far-row-no-promotion"),
        pytest.param("brazilian", "W:Wb6:Bc7,f6", "b6xd8", True, id="cbd-13-capture-ending-on-far-row-promotes"),
        pytest.param("russian", "W:Wb6:Bc7,f6", "b6:g5", True, id="russian-1.5.15-stays-king-after-leaving-row"),
        pytest.param("american", "B:W26,27:B22", "22x31", True, id="wcdf-1.16-crowned-on-the-king-row"),
        pytest.param("american", "W:W11:B6,7", "11x2", True, id="wcdf-1.16-crowned-capture-stops"),
        pytest.param("turkish", "W:Wd6:Bd7,c8", "d6xb8", True, id="turkish-crowned-at-the-end-of-the-capture"),
        pytest.param("italian", "W:W31:B12,20,28", "31x8", False, id="fid-capture-short-of-far-row-stays-man"),
    ],
)
def test_promotion(variant: str, fen: str, move: str, crowned: bool) -> None:
    pos = Position.from_fen(variant, fen)
    m = pos.parse_move(move)
    assert m.promotes is crowned
    after = pos.play(m)
    assert bool((after.kings >> m.dest) & 1) is crowned


@pytest.mark.parametrize(
    ("variant", "fen", "move", "after"),
    [
        pytest.param("international", "W:WK41,49:B9,10,12,19,38", "41x43", "B:WK43,49:B10", id="fmjd-4.8-removal"),
        pytest.param("international", "W:W15:B9,10", "15x13", "B:W13:B", id="fmjd-4.15-stays-man"),
        pytest.param("russian", "W:Wb6:Bc7,f6", "b6:g5", "B:WKg5:B", id="russian-1.5.15-king-after"),
        pytest.param("brazilian", "W:Wb6:Bc7,f6", "b6xd8", "B:WKd8:Bf6", id="cbd-13-crowned-at-the-end"),
        pytest.param("american", "B:W26,27:B22", "22x31", "W:W27:BK31", id="wcdf-1.16-crowned-and-stops"),
        pytest.param("turkish", "W:Wd6:Bd7,c8", "d6xb8", "B:WKb8:B", id="turkish-crowned-at-the-end"),
        # Immediate removal (docs/spec.md §1.5): the square of a piece taken earlier in the move is
        # empty at once, so the king may end its capture there -- and it is still a king afterwards.
        pytest.param(
            "turkish",
            "W:WKb8:Bc3,d4,b5,c5",
            "b8xb3xd3xd5xb5",
            "B:WKb5:B",
            id="turkish-king-ending-on-a-captured-square-stays-king",
        ),
        pytest.param(
            "turkish",
            "W:WKb8:Bc3,d4,b5,c5",
            "b8xb3xd3xd5xa5",
            "B:WKa5:B",
            id="turkish-king-square-loop",
        ),
    ],
)
def test_position_after_the_move(variant: str, fen: str, move: str, after: str) -> None:
    pos = Position.from_fen(variant, fen)
    assert pos.play(pos.parse_move(move)).fen() == after


def test_russian_promoted_man_captures_as_a_flying_king() -> None:
    # The captured set shows it: c7 as a man, then f6 from d8 as a king at a distance.
    pos = Position.from_fen("russian", "W:Wb6:Bc7,f6")
    g = pos.variant.geometry
    for m in pos.legal_moves():
        assert {g.name(s) for s in g.bits(m.captures)} == {"c7", "f6"}
        assert [g.name(s) for s in m.captured] == ["c7", "f6"]
        assert not m.king


def test_fmjd_4_8_captured_pieces_leave_together_at_the_end() -> None:
    # 41x43 takes 19, 9, 12 and 38 in that order; 10 is out of reach because the already-captured
    # pieces still stand on their squares and block the king.  All four leave at the end.
    pos = Position.from_fen("international", "W:WK41,49:B9,10,12,19,38")
    (m,) = pos.legal_moves()
    g = pos.variant.geometry
    assert [g.name(s) for s in m.captured] == ["19", "9", "12", "38"]
    assert pos.play(m).fen() == "B:WK43,49:B10"


# -- the American lesson's end-of-game example ----------------------------------------------------------


def test_wcdf_1_30_blocked_side_loses() -> None:
    pos = Position.from_fen("american", "W:W13,14:B5")
    after = pos.play(pos.parse_move("13-9"))
    assert after.legal_moves() == []
    assert not after.has_legal_moves()
    assert after.winner() == WHITE
    for other in ("14-9", "14-10"):
        nxt = pos.play(pos.parse_move(other))
        assert nxt.has_legal_moves()
        assert nxt.winner() is None


def test_side_without_pieces_loses() -> None:
    pos = Position.from_fen("international", "B:W28:B")
    assert pos.winner() == WHITE
    pos = Position.from_fen("brazilian", "W:W:Bb6")
    assert pos.winner() == BLACK


@pytest.mark.parametrize(("losing", "base"), [("perde-ganha", "brazilian"), ("antidraughts", "international")])
def test_losing_variants_invert_the_result(losing: str, base: str) -> None:
    fen = "W:W:Bb6" if base == "brazilian" else "W:W:B10"
    assert Position.from_fen(base, fen).winner() == BLACK
    assert Position.from_fen(losing, fen).winner() == WHITE
