"""Which search kernel a solver runs, chosen once when the solver is built.

The puzzle searches (:class:`~generator.puzzles.search.Solver`, its depth-first ``forced``, and
:class:`~generator.puzzles.dfpn.DfpnSolver`, df-pn) have a readable pure-Python reference and a
compiled kernel (``generator/puzzles/_search.pyx``, on the rules kernel ``generator/rules/_core.pyx``)
that gives the same answers in the same number of nodes.  A solver asks :func:`depth_first_kernel`
once, in its constructor, and from then on calls the object it got: no search method asks again
which path it is on.

The compiled kernel is used when the extension was built, ``DAMAS_PURE`` is not set (read once, at
import, like the rules kernel's choice in :mod:`generator.rules.core`) and the solver's move
generator is the compiled one; anything else gets ``None`` and the solver keeps its Python code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..rules.core import CompiledMoveGenerator, compiled_zobrist, load_compiled

if TYPE_CHECKING:
    from ..endgame.leaves import StoredTables
    from .search import Solver

State = tuple[int, int, int, int]


def _load_search() -> Any:
    from . import _search  # type: ignore[attr-defined]  # a compiled extension: no stub

    return _search


_SEARCH, WHY_PURE = load_compiled(_load_search, "_search")
COMPILED_AVAILABLE = _SEARCH is not None


class DepthFirstKernel:
    """``Solver.forced`` in C (``_search.Prover``): the goals win, gain and promote.

    It keeps its own transposition table and node count; the solver's count and budget follow it:
    the kernel calls back every time it reaches the solver's next budget check.
    """

    compiled = True

    def __init__(self, solver: Solver, quiescence: int) -> None:
        assert _SEARCH is not None and isinstance(solver.gen, CompiledMoveGenerator)
        z = solver.zobrist_keys
        self.solver = solver
        self.prover = _SEARCH.Prover(
            solver.gen.core, compiled_zobrist(z.keys, z.black_to_move), solver.losing, quiescence
        )
        self.prover.tick = self._tick
        self.base = 0
        """The solver's node count when the kernel's was zero (their difference is constant)."""
        self.hash: Callable[[int, int, int, int], int] = self.prover.hash

    def prepare(self, goal: str, pieces: int, attacker: int, root_balance: int, root_kings: int) -> None:
        if goal != "draw":
            self.prover.prepare(goal, pieces, attacker, root_balance, root_kings)

    def set_leaf(self, tables: StoredTables | None) -> None:
        """Probe ``tables`` at the leaves of the win goal (None: no tables).  The kernel reads the
        slices' buffers itself (``Prover.set_leaves``), so a probe costs no call into Python; the
        bounds are those of :func:`generator.puzzles.leaves.win_leaf`, the pure path's."""
        if tables is None:
            self.prover.set_leaves(0)
        else:
            self.prover.set_leaves(**tables.kernel_spec())

    def set_cap(self, entries: int) -> None:
        """Bound the kernel's table to ``entries`` positions (full, it starts over)."""
        self.prover.table_cap = entries

    def resets(self) -> int:
        return int(self.prover.resets)

    def enter(self) -> None:
        """Before a kernel call: carry the solver's node count and next budget check over."""
        s, p = self.solver, self.prover
        self.base = s.nodes - p.nodes
        p.next_tick = p.nodes + (s.next_tick - s.nodes)

    def leave(self) -> None:
        self.solver.nodes = self.base + self.prover.nodes

    def forced(self, state: State, plies: int, h: int | None) -> bool:
        self.enter()
        try:
            return bool(self.prover.forced(*state, plies, h))
        finally:
            self.leave()

    def _tick(self) -> None:
        """The kernel reached the solver's next check: bring the count up to date and check the
        budget (BudgetExceeded leaves the search through the kernel)."""
        s, p = self.solver, self.prover
        s.nodes = self.base + p.nodes
        s.tick()
        p.next_tick = p.nodes + (s.next_tick - s.nodes)

    def expand(self, state: State, h: int) -> tuple[bool | None, bool, list[tuple[int, int, int, int, int, int]]]:
        """df-pn's node expansion in one call (``Prover.expand``)."""
        result: tuple[bool | None, bool, list[tuple[int, int, int, int, int, int]]] = self.prover.expand(*state, h)
        return result

    def dfpn(self, leaf_plies: int, expanded_limit: int) -> Any:
        """The compiled df-pn (``_search.Dfpn``) over this kernel's prover."""
        assert _SEARCH is not None
        return _SEARCH.Dfpn(self.prover, leaf_plies, expanded_limit)


def depth_first_kernel(solver: Solver, quiescence: int) -> DepthFirstKernel | None:
    """The compiled depth-first kernel for ``solver``, or None: its own Python search runs."""
    if _SEARCH is None or not isinstance(solver.gen, CompiledMoveGenerator):
        return None
    return DepthFirstKernel(solver, quiescence)


def active_search() -> str:
    """One line naming the search kernel in use."""
    if _SEARCH is not None:
        return "compiled (generator.puzzles._search)"
    return f"pure Python ({WHY_PURE})"
