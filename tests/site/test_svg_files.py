"""The diagram files of a built course, read with ElementTree, page by page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .helpers import PAGES, PAGES_WITH_DIAGRAMS, SVG_NS, SVGS, Built, local_target, read_page, read_svg


def page_svgs(built: Built, name: str) -> list[tuple[str, Path]]:
    """(alt, file) of every SVG image on a page."""
    path = built.html / name
    out = []
    for img in read_page(path).all("img"):
        target = local_target(path, img.attrs["src"])
        assert target is not None
        if target[0].suffix == ".svg":
            out.append((img.attrs["alt"], target[0]))
    return out


def test_pages_with_diagrams_are_known() -> None:
    assert set(PAGES_WITH_DIAGRAMS) <= set(PAGES)


@pytest.mark.parametrize("name", PAGES_WITH_DIAGRAMS)
def test_svg_files_are_accessible_images(built: Built, name: str) -> None:
    svgs = page_svgs(built, name)
    assert svgs, f"{name} shows no diagram"
    for alt, path in svgs:
        root = read_svg(path)
        assert root.tag == f"{SVG_NS}svg", path.name
        assert root.get("role") == "img", f"{path.name}: role"
        assert root.get("viewBox"), f"{path.name}: no viewBox (cannot scale)"
        titles = root.findall(f"{SVG_NS}title")
        assert len(titles) == 1, f"{path.name}: one <title> as the first child"
        assert root[0] is titles[0], f"{path.name}: <title> must be the first child"
        title = (titles[0].text or "").strip()
        assert title, f"{path.name}: empty <title>"
        assert title in alt, f"{path.name}: the page's alt text should contain the description {title!r}"
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        for attr in ("aria-labelledby", "aria-describedby"):
            for ref in (root.get(attr) or "").split():
                assert ref in ids, f"{path.name}: {attr} names missing id {ref}"


@pytest.mark.parametrize("name", PAGES_WITH_DIAGRAMS)
def test_ids_unique_across_the_svgs_of_a_page(built: Built, name: str) -> None:
    seen: dict[str, str] = {}
    svgs = page_svgs(built, name)
    assert svgs, f"{name} shows no diagram"
    for _, path in svgs:
        for el in read_svg(path).iter():
            ident = el.get("id")
            if ident is None:
                continue
            assert ident not in seen, f"{name}: id {ident!r} in both {seen[ident]} and {path.name}"
            seen[ident] = path.name


@pytest.mark.parametrize("name", PAGES_WITH_DIAGRAMS)
def test_svg_internal_references_resolve_and_nothing_is_external(built: Built, name: str) -> None:
    svgs = page_svgs(built, name)
    assert svgs, f"{name} shows no diagram"
    for _, path in svgs:
        root = read_svg(path)
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        text = path.read_text(encoding="utf-8")
        for ref in re.findall(r"url\(#([^)]+)\)", text):
            assert ref in ids, f"{path.name}: url(#{ref}) points nowhere"
        for el in root.iter():
            for attr in ("href", "{http://www.w3.org/1999/xlink}href"):
                value = el.get(attr)
                if value is None:
                    continue
                assert value.startswith("#"), f"{path.name}: external reference {value}"
                assert value[1:] in ids, f"{path.name}: {value} points nowhere"
        assert "var(" not in text, f"{path.name}: CSS var() breaks cairosvg and Typst"
        assert not root.findall(f".//{SVG_NS}foreignObject"), f"{path.name}: foreignObject is dropped by Typst"
        assert not root.findall(f".//{SVG_NS}script"), f"{path.name}: script in a diagram"


def test_svg_titles_describe_the_position(built: Built) -> None:
    def title(rel: str) -> str:
        root = read_svg(built.html / "svg" / rel)
        element = root.find(f"{SVG_NS}title")
        assert element is not None
        return element.text or ""

    start = title("american/regras-01.svg")
    assert "Jogam as pretas" in start
    assert "21, 22" in start and "1, 2" in start
    capture = title("brazilian/inicio-02.svg")
    assert "c3" in capture and "d4" in capture
    assert "Jogam as brancas" in capture


def test_svg_files_are_utf8_xml(built: Built) -> None:
    paths = sorted((built.html / "svg").rglob("*.svg"))
    assert len(paths) >= len(SVGS)
    for path in paths:
        data = path.read_bytes()
        data.decode("utf-8")
        ET.fromstring(data)
