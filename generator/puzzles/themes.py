"""Themes of a combination the engine can recognise, as pure predicates over its main line.

Each predicate looks only at the moves and the positions they pass through; the puzzle book and
the checker combine them with the author's own tags.  Names are the Portuguese tags the course
uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules.move import Move
from ..rules.position import Position


@dataclass(frozen=True)
class Line:
    """A solution line: the start position and the moves; the attacker moves first."""

    start: Position
    moves: tuple[Move, ...]

    @property
    def positions(self) -> list[Position]:
        """The position before each move, then the final one."""
        out = [self.start]
        for m in self.moves:
            out.append(out[-1].play(m))
        return out

    @property
    def attacker(self) -> int:
        return self.start.turn


def sacrifices(line: Line) -> int:
    """Attacker moves answered by a capture: pieces given so that the defender must take."""
    return sum(1 for i in range(0, len(line.moves) - 1, 2) if line.moves[i + 1].captures)


def crowns(line: Line) -> bool:
    return any(m.promotes for m in line.moves[0::2])


def king_shot(line: Line) -> bool:
    """A king of the attacker makes a capture in the combination."""
    return any(m.king and m.captures for m in line.moves[0::2])


def blocking_win(line: Line) -> bool:
    """The combination ends with the defender on the move, holding pieces but no move."""
    final = line.positions[-1]
    return final.turn != line.attacker and final.pieces(final.turn) != 0 and not final.has_legal_moves()


def precedence_trap(line: Line) -> bool:
    """At some reply the defender had to take what the precedence law (e.g. the majority law)
    chose, although another capture existed."""
    positions = line.positions
    for i in range(1, len(line.moves), 2):
        pos = positions[i]
        if not line.moves[i].captures:
            continue
        gen = pos.variant.generator
        me, opp = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
        every = gen.captures(me, opp, pos.kings, pos.turn, pos.white | pos.black, precedence=False)
        if len(every) > len(pos.legal_moves()):
            return True
    return False


THEMES: dict[str, Callable[[Line], bool]] = {
    "sacrifício": lambda line: sacrifices(line) >= 1,
    "sacrifício duplo": lambda line: sacrifices(line) >= 2,
    "coroação": crowns,
    "golpe de dama": king_shot,
    "bloqueio": blocking_win,
    "lei da maioria": precedence_trap,
}


def auto_themes(line: Line) -> list[str]:
    return [name for name, test in THEMES.items() if test(line)]


def difficulty(line: Line, defender_choices: int) -> int:
    """1 (easy) to 5 from the proof: length of the line, sacrifices, and how many replies the
    defender has along it (``defender_choices``: legal replies beyond the first, summed)."""
    score = (len(line.moves) - 1) / 2 + 0.75 * sacrifices(line) + 0.5 * defender_choices
    return max(1, min(5, 1 + int(score / 1.5)))
