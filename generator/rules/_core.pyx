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
from cpython.long cimport PyLong_FromUnsignedLongLong
from cpython.exc cimport PyErr_CheckSignals
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from generator.rules.move import Move
from generator.rules.switches import CapturePromotion, Precedence, Removal


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

    Built from a pure ``MoveGenerator`` (``Core(pure_generator)``) whose tables it copies.  Its
    C-level fields and methods are declared in _core.pxd (the search kernels use them).
    """

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

    cdef int _push_quiet(self, int origin, int dest, int king, int promotes) except -1:
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
                starts |= self._flying_starts(kk, opp, occ)
            else:
                for i in range(4):
                    s = self.shifts[i]
                    starts |= kk & shift128(opp, -s) & shift128(empty, -(s + s))
        return starts

    cdef u128 _flying_starts(self, u128 kk, u128 opp, u128 occ) noexcept nogil:
        """The flying kings of ``kk`` that can capture: along some ray the first piece is an
        opponent's with an empty square right behind it (the first jump of ``_extend``).  Exact, so
        that a position without captures, most of a search's horizon, costs no capture search."""
        cdef u128 out = 0
        cdef int k, d, i, n
        while kk:
            k = lowbit128(kk)
            kk &= kk - 1
            for d in range(4):
                n = self.raylen[d][k]
                i = 0
                while i < n and not has128(occ, self.ray[d][k][i]):
                    i += 1
                if i + 1 < n and has128(opp, self.ray[d][k][i]) and not has128(occ, self.ray[d][k][i + 1]):
                    out |= bit128(k)
                    break
        return out

    cdef bint _has_quiet(self, u128 me, u128 kings, int turn, u128 occ) noexcept nogil:
        """Has the side ``me`` a quiet move?  (A king with an empty neighbour can always step there.)"""
        cdef u128 empty = self.mask & ~occ, men = me & ~kings, kk = me & kings
        cdef int i
        for i in range(self.n_man_steps[turn]):
            if shift128(men, self.shifts[self.man_steps[turn][i]]) & empty:
                return 1
        for i in range(4):
            if shift128(kk, self.shifts[i]) & empty:
                return 1
        return 0

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
        cdef int base = self.top, n
        if self._has_quiet(me, kings, turn, occ):
            return 1
        if not self._capture_starts(me, opp, kings, turn, occ):
            return 0
        n = self._captures(me, opp, kings, turn, occ, 1, 0)
        self.top = base
        return n > 0

    cdef void _apply(self, CMove* m, u128* w, u128* b, u128* k, int turn) noexcept nogil:
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
