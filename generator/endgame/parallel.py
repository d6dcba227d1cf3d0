"""Building a set of slices on several cores: each slice starts as soon as what it needs is stored.

The serial build (:meth:`Tables.build_materials`) solves the slices one after another.  Most of
them do not need each other: a slice reads only the slices its captures and crownings lead to, and
a colour-swapped twin only its twin (mirror.py).  Here the same per-slice step
(:meth:`Tables.build_one`) runs in worker processes, each handed a slice once its needs are on
disk, so the bytes stored are those of the serial build (tests/endgame/test_parallel.py compares
them).  Most large slices of a 5-piece set need nothing of each other (``2k-2k1m`` and
``1k-3k1m``, say), which is where a second core halves the wait.

Each worker keeps its own :class:`Tables`, so a slice read by several of its jobs is loaded once
per worker.  The workers' progress comes back through a queue and is shown by the caller's
progress callback, a bar for each slice being solved.  Ctrl-C (or SIGTERM) stops the workers at
once: a killed build keeps every slice it finished, as the serial one does.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ..rules.variants import Variant
from ..workers import quiet_worker
from .board import half_turn
from .material import Material
from .tables import EndgameError, Progress, SliceReport, Tables, closure, up_to

POLL = 0.2
"""Seconds between looks at the workers' progress queue while slices are being solved."""

BYTES_PER_POSITION = 10
"""What solving a slice holds at its peak, per position (either side to move): 6 bytes of working
arrays, the packed result and distances, and their copies while they are stored."""

_WORKER: dict[str, Any] = {}
"""The worker process's own tables, reporting to the progress queue (set by :func:`_start_worker`)."""


def needs(tables: Tables, todo: list[Material]) -> dict[Material, set[Material]]:
    """For each slice of ``todo`` not stored yet, the slices that must be stored before it starts:
    its stored-or-earlier twin when it will be derived from it (as the serial build decides), else
    every slice its moves lead to."""
    order = {m: i for i, m in enumerate(todo)}
    turns = tables.derive and half_turn(tables.board) is not None
    out: dict[Material, set[Material]] = {}
    for m in todo:
        if tables.is_stored(m):
            continue
        twin = m.swapped()
        if turns and twin != m and (order.get(twin, len(todo)) < order[m] or tables.is_stored(twin)):
            out[m] = {twin}
        else:
            out[m] = set(m.successors())
    return out


def build(tables: Tables, pieces: int, jobs: int) -> list[SliceReport]:
    """:meth:`Tables.build` on ``jobs`` processes (1: in this one)."""
    return build_materials(tables, up_to(pieces), jobs)


def build_materials(tables: Tables, wanted: Iterable[Material], jobs: int) -> list[SliceReport]:
    """:meth:`Tables.build_materials` on ``jobs`` worker processes: the slices ``wanted`` and those
    they need, one report each in solving order, the stored ones included."""
    if jobs <= 1:
        return tables.build_materials(wanted)
    todo = closure(wanted)
    waiting = needs(tables, todo)
    reports = {m: tables.report_stored(m) for m in todo if m not in waiting}
    if waiting:
        _solve(tables, waiting, reports, jobs, len(todo))
    tables.reports.extend(reports[m] for m in todo)
    return [reports[m] for m in todo]


def _solve(
    tables: Tables, waiting: dict[Material, set[Material]], reports: dict[Material, SliceReport], jobs: int, total: int
) -> None:
    """Build the ``waiting`` slices, each once its needs are in ``reports``, adding its report."""
    label = f"{tables.variant.name} slices"
    progress = tables.progress
    if progress is not None:
        progress(label, len(reports), total)
    room = available_memory()
    with _workers(tables, min(jobs, len(waiting))) as workers:
        running: dict[Future[SliceReport], Material] = {}
        while waiting or running:
            ready = [m for m, need in waiting.items() if all(x in reports for x in need)]
            for m in startable(ready, list(running.values()), jobs, room, lambda x: peak_bytes(tables, x)):
                del waiting[m]
                running[workers.submit(m)] = m
            if not running:
                raise EndgameError(f"{tables.variant.name}: slices wait for each other: {sorted(waiting)}")
            done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
            workers.relay(progress)
            for future in done:
                m = running.pop(future)
                reports[m] = _result(future, m)
                if progress is not None:
                    progress(label, len(reports), total)


