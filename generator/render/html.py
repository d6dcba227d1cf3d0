"""HTML pages from the site plan: home, one index per variant, one page per lesson.

Jinja with autoescape on for every template: lesson text reaches the page either escaped or as
HTML produced by the Markdown renderer with raw HTML off.  Links are relative, so the pages work
from ``file://`` with no server and no network.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, StrictUndefined, select_autoescape

from .. import __version__
from ..i18n import DEFAULT_LANGUAGE, N_, Translator, anchor_names, translator
from ..lessons.glossary import bundled_glossary, glossary_anchor
from ..puzzles.themes import difficulty_words
from ..resources import jinja_loader, templates_dir
from .book import plan_books
from .comparison import comparison_table
from .interactive import editor_tables
from .jswords import js_words
from .liveboard import board_style
from .names import file_names
from .site import Site

if TYPE_CHECKING:
    from ..course import Course

TEMPLATES = templates_dir() / "html"


@dataclass(frozen=True)
class Words:
    """Interface words of the pages in one language, looked up in its catalog (generator/i18n.py)."""

    tr: Translator
    home_title: str
    home_lead: str

    def __getattr__(self, name: str) -> str:
        msgid = WORDS.get(name)
        if msgid is None:
            raise AttributeError(name)
        return self.tr.gettext(msgid)

    def lessons_count(self, n: int) -> str:
        return self.tr.ngettext("%(num)d lesson", "%(num)d lessons", n) % {"num": n}

    def diagrams_count(self, n: int) -> str:
        return self.tr.ngettext("%(num)d diagram", "%(num)d diagrams", n) % {"num": n}

    def puzzles_count(self, n: int) -> str:
        return self.tr.ngettext("%(num)d puzzle", "%(num)d puzzles", n) % {"num": n}


WORDS = {
    "home": N_("Home"),
    "breadcrumbs": N_("You are here"),
    "footer": N_("Every move quoted on these pages was checked by the damas rules engine."),
    "contents": N_("On this page"),
    "for_authors": N_("For authors and teachers"),
    "diagram": N_("Diagram"),
    "puzzles": N_("Puzzles"),
    "solution": N_("Solution"),
    "themes": N_("Themes"),
    "pdf_lesson": N_("Rules and lessons as PDF"),
    "pdf_collection": N_("Rules and lessons booklet (PDF)"),
    "comparison": N_("The rules compared"),
    "pdf_book": N_("Worksheet and solutions as PDF"),
    "reading": N_("How to read the diagrams"),
    "defences": N_("Defenses"),
    "level": N_("level"),
    "index_theme": N_("Index by theme"),
    "index_difficulty": N_("Index by difficulty"),
    "book_link": N_("Puzzle book: every puzzle, from the easiest to the hardest, with solutions"),
    "comparison_lead": N_(
        "The rules of each variant side by side. Each cell links to the diagram that shows the rule."
    ),
    "comparison_caption": N_("Rules by variant (generated from the rules engine's data)"),
    "rule": N_("Rule"),
    "print_heading": N_("To print"),
    "pdf_worksheet": N_("Worksheet (without the solutions)"),
    "pdf_answers": N_("Solutions to the puzzles"),
    "print_hint": N_("Printing this page prints the puzzles only; the solutions are in the solutions PDF."),
    "hint": N_("Hint"),
    "material": N_("At the end"),
    "same_rule": N_("The same rule in"),
    "previous": N_("Previous"),
    "following": N_("Next"),
    "lessons_nav": N_("Lessons of this variant"),
    "glossary": N_("Glossary"),
    "glossary_avoid": N_("Other words, which these pages do not use"),
    "in_the_book": N_("These puzzles are in the puzzle book of this variant, where you solve them on the board:"),
}
"""The pages' interface words (attribute of :class:`Words` -> English msgid)."""


def page_words(language: str, course: Course | None = None) -> Words:
    """The interface words in ``language``, with the course's own title and summary on the home page."""
    tr = translator(language)
    title = tr.gettext("Draughts rules")
    lead = tr.gettext("The rules of each variant, with diagrams. Every move quoted was checked by a rules engine.")
    if course is not None:
        title, lead = course.title, course.summary or lead
    return Words(tr, title, lead)


@cache
def environment(language: str = DEFAULT_LANGUAGE, prefix: str = "") -> Environment:
    """The page templates with the catalog of ``language`` installed (``_()``, ``ngettext()``); one
    per language and folder depth, so a template is compiled once (and again when its file changes:
    Jinja's loader checks)."""
    env = Environment(
        loader=jinja_loader("html"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translator(language), newstyle=True)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    # The embedded puzzle data (|tojson) without the spaces after separators: a page of 100
    # interactive puzzles is about 7 % lighter.  Still HTML-safe: tojson escapes < > & and quotes.
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}
    up = "../" * prefix.count("/")
    env.filters["relsvg"] = lambda p: up + p.removeprefix("html/")
    env.filters["anchor"] = glossary_anchor
    env.filters["without"] = lambda data, *keys: {k: v for k, v in data.items() if k not in keys}
    return env


