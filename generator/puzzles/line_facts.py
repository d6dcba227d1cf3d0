"""What a puzzle's proven line does, as plain facts a caption or hint may state.

Every fact a printed hint states about the line (a crowning, a backward capture, the material at
the start or the end, how the game ends) is read from here, so a hint generated from these facts
cannot say something the line does not do, and :mod:`generator.puzzles.caption_audit` checks a
person's caption against the same facts.  The facts look at the main line the check proved (the
author's solution); they say nothing about the side lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from ..rules.move import Move
from ..rules.position import Position


@dataclass(frozen=True)
class Material:
    """One side's pieces."""

    men: int
    kings: int

    @property
    def pieces(self) -> int:
        return self.men + self.kings


def material_of(pos: Position, side: int) -> Material:
    return Material(pos.men(side).bit_count(), pos.kings_of(side).bit_count())


@dataclass(frozen=True)
class Capture:
    """A capture in the line: who made it, with what, from where, how many pieces."""

    ply: int
    side: int
    king: bool
    origin: int
    dest: int
    taken: int
    backward: bool
    promotes: bool


@dataclass(frozen=True)
class LineFacts:
    """The facts of a line (the attacker moves first)."""

    start: Position
    moves: tuple[Move, ...]

    @cached_property
    def positions(self) -> list[Position]:
        out = [self.start]
        for m in self.moves:
            out.append(out[-1].play(m))
        return out

    @property
    def attacker(self) -> int:
        return self.start.turn

    @property
    def defender(self) -> int:
        return self.start.turn ^ 1

    @property
    def end(self) -> Position:
        return self.positions[-1]

    def material(self, side: int, ply: int = 0) -> Material:
        """``side``'s pieces before move ``ply`` (``len(moves)``: at the end)."""
        return material_of(self.positions[ply], side)

    @cached_property
    def captures(self) -> list[Capture]:
        out = []
        for ply, (pos, m) in enumerate(zip(self.positions, self.moves, strict=False)):
            if m.captures:
                out.append(
                    Capture(ply, pos.turn, m.king, m.origin, m.dest, len(m.captured), _backward(pos, m), m.promotes)
                )
        return out

    @cached_property
    def crownings(self) -> list[tuple[int, int, int]]:
        """(ply, side, square) of every man crowned along the line."""
        return [
            (ply, pos.turn, m.dest)
            for ply, (pos, m) in enumerate(zip(self.positions, self.moves, strict=False))
            if m.promotes
        ]

    def crowns(self, side: int) -> bool:
        return any(s == side for _, s, _ in self.crownings)

    def backward_by(self, side: int) -> list[Capture]:
        """Captures by a man of ``side`` that jump backwards at some step."""
        return [c for c in self.captures if c.side == side and c.backward and not c.king]

    @property
    def defender_has_no_pieces(self) -> bool:
        return self.end.pieces(self.defender) == 0

    @property
    def defender_blocked(self) -> bool:
        """The defender, to move at the end, holds pieces but has no move."""
        end = self.end
        return end.turn == self.defender and end.pieces(self.defender) != 0 and not end.has_legal_moves()

    @property
    def game_won(self) -> bool:
        """The line ends with the defender lost (no pieces, or no move on its turn)."""
        return self.defender_has_no_pieces or self.defender_blocked

    def lead(self, ply: int = 0) -> tuple[int, int]:
        """The attacker's lead in (men, kings) before move ``ply``."""
        a, d = self.material(self.attacker, ply), self.material(self.defender, ply)
        return a.men - d.men, a.kings - d.kings

    @property
    def net_gain(self) -> int:
        """Pieces the attacker is up at the end, minus at the start (as ``gain:N`` counts)."""
        end, start = len(self.moves), 0
        return sum(self.lead(end)) - sum(self.lead(start))

    def balance(self, ply: int) -> int:
        """The attacker's piece lead before move ``ply`` minus its lead at the start."""
        return sum(self.lead(ply)) - sum(self.lead(0))

    @cached_property
    def first_material_change(self) -> int:
        """The sign of the first change of the attacker's piece balance (-1 gives first, +1 takes
        first, 0 none)."""
        for ply in range(1, len(self.moves) + 1):
            b = self.balance(ply)
            if b:
                return -1 if b < 0 else 1
        return 0

    @property
    def sacrifices(self) -> int:
        """Attacker moves that capture nothing and are answered by a capture (offers)."""
        return sum(
            1 for i in range(0, len(self.moves) - 1, 2) if not self.moves[i].captures and self.moves[i + 1].captures
        )

    @property
    def quiet_moves(self) -> int:
        """Attacker moves after the key that neither capture nor offer (waiting, preparing)."""
        return sum(
            1
            for i in range(2, len(self.moves), 2)
            if not self.moves[i].captures and not (i + 1 < len(self.moves) and self.moves[i + 1].captures)
        )

    @property
    def biggest_capture(self) -> Capture | None:
        mine = [c for c in self.captures if c.side == self.attacker]
        return max(mine, key=lambda c: (c.taken, c.ply)) if mine else None


def _backward(pos: Position, move: Move) -> bool:
    """Does a man's capture jump backwards at some step (a king's never counts)?"""
    if move.king or not move.captures:
        return False
    g = pos.variant.geometry
    forward = 1 if pos.turn == 0 else -1
    return any((g.rank_of(b) - g.rank_of(a)) * forward < 0 for a, b in pairwise(move.path))


def line_facts(start: Position, texts: list[str]) -> LineFacts:
    """The facts of a lesson ``solution`` (move texts) from ``start``."""
    moves = []
    pos = start
    for t in texts:
        m = pos.parse_move(t)
        moves.append(m)
        pos = pos.play(m)
    return LineFacts(start, tuple(moves))
