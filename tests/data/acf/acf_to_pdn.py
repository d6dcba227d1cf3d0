"""Convert the ACF archive (``Checkers/ACF.txt`` of github.com/EricCJoyce/Datasets, MIT) to PDN.

The archive holds one game a line: moves separated by spaces, each move the squares a piece visits
joined by hyphens (``21-14-5`` is a double jump), then a tab and the result (``1-0``: the first
player, Red, won; ``0-1``: White won; ``1/2-1/2``: a draw).  Its squares are numbered 0 to 31 from
the first player's side, as the archive's ``REF.png`` draws them: Red (the side that moves first,
Black in the standard notation) sits at the bottom, square 0 is Red's left corner (a1), 0-3 run
along Red's back rank to the right, 4-7 the next rank, and so on up to 28-31 on White's back rank.

The standard numbering (WCDF, PDN ``GameType 21``) puts Black (= Red) on 1-12 at the top with 1 on
b8, numbered from left to right as White sees the board.  Turning the archive's picture half a
turn gives the standard picture, so rank ``r`` of the archive (0 = Red's back rank) is the standard
row of squares ``4r+1 .. 4r+4``, read in the opposite direction::

    standard = 4 * (acf // 4) + 4 - acf % 4        # 0 -> 4, 3 -> 1, 8 -> 12, 31 -> 29

A step between squares two ranks apart is a jump (written with ``x``), else a move (``-``).

Every converted game is replayed with the rules engine; a game that does not replay is not
written, and is reported on stderr and in the report file (line number in the archive, the move,
the engine's message), never dropped silently.  Usage::

    python tests/data/acf/acf_to_pdn.py ACF.txt tests/data/acf/acf.pdn --report tests/data/acf/rejected.txt
"""

from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path

RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}
"""The archive's result -> the PDN result (first number: the first mover's score, as PDN 2.0 for
checkers has it)."""


def standard_square(acf: int) -> int:
    """The standard (PDN) number of the archive's square ``acf`` (see the module docstring)."""
    if not 0 <= acf <= 31:
        raise ValueError(f"square {acf} is not on the board (0-31)")
    return 4 * (acf // 4) + 4 - acf % 4


def convert_move(text: str) -> str:
    """``21-14-5`` (archive) -> ``23x14x5``-style standard text."""
    squares = [int(s) for s in text.split("-")]
    if len(squares) < 2:
        raise ValueError(f"move {text!r} names fewer than two squares")
    jumps = [abs(a // 4 - b // 4) == 2 for a, b in pairwise(squares)]
    if len(squares) > 2 and not all(jumps):
        raise ValueError(f"move {text!r} goes on after a step that is not a jump")
    sep = "x" if jumps[0] else "-"
    return sep.join(str(standard_square(s)) for s in squares)


def convert_line(line: str) -> tuple[list[str], str]:
    """One archive line -> (the standard moves, the PDN result)."""
    moves_text, sep, result = line.rstrip("\n").partition("\t")
    if not sep or result.strip() not in RESULTS:
        raise ValueError(f"no result after a tab (found {result.strip()!r})")
    return [convert_move(m) for m in moves_text.split()], RESULTS[result.strip()]


def pdn_game(number: int, moves: list[str], result: str) -> str:
    """The PDN text of game ``number`` (its line in the archive)."""
    body: list[str] = []
    for i in range(0, len(moves), 2):
        body.append(f"{i // 2 + 1}. {' '.join(moves[i : i + 2])}")
    body.append(result)
    lines, current = [], ""
    for token in body:
        if current and len(current) + 1 + len(token) > 90:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    lines.append(current)
    tags = [
        '[Event "ACF archive"]',
        f'[GameNumber "{number}"]',
        f'[Result "{result}"]',
        '[GameType "21"]',
    ]
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"


def replay_problem(text: str) -> str | None:
    """None when the game replays under the American rules, else the first problem."""
    from generator.rules.pdn import read_pdn, replay

    games = read_pdn(text, "american")
    if len(games) != 1:
        return f"read as {len(games)} games"
    problems = [e for e in games[0].errors if e.is_error]
    problems += [e for e in replay(games[0]).errors if e.is_error]
    return None if not problems else f"{problems[0].message} (PDN line {problems[0].line}, col {problems[0].col})"


def convert(source: Path, out: Path, report: Path | None) -> tuple[int, list[str]]:
    """Write every game that replays to ``out``; return the count and the rejected games' reports."""
    kept = 0
    rejected: list[str] = []
    chunks: list[str] = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            moves, result = convert_line(line)
        except ValueError as exc:
            rejected.append(f"ACF.txt:{number}: {exc}")
            continue
        text = pdn_game(number, moves, result)
        problem = replay_problem(text)
        if problem is not None:
            rejected.append(f"ACF.txt:{number}: {problem}")
            continue
        chunks.append(text)
        kept += 1
    out.write_text("\n".join(chunks), encoding="utf-8")
    if report is not None:
        report.write_text("".join(r + "\n" for r in rejected), encoding="utf-8")
    return kept, rejected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="ACF.txt")
    parser.add_argument("out", type=Path, help="the PDN file to write")
    parser.add_argument("--report", type=Path, default=None, help="write the rejected games here")
    args = parser.parse_args(argv)
    kept, rejected = convert(args.source, args.out, args.report)
    for r in rejected:
        print(r, file=sys.stderr)
    print(f"{kept} games written to {args.out}, {len(rejected)} rejected")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    raise SystemExit(main())
