"""What the interactive site costs a reader and an author, for one or more source trees in one run.

Per tree (a checkout of damas with its compiled core, run with this interpreter from that folder):

* **site**: a cold ``damas build`` of the bundled course into a temporary folder (its own proof cache,
  warmed by the build itself), then the files and bytes of the whole output and of ``html/``;
* **pages**: every HTML page opened from ``file://`` in Debian's chromium (headless): everything it
  loads (requests and bytes of the files they read), the heaviest page, and the load time (``load``
  event, median of three) of the heaviest page and of each variant's book page;
* **serve**: ``damas serve`` on a copy of the course (cache warm): seconds from saving a caption edit
  until the page shows it, and from saving a false claim until the error page shows.

``--built NAME=DIR`` measures an output folder already built (no build, no serve), e.g. the cold build
of ``main`` kept in ``/tmp/base/output``.  Figures go to stdout as one table, ratios against the first
column.

    python3 bench/interactive.py [--tree NAME=DIR ...] [--built NAME=DIR ...] [--lessons lessons]
                                 [--no-serve] [--no-pages]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CAPTION = ("Posição inicial, vez das brancas.", "Posição inicial, vez das brancas (marca {n}).")
CLAIM = ("moves: [a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4]", "moves: [a3-b4, c3-b4, c3-d4, e3-d4]")
LESSON = Path("brazilian/regras.yaml")
PAGE = "brazilian/regras.html"


@dataclass
class Figures:
    name: str
    build_s: float | None = None
    files: int = 0
    bytes: int = 0
    html_files: int = 0
    html_bytes: int = 0
    pages: int = 0
    heaviest: tuple[str, int, int] = ("", 0, 0)
    """(page, bytes with everything it loads, requests)"""
    loads: dict[str, float] = field(default_factory=dict)
    """page -> seconds to the load event (median)"""
    loaded: dict[str, tuple[int, int]] = field(default_factory=dict)
    """page -> (bytes, requests)"""
    caption_s: float | None = None
    claim_s: float | None = None
    leftover: bool | None = None


def count(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


BOOT = """
import importlib.util, runpy, sys
tree = sys.argv.pop(1)
# this interpreter's editable install maps generator (and its templates) to this checkout: drop it
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__]
sys.path.insert(0, tree)
spec = importlib.util.spec_from_file_location(
    "generator._templates", tree + "/templates/__init__.py", submodule_search_locations=[tree + "/templates"]
)
module = importlib.util.module_from_spec(spec)
sys.modules["generator._templates"] = module
spec.loader.exec_module(module)
sys.argv[0] = "damas"
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""


def damas(tree: Path, *args: str) -> list[str]:
    """The command line that runs ``damas ARGS`` from the source tree ``tree`` (its code, its templates)."""
    return [sys.executable, "-c", BOOT, str(tree), *args]


