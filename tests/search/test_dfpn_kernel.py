"""The compiled df-pn (``_core.Dfpn``) against the Python df-pn it transcribes.

The default leaf bound (7 plies go to the depth-first search) means shallow random positions never
reach the proof-number code itself, so these tests lower ``leaf_plies`` to make every level above
the leaves a df-pn node, and shrink the expanded-node table to make its eviction happen.  Both
searches must then agree on everything, node counts and proof counts included: the C search makes
the same decisions in the same order.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from generator.puzzles import dfpn
from generator.puzzles.dfpn import CompiledTables, DfpnSolver, PythonTables
from generator.puzzles.kernel import COMPILED_AVAILABLE, WHY_PURE
from generator.puzzles.memory import Caps, caps
from generator.puzzles.search import Budget, BudgetExceeded
from generator.rules import Position
from tests.search.catalog import SHOTS, Shot
from tests.search.test_compiled_solver import EVERY_VARIANT, same
from tests.search.test_solver import small_positions

pytestmark = pytest.mark.skipif(
    not COMPILED_AVAILABLE and not os.environ.get("DAMAS_REQUIRE_CORE"),
    reason=f"the compiled search kernel is not active: {WHY_PURE}",
)


def pair(pos: Position, leaf: int, budget: Budget | None = None) -> tuple[DfpnSolver, DfpnSolver]:
    fast = DfpnSolver(pos.variant, budget=budget, core="compiled")
    slow = DfpnSolver(pos.variant, budget=budget, core="pure")
    assert isinstance(fast.tables, CompiledTables) and isinstance(slow.tables, PythonTables)
    fast.leaf_plies = slow.leaf_plies = leaf
    return fast, slow


def agree(pos: Position, goal: str, depth: int, leaf: int) -> None:
    fast, slow = pair(pos, leaf)
    a, b = fast.solve(pos, goal, depth), slow.solve(pos, goal, depth)
    where = f"{pos.fen()} {goal} depth {depth} leaf {leaf}"
    same(a, b, where)
    assert (fast.proved_count, fast.disproved_count) == (slow.proved_count, slow.disproved_count), where
    for m in a.solutions:  # the tables agree on what they proved, move by move
        child = pos.play(m)
        assert fast.proven_within(child.state) == slow.proven_within(child.state), where


@settings(max_examples=40, deadline=None)
@given(
    small_positions(EVERY_VARIANT),
    st.sampled_from(["win", "gain:1", "gain:2", "promote"]),
    st.integers(2, 5),
    st.integers(0, 2),
)
def test_compiled_and_python_dfpn_agree_on_random_positions(pos, goal, depth, leaf) -> None:
    note(pos.fen())
    agree(pos, goal, depth, leaf)


@pytest.mark.parametrize("shot", [s for s in SHOTS if s.goal != "draw"], ids=lambda s: s.id)
def test_compiled_and_python_dfpn_agree_on_the_catalogue(shot: Shot) -> None:
    pos = Position.from_fen(shot.variant, shot.fen)
    agree(pos, shot.goal, shot.depth + 2, leaf=3)


def test_evicting_expanded_nodes_mid_search_changes_nothing() -> None:
    """Past the expanded-node bound (7 nodes and children) both searches drop every kept node,
    including those of the frames still searching (the C search frees those when the frame ends)."""
    shot = max((s for s in SHOTS if s.goal != "draw"), key=lambda s: s.depth)
    pos = Position.from_fen(shot.variant, shot.fen)
    big = caps()
    tiny = Caps(big.prover, big.proofs, big.work, 7, big.engine)
    fast = DfpnSolver(pos.variant, core="compiled", caps=tiny)
    slow = DfpnSolver(pos.variant, core="pure", caps=tiny)
    fast.leaf_plies = slow.leaf_plies = 1
    a, b = fast.solve(pos, shot.goal, shot.depth + 4), slow.solve(pos, shot.goal, shot.depth + 4)
    same(a, b, shot.id)
    assert isinstance(fast.tables, CompiledTables) and fast.tables.dfpn.expanded_count <= 7
    assert a.solutions, shot.id


SEEING_IS_BELIEVING = "W:W30,29,22,21,9,6:B24,20,16,13,8,7"
"""A 13-ply American stroke of bench/data/deep-problems.yaml: only 22-17 wins."""


def test_a_budget_stops_both_at_the_same_node_and_the_kernel_stays_usable() -> None:
    pos = Position.from_fen("american", SEEING_IS_BELIEVING)
    counts = []
    for solver in pair(pos, leaf=dfpn.LEAF_PLIES, budget=Budget(nodes=20_000)):
        with pytest.raises(BudgetExceeded):
            solver.solve(pos, "win", 13)
        counts.append(solver.nodes)
    assert counts[0] == counts[1]
    fresh = DfpnSolver(pos.variant, core="compiled")
    proof = fresh.solve(pos, "win", 13)
    assert [pos.move_text(m) for m in proof.solutions] == ["22-17"]
