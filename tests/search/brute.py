"""A plain minimax over ``Position.legal_moves()``, written from the definitions in search.py's
docstring and docs/lessons.md, for differential tests of the solver.

No transposition table, no raw bit-board states, no iterative deepening: one recursion per move.
The goal tests are restated here:

* the side to move has no legal move: the game is over, won by the other side (by the side to
  move in a losing game); a won game meets every goal but ``draw``;
* ``gain:N``: in a position where the side to move has no capture, the attacker's piece balance
  is at least N above the root's;
* ``promote``: in such a quiet position the attacker has more kings than at the root;
* when the ply bound is used up, a pending capture is still played out (quiescence), for at most
  ``QUIESCENCE_PLIES`` plies past the bound; a quiet position there fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.puzzles.search import QUIESCENCE_PLIES
from generator.rules import Goal, Move, Position


@dataclass(frozen=True)
class Target:
    attacker: int
    goal: str
    pieces: int
    root_balance: int
    root_kings: int

    @classmethod
    def at(cls, root: Position, goal: str) -> Target:
        a = root.turn
        kind, _, n = goal.partition(":")
        return cls(a, kind, int(n or 0), balance(root, a), (root.pieces(a) & root.kings).bit_count())


def balance(pos: Position, side: int) -> int:
    return pos.pieces(side).bit_count() - pos.pieces(side ^ 1).bit_count()


def forces(pos: Position, t: Target, plies: int) -> bool:
    """Does the attacker force the goal from ``pos`` within ``plies`` (plus quiescence)?"""
    moves = pos.legal_moves()
    if not moves:
        winner = pos.turn if pos.variant.goal is Goal.LOSING else pos.turn ^ 1
        return winner == t.attacker and t.goal != "draw"
    pending = any(m.captures for m in moves)
    if not pending:
        if t.goal == "gain" and balance(pos, t.attacker) - t.root_balance >= t.pieces:
            return True
        if t.goal == "promote" and (pos.pieces(t.attacker) & pos.kings).bit_count() > t.root_kings:
            return True
    if plies <= 0 and not (pending and plies > -QUIESCENCE_PLIES):
        return False
    results = (forces(pos.play(m), t, plies - 1) for m in moves)
    return any(results) if pos.turn == t.attacker else all(results)


def solutions(root: Position, goal: str, depth: int) -> list[Move]:
    """Every first move that forces ``goal`` within ``depth`` plies, in ``legal_moves()`` order."""
    t = Target.at(root, goal)
    return [m for m in root.legal_moves() if forces(root.play(m), t, depth - 1)]


def shortest(root: Position, move: Move, goal: str, depth: int) -> int | None:
    """The fewest plies (counting ``move``) within which ``move`` forces ``goal``, up to ``depth``."""
    t = Target.at(root, goal)
    after = root.play(move)
    return next((d for d in range(1, depth + 1) if forces(after, t, d - 1)), None)
