"""``damas serve``: a live preview of the course on 127.0.0.1, rebuilt on every save.

The site is built in memory with the same plan and templates as ``damas build`` (HTML only) and
served from there by the standard library's HTTP server: nothing is written to disk, so stopping the
preview at any moment (Ctrl-C, ``kill``) leaves no temporary folder behind.  Every save of a lesson,
a template or ``course.yaml`` (``watchfiles``) rebuilds *incrementally* (:class:`Site`): only the
files that changed are checked again, only their lessons planned again, and only the pages they touch
rendered again (a caption edit on the bundled course: the lesson's page, its variant's index and
book, the home page).  Open pages reload themselves through server-sent events: the served copy of
each page gets one ``<script>`` tag pointing at a tiny local script; the pages ``damas build`` writes
never contain it.  While a lesson fails its check, every page answers with the errors
(``file:line:col``, escaped) instead of stale content; the next good save brings the pages back.

Only loopback is served, and requests whose ``Host`` header names anything else are refused, so a web
page elsewhere cannot reach the preview through DNS rebinding.  A browser that drops a connection
(a reload, a closed tab) is no error: nothing is printed.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import mimetypes
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from posixpath import normpath
from typing import Any
from urllib.parse import unquote, urlsplit

from .course import COURSE_FILE, Course, CourseError, find_course
from .errors import DamasError
from .resources import templates_dir

HOST = "127.0.0.1"
PREFIX = "/__damas__/"
EVENTS = PREFIX + "events"
SCRIPT = PREFIX + "reload.js"
RELOAD_JS = """// damas serve: reload this page when the course is rebuilt (served only by the preview).
(() => {
  const shown = document.currentScript.dataset.generation;
  const source = new EventSource("/__damas__/events");
  source.onmessage = (event) => {
    if (event.data !== shown) {
      source.close();
      location.reload();
    }
  };
})();
"""
DROPPED = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, socket.timeout)
"""What a client that goes away mid-answer raises: not an error of the preview."""


def tag(generation: int) -> str:
    """The one line a served page gains: the reload script, told which build the page shows."""
    return f'<script src="{SCRIPT}" data-generation="{generation}"></script>'


WATCHED_SUFFIXES = {".yaml", ".yml", ".j2", ".css", ".typ", ".json", ".js"}


@dataclass
class State:
    """The latest build: its files, a generation number that changes on every rebuild, its errors."""

    generation: int = 0
    errors: list[str] = field(default_factory=list)
    summary: str = ""
    files: dict[str, bytes] = field(default_factory=dict)
    """Path under ``html/`` -> the file's bytes (replaced whole by each good build, never edited)."""
    changed: threading.Condition = field(default_factory=threading.Condition)
    closing: bool = False

    def publish(self, errors: list[str], summary: str, files: dict[str, bytes] | None = None) -> None:
        with self.changed:
            self.generation += 1
            self.errors = errors
            self.summary = summary
            if files is not None:
                self.files = files
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()


