"""A small playing engine: what a club player would do here, for authors and for the miner's
self-play games.

Negamax alpha-beta with iterative deepening, quiescence on captures (captures are compulsory, so a
position with a capture pending is never scored: the captures are played out), a transposition
table keyed by the engine core's Zobrist hash, and the table's best move tried first.

The evaluation is deliberately simple and variant-generic (everything is read from the variant's
geometry): material with kings worth more (less so where kings do not fly), advancement of men,
men in the centre, the back rank kept as a guard against crowning, and tempo.  In losing variants
(perde-ganha, antidraughts) material is inverted: fewer pieces is better.

A ``seed`` adds a small deterministic jitter to the root moves' scores, so that self-play games
differ from one seed to the next while the same seed always plays the same game.

With ``endgame`` (``damas play``), the endgame tables stored in the cache answer every position
they hold exactly (:mod:`generator.endgame.leaves`): inside the search, a table position scores as a
won or lost game at its distance (or 0, drawn) instead of being searched or evaluated; at the root,
a table position is not searched at all: the engine plays a move that keeps the tables' result, the
fastest win or the slowest loss.  Without it (the default: puzzle difficulty, the miner's
self-play) the engine's answers depend on nothing but the position and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..endgame.retro import LOSS as LOSS_RESULT
from ..endgame.retro import WIN as WIN_RESULT
from ..rules.core import make_zobrist
from ..rules.move import Move
from ..rules.position import Position
from ..rules.variants import Goal, Variant
from .memory import Caps
from .memory import caps as memory_caps

if TYPE_CHECKING:
    from ..endgame.leaves import StoredTables

State = tuple[int, int, int, int]
WIN = 100_000
"""The score of a won position (less the plies to reach it, so faster wins score higher)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_QUIESCENCE_LIMIT = 40


@dataclass
class Weights:
    """Evaluation terms in hundredths of a man."""

    man: int = 100
    king: int = 300
    short_king: int = 160
    advance: int = 4
    centre: int = 6
    back_rank: int = 8
    tempo: int = 3


