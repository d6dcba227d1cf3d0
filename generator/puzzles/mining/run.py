"""A mining run: work units sent to a ``concurrent.futures`` executor, results checkpointed, the
puzzles assembled in the units' order and deduplicated.

One code path for every scale: the executor is a ``ProcessPoolExecutor`` on the local cores, or a
Dask distributed cluster's ``Client.get_executor()``; both take :func:`scan_unit` and its arguments
(plain picklable data) and return plain data.

**Resuming.** Each finished unit is appended to the checkpoint (JSON lines next to the output) and
fsynced before the next one is recorded: the unit's key, the positions scanned and the puzzles
found.  A run killed at any moment (kill -9 included) leaves a checkpoint whose last line may be
torn; it is ignored, that unit is done again, and every complete line is reused.  Because the
output is assembled from the records sorted by unit order (not by finishing order) and deduplicated
only then, a resumed run writes exactly what an uninterrupted run writes.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...rules.position import Position
from ...rules.variants import get_variant
from ..dedup import line_keys, pattern_key, position_key
from ..engine import Engine
from .candidate import Settings, is_candidate, prove_best, puzzle_id
from .sources import Unit, pdn_positions, self_play_positions


class CheckpointMismatch(Exception):
    """The checkpoint was written by a run with other settings or sources."""


@dataclass
class UnitResult:
    key: str
    index: int
    scanned: int
    candidates: int
    puzzles: list[dict[str, Any]]
    problems: list[str]
    seconds: float
    cpu: float = 0.0
    """The worker's CPU seconds for this unit."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def scan_unit(unit: Unit, settings: Settings) -> UnitResult:
    """All the work of one unit (runs in a worker process or on a Dask worker)."""
    started, cpu = time.perf_counter(), time.thread_time()
    problems: list[str] = []
    if unit.seed is not None:
        samples = self_play_positions(settings.variant, unit.seed, settings)
    else:
        samples, problems = pdn_positions(settings.variant, unit)
    engine = Engine(get_variant(settings.variant))
    puzzles: list[dict[str, Any]] = []
    candidates = 0
    for s in samples:
        engine.table.clear()
        if not is_candidate(engine, s.position, settings):
            continue
        candidates += 1
        puzzle = prove_best(s.position, settings)
        if puzzle is not None:
            puzzle["source"] = s.source
            puzzles.append(puzzle)
    wall, cpu = time.perf_counter() - started, time.thread_time() - cpu
    return UnitResult(unit.key, unit.index, len(samples), candidates, puzzles, problems, wall, cpu)


# -- checkpoint --------------------------------------------------------------------------------------


def checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".checkpoint.jsonl")


class Checkpoint:
    """Append-only JSON lines: a header (the run's identity), then one line per finished unit."""

    def __init__(self, path: Path, identity: dict[str, Any]) -> None:
        self.path = path
        self.identity = identity
        self.done: dict[str, dict[str, Any]] = {}
        if path.exists() and path.stat().st_size > 0:  # empty: killed before the header was written
            self._load()
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 (held for the run)
        if not self.done and path.stat().st_size == 0:
            self._append({"header": identity})

    def _load(self) -> None:
        with open(self.path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        records = []
        for text in lines:
            try:
                records.append(json.loads(text))
            except ValueError:
                continue  # a line torn by a kill: that unit is done again
        if not records or records[0].get("header") != self.identity:
            raise CheckpointMismatch(
                f"{self.path} belongs to another run (other settings or sources); delete it to start over"
            )
        for r in records[1:]:
            if isinstance(r, dict) and "key" in r:
                self.done[r["key"]] = r
        if lines and lines[-1] != "":  # end a torn last line so the next record starts cleanly
            with open(self.path, "a", encoding="utf-8") as f:
                f.write("\n")

    def _append(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def record(self, result: UnitResult) -> None:
        data = result.to_json()
        self._append(data)
        self.done[result.key] = data

    def close(self) -> None:
        self.file.close()


# -- the run -----------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the progress display shows."""

    units: int = 0
    scanned: int = 0
    candidates: int = 0
    found: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class RunResult:
    puzzles: list[dict[str, Any]]
    tally: Tally
    duplicates: int
    cpu_seconds: float
    """Worker CPU time summed over units (all of them, resumed ones included)."""


def run(
    settings: Settings,
    units: Iterable[Unit],
    executor: cf.Executor,
    checkpoint: Checkpoint,
    *,
    in_flight: int = 8,
    on_progress: Callable[[Tally, UnitResult | None], None] | None = None,
    known: Iterable[str] = (),
) -> RunResult:
    """Scan every unit not already in the checkpoint, then assemble the puzzles."""
    tally = Tally()
    for r in checkpoint.done.values():
        _count(tally, r)
    pending: set[cf.Future[UnitResult]] = set()

    def collect(block: bool) -> None:
        nonlocal pending
        done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED if block else cf.ALL_COMPLETED, timeout=None)
        for fut in sorted(done, key=lambda f: f.result().index):
            result = fut.result()
            checkpoint.record(result)
            _count(tally, result.to_json())
            if on_progress is not None:
                on_progress(tally, result)

    for unit in units:
        if unit.key in checkpoint.done:
            continue
        while len(pending) >= in_flight:
            collect(block=True)
        pending.add(executor.submit(scan_unit, unit, settings))
    while pending:
        collect(block=True)
    records = sorted(checkpoint.done.values(), key=lambda r: r["index"])
    puzzles, duplicates = assemble(settings.variant, records, known)
    return RunResult(puzzles, tally, duplicates, sum(r.get("cpu", 0.0) for r in records))


def _count(tally: Tally, r: dict[str, Any]) -> None:
    tally.units += 1
    tally.scanned += r["scanned"]
    tally.candidates += r.get("candidates", 0)
    tally.found += len(r["puzzles"])
    tally.problems.extend(r.get("problems", []))


def assemble(
    variant: str, records: Iterable[dict[str, Any]], known: Iterable[str] = ()
) -> tuple[list[dict[str, Any]], int]:
    """The puzzles in unit order, each kept once (see :mod:`generator.puzzles.dedup`), with ids;
    ``known`` position keys (puzzles a course already has, and the positions on their lines) count
    as seen."""
    v = get_variant(variant)
    seen_positions: set[str] = set(known)
    """Starts of kept puzzles and the positions on their lines."""
    seen_starts: set[str] = set()
    seen_patterns: set[str] = set()
    out: list[dict[str, Any]] = []
    duplicates = 0
    for r in records:
        for p in r["puzzles"]:
            pos = Position.from_fen(v, p["position"])
            pk = position_key(pos)
            on_line = line_keys(pos, p["solution"])
            nk = pattern_key(pos, p["solution"], p["stipulation"])
            if pk in seen_positions or nk in seen_patterns or seen_starts.intersection(on_line):
                duplicates += 1
                continue
            seen_positions.add(pk)
            seen_positions.update(on_line)
            seen_starts.add(pk)
            seen_patterns.add(nk)
            out.append({"id": puzzle_id(v.name, pos.fen()), **p})
    return out, duplicates


def chain(*iterables: Iterable[Unit]) -> Iterator[Unit]:
    for it in iterables:
        yield from it