class Site:
    """The course built in memory, and what a rebuild can keep of the previous build.

    * a lesson file whose bytes did not change is not checked again (its check result is kept);
    * a lesson whose check result is the same object is not planned again (its plan is kept);
    * a page is rendered again only when it belongs to a variant whose lessons changed, or is a page
      of the whole site (home, comparison, glossary, editor); any other page is rendered again too
      when the links between variants changed, or a template, or course.yaml.
    """

    def __init__(self) -> None:
        self.checked: dict[str, tuple[str, Any]] = {}
        """Lesson path -> (hash of its bytes and the proof budget, check result)."""
        self.plans: dict[int, tuple[Any, Any]] = {}
        """id(checked lesson) -> (the checked lesson, its plan)."""
        self.pages: dict[str, str] = {}
        self.links: tuple[object, ...] | None = None
        self.settings: object = None

    def forget(self) -> None:
        """After a template or course.yaml change: plan and render everything again."""
        self.plans.clear()
        self.pages.clear()
        self.links = None

    def check_file(self, path: Path, proof_budget: int | None) -> tuple[Any, list[Any]]:
        from .lessons.check import check_file

        try:
            stamp = hashlib.sha256(path.read_bytes()).hexdigest() + f":{proof_budget}"
        except OSError:
            return check_file(path, proof_budget)  # let the check report it
        kept = self.checked.get(str(path))
        if kept is not None and kept[0] == stamp:
            return kept[1]
        result = check_file(path, proof_budget)
        self.checked[str(path)] = (stamp, result)
        return result

    def plan_lesson(self, checked: Any) -> Any:
        from .render.site import plan_lesson

        kept = self.plans.get(id(checked))
        if kept is not None and kept[0] is checked:
            return kept[1]
        item = plan_lesson(checked)
        self.plans[id(checked)] = (checked, item)
        return item

    def _ahead(self, course: Course) -> contextlib.AbstractContextManager[None]:
        """The first build proves the course's puzzles on every CPU, as ``damas build`` does
        (generator/lessons/ahead.py); later builds prove the few an edit touches in line."""
        if self.pages:
            return contextlib.nullcontext()
        from .lessons.ahead import proofs_ahead
        from .lessons.check import lesson_files

        return proofs_ahead(lesson_files([course.lessons])[0], course.proof_budget)

    def build(self, course: Course) -> tuple[list[str], str, dict[str, bytes] | None]:
        """Check, plan and render what changed: (errors, summary, files) with files None on errors."""
        from .cache import open_cache, use
        from .course import check_course
        from .render.site import plan_site
        from .render.website import cross_links, site_plan
        from .rules import VARIANTS, get_variant

        settings = (course.source and course.source.read_bytes(), course.language, course.variants, course.english)
        if settings != self.settings:
            self.forget()
            self.settings = settings
        with use(open_cache()), self._ahead(course):
            report = check_course(course, check=self.check_file)
            if not report.ok:
                return [str(e) for e in report.errors], "", None
            present = {c.lesson.variant.name for c in report.lessons}
            chosen = [get_variant(v) for v in course.variants] or [v for v in VARIANTS.values() if v.name in present]
            before = {id(c) for c, _ in self.plans.values()}
            site = plan_site(report.lessons, chosen, english=course.english, plan=self.plan_lesson)
        live = {id(c) for c in report.lessons}
        changed = {c.lesson.variant.name for c in report.lessons if id(c) not in before}
        changed |= {c.lesson.variant.name for k, (c, _) in self.plans.items() if k not in live}  # removed
        self.plans = {k: v for k, v in self.plans.items() if k in live}
        plan = site_plan(site, course, pdf=False)
        links = cross_links(site)
        everything = links != self.links or not self.pages
        self.links = links
        names = {v.name for v in chosen}

        def stale(path: str) -> bool:
            inside = path.removeprefix("html/").split("/")
            if inside[0] not in names:  # a language folder: en/<variant>/...
                inside = inside[1:]
            if len(inside) < 2 or inside[0] not in names:
                return True  # a page of the whole site
            return inside[0] in changed or path not in self.pages

        started = time.perf_counter()
        pages = {path: (render() if everything or stale(path) else self.pages[path]) for path, render in plan.items()}
        rendered = sum(1 for p in pages if everything or stale(p))
        self.pages = pages
        files = {path.removeprefix("html/"): text.encode("utf-8") for path, text in site.svgs().items()}
        files.update({path.removeprefix("html/"): text.encode("utf-8") for path, text in pages.items()})
        seconds = time.perf_counter() - started
        return (
            [],
            f"{len(report.files)} lesson file(s), {rendered} of {len(pages)} page(s) rendered ({seconds:.1f} s)",
            files,
        )


class Preview:
    """The site in memory, its rebuilds, and the state the request handler reads."""

    def __init__(self, folder: str | None, log: Callable[[str], None] = print) -> None:
        self.folder = folder
        self.log = log
        self.course: Course = find_course(folder)
        self.state = State()
        self.site = Site()

    def rebuild(self, changed: Iterable[str] = ()) -> None:
        """Build what changed; on failure keep the errors (the pages show them) and the old files."""
        started = time.perf_counter()
        if any(Path(p).suffix not in {".yaml", ".yml"} or Path(p).name == COURSE_FILE for p in changed):
            self.site.forget()  # a template, the stylesheet or course.yaml: every page again
        errors: list[str] = []
        summary = ""
        files = None
        try:
            self.course = find_course(self.folder)
            errors, summary, files = self.site.build(self.course)
        except CourseError as exc:
            errors = [str(e) for e in exc.errors]
        except DamasError as exc:
            errors = [str(exc)]
        seconds = time.perf_counter() - started
        self.state.publish(errors, summary, files)
        if errors:
            self.log(f"{len(errors)} error(s); the pages show them until the next good save ({seconds:.1f} s)")
            for line in errors:
                self.log(f"  {line}")
        else:
            self.log(f"rebuilt in {seconds:.1f} s: {summary}")

    def watched(self) -> list[Path]:
        roots = [self.course.lessons, templates_dir()]
        if self.course.source is not None:
            roots.append(self.course.source.parent)
        return [p for p in roots if p.exists()]

    def wanted(self, path: str) -> bool:
        """Changes that call for a rebuild: lessons, templates, course.yaml."""
        p = Path(path)
        if p.name == COURSE_FILE:
            return True
        if p.suffix not in WATCHED_SUFFIXES:
            return False
        inside = (self.course.lessons.resolve(), templates_dir().resolve())
        return any(p.resolve().is_relative_to(root) for root in inside)

    def watch(self, stop: threading.Event, ready: threading.Event) -> None:
        """Rebuild on every batch of changes until ``stop`` is set (runs in its own thread).

        ``ready`` is set at the first (empty) yield, once the file system watches are in place: a save
        made after the preview announces itself is never missed."""
        from watchfiles import watch

        for changes in watch(
            *self.watched(),
            watch_filter=lambda _change, path: self.wanted(path),
            stop_event=stop,
            debounce=100,
            step=50,
            rust_timeout=100,
            yield_on_timeout=True,
        ):
            ready.set()
            if changes:
                self.rebuild([path for _change, path in changes])


