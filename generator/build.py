"""``damas build`` as its stages: config -> collect -> check -> render -> write.

Each stage is one function fed only by what the stage before it returned (MkDocs reads the same way):

- :func:`configure` checks the settings and the output folder before any work (:class:`Config`);
- :func:`collect` finds the lesson files (:class:`Sources`);
- :func:`check` verifies every lesson and keeps its proofs, per diagram and per puzzle (:class:`Checked`);
  a course with one error stops here (:class:`BuildRefused`).  Each lesson that passes is also
  planned for the render stage as soon as it is verified (:class:`LessonPlans`);
- :func:`render` plans the site from those proofs and makes every page, diagram and PDF job in memory
  (:class:`Rendered`);
- :func:`write` writes them to a fresh folder beside the destination, compiles the PDFs, and replaces
  the destination only when everything succeeded, so a failed build never leaves a half-written
  ``output/`` (generator/output.py: which folders may be replaced, and the swap that survives
  ``kill -9``).

Nothing touches the disk before :func:`write`.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .cache import Cache, open_cache, use
from .cache import active as active_cache  # the write stage keeps and reuses PDFs in it
from .collector import fewer_collections
from .course import Course, check_course
from .cpus import usable_cpus
from .errors import DamasError
from .incremental import Unchanged, cached_pdf, job_key, keep_pdfs, manifest_text, previous_manifest
from .lessons.ahead import proofs_ahead
from .lessons.check import CheckedLesson, CheckReport, check_file, lesson_files
from .lessons.source import SourceError
from .output import MANIFEST, OutputError, OutputFolder, copy_previous
from .render import pdf as pdf_stage
from .render import printset
from .render.book import plan_books
from .render.html import render_pages
from .render.languages import Tree, language_trees, other_homes
from .render.site import LessonItem, plan_lesson, plan_site
from .rules import VARIANTS, Variant, get_variant

__all__ = ["FORMATS", "MANIFEST", "BuildRefused", "BuildSummary", "build"]

FORMATS = ("html", "pdf")

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as work completes."""

T = TypeVar("T")


class BuildRefused(DamasError):
    """The lessons do not verify; nothing was built."""

    def __init__(self, report: CheckReport) -> None:
        self.report = report
        files = report.failed_files()
        super().__init__(
            f"not building: {len(report.errors)} error(s) in {', '.join(files)} (run 'damas check' for details)"
        )


@dataclass
class BuildSummary:
    out: Path
    pages: int = 0
    diagrams: int = 0
    puzzles: int = 0
    pdfs: int = 0
    reused: int = 0
    """PDFs copied unchanged from the previous build (incremental mode)."""
    cached: int = 0
    """PDFs taken from the proof cache: compiled from the same inputs by an earlier build."""
    seconds: float = 0.0
    variants: list[str] = field(default_factory=list)
    stages: dict[str, float] = field(default_factory=dict)
    """Seconds per stage: config, collect, check, render, write."""

    def __str__(self) -> str:
        taken = [f"{self.reused} unchanged"] if self.reused else []
        taken += [f"{self.cached} from the cache"] if self.cached else []
        pdfs = f"{self.pdfs} PDF(s)" + (f" ({', '.join(taken)})" if taken else "")
        return (
            f"built {self.pages} page(s), {self.diagrams} diagram(s), {self.puzzles} puzzle(s), "
            f"{pdfs} for {len(self.variants)} variant(s) in {self.seconds:.1f} s -> {self.out}"
        )


# -- the data passed from stage to stage --------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """What to build and where, checked: the output folder is accepted before any work."""

    course: Course
    folder: OutputFolder
    lessons: tuple[str | os.PathLike[str], ...] | None
    """The lesson files and folders to build; None: the course's lessons folder."""
    variants: tuple[Variant, ...]
    """The variants asked for; empty: those course.yaml lists, else every variant with lessons."""
    formats: tuple[str, ...]
    print_settings: printset.Settings
    jobs: int | None
    """Proof worker processes and PDF threads (None: every usable CPU)."""
    incremental: bool


@dataclass(frozen=True)
class Sources:
    """The lesson files found, and what could not be read while looking (missing, looping, empty)."""

    files: list[Path]
    errors: list[SourceError]


