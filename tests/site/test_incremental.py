"""Incremental builds: a PDF whose inputs hash the same is copied from the previous build, any change
to what it shows compiles it again, and --clean compiles everything."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from generator.build import build
from generator.cache import BYTES_SUFFIX, Cache
from generator.render import pdf as pdf_stage

from .helpers import PDFS, PRINTSETS


def _text(pdf: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages)


def test_unchanged_course_reuses_every_pdf(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build(out, lessons=[lessons_dir], jobs=1)
    assert first.reused == 0
    second = build(out, lessons=[lessons_dir], jobs=1)
    assert second.reused == second.pdfs == len(PDFS) + len(PRINTSETS)
    assert f"({len(PDFS) + len(PRINTSETS)} unchanged)" in str(second)


def test_editing_one_lesson_recompiles_only_its_pdfs(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out, lessons=[lessons_dir], jobs=1)
    lesson = next(p for p in lessons_dir.rglob("*.yaml") if p.parent.name == "brazilian")
    lesson.write_text(lesson.read_text("utf-8").replace("title:", "title: Novo —", 1), "utf-8")
    again = build(out, lessons=[lessons_dir], jobs=1)
    # the Brazilian rules booklet and the Brazilian printable set (its rules sheet names the lesson)
    # change; the American booklet, worksheet, answer key and printable set do not
    assert again.pdfs - again.reused == 2
    assert "Novo —" in _text(out / "pdf" / "brazilian" / "regras.pdf")


def test_changed_diagram_invalidates_the_pdf(lessons_dir: Path, tmp_path: Path) -> None:
    """A PDF shows SVG files: a change that only alters a diagram must still recompile it."""
    out = tmp_path / "site"
    build(out, lessons=[lessons_dir], jobs=1)
    lesson = next(p for p in lessons_dir.rglob("*.yaml") if p.parent.name == "brazilian")
    data = yaml.safe_load(lesson.read_text("utf-8"))
    diagram = data["sections"][0]["diagrams"][0]
    diagram["show"] = {**diagram.get("show", {}), "orientation": "black"}  # same text, turned board
    lesson.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    again = build(out, lessons=[lessons_dir], jobs=1)
    assert again.pdfs - again.reused == 1  # the Brazilian rules booklet, the only PDF showing it


@pytest.mark.parametrize("incremental", [False])
def test_clean_compiles_everything(lessons_dir: Path, tmp_path: Path, incremental: bool) -> None:
    out = tmp_path / "site"
    build(out, lessons=[lessons_dir], jobs=1)
    again = build(out, lessons=[lessons_dir], jobs=1, incremental=incremental)
    assert again.reused == 0


def test_a_damaged_manifest_means_a_full_build(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out, lessons=[lessons_dir], jobs=1)
    (out / ".damas-build.json").write_text("{not json", "utf-8")
    assert build(out, lessons=[lessons_dir], jobs=1).reused == 0


def _pdfs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted((out / "pdf").rglob("*.pdf"))}


def _refuse(root: Path, job: object, index: int) -> Path:
    raise AssertionError("a PDF was compiled")


def test_a_fresh_folder_takes_every_pdf_from_the_cache(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF compiled once is kept in the proof cache under the hash of its inputs: a build into
    another folder writes it from there, byte for byte, and compiles nothing."""
    store = Cache(tmp_path / "cache")
    first = build(tmp_path / "one", lessons=[lessons_dir], jobs=1, cache=store)
    assert first.cached == 0 and first.pdfs == len(PDFS) + len(PRINTSETS)
    monkeypatch.setattr(pdf_stage, "compile_job", _refuse)
    again = build(tmp_path / "two", lessons=[lessons_dir], jobs=1, cache=Cache(tmp_path / "cache"))
    assert again.cached == again.pdfs == first.pdfs and again.reused == 0
    assert f"({again.pdfs} from the cache)" in str(again)
    made = _pdfs(tmp_path / "one")
    assert len(made) == first.pdfs and _pdfs(tmp_path / "two") == made


def test_a_damaged_cached_pdf_is_compiled_again(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Cache(tmp_path / "cache")
    first = build(tmp_path / "one", lessons=[lessons_dir], jobs=1, cache=store)
    kept = sorted((tmp_path / "cache").rglob(f"*{BYTES_SUFFIX}"))
    assert len(kept) == first.pdfs, "each compiled PDF is kept"
    body = bytearray(kept[0].read_bytes())
    body[-10] ^= 0xFF  # one byte of the PDF changed: its hash no longer matches
    kept[0].write_bytes(bytes(body))
    compiled: list[str] = []
    real = pdf_stage.compile_job

    def counted(root: Path, job: pdf_stage.PdfJob, index: int) -> Path:
        compiled.append(job.output)
        return real(root, job, index)

    monkeypatch.setattr(pdf_stage, "compile_job", counted)
    again = build(tmp_path / "two", lessons=[lessons_dir], jobs=1, cache=Cache(tmp_path / "cache"))
    assert len(compiled) == 1 and again.cached == again.pdfs - 1
    assert all(p.startswith(b"%PDF") for p in _pdfs(tmp_path / "two").values())


@pytest.mark.parametrize("how", ["clean", "no cache"])
def test_clean_or_no_cache_compiles_every_pdf(
    lessons_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    store = Cache(tmp_path / "cache")
    build(tmp_path / "one", lessons=[lessons_dir], jobs=1, cache=store)
    monkeypatch.setattr(pdf_stage, "compile_job", _refuse)
    with pytest.raises(AssertionError, match="a PDF was compiled"):
        if how == "clean":
            build(tmp_path / "two", lessons=[lessons_dir], jobs=1, cache=Cache(tmp_path / "cache"), incremental=False)
        else:
            build(tmp_path / "two", lessons=[lessons_dir], jobs=1, cache=None)
