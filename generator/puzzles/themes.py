"""Themes of a combination the engine can recognise, as pure predicates over its main line.

Each predicate looks only at the moves and the positions they pass through (as lichess-puzzler
tags chess puzzles), so a tag means one checkable thing and no two tags name the same thing:

* ``sacrifício``: material is really given up: after the defender takes, the attacker is still
  behind the start once its own next move is played (a shot that takes two for one at once is not
  a sacrifice, nor is an even exchange);
* ``golpe de dama``: a king makes the decisive capture (the attacker's biggest);
* ``coroação``: a man of the attacker is crowned in the line and the king survives to the end
  (the breakthrough to the last row);
* ``bloqueio``: the line ends with the defender holding pieces but no move;
* ``lei da maioria``: at some reply the precedence law forced the defender's capture although
  another capture existed;
* ``golpe turco``: pieces already jumped but not yet removed stop a capture (the Turkish strike:
  with immediate removal the capturing piece could have gone on);
* ``captura para trás``: a man captures backwards in the line.

Material themes make no sense in the losing games (giving pieces away is the goal there), so
``sacrifício`` and ``bloqueio`` are never given for them.  Names are the Portuguese tags the
course uses; the book and the pages show the engine's verdict for these names, whatever the author
wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

from ..i18n import NP_
from ..rules.move import Move
from ..rules.position import Position
from ..rules.variants import Goal, Removal


@dataclass(frozen=True)
class Line:
    """A solution line: the start position and the moves; the attacker moves first."""

    start: Position
    moves: tuple[Move, ...]

    @cached_property
    def positions(self) -> list[Position]:
        """The position before each move, then the final one."""
        out = [self.start]
        for m in self.moves:
            out.append(out[-1].play(m))
        return out

    @property
    def attacker(self) -> int:
        return self.start.turn

    @property
    def losing(self) -> bool:
        return self.start.variant.goal is Goal.LOSING

    def balance(self, i: int) -> int:
        """The attacker's material lead after ``i`` moves, minus its lead at the start."""

        def lead(pos: Position) -> int:
            return pos.pieces(self.attacker).bit_count() - pos.pieces(self.attacker ^ 1).bit_count()

        return lead(self.positions[i]) - lead(self.start)


def gives(line: Line) -> int:
    """Attacker moves that offer material: a move that captures nothing, answered by a capture."""
    return sum(1 for i in range(0, len(line.moves) - 1, 2) if not line.moves[i].captures and line.moves[i + 1].captures)


def quiet_moves(line: Line) -> int:
    """Attacker moves (after the first) that neither capture nor offer anything: the hard-to-see
    waiting and preparing moves of a combination."""
    return sum(
        1
        for i in range(2, len(line.moves), 2)
        if not line.moves[i].captures and not (i + 1 < len(line.moves) and line.moves[i + 1].captures)
    )


def sacrifice(line: Line) -> bool:
    """After the attacker's own move (not the first), it is still behind the start: material given
    up and not taken straight back."""
    if line.losing:
        return False
    return any(line.balance(i + 1) < 0 for i in range(2, len(line.moves), 2))


def decisive_capture(line: Line) -> int | None:
    """Index of the attacker's capture that takes the most pieces (the last of equals)."""
    best: int | None = None
    for i in range(0, len(line.moves), 2):
        m = line.moves[i]
        if m.captures and (best is None or len(m.captured) >= len(line.moves[best].captured)):
            best = i
    return best


def king_shot(line: Line) -> bool:
    """A king (already crowned when the move starts) makes the decisive capture."""
    i = decisive_capture(line)
    return i is not None and line.moves[i].king


def crowns(line: Line) -> bool:
    """A man of the attacker is crowned and that king is still on the board at the end (it may
    have moved on: the new king is followed square by square until a capture removes it)."""
    for i in range(0, len(line.moves), 2):
        if not line.moves[i].promotes:
            continue
        square: int | None = line.moves[i].dest
        for j in range(i + 1, len(line.moves)):
            m = line.moves[j]
            if j % 2 == 0 and m.origin == square:
                square = m.dest
            elif j % 2 == 1 and square in m.captured:
                square = None
                break
        if square is not None:
            return True
    return False


def blocking_win(line: Line) -> bool:
    """The combination ends with the defender on the move, holding pieces but no move."""
    if line.losing:
        return False
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


