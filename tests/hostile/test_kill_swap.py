"""kill -9 at every step of the swap: the output is always complete (old or new), and the next build
recovers and cleans up (issue 11: a killed build left `.out-building-*` forever, a half-deleted
`.out-old-*`, or no output at all when killed between the two renames).

Each killed build runs in its own interpreter with ``generator.output._reached`` (a named no-op at
every step) replaced by a SIGKILL at the chosen step; the strace tests kill at the system call itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build
from generator.output import MARKER, recover

from .tiny_course import PAGE, files, run_damas, siblings, write_course

KILL_AT = """
import os, signal
import generator.output as output
def _reached(step, _real=output._reached):
    if step == {step!r}:
        os.kill(os.getpid(), signal.SIGKILL)
output._reached = _reached
"""
NO_EXCHANGE = "output._exchange = lambda a, b: False  # a file system without RENAME_EXCHANGE\n"


def _course(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    """The first build (title "Primeira") in place; the lesson then changed to "Segunda"."""
    lessons = write_course(tmp_path)
    out = tmp_path / "site"
    build(out, lessons=[lessons], formats=["html"])
    old = files(out)
    write_course(tmp_path, title="Segunda")
    return lessons, out, old


def _complete(out: Path, old: dict[str, bytes]) -> str:
    """'old' or 'new' when ``out`` holds one whole build; fails otherwise."""
    now = files(out)
    assert set(now) == set(old), f"incomplete output: {sorted(set(old) ^ set(now))}"
    if now == old:
        return "old"
    assert "Segunda" in now[PAGE].decode() and all(
        "Primeira" not in v.decode() for k, v in now.items() if k.endswith(".html")
    ), "a mix of two builds"
    return "new"


def _killed_build(lessons: Path, out: Path, step: str, exchange: bool) -> None:
    code = KILL_AT.format(step=step) + ("" if exchange else NO_EXCHANGE)
    r = run_damas("build", "--out", str(out), "--lessons", str(lessons), "--format", "html", code=code)
    assert r.returncode == -signal.SIGKILL, (step, r.returncode, r.stderr)


def _next_build_recovers(lessons: Path, out: Path, old: dict[str, bytes]) -> None:
    build(out, lessons=[lessons], formats=["html"])
    assert _complete(out, old) == "new"
    assert siblings(out) == [], "the next build must clean up what the killed one left"


@pytest.mark.parametrize(
    ("step", "expect"),
    [("building", "old"), ("exchanged", "new"), ("deleting", "new")],
)
def test_kill_at_each_step_of_the_exchange(tmp_path: Path, step: str, expect: str) -> None:
    lessons, out, old = _course(tmp_path)
    _killed_build(lessons, out, step, exchange=True)

    assert _complete(out, old) == expect
    assert siblings(out), "the kill left a temporary folder (the test would prove nothing otherwise)"
    _next_build_recovers(lessons, out, old)


@pytest.mark.parametrize(
    ("step", "expect"),
    [("building", "old"), ("moved-old", "old"), ("moved-new", "new"), ("deleting", "new")],
)
def test_kill_at_each_step_of_the_two_renames(tmp_path: Path, step: str, expect: str) -> None:
    """Where RENAME_EXCHANGE is missing: killed between the renames, the old output is complete beside
    its place and the next build puts it back before anything else."""
    lessons, out, old = _course(tmp_path)
    _killed_build(lessons, out, step, exchange=False)

    if step == "moved-old":
        assert not out.exists()
        done = recover(out)
        assert [d.split()[0] for d in done].count("restored") == 1, done
    assert _complete(out, old) == expect
    _next_build_recovers(lessons, out, old)


def test_kill_of_the_very_first_build_leaves_nothing_it_cannot_clean(tmp_path: Path) -> None:
    lessons = write_course(tmp_path)
    out = tmp_path / "site"
    _killed_build(lessons, out, "building", exchange=True)
    assert not out.exists()
    assert len(siblings(out)) == 1
    build(out, lessons=[lessons], formats=["html"])
    assert (out / PAGE).is_file() and siblings(out) == []


def test_recovery_leaves_what_is_not_ours(tmp_path: Path) -> None:
    """A sibling with the right name but no marker (or of a live process) is never deleted."""
    _, out, old = _course(tmp_path)
    foreign = tmp_path / ".site-building-999999999-abcd"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine", encoding="utf-8")
    live = tmp_path / f".site-old-{os.getpid()}-abcd"
    live.mkdir()
    (live / MARKER).write_text("damas-build 1\n", encoding="utf-8")

    assert recover(out) == []
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (live / MARKER).is_file()
    assert _complete(out, old) == "old"


# --- the same, killed by strace at the system call itself ------------------------------------------

STRACE = shutil.which("strace")


def _strace_works() -> bool:
    """strace is installed and may trace here (containers can forbid ptrace)."""
    if STRACE is None:
        return False
    probe = subprocess.run([STRACE, "-qq", "-o", "/dev/null", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


needs_strace = pytest.mark.skipif(not _strace_works(), reason="strace is missing or may not trace here")


def _strace_build(lessons: Path, out: Path, *inject: str) -> subprocess.CompletedProcess[str]:
    """The build under strace with faults injected; no bytecode is written, so the only renames are
    the build's own (``-P`` cannot be used: it matches only the first path of a rename)."""
    args = [str(STRACE), "-f", "-qq", "-o", "/dev/null"]
    for spec in inject:
        args += ["-e", f"inject={spec}"]
    script = "import sys\nfrom generator.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    cmd = [
        *args,
        sys.executable,
        "-c",
        script,
        "build",
        "--out",
        str(out),
        "--lessons",
        str(lessons),
        "--format",
        "html",
    ]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


@needs_strace
def test_strace_kill_at_the_exchange(tmp_path: Path) -> None:
    lessons, out, old = _course(tmp_path)
    r = _strace_build(lessons, out, "renameat2:signal=SIGKILL")
    assert r.returncode != 0, r.stderr
    assert _complete(out, old) == "old", "killed on entering renameat2: the exchange never happened"
    assert siblings(out)
    _next_build_recovers(lessons, out, old)


@needs_strace
@pytest.mark.parametrize(("when", "expect"), [(1, None), (2, "old")])
def test_strace_kill_at_each_rename_without_exchange(tmp_path: Path, when: int, expect: str | None) -> None:
    """RENAME_EXCHANGE fails with EINVAL (as on a file system without it), then SIGKILL on entering
    the first rename (old output aside) or the second (new output in)."""
    lessons, out, old = _course(tmp_path)
    r = _strace_build(lessons, out, "renameat2:error=EINVAL", f"rename:signal=SIGKILL:when={when}")
    assert r.returncode != 0, r.stderr
    if expect is None:  # killed entering the first rename: nothing moved yet
        assert _complete(out, old) == "old"
        assert siblings(out), "the finished build is left beside, for the next build to delete"
    else:
        assert not out.exists(), "killed between the renames: the output is aside, not in place"
        recover(out)
        assert _complete(out, old) == expect
    _next_build_recovers(lessons, out, old)
