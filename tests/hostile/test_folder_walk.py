"""A folder walk stays inside the folder it was given, and a file is checked once (issue 30 items 3, 4).

`damas check /proc/self` ran for over 60 s (the walk followed /proc/self/root and /proc/self/cwd into
the whole file system), and one lesson named 5,000 times on the command line was checked 5,000
times (killed after 300 s).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.folders import each_file_once, pseudo_filesystem
from generator.lessons.check import check_paths, lesson_files

from .tiny_course import LESSON

TIMEOUT = 60


def damas(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )


def lesson_in(folder: Path, name: str = "licao", title: str = "Primeira") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(LESSON.format(title=title).replace("slug: licao", f"slug: {name}"), "utf-8")
    return path


@pytest.mark.skipif(not Path("/proc/self/root").exists(), reason="needs Linux /proc")
def test_check_proc_self_is_refused_at_once() -> None:
    done = damas("check", "/proc/self")  # followed into / it ran past this timeout
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "/proc/self:1:1: is on the proc pseudo file system (the running system, not files); "
        "damas reads lessons on disk only"
    )
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("path", ["/proc", "/sys", "/dev", "/proc/self/cwd", "/proc/self/environ"])
def test_pseudo_file_systems_are_refused(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    assert pseudo_filesystem(path) is not None
    files, errors = lesson_files([path])  # /proc/self/cwd leads to a real folder, but is named through /proc
    assert files == []
    assert len(errors) == 1 and "pseudo file system" in errors[0].message


def test_disk_folders_are_not_pseudo(tmp_path: Path) -> None:
    assert pseudo_filesystem(tmp_path) is None
    assert pseudo_filesystem(Path(__file__)) is None


def test_a_folder_link_out_of_the_folder_is_reported_and_not_followed(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lesson_in(lessons / "american")
    outside = tmp_path / "elsewhere"
    lesson_in(outside, "fora", "Fora")
    (lessons / "out").symlink_to(outside)
    (lessons / "root").symlink_to("/")
    (lessons / "up").symlink_to("..")
    if Path("/proc/self").exists():
        (lessons / "proc").symlink_to("/proc/self")
    report = check_paths([lessons])
    lines = sorted(str(e) for e in report.errors)
    expected = {"out": str(outside), "root": "/", "up": str(tmp_path.resolve())}
    if Path("/proc/self").exists():
        expected["proc"] = os.path.realpath("/proc/self")
    assert len(lines) == len(expected), lines
    for name, target in expected.items():
        want = f"{lessons / name}:1:1: this folder link leads outside {lessons} (to {target}); not followed"
        assert want in lines, (want, lines)
    assert [Path(f).name for f in report.files] == ["licao.yaml"], "the lesson outside was not read"


def test_a_folder_link_that_stays_inside_is_followed(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lesson_in(lessons / "shared")
    (lessons / "american").mkdir()
    (lessons / "american" / "via").symlink_to(lessons / "shared")
    files, errors = lesson_files([lessons / "american"])
    # from lessons/american, the link leads out of the folder given: refused
    assert files == [] and "leads outside" in errors[0].message
    files, errors = lesson_files([lessons])  # from lessons: inside, and the folder is read once
    assert [f.name for f in files] == ["licao.yaml"]
    assert [e.message for e in errors] == ["this folder link leads back to a folder already read"]


def test_the_walk_is_bounded_in_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deep = tmp_path / "lessons"
    for i in range(6):
        deep = deep / f"d{i}"
    lesson_in(deep)
    lesson_in(tmp_path / "lessons", "raso", "Raso")
    monkeypatch.setenv("DAMAS_LIMIT_FOLDER_DEPTH", "4")
    files, errors = lesson_files([tmp_path / "lessons"])
    assert [f.name for f in files] == ["raso.yaml"]
    assert len(errors) == 1
    assert errors[0].message.startswith("folders nested more than 4 deep; not read")
    assert "DAMAS_LIMIT_FOLDER_DEPTH" in errors[0].message
    monkeypatch.delenv("DAMAS_LIMIT_FOLDER_DEPTH")
    files, errors = lesson_files([tmp_path / "lessons"])
    assert len(files) == 2 and errors == []


def test_the_walk_is_bounded_in_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lessons = tmp_path / "lessons"
    for i in range(30):
        (lessons / f"f{i:02}").mkdir(parents=True)
    lesson_in(lessons)
    monkeypatch.setenv("DAMAS_LIMIT_FOLDER_ENTRIES", "20")
    _, errors = lesson_files([lessons])
    assert len(errors) == 1 and errors[0].message.startswith("more than 20 files and folders; the walk stops")


def test_one_file_named_many_ways_is_checked_once(tmp_path: Path) -> None:
    lesson = lesson_in(tmp_path / "lessons")
    (tmp_path / "link.yaml").symlink_to(lesson)
    os.link(lesson, tmp_path / "hard.yaml")
    (tmp_path / "sub").mkdir()
    names = [lesson, tmp_path / "link.yaml", tmp_path / "hard.yaml", tmp_path / "sub" / ".." / "lessons" / "licao.yaml"]
    report = check_paths([*names, tmp_path / "lessons"] * 3)
    assert report.ok, [str(e) for e in report.errors]
    assert report.files == [str(lesson)]
    assert len(report.lessons) == 1
    assert each_file_once(["/no/such/file", "/no/such/file"]) == ["/no/such/file"] * 2, "kept for the reader"


def test_five_thousand_names_of_one_lesson_on_the_command_line(tmp_path: Path) -> None:
    lesson_in(tmp_path / "lessons")
    done = damas("check", *["lessons/licao.yaml"] * 5000, cwd=tmp_path)  # was 5,000 checks, > 300 s
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("ok: 1 file(s), 1 lesson(s)")


def test_pdn_check_reads_one_file_once(tmp_path: Path) -> None:
    games = tmp_path / "g.pdn"
    games.write_text('[Event "E"]\n1. 9-13 22-18 *\n', "utf-8")
    (tmp_path / "h.pdn").symlink_to(games)
    done = damas("pdn", "check", "--variant", "american", "g.pdn", "h.pdn", "./g.pdn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1
