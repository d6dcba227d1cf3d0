"""Depth-bounded df-pn: proof-number search for "force this goal within D plies".

The question is exactly the one :class:`generator.puzzles.search.Solver` answers (read its module
docstring: goals, quiescence past the bound, what a won game means in losing variants); only the
order of the work changes.  Proof-number search (Allis 1994; df-pn: Nagai 2002, used for the
forward proofs of checkers, Schaeffer et al. 2007) keeps for each node a *proof number* (how many
leaves still have to be proven, at least, to prove it) and a *disproof number* (to disprove it),
and always expands a most-proving leaf: the search follows the cheapest branch and does not
re-search shallow trees level by level as iterative deepening does.

Nodes are (position, plies left).  Plies strictly decrease along every path, so the search graph
is acyclic and df-pn needs no cycle handling.  Results are shared between depths through the
monotonicity of the bound: a proof within p plies is a proof within any p' >= p, a disproof within
p is a disproof within any p' <= p.  The table keeps, per Zobrist hash, the fewest plies known to
prove and the most known to disprove (with tighter bounds derived from the children), and the
(proof, disproof) numbers of undecided (hash, plies) nodes.

Only the win, gain and promote goals are searched here; the draw goal needs the game's history
(repetitions, counters) and stays with the plain search in search.py.

With the compiled kernel the whole search below runs in C (``_search.Dfpn``, see
:mod:`generator.puzzles.kernel`): the same tables, child order, thresholds and node counts, so it
proves the same things in the same order; this module stays the readable reference
(``DAMAS_PURE=1``, or ``core="pure"``) and tests/search/test_dfpn_kernel.py holds the two to each
other.  Which one runs is chosen once, when the solver is built: ``self.tables`` is either
:class:`PythonTables` (this module's dictionaries and ``_mid``) or :class:`CompiledTables`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..rules.move import Move
from .kernel import DepthFirstKernel
from .memory import Caps, dfpn_caps
from .memory import caps as memory_caps
from .search import _NEVER, QUIESCENCE_PLIES, Proof, Solver, Stipulation

if TYPE_CHECKING:
    from ..endgame.leaves import StoredTables
    from ..rules.draws import DrawProfile
    from ..rules.game import Game
    from ..rules.position import Position
    from ..rules.variants import Variant
    from .search import Budget

INF = 1 << 40
"""An infinite proof or disproof number."""

State = tuple[int, int, int, int]
Kid = tuple[State, int, int]
"""A child of an expanded node: (position, Zobrist hash, its number of legal moves)."""

LEAF_PLIES = 7
"""Nodes with at most this many plies left are settled by the depth-first search of search.py
(a df-pn with small-tree leaf evaluation): measured faster on short shots and on deep problems."""
EPSILON = 0.25
"""The 1+epsilon trick (Pawlewicz and Lew 2007): a child's threshold is the runner-up's number
times 1+epsilon, so the search does not thrash between two siblings of nearly equal cost."""


class DfpnSolver(Solver):
    """A :class:`Solver` whose ``forced`` question is answered by df-pn (draw goal excepted)."""

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
        """As :class:`Solver`; ``caps`` default to the ``search_memory_mb`` bound split among the
        tables below (:func:`generator.puzzles.memory.dfpn_caps`)."""
        super().__init__(
            variant,
            profile,
            budget,
            core,
            kernel=kernel,
            caps=caps if caps is not None else dfpn_caps(memory_caps()),
            endgame=endgame,
        )
        self.proven: dict[int, int] = {}
        """Zobrist hash -> fewest plies known to force the goal (-_NEVER: the goal is met here)."""
        self.disproven: dict[int, int] = {}
        """Zobrist hash -> most plies known not to force it (_NEVER: the attacker has lost)."""
        self.work: dict[tuple[int, int], tuple[int, int] | None] = {}
        """(hash, plies) -> (proof number, disproof number) of nodes still open; None once the node
        is settled (kept, as the C table keeps the slot, so that both count the same entries)."""
        self.expanded: dict[int, tuple[bool | None, int, list[Kid]]] = {}
        """Zobrist hash -> the node's verdict, cut-off floor and children (see ``_expand``)."""
        self._keys: set[int] = set()
        """Every hash with a proof, a disproof or an expanded node: the entries of the C table."""
        self._units = 0
        """Expanded nodes and their children kept (the ``caps.expanded`` bound)."""
        self._leaf_plies = LEAF_PLIES
        self._in_leaf = False
        self._proved = 0
        self._disproved = 0
        chosen = self.kernel
        self.tables: PythonTables | CompiledTables = (
            CompiledTables(chosen, LEAF_PLIES, self.caps)
            if isinstance(chosen, DepthFirstKernel)
            else PythonTables(self)
        )
        """Where the proofs are kept and searched, chosen once with the depth-first kernel."""

    @property
    def leaf_plies(self) -> int:
        """Nodes with at most this many plies left go to the depth-first search (``LEAF_PLIES``)."""
        return self._leaf_plies

    @leaf_plies.setter
    def leaf_plies(self, plies: int) -> None:
        self._leaf_plies = plies
        self.tables.set_leaf_plies(plies)

    @property
    def proved_count(self) -> int:
        """Proofs recorded (the progress display shows it)."""
        return self.tables.proved_count()

    @property
    def disproved_count(self) -> int:
        return self.tables.disproved_count()

    def prepare(self, root: Position, stip: Stipulation) -> None:
        super().prepare(root, stip)
        self.proven.clear()
        self.disproven.clear()
        self.work.clear()
        self.expanded.clear()
        self._keys.clear()
        self._units = 0
        self._proved = self._disproved = 0
        self.tables.clear()

    def solve(self, position: Position, stip: Stipulation | str, depth: int, game: Game | None = None) -> Proof:
        """As :meth:`Solver.solve`, without iterative deepening: one proof per first move at the
        full depth, then its shortest length read downwards from the bound the proof gave."""
        if isinstance(stip, str):
            stip = Stipulation.parse(stip)
        if stip.goal == "draw":
            return super().solve(position, stip, depth, game)
        started = time.perf_counter()
        self.prepare(position, stip)
        root_moves = position.legal_moves()
        shortest: dict[Move, int] = {}
        for m in root_moves:
            need = self._need(self.gen.apply(*position.state, m), depth - 1)
            if need is not None:
                shortest[m] = need + 1
        solutions = [m for m in root_moves if m in shortest]
        refutations = {m: self.refute(position, m, depth) for m in root_moves if m not in shortest}
        return Proof(stip, depth, solutions, refutations, self.nodes, time.perf_counter() - started, shortest)

    # -- the question -----------------------------------------------------------------------------

    def forced(self, state: State, plies: int, h: int | None = None) -> bool:
        if self.stip.goal == "draw" or self._in_leaf:
            return super().forced(state, plies, h)
        if h is None:
            h = self._hash(*state)
        known = self.tables.known(h, plies)
        if known is not None:
            return known
        self.tables.search(state, plies, h)
        known = self.tables.known(h, plies)
        assert known is not None, "df-pn returned without deciding the root"
        return known

    def _proven_at(self, h: int) -> int | None:
        return self.tables.proven_at(h)

    def proven_within(self, state: State) -> int | None:
        """The fewest plies the table knows the goal forced in from ``state`` (None if unknown)."""
        return self._proven_at(self._hash(*state))

    def _need(self, state: State, limit: int) -> int | None:
        """The fewest plies (at least 0) within which the goal is forced, None beyond ``limit``:
        one proof at ``limit``, then downwards from the bound that proof gave until a disproof."""
        if self.stip.goal == "draw":
            return super()._need(state, limit)
        if not self.forced(state, limit):
            return None
        h = self._hash(*state)

        def known_at(default: int) -> int:
            p = self._proven_at(h)
            return default if p is None else p

        best = max(0, min(limit, known_at(limit)))
        while best > 0 and self.forced(state, best - 1, h):
            best = max(0, min(best - 1, known_at(best - 1)))
        return best

    def _known(self, h: int, plies: int) -> bool | None:
        """Is (``h``, ``plies``) decided by the tables?  (The Python tables; see :class:`PythonTables`.)"""
        p = self.proven.get(h)
        if p is not None and plies >= p:
            return True
        d = self.disproven.get(h)
        if d is not None and plies <= d:
            return False
        return None

    def _numbers(self, h: int, plies: int, n: int = 1, parent_attacks: bool = True) -> tuple[int, int]:
        """(proof, disproof) numbers of a child: from the table, else the mobility estimate (the
        child's ``n`` replies: all to be refuted below an attacker move, one to be found below a
        defence)."""
        p = self.proven.get(h)
        if p is not None and plies >= p:
            return 0, INF
        d = self.disproven.get(h)
        if d is not None and plies <= d:
            return INF, 0
        got = self.work.get((h, plies))
        if got is not None:
            return got
        return (n, 1) if parent_attacks else (1, n)

    def _child_numbers(self, kids: list[Kid], below: int, attacker: bool) -> list[tuple[int, int]]:
        """``_numbers`` of every child (inlined: this is df-pn's innermost loop)."""
        proven, disproven, work = self.proven.get, self.disproven.get, self.work.get
        out = []
        for _, ch, n in kids:
            p = proven(ch)
            if p is not None and below >= p:
                out.append((0, INF))
                continue
            d = disproven(ch)
            if d is not None and below <= d:
                out.append((INF, 0))
                continue
            got = work((ch, below))
            out.append(got if got is not None else ((n, 1) if attacker else (1, n)))
        return out

    @property
    def resets(self) -> int:
        return super().resets + self.tables.resets()

    def _entry(self, h: int) -> None:
        """Make room for ``h`` in the proof tables: when they hold ``caps.proofs`` positions and
        ``h`` is new, forget every proof, disproof and expanded node (start over)."""
        if h not in self._keys:
            if len(self._keys) >= self.caps.proofs:
                self.proven.clear()
                self.disproven.clear()
                self.expanded.clear()
                self._keys.clear()
                self._units = 0
                self._resets += 1
            self._keys.add(h)

    def _put_work(self, key: tuple[int, int], numbers: tuple[int, int] | None) -> None:
        """``work[key] = numbers``; a full work table starts over before a new key goes in."""
        if key not in self.work and len(self.work) >= self.caps.work:
            self.work.clear()
            self._resets += 1
        self.work[key] = numbers

    def _prove(self, h: int, at: int) -> None:
        self._proved += 1
        self._entry(h)
        if at < self.proven.get(h, _NEVER):
            self.proven[h] = at

    def _disprove(self, h: int, at: int) -> None:
        self._disproved += 1
        self._entry(h)
        if at > self.disproven.get(h, -_NEVER):
            self.disproven[h] = at

    # -- the search -------------------------------------------------------------------------------

    def _mid(self, state: State, h: int, plies: int, thpn: int, thdn: int) -> None:
        """Search (state, plies) until its proof number reaches ``thpn``, its disproof number
        ``thdn``, or it is decided; the result is left in the table."""
        self.nodes += 1
        if self.nodes >= self._next_tick:
            self.tick()
        if self._leaf is not None and self._table_leaf(state, h, plies):
            return
        entry = self.expanded.get(h)
        if entry is None:
            entry = self._expand(state, h)
        decided, floor, kids = entry
        if decided is True:
            self._prove(h, -_NEVER)
            return
        if decided is False:
            self._disprove(h, _NEVER)
            return
        if plies < floor:
            self._disprove(h, floor - 1)
            return
        if plies <= self.leaf_plies:
            # Near the bound the plain depth-first search (with its own table) is cheaper than
            # proof numbers: few plies, and forced captures make its first try the right one.
            self._in_leaf = True
            try:
                won = Solver.forced(self, state, plies, h)
            finally:
                self._in_leaf = False
            if won:
                self._prove(h, plies)
            else:
                self._disprove(h, plies)
            return
        attacker = state[3] == self.attacker
        below = plies - 1
        key = (h, plies)
        while True:
            nums = self._child_numbers(kids, below, attacker)
            firsts, seconds = zip(*nums, strict=True)
            if attacker:
                pn = min(firsts)
                dn = min(INF, sum(seconds))
            else:
                pn = min(INF, sum(firsts))
                dn = min(seconds)
            if pn == 0 or dn == 0:
                if self.work.get(key) is not None:
                    self.work[key] = None
                self._settle(h, plies, floor, kids, attacker, pn == 0)
                return
            self._put_work(key, (pn, dn))
            if pn >= thpn or dn >= thdn:
                return
            i, cthpn, cthdn = self._select(nums, attacker, pn, dn, thpn, thdn)
            child, ch, _ = kids[i]
            self._mid(child, ch, below, cthpn, cthdn)

    def _table_leaf(self, state: State, h: int, plies: int) -> bool:
        """Record what the endgame tables say of this node (:mod:`generator.puzzles.leaves`);
        True when that decides it at ``plies``."""
        assert self._leaf is not None
        if (state[0] | state[1]).bit_count() > self._leaf_pieces:
            return False
        got = self._leaf(*state)
        if got is None:
            return False
        proven, refuted = got
        if proven != _NEVER:
            self._prove(h, proven)
        self._disprove(h, refuted)
        return plies >= proven or plies <= refuted

    def _expand(self, state: State, h: int) -> tuple[bool | None, int, list[Kid]]:
        """The node's own verdict, the fewest plies at which the bound does not cut it off, and
        its children with their hashes (kept: df-pn comes back to a node many times).

        df-pn+ initial numbers come from mobility: a defence with one reply (a forced capture) is
        as cheap to prove as one leaf, a defence with ten replies costs ten.  (With the compiled
        kernel the whole search, this included, runs in C.)
        """
        captures, raw = self.gen.children(*state, self._z, h)
        decided = self._decide(state, len(raw), captures)
        count = self.gen.count
        kids = [((w, b, k, t), ch, max(1, count(w, b, k, t))) for w, b, k, t, ch in raw] if decided is None else []
        if decided is not None:
            entry: tuple[bool | None, int, list[Kid]] = (decided, 0, [])
        else:
            floor = -QUIESCENCE_PLIES + 1 if captures else 1
            entry = (None, floor, kids)
        if self._units >= self.caps.expanded:  # a node and each of its children count one
            self.expanded.clear()
            self._units = 0
        self._entry(h)
        self.expanded[h] = entry
        self._units += 1 + len(entry[2])
        return entry

    @staticmethod
    def _select(
        nums: list[tuple[int, int]], attacker: bool, pn: int, dn: int, thpn: int, thdn: int
    ) -> tuple[int, int, int]:
        """The most-proving child and its thresholds (Nagai's df-pn rule)."""
        side = 0 if attacker else 1  # the number minimised at this node
        best = second = INF + 1
        index = 0
        for i, n in enumerate(nums):
            v = n[side]
            if v < best:
                best, second, index = v, best, i
            elif v < second:
                second = v
        other = nums[index][1 - side]
        second = INF if second >= INF else int(second * (1 + EPSILON)) + 1
        if attacker:
            cthpn = min(thpn, second)
            cthdn = INF if thdn >= INF else min(INF, thdn - dn + other)
        else:
            cthdn = min(thdn, second)
            cthpn = INF if thpn >= INF else min(INF, thpn - pn + other)
        return index, cthpn, cthdn

    def _settle(self, h: int, plies: int, floor: int, kids: list[Kid], attacker: bool, won: bool) -> None:
        """Record a decided node with the widest depth range its children justify."""
        below = [(self.proven.get(ch, _NEVER), self.disproven.get(ch, -_NEVER)) for _, ch, _ in kids]
        if won:
            need = [p for p, _ in below]
            at = (min(need) if attacker else max(need)) + 1
            self._prove(h, min(plies, max(floor, at)))
        else:
            hold = [d for _, d in below]
            at = (min(hold) if attacker else max(hold)) + 1
            self._disprove(h, max(plies, at, floor - 1))


