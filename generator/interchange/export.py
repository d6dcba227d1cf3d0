"""``damas export``: the course's puzzles as PDN, one game per puzzle.

Each game carries ``[SetUp "1"]`` and ``[FEN]`` (the puzzle's position), ``[GameType]`` (the
variant's PDN number; a ``[Variant]`` tag where the number does not name it, as for the losing
games), and two tags of this project that other programs ignore: ``[Goal]`` (the stipulation as the
lessons write it, ``win``, ``gain:2``, ``promote``) and ``[Puzzle]`` (the puzzle's id).  The author's
caption is the comment before the first move; the moves are the proven solution, with each key
defence the proof found as a variation where it branches, and the result is the one the line
reaches (``*`` when the game goes on, as after winning material).  Moves are written in the short
notation of PDN 3.0 (the long form only where the short one is ambiguous), numbered from the FEN's
side to move, so ``damas pdn check`` replays every game and ``damas import`` reads them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..lessons.check import CheckedLesson
from ..lessons.model import Lesson, Puzzle
from ..lessons.verify import PuzzleProof
from ..rules.game import Game
from ..rules.move import Move
from ..rules.pdn import PdnGame, PdnNode, game_to_pdn, write_pdn
from ..rules.position import Position

GOAL_TAG = "Goal"
PUZZLE_TAG = "Puzzle"


def _nodes(start: Position, moves: Sequence[Move]) -> list[PdnNode]:
    out = []
    pos = start
    for m in moves:
        out.append(PdnNode(pos.move_text(m), move=m, before=pos))
        pos = pos.play(m)
    return out


def puzzle_game(lesson: Lesson, puzzle: Puzzle, proof: PuzzleProof | None, index: int) -> PdnGame:
    """One puzzle as a PDN game: position, goal, caption, the solution and its key defences."""
    game = Game(lesson.variant, puzzle.position, profile=lesson.profile, counters=puzzle.counters)
    moves = (
        list(proof.moves) if proof is not None else [game.position.parse_move(s.move.value) for s in puzzle.solution]
    )
    for m in moves:
        game.push(m)
    tags = {"Event": lesson.title, PUZZLE_TAG: puzzle.id, GOAL_TAG: puzzle.stipulation}
    pdn = game_to_pdn(game, tags, index=index)
    pdn.tags.setdefault("SetUp", "1")  # even a puzzle set from the initial position says where it starts
    pdn.tags.setdefault("FEN", game.start.fen())
    if puzzle.caption:
        if pdn.moves:
            pdn.moves[0].comments_before.append(" ".join(puzzle.caption.split()))
        else:
            pdn.comments.append(" ".join(puzzle.caption.split()))
    if proof is not None:
        positions = [game.start]
        for m in moves:
            positions.append(positions[-1].play(m))
        for j, reply, rest in proof.defences:
            if j < len(pdn.moves):
                pdn.moves[j].variations.append(_nodes(positions[j], [reply, *rest]))
    return pdn


def export_games(lessons: Iterable[CheckedLesson], variants: Sequence[str] = ()) -> list[PdnGame]:
    """Every puzzle of ``lessons`` (of ``variants``, or all), in course order, as PDN games."""
    games: list[PdnGame] = []
    chosen = sorted(
        (c for c in lessons if not variants or c.lesson.variant.name in variants),
        key=lambda c: (c.lesson.variant.name, c.lesson.order, c.lesson.slug, c.lesson.language),
    )
    for checked in chosen:
        for p in checked.lesson.puzzles:
            games.append(puzzle_game(checked.lesson, p, checked.puzzle_proofs.get(p.where), len(games) + 1))
    return games


def export_text(lessons: Iterable[CheckedLesson], variants: Sequence[str] = ()) -> str:
    """The PDN text of :func:`export_games`."""
    return write_pdn(export_games(lessons, variants))
