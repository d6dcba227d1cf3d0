"""The golpe solver (generator/puzzles/search.py): known combinations, the precedence laws, the
transposition table, quiescence, Zobrist keys, ``damas solve --json``, and a property test against
an independent brute-force minimax (tests/search/brute.py).

Positions are in tests/search/catalog.py with the hand analysis each expected answer rests on.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from generator.puzzles.search import QUIESCENCE_PLIES, SEARCH_VERSION, Proof, Solver, Stipulation, solve, zobrist
from generator.puzzles.themes import Line, auto_themes, blocking_win
from generator.rules import BLACK, WHITE, Position, Precedence, get_variant
from generator.rules.game import Game
from tests.search import brute
from tests.search.catalog import BY_ID, SHOTS, Shot

ROOT = Path(__file__).resolve().parents[2]


def texts(pos: Position, moves) -> list[str]:
    return [pos.move_text(m, long=True) for m in moves]


def play_line(pos: Position, moves: list[str]) -> list[Position]:
    """The positions before each move, then the final one; each text must name a legal move."""
    out = [pos]
    for t in moves:
        out.append(out[-1].play(out[-1].parse_move(t)))
    return out


def law(variant: str, precedence: str | None = None):
    """A variant, or the same variant with only its precedence law replaced."""
    v = get_variant(variant)
    return v if precedence is None else v.with_rules(precedence=Precedence[precedence])


def solutions(variant, fen: str, goal: str, depth: int) -> list[str]:
    pos = Position.from_fen(variant, fen)
    return texts(pos, solve(pos, goal, depth).solutions)


def replies(variant, fen: str, first: str) -> set[str]:
    after, legal = after_move(variant, fen, first)
    return set(texts(after, legal))


def after_move(variant, fen: str, first: str):
    pos = Position.from_fen(variant, fen)
    after = pos.play(pos.parse_move(first))
    return after, after.legal_moves()


# random small positions for the property tests (section 4 and the Zobrist test)

EIGHT_BY_EIGHT = ["american", "brazilian", "italian", "perde-ganha", "portuguese", "russian", "turkish"]


@st.composite
def small_positions(draw, variants: list[str] = EIGHT_BY_EIGHT) -> Position:
    """Two to six men and kings of both colours on random squares (8x8 boards unless told)."""
    v = get_variant(draw(st.sampled_from(variants)))
    g = v.geometry
    squares = draw(st.lists(st.sampled_from(g.squares), min_size=2, max_size=6, unique=True))
    n_white = draw(st.integers(min_value=1, max_value=len(squares) - 1))
    white = black = kings = 0
    for i, sq in enumerate(squares):
        color = WHITE if i < n_white else BLACK
        king = draw(st.integers(min_value=0, max_value=3)) == 0
        if g.rank_of(sq) == v.promotion_rank(color):
            king = True  # a man never stands on its own promotion row
        if color == WHITE:
            white |= 1 << sq
        else:
            black |= 1 << sq
        if king:
            kings |= 1 << sq
    return Position(v, white, black, kings, draw(st.sampled_from([WHITE, BLACK])))


# -- 1. known combinations ------------------------------------------------------------------------


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.id)
def test_known_combination_is_solved(shot: Shot) -> None:
    pos = Position.from_fen(shot.variant, shot.fen)
    proof = solve(pos, shot.goal, shot.depth)
    assert texts(pos, proof.solutions) == list(shot.solutions)
    # the independent minimax agrees, and every other first move has a defence
    assert texts(pos, brute.solutions(pos, shot.goal, shot.depth)) == list(shot.solutions)
    assert set(proof.refutations) == set(pos.legal_moves()) - set(proof.solutions)
    for move, line in proof.refutations.items():
        assert line[0] == move
        _playable(pos, line)
    # the catalogue's main line is legal, starts with the solution and meets the goal at its end
    positions = play_line(pos, shot.moves)
    assert pos.parse_move(shot.moves[0]) == pos.parse_move(shot.solutions[0])  # maybe by another route
    assert _goal_met(shot, positions)


def _playable(pos: Position, line) -> None:
    for m in line:
        assert m in pos.legal_moves()
        pos = pos.play(m)


def _goal_met(shot: Shot, positions: list[Position]) -> bool:
    start, end = positions[0], positions[-1]
    me = start.turn
    if shot.goal == "win":
        return end.winner() == me
    if shot.goal == "promote":
        return (end.pieces(me) & end.kings).bit_count() > (start.pieces(me) & start.kings).bit_count()
    assert not any(m.captures for m in end.legal_moves()), "the line must stop in a quiet position"
    return brute.balance(end, me) - brute.balance(start, me) == int(shot.goal.split(":")[1])


def test_american_golpe_of_the_seed_lesson() -> None:
    """The original lesson text: "26-23, a única resposta 19x26, 31x22x13 tomando duas pedras pela que foi
    entregue"."""
    pos = Position.from_fen("american", "W:W26,31,32:B1,17,19")
    assert len(pos.legal_moves()) == 5
    solver = Solver(pos.variant)
    proof = solver.solve(pos, "gain:1", 3)
    assert texts(pos, proof.solutions) == ["26-23"]
    move = proof.solutions[0]
    assert replies("american", pos.fen(), "26-23") == {"19x26"}  # the only answer
    assert _line_text(pos, solver.main_line(pos, move, proof.shortest[move])) == ["26-23", "19x26", "31x22x13"]
    # the recapture lies past the first ply, and quiescence plays it out: one ply is enough
    assert proof.shortest[move] == 1
    assert texts(pos, solve(pos, "gain:1", 1).solutions) == ["26-23"]
    # two pieces for one is a gain of one, not two
    assert solve(pos, "gain:2", 5).solutions == []


