"""Finding the course a command works on: ``--course DIR``, else the current folder."""

from __future__ import annotations

import click

from ..course import Course, CourseError, NoCourse, find_course
from .app import EXIT_CONTENT

COURSE_OPTION = click.option(
    "--course",
    "course_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="The course folder (default: here): course.yaml, else a lessons/ folder.",
)


def locate_course(course_dir: str | None, *, lessons: str | None = None) -> Course:
    """The course, or one clear message: a wrong folder is a usage mistake (exit 2), a broken
    course.yaml is bad content (its errors with file:line:col, exit 1)."""
    try:
        return find_course(course_dir, lessons=lessons)
    except NoCourse as exc:
        raise click.UsageError(str(exc)) from None
    except CourseError as exc:
        for error in exc.errors:
            click.echo(str(error), err=True)
        raise SystemExit(EXIT_CONTENT) from None
