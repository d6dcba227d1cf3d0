"""The boards the pages' script draws are the build's SVG: every variant, both orientations, with and
without numbers and coordinates, men and kings, arrows, capture routes, taken pieces and highlights.

Each case is drawn twice, by ``svg.diagram`` (what ``damas build`` writes and prints) and by
``damas.js`` in Debian's chromium from the data a page embeds (``liveboard.board_data`` and the
board style); both pictures are parsed and compared element by element, attribute by attribute
(numbers to within 0.01 of a unit).  The text alternative the script writes for a position is the
build's ``describe_position`` word for word.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from generator.render.jswords import js_words
from generator.render.liveboard import board_data, board_style, style_key
from generator.render.svg import describe_position, diagram
from generator.resources import templates_dir
from generator.rules import BLACK, WHITE, Position
from generator.rules.variants import VARIANTS

from .helpers import chromium_path

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed")

SVG = "{http://www.w3.org/2000/svg}"
IGNORED = {"id", "aria-labelledby", "aria-describedby", "aria-label", "role", "lang", "xmlns"}
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _positions(variant: str) -> list[tuple[Position, dict[str, Any]]]:
    """The start, a middle game with kings of both colours and a move's marks, and a capture."""
    start = Position.start(variant)
    pos = start
    for _ in range(7):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[len(moves) // 2])
    g = start.variant.geometry
    crowned = 1 << g.bits(pos.white)[0] | 1 << g.bits(pos.black)[-1]
    kings = Position(start.variant, pos.white, pos.black, pos.kings | crowned, pos.turn)
    quiet = next(m for m in kings.legal_moves())
    name = kings.square_name
    cases = [
        (start, {}),
        (kings, {"arrows": [(name(quiet.origin), name(quiet.dest))], "highlight": [name(quiet.origin)]}),
    ]
    # a capture: play on until one is forced, then show it as the replays do (route and taken pieces)
    cur = start
    for _ in range(40):
        moves = cur.legal_moves()
        if not moves:
            break
        if moves[0].captured:
            m = moves[0]
            after = cur.play(m)
            marks = {"route": [name(s) for s in m.path], "captured": [name(s) for s in m.captured]}
            cases.append((after, marks))
            break
        cur = cur.play(moves[(len(moves) * 7) // 11])
    return cases


def _cases() -> list[dict[str, Any]]:
    out = []
    for name, v in VARIANTS.items():
        for pos, marks in _positions(name):
            for orientation, numbers, coordinates in ((WHITE, None, None), (BLACK, True, True), (WHITE, False, True)):
                key = style_key(v, orientation, numbers, coordinates)
                svg = diagram(
                    pos,
                    orientation=orientation,
                    numbers=numbers,
                    coordinates=coordinates,
                    arrows=marks.get("arrows", ()),
                    route=marks.get("route"),
                    captured=marks.get("captured", ()),
                    highlight=marks.get("highlight", ()),
                )
                out.append(
                    {
                        "variant": name,
                        "key": key,
                        "data": board_data(pos, key, **marks),
                        "svg": str(svg),
                        "described": describe_position(pos, "pt"),
                    }
                )
    return out


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> list[tuple[dict[str, Any], str, str]]:
    """Every case drawn by the script: (case, the script's SVG, its text alternative)."""
    cases = _cases()
    folder = tmp_path_factory.mktemp("liveboard")
    shutil.copy(templates_dir() / "html" / "damas.js", folder / "damas.js")
    styles = {c["key"]: board_style(c["key"]) for c in cases}
    boards = "\n".join(
        f"<figure><div class=\"board\" data-board='{json.dumps(c['data'])}'>"
        '<noscript><img src="x.svg" alt=""></noscript></div></figure>'
        for c in cases
    )
    page_html = (
        '<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"></head><body>'
        f"{boards}"
        f'<script type="application/json" id="damas-words">{json.dumps(js_words("pt-BR"))}</script>'
        f'<script type="application/json" id="damas-boards">{json.dumps(styles)}</script>'
        '<script src="damas.js" defer></script></body></html>'
    )
    (folder / "boards.html").write_text(page_html, encoding="utf-8")
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((folder / "boards.html").as_uri(), wait_until="load")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # draws every board at once
    found = page.evaluate(
        "() => Array.from(document.querySelectorAll('.board')).map(b => {"
        " const s = b.querySelector('svg'); return s ? [s.outerHTML, s.getAttribute('aria-label')] : null; })"
    )
    page.close()
    assert errors == []
    assert len(found) == len(cases) and all(found), "a board was not drawn"
    return [(c, svg, label) for c, (svg, label) in zip(cases, found, strict=True)]


def _elements(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if e.tag not in (f"{SVG}title", f"{SVG}desc")]


def _same_value(a: str, b: str) -> bool:
    if NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return False
    return all(abs(float(x) - float(y)) <= 0.011 for x, y in zip(NUMBER.findall(a), NUMBER.findall(b), strict=True))


def test_every_case_is_drawn(drawn: list[tuple[dict[str, Any], str, str]]) -> None:
    assert {c["variant"] for c, _, _ in drawn} == set(VARIANTS)
    assert any('data-layer="route"' in c["svg"] for c, _, _ in drawn)
    assert any('data-crown="1"' in c["svg"] for c, _, _ in drawn)
    assert any('data-layer="arrow"' in c["svg"] for c, _, _ in drawn)


def test_the_script_draws_the_builds_picture(drawn: list[tuple[dict[str, Any], str, str]]) -> None:
    for case, script_svg, _ in drawn:
        where = f"{case['key']} {case['data']}"
        built, ours = _elements(case["svg"]), _elements(script_svg)
        assert [e.tag for e in ours] == [e.tag for e in built], where
        for b, o in zip(built, ours, strict=True):
            keys = set(b.attrib) - IGNORED
            assert keys == set(o.attrib) - IGNORED, f"{where}: {b.tag} {sorted(keys ^ (set(o.attrib) - IGNORED))}"
            for k in keys:
                assert _same_value(b.attrib[k], o.attrib[k]), f"{where}: {b.tag} {k}={b.attrib[k]!r} vs {o.attrib[k]!r}"
            assert (b.text or "").strip() == (o.text or "").strip(), where


def test_numbers_are_drawn_above_the_pieces(drawn: list[tuple[dict[str, Any], str, str]]) -> None:
    numbered = [svg for c, svg, _ in drawn if 'data-layer="numbers"' in svg and 'data-layer="pieces"' in svg]
    assert numbered
    for svg in numbered:
        layers = [e.get("data-layer") for e in ET.fromstring(svg) if e.get("data-layer")]
        assert layers.index("numbers") > layers.index("pieces")
        assert layers.index("number-halo") > layers.index("pieces")


def test_the_scripts_text_alternative_is_the_builds(drawn: list[tuple[dict[str, Any], str, str]]) -> None:
    for case, _, label in drawn:
        assert label == case["described"], case["key"]
