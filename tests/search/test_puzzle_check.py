"""Puzzle verification in ``damas check`` (generator/lessons/verify.py, ``Verifier.puzzle`` and
``uniqueness``): the stated solution must meet the stipulation against every defence; its first
move, and every later solver move but the last, must be the only one that does within the
solution's length; the final move may share the finish with others; equivalent capture routes are
one move.
"""

from __future__ import annotations

import re

import pytest

from generator.lessons.check import check_text
from generator.rules import Position
from tests.search import brute
from tests.search.catalog import BY_ID, SHOTS, Shot, Step, lesson_text, shot_lesson

PATH = "puzzle.yaml"


def check(variant: str, fen: str, stip: str, steps: list[Step | str], margin: int | None = None):
    line = tuple(s if isinstance(s, Step) else Step(s) for s in steps)
    text = lesson_text(variant, [("p1", fen, stip, line)], margin=margin)
    checked, errors = check_text(text, PATH)
    return text, checked, errors


def where(text: str, item: str) -> tuple[int, int]:
    """(line, column) of the solution item that starts with ``- 'item'``, 1-based, at the quote."""
    for n, row in enumerate(text.splitlines(), start=1):
        if row.strip().startswith(f"- '{item}'") or row.strip().startswith(f"- {{move: '{item}'"):
            return n, row.index("-") + 3
    raise AssertionError(f"{item} not in the lesson")


def proof_of(checked):
    assert checked is not None
    assert len(checked.puzzle_proofs) <= 1
    return next(iter(checked.puzzle_proofs.values()), None)


# -- every known combination verifies ----------------------------------------------------------------


NOT_A_PUZZLE = {
    # the only legal move is the capture of four: the side to move simply wins them
    "brazilian-king-loop": "not a puzzle: the line gives nothing up, the side to move simply wins the material "
    "anyway; show a combination (a sacrifice) or use the 'win' stipulation for a quiet win",
}


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.id)
def test_catalogue_puzzle_verifies(shot: Shot) -> None:
    checked, errors = check_text(shot_lesson(shot), f"{shot.id}.yaml")
    if shot.id in NOT_A_PUZZLE:
        assert [e.message for e in errors] == [NOT_A_PUZZLE[shot.id]]
        return
    assert [str(e) for e in errors] == []
    proof = proof_of(checked)
    assert proof is not None
    pos = Position.from_fen(shot.variant, shot.fen)
    expected = []
    for t in shot.moves:
        expected.append(pos.parse_move(t))
        pos = pos.play(expected[-1])
    assert proof.moves == expected
    assert proof.nodes > 0 and proof.seconds >= 0
    assert 1 <= proof.difficulty <= 5


def test_majority_traps_are_tagged() -> None:
    for ident in ("brazilian-majority-trap", "international-majority-trap", "turkish-majority-trap"):
        checked, errors = check_text(shot_lesson(BY_ID[ident]), "t.yaml")
        assert not errors
        assert "lei da maioria" in proof_of(checked).themes, ident


# -- a second solution is rejected, naming the other move --------------------------------------------

TWO_CROWNS = "W:W5,8,15,16,20:B6,7,12,21"
"""American: 5-1 or 8-3 crowns; black must take 12x19 (h6 over g5, already en prise); the new king
then takes c7 and e7 in either direction, 1x10x3 or 3x10x1: both first moves win a piece."""


@pytest.mark.parametrize(
    ("line", "other"),
    [(["5-1", "12x19", "1x10x3"], "8-3"), (["8-3", "12x19", "3x10x1"], "5-1")],
)
def test_second_solution_is_rejected(line: list[str], other: str) -> None:
    pos = Position.from_fen("american", TWO_CROWNS)
    assert [pos.move_text(m) for m in brute.solutions(pos, "gain:1", 3)] == ["5-1", "8-3"]
    text, checked, errors = check("american", TWO_CROWNS, "gain:1", line)
    row, col = where(text, line[0])
    assert [str(e) for e in errors] == [f"{PATH}:{row}:{col}: second solution: {other} also wins 1 piece"]
    assert proof_of(checked) is None  # no proof is recorded for the books


