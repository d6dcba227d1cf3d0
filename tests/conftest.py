"""Shared test configuration.

Hypothesis profiles: ``dev`` (the default on a workstation) draws fresh random examples on every
run; ``ci`` (chosen automatically when the ``CI`` environment variable is set, or with
``HYPOTHESIS_PROFILE=ci``) is derandomized, so a CI run is reproducible and cannot fail on one
commit and pass on the next by luck.  Both keep ``deadline=None``: a generated position with many
flying kings can take a few milliseconds, which is not a bug.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
