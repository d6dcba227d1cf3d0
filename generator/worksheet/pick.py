"""Which puzzles a worksheet prints: the filters (themes, levels) and the seeded choice.

The choice is a function of the candidates and the seed only: candidates are put in a stable order
(lesson file, then puzzle id) before :class:`random.Random` (seeded) samples them, so the same
course and the same seed give the same sheet on every machine and every run.  The sheet prints
them easiest first, as the books do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import DamasError
from ..limits import NumberError, whole
from .gather import Candidate

DEFAULT_COUNT = 12
"""A class's worth of puzzles when ``--count`` is not given."""


class NotEnough(DamasError):
    """The filters leave fewer puzzles than asked for."""


@dataclass(frozen=True)
class Filters:
    themes: tuple[str, ...] = ()
    """Canonical tags; a puzzle matches with any one of them (none given: every theme)."""
    levels: tuple[int, int] | None = None
    """Lowest and highest level, both included (None: every level)."""
    count: int = DEFAULT_COUNT
    seed: int = 0
    exact: bool = False
    """``count`` was asked for: fewer matches is an error (otherwise the sheet takes what there is)."""

    def describe(self) -> str:
        """The filters in a message: ``theme golpe de dama, levels 2-3``."""
        parts = []
        if self.themes:
            parts.append(("theme " if len(self.themes) == 1 else "themes ") + " or ".join(self.themes))
        if self.levels is not None:
            low, high = self.levels
            parts.append(f"level {low}" if low == high else f"levels {low}-{high}")
        return ", ".join(parts) or "no filter"


def parse_levels(text: str) -> tuple[int, int]:
    """``3`` -> (3, 3); ``2-3`` -> (2, 3); levels are 1 to 5.

    Raises:
        ValueError: with the reason, for anything else.
    """
    low, sep, high = text.strip().partition("-")
    try:  # ASCII digits within 1 to 5 (int() would take "٣" and thousands of digits)
        a = whole(low.strip(), "level")
        b = whole(high.strip(), "level") if sep else a
    except NumberError as exc:
        if "out of range" in str(exc):
            raise ValueError(f"'{text}': levels go from 1 (very easy) to 5 (very hard), the lower first") from None
        raise ValueError(f"'{text}' is not a level or a range of levels (e.g. 3 or 2-3)") from None
    if not (1 <= a <= 5 and 1 <= b <= 5) or a > b:
        raise ValueError(f"'{text}': levels go from 1 (very easy) to 5 (very hard), the lower first")
    return a, b


def matches(candidate: Candidate, filters: Filters) -> bool:
    if filters.themes and not candidate.tags & set(filters.themes):
        return False
    if filters.levels is not None:
        level = candidate.item.difficulty or 0
        return filters.levels[0] <= level <= filters.levels[1]
    return True


def pick(candidates: Sequence[Candidate], filters: Filters) -> list[Candidate]:
    """``filters.count`` puzzles (fewer when the count was not asked for and fewer match), easiest first.

    Raises:
        NotEnough: when fewer than the asked count match (saying how many do), or none at all.
    """
    pool = sorted((c for c in candidates if matches(c, filters)), key=lambda c: c.key)
    if not pool or (filters.exact and len(pool) < filters.count):
        raise NotEnough(_not_enough(candidates, pool, filters))
    chosen = random.Random(filters.seed).sample(pool, min(filters.count, len(pool)))
    order = {c.key: i for i, c in enumerate(pool)}
    return sorted(chosen, key=lambda c: (c.item.difficulty or 0, order[c.key]))


def _not_enough(candidates: Sequence[Candidate], pool: list[Candidate], filters: Filters) -> str:
    what = f"{len(pool)} puzzle{'' if len(pool) == 1 else 's'} match{'es' if len(pool) == 1 else ''}"
    head = f"only {what} ({filters.describe()}) of {len(candidates)}; asked for {filters.count}"
    if not pool and filters.themes:
        known = sorted({t for c in candidates for t in c.tags})
        head += f"; the themes found are: {', '.join(known) if known else 'none'}"
    return head
