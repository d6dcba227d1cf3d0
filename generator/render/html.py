"""HTML pages from the site plan: home, one index per variant, one page per lesson.

Jinja with autoescape on for every template: lesson text reaches the page either escaped or as
HTML produced by the Markdown renderer with raw HTML off.  Links are relative, so the pages work
from ``file://`` with no server and no network.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, StrictUndefined, select_autoescape

from .. import __version__
from ..lessons.check import BOOK_SLUG
from ..lessons.glossary import bundled_glossary, glossary_anchor
from ..resources import jinja_loader, templates_dir
from .book import DIFFICULTY_WORDS, plan_books
from .comparison import comparison_table
from .interactive import editor_tables
from .site import Site

if TYPE_CHECKING:
    from ..course import Course

TEMPLATES = templates_dir() / "html"


@dataclass(frozen=True)
class Words:
    """Interface words of the pages, per language."""

    home: str
    breadcrumbs: str
    footer: str
    home_title: str
    home_lead: str
    contents: str
    diagram: str
    puzzles: str
    solution: str
    themes: str
    pdf_lesson: str
    pdf_collection: str
    comparison: str
    comparison_lead: str
    pdf_book: str
    reading: str
    defences: str
    level: str
    index_theme: str
    index_difficulty: str
    book_link: str
    comparison_caption: str
    rule: str
    print_heading: str = "Para imprimir"
    pdf_worksheet: str = "Folha de exercícios (sem as soluções)"
    pdf_answers: str = "Soluções dos exercícios"
    print_hint: str = "Ao imprimir esta página saem só os exercícios; as soluções estão no PDF de soluções."
    hint: str = "Dica"
    material: str = "No fim"
    same_rule: str = "A mesma regra em"
    previous: str = "Anterior"
    following: str = "Próxima"
    lessons_nav: str = "Lições desta modalidade"
    glossary: str = "Glossário"
    glossary_avoid: str = "Outras formas, que estas páginas não usam"

    def lessons_count(self, n: int) -> str:
        return f"{n} lição" if n == 1 else f"{n} lições"

    def diagrams_count(self, n: int) -> str:
        return f"{n} diagrama" if n == 1 else f"{n} diagramas"

    def puzzles_count(self, n: int) -> str:
        return f"{n} exercício" if n == 1 else f"{n} exercícios"


PT = Words(
    home="Início",
    breadcrumbs="Você está em",
    footer="Cada lance citado nestas páginas foi conferido pelo motor de regras do programa damas.",
    home_title="Regras de damas",
    home_lead="As regras de cada modalidade, com diagramas. Todo lance citado foi conferido por um motor de regras.",
    contents="Nesta página",
    diagram="Diagrama",
    puzzles="Exercícios",
    solution="Solução",
    themes="Temas",
    pdf_lesson="Regras e lições em PDF",
    pdf_collection="Livreto de regras e lições (PDF)",
    comparison="Comparação das regras",
    pdf_book="Folha de exercícios e soluções em PDF",
    reading="Como ler os diagramas",
    defences="Defesas",
    level="nível",
    index_theme="Índice por tema",
    index_difficulty="Índice por dificuldade",
    book_link="Livro de golpes: todos os exercícios, do mais fácil ao mais difícil, com soluções",
    comparison_lead="As regras de cada modalidade lado a lado. Cada célula leva ao diagrama que mostra a regra.",
    comparison_caption="Regras por modalidade (geradas a partir dos dados do motor de regras)",
    rule="Regra",
)


class EnglishWords(Words):
    def lessons_count(self, n: int) -> str:
        return f"{n} lesson" if n == 1 else f"{n} lessons"

    def diagrams_count(self, n: int) -> str:
        return f"{n} diagram" if n == 1 else f"{n} diagrams"

    def puzzles_count(self, n: int) -> str:
        return f"{n} puzzle" if n == 1 else f"{n} puzzles"


EN = EnglishWords(
    home="Home",
    breadcrumbs="You are here",
    footer="Every move quoted on these pages was checked by the damas rules engine.",
    home_title="Draughts rules",
    home_lead="The rules of each variant, with diagrams. Every move quoted was checked by a rules engine.",
    contents="On this page",
    diagram="Diagram",
    puzzles="Puzzles",
    solution="Solution",
    themes="Themes",
    pdf_lesson="This lesson as PDF",
    pdf_collection="All lessons as PDF",
    comparison="The rules compared",
    pdf_book="The puzzle book as PDF",
    reading="How to read the diagrams",
    defences="Defences",
    level="level",
    index_theme="Index by theme",
    index_difficulty="Index by difficulty",
    book_link="Puzzle book: every puzzle, with solutions",
    comparison_lead="The rules of each variant side by side. Each cell links to the diagram that shows the rule.",
    comparison_caption="Rules by variant (generated from the rules engine's data)",
    rule="Rule",
)


def environment() -> Environment:
    env = Environment(
        loader=jinja_loader("html"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["relsvg"] = lambda p: p.removeprefix("html/")
    env.filters["anchor"] = glossary_anchor
    return env


def course_words(course: Course | None) -> Words:
    """The interface words in the course's language, with its own title and summary on the home page."""
    if course is None:
        return PT
    words = EN if course.english else PT
    return replace(words, home_title=course.title, home_lead=course.summary or words.home_lead)


