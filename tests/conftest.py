"""Shared test configuration.

Hypothesis profiles: ``dev`` (the default on a workstation) draws fresh random examples on every
run; ``ci`` (chosen automatically when the ``CI`` environment variable is set, or with
``HYPOTHESIS_PROFILE=ci``) is derandomized, so a CI run is reproducible and cannot fail on one
commit and pass on the next by luck.  Both keep ``deadline=None``: a generated position with many
flying kings can take a few milliseconds, which is not a bug.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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


@pytest.fixture(scope="session", autouse=True)
def _isolated_proof_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every test runs with its own run's proof cache (generator/cache.py), never the developer's:
    a cache left by another checkout or an older solver can never make a test pass.  It is shared
    within the run, as a course's builds share it: the bundled course is proven once per run, however
    many tests check or build it (hit == cold is tested in tests/lessons/test_proof_cache.py)."""
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
