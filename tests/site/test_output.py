"""The built tree, the summary line, and every HTML page read back with the standard library's parser.

Pages must work from ``file://``: relative links that resolve, images that exist, no network, no script.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.build import MANIFEST
from generator.output import MARKER
from generator.rules import get_variant

from .helpers import PAGES, PAGES_WITH_DIAGRAMS, PDFS, PRINTSETS, SUMMARY, SVGS, Built, local_target, read_page
from .page_scripts import assert_scripts_inert, step_files

RESOURCE_ATTRS = {"link": "href", "script": "src", "img": "src", "source": "src", "iframe": "src", "embed": "src"}


def test_tree_holds_exactly_the_expected_files(built: Built) -> None:
    files = {str(p.relative_to(built.out)) for p in built.out.rglob("*") if p.is_file()}
    expected = (
        {f"html/{p}" for p in PAGES}
        | {f"html/svg/{s}" for s in SVGS}
        | {f"pdf/{p}" for p in PDFS + PRINTSETS}
        | {"html/style.css", MANIFEST, MARKER}
    )
    # the interactive pages: their script, and no picture per step (the pages draw their boards)
    assert not any(step_files((built.html / name).read_text(encoding="utf-8")) for name in PAGES)
    expected |= {"html/damas.js"}
    assert files == expected
    assert not (built.out / "_typst").exists()
    assert [p.name for p in built.out.parent.iterdir() if p.name.startswith(".")] == []


def test_summary_line(built: Built) -> None:
    line = str(built.summary)
    m = SUMMARY.fullmatch(line)
    assert m, line
    assert int(m["pages"]) == len(PAGES)
    assert int(m["diagrams"]) == 6  # lesson diagrams; the puzzle diagram is counted as a puzzle
    assert int(m["puzzles"]) == 1
    assert int(m["pdfs"]) == len(PDFS) + len(PRINTSETS)
    assert int(m["variants"]) == 2
    assert Path(m["out"]).resolve() == built.out.resolve()
    assert sorted(built.summary.variants) == ["american", "brazilian"]


@pytest.mark.parametrize("name", PAGES)
def test_page_is_well_formed_and_self_contained(built: Built, name: str) -> None:
    path = built.html / name
    page = read_page(path)
    assert page.problems == [], f"{name}: tags do not nest: {page.problems}"

    html = page.all("html")
    assert len(html) == 1 and html[0].attrs.get("lang") == "pt-BR"
    assert page.title.strip(), f"{name}: empty <title>"
    assert len(page.all("title")) == 1
    assert len(page.all("h1")) == 1, f"{name}: one h1 per page"
    assert page.all("main"), f"{name}: no <main>"
    assert any(e.attrs.get("charset", "").lower() == "utf-8" for e in page.all("meta"))
    assert any(e.attrs.get("name") == "viewport" for e in page.all("meta"))

    ids = page.ids()
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert duplicates == [], f"{name}: duplicate ids {duplicates}"

    assert_scripts_inert(path.read_text(encoding="utf-8"), page, name)
    assert len(page.elements) > 10
    for e in page.elements:
        handlers = [a for a in e.attrs if a.startswith("on")]
        assert handlers == [], f"{name}:{e.line}: <{e.tag}> has event handler attributes {handlers}"
        for attr in ("href", "src"):
            assert not e.attrs.get(attr, "").strip().lower().startswith("javascript:"), f"{name}:{e.line}"


@pytest.mark.parametrize("name", PAGES)
def test_no_external_resources(built: Built, name: str) -> None:
    page = read_page(built.html / name)
    assert len(page.elements) > 10
    for e in page.elements:
        attr = RESOURCE_ATTRS.get(e.tag)
        values = [e.attrs.get(attr, "")] if attr else []
        values += [e.attrs.get("srcset", ""), e.attrs.get("data", "")]
        for value in values:
            assert not re.match(r"\s*(https?:)?//", value, re.I), f"{name}:{e.line}: <{e.tag}> loads {value}"
    css = (built.html / "style.css").read_text(encoding="utf-8")
    assert "@import" not in css
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", css, re.I)


@pytest.mark.parametrize("name", PAGES)
def test_images_have_alt_text_and_exist(built: Built, name: str) -> None:
    path = built.html / name
    page = read_page(path)
    images = page.all("img")
    assert len(images) >= (1 if name in PAGES_WITH_DIAGRAMS else 0)
    for img in images:
        assert img.attrs.get("alt", "").strip(), f"{name}:{img.line}: <img> without alt text"
        target = local_target(path, img.attrs["src"])
        assert target is not None, f"{name}:{img.line}: image not local: {img.attrs['src']}"
        assert target[0].is_file(), f"{name}:{img.line}: {img.attrs['src']} does not exist"
        assert target[0].is_relative_to(built.html.resolve()), f"{name}: image outside the site"
    links = page.all("link")
    assert links, f"{name}: no stylesheet"
    for link in links:
        target = local_target(path, link.attrs["href"])
        assert target is not None and target[0].is_file(), f"{name}: missing {link.attrs['href']}"


@pytest.mark.parametrize("name", PAGES)
def test_relative_links_resolve(built: Built, name: str) -> None:
    path = built.html / name
    page = read_page(path)
    ids_of: dict[Path, set[str]] = {}
    anchors = page.all("a")
    assert len(anchors) >= 2, f"{name}: no way back home"
    for a in anchors:
        href = a.attrs.get("href")
        assert href, f"{name}:{a.line}: <a> without href"
        target = local_target(path, href)
        if target is None:
            assert href.startswith(("http://", "https://", "mailto:")), f"{name}:{a.line}: {href}"
            continue
        file, fragment = target
        assert file.is_file(), f"{name}:{a.line}: link to {href}, but {file} does not exist"
        assert file.is_relative_to(built.out.resolve()), f"{name}:{a.line}: link leaves the build: {href}"
        if fragment:
            assert file.suffix == ".html", f"{name}:{a.line}: fragment on a non-page: {href}"
            if file not in ids_of:
                ids_of[file] = set(read_page(file).ids())
            assert fragment in ids_of[file], f"{name}:{a.line}: {href}: no id '{fragment}' in {file.name}"


def test_every_diagram_file_is_used_by_a_page(built: Built) -> None:
    used: set[Path] = set()
    for name in PAGES:
        path = built.html / name
        for img in read_page(path).all("img"):
            target = local_target(path, img.attrs["src"])
            assert target is not None
            used.add(target[0])
        used |= {(built.html / s).resolve() for s in step_files(path.read_text(encoding="utf-8"))}
    files = {p.resolve() for p in (built.html / "svg").rglob("*.svg")}
    assert len(files) >= len(SVGS)
    assert files - used == set(), "diagram files no page shows"


def test_home_page_links_every_variant_and_the_comparison(built: Built) -> None:
    page = read_page(built.html / "index.html")
    hrefs = [a.attrs["href"] for a in page.all("a")]
    for v in ("american", "brazilian"):
        assert f"{v}/index.html" in hrefs
        assert get_variant(v).title in page.text
    assert "comparacao.html" in hrefs


def test_variant_index_lists_lessons_in_order_and_the_book(built: Built) -> None:
    page = read_page(built.html / "american/index.html")
    hrefs = [a.attrs["href"] for a in page.all("a")]
    lessons = [h for h in hrefs if h in ("regras.html", "golpes.html")]
    assert lessons == ["regras.html", "golpes.html"], "lessons in their 'order'"
    assert "livro-de-golpes.html" in hrefs
    assert "Primeiros passos" in page.text and "Um golpe" in page.text


def test_lesson_page_content(built: Built) -> None:
    page = read_page(built.html / "american/regras.html")
    assert page.title.startswith("Primeiros passos")
    sections = [e.attrs.get("id") for e in page.all("section")]
    assert sections[:2] == ["primeiro-lance", "captura"]
    assert len(sections) == 3
    text = (built.html / "american/regras.html").read_text(encoding="utf-8")
    # Markdown rendered: strong, emphasis, a list, links
    assert "<strong>pretas</strong>" in text
    assert "<em>uma casa</em>" in text
    assert page.all("ul") and page.all("li")
    # diagrams: figure > img + figcaption with the caption and the claim text
    figures = [e for e in page.all("figure") if "diagram" in e.attrs.get("class", "")]
    assert [f.attrs.get("id") for f in figures] == ["tabuleiro", "captura-obrigatoria", "diagrama-3"]
    assert len(page.all("figcaption")) == 3
    for caption in ("Posição inicial, vez das pretas.", "Vez das brancas: 27x18x11 é o único lance.", "O lance 13-9"):
        assert caption in page.text
    assert "As pretas têm sete lances." in page.text
    alts = [i.attrs["alt"] for i in page.all("img")]
    assert alts[0].startswith("Posição inicial, vez das pretas.")
    assert "Jogam as pretas" in alts[0]
    # a contents box for a page with more than two sections
    assert any(a.attrs["href"] == "#captura" for a in page.all("a"))


def test_puzzle_solution_is_behind_details(built: Built) -> None:
    # a solution toggle and a hint toggle (the author's caption: never printed under the diagram)
    golpes = read_page(built.html / "american/golpes.html")
    assert golpes.all("details") == [], "the lesson page links to the book instead of repeating the puzzle"
    assert "livro-de-golpes.html#p1" in (built.html / "american/golpes.html").read_text(encoding="utf-8")
    for name, toggles in (("american/livro-de-golpes.html", 2),):
        text = (built.html / name).read_text(encoding="utf-8")
        page = read_page(built.html / name)
        assert len(page.all("details")) == toggles, name
        assert len(page.all("summary")) == toggles, name
        assert all("open" not in d.attrs for d in page.all("details")), f"{name}: solution shown by default"
        m = re.search(r"<details[^>]*>((?:(?!</details>).)*?class=\"solution\".*?)</details>", text, re.S)
        assert m, name
        assert "1. … 26-23 2. 19x26 31x22x13" in m.group(1), f"{name}: solution not inside <details>"
        before = text[: m.start()]
        assert "26-23" not in before, f"{name}: solution visible before the toggle"
        assert "Jogam as brancas e ganham uma peça." in page.text


def test_brazilian_page_uses_algebraic_squares(built: Built) -> None:
    page = read_page(built.html / "brazilian/inicio.html")
    alts = [i.attrs["alt"] for i in page.all("img")]
    assert len(alts) == 2
    assert "c3" in alts[1] and "d4" in alts[1]
    assert "A pedra de c3 captura: c3xe5." in page.text


def test_comparison_page_links_demonstrating_diagrams(built: Built) -> None:
    page = read_page(built.html / "comparacao.html")
    hrefs = {a.attrs["href"] for a in page.all("a")}
    assert "american/regras.html#tabuleiro" in hrefs
    assert "brazilian/inicio.html#tabuleiro" in hrefs
    assert "brazilian/inicio.html#pedra-captura" in hrefs
    headers = [e for e in page.all("th") if e.attrs.get("scope") == "col"]
    assert len(headers) == 3  # the rule column and one per variant
