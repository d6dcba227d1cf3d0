"""``damas export``: the course's puzzles, with their lines, as a PDN file."""

from __future__ import annotations

import click

from ..rules import Variant
from .common import VARIANT
from .place import COURSE_OPTION, locate_course


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--variant", "variants", multiple=True, type=VARIANT, help="Only these variants (repeatable).")
@click.option(
    "--out", "out", required=True, type=click.Path(dir_okay=False, allow_dash=True), help="FILE.pdn, or - for stdout."
)
@COURSE_OPTION
def export(paths: tuple[str, ...], variants: tuple[Variant, ...], out: str, course_dir: str | None) -> None:
    """Write the puzzles of the lessons under PATHS (default: the course) as PDN games."""
    from pathlib import Path

    from ..cache import open_cache, use
    from ..course import check_course
    from ..interchange.export import export_games
    from ..render.export import write_atomic
    from ..rules.pdn import write_pdn
    from .app import EXIT_CONTENT

    course = locate_course(course_dir, lessons="." if paths and course_dir is None else None)
    with use(open_cache()):
        report = check_course(course, paths or None)
    if not report.ok:  # only proven puzzles leave the course
        for error in report.errors:
            click.echo(str(error), err=True)
        click.echo(f"damas: not exporting: {len(report.errors)} error(s) (run 'damas check')", err=True)
        raise SystemExit(EXIT_CONTENT)
    games = export_games(report.lessons, [v.name for v in variants])
    text = write_pdn(games)
    if out == "-":
        click.echo(text, nl=False)
    else:
        write_atomic(Path(out), text.encode("utf-8"))
        click.echo(f"wrote {len(games)} puzzle(s) to {out}", err=True)
