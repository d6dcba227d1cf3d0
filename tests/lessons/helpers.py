"""Shared paths and helpers for the lesson-checker tests."""

from __future__ import annotations

import re
from pathlib import Path

from generator.lessons.source import SourceError

HERE = Path(__file__).resolve().parent
GOOD = HERE / "good"
BAD = HERE / "bad"
DOCS = HERE.parent.parent / "docs"

VARIANTS = (
    "brazilian",
    "international",
    "russian",
    "american",
    "portuguese",
    "italian",
    "turkish",
    "perde-ganha",
    "antidraughts",
)

ERROR_LINE = re.compile(r"^(?P<path>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")
SUMMARY_OK = re.compile(
    r"^ok: (\d+) file\(s\), (\d+) lesson\(s\), (\d+) diagram\(s\), (\d+) claim\(s\), (\d+) puzzle\(s\) "
    r"checked in \d+\.\d\d s$"
)
SUMMARY_BAD = re.compile(
    r"^(\d+) error\(s\) in (\d+) file\(s\); (\d+) file\(s\), (\d+) lesson\(s\), (\d+) diagram\(s\), "
    r"(\d+) claim\(s\), (\d+) puzzle\(s\) checked in \d+\.\d\d s$"
)


class Near:
    """An expected error known by its place and a pattern its message must match.

    Used where the exact wording is the checker's to choose (or where the checker is wrong today
    and the right wording is not written yet): ``col=None`` accepts any column on the line.
    """

    def __init__(self, line: int, col: int | None, pattern: str) -> None:
        self.line, self.col, self.pattern = line, col, pattern

    def matches(self, err: SourceError) -> bool:
        return (
            err.line == self.line
            and (self.col is None or err.col == self.col)
            and re.search(self.pattern, err.message) is not None
        )

    def __repr__(self) -> str:
        return f"<{self.line}:{self.col if self.col is not None else '*'}: /{self.pattern}/>"


def assert_errors(path: str, actual: list[SourceError], expected: list[str | Near]) -> None:
    """Every expected error is reported (exactly, for strings), and nothing else."""
    shown = [str(e) for e in actual]
    unmatched = list(actual)
    missing = []
    for exp in expected:
        if isinstance(exp, str):
            hit = next((e for e in unmatched if str(e) == exp), None)
        else:
            hit = next((e for e in unmatched if e.path == path and exp.matches(e)), None)
        if hit is None:
            missing.append(exp)
        else:
            unmatched.remove(hit)
    assert not missing and not unmatched, (
        f"\nexpected but not reported: {missing}\nreported but not expected: {[str(e) for e in unmatched]}"
        f"\nall reported: {shown}"
    )
