"""``damas serve``: a live preview of the course on 127.0.0.1, rebuilt on every save.

The HTML is built into a temporary folder with the same :func:`generator.build.build` as ``damas build``
(HTML only), served by the standard library's HTTP server, and rebuilt whenever a lesson, a template or
``course.yaml`` changes (``watchfiles``).  Open pages reload themselves through server-sent events: the
served copy of each page gets one ``<script>`` tag pointing at a tiny local script; the files on disk,
like ``damas build``'s output, never contain it.  While a lesson fails its check, every page answers
with the errors (``file:line:col``, escaped) instead of stale content; the next good save brings the
pages back.

Only loopback is served, and requests whose ``Host`` header names anything else are refused, so a web
page elsewhere cannot reach the preview through DNS rebinding.
"""

from __future__ import annotations

import html
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
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


def tag(generation: int) -> str:
    """The one line a served page gains: the reload script, told which build the page shows."""
    return f'<script src="{SCRIPT}" data-generation="{generation}"></script>'


WATCHED_SUFFIXES = {".yaml", ".yml", ".j2", ".css", ".typ", ".json"}


@dataclass
class State:
    """The latest build: a generation number that changes on every rebuild, and its errors (if any)."""

    generation: int = 0
    errors: list[str] = field(default_factory=list)
    summary: str = ""
    changed: threading.Condition = field(default_factory=threading.Condition)
    closing: bool = False

    def publish(self, errors: list[str], summary: str) -> None:
        with self.changed:
            self.generation += 1
            self.errors = errors
            self.summary = summary
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()


class Preview:
    """The temporary site, its rebuilds, and the state the request handler reads."""

    def __init__(self, folder: str | None, log: Callable[[str], None] = print) -> None:
        self.folder = folder
        self.log = log
        self.course: Course = find_course(folder)
        self.tmp = Path(tempfile.mkdtemp(prefix="damas-serve-"))
        self.site = self.tmp / "site"
        self.state = State()
        self.lock = threading.Lock()
        """Held while a build replaces the site, so no request reads a half-swapped folder."""

    @property
    def root(self) -> Path:
        return self.site / "html"

    def rebuild(self) -> None:
        """Build the HTML; on failure keep the errors (the pages show them) and the old files aside."""
        from .build import BuildRefused, build

        started = time.perf_counter()
        errors: list[str] = []
        summary = ""
        with self.lock:
            try:
                self.course = find_course(self.folder)
                summary = str(build(self.site, course=self.course, formats=("html",), incremental=False))
            except BuildRefused as exc:
                errors = [str(e) for e in exc.report.errors]
            except CourseError as exc:
                errors = [str(e) for e in exc.errors]
            except DamasError as exc:
                errors = [str(exc)]
        seconds = time.perf_counter() - started
        self.state.publish(errors, summary)
        if errors:
            self.log(f"{len(errors)} error(s); the pages show them until the next good save ({seconds:.1f} s)")
            for line in errors:
                self.log(f"  {line}")
        else:
            self.log(f"rebuilt in {seconds:.1f} s")

    def watched(self) -> list[Path]:
        roots = [self.course.lessons, templates_dir()]
        if self.course.source is not None:
            roots.append(self.course.source.parent)
        return [p for p in roots if p.exists()]

    def wanted(self, path: str) -> bool:
        """Changes that call for a rebuild: lessons, templates, course.yaml (never the output)."""
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
            debounce=200,
            step=50,
            rust_timeout=100,
            yield_on_timeout=True,
        ):
            ready.set()
            if changes:
                self.rebuild()

    def cleanup(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


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


def handler_for(preview: Preview, port: Callable[[], int]) -> type[SimpleHTTPRequestHandler]:
    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(preview.root), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the terminal shows rebuilds and errors, not every request

        def _host_ok(self) -> bool:
            host = (self.headers.get("Host") or "").strip().lower()
            return host in {f"127.0.0.1:{port()}", f"localhost:{port()}"}

        def _send(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_HEAD(self) -> None:
            self.do_GET()

        def do_GET(self) -> None:
            if not self._host_ok():
                self._send(HTTPStatus.FORBIDDEN, b"damas serve answers only to 127.0.0.1\n", "text/plain")
                return
            path = unquote(urlsplit(self.path).path)
            if path == EVENTS:
                self._events()
                return
            if path == SCRIPT:
                self._send(HTTPStatus.OK, RELOAD_JS.encode(), "text/javascript; charset=utf-8")
                return
            is_page = path.endswith((".html", "/"))
            state = preview.state
            if is_page and state.errors:
                page = error_page(state.errors, state.generation).encode()
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, page, "text/html; charset=utf-8")
                return
            with preview.lock:
                if is_page:
                    file = Path(self.translate_path(path + ("index.html" if path.endswith("/") else "")))
                    if file.is_file():
                        page = inject(file.read_text(encoding="utf-8"), state.generation).encode()
                        self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
                        return
                super().do_GET()

        def _events(self) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            state = preview.state
            sent = -1
            try:
                while True:
                    with state.changed:
                        state.changed.wait_for(
                            lambda s=sent: state.closing or state.generation != s,  # type: ignore[misc]  # mypy cannot infer a lambda with a default argument
                            timeout=15,
                        )
                        if state.closing:
                            return
                        current = state.generation
                    if current != sent:
                        self.wfile.write(f"data: {current}\n\n".encode())
                        sent = current
                    else:
                        self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _stop_on_sigterm() -> None:
    """``kill`` (SIGTERM) stops the preview as Ctrl-C does, so the temporary folder goes too."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(folder: str | None, port: int, log: Callable[[str], None] = print) -> None:
    """Build, serve and watch until interrupted (Ctrl-C); the temporary folder is always removed.

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
        log(f"preview files in {preview.tmp}")
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        preview.state.close()
        if server is not None:
            server.server_close()
        if watcher is not None:
            watcher.join(timeout=5)
        preview.cleanup()
