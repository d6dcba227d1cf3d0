"""Puzzle collections as found in the wild, read one entry at a time.

Two forms, told apart by the file's first meaningful line:

* **PDN** (a line starting with ``[``, or a move list): each game is an entry when it sets up a
  position (``[FEN]`` or a ``/FEN/`` setup) and its main line holds the solution.  Comments and
  variations are allowed (Lidraughts studies and CheckerBoard files have both) and the main line
  alone is the solution; the first comment is kept as the caption.  ``[Goal "gain:2"]`` (as
  ``damas export`` writes it) states the goal, ``[Puzzle "id"]`` the id.
* **Plain text**, one entry a line: ``FEN ; solution`` with an optional third field for the goal
  (``W:W27,30:B15,23 ; 27x18x11 ; win``); move numbers in the solution are allowed; lines starting
  with ``#`` and blank lines are skipped.

The file is read as a stream: a PDN file is cut into games at their first tag line and each game is
parsed alone (line numbers kept), so memory follows the largest game, not the file.  Problems in an
entry are collected on it as ``file:line:col`` messages; they never stop the other entries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import DamasError
from ..inputfile import InputFileError, open_text
from ..rules.pdn import PdnGame, read_pdn
from ..rules.variants import Variant


class CollectionError(DamasError):
    """The collection file cannot be read at all (missing, too large, not text)."""


@dataclass
class Entry:
    """One puzzle of a collection, as written (nothing proven yet)."""

    path: str
    line: int
    col: int
    index: int
    """1-based position in the file."""
    form: str
    """``pdn`` (a game of a PDN file) or ``collection`` (a line of the plain text form)."""
    variant: Variant | None
    fen: str | None
    moves: list[tuple[str, int, int]] = field(default_factory=list)
    """The solution's moves as written, each with its line and column."""
    goal: str | None = None
    """The goal the source states (``win``, ``gain:2``, ``promote``), or None."""
    ident: str | None = None
    caption: str | None = None
    event: str | None = None
    problems: list[str] = field(default_factory=list)
    """``file:line:col: message`` for each thing that makes the entry unreadable."""

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def problem(self, line: int, col: int, message: str) -> None:
        self.problems.append(f"{self.path}:{line}:{col}: {message}")


_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$|^\.\.\.$|^…$")
_GLUED_NUMBER = re.compile(r"^\d+\.(?:\.\.)?(?=\S)")


def read_entries(path: str | Path, variant: Variant) -> Iterator[Entry]:
    """Every entry of the collection at ``path`` (``variant``: the rules of entries that name none).

    Raises:
        CollectionError: when the file cannot be opened or read as UTF-8 text.
    """
    name = str(path)
    try:
        stream = open_text(path)
    except InputFileError as exc:
        raise CollectionError(f"{name}: {exc}") from None
    with stream:
        lines = _numbered(stream, name)
        first = next(lines, None)
        if first is None:
            return
        if first[1].lstrip().startswith("[") or not _looks_like_fen_line(first[1]):
            yield from _pdn_entries(name, _chain(first, lines), variant)
        else:
            yield from _text_entries(name, _chain(first, lines), variant)


def _numbered(stream: Iterable[str], name: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line, the leading blank and comment lines skipped until the first."""
    started = False
    try:
        for number, text in enumerate(stream, start=1):
            if not started and (not text.strip() or text.lstrip().startswith(("#", "%"))):
                continue
            started = True
            yield number, text.rstrip("\r\n")
    except UnicodeDecodeError:
        raise CollectionError(f"{name}: not UTF-8 text; convert it first, e.g. iconv -f latin1 -t utf-8") from None


def _chain(first: tuple[int, str], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


def _looks_like_fen_line(text: str) -> bool:
    return ";" in text and bool(re.match(r'^\s*"?[WBwb]:', text))


# -- plain text ----------------------------------------------------------------------------------


def _text_entries(name: str, lines: Iterator[tuple[int, str]], variant: Variant) -> Iterator[Entry]:
    index = 0
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        index += 1
        col = len(text) - len(text.lstrip()) + 1
        entry = Entry(name, number, col, index, "collection", variant, None)
        fields = text.split(";")
        fen = fields[0].strip().strip('"')
        entry.fen = fen or None
        if not fen:
            entry.problem(number, col, "no FEN before the ';'")
        if len(fields) < 2 or not fields[1].strip():
            entry.problem(number, len(text) + 1, "no solution: write 'FEN ; moves'")
        else:
            offset = len(fields[0]) + 1
            for word in re.finditer(r"\S+", fields[1]):
                token = _GLUED_NUMBER.sub("", word.group())
                if token and not _NUMBER.match(token):
                    entry.moves.append((token, number, offset + word.end() - len(token) + 1))
        if len(fields) > 2 and fields[2].strip():
            entry.goal = fields[2].strip()
        if len(fields) > 3:
            entry.problem(number, len(";".join(fields[:3])) + 1, "too many ';' fields (FEN ; solution ; goal)")
        yield entry


# -- PDN -------------------------------------------------------------------------------------------


def _games(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """(first line, text) of each game: a game starts at a tag line that follows a non-tag line."""
    start, in_tags = 0, False
    buffer: list[str] = []
    for number, text in lines:
        is_tag = text.lstrip().startswith("[")
        if is_tag and not in_tags and any(b.strip() for b in buffer):
            yield start, "\n".join(buffer)
            buffer = []
        if not buffer:
            start = number
        buffer.append(text)
        if text.strip():
            in_tags = is_tag
    if any(b.strip() for b in buffer):
        yield start, "\n".join(buffer)


def _pdn_entries(name: str, lines: Iterator[tuple[int, str]], variant: Variant) -> Iterator[Entry]:
    index = 0
    for start, text in _games(lines):
        for game in read_pdn(text, variant, name):
            index += 1
            yield _entry(name, replace(game, index=index), start - 1)


def _entry(name: str, game: PdnGame, offset: int) -> Entry:
    line, col = game.start_fen_position
    entry = Entry(name, line + offset, col, game.index, "pdn", game.variant, game.start_fen)
    for e in game.errors:
        if e.is_error:
            entry.problem(e.line + offset, e.col, e.message)
    if entry.fen is None:
        entry.problem(game.line + offset, game.col, f"{game.name}: no [FEN] tag: a puzzle needs its position")
    for node in game.moves:
        entry.moves.append((node.text, node.line + offset, node.col))
    if not game.moves:
        entry.problem(game.line + offset, game.col, f"{game.name}: no solution moves")
    entry.goal = (game.tags.get("Goal") or "").strip() or None
    entry.ident = (game.tags.get("Puzzle") or "").strip() or None
    entry.event = (game.tags.get("Event") or "").strip() or None
    notes = [*game.comments, *(game.moves[0].comments_before if game.moves else [])]
    entry.caption = " ".join(notes).strip() or None
    return entry
