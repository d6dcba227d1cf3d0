"""Endgame tables at the solver's leaves: what a table value says about "force a win within N plies".

The searches of search.py and dfpn.py ask one question of a node: can the attacker force the goal
within ``plies`` (plus the quiescence past the bound, :data:`~generator.puzzles.search.QUIESCENCE_PLIES`)?
For the ``win`` goal (the defender left without a move; inverted in losing games) a table that
holds the position answers most of it, because the tables' game is the search's game (no draw
rule, the same end) and their distance is the search's measure (plies to the end of the game
under optimal play, docs/endgames.md):

* the attacker wins in ``d`` plies (the table's distance): forced within every bound ``plies >= d``;
  and not within any bound ``plies <= d - QUIESCENCE_PLIES - 1``, since a proof within ``plies``
  ends every line within ``plies + QUIESCENCE_PLIES`` plies.  In between, the quiescence may or may
  not reach the end: the search goes on there (its children are answered by the table in turn);
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
            return distance, distance - quiescence - 1
        return NEVER, NEVER

    return leaf


def endgame_key(variant: Variant, goal: str) -> str:
    """What a proof of ``goal`` owes to the endgame tables, for a proof cache's key: the stored
    slices' fingerprint for the ``win`` goal (a proof holds with or without them, but a search
    that ran out of budget might not have with more tables), "none" for the goals they do not answer."""
    if goal.strip().lower() != "win":
        return "none"
    from ..endgame.leaves import stored_tables

    return stored_tables(variant).fingerprint()
