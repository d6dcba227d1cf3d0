"""Lesson text reaches pages escaped, never as markup.

``damas check`` refuses raw HTML in lesson text, so a lesson cannot carry it to the build; these tests
feed hostile text straight to the render layer (Markdown renderer, Jinja environment, and the page
templates with a tampered site plan) to prove the second line of defence holds on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.lessons.check import check_paths
from generator.render.html import environment, render_pages
from generator.render.markdown import inline_html, to_html
from generator.rules import get_variant

from .helpers import PAGES, parse_html_text
from .page_scripts import assert_scripts_inert

SCRIPT = "<script>alert(1)</script>"
HANDLER = '<b onmouseover="alert(2)">negrito</b>'
EVIL = f"{SCRIPT} {HANDLER}"
QUOTES = '" onerror="alert(3)'


def assert_inert(html: str, where: str) -> None:
    page = parse_html_text(html, where)
    assert_scripts_inert(html, page, where)
    assert page.all("b") == [], f"{where}: a <b> element was produced from text"
    for e in page.elements:
        handlers = [a for a in e.attrs if a.startswith("on")]
        assert handlers == [], f"{where}: <{e.tag}> got {handlers}"


@pytest.mark.parametrize("text", [SCRIPT, HANDLER, EVIL, f"Um parágrafo.\n\n{SCRIPT}\n\nOutro {HANDLER}."])
def test_markdown_escapes_raw_html(text: str) -> None:
    html = to_html(text)
    assert_inert(html, "to_html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or "&lt;b onmouseover" in html
    assert SCRIPT in parse_html_text(html).text or HANDLER in parse_html_text(html).text


@pytest.mark.parametrize("text", [SCRIPT, HANDLER, EVIL])
def test_caption_markdown_escapes_raw_html(text: str) -> None:
    html = inline_html(text)
    assert_inert(html, "inline_html")
    assert not html.lstrip().startswith("<p>"), "a caption is inline: no enclosing paragraph"
    assert parse_html_text(html).text == " ".join(text.split())


def test_markdown_still_renders_markdown() -> None:
    html = to_html("Texto **forte** e *leve*.\n\n- um\n- dois\n")
    assert "<strong>forte</strong>" in html and "<em>leve</em>" in html and "<li>um</li>" in html
    assert inline_html("**27x18x11**") == "<strong>27x18x11</strong>"


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:x", "data:text/html,<b>x</b>"])
def test_markdown_drops_script_links(url: str) -> None:
    html = to_html(f"[clique]({url})")
    page = parse_html_text(html)
    assert [a.attrs.get("href") for a in page.all("a")] == [], html


def test_jinja_environment_autoescapes_strings_and_files() -> None:
    env = environment()
    out = env.from_string('<p title="{{ x }}">{{ x }}</p>').render(x=EVIL + QUOTES)
    assert_inert(out, "from_string")
    page = parse_html_text(out)
    assert page.all("p")[0].attrs == {"title": EVIL + QUOTES}, "attribute value broke out of its quotes"
    for name in ("base.html.j2", "lesson.html.j2", "book.html.j2", "home.html.j2", "variant.html.j2"):
        template = env.get_template(name)
        assert env.autoescape is True or env.autoescape(template.name), f"{name} is not autoescaped"


def test_pages_escape_every_text_field(lessons_dir: Path) -> None:
    """Put hostile text in every field a lesson controls, after the check, and render the real templates."""
    from generator.render.site import plan_site

    report = check_paths([lessons_dir])
    assert report.ok, [str(e) for e in report.errors]
    site = plan_site(report.lessons, [get_variant("american")])
    lessons = {lesson.slug: lesson for lesson in site.variants[0].lessons}
    evil_alt = EVIL + QUOTES

    rules = lessons["regras"]
    rules.title = EVIL
    rules.summary = EVIL
    section = rules.sections[0]
    section.title = EVIL
    section.html = to_html(f"Texto com {SCRIPT}\n\n{HANDLER}")
    diagram = section.diagrams[0]
    diagram.caption = EVIL
    diagram.caption_html = inline_html(EVIL)
    diagram.alt = evil_alt
    diagram.claim_texts = [EVIL]

    golpes = lessons["golpes"]
    puzzle = golpes.puzzles[0]
    puzzle.stipulation = EVIL
    puzzle.solution = EVIL
    puzzle.caption = EVIL
    puzzle.themes = [EVIL]
    puzzle.defences = [EVIL]
    puzzle.alt = evil_alt
    assert puzzle.play is not None
    puzzle.play["hint"] = EVIL  # author text inside the solve panel's JSON

    pages = render_pages(site, pdf=True)
    american = [p for p in PAGES if not p.startswith("brazilian/") and p != "comparacao.html"]  # no comparison
    assert len([p for p in pages if p.endswith(".html")]) == len(american)
    for path, html in pages.items():
        if path.endswith(".html"):
            assert_inert(html, path)
    book_page = pages["html/american/livro-de-golpes.html"]  # the one page where the puzzle is played
    blocks = assert_scripts_inert(book_page, parse_html_text(book_page), "book")
    hints = [b["hint"] for b in blocks if "hint" in b]
    assert hints == [EVIL], "the hostile hint stays data, whole"

    rules_page = parse_html_text(pages["html/american/regras.html"])
    assert SCRIPT in rules_page.text and HANDLER in rules_page.text, "the text is shown, escaped"
    assert rules_page.title.strip().startswith(SCRIPT)
    assert rules_page.all("img")[0].attrs["alt"] == evil_alt
    book_page = parse_html_text(pages["html/american/livro-de-golpes.html"])
    assert book_page.all("img")[0].attrs["alt"] == evil_alt
    assert SCRIPT in book_page.text
