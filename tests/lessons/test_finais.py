"""The endgame pages (lessons/<variant>/finais.yaml) of Italian and Portuguese say "the solver proves
White wins against every defence in N plies" and name the winning first moves: each such sentence is
proved here, so a page never states a win the engine cannot show.  The pages rewritten around the
endgame tables (Brazilian, Russian, International, American) state their results as ``ending:``
claims instead, which ``damas check`` verifies; the forward proofs below still hold for their
opening positions.  (The draw counts on those pages are ordinary claims, checked by ``damas check``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.lessons.check import check_paths
from generator.puzzles.search import Solver, Stipulation
from generator.rules import Position
from generator.rules.game import Game

COURSE = Path(__file__).resolve().parents[2] / "lessons"

# (variant, FEN, plies the page states, the winning first moves the caption names -- all of them)
WINS = [
    ("brazilian", "W:WKg1:Bb4", 5, {"g1-e3", "g1-d4"}),
    ("russian", "W:WKg1:Bb4", 5, {"g1-e3", "g1-d4"}),
    ("international", "W:WK45:B33", 5, {"45-34"}),
    ("american", "W:WK32:B18", 9, {"32-27"}),
    ("italian", "W:WK29:B18", 3, {"29-26"}),
    ("portuguese", "W:WK1:B18", 3, {"1-10"}),
]


def _winners(variant: str, fen: str, plies: int) -> set[str]:
    pos = Position.from_fen(variant, fen)
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("win"))
    return {pos.move_text(m) for m in solver.winning_moves(Game(pos.variant, pos), plies)}


@pytest.mark.parametrize(("variant", "fen", "plies", "moves"), WINS, ids=[w[0] for w in WINS])
def test_the_stated_win_is_proved_in_the_stated_plies_and_not_sooner(
    variant: str, fen: str, plies: int, moves: set[str]
) -> None:
    assert _winners(variant, fen, plies) == moves
    assert _winners(variant, fen, plies - 2) == set(), "the page understates how fast the win is"


SENTENCE_PAGES = ["italian", "portuguese"]


@pytest.mark.parametrize("variant", SENTENCE_PAGES)
def test_each_win_is_on_its_page(variant: str) -> None:
    text = " ".join((COURSE / variant / "finais.yaml").read_text(encoding="utf-8").split())
    fen, plies = next((w[1], w[2]) for w in WINS if w[0] == variant)
    assert f"position: {fen}" in text
    assert f"em {plies} lances (somando os dois lados)" in text


def test_every_variant_has_an_endgame_page_that_checks() -> None:
    pages = sorted(COURSE.glob("*/finais.yaml"))
    assert len(pages) >= len(WINS)
    assert {p.parent.name for p in pages} == {p.parent.name for p in COURSE.glob("*/regras.yaml")}
    report = check_paths(pages)
    assert report.ok, "\n".join(map(str, report.errors))
    assert report.warnings == []
