"""Proving puzzle solutions: an exhaustive AND-OR search over forced draughts combinations.

A stipulation is met when the side to move at the root (the *attacker*) can force it against
*every* defence within a bound on plies.  Attacker nodes need one move that works; defender nodes
need every legal reply (every capture route and every choice the precedence law leaves) to fail.
No score thresholds: the answer is a proof, so "only move" and "second solution" are exact.

Goals (docs/spec.md terms):

* ``win``: the defender is left without a move (no pieces, or blocked); inverted in losing games,
  where the side without a move wins, so there the attacker must run out of moves;
* ``gain:N``: the attacker is N pieces up on the root (net, kings and men alike) in a *quiet*
  position, one where the side to move has no capture: material is never counted mid-combination;
* ``promote``: the attacker has more kings than at the root, in a quiet position;
* ``draw``: the game is drawn by the variant's draw rules (repetition, move counts, short endings).

Captures pending at the depth bound are played out (quiescence), up to :data:`QUIESCENCE_PLIES`.
A transposition table keyed by a Zobrist hash of the position and the plies left avoids proving
the same sub-position twice.  Moves are engine moves, so equivalent capture routes are one move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..limits import NumberError, whole
from ..rules.core import make_generator
from ..rules.game import Game, Outcome
from ..rules.geometry import WHITE
from ..rules.move import Move
from ..rules.movegen import PureZobrist
from ..rules.position import Position
from ..rules.variants import Goal as GameGoal
from .kernel import DepthFirstKernel, depth_first_kernel
from .leaves import LeafFunction, win_leaf
from .memory import Caps
from .memory import caps as memory_caps

if TYPE_CHECKING:
    from ..endgame.leaves import StoredTables
    from ..rules.draws import DrawProfile
    from ..rules.variants import Variant

QUIESCENCE_PLIES = 12
"""How far past the depth bound pending captures are followed."""

_NEVER = 1 << 30
"""A ply count no search reaches: "proven at -_NEVER" means the position itself meets the goal."""

SEARCH_VERSION = 1
"""Bumped whenever the meaning of a proof changes (stamped on solver output)."""

DEFAULT_PROOF_NODES = 500_000
"""The default node budget of one proof (a puzzle's whole check, cook search included): about
ten times what the hardest bundled puzzle needs; seconds to a minute in pure Python."""
DRAW_NODE_COST = 10
"""What one node of the draw search (history replayed) counts against a budget."""


@dataclass(frozen=True)
class Budget:
    """How much one proof may cost: search nodes and/or wall-clock seconds (None: unbounded)."""

    nodes: int | None = DEFAULT_PROOF_NODES
    seconds: float | None = None


class BudgetExceeded(Exception):
    """The search ran out of its budget before deciding the question (the answer is undecided)."""

    def __init__(self, nodes: int, seconds: float, budget: Budget) -> None:
        self.nodes, self.seconds, self.budget = nodes, seconds, budget
        by_nodes = budget.nodes is not None and nodes >= budget.nodes
        limit = f"{budget.nodes} nodes" if by_nodes else f"{budget.seconds:g} s"
        super().__init__(f"could not prove within the budget ({limit})")


class Interrupted(Exception):
    """The search was asked to stop (Ctrl-C)."""


@dataclass(frozen=True)
class Stipulation:
    goal: str
    """``win``, ``gain``, ``promote`` or ``draw``."""
    pieces: int = 0

    @classmethod
    def parse(cls, text: str) -> Stipulation:
        """``win``, ``gain:2``, ``promote``, ``draw``.

        Raises:
            ValueError: for anything else.
        """
        t = text.strip().lower()
        if t in ("win", "promote", "draw"):
            return cls(t)
        if t.startswith("gain:"):  # N is range-checked before it reaches the compiled prover's C int
            try:
                return cls("gain", whole(t[5:], "gain"))
            except NumberError as exc:
                raise ValueError(f"goal '{text}': {exc}") from None
        raise ValueError(f"unknown goal '{text}' (use win, gain:N, promote or draw)")

    def __str__(self) -> str:
        return f"gain:{self.pieces}" if self.goal == "gain" else self.goal


class _Zobrist(PureZobrist):
    """Random keys per (square, piece kind) and for the side to move, the same for every search on a
    board of this size (hashing itself is :class:`~generator.rules.movegen.PureZobrist`)."""

    def __init__(self, size: int) -> None:
        rng = random.Random(20261129)
        keys = [[rng.getrandbits(64) for _ in range(size)] for _ in range(4)]
        super().__init__(keys, rng.getrandbits(64))


_ZOBRIST: dict[int, _Zobrist] = {}


def _zobrist_table(size: int) -> _Zobrist:
    """The keys for boards of ``size`` bits (made once: the same seed gives the same keys)."""
    z = _ZOBRIST.get(size)
    if z is None:
        z = _ZOBRIST[size] = _Zobrist(size)
    return z


def zobrist(pos: Position) -> int:
    """A 64-bit hash of placement and side to move (the same for equal positions)."""
    return _zobrist_table(pos.variant.geometry.size).hash(*pos.state)


@dataclass
class Proof:
    """The outcome of a search from one position."""

    stipulation: Stipulation
    depth: int
    """The ply bound the proof holds for."""
    solutions: list[Move]
    """Every attacker first move that forces the goal within ``depth`` plies."""
    refutations: dict[Move, list[Move]] = field(default_factory=dict)
    """For each failing first move, a defence line that escapes (attacker move first)."""
    nodes: int = 0
    seconds: float = 0.0
    shortest: dict[Move, int] = field(default_factory=dict)
    """For each solution, the fewest plies in which it forces the goal."""


class Solver:
    """Proves stipulations for one variant (and draw profile, for ``draw``).

    ``prepare(root, stipulation)`` fixes the attacker and the material reference (the puzzle's
    start); the other methods then answer questions about positions reached from that root.
    """

    def __init__(
        self,
        variant: Variant,
        profile: DrawProfile | str | None = None,
        budget: Budget | None = None,
        core: str | None = None,
        *,
        kernel: bool = True,
        caps: Caps | None = None,
        endgame: StoredTables | bool = True,
    ) -> None:
        """``core``: ``None`` (the active core: compiled when built), ``"pure"`` (the reference
        Python search on the pure generator) or ``"compiled"`` (RuntimeError when not built).
        ``kernel=False`` keeps the Python search even on the compiled generator (a benchmark's
        middle point).  ``caps``: how many entries each table may hold (default: from the
        ``search_memory_mb`` limit, :mod:`generator.puzzles.memory`).  ``endgame``: the endgame
        tables consulted at the leaves of the ``win`` goal (:mod:`generator.puzzles.leaves`):
        True, the slices stored in the user cache (never built here); False, none."""
        self.variant = variant
        self.budget = budget or Budget(nodes=None)
        self.started = time.perf_counter()
        self._next_tick = 1024
        self.progress: Callable[[Solver], None] | None = None
        """Called every few thousand nodes (a progress display); may raise to stop the search."""
        self.gen = variant.generator if core is None else make_generator(variant, core)
        self.profile = profile
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int]] = {}
        """Zobrist hash -> (fewest plies known to force the goal, most plies known not to, the move
        index that decided it last); at most ``caps.prover`` entries, then it starts over."""
        self.history: dict[tuple[int, int, int], int] = {}
        """(side to move, origin, destination) -> how often, and how deep, that move decided a node
        of this stipulation's search: the move order after the table's best (:meth:`search`)."""
        self.caps = caps if caps is not None else memory_caps()
        self._resets = 0
        self._z = _zobrist_table(variant.geometry.size)
        self.losing = variant.goal is GameGoal.LOSING
        self.stip = Stipulation("win")
        self.attacker = WHITE
        self.root_balance = 0
        self.root_kings = 0
        self.endgame: StoredTables | None = _endgame(variant, endgame)
        """The stored endgame tables the ``win`` goal reads at its leaves (None: no table)."""
        self._leaf: LeafFunction | None = None
        self._leaf_pieces = 0
        compiled = depth_first_kernel(self, QUIESCENCE_PLIES) if kernel else None
        self.kernel: DepthFirstKernel | PythonSearch = compiled or PythonSearch(self)
        """The search ``forced`` runs, chosen once (:mod:`generator.puzzles.kernel`): the compiled
        kernel when the generator is compiled, else this class's own Python search."""
        self.kernel.set_cap(self.caps.prover)
        self._forced = self.kernel.forced
        self._hash: Callable[[int, int, int, int], int] = self.kernel.hash
        """The Zobrist hash of a position (in C with the compiled kernel; the same value)."""

    @property
    def zobrist_keys(self) -> PureZobrist:
        """The Zobrist keys of this board size (the compiled kernel copies them)."""
        return self._z

    @property
    def next_tick(self) -> int:
        """The node count at which the budget is checked next."""
        return self._next_tick

    @property
    def resets(self) -> int:
        """How many times a full table started over (0: the bound never changed the search)."""
        return self._resets + self.kernel.resets()

    @property
    def compiled(self) -> bool:
        """True when ``forced`` runs in the compiled kernel."""
        return self.kernel.compiled

    def start_clock(self) -> None:
        """Reset the node count and the clock the budget is measured against."""
        self.nodes = 0
        self._next_tick = 1024
        self.started = time.perf_counter()

    def tick(self) -> None:
        """Enforce the budget (and report progress); called every 1024 nodes."""
        self._next_tick = self.nodes + 1024
        b = self.budget
        elapsed = time.perf_counter() - self.started
        if (b.nodes is not None and self.nodes >= b.nodes) or (b.seconds is not None and elapsed >= b.seconds):
            raise BudgetExceeded(self.nodes, elapsed, b)
        if self.progress is not None:
            self.progress(self)

    def prepare(self, root: Position, stip: Stipulation) -> None:
        self.stip = stip
        self.attacker = root.turn
        self.root_balance = self._balance(root.state)
        self.root_kings = self._kings(root.state)
        self.table.clear()
        self.history.clear()
        self.start_clock()
        self.kernel.prepare(stip.goal, stip.pieces, self.attacker, self.root_balance, self.root_kings)
        tables = self.endgame
        if stip.goal == "win" and tables is not None and tables.stored:
            self._leaf, self._leaf_pieces = win_leaf(tables, self.attacker, QUIESCENCE_PLIES), tables.pieces
            self.kernel.set_leaf(tables)
        else:
            self._leaf, self._leaf_pieces = None, 0
            self.kernel.set_leaf(None)

    # -- goal tests -----------------------------------------------------------------------------

    def _balance(self, state: tuple[int, int, int, int]) -> int:
        w, b = state[0].bit_count(), state[1].bit_count()
        return w - b if self.attacker == WHITE else b - w

    def _kings(self, state: tuple[int, int, int, int]) -> int:
        mine = state[0] if self.attacker == WHITE else state[1]
        return (mine & state[2]).bit_count()

    def _achieved(self, state: tuple[int, int, int, int], moves: list[Move]) -> bool | None:
        """True/False when this node decides the goal by itself; None to search on.

        ``moves`` are the legal moves of the side to move here.
        """
        return self._decide(state, len(moves), bool(moves) and bool(moves[0].captures))

    def _decide(self, state: tuple[int, int, int, int], n_moves: int, captures: bool) -> bool | None:
        """``_achieved`` from the number of legal moves and whether they are captures."""
        if not n_moves:  # the game is over: the side to move has no move
            # Winning the game meets every goal but a draw: a defender never "escapes" losing two
            # pieces by losing the game instead.
            attacker_wins = (state[3] == self.attacker) == self.losing
            return attacker_wins and self.stip.goal != "draw"
        if self.stip.goal in ("win", "draw") or captures:
            return None  # material only counts in quiet positions
        if self.stip.goal == "gain":
            return True if self._balance(state) - self.root_balance >= self.stip.pieces else None
        return True if self._kings(state) > self.root_kings else None

    # -- search ---------------------------------------------------------------------------------

    def forced(self, state: tuple[int, int, int, int], plies: int, h: int | None = None) -> bool:
        """Can the attacker force the goal from ``state`` within ``plies`` (plus quiescence)?

        The table keeps, per position (Zobrist hash ``h``), the fewest plies known to win and the
        most plies known not to: forcing within n plies implies forcing within more, so one entry
        answers every depth outside that window.

        With the compiled kernel the same search runs in C (``_search.Prover``: same move order,
        same table policy, same node count); :meth:`search` is the Python reference
        (``DAMAS_PURE=1``).
        """
        return self._forced(state, plies, h)

    def search(self, state: tuple[int, int, int, int], plies: int, h: int | None = None) -> bool:
        """``forced`` in Python: the reference depth-first search (see :meth:`forced`)."""
        self.nodes += 1
        if self.nodes >= self._next_tick:
            self.tick()
        moves = None
        if plies <= 0:
            # At the horizon a quiet position decides the goal by itself, and most of the search's
            # nodes are such positions: answered without the table, they cost a move count, not a
            # table entry (a quarter of the bundled proofs' time: bench/README.md).
            moves = self.gen.moves(*state)
            if not moves or not moves[0].captures:
                return self._achieved(state, moves) is True
        if h is None:
            h = self._hash(*state)
        entry = self.table.get(h)
        if entry is not None:
            if plies >= entry[0]:
                return True
            if plies <= entry[1]:
                return False
        if self._leaf is not None and (state[0] | state[1]).bit_count() <= self._leaf_pieces:
            got = self._leaf(*state)
            if got is not None:  # the endgame tables' bounds, merged with what the table knew
                entry = (min(got[0], entry[0]), max(got[1], entry[1]), entry[2]) if entry else (*got, 0)
                if plies >= entry[0] or plies <= entry[1]:
                    self._store(h, entry)
                    return plies >= entry[0]
        if moves is None:
            moves = self.gen.moves(*state)
        decided = self._achieved(state, moves)
        best = entry[2] if entry is not None else 0
        if decided is None and plies <= 0 and not (moves[0].captures and plies > -QUIESCENCE_PLIES):
            decided, bound = False, plies
        elif decided is not None:
            bound = _NEVER
        else:
            apply, after = self.gen.apply, self._z.after
            wanted = state[3] == self.attacker  # a child value that decides this node
            decided = not wanted
            for i in self._order(moves, state[3], best):
                m = moves[i]
                if self.forced(apply(*state, m), plies - 1, after(h, state, m)) == wanted:
                    decided, best = wanted, i
                    key = (state[3], m.origin, m.dest)
                    self.history[key] = self.history.get(key, 0) + (plies * plies if plies > 0 else 1)
                    break
            bound = plies
        proven, refuted = (entry[0], entry[1]) if entry is not None else (_NEVER, -_NEVER)
        if decided:
            proven = min(proven, bound if bound != _NEVER else -_NEVER)
        else:
            refuted = max(refuted, bound)
        self._store(h, (proven, refuted, best))
        return decided

    def _order(self, moves: list[Move], turn: int, best: int) -> list[int]:
        """The order :meth:`search` tries ``moves`` in: first the move that decided this position at
        a smaller depth (it usually decides it again: the winning move at the attacker's nodes, the
        escape at the defender's), then the others by their history (the history heuristic: a move
        that decided many deep nodes elsewhere in the search likely decides this one), ties in the
        generator's order.  (It cut the nodes of the bundled books' proofs by a sixth.)"""
        history = self.history
        rest = [i for i in range(len(moves)) if i != best]
        rest.sort(key=lambda i: -history.get((turn, moves[i].origin, moves[i].dest), 0))
        return [best, *rest] if best < len(moves) else rest

    def _store(self, h: int, entry: tuple[int, int, int]) -> None:
        """``table[h] = entry``; a full table starts over before a new position goes in."""
        if len(self.table) >= self.caps.prover and h not in self.table:  # full: start over
            self.table.clear()
            self._resets += 1
        self.table[h] = entry

    def draw_forced(self, game: Game, plies: int) -> bool:
        """As ``forced`` for the draw goal, which needs the game history (repetition, counters).
        A node here replays the history, about ten times the work of a ``forced`` node: it counts
        :data:`DRAW_NODE_COST` against the budget."""
        self.nodes += DRAW_NODE_COST
        if self.nodes >= self._next_tick:
            self.tick()
        status = game.status()
        if status.outcome is Outcome.DRAW:
            return True
        if status.is_over or plies <= 0:
            return False
        moves = game.position.legal_moves()
        attacker_to_move = game.position.turn == self.attacker
        for m in moves:
            game.push(m)
            ok = self.draw_forced(game, plies - 1)
            game.pop()
            if ok == attacker_to_move:
                return ok
        return not attacker_to_move

    def move_forces(self, game: Game, move: Move, plies: int) -> bool:
        """Does the attacker's ``move`` (legal in ``game.position``) force the goal, counting
        ``plies`` with the move itself?"""
        if self.stip.goal == "draw":
            game.push(move)
            try:
                return self.draw_forced(game, plies - 1)
            finally:
                game.pop()
        return self.forced(self.gen.apply(*game.position.state, move), plies - 1)

    def winning_moves(self, game: Game, plies: int) -> list[Move]:
        """The attacker's moves in ``game.position`` that force the goal within ``plies``."""
        return [m for m in game.position.legal_moves() if self.move_forces(game, m, plies)]

    def solve(self, position: Position, stip: Stipulation | str, depth: int, game: Game | None = None) -> Proof:
        """Every first move that forces ``stip`` within ``depth`` plies (iterative deepening, so each
        solution's shortest proof is known); failing first moves get an escaping defence."""
        if isinstance(stip, str):
            stip = Stipulation.parse(stip)
        started = time.perf_counter()
        self.prepare(position, stip)
        base = game or Game(self.variant, position, profile=self.profile)
        root_moves = position.legal_moves()
        shortest: dict[Move, int] = {}
        for d in range(1, depth + 1):
            for m in root_moves:
                if m not in shortest and self.move_forces(base, m, d):
                    shortest[m] = d
        solutions = [m for m in root_moves if m in shortest]
        refutations = {m: self.refute(position, m, depth) for m in root_moves if m not in shortest}
        return Proof(stip, depth, solutions, refutations, self.nodes, time.perf_counter() - started, shortest)

    def _need(self, state: tuple[int, int, int, int], limit: int) -> int | None:
        """The fewest plies within which the goal is forced from ``state`` (None beyond ``limit``)."""
        for d in range(0, limit + 1):
            if self.forced(state, d):
                return d
        return None

    def main_line(self, position: Position, move: Move, depth: int) -> list[Move]:
        """The solution played out: after ``move``, the defence that holds out longest and the
        attacker's quickest forcing reply, until the goal is reached."""
        if self.stip.goal == "draw":
            return [move]
        return [move, *self.play_out(self.gen.apply(*position.state, move), depth - 1)]

    def play_out(self, state: tuple[int, int, int, int], plies: int) -> list[Move]:
        """Best play from ``state`` (either side to move) while the goal stays forced: the
        attacker's quickest forcing move, the defence that holds out longest."""

        def choose(state: tuple[int, int, int, int], moves: list[Move], plies: int) -> Move | None:
            budget = max(plies - 1, 0)  # forced() itself plays out pending captures past the bound
            needs = [(self._need(self.gen.apply(*state, m), budget), i) for i, m in enumerate(moves)]
            if state[3] == self.attacker:
                ok = [(n, i) for n, i in needs if n is not None]
                return moves[min(ok)[1]] if ok else None
            return None if any(n is None for n, _ in needs) else moves[max(needs)[1]]

        return self._walk(state, plies, choose)

    def refute(self, position: Position, move: Move, depth: int) -> list[Move]:
        """How the defence escapes after the attacker's ``move``: the move, then alternately a
        defender reply that holds and the attacker's first try, as far as the bound goes."""
        if self.stip.goal == "draw":
            return [move]

        def choose(state: tuple[int, int, int, int], moves: list[Move], plies: int) -> Move | None:
            if state[3] == self.attacker:
                return moves[0]
            # the first reply that holds: asking of every reply (each a proof of its own) only to
            # keep the first was most of the time a deep problem's check took
            return next((m for m in moves if not self.forced(self.gen.apply(*state, m), plies - 1)), None)

        return [move, *self._walk(self.gen.apply(*position.state, move), depth - 1, choose)]

    def _walk(self, state: tuple[int, int, int, int], plies: int, choose: Callable[..., Move | None]) -> list[Move]:
        """Moves picked by ``choose(state, moves, plies)`` until the goal is decided, the bound (and
        any pending captures) runs out, or ``choose`` gives up."""
        line: list[Move] = []
        while True:
            moves = self.gen.moves(*state)
            if not moves or self._achieved(state, moves) is not None:
                break
            if plies <= 0 and not (moves[0].captures and plies > -QUIESCENCE_PLIES):
                break
            nxt = choose(state, moves, plies)
            if nxt is None:
                break
            line.append(nxt)
            state = self.gen.apply(*state, nxt)
            plies -= 1
        return line


class PythonSearch:
    """The search strategy without the compiled kernel: the solver's own Python code
    (:meth:`Solver.search`), the pure Zobrist hash, nothing to prepare."""

    compiled = False

    def __init__(self, solver: Solver) -> None:
        self.forced = solver.search
        self.hash: Callable[[int, int, int, int], int] = solver.zobrist_keys.hash

    def prepare(self, goal: str, pieces: int, attacker: int, root_balance: int, root_kings: int) -> None:
        """Nothing to do: the solver's own table is cleared by :meth:`Solver.prepare`."""

    def set_cap(self, entries: int) -> None:
        """Nothing to do: :meth:`Solver.search` reads ``solver.caps``."""

    def resets(self) -> int:
        return 0  # counted by the solver

    def set_leaf(self, tables: StoredTables | None) -> None:
        """Nothing to do: :meth:`Solver.search` reads the solver's leaf function."""


def _endgame(variant: Variant, endgame: StoredTables | bool) -> StoredTables | None:
    """The tables a solver reads: ``True`` the user cache's (None when it holds no slice)."""
    if endgame is True:
        from ..endgame.leaves import stored_tables

        tables = stored_tables(variant)
        return tables if tables.stored else None
    return endgame or None


def solve(position: Position, goal: str, depth: int, profile: DrawProfile | str | None = None) -> Proof:
    """Convenience: ``Solver(position.variant, profile).solve(position, goal, depth)``."""
    return Solver(position.variant, profile).solve(position, Stipulation.parse(goal), depth)
