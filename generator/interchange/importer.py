"""``damas import``: a puzzle collection proven entry by entry, the sound ones written as lessons.

For each entry (:mod:`.entries`): the moves are replayed with the rules (an illegal or unreadable
move makes the entry *unreadable*, reported at its ``file:line:col``); the goal is the one the source
states, else the strongest the line reaches (a win, then the net material, then a crowning); then the
entry is proven by :func:`generator.puzzles.proof.prove_puzzle`, the proof ``damas check`` makes of
a lesson's puzzle, so a lesson the import writes is one that ``damas check`` accepts.  The verdict
per entry: sound; cooked (the other keys); wrong (where the printed line fails, with the defence that
escapes); undecided within the proof budget; not a puzzle (material won without giving anything
up).  When the goal was inferred and the strongest one is not sound, the next weaker goal the line
reaches is tried (a line that wins two pieces but does not force the win is a ``gain:2`` puzzle).

The sound entries become lessons of at most the ``puzzles`` limit each (``lesson.yaml``,
``lesson-2.yaml`` ...), written atomically once every entry was proven.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import yaml

from ..errors import DamasError
from ..puzzles.proof import prove_puzzle, resolve_budget
from ..puzzles.result import Status
from ..rules.game import Counters
from ..rules.move import Move
from ..rules.position import Position
from ..rules.variants import Goal
from .entries import Entry


class Verdict(StrEnum):
    SOUND = "sound"
    COOKED = "cooked"
    WRONG = "wrong"
    UNDECIDED = "undecided"
    NOT_A_PUZZLE = "not a puzzle"
    UNREADABLE = "unreadable"
    OTHER_VARIANT = "other variant"
    """A game of another variant than the lesson's (a file may mix them): left for its own import."""


@dataclass
class Imported:
    """An entry with its verdict and, when sound, the lesson puzzle it becomes."""

    entry: Entry
    verdict: Verdict
    goal: str | None = None
    inferred: bool = False
    """The goal was not stated by the source: the strongest sound one the line reaches."""
    details: list[str] = field(default_factory=list)
    """The checker's words: the cooks, the escape, the budget, the problems of an unreadable entry."""
    puzzle: dict[str, Any] | None = None

    def report(self) -> str:
        """``file:line:col: sound (win, inferred)`` and, indented, the details."""
        goal = f" ({self.goal}{', inferred' if self.inferred else ''})" if self.goal else ""
        head = f"{self.entry.where}: {self.verdict.value}{goal}"
        return "\n".join([head, *(f"  {d}" for d in self.details)])


def replay(entry: Entry) -> list[Move] | None:
    """The entry's moves from its position, or None after noting why they cannot be played."""
    if entry.variant is None or entry.fen is None or entry.problems:
        return None
    try:
        pos = Position.from_fen(entry.variant, entry.fen)
    except DamasError as exc:
        entry.problem(entry.line, entry.col, f"FEN: {exc}")
        return None
    moves = []
    for text, line, col in entry.moves:
        try:
            move = pos.parse_move(text)
        except DamasError as exc:
            entry.problem(line, col, f"{text}: {exc}")
            return None
        moves.append(move)
        pos = pos.play(move)
    return moves


def reached_goals(start: Position, moves: list[Move]) -> list[str]:
    """Every goal the line reaches, strongest first: ``win`` (the defender is left without a move;
    in the losing games, the solver), ``gain:N`` (N pieces net, in a position with no capture left),
    ``promote`` (a solver's man crowned)."""
    attacker = start.turn
    pos = start
    for m in moves:
        pos = pos.play(m)
    out = []
    stuck = not pos.has_legal_moves()
    losing = start.variant.goal is Goal.LOSING
    if stuck and (pos.turn == attacker) == losing:
        out.append("win")
    if not losing and not any(m.captures for m in pos.legal_moves()):
        gained = (start.pieces(attacker ^ 1).bit_count() - pos.pieces(attacker ^ 1).bit_count()) - (
            start.pieces(attacker).bit_count() - pos.pieces(attacker).bit_count()
        )
        if 0 < gained < 100:
            out.append(f"gain:{gained}")
    if any(m.promotes for m in moves[0::2]):
        out.append("promote")
    return out


def solution_items(start: Position, moves: list[Move]) -> list[Any]:
    """The lesson's ``solution``: each defender move with its other legal replies under ``others``."""
    items: list[Any] = []
    pos = start
    for j, m in enumerate(moves):
        text = pos.move_text(m, long=True)
        others = [pos.move_text(r, long=True) for r in pos.sorted_moves([r for r in pos.legal_moves() if r != m])]
        items.append({"move": text, "others": others} if j % 2 == 1 and others else text)
        pos = pos.play(m)
    return items


