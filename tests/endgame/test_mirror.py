"""A slice derived from its colour-swapped twin is the slice the solver makes, byte for byte (issue 25).

Every comparison is with a slice solved directly (``solver.solve``, the kernel's retrograde
analysis, itself compared with the pure reference in test_kernel.py), never with a stored
expectation: the derivation has nothing to be tuned against.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from generator.endgame import solver
from generator.endgame.board import Board, board_of, half_turn
from generator.endgame.index import slice_index
from generator.endgame.material import Material, materials_up_to, parse_material
from generator.endgame.mirror import derive_pure, placements
from generator.endgame.store import Slice, load, narrow, read_meta
from generator.endgame.tables import Tables, closure
from generator.rules import VARIANTS, Variant, get_variant
from generator.rules.geometry import Geometry, Layout, Numbering

pytestmark = pytest.mark.skipif(not solver.COMPILED_AVAILABLE, reason="the compiled endgame kernel is not built")

SMALL = [name for name, v in VARIANTS.items() if board_of(v).size <= 32]
LARGE = [name for name in VARIANTS if name not in SMALL]
"""8x8 boards: every slice of up to 3 pieces.  10x10 and Turkish (64 squares): every slice of up to
2 pieces and a few 3-piece ones (all of their 3-piece slices take ~10 s to solve on the shared machine)."""

LARGE_THREE = ("2k-1k", "1k-2k", "1k1m-1k", "1k-1k1m")
"""On 10x10; on the 64 squares of Turkish (4 times as many 3-piece positions) the first pair only."""


def odd_board(width: int, height: int) -> Variant:
    """American rules on another board: no variant's, so nothing about it was ever tuned."""
    geometry = Geometry(width, height, Layout.STANDARD, Numbering.ALGEBRAIC)
    return replace(get_variant("american"), name=f"american-{width}x{height}", geometry=geometry)


def wanted(variant: Variant) -> list[Material]:
    size = board_of(variant).size
    if size <= 32:
        return materials_up_to(3)
    return materials_up_to(2) + [parse_material(n) for n in LARGE_THREE[: 4 if size <= 50 else 2]]


@cache
def solved(variant: Variant) -> dict[Material, Slice]:
    """Every slice of :func:`wanted` (and what they need) solved directly by the compiled kernel."""
    board = board_of(variant)
    kernel = solver.make_kernel(board)
    out: dict[Material, Slice] = {}
    for m in closure(wanted(variant)):
        results, dist, _ = solver.solve(board, m, {x: out[x] for x in m.successors()}, kernel)
        out[m] = Slice(m, slice_index(board, m).size, bytes(results), bytes(dist), 2, {})
    return out


def pairs(variant: Variant) -> list[Material]:
    """The solved slices whose twin is another material (and solved too)."""
    done = solved(variant)
    return [m for m in done if m.swapped() != m and m.swapped() in done]


def _compiled(board: Board, m: Material, source: Slice) -> tuple[bytes, bytes]:
    results, dist = solver.derive_twin(board, m, source, solver.make_kernel(board))
    return bytes(results), bytes(dist)


def _stored(sl: Slice) -> Slice:
    """The slice as the store keeps it: distances one byte wide when they fit."""
    dist, width = narrow(sl.dist)
    return Slice(sl.material, sl.size, sl.results, dist, width, {})


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_board_of_the_project_turns_half_a_turn(name: str) -> None:
    board = board_of(name)
    image = half_turn(board)
    assert image is not None
    assert sorted(image) == list(range(board.size))
    assert all(image[image[c]] == c for c in range(board.size))


@pytest.mark.parametrize(("width", "height", "symmetric"), [(7, 8, False), (8, 7, False), (6, 6, True), (7, 7, True)])
def test_the_half_turn_is_read_from_the_board(width: int, height: int, symmetric: bool) -> None:
    """An odd number of files on an even number of ranks turns dark squares into light ones."""
    assert (half_turn(board_of(odd_board(width, height))) is not None) is symmetric


def test_a_board_whose_crowning_rows_do_not_turn_into_each_other_is_refused() -> None:
    board = board_of("american")
    white_row, black_row = board.promotion
    lopsided = replace(board, promotion=(white_row, black_row | (1 << 5)))  # one more square crowns Black
    assert half_turn(lopsided) is None
    forward_only = replace(board, man_steps=(board.man_steps[0], board.man_steps[0]))  # both move north
    assert half_turn(forward_only) is None


@pytest.mark.parametrize("name", SMALL + LARGE)
def test_compiled_derivation_equals_solving(name: str) -> None:
    variant = get_variant(name)
    board = board_of(variant)
    done = solved(variant)
    checked = pairs(variant)
    assert len(checked) >= (24 if board.size <= 32 else 12)
    for m in checked:
        source = done[m.swapped()]
        assert _compiled(board, m, source) == (done[m].results, done[m].dist), m.name
        assert _compiled(board, m, _stored(source)) == (done[m].results, done[m].dist), m.name


