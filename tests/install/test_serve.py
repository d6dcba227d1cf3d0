"""``damas serve``: a real preview process, driven over HTTP and in Debian's chromium.

The process is started as a user would (``python -m generator serve DIR --port 0``), its address read
from its first lines, and stopped with SIGINT (Ctrl-C); it runs with its own empty ``TMPDIR``, which
must hold nothing afterwards (the preview keeps the site in memory).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from generator.rules import VARIANTS
from generator.scaffold import Starter, write_starter
from generator.serve import error_page, inject

from ..site.helpers import chromium_path

LESSON = Path("lessons/american/rules.yaml")


@dataclass
class Running:
    proc: subprocess.Popen[str]
    port: int
    tmp: Path
    """The process's TMPDIR."""
    course: Path
    lines: list[str]

    def get(self, path: str, host: str | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", path, headers={"Host": host or f"127.0.0.1:{self.port}"})
        response = conn.getresponse()
        body = response.read().decode("utf-8")
        conn.close()
        return response.status, body

    def edit(self, old: str, new: str) -> None:
        file = self.course / LESSON
        text = file.read_text("utf-8")
        assert old in text
        file.write_text(text.replace(old, new), "utf-8")

    def wait_for(self, path: str, needle: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        body, status = "", 0
        while time.monotonic() < deadline:
            status, body = self.get(path)
            if needle in body:
                return body
            time.sleep(0.1)
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=15)
        said = f"server said:\n{out}\nlast body ({status}):\n{body[:500]}"
        raise AssertionError(f"{needle!r} never appeared in {path}; {said}")


def start(tmp_path: Path, course: Path, wait: bool = True) -> Running:
    """``damas serve COURSE --port 0`` with its own TMPDIR; with ``wait``, once it says where it serves."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir(exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", str(course), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp)},
    )
    lines: list[str] = []
    port = 0
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while wait and not port and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if m := re.search(r"at http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
    if wait and not port:
        proc.kill()
        pytest.fail(f"damas serve did not start: {lines}")
    return Running(proc, port, tmp, course, lines)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    course = tmp_path / "course"
    write_starter(course, Starter(variants=(VARIANTS["american"],), language="en", title="Preview course"))
    run = start(tmp_path, course)
    try:
        yield run
    finally:
        if run.proc.poll() is None:
            run.proc.send_signal(signal.SIGINT)
            try:
                run.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                run.proc.kill()


def stop(run: Running) -> str:
    run.proc.send_signal(signal.SIGINT)
    out, _ = run.proc.communicate(timeout=15)
    return out


def test_inject_adds_one_script_before_body_end() -> None:
    page = "<html><body><p>x</p></body></html>"
    served = inject(page, 7)
    assert served.count("<script") == 1
    assert served.index("/__damas__/reload.js") < served.index("</body>")
    assert 'data-generation="7"' in served


def test_error_page_escapes_messages() -> None:
    page = error_page(["a.yaml:3:5: unknown key '<script>alert(1)</script>'"], 2)
    assert "<script>alert(1)" not in page
    assert "a.yaml:3:5: unknown key &#x27;&lt;script&gt;alert(1)&lt;/script&gt;&#x27;" in page
    assert page.count("<script") == 1  # only the reload script


def test_serves_pages_on_loopback_and_cleans_up(running: Running) -> None:
    status, body = running.get("/")
    assert status == 200 and "<title>Preview course</title>" in body
    assert body.count("/__damas__/reload.js") == 1
    status, script = running.get("/__damas__/reload.js")
    assert status == 200 and "EventSource" in script
    status, _ = running.get("/american/rules.html", host="attacker.example:80")
    assert status == 403, "requests for another host name are refused (DNS rebinding)"
    out = stop(running)
    assert running.proc.returncode == 0, out
    assert "stopped" in out and "Traceback" not in out
    assert list(running.tmp.iterdir()) == [], "the preview leaves nothing in the temporary folder"


def test_rebuilds_on_save_and_shows_errors(running: Running) -> None:
    page = "/american/rules.html"
    running.edit("title: Getting started", "title: First steps")
    running.wait_for(page, "First steps")
    running.edit('"9-13", ', "")
    body = running.wait_for(page, "damas-errors")
    assert re.search(r"lessons/american/rules\.yaml:\d+:\d+: claimed exactly 6 legal move\(s\)", body), body
    status, home = running.get("/")
    assert status == 500 and "damas-errors" in home, "every page shows the errors, not stale content"
    running.edit('moves: ["9-14"', 'moves: ["9-13", "9-14"')
    running.wait_for(page, "First steps")
    stop(running)


@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (apt-get install -y chromium)")
def test_browser_follows_edits(running: Running, browser: Any) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    page: Any = browser.new_page()  # the session's browser (tests/conftest.py)
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith("http://127.0.0.1") else outside.append(r.url))
    page.goto(f"http://127.0.0.1:{running.port}/american/rules.html")
    expect = sync_api.expect
    expect(page.locator("h1")).to_contain_text("Getting started")
    running.edit("title: Getting started", "title: Opening moves")
    expect(page.locator("h1")).to_contain_text("Opening moves", timeout=20_000)
    running.edit('"9-13", ', "")
    errors = page.locator("#damas-errors")
    expect(errors).to_contain_text("lessons/american/rules.yaml:", timeout=20_000)
    expect(errors).to_contain_text("claimed exactly 6 legal move(s)")
    running.edit('moves: ["9-14"', 'moves: ["9-13", "9-14"')
    expect(page.locator("h1")).to_contain_text("Opening moves", timeout=20_000)
    expect(page.locator("#damas-errors")).to_have_count(0)
    assert outside == []
    page.close()
    stop(running)
    assert list(running.tmp.iterdir()) == []


@pytest.mark.parametrize("after", [0.0, 0.5, 1.5, "rebuild"])
def test_ctrl_c_at_any_moment_leaves_nothing(tmp_path: Path, after: float | str) -> None:
    """A real SIGINT while the first build runs, just after, and in the middle of a rebuild."""
    course = tmp_path / "course"
    write_starter(course, Starter(variants=(VARIANTS["american"],), language="en", title="Preview course"))
    run = start(tmp_path, course, wait=after == "rebuild")
    if after == "rebuild":
        run.edit("title: Getting started", "title: Interrupted")
        time.sleep(0.3)  # the watcher has seen the save: the rebuild is under way
    else:
        time.sleep(float(after))
    run.proc.send_signal(signal.SIGINT)
    out, _ = run.proc.communicate(timeout=30)
    assert list(run.tmp.iterdir()) == [], f"left behind: {list(run.tmp.iterdir())}"
    if after == "rebuild":  # (earlier, Ctrl-C may land in Python's own start-up, before damas runs)
        assert "Traceback" not in out and "stopped" in out, out


def test_dropped_connections_print_nothing(running: Running) -> None:
    """Clients that go away mid-request or mid-answer (a reload, a closed tab) are not errors."""
    import socket

    for request in (b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", b"GET /__damas__/events HTTP/1.1\r\n"):
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", running.port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.sendall(request.replace(b"%d", str(running.port).encode()))
            sock.close()  # with linger 0: a reset, before the answer is read
    listener = socket.create_connection(("127.0.0.1", running.port))
    listener.sendall(f"GET /__damas__/events HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n\r\n".encode())
    listener.settimeout(10)
    got = b""
    while b"data:" not in got:
        got += listener.recv(4096)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    listener.close()
    running.edit("title: Getting started", "title: After the drops")  # the event stream writes to a dead socket
    running.wait_for("/american/rules.html", "After the drops")
    out = stop(running)
    assert "Traceback" not in out and "Error" not in out and "Exception" not in out, out


def test_a_caption_edit_renders_only_the_pages_it_touches(tmp_path: Path) -> None:
    course = tmp_path / "course"
    both = (VARIANTS["american"], VARIANTS["brazilian"])
    write_starter(course, Starter(variants=both, language="en", title="Preview course"))
    run = start(tmp_path, course)
    try:
        run.edit("title: Getting started", "title: Only these")
        run.wait_for("/american/rules.html", "Only these")
    finally:
        out = stop(run)
    rebuilt = [line for line in [*run.lines, *out.splitlines()] if line.startswith("rebuilt in")]
    assert len(rebuilt) >= 2, out
    first, edit = (re.search(r"(\d+) of (\d+) page\(s\) rendered", line) for line in (rebuilt[0], rebuilt[-1]))
    assert first and edit, out
    assert int(first.group(1)) == int(first.group(2)) > int(edit.group(1)) > 0, out


def test_the_first_build_proves_ahead_on_every_cpu_and_later_ones_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Like ``damas build``, the preview's first build hands the course's proofs to worker processes
    (generator/lessons/ahead.py); a rebuild after an edit proves the few it needs in line."""
    import contextlib

    from generator import course as course_module
    from generator.lessons import ahead
    from generator.serve import Site

    folder = tmp_path / "course"
    write_starter(folder, Starter(variants=(VARIANTS["american"],), language="en", title="Ahead"))
    entered: list[list[str]] = []

    @contextlib.contextmanager
    def recording(files: list[Path], proof_budget: int | None = None, jobs: int | None = None) -> Iterator[None]:
        entered.append(sorted(p.name for p in files))
        yield

    monkeypatch.setattr(ahead, "proofs_ahead", recording)
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "cache"))
    site = Site()
    course = course_module.find_course(folder)
    errors, _, files = site.build(course)
    assert not errors and files
    lessons = sorted(p.name for p in (folder / "lessons").rglob("*.yaml"))
    assert lessons and entered == [lessons]
    site.build(course)
    assert len(entered) == 1, "a rebuild does not start workers"
