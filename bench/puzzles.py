#!/usr/bin/env python3
"""Puzzle-proof benchmark: how long ``damas check`` takes to prove each puzzle of the course.

Every lesson file under the given folders (default ``lessons/``) is checked with
``generator.lessons.check.check_file``; then each puzzle's full proof is run again on its own and
timed with ``time.perf_counter``: ``Verifier(doc, lesson).puzzle(p)``, i.e. the line replayed move
by move (legality, forced or listed replies), the stipulation at its end, and the uniqueness proof
(every defence, the only first move, the key defences played out for the book).  The node count is
the solver's (``PuzzleProof.nodes``).

Figures are printed per variant and overall: median and worst time, median and largest node count.
Target on the 2-core reference machine: median < 10 ms (cook margin included) and worst < 1 s per
puzzle.

``--deep`` runs the published deep problems of bench/data/deep-problems.yaml instead (bench/deep.py):
time and nodes per problem for the df-pn search and the reference depth-first search, in the same
run, each with ``--seconds`` per problem.

When the course has fewer than ``--min-puzzles`` puzzles (the lessons are still being written), the
benchmark's own hand-checked shots (bench/data/shots/, one lesson per variant) are timed too, marked
``shots``; ``--with-shots`` always adds them.

Usage::

    python3 bench/puzzles.py                     # lessons/, 3 runs per puzzle, best run counts
    python3 bench/puzzles.py lessons/brazilian --repeat 5 --slowest 10
    python3 bench/puzzles.py --with-shots --json
    python3 bench/puzzles.py --check             # exit 1 when the target is missed
    python3 bench/puzzles.py --deep --seconds 60 # the deep problems, df-pn and reference
    python3 bench/puzzles.py --solvers --repeat 1  # solver nodes per CPU-second: pure, drop-in, compiled
    python3 bench/puzzles.py --core both         # both cores side by side, then the --solvers table
    python3 bench/puzzles.py --tables both       # without, then with the stored endgame tables (CPU ratio)

Exit status: 0; 1 with ``--check`` when the target is missed; 2 when a puzzle does not verify and
``--check`` is given (its time is still reported, marked ``error``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.lessons.check import CheckedLesson, check_file, lesson_files  # noqa: E402
from generator.lessons.verify import Verifier  # noqa: E402
from generator.rules.core import active_core  # noqa: E402

TARGET_MEDIAN_MS = 10.0
TARGET_WORST_MS = 1000.0


@dataclass
class Timed:
    source: str
    """``lessons`` or ``shots``."""
    file: str
    id: str
    variant: str
    stipulation: str
    plies: int
    ms: float
    """Best wall time of the full proof over the repeats, in milliseconds."""
    cpu_ms: float
    """Best CPU time of the full proof over the repeats (the fairer figure on a busy machine)."""
    nodes: int | None
    """Solver nodes of the uniqueness proof (None when the puzzle does not verify)."""
    ok: bool


def time_lesson(checked: CheckedLesson, source: str, repeat: int) -> list[Timed]:
    out = []
    for p in checked.lesson.puzzles:
        best = best_cpu = float("inf")
        nodes: int | None = None
        ok = True
        for _ in range(repeat):
            verifier = Verifier(checked.doc, checked.lesson)
            gc.collect()
            started, cpu = time.perf_counter(), time.process_time()
            verifier.puzzle(p)
            best = min(best, time.perf_counter() - started)
            best_cpu = min(best_cpu, time.process_time() - cpu)
            proof = verifier.puzzle_proofs.get(p.where)
            nodes = proof.nodes if proof is not None else None
            ok = not verifier.errors and proof is not None
        out.append(
            Timed(
                source=source,
                file=checked.doc.path,
                id=p.id,
                variant=checked.lesson.variant.name,
                stipulation=p.stipulation,
                plies=len(p.solution),
                ms=best * 1000,
                cpu_ms=best_cpu * 1000,
                nodes=nodes,
                ok=ok,
            )
        )
    return out


SHOTS = ROOT / "bench" / "data" / "shots"
"""The benchmark's own puzzles: hand-checked shots of every variant, one lesson file per variant."""


