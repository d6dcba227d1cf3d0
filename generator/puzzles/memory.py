"""How much memory one search's tables may take: one bound, split among the tables it keeps.

`damas solve international start --depth 40` reached 1.4 GB in 30 s and kept growing: the
transposition tables of the searches had no bound.  Now each search gets :func:`caps`, the number
of entries each of its tables may hold, from one bound in megabytes (``search_memory_mb`` in
:mod:`generator.limits`: ``DAMAS_LIMIT_SEARCH_MEMORY_MB``, or ``--memory`` on the commands that
search).  It is a bound per search (one proof, one engine search); ``damas mine`` runs one in each
worker process.

**Policy when full: start over.**  A table that holds its cap of entries is emptied before the
next new entry goes in (df-pn's expanded nodes already worked so).  Every table is a cache of
facts (a position proven within n plies, refuted within m, a node's proof numbers), so forgetting
them never changes an answer, only the work to reach it; a search whose tables never fill counts
exactly the nodes it counted before.  It is also the one policy the pure-Python tables (dicts) and
the compiled ones (open addressing in C) can follow entry for entry, so both cores still give the
same answers with the same node counts when a table is full (tests/hostile/test_search_memory.py).
Replacing single entries (by depth, by age) would need the dicts to copy the C tables' slots.

The caps count entries, the same number for both cores; the bytes per entry are those of the pure
Python tables (measured with tracemalloc), the larger: the compiled tables stay well under the bound.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import limit

MB = 1 << 20

BYTES_PER_ENTRY = {
    "prover": 200,
    "proofs": 160,
    "work": 180,
    "expanded": 330,
    "engine": 220,
}
"""Bytes of one entry in the pure-Python tables: measured with tracemalloc (bench/search_memory.py:
133, 106, 122, 257 and 157 on a 300,000-node search) and raised by a third or more, since a dict
doubles its arrays as it grows, so the cost per entry depends on where in its growth it stands:
the depth-first table (hash -> three ints), the df-pn proofs (proven and disproven per hash, with
the set of hashes seen), the df-pn work table ((hash, plies) -> two numbers), one unit of the
expanded df-pn nodes (a node or one of its children: a position and its hash), the engine's table."""

DFPN_SHARE = {"prover": 0.25, "proofs": 0.25, "work": 0.2, "expanded": 0.3}
"""How a df-pn search splits the bound (its leaves run the depth-first search with its own table)."""


@dataclass(frozen=True)
class Caps:
    """Entries each table may hold before it starts over."""

    prover: int
    """The depth-first table (``Solver.table``, ``_core.Prover``)."""
    proofs: int
    """df-pn's positions with a proof, a disproof or an expanded node (``_core.Dfpn`` ``pd``)."""
    work: int
    """df-pn's proof numbers of open (position, plies) nodes."""
    expanded: int
    """df-pn's expanded nodes, counting a node and each of its children as one."""
    engine: int
    """The engine's alpha-beta table."""


def caps(megabytes: int | None = None) -> Caps:
    """The caps for a bound of ``megabytes`` (default: the ``search_memory_mb`` limit).

    A plain depth-first search or the engine has one table and takes the whole bound; df-pn splits
    it by :data:`DFPN_SHARE` (its ``prover`` cap is its leaves' table)."""
    total = (limit("search_memory_mb") if megabytes is None else megabytes) * MB

    def share(name: str, part: float) -> int:
        return max(64, int(total * part) // BYTES_PER_ENTRY[name])

    return Caps(
        prover=share("prover", 1.0),
        proofs=share("proofs", DFPN_SHARE["proofs"]),
        work=share("work", DFPN_SHARE["work"]),
        expanded=share("expanded", DFPN_SHARE["expanded"]),
        engine=share("engine", 1.0),
    )


def dfpn_caps(c: Caps) -> Caps:
    """``c`` with the depth-first table cut to its df-pn share (the leaves' search)."""
    total = c.prover * BYTES_PER_ENTRY["prover"]
    return Caps(
        max(64, int(total * DFPN_SHARE["prover"]) // BYTES_PER_ENTRY["prover"]),
        c.proofs,
        c.work,
        c.expanded,
        c.engine,
    )
