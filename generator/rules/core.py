"""Which engine core runs: the compiled one (``generator.rules._core``) when it was built, else the
pure-Python :class:`~generator.rules.movegen.MoveGenerator`, the reference.

This is the one place that chooses.  Everything else (``Variant.generator``, so ``Position``,
``perft``, the solvers) gets its generator from :func:`make_generator`.  Both cores give identical
results, moves in the same order (tests/rules/test_core.py compares them on random positions).

``DAMAS_PURE=1`` in the environment forces the pure path (read once, at import).

The compiled generator is the pure class with its hot methods (``moves``, ``count``, ``has_moves``,
``apply``, ``perft``) replaced by the compiled ones; the rest (``unfiltered``, ``captures``, the
tables) is the pure code.

For searches (both cores have these; the compiled ones skip ``Move`` objects):

* ``gen.children(white, black, kings, turn, zobrist=None, h=0)`` -> ``(captures, children)``, one
  ``(white, black, kings, turn, hash)`` per legal move in the order of ``moves()``;
* :func:`make_zobrist` ``(keys, black_to_move)`` -> ``hash(white, black, kings, turn)`` and
  ``after(h, state, move)``, equal to ``generator.puzzles.search._Zobrist`` given its keys.

The puzzle searches' own compiled kernels (``generator/puzzles/_search.pyx``: the depth-first
prover and df-pn) build on this one through ``_core.pxd``; :mod:`generator.puzzles.kernel` chooses
them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .movegen import MoveGenerator

if TYPE_CHECKING:
    from .variants import Variant


def load_compiled(load: Callable[[], Any], name: str) -> tuple[ModuleType | None, str]:
    """The compiled extension ``load()`` imports (``load`` holds the ``from . import`` line, so the
    import graph of tests/test_layers.py sees it), or None with the reason it is not used
    (``DAMAS_PURE`` set, not built, or failing to load).  Every compiled kernel (the engine's, the
    puzzle searches', the endgame builder's) is chosen here, once, when its module loads."""
    if os.environ.get("DAMAS_PURE", "").strip() not in ("", "0"):
        return None, "DAMAS_PURE is set"
    try:
        return load(), ""
    except ImportError as exc:
        return None, "the extension is not built" if name in str(exc) else f"the extension does not load: {exc}"


def _load_core() -> Any:
    from . import _core  # type: ignore[attr-defined]  # a compiled extension: no stub

    return _core


_CORE, WHY_PURE = load_compiled(_load_core, "_core")
COMPILED_AVAILABLE = _CORE is not None


class CompiledMoveGenerator(MoveGenerator):
    """:class:`MoveGenerator` with the hot paths compiled (same methods, same results).

    The compiled methods are bound on the instance, so ``gen.moves(...)`` calls straight into C.

    ``children`` and ``perft(white, black, kings, turn, depth, *, all_paths=False)`` run without
    building ``Move`` objects.  ``self.core`` is the ``_core.Core``.
    """

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        assert _CORE is not None
        self.core = _CORE.Core(self)
        # the compiled methods replace the pure ones on this instance (same signatures, same results)
        self.moves = self.core.moves  # type: ignore[method-assign]  # see above
        self.count = self.core.count  # type: ignore[method-assign]  # see above
        self.has_moves = self.core.has_moves  # type: ignore[method-assign]  # see above
        self.apply = self.core.apply  # type: ignore[method-assign]  # see above
        self.perft = self.core.perft  # type: ignore[method-assign]  # see above
        self.children = self.core.children  # type: ignore[method-assign]  # see above


def make_generator(variant: Variant, core: str | None = None) -> MoveGenerator:
    """The move generator for ``variant``: compiled when available (``core=None``), or the one
    asked for (``"compiled"`` or ``"pure"``; ``"compiled"`` raises RuntimeError when not built)."""
    if core is None:
        core = "compiled" if COMPILED_AVAILABLE else "pure"
    if core == "pure":
        return MoveGenerator(variant)
    if core != "compiled":
        raise ValueError(f"unknown core {core!r} (compiled or pure)")
    if _CORE is None:
        raise RuntimeError(f"the compiled core is not available: {WHY_PURE}")
    return CompiledMoveGenerator(variant)


def make_zobrist(keys: list[list[int]], black_to_move: int) -> Any:
    """A Zobrist table with ``hash(white, black, kings, turn)`` and ``after(h, state, move)``: the
    compiled one when available, else a pure one (same keys, same hashes)."""
    if _CORE is not None:
        return _CORE.Zobrist(keys, black_to_move)
    from .movegen import PureZobrist

    return PureZobrist(keys, black_to_move)


_ZOBRISTS: dict[tuple[tuple[int, ...], ...], Any] = {}


def compiled_zobrist(keys: list[list[int]], black_to_move: int) -> Any:
    """One compiled Zobrist table per key set (immutable; a solver is built per puzzle).  Only with
    the compiled core (the puzzle search kernel, generator.puzzles.kernel, asks for it)."""
    ident = (*(tuple(row) for row in keys), (black_to_move,))
    z = _ZOBRISTS.get(ident)
    if z is None:
        assert _CORE is not None, "only with the compiled core"
        z = _ZOBRISTS[ident] = _CORE.Zobrist(keys, black_to_move)
    return z


def active_core() -> str:
    """One line naming the core in use, for ``damas variants`` and ``damas --version``."""
    if _CORE is not None:
        return "compiled (generator.rules._core)"
    return f"pure Python ({WHY_PURE})"


__all__ = [
    "COMPILED_AVAILABLE",
    "CompiledMoveGenerator",
    "active_core",
    "compiled_zobrist",
    "make_generator",
    "make_zobrist",
]
