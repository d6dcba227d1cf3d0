"""PDN game files (Portable Draughts Notation, docs/spec.md §12): read, check against the rules, write.

Reading is liberal, after the PDN 3.0 *reading grammar*: several games per file; tag pairs
``[Name "value"]`` (``\\"`` and ``\\\\`` escapes); move numbers ``12.`` / ``12...`` (also ``12. ...`` and
``12.32-28`` glued); moves short or long (``32-28``, ``28x19``, ``47x38x20x9x36``, ``c3-d4``,
``d4:f6``, ``c3:e5:c7``, ``3228``, ``a3b4``, ``05-10``) with a move strength glued to them (``!``,
``?``, ``!!``, ``?!``, ``(!)``, and PDN 2.0's ``*``); NAGs ``$12``; comments ``{...}`` (multi-line)
and ``;`` to the end of the line; ``%`` escape lines (skipped); nested variations ``( ... )``; setups
``/FEN "..."/``; results ``1-0``, ``0-1``, ``1/2-1/2``, ``2-0``, ``0-2``, ``1-1``, ``0-0`` and ``*``; the
start position from ``[FEN]`` (with or without ``[SetUp "1"]``).  Every token keeps its line and
column; problems are collected as :class:`PdnError` (``path:line:col: message``), never raised.

Which rules a game follows:

1. a ``[Variant "name"]`` tag (any name or alias of :data:`~generator.rules.variants.VARIANTS`,
   ``perde-ganha``, ``antidraughts``...): this project's extension, needed for the losing games,
   which have no GameType number of their own; it takes precedence over GameType;
2. else ``[GameType "N..."]``: the number before the first comma (20 international, 21 american,
   22 italian, 25 russian, 26 brazilian, 28 portuguese, 30 turkish);
3. else the reader's default (PDN's default is International).

Results: the first number is the score of the side that moves first (PDN 2.0 for checkers: ``1-0``
means Black/Red won an American game; ``2-0``/``1-0`` means White won an International one).

Comments are stored with their white space collapsed to single spaces (so that the writer may wrap
them), and are attached to the move they follow (``comments_after``), or, at the start of a line or
after a variation, to the move they precede (``comments_before``).

>>> games = read_pdn('[GameType "21"] 1. 11-15 23-19 {Old Fourteenth?} 2. 8-11 *')
>>> r = replay(games[0])
>>> str(r.status), r.plies, r.errors
('ongoing', 3, [])
>>> print(write_pdn(games), end="")
[GameType "21"]
<BLANKLINE>
1. 11-15 23-19 {Old Fourteenth?} 2. 8-11 *
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TextIO

from .errors import AmbiguousMoveError, DamasError, IllegalMoveError, InvalidMoveError
from .game import Counters, Game, Outcome, Status, result_token
from .geometry import BLACK, WHITE
from .move import Move
from .position import Position
from .variants import VARIANTS, Variant, get_variant

__all__ = [
    "RESULTS",
    "PdnError",
    "PdnGame",
    "PdnNode",
    "ReplayResult",
    "Token",
    "game_to_pdn",
    "iter_pdn",
    "read_pdn",
    "replay",
    "result_outcome",
    "result_token",
    "tokenize",
    "variant_for_gametype",
    "write_pdn",
]

RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
"""The result tokens PDN knows (``0-0``: both forfeit; ``*``: unknown or unfinished)."""

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

GAMETYPES: dict[str, Variant] = {v.gametype: v for v in VARIANTS.values() if v.base is None}
"""PDN GameType number -> the variant it names (the losing games have no number of their own)."""

OTHER_GAMETYPES = {
    "23": "American pool checkers",
    "24": "Spanish draughts",
    "27": "Canadian draughts",
    "29": "Czech draughts",
    "31": "Thai draughts",
    "40": "Frisian draughts",
    "41": "Spantsiretti",
}
"""GameType numbers PDN defines for games this engine does not play (for clear messages)."""


# -- errors ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PdnError:
    """A problem found in a PDN text, with its source position (1-based line and column)."""

    path: str | None
    line: int
    col: int
    message: str
    severity: str = "error"
    """``error`` (the file is wrong) or ``warning`` (suspicious but readable: a result that does not
    match the final position, moves after a rule ended the game, move numbers out of step)."""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def __str__(self) -> str:
        """``FILE:LINE:COL: [warning: ]message``.  It may quote file names and tag values as they
        are: whoever prints it to a terminal escapes it (``generator.terminal.printable``)."""
        prefix = "" if self.is_error else f"{self.severity}: "
        return f"{self.path or '<pdn>'}:{self.line}:{self.col}: {prefix}{self.message}"


# -- tokens -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """One lexical element of PDN text.

    ``kind`` is one of ``tag`` (``name``, ``value``), ``comment`` (``value``: the text, white space
    collapsed), ``(``, ``)``, ``nag`` (``value``: ``$12``), ``setup`` (``value``: the FEN), ``result``,
    ``number`` (``value``: the number; ``second``: written with three dots), ``ellipsis`` (a lone
    ``...``), ``move`` (``value``: the move; ``name``: its strength mark glued to it), ``strength`` (a
    mark written apart, ``32-28 !``, or in parentheses, ``32-28(?)``) and ``error`` (``value``: the
    message).
    """

    kind: str
    value: str
    line: int
    col: int
    name: str = ""
    second: bool = False
    offset: int = field(default=0, compare=False)
    """Characters of the text before the token (for bounding a game's length)."""


_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_NAG_RE = re.compile(r"\$[0-9]+")
_NUMBER_RE = re.compile(r"([0-9]+)(\.+)")
# Every regex here reads untrusted text, so each is unambiguous (linear time): no quantified group
# can split the same characters two ways.  A move is squares joined by a separator (``x`` and ``X``
# count as separators, never as a file letter) or by a file letter alone (``a3b4``); a lone digit
# run of two or more digits (``3228``) is also a move, which _word checks.
_MOVE_RE = re.compile(
    r"(?P<move>[A-Za-z]?[0-9]+(?:(?:[-:×*xX][A-Za-z]?|[A-WYZa-wyz])[0-9]+)*)(?P<strength>[!?]+\*?|\*)?",
)
_ONE_SQUARE_RE = re.compile(r"[A-Za-z]?[0-9]")
MAX_NUMBER_DIGITS = 6
"""A move number or NAG longer than this is an error (no game has a millionth move), so ``int`` never
sees thousands of digits."""
MAX_VARIATION_DEPTH = 100
"""Variations nested deeper than this are reported and left out, so that replaying and writing
(which recurse into variations) stay far from Python's recursion limit."""
MAX_WORD = 200
"""A move (with its strength mark) longer than this is an error: the longest legal capture on a
10x10 board is well under 100 characters."""
MAX_TOKEN = 100_000
"""A comment, tag pair, setup or ``;`` line longer than this many characters is an error and is
skipped without being held: the reader holds at most this much of a line at once."""
_CHUNK = 1 << 16
_GLUED_STRENGTH_RE = re.compile(r"\(([!?]+)\)")
_STRENGTH_RE = re.compile(r"[!?]+")
_ELLIPSES = ("...", "..", "…")
_SETUP_RE = re.compile(r'\s*FEN\s*"([^"]*)"\s*', re.IGNORECASE)
_BARE_FEN_RE = re.compile(r"\s*[WB?]\s*:.*", re.IGNORECASE | re.DOTALL)
_SPACE_RE = re.compile(r"[ \t\n\f\v]+")
_WORD_RE = re.compile(r'[^ \t\n\f\v{}()\[\];$"]+')
_DIGITS_RE = re.compile(r"[0-9]+")
_ANY_RE = re.compile(r".+", re.DOTALL)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _unescape(value: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


Source = str | Iterable[str] | TextIO
"""PDN text: a string, an open text stream (read in pieces, so a 10 MB line is never held whole),
or any iterable of text pieces."""


def _pieces(source: Source) -> Iterator[str]:
    if isinstance(source, str):
        for i in range(0, len(source), _CHUNK):
            yield source[i : i + _CHUNK]
    elif hasattr(source, "read"):
        while piece := source.read(_CHUNK):
            yield piece
    else:
        yield from source


class _Stream:
    """A window on PDN text read piece by piece: ``buf[pos:]`` is what is read and not yet taken,
    ``line``/``col`` the place of ``buf[pos]``.  Line ends become LF on the way in (CRLF, CR)."""

    def __init__(self, source: Source) -> None:
        self.pieces = _pieces(source)
        self.buf = ""
        self.pos = 0
        self.line = self.col = 1
        self.offset = 0
        """Characters taken so far (the place of ``buf[pos]`` in the whole text)."""
        self.cr = False  # the last piece ended with CR: its LF may start the next one

    def more(self) -> bool:
        """Read one more piece (dropping what was taken); False at the end of the text."""
        for piece in self.pieces:
            if self.cr:
                piece, self.cr = "\r" + piece, False
            if piece.endswith("\r"):
                piece, self.cr = piece[:-1], True
            self.buf = self.buf[self.pos :] + piece.replace("\r\n", "\n").replace("\r", "\n")
            self.pos = 0
            return True
        if self.cr:
            self.buf, self.pos, self.cr = self.buf[self.pos :] + "\n", 0, False
            return True
        return False

    def available(self, n: int) -> int:
        """Characters ready from ``pos``, reading until there are ``n`` or the text ends."""
        while len(self.buf) - self.pos < n and self.more():
            pass
        return len(self.buf) - self.pos

    def peek(self, n: int = 1) -> str:
        self.available(n)
        return self.buf[self.pos : self.pos + n]

    def find(self, char: str, start: int, most: int) -> int:
        """Offset from ``pos`` of the first ``char`` at or after ``start`` and before ``most``, or -1
        (look at :meth:`available` to tell the end of the text from a run longer than ``most``)."""
        while True:
            j = self.buf.find(char, self.pos + start, self.pos + most)
            if j >= 0:
                return j - self.pos
            ready = len(self.buf) - self.pos
            if ready >= most or not self.more():
                return -1
            start = max(start, ready)

    def take(self, n: int) -> str:
        text = self.buf[self.pos : self.pos + n]
        self.skip(len(text))
        return text

    def skip(self, n: int) -> None:
        end = self.pos + n
        lines = self.buf.count("\n", self.pos, end)
        if lines:
            self.line += lines
            self.col = end - self.buf.rfind("\n", self.pos, end)
        else:
            self.col += n
        self.pos, self.offset = end, self.offset + n

    def skip_past(self, char: str) -> None:
        """Drop everything up to and including the next ``char`` (or to the end), however far."""
        while True:
            j = self.buf.find(char, self.pos)
            if j >= 0:
                self.skip(j + 1 - self.pos)
                return
            self.skip(len(self.buf) - self.pos)
            if not self.more():
                return

    def skip_run(self, pattern: re.Pattern[str]) -> int:
        """Drop the run of text ``pattern`` matches here, across pieces; its length."""
        total = 0
        while True:
            m = pattern.match(self.buf, self.pos)
            n = 0 if m is None else m.end() - self.pos
            self.skip(n)
            total += n
            if self.pos < len(self.buf) or not self.more():
                return total

    def token(self, kind: str, value: str, **kw: object) -> Token:
        return Token(kind, value, self.line, self.col, offset=self.offset, **kw)  # type: ignore[arg-type]


def tokenize(source: Source) -> Iterator[Token]:
    """The tokens of PDN text (a string or a stream), each with its 1-based line and column.

    Line ends may be LF, CRLF or CR.  Lexical problems come out as ``error`` tokens, and reading
    goes on after them.  The text is read piece by piece: memory holds one piece and the token
    being read (at most :data:`MAX_TOKEN` characters), never a whole line.
    """
    s = _Stream(source)
    if s.peek() == "\ufeff":
        s.skip(1)
    while s.pos < len(s.buf) or s.more():
        c = s.buf[s.pos]
        if c in " \t\n\f\v":
            m = _SPACE_RE.match(s.buf, s.pos)
            assert m is not None
            if m.end() < len(s.buf):
                s.skip(m.end() - s.pos)
            else:
                s.skip_run(_SPACE_RE)
        elif c == "%" and s.col == 1:  # PDN 3.0 escape line
            s.skip_past("\n")
        elif c in _READERS:
            yield from _READERS[c](s)
        else:
            yield from _words(s)


def _delimited(s: _Stream, close: str, what: str, never: str) -> Iterator[Token | str]:
    """The text between the opening character at ``pos`` and ``close`` (a str), or error tokens:
    never closed (the rest of the text is dropped) or longer than :data:`MAX_TOKEN` (dropped to
    ``close``)."""
    j = s.find(close, 1, MAX_TOKEN)
    if j >= 0:
        yield s.take(j + 1)
        return
    if s.available(MAX_TOKEN) < MAX_TOKEN:
        yield s.token("error", never)
        s.skip_run(_ANY_RE)
        return
    yield s.token("error", f"{what} longer than {MAX_TOKEN:,} characters (skipped)")
    s.skip_past(close)


def _comment(s: _Stream) -> Iterator[Token]:
    place = s.token("comment", "")
    for part in _delimited(s, "}", "comment", "comment '{' is never closed with '}'"):
        yield part if isinstance(part, Token) else replace(place, value=_collapse(part[1:-1]))


def _line_comment(s: _Stream) -> Iterator[Token]:
    place = s.token("comment", "")
    j = s.find("\n", 1, MAX_TOKEN)
    if j < 0 and s.available(MAX_TOKEN) >= MAX_TOKEN:
        yield s.token("error", f"comment longer than {MAX_TOKEN:,} characters (skipped)")
        s.skip_past("\n")
        return
    text = s.take(j if j >= 0 else s.available(MAX_TOKEN))
    yield replace(place, value=_collapse(text[1:]))


def _tag(s: _Stream) -> Iterator[Token]:
    end = s.find("\n", 0, MAX_TOKEN)
    end = end if end >= 0 else s.available(MAX_TOKEN)
    m = _TAG_RE.match(s.buf, s.pos, s.pos + end)
    if m:
        yield s.token("tag", _unescape(m.group(2)), name=m.group(1))
        s.skip(m.end() - s.pos)
        return
    yield s.token("error", 'malformed tag pair (expected [Name "value"] on one line)')
    k = s.buf.find("]", s.pos, s.pos + end)  # within the line: linear over many bad tags
    if k >= 0:
        s.skip(k + 1 - s.pos)
    elif end >= MAX_TOKEN:
        s.skip_past("\n")
    else:
        s.skip(end)


def _stray_bracket(s: _Stream) -> Iterator[Token]:
    yield s.token("error", "']' without a tag")
    s.skip(1)


def _quote(s: _Stream) -> Iterator[Token]:
    yield s.token("error", "a quoted string outside a tag pair or setup")
    s.skip(1)
    s.skip_past('"')


def _paren(s: _Stream) -> Iterator[Token]:
    c = s.peek()
    yield s.token(c, c)
    s.skip(1)


def _nag(s: _Stream) -> Iterator[Token]:
    s.available(MAX_NUMBER_DIGITS + 2)
    m = _NAG_RE.match(s.buf, s.pos, s.pos + MAX_NUMBER_DIGITS + 2)
    if m is None:
        yield s.token("error", "'$' must be followed by a number (a NAG, like $1)")
        s.skip(1)
    elif len(m.group()) > MAX_NUMBER_DIGITS + 1:
        yield s.token("error", f"NAG {m.group()[:10]}... is too long")
        s.skip(1)
        s.skip_run(_DIGITS_RE)
    else:
        yield s.token("nag", m.group())
        s.skip(len(m.group()))


def _setup(s: _Stream) -> Iterator[Token]:
    place = s.token("setup", "")
    for part in _delimited(s, "/", "setup", "setup '/' is never closed with '/'"):
        if isinstance(part, Token):
            yield part
            continue
        body = part[1:-1]
        m = _SETUP_RE.fullmatch(body)
        if m:
            yield replace(place, value=m.group(1).strip())
        elif _BARE_FEN_RE.fullmatch(body):
            yield replace(place, value=_collapse(body))
        else:
            yield replace(place, kind="error", value=f'setup /{_collapse(body)}/ is not /FEN "..."/')


def _words(s: _Stream) -> Iterator[Token]:
    """A run of text between delimiters: move number, move, result, mark, or an error."""
    if len(s.buf) - s.pos <= MAX_WORD:
        s.available(MAX_WORD + 1)
    m = _WORD_RE.match(s.buf, s.pos, s.pos + MAX_WORD + 1)
    assert m is not None  # the caller saw a character that is not a delimiter
    if len(m.group()) > MAX_WORD:
        place, head = s.token("error", ""), m.group()[:20]
        length = s.skip_run(_WORD_RE)
        yield replace(place, value=f"'{head}...' is too long for a move ({length} characters)")
        return
    line, col, offset = s.line, s.col, s.offset
    tokens = _word(s.take(len(m.group())), line, col, offset)
    yield from tokens
    if tokens[-1].kind == "move" and s.peek() == "(":  # 29-23(?): the move's strength
        s.available(16)
        g = _GLUED_STRENGTH_RE.match(s.buf, s.pos, s.pos + 16)
        if g:
            yield s.token("strength", g.group(1))
            s.skip(g.end() - s.pos)


_READERS: dict[str, Callable[[_Stream], Iterator[Token]]] = {
    "{": _comment,
    ";": _line_comment,
    "[": _tag,
    "]": _stray_bracket,
    '"': _quote,
    "(": _paren,
    ")": _paren,
    "$": _nag,
    "/": _setup,
}


def _word(word: str, line: int, col: int, offset: int) -> list[Token]:
    """Classify one run of text between delimiters (it may hold a number and a move: ``12.32-28``)
    that starts at ``line``, ``col`` (``offset`` characters into the text)."""

    def make(kind: str, value: str, k: int = 0, name: str = "", second: bool = False) -> Token:
        return Token(kind, value, line, col + k, name, second, offset + k)

    if word in RESULTS:
        return [make("result", word)]
    if word in _ELLIPSES:
        return [make("ellipsis", word)]
    if _STRENGTH_RE.fullmatch(word):  # "32-28 !": a strength written apart from its move
        return [make("strength", word)]
    out = []
    k = 0
    m = _NUMBER_RE.match(word)
    if m:
        if len(m.group(1)) > MAX_NUMBER_DIGITS:
            return [make("error", f"move number {m.group(1)[:10]}... is too long")]
        out.append(make("number", m.group(1), second=len(m.group(2)) > 1))
        k = m.end()
        if k == len(word):
            return out
        if word[k:] in _ELLIPSES:
            return [*out, make("ellipsis", word[k:], k)]
    m = _MOVE_RE.fullmatch(word, k)
    if m and not _ONE_SQUARE_RE.fullmatch(m.group("move")):
        out.append(make("move", m.group("move"), k, name=m.group("strength") or ""))
    else:
        out.append(make("error", f"'{word[k:]}' is not a move, move number, result or annotation", k))
    return out


# -- the game model ---------------------------------------------------------------------------------


@dataclass(eq=False)
class PdnNode:
    """One move of a line, with what PDN attaches to it."""

    text: str
    """The move as written (without its strength mark)."""
    line: int = 0
    col: int = 0
    strength: str = ""
    """``!``, ``?``, ``!!``, ``?!``, ``!?``, ``??`` ... as written (``(!)`` is kept as ``!``)."""
    nags: list[str] = field(default_factory=list)
    """Numeric annotation glyphs, ``$1`` ..."""
    comments_before: list[str] = field(default_factory=list)
    comments_after: list[str] = field(default_factory=list)
    variations: list[list[PdnNode]] = field(default_factory=list)
    """Alternatives to this move, each from the position before it."""
    setup: str | None = None
    """A FEN set up (``/FEN "..."/``) just before this move."""
    setup_line: int = 0
    setup_col: int = 0
    written_number: str | None = None
    """The move number as written before the move (``12.``, ``12...``), if any."""
    number: int = 0
    """The move number (computed from the start position; the first mover's and the second
    mover's moves of one pair share it)."""
    second: bool = False
    """True for the second mover's move (written ``12...``)."""
    move: Move | None = None
    """The move, once :func:`replay` has checked it."""
    before: Position | None = None
    """The position the move was played in, once replayed."""

    @property
    def label(self) -> str:
        """``12.`` or ``12...`` followed by the move as written: ``12... 19-23``."""
        return f"{self.number}{'...' if self.second else '.'} {self.text}"

    def content(self) -> tuple[object, ...]:
        """Everything the text says about this move (for comparing two readings)."""
        return (
            self.text,
            self.strength,
            tuple(self.nags),
            tuple(self.comments_before),
            tuple(self.comments_after),
            self.setup,
            tuple(tuple(n.content() for n in var) for var in self.variations),
        )


@dataclass(eq=False)
class PdnGame:
    """One game of a PDN file."""

    index: int
    """1-based position of the game in its file."""
    line: int = 1
    """Line where the game starts (its first tag, or its first move)."""
    col: int = 1
    path: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    """Tag pairs in file order (a repeated tag keeps its last value)."""
    tag_positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    moves: list[PdnNode] = field(default_factory=list)
    """The main line."""
    comments: list[str] = field(default_factory=list)
    """Comments of a game without moves (otherwise comments belong to the moves)."""
    setup: str | None = None
    """A ``/FEN "..."/`` setup before the first move (it overrides the FEN tag)."""
    setup_position: tuple[int, int] | None = None
    result: str | None = None
    """The result token ending the game, or None when the text has none."""
    result_position: tuple[int, int] | None = None
    variant: Variant | None = None
    """The rules the game follows (None when its Variant/GameType tag names none this engine plays)."""
    errors: list[PdnError] = field(default_factory=list)
    """Problems found while reading (replay adds its own to :class:`ReplayResult`)."""

    @property
    def players(self) -> str:
        return f"{self.tags.get('White') or '?'} - {self.tags.get('Black') or '?'}"

    @property
    def name(self) -> str:
        """``game 2 (Club, Ana - Bia)``: index, Event, White and Black, as far as they are known."""
        parts = []
        if self.tags.get("Event"):
            parts.append(self.tags["Event"])
        if self.tags.get("White") or self.tags.get("Black"):
            parts.append(self.players)
        return f"game {self.index}" + (f" ({', '.join(parts)})" if parts else "")

    @property
    def start_fen(self) -> str | None:
        """The FEN the game starts from (setup token, else FEN tag), or None for the initial position."""
        if self.setup is not None:
            return self.setup
        fen = self.tags.get("FEN")
        return fen if fen and fen.strip() else None

    @property
    def start_fen_position(self) -> tuple[int, int]:
        if self.setup is not None and self.setup_position:
            return self.setup_position
        return self.tag_positions.get("FEN", (self.line, self.col))

    @property
    def stated_result(self) -> str | None:
        """The result token, else the Result tag."""
        return self.result if self.result is not None else self.tags.get("Result")

    def content(self) -> tuple[object, ...]:
        """Tags, start, moves, annotations, variations and result, for comparing two readings."""
        return (
            dict(self.tags),
            self.setup,
            tuple(self.comments),
            tuple(n.content() for n in self.moves),
            self.result,
        )

    def _error(self, line: int, col: int, message: str, severity: str = "error") -> None:
        self.errors.append(PdnError(self.path, line, col, message, severity))


# -- parsing ----------------------------------------------------------------------------------------


class _Line:
    """A line (main line or variation) being built."""

    def __init__(self, nodes: list[PdnNode], open_token: Token | None = None) -> None:
        self.nodes = nodes
        self.open_token = open_token
        self.before: list[str] = []
        self.number: Token | None = None
        self.setup: Token | None = None
        self.sealed = False  # a variation or setup followed the last move: comments go forward

    def close(self, game: PdnGame) -> None:
        if self.before:
            if self.nodes:
                self.nodes[-1].comments_after.extend(self.before)
            elif self.open_token is None:
                game.comments.extend(self.before)
            self.before = []
        if self.setup is not None:
            game._error(self.setup.line, self.setup.col, "setup is not followed by a move (ignored)", "warning")
            self.setup = None


class _Parser:
    """Tokens in, games out, one at a time: a game is handed on as soon as the next one begins, so
    memory holds one game (two when the text after a result might still belong to it).

    ``max_game_chars`` bounds one game's text: past it the game keeps what it has, gets one error,
    and the rest of it is read but not kept (its result and the next game's tags are still seen)."""

    def __init__(self, default: Variant, path: str | None, max_game_chars: int | None = None, hint: str = "") -> None:
        self.default = default
        self.path = path
        self.max_game_chars = max_game_chars
        self.hint = hint
        self.count = 0
        self.done: list[PdnGame] = []
        """Finished games not yet handed on (the last one waits: trailing text may join it)."""
        self.game: PdnGame | None = None
        self.stack: list[_Line] = []
        self.has_body = False
        self.too_deep = False
        self.start = 0
        self.over = False
        self.handlers: dict[str, Callable[[PdnGame, _Line, Token], None]] = {
            "error": lambda g, line, t: g._error(t.line, t.col, t.value),
            "tag": self.on_tag,
            "result": self.on_result,
            "comment": self.on_comment,
            "number": self.on_number,
            "ellipsis": self.on_ellipsis,
            "move": self.on_move,
            "strength": self.on_strength,
            "nag": self.on_nag,
            "setup": self.on_setup,
            "(": self.on_open,
            ")": self.on_close,
        }

    def new_game(self, t: Token) -> PdnGame:
        self.count += 1
        g = PdnGame(index=self.count, line=t.line, col=t.col, path=self.path)
        self.game, self.stack = g, [_Line(g.moves)]
        self.has_body = self.too_deep = self.over = False
        self.start = t.offset
        return g

    def feed(self, t: Token) -> None:
        g = self.game
        if g is None:
            g = self.new_game(t)
        elif t.kind == "tag" and self.has_body:
            self.finish()
            g = self.new_game(t)
        if self.max_game_chars is not None and not self.over and t.offset - self.start > self.max_game_chars:
            self.over = True
            size = f"the game is longer than {self.max_game_chars:,} characters"
            g._error(t.line, t.col, f"{size}{' ' + self.hint if self.hint else ''}; the rest is skipped")
        if self.over and t.kind not in ("tag", "result"):
            return
        self.handlers[t.kind](g, self.stack[-1], t)

    def on_tag(self, g: PdnGame, line: _Line, t: Token) -> None:
        if t.name in g.tags:
            g._error(t.line, t.col, f"tag {t.name} is given twice; the last value counts", "warning")
            del g.tags[t.name]
        g.tags[t.name] = t.value
        g.tag_positions[t.name] = (t.line, t.col)

    def on_result(self, g: PdnGame, line: _Line, t: Token) -> None:
        if len(self.stack) > 1 and not self.over:
            g._error(t.line, t.col, f"result {t.value} inside a variation (ignored)", "warning")
            return
        g.result = t.value
        g.result_position = (t.line, t.col)
        self.finish()

    def on_comment(self, g: PdnGame, line: _Line, t: Token) -> None:
        if line.nodes and not line.sealed and line.number is None and line.setup is None:
            line.nodes[-1].comments_after.append(t.value)
        else:
            line.before.append(t.value)

    def on_number(self, g: PdnGame, line: _Line, t: Token) -> None:
        self.has_body = True
        line.number = t

    def on_ellipsis(self, g: PdnGame, line: _Line, t: Token) -> None:
        if line.number is not None and not line.number.second:
            line.number = replace(line.number, second=True)

    def on_move(self, g: PdnGame, line: _Line, t: Token) -> None:
        self.has_body = True
        num = line.number
        node = PdnNode(
            t.value,
            t.line,
            t.col,
            strength=t.name,
            comments_before=line.before,
            written_number=None if num is None else num.value + ("..." if num.second else "."),
        )
        if line.setup is not None:
            node.setup, node.setup_line, node.setup_col = line.setup.value, line.setup.line, line.setup.col
        line.nodes.append(node)
        line.before, line.number, line.setup, line.sealed = [], None, None, False

    def on_strength(self, g: PdnGame, line: _Line, t: Token) -> None:
        if line.nodes:
            line.nodes[-1].strength = t.value

    def on_nag(self, g: PdnGame, line: _Line, t: Token) -> None:
        if line.nodes:
            line.nodes[-1].nags.append(t.value)
        else:
            g._error(t.line, t.col, f"{t.value} before any move (ignored)", "warning")

    def on_setup(self, g: PdnGame, line: _Line, t: Token) -> None:
        self.has_body = True
        if len(self.stack) == 1 and not line.nodes and g.setup is None and line.setup is None:
            g.setup = t.value
            g.setup_position = (t.line, t.col)
        else:
            if line.setup is not None:
                g._error(line.setup.line, line.setup.col, "setup replaced by the next one", "warning")
            line.setup = t
        line.sealed = True

    def on_open(self, g: PdnGame, line: _Line, t: Token) -> None:
        self.has_body = True
        holder: list[PdnNode] = []  # a variation too deep or before any move is read but kept out
        if len(self.stack) > MAX_VARIATION_DEPTH:
            if not self.too_deep:
                message = f"variations nested more than {MAX_VARIATION_DEPTH} deep (the deeper ones are ignored)"
                g._error(t.line, t.col, message)
            self.too_deep = True
        elif not line.nodes:
            g._error(t.line, t.col, "variation before any move: it has no move to replace")
        else:
            line.nodes[-1].variations.append(holder)
        if line.before and line.nodes:
            line.nodes[-1].comments_after.extend(line.before)
            line.before = []
        line.number = None
        line.sealed = True
        self.stack.append(_Line(holder, t))

    def on_close(self, g: PdnGame, line: _Line, t: Token) -> None:
        if len(self.stack) == 1:
            g._error(t.line, t.col, "')' without a '('")
            return
        inner = self.stack.pop()
        inner.close(g)
        if not inner.nodes and inner.open_token is not None:
            g._error(inner.open_token.line, inner.open_token.col, "empty variation (ignored)", "warning")
            parent = self.stack[-1]
            if parent.nodes:
                last = parent.nodes[-1]
                last.variations = [v for v in last.variations if v is not inner.nodes]

    def finish(self) -> None:
        g = self.game
        if g is None:
            return
        while len(self.stack) > 1:
            inner = self.stack.pop()
            assert inner.open_token is not None
            if not self.over:
                g._error(inner.open_token.line, inner.open_token.col, "'(' is never closed with ')'")
            inner.close(g)
        self.stack[0].close(g)
        self.game = None
        self.stack = []
        if not (g.tags or g.moves or g.setup or g.result or g.errors) and self.done:
            # text after the last result that holds no game: keep its comments as a warning only
            self.count -= 1
            prev = self.done[-1]
            if g.comments:
                message = f"{prev.name}: text after the result is not part of any game (ignored)"
                prev.errors.append(PdnError(self.path, g.line, g.col, message, "warning"))
            return
        _resolve_variant(g, self.default)
        _number_moves(g, warn=True)
        g.errors = [replace(e, message=f"{g.name}: {e.message}") for e in g.errors]
        self.done.append(g)

    def ready(self) -> Iterator[PdnGame]:
        """Hand on every finished game but the last (trailing text may still attach a warning to it)."""
        while len(self.done) > 1:
            yield self.done.pop(0)


def iter_pdn(
    source: Source,
    default_variant: Variant | str = "international",
    path: str | None = None,
    *,
    max_game_chars: int | None = None,
    hint: str = "",
) -> Iterator[PdnGame]:
    """The games of PDN text (a string, a text stream or text pieces), each as soon as it is read.

    Memory holds the piece of text being read and at most two games, so a file of any size is read
    in memory proportional to its longest game; ``max_game_chars`` bounds that game (the reader's
    caller sets it, from ``generator.limits``' ``pdn_game_chars``; ``hint`` says how to raise it).
    See :func:`read_pdn`.

    Raises:
        UnknownVariantError: when ``default_variant`` is not a variant.
    """
    parser = _Parser(get_variant(default_variant), None if path is None else str(path), max_game_chars, hint)
    for t in tokenize(source):
        parser.feed(t)
        if len(parser.done) > 1:
            yield from parser.ready()
    parser.finish()
    yield from parser.done


def read_pdn(
    text: Source,
    default_variant: Variant | str = "international",
    path: str | None = None,
    *,
    max_game_chars: int | None = None,
) -> list[PdnGame]:
    """Every game of a PDN text (a string, a text stream or text pieces).

    ``default_variant`` is used for games with neither a Variant nor a GameType tag; ``path`` only
    names the source in error messages.  Reading problems are kept in each game's ``errors``; moves
    are not checked against the rules until :func:`replay`.  :func:`iter_pdn` hands the games on one
    at a time.

    Raises:
        UnknownVariantError: when ``default_variant`` is not a variant.
    """
    return list(iter_pdn(text, default_variant, path, max_game_chars=max_game_chars))


def variant_for_gametype(value: str) -> Variant:
    """The variant a GameType tag value names (``20`` or ``20,W,10,10,N2,0``).

    Raises:
        DamasError: for a number this engine does not play, naming the supported ones.
    """
    number = value.split(",")[0].strip()
    if number in GAMETYPES:
        return GAMETYPES[number]
    known = ", ".join(f"{n} {v.name}" for n, v in sorted(GAMETYPES.items()))
    what = f" ({OTHER_GAMETYPES[number]})" if number in OTHER_GAMETYPES else ""
    raise DamasError(
        f"GameType {number or value!r}{what} is not supported; supported: {known}; "
        f'or name the rules with [Variant "..."]'
    )


def _resolve_variant(g: PdnGame, default: Variant) -> None:
    vline, vcol = g.tag_positions.get("Variant", (g.line, g.col))
    tline, tcol = g.tag_positions.get("GameType", (g.line, g.col))
    g.variant = default
    if "Variant" in g.tags:
        try:
            g.variant = get_variant(g.tags["Variant"])
        except DamasError as exc:
            g.variant = None
            g._error(vline, vcol, str(exc))
            return
        if "GameType" in g.tags:
            number = g.tags["GameType"].split(",")[0].strip()
            if number != g.variant.gametype:
                g._error(
                    tline,
                    tcol,
                    f"GameType {number} does not match Variant {g.variant.name} "
                    f"(GameType {g.variant.gametype}); the Variant tag counts",
                    "warning",
                )
    elif "GameType" in g.tags:
        try:
            g.variant = variant_for_gametype(g.tags["GameType"])
        except DamasError as exc:
            g.variant = None
            g._error(tline, tcol, str(exc))
    if g.tags.get("SetUp", "").strip() == "1" and g.start_fen is None:
        line, col = g.tag_positions["SetUp"]
        g._error(line, col, '[SetUp "1"] but no FEN tag or setup', "warning")


def _start_turn_and_number(variant: Variant, fen: str | None) -> tuple[int, int]:
    """(side to move, move number) at a FEN (``start`` when None), without validating the FEN."""
    if fen is None:
        return variant.first_to_move, 1
    head = fen.strip().strip('"').strip()[:1].upper()
    turn = {"W": WHITE, "B": BLACK}.get(head, variant.first_to_move)
    try:
        number = Counters.from_fen(fen).move_number
    except DamasError:
        number = 1
    return turn, number


def _parse_number(written: str | None) -> tuple[int, bool] | None:
    if not written:
        return None
    m = _NUMBER_RE.fullmatch(written)
    if not m:
        return None
    return int(m.group(1)), len(m.group(2)) > 1


def _number_moves(g: PdnGame, *, warn: bool) -> None:
    """Give every node its move number and side, from the start position and the first number
    written in the main line; warn once per line where the written numbers disagree."""
    variant = g.variant or get_variant("international")
    first = variant.first_to_move
    turn, number = _start_turn_and_number(variant, g.start_fen)
    if g.moves:
        written = _parse_number(g.moves[0].written_number)
        if written is not None:
            number = written[0]

    def walk(nodes: Sequence[PdnNode], turn: int, number: int) -> None:
        warned = False
        for node in nodes:
            if node.setup is not None:
                turn, fen_number = _start_turn_and_number(variant, node.setup)
                written = _parse_number(node.written_number)
                number = written[0] if written else (fen_number if fen_number > 1 else number)
            node.number, node.second = number, turn != first
            written = _parse_number(node.written_number)
            if warn and written is not None and written != (number, node.second) and not warned:
                warned = True
                expected = f"{number}{'...' if node.second else '.'}"
                g._error(
                    node.line,
                    node.col,
                    f"move number {node.written_number} written before {node.text}, "
                    f"but it is move {expected} (numbers are counted from here on)",
                    "warning",
                )
            for var in node.variations:
                walk(var, turn, number)
            if node.second:
                number += 1
            turn ^= 1

    walk(g.moves, turn, number)


# -- replay -----------------------------------------------------------------------------------------


@dataclass
class ReplayResult:
    """What :func:`replay` found."""

    game: PdnGame
    errors: list[PdnError]
    """Reading and replay problems, in text order (see ``PdnError.severity``)."""
    status: Status | None
    """How the main line ends, or None when it could not be replayed to the end."""
    plies: int
    """Main-line moves played (each side's move counts one)."""
    final: Game | None
    """The engine game after the last main-line move that could be played."""
    stopped_at: PdnNode | None = None
    """The main-line move where replay stopped, if it did."""

    @property
    def ok(self) -> bool:
        """No error (warnings allowed)."""
        return not any(e.is_error for e in self.errors)

    @property
    def summary(self) -> str:
        """The final status, or where and why replay stopped."""
        if self.status is not None:
            return str(self.status)
        if self.stopped_at is not None:
            return f"stopped at move {self.stopped_at.label}"
        return "not replayed"


class _Replayer:
    def __init__(self, game: PdnGame, variant: Variant, profile: object, disabled: tuple[str, ...]) -> None:
        self.game = game
        self.variant = variant
        self.profile = profile
        self.disabled = disabled
        self.errors: list[PdnError] = []

    def error(self, line: int, col: int, message: str, severity: str = "error") -> None:
        self.errors.append(PdnError(self.game.path, line, col, f"{self.game.name}: {message}", severity))

    def new_game(self, fen: str | None) -> Game:
        return Game(self.variant, fen or "start", profile=self.profile, disabled=self.disabled)  # type: ignore[arg-type]  # profile as replay() got it

    def line(self, g: Game, nodes: Sequence[PdnNode], where: str) -> tuple[Game, int, PdnNode | None, int]:
        """Play ``nodes`` on ``g`` (checking each node's variations first).

        Returns (the game the line ended in, plies pushed on ``g`` itself, the node that stopped the
        line or None, plies played in all).
        """
        cur, pushed, plies = g, 0, 0
        drawn_warned = False
        for node in nodes:
            if node.setup is not None:
                try:
                    cur = self.new_game(node.setup)
                except DamasError as exc:
                    self.error(node.setup_line, node.setup_col, f"setup before move {node.label}: {exc}")
                    return cur, pushed, node, plies
            for var in node.variations:
                self.variation(cur, var)
            status = cur.status()
            pos = cur.position
            if status.is_over and status.winner is not None:
                self.error(node.line, node.col, f"{where}move {node.label}: the game is already over ({status})")
                return cur, pushed, node, plies
            if status.is_over and not drawn_warned:
                drawn_warned = True
                self.error(
                    node.line,
                    node.col,
                    f"{where}move {node.label} is played after the game ended ({status}); checking goes on",
                    "warning",
                )
            try:
                move = pos.parse_move(node.text)
            except (IllegalMoveError, AmbiguousMoveError, InvalidMoveError) as exc:
                # the engine's message starts with the move: "19-23 is not legal here; legal: ..."
                number = f"{node.number}{'...' if node.second else '.'}"
                self.error(node.line, node.col, f"{where}move {number} {exc}")
                return cur, pushed, node, plies
            node.before, node.move = pos, move
            cur.push(move)
            plies += 1
            if cur is g:
                pushed += 1
        return cur, pushed, None, plies

    def variation(self, g: Game, nodes: Sequence[PdnNode]) -> None:
        _, pushed, _, _ = self.line(g, nodes, "in a variation, ")
        for _ in range(pushed):
            g.pop()


def _clear(nodes: Iterable[PdnNode]) -> None:
    for n in nodes:
        n.move = n.before = None
        for var in n.variations:
            _clear(var)


def replay(
    game: PdnGame,
    *,
    profile: str | None = None,
    disabled: Iterable[str] = (),
) -> ReplayResult:
    """Check a game's main line and variations with the rules engine.

    Each move is read in the game's variant from the position it is played in (a variation from the
    position before the move it replaces); replayed nodes get ``move`` and ``before``.  The main
    line stops at its first unplayable move.  When the main line ends a game by rule (a side cannot
    move, a draw rule), the stated result (token, else Result tag) is compared with it; a mismatch is
    a warning, as are moves played after a draw rule ended the game.  ``profile`` and ``disabled``
    choose the draw rules (see :class:`~generator.rules.game.Game`); a profile that does not belong
    to the game's variant is reported as an error of that game.
    """
    _clear(game.moves)
    errors = list(game.errors)
    variant = game.variant
    if variant is None:
        return ReplayResult(game, _sorted(errors), None, 0, None)
    r = _Replayer(game, variant, profile, tuple(disabled))
    try:
        g = r.new_game(game.start_fen)
    except DamasError as exc:
        line, col = game.start_fen_position
        r.error(line, col, str(exc))
        return ReplayResult(game, _sorted(errors + r.errors), None, 0, None)
    except ValueError as exc:  # a draw profile or rule id that this variant does not have
        r.error(game.line, game.col, str(exc))
        return ReplayResult(game, _sorted(errors + r.errors), None, 0, None)
    final, _, stopped, plies = r.line(g, game.moves, "")
    status = None if stopped is not None else final.status()
    if status is not None:
        _check_result(r, game, variant, status)
    return ReplayResult(game, _sorted(errors + r.errors), status, plies, final, stopped)


def _sorted(errors: list[PdnError]) -> list[PdnError]:
    return sorted(errors, key=lambda e: (e.line, e.col))


def result_outcome(token: str | None, variant: Variant) -> Outcome | None:
    """The outcome a result token states (None for ``*``, ``0-0`` and unknown tokens).

    The first score is the first mover's: in American checkers (Black moves first) ``1-0`` is a
    win for Black, as PDN 2.0 defines it; elsewhere it is White's.
    """
    if token is None:
        return None
    t = token.strip()
    first_wins = Outcome.WHITE_WINS if variant.first_to_move == WHITE else Outcome.BLACK_WINS
    second_wins = Outcome.BLACK_WINS if variant.first_to_move == WHITE else Outcome.WHITE_WINS
    return {
        "1-0": first_wins,
        "2-0": first_wins,
        "0-1": second_wins,
        "0-2": second_wins,
        "1/2-1/2": Outcome.DRAW,
        "1-1": Outcome.DRAW,
    }.get(t)


def _describe(token: str, variant: Variant) -> str:
    outcome = result_outcome(token, variant)
    return token if outcome is None else f"{token} ({outcome.value})"


def _check_result(r: _Replayer, game: PdnGame, variant: Variant, status: Status) -> None:
    token, tag = game.result, game.tags.get("Result")
    tline, tcol = game.tag_positions.get("Result", (game.line, game.col))
    if (
        token is not None
        and tag is not None
        and tag.strip() not in ("", "*", "?")
        and token != "*"
        and (
            result_outcome(token, variant) != result_outcome(tag, variant)
            or (result_outcome(token, variant) is None and token != tag.strip())
        )
    ):
        line, col = game.result_position or (tline, tcol)
        r.error(line, col, f'result {token} does not match [Result "{tag}"]', "warning")
    if not status.is_over:
        return
    stated = token if token is not None and token != "*" else tag
    if stated is None or stated.strip() in ("", "*", "?", "0-0"):
        return
    if result_outcome(stated, variant) is status.outcome:
        return
    line, col = game.result_position if token not in (None, "*") and game.result_position else (tline, tcol)
    r.error(
        line,
        col,
        f"result {_describe(stated.strip(), variant)} but the final position is {status} "
        f"({result_token(status.outcome, variant)})",
        "warning",
    )


# -- writing ----------------------------------------------------------------------------------------


def _move_text(node: PdnNode, canonical: bool) -> str:
    if canonical and node.move is not None and node.before is not None:
        return node.before.move_text(node.move)
    return node.text


def _comment_words(text: str) -> list[str]:
    if "}" in text:  # only a ';' comment can hold a '}': write it back as one
        return [";" + text, "\n"]
    words = text.split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _line_words(nodes: Sequence[PdnNode], canonical: bool) -> list[str]:
    out: list[str] = []
    need_number = True
    for node in nodes:
        for c in node.comments_before:
            out.extend(_comment_words(c))
            need_number = True
        if node.setup is not None:
            out.append(f'/FEN "{node.setup}"/')
            need_number = True
        number = f"{node.number}. " if not node.second else f"{node.number}... " if need_number else ""
        out.append(number + _move_text(node, canonical) + node.strength)  # a number stays with its move
        out.extend(node.nags)
        need_number = False
        for c in node.comments_after:
            out.extend(_comment_words(c))
            need_number = True
        for var in node.variations:
            inner = _line_words(var, canonical)
            if inner:
                inner[0] = "(" + inner[0]
                if inner[-1] == "\n":  # after a ';' comment the ')' goes on the next line
                    inner.append(")")
                else:
                    inner[-1] += ")"
                out.extend(inner)
            need_number = True
    return out


def _wrap(words: Iterable[str], width: int) -> list[str]:
    lines: list[str] = []
    cur = ""
    for w in words:
        if w == "\n":
            lines.append(cur)
            cur = ""
            continue
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def _tags_to_write(game: PdnGame) -> list[tuple[str, str]]:
    tags = dict(game.tags)
    variant = game.variant
    out = [(name, tags.pop(name)) for name in SEVEN_TAG_ROSTER if name in tags]
    if "GameType" in tags:
        out.append(("GameType", tags.pop("GameType")))
    elif variant is not None:
        out.append(("GameType", variant.gametype))
    if "Variant" in tags:
        out.append(("Variant", tags.pop("Variant")))
    elif variant is not None and GAMETYPES.get(variant.gametype) is not variant:
        out.append(("Variant", variant.name))
    out.extend(tags.items())
    return out


def write_pdn(games: Iterable[PdnGame], *, width: int = 79, canonical: bool = True) -> str:
    """PDN 3.0 text for ``games``.

    Tags first (the seven-tag roster in its order, then GameType, always written, then a Variant tag
    where the GameType number does not name the variant, e.g. perde-ganha, then the others in their
    order); then the moves, numbered, with strengths, NAGs, comments, setups and variations; the
    result token last (the Result tag's value, or ``*``, when the text had none).  Lines are wrapped
    at ``width`` characters where possible.  With ``canonical`` a replayed move is written in short
    notation, long only when ambiguous (PDN 3.0 writing rules 8-9); moves not replayed are written as
    they were read.
    """
    blocks = []
    for game in games:
        _number_moves(game, warn=False)
        head = [f'[{name} "{_escape(value)}"]' for name, value in _tags_to_write(game)]
        words: list[str] = []
        if game.setup is not None:
            words.append(f'/FEN "{game.setup}"/')
        for c in game.comments:
            words.extend(_comment_words(c))
        words.extend(_line_words(game.moves, canonical))
        words.append(game.result or (game.tags.get("Result") or "*").strip() or "*")
        body = _wrap(words, width)
        blocks.append("\n".join([*head, *([""] if head else []), *body]) + "\n")
    return "\n".join(blocks)


def game_to_pdn(
    game: Game,
    tags: dict[str, str] | None = None,
    *,
    result: str | None = None,
    index: int = 1,
) -> PdnGame:
    """A :class:`PdnGame` holding an engine game's moves (for :func:`write_pdn`).

    The start position goes into ``[SetUp "1"]`` + ``[FEN]`` when it is not the initial one (without
    the draw-rule counters a FEN may carry); the result defaults to the game's status (``*`` while it
    is ongoing).
    """
    variant = game.variant
    g = PdnGame(index=index, tags=dict(tags or {}), variant=variant)
    start = game.start
    if start != Position.start(variant):
        g.tags.setdefault("SetUp", "1")
        g.tags.setdefault("FEN", start.fen())
    pos = start
    for move in game.moves:
        g.moves.append(PdnNode(pos.move_text(move), move=move, before=pos))
        pos = pos.play(move)
    g.result = result or result_token(game.status().outcome, variant)
    g.tags.setdefault("Result", g.result)
    _number_moves(g, warn=False)
    return g
