"""Puzzle proofs ahead of the check, on every CPU.

Proving a course's puzzles (:func:`generator.puzzles.proof.prove_for_pages`: the proof, the
difficulty and the page's play tree) is most of a cold check, and each proof is independent of the
others.  :func:`proofs_ahead` reads the lesson files before the check (and keeps them for it:
:func:`generator.lessons.check.read_ahead`, each file is parsed once), has the workers build the
endgame slices the ending claims read (:mod:`generator.endgame.prebuild`), hands every puzzle whose
proof is not in the proof cache yet to them, and, while they work, lets the check run as always:
when the verifier asks the cache for a puzzle's proof
(:meth:`generator.lessons.verify.Verifier.prove`), it gets the worker's result, waiting for it if
need be, and the result is stored in the cache as the verifier would have stored it.  Each proof is
made once; the verifier itself, its messages and their order are unchanged, so the check reports
exactly what it reports without this.

Only plain data crosses to the workers (the variant's name, a FEN, the moves in long notation, the
counters and the draw profile) and only the result's JSON form comes back, read by the verifier like
any stored result (every move matched against the engine's legal moves).  A worker that fails or
dies costs nothing but time: the verifier then proves the puzzle itself.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path as FsPath
from typing import Any

from .. import cache as proof_cache
from ..cpus import usable_cpus
from ..endgame.prebuild import Wanted, build_slices, is_built, wanted_material
from ..errors import DamasError
from ..inputfile import InputFileError, read_input
from ..puzzles.proof import ProofJob, prove_job, resolve_budget
from ..rules import get_variant
from ..workers import quiet_worker
from .check import Read, display_path, read_ahead, read_lesson
from .model import Lesson
from .verify_cache import KIND, proof_key

KeyOf = Callable[[], dict[str, Any]]
"""A puzzle's proof key, computed when called: the key of a ``win`` proof names the endgame slices
stored at that moment (:func:`generator.puzzles.leaves.endgame_key`), so it is asked for only once
the slices the build makes ahead are stored, as the verifier will ask."""

AHEAD_MIN = 8
"""Fewer proofs to make than this: the verifier makes them itself (starting workers costs about a
second)."""


def lesson_jobs(lesson: Lesson, proof_budget: int | None) -> list[tuple[KeyOf, ProofJob]]:
    """The proof key (as a function: see :data:`KeyOf`) and job of every puzzle of ``lesson``
    whose printed line is made of legal moves (the verifier reports the others)."""
    out: list[tuple[KeyOf, ProofJob]] = []
    budget = resolve_budget(proof_budget or lesson.proof_budget)
    for p in lesson.puzzles:
        if p.position.variant != get_variant(p.position.variant.name):
            continue  # a worker knows variants by name only
        cur, texts = p.position, []
        try:
            for step in p.solution:
                m = cur.parse_move(step.move.value)
                texts.append(cur.move_text(m, long=True))
                cur = cur.play(m)
        except DamasError:
            continue
        job = ProofJob(
            p.position.variant.name,
            p.position.fen(),
            p.stipulation,
            tuple(texts),
            p.margin,
            budget.nodes,
            lesson.profile,
            p.counters,
        )
        out.append((functools.partial(proof_key, p, lesson.profile, budget.nodes), job))
    return out


def lesson_endings(lesson: Lesson) -> list[Wanted]:
    """The materials of the lesson's ending claims (generator/endgame/prebuild.py)."""
    out = []
    for d in lesson.diagrams():
        claims = [c for c in d.claims if isinstance(c, dict) and "ending" in c and "line" not in c]
        wanted = wanted_material(d.position) if claims and d.position.variant == lesson.variant else None
        if wanted is not None:
            out.append(wanted)
    return out


def file_lesson(path: FsPath, kept: dict[tuple[str, str], Read] | None = None) -> Lesson | None:
    """The lesson in ``path``, read as the check reads it (and kept in ``kept`` for the check,
    :func:`generator.lessons.check.read_ahead`), or None when it cannot be read or built (the check
    reports why)."""
    try:
        text = read_input(path, "lesson_file_bytes").decode("utf-8-sig")
    except (InputFileError, UnicodeDecodeError):
        return None
    shown = display_path(path)
    read = read_lesson(text, shown)
    if kept is not None:
        kept[(shown, text)] = read
    return read[1]


class AheadCache(proof_cache.Cache):
    """The active cache during the check: proofs being made by the workers are answered from them
    (waiting when needed); everything else goes to ``base`` (None: nothing is kept)."""

    def __init__(self, base: proof_cache.Cache | None) -> None:
        super().__init__(base.root if base is not None else None)
        self.base = base
        self.pending: dict[str, Future[dict[str, Any]]] = {}

    def get(self, kind: str, key: Any) -> Any | None:
        future = self.pending.pop(self.digest(kind, key)[1], None) if kind == KIND else None
        if future is not None:
            try:
                value = future.result()
            except Exception:  # a dead or failing worker: the verifier proves it itself
                return None
            self.put(kind, key, value)
            return value
        return self.base.get(kind, key) if self.base is not None else None

    def put(self, kind: str, key: Any, value: Any) -> None:
        if self.base is not None:
            self.base.put(kind, key, value)


