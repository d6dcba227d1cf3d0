"""The result of a puzzle's proof (:func:`generator.puzzles.proof.prove_puzzle`), and its form as
plain JSON data (the verdict cache keeps it).

In the JSON form, moves are written in the variant's long notation and matched back against the
legal moves of each position on read: a stored text that names no legal move makes the whole value
unusable (the caller treats it as a miss), so stored data can never put a move on a page that the
engine did not generate.  Reading checks every field's type for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..rules.move import Move
from ..rules.notation import move_texts
from ..rules.position import Position
from .play import PlayNode, find_move, moves_from, play_from_json, play_to_json
from .tree import Node, SolutionTree


class Status(StrEnum):
    """The verdict on a printed puzzle."""

    SOUND = "sound"
    COOKED = "cooked"
    """Another key, or a second solver move, also forces the goal."""
    WRONG = "wrong"
    """The line does not meet the goal, or a solver move of it does not force the goal."""
    UNDECIDED = "undecided"
    """The budget ran out before the proof decided."""
    NOT_A_PUZZLE = "not a puzzle"
    """A gain or promote line that gives nothing up."""


@dataclass(frozen=True)
class Problem:
    """One reason the puzzle is not sound, with the message ``damas check`` prints."""

    status: Status
    message: str
    ply: int | None = None
    """The index in the line of the move the problem is about; None: not one move."""
    about: str | None = None
    """``"stipulation"`` when the problem is the puzzle's goal; None with no ply: the whole puzzle."""


@dataclass(frozen=True)
class Refutation:
    """Why a wrong line fails: the solver move at ``ply`` does not force the goal; ``line`` is that
    move, then a defence that escapes and the attacker's tries, as far as the bound goes."""

    ply: int
    line: list[Move]


Defence = tuple[int, Move, list[Move]]
"""(index in the line of the defender's move, another reply there, how the attacker wins on)."""