def course_puzzles(paths: list[str], repeat: int, source: str = "lessons") -> tuple[list[Timed], int, int]:
    """Times for every puzzle under ``paths`` (marked ``source``); also (files read, files with errors)."""
    files, missing = lesson_files(paths)
    for e in missing:
        print(f"warning: {e}", file=sys.stderr)
    timed: list[Timed] = []
    failed = 0
    for f in files:
        checked, errors = check_file(f)
        if errors:
            failed += 1
        if checked is not None:
            timed += time_lesson(checked, source, repeat)
    return timed, len(files), failed


def shot_puzzles(repeat: int) -> list[Timed]:
    """Times for the benchmark's own shots (:data:`SHOTS`)."""
    return course_puzzles([str(SHOTS)], repeat, "shots")[0]


@dataclass
class Summary:
    group: str
    puzzles: int
    median_ms: float
    worst_ms: float
    worst_id: str
    median_nodes: float | None
    max_nodes: int | None
    total_nodes: int
    nodes_per_second: float


def summarise(group: str, rows: list[Timed]) -> Summary:
    worst = max(rows, key=lambda r: r.ms)
    nodes = [r.nodes for r in rows if r.nodes is not None]
    return Summary(
        group=group,
        puzzles=len(rows),
        median_ms=statistics.median(r.ms for r in rows),
        worst_ms=worst.ms,
        worst_id=f"{worst.variant}/{worst.id}",
        median_nodes=statistics.median(nodes) if nodes else None,
        max_nodes=max(nodes) if nodes else None,
        total_nodes=sum(nodes),
        nodes_per_second=nodes_per_second(rows),
    )


def table(summaries: list[Summary]) -> str:
    head = "| group | puzzles | median ms | worst ms | worst puzzle | median nodes | max nodes | nodes/s |"
    lines = [head, "|---|---:|---:|---:|---|---:|---:|---:|"]
    for s in summaries:
        med_nodes = "—" if s.median_nodes is None else f"{s.median_nodes:.0f}"
        max_nodes = "—" if s.max_nodes is None else str(s.max_nodes)
        lines.append(
            f"| {s.group} | {s.puzzles} | {s.median_ms:.2f} | {s.worst_ms:.2f} | {s.worst_id} | "
            f"{med_nodes} | {max_nodes} | {s.nodes_per_second:,.0f} |"
        )
    return "\n".join(lines)


def nodes_per_second(rows: list[Timed]) -> float:
    """Solver nodes per second of proof time, over the puzzles that verify."""
    ok = [r for r in rows if r.nodes is not None]
    seconds = sum(r.ms for r in ok) / 1000
    return sum(r.nodes or 0 for r in ok) / seconds if seconds > 0 else 0.0


SOLVERS = {
    "pure": ("Solver", "pure"),
    "drop-in": ("Solver", "drop-in"),
    "compiled": ("Solver", "compiled"),
    "df-pn pure": ("DfpnSolver", "pure"),
    "df-pn compiled": ("DfpnSolver", "compiled"),
}
"""label -> (solver class, core): ``pure`` is the reference (Python search, pure generator),
``drop-in`` the Python search on the compiled generator (what the solvers did before they used the
kernel), ``compiled`` the search as it runs now (``forced`` in ``_core.Prover``)."""


def make_solver(label: str, variant):  # type: ignore[no-untyped-def]
    from generator.puzzles.dfpn import DfpnSolver
    from generator.puzzles.search import Solver

    cls_name, core = SOLVERS[label]
    cls = DfpnSolver if cls_name == "DfpnSolver" else Solver
    if core == "drop-in":  # the Python forced() and expansion on the compiled generator
        return cls(variant, core="compiled", kernel=False)
    return cls(variant, core=core)


