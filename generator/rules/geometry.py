"""Board geometry: which squares are played, how they are named, and the rays between them.

Squares are bit indices into a *padded* grid one column wider than the board: square
``rank * (width + 1) + file`` (file and rank from 0, White's bottom-left corner is 0).  The spare
"ghost" column keeps a one-step shift from wrapping round an edge, so a whole set of men can be moved
in one shift of a Python ``int`` and then masked with the board.  On a diagonal board the direction
north-east is ``+(width + 2)``, north-west ``+width``; on the orthogonal (Turkish) board north is
``+(width + 1)`` and east ``+1``.

Every variant in docs/spec.md §1.1 and §12.1 is one of three layouts and one of three numberings:

* layout ``STANDARD``: a1 is a playing (dark) square (International, Brazilian, Russian, English);
* layout ``MIRRORED``: a1 is light, the playing corner is at each player's right (Italian, Portuguese);
* layout ``FULL``: all 64 squares, orthogonal moves (Turkish);

* numbering ``TOP_LEFT``: 1 is the top-left playing square as White sees the board, counting left to
  right, top to bottom (FMJD 2.6, WCDF 1.5, FID 2.4);
* numbering ``BOTTOM_RIGHT``: 1 is White's bottom-right square, counting right to left, bottom to top
  (FPD items 3-4);
* numbering ``ALGEBRAIC``: files a.. from White's left, ranks 1.. from White's side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

Square = int
"""A bit index into the padded grid (see the module docstring)."""

WHITE = 0
BLACK = 1
COLOR_NAMES = ("white", "black")

MAX_SQUARE_CHARS = 6
"""A square name longer than this is refused before ``int`` sees it (leading zeros allowed)."""


def remap_bits(bits: int, table: Sequence[int] | Mapping[int, int]) -> int:
    """``bits`` with each set bit ``i`` moved to bit ``table[i]``: one square numbering to another
    (padded to dense, dense to padded) or a board symmetry (the half turn).  Sparse masks, so the
    loop runs once per set bit."""
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << table[low.bit_length() - 1]
        bits ^= low
    return out


def is_ascii_number(text: str) -> bool:
    """Digits 0-9 only: ``str.isdigit`` also accepts ``²`` and other digits ``int`` refuses."""
    return text.isascii() and text.isdigit()


def _clip(text: str, most: int = 20) -> str:
    return text if len(text) <= most else text[:most] + "..."


class Layout(Enum):
    """Which squares of the grid are played on, and along which lines pieces travel."""

    STANDARD = "standard"
    MIRRORED = "mirrored"
    FULL = "full"


class Numbering(Enum):
    """How squares are named in the variant's own notation."""

    TOP_LEFT = "numeric, 1 at top left"
    BOTTOM_RIGHT = "numeric, 1 at bottom right"
    ALGEBRAIC = "algebraic"


