"""Failed writes are one line and a non-zero exit, never a traceback, and the previous output stays
whole (issue 11: a full or read-only disk, a parent of --out that is a file, /proc, a 300-character
name, /dev/full as stdout all gave tracebacks; a closed stdout exited 0 without a word)."""

from __future__ import annotations

import contextlib
import errno
import os
import pathlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main

from .tiny_course import files, run_damas, siblings, write_course


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    lessons = write_course(tmp_path)
    out = tmp_path / "site"
    build(out, lessons=[lessons], formats=["html"])
    return lessons, out, files(out)


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EIO])
def test_failed_write_during_the_build(
    built: tuple[Path, Path, dict[str, bytes]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    code: int,
) -> None:
    lessons, out, before = built
    real = pathlib.Path.write_text

    def failing(self: Path, *args: object, **kwargs: object) -> int:
        if self.name.endswith(".html"):
            raise OSError(code, os.strerror(code), str(self))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    real_link = os.link

    def failing_link(src: object, dst: object, **kwargs: object) -> None:
        # an unchanged page is linked from the previous output, not written (generator/build.py)
        if str(dst).endswith(".html"):
            raise OSError(code, os.strerror(code), str(dst))
        real_link(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pathlib.Path, "write_text", failing)
    monkeypatch.setattr(os, "link", failing_link)
    status = main(["build", "--out", str(out), "--lessons", str(lessons), "--format", "html"])

    line = _one_line(capsys.readouterr().err)
    assert status == 1
    assert line.startswith(f"damas: cannot write output: {os.strerror(code)} (")
    assert files(out) == before
    assert siblings(out) == []


@pytest.mark.parametrize(
    ("out", "status", "words"),
    [
        ("/proc/damas-site", 1, "damas: cannot write output: "),
        ("/proc/self/damas-site", 1, "damas: cannot write output: "),
        ("x" * 300, 2, "bytes long; at most"),
        ("notes.txt/site", 2, "is a file, not a folder"),
    ],
)
def test_unwritable_places(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    out: str,
    status: int,
    words: str,
) -> None:
    lessons = write_course(tmp_path)
    (tmp_path / "notes.txt").write_text("notes\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["build", "--out", out, "--lessons", str(lessons), "--format", "html"])
    assert words in _one_line(capsys.readouterr().err)
    assert code == status


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.decode().strip()}); the monkeypatched tests cover it")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_real_full_and_read_only_disk(built: tuple[Path, Path, dict[str, bytes]], tmp_path: Path) -> None:
    """A tmpfs holding one build and a file that fills the rest; then the same remounted read-only."""
    lessons, _, _ = built
    with _tmpfs(tmp_path / "disk", "1m") as disk:  # room for one build (132 KB) and its staging copy
        out = disk / "site"
        build(out, lessons=[lessons], formats=["html"])
        before = files(out)
        with contextlib.suppress(OSError), open(disk / "filler", "wb") as filler:
            while True:  # until the disk is full
                filler.write(b"\0" * 4096)
                filler.flush()
        for remount in ("", "remount,ro"):
            if remount:
                (disk / "filler").unlink()
                subprocess.run(["mount", "-o", remount, str(disk)], check=True)
            r = run_damas("build", "--out", str(out), "--lessons", str(lessons), "--format", "html")
            line = _one_line(r.stderr)
            assert r.returncode == 1, r.stderr
            want = "No space left on device" if not remount else "Read-only file system"
            assert line.startswith(f"damas: cannot write output: {want}"), line
            assert files(out) == before
            assert siblings(out) == []


# --- stdout ---------------------------------------------------------------------------------------

COMMANDS = [
    ("moves", "american"),
    ("variants",),
    ("perft", "american", "3"),
    ("schema",),
    ("game", "american", "9-13"),
    ("--help",),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_dev_full_is_one_line_exit_1(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        r = run_damas(*args, stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr  # perft writes its CPU time to stderr before the count
    assert r.stderr.strip().splitlines()[-1] == "damas: cannot write output: No space left on device"


def test_build_summary_to_dev_full(built: tuple[Path, Path, dict[str, bytes]]) -> None:
    lessons, out, _ = built
    with open("/dev/full", "w") as full:
        r = run_damas("build", "--out", str(out), "--lessons", str(lessons), "--format", "html", stdout=full,
                      stderr=subprocess.PIPE)  # fmt: skip
    assert r.returncode == 1
    assert _one_line(r.stderr) == "damas: cannot write output: No space left on device"


def test_closed_stdout_is_an_error() -> None:
    r = run_damas("moves", "american", stdout=None, stderr=subprocess.PIPE,
                  preexec_fn=lambda: os.close(1))  # fmt: skip
    assert r.returncode == 1
    assert _one_line(r.stderr) == "damas: cannot write output: Bad file descriptor"


def test_reader_gone_is_quiet_and_non_zero() -> None:
    """``damas moves american | head -0``: the write fails with EPIPE; no message, exit 1 (Python's and
    click's convention), no 'Exception ignored' at exit."""
    read, write = os.pipe()
    os.close(read)
    try:
        r = run_damas("moves", "american", stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert r.returncode == 1
    assert r.stderr == ""
