"""Which solver builds a slice: the compiled kernel when it was built, else the pure reference.

``DAMAS_PURE=1`` forces the pure path, as for the engine (``generator/rules/core.py``).  Both give
identical tables (tests/endgame/test_kernel.py); the pure one is far slower and suits small slices.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .board import Board
from .index import slice_index
from .material import Material
from .retro import solve_pure
from .store import Slice

Progress = Callable[[str, int, int], None]


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("DAMAS_PURE", "").strip() not in ("", "0"):
        return None, "DAMAS_PURE is set"
    try:
        from . import _retro  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, "the extension is not built" if "_retro" in str(exc) else f"the extension does not load: {exc}"
    return _retro, ""


_RETRO, WHY_PURE = _load()
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
        return kernel.solve(material, progress)  # type: ignore[no-any-return]
    finally:
        for m in attached:
            kernel.detach(m)


def slice_size(board: Board, material: Material) -> int:
    return slice_index(board, material).size