def _line_text(pos: Position, line) -> list[str]:
    out = []
    for m in line:
        out.append(pos.move_text(m, long=True))
        pos = pos.play(m)
    return out


def test_blocking_win_leaves_pieces_without_a_move() -> None:
    shot = BY_ID["brazilian-block"]
    pos = Position.from_fen(shot.variant, shot.fen)
    final = play_line(pos, shot.moves)[-1]
    assert final.turn == BLACK and final.black and not final.legal_moves()
    assert final.winner() == WHITE
    moves = tuple(p.parse_move(t) for p, t in zip(play_line(pos, shot.moves), shot.moves, strict=False))
    assert not blocking_win(Line(pos, moves[:1]))
    assert blocking_win(Line(pos, moves)) and "bloqueio" in auto_themes(Line(pos, moves))
    # one ply is not enough: the block needs the tempo move and black's forced step
    assert solve(pos, "win", 1).solutions == []
    # both black replies lose
    after = pos.play(pos.parse_move("a3-b4"))
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("win"))
    for reply in after.legal_moves():
        assert solver.forced(after.play(reply).state, 1), after.move_text(reply)


def test_promotion_goal_breakthrough() -> None:
    shot = BY_ID["american-breakthrough"]
    pos = Position.from_fen(shot.variant, shot.fen)
    after = pos.play(pos.parse_move("12-8"))
    assert set(texts(after, after.legal_moves())) == {"2x11", "3x10", "3x12"}
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("promote"))
    for reply in after.legal_moves():  # every capture opens the king row for one ply
        assert solver.forced(after.play(reply).state, 1)
    # no promotion within one ply, and the sacrifice is not a gain of material
    assert solve(pos, "promote", 1).solutions == []
    assert solve(pos, "gain:1", 3).solutions == []


def test_losing_game_is_won_by_running_out_of_pieces() -> None:
    shot = BY_ID["perde-ganha-giveaway"]
    pos = Position.from_fen(shot.variant, shot.fen)
    final = play_line(pos, shot.moves)[-1]
    assert final.white == 0 and final.turn == WHITE and final.winner() == WHITE
    # three plies are enough (the last capture is played out by quiescence), two are not
    assert solutions("perde-ganha", shot.fen, "win", 3) == ["b2-c3"]
    assert solutions("perde-ganha", shot.fen, "win", 2) == []
    # the same position in the normal game: giving the men away loses
    assert solutions("brazilian", shot.fen, "win", 4) == []


