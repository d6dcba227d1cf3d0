#!/usr/bin/env python3
"""Cook hunt: every bundled puzzle searched past its printed line (throwaway audit script).

For each puzzle of the given lesson files (default lessons/*/golpes.yaml) the solver lists every
first move that forces the stipulation within the printed solution's plies plus a margin (default
4).  A puzzle is *cooked* when another first move appears; it is *not a puzzle* when the key line
gives nothing up (no defender capture before the attacker's last move) although the side to move
had other moves.  Usage: python3 bench/cooks.py [--margin N] [FILE ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.lessons.check import check_file  # noqa: E402
from generator.lessons.source import load_document  # noqa: E402,F401
from generator.puzzles.search import Solver, Stipulation  # noqa: E402
from generator.rules.game import Game  # noqa: E402


def audit(path: Path, margin: int) -> int:
    checked, errors = check_file(path)
    for e in errors:
        print(f"  {e}")
    if checked is None:
        return 1
    bad = 0
    for p in checked.lesson.puzzles:
        pos = p.position
        depth = len(p.solution) + margin
        key = pos.parse_move(p.solution[0].move.value)
        t = time.perf_counter()
        proof = Solver(pos.variant, checked.lesson.profile).solve(pos, Stipulation.parse(p.stipulation), depth)
        secs = time.perf_counter() - t
        cooks = [m for m in proof.solutions if m != key]
        moves, cur = [], pos
        for s in p.solution:
            m = cur.parse_move(s.move.value)
            moves.append(m)
            cur = cur.play(m)
        gives = any(moves[i].captures for i in range(1, len(moves) - 1, 2))
        status = []
        if key not in proof.solutions:
            status.append("KEY FAILS")
        if cooks:
            txt = ", ".join(f"{pos.move_text(m, long=True)}({proof.shortest[m]})" for m in cooks)
            status.append(f"COOK {txt}")
        solver = Solver(pos.variant, checked.lesson.profile)
        solver.prepare(pos, Stipulation.parse(p.stipulation))

        game = Game(pos.variant, pos, profile=checked.lesson.profile, counters=p.counters)
        last = max(j for j in range(0, len(moves), 2))
        for j, m in enumerate(moves):
            if j % 2 == 0 and 0 < j < last:
                winners = solver.winning_moves(game, depth - j)
                duals = [w for w in winners if w != m]
                if duals:
                    status.append(
                        f"DUAL at ply {j + 1}: " + ", ".join(game.position.move_text(w, long=True) for w in duals)
                    )
            game.push(m)
        if not gives and len(pos.legal_moves()) > 1:
            status.append("NO SACRIFICE")
        if status:
            bad += 1
        print(
            f"{path}:{p.id} {p.stipulation} plies={len(p.solution)} depth={depth} "
            f"key={pos.move_text(key, long=True)}({proof.shortest.get(key)}) {secs:.1f}s {'; '.join(status) or 'ok'}",
            flush=True,
        )
    return bad


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--margin", type=int, default=4)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = [Path(f) for f in a.files] or sorted((ROOT / "lessons").glob("*/golpes.yaml"))
    bad = sum(audit(f, a.margin) for f in files)
    print(f"{bad} puzzle(s) with problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
