"""Ending claims of lessons: "the side to move wins (in N moves) / draws / loses", checked against
the tables and then against the variant's draw rules.

The tables know no move-count rule: a table win is a win in a game without draw rules.  A real game
has them (``generator/rules/draws.py``): the Brazilian 20 king moves each, FMJD's 16 moves of three
pieces against a lone king, WCDF's 40 moves without a man move...  A claim combines the two:

* a **draw** in the tables is a draw under any rules (draw rules only ever add draws);
* a **win** (or a **loss**, the opponent's win) in ``d`` plies stands under the rules when no rule
  can reach its limit before the last ply: for every rule, its present count (from the diagram's
  counters; 0 for a rule not yet counting, whose count would start at 0 later) plus ``d`` is at most
  its limit.  Against best defence the winner's distance falls by one every ply, so no position
  repeats, and no count can grow faster than one a ply: the table's line then ends the game before
  any draw rule.  A win that does not fit is refused with the rule that may end it first: the
  claim is then beyond what the tables prove, and the lesson should show a line instead (a rule
  that resets on a man move or a capture might still let the win through, which the check does not
  try to prove).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules.draws import EndgameLimit, MoveLimit
from ..rules.game import Game
from ..rules.geometry import COLOR_NAMES
from ..rules.notation import line_text
from .probe import Probe, Value, probe_position
from .tables import EndgameError, Tables

ENDINGS = ("win", "draw", "loss")

PIECES_FOR_CLAIMS_8X8 = 5
PIECES_FOR_CLAIMS_LARGER = 4
"""The most pieces an ending claim may have: what a laptop builds in minutes (docs/endgames.md)."""


def claim_limit(tables: Tables) -> int:
    """How many pieces an ending claim may have on this board (by its number of squares)."""
    return PIECES_FOR_CLAIMS_8X8 if tables.board.size <= 32 else PIECES_FOR_CLAIMS_LARGER


@dataclass(frozen=True)
class Limit:
    """A draw rule that may end the game before the tables' result."""

    rule: str
    reason: str
    count: int
    plies: int


def first_limit(game: Game, plies: int) -> Limit | None:
    """The first draw rule of the game's profile that a game of ``plies`` more plies could reach
    before its last ply (None: no rule can interfere)."""
    counters = game.counters
    for rule in game.profile.rules:
        if isinstance(rule, MoveLimit):
            count = counters.quiet if rule.counter == "H" else counters.balance
        elif isinstance(rule, EndgameLimit):
            active = rule.condition(game.position) is not None
            count = dict(counters.endgame_rules).get(rule.id, counters.endgame) if active else 0
        else:
            continue  # repetition: the winner's distance falls every ply, no position repeats
        if count + plies > rule.plies:
            return Limit(rule.id, rule.reason, count, rule.plies)
    return None


def _line(tables: Tables, probe: Probe) -> str:
    line = probe.line(tables)
    return line_text(probe.position, line) if line else "(no move)"


def describe(probe: Probe) -> str:
    """``white (to move) wins in 17 moves (33 plies)``: the tables' value in words."""
    side = COLOR_NAMES[probe.position.turn]
    v = probe.value
    if v.plies is None:
        return f"{side} (to move) draws"
    verb = "wins" if v.result == "win" else "loses"
    return f"{side} (to move) {verb} in {v.moves} moves ({v.plies} plies)"


def check_ending(
    game: Game, claimed: str, wins_in: int | None, tables_for: Callable[[Game], Tables]
) -> tuple[str, str] | None:
    """``(claim key at fault, message)`` for an ending claim on the game's position, or None when
    it holds.

    ``claimed`` is ``win``, ``draw`` or ``loss`` for the side to move; ``wins_in`` the number of
    moves of the side to move (its last move ends the game) with ``win``.
    """
    tables = tables_for(game)
    pos = game.position
    pieces = (pos.white | pos.black).bit_count()
    if pieces > claim_limit(tables):
        most = claim_limit(tables)
        return "ending", f"ending claims need at most {most} pieces on this board; the diagram has {pieces}"
    try:
        probe = probe_position(tables, pos)
    except EndgameError as exc:
        return "ending", str(exc)
    value: Value = probe.value
    if value.result != claimed:
        return "ending", f"claimed {claimed}, but the endgame tables say {describe(probe)}: {_line(tables, probe)}"
    if wins_in is not None and value.moves != wins_in:
        return "wins_in", (
            f"claimed a win in {wins_in} moves, but against best defence it takes {value.moves} "
            f"({value.plies} plies): {_line(tables, probe)}"
        )
    if value.plies is not None:
        limit = first_limit(game, value.plies)
        if limit is not None:
            return "ending", (
                f"the tables' {value.result} takes {value.plies} plies, but draw rule {limit.rule} ({limit.reason}; "
                f"{limit.count} of {limit.plies} plies counted) may end the game first; show the ending with a line"
            )
    return None
