"""perft: the number of leaf positions after exactly ``depth`` plies (docs/spec.md §1.10).

Draw rules are ignored and duplicate capture routes count once, which is the convention of the
published tables in docs/spec.md §13.  The last ply is counted in bulk, without building quiet moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .move import Move
from .position import Position


def perft(pos: Position, depth: int, *, all_paths: bool = False) -> int:
    """Leaf count of the move tree below ``pos``.

    ``all_paths=True`` counts every capture route as its own move (the "all paths" column of the
    published tables; the kish crate's Turkish figures are of that kind).
    """
    return pos.variant.generator.perft(*pos.state, depth, all_paths=all_paths)


def divide(pos: Position, depth: int, *, all_paths: bool = False) -> list[tuple[Move, int]]:
    """perft split by first move, for comparing against another engine move by move."""
    if depth < 1:
        raise ValueError("divide needs depth 1 or more")
    return [(m, perft(pos.play(m), depth - 1, all_paths=all_paths)) for m in first_moves(pos, all_paths=all_paths)]


@dataclass(frozen=True)
class Estimate:
    """What perft to ``depth`` plies should cost, extrapolated from the deepest run measured."""

    depth: int
    """The deepest depth actually counted."""
    leaves: int
    seconds: float
    """Wall-clock time of that count."""
    growth: float
    """Factor per further ply: the last ratio of leaf counts (time ratios of short runs are noise on
    a busy machine; the time per leaf stays within a factor of about 1.5 from one ply to the next)."""

    def at(self, depth: int) -> float:
        """Estimated seconds for ``depth`` plies."""
        return self.seconds * self.growth ** max(depth - self.depth, 0)


def estimate(pos: Position, depth: int, *, all_paths: bool = False, probe: float = 0.25) -> tuple[Estimate, int | None]:
    """Count depth 1, 2, ... while each count takes under ``probe`` seconds, and extrapolate.

    A depth limit per board size does not bound the time: a position of 14 flying kings branches
    many times more than the start.  Measuring the first plies does.  Returns the estimate and, when
    the probe itself reached ``depth``, the count (else None).  The probe costs at most a few times
    ``probe`` seconds.
    """
    measured: list[tuple[int, float]] = [(1, 0.0)]  # depth 0: one leaf, no time
    growth = 1.0
    d = 0
    while d < depth and measured[-1][1] * growth < 4 * probe:  # the next count's cost, foreseen
        d += 1
        started = time.perf_counter()
        leaves = perft(pos, d, all_paths=all_paths)
        measured.append((leaves, time.perf_counter() - started))
        (n0, _), (n1, t1) = measured[-2], measured[-1]
        growth = max(n1 / n0 if n0 else 1.0, 1.0)
        if t1 >= probe:
            break
    n1, t1 = measured[-1]
    found = Estimate(d, n1, t1, growth)
    return found, (n1 if d == depth else None)


def first_moves(pos: Position, *, all_paths: bool = False) -> list[Move]:
    """The first moves perft counts below (every capture route with ``all_paths``)."""
    if all_paths:
        return pos.sorted_moves(pos.variant.generator.moves(*pos.state, merge=False))
    return pos.legal_moves()
