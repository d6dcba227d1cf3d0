"""``damas init``: start a course in a new folder."""

from __future__ import annotations

import click

from ..rules import Variant
from .app import EXIT_USAGE
from .common import VARIANT


@click.command()
@click.argument("directory", type=click.Path())
@click.option("--variant", "variants", multiple=True, type=VARIANT, help="A variant of the course (repeatable).")
@click.option(
    "--language", type=click.Choice(["pt-BR", "en"]), default="pt-BR", show_default=True, help="The course's language."
)
@click.option("--title", default="", help="The course title.")
@click.option("--author", default="", help="The author's name (on the PDFs).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="PDF paper size.")
def init(directory: str, variants: tuple[Variant, ...], language: str, title: str, author: str, paper: str) -> None:
    """Write a starter course into DIRECTORY (new or empty): course.yaml, lessons, schemas and a README."""
    from ..scaffold import InitRefused, Starter, default_variants, write_starter

    chosen = tuple(dict.fromkeys(variants)) or default_variants(language)
    starter = Starter(variants=chosen, language=language, title=title, author=author, paper=paper)
    try:
        files = write_starter(directory, starter)
    except InitRefused as exc:
        click.echo(f"damas init: {exc}", err=True)
        raise SystemExit(EXIT_USAGE) from None
    except OSError as exc:
        click.echo(f"damas init: cannot write {directory}: {exc.strerror}", err=True)
        raise SystemExit(EXIT_USAGE) from None
    click.echo(f"started a course in {directory}: {len(files)} files ({', '.join(v.name for v in chosen)})")
    click.echo(f"next: cd {click.format_filename(directory)} && damas serve   (or damas check, damas build)")
