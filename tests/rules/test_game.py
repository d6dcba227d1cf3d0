"""The game layer: push/pop, counters in the FEN, status objects, and ``damas game``.

The draw rules themselves are in ``test_draws.py``; this file checks the machinery around them:
``pop()`` restores every counter and repetition count exactly (a hypothesis property over random
legal lines), the FEN counters extension reads back what it writes and refuses bad counters, and
the command line reports the American 40-move draw and a threefold repetition on the right ply.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.cli import main
from generator.rules import BLACK, WHITE, DamasError, InvalidFenError, get_variant
from generator.rules.game import Counters, Game, GameOverError, Outcome, Status

# -- pop() restores everything: property over random legal lines ---------------------------------

# (variant, start FEN, profile): kings-only endings repeat positions and run the endgame counts,
# start positions run the man-move and capture resets.
STARTS = [
    ("american", "W:WK1:BK32", None),
    ("american", "start", None),
    ("american", "W:W30,K10:BK19:H70:F30", None),
    ("international", "W:W45,K46,K50:BK1,K5,15:H40", None),
    ("international", "W:WK47,26,36:BK5,24:H10:P12:F7", None),
    ("international", "W:WK47:BK4", None),
    ("brazilian", "start", None),
    ("brazilian", "W:WKc1,Ke1:BKh6,b8:E3", None),
    ("brazilian", "W:WKc1,Ke1,Ka3:BKg7:E5", "fmjd64"),
    ("russian", "W:WKc1,Ke1,Ka3:BKg7:E5", None),  # R2 and R5 both counting
    ("russian", "W:WKc1,a3:BKh6,h4:H3:P50", "fmjd64-plies"),
    ("russian", "start", None),
    ("portuguese", "W:WK2,K3,K4:BK30", None),
    ("portuguese", "W:W9,K4:B24,K29:H10:P30", "fpd-man-moves"),
    ("italian", "W:WK29:BK4", "fid"),
    ("italian", "start", "fid-threefold"),
    ("turkish", "W:WKa1:BKh8", "turkish-pydraughts"),
    ("turkish", "start", None),
    ("perde-ganha", "W:WKc1:BKf8", None),
    ("antidraughts", "start", None),
]


def snapshot(g: Game) -> tuple[object, ...]:
    return (g.fen(), g.status(), g.repetitions(), g.counters, g.ply, g.position.state)


@given(
    start=st.sampled_from(STARTS),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40),
)
def test_pop_restores_fen_status_and_repetitions(start: tuple[str, str, str | None], choices: list[int]) -> None:
    variant, fen, profile = start
    g = Game(variant, fen, profile=profile)
    before = [snapshot(g)]
    for c in choices:
        legal = g.position.legal_moves()
        if not legal:
            break
        g.push(legal[c % len(legal)])
        before.append(snapshot(g))
        # the counters survive a trip through the FEN
        assert Game(variant, g.fen(), profile=profile).fen() == g.fen()
    while len(before) > 1:
        assert snapshot(g) == before.pop()
        g.pop()
    assert snapshot(g) == before[0]
    with pytest.raises(IndexError):
        g.pop()


def test_pop_undoes_a_repetition_draw() -> None:
    g = Game("american", "W:WK1:BK32")
    for m in ["1-5", "32-27", "5-1", "27-32", "1-6", "32-28", "6-1", "28-32"]:
        g.play(m)
    assert g.status().reason == "E1" and g.repetitions() == 3
    move = g.pop()
    assert g.position.move_text(move) == "28-32"
    assert g.status().outcome is Outcome.ONGOING
    assert g.fen() == "B:WK1:BK28:H7:F5"
    g.push(move)
    assert g.status().reason == "E1" and g.repetitions() == 3


def test_pop_restores_counters_after_a_reset() -> None:
    g = Game("russian", "W:WKc1,a3:BKh6,h4,e3:H25:P59:E0:F31")
    fen = g.fen()
    g.play("c1:f4")  # a capture resets both counters
    assert (g.counters.quiet, g.counters.balance) == (0, 0)
    g.pop()
    assert g.fen() == fen == "W:WKc1,a3:Be3,h4,Kh6:H25:P59:F31"
    assert g.counters == Counters(25, 59, 0, 31)


def test_pop_restores_the_endgame_count() -> None:
    g = Game("international", "W:W6,K47,36:BK45:E30")
    g.play("6-1")
    assert g.counters.endgame == 31
    g.pop()
    assert g.counters.endgame == 30
    assert g.fen() == "W:W6,36,K47:BK45:E30"


def test_play_after_the_end_raises_game_over() -> None:
    g = Game("american", "W:WK10:BK19:H79")
    g.play("10-14")
    with pytest.raises(GameOverError):
        g.play("19-23")
    assert issubclass(GameOverError, DamasError) and issubclass(GameOverError, ValueError)
    g.pop()  # taking the move back reopens the game
    g.play("10-15")


# -- counters in the FEN -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "expected"),
    [
        ("american", "W:WK10:BK19:H79", Counters(79, 79, 0, 1)),  # P defaults to H
        ("american", "W:WK10:BK19:H12:P30:E0:F40", Counters(12, 30, 0, 40)),
        ("russian", "W:WKc1,a3:BKh6,h4:P59", Counters(0, 59, 0, 1)),
        ("russian", "W:WKc1,Ke1:BKh6:E7:F2", Counters(0, 0, 7, 2)),
        ("international", "W:W31-50:B1-20:F0", Counters(0, 0, 0, 1)),
        ("international", "W:W31-50:B1-20", Counters()),
    ],
)
def test_counters_from_fen(variant: str, fen: str, expected: Counters) -> None:
    assert Counters.from_fen(fen) == expected
    assert Game(variant, fen).counters == expected


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("american", "W:WK10:BK19:H79"),
        ("american", "B:WK10,30:BK19:H3:P70:F22"),
        ("russian", "W:WKc1,a3:Bh4,Kh6:P59"),
        ("russian", "W:WKc1,Ke1,Ka3:BKg7:E5:F9"),
        ("portuguese", "W:WK4,9:B24,K29:H10:P30"),
        ("international", "W:W6,36,K47:BK45:H4:E30:F70"),
        ("turkish", "W:WKa1:BKh8:E3"),
        ("italian", "W:WK29:BK4:H79:F41"),
    ],
)
def test_counters_fen_round_trip(variant: str, fen: str) -> None:
    profile = "turkish-pydraughts" if variant == "turkish" else None
    g = Game(variant, fen, profile=profile)
    assert g.fen() == fen
    assert Game(variant, g.fen(), profile=profile).fen() == g.fen()
    legal = g.position.legal_moves()
    g.push(legal[0])
    again = Game(variant, g.fen(), profile=profile)
    assert again.fen() == g.fen()
    assert again.counters == g.counters
    assert again.status() == g.status()


def test_fen_without_counters() -> None:
    g = Game("american", "W:WK10:BK19")
    assert g.fen() == "W:WK10:BK19"
    assert g.fen(counters=False) == "W:WK10:BK19"
    g = Game("american", "W:WK10:BK19:H79")
    assert g.fen(counters=False) == "W:WK10:BK19"
    assert Counters().text() == ""
    assert Counters(5, 9, 2, 3).text() == ":H5:P9:E2:F3"
    assert Counters(5, 5).text() == ":H5"
    assert Counters(0, 9).text() == ":P9"


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK10:BK19:Hx",
        "W:WK10:BK19:H",
        "W:WK10:BK19:H-1",
        "W:WK10:BK19:H7.5",
        "W:WK10:BK19:Px",
        "W:WK10:BK19:E?",
        "W:WK10:BK19:Fz",
        "W:WK10:BK19:H5:P3",  # P < H: every capture or promotion also resets H
        "W:WK10:BK19:H79:P0",
    ],
)
def test_bad_counters_raise_invalid_fen(fen: str) -> None:
    with pytest.raises(InvalidFenError):
        Counters.from_fen(fen)
    with pytest.raises(InvalidFenError):
        Game("american", fen)


def test_unknown_trailing_fields_are_ignored() -> None:
    g = Game("american", "W:WK10:BK19:H79:X12")
    assert g.counters.quiet == 79


# -- Status ---------------------------------------------------------------------------------------------------


def test_status_objects() -> None:
    ongoing = Game("american", "start").status()
    assert (ongoing.outcome, ongoing.reason, str(ongoing)) == (Outcome.ONGOING, "", "ongoing")
    assert not ongoing.is_over and ongoing.winner is None
    assert ongoing.result(get_variant("american")) == "*"

    draw = Game("international", "W:WK46,K50:BK1,K5:H49")
    draw.play("46-41")
    st = draw.status()
    assert isinstance(st, Status)
    assert (st.outcome, st.reason) == (Outcome.DRAW, "D2")
    assert str(st) == "draw: 25 moves each with only kings moving and no capture"
    assert st.text_pt == "25 lances de cada lado só com damas, sem captura"
    assert st.result(get_variant("international")) == "1-1"
    assert st.result(get_variant("brazilian")) == "1/2-1/2"

    win = Game("international", "W:WK46:B37")
    win.play("46x28")
    st = win.status()
    assert (st.outcome, st.reason, st.winner) == (Outcome.WHITE_WINS, "no-pieces", WHITE)
    assert str(st) == "white wins: black has no pieces"
    assert st.text_pt == "as pretas não têm peças"
    assert st.result(get_variant("international")) == "2-0"

    loss = Game("antidraughts", "W:WK46:B37")
    loss.play("46x28")
    st = loss.status()
    assert (st.outcome, st.reason, st.winner) == (Outcome.BLACK_WINS, "no-pieces", BLACK)
    assert st.result(get_variant("antidraughts")) == "0-2"
    assert st.result(get_variant("perde-ganha")) == "0-1"


def test_disabled_rules_and_profile_objects() -> None:
    g = Game("american", "W:WK10:BK19:H79", disabled=("E2",))
    assert g.profile.rule_ids == ("E1",)
    g.play("10-14")
    assert g.status().outcome is Outcome.ONGOING
    both = Game("american", "W:WK10:BK19:H79", disabled=("E1", "E2"))
    assert both.profile.rule_ids == ()
    from generator.rules.draws import PROFILES

    g = Game("american", "W:WK10:BK19:H79", profile=PROFILES["wcdf"])
    g.play("10-14")
    assert g.status().reason == "E2"


# -- damas game ---------------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["game", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


AMERICAN_79 = "W:W30,K10:BK19:H79"  # W man 30 (c1), king 10 (d6); B king 19 (f4); 79 quiet plies


def test_cli_american_forty_move_draw_after_a_king_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "american", "--fen", AMERICAN_79, "10-14")
    assert code == 0, err
    assert lines == ["B:WK14,30:BK19:H80:F2", "draw: 40 moves each with no man advanced and nothing captured"]


def test_cli_american_no_draw_after_a_man_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "american", "--fen", AMERICAN_79, "30-26")
    assert code == 0, err
    assert lines[-1] == "ongoing"
    assert ":H" not in lines[0]  # the man move reset the count


def test_cli_american_one_ply_before_the_forty_move_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "american", "--fen", "W:W30,K10:BK19:H78", "10-14")
    assert code == 0
    assert lines == ["B:WK14,30:BK19:H79:F2", "ongoing"]


REPEAT = ["1-5", "32-27", "5-1", "27-32", "1-6", "32-28", "6-1", "28-32"]  # W:WK1:BK32 again at plies 4 and 8


def test_cli_threefold_repetition_on_that_ply_and_not_before(capsys: pytest.CaptureFixture[str]) -> None:
    for n in range(1, len(REPEAT)):
        code, lines, _ = run(capsys, "american", "--fen", "W:WK1:BK32", *REPEAT[:n])
        assert code == 0
        assert lines[-1] == "ongoing", f"after {n} plies"
    code, lines, _ = run(capsys, "american", "--fen", "W:WK1:BK32", *REPEAT)
    assert code == 0
    assert lines == ["W:WK1:BK32:H8:F5", "draw: threefold repetition"]


def test_cli_no_draw_rule_and_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "american", "--fen", AMERICAN_79, "--no-draw-rule", "E2", "10-14")
    assert (code, lines[-1]) == (0, "ongoing")
    code, lines, _ = run(capsys, "american", "--fen", "W:WK1:BK32", "--no-draw-rule", "E1", *REPEAT)
    assert (code, lines[-1]) == (0, "ongoing")
    code, lines, _ = run(capsys, "american", "--fen", AMERICAN_79, "--draw-profile", "none", "10-14")
    assert (code, lines[-1]) == (0, "ongoing")
    line = ["29-25", "4-8", "25-29", "8-4", "29-26", "4-7", "26-29", "7-4"]
    code, lines, _ = run(capsys, "italian", "--fen", "W:WK29:BK4", *line)
    assert (code, lines[-1]) == (0, "ongoing")  # fid: the 4th occurrence
    code, lines, _ = run(capsys, "italian", "--fen", "W:WK29:BK4", "--draw-profile", "fid-threefold", *line)
    assert (code, lines[-1]) == (0, "draw: threefold repetition")


def test_cli_win_status(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "american", "--fen", "W:WK27:B28:H79", "27-32")
    assert (code, lines) == (0, ["B:WK32:B28:H80:F2", "white wins: black cannot move"])
    code, lines, _ = run(capsys, "perde-ganha", "--fen", "W:WKa1:Bc3", "a1xd4")
    assert code == 0
    assert lines[-1] == "black wins: black has no pieces (losing game: the side left without a move wins)"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("american", "--fen", AMERICAN_79, "--draw-profile", "bogus", "10-14"), 2, "bogus"),
        (("international", "--draw-profile", "wcdf"), 2, "wcdf"),
        (("american", "--fen", AMERICAN_79, "--no-draw-rule", "D2", "10-14"), 2, "D2"),
        (("american", "--fen", "W:W30,K10:BK19:Hx", "10-14"), 1, "invalid FEN"),
        (("american", "--fen", "W:W30,K10:BK19:H5:P3", "10-14"), 1, "P3 < H5"),
        (("american", "--fen", AMERICAN_79, "10-14", "19-23"), 1, "game is over"),
    ],
)
def test_cli_errors(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], code: int, message: str) -> None:
    got, lines, err = run(capsys, *args)
    assert got == code
    assert lines == []
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_fen_keeps_endgame_counts_that_differ_per_rule() -> None:
    """Russian 3K v K: R2 counts from the material, R5 only while the lone king holds the long
    diagonal; a reloaded game must keep both counts, not one shared E."""
    g = Game("russian", "B:WKa3,Kc1,Ke1:BKh6:E20")
    g.play("h6-g7")
    fen = g.fen()
    assert "ER2-21" in fen and "ER5-0" in fen
    again = Game("russian", fen)
    assert again.fen() == fen
    assert str(again.status()) == str(g.status()) == "ongoing"
