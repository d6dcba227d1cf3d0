"""A puzzle's proof: is a printed line a sound puzzle?  One function, :func:`prove_puzzle`, that
``damas check`` (``generator.lessons.verify``) and the miner (:mod:`generator.puzzles.mining`) both
call, and one result, :class:`PuzzleResult`.

A problemist's standard of soundness: the key proven, no cook, a real combination, and every proof
within a budget.

* **The line meets the goal.**  At the end of the printed line the stipulation holds (the game won,
  drawn, a man crowned, or the material gained in a quiet position); otherwise the puzzle is
  *wrong* at its stipulation.
* **Key first.**  The printed key must force the stipulation within the printed length against
  every defence; only then are the other first moves searched.  A key that does not force it makes
  the puzzle *wrong*, with the defence that escapes.
* **Cook.**  Any other first move that forces the goal within the printed length (a second
  solution), or within that length plus a margin (:data:`DEFAULT_MARGIN` plies, or the puzzle's
  own margin) cooks the puzzle; so does a later solver move that is not the only one to force the
  goal (the last one may share the finish).  The result names each cook with its forcing line.
* **Not a puzzle.**  For ``gain:N`` and ``promote`` the printed line must give material up at some
  point (the attacker's piece balance drops below the start's): otherwise the side to move simply
  wins anyway and there is no combination to find.  A ``win`` or a ``draw`` needs no sacrifice.
* **Budget.**  The whole proof (key, cooks, later moves) shares one node budget
  (:func:`resolve_budget`); when it runs out the puzzle is *undecided* instead of running for hours.

The result is plain data (:meth:`PuzzleResult.to_json`, :meth:`PuzzleResult.from_json`), so the
verdict cache can keep it, and it carries what the books and pages draw from the proof: the proven
line, the key defences with how the attacker wins on, the themes and difficulty, and the tree of
every defence to the printed depth with the solver's forcing answer to each (built from the proof's
own tables while they are warm, see :func:`generator.puzzles.tree.line_tree`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from ..rules.draws import DrawProfile
from ..rules.game import Counters, Game, Outcome
from ..rules.move import Move
from ..rules.notation import line_text
from ..rules.position import Position
from .dfpn import DfpnSolver
from .difficulty import solving_level
from .play import find_move, result_play
from .result import Problem, PuzzleResult, Refutation, Status
from .search import DEFAULT_PROOF_NODES, Budget, BudgetExceeded, Stipulation
from .themes import Line, auto_themes
from .tree import line_tree

DEFAULT_MARGIN = 4
"""Plies past the printed line within which another first move counts as a cook."""
BUDGET_ENV = "DAMAS_PROOF_BUDGET"
"""Environment variable: the node budget of one puzzle's proof (a positive whole number)."""
SHOWN_DEFENCES = 3
"""Defences per defender ply that the answer keys show (the first in the engine's move order)."""


def default_margin(goal: str) -> int:
    """The cook margin when the puzzle sets none: :data:`DEFAULT_MARGIN`, but 0 for ``draw``, whose
    goal is a draw *by rule within the line*: the move-count rules count plies, so a waiting move
    reaches the same draw a few plies later and every draw puzzle would be "cooked"."""
    return 0 if goal == "draw" else DEFAULT_MARGIN


def resolve_budget(nodes: int | None = None) -> Budget:
    """The proof budget: the explicit ``nodes`` (the course setting ``proof_budget``), else
    ``$DAMAS_PROOF_BUDGET``, else :data:`DEFAULT_PROOF_NODES`."""
    if nodes is None:
        raw = os.environ.get(BUDGET_ENV, "").strip()
        if raw.isascii() and raw.isdigit() and 0 < len(raw) < 12 and int(raw) > 0:
            nodes = int(raw)
    return Budget(nodes=nodes or DEFAULT_PROOF_NODES)


def budget_message(nodes: int) -> str:
    return f"could not prove within the budget ({nodes:,} nodes); raise proof_budget or shorten the line"


def gives_material(start: Position, moves: list[Move]) -> bool:
    """Does the attacker's piece balance drop below the start's anywhere along ``moves``?"""
    me = start.turn
    base = start.pieces(me).bit_count() - start.pieces(me ^ 1).bit_count()
    pos = start
    for m in moves:
        pos = pos.play(m)
        if pos.pieces(me).bit_count() - pos.pieces(me ^ 1).bit_count() < base:
            return True
    return False


