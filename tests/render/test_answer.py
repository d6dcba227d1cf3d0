"""The answer key's text: move numbers as players write them, defences where they branch."""

from __future__ import annotations

from generator.render.answer import answer_text, comment, material, outcome
from generator.rules import Position


def played(variant: str, fen: str, *moves: str) -> tuple[Position, list, Position]:
    start = pos = Position.from_fen(variant, fen)
    out = []
    for text in moves:
        m = pos.parse_move(text)
        out.append(m)
        pos = pos.play(m)
    return start, out, pos


def test_white_first_variant_numbers_pairs_from_white() -> None:
    start, moves, _ = played("international", "W:W22,28,33:B3,11,13", "22-18", "13x22", "28x17x6")
    assert answer_text(start, moves, []) == "1. 22-18 13x22 2. 28x17x6"


def test_black_to_move_in_a_white_first_variant_opens_with_an_ellipsis() -> None:
    start, moves, _ = played(
        "brazilian", "B:WKd4,f4,f6,h2,h4:Ba5,a7,b4,b6,d6", "d6-e5", "f4xd6", "b6-c5", "d4xb6", "a5xc7xe5xg7"
    )
    assert answer_text(start, moves, []) == "1. … d6-e5 2. f4xd6 b6-c5 3. d4xb6 a5xc7xe5xg7"


def test_american_black_moves_first() -> None:
    start, moves, _ = played("american", "W:W26,31,32:B1,17,19", "26-23", "19x26", "31x22x13")
    assert answer_text(start, moves, []) == "1. … 26-23 2. 19x26 31x22x13"
    start, moves, _ = played("american", "B:W17,26:B3,12", "3-7")
    assert answer_text(start, moves, []) == "1. 3-7"


def test_defence_in_parentheses_where_it_branches() -> None:
    start, moves, _ = played(
        "international", "W:W16,19,23,25,27:B6,9,15", "19-14", "9x20", "25x14", "6-11", "16x7", "15-20", "14x25"
    )
    before = start
    for m in moves[:3]:
        before = before.play(m)
    other = before.parse_move("15-20")
    after = before.play(other)
    text = answer_text(start, moves, [(3, other, [after.parse_move("14x25")])])
    assert text == "1. 19-14 9x20 2. 25x14 6-11 (2. … 15-20 3. 14x25) 3. 16x7 15-20 4. 14x25"


def test_material_outcome_and_comment() -> None:
    start, _, end = played("international", "W:W22,28,33:B3,11,13", "22-18", "13x22", "28x17x6")
    assert material(end) == "brancas com 2 pedras; pretas com 1 pedra"
    assert outcome(start, end, "gain", 1) == "as brancas ficam com uma peça a mais"
    assert comment([], start, end, "gain", 1) == "As brancas ficam com uma peça a mais."
    assert comment(["sacrifício", "golpe de dama"], start, end, "gain", 2).startswith("Sacrifício e golpe de dama: ")
