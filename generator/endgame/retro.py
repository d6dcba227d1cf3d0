"""The reference solver of one slice: the definition of the tables, in plain Python on the engine.

For every position of the slice (either side to move) the table holds the result for the side to
move and the distance, in plies, to the end of the game under best play: the winner ends the game
as fast as it can, the loser makes it last as long as it can.  The end of the game is a position
whose side to move has no legal move (no piece, or every piece blocked); that side loses, or wins
where the variant's goal is inverted (perde-ganha, antidraughts).  So, level by level:

* distance 0: the positions without a move;
* a position wins at distance n if one of its moves leads to a position lost at n - 1 and none
  leads to one lost sooner;
* a position loses at distance n if every move leads to a position won, the slowest at n - 1;
* what no level decides is a draw: neither side can force the end of the game.

Moves come from the engine (``Variant.generator.children``); moves that leave the slice (captures,
crownings) read the slices already solved through ``lookup``.  This forward iteration costs a pass
over the slice per level, so it serves small slices and the tests; the compiled kernel
(``_retro.pyx``) computes the same tables by retrograde analysis (tests compare them).
"""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .index import slice_index
from .material import Material, material_of

DRAW, WIN, LOSS = 0, 1, 2
"""Stored results, for the side to move."""

Lookup = Callable[[Material, int, int], tuple[int, int]]
"""(material, turn, index) -> (result, distance) in a slice already solved."""

Progress = Callable[[str, int, int], None]


def _moves(board: Board, material: Material, lookup: Lookup) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """For each position of the slice: the slice positions its moves lead to, and the (result,
    distance) of those that leave the slice."""
    ix = slice_index(board, material)
    gen = board.variant.generator
    out = []
    for i in range(2 * ix.size):
        turn, index = divmod(i, ix.size)
        w, b, k = (board.to_padded(x) for x in ix.position(index))
        inside: list[int] = []
        exits: list[tuple[int, int]] = []
        for cw, cb, ck, _turn, _hash in gen.children(w, b, k, turn)[1]:
            dw, db, dk = board.to_dense(cw), board.to_dense(cb), board.to_dense(ck)
            child = material_of(dw, db, dk)
            if child == material:
                inside.append((turn ^ 1) * ix.size + ix.index(dw, db, dk))
            else:
                exits.append(lookup(child, turn ^ 1, slice_index(board, child).index(dw, db, dk)))
        out.append((inside, exits))
    return out


def solve_pure(
    board: Board, material: Material, lookup: Lookup, progress: Progress | None = None
) -> tuple[bytearray, bytearray, int]:
    """``(results, dist, levels)`` for the slice, in the kernel's format (``Kernel.solve``).

    Level n looks only at the positions that level n could decide: those with a move to a position
    decided at level n - 1 (in the slice, or out of it at that distance), and at level 0 those
    without a move.  Each is judged by the definition above.
    """
    moves = _moves(board, material, lookup)
    total = len(moves)
    result = [-1] * total
    dist = [0] * total
    losing = board.variant.goal.name == "LOSING"
    parents: list[list[int]] = [[] for _ in range(total)]
    by_exit: dict[int, list[int]] = {}
    for i, (inside, exits) in enumerate(moves):
        for c in inside:
            parents[c].append(i)
        for r, d in exits:
            if r != DRAW:
                by_exit.setdefault(d + 1, []).append(i)
    latest_exit = max(by_exit, default=0)
    candidates = {i for i, (inside, exits) in enumerate(moves) if not inside and not exits}
    level = 0
    while candidates or level <= latest_exit:
        decided = []
        for i in sorted(candidates | set(by_exit.get(level, ()))):
            if result[i] >= 0:
                continue
            inside, exits = moves[i]
            if not inside and not exits:
                decided.append((i, WIN if losing else LOSS))
                continue
            values = exits + [(result[c], dist[c]) for c in inside]
            if any(r == LOSS and d + 1 == level for r, d in values):
                decided.append((i, WIN))
            elif all(r == WIN for r, _ in values) and max(d for _, d in values) + 1 == level:
                decided.append((i, LOSS))
        for i, r in decided:
            result[i], dist[i] = r, level
        candidates = {p for i, _ in decided for p in parents[i]}
        if progress is not None:
            progress("levels", level, level + 1)
        level += 1
    return (*_pack(result, dist), level)


def _pack(result: list[int], dist: list[int]) -> tuple[bytearray, bytearray]:
    packed = bytearray((len(result) + 3) // 4)
    distances = bytearray(2 * len(result))
    for i, r in enumerate(result):
        r = max(r, DRAW)
        packed[i >> 2] |= r << ((i & 3) * 2)
        if r != DRAW:
            distances[2 * i] = dist[i] & 0xFF
            distances[2 * i + 1] = dist[i] >> 8
    return packed, distances