def build_tree(tree: Path, lessons: Path, out: Path, cache: Path) -> float:
    env = {**os.environ, "DAMAS_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    subprocess.run(
        damas(tree, "build", "--lessons", str(lessons), "--out", str(out)),
        cwd=tree,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def measure_pages(html: Path, figures: Figures) -> None:
    from playwright.sync_api import sync_playwright

    pages = sorted(p for p in html.rglob("*.html"))
    assert pages, f"no pages in {html}"
    figures.pages = len(pages)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        for file in pages:
            page = context.new_page()
            urls: list[str] = []
            page.on("request", lambda r, u=urls: u.append(r.url))
            page.goto(file.as_uri(), wait_until="load")
            size = sum(_size(u) for u in set(urls))
            figures.loaded[str(file.relative_to(html))] = (size, len(urls))
            page.close()
        heavy = max(figures.loaded, key=lambda k: figures.loaded[k][0])
        figures.heaviest = (heavy, *figures.loaded[heavy])
        timed = {heavy} | {p for p in figures.loaded if re.search(r"^[a-z-]+/livro-de-golpes\.html$", p)}
        for rel in sorted(timed):
            times = []
            for _ in range(3):
                fresh = context.new_page()
                started = time.perf_counter()
                fresh.goto((html / rel).as_uri(), wait_until="load")
                times.append(time.perf_counter() - started)
                fresh.close()
            figures.loads[rel] = statistics.median(times)
        browser.close()


def _size(url: str) -> int:
    if not url.startswith("file://"):
        return 0
    path = Path(unquote(urlsplit(url).path))
    return path.stat().st_size if path.is_file() else 0


def _get(port: int, path: str) -> tuple[int, str]:
    """The status and body of ``path`` (a server that holds requests while it rebuilds is waited for)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    except (ConnectionError, TimeoutError):
        return 0, ""
    finally:
        conn.close()


def _wait(port: int, path: str, test: Any, limit: float = 300) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        status, body = _get(port, path)
        if test(status, body):
            return time.perf_counter() - started
        time.sleep(0.05)
    raise RuntimeError(f"{path}: never changed within {limit} s")


def measure_serve(tree: Path, lessons: Path, cache: Path, figures: Figures) -> None:
    """Start ``damas serve`` on a copy of the course, save a caption edit, then a false claim."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        course = Path(tmp) / "course"
        shutil.copytree(lessons, course / "lessons")
        env = {**os.environ, "DAMAS_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1", "TMPDIR": tmp}
        proc = subprocess.Popen(
            damas(tree, "serve", str(course), "--port", "0"),
            cwd=tree,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        port = None
        assert proc.stdout is not None
        while port is None:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("damas serve stopped before serving")
            if m := re.search(r"at http://127\.0\.0\.1:(\d+)/", line):
                port = int(m.group(1))
        try:
            file = course / "lessons" / LESSON
            text = file.read_text("utf-8")
            assert CAPTION[0] in text and CLAIM[0] in text, "the bench's edits no longer apply to the lesson"
            mark = CAPTION[1].format(n=os.getpid())
            time.sleep(1.0)  # the watcher is in place once the address is printed; let it settle
            file.write_text(text.replace(CAPTION[0], mark), "utf-8")
            figures.caption_s = _wait(port, "/" + PAGE, lambda s, b: s == 200 and mark in b)
            time.sleep(1.0)
            file.write_text(text.replace(CAPTION[0], mark).replace(CLAIM[0], CLAIM[1]), "utf-8")
            figures.claim_s = _wait(port, "/" + PAGE, lambda s, b: s == 500 and "regras.yaml" in b)
            file.write_text(text, "utf-8")
            _wait(port, "/" + PAGE, lambda s, b: s == 200 and mark not in b)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
        figures.leftover = any(p.name.startswith("damas-serve") for p in Path(tmp).iterdir())


def measure(name: str, tree: Path | None, built: Path | None, args: argparse.Namespace) -> Figures:
    figures = Figures(name)
    with tempfile.TemporaryDirectory(prefix="bench-interactive-") as tmp:
        cache = Path(tmp) / "cache"
        lessons = Path(args.lessons).resolve()
        if built is None:
            assert tree is not None
            out = Path(tmp) / "out"
            figures.build_s = build_tree(tree, lessons, out, cache)
        else:
            out = built
        figures.files, figures.bytes = count(out)
        figures.html_files, figures.html_bytes = count(out / "html")
        if not args.no_pages:
            measure_pages(out / "html", figures)
        if tree is not None and not args.no_serve:
            measure_serve(tree, lessons, cache, figures)
    return figures


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def table(runs: list[Figures]) -> str:
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values: list[Any], fmt: Any) -> None:
        rows.append((label, [fmt(v) if v is not None else "-" for v in values]))

    row("cold build", [r.build_s for r in runs], lambda v: f"{v:.1f} s")
    row("files (all output)", [r.files for r in runs], str)
    row("bytes (all output)", [r.bytes for r in runs], _mb)
    row("files (html/)", [r.html_files for r in runs], str)
    row("bytes (html/)", [r.html_bytes for r in runs], _mb)
    row("pages", [r.pages or None for r in runs], str)
    row("heaviest page", [r.heaviest[0] or None for r in runs], str)
    row("  with all it loads", [r.heaviest[1] or None for r in runs], _mb)
    row("  requests", [r.heaviest[2] or None for r in runs], str)
    timed = sorted({p for r in runs for p in r.loads})
    for p in timed:
        row(f"load {p}", [r.loads.get(p) for r in runs], lambda v: f"{v:.2f} s")
        row("  bytes, requests", [r.loaded.get(p) for r in runs], lambda v: f"{v[0] / 1e6:.2f} MB, {v[1]}")
    row("serve: caption edit shown", [r.caption_s for r in runs], lambda v: f"{v:.1f} s")
    row("serve: false claim shown", [r.claim_s for r in runs], lambda v: f"{v:.1f} s")
    row("serve: temp folder left", [r.leftover for r in runs], lambda v: "yes" if v else "no")
    width = max(len(label) for label, _ in rows)
    cols = [max(len(r.name), *(len(v[i]) for _, v in rows)) for i, r in enumerate(runs)]
    out = [" " * width + " | " + " | ".join(r.name.ljust(c) for r, c in zip(runs, cols, strict=True))]
    for label, values in rows:
        out.append(label.ljust(width) + " | " + " | ".join(v.ljust(c) for v, c in zip(values, cols, strict=True)))
    return "\n".join(out)


def _pairs(items: list[str]) -> list[tuple[str, Path]]:
    out = []
    for item in items:
        name, _, folder = item.partition("=")
        if not folder:
            raise SystemExit(f"expected NAME=DIR, not {item!r}")
        out.append((name, Path(folder).resolve()))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[], help="NAME=DIR: a source tree to build and serve")
    parser.add_argument("--built", action="append", default=[], help="NAME=DIR: an output folder already built")
    parser.add_argument("--lessons", default=str(ROOT / "lessons"))
    parser.add_argument("--no-serve", action="store_true")
    parser.add_argument("--no-pages", action="store_true")
    args = parser.parse_args()
    runs = []
    for name, folder in _pairs(args.built):
        runs.append(measure(name, None, folder, args))
        print(table(runs) + "\n", file=sys.stderr)
    trees = _pairs(args.tree) or [("this tree", ROOT)]
    for name, folder in trees:
        runs.append(measure(name, folder, None, args))
        print(table(runs) + "\n", file=sys.stderr)
    print(table(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