def render_pages(site: Site, *, pdf: bool, course: Course | None = None) -> dict[str, str]:
    """Every page of the site: path relative to the build root -> HTML text."""
    env = environment()
    t = course_words(course)
    lang = course.language if course is not None else "pt-BR"
    common: dict[str, Any] = {"t": t, "version": __version__, "lang": lang, "pdf": pdf}
    pages = {
        "html/index.html": env.get_template("home.html.j2").render(
            site=site, title=t.home_title, root="", comparison=len(site.variants) > 1, **common
        )
    }
    if len(site.variants) > 1:
        pages["html/comparacao.html"] = env.get_template("comparison.html.j2").render(
            table=comparison_table(site), title=t.comparison, root="", wide=True, **common
        )
    glossary = bundled_glossary("pt-BR")
    if glossary is not None:
        pages["html/glossario.html"] = env.get_template("glossary.html.j2").render(
            glossary=glossary, title=glossary.title, root="", **common
        )
    books = {b.variant.name: b for b in plan_books(site)}
    for v in site.variants:
        book = books.get(v.name)
        pages[f"html/{v.name}/index.html"] = env.get_template("variant.html.j2").render(
            v=v, title=v.title, root="../", book=book, **common
        )
        if book is not None:
            pages[f"html/{v.name}/{BOOK_SLUG}.html"] = env.get_template("book.html.j2").render(
                book=book, title=f"{book.title} · {v.title}", root="../", words=DIFFICULTY_WORDS, **common
            )
        for lesson in v.lessons:
            pages[f"html/{v.name}/{lesson.slug}.html"] = env.get_template("lesson.html.j2").render(
                lesson=lesson,
                v=v,
                title=f"{lesson.title} · {v.title}",
                root="../",
                **{**common, "lang": lesson.language},
            )
    pages["html/style.css"] = (TEMPLATES / "style.css").read_text(encoding="utf-8")
    pages.update(interactive_pages(env, site, common))
    return pages


def interactive_pages(env: Environment, site: Site, common: dict[str, Any]) -> dict[str, str]:
    """The script of the interactive diagrams and the position editor (every variant of the engine,
    the site's own first)."""
    from ..rules.variants import VARIANTS

    ordered = [v.variant for v in site.variants]
    ordered += [v for v in VARIANTS.values() if v.name not in {o.name for o in ordered}]
    return {
        "html/damas.js": (TEMPLATES / "damas.js").read_text(encoding="utf-8"),
        "html/editor.html": env.get_template("editor.html.j2").render(
            tables=editor_tables(ordered), title="Editor de posições", root="", **common
        ),
    }
