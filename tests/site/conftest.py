"""Fixtures for the build tests: a lesson tree in a tmp folder, one built course (HTML + PDF) shared by
the read-only tests, and a headless Chromium driven by Playwright (skipped when either is absent)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import TIMINGS, Built, write_course


@pytest.fixture
def lessons_dir(tmp_path: Path) -> Path:
    """A fresh copy of the three fixture lessons, for tests that build (and may break) their own."""
    return write_course(tmp_path / "lessons")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The fixture course built once, HTML and PDF; tests must not modify it."""
    from generator.build import build

    base = tmp_path_factory.mktemp("course")
    lessons = write_course(base / "lessons")
    out = base / "output"
    started = time.perf_counter()
    summary = build(out, lessons=[lessons], formats=["html", "pdf"], jobs=1)
    seconds = time.perf_counter() - started
    TIMINGS.append(f"full build, 3 lessons / 2 variants, html+pdf, jobs=1: {seconds:.2f} s ({summary})")
    return Built(out, lessons, summary, seconds)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TIMINGS:
        terminalreporter.write_sep("-", "damas build timings (noted, not asserted)")
        for line in TIMINGS:
            terminalreporter.write_line(line)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 1400})
    try:
        yield context.new_page()
    finally:
        context.close()
