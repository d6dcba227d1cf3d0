#!/usr/bin/env python3
"""How long a ``damas`` command takes to start: CPU seconds per call, against ``import click, yaml``.

Scripts call ``damas moves`` or ``damas fen | damas board`` in loops and editors call them on every
keystroke, so what a call costs before it does any work is what they feel.  Each command runs
``--repeat`` times in a fresh interpreter; the figure is the median of the child's user+system CPU
time (``resource.getrusage(RUSAGE_CHILDREN)``), which the other work on a busy machine disturbs far
less than wall time.  The reference is the same interpreter running ``import click, yaml``: the
floor any click command line that reads YAML pays.

``--against DIR`` runs the same commands from another checkout (for example a worktree of the
previous commit) with the same interpreter, its source first on ``sys.path``, and prints the ratio,
so a change is compared with the version before it in one run::

    git worktree add /tmp/before HEAD~1
    .venv/bin/python bench/startup.py --against /tmp/before
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS: list[list[str]] = [
    ["--version"],
    ["variants"],
    ["moves", "american", "start"],
    ["board", "american", "start"],
    ["fen", "american", "--turn", "white"],
    ["game", "american", "11-15"],
    ["perft", "american", "3"],
]
"""The engine commands the issue names; each must cost at most twice the reference."""

FEN_INPUT = "- b - b - b - b\n" + ". - . - . - . -\n- . - . - . - .\n" * 3 + "w - w - w - w -\n"


def cpu_of(argv: list[str], *, env: dict[str, str], stdin: str = "") -> float:
    """User+system CPU seconds of one child process running ``argv``.  It runs in the checkout named
    by ``PYTHONPATH`` (``python -c`` puts the working folder first on ``sys.path``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    where = env.get("PYTHONPATH", "").split(os.pathsep)[0] or None
    subprocess.run(
        argv, input=stdin, text=True, env=env, cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_cpu(argv: list[str], repeat: int, *, env: dict[str, str], stdin: str = "") -> float:
    return statistics.median(cpu_of(argv, env=env, stdin=stdin) for _ in range(repeat))


def damas_argv(command: list[str]) -> list[str]:
    return [sys.executable, "-c", "import sys; from generator.cli import main; sys.exit(main())", *command]


def environment(source: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (the median is kept)")
    parser.add_argument("--against", type=Path, default=None, help="another checkout to compare with")
    args = parser.parse_args()
    if not 1 <= args.repeat <= 1000:
        parser.error("--repeat must be between 1 and 1000")
    ours = environment(ROOT)
    theirs = environment(args.against) if args.against else None
    floor = median_cpu([sys.executable, "-c", "import click, yaml"], args.repeat, env=ours)
    print(f"reference `python -c 'import click, yaml'`: {floor * 1000:.0f} ms CPU (median of {args.repeat})")
    head = "| command | ms CPU | × reference |" + (" before (ms) | before / now |" if theirs else "")
    print("\n" + head + "\n" + "|---" * (head.count("|") - 1) + "|")
    worst = 0.0
    for command in COMMANDS:
        stdin = FEN_INPUT if command[0] == "fen" else ""
        now = median_cpu(damas_argv(command), args.repeat, env=ours, stdin=stdin)
        worst = max(worst, now / floor)
        row = f"| damas {' '.join(command)} | {now * 1000:.0f} | {now / floor:.2f} |"
        if theirs is not None:
            before = median_cpu(damas_argv(command), args.repeat, env=theirs, stdin=stdin)
            row += f" {before * 1000:.0f} | {before / now:.2f} |"
        print(row)
    print(f"\nworst ratio to the reference: {worst:.2f} (target: at most 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
