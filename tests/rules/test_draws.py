"""Draw rules and game results, rule by rule (docs/spec.md §1.9, §3-§11, §14).

Every position was built by hand and its moves checked against the engine's legal-move list; the
comments give the squares in the variant's own notation.  FEN counters (``generator.rules.game``):
``H`` plies since the last capture or man move, ``P`` plies since the last capture or promotion,
``E`` plies since the endgame configuration arose.

Most thresholds are tested from a FEN that carries the counter one ply short (and two plies
short: one ply before the threshold is still ongoing).  Where the spec says how a count starts
("the move that creates the configuration is not counted", "a promotion does not restart it",
"leaving the diagonal stops it"), the count is played out move by move with :func:`walk`.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from generator.rules import BLACK, WHITE, Move, Position, get_variant
from generator.rules.draws import PROFILES, draw_profile, long_diagonal, material
from generator.rules.game import Game, Outcome, Status

# -- helpers -----------------------------------------------------------------------------------------


def play(variant: str, fen: str, *moves: str, **kw: object) -> Game:
    g = Game(variant, fen, **kw)  # type: ignore[arg-type]
    for m in moves:
        g.play(m)
    return g


def status_after(variant: str, fen: str, *moves: str, **kw: object) -> Status:
    return play(variant, fen, *moves, **kw).status()


def assert_draw(status: Status, rule: str) -> None:
    assert status.outcome is Outcome.DRAW, f"expected a draw by {rule}, got {status}"
    assert status.reason == rule, f"expected a draw by {rule}, got {status.reason}: {status}"
    assert status.is_over
    assert status.winner is None


def assert_ongoing(status: Status) -> None:
    assert status.outcome is Outcome.ONGOING, f"expected ongoing, got {status} ({status.reason})"
    assert status.reason == ""
    assert str(status) == "ongoing"


def walk(g: Game, plies: int, keep: Callable[[Position], bool] = lambda pos: True, *, men: bool = False) -> list[str]:
    """Play ``plies`` quiet king moves (no capture, no promotion; no man move unless ``men``), each
    reaching a position that is new (so no repetition interferes) and satisfies ``keep``, and check
    that the game is still ongoing after every ply but the last (the caller checks the last).

    The line is found first, depth-first over positions in the engine's move order (deterministic),
    so it never runs into a dead end; only then is it played on the game."""
    seen = {g.position.state}
    line: list[tuple[Position, Move]] = []

    def search(pos: Position, left: int) -> bool:
        if left == 0:
            return True
        for m in pos.legal_moves():
            if m.is_capture or m.promotes or not (m.king or men):
                continue
            after = pos.play(m)
            if after.state in seen or not keep(after):
                continue
            seen.add(after.state)
            line.append((pos, m))
            if search(after, left - 1):
                return True
            line.pop()
            seen.discard(after.state)
        return False

    assert search(g.position, plies), f"no quiet line of {plies} plies from {g.fen()}"
    played = []
    for i, (pos, m) in enumerate(line, start=1):
        played.append(pos.move_text(m))
        g.push(m)
        if i < plies:
            assert not g.status().is_over, f"over after {i} of {plies} plies ({' '.join(played)}): {g.status()}"
    return played


def lone_king_on_long_diagonal(pos: Position) -> bool:
    lone = BLACK if (pos.black & ~pos.kings) == 0 and pos.black.bit_count() == 1 else WHITE
    return bool(pos.pieces(lone) & long_diagonal(pos.variant.geometry))


def squares(variant: str, bits: int) -> set[str]:
    g = get_variant(variant).geometry
    return {g.name(s) for s in g.bits(bits)}


# -- profiles ------------------------------------------------------------------------------------------

EXPECTED_RULE_IDS = {
    "fmjd": ("D1", "D2", "D3", "D4"),
    "cbd": ("B1", "B2", "B3"),
    "fmjd64": ("R1", "R2", "R3", "R4a", "R4b", "R5", "R6"),
    "fmjd64-plies": ("R1", "R2", "R3", "R4a", "R4b", "R5", "R6"),
    "wcdf": ("E1", "E2"),
    "fpd": ("P1", "P2", "P3"),
    "fpd-man-moves": ("P1", "P2", "P3"),
    "fid": ("I1", "I2"),
    "fid-threefold": ("I1", "I2"),
    "turkish": ("T1",),
    "turkish-pydraughts": ("T1", "T2"),
    "losing": ("L1",),
    "none": (),
}

DEFAULT_PROFILES = {
    "international": "fmjd",
    "brazilian": "cbd",
    "russian": "fmjd64",
    "american": "wcdf",
    "portuguese": "fpd",
    "italian": "fid",
    "turkish": "turkish",
    "perde-ganha": "losing",
    "antidraughts": "losing",
}


@pytest.mark.parametrize("name", sorted(EXPECTED_RULE_IDS))
def test_profile_rule_ids(name: str) -> None:
    assert PROFILES[name].rule_ids == EXPECTED_RULE_IDS[name]


@pytest.mark.parametrize("variant", sorted(DEFAULT_PROFILES))
def test_default_profile_of_each_variant(variant: str) -> None:
    v = get_variant(variant)
    assert draw_profile(v).name == DEFAULT_PROFILES[variant]
    assert Game(variant, "start").profile.name == DEFAULT_PROFILES[variant]
    assert draw_profile(v, "none").rules == ()  # "none" is offered everywhere
    for name in get_variant(variant).draw_profiles:
        assert draw_profile(v, name).name == name


@pytest.mark.parametrize(
    ("variant", "profile"),
    [
        ("international", "nope"),
        ("international", "wcdf"),  # a real profile, but not International's
        ("american", "fmjd"),
        ("russian", "cbd"),
        ("turkish", "losing"),
        ("portuguese", "FPD"),
    ],
)
def test_unknown_or_foreign_profile_raises_value_error(variant: str, profile: str) -> None:
    with pytest.raises(ValueError, match="draw profile"):
        draw_profile(get_variant(variant), profile)
    with pytest.raises(ValueError):
        Game(variant, "start", profile=profile)


@pytest.mark.parametrize(
    ("variant", "profile", "rule"),
    [
        ("american", None, "D2"),
        ("american", None, "X9"),
        ("international", None, "E2"),
        ("russian", None, "R4"),  # the balance rule's ids are R4a and R4b
        ("brazilian", "fmjd64", "B1"),  # cbd's rule is not in the Russian rules
        ("brazilian", "cbd", "R3"),
        ("portuguese", "none", "P1"),
    ],
)
def test_switching_off_an_unknown_rule_raises_value_error(variant: str, profile: str | None, rule: str) -> None:
    with pytest.raises(ValueError, match=rule):
        Game(variant, "start", profile=profile, disabled=(rule,))


def test_long_diagonals() -> None:
    """The "long diagonal" of R5 (a1-h8, the "большак") and P2 (h1-a8, the Portuguese "rio")."""
    russian = get_variant("russian").geometry
    assert squares("russian", long_diagonal(russian)) == {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}
    portuguese = get_variant("portuguese").geometry
    assert squares("portuguese", long_diagonal(portuguese)) == {"1", "5", "10", "14", "19", "23", "28", "32"}
    # Portuguese square 1 is h1 and 32 is a8 (docs/spec.md §7).
    assert portuguese.algebraic(portuguese.parse_square("1")) == "h1"
    assert portuguese.algebraic(portuguese.parse_square("32")) == "a8"


# -- every counted rule at its threshold and one ply before -------------------------------------
#
# (case id, variant, profile, FEN template with the counter as {}, threshold in plies, move, rule)
# The FEN carries threshold-1: one more ply draws.  With threshold-2 the same ply is still ongoing.

THRESHOLDS = [
    # American / English, WCDF 1.32.2: 40 moves each = 80 plies with no man move and no capture.
    # W king 10 (d6), man 30 (c1); B king 19 (f4).
    ("E2-white-king", "american", None, "W:W30,K10:BK19:H{}", 80, "10-14", "E2"),
    ("E2-black-king", "american", None, "B:W30,K10:BK19:H{}", 80, "19-23", "E2"),
    # International, FMJD: D2 25 moves each with only kings (50 plies); 2K+1M v 2K+1M.
    ("D2", "international", None, "W:W45,K46,K50:BK1,K5,15:H{}", 50, "46-41", "D2"),
    # D3: lone king v 3 pieces incl. a king, 16 moves each (32 plies), every material and colour.
    ("D3-1K2M", "international", None, "W:WK47,26,36:BK5:E{}", 32, "47-42", "D3"),
    ("D3-2K1M", "international", None, "W:WK47,K48,36:BK5:E{}", 32, "47-42", "D3"),
    ("D3-3K", "international", None, "W:WK47,K48,K49:BK5:E{}", 32, "47-42", "D3"),
    ("D3-black-strong", "international", None, "B:BK4,K3,15:WK46:E{}", 32, "3-8", "D3"),
    # D4: lone king v at most 2 pieces incl. a king, 5 moves each (10 plies).
    ("D4-1K1M", "international", None, "W:WK47,26:BK5:E{}", 10, "47-42", "D4"),
    ("D4-2K", "international", None, "W:WK47,K48:BK5:E{}", 10, "47-42", "D4"),
    ("D4-1K", "international", None, "W:WK47:BK5:E{}", 10, "47-42", "D4"),
    # Brazilian, cbd: B1 20 king moves each (40 plies); 2K+1M v 2K is no short ending.
    ("B1", "brazilian", None, "W:WKc1,Ke1,a3:BKh8,Kf8:H{}", 40, "c1-d2", "B1"),
    # B3, the CBD short endings, 5 moves each (10 plies).
    ("B3-2Kv2K", "brazilian", None, "W:WKc1,Ke1:BKh6,Kf8:E{}", 10, "c1-d2", "B3"),
    ("B3-2Kv1K", "brazilian", None, "W:WKc1,Ke1:BKh6:E{}", 10, "c1-d2", "B3"),
    ("B3-2Kv1K1M", "brazilian", None, "W:WKc1,Ke1:BKh6,b8:E{}", 10, "c1-d2", "B3"),
    ("B3-1Kv1K", "brazilian", None, "W:WKc1:BKh6:E{}", 10, "c1-d2", "B3"),
    ("B3-1Kv1K1M", "brazilian", None, "W:WKc1:BKh6,b8:E{}", 10, "c1-d2", "B3"),
    ("B3-1K1Mv1K", "brazilian", None, "W:WKc1,a3:BKh6:E{}", 10, "c1-d2", "B3"),
    # Russian, FMJD-64 7.2.4: 3 or more kings v a lone king (off the long diagonal), 15 moves.
    ("R2-3K", "russian", None, "W:WKc1,Ke1,Ka3:BKh6:E{}", 30, "c1-d2", "R2"),
    ("R2-4K", "russian", None, "W:WKc1,Ke1,Ka3,Kg1:BKh6:E{}", 30, "c1-d2", "R2"),
    # 7.2.5: 15 moves each of kings only (30 plies); 6 pieces, kings on both sides.
    ("R3", "russian", None, "W:WKc1,a3,g1:BKh6,h4,b8:H{}", 30, "c1-d2", "R3"),
    # 7.2.6 with a man move as the last ply (men do not reset it): 4-5 pieces 30 moves,
    # 6-7 pieces 60 moves; moves each by default (60/120 plies), plies in fmjd64-plies (30/60).
    ("R4a-4-pieces", "russian", None, "W:WKc1,a3:BKh6,h4:P{}", 60, "a3-b4", "R4a"),
    ("R4a-5-pieces", "russian", None, "W:WKc1,a3,g1:BKh6,h4:P{}", 60, "a3-b4", "R4a"),
    ("R4a-plies", "russian", "fmjd64-plies", "W:WKc1,a3:BKh6,h4:P{}", 30, "a3-b4", "R4a"),
    ("R4b-6-pieces", "russian", None, "W:WKc1,a3,g1:BKh6,h4,b8:P{}", 120, "a3-b4", "R4b"),
    ("R4b-7-pieces", "russian", None, "W:WKc1,a3,g1:BKh6,h4,b8,d8:P{}", 120, "a3-b4", "R4b"),
    ("R4b-plies", "russian", "fmjd64-plies", "W:WKc1,a3,g1:BKh6,h4,b8:P{}", 60, "a3-b4", "R4b"),
    # 7.2.7: 3 pieces incl. a king v a lone king on the long diagonal (g7), 5 moves each.
    ("R5-3K", "russian", None, "W:WKc1,Ke1,Ka3:BKg7:E{}", 10, "c1-d2", "R5"),
    ("R5-2K1M", "russian", None, "W:WKc1,Ke1,a3:BKg7:E{}", 10, "c1-d2", "R5"),
    ("R5-1K2M", "russian", None, "W:WKc1,a3,g1:BKg7:E{}", 10, "c1-d2", "R5"),
    # 7.2.8: 2K, K+M or K v a lone king, 5 moves (10 plies).
    ("R6-2K", "russian", None, "W:WKc1,Ke1:BKh6:E{}", 10, "c1-d2", "R6"),
    ("R6-1K1M", "russian", None, "W:WKc1,a3:BKh6:E{}", 10, "c1-d2", "R6"),
    ("R6-1K", "russian", None, "W:WKc1:BKh6:E{}", 10, "c1-d2", "R6"),
    # Brazilian with the FMJD-64 profile switched in: the Russian rules, with their ids.
    ("fmjd64-R3", "brazilian", "fmjd64", "W:WKc1,Ke1,a3:BKh8,Kf8:H{}", 30, "c1-d2", "R3"),
    ("fmjd64-R5", "brazilian", "fmjd64", "W:WKc1,Ke1,Ka3:BKg7:E{}", 10, "c1-d2", "R5"),
    ("fmjd64-R6", "brazilian", "fmjd64", "W:WKc1,Ke1:BKh6:E{}", 10, "c1-d2", "R6"),
    ("fmjd64-R4a-plies", "brazilian", "fmjd64-plies", "W:WKc1,a3:BKh6,h4:P{}", 30, "a3-b4", "R4a"),
    # Portuguese, FPD: P1 20 moves each without capture or promotion (40 plies).  In the default
    # fpd profile a plain man move (9-13) does not reset it; fpd-man-moves counts king moves only.
    # W man 9 (h3), king 4 (b1); B man 24 (a6), king 29 (g8).
    ("P1-man-move", "portuguese", None, "W:W9,K4:B24,K29:P{}", 40, "9-13", "P1"),
    ("P1-king-move", "portuguese", None, "W:W9,K4:B24,K29:H{}", 40, "4-7", "P1"),
    ("P1-man-moves-profile", "portuguese", "fpd-man-moves", "W:W9,K4:B24,K29:H{}", 40, "4-7", "P1"),
    # P2: 3K v 1K with a strong king on the long diagonal (K10 = f3), 12 moves each (24 plies).
    ("P2-white-moves", "portuguese", None, "W:WK2,K3,K10:BK30:E{}", 24, "2-6", "P2"),
    ("P2-black-moves", "portuguese", None, "B:WK2,K3,K10:BK30:E{}", 24, "30-27", "P2"),
    # Italian: 40 moves each without capture or man move (80 plies), both profiles.
    ("I2", "italian", None, "W:WK29:BK4:H{}", 80, "29-25", "I2"),
    ("I2-threefold-profile", "italian", "fid-threefold", "W:WK29:BK4:H{}", 80, "29-25", "I2"),
    # Turkish as pydraughts: one piece against one, 2 moves each (4 plies).
    ("T2-kings", "turkish", "turkish-pydraughts", "W:WKa1:BKh8:E{}", 4, "a1-a2", "T2"),
    ("T2-men", "turkish", "turkish-pydraughts", "W:Wb2:Bg7:E{}", 4, "b2-b3", "T2"),
]


def _threshold_params() -> list[object]:
    return [pytest.param(*case[1:], id=case[0]) for case in THRESHOLDS]


@pytest.mark.parametrize(("variant", "profile", "template", "plies", "move", "rule"), _threshold_params())
def test_draw_rule_on_its_threshold_ply(
    variant: str, profile: str | None, template: str, plies: int, move: str, rule: str
) -> None:
    g = Game(variant, template.format(plies - 1), profile=profile)
    assert_ongoing(g.status())
    g.play(move)
    assert_draw(g.status(), rule)
    assert str(g.status()) == f"draw: {next(r.reason for r in g.profile.rules if r.id == rule)}"


@pytest.mark.parametrize(("variant", "profile", "template", "plies", "move", "rule"), _threshold_params())
def test_draw_rule_one_ply_before_its_threshold(
    variant: str, profile: str | None, template: str, plies: int, move: str, rule: str
) -> None:
    assert_ongoing(status_after(variant, template.format(plies - 2), move, profile=profile))


@pytest.mark.parametrize(("variant", "profile", "template", "plies", "move", "rule"), _threshold_params())
def test_switching_the_rule_off_prevents_the_draw(
    variant: str, profile: str | None, template: str, plies: int, move: str, rule: str
) -> None:
    g = Game(variant, template.format(plies - 1), profile=profile, disabled=(rule,))
    assert rule not in g.profile.rule_ids
    g.play(move)
    assert_ongoing(g.status())


@pytest.mark.parametrize(("variant", "profile", "template", "plies", "move", "rule"), _threshold_params())
def test_profile_none_has_no_draws(
    variant: str, profile: str | None, template: str, plies: int, move: str, rule: str
) -> None:
    assert_ongoing(status_after(variant, template.format(10 * plies), move, profile="none"))


def test_american_40_move_rule_doctest_position() -> None:
    g = Game("american", "W:WK10:BK19:H79")
    g.play("10-14")
    assert str(g.status()) == "draw: 40 moves each with no man advanced and nothing captured"
    assert g.fen() == "B:WK14:BK19:H80:F2"
    assert_ongoing(status_after("american", "W:WK10:BK19:H78", "10-14"))


# -- what resets each counter, per variant ------------------------------------------------------
#
# (case id, variant, profile, FEN one ply short of the threshold, move, None when the move resets
# the count, else the rule that still draws)

RESETS = [
    # WCDF: any man move (either colour, crowning included) and any capture reset E2.
    ("E2-white-man-move", "american", None, "W:W30,K10:BK19:H79", "30-26", None),
    ("E2-black-man-move", "american", None, "B:W30,K10:B20,K19:H79", "20-24", None),
    ("E2-crowning", "american", None, "W:W5,K27:BK19:H79", "5-1", None),
    ("E2-capture", "american", None, "W:W30,K10:BK14,K1:H79", "10x17", None),
    ("E2-king-move", "american", None, "W:W30,K10:BK19:H79", "10-14", "E2"),
    # FMJD D2: any man move (a promotion included) and any capture.
    ("D2-white-man-move", "international", None, "W:W45,K46,K50:BK1,K5,15:H49", "45-40", None),
    ("D2-black-man-move", "international", None, "B:W45,K46,K50:BK1,K5,15:H49", "15-20", None),
    ("D2-promotion", "international", None, "W:W6,K46,K50:BK5,15,K24:H49", "6-1", None),
    ("D2-capture", "international", None, "W:W45,K46,K50:BK1,K5,15,41:H49", "46x37", None),
    ("D2-king-move", "international", None, "W:W45,K46,K50:BK1,K5,15:H49", "46-41", "D2"),
    # CBD B1: capture or man move.
    ("B1-man-move", "brazilian", None, "W:WKc1,Ke1,a3:BKh8,Kf8:H39", "a3-b4", None),
    ("B1-capture", "brazilian", None, "W:WKc1,Ke1,a3:BKh8,Kf8,e3:H39", "c1xf4", None),
    # Russian R3: man move, promotion or capture.
    ("R3-man-move", "russian", None, "W:WKc1,a3,g1:BKh6,h4,b8:H29", "a3-b4", None),
    ("R3-promotion", "russian", None, "W:WKc1,a7,g1:BKh6,h4,d8:H29", "a7-b8", None),
    ("R3-capture", "russian", None, "W:WKc1,a3,g1:BKh6,h4,b8,e3:H29", "c1:f4", None),
    # Russian R4: capture or promotion, NOT a man move (4 pieces, 30 moves each = 60 plies).
    ("R4a-man-move", "russian", None, "W:WKc1,a3:BKh6,h4:P59", "a3-b4", "R4a"),
    ("R4a-promotion", "russian", None, "W:WKc1,a7:BKh6,h4:P59", "a7-b8", None),
    ("R4a-capture", "russian", None, "W:WKc1,a3:BKh6,h4,e3:P59", "c1:f4", None),
    ("R4a-plies-man-move", "russian", "fmjd64-plies", "W:WKc1,a3:BKh6,h4:P29", "a3-b4", "R4a"),
    ("R4a-plies-promotion", "russian", "fmjd64-plies", "W:WKc1,a7:BKh6,h4:P29", "a7-b8", None),
    # Portuguese P1, default fpd: capture or promotion, NOT a plain man move.
    ("P1-fpd-man-move", "portuguese", "fpd", "W:W9,K4:B24,K29:H39", "9-13", "P1"),
    ("P1-fpd-promotion", "portuguese", "fpd", "W:W26,K4:B24,K29:H39", "26-30", None),
    ("P1-fpd-capture", "portuguese", "fpd", "W:W9,K4:B24,K29,11:H39", "4x14", None),
    # fpd-man-moves: a man move resets P1 too.
    ("P1-man-moves-man-move", "portuguese", "fpd-man-moves", "W:W9,K4:B24,K29:H39", "9-13", None),
    ("P1-man-moves-promotion", "portuguese", "fpd-man-moves", "W:W26,K4:B24,K29:H39", "26-30", None),
    ("P1-man-moves-capture", "portuguese", "fpd-man-moves", "W:W9,K4:B24,K29,11:H39", "4x14", None),
    # Italian I2: capture or man move.
    ("I2-man-move", "italian", None, "W:W30,K29:BK4:H79", "30-26", None),
    ("I2-capture", "italian", None, "W:WK29:BK4,26:H79", "29x22", None),
]


@pytest.mark.parametrize(
    ("variant", "profile", "fen", "move", "draw"),
    [pytest.param(*case[1:], id=case[0]) for case in RESETS],
)
def test_counter_reset(variant: str, profile: str | None, fen: str, move: str, draw: str | None) -> None:
    g = Game(variant, fen, profile=profile)
    assert_ongoing(g.status())
    g.play(move)
    if draw is None:
        assert_ongoing(g.status())
    else:
        assert_draw(g.status(), draw)  # the move did not reset the count


def test_counters_after_each_kind_of_move() -> None:
    """H is reset by a capture or a man move, P by a capture or a promotion (game.py docstring)."""
    c = play("russian", "W:WKc1,a3:BKh6,h4:H7:P20", "a3-b4").counters  # man move
    assert (c.quiet, c.balance) == (0, 21)
    c = play("russian", "W:WKc1,a7:BKh6,h4:H7:P20", "a7-b8").counters  # promotion
    assert (c.quiet, c.balance) == (0, 0)
    c = play("russian", "W:WKc1,a3:BKh6,h4,e3:H7:P20", "c1:f4").counters  # capture
    assert (c.quiet, c.balance) == (0, 0)
    c = play("russian", "W:WKc1,a3:BKh6,h4:H7:P20", "c1-d2").counters  # king move
    assert (c.quiet, c.balance) == (8, 21)


def test_russian_r4_needs_kings_on_both_sides() -> None:
    # 4 pieces, Black has only men: no balance rule however long.
    assert_ongoing(status_after("russian", "W:WKc1,a3:Bf8,h4:P500", "a3-b4"))


def test_russian_r4_not_with_eight_pieces() -> None:
    assert_ongoing(status_after("russian", "W:WKc1,a3,g1,e1:BKh6,h4,b8,d8:P500", "a3-b4"))


def test_russian_r4_default_counts_moves_each_not_plies() -> None:
    """§14.3: the default reads "30 moves" as moves of each player; 30 plies is fmjd64-plies."""
    assert_ongoing(status_after("russian", "W:WKc1,a3:BKh6,h4:P29", "a3-b4"))
    assert_draw(status_after("russian", "W:WKc1,a3:BKh6,h4:P29", "a3-b4", profile="fmjd64-plies"), "R4a")
    assert_ongoing(status_after("russian", "W:WKc1,a3,g1:BKh6,h4,b8:P59", "a3-b4"))
    assert_draw(status_after("russian", "W:WKc1,a3,g1:BKh6,h4,b8:P59", "a3-b4", profile="fmjd64-plies"), "R4b")


def test_portuguese_p1_fpd_versus_fpd_man_moves_on_the_same_line() -> None:
    """The same FEN and man move: a draw under fpd (P reaches 40), not under fpd-man-moves."""
    fen = "W:W9,K4:B24,K29:H39"
    assert_draw(status_after("portuguese", fen, "9-13"), "P1")
    g = play("portuguese", fen, "9-13", profile="fpd-man-moves")
    assert_ongoing(g.status())
    assert g.counters.quiet == 0 and g.counters.balance == 40


# -- repetition ------------------------------------------------------------------------------------------
#
# Two different 4-ply cycles of king moves from the same position: it occurs at plies 0, 4 and 8,
# with other positions in between (not consecutive), and no other position occurs three times.

REPETITION_LINES = {
    "american": ("W:WK1:BK32", "1-5 32-27 5-1 27-32 1-6 32-28 6-1 28-32", "E1"),
    "international": ("W:WK47:BK4", "47-41 4-9 41-47 9-4 47-42 4-10 42-47 10-4", "D1"),
    "antidraughts": ("W:WK47:BK4", "47-41 4-9 41-47 9-4 47-42 4-10 42-47 10-4", "L1"),
    "brazilian": ("W:WKc1:BKf8", "c1-d2 f8-e7 d2-c1 e7-f8 c1-e3 f8-g7 e3-c1 g7-f8", "B2"),
    "perde-ganha": ("W:WKc1:BKf8", "c1-d2 f8-e7 d2-c1 e7-f8 c1-e3 f8-g7 e3-c1 g7-f8", "L1"),
    "russian": ("W:WKc1:BKf8", "c1-d2 f8-e7 d2-c1 e7-f8 c1-e3 f8-g7 e3-c1 g7-f8", "R1"),
    "portuguese": ("W:WK4:BK29", "4-8 29-25 8-4 25-29 4-7 29-26 7-4 26-29", "P3"),
    "turkish": ("W:WKa1:BKh8", "a1-a2 h8-h7 a2-a1 h7-h8 a1-b1 h8-g8 b1-a1 g8-h8", "T1"),
}


@pytest.mark.parametrize("variant", sorted(REPETITION_LINES))
def test_threefold_repetition_on_the_exact_ply(variant: str) -> None:
    fen, line, rule = REPETITION_LINES[variant]
    g = Game(variant, fen)
    start = g.position.state
    assert g.repetitions() == 1
    moves = line.split()
    for ply, move in enumerate(moves, start=1):
        g.play(move)
        if ply < len(moves):
            assert_ongoing(g.status())
            assert g.repetitions() == (2 if ply == 4 else 1)
    assert g.position.state == start
    assert g.repetitions() == 3
    assert_draw(g.status(), rule)
    assert "repetition" in str(g.status())


@pytest.mark.parametrize("variant", sorted(REPETITION_LINES))
def test_repetition_rule_switched_off(variant: str) -> None:
    fen, line, rule = REPETITION_LINES[variant]
    assert_ongoing(status_after(variant, fen, *line.split(), disabled=(rule,)))


def test_brazilian_fmjd64_repetition_is_r1() -> None:
    fen, line, _ = REPETITION_LINES["brazilian"]
    assert_draw(status_after("brazilian", fen, *line.split(), profile="fmjd64"), "R1")


ITALIAN_LINE = ["29-25", "4-8", "25-29", "8-4", "29-26", "4-7", "26-29", "7-4", "29-25", "4-8", "25-29", "8-4"]


def test_italian_fid_draws_on_the_fourth_occurrence() -> None:
    g = Game("italian", "W:WK29:BK4")
    for ply, move in enumerate(ITALIAN_LINE, start=1):
        g.play(move)
        if ply < len(ITALIAN_LINE):
            assert_ongoing(g.status())
    assert g.repetitions() == 4
    assert_draw(g.status(), "I1")
    assert str(g.status()) == "draw: fourth repetition"


def test_italian_third_occurrence_is_not_a_draw_under_fid() -> None:
    g = play("italian", "W:WK29:BK4", *ITALIAN_LINE[:8])
    assert g.repetitions() == 3
    assert_ongoing(g.status())


def test_italian_fid_threefold_draws_on_the_third_occurrence() -> None:
    g = Game("italian", "W:WK29:BK4", profile="fid-threefold")
    for ply, move in enumerate(ITALIAN_LINE[:8], start=1):
        g.play(move)
        if ply < 8:
            assert_ongoing(g.status())
    assert g.repetitions() == 3
    assert_draw(g.status(), "I1")
    assert str(g.status()) == "draw: threefold repetition"


# -- International D3 / D4 counting (docs/spec.md §3, §14.6) ----------------------------------------


def test_d3_creating_move_not_counted_then_32_plies() -> None:
    # W king 47 takes the black man 24 (47x20): lone king 5 against K + men 26, 36 arises.
    g = Game("international", "W:WK47,26,36:BK5,24")
    g.play("47x20")
    assert material(g.position) == ((1, 2), (1, 0))
    assert g.counters.endgame == 0
    assert_ongoing(g.status())
    walk(g, 32)  # ongoing after each of the first 31 plies
    assert g.counters.endgame == 32
    assert_draw(g.status(), "D3")


def test_d3_counts_on_through_a_promotion() -> None:
    # 1K+2M -> 2K+1M by 6-1: the same D3 count goes on (31), the next ply is the 32nd.
    g = Game("international", "W:W6,K47,36:BK45:E30")
    g.play("6-1")
    assert material(g.position) == ((2, 1), (1, 0))
    assert g.counters.endgame == 31
    assert_ongoing(g.status())
    walk(g, 1)
    assert_draw(g.status(), "D3")


def test_d3_to_d4_starts_a_fresh_count() -> None:
    # 31 plies of D3 done; the lone black king 46 takes the king 28 (46x19): K45 + man 36 v K is D4,
    # counted from 0, so neither the 32nd D3 ply nor the old count ends the game.
    g = Game("international", "B:WK28,K45,36:BK46:E31")
    g.play("46x19")
    assert material(g.position) == ((1, 1), (1, 0))
    assert g.counters.endgame == 0
    assert_ongoing(g.status())
    walk(g, 10)
    assert_draw(g.status(), "D4")


def test_d4_counts_on_through_a_promotion() -> None:
    # K+M v K -> 2K v K by 6-1: D4 goes on.
    g = Game("international", "W:W6,K47:BK45:E5")
    g.play("6-1")
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "D4")


def test_d4_capture_inside_d4_does_not_restart_white_strong() -> None:
    # White 2K v black K; the black king 46 takes the king 28: K v K, still D4, count goes on.
    g = Game("international", "B:WK28,K45:BK46:E5")
    g.play("46x19")
    assert material(g.position) == ((1, 0), (1, 0))
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "D4")


def test_d4_capture_inside_d4_does_not_restart_black_strong() -> None:
    """The colour-mirrored case: Black 2K v white K, the white king takes one (docs/spec.md §3 D4
    "same counting conventions as D3": a capture restarts the count only when it drops from D3
    into D4)."""
    g = Game("international", "W:BK28,K45:WK46:E5")
    g.play("46x19")
    assert material(g.position) == ((1, 0), (1, 0))
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "D4")


@pytest.mark.parametrize(
    "fen",
    [
        "W:W26,36:BK5:E100",  # lone king v 2 men
        "W:W26,36,16:BK5:E100",  # lone king v 3 men
        "W:WK47,K48,26,36:BK5:E100",  # lone king v 4 pieces
        "W:WK47,K48:BK5,K1:E100",  # 2K v 2K
    ],
)
def test_no_endgame_rule_outside_d3_d4(fen: str) -> None:
    g = Game("international", fen)
    assert g.counters.endgame == 0
    walk(g, 12, men=True)
    assert_ongoing(g.status())


# -- Brazilian cbd short endings and the fmjd64 profile ---------------------------------------------


def test_b3_creating_capture_not_counted() -> None:
    # 2K+1M v 2K is no short ending; the black king f8 takes b4 (f8xa3): 2K v 2K arises.
    g = Game("brazilian", "B:WKc1,Ke1,b4:BKh8,Kf8:E50")
    assert g.counters.endgame == 0
    g.play("f8xa3")
    assert material(g.position) == ((2, 0), (2, 0))
    assert g.counters.endgame == 0
    walk(g, 10)
    assert_draw(g.status(), "B3")
    assert str(g.status()) == "draw: short ending: 5 moves each"


@pytest.mark.parametrize(
    "fen",
    [
        "W:WKc1,Ke1,Ka3:BKh6:E100",  # 3K v 1K
        "W:WKc1,a3:BKh6,b8:E100",  # 1K+1M v 1K+1M
        "W:WKc1,Ke1,a3:BKh8,Kf8:E100",  # 2K+1M v 2K
    ],
)
def test_cbd_no_short_ending_outside_the_table(fen: str) -> None:
    g = Game("brazilian", fen)
    walk(g, 12)
    assert_ongoing(g.status())


@pytest.mark.parametrize(
    ("fen", "creating"),
    [
        ("W:WKc1,Ke1,g7:BKa5", "g7-h8"),  # the third king is crowned
        ("B:WKa3,Kc1,Kh2,f6:BKh8", "h8xa1"),  # the lone king takes the last man
    ],
)
def test_cbd_three_kings_against_one_drawn_after_20_moves_each(fen: str, creating: str) -> None:
    # Seed 000 (the CBD rules as a web summary): "three kings against one, the stronger side fails
    # to win in twenty moves".  cbd has no rule of its own for it: once 3K v 1K is on the board
    # no man is left to move and any capture changes the material, so B1's count (20 king moves
    # each, from the last capture or man move) starts with the move that creates the ending and
    # draws on its 40th ply, as the summary asks.  One ply before, the game goes on.
    g = Game("brazilian", fen)
    g.play(creating)
    assert sorted(material(g.position)) == [(1, 0), (3, 0)]
    assert g.counters.quiet == 0
    walk(g, 40)  # walk asserts the game is still on after each of the first 39 plies
    assert g.counters.quiet == 40
    assert_draw(g.status(), "B1")


def test_brazilian_fmjd64_gives_the_russian_rules() -> None:
    # R3 after 30 plies, where cbd's B1 needs 40.
    fen = "W:WKc1,Ke1,a3:BKh8,Kf8:H29"
    assert_draw(status_after("brazilian", fen, "c1-d2", profile="fmjd64"), "R3")
    assert_ongoing(status_after("brazilian", fen, "c1-d2"))
    assert_draw(status_after("brazilian", "W:WKc1,Ke1,a3:BKh8,Kf8:H39", "c1-d2"), "B1")
    # R5: 3K v a lone king on the long diagonal is no CBD short ending.
    fen = "W:WKc1,Ke1,Ka3:BKg7:E9"
    assert_draw(status_after("brazilian", fen, "c1-d2", profile="fmjd64"), "R5")
    assert_ongoing(status_after("brazilian", fen, "c1-d2"))
    # 2K v 1K is both: R6 under fmjd64, B3 under cbd.
    fen = "W:WKc1,Ke1:BKh6:E9"
    assert_draw(status_after("brazilian", fen, "c1-d2", profile="fmjd64"), "R6")
    assert_draw(status_after("brazilian", fen, "c1-d2", profile="cbd"), "B3")
    assert Game("brazilian", "start", profile="fmjd64").profile.rule_ids == EXPECTED_RULE_IDS["fmjd64"]


# -- Russian R2, R5, R6 counting ---------------------------------------------------------------------


def test_r2_only_for_three_or_more_kings() -> None:
    # 2K+1M v a lone king off the long diagonal: neither R2 nor R5 nor R6.
    g = Game("russian", "W:WKc1,Ke1,a3:BKh6:E29")
    assert g.counters.endgame == 0
    g.play("c1-d2")
    assert_ongoing(g.status())


def test_r2_counts_from_the_promotion_that_makes_the_third_king() -> None:
    # 2K+1M v K: the man a7 promotes (a7-b8), 3K v K arises: R2 counts from 0, 30 plies.
    # R3 (kings only for 15 moves each) is due on the same ply, since the promotion also reset H;
    # it is switched off to see R2 itself.
    g = Game("russian", "W:WKc1,Ke1,a7:BKh6:E20", disabled=("R3",))
    g.play("a7-b8")
    assert material(g.position) == ((3, 0), (1, 0))
    assert g.counters.endgame == 0
    walk(g, 30, keep=lambda pos: not lone_king_on_long_diagonal(pos))
    assert_draw(g.status(), "R2")


def test_r5_leaving_the_long_diagonal_stops_the_count_and_returning_restarts_it() -> None:
    # 2K+1M v the lone king g7 (on a1-h8), 9 plies counted.
    g = Game("russian", "B:WKc1,Ke1,a3:BKg7:E9")
    g.play("g7-h6")  # off the diagonal: R5 does not apply, nothing else does
    assert_ongoing(g.status())
    assert g.counters.endgame == 0
    g.play("e1-f2")
    assert_ongoing(g.status())
    g.play("h6-g7")  # back on the diagonal: a fresh count
    assert g.counters.endgame == 0
    walk(g, 10, keep=lone_king_on_long_diagonal)
    assert_draw(g.status(), "R5")


def test_r5_lone_king_leaving_on_the_threshold_ply_is_no_draw() -> None:
    assert_ongoing(status_after("russian", "B:WKc1,Ke1,a3:BKg7:E9", "g7-h6"))
    assert_draw(status_after("russian", "B:WKc1,Ke1,a3:BKg7:E9", "g7-a1"), "R5")  # along it


def test_r6_counts_on_through_a_promotion() -> None:
    # K+M v K -> 2K v K (a7-b8): R6 never restarts once active.
    g = Game("russian", "W:WKc1,a7:BKh6:E5")
    g.play("a7-b8")
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "R6")


def test_r6_capture_does_not_restart_white_strong() -> None:
    # White 2K v black K a1; the lone king takes e5 (a1:f6): K v K, R6 goes on.
    g = Game("russian", "B:WKe5,Kh2:BKa1:E5")
    g.play("a1:f6")
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "R6")


def test_r6_capture_does_not_restart_black_strong() -> None:
    """docs/spec.md §5 R6: "never resets once active" -- whichever colour is the strong side."""
    g = Game("russian", "W:WKa1:BKe5,Kh2:E5")
    g.play("a1:f6")
    assert g.counters.endgame == 6
    walk(g, 4)
    assert_draw(g.status(), "R6")


# -- Portuguese P2 -------------------------------------------------------------------------------------------

PT_DIAGONAL = {"1", "5", "10", "14", "19", "23", "28", "32"}


def strong_king_on_pt_diagonal(pos: Position) -> bool:
    return bool(squares("portuguese", pos.white & pos.kings) & PT_DIAGONAL)


def test_p2_counts_from_the_move_onto_the_long_diagonal() -> None:
    # 3K (2, 3, 4: b1..f1) v K30; 3-10 puts a king on the long diagonal.
    g = Game("portuguese", "W:WK2,K3,K4:BK30")
    assert g.counters.endgame == 0
    g.play("3-10")
    assert g.counters.endgame == 0
    walk(g, 24, keep=strong_king_on_pt_diagonal)
    assert_draw(g.status(), "P2")


def test_p2_stops_when_the_strong_side_leaves_the_long_diagonal() -> None:
    g = play("portuguese", "W:WK2,K3,K10:BK30:E23", "10-13")
    assert_ongoing(g.status())
    assert g.counters.endgame == 0


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        ("W:WK2,K3,K4:BK32:E23", "2-6"),  # only the lone king stands on the long diagonal (32 = a8)
        ("W:WK2,K10,8:BK30:E23", "2-6"),  # 2K+1M, not 3 kings
        ("W:WK2,K3,K6,K10:BK30:E23", "2-9"),  # 4 kings
    ],
)
def test_p2_does_not_apply(fen: str, move: str) -> None:
    g = play("portuguese", fen, move)
    assert g.counters.endgame == 0
    assert_ongoing(g.status())


# -- Turkish -------------------------------------------------------------------------------------------------


def test_turkish_default_has_threefold_only() -> None:
    assert Game("turkish", "start").profile.rule_ids == ("T1",)
    g = Game("turkish", "W:WKa1:BKh8:H999:E999")
    walk(g, 20)
    assert_ongoing(g.status())


def test_turkish_pydraughts_t2_creating_capture_not_counted() -> None:
    # W king a1 takes a5 (a1xa6): one king against one.
    g = Game("turkish", "W:WKa1:Ba5,Kh8", profile="turkish-pydraughts")
    g.play("a1xa6")
    assert g.counters.endgame == 0
    walk(g, 4)
    assert_draw(g.status(), "T2")


def test_turkish_pydraughts_t2_not_with_two_pieces_on_a_side() -> None:
    g = Game("turkish", "W:WKa1,Kb1:BKh8:E100", profile="turkish-pydraughts")
    walk(g, 8)
    assert_ongoing(g.status())


# -- losing games: the side without a move wins, draws only by repetition --------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "move", "outcome", "reason"),
    [
        # Brazilian: W king a1 takes the last black man c3.
        ("brazilian", "W:WKa1:Bc3", "a1xd4", Outcome.WHITE_WINS, "no-pieces"),
        ("perde-ganha", "W:WKa1:Bc3", "a1xd4", Outcome.BLACK_WINS, "no-pieces"),
        # W king f2-g1 leaves the black man h2 without a move.
        ("brazilian", "W:WKf2:Bh2", "f2-g1", Outcome.WHITE_WINS, "blocked"),
        ("perde-ganha", "W:WKf2:Bh2", "f2-g1", Outcome.BLACK_WINS, "blocked"),
        # International: W king 46 takes the last black man 37.
        ("international", "W:WK46:B37", "46x28", Outcome.WHITE_WINS, "no-pieces"),
        ("antidraughts", "W:WK46:B37", "46x28", Outcome.BLACK_WINS, "no-pieces"),
        # W king 50-44 behind the man 40: the black man 35 can neither move nor take.
        ("international", "W:W40,K50:B35", "50-44", Outcome.WHITE_WINS, "blocked"),
        ("antidraughts", "W:W40,K50:B35", "50-44", Outcome.BLACK_WINS, "blocked"),
        # American: W king 27-32 blocks the black man 28.
        ("american", "W:WK27:B28", "27-32", Outcome.WHITE_WINS, "blocked"),
    ],
)
def test_side_without_a_move(variant: str, fen: str, move: str, outcome: Outcome, reason: str) -> None:
    g = play(variant, fen, move)
    st = g.status()
    assert st.outcome is outcome
    assert st.reason == reason
    assert st.is_over
    assert st.winner == (WHITE if outcome is Outcome.WHITE_WINS else BLACK)
    assert g.position.turn == BLACK
    expected = "black has no pieces" if reason == "no-pieces" else "black cannot move"
    assert str(st).startswith(f"{outcome.value}: {expected}")


def test_side_without_pieces_at_the_start() -> None:
    st = Game("american", "W:W:BK19").status()
    assert (st.outcome, st.reason) == (Outcome.BLACK_WINS, "no-pieces")
    st = Game("antidraughts", "W:W:BK19").status()
    assert (st.outcome, st.reason) == (Outcome.WHITE_WINS, "no-pieces")


@pytest.mark.parametrize(
    ("variant", "fen"),
    [("perde-ganha", "W:WKc1:BKf8:H999:E999"), ("antidraughts", "W:WK47:BK4:H999:E999")],
)
def test_losing_games_have_no_move_limits(variant: str, fen: str) -> None:
    g = Game(variant, fen)
    assert g.profile.rule_ids == ("L1",)
    walk(g, 20)
    assert_ongoing(g.status())


# -- a win on the last counted ply beats the draw -------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "move", "counter", "due"),
    [
        # E2: the 80th quiet ply (27-32) also blocks the black man 28.
        ("american", "W:WK27:B28:H79", "27-32", "quiet", 80),
        # R6: the 10th ply (e5-c3) shuts in the lone king a1 behind b2.
        ("russian", "W:WKb2,Ke5:BKa1:E9", "e5-c3", "endgame", 10),
        # D2: the 50th king ply (50-44) blocks the black man 35 behind the man 40.
        ("international", "W:W40,K50:B35:H49", "50-44", "quiet", 50),
    ],
)
def test_win_on_the_threshold_ply_beats_the_draw(variant: str, fen: str, move: str, counter: str, due: int) -> None:
    g = play(variant, fen, move)
    assert getattr(g.counters, counter) == due  # the draw rule's count is complete ...
    st = g.status()
    assert (st.outcome, st.reason) == (Outcome.WHITE_WINS, "blocked")  # ... but the win comes first
    assert str(st) == "white wins: black cannot move"


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_crosses_to_a_worker_process(name: str) -> None:
    """A proof job carries its draw profile to a worker process of the build (pickled): a rule
    whose condition cannot be pickled sent every proof of its variant back to the main process."""
    import pickle

    profile = PROFILES[name]
    again = pickle.loads(pickle.dumps(profile))
    assert again == profile, "the same rules, conditions included (compared by their parameters)"
