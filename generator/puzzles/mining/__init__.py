"""The puzzle miner (``damas mine``): sound puzzles found in PDN games and engine self-play.

* :mod:`.sources`: where positions come from (work units: one PDN game, one self-play game);
* :mod:`.candidate`: from one position to a proven puzzle or nothing (the cheap filter, the key
  search, :func:`generator.puzzles.proof.prove_puzzle`, the taste filter);
* :mod:`.run`: units on an executor, a checkpoint to resume from, the puzzles assembled in order and
  deduplicated (:mod:`generator.puzzles.dedup`);
* :mod:`.output`: the one lesson file a run writes;
* :mod:`.job`: a whole run, as the CLI (:mod:`generator.cli.mine`) starts it.

The miner belongs to the puzzles layer: it imports nothing from ``generator.lessons``; the lessons
a course already has reach it as position keys (``generator.lessons.known``).
"""

from .candidate import (
    MINER_VERSION,
    Settings,
    caption,
    is_candidate,
    prove_best,
    puzzle_id,
    solution_items,
    worth_a_book,
)

__all__ = [
    "MINER_VERSION",
    "Settings",
    "caption",
    "is_candidate",
    "prove_best",
    "puzzle_id",
    "solution_items",
    "worth_a_book",
]
