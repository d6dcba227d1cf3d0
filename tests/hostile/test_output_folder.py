"""``--out`` may only replace a folder that is missing, empty, or built by damas (issue 11: `--out .`
deleted the project, `--out lessons` the sources, `--out docs` an unrelated folder, `--out ..` the
parent, a file was renamed away, `--out /dev/full` became a folder).  Refusals are one line, exit 2,
and touch nothing."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from generator.build import MANIFEST, build
from generator.cli import main
from generator.output import MARKER, OutputRefused

from .tiny_course import PAGE, files, siblings, write_course


def _state(folder: Path) -> list[tuple[str, int, int]]:
    """Every entry under ``folder`` (not following links): path, type bits, size."""
    out = []
    for dirpath, dirs, names in os.walk(folder):
        for name in dirs + names:
            p = Path(dirpath) / name
            st = p.lstat()
            out.append((str(p.relative_to(folder)), stat.S_IFMT(st.st_mode), st.st_size if p.is_file() else 0))
    return sorted(out)


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["build", *args, "--format", "html"])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("damas: --out"), err
    return lines[0]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A course folder (the current folder) with lessons/ and an unrelated docs/ folder."""
    write_course(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("my notes\n", encoding="utf-8")
    (tmp_path / "README").write_text("readme\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("out", "reason"),
    [
        (".", "the current folder"),
        ("lessons", "which the build reads"),
        ("lessons/american", "inside 'lessons'"),
        ("lessons/american/novo", "inside 'lessons'"),
        ("..", "a folder above the current folder"),
        ("/", "the root folder"),
        ("docs", "did not build (such as 'notes.md')"),
        ("README", "is a file"),
        ("README/site", "is a file, not a folder"),
        ("README/site/deeper", "is a file, not a folder"),
    ],
)
def test_refused_and_nothing_touched(project: Path, capsys: pytest.CaptureFixture[str], out: str, reason: str) -> None:
    before = _state(project.parent)
    line = _refused(capsys, "--out", out)
    assert reason in line
    assert _state(project.parent) == before


def test_course_root_is_refused_from_elsewhere(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Run from another folder, the course root is still a folder above the lessons."""
    os.chdir(project / "docs")
    before = _state(project)
    line = _refused(capsys, "--out", str(project), "--lessons", str(project / "lessons"))
    assert "a folder above" in line
    assert _state(project) == before


def test_home_is_refused(project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = project / "docs"
    monkeypatch.setenv("HOME", str(home))
    (home / "notes.md").unlink()  # even an empty home folder
    assert "the home folder" in _refused(capsys, "--out", str(home))
    assert home.is_dir()


def test_device_is_refused_and_stays_a_device(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "is a device" in _refused(capsys, "--out", "/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert siblings(Path("/dev/null")) == []


def test_symlink_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build(project / "site", lessons=["lessons"], formats=["html"])  # a damas output, behind a link
    (project / "link").symlink_to(project / "site")
    before = _state(project)
    assert "is a symbolic link" in _refused(capsys, "--out", "link")
    assert _state(project) == before


def test_fifo_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(project / "pipe")
    assert "is a FIFO" in _refused(capsys, "--out", "pipe")
    assert stat.S_ISFIFO((project / "pipe").lstat().st_mode)


def test_foreign_marker_link_is_not_a_marker(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The marker must be a regular file: a link to some other damas output does not count."""
    build(project / "site", lessons=["lessons"], formats=["html"])
    mine = project / "mine"
    mine.mkdir()
    (mine / "diary.txt").write_text("dear diary\n", encoding="utf-8")
    (mine / MARKER).symlink_to(project / "site" / MARKER)
    assert "did not build" in _refused(capsys, "--out", "mine")
    assert (mine / "diary.txt").is_file()


def test_missing_empty_and_built_folders_are_accepted(project: Path) -> None:
    for name in ("new/deeper/site", "empty"):
        if name == "empty":
            (project / name).mkdir()
        build(project / name, lessons=["lessons"], formats=["html"])
        assert (project / name / PAGE).is_file()
        assert (project / name / MARKER).is_file()
    # built before, then touched by hand: still damas' own folder, replaced whole
    (project / "empty" / "html" / "extra.html").write_text("stale", encoding="utf-8")
    build(project / "empty", lessons=["lessons"], formats=["html"])
    assert not (project / "empty" / "html" / "extra.html").exists()
    assert siblings(project / "empty") == []


def _legacy(folder: Path) -> None:
    """What damas wrote before the marker: html/ with the generator meta, pdf/, the manifest."""
    (folder / "html").mkdir(parents=True)
    (folder / "html" / "index.html").write_text('<meta name="generator" content="damas 0.1.0">\n', "utf-8")
    (folder / "pdf").mkdir()
    (folder / "pdf" / "american.pdf").write_bytes(b"%PDF-1.7\n")
    (folder / MANIFEST).write_text('{"damas": "0.1.0", "pdf": {}}', encoding="utf-8")


def test_output_from_before_the_marker_is_recognised(project: Path) -> None:
    _legacy(project / "old")
    build(project / "old", lessons=["lessons"], formats=["html"])
    assert (project / "old" / MARKER).is_file()
    assert not (project / "old" / "pdf").exists()


@pytest.mark.parametrize("spoil", ["extra top-level file", "no signature", "a link inside"])
def test_lookalike_of_an_old_output_is_refused(project: Path, capsys: pytest.CaptureFixture[str], spoil: str) -> None:
    folder = project / "old"
    _legacy(folder)
    if spoil == "extra top-level file":
        (folder / "thesis.tex").write_text("years of work\n", encoding="utf-8")
    elif spoil == "no signature":
        (folder / "html" / "index.html").write_text("<p>my site</p>\n", encoding="utf-8")
        (folder / MANIFEST).unlink()
    else:
        (folder / "html" / "photos").symlink_to(project / "docs")
    before = _state(project)
    assert "did not build" in _refused(capsys, "--out", "old")
    assert _state(project) == before


def test_library_call_is_refused_too(project: Path) -> None:
    with pytest.raises(OutputRefused, match="which the build reads"):
        build("lessons", lessons=["lessons"], formats=["html"])
    assert files(project / "lessons")


def test_output_folder_mode_follows_the_umask(project: Path) -> None:
    """The temporary folder used to be made by mkdtemp (mode 700) and moved into place as is."""
    old = os.umask(0o022)
    try:
        build(project / "site", lessons=["lessons"], formats=["html"])
    finally:
        os.umask(old)
    assert stat.S_IMODE((project / "site").stat().st_mode) == 0o755
    assert stat.S_IMODE((project / "site" / PAGE).stat().st_mode) == 0o644


def test_incremental_build_does_not_follow_links_in_the_old_output(project: Path) -> None:
    """A PDF of the previous build replaced by a link to a private file: the next build must compile
    the PDF again, not copy the linked file into the site."""
    out = project / "site"
    build(out, lessons=["lessons"], formats=["pdf"])
    secret = project / "secret.txt"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    pdf = next((out / "pdf").rglob("*.pdf"))
    pdf.unlink()
    pdf.symlink_to(secret)

    summary = build(out, lessons=["lessons"], formats=["pdf"])

    new = out / pdf.relative_to(out)
    assert not new.is_symlink()
    assert new.read_bytes().startswith(b"%PDF"), "the linked file was copied into the site"
    assert summary.reused == summary.pdfs - 1, "the other PDFs are still reused"

    (out / MANIFEST).rename(out / "manifest.json")
    (out / MANIFEST).symlink_to(out / "manifest.json")  # a linked manifest is not read either
    assert build(out, lessons=["lessons"], formats=["pdf"]).reused == 0
