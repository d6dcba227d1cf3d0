"""Course commands: ``damas check``, ``build`` and ``schema``."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from ..rules import Variant
from .app import EXIT_CONTENT, Progress
from .common import MEMORY_OPTION, VARIANT, Whole
from .place import COURSE_OPTION, locate_course

if TYPE_CHECKING:
    from ..lessons.check import CheckReport

NO_CACHE_OPTION = click.option(
    "--no-cache",
    is_flag=True,
    help="Prove every puzzle and draw every step again, ignoring the proof cache (docs/cache.md).",
)

STRICT_TEXT_OPTION = click.option(
    "--strict-text",
    is_flag=True,
    help="Reader-text findings (internal references, avoided words, house style) are errors, as with "
    "strict_text: true in course.yaml; the bundled course is checked this way.",
)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@COURSE_OPTION
@click.option(
    "--glossary",
    "glossary_file",
    type=click.Path(dir_okay=False),
    help="The course's own glossary (YAML) instead of the bundled one; wording is compared with it.",
)
@STRICT_TEXT_OPTION
@NO_CACHE_OPTION
@MEMORY_OPTION
def check(
    paths: tuple[str, ...],
    as_json: bool,
    course_dir: str | None,
    glossary_file: str | None,
    strict_text: bool,
    no_cache: bool,
) -> None:
    """Verify every claim of the lessons under PATHS (default: the course here, or --course DIR)."""
    from ..cache import open_cache, use
    from ..collector import fewer_collections
    from ..course import check_course
    from ..endgame.tables import building_progress
    from ..lessons.ahead import proofs_ahead
    from ..lessons.check import lesson_files
    from ..lessons.glossary import GlossaryError, load_glossary

    try:
        glossary = load_glossary(glossary_file) if glossary_file else None
    except GlossaryError as exc:
        raise click.UsageError(str(exc)) from None
    started = time.perf_counter()
    # With PATHS and no --course, a course.yaml here (if any) still sets the course-level rules.
    course = locate_course(course_dir, lessons="." if paths and course_dir is None else None)
    if strict_text:
        course = replace(course, strict_text=True)
    # An ending claim may need endgame tables built first: their progress shows on a terminal.  The
    # puzzles are proven ahead on every CPU (generator/lessons/ahead.py).
    with (
        fewer_collections(),
        use(open_cache(not no_cache)),
        Progress() as progress,
        building_progress(progress),
        proofs_ahead(lesson_files(list(paths) or [course.lessons])[0], course.proof_budget),
    ):
        report = check_course(course, paths or None, glossary=glossary)
    _print_report(report, time.perf_counter() - started, as_json)
    if not report.ok:
        raise SystemExit(EXIT_CONTENT)


def _print_report(report: CheckReport, seconds: float, as_json: bool) -> None:
    """What ``damas check`` found: each error and warning with its place, then a summary (or JSON)."""
    counts = report.counts()
    if as_json:
        payload = {
            "ok": report.ok,
            "counts": counts,
            "errors": [e.as_dict() for e in report.errors],
            "warnings": [w.as_dict() for w in report.warnings],
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
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


@click.command()
@click.argument("kind", type=click.Choice(["lesson", "course"]), default="lesson")
def schema(kind: str) -> None:
    """Print the JSON Schema of lesson files, or of course.yaml (for editors: yaml-language-server)."""
    from ..course import schema_text as course_schema
    from ..lessons.schema import schema_text

    click.echo((course_schema() if kind == "course" else schema_text()).rstrip())


@click.command()
@click.option("--out", "out", default=None, type=click.Path(), help="Where to build (default: output/ in the course).")
@click.option("--variant", "variant_names", multiple=True, type=VARIANT, help="Only these variants (repeatable).")
@click.option("--format", "formats", default="html,pdf", show_default=True, help="Comma-separated: html, pdf.")
@click.option(
    "--lessons", "lessons_dir", default=None, type=click.Path(), help="Lesson folder (default: the course's lessons/)."
)
@click.option(
    "--jobs",
    type=Whole("jobs"),
    default=None,
    help="Processes for the puzzle proofs and threads for the PDFs (default: every CPU); at most the number of CPUs.",
)
@click.option(
    "--clean",
    is_flag=True,
    help="Compile every PDF again (default: reuse those whose inputs are unchanged, from the previous build "
    "or the proof cache).",
)
@COURSE_OPTION
@STRICT_TEXT_OPTION
@NO_CACHE_OPTION
@MEMORY_OPTION
def build(
    out: str | None,
    variant_names: tuple[Variant, ...],
    formats: str,
    lessons_dir: str | None,
    jobs: int | None,
    clean: bool,
    course_dir: str | None,
    strict_text: bool,
    no_cache: bool,
) -> None:
    """Check the course's lessons, then build HTML pages and PDFs into OUT (default: output/ in the course)."""
    from ..build import FORMATS, BuildRefused
    from ..build import build as run_build

    jobs = _bounded_jobs(jobs)
    chosen = [f.strip() for f in formats.split(",") if f.strip()]
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise click.BadParameter(f"formats are {', '.join(FORMATS)}; got '{formats}'", param_hint="'--format'")
    course = locate_course(course_dir, lessons=lessons_dir)
    if strict_text:
        course = replace(course, strict_text=True)
    with Progress() as progress:
        try:
            summary = run_build(
                out if out is not None else course.root / "output",
                course=course,
                variants=[v.name for v in variant_names],
                formats=chosen,
                progress=progress,
                jobs=jobs,
                incremental=not clean,
                cache=not no_cache,
            )
        except BuildRefused as exc:
            for error in exc.report.errors:
                click.echo(str(error), err=True)
            raise
    click.echo(str(summary))


def _bounded_jobs(jobs: int | None) -> int | None:
    """More workers than CPUs only add memory (each holds search tables or a Typst compiler): clamp, and say so."""
    from ..cpus import usable_cpus

    cpus = usable_cpus()
    if jobs is not None and jobs > cpus:
        click.echo(f"damas: --jobs {jobs} is more than the {cpus} CPU(s) available; using {cpus}", err=True)
        return cpus
    return jobs
