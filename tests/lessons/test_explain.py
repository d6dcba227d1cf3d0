"""The rule an error names (generator/lessons/explain.py): one positive case per rule, negative cases
where a move is illegal for no rule (or for another one), and properties on random positions.

Each positive case is a position where exactly that rule makes the written move illegal; the
negative cases make sure a rule name is never handed out for a move it does not explain.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.lessons.explain import (
    counter_words,
    draw_progress,
    explain_move,
    side_to_move_of_all,
    single_switches,
    switched,
    why_category,
)
from generator.rules import VARIANTS, Position
from generator.rules.game import Game
from generator.rules.notation import split_move_text
from tests.rules.test_properties import sparse_positions

AMERICAN_START = "B:W21-32:B1-12"

# (variant, FEN, written move, rule id, a pattern the sentence must match)
NAMED = [
    (
        "american",
        "W:W21-32:B1-12",
        "9-13",
        "side-to-move",
        r"^the position has White to move, and 9-13 is a Black move \(American / English checkers starts with "
        r"Black: PDN FEN 'B:W21-32:B1-12', or write 'start'\)$",
    ),
    ("american", "W:W22:B1", "1-6", "side-to-move", r"^the position has White to move, and 1-6 is a Black move$"),
    (
        "american",
        "W:W22:B1,5,6",
        "1-6",
        "side-to-move",
        r"^the position has White to move, and the piece on 1 is black$",
    ),
    ("american", "W:W22:B1", "13-17", "no-piece", r"^there is no piece on 13$"),
    ("american", "W:W27,30:B15,23", "30-26", "capture-compulsory", r"^capture is compulsory$"),
    ("russian", "W:Wg3:Bf4", "g3-h4", "capture-compulsory", r"^capture is compulsory$"),
    (
        "brazilian",
        "W:We5,Kd8:Be3,Kf6",
        "e5xg7",
        "majority-law",
        r"^the majority law: a capture must take as many pieces as possible \(d8xg5xc1 takes 2 pieces, "
        r"e5xg7 takes 1\)$",
    ),
    ("international", "W:WK9,24:B20,34", "24x15", "majority-law", r"9x25x39 takes 2 pieces, 24x15 takes 1"),
    ("turkish", "W:WKh2,Kg4:Bh4,g7", "g4xg8", "majority-law", r"h2xh7xa7 takes 2 pieces, g4xg8 takes 1"),
    (
        "portuguese",
        "W:WK25,K32:BK10,K18",
        "32x5",
        "law-of-quantity",
        r"^the law of quantity: a capture must take as many pieces as possible \(25x14x1 takes 2 pieces",
    ),
    (
        "portuguese",
        "W:WK7:B12,K18",
        "7x16",
        "law-of-quality",
        r"^the law of quality: among captures of as many pieces, the one that takes the most kings is "
        r"compulsory \(7x21 takes 1 king, 7x16 takes 0\)$",
    ),
    (
        "italian",
        "W:WK2,12:B6,7,K21",
        "12x3",
        "italian-most-pieces",
        r"^the Italian precedence, rule 1 \(most pieces\).*\(2x11x4 takes 2 pieces, 12x3 takes 1\)$",
    ),
    (
        "italian",
        "W:WK21,29:B23,26",
        "29x22",
        "italian-king-captures",
        r"^the Italian precedence, rule 2 \(the king captures\): when a king and a man can take as many pieces, "
        r"the king must capture \(21x30 is the king's capture\)$",
    ),
    (
        "italian",
        "W:W22,K24:B20,K28",
        "24x15",
        "italian-most-kings",
        r"^the Italian precedence, rule 3 \(most kings\).*\(24x31 takes 1 king, 24x15 takes 0\)$",
    ),
    (
        "italian",
        "W:WK16,29,K31:BK1,20,K28",
        "16x23x32",
        "italian-kings-first",
        r"^the Italian precedence, rule 4 \(kings first\).*\(31x24x15 takes a king with its 1st capture, "
        r"16x23x32 only with its 2nd\)$",
    ),
    ("american", "W:W18:B23", "18x27", "men-capture-forward", r"^men do not capture backward in American"),
    ("italian", "W:W18:B22", "18x27", "men-capture-forward", r"^men do not capture backward in Italian draughts$"),
    ("portuguese", "W:W17:BK13", "17x10", "men-capture-forward", r"in Portuguese draughts$"),
    ("turkish", "W:Wb7:Bb6", "b7xb5", "men-capture-forward", r"in Turkish draughts$"),
    ("italian", "W:W15:BK12", "15x8", "men-capture-kings", r"^a man may not capture a king in Italian draughts$"),
    (
        "american",
        "W:W12:B4,7,8,K27",
        "12x3x10",
        "crowning-ends-the-move",
        r"^crowning ends the move in American / English checkers: a man that reaches the last row by capturing "
        r"is crowned and stops there$",
    ),
    ("italian", "W:WK2,12:B6,7,K21", "12x3x10", "crowning-ends-the-move", r"^crowning ends the move in Italian"),
    ("portuguese", "W:W21:BK23,26", "21x30x20", "crowning-ends-the-move", r"in Portuguese draughts"),
    (
        "russian",
        "W:Wh6,Kh8:Be7,Kg7",
        "h6:f8",
        "crowned-and-continues",
        r"^in Russian draughts a man that reaches the last row while capturing is crowned at once and goes on "
        r"capturing as a king$",
    ),
    (
        "international",
        "W:W15:B10,K18",
        "15x4x22",
        "no-crowning-mid-capture",
        r"^in International draughts a man that reaches the last row in the middle of a capture is not crowned: "
        r"it goes on capturing as a man, and is crowned only if the capture ends there$",
    ),
    ("brazilian", "W:Wf6:BKg1,c7,e7,b8", "f6xd8", "no-crowning-mid-capture", r"^in Brazilian draughts"),
    ("turkish", "W:Wf4,c6:BKc7,b8", "c6xc8", "no-crowning-mid-capture", r"^in Turkish draughts"),
    (
        "american",
        "W:WK11:B10",
        "11-4",
        "short-kings",
        r"^kings move one square at a time in American / English checkers \(kings do not fly\)$",
    ),
    ("italian", "W:WK28:BK32", "28-19", "short-kings", r"^kings move one square at a time in Italian"),
    (
        "american",
        "W:WK15:B22",
        "15x29",
        "short-kings",
        r"^a king captures only an adjacent piece, landing right behind it, in American / English checkers",
    ),
    (
        "turkish",
        "W:WKf4,Ke5,e6:BKf1,c2,h2,b3,Kc3,d4,c5",
        "e5xb5xb1xh1xh3",
        "immediate-removal",
        r"^in Turkish draughts each captured piece leaves the board as soon as it is jumped, so the capture goes "
        r"on across its square$",
    ),
    (
        "russian",
        "W:WKh4:Bb2,g3,f4,c5,g5",
        "h4:e7:a3:c1:g5",
        "removal-at-end",
        r"^in Russian draughts captured pieces stay on the board until the capture ends \(the Turkish strike "
        r"rule\): the capturing piece may not pass over or land on a square it has already captured$",
    ),
    (
        "international",
        "W:W28:B23,19,22,12",
        "28x17",
        "capture-incomplete",
        r"^a capture must be completed: after 28x17 the piece can still capture$",
    ),
    ("brazilian", "W:WKa1:Bc3,f6", "a1xd4", "capture-incomplete", r"after a1xd4 the piece can still capture$"),
    (
        "brazilian",
        "W:WKa1:Bb2,d2",
        "a1xe5",
        "capture-incomplete",
        r"^a capture must be completed: a flying king must land on a square from which it can go on capturing$",
    ),
    ("american", "W:W22:B", "22-26", "men-move-forward", r"^men move only forward, one square at a time$"),
    ("turkish", "W:Wd4:B", "d4-d3", "men-move-forward", r"^men move only forward or sideways, one square at a time$"),
]

# Illegal moves that no rule explains: they must get no rule name at all.
UNEXPLAINED = [
    ("american", "W:W22:B", "22-15"),  # a man two squares away, nothing between
    ("american", "W:W22,18:B", "22x13"),  # jumping its own piece
    ("american", "W:W22:B13", "22-13"),  # not a line a man moves on
    ("american", "W:W22:B17,18", "22-17"),  # onto an occupied square
    ("international", "W:WK46:B41,37", "46x28"),  # a flying king cannot jump two pieces in a row
    ("brazilian", "W:Wc3:Bd4", "c3xf6"),  # a man cannot land two squares behind
    ("italian", "W:WK28:B", "28-27"),  # along a row: no piece moves so on a diagonal board
]


@pytest.mark.parametrize(("variant", "fen", "written", "rule_id", "pattern"), NAMED, ids=[c[3] for c in NAMED])
def test_the_rule_is_named(variant: str, fen: str, written: str, rule_id: str, pattern: str) -> None:
    pos = Position.from_fen(variant, fen)
    squares = split_move_text(pos, written)
    with pytest.raises(ValueError):
        pos.parse_move(written)  # the case is an illegal move, or it tests nothing
    rule = explain_move(pos, squares, written)
    assert rule is not None
    assert rule.id == rule_id, rule.text
    assert re.search(pattern, rule.text), rule.text


def test_every_rule_has_a_case() -> None:
    """Every rule the module can name is exercised above, in more than one variant where it applies
    to more than one."""
    ids = {c[3] for c in NAMED}
    assert ids == {
        "side-to-move",
        "no-piece",
        "capture-compulsory",
        "majority-law",
        "law-of-quantity",
        "law-of-quality",
        "italian-most-pieces",
        "italian-king-captures",
        "italian-most-kings",
        "italian-kings-first",
        "men-capture-forward",
        "men-capture-kings",
        "crowning-ends-the-move",
        "crowned-and-continues",
        "no-crowning-mid-capture",
        "short-kings",
        "immediate-removal",
        "removal-at-end",
        "capture-incomplete",
        "men-move-forward",
    }


@pytest.mark.parametrize(("variant", "fen", "written"), UNEXPLAINED)
def test_an_unrelated_illegal_move_gets_no_rule(variant: str, fen: str, written: str) -> None:
    pos = Position.from_fen(variant, fen)
    with pytest.raises(ValueError):
        pos.parse_move(written)
    assert explain_move(pos, split_move_text(pos, written), written) is None


def test_no_wrong_rule_for_a_move_illegal_for_another_reason() -> None:
    """A backward quiet step while a capture exists is barred by the direction men move, not (only)
    by compulsion: naming capture compulsion would send the author to the wrong fix.  A backward man
    capture in a variant where men capture backward is ruled out by precedence, not by direction."""
    pos = Position.from_fen("american", "W:W22,27:B23")
    rule = explain_move(pos, split_move_text(pos, "22-26"), "22-26")
    assert rule is not None and rule.id == "men-move-forward"
    pos = Position.from_fen("brazilian", "W:We5,Kd8:Be3,Kf6,d4")
    legal = [pos.move_text(m) for m in pos.legal_moves()]
    assert "e5xc3" not in legal
    rule = explain_move(pos, split_move_text(pos, "e5xc3"), "e5xc3")
    assert rule is not None and rule.id == "majority-law"


def test_why_category_keeps_its_documented_meaning() -> None:
    """The lesson's `why` values (schema enum) are unchanged by the finer rule names."""
    cases = [
        ("american", "W:W27,30:B15,23", "30-26", "capture-compulsory"),
        ("brazilian", "W:We5,Kd8:Be3,Kf6", "e5xg7", "precedence"),
        ("international", "W:W28:B23,19,22,12", "28x17", "capture-incomplete"),
        ("american", "W:W18:B23", "18x27", "no-such-move"),
        ("american", "W:W21-32:B1-12", "9-13", "no-such-move"),
    ]
    for variant, fen, written, why in cases:
        pos = Position.from_fen(variant, fen)
        assert why_category(pos, split_move_text(pos, written)) == why, (variant, written)


