"""``damas book report|compose|recheck``: a course's printed puzzle books held to the books' standard
(docs/mining.md, "The books' standard").

These are the maintainer's tools for the exercise books: ``report`` prints each book's figures and
every puzzle a rule leaves out, ``compose`` builds a variant's ``exercicios.yaml`` (and its English
twin) from its puzzles and ``damas mine`` candidates, ``recheck`` re-proves lesson files with the
books' wider cook margin.  Exit codes: 0 done (``recheck``: every puzzle passed); 1 a puzzle failed.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..rules import Variant
from .app import EXIT_CONTENT
from .common import VARIANT, Whole

LESSONS = click.Path(exists=True, file_okay=False, path_type=Path)
NO_CACHE = click.option(
    "--no-cache", is_flag=True, help="Prove everything again (default: reuse the proof cache, as damas check does)."
)


@click.group(name="book")
def book() -> None:
    """The printed puzzle books: their figures, their composition, their proofs (docs/mining.md)."""


@book.command("report")
@click.argument("lessons", type=LESSONS, default=Path("lessons"))
@click.option("--language", type=click.Choice(["pt-BR", "en"]), default="pt-BR", show_default=True)
@click.option("--details", is_flag=True, help="Also every puzzle a rule leaves out, and near-duplicates.")
def report_cmd(lessons: Path, language: str, details: bool) -> None:
    """Per book of LESSONS: puzzles, share from real games, 3-ply and 7+-ply lines, starts two up, levels."""
    from ..lessons.books import books, summary
    from ..lessons.books import details as detail_lines

    all_books = books(lessons, language)
    for variant, entries in all_books.items():
        click.echo(summary(variant, entries))
    if details:
        for line in detail_lines(all_books):
            click.echo(line)


@book.command("compose")
@click.argument("variant", type=VARIANT)
@click.option(
    "--candidates",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A 'damas mine' output (or its .checkpoint.jsonl). Repeatable.",
)
@click.option("--lessons", type=LESSONS, default=Path("lessons"), show_default=True, help="The course's lessons.")
@click.option("--size", type=Whole("book_size"), default=100, show_default=True, help="Puzzles in the exercise book.")
@click.option(
    "--real-percent",
    type=Whole("percent"),
    default=0,
    show_default=True,
    help="Least share of the book (percent) from games people played (PDN sources).",
)
@click.option("--write", is_flag=True, help="Rewrite the book's exercicios.yaml (and en/exercises.yaml).")
@NO_CACHE
def compose_cmd(
    variant: Variant,
    candidates: tuple[Path, ...],
    lessons: Path,
    size: int,
    real_percent: int,
    write: bool,
    no_cache: bool,
) -> None:
    """Compose VARIANT's exercise book from its puzzles and mined candidates, each proven again with
    the books' 8-ply cook margin and judged by the book rules; without --write, a report only."""
    from ..cache import open_cache, use
    from ..lessons.compose import Plan, compose

    plan = Plan(variant, lessons, list(candidates), size, real_percent / 100, write)
    with use(open_cache(not no_cache)):
        compose(plan, click.echo)


@book.command("recheck")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--margin", type=Whole("cook_margin"), default=8, show_default=True, help="Cook margin in plies.")
@click.option("--only", default="", help="Comma-separated puzzle ids (default: every puzzle).")
@NO_CACHE
def recheck_cmd(files: tuple[Path, ...], margin: int, only: str, no_cache: bool) -> None:
    """Re-prove every puzzle of FILES with cook margin MARGIN, one at a time; one line each."""
    from ..cache import open_cache, use
    from ..lessons.recheck import recheck

    wanted = set(only.split(",")) if only else None
    with use(open_cache(not no_cache)):
        bad = sum(recheck(f, margin, wanted, click.echo) for f in files)
    click.echo(f"{bad} failed")
    if bad:
        raise SystemExit(EXIT_CONTENT)