def solver_workload(margin: int) -> list[tuple[object, str, int]]:
    """(position, goal, depth) of the solver benchmark: the benchmark's shots (bench/data/shots/) and
    the bundled puzzles (lessons/*/golpes.yaml), draw goals left out, each ``margin`` plies past its
    printed depth (what the cook search asks)."""
    work: list[tuple[object, str, int]] = []
    for path in sorted(SHOTS.glob("*.yaml")) + sorted((ROOT / "lessons").glob("*/golpes.yaml")):
        checked, _ = check_file(path)
        if checked is not None:
            work += [
                (p.position, p.stipulation, len(p.solution) + margin)
                for p in checked.lesson.puzzles
                if p.goal != "draw"
            ]
    return work


def solver_rates(margin: int, repeat: int) -> dict[str, dict[str, tuple[int, float]]]:
    """The solvers alone on :func:`solver_workload`: label -> variant -> (nodes, best CPU seconds)
    for every entry of :data:`SOLVERS` (only the pure ones without the compiled core).  Both cores
    count the same nodes (tests/search/test_compiled_solver.py), so nodes per CPU-second compare
    like for like."""
    from generator.rules.core import COMPILED_AVAILABLE

    work = solver_workload(margin)
    labels = list(SOLVERS) if COMPILED_AVAILABLE else ["pure", "df-pn pure"]
    out: dict[str, dict[str, tuple[int, float]]] = {}
    for label in labels:
        per: dict[str, tuple[int, float]] = {}
        for pos, goal, depth in work:
            v = pos.variant  # type: ignore[attr-defined]
            best = float("inf")
            nodes = 0
            for _ in range(repeat):
                solver = make_solver(label, v)
                gc.collect()
                t0 = time.process_time()
                nodes = solver.solve(pos, goal, depth).nodes
                best = min(best, time.process_time() - t0)
            n0, c0 = per.get(v.name, (0, 0.0))
            per[v.name] = (n0 + nodes, c0 + best)
        out[label] = per
    return out


def print_solver_rates(margin: int, repeat: int) -> None:
    rates = solver_rates(margin, repeat)
    labels = list(rates)
    ratios = [(a, b) for a, b in (("compiled", "pure"), ("drop-in", "pure"), ("df-pn compiled", "df-pn pure"))]
    ratios = [(a, b) for a, b in ratios if a in rates and b in rates]
    print(f"\nsolver alone: test and bundled puzzles solved {margin} plies past their depth, best CPU time of {repeat}")
    print("(nodes/CPU-s; a node is one forced() call, or one df-pn visit; both cores count the same nodes)")
    print(
        "| variant | nodes | df-pn nodes | "
        + " | ".join(labels)
        + " | "
        + " | ".join(f"{a} / {b}" for a, b in ratios)
        + " |"
    )
    print("|---|---:|---:|" + "---:|" * (len(labels) + len(ratios)))
    variants = sorted(rates["pure"])
    totals = {
        label: (sum(n for n, _ in rates[label].values()), sum(c for _, c in rates[label].values())) for label in labels
    }
    rows = [*((v, {label: rates[label][v] for label in labels}) for v in variants), ("all", totals)]
    for name, row in rows:
        speed = {label: row[label][0] / row[label][1] if row[label][1] > 0 else float("inf") for label in labels}
        print(
            f"| {name} | {row['pure'][0]} | {row['df-pn pure'][0]} | "
            + " | ".join(f"{speed[label]:,.0f}" for label in labels)
            + " | "
            + " | ".join(f"{speed[a] / speed[b]:.1f}×" for a, b in ratios)
            + " |"
        )


