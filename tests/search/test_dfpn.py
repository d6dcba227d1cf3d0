"""The df-pn solver (generator/puzzles/dfpn.py) answers exactly the question of the reference
search (generator/puzzles/search.py) and of the brute-force minimax (tests/search/brute.py): the
same solutions, the same shortest lengths, on the catalogue and on random small positions of every
variant."""

from __future__ import annotations

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.search import Budget, BudgetExceeded, Solver, Stipulation
from generator.rules import Position
from tests.search import brute
from tests.search.catalog import SHOTS, Shot
from tests.search.test_solver import EIGHT_BY_EIGHT, small_positions, texts

EVERY_VARIANT = [*EIGHT_BY_EIGHT, "international", "antidraughts"]


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.id)
def test_catalogue_solutions_and_lengths_match_the_reference(shot: Shot) -> None:
    pos = Position.from_fen(shot.variant, shot.fen)
    new = DfpnSolver(pos.variant).solve(pos, shot.goal, shot.depth)
    old = Solver(pos.variant).solve(pos, shot.goal, shot.depth)
    assert texts(pos, new.solutions) == list(shot.solutions)
    assert new.shortest == old.shortest
    assert set(new.refutations) == set(pos.legal_moves()) - set(new.solutions)


def _compare(pos: Position, goal: str, depth: int) -> None:
    note(pos.fen())
    new = DfpnSolver(pos.variant).solve(pos, goal, depth)
    old = Solver(pos.variant).solve(pos, goal, depth)
    expected = brute.solutions(pos, goal, depth)
    assert new.solutions == expected
    assert new.solutions == old.solutions
    assert new.shortest == old.shortest
    for m in new.solutions:
        assert new.shortest[m] == brute.shortest(pos, m, goal, depth)


@settings(max_examples=150, deadline=None)
@given(small_positions(EVERY_VARIANT), st.sampled_from(["win", "gain:1", "gain:2", "promote"]), st.integers(1, 4))
def test_dfpn_matches_brute_force_and_the_reference(pos: Position, goal: str, depth: int) -> None:
    _compare(pos, goal, depth)


@settings(max_examples=25, deadline=None)
@given(small_positions(EIGHT_BY_EIGHT), st.sampled_from(["win", "gain:1", "promote"]), st.integers(5, 6))
def test_dfpn_matches_brute_force_deeper(pos: Position, goal: str, depth: int) -> None:
    _compare(pos, goal, depth)


@pytest.mark.parametrize("shot", SHOTS, ids=lambda s: s.id)
def test_one_solver_answers_every_depth_in_any_order(shot: Shot) -> None:
    """Proofs and disproofs are shared between depths (a proof at d holds at d' >= d, a disproof at
    d at d' <= d): asking deep first, then shallow, gives the fresh answers."""
    pos = Position.from_fen(shot.variant, shot.fen)
    shared = DfpnSolver(pos.variant)
    shared.prepare(pos, Stipulation.parse(shot.goal))
    for d in (shot.depth + 2, 1, shot.depth, 2, shot.depth + 1):
        fresh = DfpnSolver(pos.variant)
        fresh.prepare(pos, shared.stip)
        for m in pos.legal_moves():
            state = pos.variant.generator.apply(*pos.state, m)
            assert shared.forced(state, d - 1) == fresh.forced(state, d - 1), (d, m)


def test_budget_ends_the_search_with_budget_exceeded() -> None:
    pos = Position.from_fen("international", "start")
    solver = DfpnSolver(pos.variant, budget=Budget(nodes=3000))
    with pytest.raises(BudgetExceeded) as info:
        solver.solve(pos, "gain:1", 20)
    assert info.value.nodes >= 3000
    assert "3000 nodes" in str(info.value)
