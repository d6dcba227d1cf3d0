"""Memory as the course grows: the PDF collecting a variant's lessons must grow linearly.

2,000 small lessons took 21.8 GB: the running head of every page queried every level-1 heading of
the book (O(pages x lessons) in time and memory).  The head now reads a state updated at each part.
The test measures what compiling that PDF adds to the peak memory (Linux: the peak is reset after
a warm-up compile, so Typst's one-off font scan does not mask it) for N and 4N lessons, each in a
fresh process, and compares the memory per lesson: constant when growth is linear.  No absolute
figures: bench/memory.py reports those.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.lessons.check import check_text
from generator.render import pdf as pdf_stage
from generator.render.site import plan_site
from generator.rules import get_variant

from .lesson_text import lesson, section

ROOT = Path(__file__).resolve().parents[2]
CLEAR_REFS = os.access("/proc/self/clear_refs", os.W_OK)

PEAK = textwrap.dedent(
    """
    import sys, tempfile
    from pathlib import Path
    sys.path.insert(0, {bench!r})
    from memory import make_course
    from generator.lessons.check import check_paths
    from generator.render import pdf as P
    from generator.render.site import plan_site
    from generator.rules import get_variant
    tmp = Path(tempfile.mkdtemp())
    report = check_paths([make_course(tmp, int(sys.argv[1]))])
    site = plan_site(report.lessons, [get_variant("american")])
    root = tmp / "out"
    for path, svg in site.svgs().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(svg)
    jobs = P.jobs_for(site.variants[0])
    P.compile_job(root, jobs[0], 0)  # warm-up: Typst's one-off font scan has its own peak
    def status(key):
        return int(open("/proc/self/status").read().split(key + ":")[1].split()[0])
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak (VmHWM) to the current resident size
    base = status("VmRSS")
    P.compile_job(root, jobs[-1], 1)
    print(status("VmHWM") - base)
    """
)


def peak_kb(n: int) -> int:
    code = PEAK.format(bench=str(ROOT / "bench"))
    # One compile thread and one malloc arena: the peak then depends on the document, not on how busy the
    # machine is (more threads under load meant more arenas and a noisier peak).
    env = {**os.environ, "RAYON_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "1"}
    done = subprocess.run([sys.executable, "-c", code, str(n)], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout.split()[-1])


@pytest.mark.skipif(not CLEAR_REFS, reason="needs Linux /proc/self/clear_refs to reset the peak")
def test_the_variant_pdf_grows_linearly_with_the_lessons() -> None:
    small, large = 40, 160
    # The least of two runs: a peak can only be inflated by noise (allocator, Typst's threads), never lowered.
    per_small = min(peak_kb(small) for _ in range(2)) / small
    per_large = min(peak_kb(large) for _ in range(2)) / large
    # Linear: the same memory per lesson at both sizes (measured: x1.04).  The quadratic running
    # head: x1.51 (1,097 KB per lesson at 40 lessons, 1,658 KB at 160).
    growth = per_large / per_small
    assert growth < 1.25, f"{per_small:.0f} KB per lesson at {small}, {per_large:.0f} KB at {large}"


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