def _stored(base: proof_cache.Cache | None, key: dict[str, Any]) -> bool:
    """Is there an entry for this proof already?  (Only its file is looked for: a damaged one is
    found unusable by the verifier, which then proves the puzzle itself.)"""
    return base is not None and base.path(KIND, base.digest(KIND, key)[1]).is_file()


def _work(
    files: list[FsPath],
    proof_budget: int | None,
    kept: dict[tuple[str, str], Read],
    base: proof_cache.Cache | None,
    start: Callable[[], object],
) -> tuple[list[tuple[KeyOf, ProofJob]], dict[str, list[Wanted]], dict[str, ProofJob]]:
    """Every puzzle's proof (key and job, in the check's order), per variant the endgame slices of
    ending claims not built yet, and the proofs not stored yet (:func:`_unstored`, keyed as the
    files are read: when slices are to be built, they are keyed again after them); the lessons
    read are kept for the check.  ``start()`` is called as soon as there is work for the workers,
    so that they start while the rest is read."""
    proofs: list[tuple[KeyOf, ProofJob]] = []
    endings: dict[str, list[Wanted]] = {}
    todo: dict[str, ProofJob] = {}
    for f in files:
        lesson = file_lesson(f, kept)
        if lesson is None:
            continue
        jobs = lesson_jobs(lesson, proof_budget)
        proofs += jobs
        todo.update((d, job) for d, job in _unstored(base, jobs).items() if d not in todo)
        name = lesson.variant.name
        for wanted in lesson_endings(lesson):
            if wanted not in endings.get(name, []) and not is_built(name, wanted):
                endings.setdefault(name, []).append(wanted)
        if endings or len(todo) >= AHEAD_MIN:
            start()
    return proofs, endings, todo


def _unstored(base: proof_cache.Cache | None, proofs: list[tuple[KeyOf, ProofJob]]) -> dict[str, ProofJob]:
    """The proofs not stored yet, by cache digest, in the check's order (each digest once)."""
    todo: dict[str, ProofJob] = {}
    for key_of, job in proofs:
        key = key_of()
        if not _stored(base, key):
            todo.setdefault(proof_cache.Cache.digest(KIND, key)[1], job)
    return todo


def _ready() -> None:
    """Nothing: a worker given this starts (imports damas) while the main process reads on."""


class _Workers:
    """The worker processes, made when first asked for: a build with nothing to prove makes none
    (not even the executor's queues and semaphores)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def start(self) -> ProcessPoolExecutor:
        """The pool, made and every worker started on the first call (the import of damas, about
        a second, then overlaps whatever the main process does next)."""
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=quiet_worker)
            for _ in range(self.workers):  # each submit finds no idle worker and starts one more
                self.pool.submit(_ready)
        return self.pool

    def shutdown(self) -> None:
        """Stop the workers: work not started is dropped, work under way is waited for."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def proofs_ahead(files: list[FsPath], proof_budget: int | None = None, jobs: int | None = None) -> Iterator[None]:
    """Inside the block, the check finds the proofs of ``files``' puzzles made by ``jobs`` worker
    processes (None: every usable CPU; 1, or fewer than :data:`AHEAD_MIN` proofs to make: no
    workers, the verifier proves in line as without this), and the endgame slices its ending claims
    read already built by them (the check starts when they are).  The workers start while the
    lessons are still being read, as soon as there is enough for them to do."""
    base = proof_cache.active()
    workers = min(jobs if jobs is not None else usable_cpus(), usable_cpus())
    if workers <= 1:
        yield
        return
    crew = _Workers(workers)
    try:
        with read_ahead() as kept:
            proofs, endings, todo = _work(files, proof_budget, kept, base, crew.start)
            if not endings and len(todo) < AHEAD_MIN:
                yield
                return
            with _hand_out(crew.start(), base, proofs, endings, None if endings else todo):
                yield
    finally:
        crew.shutdown()


@contextlib.contextmanager
def _hand_out(
    pool: ProcessPoolExecutor,
    base: proof_cache.Cache | None,
    proofs: list[tuple[KeyOf, ProofJob]],
    endings: dict[str, list[Wanted]],
    todo: dict[str, ProofJob] | None,
) -> Iterator[None]:
    """The workers are given the slices to build, then the proofs (``todo``, or when None those of
    ``proofs`` not stored yet); the check waits for the slices and finds the proofs in the active
    cache.

    The proofs are keyed and handed out once the slices are stored: a ``win`` proof's key names the
    stored slices, and one keyed before would not be the key the verifier asks for, so the
    verifier would prove the puzzle again.  Building the slices takes both workers a few seconds."""
    store = AheadCache(base)
    # the slices first, one variant a job: the check reads them from its first lesson on
    slices = [pool.submit(build_slices, name, wanted) for name, wanted in endings.items()]
    for future in slices:
        with contextlib.suppress(Exception):  # a failed build: the check builds the slices itself
            future.result()
    if todo is None:
        todo = _unstored(base, proofs)
    for digest, job in todo.items() if len(todo) >= AHEAD_MIN else ():  # in the check's order
        try:
            store.pending[digest] = pool.submit(prove_job, job)
        except BrokenProcessPool:  # a worker died building slices: the verifier proves them all
            break
    with proof_cache.use(store):
        yield
