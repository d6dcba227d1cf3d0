# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled puzzle-search kernels: ``Solver.forced`` (search.py) and df-pn's ``_mid`` (dfpn.py) in C.

They run on the rules kernel (generator/rules/_core.pyx), which they ``cimport`` through
_core.pxd: the move generator's C methods and move stack, the Zobrist keys.  The searches choose
this kernel or their pure-Python reference once, when they are built (generator/puzzles/kernel.py);
both give the same answers in the same number of nodes (tests/search/test_dfpn_kernel.py,
tests/search/test_compiled_solver.py, tests/rules/test_core.py).
"""

from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset
from cpython.long cimport PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong
from cpython.exc cimport PyErr_CheckSignals

from generator.rules._core cimport (
    BLACK,
    lowbit128,
    WHITE,
    CMove,
    MAXSQ,
    Core,
    Zobrist,
    as128,
    check_turn,
    popcount128,
    py128,
    u128,
)

cdef enum:
    NEVER = 1 << 30
    GOAL_WIN = 0
    GOAL_GAIN = 1
    GOAL_PROMOTE = 2

ctypedef struct TTEntry:       # 16 bytes: four to a cache line, none across two
    unsigned long long key
    short proven        # fewest plies known to force the goal (packed, see _pack)
    short refuted       # most plies known not to
    short best          # index of the move that decided it last
    unsigned char used


ctypedef struct LeafSlice:      # one stored endgame slice, for the leaves of the win goal
    int state                   # 0 not stored, 1 stored (not loaded yet), 2 loaded
    const unsigned char* results
    const unsigned char* dist
    int width
    unsigned long long size, wk_ways, bk_ways
    const unsigned long long* offsets

cdef enum:
    PREFETCHED = 32             # children whose table slots a node fetches ahead (the first ones)

cdef enum:
    LEAF_CODES = 6561           # material codes ((wm * 9 + wk) * 9 + bm) * 9 + bk
    BINOM_N = 65

cdef unsigned long long BINOM[BINOM_N][10]

cdef void _fill_binomials() noexcept:
    cdef int n, k
    for n in range(BINOM_N):
        for k in range(10):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]

_fill_binomials()


cdef inline unsigned long long rank_subset(unsigned long long mask, unsigned long long free) noexcept nogil:
    """Colex rank of the squares ``mask`` among ``free`` (generator/endgame/index.py)."""
    cdef unsigned long long r = 0, low
    cdef int i = 1
    while mask:
        low = mask & (~mask + 1)
        r += BINOM[__builtin_popcountll(free & (low - 1))][i]
        i += 1
        mask ^= low
    return r


cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A zeroed table.  From 2 MB on, on Linux, aligned to and advised for huge pages: the tables
       are probed at random, and with 4 KB pages nearly every probe of a large one also misses the
       TLB.  (A third of a Turkish book's proof time was the table lookup's first load; huge pages,
       16-byte entries and the children's slots fetched ahead cut its proofs' CPU time by a fifth:
       bench/README.md.) */
    static void* damas_table_alloc(size_t bytes) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        const size_t huge = (size_t)2 << 20;
        if (bytes >= huge) {
            void* p = NULL;
            if (posix_memalign(&p, huge, bytes) != 0) return NULL;
            madvise(p, bytes, MADV_HUGEPAGE);
            memset(p, 0, bytes);
            return p;
        }
    #endif
        return calloc(1, bytes);
    }
    #if defined(__GNUC__) || defined(__clang__)
    #define damas_prefetch(p) __builtin_prefetch((p))
    #else
    #define damas_prefetch(p) ((void)0)
    #endif
    """
    void* damas_table_alloc(size_t bytes) nogil
    void damas_prefetch(const void* p) nogil


cdef inline short _pack(int v) noexcept nogil:
    """A table bound in 16 bits: plies are small; NEVER and -NEVER keep their meaning."""
    if v >= 32767:
        return 32767
    if v <= -32767:
        return -32767
    return <short>v


cdef inline int _unpack(short v) noexcept nogil:
    if v == 32767:
        return NEVER
    if v == -32767:
        return -NEVER
    return v


class NodeLimitReached(Exception):
    """The proof search reached its node limit before deciding (the answer is undecided)."""


