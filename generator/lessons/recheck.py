"""Re-prove every puzzle of lesson files with a wider cook margin (the books' standard), one puzzle
at a time (``damas book recheck FILE... [--margin 8]``).

Why one at a time: a lesson's check stops at its first error and proves its puzzles together; a
maintainer raising a book to 8 plies wants each cooked puzzle named with its cook and the time its
proof took, to decide which to drop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from .check import check_text


def one_puzzle_lesson(doc: dict[str, Any], puzzle: dict[str, Any], margin: int) -> str:
    """The YAML of a lesson holding ``puzzle`` alone, its cook margin set to ``margin``; the lesson's
    rules for its proofs (draw profile, proof budget) come along, or a book's wide cook search would run
    out of the default budget and be reported as a failure the book does not have."""
    one = {k: v for k, v in puzzle.items() if k not in ("margin", "margin_reason")}
    one.update(margin=margin, margin_reason="book standard")
    kept = ("variant", "language", "title", "slug", "draw_profile", "proof_budget")
    lesson: dict[str, Any] = {k: doc[k] for k in kept if k in doc}
    lesson.update(summary="x", sections=[{"title": "x", "text": "x"}], puzzles=[one])
    return yaml.safe_dump(lesson, allow_unicode=True, sort_keys=False)


def recheck(path: Path, margin: int, only: set[str] | None, say: Callable[[str], None]) -> int:
    """Prove each puzzle of ``path`` (those of ``only``, when given); say one line each; count failures."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    bad = 0
    for p in doc.get("puzzles") or []:
        if only and p["id"] not in only:
            continue
        started = time.perf_counter()
        _, errors = check_text(one_puzzle_lesson(doc, p, margin), f"{path}#{p['id']}")
        took = time.perf_counter() - started
        status = "ok" if not errors else "FAIL " + "; ".join(e.message for e in errors)
        bad += bool(errors)
        say(f"{p['id']}\t{len(p['solution'])}\t{took:.1f}s\t{status}")
    return bad
