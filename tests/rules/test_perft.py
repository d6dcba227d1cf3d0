"""Perft against the published tables (docs/spec.md §13), read from ``tests/data/perft/<variant>.perft``.

Every count is the number of *unique* moves (capture routes with the same origin, destination and
captured set merged, docs/spec.md §1.8 and §1.10), the convention of the engine's ``perft``.

* Entries with a count up to ``QUICK_LIMIT`` run in the default suite.
* Larger ones are marked ``slow`` (``pytest -m slow`` runs them, ``-m "not slow"`` skips them).
* Entries above ``DAMAS_PERFT_LIMIT`` (environment variable, default 25 million leaves, about a
  minute each here) are kept in the data files for completeness but not collected: the deepest
  published depths (up to 2.6 billion leaves) would take hours in Python.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.rules import Position, get_variant, perft
from generator.rules.perft import divide

DATA = Path(__file__).resolve().parent.parent / "data" / "perft"
QUICK_LIMIT = 200_000
SLOW_LIMIT = int(os.environ.get("DAMAS_PERFT_LIMIT", "25000000"))


@dataclass(frozen=True)
class Entry:
    variant: str
    name: str
    fen: str
    depth: int
    count: int
    source: str

    @property
    def id(self) -> str:
        return f"{self.variant}-{self.name}-d{self.depth}"


def parse_perft_file(path: Path) -> list[Entry]:
    """Read one ``.perft`` file: ``id``, ``fen`` and ``perft <depth> <count>`` lines; ``#`` comments.

    The last ``# source:`` comment before a block is that block's source.
    """
    variant = path.stem
    entries: list[Entry] = []
    name = fen = None
    source = ""
    pending_source = ""
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line[1:].strip().lower().startswith("source:"):
                pending_source = line[1:].strip()[len("source:") :].strip()
            continue
        key, _, value = line.partition(" ")
        value = value.strip()
        if key == "id":
            name, fen, source, pending_source = value, None, pending_source, ""
        elif key == "fen":
            if name is None:
                raise ValueError(f"{path.name}:{lineno}: 'fen' before 'id'")
            fen = value
        elif key == "perft":
            if name is None or fen is None:
                raise ValueError(f"{path.name}:{lineno}: 'perft' before 'id' and 'fen'")
            depth, count = (int(x) for x in value.split())
            entries.append(Entry(variant, name, fen, depth, count, source))
        else:
            raise ValueError(f"{path.name}:{lineno}: unknown line {line!r}")
    return entries


ENTRIES = [e for path in sorted(DATA.glob("*.perft")) for e in parse_perft_file(path)]
QUICK = [e for e in ENTRIES if e.count <= QUICK_LIMIT]
SLOW = [e for e in ENTRIES if QUICK_LIMIT < e.count <= SLOW_LIMIT]


def _params(entries: list[Entry]) -> list:
    return [pytest.param(e, id=e.id) for e in entries]


def _check(entry: Entry) -> None:
    pos = Position.from_fen(entry.variant, entry.fen)
    assert perft(pos, entry.depth) == entry.count, f"{entry.id}: {entry.fen} ({entry.source})"


@pytest.mark.parametrize("entry", _params(QUICK))
def test_perft(entry: Entry) -> None:
    _check(entry)


@pytest.mark.slow
@pytest.mark.parametrize("entry", _params(SLOW))
def test_perft_slow(entry: Entry) -> None:
    _check(entry)


# -- "all paths" tables (docs/spec.md §13: every capture route counted) ----------------------------------
#
# ``perft(..., all_paths=True)`` counts every route separately.  These published numbers are where
# the all-paths and unique columns differ, so they also check that duplicates are merged in the
# default mode and only there.

ALL_PATHS = [
    # (variant, FEN, depth, all paths, unique) -- unique from the engine, confirmed by
    # tests/rules/reference.py where noted in tests/data/perft/*.perft
    ("italian", "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", 10, 164177, 164173),
    ("international", "W:B16,17,18,19,20:W31,32,33,34,35", 9, 1008317, 1008313),
    ("turkish", "start", 7, 10782382, 10782308),
    ("international", "start", 8, 6483971, 6483961),
    ("russian", "start", 8, 929905, 929899),
    ("brazilian", "start", 8, 907836, 907830),
    ("italian", "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", 11, 628686, 628666),
]


def _all_paths_params(quick: bool) -> list:
    return [
        pytest.param(v, fen, d, n, u, id=f"{v}-{fen[:12]}-d{d}")
        for v, fen, d, n, u in ALL_PATHS
        if (n <= QUICK_LIMIT) == quick and n <= SLOW_LIMIT
    ]


def _check_all_paths(variant: str, fen: str, depth: int, all_paths: int, unique: int) -> None:
    pos = Position.from_fen(variant, fen)
    assert perft(pos, depth, all_paths=True) == all_paths
    assert perft(pos, depth) == unique


@pytest.mark.parametrize(("variant", "fen", "depth", "all_paths", "unique"), _all_paths_params(True))
def test_perft_all_paths(variant: str, fen: str, depth: int, all_paths: int, unique: int) -> None:
    _check_all_paths(variant, fen, depth, all_paths, unique)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "fen", "depth", "all_paths", "unique"), _all_paths_params(False))
def test_perft_all_paths_slow(variant: str, fen: str, depth: int, all_paths: int, unique: int) -> None:
    _check_all_paths(variant, fen, depth, all_paths, unique)


def test_all_paths_equals_unique_where_no_route_repeats() -> None:
    pos = Position.start("american")
    for d in range(1, 6):
        assert perft(pos, d, all_paths=True) == perft(pos, d)


# -- the data files themselves -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", ["international", "american", "russian", "brazilian", "italian", "portuguese", "turkish"]
)
def test_every_variant_has_a_start_table(variant: str) -> None:
    depths = [e.depth for e in ENTRIES if e.variant == variant and e.name == "start"]
    assert depths, f"no perft from the start for {variant}"
    assert depths == list(range(1, len(depths) + 1))


def test_data_files_are_well_formed() -> None:
    assert ENTRIES
    paths = sorted(DATA.glob("*.perft"))
    assert len(paths) >= 7, "a table for every variant with its own rules of movement"
    for path in paths:
        get_variant(path.stem)  # the file name is a variant
        entries = parse_perft_file(path)
        assert "# source:" in path.read_text(encoding="utf-8")
        by_name: dict[str, list[Entry]] = {}
        for e in entries:
            by_name.setdefault(e.name, []).append(e)
            assert e.source, f"{e.id} has no '# source:' line"
        for name, block in by_name.items():
            assert len({e.fen for e in block}) == 1, f"{path.name}: id {name} used twice"
            assert [e.depth for e in block] == sorted({e.depth for e in block})
            counts = [e.count for e in block]
            assert all(c > 0 for c in counts)


def test_quick_and_slow_split() -> None:
    # the default suite must hold every start position at least to depth 4
    quick_starts = {(e.variant, e.depth) for e in QUICK if e.name == "start"}
    for v in ("international", "american", "russian", "brazilian", "italian", "portuguese", "turkish"):
        assert {(v, d) for d in range(1, 5)} <= quick_starts
    assert all(e.count > QUICK_LIMIT for e in SLOW)


# -- losing variants move exactly like their base variant (docs/spec.md §1.10, §10) --------------------


@pytest.mark.parametrize(
    ("losing", "base", "fen", "depth"),
    [
        pytest.param("perde-ganha", "brazilian", "start", 5, id="perde-ganha-start"),
        pytest.param("perde-ganha", "brazilian", "W:WKa1,c3,e3,g3,d2:Bb6,d6,f6,Kh8,e5", 4, id="perde-ganha-kings"),
        pytest.param("antidraughts", "international", "start", 4, id="antidraughts-start"),
        pytest.param(
            "antidraughts",
            "international",
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            4,
            id="antidraughts-random178",
        ),
    ],
)
def test_losing_variant_perft_equals_base(losing: str, base: str, fen: str, depth: int) -> None:
    lp, bp = Position.from_fen(losing, fen), Position.from_fen(base, fen)
    for d in range(1, depth + 1):
        assert perft(lp, d) == perft(bp, d), f"{losing} vs {base} at depth {d}"


# -- perft and divide basics ------------------------------------------------------------------------


def test_perft_depth_zero_is_one() -> None:
    assert perft(Position.start("international"), 0) == 1


def test_perft_negative_depth_raises() -> None:
    with pytest.raises(ValueError):
        perft(Position.start("brazilian"), -1)


def test_perft_of_a_lost_position_is_zero() -> None:
    # White's only man is blocked: no legal move, so nothing below it.
    pos = Position.from_fen("international", "W:W46:B37,41")
    assert not pos.legal_moves()
    assert perft(pos, 1) == 0
    assert perft(pos, 3) == 0


@pytest.mark.parametrize("variant", ["international", "russian", "american", "turkish", "italian"])
def test_divide_sums_to_perft(variant: str) -> None:
    pos = Position.start(variant)
    parts = divide(pos, 3)
    assert [m for m, _ in parts] == pos.legal_moves()
    assert sum(n for _, n in parts) == perft(pos, 3)


def test_divide_needs_depth_one() -> None:
    with pytest.raises(ValueError):
        divide(Position.start("international"), 0)
