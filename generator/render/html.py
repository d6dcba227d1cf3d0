"""HTML pages from the site plan: home, one index per variant, one page per lesson.

Jinja with autoescape on for every template: lesson text reaches the page either escaped or as
HTML produced by the Markdown renderer with raw HTML off.  Links are relative, so the pages work
from ``file://`` with no server and no network.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from .. import __version__
from ..lessons.check import BOOK_SLUG
from .book import plan_books
from .comparison import comparison_table
from .interactive import editor_tables
from .site import Site

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "html"


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

    def lessons_count(self, n: int) -> str:
        return f"{n} lição" if n == 1 else f"{n} lições"

    def diagrams_count(self, n: int) -> str:
        return f"{n} diagrama" if n == 1 else f"{n} diagramas"

    def puzzles_count(self, n: int) -> str:
        return f"{n} exercício" if n == 1 else f"{n} exercícios"


PT = Words(
    home="Início",
    breadcrumbs="Você está em",
    footer="Cada lance citado nestas páginas foi conferido pelo motor de regras do damas.",
    home_title="Regras de damas",
    home_lead="As regras de cada modalidade, com diagramas. Todo lance citado foi conferido por um motor de regras.",
    contents="Nesta página",
    diagram="Diagrama",
    puzzles="Exercícios",
    solution="Solução",
    themes="Temas",
    pdf_lesson="Esta lição em PDF",
    pdf_collection="Todas as lições em PDF",
    comparison="Comparação das regras",
    pdf_book="O livro de exercícios em PDF",
    reading="Como ler os diagramas",
    defences="Defesas",
    level="nível",
    index_theme="Índice por tema",
    index_difficulty="Índice por dificuldade",
    book_link="Livro de golpes: todos os exercícios, com soluções",
    comparison_lead="As regras de cada modalidade lado a lado. Cada célula leva ao diagrama que mostra a regra.",
    comparison_caption="Regras por modalidade (geradas a partir dos dados do motor de regras)",
    rule="Regra",
)


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["relsvg"] = lambda p: p.removeprefix("html/")
    return env


def render_pages(site: Site, *, pdf: bool) -> dict[str, str]:
    """Every page of the site: path relative to the build root -> HTML text."""
    env = environment()
    common: dict[str, Any] = {"t": PT, "version": __version__, "lang": "pt-BR", "pdf": pdf}
    pages = {
        "html/index.html": env.get_template("home.html.j2").render(
            site=site, title=PT.home_title, root="", comparison=len(site.variants) > 1, **common
        )
    }
    if len(site.variants) > 1:
        pages["html/comparacao.html"] = env.get_template("comparison.html.j2").render(
            table=comparison_table(site), title=PT.comparison, root="", wide=True, **common
        )
    books = {b.variant.name: b for b in plan_books(site)}
    for v in site.variants:
        book = books.get(v.name)
        pages[f"html/{v.name}/index.html"] = env.get_template("variant.html.j2").render(
            v=v, title=v.title, root="../", book=book, **common
        )
        if book is not None:
            pages[f"html/{v.name}/{BOOK_SLUG}.html"] = env.get_template("book.html.j2").render(
                book=book, title=f"{book.title} · {v.title}", root="../", **common
            )
        for lesson in v.lessons:
            pages[f"html/{v.name}/{lesson.slug}.html"] = env.get_template("lesson.html.j2").render(
                lesson=lesson, title=f"{lesson.title} · {v.title}", root="../", **{**common, "lang": lesson.language}
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
