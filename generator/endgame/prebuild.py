"""Endgame slices built ahead, in a worker process of the build (generator/lessons/ahead.py).

A lesson's ending claims (``ending: win``) are checked against the endgame tables, which a cold cache
does not have yet: building them is a large part of a first check.  The build hands the slices its
claims need to a worker, one variant per job, before the check starts; the check then finds them
stored in the cache folder (generator/endgame/store.py), exactly as if it had built them itself.
Only this module and the endgame package are loaded in the worker.
"""

from __future__ import annotations

from ..rules.position import Position
from ..rules.variants import get_variant
from .board import board_of
from .claims import PIECES_FOR_CLAIMS_8X8, PIECES_FOR_CLAIMS_LARGER
from .material import Material, material_of
from .tables import MAX_PIECES, Tables

Wanted = tuple[int, int, int, int]
"""A material as plain numbers (men and kings of White, of Black): what crosses to the worker."""


def wanted_material(position: Position) -> Wanted | None:
    """The material whose slice an ending claim on ``position`` is read from (None: more pieces than
    a claim may have, :func:`generator.endgame.claims.claim_limit`; the check says so)."""
    m = material_of(position.white, position.black, position.kings)
    board = board_of(position.variant)
    most = min(MAX_PIECES, PIECES_FOR_CLAIMS_8X8 if board.size <= 32 else PIECES_FOR_CLAIMS_LARGER)
    return (m.wm, m.wk, m.bm, m.bk) if 0 < m.pieces <= most else None


def build_slices(variant: str, wanted: list[Wanted]) -> int:
    """Build (or find stored) the slices of ``wanted`` and those they need, in the default cache
    folder; returns how many slices that is."""
    tables = Tables(get_variant(variant), bundled=True)
    return len(tables.build_materials([Material(*m) for m in wanted]))


def is_built(variant: str, wanted: Wanted) -> bool:
    """Is the slice of ``wanted`` stored already (then so are those it needs: they are built first)?
    It is when the slices that ship with damas hold it and all it needs: they are copied now (a
    cold cache then starts the check without building slices)."""
    tables = Tables(get_variant(variant), bundled=True)
    m = Material(*wanted)
    return tables.is_stored(m) or tables.copy_bundled([m])
