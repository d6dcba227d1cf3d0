"""The ``damas`` command group, its exit codes and the entry point that turns errors into one line.

Bad input never produces a traceback: usage mistakes (unknown variant, bad option, an --out that
may not be replaced) print one line and exit 2; bad content (a FEN that cannot be a position, an
illegal move) and failed writes (a full disk, /dev/full) print one line and exit 1.  Ctrl-C exits
130, SIGTERM 143 (after the build removed its temporary folder), a closed pipe 1 quietly.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import click

from .. import __version__
from ..errors import DamasError
from ..terminal import printable

EXIT_CONTENT = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report a process the signal stopped."""
EXIT_TERMINATED = 143
"""SIGTERM: 128 + SIGTERM."""


COMMANDS: dict[str, str] = {
    "init": "init:init",
    "check": "course:check",
    "build": "course:build",
    "schema": "course:schema",
    "serve": "serve:serve",
    "render": "render:render",
    "solve": "solve:solve",
    "play": "play:play",
    "mine": "mine:mine",
    "book": "book:book",
    "moves": "engine:moves",
    "game": "engine:game",
    "pdn": "pdn:pdn",
    "perft": "engine:perft_command",
    "endgame": "endgame:endgame",
    "variants": "engine:variants",
    "fen": "board:fen_command",
    "board": "board:board_command",
    "worksheet": "worksheet:worksheet",
    "import": "importer:import_command",
    "export": "export:export",
}
"""Every command: its name and where it lives (``module:attribute`` under ``generator.cli``), in the
order ``damas --help`` lists them.  A command's module is imported only when that command runs (or
``--help`` lists it), so ``damas moves`` never pays for Jinja, jsonschema or Typst."""


class LazyGroup(click.Group):
    """A click group that imports a command's module on first use (click's documented pattern for
    lazily loaded subcommands).  Why: importing every command group cost each call of ``damas moves``
    about 0.4 CPU-seconds, four times what ``click`` and ``yaml`` cost."""

    def __init__(self, *args: object, lazy: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # click's own signature is untyped
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*self.lazy, *(name for name in super().list_commands(ctx) if name not in self.lazy)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = self.lazy[cmd_name].partition(":")
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
        self.commands[cmd_name] = command
        return command


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: the package version and which engine core runs (computed only when asked)."""
    if not value or ctx.resilient_parsing:
        return
    from ..rules.core import active_core

    click.echo(f"damas, version {__version__}\ncore: {active_core()}")
    ctx.exit()


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the engine core, then exit.",
)
def cli() -> None:
    """damas: verified draughts lessons, diagrams, rule pages and puzzle books."""


class Progress:
    """A rich progress bar on stderr when it is a terminal; silent otherwise (CI logs, pipes)."""

    def __enter__(self) -> Callable[[str, int, int], None]:
        self.bar: Any = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(transient=True, console=Console(stderr=True))  # not stdout's console
            self.bar.start()
            self.tasks: dict[str, int] = {}
        return self.update

    def update(self, stage: str, done: int, total: int) -> None:
        """Show ``stage`` at ``done`` of ``total``; a finished stage leaves the screen (an endgame
        build runs a stage for each of its hundred slices: only the running ones are shown)."""
        if self.bar is None:
            return
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(stage, total=total)
        if 0 < total <= done:
            self.bar.remove_task(self.tasks.pop(stage))
            return
        self.bar.update(self.tasks[stage], completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup that handles an interrupt handles it too."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def _stop(exc: BaseException) -> int:
    """One line for an interrupt (exit 130) or SIGTERM (exit 143); cleanups have already run."""
    if isinstance(exc, Terminated):
        click.echo("damas: terminated", err=True)
        return EXIT_TERMINATED
    click.echo("damas: interrupted", err=True)
    return EXIT_INTERRUPTED


class _ClosedStdout(io.TextIOBase):
    """Stands for a standard output the process was started without (``>&-``): writing to it fails
    as writing to a closed descriptor does, instead of click dropping the text without a word."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def _guard_stdout() -> None:
    if sys.stdout is None:
        # Put /dev/null on descriptor 1 so no file the command opens lands there by accident.
        with contextlib.suppress(OSError):
            fd = os.open(os.devnull, os.O_WRONLY)
            if fd != 1:
                os.dup2(fd, 1)
                os.close(fd)
        sys.stdout = _ClosedStdout()


def _silence_stdout() -> None:
    """After a failed write, point descriptor 1 at /dev/null so the interpreter's last flush of what
    is still buffered cannot fail again (Python's documented SIGPIPE advice)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the command, turning every expected error into one line and an exit code."""
    _guard_stdout()
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main else None
    try:
        return _run(argv)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _run(argv: Sequence[str] | None) -> int:
    try:
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="damas", standalone_mode=False)
        sys.stdout.flush()
    except click.exceptions.Exit as exc:  # --help, --version
        return exc.exit_code
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            return _stop(exc.__cause__)
        click.echo("damas: aborted", err=True)
        return EXIT_CONTENT
    except KeyboardInterrupt as exc:
        return _stop(exc)
    except click.UsageError as exc:
        ctx = exc.ctx
        where = f"{ctx.command_path}: " if ctx is not None else "damas: "
        click.echo(printable(f"{where}{exc.format_message()} (see --help)"), err=True)
        return EXIT_USAGE
    except DamasError as exc:
        click.echo(printable(f"damas: {exc}"), err=True)
        return getattr(exc, "exit_code", EXIT_CONTENT)
    except BrokenPipeError:  # the reader went away (| head): quiet, exit 1 (as click does inside a command)
        _silence_stdout()
        return EXIT_CONTENT
    except OSError as exc:  # /dev/full, a closed stdout (no file name); a file a command could not open
        _silence_stdout()
        what = f"{exc.filename}" if exc.filename else "cannot write output"
        click.echo(printable(f"damas: {what}: {exc.strerror or exc}"), err=True)
        return EXIT_CONTENT
    except SystemExit as exc:  # commands exit with a code after printing their own report
        return int(exc.code or 0)
    return code if isinstance(code, int) else 0  # ctx.exit(n) inside a command returns n here
