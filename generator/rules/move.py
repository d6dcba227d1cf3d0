"""A move: one complete turn, a quiet step or a whole capture sequence."""

from __future__ import annotations

from .geometry import Square


class Move:
    """One legal move.

    Identity is (origin, destination, *set* of captured squares), docs/spec.md §1.8: two capture routes
    that differ only in the path are the same move.  ``path`` keeps one route for display, and
    ``captured`` the captured squares in the order they were jumped (the Italian precedence and the
    diagrams need the order).
    """

    __slots__ = ("captured", "captures", "dest", "king", "origin", "path", "promotes")

    origin: Square
    dest: Square
    captures: int
    """Bit set of the captured squares."""
    path: tuple[Square, ...]
    """Every square the piece stands on, from the origin to the destination."""
    captured: tuple[Square, ...]
    """Captured squares in capture order."""
    king: bool
    """True when the moving piece was a king before the move."""
    promotes: bool
    """True when the moving man is a king after the move."""

    def __init__(
        self,
        origin: Square,
        dest: Square,
        captures: int = 0,
        path: tuple[Square, ...] | None = None,
        captured: tuple[Square, ...] = (),
        king: bool = False,
        promotes: bool = False,
    ) -> None:
        self.origin = origin
        self.dest = dest
        self.captures = captures
        self.path = path if path is not None else (origin, dest)
        self.captured = captured
        self.king = king
        self.promotes = promotes

    @property
    def is_capture(self) -> bool:
        return self.captures != 0

    @property
    def key(self) -> tuple[Square, Square, int]:
        return (self.origin, self.dest, self.captures)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.origin == other.origin and self.dest == other.dest and self.captures == other.captures

    def __hash__(self) -> int:
        return hash((self.origin, self.dest, self.captures))

    def __repr__(self) -> str:
        sep = "x" if self.captures else "-"
        return f"<Move {sep.join(str(s) for s in self.path)} (internal squares)>"