def test_turkish_king_keeps_its_crown_when_it_lands_where_it_captured() -> None:
    """Turkish removal is immediate (docs/spec.md §1.5), so a king may end its capture on the square of
    a piece it took earlier in the same move; it is still a king there.  The solver sees this: after
    the forced four-piece capture and any black reply, e7-e8 gives white a second king."""
    pos = Position.from_fen("turkish", "W:WKa1,e7:Ba3,b3,c5,d4,h6")
    (capture,) = pos.legal_moves()
    assert pos.move_text(capture, long=True) == "a1xa5xd5xd3xa3"
    assert capture.dest in capture.captured
    after = pos.play(capture)
    assert after.piece_at(capture.dest) == (WHITE, True)
    assert after.fen() == "B:WKa3,e7:Bh6"
    assert solutions("turkish", pos.fen(), "promote", 3) == ["a1xa5xd5xd3xa3"]


# -- 2. the precedence laws change the answer --------------------------------------------------------

PRECEDENCE_CASES = [
    # (law shown, variant, fen, its solutions, other law (variant, precedence), solutions there,
    #  first move, the capture the law forces, the escape the other law allows)
    pytest.param(
        "american",
        None,
        "W:W16,23,29:B4,6,12,14,22",
        [],
        ("american", "MOST_PIECES"),
        ["29-25"],
        "29-25",
        "12x19x26",
        "22x29",
        id="free-american",
    ),
    pytest.param(
        "russian",
        None,
        "W:Wg3,e5,f6:Bb4,b8,f4,h8",
        [],
        ("brazilian", None),
        ["f6-g7"],
        "f6-g7",
        "h8xf6xd4",
        "f4:d6",
        id="free-russian-vs-brazilian",
    ),
    pytest.param(
        "international",
        None,
        "W:W22,27,41:B32,37,38,39",
        ["22-17"],
        ("international", "FREE"),
        [],
        "22-17",
        "32x21x12",
        "37x46",
        id="most-pieces-international",
    ),
    pytest.param(
        "brazilian",
        None,
        "W:Wg3,e5,f6:Bb4,b8,f4,h8",
        ["f6-g7"],
        ("russian", None),
        [],
        "f6-g7",
        "h8xf6xd4",
        "f4:d6",
        id="most-pieces-brazilian-vs-russian",
    ),
    pytest.param(
        "turkish",
        None,
        "W:We7,f5,g7:Ba8,c6,d5,h7",
        ["f5-e5"],
        ("turkish", "FREE"),
        [],
        "f5-e5",
        "h7xf7xd7",
        "d5xf5",
        id="most-pieces-turkish",
    ),
    pytest.param(
        "portuguese",
        None,
        "W:W5,K22,K26:B25,K15,K19",
        ["26-29"],
        ("portuguese", "MOST_PIECES"),
        [],
        "26-29",
        "19x26",
        "19x1",
        id="most-kings-portuguese",
    ),
    pytest.param(
        "italian",
        None,
        "W:W22,32,K28:B5,15,K14",
        ["22-19"],
        ("italian", "MOST_PIECES_THEN_KINGS"),
        [],
        "22-19",
        "14x23",
        "15x22",
        id="italian-king-captures-first",
    ),
]


@pytest.mark.parametrize(
    ("variant", "precedence", "fen", "expected", "other", "other_expected", "first", "forced", "escape"),
    PRECEDENCE_CASES,
)
def test_precedence_law_changes_the_solution(
    variant, precedence, fen, expected, other, other_expected, first, forced, escape
) -> None:
    here = law(variant, precedence)
    there = law(*other)
    assert solutions(here, fen, "gain:1", 3) == expected
    assert solutions(there, fen, "gain:1", 3) == other_expected
    # the difference is the defender's choice after the first move: one law leaves only the capture
    # that walks into the shot, the other also allows the escape
    strict, free = (here, there) if expected else (there, here)
    after_strict, legal_strict = after_move(strict, fen, first)
    after_free, legal_free = after_move(free, fen, first)
    assert legal_strict == [after_strict.parse_move(forced)]
    assert after_free.parse_move(forced) in legal_free and after_free.parse_move(escape) in legal_free
    # the brute force agrees under both laws
    for v, sols in ((here, expected), (there, other_expected)):
        pos = Position.from_fen(v, fen)
        assert texts(pos, brute.solutions(pos, "gain:1", 3)) == sols


