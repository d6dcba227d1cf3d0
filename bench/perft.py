#!/usr/bin/env python3
"""Perft benchmark: damas' rules engine against the published tables, and against py-draughts.

For every variant of ours, run perft from the start position, check the leaf count against the
published figure (docs/spec.md §13) and report leaves per CPU-second (``time.process_time``).  When
py-draughts is importable (it lives only in the benchmark's own virtualenv: it is GPL-3.0 and must
never become a dependency of damas), the same depth is run on its boards too.

What is timed, per side (every column is one full perft from the start position):

* ours ``perft()``: ``generator.rules.perft``, the library function.  It counts the last ply in
  bulk (the number of legal moves, without building the quiet ``Move`` objects).
* ours plain: a walk over ``Variant.generator.moves`` / ``.apply`` that takes ``len(moves)`` at the
  last ply, i.e. the same algorithm as the py-draughts plain walk below.
* py-draughts plain: ``Board.legal_moves`` / ``push`` / ``pop`` with ``len(board.legal_moves)`` at
  the last ply; py-draughts' boards have no perft method of their own.
* py-draughts own: ``draughts.engines.turbo.perft_from_board``, the perft its test suite uses to
  check the TurboEngine's internal 10x10 generator (International only; it builds the move tuples
  of the last ply and takes their length).

Usage (see bench/README.md)::

    .bench-venv/bin/python bench/perft.py            # full run, a couple of minutes
    .bench-venv/bin/python bench/perft.py --quick    # small depths, a few seconds
    python3 bench/perft.py --ours-only --depth 6     # no py-draughts needed
    .bench-venv/bin/python bench/perft.py --depth international=8 --variants international

Exit status: 1 if one of *our* counts differs from the published figure, else 0.  py-draughts'
mismatches are reported but are not failures of this script.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.rules import VARIANTS, Position, perft  # noqa: E402
from generator.rules.core import COMPILED_AVAILABLE, active_core, make_generator  # noqa: E402

PYDRAUGHTS_VERSION = "1.10.1"
DAME_VERSION = "0.2.0"
DAME_VENV = ROOT / ".bench-dame-venv"
"""dame-rs (MIT, a Rust engine with Python bindings, International only) lives in its own venv."""

# -- published perft from the start position (docs/spec.md §13; dctl, FMJD forum, kish) ------------

# Unique moves: capture routes with the same origin, destination and captured set count once.
_INTERNATIONAL = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398]
_ENGLISH = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388617999, 1766564893]
_RUSSIAN = [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189, 544770444, 2673979569]
_BRAZILIAN = [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022, 105491257, 511882477, 2481546396]
_ITALIAN = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875, 17761384, 81647058, 367911475, 1655211086]
# dctl's "Spanish" rule set, which docs/spec.md §13.2 takes as the Portuguese reference [UNV].
_PORTUGUESE = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464, 81383200, 365728331, 1637958247]
_TURKISH = [8, 64, 708, 7538, 85090, 931312, 10782382, 123290300, 1454144462, 16991457316, 204403464784, 2455651059292]

PUBLISHED: dict[str, list[int]] = {
    "international": _INTERNATIONAL,
    "antidraughts": _INTERNATIONAL,  # same moves as International (§1.10)
    "brazilian": _BRAZILIAN,
    "perde-ganha": _BRAZILIAN,  # same moves as Brazilian (§1.10)
    "russian": _RUSSIAN,
    "american": _ENGLISH,
    "portuguese": _PORTUGUESE,
    "italian": _ITALIAN,
    "turkish": _TURKISH,
}

# "All paths" figures, where they differ from the unique ones (docs/spec.md §13.1, §13.2).
PUBLISHED_ALL_PATHS: dict[str, dict[int, int]] = {
    "international": {8: 6483971, 9: 41022614, 10: 258935682, 11: 1666207133},
    "antidraughts": {8: 6483971, 9: 41022614, 10: 258935682, 11: 1666207133},
    "american": {12: 388623673, 13: 1766623630},
    "russian": {8: 929905, 9: 4570667, 10: 22450628, 11: 110961169, 12: 545059387, 13: 2675994747},
    "brazilian": {8: 907836, 9: 4431847, 10: 21566606, 11: 105534946, 12: 512171742, 13: 2483592238},
    "perde-ganha": {8: 907836, 9: 4431847, 10: 21566606, 11: 105534946, 12: 512171742, 13: 2483592238},
    "italian": {12: 367917147, 13: 1655269811},
    "portuguese": {12: 365734003, 13: 1638016958},
}

# Default depths: the whole default run (ours and py-draughts) takes a couple of minutes on 2 cores.
# 8x8 depth 8 is the first depth where Russian/Brazilian unique and all-paths counts differ.
DEFAULT_DEPTH = {"8x8": 8, "10x10": 7, "turkish": 6}
QUICK_DEPTH = {"8x8": 5, "10x10": 4, "turkish": 4}

# Our variant -> py-draughts board class name (attribute of the ``draughts`` package).
THEIR_BOARDS = {
    "international": "StandardBoard",
    "antidraughts": "AntidraughtsBoard",
    "brazilian": "BrazilianBoard",
    "russian": "RussianBoard",
    "american": "AmericanBoard",
}


def depth_class(name: str) -> str:
    if name == "turkish":
        return "turkish"
    return "10x10" if VARIANTS[name].geometry.width == 10 else "8x8"


def check(name: str, depth: int, count: int | None) -> str:
    """OK / OK (all paths) / MISMATCH / n/a (no published figure at that depth) / — (not run)."""
    if count is None:
        return "—"
    table = PUBLISHED[name]
    if depth < 1 or depth > len(table):
        return "n/a"
    if count == table[depth - 1]:
        return "OK"
    if PUBLISHED_ALL_PATHS.get(name, {}).get(depth) == count:
        return "OK (all paths)"
    return "MISMATCH"


def published(name: str, depth: int) -> int | None:
    table = PUBLISHED[name]
    return table[depth - 1] if 1 <= depth <= len(table) else None


# -- timing -----------------------------------------------------------------------------------------


@dataclass
class Timing:
    count: int
    cpu: float  # best CPU seconds over the repeats

    @property
    def rate(self) -> float:
        return self.count / self.cpu if self.cpu > 0 else float("inf")


Job = tuple[Callable[[], int], Callable[[], object]]
"""(timed run, untimed warm-up run)."""


def timed_interleaved(jobs: dict[str, Job], repeat: int) -> dict[str, Timing]:
    """Best CPU time of ``repeat`` runs of each job.  Every job is warmed up once (tables built on
    first use), then the jobs run round-robin, so a change in machine load during the measurement
    hits every side alike."""
    for _, warmup in jobs.values():
        warmup()
    best: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(repeat):
        for key, (fn, _) in jobs.items():
            gc.collect()
            t0 = time.process_time()
            counts[key] = fn()
            dt = time.process_time() - t0
            best[key] = min(best.get(key, dt), dt)
    return {key: Timing(counts[key], best[key]) for key in jobs}


# -- our side -----------------------------------------------------------------------------------------


def ours_perft(name: str, depth: int) -> int:
    return perft(Position.start(name), depth)


ALL_PATHS_ONLY = {"turkish"}
"""Variants whose published figures count every capture route (kish's Turkish table): the core rows
count that way too, so deep runs can be checked."""


def core_perft(name: str, depth: int, core: str) -> int:
    """perft through one core, whichever is active (``core`` is ``pure`` or ``compiled``)."""
    gen = make_generator(VARIANTS[name], core)
    return gen.perft(*Position.start(name).state, depth, all_paths=name in ALL_PATHS_ONLY)


def dame_perft(depth: int, repeat: int) -> Timing | None:
    """dame-rs' own ``dame.perft`` on the International start, run in its venv; CPU time measured
    inside that process (best of ``repeat``), after one warm-up run at depth 3."""
    python = DAME_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        return None
    code = (
        "import sys, time, dame\n"
        "b = dame.Board(); dame.perft(b, 3); best = None\n"
        "for _ in range(int(sys.argv[2])):\n"
        "    t = time.process_time(); n = dame.perft(b, int(sys.argv[1])); dt = time.process_time() - t\n"
        "    best = dt if best is None else min(best, dt)\n"
        "print(n, best, dame.__version__ if hasattr(dame, '__version__') else '?')\n"
    )
    out = subprocess.run([str(python), "-c", code, str(depth), str(repeat)], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"dame-rs failed: {out.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    n, cpu, _ = out.stdout.split()
    return Timing(int(n), float(cpu))


def ours_plain(name: str, depth: int) -> int:
    """The same walk as ``their_plain``: generate, apply, recurse; ``len(moves)`` at the last ply."""
    pos = Position.start(name)
    gen = pos.variant.generator
    moves, apply = gen.moves, gen.apply

    def walk(w: int, b: int, k: int, t: int, d: int) -> int:
        ms = moves(w, b, k, t)
        if d == 1:
            return len(ms)
        total = 0
        for m in ms:
            total += walk(*apply(w, b, k, t, m), d - 1)
        return total

    return walk(*pos.state, depth) if depth > 0 else 1


# -- py-draughts -------------------------------------------------------------------------------------


def load_pydraughts():
    """The ``draughts`` module, or None with the reason printed."""
    try:
        import draughts  # type: ignore[import-not-found]
    except ImportError:
        print(
            "py-draughts is not importable from this interpreter; running our side only.\n"
            "  Set up its separate venv (see bench/README.md):\n"
            "  python3 -m venv .bench-venv && "
            f".bench-venv/bin/pip install py-draughts=={PYDRAUGHTS_VERSION} -e .\n"
            "  then run: .bench-venv/bin/python bench/perft.py",
            file=sys.stderr,
        )
        return None
    version = getattr(draughts, "__version__", "?")
    if version != PYDRAUGHTS_VERSION:
        print(
            f"warning: py-draughts {version} found, this benchmark was written for {PYDRAUGHTS_VERSION}",
            file=sys.stderr,
        )
    return draughts


def their_plain(board_cls, depth: int, force_captures: bool = False) -> int:
    """perft over py-draughts' public API.  ``force_captures`` drops the quiet moves whenever a
    capture exists (used only to check that its English generator is right apart from that rule)."""
    board = board_cls()

    def walk(d: int) -> int:
        ms = board.legal_moves
        if force_captures:
            caps = [m for m in ms if m.captured_list]
            if caps:
                ms = caps
        if d == 1:
            return len(ms)
        total = 0
        push, pop = board.push, board.pop
        for m in ms:
            push(m)
            total += walk(d - 1)
            pop()
        return total

    return walk(depth) if depth > 0 else 1


def their_own_perft(draughts, board_cls, depth: int) -> int:
    from draughts.engines.turbo import perft_from_board  # type: ignore[import-not-found]

    return perft_from_board(board_cls(), depth)


# -- running -----------------------------------------------------------------------------------------


def make_jobs(name: str, d: int, draughts, cls, *, plain: bool, extra: int) -> dict[str, Job]:
    """The measurements for one variant: ours (active core), both cores by name (the compiled one
    ``extra`` plies deeper), ours plain, py-draughts plain, py-draughts turbo."""
    jobs: dict[str, Job] = {
        "ours": (lambda: ours_perft(name, d), lambda: ours_perft(name, min(d, 3))),
        "pure": (lambda: core_perft(name, d, "pure"), lambda: core_perft(name, min(d, 3), "pure")),
    }
    if COMPILED_AVAILABLE:
        jobs["compiled"] = (
            lambda: core_perft(name, d + extra, "compiled"),
            lambda: core_perft(name, min(d, 3), "compiled"),
        )
    if plain:
        jobs["plain"] = (lambda: ours_plain(name, d), lambda: ours_plain(name, min(d, 3)))
    if cls is not None:
        jobs["theirs"] = (lambda: their_plain(cls, d), lambda: their_plain(cls, min(d, 3)))
        if name == "international":
            jobs["turbo"] = (
                lambda: their_own_perft(draughts, cls, d),
                lambda: their_own_perft(draughts, cls, min(d, 3)),
            )
    return jobs


@dataclass
class Row:
    name: str
    depth: int
    ours: Timing
    pure: Timing | None = None
    compiled: Timing | None = None
    dame: Timing | None = None
    ours_plain: Timing | None = None
    theirs: Timing | None = None
    theirs_own: Timing | None = None
    notes: list[str] = field(default_factory=list)


def fmt_rate(t: Timing | None) -> str:
    if t is None:
        return "—"
    r = t.rate
    if r >= 1e6:
        return f"{r / 1e6:.2f} M"
    return f"{r / 1e3:.0f} k"


def fmt_ratio(a: Timing | None, b: Timing | None) -> str:
    if a is None or b is None or b.rate == 0:
        return "—"
    return f"{a.rate / b.rate:.2f}×"


def fmt_count(n: int | None) -> str:
    return "—" if n is None else f"{n:,}".replace(",", " ")


def parse_depths(values: list[str], names: list[str], base: dict[str, int]) -> dict[str, int]:
    depths = {n: base[depth_class(n)] for n in names}
    for v in values:
        if "=" in v:
            key, _, d = v.partition("=")
            key = key.strip().lower()
            key = {"english": "american", "standard": "international", "giveaway": "antidraughts"}.get(key, key)
            if key in ("8x8", "10x10"):
                for n in names:
                    if depth_class(n) == key:
                        depths[n] = int(d)
            elif key in depths:
                depths[key] = int(d)
            else:
                raise SystemExit(f"--depth: unknown variant {key!r} (choose from {', '.join(names)})")
        else:
            for n in names:
                depths[n] = int(v)
    return depths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small depths (8x8: 5, 10x10: 4, Turkish: 4)")
    ap.add_argument(
        "--depth",
        action="append",
        default=[],
        metavar="N | VARIANT=N",
        help="depth for every variant, or for one variant (also 8x8=N, 10x10=N); repeatable",
    )
    ap.add_argument("--ours-only", action="store_true", help="do not run py-draughts")
    ap.add_argument("--no-plain", action="store_true", help="skip our plain walk (only perft())")
    ap.add_argument("--variants", help="comma-separated subset of our variants")
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best CPU time counts")
    ap.add_argument(
        "--compiled-extra",
        type=int,
        default=2,
        metavar="N",
        help="run the compiled core and dame-rs N plies deeper than the pure core (default 2)",
    )
    args = ap.parse_args(argv)

    names = list(VARIANTS)
    if args.variants:
        wanted = [v.strip().lower() for v in args.variants.split(",") if v.strip()]
        alias = {"english": "american", "standard": "international", "giveaway": "antidraughts"}
        wanted = [alias.get(v, v) for v in wanted]
        unknown = [v for v in wanted if v not in VARIANTS]
        if unknown:
            raise SystemExit(f"unknown variant(s) {unknown}; choose from {', '.join(names)}")
        names = [n for n in names if n in wanted]
    depths = parse_depths(args.depth, names, QUICK_DEPTH if args.quick else DEFAULT_DEPTH)

    draughts = None if args.ours_only else load_pydraughts()

    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, CPU time from time.process_time(), best of {args.repeat}"
    )
    if draughts is not None:
        print(f"py-draughts {draughts.__version__} from {Path(draughts.__file__).parent}")
    print(f"active core: {active_core()}")
    if not (DAME_VENV / "bin").exists():
        print(
            f"dame-rs: no {DAME_VENV.name}/ (python3 -m venv {DAME_VENV.name} && "
            f"{DAME_VENV.name}/bin/pip install dame-rs=={DAME_VERSION}); skipped"
        )
    print()

    rows: list[Row] = []
    failed = False
    total0 = time.process_time()
    for name in names:
        d = depths[name]
        exp = published(name, d)
        cls = getattr(draughts, THEIR_BOARDS[name]) if draughts and name in THEIR_BOARDS else None
        jobs = make_jobs(name, d, draughts, cls, plain=not args.no_plain, extra=args.compiled_extra)
        res = timed_interleaved(jobs, args.repeat)

        ours = res["ours"]
        row = Row(name, d, ours, res.get("pure"), res.get("compiled"), None)
        row.ours_plain, row.theirs, row.theirs_own = res.get("plain"), res.get("theirs"), res.get("turbo")
        if name == "international" and not args.ours_only:
            row.dame = dame_perft(d + args.compiled_extra, args.repeat)
        status = check(name, d, ours.count)
        if status == "MISMATCH":
            failed = True
        print(f"{name:<14} depth {d:<2} published {fmt_count(exp):>13}")
        print(
            f"  ours     perft()      {fmt_count(ours.count):>13}  {status:<14} "
            f"{ours.cpu:8.2f} CPU-s  {fmt_rate(ours):>8} leaves/CPU-s"
        )
        for label, t, depth in (("pure", row.pure, d), ("compiled", row.compiled, d + args.compiled_extra)):
            if t is None:
                continue
            st = check(name, depth, t.count)
            failed = failed or st == "MISMATCH"
            print(
                f"  {label:<8} perft {depth:<2}    {fmt_count(t.count):>13}  {st:<14} "
                f"{t.cpu:8.2f} CPU-s  {fmt_rate(t):>8} leaves/CPU-s"
            )
        if row.compiled is not None and row.pure is not None:
            print(f"  ratio compiled/pure: {fmt_ratio(row.compiled, row.pure)}")
        if (t := row.dame) is not None:
            depth = d + args.compiled_extra
            print(
                f"  dame-rs  perft {depth:<2}    {fmt_count(t.count):>13}  {check(name, depth, t.count):<14} "
                f"{t.cpu:8.2f} CPU-s  {fmt_rate(t):>8} leaves/CPU-s   (dame.perft, its own venv)"
            )
            print(f"  ratio compiled/dame-rs: {fmt_ratio(row.compiled, t)}")
        if (p := row.ours_plain) is not None:
            if p.count != ours.count:
                failed = True
                row.notes.append(f"our plain walk counted {p.count}, perft() {ours.count}")
            print(
                f"  ours     plain walk   {fmt_count(p.count):>13}  {check(name, d, p.count):<14} "
                f"{p.cpu:8.2f} CPU-s  {fmt_rate(p):>8} leaves/CPU-s"
            )
        if (t := row.theirs) is not None:
            print(
                f"  py-d     plain walk   {fmt_count(t.count):>13}  {check(name, d, t.count):<14} "
                f"{t.cpu:8.2f} CPU-s  {fmt_rate(t):>8} leaves/CPU-s   ({THEIR_BOARDS[name]})"
            )
            if (o := row.theirs_own) is not None:
                print(
                    f"  py-d     turbo perft  {fmt_count(o.count):>13}  {check(name, d, o.count):<14} "
                    f"{o.cpu:8.2f} CPU-s  {fmt_rate(o):>8} leaves/CPU-s   "
                    "(draughts.engines.turbo.perft_from_board)"
                )
            if name == "american":
                forced = their_plain(cls, d, force_captures=True)
                st = check(name, d, forced)
                row.notes.append(
                    f"py-draughts' AmericanBoard offers quiet moves even when a capture exists "
                    f"(captures optional); with captures forced by this script it counts "
                    f"{fmt_count(forced)} ({st})"
                )
                print(f"  py-d     captures forced by the wrapper: {fmt_count(forced)} {st}")
            print(
                f"  ratio ours/py-d: perft() {fmt_ratio(row.ours, row.theirs)}, "
                f"plain {fmt_ratio(row.ours_plain, row.theirs)}"
                + (f", perft() vs turbo {fmt_ratio(row.ours, row.theirs_own)}" if row.theirs_own else "")
            )
        rows.append(row)
        for n in row.notes:
            print(f"  note: {n}")
        print(flush=True)
    total = time.process_time() - total0

    print(f"Total CPU time {total:.1f} s.\n")
    print_markdown(rows, draughts is not None, not args.no_plain)
    print()
    print_core_markdown(rows, args.compiled_extra)
    return 1 if failed else 0


def print_core_markdown(rows: list[Row], extra: int) -> None:
    """The two cores side by side (and dame-rs on International)."""
    print("| variant | pure depth | pure leaves/CPU-s | compiled depth | compiled | compiled/pure | dame-rs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        dame = f"{fmt_rate(r.dame)} ({fmt_ratio(r.compiled, r.dame)} of it)" if r.dame else "—"
        print(
            f"| {r.name} | {r.depth} | {fmt_rate(r.pure)} | {r.depth + extra} | {fmt_rate(r.compiled)} | "
            f"{fmt_ratio(r.compiled, r.pure)} | {dame} |"
        )


def print_markdown(rows: list[Row], with_theirs: bool, with_plain: bool) -> None:
    head = ["variant", "depth", "published", "ours", "ours ok"]
    if with_theirs:
        head += ["py-draughts", "py-d ok"]
    head += ["ours perft() leaves/CPU-s"]
    if with_plain:
        head += ["ours plain"]
    if with_theirs:
        head += ["py-d plain", "py-d turbo perft", "ratio perft()/py-d plain"]
        if with_plain:
            head += ["ratio plain/plain"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(" --- " for _ in head) + "|")
    for r in rows:
        cells = [
            r.name,
            str(r.depth),
            fmt_count(published(r.name, r.depth)),
            fmt_count(r.ours.count),
            check(r.name, r.depth, r.ours.count),
        ]
        if with_theirs:
            cells += [
                fmt_count(r.theirs.count if r.theirs else None),
                check(r.name, r.depth, r.theirs.count if r.theirs else None),
            ]
        cells += [fmt_rate(r.ours)]
        if with_plain:
            cells += [fmt_rate(r.ours_plain)]
        if with_theirs:
            cells += [fmt_rate(r.theirs), fmt_rate(r.theirs_own), fmt_ratio(r.ours, r.theirs)]
            if with_plain:
                cells += [fmt_ratio(r.ours_plain, r.theirs)]
        print("| " + " | ".join(cells) + " |")
    print()
    text = "Leaves per CPU-second (time.process_time), one process, start position. "
    text += "ours perft() = generator.rules.perft (bulk count at the last ply). "
    if with_plain:
        text += "plain = generate/apply walk with len(moves) at the last ply"
        text += " on both sides (py-draughts: Board.legal_moves/push/pop). " if with_theirs else ". "
    if with_theirs:
        text += "py-d turbo perft = draughts.engines.turbo.perft_from_board (10x10 International only). "
    text += (
        "Portuguese reference = dctl's Spanish column [UNV, docs/spec.md §13.2]; "
        "perde-ganha = Brazilian and antidraughts = International moves."
    )
    print(text)
    notes = [n for r in rows for n in r.notes]
    for n in notes:
        print(f"- {n}")


if __name__ == "__main__":
    sys.exit(main())
