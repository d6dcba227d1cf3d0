"""PDN reading streams in memory bounded by the longest game, not the longest line (issue 30 item 5).

`damas pdn check` on a 10 MB file holding one line of moves peaked at 1 GB, 100 times the input:
the whole text, a table of line starts, every token and every game were held at once.  Now the text
is read in 64 KB pieces, each game is replayed and dropped as soon as it is read, a token is at most
MAX_TOKEN characters, and a game past `pdn_game_chars` keeps what it has and skips the rest.  The
peak is measured in a fresh process (its own ru_maxrss).
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from generator.rules.pdn import MAX_TOKEN, iter_pdn, read_pdn, tokenize

MEASURE = """
import resource, sys
from generator.cli import main
code = main(sys.argv[1:])
print("PEAK", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
sys.exit(code)
"""


def peak_kb(*args: str, env: dict[str, str] | None = None) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Peak resident memory (KB) of ``damas ARGS`` run in a fresh interpreter, and its result."""
    done = subprocess.run([sys.executable, "-c", MEASURE, *args], capture_output=True, text=True, timeout=900, env=env)
    line = [x for x in done.stderr.splitlines() if x.startswith("PEAK ")][-1]
    return int(line.split()[1]), done


def moves_line(size: int) -> str:
    """One game, one line of ``size`` characters of moves (legal or not: reading does not care)."""
    out, total, n = [], 0, 1
    while total < size:
        piece = f"{n}. 32-28 19-23 "
        out.append(piece)
        total += len(piece)
        n = n % 999_999 + 1
    return "".join(out)[:size]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> int:
    small = tmp_path_factory.mktemp("pdn") / "small.pdn"
    small.write_text('[Event "E"]\n1. 32-28 19-23 *\n', "utf-8")
    kb, done = peak_kb("pdn", "check", str(small))
    assert done.returncode == 0, done.stderr
    return kb


def _check_line(path: Path, size: int, baseline: int) -> None:
    path.write_text('[Event "long"]\n' + moves_line(size) + "\n", "utf-8")
    kb, done = peak_kb("pdn", "check", str(path))
    assert done.returncode == 1, done.stderr  # move 2 is illegal, and the game is too long
    assert "Traceback" not in done.stderr
    assert "the game is longer than 500,000 characters (limit pdn_game_chars = 500000" in done.stderr
    assert "DAMAS_LIMIT_PDN_GAME_CHARS" in done.stderr
    grew = kb - baseline
    # 100 times the game limit (a game's moves as objects) is the bound, whatever the line's length;
    # before, 10 MB took 1 GB and 2 MB about 200 MB.
    assert grew < 60_000, f"peak {kb} KB, {grew} KB above a one-game file"


def test_a_two_megabyte_line_of_moves_is_read_in_bounded_memory(tmp_path: Path, baseline: int) -> None:
    _check_line(tmp_path / "line.pdn", 2_000_000, baseline)


@pytest.mark.slow
def test_the_reported_ten_megabyte_line(tmp_path: Path, baseline: int) -> None:
    """The finding as reported (about a minute on a busy 2-core machine: deselected by default)."""
    _check_line(tmp_path / "line.pdn", 10_000_000, baseline)


def test_a_ten_megabyte_comment_is_skipped_unread(tmp_path: Path, baseline: int) -> None:
    path = tmp_path / "comment.pdn"
    path.write_text('[Event "c"]\n1. 32-28 {' + "x" * 10_000_000 + "} 19-23 *\n", "utf-8")
    kb, done = peak_kb("pdn", "check", "--variant", "international", str(path))
    assert done.returncode == 1
    assert f"comment longer than {MAX_TOKEN:,} characters (skipped)" in done.stderr
    assert "the game is longer than 500,000 characters" in done.stderr, "the comment counts in the game"
    assert done.stdout.endswith(": ongoing, 1 move\n")
    assert kb - baseline < 30_000, f"peak {kb} KB"


def test_many_games_on_one_line_are_each_read_once(tmp_path: Path, baseline: int) -> None:
    path = tmp_path / "games.pdn"
    games = 20_000
    path.write_text(" ".join(f'[Event "g{i}"] 1. 32-28 19-23 *' for i in range(games)) + "\n", "utf-8")
    assert path.stat().st_size > 600_000
    kb, done = peak_kb("pdn", "check", str(path))
    assert done.returncode == 0, done.stderr[-500:]
    assert len(done.stdout.splitlines()) == games
    assert done.stdout.splitlines()[-1].startswith(f"{path}: game {games} ")
    assert kb - baseline < 30_000, f"peak {kb} KB for {games} games"


def test_a_stream_gives_what_the_text_gives() -> None:
    text = (
        '\ufeff[Event "a"]\r\n[FEN "W:W31-50:B1-20"]\r\n'
        "1. 32-28 {one\r\ntwo} 19-23 (1... 18-23 $2) 2. 28x19 14x23 1-0\r"
        '[Event "b"]\n/FEN "W:W31-50:B1-20"/ 1. 33-29 ; rest\n% escape\n 17-22 *\n{trailing}'
    )
    whole = read_pdn(text)
    for size in (1, 2, 3, 7, 64):
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        assert [g.content() for g in read_pdn(pieces)] == [g.content() for g in whole]
        assert [(t.kind, t.value, t.line, t.col) for t in tokenize(pieces)] == [
            (t.kind, t.value, t.line, t.col) for t in tokenize(text)
        ]
    assert [g.content() for g in read_pdn(io.StringIO(text))] == [g.content() for g in whole]
    assert len(whole) == 2
    assert [(n.text, n.comments_after) for n in whole[0].moves][:2] == [("32-28", ["one two"]), ("19-23", [])]
    assert [str(e) for e in whole[1].errors] == [
        "<pdn>:9:1: warning: game 2 (b): text after the result is not part of any game (ignored)"
    ]


def test_games_come_one_at_a_time() -> None:
    """The first game is handed on before the text of the fourth is read (one game is held back:
    text after it that holds no game is a warning on it)."""
    read: list[str] = []

    def pieces() -> object:
        for i in range(5):
            read.append(f"g{i}")
            yield f'[Event "g{i}"]\n1. 32-28 {{{"x" * 300}}} *\n'  # longer than the look-ahead

    it = iter_pdn(pieces())  # type: ignore[arg-type]
    first = next(it)
    assert first.tags["Event"] == "g0"
    assert len(read) <= 3, read  # g0 and g1 finished, g2's tag seen
    assert [g.tags["Event"] for g in it] == ["g1", "g2", "g3", "g4"]


def test_a_game_past_its_limit_keeps_what_it_has() -> None:
    text = '[Event "a"] 1. 32-28 19-23 2. 31-27 ' + "3. 37-32 14-19 " * 100 + '1-0 [Event "b"] 1. 32-28 *'
    games = read_pdn(text, max_game_chars=60)
    assert [g.tags["Event"] for g in games] == ["a", "b"]
    assert [n.text for n in games[0].moves][:3] == ["32-28", "19-23", "31-27"]
    kept = games[0].moves
    assert 3 <= len(kept) < 10 and games[0].result == "1-0"
    assert kept[-1].col <= 61, "nothing past the limit is kept"
    assert [e.message for e in games[0].errors if "longer" in e.message] == [
        "game 1 (a): the game is longer than 60 characters; the rest is skipped"
    ]
    assert games[1].errors == [] and len(games[1].moves) == 1


def test_a_byte_that_is_not_utf8_is_named_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin1.pdn"
    path.write_bytes(b'[Event "a"]\n1. 32-28 *\n' * 5000 + b'[Event "Jos\xe9"]\n1. 32-28 *\n')
    done = subprocess.run(
        [sys.executable, "-m", "generator", "pdn", "check", str(path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1
    assert f"{path}:10001:12: not UTF-8 text (byte 0xe9)" in done.stderr
    assert "Traceback" not in done.stderr
