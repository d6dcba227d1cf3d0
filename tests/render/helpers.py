"""Reading rendered diagrams back: ElementTree plus the board's own grid, recovered from the SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
SQUARE = 50.0


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def layer(root: ET.Element, name: str) -> ET.Element | None:
    return next((el for el in root.iter() if el.get("data-layer") == name), None)


def board_squares(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Square name -> top-left corner of its drawn playing square."""
    board = layer(root, "board")
    assert board is not None
    return {
        el.get("data-square"): (float(el.get("x")), float(el.get("y")))
        for el in board.iter(f"{NS}rect")
        if el.get("data-square")
    }


def grid(root: ET.Element) -> dict[str, tuple[int, int]]:
    """Square name -> (column, row) as seen on the drawing, (0, 0) at the top left."""
    corners = board_squares(root)
    x0 = min(x for x, _ in corners.values())
    y0 = min(y for _, y in corners.values())
    return {name: (round((x - x0) / SQUARE), round((y - y0) / SQUARE)) for name, (x, y) in corners.items()}


def centre(root: ET.Element, name: str) -> tuple[float, float]:
    x, y = board_squares(root)[name]
    return (x + SQUARE / 2, y + SQUARE / 2)


def translate(el: ET.Element) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", el.get("transform", ""))
    assert m, el.get("transform")
    return (float(m.group(1)), float(m.group(2)))


def points(text: str) -> list[tuple[float, float]]:
    return [tuple(float(c) for c in pair.split(",")) for pair in text.split()]


def number_square(root: ET.Element, text: str) -> str:
    """The playing square on which the square-number text ``text`` is drawn."""
    numbers = layer(root, "numbers")
    assert numbers is not None
    hits = [el for el in numbers.iter(f"{NS}text") if el.text == text]
    assert len(hits) == 1, f"{len(hits)} texts '{text}'"
    x, y = float(hits[0].get("x")), float(hits[0].get("y"))
    inside = [
        name
        for name, (sx, sy) in board_squares(root).items()
        if sx <= x <= sx + SQUARE / 2 and sy <= y <= sy + SQUARE / 2  # in the square's top-left quarter
    ]
    assert len(inside) == 1, inside
    return inside[0]


def pieces(root: ET.Element) -> dict[str, tuple[str, ET.Element]]:
    """Square name -> (kind such as "white king", element)."""
    group = layer(root, "pieces")
    if group is None:
        return {}
    return {el.get("data-square"): (el.get("data-piece"), el) for el in group if el.get("data-piece")}