def not_a_puzzle(goal: str, start: Position, moves: list[Move]) -> str | None:
    """Why the printed line is no combination (None when it is one); see the module docstring."""
    if goal not in ("gain", "promote") or gives_material(start, moves):
        return None
    what = "wins the material" if goal == "gain" else "crowns"
    return (
        f"not a puzzle: the line gives nothing up, the side to move simply {what} anyway; "
        "show a combination (a sacrifice) or use the 'win' stipulation for a quiet win"
    )


def goal_words(stip: Stipulation, verb: bool = False) -> str:
    """``a gain of 2 pieces`` / ``wins 2 pieces``, ``the win`` / ``wins``..."""
    if stip.goal == "gain":
        n = f"{stip.pieces} piece" + ("s" if stip.pieces != 1 else "")
        return f"wins {n}" if verb else f"a gain of {n}"
    return {"win": ("wins", "the win"), "promote": ("promotes", "a promotion"), "draw": ("draws", "the draw")}[
        stip.goal
    ][0 if verb else 1]


def cook_message(pos: Position, found: list[tuple[Move, list[Move]]], printed: int, margin: int, goal: str) -> str:
    parts = [f"{pos.move_text(m, long=True)} ({line_text(pos, line)})" for m, line in found]
    return (
        f"cooked: {'; '.join(parts)} also force{'s' if len(found) == 1 else ''} {goal} within "
        f"{printed + margin} plies (the printed {printed} plus a margin of {margin}); change the position "
        "or set a smaller 'margin' with a 'margin_reason'"
    )


def cooks(solver: DfpnSolver, game: Game, key: Move, plies: int) -> list[tuple[Move, list[Move]]]:
    """Every first move other than ``key`` that forces the goal within ``plies``, with its line."""
    pos = game.position
    out = []
    for m in pos.sorted_moves([m for m in pos.legal_moves() if m != key]):
        if solver.move_forces(game, m, plies):
            out.append((m, solver.main_line(pos, m, plies)))
    return out


def prove_puzzle(
    position: Position,
    goal: Stipulation | str,
    line: list[Move],
    *,
    margin: int | None = None,
    budget: Budget | None = None,
    profile: DrawProfile | str | None = None,
    counters: Counters | None = None,
) -> PuzzleResult:
    """Is ``line`` (legal moves from ``position``, the attacker's first) a sound puzzle for ``goal``?

    ``margin``: plies past the line within which another key cooks it (None:
    :func:`default_margin`); ``budget``: the nodes the whole proof may cost (None:
    :func:`resolve_budget`); ``profile`` and ``counters``: the draw rules and the counters at
    ``position`` (for the ``draw`` goal and the game's end).  Never raises for a bad puzzle: the
    verdict, with every problem and its message, is in the result.
    """
    stip = goal if isinstance(goal, Stipulation) else Stipulation.parse(goal)
    proof = _Proof(position, stip, list(line), budget or resolve_budget(), profile, counters)
    return proof.run(default_margin(stip.goal) if margin is None else margin)


def prove_for_pages(
    position: Position,
    goal: str,
    line: list[Move],
    *,
    margin: int | None = None,
    budget: Budget | None = None,
    profile: DrawProfile | str | None = None,
    counters: Counters | None = None,
) -> PuzzleResult:
    """:func:`prove_puzzle`, and for a sound puzzle the tree its page lets a student play
    (:func:`generator.puzzles.play.result_play`): the check stage's one call per puzzle, so that
    pages are drawn from the proof alone."""
    result = prove_puzzle(position, goal, line, margin=margin, budget=budget, profile=profile, counters=counters)
    if result.sound:
        result.play = result_play(result, goal, profile)
    return result


@dataclass(frozen=True)
class ProofJob:
    """One puzzle's proof as plain data (what a worker process needs)."""

    variant: str
    fen: str
    stipulation: str
    moves: tuple[str, ...]
    """The printed line in long notation."""
    margin: int | None
    budget: int | None
    profile: DrawProfile
    counters: Counters


def prove_job(job: ProofJob) -> dict[str, Any]:
    """:func:`prove_for_pages` from plain data, its result as JSON (run in a worker process of the
    build, generator/lessons/ahead.py: only this module and what it imports are loaded there)."""
    pos = Position.from_fen(job.variant, job.fen)
    moves, cur = [], pos
    for text in job.moves:
        m = find_move(cur, text)
        moves.append(m)
        cur = cur.play(m)
    result = prove_for_pages(
        pos,
        job.stipulation,
        moves,
        margin=job.margin,
        budget=resolve_budget(job.budget),
        profile=job.profile,
        counters=job.counters,
    )
    return result.to_json()


