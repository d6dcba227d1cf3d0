"""The stored tables as a search's leaves: a position's exact value, read and never built.

A search (``damas solve``, ``damas play``, the miner, a lesson check) asks this module for the
value of each position it reaches with few enough pieces.  It answers from the slices already
stored in the cache folder and from nothing else: building a slice takes from a second (three
pieces) to half an hour (a 5-piece 8x8 set), far too long to start silently inside a search, so a
missing slice is simply no answer (``damas endgame build`` fills the cache; docs/endgames.md).

Positions come in the engine's bit sets (the searches' form); :class:`StoredTables` turns them into
the tables' dense squares and index.  Slices are loaded the first time a search reaches them and kept
within a memory budget (:data:`LEAF_MEMORY`); the set of stored slices is read again by
:func:`stored_tables` each time a search starts, so a slice built meanwhile is used from then on.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
from array import array
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..cache import default_dir
from ..rules.variants import Variant
from .board import Board, board_of
from .index import slice_index
from .material import Material, material_of, parse_material
from .solver import make_kernel
from .store import Slice, load, rules_folder

LEAF_MEMORY = 256 << 20
"""Bytes of slices a search keeps loaded (the least recently used go first beyond it)."""

CODES = 9**4
"""Material codes ``((wm * 9 + wk) * 9 + bm) * 9 + bk`` (at most 8 pieces of a kind, as the tables)."""


def material_code(m: Material) -> int:
    """The material's code (the compiled search keeps one flag per code)."""
    return ((m.wm * 9 + m.wk) * 9 + m.bm) * 9 + m.bk


