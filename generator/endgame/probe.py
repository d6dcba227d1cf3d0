"""Probing: the result of a position, its distance, and every move that keeps the best result.

A table answers for the side to move; a move's value for the mover is its child's value turned
round (the child lost in d plies: the move wins in d + 1).  The moves that *keep* the best result
are the fastest wins when the position is won, every drawing move when it is drawn, and the
slowest losses when it is lost: together they are the tables' line.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.move import Move
from ..rules.position import Position
from .retro import DRAW, LOSS, WIN
from .tables import Tables

RESULT_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True)
class Value:
    """A result for one side and the plies to the end of the game (None for a draw)."""

    result: str
    plies: int | None

    @property
    def moves(self) -> int | None:
        """The winner's (or loser's) own moves to the end: the side to move plays the odd plies."""
        return None if self.plies is None else (self.plies + 1) // 2

    def text(self) -> str:
        if self.plies is None:
            return "draw"
        return f"{self.result} in {self.plies} plies"


def value_of(entry: tuple[int, int]) -> Value:
    result, plies = entry
    return Value(RESULT_NAMES[result], None if result == DRAW else plies)


def after_move(child: Value) -> Value:
    """The mover's value of a move whose resulting position has ``child`` for the other side."""
    if child.plies is None:
        return child
    return Value("win" if child.result == "loss" else "loss", child.plies + 1)


@dataclass(frozen=True)
class Probe:
    position: Position
    value: Value
    moves: list[tuple[Move, Value]]
    """Every legal move with its value for the side to move, in notation order."""

    @property
    def best(self) -> list[Move]:
        """The moves that keep the position's value (all of them with the same value)."""
        return [m for m, v in self.moves if v == self.value]

    def line(self, tables: Tables, limit: int = 200) -> list[Move]:
        """One line of best play (the first best move each time) to the end, or ``limit`` plies."""
        out: list[Move] = []
        pos = self.position
        probe = self
        while probe.best and len(out) < limit and probe.value.plies != 0:
            m = probe.best[0]
            out.append(m)
            pos = pos.play(m)
            probe = probe_position(tables, pos)
            if probe.value.plies is None and self.value.plies is None and len(out) >= 8:
                break  # a draw has no end: a few moves show how it holds
        return out


def probe_position(tables: Tables, position: Position) -> Probe:
    """The tables' answer for ``position`` (building the slices it needs, with progress)."""
    value = value_of(tables.entry(position))
    moves = [(m, after_move(value_of(tables.entry(position.play(m))))) for m in position.legal_moves()]
    return Probe(position, value, moves)
