"""What goes in a printed book: each rule a predicate over a proven puzzle, tested one by one.

A sound puzzle (the check proved the key, the defences, no cook) is not yet a book puzzle.  A club
teacher choosing between this book and a published collection expects:

* **No won endings.** The solver does not start two men or a king up (:func:`starts_two_up`),
  unless the goal is the win and the line gives material up on the way
  (:func:`ahead_allowed`): a won ending is not a combination.
* **A gain is a combination.** A ``gain`` line gives material first (:func:`gives_first`): the
  first change of the balance along the line is the solver's loss.
* **The strongest stipulation.** A line that ends with the opponent without pieces or without a
  move is printed as ``win`` (:func:`understated`).
* **A mix of lengths.** Per main book, lines of 3 plies at most 25 %, lines of 7 plies or more at
  least 25 % (:func:`length_mix`).
* **Each position once in the course.** Near-duplicates (:func:`near_duplicate`) are judged
  across every book of the course; variants that share a board (Brazilian and Russian) share
  positions, and of two near-duplicates the deeper one is kept (:func:`keep_deeper`).
* **Theme tags agree with the line** (:func:`theme_problems`).

The rules are documented in ``docs/mining.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..rules.position import Position
from ..rules.variants import Goal
from .dedup import mirror
from .line_facts import LineFacts

MAIN_BOOKS = ("brazilian", "international", "american", "russian")
"""The four main books (at least 100 puzzles each); the others hold at least 50."""
SHORT_PLIES = 3
LONG_PLIES = 7
MAX_SHORT_SHARE = 0.25
MIN_LONG_SHARE = 0.25


def material_lead(pos: Position, side: int) -> int:
    """``side``'s lead in men, a king counting as two men (so "two men or a king up" is a lead of 2)."""

    def worth(s: int) -> int:
        return pos.men(s).bit_count() + 2 * pos.kings_of(s).bit_count()

    return worth(side) - worth(side ^ 1)


def starts_two_up(facts: LineFacts) -> bool:
    """The solver is already two men or a king up at the start."""
    if facts.start.variant.goal is Goal.LOSING:
        return False  # a lead is a handicap there
    return material_lead(facts.start, facts.attacker) >= 2


def ahead_allowed(facts: LineFacts, goal: str) -> bool:
    """The exception to :func:`starts_two_up`: the goal is the win and material is given up."""
    return goal == "win" and any(facts.balance(p) < 0 for p in range(1, len(facts.moves) + 1))


def gives_first(facts: LineFacts) -> bool:
    """The first change of material along the line is the solver's loss (a real combination)."""
    return facts.first_material_change < 0


def understated(facts: LineFacts, goal: str) -> bool:
    """The line wins the game (no pieces or no move left for the opponent) but the stipulation
    asks for less."""
    if facts.start.variant.goal is Goal.LOSING:
        return False
    return goal != "win" and facts.game_won


@dataclass(frozen=True)
class Verdict:
    """Why a puzzle is left out of a book (empty: it goes in)."""

    reasons: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.reasons


def judge(facts: LineFacts, stipulation: str) -> Verdict:
    """Every per-puzzle rule of the module docstring applied to one proven line."""
    goal = stipulation.split(":")[0]
    reasons = []
    if starts_two_up(facts) and not ahead_allowed(facts, goal):
        reasons.append("starts two men or a king up")
    if goal == "gain" and not gives_first(facts):
        reasons.append("the gain does not give material first")
    if understated(facts, goal):
        reasons.append("the line wins the game: the stipulation should be win")
    return Verdict(tuple(reasons))


@dataclass(frozen=True)
class Mix:
    total: int
    short: int
    long: int

    @property
    def short_share(self) -> float:
        return self.short / self.total if self.total else 0.0

    @property
    def long_share(self) -> float:
        return self.long / self.total if self.total else 0.0

    @property
    def ok(self) -> bool:
        return self.short_share <= MAX_SHORT_SHARE and self.long_share >= MIN_LONG_SHARE


def length_mix(lengths: Iterable[int]) -> Mix:
    """The share of 3-ply lines (or shorter) and of lines of 7 plies or more."""
    ls = list(lengths)
    return Mix(len(ls), sum(1 for n in ls if n <= SHORT_PLIES), sum(1 for n in ls if n >= LONG_PLIES))


def board_key(pos: Position) -> str:
    """The position on its board, whatever the variant: equal for a position and its mirror image,
    and for two variants that share a board (the same squares and numbering)."""
    g = pos.variant.geometry
    a = (g.width, g.height, g.layout.value, pos.state)
    m = mirror(pos)
    b = (g.width, g.height, g.layout.value, m.state)
    return repr(min(a, b))


def _squares(pos: Position) -> set[tuple[int, int, bool]]:
    """(square, colour, king) of every piece, turned so that the side to move is White."""
    p = pos if pos.turn == 0 else mirror(pos)
    out = set()
    for side in (0, 1):
        bits = p.pieces(side)
        while bits:
            low = bits & -bits
            sq = low.bit_length() - 1
            out.add((sq, side, bool((p.kings >> sq) & 1)))
            bits ^= low
    return out


