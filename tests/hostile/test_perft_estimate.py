"""perft estimates its work from the first plies (issue 30 item 6).

`damas perft international 9 --fen '<14 flying kings>'` ran past 30 s with no progress and no
warning: the depth limit was set per board size, while a king position branches many times more
than the start.  Now the first plies are counted and timed, a count estimated past a few minutes is
refused (saying the estimate) unless --force is given, and a forced count shows progress on a
terminal, none when piped.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import time

import pytest

from generator.cli import main
from generator.rules import Position
from generator.rules.core import COMPILED_AVAILABLE
from generator.rules.perft import divide, estimate, perft

KINGS = "W:WK1,K2,K3,K4,K5,K6,K7:BK44,K45,K46,K47,K48,K49,K50"
"""Fourteen flying kings: about 15 moves a ply where the start has about 6."""


def damas(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_the_reported_king_position_is_refused_with_its_estimate() -> None:
    done = damas("perft", "international", "9", "--fen", KINGS)  # ran past 30 s before
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert re.search(r"depth 9 from this position would take about [0-9,]+ (minutes|hours|days|years)", line), line
    assert "add --force" in line and "DAMAS_LIMIT_PERFT_SECONDS" in line
    assert "Traceback" not in done.stderr


def test_the_estimate_is_measured_not_guessed() -> None:
    pos = Position.from_fen("international", KINGS)
    guess, count = estimate(pos, 9)
    assert count is None, "depth 9 was not reached by the probe"
    assert 1 <= guess.depth < 9
    assert guess.leaves == perft(pos, guess.depth)
    below = perft(pos, guess.depth - 1) if guess.depth > 1 else 1
    assert guess.growth == pytest.approx(guess.leaves / below)
    assert guess.growth > 10, "the king position branches far more than the start"
    assert guess.at(9) == pytest.approx(guess.seconds * guess.growth ** (9 - guess.depth))


def test_a_shallow_count_is_the_probe_itself() -> None:
    start = Position.start("american")
    guess, count = estimate(start, 3)
    assert count == perft(start, 3) == 302 and guess.depth == 3
    assert estimate(start, 0)[1] == 1


def test_a_cheap_count_runs_without_force(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "international", "5"]) == 0
    assert capsys.readouterr().out.strip() == "27117"  # FMJD start position, published
    assert main(["perft", "international", "4", "--fen", KINGS, "--divide"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    pos = Position.from_fen("international", KINGS)
    assert out[-1] == str(perft(pos, 4)) and len(out) == len(pos.legal_moves()) + 1
    assert [int(line.rsplit(": ", 1)[1]) for line in out[:-1]] == [n for _, n in divide(pos, 4)]


def test_the_limit_is_raisable_and_force_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DAMAS_LIMIT_PERFT_SECONDS", "1")
    pos = Position.from_fen("international", KINGS)
    guess, _ = estimate(pos, 6)
    assert guess.at(6) > 1, "depth 6 of the king position takes seconds"
    assert main(["perft", "international", "6", "--fen", KINGS]) == 2
    assert "limit perft_seconds = 1" in capsys.readouterr().err
    expected = perft(pos, 5)
    assert main(["perft", "international", "5", "--fen", KINGS, "--force"]) == 0
    assert capsys.readouterr().out.strip() == str(expected)


SHORT_PROBE = """
import functools, sys
import generator.cli.engine as engine
engine.estimate = functools.partial(engine.estimate, probe=0.001)  # the count itself is not the probe's
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run damas with stderr on a pseudo-terminal; its exit status and everything it drew there."""
    leader, follower = pty.openpty()
    p = subprocess.Popen(
        [sys.executable, "-c", SHORT_PROBE, *args],
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(follower)
    drawn = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    p.wait(timeout=120)
    os.close(leader)
    assert p.stdout is not None
    return p.returncode, drawn.decode("utf-8", "replace") + "\nSTDOUT:" + p.stdout.read().decode()


def test_force_shows_progress_on_a_terminal_and_none_when_piped() -> None:
    depth = "5" if COMPILED_AVAILABLE else "4"  # a second or two
    args = ["perft", "international", depth, "--fen", KINGS, "--force"]
    code, drawn = _on_a_terminal(args)
    assert code == 0, drawn
    assert f"perft {depth}" in drawn and "━" in drawn, "a rich progress bar was drawn"
    piped = subprocess.run([sys.executable, "-c", SHORT_PROBE, *args], capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0
    [line] = piped.stderr.strip().splitlines()
    assert line.startswith(f"international perft {depth}: ") and line.endswith(" s CPU")
    assert piped.stdout.strip() == drawn.rsplit("STDOUT:", 1)[1].strip() != ""