@dataclass
class PuzzleResult:
    """What :func:`prove_puzzle` established about a printed line."""

    start: Position
    """The puzzle's position."""
    status: Status
    moves: list[Move]
    """The printed line (proven when the status is sound)."""
    problems: list[Problem] = field(default_factory=list)
    """Every reason the puzzle is not sound, in the order found (empty when sound)."""
    cooks: list[tuple[Move, list[Move]]] = field(default_factory=list)
    """Other first moves that also force the goal, each with its forcing line."""
    refutation: Refutation | None = None
    defences: list[Defence] = field(default_factory=list)
    """Key defences (up to :data:`SHOWN_DEFENCES` per defender ply), for the answer keys."""
    tree: SolutionTree | None = None
    """Every defence to the printed depth with the forcing answer (sound puzzles, goals but draw)."""
    play: PlayNode | None = None
    """The puzzle as the student plays it on the page (:mod:`generator.puzzles.play`): the proof's
    lines with, at each student node, the winning moves and how every other move is refuted.  Set by
    the check stage for sound puzzles; None elsewhere (the miner does not need it)."""
    themes: list[str] = field(default_factory=list)
    difficulty: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def sound(self) -> bool:
        return self.status is Status.SOUND

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data; moves in the variant's long notation, the start position left out (the
        caller keys stored results by it)."""
        return result_to_json(self)

    @classmethod
    def from_json(cls, data: Any, start: Position) -> PuzzleResult:
        """The result :meth:`to_json` wrote for the puzzle starting at ``start``.

        Raises:
            ValueError, TypeError, KeyError: for anything but that shape, or a move that is not
                legal where it stands (a stored result never puts a move the engine did not make).
        """
        return result_from_json(data, start)


# -- JSON ---------------------------------------------------------------------------------------------


def line_texts(pos: Position, moves: list[Move]) -> list[str]:
    """A line as long move texts, each written in the position it is played in."""
    return move_texts(pos, moves)


def _positions(start: Position, moves: list[Move]) -> list[Position]:
    out = [start]
    for m in moves:
        out.append(out[-1].play(m))
    return out


def result_to_json(r: PuzzleResult) -> dict[str, Any]:
    """The result as plain JSON data (the start position is the caller's: it is in the cache key)."""
    positions = _positions(r.start, r.moves)
    return {
        "status": r.status.value,
        "moves": line_texts(r.start, r.moves),
        "problems": [[p.status.value, p.message, p.ply, p.about] for p in r.problems],
        "cooks": [[r.start.move_text(m, long=True), line_texts(r.start, line)] for m, line in r.cooks],
        "refutation": None
        if r.refutation is None
        else [r.refutation.ply, line_texts(positions[r.refutation.ply], r.refutation.line)],
        "defences": [
            [j, positions[j].move_text(reply, long=True), line_texts(positions[j].play(reply), rest)]
            for j, reply, rest in r.defences
        ],
        "tree": None if r.tree is None else tree_to_json(r.tree),
        "play": None if r.play is None else play_to_json(r.play),
        "themes": list(r.themes),
        "difficulty": r.difficulty,
        "nodes": r.nodes,
        "seconds": r.seconds,
    }


def tree_to_json(tree: SolutionTree) -> dict[str, Any]:
    return tree.to_json()


def _int(value: Any, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        raise ValueError(f"bad number {value!r}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a text: {value!r}")
    return value


def _optional(value: Any, read: Any) -> Any:
    return None if value is None else read(value)


def result_from_json(data: Any, start: Position) -> PuzzleResult:
    """The result :func:`result_to_json` wrote for the puzzle starting at ``start``.

    Raises:
        ValueError, TypeError, KeyError: for anything but that shape or an illegal move.
    """
    if not isinstance(data, dict):
        raise ValueError("not a puzzle result")
    moves = moves_from(start, data["moves"])
    positions = _positions(start, moves)
    problems = [
        Problem(
            Status(_str(s)), _str(msg), _optional(ply, lambda v: _int(v, 0, len(moves) - 1)), _optional(about, _str)
        )
        for s, msg, ply, about in data["problems"]
    ]
    cooks = []
    for text, line in data["cooks"]:
        m = find_move(start, text)
        cooks.append((m, moves_from(start, line)))
    refutation = None
    if data["refutation"] is not None:
        ply, line = data["refutation"]
        ply = _int(ply, 0, len(moves) - 1)
        refutation = Refutation(ply, moves_from(positions[ply], line))
    defences = []
    for j, text, rest in data["defences"]:
        j = _int(j, 0, len(moves) - 1)
        reply = find_move(positions[j], text)
        defences.append((j, reply, moves_from(positions[j].play(reply), rest)))
    seconds = data["seconds"]
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise ValueError("bad seconds")
    return PuzzleResult(
        start,
        Status(_str(data["status"])),
        moves,
        problems=problems,
        cooks=cooks,
        refutation=refutation,
        defences=defences,
        tree=_optional(data["tree"], lambda t: tree_from_json(t, start)),
        play=_optional(data["play"], lambda t: play_from_json(t, start)),
        themes=[_str(t) for t in data["themes"]],
        difficulty=_int(data["difficulty"]),
        nodes=_int(data["nodes"]),
        seconds=float(seconds),
    )


def tree_from_json(data: Any, start: Position) -> SolutionTree:
    """A :class:`SolutionTree` from :meth:`SolutionTree.to_json`, every move replayed and checked."""
    if not isinstance(data, dict) or data["fen"] != start.fen():
        raise ValueError("not the tree of this position")
    return SolutionTree(
        start.fen(),
        _str(data["goal"]),
        _int(data["depth"]),
        [_node(n, start) for n in data["solutions"]],
        [_node(n, start) for n in data["refuted"]],
        bool(data["truncated"]),
    )


def _node(data: Any, pos: Position) -> Node:
    """One node and the nodes under it (iterative would only matter past Python's recursion
    limit; a tree is at most the printed depth plus the quiescence plies deep)."""
    if not isinstance(data, dict):
        raise ValueError("not a tree node")
    move = find_move(pos, data["move"])
    after = pos.play(move)
    fen = data.get("fen")
    if fen is not None and fen != after.fen():
        raise ValueError("a tree position that is not the move's")
    return Node(_str(data["move"]), fen, [_node(r, after) for r in data["replies"]])