cdef class Prover:
    """The inner loop of ``generator.puzzles.search.Solver.forced`` in C: a bounded AND-OR search
    with a transposition table, for the goals ``win``, ``gain`` and ``promote`` (not ``draw``, which
    needs the game history).

    It makes the same decisions in the same order as the Python ``forced`` (same move order, same
    table policy: per hash the fewest plies known to force the goal, the most known not to, and
    the deciding move's index), so it proves the same things in the same number of nodes.

    ``Prover(core, zobrist, losing, quiescence)``; then ``prepare(goal, pieces, attacker,
    root_balance, root_kings)`` (clears the table) and ``forced(white, black, kings, turn, plies,
    h=None)`` as often as needed.  ``nodes`` counts every call; ``node_limit`` (0: none) makes
    ``forced`` raise ``NodeLimitReached`` when reached.
    """

    cdef Core core
    cdef Zobrist zob
    cdef bint losing
    cdef int quiescence
    cdef int goal, pieces, attacker, root_balance, root_kings
    cdef public long long nodes
    cdef public long long node_limit
    cdef public object tick
    """Called (no arguments) when ``nodes`` reaches ``next_tick``: a budget or progress check,
    which may raise to stop the search (the exception comes out of ``forced``)."""
    cdef public long long next_tick
    cdef TTEntry* table
    cdef size_t tmask, tcount
    cdef public long long table_cap
    """Positions the table may hold (0: no bound); full, it starts over (``resets`` counts it)."""
    cdef public long long resets
    cdef int leaf_pieces
    """The most pieces of a stored endgame slice (0: the tables are not consulted)."""
    cdef object leaf_loader
    """``loader(material)`` -> the slice's buffers (generator/puzzles/leaves.py), or None."""
    cdef LeafSlice* slices
    cdef dict leaf_keep         # the Python buffers behind ``slices``
    cdef signed char dense_of[128]
    cdef unsigned long long d_full, d_men[2]
    cdef unsigned long long hist[2][MAXSQ][MAXSQ]
    """Search.Solver.history: per side to move, origin and destination, the weight of the nodes
    that move decided (the move order after the table's best)."""
    cdef int* order             # _order's buffers, beside the move stack
    cdef unsigned long long* scores
    cdef size_t ocap

    def __cinit__(self):
        self.table = NULL
        self.order = NULL
        self.scores = NULL
        self.ocap = 0
        self.leaf_pieces = 0
        self.leaf_loader = None
        self.slices = <LeafSlice*>calloc(LEAF_CODES, sizeof(LeafSlice))
        if self.slices == NULL:
            raise MemoryError()
        self.leaf_keep = {}

    def __init__(self, Core core, Zobrist zobrist, bint losing, int quiescence):
        self.core = core
        self.zob = zobrist
        self.losing = losing
        self.quiescence = quiescence
        self.nodes = 0
        self.node_limit = 0
        self.tick = None
        self.next_tick = 0
        self._alloc(1 << 14)

    def __dealloc__(self):
        free(self.table)
        free(self.slices)
        free(self.order)
        free(self.scores)

    cdef int _alloc(self, size_t size) except -1:
        cdef TTEntry* t = <TTEntry*>damas_table_alloc(size * sizeof(TTEntry))  # zeroed: every slot unused
        if t == NULL:
            raise MemoryError()
        free(self.table)
        self.table = t
        self.tmask = size - 1
        self.tcount = 0
        return 0

    cdef TTEntry* _find(self, unsigned long long key) noexcept nogil:
        cdef size_t i = <size_t>(key ^ (key >> 29)) & self.tmask
        while self.table[i].used:
            if self.table[i].key == key:
                return &self.table[i]
            i = (i + 1) & self.tmask
        return NULL

    cdef int _store(self, unsigned long long key, int proven, int refuted, int best) except -1:
        cdef TTEntry* old
        cdef size_t i, n
        if self.table_cap and self.tcount >= <size_t>self.table_cap and self._find(key) == NULL:
            self._alloc(1 << 14)  # full: start over, as Solver.forced does (generator/puzzles/memory.py)
            self.resets += 1
        if 2 * (self.tcount + 1) > self.tmask + 1:  # grow at half full
            old = self.table
            n = self.tmask + 1
            self.table = NULL
            self._alloc(2 * n)
            for i in range(n):
                if old[i].used:
                    self._store(old[i].key, _unpack(old[i].proven), _unpack(old[i].refuted), old[i].best)
            free(old)
        i = <size_t>(key ^ (key >> 29)) & self.tmask
        while self.table[i].used and self.table[i].key != key:
            i = (i + 1) & self.tmask
        if not self.table[i].used:
            self.table[i].used = 1
            self.table[i].key = key
            self.tcount += 1
        self.table[i].proven = _pack(proven)
        self.table[i].refuted = _pack(refuted)
        self.table[i].best = <short>best
        return 0

    def prepare(self, str goal, int pieces, int attacker, int root_balance, int root_kings):
        """Fix the stipulation and the root's material; clear the table."""
        self.goal = {"win": GOAL_WIN, "gain": GOAL_GAIN, "promote": GOAL_PROMOTE}[goal]
        self.pieces = pieces
        self.attacker = attacker
        self.root_balance = root_balance
        self.root_kings = root_kings
        memset(self.hist, 0, sizeof(self.hist))
        if self.tcount or self.tmask + 1 != (1 << 14):
            self._alloc(1 << 14)

    def set_leaves(self, int pieces, bytes codes=b"", bytes dense=b"", unsigned long long full=0,
                   unsigned long long white_men=0, unsigned long long black_men=0, loader=None):
        """Consult the stored endgame tables at the positions of at most ``pieces`` pieces (0: never)
        whose material has a 1 in ``codes``: ``dense[sq]`` is the tables' square of engine square
        ``sq`` (255: none), ``full`` and ``*_men`` the tables' masks of every square and of the squares
        a man of each colour may stand on, ``loader(material)`` the slice's buffers when first
        needed (generator/puzzles/leaves.py, which also holds the pure reference of this probe)."""
        cdef int i
        self.leaf_pieces = pieces
        self.leaf_loader = loader
        self.leaf_keep = {}
        for i in range(LEAF_CODES):
            self.slices[i].state = 1 if i < len(codes) and codes[i] else 0
        for i in range(128):
            self.dense_of[i] = <signed char>(dense[i] if i < len(dense) and dense[i] != 255 else -1)
        self.d_full, self.d_men[0], self.d_men[1] = full, white_men, black_men

    cdef inline unsigned long long _dense(self, u128 x) noexcept nogil:
        cdef unsigned long long out = 0
        cdef int sq
        while x:
            sq = lowbit128(x)
            out |= (<unsigned long long>1) << self.dense_of[sq]
            x &= x - 1
        return out

    cdef int _load(self, int code, int wm, int wk, int bm, int bk) except -1:
        """Attach a stored slice's buffers (state 2), or mark it missing (state 0)."""
        got = self.leaf_loader((wm, wk, bm, bk))
        if got is None:
            self.slices[code].state = 0
            return 0
        results, dist, width, size, offsets, wk_ways, bk_ways = got
        cdef const unsigned char[::1] rv = results
        cdef const unsigned char[::1] dv = dist
        cdef const unsigned char[::1] ov = offsets
        self.leaf_keep[code] = got
        self.slices[code].results = &rv[0]
        self.slices[code].dist = &dv[0]
        self.slices[code].offsets = <const unsigned long long*>&ov[0]
        self.slices[code].width = width
        self.slices[code].size = size
        self.slices[code].wk_ways = wk_ways
        self.slices[code].bk_ways = bk_ways
        self.slices[code].state = 2
        return 0

    cdef int _leaf(self, u128 w, u128 b, u128 k, int turn, int* proven, int* refuted) except -1:
        """``generator.puzzles.leaves.win_leaf`` in C: 1 with the tables' bounds for the attacker, 0
        when no stored slice holds the position."""
        cdef int wm, wk, bm, bk, code, result, n, ext
        cdef unsigned long long dw, db, dk, wmen, bmen, free, wkings, i, men
        cdef unsigned int d
        cdef LeafSlice* sl
        n = popcount128(w | b)
        if n > self.leaf_pieces:
            return 0
        wk = popcount128(w & k)
        bk = popcount128(b & k)
        wm = popcount128(w) - wk
        bm = popcount128(b) - bk
        if wm > 8 or wk > 8 or bm > 8 or bk > 8:
            return 0
        code = ((wm * 9 + wk) * 9 + bm) * 9 + bk
        sl = &self.slices[code]
        if sl.state == 0:
            return 0
        dw, db, dk = self._dense(w), self._dense(b), self._dense(k)
        wmen, bmen = dw & ~dk, db & ~dk
        if (wmen & ~self.d_men[0]) or (bmen & ~self.d_men[1]):
            return 0  # a man on its own crowning row: no position of the tables
        if sl.state == 1:
            self._load(code, wm, wk, bm, bk)
            if sl.state != 2:
                return 0
        men = sl.offsets[rank_subset(wmen, self.d_men[0])] + rank_subset(bmen, self.d_men[1] & ~wmen)
        free = self.d_full & ~(wmen | bmen)
        wkings = dw & dk
        i = (men * sl.wk_ways + rank_subset(wkings, free)) * sl.bk_ways + rank_subset(db & dk, free & ~wkings)
        i += <unsigned long long>turn * sl.size
        result = (sl.results[i >> 2] >> ((i & 3) * 2)) & 3
        d = sl.dist[i] if sl.width == 1 else (sl.dist[2 * i] | (sl.dist[2 * i + 1] << 8))
        if result != (1 if turn == self.attacker else 2):  # WIN / LOSS for the side to move
            proven[0], refuted[0] = NEVER, NEVER
            return 1
        proven[0] = <int>d if d else -NEVER
        ext = min(self.quiescence, n - 1)
        if <int>d > ext:
            refuted[0] = <int>d - ext - 1
        elif d > 0:
            refuted[0] = <int>d - self.quiescence - 1
        else:
            refuted[0] = -NEVER
        return 1

    def hash(self, white, black, kings, int turn):
        """The Zobrist hash of a position with this prover's keys."""
        return self.zob.hash(white, black, kings, turn)

    @property
    def table_size(self):
        return self.tcount

    def forced(self, white, black, kings, int turn, int plies, h=None):
        """Can the attacker force the goal from this position within ``plies`` (plus quiescence)?"""
        cdef u128 w, b, k
        cdef unsigned long long hh
        cdef int top = self.core.top
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        hh = PyLong_AsUnsignedLongLongMask(self.zob.hash(white, black, kings, turn) if h is None else h)
        try:
            return bool(self._forced(w, b, k, turn, plies, hh))
        finally:
            self.core.top = top

    def expand(self, white, black, kings, int turn, h):
        """A df-pn node in one call: ``(decided, captures, children)``.

        ``decided`` is what ``Solver._achieved`` says of the position (True / False: the node
        decides the goal by itself, None: search on); ``children`` is one ``(white, black, kings,
        turn, hash, replies)`` per legal move in the order of ``moves()``, ``replies`` being the
        child's legal move count (df-pn's initial proof numbers); empty when decided.
        """
        cdef u128 w, b, k, w2, b2, k2
        cdef int start = self.core.top, n, i, d, c
        cdef unsigned long long hh, ch
        cdef bint captures
        cdef list out = []
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        hh = PyLong_AsUnsignedLongLongMask(h)
        try:
            n = self.core._generate(w, b, k, turn, 1)
            captures = n > 0 and self.core.stack[start].captures != 0
            d = self._achieved(w, b, k, turn, n, captures)
            if d != -1:
                return bool(d), captures, out
            for i in range(n):
                w2, b2, k2 = w, b, k
                self.core._apply(&self.core.stack[start + i], &w2, &b2, &k2, turn)
                ch = self.zob._after(hh, k, turn, &self.core.stack[start + i])
                c = self.core._count(w2, b2, k2, turn ^ 1, 1)
                out.append((py128(w2), py128(b2), py128(k2), turn ^ 1, PyLong_FromUnsignedLongLong(ch), c))
            return None, captures, out
        finally:
            self.core.top = start

    cdef int _achieved(self, u128 w, u128 b, u128 k, int turn, int n, bint captures) noexcept nogil:
        """Search.Solver._achieved: 1 / 0 when this node decides the goal by itself, -1 to search on."""
        cdef u128 mine
        cdef int balance
        if n == 0:
            return (turn == self.attacker) == self.losing
        if self.goal == GOAL_WIN or captures:
            return -1
        mine = w if self.attacker == WHITE else b
        if self.goal == GOAL_GAIN:
            balance = popcount128(w) - popcount128(b)
            if self.attacker != WHITE:
                balance = -balance
            return 1 if balance - self.root_balance >= self.pieces else -1
        return 1 if popcount128(mine & k) > self.root_kings else -1

    cdef int _order(self, int start, int n, int turn, int best) except -1:
        """Put in ``order[start:start + n]`` the order in which the node whose moves are
        ``core.stack[start:start + n]`` tries them (Search.Solver._order): the move that decided it
        at a smaller depth first, then the others by their history, ties in the generator's order.
        (The buffers run beside the move stack, so that each node of the recursion has its own.)"""
        cdef int j, q, m = 0, first = 1 if best < n else 0
        cdef unsigned long long score
        cdef size_t cap
        cdef int* order
        cdef unsigned long long* scores
        if <size_t>(start + n) > self.ocap:
            cap = max(2 * self.ocap, <size_t>(start + n + 256))
            order = <int*>realloc(self.order, cap * sizeof(int))
            if order == NULL:
                raise MemoryError()
            self.order = order
            scores = <unsigned long long*>realloc(self.scores, cap * sizeof(unsigned long long))
            if scores == NULL:
                raise MemoryError()
            self.scores, self.ocap = scores, cap
        order, scores = self.order + start, self.scores + start
        if first:
            order[0] = best
            m = 1
        for j in range(n):
            if j == best:
                continue
            score = self.hist[turn][self.core.stack[start + j].origin][self.core.stack[start + j].dest]
            q = m
            while q > first and scores[q - 1] < score:  # an insertion sort: stable, and n is small
                order[q] = order[q - 1]
                scores[q] = scores[q - 1]
                q -= 1
            order[q] = j
            scores[q] = score
            m += 1
        return 0

    cdef int _forced(self, u128 w, u128 b, u128 k, int turn, int plies, unsigned long long h) except -1:
        cdef TTEntry* e
        cdef int proven = NEVER, refuted = -NEVER, best = 0, found = 0, bound, decided, wanted, j, i, n, start
        cdef int lp, lr, hashed
        cdef unsigned long long kids[PREFETCHED]
        cdef bint captures
        cdef u128 w2, b2, k2, me, opp
        cdef unsigned long long ch
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise NodeLimitReached(f"node limit {self.node_limit} reached")
        if (self.nodes & 4095) == 0 and PyErr_CheckSignals() < 0:  # Ctrl-C stops a long proof
            return -1
        if self.tick is not None and self.nodes >= self.next_tick:
            self.tick()
        start = self.core.top
        n = -1
        if plies <= 0:
            # at the horizon a quiet position decides the goal by itself: no table (Solver.search)
            me, opp = w, b
            if turn != WHITE:
                me, opp = b, w
            n = self.core._captures(me, opp, k, turn, w | b, 1, 1)
            if n == 0:
                return self._achieved(w, b, k, turn, self.core._has_quiet(me, k, turn, w | b), 0) == 1
        e = self._find(h)
        if e != NULL:
            proven, refuted, best, found = _unpack(e.proven), _unpack(e.refuted), e.best, 1
            if plies >= proven or plies <= refuted:
                self.core.top = start
                return 1 if plies >= proven else 0
        if self.leaf_pieces and self._leaf(w, b, k, turn, &lp, &lr):
            # the endgame tables' bounds, merged with what the table knew
            proven = min(proven, lp)
            refuted = max(refuted, lr)
            if plies >= proven or plies <= refuted:
                self.core.top = start
                self._store(h, proven, refuted, best)
                return 1 if plies >= proven else 0
        if n < 0:
            n = self.core._generate(w, b, k, turn, 1)
        captures = n > 0 and self.core.stack[start].captures != 0
        decided = self._achieved(w, b, k, turn, n, captures)
        if not found:
            best = 0
        if decided == -1 and plies <= 0 and not (captures and plies > -self.quiescence):
            decided = 0
            bound = plies
        elif decided != -1:
            bound = NEVER
        else:
            wanted = turn == self.attacker
            decided = not wanted
            # the children's hashes now, and their table slots fetched while the first is searched
            hashed = n if n < PREFETCHED else PREFETCHED
            for i in range(hashed):
                kids[i] = self.zob._after(h, k, turn, &self.core.stack[start + i])
                damas_prefetch(&self.table[<size_t>(kids[i] ^ (kids[i] >> 29)) & self.tmask])
            self._order(start, n, turn, best)
            for j in range(n):
                i = self.order[start + j]  # (re-read: the children may move the buffer)
                w2, b2, k2 = w, b, k
                self.core._apply(&self.core.stack[start + i], &w2, &b2, &k2, turn)
                ch = kids[i] if i < hashed else self.zob._after(h, k, turn, &self.core.stack[start + i])
                if self._forced(w2, b2, k2, turn ^ 1, plies - 1, ch) == wanted:
                    decided = wanted
                    best = i
                    self.hist[turn][self.core.stack[start + i].origin][self.core.stack[start + i].dest] += (
                        plies * plies if plies > 0 else 1
                    )
                    break
            bound = plies
        self.core.top = start
        if decided:
            proven = min(proven, bound if bound != NEVER else -NEVER)
        else:
            refuted = max(refuted, bound)
        self._store(h, proven, refuted, best)
        return decided