@dataclass(frozen=True)
class Geometry:
    """A board: its size, layout and numbering, with precomputed neighbour and ray tables.

    Directions are indexed so that ``d ^ 1`` is the opposite of ``d``:
    diagonal boards use NE, SW, NW, SE; the orthogonal board uses N, S, E, W.
    """

    width: int
    height: int
    layout: Layout
    numbering: Numbering
    stride: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "stride", self.width + 1)

    # -- basic coordinates -------------------------------------------------------------------------

    def square(self, file: int, rank: int) -> Square:
        """The square at ``file``, ``rank`` (both from 0, White's bottom-left corner)."""
        return rank * self.stride + file

    def file_of(self, sq: Square) -> int:
        return sq % self.stride

    def rank_of(self, sq: Square) -> int:
        return sq // self.stride

    def is_playing(self, file: int, rank: int) -> bool:
        """True where a piece may stand (docs/spec.md §1.1 predicate, with 0-based rank)."""
        if not (0 <= file < self.width and 0 <= rank < self.height):
            return False
        if self.layout is Layout.FULL:
            return True
        # Standard: a1 (0, 0) is dark.  Mirrored: a1 is light.
        dark = (file + rank) % 2 == 0
        return dark if self.layout is Layout.STANDARD else not dark

    @property
    def orthogonal(self) -> bool:
        return self.layout is Layout.FULL

    @cached_property
    def squares(self) -> tuple[Square, ...]:
        """Every playing square, ordered by the variant's own numbering (square 1 first)."""
        cells = [(f, r) for r in range(self.height) for f in range(self.width) if self.is_playing(f, r)]
        if self.numbering is Numbering.BOTTOM_RIGHT:
            cells.sort(key=lambda fr: (fr[1], -fr[0]))
        else:  # TOP_LEFT and ALGEBRAIC listings both read like a book from White's view
            cells.sort(key=lambda fr: (-fr[1], fr[0]))
        return tuple(self.square(f, r) for f, r in cells)

    @cached_property
    def notation_order(self) -> dict[Square, int]:
        """Sort key of each square for listing moves: the square number on numbered boards,
        files then ranks (a1, a3, ..., b2, ...) on algebraic ones."""
        if self.numbering is Numbering.ALGEBRAIC:
            return {sq: self.file_of(sq) * self.height + self.rank_of(sq) for sq in self.squares}
        return {sq: i for i, sq in enumerate(self.squares)}

    @cached_property
    def mask(self) -> int:
        """Bit set of all playing squares."""
        m = 0
        for sq in self.squares:
            m |= 1 << sq
        return m

    @cached_property
    def size(self) -> int:
        """Number of bits a board set can use (the padded grid)."""
        return self.stride * self.height

    def rank_mask(self, rank: int) -> int:
        """The playing squares of one rank (0 = White's back rank)."""
        m = 0
        for sq in self.squares:
            if self.rank_of(sq) == rank:
                m |= 1 << sq
        return m

    # -- directions, neighbours, rays ------------------------------------------------------------------

    @cached_property
    def directions(self) -> tuple[tuple[int, int], ...]:
        """(file step, rank step) for each direction index; ``d ^ 1`` is the reverse of ``d``."""
        if self.orthogonal:
            return ((0, 1), (0, -1), (1, 0), (-1, 0))  # N, S, E, W
        return ((1, 1), (-1, -1), (-1, 1), (1, -1))  # NE, SW, NW, SE

    @cached_property
    def shifts(self) -> tuple[int, ...]:
        """Bit shift of one step in each direction."""
        return tuple(df + dr * self.stride for df, dr in self.directions)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """``neighbours[d][sq]``: the playing square one step from ``sq`` in direction ``d``, or -1."""
        table = []
        for df, dr in self.directions:
            row = [-1] * self.size
            for sq in self.squares:
                f, r = self.file_of(sq) + df, self.rank_of(sq) + dr
                if self.is_playing(f, r):
                    row[sq] = self.square(f, r)
            table.append(tuple(row))
        return tuple(table)

    @cached_property
    def rays(self) -> tuple[tuple[tuple[Square, ...], ...], ...]:
        """``rays[d][sq]``: the playing squares from ``sq`` (exclusive) to the edge in direction ``d``."""
        table = []
        for d in range(len(self.directions)):
            nb = self.neighbours[d]
            row: list[tuple[Square, ...]] = [()] * self.size
            for sq in self.squares:
                ray = []
                cur = nb[sq]
                while cur >= 0:
                    ray.append(cur)
                    cur = nb[cur]
                row[sq] = tuple(ray)
            table.append(tuple(row))
        return tuple(table)

    def direction_between(self, a: Square, b: Square) -> int | None:
        """The direction leading from ``a`` to ``b`` along one line, or None if they share no line."""
        for d, ray in enumerate(self.rays):
            if b in ray[a]:
                return d
        return None

    # -- names ------------------------------------------------------------------------------------

    @cached_property
    def names(self) -> dict[Square, str]:
        """Square -> its name in the variant's notation ("27", "c3")."""
        if self.numbering is Numbering.ALGEBRAIC:
            return {sq: self.algebraic(sq) for sq in self.squares}
        return {sq: str(i + 1) for i, sq in enumerate(self.squares)}

    def algebraic(self, sq: Square) -> str:
        """Coordinate name of any square (used for edge labels whatever the numbering)."""
        return "abcdefghijklmnopqrstuvwxyz"[self.file_of(sq)] + str(self.rank_of(sq) + 1)

    @cached_property
    def by_name(self) -> dict[str, Square]:
        return {name: sq for sq, name in self.names.items()}

    def name(self, sq: Square) -> str:
        return self.names[sq]

    def parse_square(self, text: str) -> Square:
        """Read a square in this board's notation (leading zeros and upper case are accepted).

        Raises:
            ValueError: with a reason when the text is not a square, is off the board, or names a
                square that is not played on.
        """
        t = text.strip().lower()
        if self.numbering is Numbering.ALGEBRAIC:
            if len(t) < 2 or len(t) > MAX_SQUARE_CHARS or not t[0].isalpha() or not is_ascii_number(t[1:]):
                raise ValueError(f"'{text}' is not a square name (expected a letter and a rank, like c3)")
            f = ord(t[0]) - ord("a")
            r = int(t[1:]) - 1
            if not (0 <= f < self.width and 0 <= r < self.height):
                raise ValueError(f"square '{text}' is off the {self.width}x{self.height} board")
            if not self.is_playing(f, r):
                raise ValueError(f"square '{text}' is a light square, not a playing square")
            return self.square(f, r)
        if not is_ascii_number(t) or len(t) > MAX_SQUARE_CHARS:
            raise ValueError(f"'{_clip(text)}' is not a square number")
        n = int(t)
        if not 1 <= n <= len(self.squares):
            raise ValueError(f"square {n} is out of range (1-{len(self.squares)})")
        return self.squares[n - 1]

    def bits(self, squares: int) -> list[Square]:
        """The squares of a bit set, in ascending bit order."""
        out = []
        while squares:
            low = squares & -squares
            out.append(low.bit_length() - 1)
            squares ^= low
        return out
