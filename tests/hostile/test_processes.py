"""Processes and interrupts (issue 11: `--jobs 64` ran 66 processes; `damas perft` accepted depths
that run for days; Ctrl-C and SIGTERM must stop cleanly: one line, exit 130/143, no traceback, no
temporary folder left)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import ClassVar

import pytest

import generator.build as build_module
from generator.build import build
from generator.cli import main
from generator.cpus import usable_cpus

from .tiny_course import PAGE, files, run_damas, siblings, write_course


class _InlinePool:
    """Stands in for ThreadPoolExecutor: records how many workers were asked for, runs inline."""

    asked: ClassVar[list[int]] = []

    def __init__(self, max_workers: int, **kwargs: object) -> None:
        _InlinePool.asked.append(max_workers)

    def map(self, fn, items):  # type: ignore[no-untyped-def]
        return map(fn, items)

    def shutdown(self, **kwargs: object) -> None:
        pass


def test_jobs_never_exceed_the_cpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build_module, "ThreadPoolExecutor", _InlinePool)
    monkeypatch.setattr(build_module, "usable_cpus", lambda: 2)
    _InlinePool.asked.clear()
    lessons = write_course(tmp_path)
    (lessons / "american" / "outra.yaml").write_text(
        (lessons / "american" / "licao.yaml").read_text("utf-8").replace("slug: licao", "slug: outra"), "utf-8"
    )
    build(tmp_path / "site", lessons=[lessons], formats=["pdf"], jobs=64, incremental=False)  # every PDF compiled
    assert _InlinePool.asked == [2], "64 asked, 2 CPUs: two PDF threads"


def test_cli_clamps_jobs_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lessons = write_course(tmp_path)
    code = main(["build", "--out", str(tmp_path / "site"), "--lessons", str(lessons), "--format", "html",
                 "--jobs", "64"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0
    cpus = usable_cpus()
    assert f"damas: --jobs 64 is more than the {cpus} CPU(s) available; using {cpus}" in err


def _signal_after_start(args: list[str], sig: int) -> subprocess.CompletedProcess[str]:
    """Start damas, wait until it is in main() (a signal during start-up is Python's, not ours), then
    half a second more, and send ``sig``."""
    script = "import sys\nfrom generator.cli import main\nprint('ready', file=sys.stderr, flush=True)\n"
    script += "sys.exit(main(sys.argv[1:]))\n"
    cmd = [sys.executable, "-c", script, *args]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stderr is not None and p.stderr.readline() == "ready\n"
    time.sleep(0.5)  # well into the count (depth 11 takes minutes)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


@pytest.mark.parametrize(
    ("sig", "status", "word"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")]
)
def test_perft_stops_cleanly(sig: int, status: int, word: str) -> None:
    r = _signal_after_start(["perft", "american", "11", "--force"], sig)
    assert r.returncode == status, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1] == f"damas: {word}"
    assert r.stdout == ""


SIGNAL_AT_BUILDING = """
import os, signal
import generator.output as output
def _reached(step):
    if step == "building":
        os.kill(os.getpid(), signal.{name})
output._reached = _reached
"""


@pytest.mark.parametrize(("name", "status", "word"), [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_interrupted_build_removes_its_folder(tmp_path: Path, name: str, status: int, word: str) -> None:
    lessons = write_course(tmp_path)
    out = tmp_path / "site"
    build(out, lessons=[lessons], formats=["html"])
    before = files(out)
    write_course(tmp_path, title="Segunda")

    r = run_damas("build", "--out", str(out), "--lessons", str(lessons), "--format", "html",
                  code=SIGNAL_AT_BUILDING.format(name=name))  # fmt: skip

    assert r.returncode == status, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1] == f"damas: {word}"
    assert files(out) == before and "Primeira" in before[PAGE].decode()
    assert siblings(out) == [], "the temporary folder must go with the interrupt"


CTRL_C_WHILE_PDFS_COMPILE = """
import os, signal, time
import concurrent.futures
real_map = concurrent.futures.ThreadPoolExecutor.map
def map_then_ctrl_c(self, *args, **kwargs):
    results = real_map(self, *args, **kwargs)  # the threads are compiling now
    time.sleep(0.1)
    os.killpg(0, signal.SIGINT)  # Ctrl-C in a terminal: the whole process group
    return results
concurrent.futures.ThreadPoolExecutor.map = map_then_ctrl_c
"""


def test_ctrl_c_while_pdfs_compile_on_threads(tmp_path: Path) -> None:
    """Ctrl-C while PDFs compile on two threads: one line, exit 130, the old output intact, no
    temporary folder (the queued PDFs are dropped, those being compiled are waited for; the spawned
    PDF processes of earlier versions each printed a traceback here)."""
    lessons = write_course(tmp_path)
    (lessons / "american" / "outra.yaml").write_text(
        (lessons / "american" / "licao.yaml").read_text("utf-8").replace("slug: licao", "slug: outra"), "utf-8"
    )
    out = tmp_path / "site"
    build(out, lessons=[lessons], formats=["html"])
    before = files(out)

    r = run_damas("build", "--out", str(out), "--lessons", str(lessons), "--clean", "--jobs", "2",
                  code=CTRL_C_WHILE_PDFS_COMPILE, start_new_session=True)  # fmt: skip

    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines() == ["damas: interrupted"]
    assert files(out) == before
    assert siblings(out) == []
