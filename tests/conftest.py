"""Shared test configuration.

Hypothesis profiles: ``dev`` (the default on a workstation) draws fresh random examples on every
run; ``ci`` (chosen automatically when the ``CI`` environment variable is set, or with
``HYPOTHESIS_PROFILE=ci``) is derandomized, so a CI run is reproducible and cannot fail on one
commit and pass on the next by luck.  Both keep ``deadline=None``: a generated position with many
flying kings can take a few milliseconds, which is not a bug.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from .site.helpers import CHROMIUM_ARGS, chromium_path

settings.register_profile(
    "dev",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# How the README's test command spreads the tests over the cores (pytest-xdist, ``-n auto`` in pyproject's
# addopts).  A unit of work runs on one worker: the tests of every file that uses ``bundled_build`` (or the
# run's proof cache, ``shared_cache``, filled by that build) form one unit, so the bundled course is built
# and proven once per run and not once per worker; a file that defines a module-scoped fixture is one unit,
# so its fixture is made once; any other test is a unit of its own, run wherever a worker is free.  The
# units of the bundled course go first and the long units before the single tests, so the long ones start
# at once and the short ones fill the gaps at the end.  The units are read from the test files' text (the
# xdist controller sees node ids only, no fixtures); a test that reaches the bundled build in another way
# fails (pytest_runtest_setup).
SHARED_RUN_FIXTURES = ("bundled_build", "shared_cache")
BUNDLED_UNIT = "bundled-course"
MODULE_FIXTURE = re.compile(r"""scope\s*=\s*["'](?:module|package|class)["']""")


@cache
def _unit_kind(path: Path) -> int:
    """0: the file shares the bundled course; 1: it has a module-scoped fixture; 2: neither."""
    text = path.read_text(encoding="utf-8") if path.suffix == ".py" and path.is_file() else ""
    if any(name in text for name in SHARED_RUN_FIXTURES):
        return 0
    return 1 if MODULE_FIXTURE.search(text) else 2


def _unit(root: Path, nodeid: str) -> str:
    """The unit of work of a test (see above): the bundled course, its file, or itself."""
    file = nodeid.split("::", 1)[0]
    kind = _unit_kind(root / file)
    return BUNDLED_UNIT if kind == 0 else file if kind == 1 else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The scheduler of ``--dist load`` (pyproject addopts), sending the units above in collection order."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    root = config.rootpath

    class UnitScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _unit(root, nodeid)

    config.option.loadscopereorder = False  # keep the order pytest_collection_modifyitems gives
    return UnitScheduling(config, log)


@pytest.hookimpl(tryfirst=True)  # before the fixtures are set up: the course is not built for nothing
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that reaches the bundled build through a fixture of another name would be scheduled away
    from the others and build the course a second time: it fails, saying where to name it."""
    if "bundled_build" in getattr(item, "fixturenames", ()) and _unit_kind(item.path) != 0:
        pytest.fail(
            f"{item.nodeid} uses bundled_build but its file never names it: name bundled_build (or "
            f"shared_cache) in {item.path.name} so tests/conftest.py runs it on the worker that builds it",
            pytrace=False,
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The bundled course's tests first, then the files of module-scoped fixtures, then the rest."""
    items.sort(key=lambda item: _unit_kind(item.path))


@pytest.fixture(scope="session", autouse=True)
def _isolated_proof_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test runs with its own run's proof cache (generator/cache.py), never the developer's:
    a cache left by another checkout or an older solver can never make a test pass.  It is shared
    within the run's process (each pytest-xdist worker has its own, under its own base temp folder), as
    a course's builds share it: the tests that check or build the bundled course run on one worker (see
    the units above), so it is proven once per run, however many tests check or build it (hit == cold
    is tested in tests/lessons/test_proof_cache.py)."""
    root = tmp_path_factory.mktemp("damas-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DAMAS_CACHE_DIR", str(root))
        yield root


@pytest.fixture(scope="session")
def shared_cache(_isolated_proof_cache: Path) -> Any:
    """The run's proof cache as an object, for tests that check the whole bundled course with the
    library API (``with use(shared_cache): check_paths(...)``)."""
    from generator.cache import Cache

    return Cache(_isolated_proof_cache)


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own course (lessons/) built once per run, HTML and PDF; tests must not modify
    it.  Every test that reads the bundled course's output shares this one build."""
    from generator.build import build

    out = tmp_path_factory.mktemp("bundled") / "output"
    build(out, lessons=[Path(__file__).resolve().parents[1] / "lessons"], formats=["html", "pdf"], jobs=1)
    return out


# One browser for the whole run: Playwright's sync API allows one running instance per thread, so every test
# that drives chromium (tests/site, tests/install) shares this one.
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium through PyPI playwright; never downloads a browser."""
    exe = chromium_path()
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
