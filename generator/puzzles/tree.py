"""The proof as data: for every defence the attacker's winning answer, down to the goal.

A :class:`Node` is one move with the position after it and the replies to it.  Below a solution
(an attacker move) the replies are *every* legal defence; below a defence there is one reply, the
attacker's quickest known forcing answer.  Interactive pages walk this tree to let a student play
a puzzle against every defence; for a first move that fails, the tree holds one refuting line
(the defence that escapes, then the attacker's first try, and so on), so a page can show why it
fails.  ``to_json()`` gives the compact form ``{"move": "...", "fen": "...", "replies": [...]}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.move import Move
from ..rules.position import Position
from .dfpn import DfpnSolver
from .search import QUIESCENCE_PLIES

MAX_TREE_NODES = 20_000
"""A solution tree stops growing here (``truncated`` says so): a page cannot use more."""


@dataclass
class Node:
    move: str
    """The move in the variant's long notation."""
    fen: str | None
    """The position after the move (None when the caller asked for no positions)."""
    replies: list[Node] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": self.move}
        if self.fen is not None:
            out["fen"] = self.fen
        out["replies"] = [r.to_json() for r in self.replies]
        return out

    def size(self) -> int:
        return 1 + sum(r.size() for r in self.replies)


@dataclass
class SolutionTree:
    fen: str
    goal: str
    depth: int
    solutions: list[Node]
    """Every first move that forces the goal, each with every defence and its answer."""
    refuted: list[Node]
    """First moves that fail, each with one defence line that escapes."""
    truncated: bool = False
    """True when the tree reached :data:`MAX_TREE_NODES` and some answers were left out."""

    def to_json(self) -> dict[str, Any]:
        return {
            "fen": self.fen,
            "goal": self.goal,
            "depth": self.depth,
            "solutions": [n.to_json() for n in self.solutions],
            "refuted": [n.to_json() for n in self.refuted],
            "truncated": self.truncated,
        }


class _Builder:
    def __init__(self, solver: DfpnSolver, fens: bool, limit: int) -> None:
        self.solver = solver
        self.fens = fens
        self.left = limit
        self.truncated = False

    def node(self, pos: Position, move: Move) -> tuple[Node, Position]:
        after = pos.play(move)
        self.left -= 1
        return Node(pos.move_text(move, long=True), after.fen() if self.fens else None), after

    def open(self, pos: Position, plies: int) -> list[Move] | None:
        """The moves to branch on at ``pos``, or None where the proof ends (goal decided, bound)."""
        moves = pos.legal_moves()
        s = self.solver
        if not moves or s._achieved(pos.state, moves) is not None:
            return None
        if plies <= 0 and not (moves[0].captures and plies > -QUIESCENCE_PLIES):
            return None
        if self.left <= 0:
            self.truncated = True
            return None
        return moves

    def attack(self, pos: Position, plies: int) -> list[Node]:
        """The attacker's quickest known forcing answer at ``pos`` and the tree under it."""
        moves = self.open(pos, plies)
        if moves is None:
            return []
        s, gen = self.solver, self.solver.gen
        best: tuple[int, int] | None = None
        for i, m in enumerate(moves):
            child = gen.apply(*pos.state, m)
            if s.forced(child, plies - 1):
                need = s.proven_within(child)
                key = (need if need is not None else plies, i)
                best = key if best is None or key < best else best
        if best is None:
            return []
        node, after = self.node(pos, moves[best[1]])
        node.replies = self.defend(after, plies - 1)
        return [node]

    def follow(self, pos: Position, plies: int, rest: Sequence[Move]) -> list[Node]:
        """The attacker's move at ``pos``: the printed one while on the printed line (``rest``),
        else the quickest known forcing answer; below it every defence."""
        if not rest:
            return self.attack(pos, plies)
        if self.open(pos, plies) is None:
            return []
        node, after = self.node(pos, rest[0])
        node.replies = self.defend(after, plies - 1, rest[1:])
        return [node]

    def defend(self, pos: Position, plies: int, rest: Sequence[Move] = ()) -> list[Node]:
        """Every defence at ``pos``, each with the attacker's answer (on the printed line, ``rest``,
        the printed answer to the printed defence)."""
        moves = self.open(pos, plies)
        if moves is None:
            return []
        out = []
        for r in pos.sorted_moves(moves):
            node, after = self.node(pos, r)
            if rest and r == rest[0]:
                node.replies = self.follow(after, plies - 1, rest[1:])
            else:
                node.replies = self.attack(after, plies - 1)
            out.append(node)
        return out

    def line(self, pos: Position, moves: list[Move]) -> Node:
        """A single line as nested one-reply nodes."""
        root, after = self.node(pos, moves[0])
        tip = root
        for m in moves[1:]:
            nxt, after = self.node(after, m)
            tip.replies = [nxt]
            tip = nxt
        return root


def solution_tree(
    solver: DfpnSolver,
    position: Position,
    depth: int,
    solutions: list[Move],
    refuted: Sequence[Move] = (),
    fens: bool = True,
    limit: int = MAX_TREE_NODES,
) -> SolutionTree:
    """The tree of ``solutions`` (first moves already proven within ``depth`` by ``solver``, which
    must be prepared for ``position``) and one escaping line for each move of ``refuted``."""
    b = _Builder(solver, fens, limit)
    sols = []
    for m in solutions:
        node, after = b.node(position, m)
        node.replies = b.defend(after, depth - 1)
        sols.append(node)
    refs = [b.line(position, solver.refute(position, m, depth)) for m in refuted]
    return SolutionTree(position.fen(), str(solver.stip), depth, sols, refs, b.truncated)


def line_tree(
    solver: DfpnSolver, position: Position, line: list[Move], fens: bool = False, limit: int = MAX_TREE_NODES
) -> SolutionTree:
    """The tree of a proven printed ``line``: its key, every defence at every defender ply to the
    printed depth, the printed answer on the line and the quickest forcing answer off it.

    ``solver`` is the one that proved the line (prepared for ``position``): its tables already hold
    most answers, so this is a walk over them rather than a second search.
    """
    b = _Builder(solver, fens, limit)
    depth = len(line)
    root, after = b.node(position, line[0])
    root.replies = b.defend(after, depth - 1, line[1:])
    return SolutionTree(position.fen(), str(solver.stip), depth, [root], [], b.truncated)