# -- side to move, once ---------------------------------------------------------------------------


def _written(pos: Position, texts: list[str]) -> list[tuple[list[int], str]]:
    return [(split_move_text(pos, t), t) for t in texts]


def test_every_claimed_move_of_the_other_side_is_one_sentence() -> None:
    pos = Position.from_fen("american", "W:W21-32:B1-12")
    texts = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    sentence = side_to_move_of_all(pos, _written(pos, texts))
    assert sentence == (
        "the position has White to move, but every claimed move is a Black move (American / English checkers "
        f"starts with Black: PDN FEN '{AMERICAN_START}', or write 'start')"
    )
    assert Position.from_fen("american", "start").fen() == AMERICAN_START


def test_side_to_move_sentence_only_when_every_move_is_the_other_sides() -> None:
    pos = Position.from_fen("american", "W:W21-32:B1-12")
    assert side_to_move_of_all(pos, _written(pos, ["9-13", "22-17"])) is None  # 22-17 is White's
    assert side_to_move_of_all(pos, _written(pos, ["9-13", "13-17"])) is None  # nothing on 13
    assert side_to_move_of_all(pos, _written(pos, ["9-14", "1-6"])) is None  # 1-6 is no move for Black either
    assert side_to_move_of_all(pos, []) is None
    assert side_to_move_of_all(pos, _written(pos, ["9-13"])) == (
        "the position has White to move, but the claimed move 9-13 is a Black move (American / English checkers "
        f"starts with Black: PDN FEN '{AMERICAN_START}', or write 'start')"
    )
    # Not the start position: no hint about the first mover.
    pos = Position.from_fen("international", "B:W31-50:B1-19")
    assert side_to_move_of_all(pos, _written(pos, ["31-26", "32-28"])) == (
        "the position has Black to move, but every claimed move is a White move"
    )