class LessonPlans:
    """Lessons planned for the render stage while the check runs (:func:`generator.render.site.plan_lesson`:
    a lesson's diagrams drawn, its puzzles' panels made, from its proofs alone).

    On a cold cache the check spends most of its time waiting for the proof workers; each lesson is
    planned as soon as it has passed its check, while the workers prove the lessons after it, so
    that the render stage no longer plans every lesson on one core while the others idle.  Planning
    is a function of the checked lesson only: the site is the same as when every lesson is planned
    after the check.  A lesson with errors, or of a variant not built, is not planned."""

    def __init__(self, variants: set[str] | None) -> None:
        self.variants = variants
        """The variants to build (None: not known before the check ends, so every variant)."""
        self.planned: dict[int, tuple[CheckedLesson, LessonItem]] = {}

    def check_file(self, path: Path, proof_budget: int | None) -> tuple[CheckedLesson | None, list[SourceError]]:
        """:func:`generator.lessons.check.check_file`, then the lesson planned when it passed."""
        checked, errors = check_file(path, proof_budget)
        if checked is not None and not errors and self.builds(checked.lesson.variant.name):
            self.planned[id(checked)] = (checked, plan_lesson(checked))
        return checked, errors

    def builds(self, variant: str) -> bool:
        return self.variants is None or variant in self.variants

    def plan(self, checked: CheckedLesson) -> LessonItem:
        """The lesson's plan: made during the check, else now."""
        found = self.planned.get(id(checked))
        return found[1] if found is not None and found[0] is checked else plan_lesson(checked)


@dataclass(frozen=True)
class Checked:
    """The verified lessons, each with its proofs (per diagram, and per puzzle: the key, every
    defence, the themes), and the variants to build, in order."""

    lessons: list[CheckedLesson]
    variants: list[Variant]
    plans: LessonPlans = field(default_factory=lambda: LessonPlans(None))
    """The lessons already planned for the render stage."""


@dataclass
class Rendered:
    """Everything the build writes, made in memory: file texts by path relative to the build root,
    and the PDFs as Typst jobs (compiled by :func:`write`, which needs the diagrams on disk)."""

    svgs: Mapping[str, str]
    pages: dict[str, str]
    """HTML pages, the stylesheet and the script; empty without the ``html`` format."""
    pdfs: list[pdf_stage.PdfJob]
    """Empty without the ``pdf`` format."""
    variants: list[str]
    diagrams: int
    puzzles: int


# -- the stages ---------------------------------------------------------------------------------------


def configure(
    out: str | os.PathLike[str],
    *,
    course: Course | None = None,
    lessons: Iterable[str | os.PathLike[str]] | None = None,
    variants: Iterable[str] = (),
    formats: Iterable[str] = FORMATS,
    jobs: int | None = None,
    incremental: bool = True,
    paper: str | None = None,
) -> Config:
    """The build's settings, checked (see :func:`build` for each)."""
    formats = tuple(dict.fromkeys(formats))
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"unknown format '{f}' (formats: {', '.join(FORMATS)})")
    wanted = tuple(get_variant(v) for v in variants)
    course = course or Course(Path(), Path("lessons"))
    chosen = tuple(lessons) if lessons is not None else None
    # The lessons (and course.yaml): the output may be none of them, inside none, above none; the course
    # root is above the lessons, so it is refused too.
    protect = [*(chosen or [course.lessons]), *([course.source] if course.source else [])]
    folder = OutputFolder(out, protect=protect)  # refuses before any work: see generator/output.py
    return Config(
        course=course,
        folder=folder,
        lessons=chosen,
        variants=wanted,
        formats=formats,
        print_settings=printset.Settings(paper=paper or course.paper),
        jobs=jobs,
        incremental=incremental,
    )


def collect(config: Config) -> Sources:
    """Every lesson file under the chosen files and folders (generator/lessons/check.py: lesson_files)."""
    files, errors = lesson_files(config.lessons if config.lessons is not None else [config.course.lessons])
    return Sources(files, errors)


def check(config: Config, sources: Sources) -> Checked:
    """Verify every lesson found, with the course-level rules.

    Raises:
        BuildRefused: when any lesson fails (or a file could not be found or read).
    """
    plans = LessonPlans(_named_variants(config))
    with proofs_ahead(sources.files, config.course.proof_budget, config.jobs):
        report = check_course(config.course, sources.files, check=plans.check_file)
    if sources.errors:
        report.errors = sorted(report.errors + sources.errors)
    if not report.ok:
        raise BuildRefused(report)
    present = {c.lesson.variant.name for c in report.lessons}
    listed = [get_variant(v) for v in config.course.variants]
    chosen = list(config.variants) or listed or [v for v in VARIANTS.values() if v.name in present]
    return Checked(report.lessons, chosen, plans)


def _named_variants(config: Config) -> set[str] | None:
    """The variants to build when the settings name them (None: those with lessons, known after the check)."""
    named = [v.name for v in config.variants] or list(config.course.variants)
    return set(named) or None


