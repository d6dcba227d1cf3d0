"""Benchmark of ``damas build`` on the bundled course: full and incremental builds, by stage.

Prints the full (clean) build time split by stage (verify, svg = planning and drawing the diagrams,
html, pdf), PDF pages per second, milliseconds per diagram, and the time of an incremental rebuild
after one lesson's text changed (the lesson is edited in a temporary copy of lessons/, never in
place).  Targets from the issue: full build under 15 s on this 2-core machine, incremental under 2 s.

    python3 bench/build.py [--repeat 3] [--lessons lessons]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.build import build  # noqa: E402


def pdf_pages(out: Path) -> int:
    try:
        from pypdf import PdfReader
    except ImportError:  # pypdf is a test dependency; without it pages are not counted
        return 0
    return sum(len(PdfReader(str(p)).pages) for p in (out / "pdf").rglob("*.pdf"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kind; the median is shown")
    parser.add_argument("--lessons", default=str(ROOT / "lessons"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lessons = work / "lessons"
        shutil.copytree(args.lessons, lessons)
        out = work / "output"

        full: list[float] = []
        stages: dict[str, list[float]] = {}
        summary = None
        for _ in range(args.repeat):
            started = time.perf_counter()
            summary = build(out, lessons=[lessons], incremental=False)
            full.append(time.perf_counter() - started)
            for name, seconds in summary.stages.items():
                stages.setdefault(name, []).append(seconds)
        assert summary is not None
        pages = pdf_pages(out)

        target = sorted(lessons.rglob("regras.yaml"))[0]
        incremental: list[float] = []
        recompiled = 0
        for i in range(args.repeat):
            text = target.read_text(encoding="utf-8")
            target.write_text(text.replace("title: ", f"title: (edição {i}) ", 1), encoding="utf-8")
            started = time.perf_counter()
            again = build(out, lessons=[lessons])
            incremental.append(time.perf_counter() - started)
            recompiled = again.pdfs - again.reused

    med = statistics.median(full)
    pdf_seconds = statistics.median(stages.get("pdf", [0.0]))
    print(
        f"course: {summary.pages} pages, {summary.diagrams} diagrams, {summary.puzzles} puzzles, "
        f"{summary.pdfs} PDFs ({pages} PDF pages)"
    )
    print(f"full build (median of {args.repeat}): {med:.2f} s  [runs: {', '.join(f'{s:.2f}' for s in full)}]")
    for name in ("verify", "svg", "html", "pdf"):
        if name in stages:
            print(f"  {name:<7} {statistics.median(stages[name]):6.2f} s")
    if pages and pdf_seconds:
        print(f"PDF pages per second: {pages / pdf_seconds:.0f}")
    if summary.diagrams:
        per = statistics.median(stages.get("svg", [0.0])) / (summary.diagrams + summary.puzzles) * 1000
        print(f"milliseconds per diagram (plan + draw + write): {per:.1f}")
    print(
        f"incremental rebuild after editing {target.parent.name}/{target.name} (median): "
        f"{statistics.median(incremental):.2f} s, {recompiled} PDF(s) recompiled"
    )
    ok = med < 15 and statistics.median(incremental) < 2
    print(f"targets (full < 15 s, incremental < 2 s): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