def compare_cores(argv: list[str]) -> int:
    """``--core both``: run this script once per core (DAMAS_PURE decides, in a fresh process) and
    print solver nodes per second side by side."""
    results = {}
    for core in ("compiled", "pure"):
        env = dict(os.environ)
        env.pop("DAMAS_PURE", None)
        if core == "pure":
            env["DAMAS_PURE"] = "1"
        args = [a for a in argv if a != "--json"]
        out = subprocess.run(
            [sys.executable, __file__, *args, "--core", "active", "--json"], env=env, capture_output=True, text=True
        )
        if out.returncode not in (0, 1):
            print(out.stderr, file=sys.stderr)
            return out.returncode
        results[core] = json.loads(out.stdout)
    print(f"python {platform.python_version()} on {platform.machine()}; solver nodes per second of proof time")
    print(f"compiled run: core {results['compiled']['core']}; pure run: core {results['pure']['core']}\n")
    print(
        "| group | puzzles | nodes | compiled nodes/s | pure nodes/s | compiled/pure "
        "| compiled median ms | pure median ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    pure_by = {s["group"]: s for s in results["pure"]["summaries"]}
    for c in results["compiled"]["summaries"]:
        p = pure_by.get(c["group"])
        if p is None:
            continue
        ratio = c["nodes_per_second"] / p["nodes_per_second"] if p["nodes_per_second"] else float("nan")
        print(
            f"| {c['group']} | {c['puzzles']} | {c['total_nodes']} | {c['nodes_per_second']:,.0f} | "
            f"{p['nodes_per_second']:,.0f} | {ratio:.2f}× | {c['median_ms']:.2f} | {p['median_ms']:.2f} |"
        )
    print_solver_rates(4, 1)
    return 0


def compare_tables(args: argparse.Namespace) -> int:
    """The course's puzzles without the endgame tables, then with them (``--tables both``), in one
    run: CPU time per variant and the ratio (with / without)."""
    from generator.endgame.leaves import tables_ignored

    with tables_ignored():
        off, _, _ = course_puzzles(args.paths, max(1, args.repeat))
    on = course_puzzles(args.paths, max(1, args.repeat))[0] if args.tables == "both" else []
    print("| variant | puzzles | CPU ms without | CPU ms with | ratio | median CPU ms without | median with |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for variant in sorted({r.variant for r in off}):
        a = [r for r in off if r.variant == variant]
        b = [r for r in on if r.variant == variant]
        ta, tb = sum(r.cpu_ms for r in a), sum(r.cpu_ms for r in b)
        ma = statistics.median(r.cpu_ms for r in a)
        mb = statistics.median(r.cpu_ms for r in b) if b else float("nan")
        ratio = f"{tb / ta:.2f}" if b and ta else "—"
        print(f"| {variant} | {len(a)} | {ta:.0f} | {tb:.0f} | {ratio} | {ma:.2f} | {mb:.2f} |")
    changed = [(x.id, x.ok, y.ok) for x, y in zip(off, on, strict=False) if x.ok != y.ok]
    print(f"verdicts that differ: {changed or 'none'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--core",
        choices=("active", "pure", "both"),
        default="active",
        help="engine core: the active one (compiled when built), pure (DAMAS_PURE=1), or both side by side",
    )
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "lessons")], help="lesson files or folders")
    ap.add_argument("--repeat", type=int, default=3, help="runs per puzzle; the best counts (default 3)")
    ap.add_argument("--min-puzzles", type=int, default=20, help="add the benchmark's shots below this many")
    ap.add_argument("--with-shots", action="store_true", help="always time the benchmark's shots too")
    ap.add_argument("--slowest", type=int, default=5, help="list the N slowest puzzles")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    ap.add_argument("--deep", action="store_true", help="time bench/data/deep-problems.yaml instead")
    ap.add_argument("--seconds", type=float, default=60.0, help="--deep: time limit per problem and search")
    ap.add_argument("--solvers", action="store_true", help="only the solver-alone table (nodes per CPU-second)")
    ap.add_argument("--margin", type=int, default=4, help="--solvers: plies past each puzzle's printed depth")
    ap.add_argument(
        "--tables",
        choices=("on", "off", "both"),
        default="on",
        help="the endgame tables stored in the cache at the solver's leaves: on, off, or both in one run",
    )
    args = ap.parse_args(argv)
    if args.tables != "on":
        return compare_tables(args)
    if args.deep:
        from bench.deep import report, run

        print(
            f"python {platform.python_version()} on {platform.machine()}; core: {active_core()}; "
            f"deep problems, {args.seconds:g} s each"
        )
        print(report(run(args.seconds)))
        return 0
    if args.solvers:
        print_solver_rates(args.margin, max(1, args.repeat))
        return 0
    if args.core == "both":
        return compare_cores([a for a in argv if not a.startswith("--core") and a not in ("both", "pure", "active")])
    if args.core == "pure" and not os.environ.get("DAMAS_PURE"):
        env = {**os.environ, "DAMAS_PURE": "1"}
        return subprocess.run([sys.executable, __file__, *argv], env=env).returncode

    started = time.perf_counter()
    rows, n_files, failed_files = course_puzzles(args.paths, max(1, args.repeat))
    course_count = len(rows)
    if args.with_shots or course_count < args.min_puzzles:
        rows += shot_puzzles(max(1, args.repeat))
    if not rows:
        print("no puzzles found", file=sys.stderr)
        return 0

    groups: dict[str, list[Timed]] = {}
    for r in rows:
        groups.setdefault(r.variant, []).append(r)
    summaries = [summarise(v, groups[v]) for v in sorted(groups)]
    sources = sorted({r.source for r in rows})
    if len(sources) > 1:
        summaries += [summarise(f"all {s}", [r for r in rows if r.source == s]) for s in sources]
    overall = summarise("all", rows)
    summaries.append(overall)
    met = overall.median_ms < TARGET_MEDIAN_MS and overall.worst_ms < TARGET_WORST_MS
    broken = [r for r in rows if not r.ok]

    if args.json:
        payload = {
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "core": active_core(),
            "lesson_files": n_files,
            "lesson_files_with_errors": failed_files,
            "course_puzzles": course_count,
            "summaries": [asdict(s) for s in summaries],
            "puzzles": [asdict(r) for r in rows],
            "target": {"median_ms": TARGET_MEDIAN_MS, "worst_ms": TARGET_WORST_MS, "met": met},
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(f"python {platform.python_version()} on {platform.machine()}; best of {args.repeat} run(s) per puzzle")
        print(f"core: {active_core()}")
        print(
            f"{n_files} lesson file(s) ({failed_files} with check errors), {course_count} course puzzle(s)"
            + (f", {len(rows) - course_count} test puzzle(s)" if len(rows) > course_count else "")
        )
        print()
        print(table(summaries))
        print()
        print(f"slowest {min(args.slowest, len(rows))}:")
        for r in sorted(rows, key=lambda r: -r.ms)[: args.slowest]:
            nodes = "—" if r.nodes is None else r.nodes
            flag = "" if r.ok else "  (does not verify)"
            print(f"  {r.ms:8.2f} ms  {nodes!s:>7} nodes  {r.plies:2d} plies  {r.variant}/{r.id} ({r.file}){flag}")
        if broken:
            print(f"\n{len(broken)} puzzle(s) do not verify; run `damas check` on their files")
        verdict = "met" if met else "MISSED"
        print(
            f"\ntarget median < {TARGET_MEDIAN_MS:.0f} ms and worst < {TARGET_WORST_MS:.0f} ms: {verdict} "
            f"(median {overall.median_ms:.2f} ms, worst {overall.worst_ms:.2f} ms); "
            f"total {time.perf_counter() - started:.1f} s"
        )
    if args.check and broken:
        return 2
    if args.check and not met:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
