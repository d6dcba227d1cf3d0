"""Print typography of the bundled course's PDFs, read back with pypdf and ``pdftotext -layout``:
no heading is the last text on a page (keep-with-next), and the checker itself is shown to catch
a heading stranded at the foot of a page."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from .helpers import flat_outline


def page_texts(pdf: Path) -> list[str]:
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.skip("pdftotext is not installed (apt-get install -y poppler-utils)")
    out = subprocess.run([exe, "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return out.split("\f")[: len(PdfReader(pdf).pages)]


BOARD_LINE = re.compile(r"^(?:[0-9]{1,2}|[a-h])(?:\s+(?:[0-9]{1,2}|[a-h]))*$")
"""A line of square numbers or coordinates: the text of a board diagram."""
INTRO_LINES = 6
"""A heading followed by at most this many lines of text counts as stranded when the diagram it
introduces starts the next page."""


def _lines(text: str) -> list[str]:
    """The page's text lines without the footer, whitespace collapsed."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("Página ")]


def stranded_headings(pdf: Path) -> list[str]:
    """Headings (the PDF's bookmarks) that end a page, alone or with only a few lines of their
    text, while the next page starts with a diagram (or the heading is the very last text)."""
    titles = {" ".join(t.split()) for t in flat_outline(PdfReader(pdf).outline)}
    pages = page_texts(pdf)
    found = []
    for i, text in enumerate(pages[:-1]):
        lines = _lines(text)
        following = _lines(pages[i + 1])
        starts_with_board = any(BOARD_LINE.match(line) for line in following[:3])
        for h, line in enumerate(lines):
            if line not in titles:
                continue
            after = lines[h + 1 :]
            if not after or (
                starts_with_board and len(after) <= INTRO_LINES and not any(BOARD_LINE.match(a) for a in after)
            ):
                found.append(f"p{i + 1}: {line!r} + {len(after)} line(s) end the page; p{i + 2} starts {following[:2]}")
    return found


@pytest.fixture(scope="module")
def course_pdfs(bundled_build: Path) -> list[Path]:
    return sorted((bundled_build / "pdf").rglob("*.pdf"))


def test_the_checker_catches_a_stranded_heading(tmp_path: Path) -> None:
    typst = pytest.importorskip("typst")
    source = tmp_path / "bad.typ"
    source.write_text(
        '#set page(height: 12cm, width: 10cm)\n#set document(title: "t")\n'
        "#show heading: set block(sticky: false)\n#lorem(95)\n= Estranhada\n#rect(height: 8cm, width: 100%)\n",
        encoding="utf-8",
    )
    typst.compile(str(source), output=str(tmp_path / "bad.pdf"))
    assert stranded_headings(tmp_path / "bad.pdf"), "a heading left at the foot of a page was not found"


def test_no_heading_ends_a_page(course_pdfs: list[Path]) -> None:
    assert len(course_pdfs) >= 3 * 8 - 1  # booklet, worksheet, answer key for every variant
    problems = {p.relative_to(p.parents[1]).as_posix(): stranded_headings(p) for p in course_pdfs}
    assert {k: v for k, v in problems.items() if v} == {}


def test_one_set_of_pdfs_per_variant(course_pdfs: list[Path]) -> None:
    names = {p.relative_to(p.parents[1]).as_posix() for p in course_pdfs}
    variants = {n.split("/")[0] for n in names}
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    assert variants == {p.name for p in lessons.iterdir() if p.is_dir()}, "every variant of the bundled course"
    for v in variants:
        assert {f"{v}/regras.pdf", f"{v}/exercicios.pdf", f"{v}/solucoes.pdf"} <= names
    assert all(n.count("/") == 1 for n in names), "a PDF outside the per-variant set"
