"""Bytes per entry of the pure-Python search tables (the figures in generator/puzzles/memory.py).

Runs pure-Python searches under tracemalloc, then empties one table at a time and divides the
memory it gave back by the entries it held.  The compiled tables are smaller (24 to 40 bytes an
entry at most half full); the caps are counted in entries for both cores, so the pure figures
bound both.

    python3 bench/search_memory.py
"""

from __future__ import annotations

import contextlib
import gc
import tracemalloc

from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.engine import Engine
from generator.puzzles.search import Budget, BudgetExceeded, Solver
from generator.rules import Position

DEEP = ("american", "W:W30,29,22,21,9,6:B24,20,16,13,8,7", "win", 13)
"""bench/data/deep-problems.yaml's 13-ply American stroke: enough nodes to fill every table."""


def _freed(clear) -> int:  # type: ignore[no-untyped-def]
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    clear()
    gc.collect()
    return before - tracemalloc.get_traced_memory()[0]


def main() -> None:
    variant, fen, goal, depth = DEEP
    pos = Position.from_fen(variant, fen)
    tracemalloc.start()
    plain = Solver(pos.variant, budget=Budget(nodes=300_000), core="pure")
    with contextlib.suppress(BudgetExceeded):
        plain.solve(pos, goal, depth)
    n = len(plain.table)
    print(f"prover    {_freed(plain.table.clear) / n:6.0f} B/entry ({n:,} entries)")

    d = DfpnSolver(pos.variant, budget=Budget(nodes=300_000), core="pure")
    d.leaf_plies = 3
    with contextlib.suppress(BudgetExceeded):
        d.solve(pos, goal, depth)
    units = d._units
    print(f"expanded  {_freed(d.expanded.clear) / max(units, 1):6.0f} B/unit ({units:,} nodes and children)")
    n = len(d.work)
    print(f"work      {_freed(d.work.clear) / max(n, 1):6.0f} B/entry ({n:,} entries)")
    n = len(d._keys)

    def proofs() -> None:
        d.proven.clear()
        d.disproven.clear()
        d._keys.clear()

    print(f"proofs    {_freed(proofs) / max(n, 1):6.0f} B/entry ({n:,} positions)")

    start = Position.from_fen("international", "start")
    e = Engine(start.variant)
    e.search(start, 7)
    n = len(e.table)
    print(f"engine    {_freed(e.table.clear) / max(n, 1):6.0f} B/entry ({n:,} entries)")


if __name__ == "__main__":
    main()