def startable(
    ready: list[Material], running: list[Material], jobs: int, room: int, peak: Callable[[Material], int]
) -> list[Material]:
    """The ready slices to start now, in order, beside those ``running``: while fewer than ``jobs``
    run and their peaks fit in ``room`` bytes.  The first slice that does not fit stops the rest
    (smaller ones behind it would keep it waiting for ever); alone, any slice may start."""
    held = sum(peak(m) for m in running)
    out: list[Material] = []
    for m in ready:
        if len(running) + len(out) >= jobs or ((running or out) and held + peak(m) > room):
            break
        out.append(m)
        held += peak(m)
    return out


def peak_bytes(tables: Tables, m: Material) -> int:
    """About the most memory solving slice ``m`` takes (deriving it from its twin takes less)."""
    return BYTES_PER_POSITION * 2 * tables.size(m)


def available_memory() -> int:
    """Bytes of memory the system can give without swapping (Linux's MemAvailable), or, where that
    is not known, no limit: the slices then run ``jobs`` at a time whatever their size."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 1 << 62


class _Workers:
    """The worker processes and the queue they report their progress on."""

    def __init__(self, tables: Tables, count: int) -> None:
        context = multiprocessing.get_context("spawn")  # the caller may run threads (its progress bar)
        self.events = context.Queue()
        args = (tables.variant, tables.root, tables.derive, tables.kernel is None, self.events)
        self.pool = ProcessPoolExecutor(max_workers=count, mp_context=context, initializer=_start_worker, initargs=args)
        self.others = set(multiprocessing.active_children())

    def submit(self, m: Material) -> Future[SliceReport]:
        return self.pool.submit(_build, m)

    def relay(self, progress: Progress | None) -> None:
        """Pass on what the workers reported since the last look."""
        while True:
            try:
                event = self.events.get_nowait()
            except (queue.Empty, OSError, ValueError):
                return
            if progress is not None:
                progress(*event)

    def kill(self) -> None:
        """Stop every worker now, even one still starting: a worker in the middle of a large slice
        would otherwise be waited for, many minutes."""
        for process in set(multiprocessing.active_children()) - self.others:
            process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _workers(tables: Tables, count: int) -> Iterator[_Workers]:
    """``count`` workers; on leaving with an error (Ctrl-C among them) they are killed at once."""
    workers = _Workers(tables, count)
    try:
        yield workers
    except BaseException:
        workers.kill()
        raise
    else:
        workers.pool.shutdown(wait=True)
    finally:
        workers.events.close()


def _result(future: Future[SliceReport], m: Material) -> SliceReport:
    try:
        return future.result()
    except BrokenProcessPool:
        raise EndgameError(
            f"the worker building slice {m.name} died (out of memory?); run the build again to go on"
        ) from None


def _start_worker(variant: Variant, root: Path | None, derive: bool, pure: bool, events: Any) -> None:
    """A pool initializer: the worker's tables, reporting to ``events``."""
    quiet_worker()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER["tables"] = Tables(variant, root, progress=_reporter(events), pure=pure, derive=derive)


def _reporter(events: Any) -> Progress:
    """A progress callback that sends at most a few events a second for each stage."""
    last: dict[str, tuple[float, int]] = {}

    def report(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        then, before = last.get(stage, (0.0, -1))
        if done >= total or now - then >= POLL or done < before:
            last[stage] = (now, done)
            events.put((stage, done, total))

    return report


def _build(m: Material) -> SliceReport:
    tables: Tables = _WORKER["tables"]
    return tables.build_one(m)
