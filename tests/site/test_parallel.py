"""Parallel PDF compilation (``--jobs N``, the CLI default is up to 2 workers).

Run in child processes with a time limit: a deadlock must fail the test, not hang the suite.  The
child is started in its own session so that, on timeout, its whole process group (the build and its
pool workers) can be killed and nothing is left running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from .helpers import TIMINGS

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 120
"""Seconds; a normal build of the fixture course takes 1–5 s even on a loaded 2-core machine."""


def run_child(args: list[str], cwd: Path, limit: float = LIMIT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"no result after {limit} s (deadlock?): {' '.join(args)}\n{out}\n{err}") from None
    TIMINGS.append(f"child {' '.join(a for a in args if '/' not in a)[:60]}: {time.perf_counter() - started:.2f} s")
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def tree(out: Path) -> set[str]:
    return {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}


def test_cli_default_jobs_builds_the_same_files(lessons_dir: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    r1 = run_child(
        ["-m", "generator.cli", "build", "--out", str(one), "--lessons", str(lessons_dir), "--jobs", "1"], ROOT
    )
    r2 = run_child(["-m", "generator.cli", "build", "--out", str(two), "--lessons", str(lessons_dir)], ROOT)
    assert r1.returncode == 0, r1.stderr
    assert r2.returncode == 0, r2.stderr
    assert tree(one) == tree(two)
    assert "4 PDF(s)" in r2.stdout


def test_parallel_build_after_an_in_process_build(lessons_dir: Path, tmp_path: Path) -> None:
    """A long-lived process (a preview server, a test run) builds with jobs=1, then with jobs=2.

    The second build forks PDF workers from a process whose Typst compiler has already started its
    threads; the build must still finish.
    """
    script = textwrap.dedent(
        f"""
        from generator.build import build
        build({str(tmp_path / "a")!r}, lessons=[{str(lessons_dir)!r}], jobs=1)
        print("first", flush=True)
        summary = build({str(tmp_path / "b")!r}, lessons=[{str(lessons_dir)!r}], jobs=2)
        print(summary, flush=True)
        """
    )
    result = run_child(["-c", script], ROOT, limit=60)
    assert result.returncode == 0, result.stderr
    assert "4 PDF(s)" in result.stdout
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