@pytest.mark.parametrize("name", SMALL + LARGE)
def test_pure_derivation_equals_solving_and_the_compiled_one(name: str) -> None:
    """The pure derivation is ~8 µs a position: every slice of up to 2 pieces, and a 3-piece slice
    with men of both colours' twin on the 8x8 boards."""
    variant = get_variant(name)
    board = board_of(variant)
    done = solved(variant)
    chosen = [m for m in pairs(variant) if m.pieces <= 2]
    if board.size <= 32:
        chosen.append(parse_material("2m-1m"))
    assert len(chosen) >= 8
    for m in chosen:
        source = done[m.swapped()]
        results, dist = derive_pure(board, m, _stored(source))
        assert (bytes(results), bytes(dist)) == (done[m].results, done[m].dist), m.name
        assert (bytes(results), bytes(dist)) == _compiled(board, m, source), m.name


@pytest.mark.parametrize(("width", "height"), [(6, 6), (7, 7)])
def test_derivation_equals_solving_on_boards_no_variant_uses(width: int, height: int) -> None:
    variant = odd_board(width, height)
    board = board_of(variant)
    done = solved(variant)
    for m in pairs(variant):
        source = done[m.swapped()]
        assert _compiled(board, m, source) == (done[m].results, done[m].dist), m.name
        if m.pieces <= 2:
            pure = derive_pure(board, m, source)
            assert (bytes(pure[0]), bytes(pure[1])) == (done[m].results, done[m].dist), m.name


def test_placements_are_the_index_exactly() -> None:
    board = board_of("italian")
    for m in (parse_material("2m-1k"), parse_material("1k1m-1m"), parse_material("0-2k")):
        ix = slice_index(board, m)
        assert sorted(ix.index(*p) for p in placements(board, m)) == list(range(ix.size))


def test_the_wrong_twin_is_refused() -> None:
    board = board_of("american")
    done = solved(get_variant("american"))
    with pytest.raises(ValueError, match="twin"):
        derive_pure(board, parse_material("2k-1k"), done[parse_material("2k-1m")])
    with pytest.raises(ValueError, match="twin"):
        solver.derive_twin(board, parse_material("2k-1k"), done[parse_material("2k-1k")], solver.make_kernel(board))


def _stored_bytes(t: Tables) -> dict[Material, tuple[bytes, bytes, dict[str, object]]]:
    out = {}
    for m in materials_up_to(3):
        sl = load(t.folder, m, t.size(m))
        assert sl is not None, m.name
        meta = {k: v for k, v in sl.meta.items() if k not in ("seconds", "derived_from")}
        out[m] = (sl.results, sl.dist, meta)
    return out


@pytest.mark.parametrize("name", ["american", "brazilian"])
def test_a_build_with_derivation_stores_what_one_without_stores(name: str, tmp_path: Path) -> None:
    plain = Tables(name, tmp_path / "solved", derive=False)
    plain.build(3)
    mirrored = Tables(name, tmp_path / "derived")
    reports = mirrored.build(3)
    assert _stored_bytes(mirrored) == _stored_bytes(plain)
    derived = {r.material: r.derived_from for r in reports if r.derived_from}
    # Of each pair of twins the first in solving order is solved, the second derived from it.
    pairs_ = {m for m in materials_up_to(3) if m.swapped() != m}
    assert set(derived) == {m for m in pairs_ if m.solve_key() > m.swapped().solve_key()}
    for m, twin in derived.items():
        assert twin == m.swapped().name
        meta = read_meta(mirrored.folder, m)
        assert meta is not None and meta["derived_from"] == twin and meta["seconds"] >= 0
    assert not any(read_meta(plain.folder, m).get("derived_from") for m in materials_up_to(3))  # type: ignore[union-attr]


def test_a_slice_is_derived_only_when_its_twin_is_stored(tmp_path: Path) -> None:
    t = Tables("russian", tmp_path)
    [report] = [r for r in t.build_materials([parse_material("2k-1k")]) if r.material.name == "2k-1k"]
    assert report.derived_from == "" and not t.is_stored(parse_material("1k-2k"))
    [report] = [r for r in t.build_materials([parse_material("1k-2k")]) if r.material.name == "1k-2k"]
    assert report.derived_from == "2k-1k"


def test_a_board_without_a_half_turn_solves_every_slice(tmp_path: Path) -> None:
    reports = Tables(odd_board(7, 8), tmp_path).build(2)
    assert reports and all(r.built and not r.derived_from for r in reports)
