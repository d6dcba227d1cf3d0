"""``damas fen`` and ``damas board``: a board drawn as text (the lessons' format) to a FEN and back.

Both go through :mod:`generator.lessons.drawing`, the same reader the lesson checker uses, so a
drawing that ``damas fen`` accepts is one a lesson's ``board: |`` accepts, with the same messages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..lessons.drawing import DrawingError, draw_board, read_board
from ..rules import BLACK, WHITE, Variant
from .app import EXIT_CONTENT
from .common import VARIANT, position_arg

MAX_DRAWING_BYTES = 64 * 1024
"""A 10x10 drawing is about 200 bytes; anything far larger is not a board (or is a device)."""


@click.command(name="fen")
@click.argument("variant", type=VARIANT)
@click.option(
    "--board",
    "board_file",
    default="-",
    metavar="FILE",
    help="Read the drawing from FILE instead of standard input.",
)
@click.option(
    "--turn",
    type=click.Choice(["white", "black"]),
    default=None,
    help="Side to move (default: the side that starts in this variant).",
)
@click.pass_context
def fen_command(ctx: click.Context, variant: Variant, board_file: str, turn: str | None) -> None:
    """Read a board drawn as text and print its FEN.

    Rows from the top, White at the bottom, squares separated by spaces: w b (men), W B (kings),
    . (empty playing square), - (light square); as in a lesson's 'board: |' block.  Problems are
    printed as FILE:LINE:COL: message (exit 1).
    """
    name, data = _read_bytes(board_file)
    side = variant.first_to_move if turn is None else (WHITE if turn == "white" else BLACK)
    text, problem = _decode(name, data)
    if problem is not None:
        click.echo(problem, err=True)
        ctx.exit(EXIT_CONTENT)
    pos, problems = read_board(variant, text, side)
    if pos is None:
        for p in problems:
            line, col = _place(text, p)
            click.echo(f"{name}:{line}:{col}: {p.message}", err=True)
        ctx.exit(EXIT_CONTENT)
    assert pos is not None
    click.echo(pos.fen())


@click.command(name="board")
@click.argument("variant", type=VARIANT)
@click.argument("fen", metavar="FEN")
def board_command(variant: Variant, fen: str) -> None:
    """Draw a position (FEN, or 'start') as text, in the lessons' board format.

    The side to move is not drawn: give it back with 'damas fen --turn' or a lesson's 'turn:'.
    """
    click.echo(draw_board(position_arg(variant, fen)), nl=False)


def _read_bytes(board_file: str) -> tuple[str, bytes]:
    """(name for messages, at most MAX_DRAWING_BYTES + 1 bytes); a file that cannot be opened is a
    usage error (exit 2)."""
    if board_file == "-":
        if sys.stdin.isatty():
            click.echo("damas fen: type the board row by row, then Ctrl-D (or give --board FILE)", err=True)
        return "<stdin>", sys.stdin.buffer.read(MAX_DRAWING_BYTES + 1)
    path = Path(board_file)
    if not path.is_file():
        what = "a folder, not a file" if path.is_dir() else "no such file"
        raise click.BadParameter(f"{board_file}: {what}", param_hint="'--board'")
    try:
        with path.open("rb") as fh:
            return board_file, fh.read(MAX_DRAWING_BYTES + 1)
    except OSError as exc:
        raise click.BadParameter(f"{board_file}: {exc.strerror or exc}", param_hint="'--board'") from None


def _decode(name: str, data: bytes) -> tuple[str, str | None]:
    """(text, None), or ("", the one error line) for input that is not a drawing's text."""
    if len(data) > MAX_DRAWING_BYTES:
        return "", f"{name}:1:1: more than {MAX_DRAWING_BYTES // 1024} KiB; a drawn board is a few hundred bytes"
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return "", f"{name}:{line}:{col}: not UTF-8 text: save the file as UTF-8"


def _place(text: str, problem: DrawingError) -> tuple[int, int]:
    """1-based line and column in ``text`` of a problem (its row among the non-blank lines)."""
    lines = text.splitlines()
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    if problem.row is None or problem.row >= len(nonblank):
        return (nonblank[0] + 1 if nonblank else 1), 1
    i = nonblank[problem.row]
    indent = len(lines[i]) - len(lines[i].lstrip())
    return i + 1, indent + problem.col + 1
