"""What the interactive pages cost: HTML build time, page bytes and step-diagram files, with and without.

The peer in the same run is the same HTML build with the interactive data switched off (the site
plan's replay and puzzle hooks replaced by empty ones), so the ratios hold on a loaded machine.

    python3 bench/interactive.py [--repeat 1] [--lessons lessons]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.build import build  # noqa: E402


def measure(lessons: str, interactive: bool) -> tuple[float, int, int, int]:
    """Seconds, bytes of the HTML pages (the editor left out), step files and their bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        patches = []
        if not interactive:
            patches = [
                mock.patch("generator.render.site.diagram_replays", lambda *a, **k: []),
                mock.patch("generator.render.site.puzzle_play", lambda *a, **k: None),
            ]
        for p in patches:
            p.start()
        try:
            started = time.perf_counter()
            build(out, lessons=[lessons], formats=["html"], jobs=1)
            seconds = time.perf_counter() - started
        finally:
            for p in patches:
                p.stop()
        html = sum(p.stat().st_size for p in (out / "html").rglob("*.html") if p.name != "editor.html")
        steps = list((out / "html" / "svg" / "passos").rglob("*.svg"))
        return seconds, html, len(steps), sum(p.stat().st_size for p in steps)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--lessons", default=str(ROOT / "lessons"))
    args = parser.parse_args()
    runs = {flag: [measure(args.lessons, flag) for _ in range(args.repeat)] for flag in (False, True)}
    off, on = (statistics.median(r[0] for r in runs[f]) for f in (False, True))
    base, full = runs[False][0], runs[True][0]
    print(f"html build: {off:.2f} s without, {on:.2f} s with the interactive data (x{on / off:.2f})")
    print(f"html pages: {base[1] / 1024:.0f} KiB without, {full[1] / 1024:.0f} KiB with (x{full[1] / base[1]:.2f})")
    print(f"step diagrams: {full[2]} files, {full[3] / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
