"""The endgame tables at the solver's leaves (generator/puzzles/leaves.py): sound, exact, and the
same in the compiled kernel and the pure reference.

On random positions of 3 to 5 pieces in every variant (so that captures lead the search into the
tables of up to 3 pieces, and some positions are in them from the start), both searches (df-pn,
what ``damas solve`` and the checks run, and the iterative depth-first search) answer "which first
moves force a win within D plies" with the tables and without: the same solutions, the same
shortest lengths and the same refutations wherever both decide.  The searches also agree with the
tables' own values at the root, and the compiled kernels make the same decisions in the same
number of nodes as the pure reference when the tables answer.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from functools import cache

import pytest

from generator.cache import CACHE_ENV
from generator.cli import main
from generator.endgame.leaves import StoredTables, stored_tables
from generator.endgame.retro import LOSS, WIN
from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.engine import Engine, score_text
from generator.puzzles.kernel import COMPILED_AVAILABLE, WHY_PURE
from generator.puzzles.search import QUIESCENCE_PLIES, Budget, BudgetExceeded, Proof, Solver, Stipulation
from generator.rules import VARIANTS, Position
from tests.endgame.helpers import position, random_position

TABLE_PIECES = 3
DEPTH = 7
SAMPLES = 24
"""Random positions per variant and search."""
BUDGET = 300_000


@pytest.fixture(scope="module", autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """This module's own cache folder: tables of exactly TABLE_PIECES pieces, whatever larger sets
    other tests of the same worker stored in the run's cache (the finais lessons build 4-piece ones)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("leaves-cache")))
        yield
    stored.cache_clear()