def render_pages(
    site: Site,
    *,
    pdf: bool,
    course: Course | None = None,
    language: str | None = None,
    prefix: str = "",
    others: list[dict[str, str]] | None = None,
) -> dict[str, str]:
    """Every page of one language's site tree: path relative to the build root -> HTML text.

    ``language`` defaults to the course's; ``prefix`` is the tree's folder under ``html/`` (``""`` for
    the course language, ``"en/"`` for another); ``others`` are (name, home link) of the other trees."""
    plan = page_plan(site, pdf=pdf, course=course, language=language, prefix=prefix, others=others)
    return {path: render() for path, render in plan.items()}


Render = Callable[[], str]


def page_plan(
    site: Site,
    *,
    pdf: bool,
    course: Course | None = None,
    language: str | None = None,
    prefix: str = "",
    others: list[dict[str, str]] | None = None,
) -> dict[str, Render]:
    """:func:`render_pages` not yet rendered: path -> a function that renders it, so a caller that
    knows which pages a change touches (``damas serve``) renders only those."""
    lang = language or (course.language if course is not None else DEFAULT_LANGUAGE)
    env = environment(lang, prefix)
    own = course is not None and course.source is not None and language in (None, course.language)
    t = page_words(lang, course if own else None)
    common: dict[str, Any] = {
        "t": t,
        "version": __version__,
        "lang": t.tr.html_lang,
        "pdf": pdf,
        "names": file_names(lang),
        "pdf_up": "../" * (prefix.count("/") + 1) + "pdf/" + prefix,
        "others": others or [],
        "anchors": anchor_names(lang),
        "up": "../" * prefix.count("/"),
        "js_words": js_words(lang),
        "has_glossary": bundled_glossary(lang) is not None,
    }
    base = f"html/{prefix}"
    plan = _root_pages(env, site, common, lang, base)
    plan.update(_variant_pages(env, site, common, lang, base))
    if not prefix:  # one stylesheet and one script for every language tree
        plan["html/style.css"] = lambda: (TEMPLATES / "style.css").read_text(encoding="utf-8")
        plan["html/damas.js"] = lambda: (TEMPLATES / "damas.js").read_text(encoding="utf-8")
    plan[f"{base}editor.html"] = lambda: editor_page(env, site, common)
    return plan


def _page(env: Environment, template: str, **context: Any) -> Render:
    return lambda: env.get_template(template).render(**context)


def _root_pages(env: Environment, site: Site, common: dict[str, Any], lang: str, base: str) -> dict[str, Render]:
    """The home page, and the comparison and glossary pages where the course has them."""
    t, names = common["t"], common["names"]
    comparison = len(site.variants) > 1
    plan = {
        f"{base}index.html": _page(
            env, "home.html.j2", site=site, title=t.home_title, root="", comparison=comparison, **common
        )
    }
    if comparison:
        plan[f"{base}{names['comparison']}.html"] = lambda: env.get_template("comparison.html.j2").render(
            table=comparison_table(site, lang), title=t.comparison, root="", wide=True, **common
        )
    glossary = bundled_glossary(lang)
    if glossary is not None:
        plan[f"{base}{names['glossary']}.html"] = _page(
            env, "glossary.html.j2", glossary=glossary, title=glossary.title, root="", **common
        )
    return plan


def _variant_pages(env: Environment, site: Site, common: dict[str, Any], lang: str, base: str) -> dict[str, Render]:
    """Per variant: its index, its puzzle book (the one page where its puzzles are solved) and its
    lessons (whose puzzles link to the book)."""
    names = common["names"]
    plan: dict[str, Render] = {}
    books = {b.variant.name: b for b in plan_books(site, lang)}
    for v in site.variants:
        book = books.get(v.name)
        plan[f"{base}{v.name}/index.html"] = _page(
            env, "variant.html.j2", v=v, title=v.title, root="../", book=book, **common
        )
        if book is not None:
            plan[f"{base}{v.name}/{names['book']}.html"] = _page(
                env,
                "book.html.j2",
                book=book,
                title=f"{book.title} · {v.title}",
                root="../",
                words=difficulty_words(lang),
                boards=styles([bp.item.board for bp in book.puzzles]),
                **common,
            )
        numbers = {(bp.lesson, bp.item.id): bp.number for bp in book.puzzles} if book is not None else {}
        for lesson in v.lessons:
            plan[f"{base}{v.name}/{lesson.slug}.html"] = _page(
                env,
                "lesson.html.j2",
                lesson=lesson,
                v=v,
                title=f"{lesson.title} · {v.title}",
                root="../",
                boards=styles([d.board for d in lesson.diagrams]),
                book_numbers={p.id: numbers[(lesson.slug, p.id)] for p in lesson.puzzles},
                **{**common, "lang": lesson.language, "anchors": anchor_names(lesson.language)},
            )
    return plan


def styles(boards: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The board styles a page's drawn boards name (generator/render/liveboard.py), once each."""
    return {key: board_style(key) for key in sorted({b["b"] for b in boards})}


def editor_page(env: Environment, site: Site, common: dict[str, Any]) -> str:
    """The position editor: every variant of the engine, the site's own first."""
    from ..rules.variants import VARIANTS

    ordered = [v.variant for v in site.variants]
    ordered += [v for v in VARIANTS.values() if v.name not in {o.name for o in ordered}]
    title = common["t"].tr.gettext("Position editor")
    return env.get_template("editor.html.j2").render(tables=editor_tables(ordered), title=title, root="", **common)