def test_precedence_names_match_the_variants() -> None:
    """The cases above cover each law as the variants define it (docs/spec.md §1.7)."""
    assert {v: get_variant(v).precedence.name for v in ("american", "russian")} == {
        "american": "FREE",
        "russian": "FREE",
    }
    for v in ("international", "brazilian", "turkish"):
        assert get_variant(v).precedence is Precedence.MOST_PIECES
    assert get_variant("portuguese").precedence is Precedence.MOST_PIECES_THEN_KINGS
    assert get_variant("italian").precedence is Precedence.ITALIAN


def test_capture_promotion_law_changes_the_solution() -> None:
    """Russian crowns mid-capture and goes on as a king; the Brazilian man stops on the last row."""
    fen = "W:Wg1,g3,g5:Bd6,g7,h2"
    assert solutions("russian", fen, "gain:1", 3) == ["g5-h6"]
    assert solutions("brazilian", fen, "gain:1", 3) == []
    after = Position.from_fen("russian", fen).play(Position.from_fen("russian", fen).parse_move("g5-h6"))
    after = after.play(after.parse_move("h2:f4"))
    assert set(texts(after, after.legal_moves())) == {"h6:f8:c5", "h6:f8:b4", "h6:f8:a3"}


# -- 3. solver internals -------------------------------------------------------------------------------


class NeverStores(dict):
    """A transposition table that forgets everything: every node is searched afresh."""

    def __setitem__(self, key, value) -> None:
        return None


