"""Material signatures: which pieces a slice of the tables holds, its name, and the order of solving.

A *slice* is every position with the same material: white men, white kings, black men, black kings
(:class:`Material`), with either side to move.  A move either keeps the material (a quiet move that
does not crown) or changes it for good: a capture removes pieces, a crowning turns a man into a
king.  Solving slices by fewer pieces first, then by fewer men first, means every position a capture
or a crowning leads to is already solved when a slice is built; only the slice's own quiet moves
need the retrograde analysis.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple


class Material(NamedTuple):
    """Counts of white men, white kings, black men, black kings."""

    wm: int
    wk: int
    bm: int
    bk: int

    @property
    def pieces(self) -> int:
        return self.wm + self.wk + self.bm + self.bk

    @property
    def men(self) -> int:
        return self.wm + self.bm

    @property
    def name(self) -> str:
        """``2k1m-1k``: White's kings and men, a dash, Black's (``0`` for no piece)."""
        return f"{_side(self.wk, self.wm)}-{_side(self.bk, self.bm)}"

    def swapped(self) -> Material:
        """The same material with the colours exchanged."""
        return Material(self.bm, self.bk, self.wm, self.wk)

    def solve_key(self) -> tuple[int, int, int, int, int]:
        """Sort key: fewer pieces first, then fewer men (captures and crownings lead to earlier slices)."""
        return (self.pieces, self.men, self.wm, self.wk, self.bm)

    def successors(self) -> set[Material]:
        """Every material one move can lead to, other than this one (a superset: captures of any
        mix of the opponent's pieces, with or without the mover crowning)."""
        out: set[Material] = set()
        for mover in (0, 1):
            m_men, m_kings, o_men, o_kings = (
                (self.wm, self.wk, self.bm, self.bk) if mover == 0 else (self.bm, self.bk, self.wm, self.wk)
            )
            movers = [(m_men, m_kings)] + ([(m_men - 1, m_kings + 1)] if m_men else [])
            for men, kings in movers:
                for lost_men in range(o_men + 1):
                    for lost_kings in range(o_kings + 1):
                        if (men, kings) == (m_men, m_kings) and lost_men + lost_kings == 0:
                            continue
                        a = (men, kings, o_men - lost_men, o_kings - lost_kings)
                        out.add(Material(*a) if mover == 0 else Material(a[2], a[3], a[0], a[1]))
        out.discard(self)
        return {m for m in out if m.pieces}


def _side(kings: int, men: int) -> str:
    text = (f"{kings}k" if kings else "") + (f"{men}m" if men else "")
    return text or "0"


_SIDE = re.compile(r"^(?:(\d)k)?(?:(\d)m)?$")


def parse_material(text: str) -> Material:
    """The material named ``2k1m-1k`` (as :attr:`Material.name` writes it).

    Raises:
        ValueError: for any other text.
    """
    parts = text.strip().lower().split("-")
    if len(parts) != 2:
        raise ValueError(f"'{text}' is not a material like 2k1m-1k")
    counts = []
    for part in parts:
        m = _SIDE.match(part) if part != "0" else _SIDE.match("")
        if m is None or (part != "0" and not part):
            raise ValueError(f"'{text}' is not a material like 2k1m-1k")
        counts.append((int(m.group(2) or 0), int(m.group(1) or 0)))
    out = Material(counts[0][0], counts[0][1], counts[1][0], counts[1][1])
    if not out.pieces:
        raise ValueError(f"'{text}' holds no piece")
    return out


def materials(pieces: int) -> Iterator[Material]:
    """Every material of exactly ``pieces`` pieces (one side may have none), in solving order."""
    found = []
    for wm in range(pieces + 1):
        for wk in range(pieces + 1 - wm):
            for bm in range(pieces + 1 - wm - wk):
                found.append(Material(wm, wk, bm, pieces - wm - wk - bm))
    yield from sorted(found, key=Material.solve_key)


def materials_up_to(pieces: int) -> list[Material]:
    """Every material of 1 to ``pieces`` pieces, in solving order."""
    return [m for n in range(1, pieces + 1) for m in materials(n)]


def material_of(white: int, black: int, kings: int) -> Material:
    """The material of a position given as (dense or engine) bit sets."""
    return Material(
        (white & ~kings).bit_count(),
        (white & kings).bit_count(),
        (black & ~kings).bit_count(),
        (black & kings).bit_count(),
    )
