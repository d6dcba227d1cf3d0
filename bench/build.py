"""Benchmark of ``damas build`` and ``damas check``: cold, warm and incremental, by stage.

On a copy of the course (``--lessons``, default the bundled lessons/; never edited in place), with a
fresh proof cache (generator/cache.py) in a temporary folder:

* **where a cold build spends its time** (``--stages``): one cold build in a single process
  (``jobs=1``), its CPU seconds split by the work done, whichever function does it in this version
  of the code (:data:`STAGES`): proofs, the page's play trees, endgame tables, drawings, replays,
  panels, HTML, PDFs, and the rest (reading and checking lessons, planning, writing files);
* **cold build** (``--runs`` times, each with an empty cache and no previous output): every proof,
  tree, diagram and PDF made, with the build's own parallelism (``--jobs``, default the build's);
* **warm build**: the same build again, nothing changed (proofs and panels from the cache, PDFs reused),
  and the same into a fresh folder, twice: with the PDFs the cold build kept in the cache, and with
  every PDF compiled again (``--clean``: only the proofs, trees and drawings come from the cache);
* with ``--before``, the unchanged build without the cache (PDFs still reused), as damas built before it;
* **incremental build**: after one lesson's title changed;
* **check** cold (empty cache) and warm;
* page sizes: the largest HTML pages, all HTML, the step diagrams.

``--add FILE`` merges mined lesson files (``damas mine`` output, any number; ``VARIANT=FILE`` for a
bare ``puzzles:`` list) into one extra lesson per variant of the copy, duplicates dropped, to measure
a course of several hundred puzzles before the books have landed.  Times are wall-clock and CPU (this
process, every thread, and its finished child processes): on a shared machine the CPU figure is the
steadier one.  Targets (issue 29): a cold build under 30 s on two cores, under 15 s with a warm proof
cache.  Run it from another checkout's bench/ to measure that version (it imports the generator
beside it).

    python3 bench/build.py [--lessons lessons] [--add mined.yaml ...] [--format html,pdf] [--repeat 1]
        [--runs 1] [--stages] [--jobs N] [--quick]
"""

from __future__ import annotations

import argparse
import importlib
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


def own_templates() -> str | None:
    """Why this checkout's generator would draw with another checkout's templates, or None.  An
    editable install maps ``generator._templates`` to the installed checkout's ``templates/``, so a
    bench run from a worktree of an older commit would otherwise mix its code with these templates."""
    import generator._templates as templates

    where = Path(next(iter(templates.__path__))).resolve()
    if where.is_relative_to(ROOT):
        return None
    return (
        f"the templates come from {where}, not from this checkout ({ROOT}); "
        f"link them in first: ln -s {ROOT / 'templates'} {ROOT / 'generator' / '_templates'}"
    )


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


def cpu_seconds() -> float:
    """CPU seconds of this process (every thread) and of its child processes that have finished."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, its wall-clock seconds and its CPU seconds (this process, all threads, and the worker
    processes it started and waited for)."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = fn()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


STAGES: list[tuple[str, list[str]]] = [
    ("proofs", ["generator.lessons.verify:prove_puzzle", "generator.puzzles.proof:prove_puzzle"]),
    ("play trees", ["generator.render.interactive:page_tree", "generator.puzzles.proof:result_play"]),
    ("endgame claims", ["generator.lessons.verify:Verifier.claim_ending"]),
    ("drawings", ["generator.render.svg:render_view"]),
    ("replays", ["generator.render.interactive:replay_data"]),
    ("panels", ["generator.render.interactive:puzzle_game"]),
    ("HTML", ["generator.build:render_pages"]),
    ("PDFs", ["generator.build:_compile_all"]),
]
"""Each kind of work and the functions that do it (module:attribute, in the old code or the new): the
first found are wrapped; a function called inside another wrapped one counts for itself only."""


class StageClock:
    """CPU seconds per stage, exclusive: the time of a wrapped call minus the wrapped calls inside it."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {name: 0.0 for name, _ in STAGES}
        self.stack: list[float] = []
        self.undo: list[tuple[Any, str, Any]] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            self.stack.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                inner = self.stack.pop()
                spent = time.process_time() - start
                self.seconds[name] += spent - inner
                if self.stack:
                    self.stack[-1] += spent

        return wrapped

    def install(self) -> list[str]:
        """Wrap every function of :data:`STAGES` that this code has; returns those found."""
        found = []
        for name, targets in STAGES:
            for target in targets:
                module_name, _, attr = target.partition(":")
                try:
                    owner: Any = importlib.import_module(module_name)
                except ImportError:
                    continue
                *path, last = attr.split(".")
                for part in path:
                    owner = getattr(owner, part, None)
                if owner is None or not hasattr(owner, last):
                    continue
                original = getattr(owner, last)
                self.undo.append((owner, last, original))
                setattr(owner, last, self.wrap(name, original))
                found.append(target)
        return found

    def remove(self) -> None:
        for owner, last, original in reversed(self.undo):
            setattr(owner, last, original)
        self.undo.clear()


