"""The puzzle searches on the compiled kernels answer exactly what the pure-Python reference answers.

With the compiled kernels, ``Solver.forced`` runs in ``_search.Prover`` (generator/puzzles/_search.pyx,
on the rules kernel generator/rules/_core.pyx) and df-pn in ``_search.Dfpn``; with ``core="pure"``
(what ``DAMAS_PURE=1`` gives everywhere) the Python code runs on the pure generator.  Both must give
the same solutions, shortest lengths, refutations and node counts (the kernel makes the same
decisions in the same order), on random small positions of every variant, on the solver catalogue
and on every bundled puzzle searched past its line with the cook margin; and a node budget must
stop both at the same node.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from generator.lessons.check import read_lesson
from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.kernel import COMPILED_AVAILABLE, WHY_PURE, DepthFirstKernel
from generator.puzzles.proof import default_margin
from generator.puzzles.search import Budget, BudgetExceeded, Proof, Solver, Stipulation
from generator.rules import Position
from tests.search.catalog import SHOTS, Shot
from tests.search.test_solver import EIGHT_BY_EIGHT, small_positions

ROOT = Path(__file__).resolve().parents[2]
EVERY_VARIANT = [*EIGHT_BY_EIGHT, "international", "antidraughts"]

pytestmark = pytest.mark.skipif(
    not COMPILED_AVAILABLE and not os.environ.get("DAMAS_REQUIRE_CORE"),
    reason=f"the compiled search kernel is not active: {WHY_PURE}",
)


def same(a: Proof, b: Proof, where: str) -> None:
    assert a.solutions == b.solutions, where
    assert a.shortest == b.shortest, where
    assert a.refutations == b.refutations, where
    assert a.nodes == b.nodes, where


def both(cls: type[Solver], pos: Position, goal: str, depth: int) -> tuple[Proof, Proof]:
    fast = cls(pos.variant, core="compiled")
    slow = cls(pos.variant, core="pure")
    assert fast.compiled and not slow.compiled
    return fast.solve(pos, goal, depth), slow.solve(pos, goal, depth)


@settings(max_examples=120, deadline=None)
@given(
    small_positions(EVERY_VARIANT),
    st.sampled_from(["win", "gain:1", "gain:2", "promote"]),
    st.integers(1, 5),
    st.sampled_from([Solver, DfpnSolver]),
)
def test_compiled_and_pure_searches_agree_on_random_positions(pos, goal, depth, cls) -> None:
    note(pos.fen())
    fast, slow = both(cls, pos, goal, depth)
    same(fast, slow, f"{cls.__name__} {pos.fen()} {goal} {depth}")


@pytest.mark.parametrize("shot", [s for s in SHOTS if s.goal != "draw"], ids=lambda s: s.id)
def test_compiled_and_pure_searches_agree_on_the_catalogue(shot: Shot) -> None:
    pos = Position.from_fen(shot.variant, shot.fen)
    for cls in (Solver, DfpnSolver):
        for depth in (shot.depth, shot.depth + 2):
            fast, slow = both(cls, pos, shot.goal, depth)
            same(fast, slow, f"{cls.__name__} {shot.id} at {depth}")


def bundled_puzzles():  # type: ignore[no-untyped-def]
    out = []
    for path in sorted((ROOT / "lessons").glob("*/golpes.yaml")):
        # read, not checked: the check would prove every puzzle at the books' margin during collection,
        # in each worker (on the pure path in CI's DAMAS_PURE step, minutes)
        _, lesson, errors = read_lesson(path.read_text(encoding="utf-8"), str(path))
        assert lesson is not None and not errors, (path, errors)
        for p in lesson.puzzles:
            if p.goal != "draw":
                out.append(pytest.param(p, id=f"{lesson.variant.name}/{p.id}"))
    assert len(out) >= 30
    return out


@pytest.mark.parametrize("puzzle", bundled_puzzles())
def test_compiled_and_pure_dfpn_agree_on_the_bundled_puzzles_with_the_cook_margin(puzzle) -> None:
    """At the default cook margin: the two cores' agreement is the kernel's property, and the books' 8
    plies (proven by the compiled core in every check) would make the pure core's full solve of every
    first move take minutes a puzzle (turkish golpe-5: four minutes)."""
    pos = puzzle.position
    depth = len(puzzle.solution) + default_margin(puzzle.goal)
    fast, slow = both(DfpnSolver, pos, puzzle.stipulation, depth)
    same(fast, slow, puzzle.id)
    assert pos.parse_move(puzzle.solution[0].move.value) in fast.solutions


@pytest.mark.parametrize("cls", [Solver, DfpnSolver])
def test_a_node_budget_stops_both_cores_at_the_same_node(cls: type[Solver]) -> None:
    pos = Position.from_fen("international", "start")
    stopped = []
    for core in ("compiled", "pure"):
        solver = cls(pos.variant, budget=Budget(nodes=5000), core=core)
        ticks: list[int] = []
        solver.progress = lambda s, ticks=ticks: ticks.append(s.nodes)
        with pytest.raises(BudgetExceeded) as info:
            solver.solve(pos, "gain:1", 12)
        assert info.value.nodes >= 5000
        assert ticks and all(t % 1024 == 0 for t in ticks), "progress is reported every 1024 nodes"
        stopped.append((info.value.nodes, ticks))
    assert stopped[0] == stopped[1]


def test_the_kernel_solver_is_usable_after_a_budget_stop() -> None:
    pos = Position.from_fen("brazilian", "start")
    solver = Solver(pos.variant, budget=Budget(nodes=2000), core="compiled")
    solver.prepare(pos, Stipulation.parse("win"))
    with pytest.raises(BudgetExceeded):
        solver.forced(pos.state, 12)
    solver.budget = Budget(nodes=None)
    assert solver.forced(pos.state, 1) is False


def test_the_kernel_proves_what_the_python_solver_proves_on_the_catalogue() -> None:
    shots = [s for s in SHOTS if s.goal != "draw"]
    assert len(shots) >= 8
    for shot in shots:
        pos = Position.from_fen(shot.variant, shot.fen)
        for depth in (shot.depth, shot.depth + 3):
            same(*both(Solver, pos, shot.goal, depth), f"{shot.id} at depth {depth}")


def test_the_kernel_stops_at_its_node_limit() -> None:
    from generator.puzzles import _search  # type: ignore[attr-defined]  # a compiled extension

    pos = Position.from_fen("brazilian", "start")
    solver = Solver(pos.variant, core="compiled")
    assert isinstance(solver.kernel, DepthFirstKernel)
    solver.prepare(pos, Stipulation.parse("win"))
    solver.kernel.prover.node_limit = 500
    with pytest.raises(_search.NodeLimitReached):
        solver.forced(pos.state, 9)
    assert solver.kernel.prover.nodes == 501
    solver.kernel.prover.node_limit = 0
    assert solver.forced(pos.state, 1) is False  # the generator's stack is usable again
