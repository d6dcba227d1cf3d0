"""``damas worksheet``: a worksheet of proven puzzles picked by theme and level, with its answer key."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..rules import Variant
from .app import EXIT_CONTENT
from .common import VARIANT, Whole
from .place import COURSE_OPTION, locate_course

if TYPE_CHECKING:  # the command loads these packages only when it runs (generator/cli/app.py)
    from ..i18n import Translator
    from ..worksheet import Candidate, Filters


def _levels(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    from ..worksheet.pick import parse_levels

    if value is None:
        return None
    try:
        return parse_levels(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command()
@click.argument("variant", type=VARIANT)
@click.option(
    "--theme", "themes", multiple=True, metavar="T", help="Only puzzles with this theme (repeatable: any of them)."
)
@click.option(
    "--level", "levels", callback=_levels, metavar="N|A-B", help="Only these levels (1 very easy to 5 very hard)."
)
@click.option("--count", type=Whole("worksheet_count"), default=None, help="How many puzzles (default 12).")
@click.option(
    "--seed",
    type=Whole("seed"),
    default=0,
    show_default=True,
    help="Another seed, another choice.",
)
@click.option(
    "--from",
    "sources",
    multiple=True,
    type=click.Path(),
    help="Lesson files or folders to pick from (default: the course).",
)
@click.option("--title", default=None, help="The sheet's title (default: Puzzles).")
@click.option("--class", "class_name", default="", help="The class, printed in the header.")
@click.option("--date", default="", help="The date, printed in the header (default: a blank to fill in).")
@click.option("--language", default=None, help="pt-BR or en (default: the course's language).")
@click.option("--no-hints", is_flag=True, help="Leave the authors' hints out.")
@click.option("--out", "out", required=True, type=click.Path(), help="FILE.pdf or FILE.html; the key goes beside it.")
@COURSE_OPTION
def worksheet(
    variant: Variant,
    themes: tuple[str, ...],
    levels: tuple[int, int] | None,
    count: int | None,
    seed: int,
    sources: tuple[str, ...],
    title: str | None,
    class_name: str,
    date: str,
    language: str | None,
    no_hints: bool,
    out: str,
    course_dir: str | None,
) -> None:
    """Pick puzzles of VARIANT from the course (or --from PATH) and write a worksheet and its answer key."""
    from ..i18n import MissingTranslation, translator
    from ..worksheet import Sheet, pick, write_sheet
    from ..worksheet.write import SUFFIXES, make_sheet_book

    target = Path(out)
    if target.suffix.lower() not in SUFFIXES:
        raise click.BadParameter(f"'{out}': write the worksheet as FILE.pdf or FILE.html", param_hint="'--out'")
    course = locate_course(course_dir, lessons="." if sources and course_dir is None else None)
    lang = language or course.language
    try:
        tr = translator(lang)
    except MissingTranslation as exc:
        raise click.BadParameter(str(exc), param_hint="'--language'") from None
    filters = _filters(themes, levels, count, seed, lang)
    candidates = _candidates(list(sources) or [course.lessons], variant, lang, course.proof_budget)
    chosen = pick(candidates, filters)
    if len(chosen) < filters.count:
        click.echo(
            f"damas: only {len(chosen)} puzzle(s) match ({filters.describe()}); the sheet has {len(chosen)}", err=True
        )
    book = make_sheet_book(variant, chosen, lang)
    sheet = Sheet(
        title=title or tr.gettext("Puzzles"),
        subtitle=subtitle(tr, len(chosen), themes, levels),
        language=lang,
        class_name=class_name,
        date=date,
        hints=not no_hints,
        paper=course.paper,
        author=course.author,
    )
    written = write_sheet(book, sheet, target)
    click.echo(f"wrote {written[0]} ({len(chosen)} puzzles) and its answer key {written[1]}")
    if not chosen:
        raise SystemExit(EXIT_CONTENT)


def _filters(
    themes: tuple[str, ...], levels: tuple[int, int] | None, count: int | None, seed: int, lang: str
) -> Filters:
    """What the sheet asks for, themes named as the catalog of ``lang`` names them."""
    from ..worksheet import Filters
    from ..worksheet.gather import canonical_tag
    from ..worksheet.pick import DEFAULT_COUNT

    return Filters(
        themes=tuple(dict.fromkeys(canonical_tag(t, lang) for t in themes)),
        levels=levels,
        count=count or DEFAULT_COUNT,
        seed=seed,
        exact=count is not None,
    )


def _candidates(paths: list[str | Path], variant: Variant, lang: str, proof_budget: int | None) -> list[Candidate]:
    """The proven puzzles of ``variant`` under ``paths``; a course that does not check is refused with
    its errors on stderr."""
    from ..cache import open_cache, use
    from ..worksheet import gather
    from ..worksheet.gather import WorksheetRefused

    with use(open_cache()):
        try:
            return gather(paths, variant, lang, proof_budget)
        except WorksheetRefused as exc:
            for error in exc.report.errors:
                click.echo(str(error), err=True)
            raise


def subtitle(tr: Translator, count: int, themes: tuple[str, ...], levels: tuple[int, int] | None) -> str:
    """``12 exercícios · golpe de dama · níveis 2 a 3``."""
    parts = [tr.ngettext("%(num)s puzzle", "%(num)s puzzles", count) % {"num": tr.number(count)}]
    parts += [theme_label(t, tr.language) for t in themes]
    if levels is not None:
        low, high = levels
        if low == high:
            parts.append(tr.gettext("level %(num)s") % {"num": low})
        else:
            parts.append(tr.gettext("levels %(low)s to %(high)s") % {"low": low, "high": high})
    return " · ".join(parts)


def theme_label(name: str, language: str) -> str:
    """A theme as the sheet's language names it (``king shot`` on an English sheet, ``golpe de dama``
    on a Portuguese one), whichever way the teacher typed it."""
    from ..i18n import translator
    from ..puzzles.theme_words import THEME_WORDS
    from ..worksheet.gather import canonical_tag

    tag = canonical_tag(name, language)
    word = next((w for w in THEME_WORDS if w.tag == tag), None)
    return translator(language).pgettext("theme", word.name) if word is not None else name
