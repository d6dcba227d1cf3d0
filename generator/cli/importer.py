"""``damas import``: a puzzle collection (PDN, or ``FEN ; solution`` lines) proven and written as lessons.

One report line per entry on stdout (``file:line:col: sound (win, inferred)``, with the checker's
words indented under a verdict that is not sound), a summary on stderr.  Exit 0 when every entry is
sound (games of another variant are only listed), 1 when some are not (the lessons still hold the
sound ones), 2 for usage mistakes.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..rules import Variant
from .common import VARIANT, Whole


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--variant", "variant", type=VARIANT, required=True, help="The rules of entries whose file names none.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="The lesson file to write (.yaml).")
@click.option("--title", default=None, help="The lesson's title (default: the collection's file name).")
@click.option("--language", default="pt-BR", show_default=True, help="The lesson's language (pt-BR or en).")
@click.option("--budget", type=Whole("nodes"), default=None, help="Search nodes per puzzle proof.")
def import_command(file: str, variant: Variant, out: str, title: str | None, language: str, budget: int | None) -> None:
    """Read the puzzles of FILE, prove each one, and write the sound ones as a lesson at OUT."""
    from ..cache import open_cache, use
    from ..i18n import MissingTranslation, translator
    from ..interchange.entries import read_entries
    from ..interchange.importer import Verdict, chunks, import_entries, lesson_text
    from ..limits import limit
    from ..render.export import write_atomic
    from .app import EXIT_CONTENT

    target = Path(out)
    if target.suffix.lower() not in (".yaml", ".yml"):
        raise click.BadParameter(f"'{out}': a lesson file ends in .yaml", param_hint="'--out'")
    if not target.parent.is_dir():
        raise click.BadParameter(f"'{out}': the folder {target.parent} does not exist", param_hint="'--out'")
    try:
        tr = translator(language)
    except MissingTranslation as exc:
        raise click.BadParameter(str(exc), param_hint="'--language'") from None
    counts: dict[Verdict, int] = {}
    sound = []
    with use(open_cache()):
        for done in import_entries(read_entries(file, variant), language, budget, variant=variant.name):
            counts[done.verdict] = counts.get(done.verdict, 0) + 1
            click.echo(done.report())
            if done.puzzle is not None:
                sound.append(done.puzzle)
    name = title or Path(file).stem
    intro = (
        tr.gettext("Where these puzzles come from"),
        tr.gettext(
            "Imported from %(file)s. Every solution was proved by the rules engine against every defense, "
            "and no other first move reaches the goal."
        )
        % {"file": Path(file).name},
    )
    parts = chunks(sound, limit("puzzles")) if sound else []
    written = []
    for i, part in enumerate(parts, start=1):
        path = target if i == 1 else target.with_name(f"{target.stem}-{i}{target.suffix}")
        slug = _slug(target.stem) + ("" if i == 1 else f"-{i}")
        heading = name if len(parts) == 1 else f"{name} ({i})"
        written.append((path, lesson_text(variant.name, language, heading, slug, intro, part)))
    for path, text in written:  # every entry proven first: nothing is written half-way
        write_atomic(path, text.encode("utf-8"))
    total = sum(counts.values())
    summary = ", ".join(f"{n} {v.value}" for v, n in counts.items())
    files = ", ".join(str(p) for p, _ in written) or "nothing (no sound puzzle)"
    click.echo(f"damas: {total} entr{'y' if total == 1 else 'ies'}: {summary or 'none'}; wrote {files}", err=True)
    if counts.get(Verdict.SOUND, 0) + counts.get(Verdict.OTHER_VARIANT, 0) != total:
        raise SystemExit(EXIT_CONTENT)


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "importados"
