"""Deep published problems (bench/data/deep-problems.yaml): the df-pn search and the reference
depth-first search on the same problems in the same run.

For each problem both searches answer the full question of a puzzle check: every first move that
forces the goal within the problem's length (the key proven, every other first move refuted).  A
problem passes when the only solution is the published key.  Each search gets ``seconds`` per
problem; past it the problem is "undecided" for that search.  Target (issue 13, a benchmark, not a
test): every problem proven with its uniqueness within 10 s by the df-pn search.

Both searches run on the active engine core (compiled when built: the depth-first search and the whole
df-pn in C); ``DAMAS_PURE=1 python3 bench/puzzles.py --deep`` times the pure reference.  Wall and CPU
seconds are both reported: on a busy machine the CPU time is the fairer figure.

Some problems only: ``python3 bench/deep.py --only maven- --variant american --seconds 30`` (``--only`` takes
an id or an id prefix and may be repeated).

``--tables`` adds ``df-pn+tables``: df-pn with the endgame tables stored in the cache at its leaves
(docs/endgames.md; build them first with ``damas endgame build``), each problem run without and with
them back to back; ``df-pn`` and ``reference`` never read them.  Target (issue 29): every problem
proven with a median under 1 s and none over 5 s on a 2-core machine.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.search import Budget, BudgetExceeded, Solver
from generator.rules import Position

DATA = Path(__file__).resolve().parent / "data" / "deep-problems.yaml"
TARGET_SECONDS = 10.0


@dataclass
class DeepRun:
    id: str
    variant: str
    plies: int
    search: str
    seconds: float
    cpu: float
    nodes: int
    verdict: str
    """``unique`` (the key alone), ``cooked: ...``, ``key fails``, or ``undecided``."""


def load(path: Path = DATA) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)["problems"]


def run_one(problem: dict, search: str, seconds: float) -> DeepRun:
    pos = Position.from_fen(problem["variant"], problem["fen"])
    cls = DfpnSolver if search.startswith("df-pn") else Solver
    solver = cls(pos.variant, budget=Budget(nodes=None, seconds=seconds), endgame=search.endswith("+tables"))
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    try:
        proof = solver.solve(pos, problem["goal"], problem["depth"])
    except BudgetExceeded:
        verdict = "undecided"
    else:
        found = [pos.move_text(m, long=True) for m in proof.solutions]
        key = pos.move_text(pos.parse_move(problem["key"]), long=True)
        if found == [key]:
            verdict = "unique"
        elif key not in found:
            verdict = "key fails"
        else:
            verdict = "cooked: " + ", ".join(m for m in found if m != key)
    seconds_used, cpu_used = time.perf_counter() - started, time.process_time() - cpu
    return DeepRun(
        problem["id"], problem["variant"], problem["depth"], search, seconds_used, cpu_used, solver.nodes, verdict
    )


def run(
    seconds: float,
    path: Path = DATA,
    searches: tuple[str, ...] = ("df-pn", "reference"),
    only: tuple[str, ...] = (),
    variant: str | None = None,
) -> list[DeepRun]:
    """Time every problem, or those whose id starts with one of ``only`` and of ``variant``."""
    out = []
    for problem in load(path):
        if only and not problem["id"].startswith(only):
            continue
        if variant and problem["variant"] != variant:
            continue
        for search in searches:
            r = run_one(problem, search, seconds)
            out.append(r)
            print(
                f"  {r.id:32s} {r.variant:13s} {r.plies:2d} plies  {r.search:9s} {r.seconds:8.2f} s {r.cpu:8.2f} cpu-s "
                f"{r.nodes:>9} nodes  {r.verdict}",
                flush=True,
            )
    return out


def report(rows: list[DeepRun]) -> str:
    lines = []
    for search in sorted({r.search for r in rows}):
        mine = [r for r in rows if r.search == search]
        proven = [r for r in mine if r.verdict == "unique"]
        within = [r for r in proven if r.seconds <= TARGET_SECONDS]
        med = statistics.median(r.seconds for r in mine) if mine else 0.0
        cpu = sorted(r.cpu for r in mine)
        lines.append(
            f"{search}: {len(proven)}/{len(mine)} proven unique, {len(within)} within {TARGET_SECONDS:.0f} s; "
            f"median {med:.2f} s, total nodes {sum(r.nodes for r in mine)}; "
            f"CPU median {statistics.median(cpu) if cpu else 0.0:.2f} s, max {cpu[-1] if cpu else 0.0:.2f} s"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Time the deep problems with df-pn and the reference search.")
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit per problem and search")
    ap.add_argument("--only", action="append", default=[], help="problem id or id prefix (repeatable)")
    ap.add_argument("--variant", help="only the problems of this variant")
    ap.add_argument("--tables", action="store_true", help="also df-pn with the stored endgame tables")
    ap.add_argument("--no-reference", action="store_true", help="leave out the reference depth-first search")
    args = ap.parse_args()
    searches = ("df-pn", *(("df-pn+tables",) if args.tables else ()), *(() if args.no_reference else ("reference",)))
    print(report(run(args.seconds, searches=searches, only=tuple(args.only), variant=args.variant)))