def test_second_solution_at_a_later_solver_move() -> None:
    """Russian: after e5-f6 a7:c5 (forced), the man on f6 crowns by g7 or by e7: the third move of
    the line is not the only one, and it is not the last solver move."""
    fen = "W:Wh2,e5,b6,Kc7:Bf2,a3,a7"
    tail = Step("c5-d4", ("a3-b2", "c5-b4", "f2-e1", "f2-g1"))
    # (margin 0: c7-b8 and c7-d8 also crown, within 9 plies: a cook the test is not about)
    text, checked, errors = check("russian", fen, "promote", ["e5-f6", "a7:c5", "f6-g7", tail, "g7-h8"], margin=0)
    row, col = where(text, "f6-g7")
    assert [str(e) for e in errors] == [f"{PATH}:{row}:{col}: second solution: f6-e7 also promotes"]
    assert proof_of(checked) is None


# -- a defence that escapes is rejected, with the escape -----------------------------------------------

MAJORITY_TRAP = "W:Wg3,e5,f6:Bb4,b8,f4,h8"
ESCAPE_MESSAGE = re.compile(
    r"^f6-g7 does not force a gain of 1 piece(?: within 3 plies)?: "
    r"the defence(?: after (?P<after>[^:]+))? escapes with (?P<escape>\S+)$"
)


def test_defence_that_escapes_is_rejected_with_the_refutation() -> None:
    """In Russian the capture is free: after f6-g7 black need not take two with h8:f6:d4 (which
    loses three), he takes one with f4:d6 (or f4:h2) and the shot is gone."""
    line = ["f6-g7", Step("h8xf6xd4", ("f4xd6", "f4xh2")), "g3xe5xc3xa5"]
    text, checked, errors = check("russian", MAJORITY_TRAP, "gain:1", line)
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    assert (error.path, error.line, error.col) == (PATH, *where(text, "f6-g7"))
    found = ESCAPE_MESSAGE.match(error.message)
    assert found, error.message
    assert found["after"] in (None, "f6-g7")  # the escape is the very first reply
    # the named escape really holds (the independent minimax), and it is the free-choice capture
    pos = Position.from_fen("russian", MAJORITY_TRAP)
    after = pos.play(pos.parse_move("f6-g7"))
    target = brute.Target.at(pos, "gain:1")
    holding = {after.move_text(r, long=True) for r in after.legal_moves() if not brute.forces(after.play(r), target, 1)}
    assert found["escape"] in holding
    assert found["escape"] == "f4:d6"
    assert "h8:f6:d4" not in holding
    assert proof_of(checked) is None


def test_the_same_puzzle_verifies_under_the_majority_law() -> None:
    _, checked, errors = check("brazilian", MAJORITY_TRAP, "gain:1", ["f6-g7", "h8xf6xd4", "g3xe5xc3xa5"])
    assert [str(e) for e in errors] == []
    assert proof_of(checked) is not None


def test_listing_the_escape_does_not_make_it_a_solution() -> None:
    """Listing every other reply under ``others`` only documents them: each is still proved."""
    line = ["f6-g7", Step("h8xf6xd4", ("f4xd6",)), "g3xe5xc3xa5"]
    _, _, errors = check("russian", MAJORITY_TRAP, "gain:1", line)
    messages = [e.message for e in errors]
    assert "'others' leaves out f4:h2" in messages
    assert any(ESCAPE_MESSAGE.match(m) for m in messages)


# -- the final move may be made several ways --------------------------------------------------------------


