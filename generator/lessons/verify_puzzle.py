"""A problemist's standard of soundness for puzzles: the key proven, no cook, a real combination,
and every proof within a budget.

* **Key first.** The printed key must force the stipulation within the printed length against
  every defence (the ``--first`` question); only then are the other first moves searched.
* **Cook.** Any other first move that forces the same goal within the printed length plus a
  margin (:data:`DEFAULT_MARGIN` plies, or the puzzle's own ``margin:``, which must come with a
  ``margin_reason:``) cooks the puzzle.  The message names the cook and its forcing line.
* **Not a puzzle.** For ``gain:N`` and ``promote`` the printed line must give material up at
  some point (the attacker's piece balance drops below the start's): otherwise the side to move
  simply wins anyway (a loose piece captured, a man walked to the crown) and there is no
  combination to find.  A ``win`` needs no sacrifice: a quiet blocking or tempo win is a problem in
  its own right.  A ``draw`` needs none either.
* **Budget.** Every puzzle's proof (key, cooks, later moves) shares one node budget
  (:func:`resolve_budget`); when it runs out the check reports "could not prove within the budget"
  at the puzzle instead of running for hours.
"""

from __future__ import annotations

import os

from ..puzzles.dfpn import DfpnSolver
from ..puzzles.search import DEFAULT_PROOF_NODES, Budget
from ..rules import Move, Position
from ..rules.game import Game
from ..rules.notation import line_text

DEFAULT_MARGIN = 4
"""Plies past the printed line within which another first move counts as a cook."""
BUDGET_ENV = "DAMAS_PROOF_BUDGET"
"""Environment variable: the node budget of one puzzle's proof (a positive whole number)."""


def default_margin(goal: str) -> int:
    """The cook margin when the puzzle sets none: :data:`DEFAULT_MARGIN`, but 0 for ``draw``, whose
    goal is a draw *by rule within the line*: the move-count rules count plies, so a waiting move
    reaches the same draw a few plies later and every draw puzzle would be "cooked"."""
    return 0 if goal == "draw" else DEFAULT_MARGIN


def resolve_budget(nodes: int | None = None) -> Budget:
    """The proof budget: the explicit ``nodes`` (the course setting ``proof_budget``, passed down
    through ``check_paths``), else ``$DAMAS_PROOF_BUDGET``, else :data:`DEFAULT_PROOF_NODES`."""
    if nodes is None:
        raw = os.environ.get(BUDGET_ENV, "").strip()
        if raw.isascii() and raw.isdigit() and 0 < len(raw) < 12 and int(raw) > 0:
            nodes = int(raw)
    return Budget(nodes=nodes or DEFAULT_PROOF_NODES)


def budget_message(nodes: int) -> str:
    return f"could not prove within the budget ({nodes:,} nodes); raise proof_budget or shorten the line"


def make_solver(pos: Position, profile, budget: Budget) -> DfpnSolver:  # type: ignore[no-untyped-def]
    return DfpnSolver(pos.variant, profile, budget)


def cooks(solver: DfpnSolver, game: Game, key: Move, plies: int) -> list[tuple[Move, list[Move]]]:
    """Every first move other than ``key`` that forces the goal within ``plies``, with its line."""
    pos = game.position
    out = []
    for m in pos.sorted_moves([m for m in pos.legal_moves() if m != key]):
        if solver.move_forces(game, m, plies):
            out.append((m, solver.main_line(pos, m, plies)))
    return out


def cook_message(pos: Position, found: list[tuple[Move, list[Move]]], printed: int, margin: int, goal: str) -> str:
    parts = [f"{pos.move_text(m, long=True)} ({line_text(pos, line)})" for m, line in found]
    return (
        f"cooked: {'; '.join(parts)} also force{'s' if len(found) == 1 else ''} {goal} within "
        f"{printed + margin} plies (the printed {printed} plus a margin of {margin}); change the position "
        "or set a smaller 'margin' with a 'margin_reason'"
    )


def gives_material(start: Position, moves: list[Move]) -> bool:
    """Does the attacker's piece balance drop below the start's anywhere along ``moves``?"""
    me = start.turn
    base = start.pieces(me).bit_count() - start.pieces(me ^ 1).bit_count()
    pos = start
    for m in moves:
        pos = pos.play(m)
        if pos.pieces(me).bit_count() - pos.pieces(me ^ 1).bit_count() < base:
            return True
    return False


def not_a_puzzle(goal: str, start: Position, moves: list[Move]) -> str | None:
    """Why the printed line is no combination (None when it is one); see the module docstring."""
    if goal not in ("gain", "promote") or gives_material(start, moves):
        return None
    what = "wins the material" if goal == "gain" else "crowns"
    return (
        f"not a puzzle: the line gives nothing up, the side to move simply {what} anyway; "
        "show a combination (a sacrifice) or use the 'win' stipulation for a quiet win"
    )