def render(config: Config, checked: Checked) -> Rendered:
    """Plan the site from the checked lessons and their proofs, then make every diagram, page and PDF
    job of every language tree."""
    site = plan_site(checked.lessons, checked.variants, english=config.course.english, plan=checked.plans.plan)
    trees = language_trees(site, config.course.language)
    return Rendered(
        svgs=site.svgs(),
        pages=_pages(config, trees) if "html" in config.formats else {},
        pdfs=_pdf_jobs(config, trees) if "pdf" in config.formats else [],
        variants=[v.name for v in site.variants],
        diagrams=sum(len(lesson.diagrams) for v in site.variants for lesson in v.lessons),
        puzzles=sum(v.puzzle_count for v in site.variants),
    )


def write(config: Config, rendered: Rendered, progress: Progress | None = None) -> BuildSummary:
    """Write everything into a fresh folder beside the destination, compile the PDFs there, then put
    it in place of the destination.  With ``config.incremental``, PDFs and files the previous build in
    the destination already holds unchanged are taken over from it (generator/incremental.py).

    Raises:
        OutputError: when the system refuses a write (the old output stays intact).
        PdfError: when Typst fails (the same).
    """
    dest = config.folder.path
    previous = previous_manifest(dest) if config.incremental else {}
    try:
        with config.folder.staging() as root:
            summary = BuildSummary(out=root, variants=rendered.variants)
            summary.diagrams, summary.puzzles = rendered.diagrams, rendered.puzzles
            keep = Unchanged(dest if config.incremental else None)
            summary.pages = _write_files(root, rendered, keep, progress)
            if "pdf" in config.formats:
                summary.reused, summary.cached = _write_pdfs(root, dest, config, rendered, previous, keep, progress)
                summary.pdfs = len(rendered.pdfs)
            if "html" not in config.formats:
                shutil.rmtree(root / "html", ignore_errors=True)  # the SVGs were only there for Typst
            config.folder.publish(root)
    except OSError as exc:  # a full or read-only disk, a name too long: one line, the old output intact
        raise OutputError.from_os(exc) from None
    summary.out = Path(os.path.relpath(dest)) if dest.is_relative_to(Path.cwd()) else dest
    return summary


def build(
    out: str | os.PathLike[str] = "output",
    *,
    lessons: Iterable[str | os.PathLike[str]] | None = None,
    course: Course | None = None,
    variants: Iterable[str] = (),
    formats: Iterable[str] = FORMATS,
    progress: Progress | None = None,
    jobs: int | None = None,
    incremental: bool = True,
    paper: str | None = None,
    cache: bool | Cache | None = True,
) -> BuildSummary:
    """Build the course into ``out``: the stages in order, each timed in :attr:`BuildSummary.stages`.

    With ``incremental`` (the default), a PDF whose inputs (template, data, diagrams, compiler and
    damas versions) hash the same as in the previous build in ``out`` is taken from it instead of
    compiled again, and every file whose bytes are unchanged is hard-linked from it (see
    :class:`generator.incremental.Unchanged`); everything else is remade.  ``course`` brings the
    settings (title, language, paper, variants) and the lesson folder; ``lessons`` overrides the files
    checked.

    ``paper`` (``a4`` or ``letter``) sizes the printable board-and-pieces set of each variant.

    ``cache``: the proof cache (generator/cache.py) that keeps puzzle proofs, interactive trees and
    their step diagrams between builds; True (the default) opens the one in ``$DAMAS_CACHE_DIR`` (or
    the user's cache folder), False or None builds without one.

    Raises:
        BuildRefused: when any lesson fails its check (names the files).
        UnknownVariantError, ValueError: for a bad variant or format.
        PdfError: when Typst fails (the destination is left untouched).
    """
    started = time.perf_counter()
    stages: dict[str, float] = {}
    config = _timed(
        stages,
        "config",
        configure,
        out,
        course=course,
        lessons=lessons,
        variants=variants,
        formats=formats,
        jobs=jobs,
        incremental=incremental,
        paper=paper,
    )
    with fewer_collections(), use(open_cache() if cache is True else cache or None):
        sources = _timed(stages, "collect", collect, config)
        checked = _timed(stages, "check", check, config, sources)
        rendered = _timed(stages, "render", render, config, checked)
        summary = _timed(stages, "write", write, config, rendered, progress)
    summary.seconds = time.perf_counter() - started
    summary.stages = stages
    return summary


def _timed(stages: dict[str, float], name: str, stage: Callable[..., T], *args: object, **kwargs: object) -> T:
    """Run one stage, adding its wall-clock seconds to ``stages[name]``."""
    mark = time.perf_counter()
    try:
        return stage(*args, **kwargs)
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - mark


# -- inside render ------------------------------------------------------------------------------------


