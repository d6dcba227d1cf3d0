"""Benchmark of ``damas build`` and ``damas check``: cold, warm and incremental, by stage.

On a copy of the course (``--lessons``, default the bundled lessons/; never edited in place), with a
fresh proof cache (generator/cache.py) in a temporary folder:

* **cold build**: empty cache, no previous output (every proof, tree, diagram and PDF made);
* **warm build**: the same build again, nothing changed (proofs and panels from the cache, PDFs reused);
* with ``--before``, the unchanged build without the cache (PDFs still reused), as damas built before it;
* **incremental build**: after one lesson's title changed;
* **check** cold (empty cache) and warm;
* page sizes: the largest HTML pages, all HTML, the step diagrams.

``--add FILE`` merges mined lesson files (``damas mine`` output, any number; ``VARIANT=FILE`` for a
bare ``puzzles:`` list) into one extra lesson per variant of the copy, duplicates dropped, to measure
a course of several hundred puzzles before the books have landed.  Times are wall-clock and CPU (this
process, every thread): on a shared machine the CPU figure is the steadier one.  Target (issue 14):
a warm build of the whole course under 20 s with ~600 puzzles.

    python3 bench/build.py [--lessons lessons] [--add mined.yaml ...] [--format html,pdf] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.build import build  # noqa: E402
from generator.cache import Cache, use  # noqa: E402
from generator.course import Course, check_course  # noqa: E402


def merge_mined(lessons: Path, files: list[str]) -> int:
    """Add the puzzles of mined lesson files to ``lessons`` as ``<variant>/exercicios-bench.yaml``
    (one lesson per variant; the same position and stipulation kept once).  Returns the puzzles added."""
    by_variant: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[str, str, str]] = set()
    for name in files:
        given, _, path = name.rpartition("=")
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        if isinstance(data, dict) and given:
            data["variant"] = given
        if not isinstance(data, dict) or not isinstance(data.get("variant"), str):
            print(f"skipped {name}: not a lesson file with a variant (write VARIANT=FILE)", file=sys.stderr)
            continue
        variant = data["variant"]
        for p in data.get("puzzles") or []:
            mark = (variant, str(p.get("position")), str(p.get("stipulation")))
            if mark in seen:
                continue
            seen.add(mark)
            p = dict(p)
            p["id"] = f"b{len(by_variant.get(variant, [])) + 1:03d}"
            by_variant.setdefault(variant, []).append(p)
    for variant, puzzles in by_variant.items():
        lesson = {
            "variant": variant,
            "language": "pt-BR",
            "title": "Exercícios (benchmark)",
            "slug": "exercicios-bench",
            "order": 9,
            "summary": "Posições mineradas para medir o build.",
            "sections": [{"title": "Exercícios", "text": "Resolva cada posição."}],
            "puzzles": puzzles,
        }
        (lessons / variant).mkdir(exist_ok=True)
        text = yaml.safe_dump(lesson, allow_unicode=True, sort_keys=False)
        (lessons / variant / "exercicios-bench.yaml").write_text(text, encoding="utf-8")
    return sum(len(p) for p in by_variant.values())


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, its wall-clock seconds and its CPU seconds (this process, all threads)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def page_sizes(out: Path) -> list[str]:
    html = out / "html"
    pages = sorted(html.rglob("*.html"), key=lambda p: p.stat().st_size, reverse=True)
    steps = list((html / "svg" / "passos").rglob("*.svg"))
    total = sum(p.stat().st_size for p in html.rglob("*") if p.is_file())
    lines = [
        f"HTML: {len(pages)} pages, {sum(p.stat().st_size for p in pages) / 1e6:.1f} MB; "
        f"step diagrams: {len(steps)} files, {sum(p.stat().st_size for p in steps) / 1e6:.1f} MB; "
        f"html/ in all {total / 1e6:.1f} MB"
    ]
    for p in pages[:5]:
        lines.append(f"  {p.relative_to(html)}: {p.stat().st_size / 1e3:.0f} kB")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", default=str(ROOT / "lessons"))
    parser.add_argument("--add", nargs="*", default=[], help="mined lesson files merged into the copy")
    parser.add_argument("--format", default="html,pdf", help="formats built (html,pdf)")
    parser.add_argument("--repeat", type=int, default=1, help="warm builds (the median is shown)")
    parser.add_argument("--before", action="store_true", help="also an unchanged build with no cache (the old way)")
    args = parser.parse_args()
    formats = [f for f in args.format.split(",") if f]

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lessons = work / "lessons"
        shutil.copytree(args.lessons, lessons)
        added = merge_mined(lessons, args.add) if args.add else 0
        out = work / "output"
        cache = Cache(work / "cache")
        os.environ["DAMAS_CACHE_DIR"] = str(work / "cache")  # nothing falls back to the user's cache

        summary, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=cache))
        print(
            f"course: {summary.pages} pages, {summary.diagrams} diagrams, {summary.puzzles} puzzles"
            f"{f' ({added} added from mined files)' if added else ''}, {summary.pdfs} PDFs"
        )
        print(f"cold build (empty cache, no previous output): {wall:.1f} s wall, {cpu:.1f} s CPU")
        print("  " + ", ".join(f"{k} {v:.1f} s" for k, v in summary.stages.items()))
        print(f"  cache: {cache.writes} entries written, {_size(work / 'cache') / 1e6:.1f} MB")

        warm: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            cache.hits = cache.misses = 0
            again, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=cache))
            warm.append((wall, cpu))
        print(
            f"warm build (nothing changed), median of {len(warm)}: {statistics.median(w for w, _ in warm):.1f} s wall, "
            f"{statistics.median(c for _, c in warm):.1f} s CPU; {cache.hits} cache hits, {cache.misses} misses, "
            f"{again.reused} of {again.pdfs} PDFs reused"
        )
        print("  " + ", ".join(f"{k} {v:.1f} s" for k, v in again.stages.items()))

        if args.before:
            same, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=False))
            print(
                f"unchanged build without the cache (as before it): {wall:.1f} s wall, {cpu:.1f} s CPU, "
                f"{same.reused} of {same.pdfs} PDFs reused"
            )
            print("  " + ", ".join(f"{k} {v:.1f} s" for k, v in same.stages.items()))

        target = sorted(lessons.rglob("regras.yaml"))[0]
        text = target.read_text(encoding="utf-8")
        target.write_text(text.replace("title: ", "title: (edição) ", 1), encoding="utf-8")
        inc, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=cache))
        print(
            f"incremental build after editing {target.parent.name}/{target.name}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"{inc.pdfs - inc.reused} PDF(s) compiled"
        )

        course = Course(work, lessons)
        fresh = Cache(work / "cache-check")
        for label, store in (("cold", fresh), ("warm", fresh), ("no cache", None)):

            def run(store: Cache | None = store) -> Any:
                with use(store):
                    return check_course(course)

            report, wall, cpu = timed(run)
            print(f"check ({label}): {wall:.1f} s wall, {cpu:.1f} s CPU, {report.counts()['puzzles']} puzzles")

        if "html" in formats:
            for line in page_sizes(out):
                print(line)
    return 0


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


if __name__ == "__main__":
    sys.exit(main())
