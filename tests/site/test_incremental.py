"""Incremental builds: a PDF whose inputs hash the same is copied from the previous build, any change
to what it shows compiles it again, and --clean compiles everything."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from generator.build import build

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