# -- df-pn --------------------------------------------------------------------------------------------

cdef enum:
    TABLE_START = 1 << 14

cdef long long DFPN_INF = 1LL << 40

ctypedef struct Kid:
    u128 w
    u128 b
    u128 k
    unsigned long long h
    int turn
    int n               # the child's legal move count (at least 1): df-pn's initial numbers

ctypedef struct DNode:
    int decided         # 1 / 0: the node decides the goal by itself; -1: search on
    int floor           # the fewest plies at which the bound does not cut the node off
    int refs            # _mid frames using the node (an evicted node is freed when this drops to 0)
    int orphan          # evicted from the table while in use
    int nkids
    Kid* kids

ctypedef struct HashEntry:  # per position (Zobrist hash)
    unsigned long long key
    int used
    int proven          # the fewest plies known to force the goal; NEVER when unknown
    int disproven       # the most plies known not to; -NEVER when unknown
    DNode* node         # the expanded node kept for re-entry, or NULL

ctypedef struct WorkEntry:  # per (hash, plies) of a node still open: its proof and disproof numbers
    unsigned long long key
    int plies
    int used
    int live
    long long pn
    long long dn

cdef inline size_t slot(unsigned long long key, size_t mask) noexcept nogil:
    return <size_t>(key ^ (key >> 29)) & mask


