"""Each engine theme on a line that has it and on one that does not (as lichess-puzzler tests its tags)."""

from __future__ import annotations

import pytest

from generator.puzzles.themes import DIFFICULTY_WORDS, THEMES, Line, auto_themes, difficulty, sacrifice
from generator.rules import Position


def line(variant: str, fen: str, *moves: str) -> Line:
    pos = Position.from_fen(variant, fen)
    played = []
    for text in moves:
        m = pos.parse_move(text)
        played.append(m)
        pos = pos.play(m)
    return Line(Position.from_fen(variant, fen), tuple(played))


TWO_FOR_ONE = ("international", "W:W22,28,33:B3,11,13", "22-18", "13x22", "28x17x6")
DOUBLE_OFFER = (
    "brazilian",
    "W:Wa1,c1,e1,g1,h2,f4:Ba7,d4,d6,f6,g7,h8",
    "f4-g5",
    "f6xh4",
    "h2-g3",
    "h4xf2",
    "g1xe3xc5xe7",
)
EXCHANGES = ("international", "W:W27,28,32,37,41:B16,17,19,21", "28-22", "17x28", "32x23x14", "21x32", "37x28")
KING_ROUND = ("brazilian", "W:Wf2,Kb4,d6,f6:Bd4,f4,h4,b8,d8,f8", "f6-e7", "d8xf6", "d6-c7", "b8xd6", "b4xe7xg5xe3xc5")
CROWNING = ("international", "W:W13,18,19:B3,10,17,26", "18-12", "17x8", "13x2")
BLOCK = ("american", "W:W16,21,23,28:B12,13,15", "23-19", "15x24", "28x19", "13-17", "21x14")
MAJORITY = ("international", "W:W22,27,41:B32,37,38,39", "22-17", "32x21x12", "41x32x43x34")
TURKISH = ("portuguese", "W:W2,K3,6,12,15,16:B14,23,24,26,27,31,32", "16-20", "23x16x7", "3x16x30x21x11")
BACKWARD = ("brazilian", "W:Wc1,g3,Kg5,h6:Ba3,Kc5,e5,b6,c7,h8", "c1-b2", "a3xc1", "g5-f4", "c1xg5", "h6xf4xd6xb4")
KING_SHOT_ONLY = ("international", "W:W35,42,44,K48:B6,10,16,25,28,31", "42-37", "31x42", "48x37x23x5")

CASES = {
    # theme: (a line with it, a line without it)
    "sacrifício": (DOUBLE_OFFER, TWO_FOR_ONE),
    "golpe de dama": (KING_ROUND, DOUBLE_OFFER),
    "coroação": (CROWNING, DOUBLE_OFFER),
    "bloqueio": (BLOCK, TWO_FOR_ONE),
    "lei da maioria": (MAJORITY, TWO_FOR_ONE),
    "golpe turco": (TURKISH, KING_SHOT_ONLY),
    "captura para trás": (BACKWARD, TWO_FOR_ONE),
}


def test_every_theme_has_a_case() -> None:
    assert set(CASES) == set(THEMES)


@pytest.mark.parametrize("theme", sorted(CASES))
def test_theme_positive_and_negative(theme: str) -> None:
    yes, no = CASES[theme]
    assert THEMES[theme](line(*yes)), f"{theme} not found in {yes[1]}"
    assert not THEMES[theme](line(*no)), f"{theme} wrongly found in {no[1]}"


def test_even_exchanges_are_not_a_sacrifice() -> None:
    """Two one-for-one trades (the old tagger called this a double sacrifice)."""
    assert not sacrifice(line(*EXCHANGES))


def test_losing_games_get_no_material_themes() -> None:
    perde = line("perde-ganha", "W:Wb2,d2,b4:Bg3,d6,h6,b8", "b4-c5", "d6xb4", "d2-c3", "b4xd2", "b2-c3", "d2xb4")
    assert "sacrifício" not in auto_themes(perde)
    assert "bloqueio" not in auto_themes(perde)


def test_difficulty_grows_with_the_line() -> None:
    short = difficulty(line(*TWO_FOR_ONE), 0)
    long = difficulty(line(*DOUBLE_OFFER), 0)
    assert short == 1
    assert long > short
    assert difficulty(line(*DOUBLE_OFFER), 8) >= long
    assert set(DIFFICULTY_WORDS) == {1, 2, 3, 4, 5}