def puzzle_data(entry: Entry, ident: str, start: Position, moves: list[Move], goal: str) -> dict[str, Any]:
    """The entry as a lesson puzzle (YAML data), with where it came from."""
    data: dict[str, Any] = {"id": ident, "position": start.fen()}
    if entry.caption:
        data["caption"] = entry.caption
    data["stipulation"] = goal
    data["solution"] = solution_items(start, moves)
    source: dict[str, Any] = {"kind": entry.form, "file": entry.path.rsplit("/", 1)[-1], "line": entry.line}
    if entry.form == "pdn":
        source["game"] = entry.index
    if entry.event:
        source["event"] = entry.event
    data["source"] = source
    return data


def lesson_text(variant: str, language: str, title: str, slug: str, intro: tuple[str, str], puzzles: list[Any]) -> str:
    """A whole lesson file: header, one section saying where the puzzles come from, the puzzles."""
    doc = {
        "variant": variant,
        "language": language,
        "title": title,
        "slug": slug,
        "sections": [{"title": intro[0], "text": intro[1]}],
        "puzzles": puzzles,
    }
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


def prove_entry(entry: Entry, ident: str, language: str, budget: int | None) -> Imported:
    """Replay, pick the goal, prove (:func:`generator.puzzles.proof.prove_puzzle`, the proof
    ``damas check`` makes): the entry's verdict."""
    moves = replay(entry)
    if moves is None or entry.variant is None or entry.fen is None:
        return Imported(entry, Verdict.UNREADABLE, details=list(entry.problems))
    start = Position.from_fen(entry.variant, entry.fen)
    stated = entry.goal
    if stated is not None and not GOAL.fullmatch(stated):
        return Imported(entry, Verdict.UNREADABLE, stated, details=[f"{entry.where}: goal '{stated}': {GOAL_WORDS}"])
    goals = [stated] if stated else reached_goals(start, moves)
    if not goals:
        return Imported(
            entry, Verdict.NOT_A_PUZZLE, details=["the line neither wins, nor wins material, nor crowns a man"]
        )
    first: Imported | None = None
    for goal in goals:
        result = prove_puzzle(start, goal, moves, budget=resolve_budget(budget), counters=Counters.from_fen(entry.fen))
        verdict = VERDICTS[result.status]
        details = [problem.message for problem in result.problems]
        data = puzzle_data(entry, ident, start, moves, goal) if verdict is Verdict.SOUND else None
        got = Imported(entry, verdict, goal, stated is None, details, data)
        if verdict is Verdict.SOUND or stated:
            return got
        first = first or got
    assert first is not None
    return first


VERDICTS = {
    Status.SOUND: Verdict.SOUND,
    Status.COOKED: Verdict.COOKED,
    Status.WRONG: Verdict.WRONG,
    Status.UNDECIDED: Verdict.UNDECIDED,
    Status.NOT_A_PUZZLE: Verdict.NOT_A_PUZZLE,
}
GOAL = re.compile(r"win|promote|draw|gain:[1-9][0-9]?")
GOAL_WORDS = "a goal is win, gain:N, promote or draw"


def import_entries(
    entries: Iterator[Entry], language: str, budget: int | None = None, prefix: str = "imp", variant: str | None = None
) -> Iterator[Imported]:
    """Each entry proven, in file order; ids from the source where it gives a free one, else numbered.
    With ``variant``, the games of other variants are only reported (a lesson has one variant)."""
    used: set[str] = set()
    for entry in entries:
        other = entry.variant.name if entry.variant is not None else None
        if variant is not None and other is not None and other != variant:
            yield Imported(entry, Verdict.OTHER_VARIANT, details=[f"a {other} game: import it with --variant {other}"])
            continue
        ident = _ident(entry, prefix, used)
        used.add(ident)
        yield prove_entry(entry, ident, language, budget)


def _ident(entry: Entry, prefix: str, used: set[str]) -> str:
    wanted = re.sub(r"[^a-z0-9]+", "-", (entry.ident or "").lower()).strip("-")[:60]
    if wanted and wanted not in used:
        return wanted
    n = entry.index
    while f"{prefix}-{n:03d}" in used:
        n += 1
    return f"{prefix}-{n:03d}"


def chunks(items: list[Any], size: int) -> list[list[Any]]:
    """``items`` in lessons of at most ``size`` puzzles (the ``puzzles`` limit)."""
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]