NEAR_PIECES = 3
"""Two starts that differ in at most this many pieces, with the same key and reply, are one puzzle."""


def near_duplicate(a: LineFacts, b: LineFacts) -> bool:
    """The same combination twice: the same board (mirror images and shared boards included), or
    the same first two moves (in the solver's frame) from starts that differ in at most
    :data:`NEAR_PIECES` pieces, or the same solver moves all along."""
    ga, gb = a.start.variant.geometry, b.start.variant.geometry
    if (ga.width, ga.height, ga.layout) != (gb.width, gb.height, gb.layout):
        return False
    if board_key(a.start) == board_key(b.start):
        return True
    if _solver_steps(a)[:1] != _solver_steps(b)[:1] or _reply(a) != _reply(b):
        return False
    if _solver_steps(a) == _solver_steps(b):
        return True
    return len(_squares(a.start) ^ _squares(b.start)) <= NEAR_PIECES


def _frame(facts: LineFacts, sq: int) -> int:
    if facts.attacker == 0:
        return sq
    g = facts.start.variant.geometry
    return g.square(g.width - 1 - g.file_of(sq), g.height - 1 - g.rank_of(sq))


def _solver_steps(facts: LineFacts) -> list[tuple[int, int]]:
    return [(_frame(facts, m.origin), _frame(facts, m.dest)) for m in facts.moves[0::2]]


def _reply(facts: LineFacts) -> tuple[int, int] | None:
    if len(facts.moves) < 2:
        return None
    m = facts.moves[1]
    return _frame(facts, m.origin), _frame(facts, m.dest)


def keep_deeper(a: LineFacts, b: LineFacts) -> LineFacts:
    """Of two near-duplicates, the one to keep: the longer line (the first on a tie)."""
    return b if len(b.moves) > len(a.moves) else a


def duplicate_pairs(items: Sequence[tuple[str, LineFacts]]) -> list[tuple[str, str]]:
    """Every pair of near-duplicates among named lines (quadratic; books hold hundreds)."""
    out = []
    for i, (na, a) in enumerate(items):
        for nb, b in items[i + 1 :]:
            if near_duplicate(a, b):
                out.append((na, nb))
    return out


CHECKED_THEMES: dict[str, Callable[[LineFacts], bool]] = {
    "coroação": lambda f: f.crowns(f.attacker),
    "captura para trás": lambda f: bool(f.backward_by(f.attacker) or f.backward_by(f.defender)),
    "bloqueio": lambda f: f.defender_blocked,
    "golpe de dama": lambda f: f.biggest_capture is not None and bool(f.biggest_capture.king),
    "captura em cadeia": lambda f: any(c.taken >= 3 for c in f.captures if c.side == f.attacker),
    "três por um": lambda f: any(c.taken >= 3 for c in f.captures if c.side == f.attacker),
    "coroação na tomada": lambda f: any(c.promotes for c in f.captures if c.side == f.attacker),
    "coroação forçada": lambda f: bool(f.crownings),  # in the losing games: the opponent is made to crown
    "entrega dupla": lambda f: f.sacrifices >= 2 or _double_offer(f),
}
"""Theme tags (Portuguese keys; the English twins use :data:`THEME_EN`) that are facts of the line."""

THEME_EN = {
    "crowning": "coroação",
    "backward capture": "captura para trás",
    "blocking": "bloqueio",
    "king shot": "golpe de dama",
    "multiple capture": "captura em cadeia",
    "multiple jump": "captura em cadeia",
    "three-for-one": "três por um",
    "double offer": "entrega dupla",
    "breakthrough": "coroação forçada",
}


def new_king_at_the_end(facts: LineFacts) -> bool:
    """The solver crowns a man and that king is still on the board at the end (the engine's
    ``coroação`` tag, :func:`generator.puzzles.themes.crowns`)."""
    from .themes import Line, crowns

    return crowns(Line(facts.start, facts.moves))


def _double_offer(facts: LineFacts) -> bool:
    """One offer that costs two pieces (the opponent's capture takes two)."""
    return any(c.side == facts.defender and c.taken >= 2 for c in facts.captures)


def theme_problems(facts: LineFacts, themes: Iterable[str]) -> list[str]:
    """Tags the line contradicts, and a crowning the printed theme line leaves out (the printed
    line is the author's tags plus the engine's, :func:`generator.puzzles.themes.auto_themes`)."""
    from .themes import Line, auto_themes

    tags = {THEME_EN.get(t, t) for t in themes} | set(auto_themes(Line(facts.start, facts.moves)))
    out = [
        f"tagged {t!r} but the line does not show it"
        for t in sorted(tags)
        if t in CHECKED_THEMES and not CHECKED_THEMES[t](facts)
    ]
    if new_king_at_the_end(facts) and not tags & {"coroação", "coroação forçada", "coroação na tomada"}:
        out.append("the line ends with a new king but no tag says so")
    return out
