"""Course commands: ``damas check``, ``build`` and ``schema``."""

from __future__ import annotations

import json
import time

import click

from ..rules import Variant
from .app import EXIT_CONTENT, Progress, cli
from .common import VARIANT


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option(
    "--glossary",
    "glossary_file",
    type=click.Path(dir_okay=False),
    help="The course's own glossary (YAML) instead of the bundled one; wording is compared with it.",
)
def check(paths: tuple[str, ...], as_json: bool, glossary_file: str | None) -> None:
    """Verify every claim of the lessons under PATHS (default: lessons/)."""
    from ..lessons.check import check_paths
    from ..lessons.glossary import GlossaryError, load_glossary

    try:
        glossary = load_glossary(glossary_file) if glossary_file else None
    except GlossaryError as exc:
        raise click.UsageError(str(exc)) from None
    started = time.perf_counter()
    report = check_paths(paths or ("lessons",), glossary)
    seconds = time.perf_counter() - started
    counts = report.counts()
    if as_json:
        payload = {
            "ok": report.ok,
            "counts": counts,
            "errors": [e.as_dict() for e in report.errors],
            "warnings": [w.as_dict() for w in report.warnings],
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        for error in report.errors:
            click.echo(str(error))
        for warning in report.warnings:
            click.echo(f"{warning.path}:{warning.line}:{warning.col}: warning: {warning.message}")
        summary = (
            f"{counts['files']} file(s), {counts['lessons']} lesson(s), {counts['diagrams']} diagram(s), "
            f"{counts['claims']} claim(s), {counts['puzzles']} puzzle(s) checked in {seconds:.2f} s"
        )
        if report.ok:
            click.echo(f"ok: {summary}")
        else:
            n, files = len(report.errors), len(report.failed_files())
            click.echo(f"{n} error(s) in {files} file(s); {summary}")
    if not report.ok:
        raise SystemExit(EXIT_CONTENT)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of lesson files (for editors: yaml-language-server)."""
    from ..lessons.schema import schema_text

    click.echo(schema_text().rstrip())


@cli.command()
@click.option("--out", "out", default="output", show_default=True, type=click.Path(), help="Where to build.")
@click.option("--variant", "variant_names", multiple=True, type=VARIANT, help="Only these variants (repeatable).")
@click.option("--format", "formats", default="html,pdf", show_default=True, help="Comma-separated: html, pdf.")
@click.option(
    "--lessons", "lessons_dir", default="lessons", show_default=True, type=click.Path(), help="Lesson folder."
)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="PDF processes (default 1).")
@click.option(
    "--clean", is_flag=True, help="Compile every PDF again (default: reuse those whose inputs are unchanged)."
)
def build(
    out: str, variant_names: tuple[Variant, ...], formats: str, lessons_dir: str, jobs: int | None, clean: bool
) -> None:
    """Check the lessons, then build HTML pages and PDFs into OUT."""
    from ..build import FORMATS, BuildRefused
    from ..build import build as run_build

    chosen = [f.strip() for f in formats.split(",") if f.strip()]
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise click.BadParameter(f"formats are {', '.join(FORMATS)}; got '{formats}'", param_hint="'--format'")
    with Progress() as progress:
        try:
            summary = run_build(
                out,
                lessons=[lessons_dir],
                variants=[v.name for v in variant_names],
                formats=chosen,
                progress=progress,
                jobs=jobs,
                incremental=not clean,
            )
        except BuildRefused as exc:
            for error in exc.report.errors:
                click.echo(str(error), err=True)
            raise
    click.echo(str(summary))