# -- draw counters --------------------------------------------------------------------------------


def test_draw_progress_names_rule_threshold_and_counter() -> None:
    game = Game("american", "W:WK10:BK19:H78")
    game.play("10-14")
    assert draw_progress(game, "E2") == (
        "E2 (40 moves each with no man advanced and nothing captured) draws at 80 plies without a capture or "
        "a man move; the counter is at 79 of 80 plies"
    )
    assert counter_words(game, "E2") == "the counter is at 79 of 80 plies"
    assert draw_progress(game, None) == draw_progress(game, "E2")  # the nearest rule, E1 is at 1 of 3
    assert draw_progress(game, "E1") == (
        "E1 (threefold repetition) draws when a position occurs 3 times; the position has occurred 1 of 3 times"
    )


def test_draw_progress_of_a_rule_that_does_not_apply() -> None:
    # FMJD D3 (three pieces, one a king, against a lone king) with two against two.
    game = Game("international", "W:WK1,K2:BK49,K50")
    assert draw_progress(game, "D3") == (
        "D3 (16 moves each of three pieces (one a king) against a lone king) does not apply to this material"
    )
    assert counter_words(game, "D3") is None
    assert draw_progress(Game("american", "start", profile="none"), None) is None


def test_draw_progress_counts_an_endgame_rule() -> None:
    game = Game("international", "W:WK1,K2,K3:BK50")
    game.play("1-7")
    assert counter_words(game, "D3") == "the counter is at 1 of 32 plies"


