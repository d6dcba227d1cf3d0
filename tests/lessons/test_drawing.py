"""Boards drawn as text (generator/lessons/drawing.py): the reader the lessons and `damas fen` share,
and the writer behind `damas board`; round trips on every variant."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.lessons.check import check_text
from generator.lessons.drawing import DrawingError, draw_board, read_board, rows_of
from generator.rules import BLACK, WHITE, Position, get_variant
from tests.rules.test_properties import sparse_positions

from .helpers import VARIANTS

AMERICAN_START = """\
- b - b - b - b
b - b - b - b -
- b - b - b - b
. - . - . - . -
- . - . - . - .
w - w - w - w -
- w - w - w - w
w - w - w - w -
"""


def test_american_start_drawing() -> None:
    """Written exactly as docs/lessons.md describes: top row first, a1 (bottom left) a playing square."""
    assert draw_board(Position.start("american")) == AMERICAN_START


def test_mirrored_and_full_boards() -> None:
    italian = draw_board(Position.start("italian")).splitlines()
    assert italian[-1].startswith("- w")  # a1 is light on the mirrored board
    assert italian[0].startswith("b -")
    turkish = draw_board(Position.from_fen("turkish", "W:Wa2,Kh1:Bh7")).splitlines()
    assert "-" not in "".join(turkish)  # every square is played on
    assert turkish[-1] == ". . . . . . . W"
    assert turkish[1] == ". . . . . . . b"
    assert turkish[6] == "w . . . . . . ."
    ten = draw_board(Position.start("international")).splitlines()
    assert len(ten) == 10 and all(len(r.split()) == 10 for r in ten)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_start_round_trip(variant: str, turn: int) -> None:
    start = Position.start(variant)
    pos, problems = read_board(start.variant, draw_board(start), turn)
    assert problems == []
    assert pos == Position(start.variant, start.white, start.black, start.kings, turn)


@given(st.sampled_from(VARIANTS).flatmap(sparse_positions))
def test_random_positions_round_trip(pos: Position) -> None:
    """position -> drawing -> position, and the FEN of both agree (kings, both sides, the turn)."""
    back, problems = read_board(pos.variant, draw_board(pos), pos.turn)
    assert problems == []
    assert back == pos
    assert back is not None and back.fen() == pos.fen()


def test_indentation_and_blank_lines_do_not_matter() -> None:
    text = "\n\n" + "".join("    " + line + "  \n\n" for line in AMERICAN_START.splitlines())
    pos, problems = read_board(get_variant("american"), text, BLACK)
    assert problems == [] and pos == Position.start("american")


def test_problems_carry_row_and_column() -> None:
    rows = AMERICAN_START.splitlines()
    rows[2] = "- b - x - b - b"
    rows[7] = "w - w - w - w"
    pos, problems = read_board(get_variant("american"), "\n".join(rows), BLACK)
    assert pos is None
    assert problems == [
        DrawingError("'x' is not a square: use w b (men), W B (kings), . (empty) or - (light)", 2, 6),
        DrawingError("row 8 has 7 squares; expected 8", 7, 0),
    ]
    pos, problems = read_board(get_variant("american"), "\n".join(rows[:5]), BLACK)
    assert problems == [DrawingError("the board has 5 row(s); the american board has 8")]
    assert rows_of("  a b \n\n c\n") == ["a b", "c"]


def test_the_lesson_loader_uses_the_same_reader() -> None:
    """A drawing printed by draw_board, pasted into a lesson, is the position it was drawn from; and
    the loader reports a drawing problem with the reader's own message at the file's line and column."""
    pos = Position.from_fen("brazilian", "B:WKa1,c3,h2:Bb6,Kd8,g7")
    block = "".join(f"          {row}\n" for row in draw_board(pos).splitlines())
    lesson = (
        "variant: brazilian\nlanguage: en\ntitle: T\nslug: t\nsections:\n  - title: S\n    diagrams:\n"
        f"      - board: |\n{block}        turn: black\n"
    )
    checked, errors = check_text(lesson, "t.yaml")
    assert errors == []
    assert checked is not None
    assert checked.lesson.sections[0].diagrams[0].position == pos
    broken = lesson.replace("- w - .", "- w - q", 1)
    assert broken != lesson
    _, errors = check_text(broken, "t.yaml")
    row = next(i for i, line in enumerate(broken.splitlines()) if "- q" in line)
    col = broken.splitlines()[row].index("q")
    assert [str(e) for e in errors] == [
        f"t.yaml:{row + 1}:{col + 1}: 'q' is not a square: use w b (men), W B (kings), . (empty) or - (light)"
    ]
