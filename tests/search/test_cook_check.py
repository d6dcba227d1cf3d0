"""The problemist's standard in ``damas check`` (generator/puzzles/proof.py): the key is
proven first; another first move that forces the goal within the printed length plus the margin
is a cook, named with its line; a gain or promote line that gives nothing up is "not a puzzle",
while a quiet win needs no sacrifice; ``margin`` needs ``margin_reason``."""

from __future__ import annotations

from generator.lessons.check import check_text
from tests.search.catalog import BY_ID, Step, lesson_text

PATH = "puzzle.yaml"
# american-breakthrough: 12-8 crowns in 3 plies; 26-23 3x10 19-15 10x19x26 12-8 2-7 8-4 crowns in 7
BREAKTHROUGH = BY_ID["american-breakthrough"]


def check(variant, fen, stip, steps, margin=None, reason="it is a test"):
    line = tuple(s if isinstance(s, Step) else Step(s) for s in steps)
    return check_text(lesson_text(variant, [("p1", fen, stip, line)], margin=margin, margin_reason=reason), PATH)


def test_cook_past_the_printed_line_is_named_with_its_forcing_line() -> None:
    s = BREAKTHROUGH
    _, errors = check(s.variant, s.fen, s.goal, [st for st in s.line])
    assert len(errors) == 1, [str(e) for e in errors]
    msg = errors[0].message
    assert msg.startswith("cooked: 26-23 (26-23 ")
    assert "also forces a promotion within 7 plies (the printed 3 plus a margin of 4)" in msg
    # the named line is a real forcing line: it is legal and crowns
    from generator.rules import Position

    pos = Position.from_fen(s.variant, s.fen)
    line = msg[msg.index("(") + 1 : msg.index(")")].split()
    kings = (pos.pieces(pos.turn) & pos.kings).bit_count()
    me = pos.turn
    for t in line:
        pos = pos.play(pos.parse_move(t))
    assert (pos.pieces(me) & pos.kings).bit_count() > kings


def test_margin_sets_how_far_the_cook_search_goes() -> None:
    s = BREAKTHROUGH
    _, errors = check(s.variant, s.fen, s.goal, list(s.line), margin=3, reason="the slower crowning is a sideline")
    assert [str(e) for e in errors] == []  # 26-23 needs 7 plies: beyond 3 + 3
    _, errors = check(s.variant, s.fen, s.goal, list(s.line), margin=4, reason="r")
    assert len(errors) == 1 and errors[0].message.startswith("cooked: 26-23")


def test_margin_without_reason_is_refused() -> None:
    s = BREAKTHROUGH
    text = lesson_text(s.variant, [("p1", s.fen, s.goal, s.line)], margin=0).replace("    margin_reason: '", "    # '")
    _, errors = check_text(text, PATH)
    assert any("margin_reason" in e.message for e in errors), [str(e) for e in errors]


def test_a_wrong_key_is_refuted_before_any_cook_search() -> None:
    # Russian: after f6-g7 black need not take two; f4:d6 escapes (see test_puzzle_check)
    line = ["f6-g7", Step("h8xf6xd4", ("f4xd6", "f4xh2")), "g3xe5xc3xa5"]
    _, errors = check("russian", "W:Wg3,e5,f6:Bb4,b8,f4,h8", "gain:1", line)
    assert len(errors) == 1, [str(e) for e in errors]
    assert errors[0].message.startswith("f6-g7 does not force a gain of 1 piece")
    assert not any("cooked" in e.message for e in errors)


def test_capturing_a_loose_piece_is_not_a_puzzle() -> None:
    # american: 22x15 takes the loose man on 18; nothing is given up
    _, errors = check("american", "W:W22,30:B18,1", "gain:1", ["22x15"])
    assert [e.message for e in errors] == [
        "not a puzzle: the line gives nothing up, the side to move simply wins the material anyway; "
        "show a combination (a sacrifice) or use the 'win' stipulation for a quiet win"
    ]


def test_the_same_gain_after_a_sacrifice_is_a_puzzle() -> None:
    s = BY_ID["american-golpe"]  # 26-23 19x26 31x22x13: one given, two taken
    _, errors = check(s.variant, s.fen, s.goal, list(s.line))
    assert [str(e) for e in errors] == []


def test_a_quiet_win_needs_no_sacrifice() -> None:
    s = BY_ID["brazilian-block"]  # a3-b4 blocks: no material changes hands
    _, errors = check(s.variant, s.fen, s.goal, list(s.line), margin=0, reason="catalogue shot")
    assert [str(e) for e in errors] == []


def test_walking_a_man_to_the_crown_is_not_a_puzzle() -> None:
    _, errors = check("russian", "W:Wb6:Bh6", "promote", ["b6-a7", "h6-g5", "a7-b8"], margin=0)
    assert any(e.message.startswith("not a puzzle:") for e in errors)
