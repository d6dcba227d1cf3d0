"""The playing engine (generator/puzzles/engine.py) and ``damas play``: it finds the key of every
bundled golpe, only plays legal moves, is deterministic for a seed, and inverts material in losing
variants."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from generator.puzzles.engine import WIN, Engine
from generator.rules import VARIANTS, Position

ROOT = Path(__file__).resolve().parents[2]


def _bundled_puzzles() -> list[tuple[str, str, str, int]]:
    out = []
    for f in sorted(ROOT.glob("lessons/*/golpes.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        for p in doc.get("puzzles") or []:
            if "position" in p and p["stipulation"] != "draw":
                first = p["solution"][0]
                key = first if isinstance(first, str) else first["move"]
                out.append((doc["variant"], p["position"], key, len(p["solution"])))
    assert len(out) >= 30
    return out


@pytest.mark.parametrize(("variant", "fen", "key", "length"), _bundled_puzzles())
def test_finds_the_key_of_every_bundled_golpe(variant: str, fen: str, key: str, length: int) -> None:
    pos = Position.from_fen(variant, fen)
    result = Engine(pos.variant).search(pos, min(length + 2, 11))
    assert result.move == pos.parse_move(key)
    assert result.pv[0] == result.move


def test_sees_a_forced_win_as_a_win() -> None:
    pos = Position.from_fen("american", "W:W27,30:B15,23")  # 27x18x11 takes both
    result = Engine(pos.variant).search(pos, 4)
    assert result.score == WIN - 1 and result.mate_in == 1


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_never_plays_an_illegal_move(name: str) -> None:
    rng = random.Random(name)
    pos = Position.start(name)
    engine = Engine(pos.variant, seed=1)
    for _ in range(30):
        legal = pos.legal_moves()
        if not legal:
            break
        result = engine.search(pos, 2)
        assert result.move in legal
        pos = pos.play(rng.choice(legal))  # wander into varied positions


def test_deterministic_with_a_seed_and_varied_across_seeds() -> None:
    def game(seed: int) -> list[str]:
        pos = Position.start("brazilian")
        engine = Engine(pos.variant, seed=seed)
        out = []
        for _ in range(12):
            r = engine.search(pos, 3)
            out.append(pos.move_text(r.move))
            pos = pos.play(r.move)
        return out

    assert game(7) == game(7)
    assert len({tuple(game(s)) for s in range(5)}) > 1


def test_losing_variants_invert_material() -> None:
    normal = Engine(Position.start("brazilian").variant)
    losing = Engine(Position.start("perde-ganha").variant)
    up = Position.from_fen("brazilian", "W:Wc3,e3:Bf6").state  # White a man up, White to move
    assert normal.evaluate(up) > 0
    assert losing.evaluate(Position.from_fen("perde-ganha", "W:Wc3,e3:Bf6").state) < 0


def test_play_command_prints_move_score_and_line(capsys) -> None:
    assert main(["play", "american", "W:W27,30:B15,23"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "27x18x11"
    assert out[1].startswith("score: win in 1 plies")
    assert out[2] == "line: 27x18x11"


def test_play_json_and_game_over(capsys) -> None:
    assert main(["play", "brazilian", "--depth", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["move"] in {
        Position.start("brazilian").move_text(m, long=True) for m in Position.start("brazilian").legal_moves()
    }
    assert doc["pv"][0] == doc["move"]
    assert main(["play", "brazilian", "B:Wc3:B"]) == 1  # Black has no piece: no move to suggest
