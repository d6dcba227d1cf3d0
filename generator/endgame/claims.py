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
  any draw rule.
* when that bound does not settle it (a rule that starts counting later, after a capture, may be
  shorter than the whole ending), a search decides: the winner plays only moves that keep the
  tables' fastest win, the defender every move, and the game (``generator/rules/game.py``) keeps
  the counters and applies the rules.  The win stands if every defence ends in the winner's
  favour; a defence that reaches a draw rule refutes the claim and is shown.  The winner's
  distance falls every ply, so the search is finite; it is also bounded by :data:`SEARCH_NODES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules.draws import EndgameLimit, MoveLimit
from ..rules.game import Game, Outcome
from ..rules.geometry import COLOR_NAMES
from ..rules.move import Move
from ..rules.notation import line_text
from .probe import Probe, Value, after_move, probe_position, value_of
from .tables import EndgameError, Tables

ENDINGS = ("win", "draw", "loss")

SEARCH_NODES = 400_000
"""Positions the draw-rule search may visit before it gives up (the claim is then refused)."""

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
    if value.plies is not None and first_limit(game, value.plies) is not None:
        holds, line = RuleSearch(tables, game).run()
        if not holds:
            shown = line_text(pos, line) if line else "(the search ran out of its budget)"
            return "ending", (
                f"the tables' {value.result} takes {value.plies} plies, but under the draw rules "
                f"({game.profile.name}) the game can end as a draw first: {shown}"
            )
    return None


class RuleSearch:
    """Does the tables' winner still win when the game's draw rules apply?  (See the module
    docstring.)  ``run()`` returns ``(True, [])``, or ``(False, a line that ends in a draw)``."""

    def __init__(self, tables: Tables, game: Game) -> None:
        self.tables = tables
        self.game = game
        value = value_of(tables.entry(game.position))
        self.winner = game.position.turn if value.result == "win" else game.position.turn ^ 1
        self.nodes = 0
        self.memo: dict[tuple[object, ...], bool] = {}

    def run(self) -> tuple[bool, list[Move]]:
        try:
            if self._wins():
                return True, []
        except _OutOfBudget:
            return False, []
        return False, self._refutation()

    def _moves(self) -> list[Move]:
        """The defender's every move; the winner's moves that keep the tables' fastest win."""
        pos = self.game.position
        moves = pos.legal_moves()
        if pos.turn != self.winner:
            return moves
        want = value_of(self.tables.entry(pos)).plies
        return [m for m in moves if after_move(value_of(self.tables.entry(pos.play(m)))).plies == want]

    def _wins(self) -> bool:
        game = self.game
        status = game.status()
        if status.is_over:
            return status.outcome is (Outcome.WHITE_WINS if self.winner == 0 else Outcome.BLACK_WINS)
        key = (game.position.state, game.counters)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > SEARCH_NODES:
            raise _OutOfBudget
        attacking = game.position.turn == self.winner
        result = not attacking  # the winner needs one good move, the defender one escape
        for m in self._moves():
            game.push(m)
            won = self._wins()
            game.pop()
            if won == attacking:
                result = won
                break
        self.memo[key] = result
        return result

    def _refutation(self) -> list[Move]:
        """A line from the root along which the win fails (the memo holds every answer needed)."""
        line: list[Move] = []
        pushed = 0
        game = self.game
        try:
            while not game.status().is_over:
                choice = None
                for m in self._moves():
                    game.push(m)
                    failed = not self._wins()
                    game.pop()
                    if failed:
                        choice = m
                        break
                if choice is None:
                    break
                game.push(choice)
                pushed += 1
                line.append(choice)
        finally:
            for _ in range(pushed):
                game.pop()
        return line


class _OutOfBudget(Exception):
    pass