def turkish_strike(line: Line) -> bool:
    """At some capture of the line the pieces already jumped (removed only at the end of the move)
    limit the capturing piece: with immediate removal the legal captures would differ."""
    variant = line.start.variant
    if variant.removal is Removal.IMMEDIATE:
        return False
    immediate = variant.with_rules(removal=Removal.IMMEDIATE).generator
    for pos, move in zip(line.positions, line.moves, strict=False):
        if not move.captures or len(move.captured) < 2:
            continue
        now = {(m.origin, m.dest, frozenset(m.captured)) for m in pos.legal_moves()}
        other = {(m.origin, m.dest, frozenset(m.captured)) for m in immediate.moves(*pos.state)}
        if now != other:
            return True
    return False


def backward_capture(line: Line) -> bool:
    """A man (not a king) jumps backwards somewhere in the line."""
    for pos, move in zip(line.positions, line.moves, strict=False):
        if not move.captures or move.king:
            continue
        g = pos.variant.geometry
        forward = 1 if pos.turn == 0 else -1
        path = move.path
        for a, b in pairwise(path):
            if (g.rank_of(b) - g.rank_of(a)) * forward < 0:
                return True
    return False


THEMES: dict[str, Callable[[Line], bool]] = {
    "sacrifício": sacrifice,
    "golpe de dama": king_shot,
    "coroação": crowns,
    "bloqueio": blocking_win,
    "lei da maioria": precedence_trap,
    "golpe turco": turkish_strike,
    "captura para trás": backward_capture,
}
"""Every theme the engine decides, in display order."""


THEME_MSGIDS = {
    "sacrifício": NP_("theme", "sacrifice"),
    "golpe de dama": NP_("theme", "king shot"),
    "coroação": NP_("theme", "crowning"),
    "bloqueio": NP_("theme", "blocking"),
    "lei da maioria": NP_("theme", "majority rule"),
    "golpe turco": NP_("theme", "Turkish strike"),
    "captura para trás": NP_("theme", "backward capture"),
}
"""Each theme's English msgid: the name shown is the catalog's (the keys stay the authors' tags)."""


def theme_names(language: str) -> dict[str, str]:
    """Theme key -> its name in ``language``."""
    from ..i18n import translator

    tr = translator(language)
    return {key: tr.pgettext("theme", msgid) for key, msgid in THEME_MSGIDS.items()}


def auto_themes(line: Line) -> list[str]:
    return [name for name, test in THEMES.items() if test(line)]


DIFFICULTY_WORDS = {
    1: NP_("difficulty", "very easy"),
    2: NP_("difficulty", "easy"),
    3: NP_("difficulty", "medium"),
    4: NP_("difficulty", "hard"),
    5: NP_("difficulty", "very hard"),
}
"""The words for each level (English msgids, translated where shown), the same on the pages and in print."""


def difficulty_words(language: str) -> dict[int, str]:
    """The level words in ``language``, from its catalog."""
    from ..i18n import translator

    tr = translator(language)
    return {level: tr.pgettext("difficulty", words) for level, words in DIFFICULTY_WORDS.items()}


def difficulty_score(line: Line, defender_choices: int) -> float:
    """The raw score: one point per attacker move after the first, half a point per offer after
    the first, one per quiet move in the line, one if material is really given up, a quarter per
    defender alternative along the line (at most two), and a tenth per candidate first move beyond
    two (at most one: a crowded board hides the key)."""
    attacker_moves = (len(line.moves) + 1) // 2
    candidates = len(line.start.legal_moves())
    return (
        (attacker_moves - 1)
        + 0.5 * max(0, gives(line) - 1)
        + 1.0 * quiet_moves(line)
        + (1.0 if sacrifice(line) else 0.0)
        + min(2.0, 0.25 * defender_choices)
        + min(1.0, 0.1 * max(0, candidates - 2))
    )


def difficulty(line: Line, defender_choices: int) -> int:
    """1 (muito fácil) to 5 (muito difícil) from the proof: the length of the line, the offers and
    quiet moves in it, whether material is really given up, how many replies the defender has
    along it (``defender_choices``: legal replies beyond the one played, summed) and how many first
    moves there are to choose from.  See :func:`difficulty_score`: its whole part is the level."""
    return max(1, min(5, int(difficulty_score(line, defender_choices))))
