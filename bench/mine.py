"""Mining throughput: positions scanned per second, sound puzzles found per CPU-minute per
variant, and the scaling from one to two local worker processes (the same units each time).

    .venv/bin/python bench/mine.py                       # brazilian and american, 8 games each
    .venv/bin/python bench/mine.py --variants russian --games 4 --max-plies 80

CPU time is the workers' own time per unit (summed), so "puzzles per CPU-minute" does not depend on
how many workers ran; wall time gives the scaling.  Prints a Markdown table at the end.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.puzzles.mining.candidate import Settings
from generator.puzzles.mining.run import Checkpoint, run
from generator.puzzles.mining.sources import self_play_units


def measure(variant: str, games: int, workers: int, max_plies: int, seed: int) -> dict[str, float]:
    settings = Settings(variant, max_plies=max_plies)
    with tempfile.TemporaryDirectory() as tmp:
        cp = Checkpoint(Path(tmp) / "cp.jsonl", {"bench": variant, "workers": workers})
        started = time.perf_counter()
        with cf.ProcessPoolExecutor(workers) as ex:
            result = run(settings, self_play_units(games, seed), ex, cp, in_flight=2 * workers)
        wall = time.perf_counter() - started
        cp.close()
    t = result.tally
    return {
        "wall": wall,
        "cpu": result.cpu_seconds,
        "scanned": t.scanned,
        "candidates": t.candidates,
        "found": t.found,
        "kept": len(result.puzzles),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="brazilian,american")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=160)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", default="1,2", help="worker counts to compare (default 1,2)")
    args = ap.parse_args()
    rows = []
    for variant in args.variants.split(","):
        base = None
        for w in [int(x) for x in args.workers.split(",")]:
            m = measure(variant, args.games, w, args.max_plies, args.seed)
            base = base or m["wall"]
            rows.append(
                (
                    variant,
                    w,
                    m["scanned"],
                    m["scanned"] / m["wall"],
                    m["candidates"],
                    m["kept"],
                    m["kept"] / max(m["cpu"] / 60, 1e-9),
                    m["wall"],
                    base / m["wall"],
                )
            )
            print(f"{variant} workers={w}: {m}", flush=True)
    print()
    print(
        "| variant | workers | positions | positions/s | candidates | puzzles | puzzles/CPU-min | wall s | speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.1f} | {r[4]} | {r[5]} | {r[6]:.2f} | {r[7]:.1f} | {r[8]:.2f} |")


if __name__ == "__main__":
    main()
