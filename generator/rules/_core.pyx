# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled move generator: the algorithm of ``movegen.py`` in C, on 128-bit bit sets.

Read ``movegen.py`` first: this file has the same structure (quiet moves by whole-board shifts, a
depth-first capture search that makes and unmakes on local bit sets, the precedence law as a
comparable key) and the same square indices (the padded grid of ``geometry.py``, up to 110 bits on
10x10, hence ``unsigned __int128``).  It reads its tables from a pure-Python ``MoveGenerator`` of
the same variant record, so the rules stay data in one place.

Results are identical to the pure engine *including order*: moves come out in the order the pure
generator lists them, so a search that remembers "the move at index i" behaves the same on both.

Inside, moves live on one growing stack of ``CMove`` records (a ply's moves are a slice of it), so
perft and ``children`` never build Python ``Move`` objects.
"""

from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy
from cpython.long cimport PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong
from cpython.exc cimport PyErr_CheckSignals
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from generator.rules.move import Move
from generator.rules.variants import CapturePromotion, Precedence, Removal

cdef extern from *:
    """
    typedef unsigned __int128 u128;
    static inline int popcount128(u128 x) {
        return __builtin_popcountll((unsigned long long)x) + __builtin_popcountll((unsigned long long)(x >> 64));
    }
    static inline int lowbit128(u128 x) {
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    static inline u128 bit128(int sq) { return ((u128)1) << sq; }
    static inline u128 make128(unsigned long long lo, unsigned long long hi) { return (((u128)hi) << 64) | lo; }
    static inline unsigned long long lo64(u128 x) { return (unsigned long long)x; }
    static inline unsigned long long hi64(u128 x) { return (unsigned long long)(x >> 64); }
    static inline u128 shift128(u128 x, int s) { return s > 0 ? x << s : x >> (-s); }
    static inline int has128(u128 x, int sq) { return (int)((x >> sq) & 1); }
    """
    # Cython sees an integer type; the C compiler gets the real 128-bit one.  Never let Cython
    # convert a u128 to a Python object by itself (it would truncate): use py128 / as128.
    ctypedef unsigned long long u128
    int popcount128(u128 x) nogil
    int lowbit128(u128 x) nogil
    u128 bit128(int sq) nogil
    u128 make128(unsigned long long lo, unsigned long long hi) nogil
    unsigned long long lo64(u128 x) nogil
    unsigned long long hi64(u128 x) nogil
    u128 shift128(u128 x, int s) nogil
    int has128(u128 x, int sq) nogil

cdef enum:
    MAXSQ = 128     # padded grid bits (10x10: 110)
    MAXRAY = 12     # longest ray on a 10x10 board is 9
    MAXPATH = 32    # squares of one capture route (at most 20 captures + origin on 10x10)
    WHITE = 0
    BLACK = 1

cdef enum:          # capture promotion, as CapturePromotion
    PASS_THROUGH = 0
    PROMOTE_AND_CONTINUE = 1
    PROMOTE_AND_STOP = 2

cdef enum:          # precedence, as Precedence
    FREE = 0
    MOST_PIECES = 1
    MOST_PIECES_THEN_KINGS = 2
    ITALIAN = 3

ctypedef struct CMove:
    u128 captures
    signed char origin
    signed char dest
    unsigned char king          # the moving piece was a king
    unsigned char promotes      # the moving man is a king after the move
    unsigned char crowned       # crowned on the way (promote-and-continue)
    unsigned char ncap
    unsigned char npath
    signed char path[MAXPATH]
    signed char captured[MAXPATH]


cdef inline int as128(object x, u128* out) except -1:
    """A Python int (a bit set) as u128."""
    cdef unsigned long long lo = PyLong_AsUnsignedLongLongMask(x)
    cdef unsigned long long hi = PyLong_AsUnsignedLongLongMask(x >> 64)
    out[0] = make128(lo, hi)
    return 0


cdef inline int check_turn(int turn) except -1:
    if turn != WHITE and turn != BLACK:
        raise ValueError(f"turn must be 0 (white) or 1 (black), not {turn}")
    return 0


cdef inline object py128(u128 x):
    """A u128 bit set as a Python int."""
    cdef unsigned long long hi = hi64(x)
    if hi == 0:
        return PyLong_FromUnsignedLongLong(lo64(x))
    return (PyLong_FromUnsignedLongLong(hi) << 64) | PyLong_FromUnsignedLongLong(lo64(x))


cdef tuple small_ints(signed char* squares, int n):
    """A tuple of the ``n`` squares."""
    cdef tuple t = PyTuple_New(n)
    cdef int i
    cdef object o
    for i in range(n):
        o = squares[i]
        Py_INCREF(o)
        PyTuple_SET_ITEM(t, i, o)
    return t


cdef inline unsigned int kings_order(CMove* m, u128 opp_kings) noexcept nogil:
    """FID's "kings met earliest" (movegen._kings_order): bit 31 - i per king in capture order."""
    cdef unsigned int order = 0
    cdef int i
    for i in range(m.ncap):
        if has128(opp_kings, m.captured[i]):
            order |= (<unsigned int>1) << (31 - i)
    return order


cdef class Core:
    """Moves, counts, application and perft for one variant, on ``(white, black, kings, turn)``.

    Built from a pure ``MoveGenerator`` (``Core(pure_generator)``) whose tables it copies.
    """

    cdef readonly object variant
    cdef int size
    cdef u128 mask
    cdef u128 promo[2]
    cdef int shifts[4]
    cdef signed char nb[4][MAXSQ]
    cdef signed char jump_victim[4][MAXSQ]
    cdef signed char jump_land[4][MAXSQ]
    cdef signed char ray[4][MAXSQ][MAXRAY]
    cdef unsigned char raylen[4][MAXSQ]
    cdef int man_steps[2][4]
    cdef int n_man_steps[2]
    cdef int man_jumps[2][4]
    cdef int n_man_jumps[2]
    cdef int king_dirs[4]
    cdef bint flying, immediate, men_take_kings
    cdef int precedence, capture_promotion

    # the move stack: a ply's moves are stack[start:top]
    cdef CMove* stack
    cdef int capacity
    cdef int top

    # state of the capture search in progress (see _search)
    cdef u128 s_opp, s_opp_kings, s_promo
    cdef int s_origin, s_base
    cdef bint s_merge
    cdef int* s_man_dirs
    cdef int s_n_man_dirs
    cdef signed char s_path[MAXPATH]
    cdef int s_npath
    cdef signed char s_cap[MAXPATH]
    cdef int s_ncap

    def __cinit__(self):
        self.stack = NULL
        self.capacity = 0
        self.top = 0

    def __init__(self, gen):
        cdef int d, sq, t, i
        g = gen.geometry
        self.variant = gen.variant
        self.size = g.size
        if self.size > MAXSQ:
            raise ValueError(f"board of {self.size} bits is too large for the compiled core")
        as128(gen.mask, &self.mask)
        as128(gen.promotion_mask[0], &self.promo[0])
        as128(gen.promotion_mask[1], &self.promo[1])
        for d in range(4):
            self.shifts[d] = gen.shifts[d]
            self.king_dirs[d] = gen.king_dirs[d]
            for sq in range(MAXSQ):
                self.nb[d][sq] = -1
                self.jump_victim[d][sq] = -1
                self.jump_land[d][sq] = -1
                self.raylen[d][sq] = 0
            for sq in range(self.size):
                self.nb[d][sq] = gen.neighbours[d][sq]
                jump = gen.short_jumps[d][sq]
                if jump is not None:
                    self.jump_victim[d][sq] = jump[0]
                    self.jump_land[d][sq] = jump[1]
                ray = gen.rays[d][sq]
                self.raylen[d][sq] = len(ray)
                for i in range(len(ray)):
                    self.ray[d][sq][i] = ray[i]
        for t in range(2):
            self.n_man_steps[t] = len(gen.man_steps[t])
            for i in range(len(gen.man_steps[t])):
                self.man_steps[t][i] = gen.man_steps[t][i]
            self.n_man_jumps[t] = len(gen.man_jumps[t])
            for i in range(len(gen.man_jumps[t])):
                self.man_jumps[t][i] = gen.man_jumps[t][i]
        self.flying = gen.flying
        self.immediate = gen.immediate
        self.men_take_kings = gen.men_take_kings
        self.capture_promotion = {
            CapturePromotion.PASS_THROUGH: PASS_THROUGH,
            CapturePromotion.PROMOTE_AND_CONTINUE: PROMOTE_AND_CONTINUE,
            CapturePromotion.PROMOTE_AND_STOP: PROMOTE_AND_STOP,
        }[gen.capture_promotion]
        self.precedence = {
            Precedence.FREE: FREE,
            Precedence.MOST_PIECES: MOST_PIECES,
            Precedence.MOST_PIECES_THEN_KINGS: MOST_PIECES_THEN_KINGS,
            Precedence.ITALIAN: ITALIAN,
        }[gen.precedence]
        self._reserve(1024)

    def __dealloc__(self):
        free(self.stack)

    cdef int _reserve(self, int need) except -1:
        """Room for ``need`` more moves above ``top`` (the stack only grows)."""
        cdef int cap
        cdef CMove* grown
        if self.top + need <= self.capacity:
            return 0
        cap = max(self.capacity * 2, self.top + need + 256)
        grown = <CMove*>realloc(self.stack, cap * sizeof(CMove))
        if grown == NULL:
            raise MemoryError()
        self.stack = grown
        self.capacity = cap
        return 0

    # -- quiet moves (movegen.quiet_moves) -----------------------------------------------------------

    cdef int _quiet(self, u128 me, u128 kings, int turn, u128 empty) except -1:
        """Push every quiet move; return how many."""
        cdef u128 men = me & ~kings, kk = me & kings, targets, promo = self.promo[turn]
        cdef int n = 0, i, d, s, to, k, j
        cdef CMove* m
        for i in range(self.n_man_steps[turn]):
            s = self.shifts[self.man_steps[turn][i]]
            targets = shift128(men, s) & empty
            while targets:
                to = lowbit128(targets)
                targets &= targets - 1
                self._push_quiet(to - s, to, 0, has128(promo, to))
                n += 1
        if kk:
            if self.flying:
                while kk:
                    k = lowbit128(kk)
                    kk &= kk - 1
                    for d in range(4):
                        for j in range(self.raylen[d][k]):
                            to = self.ray[d][k][j]
                            if not has128(empty, to):
                                break
                            self._push_quiet(k, to, 1, 0)
                            n += 1
            else:
                for d in range(4):
                    s = self.shifts[d]
                    targets = shift128(kk, s) & empty
                    while targets:
                        to = lowbit128(targets)
                        targets &= targets - 1
                        self._push_quiet(to - s, to, 1, 0)
                        n += 1
        return n

    cdef inline int _push_quiet(self, int origin, int dest, int king, int promotes) except -1:
        cdef CMove* m
        if self.top >= self.capacity:
            self._reserve(1)
        m = &self.stack[self.top]
        self.top += 1
        m.captures = 0
        m.origin = origin
        m.dest = dest
        m.king = king
        m.promotes = promotes
        m.crowned = 0
        m.ncap = 0
        m.npath = 2
        m.path[0] = origin
        m.path[1] = dest
        return 0

    cdef int _count_quiet(self, u128 me, u128 kings, int turn, u128 occ) noexcept nogil:
        """How many quiet moves there are (bulk counting, movegen.count)."""
        cdef u128 empty = self.mask & ~occ, men = me & ~kings, kk = me & kings
        cdef int n = 0, i, d, k, j
        for i in range(self.n_man_steps[turn]):
            n += popcount128(shift128(men, self.shifts[self.man_steps[turn][i]]) & empty)
        if kk:
            if self.flying:
                while kk:
                    k = lowbit128(kk)
                    kk &= kk - 1
                    for d in range(4):
                        for j in range(self.raylen[d][k]):
                            if has128(occ, self.ray[d][k][j]):
                                break
                            n += 1
            else:
                for d in range(4):
                    n += popcount128(shift128(kk, self.shifts[d]) & empty)
        return n

    # -- captures (movegen.capture_starts, captures, _search, _preferred) ----------------------------

    cdef u128 _capture_starts(self, u128 me, u128 opp, u128 kings, int turn, u128 occ) noexcept nogil:
        cdef u128 empty = self.mask & ~occ, men = me & ~kings, kk = me & kings, starts = 0
        cdef u128 victims = opp if self.men_take_kings else opp & ~kings
        cdef int i, s
        for i in range(self.n_man_jumps[turn]):
            s = self.shifts[self.man_jumps[turn][i]]
            starts |= men & shift128(victims, -s) & shift128(empty, -(s + s))
        if kk:
            if self.flying:
                starts |= kk
            else:
                for i in range(4):
                    s = self.shifts[i]
                    starts |= kk & shift128(opp, -s) & shift128(empty, -(s + s))
        return starts

    cdef int _captures(self, u128 me, u128 opp, u128 kings, int turn, u128 occ, bint merge, bint precedence) except -1:
        """Push every complete capture the precedence law allows (all with ``precedence=False``);
        return how many."""
        cdef u128 starts = self._capture_starts(me, opp, kings, turn, occ)
        cdef u128 low
        cdef int base = self.top, i, n
        cdef CMove* m
        if not starts:
            return 0
        self.s_opp = opp
        self.s_opp_kings = opp & kings
        self.s_promo = self.promo[turn]
        self.s_base = base
        self.s_merge = merge
        self.s_man_dirs = self.man_jumps[turn]
        self.s_n_man_dirs = self.n_man_jumps[turn]
        while starts:
            self.s_origin = lowbit128(starts)
            low = bit128(self.s_origin)
            starts &= starts - 1
            self.s_path[0] = self.s_origin
            self.s_npath = 1
            self.s_ncap = 0
            self._extend(self.s_origin, has128(kings, self.s_origin), 0, 0, occ & ~low, -2)
        n = self.top - base
        if n == 0:
            return 0
        for i in range(base, self.top):
            m = &self.stack[i]
            m.king = has128(kings, m.origin)
            m.promotes = not m.king and (m.crowned or has128(self.s_promo, m.dest))
        if precedence and n > 1 and self.precedence != FREE:
            n = self._preferred(base, kings)
        return n

    cdef int _extend(self, int sq, bint king, bint crowned, u128 capmask, u128 occupied, int last) except -1:
        """Try every next jump from ``sq``; record finished sequences; 1 if any jump exists."""
        cdef bint jumped = 0, goes_on, now_king, now_crowned
        cdef u128 victims = self.s_opp & ~capmask, vbit, after, newmask
        cdef int* dirs = self.s_man_dirs
        cdef int ndirs = self.s_n_man_dirs
        cdef int di, d, i, n, victim, land, k, nl, nends, r
        cdef signed char lands[MAXRAY]
        cdef signed char ends[MAXRAY]
        cdef unsigned char end_crowned[MAXRAY]
        if king:
            dirs = &self.king_dirs[0]
            ndirs = 4
        elif not self.men_take_kings:
            victims &= ~self.s_opp_kings
        for di in range(ndirs):
            d = dirs[di]
            if d == (last ^ 1):  # no 180-degree turn between two jumps (docs/spec.md §1.5)
                continue
            if king and self.flying:
                n = self.raylen[d][sq]
                i = 0
                while i < n and not has128(occupied, self.ray[d][sq][i]):
                    i += 1
                if i + 1 >= n:
                    continue
                victim = self.ray[d][sq][i]
                if not has128(victims, victim):
                    continue
                vbit = bit128(victim)
                after = occupied & ~vbit if self.immediate else occupied
                nl = 0
                i += 1
                while i < n and not has128(after, self.ray[d][sq][i]):
                    lands[nl] = self.ray[d][sq][i]
                    nl += 1
                    i += 1
                if nl == 0:
                    continue
            else:
                victim = self.jump_victim[d][sq]
                if victim < 0:
                    continue
                land = self.jump_land[d][sq]
                if not has128(victims, victim) or has128(occupied, land):
                    continue
                vbit = bit128(victim)
                after = occupied & ~vbit if self.immediate else occupied
                lands[0] = land
                nl = 1
            jumped = 1
            newmask = capmask | vbit
            self.s_cap[self.s_ncap] = victim
            self.s_ncap += 1
            nends = 0
            goes_on = 0
            for k in range(nl):
                land = lands[k]
                now_king = king
                now_crowned = crowned
                if not king and has128(self.s_promo, land):
                    if self.capture_promotion == PROMOTE_AND_STOP:  # crowning ends the move
                        ends[nends] = land
                        end_crowned[nends] = 1
                        nends += 1
                        continue
                    if self.capture_promotion == PROMOTE_AND_CONTINUE:  # Russian 1.5.15
                        now_king = 1
                        now_crowned = 1
                self.s_path[self.s_npath] = land
                self.s_npath += 1
                r = self._extend(land, now_king, now_crowned, newmask, after, d)
                self.s_npath -= 1
                if r:
                    goes_on = 1
                elif not goes_on:
                    ends[nends] = land
                    end_crowned[nends] = now_crowned
                    nends += 1
            # A flying king must land where it can jump on, if such a square exists (§1.7).
            if not goes_on:
                for k in range(nends):
                    self._record(ends[k], newmask, end_crowned[k])
            self.s_ncap -= 1
        return jumped

    cdef int _record(self, int dest, u128 capmask, bint crowned) except -1:
        """Keep one finished sequence, merging routes with the same (origin, destination, captured
        set) unless ``merge`` is off; the Italian law keeps the route that meets kings earliest."""
        cdef int i
        cdef CMove* m
        if self.s_merge:
            for i in range(self.s_base, self.top):
                m = &self.stack[i]
                if m.origin == self.s_origin and m.dest == dest and m.captures == capmask:
                    if self.precedence == ITALIAN:
                        self._replace_if_earlier(m, dest, crowned)
                    return 0
        if self.top >= self.capacity:
            self._reserve(1)
        m = &self.stack[self.top]
        self.top += 1
        self._fill(m, dest, capmask, crowned)
        return 0

    cdef void _fill(self, CMove* m, int dest, u128 capmask, bint crowned) noexcept nogil:
        m.captures = capmask
        m.origin = self.s_origin
        m.dest = dest
        m.crowned = crowned
        m.ncap = self.s_ncap
        m.npath = self.s_npath + 1
        memcpy(m.path, self.s_path, self.s_npath)
        m.path[self.s_npath] = dest
        memcpy(m.captured, self.s_cap, self.s_ncap)

    cdef void _replace_if_earlier(self, CMove* m, int dest, bint crowned) noexcept nogil:
        cdef CMove tmp
        tmp.ncap = self.s_ncap
        memcpy(tmp.captured, self.s_cap, self.s_ncap)
        if kings_order(&tmp, self.s_opp_kings) > kings_order(m, self.s_opp_kings):
            self._fill(m, dest, m.captures, crowned)

    cdef unsigned long long _score(self, CMove* m, u128 kings) noexcept nogil:
        """The precedence key as one number (movegen._preferred, _italian_key)."""
        cdef unsigned long long pieces = popcount128(m.captures)
        if self.precedence == MOST_PIECES:
            return pieces
        if self.precedence == MOST_PIECES_THEN_KINGS:
            return (pieces << 8) | <unsigned long long>popcount128(m.captures & self.s_opp_kings)
        return (
            (pieces << 40)
            | (<unsigned long long>has128(kings, m.origin) << 39)
            | (<unsigned long long>popcount128(m.captures & self.s_opp_kings) << 32)
            | kings_order(m, self.s_opp_kings)
        )

    cdef int _preferred(self, int base, u128 kings) noexcept nogil:
        """Keep (in order) only the sequences with the best precedence key; return how many."""
        cdef unsigned long long best = 0, sc
        cdef int i, out = base
        for i in range(base, self.top):
            sc = self._score(&self.stack[i], kings)
            if sc > best:
                best = sc
        for i in range(base, self.top):
            if self._score(&self.stack[i], kings) == best:
                if i != out:
                    self.stack[out] = self.stack[i]
                out += 1
        self.top = out
        return out - base

    # -- whole positions ----------------------------------------------------------------------------

    cdef int _generate(self, u128 white, u128 black, u128 kings, int turn, bint merge) except -1:
        """Push the legal moves; return how many (movegen.moves)."""
        cdef u128 me = white if turn == WHITE else black
        cdef u128 opp = black if turn == WHITE else white
        cdef u128 occ = white | black
        cdef int n = self._captures(me, opp, kings, turn, occ, merge, 1)
        if n:
            return n
        return self._quiet(me, kings, turn, self.mask & ~occ)

    cdef long long _count(self, u128 white, u128 black, u128 kings, int turn, bint merge) except -1:
        """The number of legal moves, quiet ones counted in bulk (movegen.count)."""
        cdef u128 me = white if turn == WHITE else black
        cdef u128 opp = black if turn == WHITE else white
        cdef u128 occ = white | black
        cdef int base = self.top
        cdef int n = self._captures(me, opp, kings, turn, occ, merge, 1)
        self.top = base
        if n:
            return n
        return self._count_quiet(me, kings, turn, occ)

    cdef bint _has_moves(self, u128 white, u128 black, u128 kings, int turn) except -1:
        cdef u128 me = white if turn == WHITE else black
        cdef u128 opp = black if turn == WHITE else white
        cdef u128 occ = white | black
        cdef u128 empty = self.mask & ~occ, men = me & ~kings, kk = me & kings
        cdef int i, base = self.top, n
        for i in range(self.n_man_steps[turn]):
            if shift128(men, self.shifts[self.man_steps[turn][i]]) & empty:
                return 1
        for i in range(4):  # a king with an empty neighbour can always step there
            if shift128(kk, self.shifts[i]) & empty:
                return 1
        if not self._capture_starts(me, opp, kings, turn, occ):
            return 0
        n = self._captures(me, opp, kings, turn, occ, 1, 0)
        self.top = base
        return n > 0

    cdef inline void _apply(self, CMove* m, u128* w, u128* b, u128* k, int turn) noexcept nogil:
        """movegen.apply on u128 sets, in place."""
        cdef u128 fb = bit128(m.origin), tb = bit128(m.dest), cap = m.captures
        cdef u128 was_king = k[0] & fb
        if turn == WHITE:
            w[0] = (w[0] ^ fb) | tb
            b[0] &= ~cap
        else:
            b[0] = (b[0] ^ fb) | tb
            w[0] &= ~cap
        k[0] &= ~cap  # first: with immediate removal a piece may end on a square it captured
        if was_king:
            k[0] = (k[0] ^ fb) | tb
        elif m.promotes:
            k[0] |= tb

    cdef long long _perft(self, u128 w, u128 b, u128 k, int turn, int depth, bint merge) except -1:
        cdef int start, n, i
        cdef long long total = 0
        cdef u128 w2, b2, k2
        if depth == 1:
            return self._count(w, b, k, turn, merge)
        if depth >= 4 and PyErr_CheckSignals() < 0:  # Ctrl-C stops a long perft
            return -1
        start = self.top
        n = self._generate(w, b, k, turn, merge)
        for i in range(start, start + n):
            w2, b2, k2 = w, b, k
            self._apply(&self.stack[i], &w2, &b2, &k2, turn)
            total += self._perft(w2, b2, k2, turn ^ 1, depth - 1, merge)
        self.top = start
        return total

    cdef CMove* _take(self, int start, int n) except? NULL:
        """Move the ``n`` moves at ``start`` off the stack into a new buffer (freed by the caller),
        before any Python code runs: another caller (a thread, a finalizer) may then use the stack."""
        cdef CMove* out = <CMove*>malloc(max(n, 1) * sizeof(CMove))
        if out == NULL:
            self.top = start
            raise MemoryError()
        memcpy(out, &self.stack[start], n * sizeof(CMove))
        self.top = start
        return out

    cdef object _move_object(self, CMove* m):
        """A ``Move`` (generator/rules/move.py) for a CMove."""
        cdef object origin = m.origin, dest = m.dest
        if m.ncap == 0:
            return Move(origin, dest, 0, (origin, dest), (), bool(m.king), bool(m.promotes))
        return Move(
            origin,
            dest,
            py128(m.captures),
            small_ints(m.path, m.npath),
            small_ints(m.captured, m.ncap),
            bool(m.king),
            bool(m.promotes),
        )

    # -- the Python API (the same as movegen.MoveGenerator) --------------------------------------------

    def moves(self, white, black, kings, int turn, *, bint merge=True):
        """Every legal move (``Move`` objects, in the pure generator's order); ``merge=False`` keeps
        one move per capture route."""
        cdef u128 w, b, k
        cdef int start = self.top, n, i
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        n = self._generate(w, b, k, turn, merge)
        cdef CMove* mine = self._take(start, n)
        try:
            return [self._move_object(&mine[i]) for i in range(n)]
        finally:
            free(mine)

    def count(self, white, black, kings, int turn):
        """``len(self.moves(...))`` without building moves."""
        cdef u128 w, b, k
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        return self._count(w, b, k, turn, 1)

    def has_moves(self, white, black, kings, int turn):
        """True when the side to move has at least one legal move."""
        cdef u128 w, b, k
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        return bool(self._has_moves(w, b, k, turn))

    def apply(self, white, black, kings, int turn, move):
        """The position after ``move`` (a legal ``Move``), with the turn passed."""
        cdef CMove m
        cdef u128 w, b, k
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        m.origin = move.origin
        m.dest = move.dest
        as128(move.captures, &m.captures)
        m.promotes = move.promotes
        self._apply(&m, &w, &b, &k, turn)
        return py128(w), py128(b), py128(k), turn ^ 1

    def perft(self, white, black, kings, int turn, int depth, *, bint all_paths=False):
        """Leaf count ``depth`` plies below the position, the last ply counted in bulk."""
        cdef u128 w, b, k
        cdef int start
        if depth < 0:
            raise ValueError("depth must be at least 0")
        if depth == 0:
            return 1
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        start = self.top
        try:
            return self._perft(w, b, k, turn, depth, not all_paths)
        finally:
            self.top = start

    def children(self, white, black, kings, int turn, Zobrist zobrist=None, h=0):
        """The fast path for searches: ``(captures, [(white, black, kings, turn, hash), ...])``.

        One entry per legal move, in the order of ``moves()`` (so index i here is ``moves()[i]``);
        ``captures`` is True when the moves are captures.  With a ``Zobrist`` table and the hash
        ``h`` of this position, each child carries its hash (``zobrist.after``); otherwise 0.
        """
        cdef u128 w, b, k, w2, b2, k2
        cdef int start = self.top, n, i
        cdef unsigned long long hh = 0, ch
        cdef bint captures
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        if zobrist is not None:
            hh = PyLong_AsUnsignedLongLongMask(h)
        n = self._generate(w, b, k, turn, 1)
        cdef CMove* mine = self._take(start, n)
        try:
            captures = n > 0 and mine[0].captures != 0
            out = []
            for i in range(n):
                w2, b2, k2 = w, b, k
                self._apply(&mine[i], &w2, &b2, &k2, turn)
                ch = zobrist._after(hh, k, turn, &mine[i]) if zobrist is not None else 0
                out.append((py128(w2), py128(b2), py128(k2), turn ^ 1, PyLong_FromUnsignedLongLong(ch)))
            return captures, out
        finally:
            free(mine)


cdef class Zobrist:
    """Zobrist keys in C: ``Zobrist(keys, black_to_move)`` with ``keys[kind][square]`` (kinds: white
    man, white king, black man, black king), the same tables as ``generator.puzzles.search._Zobrist``,
    so the hashes are equal to the pure ones."""

    cdef unsigned long long keys[4][MAXSQ]
    cdef unsigned long long black_to_move

    def __init__(self, keys, black_to_move):
        cdef int kind, sq
        if len(keys) != 4 or any(len(row) > MAXSQ for row in keys):
            raise ValueError("expected four rows of at most 128 keys")
        for kind in range(4):
            for sq in range(MAXSQ):
                self.keys[kind][sq] = keys[kind][sq] if sq < len(keys[kind]) else 0
        self.black_to_move = black_to_move

    def hash(self, white, black, kings, int turn):
        """The hash of a position."""
        cdef u128 w, b, k, bits
        cdef u128 sets[4]
        cdef unsigned long long h = self.black_to_move if turn else 0
        cdef int sq, kind
        as128(white, &w)
        as128(black, &b)
        as128(kings, &k)
        check_turn(turn)
        sets[0] = w & ~k
        sets[1] = w & k
        sets[2] = b & ~k
        sets[3] = b & k
        for kind in range(4):
            bits = sets[kind]
            while bits:
                sq = lowbit128(bits)
                bits &= bits - 1
                h ^= self.keys[kind][sq]
        return PyLong_FromUnsignedLongLong(h)

    cdef unsigned long long _after(self, unsigned long long h, u128 kings, int turn, CMove* m) noexcept nogil:
        cdef int own = 2 * turn, other = 2 - own, i, sq
        cdef int was_king = has128(kings, m.origin)
        h ^= self.keys[own + was_king][m.origin]
        h ^= self.keys[own + (1 if was_king or m.promotes else 0)][m.dest]
        for i in range(m.ncap):
            sq = m.captured[i]
            h ^= self.keys[other + has128(kings, sq)][sq]
        return h ^ self.black_to_move

    def after(self, h, state, move):
        """The hash after ``move`` from the hash ``h`` of ``state`` (as ``_Zobrist.after``)."""
        cdef CMove m
        cdef u128 k
        cdef int i
        as128(state[2], &k)
        check_turn(state[3])
        m.origin = move.origin
        m.dest = move.dest
        m.promotes = move.promotes
        captured = move.captured
        m.ncap = len(captured)
        for i in range(m.ncap):
            m.captured[i] = captured[i]
        return PyLong_FromUnsignedLongLong(self._after(PyLong_AsUnsignedLongLongMask(h), k, state[3], &m))


# -- the proof search kernel ------------------------------------------------------------------------

cdef enum:
    NEVER = 1 << 30
    GOAL_WIN = 0
    GOAL_GAIN = 1
    GOAL_PROMOTE = 2

ctypedef struct TTEntry:
    unsigned long long key
    int proven          # fewest plies known to force the goal
    int refuted         # most plies known not to
    int best            # index of the move that decided it last
    int used


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

    def __cinit__(self):
        self.table = NULL

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

    cdef int _alloc(self, size_t size) except -1:
        cdef TTEntry* t = <TTEntry*>malloc(size * sizeof(TTEntry))
        cdef size_t i
        if t == NULL:
            raise MemoryError()
        for i in range(size):
            t[i].used = 0
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
                    self._store(old[i].key, old[i].proven, old[i].refuted, old[i].best)
            free(old)
        i = <size_t>(key ^ (key >> 29)) & self.tmask
        while self.table[i].used and self.table[i].key != key:
            i = (i + 1) & self.tmask
        if not self.table[i].used:
            self.table[i].used = 1
            self.table[i].key = key
            self.tcount += 1
        self.table[i].proven = proven
        self.table[i].refuted = refuted
        self.table[i].best = best
        return 0

    def prepare(self, str goal, int pieces, int attacker, int root_balance, int root_kings):
        """Fix the stipulation and the root's material; clear the table."""
        self.goal = {"win": GOAL_WIN, "gain": GOAL_GAIN, "promote": GOAL_PROMOTE}[goal]
        self.pieces = pieces
        self.attacker = attacker
        self.root_balance = root_balance
        self.root_kings = root_kings
        if self.tcount or self.tmask + 1 != (1 << 14):
            self._alloc(1 << 14)

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

    cdef int _forced(self, u128 w, u128 b, u128 k, int turn, int plies, unsigned long long h) except -1:
        cdef TTEntry* e
        cdef int proven = NEVER, refuted = -NEVER, best = 0, found = 0, bound, decided, wanted, j, i, n, start
        cdef bint captures
        cdef u128 w2, b2, k2
        cdef unsigned long long ch
        self.nodes += 1
        if self.node_limit and self.nodes > self.node_limit:
            raise NodeLimitReached(f"node limit {self.node_limit} reached")
        if (self.nodes & 4095) == 0 and PyErr_CheckSignals() < 0:  # Ctrl-C stops a long proof
            return -1
        if self.tick is not None and self.nodes >= self.next_tick:
            self.tick()
        e = self._find(h)
        if e != NULL:
            if plies >= e.proven:
                return 1
            if plies <= e.refuted:
                return 0
            proven, refuted, best, found = e.proven, e.refuted, e.best, 1
        start = self.core.top
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
            # the move that decided this position at a smaller depth first, then the others in order
            wanted = turn == self.attacker
            decided = not wanted
            for j in range(n):
                if best < n:
                    i = best if j == 0 else (j - 1 if j - 1 < best else j)
                else:
                    i = j
                w2, b2, k2 = w, b, k
                self.core._apply(&self.core.stack[start + i], &w2, &b2, &k2, turn)
                ch = self.zob._after(h, k, turn, &self.core.stack[start + i])
                if self._forced(w2, b2, k2, turn ^ 1, plies - 1, ch) == wanted:
                    decided = wanted
                    best = i
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
        cdef HashEntry* t = <HashEntry*>calloc(size, sizeof(HashEntry))  # zeroed: every slot unused
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
        cdef WorkEntry* t = <WorkEntry*>calloc(size, sizeof(WorkEntry))  # zeroed: every slot unused
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
