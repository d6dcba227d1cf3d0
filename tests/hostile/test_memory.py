"""Memory as the course grows: the PDF collecting a variant's lessons must grow linearly.

2,000 small lessons took 21.8 GB: the running head of every page queried every level-1 heading of
the book (O(pages x lessons) in time and memory).  The head now reads a state updated at each part.
The test measures the peak memory of fresh processes that compile that PDF for 100, 200 and 400
lessons and compares what each added lesson costs in the two intervals: constant when growth is
linear.  No absolute figures: bench/memory.py reports those.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from pypdf import PdfReader

from generator.lessons.check import check_text
from generator.render import pdf as pdf_stage
from generator.render.site import plan_site
from generator.rules import get_variant

from .lesson_text import lesson, section

ROOT = Path(__file__).resolve().parents[2]

PEAK = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, {bench!r})
    from memory import make_course
    from generator.lessons.check import check_paths
    from generator.render import pdf as P
    from generator.render.site import plan_site
    from generator.rules import get_variant
    tmp = Path(sys.argv[2])
    report = check_paths([make_course(tmp, int(sys.argv[1]))])
    site = plan_site(report.lessons, [get_variant("american")])
    root = tmp / "out"
    for path, svg in site.svgs().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(svg)
    P.compile_job(root, P.jobs_for(site.variants[0])[0], 0)  # the rules booklet: every lesson of the variant
    # VmHWM: this process's own peak.  ru_maxrss would not do: Linux carries it over exec from the
    # forked parent, so a child of a large pytest process reports at least the parent's size.
    print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
    """
)


def peak_kb(n: int, folder: Path) -> int:
    """The peak resident memory (KB) of a fresh process that checks n lessons and compiles their booklet
    (the lessons and the output written in ``folder``)."""
    code = PEAK.format(bench=str(ROOT / "bench"))
    folder.mkdir()
    # One layout thread: Typst's parallel layout makes the peak vary by up to 40 % between runs of the
    # same course (measured: x0.75 to x1.45); on one thread the two intervals agree within 3 %.
    env = {**os.environ, "RAYON_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(n), str(folder)], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


def test_the_variant_pdf_grows_linearly_with_the_lessons(tmp_path: Path) -> None:
    # The memory each added lesson costs, between 100 and 200 lessons and between 200 and 400: the same
    # when growth is linear (measured: x0.9); the quadratic running head made it grow with the course
    # (fit to 1,097 KB per lesson at 40 lessons and 1,658 KB at 160: x1.6 here).  Differences of peaks of
    # fresh processes cancel the fixed part (interpreter, fonts).
    peaks = {n: peak_kb(n, tmp_path / str(n)) for n in (100, 200, 400)}
    low = (peaks[200] - peaks[100]) / 100
    high = (peaks[400] - peaks[200]) / 200
    assert high < 1.3 * low, f"peaks (KB) {peaks}: {low:.0f} KB per lesson from 100 to 200, {high:.0f} from 200 to 400"


def test_running_heads_name_the_lesson_of_each_page(tmp_path: Path) -> None:
    """The state-based head must say what the query-based one said: the part the page is in."""
    checked = []
    for title, words in (("Alfa", 30), ("Beta", 3000), ("Gama", 30)):
        body = f"corpo{title.lower()} " + "palavra " * words
        text = lesson(title=title, slug=title.lower(), sections=[section(body)])
        c, errors = check_text(text, f"{title}.yaml")
        assert c is not None and not errors
        checked.append(c)
    site = plan_site(checked, [get_variant("american")])
    for path, svg in site.svgs().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(svg)
    job = pdf_stage.jobs_for(site.variants[0])[-1]
    out = pdf_stage.compile_job(tmp_path, job, 0)
    pages = [p.extract_text() for p in PdfReader(str(out)).pages]
    current = None
    seen = 0
    for text in pages[1:]:
        for title in ("Alfa", "Beta", "Gama"):
            if f"corpo{title.lower()}" in text:
                current = title
        if current is not None and "palavra" in text:
            head = text.splitlines()[0]
            assert head.endswith(current), (head, current)
            seen += 1
    assert seen >= 4  # Beta spans several pages
