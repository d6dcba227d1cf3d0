"""The endgame tables of one variant: slices loaded when asked for, built (and stored) when missing.

``Tables(variant)`` is the one entry point: :meth:`Tables.entry` gives the stored (result,
distance) of a position, :meth:`Tables.build` solves every slice up to a number of pieces.  A slice
is built only after every slice its captures and crownings lead to; those are loaded for the build
and dropped again when the memory budget is reached, so a build holds a few slices at a time.  A
slice whose colour-swapped twin is stored is copied from it instead of solved (mirror.py), and with
``bundled``, a slice that ships with damas (store.bundled_root) is copied from there.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cache import default_dir
from ..errors import DamasError
from ..rules.position import Position
from ..rules.variants import Variant, get_variant
from .board import Board, board_of, half_turn
from .index import slice_index
from .material import Material, material_of, materials_up_to
from .retro import DRAW, LOSS, WIN
from .solver import derive_twin, make_kernel, solve
from .store import Slice, bundled_root, copy_slice, load, narrow, read_meta, rules_folder, save

Progress = Callable[[str, int, int], None]

MEMORY_BUDGET = 1 << 30
"""Bytes of solved slices kept in memory at once (a build needs its own slice's exits besides)."""

MAX_PIECES = 8
"""The kernel's limit; the useful limits are far lower (docs/endgames.md)."""


class EndgameError(DamasError):
    """A position the tables cannot answer (too many pieces, not a legal table position)."""


@dataclass(frozen=True)
class SliceReport:
    """What building one slice cost."""

    material: Material
    positions: int
    seconds: float
    bytes_on_disk: int
    levels: int
    built: bool
    """False when the slice was already stored."""
    derived_from: str = ""
    """The twin's name when the slice was derived from it instead of solved (mirror.py)."""
    bundled: bool = False
    """Copied from the slices that ship with damas instead of solved."""


def closure(materials: Iterable[Material]) -> list[Material]:
    """``materials`` and every material one or more moves can lead to, in solving order."""
    seen: set[Material] = set()
    todo = list(materials)
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(m.successors() - seen)
    return sorted(seen, key=Material.solve_key)


def up_to(pieces: int) -> list[Material]:
    """Every material of 1 to ``pieces`` pieces.

    Raises:
        EndgameError: past the kernel's limit.
    """
    if not 1 <= pieces <= MAX_PIECES:
        raise EndgameError(f"pieces must be 1 to {MAX_PIECES}, not {pieces}")
    return materials_up_to(pieces)


def _counts(sl: Slice) -> dict[str, dict[str, int]]:
    """Wins, draws and losses for each side to move."""
    out = {}
    for turn, side in ((0, "white"), (1, "black")):
        c: Counter[int] = Counter()
        lo, hi = turn * sl.size, (turn + 1) * sl.size
        first_full, last_full = (lo + 3) // 4, hi // 4
        for i in list(range(lo, min(hi, first_full * 4))) + list(range(max(last_full * 4, lo), hi)):
            if not (first_full <= i // 4 < last_full):
                c[(sl.results[i >> 2] >> ((i & 3) * 2)) & 3] += 1
        for byte, n in Counter(sl.results[first_full:last_full]).items():
            for j in range(4):
                c[(byte >> (2 * j)) & 3] += n
        out[side] = {"win": c[WIN], "draw": c[DRAW], "loss": c[LOSS]}
    return out


class Tables:
    """One variant's tables in the cache folder ``root`` (default: the user cache)."""

    def __init__(
        self,
        variant: Variant | str,
        root: Path | None = None,
        *,
        progress: Progress | None = None,
        memory: int = MEMORY_BUDGET,
        pure: bool = False,
        derive: bool = True,
        bundled: bool = False,
    ) -> None:
        self.variant = get_variant(variant)
        self.board: Board = board_of(self.variant)
        self.root = root
        self.folder = rules_folder(self.variant, root)
        self.progress = progress
        self.memory = memory
        self.kernel = None if pure else make_kernel(self.board)
        self.derive = derive
        """Derive a slice from its stored colour-swapped twin instead of solving it (the same bytes;
        False solves every slice, for benches and tests)."""
        shipped = bundled_root() if bundled else None
        self.bundled = rules_folder(self.variant, shipped) if shipped is not None else None
        """Where the slices that ship with damas are for these rules (None: solve them too)."""
        self.loaded: OrderedDict[Material, Slice] = OrderedDict()
        self.reports: list[SliceReport] = []

    # -- slices -------------------------------------------------------------------------------------

    def size(self, material: Material) -> int:
        return slice_index(self.board, material).size

    def is_stored(self, material: Material) -> bool:
        meta = read_meta(self.folder, material)
        return meta is not None and meta.get("size") == self.size(material)

    def slice(self, material: Material) -> Slice:
        """The solved slice, from memory, from disk, or built now (with what it needs)."""
        sl = self.loaded.get(material)
        if sl is not None:
            self.loaded.move_to_end(material)
            return sl
        sl = load(self.folder, material, self.size(material))
        if sl is None:
            # Missing, or damaged (a file that fails its size or CRC): the meta file goes first, so
            # the slice counts as unfinished and is built again.
            with contextlib.suppress(OSError):
                (self.folder / f"{material.name}.json").unlink()
            self.build_materials([material])
            sl = self.loaded.get(material) or load(self.folder, material, self.size(material))
            if sl is None:
                raise EndgameError(f"{self.variant.name}: slice {material.name} could not be stored in {self.folder}")
        self._keep(sl)
        return sl

    def _keep(self, sl: Slice, pinned: Iterable[Material] = ()) -> None:
        self.loaded[sl.material] = sl
        self.loaded.move_to_end(sl.material)
        keep = set(pinned) | {sl.material}
        total = sum(s.nbytes for s in self.loaded.values())
        for m in list(self.loaded):
            if total <= self.memory:
                break
            if m not in keep:
                total -= self.loaded.pop(m).nbytes

    # -- building -----------------------------------------------------------------------------------

    def build(self, pieces: int) -> list[SliceReport]:
        """Every slice of 1 to ``pieces`` pieces (the stored ones are kept).  On several processes:
        :func:`generator.endgame.parallel.build`."""
        return self.build_materials(up_to(pieces))

    def build_materials(self, wanted: Iterable[Material]) -> list[SliceReport]:
        """The slices ``wanted`` and those they need, in solving order; returns one report each."""
        todo = closure(wanted)
        reports = []
        for done, m in enumerate(todo):
            if self.progress is not None:
                self.progress(f"{self.variant.name} {m.pieces} pieces", done, len(todo))
            reports.append(self.report_stored(m) if self.is_stored(m) else self.build_one(m))
        if self.progress is not None and todo:
            self.progress(f"{self.variant.name} done", len(todo), len(todo))
        self.reports.extend(reports)
        return reports

    def copy_bundled(self, wanted: Iterable[Material]) -> bool:
        """Store the slices ``wanted`` and those they need that ship with damas (copied, not solved);
        True when every one of them is stored then."""
        stored = True
        for m in closure(wanted):
            if not self.is_stored(m) and (
                self.bundled is None or copy_slice(self.bundled, self.folder, m, self.size(m)) is None
            ):
                stored = False
        return stored

    def report_stored(self, m: Material) -> SliceReport:
        """The report of a slice built earlier, from its meta file."""
        meta = read_meta(self.folder, m) or {}
        return SliceReport(
            m,
            2 * self.size(m),
            meta.get("seconds", 0.0),
            meta.get("bytes_on_disk", 0),
            meta.get("levels", 0),
            False,
            meta.get("derived_from", ""),
        )

    def _twin(self, m: Material) -> Material | None:
        """The stored colour-swapped twin ``m`` can be derived from, or None (solve it): a slice
        that is its own twin (``1k-1k``), a board without a half turn, deriving switched off, or a
        twin not stored yet (a probe that needs one slice does not build its twin for it)."""
        twin = m.swapped()
        if not self.derive or twin == m or half_turn(self.board) is None:
            return None
        return twin if twin in self.loaded or self.is_stored(twin) else None

    def _slice_progress(self, m: Material) -> Progress | None:
        if self.progress is None:
            return None
        outer = self.progress

        def progress(stage: str, done: int, total: int) -> None:
            outer(f"{m.name} {stage}", done, total)

        return progress

    def build_one(self, m: Material) -> SliceReport:
        """Solve slice ``m`` (its exits loaded, or built first when missing), or derive it from its
        stored twin, or copy the one that ships with damas; store it."""
        copied = copy_slice(self.bundled, self.folder, m, self.size(m)) if self.bundled is not None else None
        if copied is not None:
            self._keep(copied)
            on_disk, levels = copied.meta["bytes_on_disk"], copied.meta.get("levels", 0)
            return SliceReport(m, 2 * copied.size, 0.0, on_disk, levels, True, bundled=True)
        twin = self._twin(m)
        if twin is not None:
            source = self.slice(twin)
            pinned = [twin]
            start = time.perf_counter()
            results, dist16 = derive_twin(self.board, m, source, self.kernel, self._slice_progress(m))
            meta = {"derived_from": twin.name, "levels": source.meta.get("levels", 0)}
        else:
            pinned = sorted(m.successors(), key=Material.solve_key)
            exits = {x: self.slice(x) for x in pinned}
            for sl in exits.values():
                self._keep(sl, pinned=pinned)
            start = time.perf_counter()
            results, dist16, levels = solve(self.board, m, exits, self.kernel, self._slice_progress(m))
            meta = {"levels": levels}
        seconds = time.perf_counter() - start
        meta.update(variant=self.variant.name, seconds=round(seconds, 3))
        sl = self._store(m, results, dist16, meta, pinned)
        return SliceReport(
            m, 2 * sl.size, seconds, sl.meta["bytes_on_disk"], sl.meta["levels"], True, twin.name if twin else ""
        )

    def _store(
        self, m: Material, results: bytearray, dist16: bytearray, meta: dict[str, Any], pinned: list[Material]
    ) -> Slice:
        """Save a solved (or derived) slice with its counts and longest distance, and keep it."""
        dist, width = narrow(dist16)
        sl = Slice(m, self.size(m), bytes(results), dist, width, {})
        sl.meta = dict(meta)
        sl.meta["counts"] = _counts(sl)
        sl.meta["longest"] = (
            max(dist)
            if dist and width == 1
            else max((dist[i] | dist[i + 1] << 8 for i in range(0, len(dist), 2)), default=0)
        )
        save(self.folder, sl)
        self._keep(sl, pinned=pinned)
        return sl

    # -- positions ----------------------------------------------------------------------------------

    def entry(self, position: Position) -> tuple[int, int]:
        """(result, distance) for the side to move: result 0 draw, 1 win, 2 loss; distance in plies."""
        if position.variant.name != self.variant.name or position.variant != self.variant:
            raise EndgameError(f"a {position.variant.name} position asked of the {self.variant.name} tables")
        b = self.board
        w, bl, k = b.to_dense(position.white), b.to_dense(position.black), b.to_dense(position.kings)
        m = material_of(w, bl, k)
        if not m.pieces:
            raise EndgameError("the board is empty")
        if m.pieces > MAX_PIECES:
            raise EndgameError(f"{m.pieces} pieces: the tables hold at most {MAX_PIECES}")
        for color, men in ((0, w & ~k), (1, bl & ~k)):
            if men & b.promotion[color]:
                raise EndgameError("a man stands on its own crowning row: not a position of the tables")
        return self.slice(m).entry(position.turn, slice_index(b, m).index(w, bl, k))


_PROGRESS: contextvars.ContextVar[Progress | None] = contextvars.ContextVar("damas_endgame_progress", default=None)
_SHARED: dict[tuple[str, str, Variant], Tables] = {}


@contextlib.contextmanager
def building_progress(progress: Progress | None) -> Iterator[None]:
    """Inside the block, tables that :func:`shared_tables` hands out report builds to ``progress``
    (``damas check`` passes its progress bar: a claim may need slices built first)."""
    token = _PROGRESS.set(progress)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def shared_tables(variant: Variant) -> Tables:
    """One :class:`Tables` per variant and cache folder for the whole process (lesson checks)."""
    key = (variant.name, str(default_dir()), variant)
    tables = _SHARED.get(key)
    if tables is None:
        tables = _SHARED[key] = Tables(variant, bundled=True)
    tables.progress = _PROGRESS.get()
    return tables