@pytest.mark.parametrize("final", ["h6:f8:c5", "h6:f8:b4", "h6:f8:a3"])
def test_final_move_with_several_finishes_is_accepted(final: str) -> None:
    """Russian: after g5-h6 h2:f4 the crowned man takes d6 and may land on c5, b4 or a3; any of the
    three finishes the combination, and none is a 'second solution'."""
    shot = BY_ID["russian-crown-and-go-on"]
    pos = Position.from_fen(shot.variant, shot.fen)
    before_last = pos.play(pos.parse_move("g5-h6"))
    before_last = before_last.play(before_last.parse_move("h2:f4"))
    target = brute.Target.at(pos, "gain:1")
    finishes = {before_last.move_text(m, long=True) for m in before_last.legal_moves()}
    assert finishes == {"h6:f8:c5", "h6:f8:b4", "h6:f8:a3"}
    assert all(brute.forces(before_last.play(m), target, 0) for m in before_last.legal_moves())
    _, checked, errors = check(shot.variant, shot.fen, shot.goal, ["g5-h6", "h2:f4", final])
    assert [str(e) for e in errors] == []
    assert proof_of(checked) is not None


@pytest.mark.parametrize("final", ["29x22x12", "29x12", "29x8"])
def test_final_king_capture_with_two_landing_squares(final: str) -> None:
    """Portuguese: the king on 29 takes 26 and 15 and may stop on 12 or on 8."""
    shot = BY_ID["portuguese-quality"]
    _, checked, errors = check(shot.variant, shot.fen, shot.goal, ["26-29", "19x26", final])
    assert [str(e) for e in errors] == []
    assert proof_of(checked) is not None


# -- equivalent capture routes are one move -------------------------------------------------------------


@pytest.mark.parametrize("route", ["c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"])
def test_equivalent_capture_route_keeps_the_puzzle_unique(route: str) -> None:
    """Brazilian: the king on c3 takes b4, b6, d6 and d4 around c5, clockwise or anticlockwise, and
    comes back to c3.  Same origin, destination and captured set: one move (docs/spec.md §1.8), so the
    other route is not a second solution, whichever of the two the author writes."""
    shot = BY_ID["brazilian-king-loop"]
    pos = Position.from_fen(shot.variant, shot.fen)
    routes = pos.variant.generator.moves(*pos.state, merge=False)
    assert len(routes) == 2 and routes[0] == routes[1] and routes[0].path != routes[1].path
    assert {pos.move_text(m, long=True) for m in routes} == {"c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"}
    (move,) = pos.legal_moves()
    assert pos.parse_move(route) == move
    _, _, errors = check(shot.variant, shot.fen, shot.goal, [route, "g5xe3", "d2xf4"])
    # no "second solution": the key is accepted; a plain capture is no combination, though
    assert [e.message for e in errors] == [NOT_A_PUZZLE[shot.id]]


# -- the line itself ------------------------------------------------------------------------------------


def test_unforced_reply_must_list_the_others() -> None:
    shot = BY_ID["american-breakthrough"]
    text, _, errors = check(shot.variant, shot.fen, shot.goal, ["12-8", "3x12", "7-3"], margin=0)
    row, col = where(text, "3x12")
    assert [str(e) for e in errors] == [
        f"{PATH}:{row}:{col}: defender move 3x12 is not forced: 2x11 3x10 are also legal; "
        "list them under 'others' or change the line"
    ]


def test_gain_is_counted_only_when_the_captures_are_over() -> None:
    _, _, errors = check("american", "W:W26,31,32:B1,17,19", "gain:1", ["26-23", "19x26"])
    assert [e.message for e in errors] == ["the solution stops while a capture is still to be made; play it out"]


def test_claimed_gain_must_match_the_line() -> None:
    _, _, errors = check("american", "W:W26,31,32:B1,17,19", "gain:2", ["26-23", "19x26", "31x22x13"])
    assert [e.message for e in errors] == ["claimed white wins 2 piece(s), but the solution nets 1"]