def _pages(config: Config, trees: list[Tree]) -> dict[str, str]:
    """Every HTML page of every language tree (path relative to the build root -> text)."""
    pages: dict[str, str] = {}
    for tree in trees:
        pages.update(
            render_pages(
                tree.site,
                pdf="pdf" in config.formats,
                course=config.course,
                language=tree.language,
                prefix=tree.prefix,
                others=other_homes(trees, tree),
            )
        )
    return pages


def _pdf_jobs(config: Config, trees: list[Tree]) -> list[pdf_stage.PdfJob]:
    """Each variant's rules booklet, worksheet and answer key, and its printable set, per language."""
    work: list[pdf_stage.PdfJob] = []
    for tree in trees:
        books = {b.variant.name: b for b in plan_books(tree.site, tree.language)}
        for v in tree.site.variants:
            work += pdf_stage.jobs_for(v, books.get(v.name), tree.language, tree.prefix)
            work.append(printset.job_for(v, config.print_settings, tree.language, tree.prefix))
    for job in work:
        job.data = config.course.pdf_settings(job.data)
    return work


# -- inside write -------------------------------------------------------------------------------------


def _write_files(root: Path, rendered: Rendered, keep: Unchanged, progress: Progress | None) -> int:
    """The diagrams, then the pages; returns the number of HTML pages."""
    for i, (path, svg) in enumerate(rendered.svgs.items(), start=1):
        keep.write(root, path, svg)
        if progress:
            progress("diagrams", i, len(rendered.svgs))
    for path, text in rendered.pages.items():
        keep.write(root, path, text)
    if rendered.pages and progress:
        progress("html", len(rendered.pages), len(rendered.pages))
    return sum(1 for p in rendered.pages if p.endswith(".html"))


def _write_pdfs(
    root: Path,
    dest: Path,
    config: Config,
    rendered: Rendered,
    previous: dict[str, str],
    keep: Unchanged,
    progress: Progress | None,
) -> tuple[int, int]:
    """Take each PDF over from the previous build when its inputs are unchanged, else from the proof
    cache (compiled by an earlier build from the same inputs), else compile it and keep it there;
    then write the manifest.  Returns how many were taken over, and how many came from the cache."""
    store = active_cache() if config.incremental else None  # --clean compiles every PDF
    keys: dict[str, str] = {}
    todo = []
    cached = 0
    for i, job in enumerate(rendered.pdfs):
        key = keys[job.output] = job_key(job, rendered.svgs)
        if previous.get(job.output) == key and (
            keep.link(job.output, root / job.output) or copy_previous(dest / job.output, root / job.output)
        ):
            continue  # a regular file only: a link planted in the old output is not followed
        if cached_pdf(store, key, root / job.output):
            cached += 1
            continue
        todo.append((str(root), job, i))
    reused = len(rendered.pdfs) - len(todo) - cached
    todo.sort(key=lambda item: _diagrams(item[1]), reverse=True)  # the longest first: no long one last
    _compile_all(todo, config.jobs, reused + cached, len(rendered.pdfs), progress)
    keep_pdfs(store, {keys[job.output]: root / job.output for _, job, _ in todo})
    pdf_stage.cleanup(root)
    (root / MANIFEST).write_text(manifest_text(keys), encoding="utf-8")
    return reused, cached


def _diagrams(job: pdf_stage.PdfJob) -> int:
    """The diagrams a PDF draws: most of the time Typst takes over it.  Compiled largest first, the
    bundled course's PDFs took 5.7-6.4 s on two threads instead of 6.0-6.9 s (bench/README.md)."""
    return json.dumps(job.data).count(".svg")


def _compile(args: tuple[str, pdf_stage.PdfJob, int]) -> str:
    root, job, index = args
    pdf_stage.compile_job(Path(root), job, index)
    return job.output


def _compile_all(
    todo: list[tuple[str, pdf_stage.PdfJob, int]], jobs: int | None, done: int, total: int, progress: Progress | None
) -> None:
    """Compile the PDFs left to make, ``done`` of ``total`` being already in place, on ``jobs``
    threads (None: every usable CPU).

    Threads, not processes: Typst compiles without the GIL, a thread costs no start-up (a spawned
    process about half a second to import Typst), and the threads share Typst's memo of decoded
    images and laid-out content, which the documents of one course largely have in common (the
    worksheet and answer key show the same boards).  Measured on the bundled course (2 CPUs, every
    PDF compiled): 8.1-9.7 s on one thread, 7.0-7.6 s on two (bench/README.md)."""
    workers = min(jobs if jobs is not None else usable_cpus(), len(todo), usable_cpus())
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="damas-pdf") if workers > 1 else None
    try:
        for _ in pool.map(_compile, todo) if pool is not None else map(_compile, todo):
            done += 1
            if progress:
                progress("pdf", done, total)
    finally:  # on an error or Ctrl-C: drop the queued PDFs, wait only for those being compiled
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