cdef class Dfpn:
    """``generator.puzzles.dfpn.DfpnSolver``'s search in C, over a ``Prover`` (whose ``_forced``
    settles the leaves and whose ``_achieved`` and node counter it shares).

    It is the Python ``_mid`` / ``_expand`` / ``_select`` / ``_settle`` transcribed: the same
    tables (proven / disproven per hash, proof and disproof numbers per (hash, plies), expanded
    nodes kept for re-entry and dropped all at once past ``expanded_limit`` nodes and children;
    the proof and work tables start over past ``pd_cap`` and ``work_cap`` entries), the same child
    order, the same 1+epsilon thresholds (epsilon = 1/4, in integers), the same node count; so it
    decides the same nodes in the same order, and a differential test holds it to that.
    """

    cdef Prover prover
    cdef public int leaf_plies
    cdef int expanded_limit
    cdef public long long proved_count, disproved_count
    cdef HashEntry* pd
    cdef size_t pd_mask, pd_count
    cdef size_t nodes_count     # entries holding an expanded node
    cdef WorkEntry* work
    cdef size_t work_mask, work_count
    cdef size_t units           # expanded nodes and their children kept (the expanded-node bound)
    cdef public long long pd_cap, work_cap
    """Entries the proof table and the work table may hold (0: no bound); full, one starts over."""
    cdef public long long resets

    def __cinit__(self):
        self.pd = NULL
        self.work = NULL

    def __init__(self, Prover prover, int leaf_plies, int expanded_limit):
        self.prover = prover
        self.leaf_plies = leaf_plies
        self.expanded_limit = expanded_limit
        self.clear()

    def __dealloc__(self):
        self._drop_nodes()
        free(self.pd)
        free(self.work)

    def clear(self):
        """Forget everything (a new stipulation or root)."""
        self._drop_nodes()
        self._alloc_pd(TABLE_START)
        self._alloc_work(TABLE_START)
        self.proved_count = 0
        self.disproved_count = 0

    # -- tables -------------------------------------------------------------------------------------

    cdef int _alloc_pd(self, size_t size) except -1:
        cdef HashEntry* t = <HashEntry*>damas_table_alloc(size * sizeof(HashEntry))  # zeroed: every slot unused
        if t == NULL:
            raise MemoryError()
        free(self.pd)
        self.pd, self.pd_mask, self.pd_count = t, size - 1, 0
        return 0

    cdef HashEntry* _pd_slot(self, unsigned long long key) except NULL:
        """The entry of ``key``, created (unknown both ways, no node) when missing.  Growing the
        table moves entries: a pointer from an earlier lookup is stale after this call."""
        cdef HashEntry* old
        cdef size_t i, n
        if self.pd_cap and self.pd_count >= <size_t>self.pd_cap and self._pd_find(key) == NULL:
            self._drop_nodes()  # full: start over (nodes in use are freed by their frames)
            self._alloc_pd(TABLE_START)
            self.resets += 1
        if 2 * (self.pd_count + 1) > self.pd_mask + 1:
            old, n = self.pd, self.pd_mask + 1
            self.pd = NULL
            self._alloc_pd(2 * n)
            for i in range(n):
                if old[i].used:
                    self._pd_slot(old[i].key)[0] = old[i]
            free(old)
        i = slot(key, self.pd_mask)
        while self.pd[i].used and self.pd[i].key != key:
            i = (i + 1) & self.pd_mask
        if not self.pd[i].used:
            self.pd[i].used = 1
            self.pd[i].key = key
            self.pd[i].proven = NEVER
            self.pd[i].disproven = -NEVER
            self.pd[i].node = NULL
            self.pd_count += 1
        return &self.pd[i]

    cdef inline HashEntry* _pd_find(self, unsigned long long key) noexcept nogil:
        cdef size_t i = slot(key, self.pd_mask)
        while self.pd[i].used:
            if self.pd[i].key == key:
                return &self.pd[i]
            i = (i + 1) & self.pd_mask
        return NULL

    cdef int _alloc_work(self, size_t size) except -1:
        cdef WorkEntry* t = <WorkEntry*>damas_table_alloc(size * sizeof(WorkEntry))  # zeroed: every slot unused
        if t == NULL:
            raise MemoryError()
        free(self.work)
        self.work, self.work_mask, self.work_count = t, size - 1, 0
        return 0

    cdef inline size_t _work_hash(self, unsigned long long key, int plies) noexcept nogil:
        return slot(key ^ (<unsigned long long>(plies + 64) * 0x9E3779B97F4A7C15ULL), self.work_mask)

    cdef inline WorkEntry* _work_find(self, unsigned long long key, int plies) noexcept nogil:
        cdef size_t i = self._work_hash(key, plies)
        while self.work[i].used:
            if self.work[i].key == key and self.work[i].plies == plies:
                return &self.work[i] if self.work[i].live else NULL
            i = (i + 1) & self.work_mask
        return NULL

    cdef size_t _work_slot(self, unsigned long long key, int plies) noexcept nogil:
        """The slot of (key, plies), live or not, or the free slot where it would go."""
        cdef size_t i = self._work_hash(key, plies)
        while self.work[i].used and not (self.work[i].key == key and self.work[i].plies == plies):
            i = (i + 1) & self.work_mask
        return i

    cdef int _work_put(self, unsigned long long key, int plies, long long pn, long long dn) except -1:
        cdef WorkEntry* old
        cdef size_t i, n
        if self.work_cap and self.work_count >= <size_t>self.work_cap and not self.work[self._work_slot(key, plies)].used:
            self._alloc_work(TABLE_START)  # full: start over, as DfpnSolver._put_work does
            self.resets += 1
        if 2 * (self.work_count + 1) > self.work_mask + 1:
            old, n = self.work, self.work_mask + 1
            self.work = NULL
            self._alloc_work(2 * n)
            for i in range(n):  # settled entries too: the count is every (key, plies) stored, as in Python
                if old[i].used:
                    self.work[self._work_slot(old[i].key, old[i].plies)] = old[i]
                    self.work_count += 1
            free(old)
        i = self._work_slot(key, plies)
        if not self.work[i].used:
            self.work[i].used = 1
            self.work[i].key = key
            self.work[i].plies = plies
            self.work_count += 1
        self.work[i].live = 1
        self.work[i].pn = pn
        self.work[i].dn = dn
        return 0

    cdef void _work_pop(self, unsigned long long key, int plies) noexcept nogil:
        cdef WorkEntry* e = self._work_find(key, plies)
        if e != NULL:
            e.live = 0

    cdef void _drop_nodes(self) noexcept nogil:
        """Forget every expanded node (the proofs stay); nodes still used by a ``_mid`` frame are
        freed by that frame."""
        cdef size_t i
        cdef DNode* d
        if self.pd == NULL:
            return
        for i in range(self.pd_mask + 1):
            d = self.pd[i].node if self.pd[i].used else NULL
            if d != NULL:
                if d.refs:
                    d.orphan = 1
                else:
                    free(d.kids)
                    free(d)
                self.pd[i].node = NULL
        self.nodes_count = 0
        self.units = 0

    cdef inline DNode* _node_find(self, unsigned long long key) noexcept nogil:
        cdef HashEntry* e = self._pd_find(key)
        return e.node if e != NULL else NULL

    cdef int _node_put(self, unsigned long long key, DNode* d) except -1:
        cdef HashEntry* e = self._pd_slot(key)
        if e.node == NULL:
            self.nodes_count += 1
            self.units += 1 + d.nkids
        e.node = d
        return 0

    # -- what Python reads ----------------------------------------------------------------------------

    def proven_at(self, h):
        """The fewest plies known to force the goal from the position hashed ``h``, or None."""
        cdef HashEntry* e = self._pd_find(PyLong_AsUnsignedLongLongMask(h))
        return None if e == NULL or e.proven == NEVER else e.proven

    def disproven_at(self, h):
        """The most plies known not to force it, or None."""
        cdef HashEntry* e = self._pd_find(PyLong_AsUnsignedLongLongMask(h))
        return None if e == NULL or e.disproven == -NEVER else e.disproven

    def known(self, h, int plies):
        """True / False when the tables decide (h, plies), else None."""
        cdef HashEntry* e = self._pd_find(PyLong_AsUnsignedLongLongMask(h))
        if e != NULL:
            if plies >= e.proven:
                return True
            if plies <= e.disproven:
                return False
        return None

    @property
    def expanded_count(self):
        return self.nodes_count

    def search(self, white, black, kings, int turn, int plies, h):
        """Run df-pn on (position, plies) with infinite thresholds: until it is decided."""
        cdef u128 w, b, k
        cdef int top = self.prover.core.top
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        try:
            self._mid(w, b, k, turn, PyLong_AsUnsignedLongLongMask(h), plies, DFPN_INF, DFPN_INF)
        finally:
            self.prover.core.top = top

    # -- the search -----------------------------------------------------------------------------------

    cdef inline void _prove(self, unsigned long long h, int at) except *:
        cdef HashEntry* e = self._pd_slot(h)
        self.proved_count += 1
        if at < e.proven:
            e.proven = at

    cdef inline void _disprove(self, unsigned long long h, int at) except *:
        cdef HashEntry* e = self._pd_slot(h)
        self.disproved_count += 1
        if at > e.disproven:
            e.disproven = at

    cdef bint _table_leaf(self, u128 w, u128 b, u128 k, int turn, unsigned long long h, int plies) except -1:
        """DfpnSolver._table_leaf: record what the endgame tables say; 1 when that decides the node."""
        cdef int proven, refuted
        if not self.prover._leaf(w, b, k, turn, &proven, &refuted):
            return 0
        if proven != NEVER:
            self._prove(h, proven)
        self._disprove(h, refuted)
        return plies >= proven or plies <= refuted

    cdef DNode* _expand(self, u128 w, u128 b, u128 k, int turn, unsigned long long h) except NULL:
        cdef Core core = self.prover.core
        cdef int start = core.top, n, i, d
        cdef bint captures
        cdef u128 w2, b2, k2
        cdef DNode* node = <DNode*>malloc(sizeof(DNode))
        if node == NULL:
            raise MemoryError()
        node.refs = 0
        node.orphan = 0
        node.nkids = 0
        node.kids = NULL
        try:
            n = core._generate(w, b, k, turn, 1)
            captures = n > 0 and core.stack[start].captures != 0
            d = self.prover._achieved(w, b, k, turn, n, captures)
            node.decided = d
            if d != -1:
                node.floor = 0
            else:
                node.floor = -self.prover.quiescence + 1 if captures else 1
                node.kids = <Kid*>malloc(max(n, 1) * sizeof(Kid))
                if node.kids == NULL:
                    raise MemoryError()
                node.nkids = n
                for i in range(n):
                    w2, b2, k2 = w, b, k
                    core._apply(&core.stack[start + i], &w2, &b2, &k2, turn)
                    node.kids[i].w = w2
                    node.kids[i].b = b2
                    node.kids[i].k = k2
                    node.kids[i].turn = turn ^ 1
                    node.kids[i].h = self.prover.zob._after(h, k, turn, &core.stack[start + i])
                for i in range(n):  # counting reuses the move stack above this node's moves
                    node.kids[i].n = max(1, core._count(node.kids[i].w, node.kids[i].b, node.kids[i].k, turn ^ 1, 1))
        except BaseException:
            free(node.kids)
            free(node)
            raise
        finally:
            core.top = start
        if self.units >= <size_t>self.expanded_limit:  # a node and each child count one
            self._drop_nodes()
        self._node_put(h, node)
        return node

    cdef int _tick(self) except -1:
        cdef Prover p = self.prover
        p.nodes += 1
        if (p.nodes & 4095) == 0 and PyErr_CheckSignals() < 0:
            return -1
        if p.tick is not None and p.nodes >= p.next_tick:
            p.tick()
        return 0

    cdef int _mid(self, u128 w, u128 b, u128 k, int turn, unsigned long long h, int plies,
                  long long thpn, long long thdn) except -1:
        cdef DNode* node
        cdef int won, start
        self._tick()
        if self.prover.leaf_pieces and self._table_leaf(w, b, k, turn, h, plies):
            return 0
        node = self._node_find(h)
        if node == NULL:
            node = self._expand(w, b, k, turn, h)
        if node.decided == 1:
            self._prove(h, -NEVER)
            return 0
        if node.decided == 0:
            self._disprove(h, NEVER)
            return 0
        if plies < node.floor:
            self._disprove(h, node.floor - 1)
            return 0
        if plies <= self.leaf_plies:
            # near the bound the plain depth-first search is cheaper than proof numbers
            start = self.prover.core.top
            try:
                won = self.prover._forced(w, b, k, turn, plies, h)
            finally:
                self.prover.core.top = start
            if won:
                self._prove(h, plies)
            else:
                self._disprove(h, plies)
            return 0
        node.refs += 1
        try:
            self._iterate(node, h, plies, turn == self.prover.attacker, thpn, thdn)
        finally:
            node.refs -= 1
            if node.refs == 0 and node.orphan:
                free(node.kids)
                free(node)
        return 0

    cdef int _iterate(self, DNode* node, unsigned long long h, int plies, bint attacker,
                      long long thpn, long long thdn) except -1:
        """The body of ``_mid`` for an open node: select and search children until a threshold."""
        cdef int n = node.nkids, below = plies - 1, i, index
        cdef long long pn, dn, best, second, v, other, cthpn, cthdn
        cdef long long* pns = <long long*>malloc(2 * max(n, 1) * sizeof(long long))
        cdef long long* dns
        cdef HashEntry* e
        cdef WorkEntry* we
        cdef Kid* kid
        if pns == NULL:
            raise MemoryError()
        dns = pns + max(n, 1)
        try:
            while True:
                for i in range(n):
                    kid = &node.kids[i]
                    e = self._pd_find(kid.h)
                    if e != NULL and below >= e.proven:
                        pns[i], dns[i] = 0, DFPN_INF
                    elif e != NULL and below <= e.disproven:
                        pns[i], dns[i] = DFPN_INF, 0
                    else:
                        we = self._work_find(kid.h, below)
                        if we != NULL:
                            pns[i], dns[i] = we.pn, we.dn
                        elif attacker:
                            pns[i], dns[i] = kid.n, 1
                        else:
                            pns[i], dns[i] = 1, kid.n
                if attacker:
                    pn, dn = DFPN_INF + 1, 0
                    for i in range(n):
                        pn = min(pn, pns[i])
                        dn += dns[i]
                    dn = min(DFPN_INF, dn)
                else:
                    pn, dn = 0, DFPN_INF + 1
                    for i in range(n):
                        pn += pns[i]
                        dn = min(dn, dns[i])
                    pn = min(DFPN_INF, pn)
                if pn == 0 or dn == 0:
                    self._work_pop(h, plies)
                    self._settle(node, h, plies, attacker, pn == 0)
                    return 0
                self._work_put(h, plies, pn, dn)
                if pn >= thpn or dn >= thdn:
                    return 0
                # the most-proving child and its thresholds (Nagai's rule, 1+epsilon)
                best = second = DFPN_INF + 1
                index = 0
                for i in range(n):
                    v = pns[i] if attacker else dns[i]
                    if v < best:
                        best, second, index = v, best, i
                    elif v < second:
                        second = v
                other = dns[index] if attacker else pns[index]
                second = DFPN_INF if second >= DFPN_INF else (second * 5) // 4 + 1
                if attacker:
                    cthpn = min(thpn, second)
                    cthdn = DFPN_INF if thdn >= DFPN_INF else min(DFPN_INF, thdn - dn + other)
                else:
                    cthdn = min(thdn, second)
                    cthpn = DFPN_INF if thpn >= DFPN_INF else min(DFPN_INF, thpn - pn + other)
                kid = &node.kids[index]
                self._mid(kid.w, kid.b, kid.k, kid.turn, kid.h, below, cthpn, cthdn)
        finally:
            free(pns)

    cdef int _settle(self, DNode* node, unsigned long long h, int plies, bint attacker, bint won) except -1:
        """Record a decided node with the widest depth range its children justify."""
        cdef int i, at = 0, v
        cdef HashEntry* e
        for i in range(node.nkids):
            e = self._pd_find(node.kids[i].h)
            if won:
                v = e.proven if e != NULL else NEVER
            else:
                v = e.disproven if e != NULL else -NEVER
            if i == 0 or (v < at if attacker else v > at):
                at = v
        at += 1
        if won:
            self._prove(h, min(plies, max(node.floor, at)))
        else:
            self._disprove(h, max(plies, max(at, node.floor - 1)))
        return 0