def stage_table(lessons: Path, work: Path, formats: list[str]) -> None:
    """One cold build in this process alone (jobs=1), its CPU seconds split by :data:`STAGES`."""
    clock = StageClock()
    found = clock.install()
    try:
        cache = Cache(work / "cache-stages")
        os.environ["DAMAS_CACHE_DIR"] = str(cache.root)  # the endgame tables start empty too
        with use(None):
            summary, wall, cpu = timed(
                lambda: build(work / "out-stages", lessons=[lessons], formats=formats, cache=cache, jobs=1)
            )
    finally:
        clock.remove()
    print(f"cold build in one process (jobs=1): {wall:.1f} s wall, {cpu:.1f} s CPU; by stage (CPU s):")
    rest = cpu - sum(clock.seconds.values())
    for name, seconds in [*clock.seconds.items(), ("rest", rest)]:
        print(f"  {name:<16}{seconds:7.1f}  {100 * seconds / cpu:4.0f} %")
    print("  build stages (wall s): " + ", ".join(f"{k} {v:.1f}" for k, v in summary.stages.items()))
    print(f"  (wrapped: {', '.join(found)})")


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
    wrong = own_templates()
    if wrong is not None:
        print(f"bench/build.py: {wrong}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", default=str(ROOT / "lessons"))
    parser.add_argument("--add", nargs="*", default=[], help="mined lesson files merged into the copy")
    parser.add_argument("--format", default="html,pdf", help="formats built (html,pdf)")
    parser.add_argument("--repeat", type=int, default=1, help="warm builds (the median is shown)")
    parser.add_argument("--runs", type=int, default=1, help="cold builds (the median is shown)")
    parser.add_argument("--jobs", type=int, default=None, help="the build's --jobs (default: the build's own)")
    parser.add_argument("--stages", action="store_true", help="first a one-process cold build split by stage")
    parser.add_argument("--quick", action="store_true", help="cold and warm builds only (no incremental, no check)")
    parser.add_argument("--before", action="store_true", help="also an unchanged build with no cache (the old way)")
    args = parser.parse_args()
    formats = [f for f in args.format.split(",") if f]
    jobs: dict[str, Any] = {} if args.jobs is None else {"jobs": args.jobs}

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        lessons = work / "lessons"
        shutil.copytree(args.lessons, lessons)
        added = merge_mined(lessons, args.add) if args.add else 0
        os.environ["DAMAS_CACHE_DIR"] = str(work / "cache")  # nothing falls back to the user's cache
        if args.stages:
            stage_table(lessons, work, formats)

        colds: list[tuple[float, float]] = []
        for run in range(max(1, args.runs)):
            out = work / f"output-{run}"
            cache = Cache(work / f"cache-{run}")
            os.environ["DAMAS_CACHE_DIR"] = str(cache.root)  # the endgame tables start empty too
            children = os.times().children_user + os.times().children_system
            summary, wall, cpu = timed(
                lambda out=out, cache=cache: build(out, lessons=[lessons], formats=formats, cache=cache, **jobs)
            )
            workers = os.times().children_user + os.times().children_system - children
            colds.append((wall, cpu))
            stages = ", ".join(f"{k} {v:.1f} s" for k, v in summary.stages.items())
            print(
                f"cold build {run + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU ({cpu - workers:.1f} s in this process, "
                f"{workers:.1f} s in workers); {stages}"
            )
        print(
            f"course: {summary.pages} pages, {summary.diagrams} diagrams, {summary.puzzles} puzzles"
            f"{f' ({added} added from mined files)' if added else ''}, {summary.pdfs} PDFs"
        )
        print(
            f"cold build (empty cache, no previous output), median of {len(colds)}: "
            f"{statistics.median(w for w, _ in colds):.1f} s wall, {statistics.median(c for _, c in colds):.1f} s CPU"
        )
        print(f"  cache: {cache.writes} entries written, {_size(cache.root) / 1e6:.1f} MB")

        for label, clean in (("PDFs from the cache", False), ("every PDF compiled: --clean", True)):
            fresh: list[tuple[float, float]] = []
            for run in range(args.repeat):
                again, wall, cpu = timed(
                    lambda run=run, clean=clean: build(
                        work / f"fresh-{run}-{clean}",
                        lessons=[lessons],
                        formats=formats,
                        cache=cache,
                        incremental=not clean,
                        **jobs,
                    )
                )
                fresh.append((wall, cpu))
            print(
                f"warm cache, fresh output ({label}), median of {len(fresh)}: "
                f"{statistics.median(w for w, _ in fresh):.1f} s wall, "
                f"{statistics.median(c for _, c in fresh):.1f} s CPU; "
                f"{again.cached} of {again.pdfs} PDFs from the cache"
            )
            print("  " + ", ".join(f"{k} {v:.1f} s" for k, v in again.stages.items()))

        warm: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            cache.hits = cache.misses = 0
            again, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=cache, **jobs))
            warm.append((wall, cpu))
        print(
            f"warm build (nothing changed), median of {len(warm)}: {statistics.median(w for w, _ in warm):.1f} s wall, "
            f"{statistics.median(c for _, c in warm):.1f} s CPU; {cache.hits} cache hits, {cache.misses} misses, "
            f"{again.reused} of {again.pdfs} PDFs reused"
        )
        print("  " + ", ".join(f"{k} {v:.1f} s" for k, v in again.stages.items()))
        if args.quick:
            return 0

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
        inc, wall, cpu = timed(lambda: build(out, lessons=[lessons], formats=formats, cache=cache, **jobs))
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
