"""Each book rule, line fact, hint and caption check on small positions whose answer is known."""

from __future__ import annotations

import pytest

from generator.puzzles import book_rules
from generator.puzzles.caption_audit import audit_caption
from generator.puzzles.hints import hint, start_square
from generator.puzzles.line_facts import line_facts
from generator.rules.position import Position
from generator.rules.variants import get_variant

AM = get_variant("american")
BR = get_variant("brazilian")
RU = get_variant("russian")
# Black offers 6-10, White must take 15x6, Black jumps 8x15x22: two for one (ACF archive, game 4)
SHOT = line_facts(Position.from_fen(AM, "B:W11,15,18,21,23,27,28:B2,4-6,8,13"), ["6-10", "15x6", "8x15x22"])
# Brazilian: the h4 man captures backward h4xf6xd8 and stops on its own back row (no crowning)
BACK = line_facts(
    Position.from_fen(BR, "W:Wa3,e3,g3,f4,h4:Bc3,c5,e5,d6,h6,c7,e7"), ["e3-d4", "c5xe3xg5", "h4xf6xd4xb2"]
)


def test_line_facts_of_a_two_for_one() -> None:
    assert SHOT.sacrifices == 1 and SHOT.quiet_moves == 0
    assert SHOT.first_material_change < 0 and SHOT.net_gain == 1
    assert SHOT.biggest_capture is not None and SHOT.biggest_capture.taken == 2
    assert start_square(SHOT, 2) == SHOT.moves[2].origin
    assert not SHOT.crownings and not SHOT.game_won


def test_a_backward_capture_is_a_fact_and_a_crowning_is_not() -> None:
    assert BACK.backward_by(BACK.attacker)
    assert not BACK.crownings
    # Brazilian #99 of the first edition: h4xf6xd8 lands on Black's own back row, no crowning
    pos = Position.from_fen(BR, "B:Wa1,h2,e3,b6,a7,e7:Ba3,h4,e5,b8")
    facts = line_facts(pos, ["e5-f4", "e3xg5", "h4xf6xd8"])
    caption = "Vez das pretas. A pedra de h4 pode atravessar o tabuleiro para trás e coroar."
    assert audit_caption(caption, facts) == ["says 'coroar' but no man is crowned in the line"]


def test_starting_two_men_up_is_a_won_ending_unless_the_win_gives_material() -> None:
    up = line_facts(Position.from_fen(AM, "W:W19,20,24,28:B10,12"), ["19-16", "12x19", "24x15x6"])
    assert book_rules.starts_two_up(up)
    assert not book_rules.ahead_allowed(up, "gain")  # material given up, but the goal is no win
    assert book_rules.ahead_allowed(up, "win")
    assert "starts two men or a king up" in book_rules.judge(up, "gain:1").reasons
    assert not book_rules.starts_two_up(SHOT)


def test_a_gain_must_give_first() -> None:
    assert book_rules.gives_first(SHOT)
    takes = line_facts(Position.from_fen(AM, "B:W18:B14,1"), ["14x23"])
    assert not book_rules.gives_first(takes)
    assert "the gain does not give material first" in book_rules.judge(takes, "gain:1").reasons


def test_a_line_that_takes_every_piece_must_be_printed_as_a_win() -> None:
    last = line_facts(Position.from_fen(AM, "B:W18:B14"), ["14x23"])
    assert last.defender_has_no_pieces and last.game_won
    assert book_rules.understated(last, "gain")
    assert not book_rules.understated(last, "win")


def test_the_length_mix_of_a_book() -> None:
    assert book_rules.length_mix([3, 5, 7, 9]).ok
    mix = book_rules.length_mix([3, 3, 5, 7])
    assert mix.short_share == 0.5 and not mix.ok
    assert not book_rules.length_mix([5, 5, 5, 7, 5]).ok  # 7+ only 20 %


def test_near_duplicates_across_variants_that_share_a_board() -> None:
    fen, line = "W:Wa3,e3,g3,f4,h4:Bc3,c5,e5,d6,h6,c7,e7", ["e3-d4", "c5xe3xg5", "h4xf6xd4xb2"]
    russian = line_facts(Position.from_fen(RU, fen), line)
    assert book_rules.near_duplicate(BACK, russian)  # the same board, Brazilian and Russian
    assert book_rules.board_key(BACK.start) == book_rules.board_key(russian.start)
    assert not book_rules.near_duplicate(BACK, SHOT)
    # one piece moved far from the action: the same combination
    moved = line_facts(Position.from_fen(BR, "W:Wa1,e3,g3,f4,h4:Bc3,c5,e5,d6,h6,c7,e7"), line)
    assert book_rules.near_duplicate(BACK, moved)
    assert book_rules.keep_deeper(BACK, moved) is BACK


def test_theme_tags_must_agree_with_the_line() -> None:
    assert book_rules.theme_problems(BACK, ["captura para trás"]) == []
    assert book_rules.theme_problems(BACK, ["coroação forçada"])  # nobody crowns
    assert book_rules.theme_problems(SHOT, ["three-for-one"])  # a two-for-one


@pytest.mark.parametrize(
    ("caption", "false"),
    [
        ("Vez das brancas. A pedra de h4 come para trás e coroa.", True),  # nobody crowns
        ("Vez das brancas. A pedra de h4 come para trás.", False),
        ("Vez das pretas. A pedra de h4 come para trás.", True),  # the wrong side
        ("Vez das brancas, com duas pedras a mais.", True),  # five against seven
        ("Vez das brancas. A pedra preta de c5 toma duas.", False),
        ("Vez das brancas. A pedra preta de b4 toma duas.", True),  # no piece on b4
        ("Vez das brancas. No fim, as pretas ficam sem lances.", True),
        ("Vez das brancas. A pedra de h4 está a um passo de coroar.", False),  # a threat, not a fact
    ],
)
def test_the_caption_audit_reads_each_fact_against_the_line(caption: str, false: bool) -> None:
    assert bool(audit_caption(caption, BACK)) is false


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_hints_written_from_the_proof_pass_the_audit(language: str) -> None:
    for facts, goal in [(SHOT, "gain"), (BACK, "gain")]:
        text = hint(facts, goal, language)
        assert text and audit_caption(text, facts, language) == []
    assert (
        hint(SHOT, "gain", "pt-BR") == "Vez das pretas. Uma entrega abre o caminho e a pedra de 8 toma duas de uma vez."
    )
    assert hint(SHOT, "gain", "en").startswith("Black to move.")
