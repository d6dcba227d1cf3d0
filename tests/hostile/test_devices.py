"""Devices, FIFOs, sockets, oversized files and lesson folders that would be skipped silently.

``damas pdn check /dev/zero`` used to read until the kernel killed it, a FIFO blocked forever, and
lessons in an unreadable folder, behind a broken or looping link, or an empty lessons folder were
left out with "ok: 0 file(s)".  Every one of these is now one error line naming the path.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from generator.inputfile import InputFileError, read_input, read_text
from generator.lessons.check import check_paths
from generator.output import MARKER

GOOD = Path(__file__).resolve().parents[1] / "lessons" / "good"
ONLY_REGULAR = "not a regular file; damas reads regular files only"
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def damas(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )


def a_good_lesson() -> Path:
    return sorted(GOOD.rglob("*.yaml"))[0]


def test_pdn_check_refuses_dev_zero_at_once() -> None:
    done = damas("pdn", "check", "/dev/zero")
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == f"/dev/zero: is a character device, {ONLY_REGULAR}"
    assert "Traceback" not in done.stderr


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "games.pdn"
    os.mkfifo(fifo)
    done = damas("pdn", "check", str(fifo))  # the 60 s timeout would fire if it blocked
    assert done.returncode == 1
    assert "is a FIFO (named pipe), not a regular file" in done.stderr
    lesson = tmp_path / "lessons" / "l.yaml"
    lesson.parent.mkdir()
    os.mkfifo(lesson)
    report = check_paths([tmp_path / "lessons"])
    assert [e.message for e in report.errors] == [
        "is a FIFO (named pipe), not a regular file; damas reads regular files only"
    ]


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.pdn"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(InputFileError, match="is a socket"):
            read_text(path, "pdn_file_bytes")
    finally:
        sock.close()


def test_damas_check_refuses_a_device() -> None:
    report = check_paths(["/dev/null"])
    assert [str(e) for e in report.errors] == [
        "/dev/null:1:1: is a character device, not a regular file; damas reads regular files only"
    ]


def test_size_limit_is_checked_before_reading_and_can_be_raised(tmp_path: Path) -> None:
    big = tmp_path / "big.pdn"
    big.write_text("1. 32-28 *\n" + " " * 5000)
    done = damas("pdn", "check", str(big), env={"DAMAS_LIMIT_PDN_FILE_BYTES": "1000"})
    assert done.returncode == 1
    assert "more than allowed (limit pdn_file_bytes = 1000; raise it with DAMAS_LIMIT_PDN_FILE_BYTES)" in done.stderr
    done = damas("pdn", "check", str(big), env={"DAMAS_LIMIT_PDN_FILE_BYTES": "100000"})
    assert done.returncode == 0, done.stderr


def test_lesson_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = tmp_path / "l.yaml"
    lesson.write_bytes(a_good_lesson().read_bytes())
    monkeypatch.setenv("DAMAS_LIMIT_LESSON_FILE_BYTES", "100")
    report = check_paths([lesson])
    assert len(report.errors) == 1
    assert "limit lesson_file_bytes = 100" in report.errors[0].message
    monkeypatch.delenv("DAMAS_LIMIT_LESSON_FILE_BYTES")
    assert check_paths([lesson]).ok


def test_a_bad_limit_value_is_one_clear_error(tmp_path: Path) -> None:
    done = damas("pdn", "check", "/dev/null", env={"DAMAS_LIMIT_PDN_FILE_BYTES": "lots"})
    assert done.returncode == 1
    assert "DAMAS_LIMIT_PDN_FILE_BYTES='lots' is not a positive whole number" in done.stderr
    assert "Traceback" not in done.stderr


def test_read_input_reads_a_link_to_a_regular_file(tmp_path: Path) -> None:
    target = tmp_path / "t.pdn"
    target.write_text("abc")
    link = tmp_path / "l.pdn"
    link.symlink_to(target)
    assert read_input(link, "pdn_file_bytes") == b"abc"
    with pytest.raises(InputFileError, match="is a folder, not a regular file"):
        read_input(tmp_path, "pdn_file_bytes")


def test_an_empty_lessons_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    done = damas("check", "lessons", cwd=tmp_path)
    assert done.returncode == 1
    assert "lessons:1:1: no lesson files found in lessons" in done.stdout


def test_a_build_from_an_empty_folder_keeps_the_old_site(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    out = tmp_path / "output"
    out.mkdir()
    (out / "index.html").write_text("old site")
    (out / MARKER).write_text("damas-build 1\n")  # a site damas built before: the build may replace it
    done = damas("build", "--out", str(out), "--lessons", "lessons", cwd=tmp_path)
    assert done.returncode == 1
    assert "no lesson files found in lessons" in done.stderr
    assert (out / "index.html").read_text() == "old site"


def test_an_unreadable_subfolder_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lessons = tmp_path / "lessons"
    (lessons / "a").mkdir(parents=True)
    (lessons / "a" / "l.yaml").write_bytes(a_good_lesson().read_bytes())
    locked = lessons / "b"
    locked.mkdir()
    (locked / "hidden.yaml").write_bytes(a_good_lesson().read_bytes())
    locked.chmod(0)
    if ROOT:  # root reads every folder: make the listing fail the way it does for a user
        real = os.scandir

        def scandir(path: object) -> object:
            if Path(str(path)) == locked:
                raise PermissionError(13, "Permission denied", str(path))
            return real(path)  # type: ignore[arg-type]

        monkeypatch.setattr("generator.lessons.check.os.scandir", scandir)
    try:
        report = check_paths([lessons])
    finally:
        locked.chmod(0o755)
    assert [(e.path.endswith("lessons/b"), e.message) for e in report.errors] == [
        (True, "cannot read the folder: Permission denied")
    ]


def test_broken_and_looping_yaml_links_are_errors(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "good.yaml").write_bytes(a_good_lesson().read_bytes())
    (lessons / "dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (lessons / "loop.yaml").symlink_to(lessons / "loop.yaml")
    (lessons / "back").symlink_to(lessons)
    (lessons / ".#lock.yaml").symlink_to("user@host.1234")  # an editor's lock file: skipped
    report = check_paths([lessons])
    got = sorted((Path(e.path).name, e.message) for e in report.errors)
    assert got == [
        ("back", "this folder link leads back to a folder already read"),
        ("dangling.yaml", "a symbolic link to a file that does not exist"),
        ("loop.yaml", "a symbolic link that loops"),
    ]
    assert len(report.lessons) == 1
