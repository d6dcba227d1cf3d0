"""``prove_puzzle`` (generator/puzzles/proof.py): the one verdict ``damas check`` and the miner share.

Each status is reached by a real puzzle (sound, cooked with the other key's forcing line, wrong with
the defence that refutes the key, undecided within a tiny budget, not a puzzle); the tree of every
defence is checked against the plain minimax of tests/search/brute.py; the result survives its JSON
form unchanged, and a stored move that is not legal makes the stored form unusable.
"""

from __future__ import annotations

import json

import pytest

from generator.puzzles.play import result_play
from generator.puzzles.proof import prove_puzzle
from generator.puzzles.result import PuzzleResult, Status
from generator.puzzles.search import Budget
from generator.puzzles.tree import Node
from generator.rules import Move, Position
from tests.search import brute
from tests.search.catalog import BY_ID, CATALOGUE_MARGIN, SHOTS, Shot


def start_and_line(shot: Shot) -> tuple[Position, list[Move]]:
    pos = Position.from_fen(shot.variant, shot.fen)
    line = []
    here = pos
    for text in shot.moves:
        m = here.parse_move(text)
        line.append(m)
        here = here.play(m)
    return pos, line


SOUND = [s for s in SHOTS if s.id != "brazilian-king-loop"]


@pytest.mark.parametrize("shot", SOUND, ids=lambda s: s.id)
def test_catalogue_lines_are_sound(shot: Shot) -> None:
    pos, line = start_and_line(shot)
    r = prove_puzzle(pos, shot.goal, line, margin=CATALOGUE_MARGIN)
    assert r.status is Status.SOUND and r.sound, r.problems
    assert r.problems == [] and r.cooks == [] and r.refutation is None
    assert r.moves == line and r.nodes > 0 and 1 <= r.difficulty <= 5


def _check_tree(node: Node, pos: Position, target: brute.Target, plies: int, printed: list[str]) -> int:
    """Walk the tree below the attacker move ``node`` (played in ``pos``): every defence is there,
    each answer forces the goal in the plies left (by plain minimax), and on the printed line the
    answers are the printed ones.  Returns the number of defences seen."""
    after = pos.play(pos.parse_move(node.move))
    if not node.replies:
        return 0
    defences = after.legal_moves()
    assert sorted(r.move for r in node.replies) == sorted(after.move_text(m, long=True) for m in defences)
    seen = len(node.replies)
    for reply in node.replies:
        there = after.play(after.parse_move(reply.move))
        on_line = printed[1:2] == [reply.move]
        if not reply.replies:  # the goal is decided there, or the bound is used up
            assert brute.forces(there, target, plies - 2)
            continue
        (answer,) = reply.replies
        if on_line and len(printed) > 2:
            assert answer.move == printed[2]
        assert brute.forces(there.play(there.parse_move(answer.move)), target, plies - 3)
        seen += _check_tree(answer, there, target, plies - 2, printed[2:] if on_line else [])
    return seen


@pytest.mark.parametrize("shot", [BY_ID["american-golpe"], BY_ID["american-breakthrough"], BY_ID["brazilian-block"]])
def test_the_tree_holds_every_defence_with_a_forcing_answer(shot: Shot) -> None:
    pos, line = start_and_line(shot)
    r = prove_puzzle(pos, shot.goal, line, margin=CATALOGUE_MARGIN)
    assert r.tree is not None and not r.tree.truncated
    (key,) = r.tree.solutions
    assert key.move == pos.move_text(line[0], long=True)
    printed = [key.move, *(n for n in _texts(pos, line)[1:])]
    seen = _check_tree(key, pos, brute.Target.at(pos, shot.goal), len(line), printed)
    assert seen >= len(pos.play(line[0]).legal_moves())


def _texts(pos: Position, line: list[Move]) -> list[str]:
    out = []
    for m in line:
        out.append(pos.move_text(m, long=True))
        pos = pos.play(m)
    return out


def test_a_cook_is_named_with_its_forcing_line() -> None:
    pos, line = start_and_line(BY_ID["american-breakthrough"])
    r = prove_puzzle(pos, "promote", line)  # the default margin of 4: 26-23 crowns in 7 plies
    assert r.status is Status.COOKED and not r.sound
    [(other, forcing)] = r.cooks
    assert pos.move_text(other, long=True) == "26-23" and forcing[0] == other and len(forcing) == 7
    end = pos
    for m in forcing:
        end = end.play(m)
    assert (end.pieces(pos.turn) & end.kings).bit_count() > (pos.pieces(pos.turn) & pos.kings).bit_count()
    [problem] = r.problems
    assert problem.ply == 0 and problem.message.startswith("cooked: 26-23 (26-23 ")
    assert r.tree is None and r.themes == []


def test_a_second_solution_is_a_cook_with_its_line() -> None:
    # American (tests/search/test_puzzle_check.py, TWO_CROWNS): 5-1 or 8-3 crowns and wins a piece
    pos = Position.from_fen("american", "W:W5,8,15,16,20:B6,7,12,21")
    line = _play(pos, ["5-1", "12x19", "1x10x3"])
    r = prove_puzzle(pos, "gain:1", line, margin=0)
    assert r.status is Status.COOKED
    [problem] = r.problems
    assert problem.ply == 0 and problem.message == "second solution: 8-3 also wins 1 piece"
    [(other, forcing)] = r.cooks
    assert pos.move_text(other) == "8-3" and forcing[0] == other
    assert [pos.move_text(m) for m in brute.solutions(pos, "gain:1", 3)] == ["5-1", "8-3"]
    target = brute.Target.at(pos, "gain:1")
    assert brute.forces(pos.play(other), target, 2)