class _Proof:
    """The state of one :func:`prove_puzzle` call (one solver, its tables, the problems found)."""

    def __init__(
        self,
        position: Position,
        stip: Stipulation,
        line: list[Move],
        budget: Budget,
        profile: DrawProfile | str | None,
        counters: Counters | None,
    ) -> None:
        self.position, self.stip, self.line = position, stip, line
        self.profile, self.counters = profile, counters
        self.budget = budget
        self.result = PuzzleResult(position, Status.SOUND, line)
        self.started = time.perf_counter()
        self.solver = DfpnSolver(position.variant, profile, budget)
        self.seconds: list[Move] = []
        """First moves that force the goal within the printed length (second solutions)."""
        self.wrong_at: int | None = None
        """The ply of the solver move that does not force the goal."""
        self.choices = 0
        """The defender's replies beyond the one played, summed along the line (for difficulty)."""

    def game(self) -> Game:
        return Game(self.position.variant, self.position, profile=self.profile, counters=self.counters)

    def fail(self, status: Status, message: str, ply: int | None = None, about: str | None = None) -> None:
        if not self.result.problems:
            self.result.status = status
        self.result.problems.append(Problem(status, message, ply, about))

    def run(self, margin: int) -> PuzzleResult:
        if self.reaches_goal():
            self.solver.prepare(self.position, self.stip)
            try:
                self.walk(margin)
            except BudgetExceeded as exc:  # what was found before stands (a cook is a cook)
                self.fail(Status.UNDECIDED, budget_message(exc.budget.nodes or exc.nodes))
            self.finish()
        self.result.seconds = time.perf_counter() - self.started
        return self.result

    # -- the end of the line ----------------------------------------------------------------------

    def reaches_goal(self) -> bool:
        """Does the stipulation hold at the end of the printed line?  Records why not."""
        game = self.game()
        for m in self.line:
            game.push(m)
        attacker = self.position.turn
        status = game.status()
        side = "white" if attacker == 0 else "black"
        goal = self.stip.goal
        why = None
        if goal == "win":
            if status.winner != attacker:
                why = f"claimed {side} wins, but after the solution the game is {status}"
        elif goal == "draw":
            if status.outcome is not Outcome.DRAW:
                why = f"claimed a draw, but after the solution the game is {status}"
        elif goal == "promote":
            if not any(m.promotes for m in self.line[0::2]):
                why = f"claimed {side} promotes, but no move of the solution crowns a man"
        else:
            why = self.gain_problem(game, attacker, side)
        if why is not None:
            self.fail(Status.WRONG, why, about="stipulation")
        return why is None

    def gain_problem(self, game: Game, attacker: int, side: str) -> str | None:
        end = game.position
        if any(m.captures for m in end.legal_moves()):
            return "the solution stops while a capture is still to be made; play it out"
        start = game.start
        gained = (start.pieces(attacker ^ 1).bit_count() - end.pieces(attacker ^ 1).bit_count()) - (
            start.pieces(attacker).bit_count() - end.pieces(attacker).bit_count()
        )
        if gained != self.stip.pieces:
            return f"claimed {side} wins {self.stip.pieces} piece(s), but the solution nets {gained}"
        return None

    # -- the proof along the line -----------------------------------------------------------------

    def walk(self, margin: int) -> None:
        """Prove the key, look for cooks, then each later solver move; collect the key defences."""
        game = self.game()
        depth = len(self.line)
        last = max(j for j in range(depth) if j % 2 == 0)
        choices = 0
        for j, move in enumerate(self.line):
            here = game.position
            if j == 0:
                if not self.key(game, move, depth, margin):
                    return
            elif j % 2 == 0:
                if not self.later_move(game, j, move, depth, j == last):
                    return
            else:
                replies = [m for m in here.legal_moves() if m != move]
                choices += len(replies)
                for r in replies[:SHOWN_DEFENCES]:
                    after = here.variant.generator.apply(*here.state, r)
                    self.result.defences.append((j, r, self.solver.play_out(after, depth - j - 1)))
            game.push(move)
        self.choices = choices
        why = not_a_puzzle(self.stip.goal, self.position, self.line)
        if why is not None:
            self.fail(Status.NOT_A_PUZZLE, why, about="stipulation")

    def key(self, game: Game, move: Move, depth: int, margin: int) -> bool:
        """The key forces the goal (else the puzzle is wrong: False); no other first move does
        within the printed length, nor within the margin past it."""
        solver, here = self.solver, game.position
        if not solver.move_forces(game, move, depth):
            self.wrong(game, 0, depth)
            return False
        seconds = [m for m in here.legal_moves() if m != move and solver.move_forces(game, m, depth)]
        if seconds and depth > 1:
            self.seconds = here.sorted_moves(seconds)
            listing = ", ".join(here.move_text(m, long=True) for m in self.seconds)
            self.fail(Status.COOKED, f"second solution: {listing} also {goal_words(self.stip, verb=True)}", 0)
        elif margin > 0:
            found = cooks(solver, game, move, depth + margin)
            if found:
                self.result.cooks = found
                message = cook_message(here, found, depth, margin, goal_words(self.stip))
                self.fail(Status.COOKED, message, 0)
        return True

    def later_move(self, game: Game, j: int, move: Move, depth: int, last: bool) -> bool:
        """The solver's move at ply ``j`` forces the goal (else wrong: False), and is the only one
        that does unless it is the last."""
        here = game.position
        winners = self.solver.winning_moves(game, depth - j)
        if move not in winners:
            self.wrong(game, j, depth)
            return False
        others = [m for m in winners if m != move]
        if others and not last:
            listing = ", ".join(here.move_text(m, long=True) for m in here.sorted_moves(others))
            self.fail(Status.COOKED, f"second solution: {listing} also {goal_words(self.stip, verb=True)}", j)
        return True

    def wrong(self, game: Game, j: int, depth: int) -> None:
        """Record that the solver move at ply ``j`` (in ``game.position``) does not force the goal."""
        self.fail(Status.WRONG, self.escape_message(game.position, j, depth), j)
        self.wrong_at = j

    def escape_message(self, here: Position, j: int, depth: int) -> str:
        """Why the solution move at ply ``j`` does not force the goal: the first reply along the
        author's own line that holds, or that the goal takes longer than the line."""
        solver = self.solver
        first = self.line[j]
        plies = depth - j
        head = f"{here.move_text(first, long=True)} does not force {goal_words(self.stip)} within {plies} plies"
        pos, played = here, list[Move]()
        fallback = ""
        for k in range(j, depth):
            move = self.line[k]
            if pos.turn != solver.attacker:
                gen = pos.variant.generator
                holding = [r for r in pos.legal_moves() if not solver.forced(gen.apply(*pos.state, r), plies - 1)]
                after = f" after {line_text(here, played)}" if played else ""
                if holding and move not in holding:
                    return f"{head}: the defence{after} escapes with {pos.move_text(holding[0], long=True)}"
                if holding and not fallback:  # the author's own reply holds: look further along the line
                    fallback = f"{head}: the defence{after} escapes with {pos.move_text(move, long=True)}"
            played.append(move)
            pos = pos.play(move)
            plies -= 1
        if fallback:
            return fallback
        return f"{head}: the line reaches it, but not against every defence in time; lengthen the solution"

    def refute(self, j: int) -> None:
        """The refutation of the solver move at ply ``j`` (the defence that escapes it)."""
        here = self.position
        for m in self.line[:j]:
            here = here.play(m)
        try:
            self.result.refutation = Refutation(j, self.solver.refute(here, self.line[j], len(self.line) - j))
        except BudgetExceeded:
            self.result.refutation = Refutation(j, [self.line[j]])

    # -- after the proof ----------------------------------------------------------------------------

    def finish(self) -> None:
        """Themes, difficulty and tree for a sound line; the forcing lines of second solutions.
        These come after the verdict with a budget of their own (as much again), so they never
        change it; when that budget runs out the tree or the lines are left out."""
        r = self.result
        r.nodes = self.solver.nodes
        if r.status is Status.UNDECIDED:
            return
        self.solver.budget = Budget(nodes=self.solver.nodes + (self.budget.nodes or DEFAULT_PROOF_NODES))
        if self.seconds:
            try:
                r.cooks = [(m, self.solver.main_line(self.position, m, len(self.line))) for m in self.seconds]
            except BudgetExceeded:
                r.cooks = [(m, [m]) for m in self.seconds]
        if self.wrong_at is not None:
            self.refute(self.wrong_at)
        if r.status is not Status.SOUND:
            return
        full = Line(self.position, tuple(self.line))
        r.themes = auto_themes(full)
        r.difficulty = solving_level(self.position, list(self.line))
        if self.stip.goal != "draw":
            try:
                r.tree = line_tree(self.solver, self.position, self.line)
            except BudgetExceeded:
                r.tree = None
