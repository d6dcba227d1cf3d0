"""The bundled books printed as a published book (issue 24, item 5), read back from the PDFs: no move
split across lines, space to write under each worksheet diagram, no near-empty last page, and a
page explaining every theme word of the answer key's index."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.resources import template_path

SPLIT_END = re.compile(r"(?:^|\s)(?:\d+\.\s)?[a-h]?\d{1,2}(?:[-x:][a-h]?\d{1,2})*[-x]$|\d{1,2}:[a-h]?\d{1,2}:$")
"""A line ending inside a move: ``a1-``, ``24x``, ``c3:e5:``."""
SPLIT_START = re.compile(r"^[-x:][a-h]?\d{1,2}")
"""A line starting inside a move (the doubled hyphen of "a1-" / "-b2")."""


def split_moves(lines: list[str]) -> list[str]:
    return [f"{a!r} / {b!r}" for a, b in pairwise(lines) if SPLIT_END.search(a) or SPLIT_START.match(b)]


def test_the_split_checker_catches_a_split_move() -> None:
    assert split_moves(["1. c3-d4 b6xd4 (2. f4-g5 h6xf4 3. a3-", "-b4 c3xa5) 2. … d4xf6"])
    assert split_moves(["3. c1xe3 f6:", "d4"]) == [] and not split_moves(["… até f6:", "d4xd6xf6 é o único lance"])


@cache  # the answer keys are read by two tests; the bundled PDFs never change during a run
def _lines(pdf: Path) -> list[list[str]]:
    """Each page's text lines, as poppler's pdftotext reads them in the content's order (``-raw``: its
    default mode joins a line ending in a hyphen to the next, which would hide a split move).  Ten
    times faster than pypdf on the bundled answer keys, with the same pages and lines of moves."""
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.skip("pdftotext is not installed (apt-get install -y poppler-utils)")
    text = subprocess.run(
        [exe, "-raw", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = [[line.rstrip() for line in page.split("\n")] for page in text.split("\f")[: len(PdfReader(pdf).pages)]]
    assert pages, f"{pdf} has no pages"
    return pages


@pytest.fixture(scope="module")
def books(bundled_build: Path) -> list[Path]:
    found = sorted(
        p for p in (bundled_build / "pdf").rglob("*.pdf") if p.stem not in ("tabuleiro", "board")
    )  # the board-and-pieces sheets are drawings
    assert len(found) >= 3 * 8
    return found


def test_no_move_is_split_across_lines(books: list[Path]) -> None:
    problems = {}
    for pdf in books:
        found = [s for page in _lines(pdf) for s in split_moves(page)]
        if found:
            problems[pdf.relative_to(pdf.parents[1]).as_posix()] = found[:3]
    assert problems == {}


def test_moves_stay_whole_in_a_narrow_column(tmp_path: Path) -> None:
    typst = pytest.importorskip("typst")
    shutil.copyfile(template_path("typst", "print.typ"), tmp_path / "print.typ")
    line = "1. c3-d4 b6xd4 (2. f4-g5 h6xf4 3. a3-b4 c3xa5) 2. … d4xf6 3. a3-b4 47x38x20x9 " * 6
    (tmp_path / "t.typ").write_text(
        '#import "print.typ": moves\n#set document(title: "t")\n#set text(lang: "pt", hyphenate: true)\n'
        f"#show: moves\n#box(width: 4.2cm)[{line}]\n",
        encoding="utf-8",
    )
    typst.compile(str(tmp_path / "t.typ"), output=str(tmp_path / "t.pdf"))
    lines = _lines(tmp_path / "t.pdf")[0]
    assert len(lines) > 10  # the column is narrow: many breaks, none inside a move
    assert split_moves(lines) == []


def test_a_move_broken_in_a_pdf_is_caught(tmp_path: Path) -> None:
    """The reader keeps the PDF's line breaks: a move forced across two lines is seen."""
    typst = pytest.importorskip("typst")
    (tmp_path / "t.typ").write_text(
        '#set document(title: "t")\n1. c3-d4 b6xd4 3. a3- \\\n-b4 c3xa5\n', encoding="utf-8"
    )
    typst.compile(str(tmp_path / "t.typ"), output=str(tmp_path / "t.pdf"))
    assert split_moves(_lines(tmp_path / "t.pdf")[0])


def _text_positions(page) -> list[tuple[float, float, str]]:  # type: ignore[no-untyped-def]
    found: list[tuple[float, float, str]] = []

    def visit(text, cm, tm, font, size):  # type: ignore[no-untyped-def]
        if text.strip():
            found.append((cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3], text.strip()))

    page.extract_text(visitor_text=visit)
    return found


def test_space_to_write_under_each_worksheet_diagram(bundled_build: Path) -> None:
    pdf = bundled_build / "pdf" / "brazilian" / "exercicios.pdf"
    reader = PdfReader(pdf)
    checked = 0
    for page in reader.pages:
        texts = _text_positions(page)
        for i, (x, y, text) in enumerate(texts):
            # a stipulation ("107." "Jogam as pretas …"), not a hint ("1." "Vez das brancas …")
            if not re.match(r"^\d+\.$", text) or not texts[i + 1 : i + 2] or not texts[i + 1][2].startswith("Jogam"):
                continue
            below = [y2 for x2, y2, _ in texts if abs(x2 - x) < 200 and y - 30 > y2 > 56]
            room = y - max(below) if below else y - 56
            assert room > 2.2 * 72 / 2.54, f"puzzle {text} on page {reader.pages.index(page) + 1}: {room:.0f} pt"
            checked += 1
    assert checked >= 100


def test_no_book_ends_on_a_near_empty_page(books: list[Path]) -> None:
    near_empty = {}
    for pdf in books:
        reader = PdfReader(pdf)
        if len(reader.pages) < 2:
            continue
        last = reader.pages[-1]
        height = float(last.mediabox.height)
        ys = [y for _, y, _ in _text_positions(last) if 60 < y < height - 70]  # between footer and header
        fill = (height - 70 - min(ys)) / (height - 130) if ys else 0.0
        if fill < 0.2:
            near_empty[pdf.relative_to(pdf.parents[1]).as_posix()] = round(fill, 2)
    assert near_empty == {}


def test_the_answer_key_explains_every_theme_of_its_index(books: list[Path]) -> None:
    keys = [p for p in books if p.stem in ("solucoes", "solutions")]
    assert len(keys) >= 8
    for pdf in keys:
        text = "\n".join("\n".join(page) for page in _lines(pdf))
        heading = "Os temas" if pdf.stem == "solucoes" else "The themes"
        index, levels = (
            ("Índice por tema", "Índice por dificuldade")
            if pdf.stem == "solucoes"
            else ("Index by theme", "Index by difficulty")
        )
        explained = text[text.index(heading) : text.index(index)]
        themes = re.findall(r"^([^\n:]+): \d", text[text.index(index) : text.index(levels)], re.MULTILINE)
        assert themes, pdf
        missing = [t for t in themes if not re.search(rf"(^|\n){re.escape(t)} \(", explained)]
        assert missing == [], (pdf, missing)