def _play(pos: Position, texts: list[str]) -> list[Move]:
    out = []
    for t in texts:
        m = pos.parse_move(t)
        out.append(m)
        pos = pos.play(m)
    return out


def test_a_wrong_key_carries_the_defence_that_refutes_it() -> None:
    # Russian: after f6-g7 black need not take two; f4:d6 escapes (see test_cook_check)
    pos = Position.from_fen("russian", "W:Wg3,e5,f6:Bb4,b8,f4,h8")
    line = _play(pos, ["f6-g7", "h8xf6xd4", "g3xe5xc3xa5"])
    r = prove_puzzle(pos, "gain:1", line)
    assert r.status is Status.WRONG
    [problem] = r.problems
    assert problem.ply == 0 and problem.message.startswith("f6-g7 does not force a gain of 1 piece")
    assert r.refutation is not None and r.refutation.ply == 0 and r.refutation.line[0] == line[0]
    after = pos.play(line[0])
    escape = r.refutation.line[1]
    assert not brute.forces(after.play(escape), brute.Target.at(pos, "gain:1"), len(line) - 2)


def test_a_line_that_misses_the_goal_is_wrong_at_the_stipulation() -> None:
    pos, line = start_and_line(BY_ID["american-golpe"])
    r = prove_puzzle(pos, "win", line)
    assert r.status is Status.WRONG and r.nodes == 0
    [problem] = r.problems
    assert problem.about == "stipulation" and problem.ply is None
    assert problem.message.startswith("claimed white wins, but after the solution the game is")


def test_the_budget_makes_it_undecided() -> None:
    pos, line = start_and_line(BY_ID["international-two-for-one"])
    r = prove_puzzle(pos, BY_ID["international-two-for-one"].goal, line, margin=8, budget=Budget(nodes=50))
    assert r.status is Status.UNDECIDED
    assert r.problems[-1].message.startswith("could not prove within the budget (50 nodes)")
    assert r.problems[-1].ply is None and r.problems[-1].about is None


def test_a_line_that_gives_nothing_up_is_not_a_puzzle() -> None:
    shot = BY_ID["brazilian-king-loop"]
    pos, line = start_and_line(shot)
    r = prove_puzzle(pos, shot.goal, line, margin=CATALOGUE_MARGIN)
    assert r.status is Status.NOT_A_PUZZLE
    assert r.problems[0].message.startswith("not a puzzle: the line gives nothing up")


@pytest.mark.parametrize("shot", [BY_ID["american-golpe"], BY_ID["american-breakthrough"]], ids=lambda s: s.id)
@pytest.mark.parametrize("margin", [None, 0])
def test_the_result_survives_its_json_form(shot: Shot, margin: int | None) -> None:
    pos, line = start_and_line(shot)
    r = prove_puzzle(pos, shot.goal, line, margin=margin)
    data = json.loads(json.dumps(r.to_json()))
    assert PuzzleResult.from_json(data, pos) == r


def test_a_stored_illegal_move_makes_the_result_unusable() -> None:
    pos, line = start_and_line(BY_ID["american-golpe"])
    data = prove_puzzle(pos, "gain:1", line).to_json()
    assert data["tree"] is not None
    data["tree"]["solutions"][0]["replies"][0]["move"] = "1-5"
    with pytest.raises(ValueError):
        PuzzleResult.from_json(data, pos)


@pytest.mark.parametrize("shot", [BY_ID["american-golpe"], BY_ID["american-breakthrough"]], ids=lambda s: s.id)
def test_the_play_tree_travels_with_the_result(shot: Shot) -> None:
    """The page's tree (generator/puzzles/play.py) is computed from the proof's own lines, stored in
    the result's JSON and read back equal: the renderer needs no solver."""
    pos, line = start_and_line(shot)
    r = prove_puzzle(pos, shot.goal, line, margin=CATALOGUE_MARGIN)
    assert r.sound and r.play is None, "prove_puzzle alone leaves it out (the miner does not need it)"
    r.play = result_play(r, shot.goal)
    assert list(r.play.children) == [line[0]], "the key is the root's only proven move"
    assert line[0] in r.play.wins
    assert r.play.refutations, "the student's failing first moves are refuted"
    data = json.loads(json.dumps(r.to_json()))
    assert data["play"]["plies"] == r.play.plies
    back = PuzzleResult.from_json(data, pos)
    assert back == r
    assert back.play is not None and back.play.size() == r.play.size()


def test_a_stored_illegal_move_in_the_play_tree_makes_the_result_unusable() -> None:
    pos, line = start_and_line(BY_ID["american-golpe"])
    r = prove_puzzle(pos, "gain:1", line)
    r.play = result_play(r, "gain:1")
    data = json.loads(json.dumps(r.to_json()))
    data["play"]["root"]["children"][0][0] = "1-5"
    with pytest.raises(ValueError):
        PuzzleResult.from_json(data, pos)
