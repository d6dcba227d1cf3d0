"""Endgame tables at the solver's leaves: what a table value says about "force a win within N plies".

The searches of search.py and dfpn.py ask one question of a node: can the attacker force the goal
within ``plies`` (plus the quiescence past the bound, :data:`~generator.puzzles.search.QUIESCENCE_PLIES`)?
For the ``win`` goal (the defender left without a move; inverted in losing games) a table that
holds the position answers most of it, because the tables' game is the search's game (no draw
rule, the same end) and their distance is the search's measure (plies to the end of the game
under optimal play, docs/endgames.md):

* the attacker wins in ``d`` plies (the table's distance): forced within every bound ``plies >= d``
  (``d`` is 0 only where the game is over, which every bound accepts); and not forced within a
  bound whose longest line is shorter than ``d``.  Past the bound (``plies <= 0``) the search
  follows only captures (they are compulsory: a node with a capture has nothing else), down to
  ``-QUIESCENCE_PLIES``; each takes at least one piece and the game is over when a side has none.
  So from ``n`` pieces a line is at most ``plies + e`` plies long with ``e = min(QUIESCENCE_PLIES,
  n - 1)`` when ``plies > 0``, and at most ``min(plies + QUIESCENCE_PLIES, n - 1)`` when
  ``plies <= 0``: :func:`refuted_below` turns that round.  In between (a window of about ``e``
  plies) the quiescence may or may not reach the end: the search goes on there, its children
  answered by the table in turn;
* the table says draw, or a win for the defender: the attacker cannot force the end at all, so no
  bound is enough.

A node's answer is the pair (fewest plies known to force, most plies known not to): the form of the
searches' own transposition tables, which the answer is merged into.  Goals the table does not
answer (``gain:N``, ``promote``, ``draw``) get no leaf function and search as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..endgame.leaves import StoredTables
from ..endgame.retro import LOSS, WIN

if TYPE_CHECKING:
    from ..rules.variants import Variant

NEVER = 1 << 30
"""As search.py's ``_NEVER``: a bound no search reaches."""

LeafFunction = Callable[[int, int, int, int], "tuple[int, int] | None"]
"""``leaf(white, black, kings, turn)`` -> (proven at, refuted at), or None (no table holds it)."""


def win_leaf(tables: StoredTables, attacker: int, quiescence: int) -> LeafFunction:
    """The leaf function of the ``win`` goal for ``attacker`` (0 White, 1 Black)."""
    lookup = tables.lookup

    def leaf(white: int, black: int, kings: int, turn: int) -> tuple[int, int] | None:
        got = lookup(white, black, kings, turn)
        if got is None:
            return None
        result, distance = got
        if result == (WIN if turn == attacker else LOSS):
            return (distance if distance else -NEVER), refuted_below(distance, (white | black).bit_count(), quiescence)
        return NEVER, NEVER

    return leaf


def refuted_below(distance: int, pieces: int, quiescence: int) -> int:
    """The most plies within which a win in ``distance`` plies from ``pieces`` pieces cannot be
    forced: the largest bound whose longest line (the bound, then captures only) is shorter than
    ``distance``; ``-NEVER`` for a game already over (forced within any bound)."""
    extension = min(quiescence, pieces - 1)
    if distance > extension:  # beyond even the bound 0's captures: plies + extension < distance
        return distance - extension - 1
    if distance > 0:  # below the bound: min(plies + quiescence, pieces - 1) < distance
        return distance - quiescence - 1
    return -NEVER


def endgame_key(variant: Variant, goal: str) -> str:
    """What a proof of ``goal`` owes to the endgame tables, for a proof cache's key: the stored
    slices' fingerprint for the ``win`` goal (a proof holds with or without them, but a search
    that ran out of budget might not have with more tables), "none" for the goals they do not answer."""
    if goal.strip().lower() != "win":
        return "none"
    from ..endgame.leaves import stored_tables

    return stored_tables(variant).fingerprint()
