"""``damas build``: check, plan, draw, write HTML, compile PDFs, then move the result into place.

Stages run in order and each gathers everything before anything is written.  The whole build goes
to a fresh temporary folder beside the destination and replaces the destination only when every
stage succeeded, so a failed build never leaves a half-written ``output/`` (generator/output.py:
which folders may be replaced, and the swap that survives ``kill -9``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .cache import Cache, open_cache, use
from .course import Course, check_course
from .cpus import usable_cpus
from .errors import DamasError
from .lessons.check import CheckReport
from .output import MANIFEST, OutputError, OutputFolder, copy_previous, read_previous
from .render import pdf as pdf_stage
from .render import printset
from .render.book import plan_books
from .render.html import render_pages
from .render.languages import language_trees, other_homes
from .render.site import Site, plan_site
from .rules import VARIANTS, Variant, get_variant
from .workers import watch_parent

FORMATS = ("html", "pdf")

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as work completes."""


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
    seconds: float = 0.0
    variants: list[str] = field(default_factory=list)
    stages: dict[str, float] = field(default_factory=dict)
    """Seconds per stage: verify, svg (planning and drawing), html, pdf."""

    def __str__(self) -> str:
        pdfs = f"{self.pdfs} PDF(s)" + (f" ({self.reused} unchanged)" if self.reused else "")
        return (
            f"built {self.pages} page(s), {self.diagrams} diagram(s), {self.puzzles} puzzle(s), "
            f"{pdfs} for {len(self.variants)} variant(s) in {self.seconds:.1f} s -> {self.out}"
        )