@dataclass
class SearchResult:
    move: Move | None
    """The engine's move (None when the side to move has no legal move)."""
    score: int
    """From the side to move's point of view, in hundredths of a man (``WIN`` minus plies: a forced win)."""
    pv: list[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    tables: bool = False
    """True when the endgame tables chose the move (``score`` exact, no search)."""

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced end of the game (positive: the side to move wins), else None."""
        if abs(self.score) < WIN - 1000:
            return None
        return (WIN - abs(self.score)) * (1 if self.score > 0 else -1)


class Engine:
    """Searches positions of one variant; keeps its transposition table between searches."""

    def __init__(
        self,
        variant: Variant,
        *,
        seed: int | None = None,
        weights: Weights | None = None,
        caps: Caps | None = None,
        endgame: StoredTables | bool = False,
    ) -> None:
        """``endgame``: the endgame tables to consult (True: those stored in the user cache)."""
        self.variant = variant
        self.endgame = _endgame(variant, endgame)
        self._leaf_pieces = self.endgame.pieces if self.endgame is not None else 0
        self.gen = variant.generator
        self.weights = weights or Weights()
        self.losing = variant.goal is Goal.LOSING
        self.seed = seed
        g = variant.geometry
        rng = random.Random(0xDA4A5)
        self.zobrist = make_zobrist(
            [[rng.getrandbits(64) for _ in range(g.size)] for _ in range(4)], rng.getrandbits(64)
        )
        self.ranks = [g.rank_mask(r) for r in range(g.height)]
        self.back = (self.ranks[0], self.ranks[-1])
        self.advance_masks = (_weighted_masks(self.ranks), _weighted_masks(self.ranks[::-1]))
        """Per colour, (weight, squares) pairs whose weighted counts sum to the ranks its men have
        advanced: a man on rank r (counted from its own side) is in the masks of r's binary digits,
        so a few bit counts replace one per rank."""
        centre = 0
        for sq in g.squares:
            f, r = g.file_of(sq), g.rank_of(sq)
            if g.width // 4 <= f < g.width - g.width // 4 and g.height // 4 <= r < g.height - g.height // 4:
                centre |= 1 << sq
        self.centre = centre
        self.table: dict[int, tuple[int, int, int, int]] = {}
        """hash -> (depth, score, bound, best child index); at most ``table_cap`` entries, then it
        starts over (:mod:`generator.puzzles.memory`)."""
        self.table_cap = (caps if caps is not None else memory_caps()).engine
        self.resets = 0
        self.nodes = 0
        self.node_limit: int | None = None

    # -- evaluation -------------------------------------------------------------------------------

    def evaluate(self, state: State) -> int:
        """Static score from the side to move's point of view (a quiet position)."""
        white, black, kings, turn = state
        w = self.weights
        king = w.king if self.variant.flying_kings else w.short_king
        score = 0
        for color, mine in ((0, white), (1, black)):
            men = mine & ~kings
            material = men.bit_count() * w.man + (mine & kings).bit_count() * king
            advanced = 0
            for weight, mask in self.advance_masks[color]:
                advanced += weight * (men & mask).bit_count()
            positional = advanced * w.advance
            positional += (mine & self.centre).bit_count() * w.centre
            positional += (men & self.back[color]).bit_count() * w.back_rank
            side = material * (-1 if self.losing else 1) + positional
            score += side if color == 0 else -side
        score = score if turn == 0 else -score
        return score + w.tempo

    # -- search -----------------------------------------------------------------------------------

    def search(self, pos: Position, depth: int = 6, node_limit: int | None = None) -> SearchResult:
        """The best move by iterative deepening to ``depth`` plies (captures played out past it).

        ``node_limit`` stops deepening once that many nodes were searched (the last finished
        depth's answer is returned)."""
        *_, last = self.deepening(pos, depth, node_limit)  # it yields at least once
        return last

    def deepening(self, pos: Position, depth: int = 6, node_limit: int | None = None) -> Iterator[SearchResult]:
        """:meth:`search`'s answer after each depth it finishes, 1 to ``depth`` (fewer when it stops
        early, one when the position has no move or the tables hold it): what a fresh
        ``search(pos, d)`` returns for each ``d`` in one search, not one search per depth."""
        moves = self.gen.moves(*pos.state)  # the order of gen.children
        if not moves:
            yield SearchResult(None, self._terminal(0), [], 0, 0)
            return
        known = self.table_move(pos, moves)
        if known is not None:
            yield known
            return
        self.nodes = 0
        self.node_limit = None
        state = pos.state
        h = self.zobrist.hash(*state)
        jitter = self._jitter(pos, len(moves))
        for d in range(1, max(depth, 1) + 1):
            score, index = self._root(state, h, d, jitter)
            yield SearchResult(moves[index], score, self.pv(pos, moves[index]), d, self.nodes)
            if abs(score) >= WIN - 1000 or (node_limit is not None and self.nodes >= node_limit):
                return

    def _jitter(self, pos: Position, n: int) -> list[int]:
        if self.seed is None:
            return [0] * n
        rng = random.Random(f"{self.seed}:{pos.fen()}")
        return [rng.randrange(0, 9) for _ in range(n)]

    def _root(self, state: State, h: int, depth: int, jitter: list[int]) -> tuple[int, int]:
        _, children = self.gen.children(*state, self.zobrist, h)
        order = list(range(len(children)))
        entry = self.table.get(h)
        if entry is not None and entry[3] < len(children):
            order.remove(entry[3])
            order.insert(0, entry[3])
        alpha, best_index = -WIN - 1, order[0]
        for i in order:
            c = children[i]
            score = -self._negamax(c[:4], c[4], depth - 1, -WIN - 1, -alpha + jitter[i], 1) + jitter[i]
            if score > alpha:
                alpha, best_index = score, i
        self._store(h, (depth, alpha, _EXACT, best_index))
        return alpha, best_index

    def _store(self, h: int, entry: tuple[int, int, int, int]) -> None:
        if len(self.table) >= self.table_cap and h not in self.table:  # full: start over
            self.table.clear()
            self.resets += 1
        self.table[h] = entry

    def _terminal(self, ply: int) -> int:
        """The score of the side to move when it has no legal move."""
        return WIN - ply if self.losing else -(WIN - ply)

    def _negamax(self, state: State, h: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self._leaf_pieces and (state[0] | state[1]).bit_count() <= self._leaf_pieces:
            assert self.endgame is not None
            got = self.endgame.lookup(*state)
            if got is not None:
                return self._table_score(got, ply)
        captures, children = self.gen.children(*state, self.zobrist, h)
        if not children:
            return self._terminal(ply)
        if depth <= 0 and (not captures or depth < -_QUIESCENCE_LIMIT):
            return self.evaluate(state)
        entry = self.table.get(h)
        first = -1
        if entry is not None:
            d, score, bound, first = entry
            cuts = bound == _EXACT or (bound == _LOWER and score >= beta) or (bound == _UPPER and score <= alpha)
            if d >= depth > 0 and cuts:
                return score
        order: Sequence[int] = range(len(children))
        if 0 <= first < len(children):
            order = [first, *(i for i in order if i != first)]
        start_alpha, best, best_index = alpha, -WIN - 1, 0
        for i in order:
            c = children[i]
            score = -self._negamax(c[:4], c[4], depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_index = score, i
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if depth > 0:
            bound = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
            self._store(h, (depth, best, bound, best_index))
        return best

    # -- endgame tables ---------------------------------------------------------------------------

    def _table_score(self, entry: tuple[int, int], ply: int) -> int:
        """The exact score of a table position ``ply`` plies from the root (side to move's view)."""
        result, distance = entry
        if result == WIN_RESULT:
            return WIN - (ply + distance)
        if result == LOSS_RESULT:
            return -(WIN - (ply + distance))
        return 0

    def table_move(self, pos: Position, moves: list[Move] | None = None) -> SearchResult | None:
        """The tables' move in ``pos`` (None when they do not hold it or one of its children): a
        move that keeps the position's result, the fastest win, the slowest loss, any draw (the
        seed chooses among equals, as its jitter does in a search), and the tables' line."""
        chosen = self._table_choice(pos, moves)
        if chosen is None:
            return None
        move, score = chosen
        return SearchResult(move, score, self._table_line(pos, move), 0, 0, tables=True)

    def _table_choice(self, pos: Position, moves: list[Move] | None = None) -> tuple[Move, int] | None:
        """(move, exact score) from the tables, or None (see :meth:`table_move`)."""
        if self.endgame is None or (pos.white | pos.black).bit_count() > self._leaf_pieces:
            return None
        here = self.endgame.lookup(*pos.state)
        moves = moves if moves is not None else self.gen.moves(*pos.state)
        children = [self.endgame.lookup(*self.gen.apply(*pos.state, m)) for m in moves]
        if here is None or not moves or any(c is None for c in children):
            return None
        score = self._table_score(here, 0)
        best = [m for m, c in zip(moves, children, strict=True) if c is not None and -self._table_score(c, 1) == score]
        if not best:  # a table that does not agree with itself: let the search decide
            return None
        move = best[0] if self.seed is None else random.Random(f"{self.seed}:{pos.fen()}").choice(best)
        return move, score

    def _table_line(self, pos: Position, first: Move, most: int = 24) -> list[Move]:
        """The tables' line from ``first`` on: each side's best move, as far as ``most`` plies."""
        line = [first]
        q = pos.play(first)
        while len(line) < most:
            chosen = self._table_choice(q)
            if chosen is None:
                break
            line.append(chosen[0])
            q = q.play(chosen[0])
        return line

    def pv(self, pos: Position, first: Move, most: int = 24) -> list[Move]:
        """The principal variation read back from the table, starting with ``first``."""
        line = [first]
        state = self.gen.apply(*pos.state, first)
        seen = set()
        while len(line) < most:
            h = self.zobrist.hash(*state)
            entry = self.table.get(h)
            if entry is None or h in seen:
                break
            seen.add(h)
            moves = self.gen.moves(*state)
            if not moves or entry[3] >= len(moves):
                break
            move = moves[entry[3]]
            line.append(move)
            state = self.gen.apply(*state, move)
        return line


def _weighted_masks(ranks: list[int]) -> tuple[tuple[int, int], ...]:
    """``((1, m0), (2, m1), (4, m2), ...)``: ``m_b`` holds the ranks whose index has bit ``b`` set."""
    out = []
    bit = 1
    while bit < len(ranks):
        out.append((bit, sum(mask for r, mask in enumerate(ranks) if r & bit)))
        bit <<= 1
    return tuple(out)


def _endgame(variant: Variant, endgame: StoredTables | bool) -> StoredTables | None:
    """The tables an engine reads: ``True`` the user cache's (None when it holds no slice)."""
    if endgame is True:
        from ..endgame.leaves import stored_tables

        tables = stored_tables(variant)
        return tables if tables.stored else None
    return endgame or None


def score_text(result: SearchResult) -> str:
    """The score as a reader reads it: ``+1.25`` (men), or ``win in 7`` / ``loss in 6`` (plies)."""
    mate = result.mate_in
    if result.tables and mate is None:
        return "draw"
    if mate is not None:
        return f"win in {mate} plies" if mate > 0 else f"loss in {-mate} plies"
    return f"{result.score / 100:+.2f}"
