"""Peak memory of ``damas check`` and ``damas build`` as a course grows.

Generates a course of N small lessons (one variant, each lesson a section of text and two diagrams,
one with a verified claim) in a temporary folder, runs the command in a child process, and prints
the child's peak resident set size (``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``) and its
time.  Run two sizes to see how memory grows: it should grow linearly and modestly.

    python3 bench/memory.py --lessons 2000 [--format html,pdf] [--check-only]
    python3 bench/memory.py --lessons 200 --lessons 400     # several sizes, one line each
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_course(folder: Path, n: int, variant: str = "american") -> Path:
    """``n`` small lessons of ``variant`` under ``folder/lessons``."""
    lessons = folder / "lessons" / variant
    lessons.mkdir(parents=True)
    for i in range(n):
        data = {
            "variant": variant,
            "language": "pt-BR",
            "title": f"Lição {i + 1}",
            "slug": f"licao-{i + 1}",
            "summary": "Uma lição curta para medir a memória.",
            "order": i,
            "sections": [
                {
                    "title": "O primeiro lance",
                    "text": "As **pretas** começam. Cada pedra anda *uma casa* na diagonal.\n\n- um\n- dois\n",
                    "diagrams": [
                        {"position": "start", "caption": "O início."},
                        {
                            "position": "W:W22:B18",
                            "caption": "A captura.",
                            "claims": [{"only_move": "22x15", "text": "A captura é obrigatória."}],
                        },
                    ],
                }
            ],
        }
        (lessons / f"licao-{i + 1:05d}.yaml").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder / "lessons"


def measure(n: int, formats: str, check_only: bool) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one child process over a fresh course of ``n`` lessons."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lessons = make_course(work, n)
        args = (
            ["check", str(lessons)] if check_only else ["build", "--lessons", str(lessons), "--out", str(work / "out")]
        )
        if not check_only:
            args += ["--format", formats]
        code = (
            "import resource, sys; from generator.cli import main; rc = main(sys.argv[1:]); "
            "print(max(resource.getrusage(r).ru_maxrss for r in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)), "
            "file=sys.stderr); sys.exit(rc)"
        )
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env={**os.environ}
        )
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"damas {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        peak_kb = int(done.stderr.strip().splitlines()[-1])  # the child's own peak, or its PDF workers'
        return peak_kb / 1024, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, action="append", help="course size (repeatable); default 2000")
    parser.add_argument("--format", default="html,pdf")
    parser.add_argument("--check-only", action="store_true", help="measure 'damas check' instead of 'build'")
    args = parser.parse_args()
    what = "check" if args.check_only else f"build --format {args.format}"
    print(f"| lessons | damas {what}: peak RSS (MB) | seconds |")
    print("|---:|---:|---:|")
    for n in args.lessons or [2000]:
        mb, seconds = measure(n, args.format, args.check_only)
        print(f"| {n} | {mb:.0f} | {seconds:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
