"""``damas worksheet``: the seeded choice, the filters, the clear error, and the sheet and its key as
PDF (read back with pypdf) and HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.rules import get_variant
from generator.worksheet import Filters, NotEnough, gather, pick
from generator.worksheet.gather import canonical_tag

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
SOURCES = [LESSONS / "brazilian" / "golpes.yaml", LESSONS / "brazilian" / "exercicios.yaml"]


@pytest.fixture(scope="module")
def candidates() -> list:  # type: ignore[type-arg]
    found = gather(SOURCES, get_variant("brazilian"), "pt-BR")
    assert len(found) > 50
    return found


def test_the_same_seed_picks_the_same_puzzles(candidates: list) -> None:  # type: ignore[type-arg]
    first = [c.key for c in pick(candidates, Filters(count=12, seed=7))]
    assert first == [c.key for c in pick(list(reversed(candidates)), Filters(count=12, seed=7))]
    others = {tuple(c.key for c in pick(candidates, Filters(count=12, seed=s))) for s in range(5)}
    assert len(others) > 1  # another seed, another sheet
    levels = [c.item.difficulty or 0 for c in pick(candidates, Filters(count=12, seed=7))]
    assert levels == sorted(levels)  # easiest first, as the books


def test_filters_by_theme_in_either_language_and_level(candidates: list) -> None:  # type: ignore[type-arg]
    assert canonical_tag("king shot", "pt-BR") == canonical_tag("Golpe de Dama", "en") == "golpe de dama"
    chosen = pick(candidates, Filters(themes=("golpe de dama",), levels=(1, 3), count=3))
    assert len(chosen) == 3
    assert all("golpe de dama" in c.tags and 1 <= (c.item.difficulty or 0) <= 3 for c in chosen)


def test_fewer_matches_than_asked_says_how_many(candidates: list) -> None:  # type: ignore[type-arg]
    matching = [c for c in candidates if "golpe de dama" in c.tags and c.item.difficulty == 5]
    with pytest.raises(NotEnough) as err:
        pick(candidates, Filters(themes=("golpe de dama",), levels=(5, 5), count=len(matching) + 1, exact=True))
    assert f"only {len(matching)} puzzle" in str(err.value) and f"asked for {len(matching) + 1}" in str(err.value)


def _text(pdf: Path) -> list[str]:
    pages = [p.extract_text() for p in PdfReader(pdf).pages]
    assert pages
    return pages


def test_pdf_sheet_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "aula.pdf"
    args = ["worksheet", "brazilian", *[f"--from={s}" for s in SOURCES], "--count", "6", "--seed", "3"]
    args += ["--title", "Terça-feira", "--class", "Turma B", "--date", "11/03", "--out", str(out)]
    assert main(args) == 0
    assert "aula-solucoes.pdf" in capsys.readouterr().out
    sheet, key = _text(out), _text(tmp_path / "aula-solucoes.pdf")
    assert "Terça-feira" in sheet[0] and "Turma B" in sheet[0] and "11/03" in sheet[0]
    numbers = re.findall(r"^(\d+)\. Jogam", "\n".join(sheet), re.MULTILINE)
    assert numbers == [str(n) for n in range(1, 7)]
    joined = "\n".join(key)
    assert "Soluções" in joined and "Os temas" in joined and "Índice por tema" in joined


def test_html_sheet_escapes_what_the_teacher_types(tmp_path: Path) -> None:
    out = tmp_path / "aula.html"
    title = "<script>alert(1)</script>"
    assert (
        main(["worksheet", "brazilian", f"--from={SOURCES[0]}", "--count", "4", "--title", title, "--out", str(out)])
        == 0
    )
    page = out.read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert page.count("<svg") == 4 and page.count('class="lines"') == 4
    assert (tmp_path / "aula-solucoes.html").read_text(encoding="utf-8").count('class="entry"') == 4


def test_too_few_puzzles_is_an_error_naming_the_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "aula.pdf"
    assert main(["worksheet", "brazilian", f"--from={SOURCES[0]}", "--count", "40", "--out", str(out)]) == 1
    assert "only 7 puzzles match" in capsys.readouterr().err
    assert not out.exists()
    assert main(["worksheet", "brazilian", "--count", "4", "--out", str(tmp_path / "aula.txt")]) == 2
