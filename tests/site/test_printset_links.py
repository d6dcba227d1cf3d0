"""The printable sets in a built course: linked from the home page and every variant index, present,
in the paper size the build was asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import PRINTSETS, Built, local_target, read_page

pypdf = pytest.importorskip("pypdf", reason="pypdf (test extra) needed")


def _pdf_links(page: Path) -> list[str]:
    return [a.attrs["href"] for a in read_page(page).all("a") if a.attrs.get("href", "").endswith("/tabuleiro.pdf")]


def test_home_page_links_the_printable_set_of_every_variant(built: Built) -> None:
    home = built.html / "index.html"
    assert "Imprima seu jogo de damas" in read_page(home).text
    links = _pdf_links(home)
    assert sorted({f"{Path(h).parent.name}/{Path(h).name}" for h in links}) == sorted(PRINTSETS)
    for href in links:
        target = local_target(home, href)
        assert target is not None and target[0].is_file(), href


@pytest.mark.parametrize("variant", ["american", "brazilian"])
def test_variant_index_links_its_printable_set(built: Built, variant: str) -> None:
    index = built.html / variant / "index.html"
    assert "Imprima seu jogo de damas" in read_page(index).text
    links = _pdf_links(index)
    assert [Path(h).parent.name + "/" + Path(h).name for h in links] == [f"{variant}/tabuleiro.pdf"]
    target = local_target(index, links[0])
    assert target is not None
    reader = pypdf.PdfReader(target[0])
    assert reader.metadata.title.startswith("Imprima seu jogo de damas")
    assert len(reader.pages) >= 3, "board, pieces, rules"
    assert all(abs(float(p.mediabox.width) - 595.28) < 0.5 for p in reader.pages)  # A4 by default


def test_letter_paper_is_a_build_option(lessons_dir: Path, tmp_path: Path) -> None:
    from generator.build import build

    out = tmp_path / "site"
    build(out, lessons=[lessons_dir], formats=["pdf"], paper="letter", jobs=1)
    for name in PRINTSETS:
        pages = pypdf.PdfReader(out / "pdf" / name).pages
        assert len(pages) >= 3, "board, pieces, rules"
        assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in pages} == {(612, 792)}


def test_unknown_paper_is_refused_before_anything_is_written(lessons_dir: Path, tmp_path: Path) -> None:
    from generator.build import build

    out = tmp_path / "site"
    with pytest.raises(ValueError, match="paper size 'a5'"):
        build(out, lessons=[lessons_dir], paper="a5")
    assert not out.exists()
