"""Self-play games start from named openings where a variant has some (generator/puzzles/mining/openings.py)."""

from __future__ import annotations

import pytest

from generator.puzzles.mining.candidate import Settings
from generator.puzzles.mining.openings import OPENINGS, openings_for
from generator.puzzles.mining.sources import self_play_positions
from generator.rules.game import Game
from generator.rules.position import Position
from generator.rules.variants import get_variant

CASES = [(name, op) for name, ops in OPENINGS.items() for op in ops]


def test_the_8x8_games_with_an_opening_theory_have_their_openings() -> None:
    assert len(openings_for("russian")) >= 10 and openings_for("brazilian") == openings_for("russian")
    assert openings_for("american") == (), "a variant without a list keeps random opening moves"


@pytest.mark.parametrize(("variant", "opening"), CASES, ids=[f"{v}-{op.name}" for v, op in CASES])
def test_every_opening_replays_under_its_variant(variant: str, opening) -> None:
    v = get_variant(variant)
    game = Game(v, Position.start(v))
    for text in opening.moves:
        move = game.position.parse_move(text)  # raises on a move that is not legal here
        assert not move.captures, f"{opening.name}: an opening of quiet moves ({text})"
        game.push(move)
    assert game.ply == len(opening.moves) >= 3


def test_a_self_play_game_starts_with_a_named_opening_and_says_which() -> None:
    samples = self_play_positions("russian", 11, Settings("russian", max_plies=12))
    name = samples[0].source["opening"]
    opening = next(op for op in openings_for("russian") if op.name == name)
    start = Position.start(get_variant("russian"))
    game = Game(start.variant, start)
    for text in opening.moves:
        game.push(game.position.parse_move(text))
    assert samples[len(opening.moves)].position.fen() == game.position.fen()
    assert all(s.source["opening"] == name for s in samples)


def test_without_named_openings_the_game_opens_with_random_moves() -> None:
    plain = self_play_positions("russian", 11, Settings("russian", max_plies=12, named_openings=False))
    assert "opening" not in plain[0].source
