"""HTML pages from the site plan: home, one index per variant, one page per lesson.

Jinja with autoescape on for every template: lesson text reaches the page either escaped or as
HTML produced by the Markdown renderer with raw HTML off.  Links are relative, so the pages work
from ``file://`` with no server and no network.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def environment(language: str = DEFAULT_LANGUAGE, prefix: str = "") -> Environment:
    """The page templates with the catalog of ``language`` installed (``_()``, ``ngettext()``)."""
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
    the course language, ``"en/"`` for another); ``others`` are the other trees' home links (name, href, lang)."""
    lang = language or (course.language if course is not None else DEFAULT_LANGUAGE)
    env = environment(lang, prefix)
    own = course is not None and course.source is not None and language in (None, course.language)
    t = page_words(lang, course if own else None)
    tr = t.tr
    names = file_names(lang)
    pdf_up = "../" * (prefix.count("/") + 1) + "pdf/" + prefix
    common: dict[str, Any] = {
        "t": t,
        "version": __version__,
        "lang": tr.html_lang,
        "pdf": pdf,
        "names": names,
        "pdf_up": pdf_up,
        "others": others or [],
        "anchors": anchor_names(lang),
        "up": "../" * prefix.count("/"),
        "js_words": js_words(lang),
    }
    base = f"html/{prefix}"
    comparison = len(site.variants) > 1
    glossary = bundled_glossary(lang)
    common["has_glossary"] = glossary is not None
    pages = {
        f"{base}index.html": env.get_template("home.html.j2").render(
            site=site, title=t.home_title, root="", comparison=comparison, **common
        )
    }
    if comparison:
        pages[f"{base}{names['comparison']}.html"] = env.get_template("comparison.html.j2").render(
            table=comparison_table(site, lang), title=t.comparison, root="", wide=True, **common
        )
    if glossary is not None:
        pages[f"{base}{names['glossary']}.html"] = env.get_template("glossary.html.j2").render(
            glossary=glossary, title=glossary.title, root="", **common
        )
    books = {b.variant.name: b for b in plan_books(site, lang)}
    for v in site.variants:
        book = books.get(v.name)
        pages[f"{base}{v.name}/index.html"] = env.get_template("variant.html.j2").render(
            v=v, title=v.title, root="../", book=book, **common
        )
        if book is not None:
            pages[f"{base}{v.name}/{names['book']}.html"] = env.get_template("book.html.j2").render(
                book=book, title=f"{book.title} · {v.title}", root="../", words=difficulty_words(lang), **common
            )
        for lesson in v.lessons:
            pages[f"{base}{v.name}/{lesson.slug}.html"] = env.get_template("lesson.html.j2").render(
                lesson=lesson,
                v=v,
                title=f"{lesson.title} · {v.title}",
                root="../",
                **{**common, "lang": lesson.language, "anchors": anchor_names(lesson.language)},
            )
    if not prefix:  # one stylesheet and one script for every language tree
        pages["html/style.css"] = (TEMPLATES / "style.css").read_text(encoding="utf-8")
    pages.update(interactive_pages(env, site, common, prefix))
    return pages


def interactive_pages(env: Environment, site: Site, common: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """The script of the interactive diagrams and the position editor (every variant of the engine,
    the site's own first)."""
    from ..rules.variants import VARIANTS

    ordered = [v.variant for v in site.variants]
    ordered += [v for v in VARIANTS.values() if v.name not in {o.name for o in ordered}]
    out = {
        f"html/{prefix}editor.html": env.get_template("editor.html.j2").render(
            tables=editor_tables(ordered), title=common["t"].tr.gettext("Position editor"), root="", **common
        ),
    }
    if not prefix:
        out["html/damas.js"] = (TEMPLATES / "damas.js").read_text(encoding="utf-8")
    return out
