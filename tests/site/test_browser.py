"""The built pages in a real browser: Debian's chromium driven by PyPI playwright, from file:// URLs.

Skipped (with the reason) only when /usr/bin/chromium or the playwright package is missing; CI
installs both (``apt-get install -y chromium``, ``pip install playwright``; never ``playwright install``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import PAGES, Built, chromium_path, read_page

pytestmark = [
    pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (apt-get install -y chromium)"),
]
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")

LESSON_PAGES = [
    "american/regras.html",
    "american/golpes.html",
    "american/livro-de-golpes.html",
    "brazilian/inicio.html",
]


def open_page(page: Any, built: Built, name: str) -> None:
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    outside: list[str] = []
    page.on("request", lambda request: None if request.url.startswith("file://") else outside.append(request.url))
    page.goto((built.html / name).as_uri(), wait_until="load")
    assert failed == [], f"{name}: requests failed: {failed}"
    assert outside == [], f"{name}: requests leave the file system: {outside}"


@pytest.mark.parametrize("name", PAGES)
def test_every_board_is_drawn_and_every_image_loads(page: Any, built: Built, name: str) -> None:
    open_page(page, built, name)
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # draws every board at once
    boards = page.evaluate(
        "() => [document.querySelectorAll('.board').length, document.querySelectorAll('.board svg').length]"
    )
    assert boards[0] == boards[1], f"{name}: boards not drawn: {boards}"
    for details in page.locator("details").all():
        details.evaluate("d => d.open = true")
    page.wait_for_load_state("load")
    images = page.evaluate(
        "() => Promise.all(Array.from(document.images).map(i => { i.loading = 'eager';"
        " const src = i.getAttribute('src');"
        " return i.decode().then(() => [src, i.naturalWidth > 0], () => [src, false]); }))"
    )
    assert [src for src, ok in images if not ok] == [], f"{name}: images that did not load"
    sheets = page.evaluate("() => document.styleSheets.length")
    assert sheets == 1, f"{name}: the stylesheet did not load"


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_diagrams_have_accessible_names(page: Any, built: Built, name: str) -> None:
    open_page(page, built, name)
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # draws every board at once
    alts = [
        img.attrs["alt"] for img in read_page(built.html / name).all("img") if "final" not in img.attrs.get("class", "")
    ]
    assert alts
    for alt in alts:
        image = page.get_by_role("img", name=alt, exact=True)
        assert image.count() == 1, f"{name}: no single img named {alt[:60]!r}"
        assert image.is_visible()


def test_diagram_names_from_captions(page: Any, built: Built) -> None:
    open_page(page, built, "american/regras.html")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # draws every board at once
    start = page.get_by_role("img", name="Posição inicial, vez das pretas.")
    assert start.count() == 1
    assert "Jogam as pretas" in (start.get_attribute("aria-label") or "")
    assert page.get_by_role("img", name="27x18x11").count() == 1
    open_page(page, built, "brazilian/inicio.html")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert page.get_by_role("img", name="A pedra de c3 captura: c3xe5.").count() == 1
    assert page.get_by_role("figure").count() == 2


@pytest.mark.parametrize("name", ["american/livro-de-golpes.html"])
def test_solution_hidden_until_summary_clicked(page: Any, built: Built, name: str) -> None:
    open_page(page, built, name)
    solution = page.locator("details .solution").first
    assert solution.count() == 1
    assert not solution.is_visible(), f"{name}: solution visible before the click"
    page.get_by_text("Solução", exact=True).first.click()
    assert solution.is_visible(), f"{name}: solution still hidden after the click"
    # numbered as players write them; American: Black moves first, so White's key is "1. … 26-23"
    assert solution.inner_text().strip() == "1. … 26-23 2. 19x26 31x22x13"
    page.get_by_text("Solução", exact=True).first.click()
    assert not solution.is_visible(), f"{name}: the toggle does not close again"


@pytest.mark.parametrize("name", PAGES)
def test_usable_at_phone_width(browser: Any, built: Built, name: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, device_scale_factor=1)
    try:
        page = context.new_page()
        open_page(page, built, name)
        sizes = page.evaluate(
            """() => ({
                scroll: document.documentElement.scrollWidth,
                inner: window.innerWidth,
                main: document.querySelector('main').getBoundingClientRect().right,
                images: Array.from(document.images).map(i => i.getBoundingClientRect().right),
            })"""
        )
        assert sizes["scroll"] <= sizes["inner"], f"{name}: horizontal overflow at 375 px: {sizes}"
        assert sizes["main"] <= sizes["inner"] + 0.5, f"{name}: main wider than the screen: {sizes}"
        assert all(right <= sizes["inner"] + 0.5 for right in sizes["images"]), f"{name}: image off screen"
        if name in ("american/regras.html", "comparacao.html"):
            shot = tmp_path / f"phone-{name.replace('/', '-')}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 5000
    finally:
        context.close()


def test_print_stylesheet(page: Any, built: Built) -> None:
    open_page(page, built, "american/golpes.html")
    header = page.locator("header.site")
    assert header.is_visible()
    page.emulate_media(media="print")
    assert header.is_hidden(), "the site header is printed"
    assert page.locator("footer.site").is_hidden(), "the site footer is printed"
    assert page.locator("p.pdf").is_hidden(), "the PDF link is printed"
    figure = page.locator("figure").first
    assert figure.is_visible()


@pytest.mark.parametrize("name", ["american/livro-de-golpes.html"])
def test_print_is_a_worksheet(page: Any, built: Built, name: str) -> None:
    """Printing a puzzle page gives the exercises only: the answer key is its own PDF."""
    open_page(page, built, name)
    page.emulate_media(media="print")
    assert page.locator(".puzzle figure").first.is_visible(), f"{name}: the printed page has no exercise"
    assert page.locator("details .solution").first.is_hidden(), f"{name}: the printed page shows a solution"
    assert page.locator("details > summary").first.is_hidden(), f"{name}: a toggle is printed"


def test_screenshots(page: Any, built: Built, tmp_path: Path) -> None:
    """Pictures of the pages (kept in pytest's temporary folder of the run, to look at)."""
    for name in ("american/regras.html", "american/livro-de-golpes.html", "index.html", "comparacao.html"):
        open_page(page, built, name)
        shot = tmp_path / f"desktop-{name.replace('/', '-')}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000
    open_page(page, built, "american/livro-de-golpes.html")
    page.get_by_text("Solução", exact=True).first.click()
    page.screenshot(path=str(tmp_path / "desktop-american-book-open.png"), full_page=True)
    page.emulate_media(media="print")
    page.screenshot(path=str(tmp_path / "print-american-book.png"), full_page=True)
    for shot in ("desktop-american-book-open.png", "print-american-book.png"):
        assert (tmp_path / shot).stat().st_size > 5000
