"""The ``damas`` command group, its exit codes and the entry point that turns errors into one line.

Bad input never produces a traceback: usage mistakes (unknown variant, bad option) print one line
and exit 2; bad content (a FEN that cannot be a position, an illegal move) prints one line and
exits 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from ..rules import DamasError
from ..rules.core import active_core

EXIT_CONTENT = 1
EXIT_USAGE = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    package_name="damas", prog_name="damas", message=f"%(prog)s, version %(version)s\ncore: {active_core()}"
)
def cli() -> None:
    """damas: verified draughts lessons, diagrams, rule pages and puzzle books."""


class Progress:
    """A rich progress bar on stderr when it is a terminal; silent otherwise (CI logs, pipes)."""

    def __enter__(self):  # type: ignore[no-untyped-def]
        self.bar = None
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.tasks: dict[str, int] = {}
        return self.update

    def update(self, stage: str, done: int, total: int) -> None:
        if self.bar is None:
            return
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(stage, total=total)
        self.bar.update(self.tasks[stage], completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the command, turning every expected error into one line and an exit code."""
    try:
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="damas", standalone_mode=False)
    except click.exceptions.Exit as exc:  # --help, --version
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("damas: aborted", err=True)
        return EXIT_CONTENT
    except click.UsageError as exc:
        ctx = exc.ctx
        where = f"{ctx.command_path}: " if ctx is not None else "damas: "
        click.echo(f"{where}{exc.format_message()} (see --help)", err=True)
        return EXIT_USAGE
    except DamasError as exc:
        click.echo(f"damas: {exc}", err=True)
        return EXIT_CONTENT
    except BrokenPipeError:
        return 0
    except SystemExit as exc:  # commands exit with a code after printing their own report
        return int(exc.code or 0)
    return code if isinstance(code, int) else 0  # ctx.exit(n) inside a command returns n here
