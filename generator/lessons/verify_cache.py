"""A puzzle's proof verdict in the proof cache (:mod:`generator.cache`): its key.

The verdict is the whole :class:`~generator.puzzles.result.PuzzleResult`, failures included, in
its JSON form (:meth:`~generator.puzzles.result.PuzzleResult.to_json`): each problem names the
ply or the part of the puzzle it is about, not its place in the file, so moving a puzzle in its
file keeps its entry, and a warm ``damas check`` reports a false claim exactly as a cold one does.
Moves are stored in the variant's long notation and matched back against the legal moves on read
(a stored text that names no legal move makes the entry a miss).
"""

from __future__ import annotations

from typing import Any

from ..cache import plain, rules_key, source_fingerprint
from ..puzzles.leaves import endgame_key
from ..puzzles.search import SEARCH_VERSION
from .model import Puzzle

PROOF_FORMAT = 3
"""Bump when a cached verdict could differ from a fresh one (the proof standard, its messages, the
themes or difficulty, the page's play tree, the stored form).  3: the result carries the play tree."""
PROOF_SOURCES = (
    "rules",
    "puzzles",
    "lessons/verify.py",
    "lessons/verify_cache.py",
    "lessons/explain.py",
    "cache.py",
)
"""The code a verdict depends on: hashed into every key (:func:`generator.cache.source_fingerprint`)."""

KIND = "proof"


def proof_key(p: Puzzle, profile: Any, budget_nodes: int | None) -> dict[str, Any]:
    """Everything the uniqueness proof of ``p`` depends on."""
    pos = p.position
    return {
        "format": PROOF_FORMAT,
        "search": SEARCH_VERSION,
        "code": source_fingerprint(*PROOF_SOURCES),
        "rules": rules_key(pos.variant, profile),
        "fen": pos.fen(),
        "counters": plain(p.counters),
        "stipulation": p.stipulation,
        "solution": [[s.move.value, None if s.others is None else [t.value for t in s.others]] for s in p.solution],
        "margin": p.margin,
        "budget": budget_nodes,
        "endgame": endgame_key(pos.variant, str(p.stipulation)),
    }
