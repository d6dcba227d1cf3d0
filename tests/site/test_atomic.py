"""A failed build leaves the previous output exactly as it was and no temporary folder behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import generator.render.pdf as pdf_stage
from generator.build import BuildRefused, build
from generator.cli import main
from generator.render.pdf import PdfError

from .helpers import BAD_LESSON, leftovers, snapshot, write_lesson


def good_build(lessons: Path, out: Path, **kwargs: object) -> dict[str, tuple[bytes, int]]:
    build(out, lessons=[lessons], jobs=1, **kwargs)  # type: ignore[arg-type]
    before = snapshot(out)
    assert before, "the good build wrote nothing"
    time.sleep(0.01)  # any rewrite would now show in the mtimes
    return before


def test_refused_build_names_the_file_and_keeps_the_old_output(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    before = good_build(lessons_dir, out)
    bad = write_lesson(lessons_dir, "american", "errada", BAD_LESSON)

    with pytest.raises(BuildRefused) as info:
        build(out, lessons=[lessons_dir], jobs=1, incremental=False)

    assert bad.name in str(info.value)
    assert "regras.yaml" not in str(info.value), "only the failing file is named"
    assert [e.path for e in info.value.report.errors if bad.name not in str(e.path)] == []
    assert snapshot(out) == before, "the old output changed"
    assert leftovers(tmp_path, "site") == []


def test_refused_build_with_no_previous_output_writes_nothing(lessons_dir: Path, tmp_path: Path) -> None:
    write_lesson(lessons_dir, "american", "errada", BAD_LESSON)
    out = tmp_path / "site"
    with pytest.raises(BuildRefused):
        build(out, lessons=[lessons_dir], jobs=1, incremental=False)
    assert not out.exists()
    assert leftovers(tmp_path, "site") == []


def test_cli_refuses_with_exit_1_naming_the_file(
    lessons_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    before = good_build(lessons_dir, out, formats=["html"])
    write_lesson(lessons_dir, "american", "errada", BAD_LESSON)

    code = main(["build", "--out", str(out), "--lessons", str(lessons_dir), "--format", "html"])

    captured = capsys.readouterr()
    assert code == 1
    assert "errada.yaml" in captured.err
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    # the check's own report (path:line:col: message), then one closing line
    assert any(":11:" in line and "errada.yaml" in line and "9-13" in line for line in lines), lines
    assert lines[-1].startswith("damas: not building:"), lines
    assert "built " not in captured.out
    assert snapshot(out) == before
    assert leftovers(tmp_path, "site") == []


def _fail(root: Path, job: pdf_stage.PdfJob, index: int) -> Path:
    raise PdfError(f"typst failed on {job.output}: simulated")


def test_pdf_failure_keeps_the_old_output(lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    before = good_build(lessons_dir, out)
    monkeypatch.setattr(pdf_stage, "compile_job", _fail)

    with pytest.raises(PdfError, match="simulated"):
        build(out, lessons=[lessons_dir], jobs=1, incremental=False)

    assert snapshot(out) == before, "the old output changed"
    assert leftovers(tmp_path, "site") == []


def test_pdf_failure_on_a_worker_thread_keeps_the_old_output(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two jobs the PDFs compile on two threads: a Typst template that does not compile fails
    on one of them, and the error reaches the build."""
    out = tmp_path / "site"
    before = good_build(lessons_dir, out)
    broken = tmp_path / "broken.typ"
    broken.write_text('#let data = json(sys.inputs.at("data"))\n#this-function-does-not-exist()\n', "utf-8")
    real_jobs = pdf_stage.jobs_for

    def broken_jobs(*args: object, **kwargs: object) -> list[pdf_stage.PdfJob]:
        return [pdf_stage.PdfJob(j.output, j.data, broken) for j in real_jobs(*args, **kwargs)]

    monkeypatch.setattr(pdf_stage, "jobs_for", broken_jobs)
    with pytest.raises(PdfError, match="typst failed"):
        build(out, lessons=[lessons_dir], jobs=2, incremental=False)

    assert snapshot(out) == before, "the old output changed"
    assert leftovers(tmp_path, "site") == []


def test_pdf_failure_after_some_pdfs_keeps_the_old_output(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The third PDF fails after two were written into the temporary folder."""
    out = tmp_path / "site"
    before = good_build(lessons_dir, out)
    real = pdf_stage.compile_job
    calls: list[int] = []

    def flaky(root: Path, job: pdf_stage.PdfJob, index: int) -> Path:
        calls.append(index)
        if len(calls) == 3:
            raise PdfError(f"typst failed on {job.output}: simulated")
        return real(root, job, index)

    monkeypatch.setattr(pdf_stage, "compile_job", flaky)
    with pytest.raises(PdfError):
        build(out, lessons=[lessons_dir], jobs=1, incremental=False)
    assert len(calls) == 3
    assert snapshot(out) == before
    assert leftovers(tmp_path, "site") == []


def test_cli_pdf_failure_is_one_line_exit_1(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    before = good_build(lessons_dir, out, formats=["html"])
    monkeypatch.setattr(pdf_stage, "compile_job", _fail)

    code = main(["build", "--out", str(out), "--lessons", str(lessons_dir), "--jobs", "1", "--clean"])

    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.strip().splitlines() == [captured.err.strip()], captured.err
    assert captured.err.startswith("damas: typst failed on ")
    assert snapshot(out) == before
    assert leftovers(tmp_path, "site") == []


def test_successful_rebuild_replaces_the_whole_folder(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    good_build(lessons_dir, out, formats=["html"])
    stale = out / "html" / "american" / "velha.html"
    stale.write_text("stale", encoding="utf-8")

    build(out, lessons=[lessons_dir], formats=["html"], jobs=1)

    assert not stale.exists(), "files of the previous build must not survive a rebuild"
    assert (out / "html" / "american" / "regras.html").is_file()
    assert leftovers(tmp_path, "site") == []
