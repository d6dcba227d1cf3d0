"""Which solver builds (or derives) a slice: the compiled kernel when it was built, else the pure reference.

``DAMAS_PURE=1`` forces the pure path, as for the engine (``generator/rules/core.py``).  Both give
identical tables (tests/endgame/test_kernel.py); the pure one is far slower and suits small slices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..rules.core import load_compiled
from .board import Board, half_turn
from .index import slice_index
from .material import Material
from .mirror import derive_pure
from .retro import solve_pure
from .store import Slice

Progress = Callable[[str, int, int], None]


def _load_retro() -> Any:
    from . import _retro  # type: ignore[attr-defined]  # a compiled extension: no stub

    return _retro


_RETRO, WHY_PURE = load_compiled(_load_retro, "_retro")
COMPILED_AVAILABLE = _RETRO is not None


def make_kernel(board: Board) -> Any:
    """The compiled kernel for ``board``, or None when it is not available."""
    return _RETRO.Kernel(board.kernel_spec()) if _RETRO is not None else None


def solve(
    board: Board,
    material: Material,
    exits: dict[Material, Slice],
    kernel: Any = None,
    progress: Progress | None = None,
) -> tuple[bytearray, bytearray, int]:
    """Solve one slice given the solved slices its captures and crownings lead to: with
    ``kernel`` (from :func:`make_kernel`) in C, else with the pure reference.

    Returns ``(results, dist16, levels)`` (see ``_retro.Kernel.solve``).
    """
    if kernel is None:

        def lookup(m: Material, turn: int, index: int) -> tuple[int, int]:
            return exits[m].entry(turn, index)

        return solve_pure(board, material, lookup, progress)
    attached = []
    try:
        for m, sl in exits.items():
            kernel.attach(m, sl.results, sl.dist, sl.width)
            attached.append(m)
        return kernel.solve(material, progress)
    finally:
        for m in attached:
            kernel.detach(m)


def derive_twin(
    board: Board, material: Material, source: Slice, kernel: Any = None, progress: Progress | None = None
) -> tuple[bytearray, bytearray]:
    """``(results, dist16)`` of ``material`` copied from ``source``, its solved colour-swapped twin,
    instead of solved (mirror.py says why that is the same slice): in C with ``kernel``, else with
    the pure reference.  The board must have a half turn (``board.half_turn``).
    """
    if kernel is None:
        return derive_pure(board, material, source)
    image = half_turn(board)
    if image is None:
        raise ValueError(f"{board.variant.name}: the board is not symmetric; solve the slice instead")
    if source.material != material.swapped():
        raise ValueError(f"{source.material.name} is not the colour-swapped twin of {material.name}")
    return kernel.derive(material, image, source.results, source.dist, source.width, progress)


def slice_size(board: Board, material: Material) -> int:
    return slice_index(board, material).size
