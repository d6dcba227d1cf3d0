#!/usr/bin/env python3
"""What a second core buys an endgame build: ``damas endgame build`` with ``--jobs 1`` and ``--jobs N``.

Each run builds the same set from an empty cache folder, in a fresh process; the runs alternate
(serial, parallel, serial, ...) so that load on a shared machine hits both alike.  Printed per run:
wall seconds, the command's CPU seconds (its own and its workers', ``RUSAGE_CHILDREN``), and its peak
resident size; then the medians and the wall-time ratio, and whether every stored file of the
parallel builds is byte for byte the serial build's (it must be)::

    .venv/bin/python bench/endgame.py american --pieces 5 --repeat 1
    .venv/bin/python bench/endgame.py brazilian --pieces 4 --repeat 3 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(variant: str, pieces: int, jobs: int, root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one build of ``variant`` into the empty cache folder ``root``."""
    env = {**os.environ, "DAMAS_CACHE_DIR": str(root)}
    argv = [sys.executable, "-m", "generator", "endgame", "build", variant, "--pieces", str(pieces)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*argv, "--jobs", str(jobs)], env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def stored(root: Path) -> dict[str, bytes]:
    """Every result and distance file under a cache folder, by name."""
    return {p.name: p.read_bytes() for p in root.rglob("*") if p.suffix in (".wdl", ".dtw")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--pieces", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    os.chdir(Path(__file__).resolve().parent.parent)
    times: dict[int, list[tuple[float, float]]] = {1: [], args.jobs: []}
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            files = {}
            for jobs in (1, args.jobs):
                root = Path(tmp) / f"{jobs}-{i}"
                wall, cpu = run(args.variant, args.pieces, jobs, root)
                times[jobs].append((wall, cpu))
                files[jobs] = stored(root)
                print(f"--jobs {jobs}: {wall:7.1f} s wall {cpu:7.1f} s CPU  ({len(files[jobs])} files)", flush=True)
            same = same and bool(files[1]) and files[1] == files[args.jobs]
    wall1 = statistics.median(w for w, _ in times[1])
    walln = statistics.median(w for w, _ in times[args.jobs])
    cpu1 = statistics.median(c for _, c in times[1])
    cpun = statistics.median(c for _, c in times[args.jobs])
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\n| {args.variant} 1-{args.pieces} pieces | wall | CPU |")
    print("|---|---:|---:|")
    print(f"| --jobs 1 | {wall1:.1f} s | {cpu1:.1f} s |")
    print(f"| --jobs {args.jobs} | {walln:.1f} s | {cpun:.1f} s |")
    print(f"| ratio | x{wall1 / walln:.2f} | x{cpun / cpu1:.2f} |")
    print(f"\nlargest process: {peak:.0f} MB; files identical: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
