"""A puzzle's proof verdict in the proof cache (:mod:`generator.cache`): its key and its stored form.

The verdict is cached faithfully, failures included: the messages the proof produced (each with its
place *relative to the puzzle*, so moving a puzzle in its file keeps its entry) and, when it passed,
the :class:`~generator.lessons.verify.PuzzleProof` the books use.  A warm ``damas check`` therefore
reports a false claim exactly as a cold one does.

Moves are stored in the variant's long notation and matched back against the legal moves of each
position on read: a stored text that names no legal move makes the entry unusable (a miss), so a
cache file can never put a move on a page that the engine did not generate.
"""

from __future__ import annotations

from typing import Any

from ..cache import plain, rules_key, source_fingerprint, texts
from ..puzzles.search import SEARCH_VERSION
from ..rules import Move, Position
from .model import Puzzle

PROOF_FORMAT = 1
"""Bump when a cached verdict could differ from a fresh one (the proof standard, its messages, the
themes or difficulty, the stored form)."""
PROOF_SOURCES = (
    "rules",
    "puzzles",
    "lessons/verify.py",
    "lessons/verify_puzzle.py",
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
    }


def find_move(pos: Position, text: Any) -> Move:
    """The legal move of ``pos`` whose long notation is ``text``.

    Raises:
        ValueError: when no legal move is written so.
    """
    if isinstance(text, str):
        for m in pos.legal_moves():
            if pos.move_text(m, long=True) == text:
                return m
    raise ValueError(f"no legal move {text!r}")


def moves_from(pos: Position, items: Any) -> list[Move]:
    """A line stored as long move texts, played from ``pos``."""
    out = []
    for text in texts(items if isinstance(items, list) else [None]):
        m = find_move(pos, text)
        out.append(m)
        pos = pos.play(m)
    return out


def line_texts(pos: Position, moves: list[Move]) -> list[str]:
    out = []
    for m in moves:
        out.append(pos.move_text(m, long=True))
        pos = pos.play(m)
    return out


def encode(failures: list[tuple[tuple[Any, ...], str]], proof: Any | None, start: Position) -> dict[str, Any]:
    """The verdict as plain JSON: failures (place within the puzzle, message) and the proof."""
    out: dict[str, Any] = {"failures": [[list(where), message] for where, message in failures], "proof": None}
    if proof is not None:
        positions = [start]
        for m in proof.moves:
            positions.append(positions[-1].play(m))
        out["proof"] = {
            "moves": line_texts(start, proof.moves),
            "defences": [
                [j, positions[j].move_text(r, long=True), line_texts(positions[j].play(r), rest)]
                for j, r, rest in proof.defences
            ],
            "themes": list(proof.themes),
            "difficulty": proof.difficulty,
            "nodes": proof.nodes,
            "seconds": proof.seconds,
        }
    return out


def decode(value: Any, start: Position) -> tuple[list[tuple[tuple[Any, ...], str]], dict[str, Any] | None]:
    """The stored verdict back: failures and the proof's fields (moves as engine moves).

    Raises:
        ValueError, TypeError, KeyError: for anything but the shape :func:`encode` writes (the
        caller treats that as a miss).
    """
    if not isinstance(value, dict):
        raise ValueError("not a verdict")
    failures = []
    for item in value["failures"]:
        where, message = item
        if not isinstance(where, list) or not all(isinstance(k, str | int) for k in where):
            raise ValueError("bad place")
        if not isinstance(message, str):
            raise ValueError("bad message")
        failures.append((tuple(where), message))
    raw = value["proof"]
    if raw is None:
        return failures, None
    if not isinstance(raw, dict):
        raise ValueError("bad proof")
    moves = moves_from(start, raw["moves"])
    positions = [start]
    for m in moves:
        positions.append(positions[-1].play(m))
    defences = []
    for j, reply, rest in raw["defences"]:
        if not isinstance(j, int) or isinstance(j, bool) or not 0 <= j < len(moves):
            raise ValueError("bad defence index")
        r = find_move(positions[j], reply)
        defences.append((j, r, moves_from(positions[j].play(r), rest)))
    themes = texts(raw["themes"])
    numbers = [raw["difficulty"], raw["nodes"]]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise ValueError("bad numbers")
    seconds = raw["seconds"]
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise ValueError("bad seconds")
    proof = {
        "moves": moves,
        "defences": defences,
        "themes": themes,
        "difficulty": numbers[0],
        "nodes": numbers[1],
        "seconds": float(seconds),
    }
    return failures, proof