@cache
def stored(variant: str) -> StoredTables:
    """The run's tables of up to TABLE_PIECES pieces of ``variant``, as the searches read them.

    Built by the compiled builder even when DAMAS_PURE is set (CI runs this file again on the pure
    path): the tables are the same either way (tests/endgame/test_kernel.py), what is tested here is
    the searches reading them, and the pure builder takes minutes on the 10×10 boards."""
    env = {k: v for k, v in os.environ.items() if k != "DAMAS_PURE"}
    command = [sys.executable, "-m", "generator", "endgame", "build", variant, "--pieces", str(TABLE_PIECES)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = stored_tables(VARIANTS[variant])
    assert out.pieces == TABLE_PIECES
    return out


def _positions(variant: str, seed: int, low: int, high: int) -> list[Position]:
    """Random positions of ``low`` to ``high`` pieces with a legal move (the game not over)."""
    board = stored(variant).board
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < SAMPLES:
        _, dense, turn = random_position(board, rng, rng.randint(low, high))
        pos = position(variant, board, dense, turn)
        if pos.has_legal_moves():
            out.append(pos)
    return out


def _solve(cls: type[Solver], pos: Position, endgame: StoredTables | bool, core: str | None = None) -> Proof | None:
    solver = cls(pos.variant, budget=Budget(nodes=BUDGET), endgame=endgame, core=core)
    try:
        return solver.solve(pos, "win", DEPTH)
    except BudgetExceeded:
        return None


@pytest.mark.parametrize("cls", [DfpnSolver, Solver])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_tables_change_no_verdict(variant: str, cls: type[Solver]) -> None:
    """With and without the tables: the same answer wherever both decide, and fewer nodes often."""
    tabled = stored(variant)
    positions = _positions(variant, 25, 3, 5)
    assert positions
    decided = fewer = 0
    for pos in positions:
        a, b = _solve(cls, pos, tabled), _solve(cls, pos, False)
        if a is None or b is None:
            assert b is None or a is not None, f"undecided with the tables only: {pos.fen()}"
            continue
        decided += 1
        where = f"{variant} {pos.fen()}"
        assert a.solutions == b.solutions, where
        assert a.shortest == b.shortest, where
        assert a.refutations == b.refutations, where
        fewer += a.nodes < b.nodes
    assert decided >= SAMPLES // 2, decided
    assert fewer > 0, "the tables never cut a search short"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_bound_gets_the_same_answer(variant: str) -> None:
    """The leaf's bounds at every ply count, the quiescence's negative ones included: ``forced``
    with the tables is ``forced`` without them, for either side attacking."""
    tabled = stored(variant)
    positions = _positions(variant, 29, 2, TABLE_PIECES + 1)
    assert positions
    asked = 0
    for pos in positions:
        for attacker in (pos, pos.play(pos.legal_moves()[0])):
            if not attacker.has_legal_moves():
                continue
            a, b = Solver(pos.variant, endgame=tabled), Solver(pos.variant, endgame=False)
            for solver in (a, b):
                solver.prepare(attacker, Stipulation("win"))
            for plies in range(-QUIESCENCE_PLIES, DEPTH + 1):
                for child in [pos.state, *(pos.play(m).state for m in pos.legal_moves())]:
                    asked += 1
                    assert a.forced(child, plies) == b.forced(child, plies), (attacker.fen(), plies, child)
    assert asked > 1000, asked


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_solutions_agree_with_the_tables(variant: str) -> None:
    """In the tables from the root: a table win within the bound is found (with every move that
    keeps the fastest win); no solution where the table says draw or loss; a solution's win is
    never longer than the bound and the quiescence past it allow (captures only, one piece each
    at least, so no more plies than pieces less one)."""
    tabled = stored(variant)
    positions = _positions(variant, 26, 2, TABLE_PIECES)
    seen = {WIN: 0, LOSS: 0, 0: 0}
    for pos in positions:
        proof = _solve(DfpnSolver, pos, tabled)
        assert proof is not None, pos.fen()
        result, d = tabled.lookup(*pos.state)  # type: ignore[misc]
        seen[result] += 1
        children = {m: tabled.lookup(*pos.play(m).state) for m in pos.legal_moves()}
        if result != WIN:
            assert proof.solutions == [], pos.fen()
            continue
        if d <= DEPTH:
            fastest = [m for m, c in children.items() if c == (LOSS, d - 1)]
            assert fastest and set(fastest) <= set(proof.solutions), pos.fen()
            assert all(proof.shortest[m] <= d for m in fastest), pos.fen()
        reach = DEPTH + min(QUIESCENCE_PLIES, (pos.white | pos.black).bit_count() - 1)  # past the bound: captures
        for m in proof.solutions:
            child = children[m]
            assert child is not None and child[0] == LOSS and child[1] + 1 <= reach, pos.fen()
    assert sum(seen.values()) == SAMPLES and seen[WIN] > 0, seen


@pytest.mark.skipif(
    not COMPILED_AVAILABLE and not os.environ.get("DAMAS_REQUIRE_CORE"),
    reason=f"the compiled search kernel is not active: {WHY_PURE}",
)
@pytest.mark.parametrize("cls", [DfpnSolver, Solver])
@pytest.mark.parametrize("variant", ["american", "brazilian", "international", "perde-ganha"])
def test_compiled_and_pure_agree_with_the_tables(variant: str, cls: type[Solver]) -> None:
    """The kernel's leaf test (``Prover._forced``, ``Dfpn._mid``) is the Python one, node for node."""
    tabled = stored(variant)
    positions = _positions(variant, 27, 3, 4)[: SAMPLES // 2]
    assert positions
    for pos in positions:
        fast, slow = _solve(cls, pos, tabled, "compiled"), _solve(cls, pos, tabled, "pure")
        assert (fast is None) == (slow is None), pos.fen()
        if fast is None or slow is None:
            continue
        assert fast.solutions == slow.solutions, pos.fen()
        assert fast.shortest == slow.shortest, pos.fen()
        assert fast.refutations == slow.refutations, pos.fen()
        assert fast.nodes == slow.nodes, pos.fen()


def test_only_the_win_goal_reads_the_tables() -> None:
    """gain:N and promote are not the tables' question: they search as without them."""
    tabled = stored("american")
    for pos in _positions("american", 28, 3, 4)[:8]:
        for goal in ("gain:1", "promote"):
            a = Solver(pos.variant, endgame=tabled).solve(pos, goal, 5)
            b = Solver(pos.variant, endgame=False).solve(pos, goal, 5)
            assert (a.solutions, a.shortest, a.nodes) == (b.solutions, b.shortest, b.nodes), (pos.fen(), goal)


# -- the playing engine (damas play) ------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_engine_keeps_the_tables_result(variant: str) -> None:
    """In a table position the engine's move keeps the exact result: the fastest win, the slowest
    loss, a draw; its score is the table's, and its line follows the tables."""
    tabled = stored(variant)
    engine = Engine(VARIANTS[variant], endgame=tabled)
    kinds = set()
    for pos in _positions(variant, 30, 2, TABLE_PIECES):
        result, d = tabled.lookup(*pos.state)  # type: ignore[misc]
        got = engine.search(pos, 4)
        assert got.tables and got.move is not None and got.pv[0] == got.move, pos.fen()
        child = tabled.lookup(*pos.play(got.move).state)
        kinds.add(result)
        if result == WIN:
            assert child == (LOSS, d - 1) and got.mate_in == d, pos.fen()
        elif result == LOSS:
            assert child == (WIN, d - 1) and got.mate_in == -d, pos.fen()
        else:
            assert child is not None and child[0] == 0 and got.score == 0 and score_text(got) == "draw", pos.fen()
    assert WIN in kinds, kinds


@pytest.mark.parametrize("variant", ["american", "brazilian", "international", "perde-ganha"])
def test_the_engine_scores_table_leaves_soundly(variant: str) -> None:
    """Past the tables' reach the engine searches, and its leaves in the tables score as won or
    lost games at their distance: a forced win it announces is one (df-pn proves it)."""
    tabled = stored(variant)
    wins = 0
    for pos in _positions(variant, 31, TABLE_PIECES + 1, TABLE_PIECES + 1):
        got = Engine(pos.variant, endgame=tabled).search(pos, 4)
        assert not got.tables, pos.fen()
        if got.mate_in is not None and got.mate_in > 0:
            wins += 1
            proof = DfpnSolver(pos.variant, endgame=tabled).solve(pos, "win", got.mate_in)
            assert got.move in proof.solutions, pos.fen()
    assert wins > 0


def test_play_answers_from_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    stored("american")
    assert main(["play", "american", "W:WK1,K2:BK32"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] in {"1-5", "1-6", "2-6", "2-7"} and out[1] == "score: win in 33 plies (endgame tables)", out
    assert main(["play", "american", "W:WK1,K2:BK32", "--no-tables", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tables"] is False and doc["depth"] == 6
