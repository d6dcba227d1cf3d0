"""PDN game files: reading, replaying with the engine, writing, and ``damas pdn check``.

The sample files in ``tests/data/pdn/`` are hand-written PDN; every move in them was checked with the
engine when the file was made (openings from the start position, endings from a FEN), and the
expected final status of each game is stated in :data:`SAMPLES` below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.pdn import PdnCheckFailed, pdn
from generator.inputfile import InputFileError, read_text
from generator.rules import get_variant
from generator.rules.errors import DamasError
from generator.rules.game import Game, Outcome
from generator.rules.pdn import (
    PdnGame,
    game_to_pdn,
    read_pdn,
    replay,
    result_outcome,
    result_token,
    tokenize,
    variant_for_gametype,
    write_pdn,
)

DATA = Path(__file__).resolve().parent.parent / "data" / "pdn"

# file -> per game: (variant, final status, main-line plies)
SAMPLES: dict[str, list[tuple[str, str, int]]] = {
    "international.pdn": [
        ("international", "ongoing", 20),
        ("international", "white wins: black has no pieces", 5),
    ],
    "american.pdn": [
        ("american", "ongoing", 24),
        ("american", "draw: threefold repetition", 8),
        ("american", "black wins: white cannot move", 3),
    ],
    "brazilian.pdn": [
        ("brazilian", "ongoing", 16),
        ("brazilian", "white wins: black has no pieces", 5),
    ],
    "russian.pdn": [
        ("russian", "ongoing", 16),
        ("russian", "white wins: black has no pieces", 1),
    ],
    "italian.pdn": [
        ("italian", "ongoing", 16),
        ("italian", "white wins: black has no pieces", 5),
    ],
    "portuguese.pdn": [
        ("portuguese", "ongoing", 16),
        ("portuguese", "white wins: black has no pieces", 5),
    ],
    "turkish.pdn": [
        ("turkish", "ongoing", 16),
        ("turkish", "white wins: black has no pieces", 1),
    ],
    "perde-ganha.pdn": [
        (
            "perde-ganha",
            "black wins: black has no pieces (losing game: the side left without a move wins)",
            5,
        ),
    ],
    "annotated.pdn": [
        ("international", "ongoing", 7),
        ("american", "ongoing", 5),
        ("brazilian", "white wins: black has no pieces", 5),
        ("international", "ongoing", 0),
    ],
}


def load(name: str) -> list[PdnGame]:
    return read_pdn(read_text(DATA / name, "pdn_file_bytes"), path=str(DATA / name))


def text_of(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()


# -- the samples, one per variant ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_replays_to_the_stated_status(name: str) -> None:
    games = load(name)
    assert [(g.variant.name if g.variant else None) for g in games] == [v for v, _, _ in SAMPLES[name]]
    for game, (_, status, plies) in zip(games, SAMPLES[name], strict=True):
        r = replay(game)
        assert r.errors == [], [str(e) for e in r.errors]
        assert (str(r.status), r.plies) == (status, plies), game.name
        assert all(n.move is not None for n in game.moves)


def test_sample_results_agree_with_the_engine() -> None:
    # every game that ends by rule states the matching result, so no warning is produced
    for name in SAMPLES:
        games = load(name)
        assert len(games) == len(SAMPLES[name])
        for game in games:
            r = replay(game)
            assert r.status is not None
            if r.status.is_over:
                assert result_outcome(game.result, game.variant) is r.status.outcome, (name, game.name)


def test_russian_colon_captures_long_and_promotion_mid_capture() -> None:
    opening, promotion = load("russian.pdn")
    replay(opening)
    node = opening.moves[7]  # 4... a5:c3:e5, written in full although unambiguous
    assert (node.label, node.move.captures.bit_count()) == ("4... a5:c3:e5", 2)
    assert node.before.move_text(node.move) == "a5:e5"
    replay(promotion)
    king = promotion.moves[0]
    assert king.text == "b6:d8:h4" and king.move.promotes
    assert king.comments_after == ["crowned on d8, the new king takes f6"]


def test_turkish_capture_continues_as_a_man_on_the_last_rank() -> None:
    _, ending = load("turkish.pdn")
    r = replay(ending)
    move = ending.moves[0].move
    assert [r.final.variant.geometry.name(s) for s in move.path] == ["d6", "d8", "b8"]
    assert r.final.fen() == "B:WKb8:B"


def test_american_result_counts_the_first_mover_first() -> None:
    # PDN 2.0: in checkers 1-0 is a win for Black (Red), who moves first
    american = get_variant("american")
    international = get_variant("international")
    assert result_outcome("1-0", american) is Outcome.BLACK_WINS
    assert result_outcome("0-1", american) is Outcome.WHITE_WINS
    assert result_outcome("2-0", international) is Outcome.WHITE_WINS
    assert result_outcome("1-1", international) is Outcome.DRAW
    assert result_outcome("*", american) is None
    assert result_token(Outcome.BLACK_WINS, american) == "1-0"
    assert result_token(Outcome.BLACK_WINS, international) == "0-2"
    assert result_token(Outcome.DRAW, get_variant("brazilian")) == "1/2-1/2"
    blocked = load("american.pdn")[2]
    assert blocked.result == "1-0"
    assert replay(blocked).status.outcome is Outcome.BLACK_WINS


# -- several games, annotations, round trips ----------------------------------------------------------


def test_annotated_file_structure() -> None:
    g1, g2, g3, g4 = load("annotated.pdn")
    assert g1.tags["Event"] == 'Annotated "training" games'
    assert g1.tags["Site"] == "C:\\damas"
    assert list(g1.tags)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    first = g1.moves[0]
    assert first.comments_before == ["A quiet opening, with a side line that loses a piece for Black."]
    main = g1.moves[2]  # 2. 37-32 $1 {the main move} (2. 34-29? ...)
    assert (main.label, main.nags, main.comments_after) == ("2. 37-32", ["$1"], ["the main move"])
    (side,) = main.variations
    assert [n.label for n in side] == ["2. 34-29", "2... 23x34", "3. 40x29", "3... 12-18"]
    assert side[0].strength == "?" and side[3].nags == ["$6"]
    (nested,) = side[2].variations
    assert [(n.label, n.comments_after) for n in nested] == [("3. 39x30", ["also possible"])]
    assert g1.moves[4].strength == "!?"
    assert g1.result == "2-0"
    assert [n.label for n in g2.moves[1].variations[0]] == ["1... 24-20"]
    assert g3.setup == "W:Wc3,e3,g3,Kh2:Bb6,d6,f6" and g3.start_fen == g3.setup
    assert (g4.moves, g4.comments, g4.result) == ([], ["No moves were recorded."], "*")
    r = replay(g1)
    assert r.errors == []
    assert all(n.move is not None for n in side + nested)


def test_annotated_file_round_trips_exactly() -> None:
    text = text_of("annotated.pdn")
    games = read_pdn(text)
    assert write_pdn(games) == text  # as read, before replay
    for g in games:
        replay(g)
    assert write_pdn(games) == text  # canonical notation after replay: the file already uses it
    again = read_pdn(write_pdn(games))
    assert [g.content() for g in again] == [g.content() for g in games]
    assert [g.result for g in again] == ["2-0", "0-1", "1-0", "*"]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_round_trips(name: str) -> None:
    games = load(name)
    for g in games:
        replay(g)
    written = write_pdn(games)
    assert all(len(line) <= 79 for line in written.splitlines())
    again = read_pdn(written)
    assert [g.tags for g in again] == [g.tags for g in games]
    assert [g.result for g in again] == [g.result for g in games]
    assert [[n.comments_after for n in g.moves] for g in again] == [[n.comments_after for n in g.moves] for g in games]
    for old, new in zip(games, again, strict=True):
        r = replay(new)
        assert r.errors == []
        assert [n.move for n in new.moves] == [n.move for n in old.moves]
    assert write_pdn(again) == written


def test_writer_uses_short_notation_unless_ambiguous() -> None:
    text = '[GameType "25"] [FEN "W:Wb6:Bc7,f6"] 1. b6:d8:h4 1-0'
    games = read_pdn(text)
    assert "1. b6:d8:h4 1-0" in write_pdn(games)  # not replayed: as written
    replay(games[0])
    assert "1. b6:h4 1-0" in write_pdn(games)
    assert "1. b6:d8:h4 1-0" in write_pdn(games, canonical=False)
    # a capture that is ambiguous in short form keeps its path
    amb = read_pdn('[FEN "W:WK46:B9,18,21,32"] 1. 46x14x3x26 2-0')
    replay(amb[0])
    assert "1. 46x14x3x26 2-0" in write_pdn(amb)
    # leading zeros and missing separators are normalised
    z = read_pdn("1. 32-28 19-23 2. 28x19 14x23 3. 3732 09-14 *")
    replay(z[0])
    assert replay(z[0]).ok and "3. 37-32 9-14 *" in write_pdn(z)


def test_writer_tag_order_gametype_and_variant() -> None:
    games = read_pdn(
        '[Annotator "x"] [Black "B"] [Result "*"] [White "W"] [Event "E"] 1. c3-d4 *',
        default_variant="perde-ganha",
    )
    head = write_pdn(games).split("\n\n")[0].splitlines()
    assert head == [
        '[Event "E"]',
        '[White "W"]',
        '[Black "B"]',
        '[Result "*"]',
        '[GameType "26"]',
        '[Variant "perde-ganha"]',
        '[Annotator "x"]',
    ]
    again = read_pdn(write_pdn(games))  # read with the PDN default (international): tags decide
    assert again[0].variant.name == "perde-ganha"
    assert replay(again[0]).errors == []


def test_writer_wraps_long_lines_and_keeps_numbers_with_moves() -> None:
    games = load("international.pdn")
    text = write_pdn(games, width=40)
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert not any(line.rstrip().endswith(".") for line in lines if not line.startswith("["))
    assert [g.content() for g in read_pdn(text)] == [g.content() for g in games]


def test_game_to_pdn_from_an_engine_game() -> None:
    g = Game("american", "B:W29,K27:B4,K6")
    for m in ("6-10", "27-32", "10-6", "32-27", "6-10", "27-32", "10-6", "32-27"):
        g.play(m)
    pg = game_to_pdn(g, {"Event": "Shuffle"})
    assert pg.result == "1/2-1/2" and pg.tags["FEN"] == "B:WK27,29:B4,K6"
    text = write_pdn([pg])
    assert "1. 6-10 27-32 2. 10-6 32-27 3. 6-10 27-32 4. 10-6 32-27 1/2-1/2" in text
    (back,) = read_pdn(text)
    r = replay(back)
    assert (str(r.status), r.errors) == ("draw: threefold repetition", [])


# -- errors at their place ------------------------------------------------------------------------


def test_illegal_move_is_reported_at_its_line_column_and_move_number() -> None:
    games = load("illegal.pdn")
    assert replay(games[0]).errors == []
    r = replay(games[1])
    (err,) = r.errors
    assert (err.line, err.col, err.severity) == (18, 5, "error")
    assert err.path == str(DATA / "illegal.pdn")
    assert err.message.startswith("game 2 (Club, Ana - Bia): move 12... 13-19 is not legal here; legal: 4-10 5-10 6-11")
    assert str(err).startswith(f"{DATA / 'illegal.pdn'}:18:5: game 2 (Club, Ana - Bia): move 12... 13-19")
    assert r.status is None and r.plies == 23 and r.stopped_at is games[1].moves[23]
    assert r.summary == "stopped at move 12... 13-19"


def test_ambiguous_short_move_is_reported() -> None:
    short, full, american = load("ambiguous.pdn")
    (err,) = replay(short).errors
    assert (err.line, err.col) == (6, 4)
    assert err.message == (
        "game 1 (Ambiguous capture): move 1. 46x26 is ambiguous: write the path (46x14x3x26, 46x23x12x26)"
    )
    assert replay(full).errors == []
    (err,) = replay(american).errors
    assert (err.line, err.col) == (20, 6)
    assert err.message.endswith("move 1... 27x11 is ambiguous: write the path (27x18x11, 27x20x11)")


def test_errors_in_variations_name_the_variation() -> None:
    text = "1. 32-28 18-23 2. 37-32 (2. 33-29 12-18) 12-18 *"
    (g,) = read_pdn(text, path="v.pdn")
    r = replay(g)
    (err,) = r.errors
    assert str(err).startswith("v.pdn:1:35: game 1: in a variation, move 2... 12-18 is not legal here; legal: 23x32")
    assert r.plies == 4 and str(r.status) == "ongoing"  # the main line goes on


def test_result_that_contradicts_a_rule_ending_is_a_warning() -> None:
    text = text_of("american.pdn").replace("1/2-1/2", "1-0")  # the tag and the token
    r = replay(read_pdn(text, path="a.pdn")[1])
    (w,) = r.errors
    assert w.severity == "warning" and not w.is_error and r.ok
    assert w.message == (
        "game 2 (Kings shuffle, B - A): result 1-0 (black wins) but the final position is "
        "draw: threefold repetition (1/2-1/2)"
    )
    assert (w.line, w.col) == (18, 70)
    assert str(w).startswith("a.pdn:18:70: warning: ")


def test_result_tag_and_token_disagree() -> None:
    (g,) = read_pdn('[Result "2-0"] 1. 32-28 0-2')
    (w,) = replay(g).errors
    assert (w.severity, w.col) == ("warning", 25)
    assert 'result 0-2 does not match [Result "2-0"]' in w.message


def test_moves_after_a_draw_rule_warn_and_moves_after_a_win_fail() -> None:
    drawn = '[GameType "21"] [FEN "B:W29,K27:B4,K6"] 1. 6-10 27-32 2. 10-6 32-27 3. 6-10 27-32 4. 10-6 32-27 5. 6-10 *'
    r = replay(read_pdn(drawn)[0])
    (w,) = r.errors
    assert w.severity == "warning"
    assert "move 5. 6-10 is played after the game ended (draw: threefold repetition)" in w.message
    assert r.plies == 9
    won = '[GameType "25"] [FEN "W:Wb6:Bc7,f6"] 1. b6:h4 h6-g5 *'
    r = replay(read_pdn(won)[0])
    (e,) = r.errors
    assert e.is_error and "move 1... h6-g5: the game is already over (white wins: black has no pieces)" in e.message


def test_bad_fen_and_unknown_rules_are_errors_at_their_tag() -> None:
    text = (
        '[Event "a"]\n[FEN "W:W31-50:B1-20,99"]\n1. 32-28 *\n'
        '[GameType "24,W,8,8,N1,1"]\n1. 9-13 *\n'
        '[Variant "frisian"] *'
    )
    g1, g2, g3 = read_pdn(text, path="f.pdn")
    (e,) = replay(g1).errors
    assert (e.line, e.col) == (2, 1) and "invalid FEN" in e.message and e.message.startswith("game 1 (a): ")
    (e,) = replay(g2).errors
    assert (e.line, e.col) == (4, 1)
    assert "GameType '24' (Spanish draughts) is not supported; supported: 20 international" in e.message
    assert g2.variant is None and replay(g2).summary == "not replayed"
    (e,) = g3.errors
    assert "unknown variant 'frisian'" in e.message


def test_variant_tag_wins_over_gametype_and_the_default() -> None:
    (g,) = read_pdn('[GameType "20,W,10,10,N2,0"] [Variant "antidraughts"] 1. 32-28 *')
    assert g.variant.name == "antidraughts" and g.errors == []
    (g,) = read_pdn('[GameType "20"] [Variant "Perde-Ganha"] 1. c3-d4 *')
    assert g.variant.name == "perde-ganha"
    (w,) = g.errors
    assert w.severity == "warning" and "GameType 20 does not match Variant perde-ganha (GameType 26)" in w.message
    (g,) = read_pdn("1. 11-15 *", default_variant="american")
    assert g.variant.name == "american" and replay(g).errors == []
    (g,) = read_pdn("1. 11-15 *")  # PDN's default is International, where 11-15 is a black move
    assert not replay(g).ok
    assert variant_for_gametype("21,B,8,8,N1,0").name == "american"
    with pytest.raises(DamasError):
        variant_for_gametype("31")


def test_setup_tokens_in_the_middle_of_a_game() -> None:
    text = '[GameType "21"] 1. 11-15 23-19 /FEN "W:W19:B15"/ 2... 19x10 *'
    (g,) = read_pdn(text)
    assert g.moves[2].setup == "W:W19:B15" and g.moves[2].label == "2... 19x10"
    r = replay(g)
    assert (r.errors, str(r.status), r.plies) == ([], "white wins: black has no pieces", 3)
    assert '/FEN "W:W19:B15"/ 2... 19x10' in write_pdn([g])


# -- liberal reading ----------------------------------------------------------------------------


def test_liberal_reading() -> None:
    text = (
        '[Event "x"]\r\n'
        "% an escape line: 1. 99-99 is never read\r\n"
        "; a line comment {with a brace}\r\n"
        "1.32-28 19-23(?) 2. 28x19 ! 14x23 $3\r\n"
        "3. 37-32 { multi\r\n line } 3... 10-14 4. 41-37 05-10 5. 3429 23x34 *\r\n"
    )
    (g,) = read_pdn(text)
    assert g.errors == []
    rows = [(n.label, n.line, n.col, n.strength, n.nags) for n in g.moves]
    assert rows[:4] == [
        ("1. 32-28", 4, 3, "", []),
        ("1... 19-23", 4, 9, "?", []),
        ("2. 28x19", 4, 21, "!", []),
        ("2... 14x23", 4, 29, "", ["$3"]),
    ]
    assert g.moves[0].comments_before == ["a line comment {with a brace}"]
    assert g.moves[4].comments_after == ["multi line"]
    r = replay(g)
    assert r.errors == [] and r.plies == 10
    again = read_pdn(write_pdn([g], canonical=False))
    assert again[0].content()[1:] == g.content()[1:]  # tags differ only by the GameType written


def test_line_comment_with_a_brace_inside_a_variation() -> None:
    text = "1. 32-28 (1. 33-28 ; a } brace\n) 19-23 *"
    (g,) = read_pdn(text)
    assert g.moves[0].variations[0][0].comments_after == ["a } brace"]
    written = write_pdn([g])
    assert "(1. 33-28 ;a } brace\n) 1... 19-23 *" in written
    assert [x.content()[1:] for x in read_pdn(written)] == [g.content()[1:]]


def test_numbers_with_ellipsis_and_black_to_move() -> None:
    (g,) = read_pdn('[FEN "B:W31-50:B1-20"] 1. ... 20-25 2. 32-28 *')
    assert [n.label for n in g.moves] == ["1... 20-25", "2. 32-28"]
    assert replay(g).errors == []
    (g,) = read_pdn('[FEN "B:W31-50:B1-20:F23"] 20-25 32-28 *')
    assert [n.label for n in g.moves] == ["23... 20-25", "24. 32-28"]


def test_move_numbers_out_of_step_warn_once() -> None:
    (g,) = read_pdn('[GameType "21"] 1. 11-15 2. 23-19 3. 8-11 4. 22-17 *')  # PDN 2.0 numbering per ply
    (w,) = g.errors
    assert w.severity == "warning" and (w.line, w.col) == (1, 29)
    assert "move number 2. written before 23-19, but it is move 1..." in w.message
    assert replay(g).ok


def test_tokens_keep_line_and_column() -> None:
    toks = list(tokenize('1. ... 7-12 {a\nb} 12...19-23 a3b4 [X "a\\"b"]'))
    assert [(t.kind, t.value, t.line, t.col) for t in toks] == [
        ("number", "1", 1, 1),
        ("ellipsis", "...", 1, 4),
        ("move", "7-12", 1, 8),
        ("comment", "a b", 1, 13),
        ("number", "12", 2, 4),
        ("move", "19-23", 2, 9),
        ("move", "a3b4", 2, 15),
        ("tag", 'a"b', 2, 20),
    ]
    assert toks[4].second and toks[7].name == "X"


def test_syntax_errors_have_positions() -> None:
    text = '[Event "x"]\n[Broken tag]\n1. 32-28 (19-23 foo 2. 37-32 ) ) 18-23 {never closed\n'
    (g,) = read_pdn(text, path="s.pdn")
    msgs = [(e.line, e.col, e.message) for e in g.errors if e.is_error]
    assert msgs == [
        (2, 1, 'game 1 (x): malformed tag pair (expected [Name "value"] on one line)'),
        (3, 17, "game 1 (x): 'foo' is not a move, move number, result or annotation"),
        (3, 32, "game 1 (x): ')' without a '('"),
        (3, 40, "game 1 (x): comment '{' is never closed with '}'"),
    ]
    (g,) = read_pdn("1. 32-28 (18-23 *")
    assert [(e.col, e.message) for e in g.errors if e.is_error] == [(10, "game 1: '(' is never closed with ')'")]


def test_game_boundaries() -> None:
    assert read_pdn("") == [] and read_pdn("  \n% only an escape line\n") == []
    games = read_pdn('1. 32-28 *[Event "b"] 1. 33-28 2-0 1. 34-29 {no result, no tags}')
    assert [(g.index, g.tags.get("Event"), g.result, len(g.moves)) for g in games] == [
        (1, None, "*", 1),
        (2, "b", "2-0", 1),
        (3, None, None, 1),
    ]
    # a game without a result ends where the next game's tags begin
    games = read_pdn('[Event "a"] 1. 32-28 [Event "b"] 1. 33-28 *')
    assert [len(g.moves) for g in games] == [1, 1] and games[0].result is None
    # text after the last result is not a game
    games = read_pdn("1. 32-28 * {afterthought}")
    assert len(games) == 1 and games[0].errors[0].severity == "warning"


def test_pdn_file_reading_errors(tmp_path: Path) -> None:
    """PDN files are read through generator.inputfile (the engine reads no files)."""
    bad = tmp_path / "latin1.pdn"
    bad.write_bytes(b'[Event "Caf\xe9"]\n1. 32-28 *\n')
    with pytest.raises(InputFileError, match=r"^not UTF-8 text \(byte 0xe9\)") as caught:
        read_text(bad, "pdn_file_bytes")
    assert caught.value.at("latin1.pdn").startswith("latin1.pdn:1:12: not UTF-8 text (byte 0xe9); convert it")
    with pytest.raises(InputFileError, match="cannot read"):
        read_text(tmp_path / "missing.pdn", "pdn_file_bytes")
    bom = tmp_path / "bom.pdn"
    bom.write_bytes('\ufeff[Event "x"] 1. 32-28 *'.encode())
    assert read_pdn(read_text(bom, "pdn_file_bytes"))[0].tags == {"Event": "x"}
    result = runner().invoke(pdn, ["check", str(bad)])
    assert isinstance(result.exception, PdnCheckFailed)
    assert f"{bad}:1:12: not UTF-8 text (byte 0xe9); convert it first" in result.stderr


# -- damas pdn check ----------------------------------------------------------------------------


def test_cli_check_all_samples() -> None:
    files = [str(DATA / name) for name in sorted(SAMPLES)]
    r = runner().invoke(pdn, ["check", *files])
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == sum(len(v) for v in SAMPLES.values())
    american = str(DATA / "american.pdn")
    assert f"{american}: game 1 (Chinook - Tinsley, M.): ongoing, 24 moves" in lines
    assert f"{american}: game 2 (B - A): draw: threefold repetition, 8 moves" in lines
    assert f"{american}: game 3 (D - C): black wins: white cannot move, 3 moves" in lines
    assert f"{DATA / 'russian.pdn'}: game 2 (? - ?): white wins: black has no pieces, 1 move" in lines


def test_cli_check_reports_errors_and_exits_1() -> None:
    path = str(DATA / "illegal.pdn")
    r = runner().invoke(pdn, ["check", path])
    assert r.exit_code == 1
    # the summary goes up as a DamasError, which damas' main() prints as "damas: ..." with exit 1
    assert isinstance(r.exception, PdnCheckFailed) and isinstance(r.exception, DamasError)
    assert str(r.exception) == "pdn check: 1 error in 1 of 1 file"
    assert r.stderr.startswith(f"{path}:18:5: game 2 (Club, Ana - Bia): move 12... 13-19 is not legal here; legal: ")
    assert len(r.stderr.splitlines()) == 1
    assert r.stdout.splitlines() == [
        f"{path}: game 1 (Carla - Duda): ongoing, 4 moves",
        f"{path}: game 2 (Ana - Bia): stopped at move 12... 13-19, 23 moves",
    ]


def test_cli_usage_and_file_errors(tmp_path: Path) -> None:
    r = runner().invoke(pdn, ["check", str(tmp_path / "nope.pdn")])
    assert r.exit_code == 2 and "does not exist" in r.stderr
    r = runner().invoke(pdn, ["check"])
    assert r.exit_code == 2
    r = runner().invoke(pdn, ["check", "--variant", "chess", str(DATA / "american.pdn")])
    assert r.exit_code == 2 and "unknown variant 'chess'" in r.stderr
    r = runner().invoke(pdn, ["check", "--draw-profile", "bogus", str(DATA / "american.pdn")])
    assert r.exit_code == 2 and "unknown draw profile 'bogus'" in r.stderr
    bad = tmp_path / "bad.pdn"
    bad.write_bytes(b"1. 32-28 {caf\xe9} *\n")
    r = runner().invoke(pdn, ["check", str(bad), str(DATA / "perde-ganha.pdn")])
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        f"{bad}:1:14: not UTF-8 text (byte 0xe9); convert it first, e.g. iconv -f latin1 -t utf-8"
    ]
    assert len(r.stdout.splitlines()) == 1  # the other file is still checked


def test_cli_options_variant_draw_profile_strict(tmp_path: Path) -> None:
    plain = tmp_path / "plain.pdn"
    plain.write_text("1. 11-15 23-19 2. 8-11 *\n", encoding="utf-8")
    r = runner().invoke(pdn, ["check", str(plain)])
    assert r.exit_code == 1  # International by default: 11-15 is not White's move
    r = runner().invoke(pdn, ["check", "--variant", "english", str(plain)])
    assert (r.exit_code, r.stdout) == (0, f"{plain}: game 1 (? - ?): ongoing, 3 moves\n")

    american = str(DATA / "american.pdn")
    r = runner().invoke(pdn, ["check", "--draw-profile", "none", american])
    assert r.exit_code == 0
    assert f"{american}: game 2 (B - A): ongoing, 8 moves" in r.stdout.splitlines()
    r = runner().invoke(pdn, ["check", "--no-draw-rule", "E1", american])
    assert r.exit_code == 0 and "game 2 (B - A): ongoing, 8 moves" in r.stdout
    r = runner().invoke(pdn, ["check", "--draw-profile", "fmjd", american])
    assert r.exit_code == 1
    assert "draw profile 'fmjd' is not one of american's" in r.stderr

    warned = tmp_path / "warned.pdn"
    warned.write_text(text_of("american.pdn").replace("{third time} 1/2-1/2", "{third time} 0-1"), encoding="utf-8")
    r = runner().invoke(pdn, ["check", str(warned)])
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        f'{warned}:18:70: warning: game 2 (Kings shuffle, B - A): result 0-1 does not match [Result "1/2-1/2"]',
        f"{warned}:18:70: warning: game 2 (Kings shuffle, B - A): result 0-1 (white wins) but the final "
        "position is draw: threefold repetition (1/2-1/2)",
    ]
    r = runner().invoke(pdn, ["check", "--strict", str(warned)])
    assert r.exit_code == 1


def test_cli_no_games_is_a_warning(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdn"
    empty.write_text("% nothing here\n", encoding="utf-8")
    r = runner().invoke(pdn, ["check", str(empty)])
    assert (r.exit_code, r.stderr) == (0, f"{empty}: warning: no games found\n")


def test_unreadable_move_and_bad_setup_in_the_middle() -> None:
    (g,) = read_pdn("1. 32-99 *", path="m.pdn")
    assert [str(e) for e in replay(g).errors] == [
        "m.pdn:1:4: game 1: move 1. '32-99': square 99 is out of range (1-50)"
    ]
    (g,) = read_pdn('[GameType "26"] 1. c3-d4 f6-e5 /FEN "W:Wz9:B"/ 2. d4xf6 *', path="m.pdn")
    (e,) = replay(g).errors
    assert (e.line, e.col) == (1, 32)
    assert "setup before move 2. d4xf6: invalid FEN 'W:Wz9:B': square 'z9' is off the 8x8 board" in e.message


@pytest.mark.parametrize(
    "variant",
    [
        "international",
        "american",
        "brazilian",
        "russian",
        "italian",
        "portuguese",
        "turkish",
        "perde-ganha",
        "antidraughts",
    ],
)
def test_random_engine_games_survive_write_read_replay(variant: str) -> None:
    import random

    rng = random.Random(variant)
    games = []
    for i in range(3):
        g = Game(variant)
        while not g.status().is_over and g.ply < 80:
            g.push(rng.choice(g.position.legal_moves()))
        games.append((g, game_to_pdn(g, {"Event": f"random {i}"}, index=i + 1)))
    text = write_pdn([pg for _, pg in games])
    again = read_pdn(text)  # the default variant is International: the tags must carry the rules
    for (g, _), pg in zip(games, again, strict=True):
        r = replay(pg)
        assert r.errors == [], [str(e) for e in r.errors]
        assert pg.variant.name == variant
        assert [n.move for n in pg.moves] == g.moves
        assert str(r.status) == str(g.status())
    assert write_pdn(again) == text
