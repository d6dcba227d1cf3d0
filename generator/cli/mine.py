"""``damas mine``: sound puzzles found in PDN games or engine self-play, written as a lesson.

Exit codes: 0 the run finished (the output may hold no puzzle); 1 bad content (an unreadable source,
a checkpoint of another run); 2 usage.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..folders import each_file_once
from ..limits import RANGES
from ..rules import Variant
from ..terminal import printable
from .app import EXIT_CONTENT, EXIT_USAGE
from .common import MEMORY_OPTION, VARIANT, Whole

if TYPE_CHECKING:
    from ..puzzles.mining.job import Job
    from ..puzzles.mining.run import RunResult


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("sources", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    "-o",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The lesson YAML to write (a checkpoint FILE.checkpoint.jsonl is kept next to it).",
)
@click.option(
    "--self-play",
    "self_play",
    type=Whole("self_play"),
    default=0,
    help="Also mine N games the engine plays against itself.",
)
@click.option(
    "--seed",
    type=Whole("seed"),
    default=1,
    show_default=True,
    help="First self-play seed (game i uses SEED+i: its random opening and the engine's choices).",
)
@click.option(
    "--max-plies",
    type=Whole("mine_max_plies"),
    default=160,
    show_default=True,
    help="A self-play game stops after this many plies.",
)
@click.option(
    "--depth",
    type=Whole("mine_depth"),
    default=9,
    show_default=True,
    help="Ply bound of the proofs (the longest solution printed).",
)
@click.option("--jobs", "-j", type=Whole("jobs"), default=None, help="Worker processes (default: every core).")
@click.option(
    "--scheduler",
    default=None,
    metavar="tcp://HOST:PORT",
    help="Run on this Dask distributed scheduler instead of local processes (pip install 'damas[mine]').",
)
@click.option(
    "--known",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Lesson files or folders whose puzzles are not mined again (e.g. lessons/). Repeatable.",
)
@MEMORY_OPTION
@click.option(
    "--language",
    type=click.Choice(["pt-BR", "en"]),
    default="pt-BR",
    show_default=True,
    help="Language of the captions and the lesson text.",
)
def mine(
    variant: Variant,
    sources: tuple[Path, ...],
    out: Path,
    self_play: int,
    seed: int,
    max_plies: int,
    depth: int,
    jobs: int | None,
    scheduler: str | None,
    known: tuple[Path, ...],
    language: str,
) -> None:
    """Mine sound puzzles of VARIANT from PDN game files (SOURCES) and/or --self-play games.

    Each position passes a cheap engine filter, then the solver proves the strongest goal (win, the
    largest gain:N, promote) with a unique key, and the puzzle must pass the same check as 'damas
    check'.  Identical, mirror-image and near-duplicate puzzles are kept once.  A killed run
    continues from its checkpoint when started again with the same arguments.
    """
    from ..puzzles.mining.candidate import Settings
    from ..puzzles.mining.job import Job

    if not sources and not self_play:
        raise click.UsageError("give PDN files, --self-play N, or both")
    if self_play and seed + self_play - 1 > RANGES["seed"][1]:  # game i plays (and is recorded) with seed+i
        raise click.BadParameter(
            f"the last game's seed {seed + self_play - 1} would be past {RANGES['seed'][1]}; give a smaller --seed",
            param_hint="'--seed'",
        )
    if jobs is not None and scheduler is not None:
        raise click.UsageError("--jobs is for local processes; a --scheduler has its own workers")
    sources = tuple(each_file_once(sources))  # a game file named twice is mined once
    _refuse_unreadable(sources)
    known_keys, problems = _known(variant, known)
    settings = Settings(variant.name, depth=depth, language=language, max_plies=max_plies)
    job = Job(settings, out, sources, self_play, seed)
    started = time.perf_counter()
    result, read_problems = _run(job, jobs, scheduler, known_keys, total=(len(sources) == 0 and self_play) or None)
    for p in [*problems, *read_problems, *result.tally.problems]:
        click.echo(printable(f"damas mine: {p}"), err=True)
    t = result.tally
    wall = time.perf_counter() - started
    click.echo(
        f"{len(result.puzzles)} puzzles written to {out} ({t.scanned:,} positions from {t.units} games, "
        f"{t.candidates:,} candidates, {result.duplicates} duplicates dropped, {wall:.1f} s)"
    )


def _refuse_unreadable(sources: tuple[Path, ...]) -> None:
    """Stop at once (exit 1) when a PDN source is not a regular file (a FIFO would block, a device
    would never end) or cannot be opened."""
    from ..inputfile import InputFileError, open_text

    refused = []
    for path in sources:
        try:
            open_text(path).close()
        except InputFileError as exc:
            refused.append(exc.at(str(path)))
    for line in refused:
        click.echo(printable(f"damas mine: {line}"), err=True)
    if refused:
        raise SystemExit(EXIT_CONTENT)


def _known(variant: Variant, paths: tuple[Path, ...]) -> tuple[set[str], list[str]]:
    """The position keys of the puzzles in the ``--known`` lessons, and the problems met reading
    them; a file that cannot be read at all (a FIFO, a device, too large) stops the run at once."""
    from ..lessons.known import known_positions

    known = known_positions(variant, paths)
    if known.refused:
        for line in known.refused:
            click.echo(printable(f"damas mine: {line}"), err=True)
        raise SystemExit(EXIT_CONTENT)
    return known.keys, known.problems


def _run(
    job: Job, jobs: int | None, scheduler: str | None, known: set[str], total: int | None
) -> tuple[RunResult, list[str]]:
    """The run on its executor, with a progress bar; checkpoint and scheduler problems exit."""
    from ..cpus import usable_cpus
    from ..puzzles.mining.job import SchedulerError, executor, mine
    from ..puzzles.mining.run import CheckpointMismatch

    try:
        checkpoint = job.open_checkpoint()
    except CheckpointMismatch as exc:
        click.echo(f"damas mine: {exc}", err=True)
        raise SystemExit(EXIT_CONTENT) from None
    except OSError as exc:
        click.echo(f"damas mine: {job.out}: cannot write the checkpoint: {exc.strerror or exc}", err=True)
        raise SystemExit(EXIT_CONTENT) from None
    try:
        with executor(jobs, scheduler, usable_cpus) as (pool, workers), _progress(total) as show:
            return mine(job, checkpoint, pool, workers, known=known, on_progress=show)
    except SchedulerError as exc:
        checkpoint.close()
        click.echo(f"damas mine: {exc}", err=True)
        raise SystemExit(EXIT_USAGE if exc.usage else EXIT_CONTENT) from None


class _progress:
    """A rich progress bar on stderr when it is a terminal (games, positions, puzzles, rate, time left)."""

    def __init__(self, total: int | None) -> None:
        self.total = total
        self.bar = None
        self.task = None

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("mining"),
                BarColumn(),
                TextColumn(
                    "{task.completed} games, {task.fields[scanned]:,} positions ({task.fields[rate]:.0f}/s), "
                    "{task.fields[found]} puzzles"
                ),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("mine", total=self.total, scanned=0, found=0, rate=0.0)
            self.started = time.perf_counter()
        return self.update

    def update(self, tally, result) -> None:
        if self.bar is None:
            return
        rate = tally.scanned / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(self.task, completed=tally.units, scanned=tally.scanned, found=tally.found, rate=rate)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