def error_page(errors: Iterable[str], generation: int) -> str:
    """The page every HTML request gets while the course fails its check."""
    items = "\n".join(f"<li><code>{html.escape(e)}</code></li>" for e in errors)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>damas: the course has errors</title>\n"
        "<style>body{font-family:sans-serif;margin:2rem;max-width:60rem}code{white-space:pre-wrap}"
        "li{margin:.4rem 0}h1{color:#8a1c1c}</style>\n"
        f"</head>\n<body>\n<h1>The course has errors</h1>\n<p>Fix them and save: this page reloads.</p>\n"
        f'<ul id="damas-errors">\n{items}\n</ul>\n{tag(generation)}\n</body>\n</html>\n'
    )


def inject(page: str, generation: int) -> str:
    """The served copy of a page: the reload script before ``</body>`` (or at the end)."""
    at = page.rfind("</body>")
    return page + tag(generation) if at < 0 else page[:at] + tag(generation) + "\n" + page[at:]


class Handler(BaseHTTPRequestHandler):
    """Answers from the preview's files in memory (the subclass made by :func:`handler_for` says which
    preview, and the port the ``Host`` header must name)."""

    preview: Preview
    port: Callable[[], int]

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal shows rebuilds and errors, not every request

    def handle(self) -> None:
        try:
            super().handle()
        except DROPPED:
            self.close_connection = True  # the browser went away: nothing to say about it

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if not self._host_ok():
            self._send(HTTPStatus.FORBIDDEN, b"damas serve answers only to 127.0.0.1\n", "text/plain")
            return
        path = unquote(urlsplit(self.path).path)
        if path == EVENTS:
            self._events()
        elif path == SCRIPT:
            self._send(HTTPStatus.OK, RELOAD_JS.encode(), "text/javascript; charset=utf-8")
        else:
            self._file(path)

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        return host in {f"127.0.0.1:{self.port()}", f"localhost:{self.port()}"}

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _file(self, path: str) -> None:
        """A page (with the reload script, or the error page while the course fails), or a file."""
        name = normpath("/" + path + ("index.html" if path.endswith("/") else "")).lstrip("/")
        state = self.preview.state
        is_page = name.endswith(".html")
        if is_page and state.errors:
            page = error_page(state.errors, state.generation).encode()
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, page, "text/html; charset=utf-8")
            return
        body = state.files.get(name)
        if body is None and f"{name}/index.html" in state.files:
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if body is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        elif is_page:
            self._send(
                HTTPStatus.OK, inject(body.decode("utf-8"), state.generation).encode(), "text/html; charset=utf-8"
            )
        else:
            ctype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            self._send(HTTPStatus.OK, body, ctype + ("; charset=utf-8" if ctype.startswith("text/") else ""))

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        state = self.preview.state
        sent = -1

        def news() -> bool:
            return state.closing or state.generation != sent

        while True:
            with state.changed:
                state.changed.wait_for(news, timeout=15)
                if state.closing:
                    return
                current = state.generation
            self.wfile.write(f"data: {current}\n\n".encode() if current != sent else b": keep-alive\n\n")
            self.wfile.flush()
            sent = current


def handler_for(preview: Preview, port: Callable[[], int]) -> type[Handler]:
    """The request handler of one preview."""
    return type("PreviewHandler", (Handler,), {"preview": preview, "port": staticmethod(port)})


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> None:
    """``kill`` (SIGTERM) stops the preview as Ctrl-C does, so the temporary folder goes too."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A dropped connection is no error (nothing printed); anything else is reported as usual."""
        import sys

        if isinstance(sys.exc_info()[1], DROPPED):
            return
        super().handle_error(request, client_address)


def serve(folder: str | None, port: int, log: Callable[[str], None] = print) -> None:
    """Build, serve and watch until interrupted (Ctrl-C); nothing is left on disk.

    Raises:
        NoCourse, CourseError: when there is no course (before anything is served).
        OSError: when the port cannot be bound.
    """
    preview = Preview(folder, log)
    _stop_on_sigterm()
    stop = threading.Event()
    server: Server | None = None
    watcher: threading.Thread | None = None
    try:
        server = Server((HOST, port), handler_for(preview, lambda: server.server_address[1] if server else port))
        preview.rebuild()
        ready = threading.Event()
        watcher = threading.Thread(target=preview.watch, args=(stop, ready), name="damas-watch", daemon=True)
        watcher.start()
        ready.wait(timeout=10)
        log(f"serving {preview.course.title} at http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)")
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        preview.state.close()
        if server is not None:
            server.server_close()
        if watcher is not None:
            watcher.join(timeout=5)
