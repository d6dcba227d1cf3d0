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
