"""The benchmark's own shots (bench/data/shots/, timed by bench/puzzles.py) are lessons damas reads."""

from __future__ import annotations

from pathlib import Path

from generator.lessons.check import check_paths

SHOTS = Path(__file__).resolve().parents[2] / "bench" / "data" / "shots"


def test_the_benchmark_shots_are_lessons_that_check() -> None:
    report = check_paths([SHOTS])
    assert len(report.files) == 8 and sum(len(c.lesson.puzzles) for c in report.lessons) == 12
    # one shot is kept on purpose though it is not a puzzle (its file says why)
    assert [(e.path.rsplit("/", 1)[-1], e.message.split(":")[0]) for e in report.errors] == [
        ("brazilian.yaml", "not a puzzle")
    ]
