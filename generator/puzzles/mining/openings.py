"""Named openings that self-play games start from, so that mined positions look like play.

Why: a self-play game that starts with random moves often gives a man away in its first plies, and
its positions (one side a man or two down before move 10) are not what a club player meets.  Where
a variant has a published opening theory, each self-play game starts from one of its named
openings, drawn from the game's seed, and the engine plays on from there (both sides at the same
depth).  A variant without a list here keeps the random opening moves.

The Russian school's classical openings (Russian draughts: White moves first from the same start
as Brazilian, men move and capture the same way; the draughts-64 federations draw the starting
moves of both games from one table of ballots) are the 8x8 list.  Sources, in docs/mining.md:
the Russian Wikipedia articles on each opening (Городская партия, Отказанная городская партия,
Игра Бодянского), kombinashki.ru's opening pages (Игра Каулена, Игра Филиппова) and
table-games.ru (Киевская защита).  Every opening is replayed under each variant that uses it
(tests/mining/test_openings.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Opening:
    """A named opening: its moves from the start position, in the variant's own notation."""

    name: str
    moves: tuple[str, ...]


RUSSIAN_SCHOOL: tuple[Opening, ...] = (
    Opening("Городская партия", ("c3-d4", "d6-c5", "b2-c3", "f6-g5", "c3-b4")),
    Opening("Городская партия, 3.gf4", ("c3-d4", "d6-c5", "b2-c3", "f6-g5", "g3-f4")),
    Opening("Городская партия, 3...ba5", ("c3-d4", "d6-c5", "b2-c3", "f6-g5", "c3-b4", "b6-a5")),
    Opening("Отказанная городская партия", ("c3-d4", "d6-c5", "d2-c3", "f6-g5", "g3-h4")),
    Opening("Обратная городская партия", ("c3-b4", "f6-e5", "e3-f4", "g7-f6", "b4-a5", "f6-g5")),
    Opening("Игра Бодянского, 2...ab6", ("a3-b4", "b6-a5", "e3-d4", "a7-b6")),
    Opening("Игра Бодянского, 2...cb6", ("a3-b4", "b6-a5", "e3-d4", "c7-b6")),
    Opening("Игра Каулена", ("g3-f4", "f6-e5", "h2-g3")),
    Opening("Игра Филиппова", ("e3-d4", "d6-e5", "a3-b4", "h6-g5")),
    Opening("Киевская защита", ("c3-d4", "f6-g5", "b2-c3", "g5-h4", "c3-b4", "h6-g5")),
)
"""The classical openings of the 8x8 game with backward captures and flying kings."""

OPENINGS: dict[str, tuple[Opening, ...]] = {
    "russian": RUSSIAN_SCHOOL,
    "brazilian": RUSSIAN_SCHOOL,
}
"""Variant name -> the openings its self-play games start from (data, looked up by name)."""


def openings_for(variant_name: str) -> tuple[Opening, ...]:
    """The named openings of a variant; empty when it has none here (random opening moves then)."""
    return OPENINGS.get(variant_name, ())
