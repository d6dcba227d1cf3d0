"""How hard a puzzle is to solve, measured by what a solver has to see, not by the line's length.

Three things make a combination hard to find, and each is measured on the proven puzzle:

* **how deep one must look** (``depth``): the shallowest search depth, in plies, at which the
  ``damas play`` engine (:class:`~generator.puzzles.engine.Engine`, the club player's eye) picks
  the key.  A shot the engine sees at 1 ply is visible at a
  glance; one it only finds at 7 plies asks the solver to calculate.  Capped at
  :data:`MAX_DEPTH` + 1 when the engine never settles on the key.
* **how many tempting first moves there are** (``tempting``): the other first moves that look as
  good as the key to a quick look (a 2-ply search scores them within :data:`TEMPTING_MARGIN` of
  the key's own quick score).  The proof refutes every one of them; the solver must too.
* **what the line hides** (``quiet`` and ``offers``): quiet attacker moves after the key (neither
  capturing nor offering: the hardest moves to see in a combination), and offers beyond the
  first.

The length of the line counts a little (``plies``: every forced reply must still be seen to the
end).  The score and the level::

    score = (depth - 1) / 2 + 0.5 * min(tempting, 4) + quiet + 0.5 * max(0, offers - 1)
            + 0.25 * max(0, plies - 3)
    level = 1 + (score >= 1.5) + (score >= 2.5) + (score >= 3.5) + (score >= 4.5)

and a puzzle the engine solves at 3 plies or fewer is at most level 4 (the test
``tests/mining/test_difficulty.py`` holds every bundled level-5 puzzle to it).  Documented in
``docs/mining.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.move import Move
from ..rules.position import Position
from .engine import Engine
from .line_facts import LineFacts

MAX_DEPTH = 9
"""The deepest engine search tried; a key not found by then counts as depth ``MAX_DEPTH + 1``."""
NODE_LIMIT = 200_000
"""Nodes per engine search (a search cut short answers with its last finished depth)."""
TEMPTING_MARGIN = 30
"""Hundredths of a man: a first move scored this close to the key by a 2-ply look is tempting."""
SHALLOW_CAP = 3
"""A key the engine finds at this depth or less is no level-5 puzzle: at most level 4."""
THRESHOLDS = (1.5, 2.5, 3.5, 4.5)
"""Score thresholds of levels 2 to 5 (chosen so that the bundled books spread over the five levels)."""


@dataclass(frozen=True)
class Measure:
    depth: int
    tempting: int
    quiet: int
    offers: int
    plies: int

    @property
    def score(self) -> float:
        return (
            (self.depth - 1) / 2
            + 0.5 * min(self.tempting, 4)
            + self.quiet
            + 0.5 * max(0, self.offers - 1)
            + 0.25 * max(0, self.plies - 3)
        )

    @property
    def level(self) -> int:
        level = 1 + sum(1 for t in THRESHOLDS if self.score >= t)
        return min(level, 4) if self.depth <= SHALLOW_CAP else level


def engine_depth(pos: Position, key: Move, max_depth: int = MAX_DEPTH) -> int:
    """The shallowest depth at which the engine plays ``key``: the first of one iterative
    deepening's answers that is ``key`` (the answer at depth d is a fresh ``search(pos, d)``'s).
    When the deepening stops early, every deeper search would give its last answer."""
    engine = Engine(pos.variant)
    for depth, found in enumerate(engine.deepening(pos, max_depth, node_limit=NODE_LIMIT), 1):
        if found.move == key:
            return depth
    return max_depth + 1


def tempting_moves(pos: Position, key: Move) -> int:
    """Other first moves that offer material (the opponent must capture next: every offer is a
    trail a solver looking for a shot follows), or that a 2-ply look scores within
    :data:`TEMPTING_MARGIN` of the key."""
    moves = pos.legal_moves()
    if len(moves) < 2:
        return 0
    engine = Engine(pos.variant)

    def quick(after: Position) -> int:
        engine.table.clear()
        return -engine.search(after, 2, node_limit=NODE_LIMIT).score

    base = quick(pos.play(key))
    count = 0
    for m in moves:
        if m == key:
            continue
        after = pos.play(m)
        offers = any(r.captures for r in after.legal_moves())
        if offers or quick(after) >= base - TEMPTING_MARGIN:
            count += 1
    return count


def measure(facts: LineFacts) -> Measure:
    """The three measures of a proven line (the attacker's first move is the key)."""
    key = facts.moves[0]
    return Measure(
        depth=engine_depth(facts.start, key),
        tempting=tempting_moves(facts.start, key),
        quiet=facts.quiet_moves,
        offers=facts.sacrifices,
        plies=len(facts.moves),
    )


def solving_level(start: Position, moves: list[Move]) -> int:
    """The level (1-5) of a proven line: what ``damas check`` records for a puzzle without an
    author's level."""
    return measure(LineFacts(start, tuple(moves))).level