class NoTableSolver(Solver):
    """The reference Python search (pure core: the compiled kernel keeps its own table) with a
    table that forgets."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs, core="pure")
        self.table = NeverStores()


def same_proof(a: Proof, b: Proof) -> None:
    assert a.solutions == b.solutions
    assert a.shortest == b.shortest
    assert a.refutations == b.refutations


TABLE_CASES = [(s.variant, s.fen, s.goal, s.depth) for s in SHOTS] + [
    ("american", "W:W16,23,29:B4,6,12,14,22", "gain:1", 5),
    ("international", "W:W22,27,41:B32,37,38,39", "gain:1", 5),
    ("italian", "W:W22,32,K28:B5,15,K14", "promote", 5),
    ("russian", "W:Wh2,e5,b6,Kc7:Bf2,a3,a7", "promote", 5),
    ("american", "W:W22,32:B8,11,18", "gain:1", 5),
]


@pytest.mark.parametrize(("variant", "fen", "goal", "depth"), TABLE_CASES)
def test_transposition_table_does_not_change_answers(variant, fen, goal, depth) -> None:
    pos = Position.from_fen(variant, fen)
    with_table = Solver(pos.variant).solve(pos, goal, depth)
    without = NoTableSolver(pos.variant).solve(pos, goal, depth)
    same_proof(with_table, without)
    assert without.nodes >= with_table.nodes


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.id)
def test_table_answers_every_depth_in_any_order(shot: Shot) -> None:
    """One entry per position serves every ply bound (forcing within n plies implies forcing within
    more): asking one solver the same positions deepest first, then shallowest first, must give
    what a table-free search gives at each bound."""
    pos = Position.from_fen(shot.variant, shot.fen)
    stip = Stipulation.parse(shot.goal)
    shared = Solver(pos.variant)
    shared.prepare(pos, stip)
    fresh = NoTableSolver(pos.variant)
    fresh.prepare(pos, stip)
    bounds = list(range(-2, shot.depth + 2))
    for move in pos.legal_moves():
        state = pos.play(move).state
        truth = [fresh.forced(state, d) for d in bounds]
        assert truth == sorted(truth), "forced() must be monotone in the ply bound"
        assert [shared.forced(state, d) for d in reversed(bounds)] == truth[::-1]
        assert [shared.forced(state, d) for d in bounds] == truth


def test_the_table_never_stores_in_the_reference_solver() -> None:
    solver = NoTableSolver(get_variant("american"))
    solver.solve(Position.from_fen("american", "W:W26,31,32:B1,17,19"), "gain:1", 5)
    assert len(solver.table) == 0


def test_solver_reused_across_goals_and_positions_answers_like_a_fresh_one() -> None:
    """The table key is (position, plies left) only; ``prepare`` must forget what another goal,
    attacker or root proved."""
    shared = Solver(get_variant("brazilian"))
    cases = [
        ("W:Wg3,e5,f6:Bb4,b8,f4,h8", "gain:1", 3),
        ("W:Wg3,e5,f6:Bb4,b8,f4,h8", "gain:2", 3),
        ("W:Wg3,e5,f6:Bb4,b8,f4,h8", "promote", 5),
        ("B:Wg3,e5,f6:Bb4,b8,f4,h8", "gain:1", 3),
        ("W:Wa3,b6,c5,d6:Ba7,d8", "win", 3),
        ("W:Wa3,b6,c5,d6:Ba7,d8", "gain:1", 3),
        ("W:Wg3,e5,f6:Bb4,b8,f4,h8", "gain:1", 3),
    ]
    for fen, goal, depth in cases:
        pos = Position.from_fen("brazilian", fen)
        same_proof(shared.solve(pos, goal, depth), Solver(pos.variant).solve(pos, goal, depth))


def test_material_is_not_counted_while_a_capture_is_pending() -> None:
    """22x15 wins a man, but 11x18 takes the capturer back at once: no gain, at any depth."""
    fen = "W:W22,32:B8,11,18"
    pos = Position.from_fen("american", fen)
    (capture,) = pos.legal_moves()
    after = pos.play(capture)
    assert brute.balance(after, WHITE) - brute.balance(pos, WHITE) == 1  # a piece up on the board...
    assert texts(after, after.legal_moves()) == ["11x18"]  # ...with the recapture compulsory
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("gain:1"))
    assert solver._achieved(after.state, pos.variant.generator.moves(*after.state)) is None
    assert not solver.forced(after.state, 0)
    for depth in (1, 2, 3, 5):
        assert solve(pos, "gain:1", depth).solutions == [], depth
    # without the recapturing man the same capture is a clean gain
    assert solutions("american", "W:W22,32:B8,18", "gain:1", 1) == ["22x15"]


def test_quiescence_follows_captures_for_at_most_its_bound() -> None:
    pos = Position.from_fen("american", "W:W22,32:B8,18")  # white to move and 22x15 wins a man
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("gain:1"))
    assert solver.forced(pos.state, 0)
    assert solver.forced(pos.state, -(QUIESCENCE_PLIES - 1))
    assert not solver.forced(pos.state, -QUIESCENCE_PLIES)
    # a quiet position past the bound is never searched on
    quiet = Position.from_fen("american", "W:W32:B8").state
    solver.prepare(Position.from_fen("american", "W:W32:B8"), Stipulation.parse("gain:1"))
    assert not solver.forced(quiet, 0)


def test_zobrist_keys() -> None:
    start = Position.start("brazilian")
    a = play_line(start, ["c3-d4", "f6-g5", "g3-h4", "b6-a5"])[-1]
    b = play_line(start, ["g3-h4", "b6-a5", "c3-d4", "f6-g5"])[-1]
    assert a == b and a is not b
    assert zobrist(a) == zobrist(b) == zobrist(Position.from_fen("brazilian", a.fen()))
    # side to move
    white_to_move = Position.from_fen("american", "W:W26,31,32:B1,17,19")
    black_to_move = Position.from_fen("american", "B:W26,31,32:B1,17,19")
    assert zobrist(white_to_move) != zobrist(black_to_move)
    # man or king, white or black, where
    assert zobrist(Position.from_fen("american", "W:W26:B1")) != zobrist(Position.from_fen("american", "W:WK26:B1"))
    assert zobrist(Position.from_fen("american", "W:W26:B5")) != zobrist(Position.from_fen("american", "W:W5:B26"))
    assert zobrist(Position.from_fen("american", "W:W26:B1")) != zobrist(Position.from_fen("american", "W:W27:B1"))
    # 64-bit, and the solver keys its table with the same function
    assert 0 <= zobrist(a) < 2**64
    assert Solver(a.variant)._z.hash(*a.state) == zobrist(a)
    big = Position.start("international")
    assert zobrist(big) == zobrist(Position.from_fen("international", big.fen()))


@given(small_positions([*EIGHT_BY_EIGHT, "international", "antidraughts"]))
def test_incremental_zobrist_key_matches_the_full_hash(pos: Position) -> None:
    """The solver updates the key move by move (a few XORs); it must equal the hash of the
    position the move leads to, for quiet moves, captures, promotions and kings alike."""
    z = Solver(pos.variant)._z
    h = zobrist(pos)
    for move in pos.legal_moves():
        note(pos.move_text(move, long=True))
        assert z.after(h, pos.state, move) == zobrist(pos.play(move))


def test_solve_json_output() -> None:
    cmd = [sys.executable, "-m", "generator.cli", "solve", "american", "W:W26,31,32:B1,17,19"]
    cmd += ["--goal", "gain:1", "--depth", "3", "--json"]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert set(payload) == {"variant", "fen", "goal", "depth", "solutions", "nodes", "seconds", "search_version"}
    assert payload["variant"] == "american"
    assert payload["fen"] == "W:W26,31,32:B1,17,19"
    assert payload["goal"] == "gain:1" and payload["depth"] == 3
    assert payload["solutions"] == [{"move": "26-23", "plies": 3, "line": ["26-23", "19x26", "31x22x13"]}]
    assert isinstance(payload["nodes"], int) and payload["nodes"] > 0
    assert isinstance(payload["seconds"], float | int) and payload["seconds"] >= 0
    assert payload["search_version"] == SEARCH_VERSION


def test_solve_text_output_and_errors(capsys) -> None:
    from generator.cli import EXIT_USAGE, main

    assert main(["solve", "american", "W:W22,32:B8,11,18", "--goal", "gain:1", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "no move forces gain:1 within 2 plies"
    assert main(["solve", "russian", "W:Wg1,g3,g5:Bd6,g7,h2", "--goal", "gain:1", "--depth", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert re.fullmatch(r"g5-h6: forces gain:1; main line \(3 plies\): g5-h6 h2:f4 h6:f8:(c5|b4|a3)", out[0])
    assert main(["solve", "american", "W:W26,31,32:B1,17,19", "--goal", "gain:0"]) == EXIT_USAGE
    assert "goal 'gain:0': 0 is out of range: give a whole number from 1 to 99" in capsys.readouterr().err


def test_stipulation_parsing() -> None:
    assert Stipulation.parse(" Gain:3 ") == Stipulation("gain", 3)
    assert str(Stipulation.parse("gain:2")) == "gain:2"
    for good in ("win", "promote", "draw"):
        assert str(Stipulation.parse(good)) == good
    for bad in ("gain", "mate", ""):
        with pytest.raises(ValueError, match="unknown goal"):
            Stipulation.parse(bad)
    for bad in ("gain:0", "gain:-1", "gain:x", "gain:100", "gain:٣"):
        with pytest.raises(ValueError, match=r"goal 'gain:.*' is not a whole number|is out of range"):
            Stipulation.parse(bad)


def test_draw_goal_uses_the_game_history() -> None:
    """A draw is forced when the repetition or move-count rules end the game; ``solve`` is given the
    game so the counters carry over (here the American 40-move rule, one ply short)."""
    game = Game("american", "W:WK10:BK19:H79")
    proof = Solver(game.position.variant, game.profile).solve(game.position, "draw", 1, game)
    assert texts(game.position, proof.solutions) == texts(game.position, game.position.legal_moves())


# -- 4. property: the solver against the brute force ------------------------------------------------


@given(small_positions(), st.integers(min_value=1, max_value=3))
def test_solver_matches_brute_force_minimax(pos: Position, depth: int) -> None:
    note(f"{pos.variant.name} {pos.fen()} depth {depth}")
    proof = solve(pos, "gain:1", depth)
    assert proof.solutions == brute.solutions(pos, "gain:1", depth)
    for m in proof.solutions:
        assert proof.shortest[m] == brute.shortest(pos, m, "gain:1", depth)


@given(small_positions(), st.sampled_from(["gain:2", "promote", "win"]), st.integers(min_value=1, max_value=3))
def test_solver_matches_brute_force_on_other_goals(pos: Position, goal: str, depth: int) -> None:
    note(f"{pos.variant.name} {pos.fen()} {goal} depth {depth}")
    assert solve(pos, goal, depth).solutions == brute.solutions(pos, goal, depth)


@given(small_positions(), st.sampled_from(["gain:1", "promote", "win"]), st.integers(min_value=1, max_value=4))
def test_table_free_solver_agrees_on_random_positions(pos: Position, goal: str, depth: int) -> None:
    note(f"{pos.variant.name} {pos.fen()} {goal} depth {depth}")
    same_proof(Solver(pos.variant).solve(pos, goal, depth), NoTableSolver(pos.variant).solve(pos, goal, depth))
