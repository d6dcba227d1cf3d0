"""Proof budgets (issue 11): a small, legal lesson whose puzzle would take hours to prove ends
quickly with "could not prove within the budget" at the puzzle's line, and the budget is set from
the function parameter, the environment and ``damas check --proof-budget``."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from generator.lessons.check import check_text
from generator.puzzles.proof import BUDGET_ENV, resolve_budget
from generator.puzzles.search import DEFAULT_PROOF_NODES
from generator.rules.game import Game, Outcome

ROOT = Path(__file__).resolve().parents[2]
START = "W:WK1,K3:BK30,K32:H49"
"""Two kings each; 49 plies without progress: the 40-move rule draws after 31 more plies."""


def long_draw_lesson(seed: int = 3) -> str:
    """A legal lesson (about 2 KB) whose draw puzzle has a 31-ply solution: kings wander without
    repeating a position until the move-count rule ends the game; every unforced defender reply
    is listed under ``others``."""
    for attempt in range(200):
        rng = random.Random(seed + attempt)
        game, steps, seen = Game("american", START), [], set()
        for ply in range(31):
            pos = game.position
            moves = [m for m in pos.legal_moves() if not m.captures]
            rng.shuffle(moves)
            pick = next(
                (
                    m
                    for m in moves
                    if pos.play(m).fen() not in seen and not any(x.captures for x in pos.play(m).legal_moves())
                ),
                None,
            )
            if pick is None or (game.status().is_over and ply):
                break
            others = [pos.move_text(x) for x in pos.legal_moves() if x != pick] if ply % 2 else None
            steps.append((pos.move_text(pick), others))
            seen.add(pos.fen())
            game.push(pick)
        if len(steps) == 31 and game.status().outcome is Outcome.DRAW:
            break
    else:
        raise AssertionError("no 31-ply line found")
    lines = ["variant: american", "language: en", "title: Long draw", "slug: long-draw", "sections:"]
    lines += ["  - title: S", "puzzles:", "  - id: long-draw", f"    position: '{START}'", "    stipulation: draw"]
    lines.append("    solution:")
    for move, others in steps:
        listed = ", ".join(f"'{o}'" for o in others or [])
        lines.append(f"      - {{move: '{move}', others: [{listed}]}}" if others else f"      - '{move}'")
    return "\n".join(lines) + "\n"


def test_the_hostile_lesson_is_small_and_its_line_is_legal() -> None:
    text = long_draw_lesson()
    assert len(text.encode()) < 2500
    _, errors = check_text(text, "long.yaml", proof_budget=1)
    # the only complaint is the budget: the line, the 'others' lists and the draw are all right
    assert [e.message for e in errors] == [
        "could not prove within the budget (1 nodes); raise proof_budget or shorten the line"
    ]


def test_a_31_ply_draw_puzzle_ends_with_the_budget_error_at_its_line() -> None:
    text = long_draw_lesson()
    _, errors = check_text(text, "long.yaml", proof_budget=20_000)
    assert len(errors) == 1
    e = errors[0]
    assert (e.line, e.col) == (8, 5)  # the puzzle's '- id:' item
    assert e.message == "could not prove within the budget (20,000 nodes); raise proof_budget or shorten the line"


def test_default_budget_ends_the_hostile_lesson_from_the_command_line(tmp_path: Path) -> None:
    """With no setting at all the default budget stops it (this runs the full default budget)."""
    f = tmp_path / "long.yaml"
    f.write_text(long_draw_lesson(), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", str(f)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DAMAS_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.returncode == 1
    assert f"could not prove within the budget ({DEFAULT_PROOF_NODES:,} nodes)" in done.stdout
    assert "Traceback" not in done.stderr


def test_environment_sets_the_budget_of_damas_check(tmp_path: Path) -> None:
    f = tmp_path / "long.yaml"
    f.write_text(long_draw_lesson(), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", str(f)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            BUDGET_ENV: "5000",
            "DAMAS_CACHE_DIR": str(tmp_path / "c"),
        },
    )
    assert done.returncode == 1
    assert "long.yaml:8:5: could not prove within the budget (5,000 nodes)" in done.stdout


def test_budget_comes_from_the_parameter_then_the_environment(monkeypatch) -> None:
    monkeypatch.delenv(BUDGET_ENV, raising=False)
    assert resolve_budget().nodes == DEFAULT_PROOF_NODES
    monkeypatch.setenv(BUDGET_ENV, "1234")
    assert resolve_budget().nodes == 1234
    assert resolve_budget(99).nodes == 99
    for junk in ("-5", "abc", "0", "²", "9" * 40):
        monkeypatch.setenv(BUDGET_ENV, junk)
        assert resolve_budget().nodes == DEFAULT_PROOF_NODES
