"""`damas fen` and `damas board` (text board <-> FEN), an empty FEN refused by every command that
reads one, `damas --version` and `python -m generator`."""

from __future__ import annotations

import io
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.rules import Position
from tests.rules.test_properties import sparse_positions

from .helpers import VARIANTS

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        code = main(list(args))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


# -- damas board / damas fen ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_board_then_fen_is_the_start(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, drawing, err = run(capsys, "board", variant, "start")
    assert (code, err) == (0, "")
    code, out, err = run(capsys, "fen", variant, stdin=drawing.encode())
    assert (code, err) == (0, "")
    assert out == Position.start(variant).fen() + "\n"  # the default turn is the variant's first mover


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30)
@given(pos=st.sampled_from(VARIANTS).flatmap(sparse_positions))
def test_random_positions_round_trip_through_the_commands(pos: Position, capsys: pytest.CaptureFixture[str]) -> None:
    code, drawing, _ = run(capsys, "board", pos.variant.name, pos.fen())
    assert code == 0
    turn = "white" if pos.turn == 0 else "black"
    code, out, err = run(capsys, "fen", pos.variant.name, "--turn", turn, stdin=drawing.encode())
    assert (code, err) == (0, "")
    assert Position.from_fen(pos.variant, out.strip()) == pos
    assert out.strip() == pos.fen()


def test_fen_from_a_file_with_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.txt"
    board.write_text(
        "- . - . - . - .\n. - . - . - . -\n- . - b - . - .\n. - . - . - . -\n"
        "- . - b - . - .\n. - . - w - . -\n- . - . - w - .\n. - . - . - . -\n",
        "utf-8",
    )
    code, out, err = run(capsys, "fen", "brazilian", "--board", str(board), "--turn", "white")
    assert (code, err) == (0, "")
    assert out == Position.from_fen("brazilian", "W:We3,f2:Bd4,d6").fen() + "\n"
    code, out, _ = run(capsys, "fen", "american", "--board", str(board), "--turn", "black")
    assert code == 0 and out.startswith("B:")


def test_fen_reports_drawing_problems_at_line_and_column(capsys: pytest.CaptureFixture[str]) -> None:
    drawing = (
        "\n"
        "  - b - b - b - b\n"
        "  b - b - b - b -\n"
        "\n"
        "  - b - x - b - b\n"
        "  . - . - . - . -\n"
        "  - . - . - . - .\n"
        "  w - w - w - w -\n"
        "  - w - w - w - w\n"
        "  w - w - w - w\n"
    )
    code, out, err = run(capsys, "fen", "american", stdin=drawing.encode())
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "<stdin>:5:9: 'x' is not a square: use w b (men), W B (kings), . (empty) or - (light)",
        "<stdin>:10:3: row 8 has 7 squares; expected 8",
    ]


def test_fen_messages_are_the_lesson_checkers(capsys: pytest.CaptureFixture[str]) -> None:
    """The same drawing mistakes as the bad lesson corpus, in the same words."""
    code, _, err = run(capsys, "fen", "american", stdin=b"- b - b\n")
    assert code == 1
    assert err == "<stdin>:1:1: the board has 1 row(s); the american board has 8\n"
    rows = ["- w - . - . - ."] + [". - . - . - . -" if i % 2 else "- . - . - . - ." for i in range(1, 8)]
    code, _, err = run(capsys, "fen", "american", stdin="\n".join(rows).encode())
    assert code == 1
    assert err == "<stdin>:1:3: a white man on 1, its own promotion row (draw it as a king)\n"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"- b\n\xe7\n", "<stdin>:2:1: not UTF-8 text: save the file as UTF-8"),
        (b"." * 70_000, "<stdin>:1:1: more than 64 KiB; a drawn board is a few hundred bytes"),
    ],
)
def test_fen_refuses_what_is_not_a_drawing(data: bytes, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "fen", "american", stdin=data)
    assert (code, out, err) == (1, "", message + "\n")


def test_fen_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fen", "american", "--board", str(tmp_path / "missing.txt"))
    assert code == 2 and "no such file" in err and "Traceback" not in err
    code, _, err = run(capsys, "fen", "american", "--board", str(tmp_path))
    assert code == 2 and "a folder, not a file" in err
    code, _, err = run(capsys, "fen", "american", "--turn", "red", stdin=b"")
    assert code == 2 and "'red' is not one of" in err
    code, _, err = run(capsys, "fen", "checkers-9x9", stdin=b"")
    assert code == 2 and "unknown variant" in err
    assert len(err.splitlines()) == 1


def test_board_of_a_bad_fen_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "board", "american", "W:W2,27:B15")
    assert (code, out) == (1, "")
    assert err == "damas: invalid FEN 'W:W2,27:B15': white man on 2, its own promotion row (it would be a king)\n"


# -- an empty FEN is an error, not 'start' --------------------------------------------------------

EMPTY_FEN_COMMANDS = [
    ["moves", "international", "{fen}"],
    ["perft", "international", "1", "--fen", "{fen}"],
    ["game", "international", "--fen", "{fen}", "31-26"],
    ["solve", "international", "{fen}", "--goal", "win", "--depth", "1"],
    ["board", "international", "{fen}"],
    ["render", "international", "{fen}", "-o", "{out}"],
]


@pytest.mark.parametrize("fen", ["", "   "])
@pytest.mark.parametrize("argv", EMPTY_FEN_COMMANDS, ids=[a[0] for a in EMPTY_FEN_COMMANDS])
def test_an_empty_fen_is_an_error(
    argv: list[str], fen: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "d.svg"
    args = [a.format(fen=fen, out=out_file) for a in argv]
    code, out, err = run(capsys, *args)
    assert code == 1
    assert out == ""
    assert err == f"damas: invalid FEN '{fen}': empty FEN (write 'start' for the initial position)\n"
    assert not out_file.exists()


def test_a_missing_fen_is_still_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "american")
    assert code == 0
    assert out.split() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    code, out2, _ = run(capsys, "moves", "american", "start")
    assert out2 == out


# -- --version and python -m generator ------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"damas, version {version('damas')}"


def test_python_dash_m_generator_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "generator", "moves", "american"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    done = subprocess.run(
        [sys.executable, "-m", "generator", "moves", "american", ""], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 1
    assert done.stderr == "damas: invalid FEN '': empty FEN (write 'start' for the initial position)\n"


def test_fen_reads_real_standard_input() -> None:
    """Through a pipe, as a shell user runs it: `damas board ... | damas fen ...`."""
    drawing = subprocess.run(
        [sys.executable, "-m", "generator", "board", "italian", "start"], capture_output=True, cwd=ROOT, check=True
    ).stdout
    done = subprocess.run(
        [sys.executable, "-m", "generator", "fen", "italian", "--turn", "black"],
        input=drawing,
        capture_output=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "B:W21-32:B1-12"