class StoredTables:
    """The slices of one variant (and rule set) stored under ``root`` (default: the user cache)."""

    def __init__(self, variant: Variant, root: Path | None = None, memory: int = LEAF_MEMORY) -> None:
        self.variant = variant
        self.board: Board = board_of(variant)
        self.folder = rules_folder(variant, root)
        self.memory = memory
        self.kernel: Any = make_kernel(self.board)
        """The compiled tables kernel (its index is C), or None: the reference index."""
        self.stored: frozenset[Material] = frozenset()
        self.broken: set[Material] = set()
        """Slices whose files failed their checks: no answer from them (a build repairs them)."""
        self.loaded: OrderedDict[Material, Slice] = OrderedDict()
        self._offsets: dict[Material, tuple[bytes, int, int]] = {}
        self._stamp: int | None = -2
        """The folder's modification time when the stored slices were last listed."""
        self._spec: dict[str, Any] | None = None
        self.refresh()

    def refresh(self) -> None:
        """Read again which slices are stored (a slice counts once its JSON, written last, exists);
        none inside :func:`tables_ignored`."""
        try:  # a slice's JSON lands by a rename into the folder, which changes the folder's time
            stamp = None if _IGNORED.get() else self.folder.stat().st_mtime_ns
        except OSError:
            stamp = -1
        if stamp is not None and stamp == self._stamp:
            return
        self._stamp, self._spec = stamp, None
        found = set()
        try:
            names = [p.stem for p in self.folder.glob("*.json")] if stamp not in (None, -1) else []
        except OSError:
            names = []
        for name in names:
            try:
                found.add(parse_material(name))
            except ValueError:
                continue
        self.stored = frozenset(found - self.broken)

    @property
    def pieces(self) -> int:
        """The most pieces of any stored slice (0: none)."""
        return max((m.pieces for m in self.stored), default=0)

    def codes(self) -> bytes:
        """One byte per material code: 1 where that slice is stored (the compiled search's filter)."""
        out = bytearray(CODES)
        for m in self.stored:
            out[material_code(m)] = 1
        return bytes(out)

    def fingerprint(self) -> str:
        """What a search's "undecided" depends on: the stored slices, hashed ("none" without any)."""
        if not self.stored:
            return "none"
        names = "\n".join(sorted(m.name for m in self.stored))
        return hashlib.sha256(names.encode()).hexdigest()[:16]

    def _slice(self, m: Material) -> Slice | None:
        sl = self.loaded.get(m)
        if sl is not None:
            self.loaded.move_to_end(m)
            return sl
        if m not in self.stored:
            return None
        size = self.kernel.size(m) if self.kernel is not None else slice_index(self.board, m).size
        sl = load(self.folder, m, size)
        if sl is None:
            self.broken.add(m)
            self.stored = self.stored - {m}
            self._spec = None
            return None
        self.loaded[m] = sl
        total = sum(s.nbytes for s in self.loaded.values())
        for other in list(self.loaded):
            if total <= self.memory:
                break
            if other != m:
                total -= self.loaded.pop(other).nbytes
        return sl

    def kernel_spec(self) -> dict[str, Any]:
        """What the compiled search needs to probe by itself (``_search.Prover.set_leaves``): the
        stored materials, the engine-to-table square map, the masks of the tables' board."""
        if self._spec is not None:
            return self._spec
        dense = bytearray([255]) * 128
        for sq, c in self.board.dense.items():
            dense[sq] = c
        self._spec = {
            "pieces": self.pieces,
            "codes": self.codes(),
            "dense": bytes(dense),
            "full": self.board.full,
            "white_men": self.board.men_squares(0),
            "black_men": self.board.men_squares(1),
            "loader": self.buffers,
        }
        return self._spec

    def buffers(self, material: tuple[int, int, int, int]) -> tuple[bytes, bytes, int, int, bytes, int, int] | None:
        """A stored slice as the compiled search reads it: (results, distances, distance width,
        positions per side to move, the index's men offsets as 64-bit words, white kings' ways,
        black kings' ways); None when it is not stored or fails its checks."""
        m = Material(*material)
        sl = self._slice(m) if m in self.stored else None
        if sl is None:
            return None
        got = self._offsets.get(m)
        if got is None:
            if self.kernel is not None:  # the C index's own offsets (the reference's in Python is slow)
                offsets, wk_ways, bk_ways, _ = self.kernel.offsets(m)
            else:
                ix = slice_index(self.board, m)
                offsets, wk_ways, bk_ways = array("Q", ix.offsets).tobytes(), ix.white_kings_ways, ix.black_kings_ways
            got = self._offsets[m] = (offsets, wk_ways, bk_ways)
        return sl.results, sl.dist, sl.width, sl.size, *got

    def lookup(self, white: int, black: int, kings: int, turn: int) -> tuple[int, int] | None:
        """(result, distance) for the side to move (result 0 draw, 1 win, 2 loss; the distance in
        plies to the end of the game, docs/endgames.md), or None when no stored slice holds it."""
        b = self.board
        w, bl, k = b.to_dense(white), b.to_dense(black), b.to_dense(kings)
        m = material_of(w, bl, k)
        if m not in self.stored or (w & ~k) & b.promotion[0] or (bl & ~k) & b.promotion[1]:
            return None
        sl = self._slice(m)
        if sl is None:
            return None
        index = self.kernel.index(m, w, bl, k) if self.kernel is not None else slice_index(b, m).index(w, bl, k)
        return sl.entry(turn, index)


_SHARED: dict[tuple[str, Variant], StoredTables] = {}
_IGNORED: contextvars.ContextVar[bool] = contextvars.ContextVar("damas_endgame_ignored", default=False)


@contextlib.contextmanager
def tables_ignored() -> Iterator[None]:
    """Inside the block, :func:`stored_tables` finds no slice: searches run as without tables (a
    benchmark's "before", in the same run as its "after")."""
    token = _IGNORED.set(True)
    try:
        yield
    finally:
        _IGNORED.reset(token)


def stored_tables(variant: Variant) -> StoredTables:
    """The process's :class:`StoredTables` of ``variant`` in the user cache, its list of stored
    slices read again now (one object per variant and cache folder, so loaded slices are shared)."""
    key = (str(default_dir()), variant)
    tables = _SHARED.get(key)
    if tables is None:
        tables = _SHARED[key] = StoredTables(variant)
    else:
        tables.refresh()
    return tables