# -- properties on random positions ---------------------------------------------------------------

EIGHT = ["american", "brazilian", "italian", "portuguese", "russian", "turkish"]


@given(st.sampled_from(EIGHT).flatmap(sparse_positions))
def test_every_move_of_the_other_side_is_named_as_such(pos: Position) -> None:
    flipped = Position(pos.variant, pos.white, pos.black, pos.kings, pos.turn ^ 1)
    legal = pos.legal_moves()
    for m in flipped.legal_moves():
        text = flipped.move_text(m, long=True)
        rule = explain_move(pos, list(m.path), text)
        assert rule is not None and rule.id == "side-to-move"
        assert f"{text} is a" in rule.text
        assert m not in legal


@given(st.sampled_from(EIGHT).flatmap(sparse_positions))
def test_a_move_that_one_rule_switch_allows_is_always_explained(pos: Position) -> None:
    """Every move legal under one switched rule and not here gets a rule name (never none, never a
    rule about who is to move or which square is empty)."""
    legal = pos.legal_moves()
    for king in (False, True):
        for field, value in single_switches(pos.variant, king):
            other = Position(switched(pos.variant, field, value), *pos.state)
            for m in other.legal_moves():
                text = other.move_text(m, long=True)
                if m.king != king or m in legal or _reads_as_legal(pos, text):
                    continue
                rule = explain_move(pos, list(m.path), text)
                assert rule is not None, (field, value, text)
                assert rule.id not in ("side-to-move", "no-piece", "men-move-forward"), (rule, text)


def _reads_as_legal(pos: Position, text: str) -> bool:
    try:
        pos.parse_move(text)
    except ValueError:
        return False
    return True


def test_the_switches_cover_every_rule_parameter_that_changes_moves() -> None:
    """A new rule switch in Variant must be considered here too (or knowingly left out)."""
    from generator.rules.variants import RULE_SWITCHES

    tried = {f for v in VARIANTS.values() for king in (False, True) for f, _ in single_switches(v, king)}
    assert tried | {"first_to_move", "goal", "precedence"} == set(RULE_SWITCHES)