def _compile(args: tuple[str, pdf_stage.PdfJob, int]) -> str:
    root, job, index = args
    pdf_stage.compile_job(Path(root), job, index)
    return job.output


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
    """Build the course into ``out``.

    With ``incremental`` (the default), a PDF whose inputs (template, data, diagrams, compiler and
    damas versions) hash the same as in the previous build in ``out`` is taken from it instead of
    compiled again, and every file whose bytes are unchanged is hard-linked from it (see
    :class:`_Unchanged`); everything else is remade.  ``course`` brings the settings
    (title, language, paper, variants) and the lesson folder; ``lessons`` overrides the files checked.

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
    formats = tuple(dict.fromkeys(formats))
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"unknown format '{f}' (formats: {', '.join(FORMATS)})")
    wanted: list[Variant] = [get_variant(v) for v in variants]
    course = course or Course(Path(), Path("lessons"))
    print_settings = printset.Settings(paper=paper or course.paper)
    lessons = list(lessons) if lessons is not None else None
    # The lessons (and course.yaml): the output may be none of them, inside none, above none; the course
    # root is above the lessons, so it is refused too.
    protect = [*(lessons or [course.lessons]), *([course.source] if course.source else [])]
    folder = OutputFolder(out, protect=protect)  # refuses before any work: see generator/output.py
    store = open_cache() if cache is True else cache or None
    with use(store):
        report = check_course(course, lessons)
        if not report.ok:
            raise BuildRefused(report)
        stages["verify"] = time.perf_counter() - started
        present = {c.lesson.variant.name for c in report.lessons}
        listed = [get_variant(v) for v in course.variants]
        chosen = wanted or listed or [v for v in VARIANTS.values() if v.name in present]
        mark = time.perf_counter()
        site = plan_site(report.lessons, chosen, english=course.english)
        stages["svg"] = time.perf_counter() - mark

    dest = folder.path
    previous = _manifest(dest) if incremental else {}
    try:
        with folder.staging() as tmp, use(store):
            summary = _write(
                site, tmp, formats, progress, jobs, dest, previous, stages, course, print_settings, incremental
            )
            folder.publish(tmp)
    except OSError as exc:  # a full or read-only disk, a name too long: one line, the old output intact
        raise OutputError.from_os(exc) from None
    summary.out = Path(os.path.relpath(dest)) if dest.is_relative_to(Path.cwd()) else dest
    summary.seconds = time.perf_counter() - started
    summary.stages = stages
    return summary


def _manifest(dest: Path) -> dict[str, str]:
    """The content hash of every PDF of the previous build in ``dest`` (MANIFEST), for reuse."""
    try:
        data = json.loads(read_previous(dest / MANIFEST) or "")
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("damas") != __version__:
        return {}
    files = data.get("pdf", {})
    return files if isinstance(files, dict) else {}


def _job_key(job: pdf_stage.PdfJob, svgs: Mapping[str, str]) -> str:
    """Everything a PDF depends on, hashed: template, data, the diagrams it shows, the versions."""
    h = hashlib.sha256()
    h.update(f"damas {__version__} typst {pdf_stage.TYPST_VERSION}\n".encode())
    h.update(job.template.read_bytes())
    for typ in sorted(job.template.parent.glob("*.typ")):  # what the template imports (print.typ)
        h.update(typ.read_bytes())
    data = json.dumps(job.data, sort_keys=True, ensure_ascii=False)
    h.update(data.encode())
    for path in sorted(set(re.findall(r'"/(html/svg/[^"]+)"', data))):
        h.update(path.encode())
        h.update(svgs.get(path, "").encode())
    return h.hexdigest()


def _write(
    site: Site,
    root: Path,
    formats: tuple[str, ...],
    progress: Progress | None,
    jobs: int | None,
    dest: Path,
    previous: dict[str, str],
    stages: dict[str, float],
    course: Course,
    print_settings: printset.Settings | None = None,
    incremental: bool = True,
) -> BuildSummary:
    summary = BuildSummary(out=root, variants=[v.name for v in site.variants])
    trees = language_trees(site, course.language)
    mark = time.perf_counter()
    svgs = site.svgs()
    keep = _Unchanged(dest if incremental else None)
    for i, (path, svg) in enumerate(svgs.items(), start=1):
        keep.write(root, path, svg)
        if progress:
            progress("diagrams", i, len(svgs))
    summary.diagrams = sum(len(lesson.diagrams) for v in site.variants for lesson in v.lessons)
    summary.puzzles = sum(v.puzzle_count for v in site.variants)
    stages["svg"] = stages.get("svg", 0.0) + time.perf_counter() - mark

    if "html" in formats:
        mark = time.perf_counter()
        pages = {}
        for tree in trees:
            pages.update(
                render_pages(
                    tree.site,
                    pdf="pdf" in formats,
                    course=course,
                    language=tree.language,
                    prefix=tree.prefix,
                    others=other_homes(trees, tree),
                )
            )
        for path, text in pages.items():
            keep.write(root, path, text)
        summary.pages = sum(1 for p in pages if p.endswith(".html"))
        if progress:
            progress("html", len(pages), len(pages))
        stages["html"] = time.perf_counter() - mark

    manifest: dict[str, str] = {}
    if "pdf" in formats:
        mark = time.perf_counter()
        work = []
        for tree in trees:
            books = {b.variant.name: b for b in plan_books(tree.site, tree.language)}
            for v in tree.site.variants:
                work += pdf_stage.jobs_for(v, books.get(v.name), tree.language, tree.prefix)
                work.append(printset.job_for(v, print_settings, tree.language, tree.prefix))
        for job in work:
            job.data = course.pdf_settings(job.data)
        todo = []
        for i, job in enumerate(work):
            key = manifest[job.output] = _job_key(job, svgs)
            if previous.get(job.output) == key and (
                keep.link(job.output, root / job.output) or copy_previous(dest / job.output, root / job.output)
            ):
                summary.reused += 1  # a regular file only: a link planted in the old output is not followed
            else:
                todo.append((str(root), job, i))
        # Typst already compiles on every core; extra processes only add start-up time (the bundled
        # course: 2.6 s with one, 3.7 s with two), so one is the default.
        workers = min(jobs if jobs is not None else 1, len(todo), usable_cpus())
        done = summary.reused
        if workers > 1:
            # "spawn", not fork: forking after Typst has started its worker threads can deadlock.
            context = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_sigint)
            try:
                with _sigint_blocked():  # the workers start (at submission) with Ctrl-C blocked
                    results = pool.map(_compile, todo)
                for _ in results:
                    done += 1
                    if progress:
                        progress("pdf", done, len(work))
            except BrokenProcessPool:
                raise OutputError("a PDF process died (killed, or out of memory); try fewer --jobs") from None
            finally:  # on Ctrl-C: drop the queued PDFs, wait only for those being compiled
                pool.shutdown(wait=True, cancel_futures=True)
        else:
            for a in todo:
                _compile(a)
                done += 1
                if progress:
                    progress("pdf", done, len(work))
        pdf_stage.cleanup(root)
        summary.pdfs = len(work)
        stages["pdf"] = time.perf_counter() - mark
        (root / MANIFEST).write_text(json.dumps({"damas": __version__, "pdf": manifest}, indent=1), encoding="utf-8")

    if "html" not in formats:
        shutil.rmtree(root / "html", ignore_errors=True)  # the SVGs were only there for Typst
    return summary


class _Unchanged:
    """Files of the previous build that the new one takes over by a hard link when their bytes are
    the same, instead of writing a copy.

    Why: the old output is deleted once the new one is in place, and deleting a file whose blocks are
    freed is slow on some disks (ext4 mounted with ``discard`` trims every freed extent: about 4 ms per
    file here, half a minute for the step diagrams of a 600-puzzle course).  A file linked into the new
    output frees nothing when the old name goes, and is not written again either.  Only a regular file
    reached through no symbolic link and held by no other link is taken, and only with exactly the
    bytes the build would write (PDFs: when the manifest says their inputs are unchanged, as before);
    anything else is written as usual.  ``previous=None`` (``--clean``) takes nothing.
    """

    def __init__(self, previous: Path | None) -> None:
        self.previous = previous if previous is not None and os.name == "posix" and hasattr(os, "link") else None
        self.folders: dict[str, bool] = {}
        self.made: set[Path] = set()
        self.linked = 0

    def write(self, root: Path, path: str, text: str) -> None:
        """Put ``text`` at ``root/path``: linked from the previous output when unchanged, else written."""
        target = root / path
        if target.parent not in self.made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(target.parent)
        if self.previous is None or not self.link(path, target, text.encode("utf-8")):
            target.write_text(text, encoding="utf-8")

    def link(self, path: str, target: Path, data: bytes | None = None) -> bool:
        """Hard-link the previous output's ``path`` to ``target`` (True), if it may be taken over."""
        if self.previous is None or not self._plain_folder(os.path.dirname(path)):
            return False
        source = self.previous / path
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(source, flags)
        except OSError:
            return False
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
                return False
            if data is not None and (info.st_size != len(data) or os.read(fd, len(data) + 1) != data):
                return False
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(source, target, follow_symlinks=False)
        except OSError:
            return False
        finally:
            os.close(fd)
        try:  # the very file that was read, not something put in its place meanwhile
            same = os.lstat(target).st_ino == info.st_ino
        except OSError:
            same = False
        if not same:
            with contextlib.suppress(OSError):
                os.unlink(target)
            return False
        self.linked += 1
        return True

    def _plain_folder(self, folder: str) -> bool:
        """Is the previous output's ``folder`` reached through no symbolic link?"""
        ok = self.folders.get(folder)
        if ok is None and self.previous is not None:
            here = self.previous / folder
            ok = self.folders[folder] = os.path.realpath(here) == os.path.abspath(here)
        return bool(ok)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT while worker processes are started: they inherit the mask, so a Ctrl-C (sent to the
    whole process group) never interrupts their start-up with a traceback; here it is delivered after."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _ignore_sigint() -> None:
    """In PDF worker processes: Ctrl-C reaches the whole process group, but only the main process
    handles it (it cancels the queue and removes the temporary folder); and a worker whose build was
    killed outright exits instead of compiling on as an orphan."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent()
