"""``damas serve``: live preview of a course on 127.0.0.1."""

from __future__ import annotations

import click

from .app import EXIT_CONTENT
from .common import Whole
from .place import locate_course


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@click.option(
    "--port",
    type=Whole("port"),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0: any free port).",
)
def serve(directory: str | None, port: int) -> None:
    """Preview the course in DIRECTORY (default: here) at http://127.0.0.1:PORT/, rebuilt on every save.

    Only 127.0.0.1 is served.  Ctrl-C stops the preview and removes its temporary files.
    """
    from ..serve import serve as run

    locate_course(directory)  # no course, or a broken course.yaml: one clear message before serving

    def log(line: str) -> None:
        click.echo(line)

    try:
        run(directory, port, log)
    except KeyboardInterrupt:
        click.echo("stopped")
    except OSError as exc:
        click.echo(f"damas serve: cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        raise SystemExit(EXIT_CONTENT) from None
