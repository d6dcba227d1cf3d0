"""Square numbers legible in print: at least 6 pt at every printed board width, contrast at least
4.5:1 against what is behind them, and drawn above the pieces (a piece never covers one)."""

from __future__ import annotations

import pytest

from generator.render.pdf import MIN_NUMBER_PT, diagram_cm
from generator.render.svg import THEMES, build_view, diagram
from generator.rules import Position, get_variant

from .helpers import parse

NUMBERED = ["international", "american", "italian", "portuguese"]


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("variant", NUMBERED)
def test_numbers_print_at_six_points(variant: str) -> None:
    view = build_view(Position.start(variant))
    assert view.numbers, "a numbered variant without numbers"
    widths = diagram_cm(get_variant(variant))
    for kind in ("booklet", "worksheet"):
        points = view.number_size / view.width * widths[kind] / 2.54 * 72
        assert points >= MIN_NUMBER_PT, f"{variant} {kind}: numbers print at {points:.2f} pt"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_number_contrast(theme: str) -> None:
    paint = THEMES[theme]
    assert contrast(paint["number"], paint["square dark"]) >= 4.5
    assert contrast(paint["number"], paint["number halo"]) >= 4.5


def test_old_numbers_would_fail() -> None:
    """The checks above can fail: the former colours (cream on brown) were about 3.6:1."""
    assert contrast("#fbf3e2", "#a9744f") < 4.5


def test_numbers_are_drawn_above_the_pieces() -> None:
    root = parse(diagram(Position.from_fen("international", "W:W30,35:B10")))
    order = [el.get("data-layer") for el in root.iter() if el.get("data-layer")]
    assert order.index("numbers") > order.index("pieces")
    assert order.index("number-halo") < order.index("numbers")
