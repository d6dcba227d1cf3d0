"""``damas mine``: sound puzzles found in PDN games or engine self-play, written as a lesson.

Exit codes: 0 the run finished (the output may hold no puzzle); 1 bad content (an unreadable source,
a checkpoint of another run); 2 usage.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import click

from ..folders import each_file_once
from ..limits import RANGES
from ..rules import Variant
from ..workers import watch_parent
from .app import EXIT_CONTENT, EXIT_USAGE
from .common import MEMORY_OPTION, VARIANT, Whole


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
    from ..cpus import usable_cpus
    from ..puzzles.mine_run import (
        Checkpoint,
        CheckpointMismatch,
        checkpoint_path,
        known_positions,
        run,
        write_lesson,
    )
    from ..puzzles.mining import Settings
    from ..puzzles.sources import Unit, pdn_units, self_play_units

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
    settings = Settings(variant.name, depth=depth, language=language, max_plies=max_plies)
    known_keys, problems = known_positions(variant.name, [str(p) for p in known])

    def units() -> Iterator[Unit]:
        counter = itertools.count()
        for path in sources:
            for u in pdn_units(str(path), 0, problems):
                yield replace(u, index=next(counter))
        for u in self_play_units(self_play, seed):
            yield replace(u, index=next(counter))

    identity = {
        "settings": settings.to_json(),
        "sources": [[str(p), p.stat().st_size, p.stat().st_mtime_ns] for p in sources],  # a changed file: new run
        "self_play": self_play,
        "seed": seed,
    }
    try:
        checkpoint = Checkpoint(checkpoint_path(out), identity)
    except CheckpointMismatch as exc:
        click.echo(f"damas mine: {exc}", err=True)
        raise SystemExit(EXIT_CONTENT) from None
    except OSError as exc:
        click.echo(f"damas mine: {out}: cannot write the checkpoint: {exc.strerror or exc}", err=True)
        raise SystemExit(EXIT_CONTENT) from None
    client = None
    if scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            click.echo("damas mine: --scheduler needs dask distributed: pip install 'damas[mine]'", err=True)
            raise SystemExit(EXIT_USAGE) from None
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            click.echo(f"damas mine: cannot reach the scheduler {scheduler}: {exc}", err=True)
            raise SystemExit(EXIT_CONTENT) from None
        executor: cf.Executor = client.get_executor()
        workers = max(len(client.scheduler_info().get("workers", {})), 1)
    else:
        workers = jobs or usable_cpus()
        executor = cf.ProcessPoolExecutor(max_workers=workers, initializer=watch_parent)
    total = (len(sources) == 0 and self_play) or None
    started = time.perf_counter()
    with _progress(total) as show:
        try:
            result = run(
                settings, units(), executor, checkpoint, in_flight=2 * workers, on_progress=show, known=known_keys
            )
        finally:
            if isinstance(executor, cf.ProcessPoolExecutor):
                executor.shutdown(wait=True, cancel_futures=True)
            else:  # distributed's ClientExecutor has no cancel_futures
                executor.shutdown(wait=True)
            checkpoint.close()
            if client is not None:
                client.close()
    write_lesson(out, settings, result.puzzles)
    os.unlink(checkpoint.path)
    for p in [*problems, *result.tally.problems]:
        click.echo(f"damas mine: {p}", err=True)
    t = result.tally
    wall = time.perf_counter() - started
    click.echo(
        f"{len(result.puzzles)} puzzles written to {out} ({t.scanned:,} positions from {t.units} games, "
        f"{t.candidates:,} candidates, {result.duplicates} duplicates dropped, {wall:.1f} s)"
    )


class _progress:
    """A rich progress bar on stderr when it is a terminal (games, positions, puzzles, rate, time left)."""

    def __init__(self, total: int | None) -> None:
        self.total = total
        self.bar = None
        self.task = None

    def __enter__(self):  # type: ignore[no-untyped-def]
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

    def update(self, tally, result) -> None:  # type: ignore[no-untyped-def]
        if self.bar is None:
            return
        rate = tally.scanned / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(self.task, completed=tally.units, scanned=tally.scanned, found=tally.found, rate=rate)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
