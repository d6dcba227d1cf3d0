"""One ``damas mine`` run from start to finish: its units, its identity, the executor it runs on,
and the one write of the output lesson.

The CLI (:mod:`generator.cli.mine`) reads the options and the ``--known`` lessons, then calls
:meth:`Job.open_checkpoint`, :func:`executor` and :func:`mine`; everything else is here.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...errors import DamasError
from ...workers import watch_parent
from .candidate import Settings
from .output import write_lesson
from .run import Checkpoint, RunResult, Tally, UnitResult, checkpoint_path, run
from .sources import Unit, pdn_units, self_play_units


class SchedulerError(DamasError):
    """The Dask scheduler cannot be used: ``usage`` when dask distributed is not installed (the
    option cannot work here), else it could not be reached."""

    def __init__(self, message: str, usage: bool) -> None:
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class Job:
    """What to mine and where to write it."""

    settings: Settings
    out: Path
    sources: tuple[Path, ...] = ()
    """PDN game files."""
    self_play: int = 0
    """Self-play games, with seeds ``seed``, ``seed + 1``, ..."""
    seed: int = 1

    def units(self, problems: list[str]) -> Iterator[Unit]:
        """The work units in the run's order: the games of each PDN file, then the self-play games
        (unreadable files and games over the size limit are reported in ``problems``)."""
        counter = itertools.count()
        for path in self.sources:
            for u in pdn_units(str(path), 0, problems):
                yield replace(u, index=next(counter))
        for u in self_play_units(self.self_play, self.seed):
            yield replace(u, index=next(counter))

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must match to be resumed: the settings, and each source with its size
        and time (a changed file is a new run)."""
        return {
            "settings": self.settings.to_json(),
            "sources": [[str(p), p.stat().st_size, p.stat().st_mtime_ns] for p in self.sources],
            "self_play": self.self_play,
            "seed": self.seed,
        }

    def open_checkpoint(self) -> Checkpoint:
        """The run's checkpoint next to the output (resumed when it matches).

        Raises:
            CheckpointMismatch: when it belongs to another run.
            OSError: when it cannot be written.
        """
        return Checkpoint(checkpoint_path(self.out), self.identity())


@contextlib.contextmanager
def executor(jobs: int | None, scheduler: str | None, cpus: Callable[[], int]) -> Iterator[tuple[cf.Executor, int]]:
    """The executor the units run on and its number of workers: local processes (``jobs``, default
    ``cpus()``), or the workers of a Dask distributed ``scheduler``.  Shut down on leaving.

    Raises:
        SchedulerError: when the scheduler cannot be used.
    """
    if scheduler is None:
        workers = jobs or cpus()
        pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=watch_parent)
        try:
            yield pool, workers
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    try:
        from distributed import Client as DaskClient
    except ImportError:
        raise SchedulerError("--scheduler needs dask distributed: pip install 'damas[mine]'", usage=True) from None
    make_client: Any = DaskClient  # dask distributed has no type hints
    try:
        client = make_client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise SchedulerError(f"cannot reach the scheduler {scheduler}: {exc}", usage=False) from None
    remote = client.get_executor()
    try:
        yield remote, max(len(client.scheduler_info().get("workers", {})), 1)
    finally:
        remote.shutdown(wait=True)  # distributed's ClientExecutor has no cancel_futures
        client.close()


def mine(
    job: Job,
    checkpoint: Checkpoint,
    pool: cf.Executor,
    workers: int,
    *,
    known: Iterable[str] = (),
    on_progress: Callable[[Tally, UnitResult | None], None] | None = None,
) -> tuple[RunResult, list[str]]:
    """Run ``job`` to the end on ``pool``, write the output lesson once, remove the checkpoint.
    ``known``: position keys not to mine again.  Returns the run and the problems met reading the
    sources (the units' own problems are in the run's tally)."""
    problems: list[str] = []
    try:
        result = run(
            job.settings,
            job.units(problems),
            pool,
            checkpoint,
            in_flight=2 * workers,
            on_progress=on_progress,
            known=known,
        )
    finally:
        checkpoint.close()
    write_lesson(job.out, job.settings, result.puzzles)
    os.unlink(checkpoint.path)
    return result, problems
