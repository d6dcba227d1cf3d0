"""perft: the number of leaf positions after exactly ``depth`` plies (docs/spec.md §1.10).

Draw rules are ignored and duplicate capture routes count once, which is the convention of the
published tables in docs/spec.md §13.  The last ply is counted in bulk, without building quiet moves.
"""

from __future__ import annotations

from .move import Move
from .position import Position


def perft(pos: Position, depth: int, *, all_paths: bool = False) -> int:
    """Leaf count of the move tree below ``pos``.

    ``all_paths=True`` counts every capture route as its own move (the "all paths" column of the
    published tables; the kish crate's Turkish figures are of that kind).
    """
    return pos.variant.generator.perft(*pos.state, depth, all_paths=all_paths)


def divide(pos: Position, depth: int, *, all_paths: bool = False) -> list[tuple[Move, int]]:
    """perft split by first move, for comparing against another engine move by move."""
    if depth < 1:
        raise ValueError("divide needs depth 1 or more")
    first = pos.legal_moves()
    if all_paths:
        first = pos.sorted_moves(pos.variant.generator.moves(*pos.state, merge=False))
    return [(m, perft(pos.play(m), depth - 1, all_paths=all_paths)) for m in first]
