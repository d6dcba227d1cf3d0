"""Shared helpers of the endgame tests: random table positions, tables built once per run."""

from __future__ import annotations

import random
from functools import cache

from generator.endgame.board import Board, board_of
from generator.endgame.material import Material, material_of
from generator.endgame.tables import Tables
from generator.rules import Position, Variant, get_variant


@cache
def tables(variant: str) -> Tables:
    """The run's tables of ``variant`` (in the run's own cache folder, see tests/conftest.py)."""
    return Tables(variant)


def random_position(board: Board, rng: random.Random, pieces: int) -> tuple[Material, tuple[int, int, int], int]:
    """A random legal placement of ``pieces`` pieces (each a man or king of either colour, men off
    their crowning row; at least one piece each side when there are two or more) and a random side."""
    while True:
        free = list(range(board.size))
        rng.shuffle(free)
        w = b = k = 0
        for sq in free[:pieces]:
            color, king = rng.randrange(2), rng.random() < 0.5
            bit = 1 << sq
            if not king and bit & board.promotion[color]:
                king = True
            if color:
                b |= bit
            else:
                w |= bit
            if king:
                k |= bit
        if pieces < 2 or (w and b):
            return material_of(w, b, k), (w, b, k), rng.randrange(2)


def position(variant: Variant | str, board: Board, dense: tuple[int, int, int], turn: int) -> Position:
    w, b, k = dense
    return Position(get_variant(variant), board.to_padded(w), board.to_padded(b), board.to_padded(k), turn)


def every_board() -> list[Board]:
    from generator.rules import VARIANTS

    return [board_of(v) for v in VARIANTS.values()]