class PythonTables:
    """df-pn on this module's Python dictionaries and ``_mid`` (the reference)."""

    def __init__(self, solver: DfpnSolver) -> None:
        self.solver = solver
        self.known = solver._known
        self.proven_at = solver.proven.get

    def search(self, state: State, plies: int, h: int) -> None:
        self.solver._mid(state, h, plies, INF, INF)

    def clear(self) -> None:
        """Nothing more: :meth:`DfpnSolver.prepare` clears the dictionaries."""

    def set_leaf_plies(self, plies: int) -> None:
        """Nothing more: ``_mid`` reads ``solver.leaf_plies``."""

    def proved_count(self) -> int:
        return self.solver._proved

    def disproved_count(self) -> int:
        return self.solver._disproved

    def resets(self) -> int:
        return 0  # counted by the solver


class CompiledTables:
    """df-pn in C (``_search.Dfpn``): its tables live in the kernel; node counts and budget checks
    carry over to the solver as for the depth-first kernel."""

    def __init__(self, kernel: DepthFirstKernel, leaf_plies: int, caps: Caps) -> None:
        self.kernel = kernel
        self.dfpn = kernel.dfpn(leaf_plies, caps.expanded)
        self.dfpn.pd_cap, self.dfpn.work_cap = caps.proofs, caps.work
        self.known = self.dfpn.known
        self.proven_at = self.dfpn.proven_at

    def search(self, state: State, plies: int, h: int) -> None:
        """``_mid`` with infinite thresholds, in C."""
        self.kernel.enter()
        try:
            self.dfpn.search(*state, plies, h)
        finally:
            self.kernel.leave()

    def clear(self) -> None:
        self.dfpn.clear()

    def set_leaf_plies(self, plies: int) -> None:
        self.dfpn.leaf_plies = plies

    def proved_count(self) -> int:
        return int(self.dfpn.proved_count)

    def disproved_count(self) -> int:
        return int(self.dfpn.disproved_count)

    def resets(self) -> int:
        return int(self.dfpn.resets)


def solve(
    position: Position, goal: str, depth: int, profile: DrawProfile | str | None = None, budget: Budget | None = None
) -> Proof:
    """Convenience: ``DfpnSolver(position.variant, profile, budget).solve(position, goal, depth)``."""
    return DfpnSolver(position.variant, profile, budget).solve(position, Stipulation.parse(goal), depth)
