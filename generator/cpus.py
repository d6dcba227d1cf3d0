"""How many processes a build may start: never more than the CPUs this process may run on."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """CPUs this process may use (its affinity mask where the system has one), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
