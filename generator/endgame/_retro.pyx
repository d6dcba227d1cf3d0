# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled endgame kernel: moves, the perfect index and the retrograde solver of one slice, in C.

Read ``board.py``, ``index.py`` and ``retro.py`` first: this file computes the same things faster.

* Squares are the dense squares of ``board.py`` (0..n-1 in the engine's bit order), so a position is
  three 64-bit masks.  The move generator is ``generator/rules/movegen.py``'s algorithm on those
  masks (same capture search, same order of exploration, same precedence laws), reduced to what the
  tables need: the position after each legal move.  Tests compare it with the engine on random
  positions of every variant.
* The index is ``index.py``'s, number for number (tests compare them).
* The solver is a retrograde analysis by levels (see :meth:`Kernel.solve`), where the pure
  reference (``retro.py``) iterates forwards; tests compare their tables on small slices.
"""

from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from cpython.exc cimport PyErr_CheckSignals

ctypedef uint64_t u64

cdef extern from *:
    """
    static inline int popc(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int lowb(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int popc(u64 x) nogil
    int lowb(u64 x) nogil

cdef enum:
    MAXSQ = 64
    MAXRAY = 12
    MAXPIECES = 8       # per position; captures in one move are fewer
    MAXFOUND = 512      # distinct capture sequences of one position
    MAXCHILD = 640      # legal moves of one position
    CODES = 6561        # 9 ** 4 material codes (0..8 of each kind)
    INF = 65535

cdef enum:              # results as stored: for the side to move
    R_DRAW = 0
    R_WIN = 1
    R_LOSS = 2

cdef enum:              # the solver's working states
    S_UNKNOWN = 0
    S_PEND_WIN = 1
    S_PEND_LOSS = 2
    S_WIN = 3
    S_LOSS = 4
    S_DRAW = 5
    S_EXIT_DRAW = 8     # flag: a move out of the slice draws

cdef enum:              # as board.PRECEDENCE_CODES / PROMOTION_CODES
    FREE = 0
    MOST_PIECES = 1
    MOST_PIECES_THEN_KINGS = 2
    ITALIAN = 3
    PASS_THROUGH = 0
    PROMOTE_AND_CONTINUE = 1
    PROMOTE_AND_STOP = 2

cdef u64 BINOM[MAXSQ + 1][MAXPIECES + 2]


cdef void _fill_binomials() noexcept:
    cdef int n, k
    for n in range(MAXSQ + 1):
        for k in range(MAXPIECES + 2):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_fill_binomials()


ctypedef struct Rules:
    int size
    u64 full
    u64 promo[2]
    u64 menok[2]
    signed char nb[4][MAXSQ]
    signed char ray[4][MAXSQ][MAXRAY]
    unsigned char raylen[4][MAXSQ]
    int man_steps[2][4]
    int n_man_steps[2]
    int man_jumps[2][4]
    int n_man_jumps[2]
    int flying, immediate, men_take_kings, precedence, capture_promotion, losing


ctypedef struct Found:
    u64 capmask
    int origin
    int dest
    int crowned
    int ncap
    signed char captured[MAXPIECES]


ctypedef struct Search:
    Rules* r
    u64 opp
    u64 opp_kings
    u64 promo
    int origin
    int* man_dirs
    int n_man_dirs
    signed char cap[MAXPIECES]
    int ncap
    Found found[MAXFOUND]
    int nfound
    int overflow


ctypedef struct Child:
    u64 w
    u64 b
    u64 k
    int changes         # 1 when the material changes (a capture or a crowning)


ctypedef struct Index:
    int wm, wk, bm, bk
    u64 size            # positions with one side to move
    u64 wk_ways
    u64 bk_ways
    u64 n_white
    u64* offsets        # n_white + 1 entries


ctypedef struct Table:
    int present
    Index* index
    const uint8_t* results
    const uint8_t* dist
    int width


# -- combinations ------------------------------------------------------------------------------------

cdef inline u64 rank_subset(u64 mask, u64 free) noexcept nogil:
    """Colex rank of the squares ``mask`` among ``free`` (index.rank_subset)."""
    cdef u64 r = 0, low
    cdef int i = 1
    while mask:
        low = mask & (~mask + 1)
        r += BINOM[popc(free & (low - 1))][i]
        i += 1
        mask ^= low
    return r


cdef inline u64 select_bit(u64 free, int c) noexcept nogil:
    """The ``c``-th square (from 0) of ``free``, as a one-bit mask."""
    while c > 0:
        free &= free - 1
        c -= 1
    return free & (~free + 1)


cdef inline u64 unrank_subset(u64 rank, int k, u64 free) noexcept nogil:
    """The ``k`` squares of ``free`` with colex rank ``rank`` (index.unrank_subset)."""
    cdef u64 out = 0
    cdef int c = popc(free), i
    i = k
    while i > 0:
        c -= 1
        while BINOM[c][i] > rank:
            c -= 1
        rank -= BINOM[c][i]
        out |= select_bit(free, c)
        i -= 1
    return out


cdef Index* new_index(Rules* r, int wm, int wk, int bm, int bk) except NULL:
    """index.SliceIndex in C (the offsets of the men placements included)."""
    cdef Index* ix = <Index*>calloc(1, sizeof(Index))
    cdef u64 rw, wmen
    cdef int nwhite
    if ix == NULL:
        raise MemoryError()
    ix.wm, ix.wk, ix.bm, ix.bk = wm, wk, bm, bk
    nwhite = popc(r.menok[0])
    ix.n_white = BINOM[nwhite][wm]
    ix.offsets = <u64*>malloc((ix.n_white + 1) * sizeof(u64))
    if ix.offsets == NULL:
        free(ix)
        raise MemoryError()
    ix.offsets[0] = 0
    for rw in range(ix.n_white):
        wmen = unrank_subset(rw, wm, r.menok[0])
        ix.offsets[rw + 1] = ix.offsets[rw] + BINOM[popc(r.menok[1] & ~wmen)][bm]
    ix.wk_ways = BINOM[r.size - wm - bm][wk]
    ix.bk_ways = BINOM[r.size - wm - bm - wk][bk]
    ix.size = ix.offsets[ix.n_white] * ix.wk_ways * ix.bk_ways
    return ix


cdef void free_index(Index* ix) noexcept:
    if ix != NULL:
        free(ix.offsets)
        free(ix)


cdef inline u64 index_of(Rules* r, Index* ix, u64 w, u64 b, u64 k) noexcept nogil:
    cdef u64 wmen = w & ~k, bmen = b & ~k, wkings = w & k
    cdef u64 men = ix.offsets[rank_subset(wmen, r.menok[0])] + rank_subset(bmen, r.menok[1] & ~wmen)
    cdef u64 free = r.full & ~(wmen | bmen)
    return (men * ix.wk_ways + rank_subset(wkings, free)) * ix.bk_ways + rank_subset(b & k, free & ~wkings)


cdef inline void position_of(Rules* r, Index* ix, u64 i, u64* w, u64* b, u64* k) noexcept nogil:
    cdef u64 rbk = i % ix.bk_ways
    cdef u64 rest = i / ix.bk_ways
    cdef u64 rwk = rest % ix.wk_ways
    cdef u64 men = rest / ix.wk_ways
    cdef u64 lo = 0, hi = ix.n_white, mid, wmen, bmen, free, wkings, bkings
    while hi - lo > 1:  # the last rw with offsets[rw] <= men
        mid = (lo + hi) >> 1
        if ix.offsets[mid] <= men:
            lo = mid
        else:
            hi = mid
    wmen = unrank_subset(lo, ix.wm, r.menok[0])
    bmen = unrank_subset(men - ix.offsets[lo], ix.bm, r.menok[1] & ~wmen)
    free = r.full & ~(wmen | bmen)
    wkings = unrank_subset(rwk, ix.wk, free)
    bkings = unrank_subset(rbk, ix.bk, free & ~wkings)
    w[0] = wmen | wkings
    b[0] = bmen | bkings
    k[0] = wkings | bkings


cdef inline u64 turned(signed char* img, u64 x) noexcept nogil:
    """The mask ``x`` with each square moved to its image (board.turn_mask)."""
    cdef u64 out = 0
    while x:
        out |= (<u64>1) << img[lowb(x)]
        x &= x - 1
    return out


cdef inline void copy_entry(
    const uint8_t* rv, const uint8_t* dv, int width, u64 j, uint8_t[::1] orv, uint8_t[::1] odv, u64 i
) noexcept nogil:
    """Entry ``j`` of a solved slice (2-bit results, ``width``-byte distances) into entry ``i`` of
    :meth:`Kernel.solve`'s format (16-bit distances, 0 for draws)."""
    cdef int res = (rv[j >> 2] >> ((j & 3) * 2)) & 3
    orv[i >> 2] |= res << ((i & 3) * 2)
    if res != R_DRAW:
        if width == 1:
            odv[2 * i] = dv[j]
        else:
            odv[2 * i] = dv[2 * j]
            odv[2 * i + 1] = dv[2 * j + 1]


cdef inline int code_of(u64 w, u64 b, u64 k) noexcept nogil:
    return (((popc(w & ~k) * 9) + popc(w & k)) * 9 + popc(b & ~k)) * 9 + popc(b & k)


# -- moves -------------------------------------------------------------------------------------------

cdef inline int has(u64 x, int sq) noexcept nogil:
    return <int>((x >> sq) & 1)


cdef unsigned int kings_order(Found* f, u64 opp_kings) noexcept nogil:
    """FID's "kings met earliest" (movegen._kings_order)."""
    cdef unsigned int order = 0
    cdef int i
    for i in range(f.ncap):
        if has(opp_kings, f.captured[i]):
            order |= (<unsigned int>1) << (31 - i)
    return order


cdef void record(Search* s, int dest, u64 capmask, int crowned) noexcept nogil:
    """Keep one finished sequence; routes with the same (origin, destination, captured set) are one
    move, and the Italian law judges it by the route that meets kings earliest."""
    cdef int i
    cdef Found* f
    cdef Found tmp
    for i in range(s.nfound):
        f = &s.found[i]
        if f.origin == s.origin and f.dest == dest and f.capmask == capmask:
            if s.r.precedence == ITALIAN:
                tmp.ncap = s.ncap
                for i in range(s.ncap):
                    tmp.captured[i] = s.cap[i]
                if kings_order(&tmp, s.opp_kings) > kings_order(f, s.opp_kings):
                    f.crowned = crowned
                    f.ncap = s.ncap
                    for i in range(s.ncap):
                        f.captured[i] = s.cap[i]
            return
    if s.nfound >= MAXFOUND:
        s.overflow = 1
        return
    f = &s.found[s.nfound]
    s.nfound += 1
    f.capmask = capmask
    f.origin = s.origin
    f.dest = dest
    f.crowned = crowned
    f.ncap = s.ncap
    for i in range(s.ncap):
        f.captured[i] = s.cap[i]


cdef int extend(Search* s, int sq, int king, int crowned, u64 capmask, u64 occupied, int last) noexcept nogil:
    """Try every next jump from ``sq``; record finished sequences; 1 if a jump exists
    (movegen.MoveGenerator._search's ``extend``)."""
    cdef Rules* r = s.r
    cdef int jumped = 0, goes_on, now_king, now_crowned
    cdef u64 victims = s.opp & ~capmask, vbit, after, newmask
    cdef int* dirs = s.man_dirs
    cdef int ndirs = s.n_man_dirs
    cdef int all_dirs[4]
    cdef int di, d, i, n, victim, land, j, nl, nends, res
    cdef signed char lands[MAXRAY]
    cdef signed char ends[MAXRAY]
    cdef unsigned char end_crowned[MAXRAY]
    if king:
        for d in range(4):
            all_dirs[d] = d
        dirs = all_dirs
        ndirs = 4
    elif not r.men_take_kings:
        victims &= ~s.opp_kings
    for di in range(ndirs):
        d = dirs[di]
        if d == (last ^ 1):  # no 180-degree turn between two jumps
            continue
        if king and r.flying:
            n = r.raylen[d][sq]
            i = 0
            while i < n and not has(occupied, r.ray[d][sq][i]):
                i += 1
            if i + 1 >= n:
                continue
            victim = r.ray[d][sq][i]
            if not has(victims, victim):
                continue
            vbit = (<u64>1) << victim
            after = occupied & ~vbit if r.immediate else occupied
            nl = 0
            i += 1
            while i < n and not has(after, r.ray[d][sq][i]):
                lands[nl] = r.ray[d][sq][i]
                nl += 1
                i += 1
            if nl == 0:
                continue
        else:
            victim = r.nb[d][sq]
            if victim < 0:
                continue
            land = r.nb[d][victim]
            if land < 0 or not has(victims, victim) or has(occupied, land):
                continue
            vbit = (<u64>1) << victim
            after = occupied & ~vbit if r.immediate else occupied
            lands[0] = land
            nl = 1
        jumped = 1
        newmask = capmask | vbit
        s.cap[s.ncap] = victim
        s.ncap += 1
        nends = 0
        goes_on = 0
        for j in range(nl):
            land = lands[j]
            now_king = king
            now_crowned = crowned
            if not king and has(s.promo, land):
                if r.capture_promotion == PROMOTE_AND_STOP:
                    ends[nends] = land
                    end_crowned[nends] = 1
                    nends += 1
                    continue
                if r.capture_promotion == PROMOTE_AND_CONTINUE:
                    now_king = 1
                    now_crowned = 1
            res = extend(s, land, now_king, now_crowned, newmask, after, d)
            if res:
                goes_on = 1
            elif not goes_on:
                ends[nends] = land
                end_crowned[nends] = now_crowned
                nends += 1
        if not goes_on:  # a flying king must land where it can jump on, if it can
            for j in range(nends):
                record(s, ends[j], newmask, end_crowned[j])
        s.ncap -= 1
    return jumped


cdef unsigned long long score(Search* s, Found* f, u64 kings) noexcept nogil:
    """The precedence key as one number (movegen._preferred, _italian_key)."""
    cdef unsigned long long pieces = popc(f.capmask)
    if s.r.precedence == MOST_PIECES:
        return pieces
    if s.r.precedence == MOST_PIECES_THEN_KINGS:
        return (pieces << 8) | <unsigned long long>popc(f.capmask & s.opp_kings)
    return (
        (pieces << 40)
        | (<unsigned long long>has(kings, f.origin) << 39)
        | (<unsigned long long>popc(f.capmask & s.opp_kings) << 32)
        | kings_order(f, s.opp_kings)
    )


cdef int captures(Search* s, u64 me, u64 opp, u64 kings, int turn) noexcept nogil:
    """Fill ``s.found`` with the captures the precedence law allows; return how many."""
    cdef Rules* r = s.r
    cdef u64 pieces = me, occ = me | opp
    cdef unsigned long long best = 0, sc
    cdef int sq, i, out
    s.opp = opp
    s.opp_kings = opp & kings
    s.promo = r.promo[turn]
    s.man_dirs = r.man_jumps[turn]
    s.n_man_dirs = r.n_man_jumps[turn]
    s.nfound = 0
    s.overflow = 0
    while pieces:
        sq = lowb(pieces)
        pieces &= pieces - 1
        s.origin = sq
        s.ncap = 0
        extend(s, sq, has(kings, sq), 0, 0, occ & ~((<u64>1) << sq), -2)
    if s.nfound > 1 and r.precedence != FREE:
        for i in range(s.nfound):
            sc = score(s, &s.found[i], kings)
            if sc > best:
                best = sc
        out = 0
        for i in range(s.nfound):
            if score(s, &s.found[i], kings) == best:
                if i != out:
                    s.found[out] = s.found[i]
                out += 1
        s.nfound = out
    return s.nfound


cdef int has_capture(Rules* r, u64 me, u64 opp, u64 kings, int turn) noexcept nogil:
    """Whether the side ``me`` has a capture (a first jump exists: then a whole sequence does)."""
    cdef u64 occ = me | opp, men = me & ~kings, kk = me & kings
    cdef u64 man_victims = opp if r.men_take_kings else opp & ~kings
    cdef int sq, i, d, v, land, j, n
    while men:
        sq = lowb(men)
        men &= men - 1
        for i in range(r.n_man_jumps[turn]):
            d = r.man_jumps[turn][i]
            v = r.nb[d][sq]
            if v >= 0 and has(man_victims, v):
                land = r.nb[d][v]
                if land >= 0 and not has(occ, land):
                    return 1
    while kk:
        sq = lowb(kk)
        kk &= kk - 1
        for d in range(4):
            if r.flying:
                n = r.raylen[d][sq]
                j = 0
                while j < n and not has(occ, r.ray[d][sq][j]):
                    j += 1
                if j + 1 < n and has(opp, r.ray[d][sq][j]) and not has(occ, r.ray[d][sq][j + 1]):
                    return 1
            else:
                v = r.nb[d][sq]
                if v >= 0 and has(opp, v):
                    land = r.nb[d][v]
                    if land >= 0 and not has(occ, land):
                        return 1
    return 0


cdef int children(Rules* r, Search* s, u64 w, u64 b, u64 k, int turn, Child* out) noexcept nogil:
    """The position after each legal move (the side to move flips); -1 on overflow."""
    cdef u64 me = w if turn == 0 else b
    cdef u64 opp = b if turn == 0 else w
    cdef u64 occ = w | b, men, kk, fb, tb, cap, me2, opp2, k2
    cdef int n = 0, i, sq, d, t, j, promotes
    cdef Found* f
    if captures(s, me, opp, k, turn):
        if s.overflow:
            return -1
        for i in range(s.nfound):
            f = &s.found[i]
            fb = (<u64>1) << f.origin
            tb = (<u64>1) << f.dest
            cap = f.capmask
            me2 = (me ^ fb) | tb
            opp2 = opp & ~cap
            k2 = k & ~cap  # first: with immediate removal a piece may end where it captured
            if has(k, f.origin):
                k2 = (k2 ^ fb) | tb
            elif f.crowned or has(r.promo[turn], f.dest):
                k2 |= tb
            out[n].w = me2 if turn == 0 else opp2
            out[n].b = opp2 if turn == 0 else me2
            out[n].k = k2
            out[n].changes = 1
            n += 1
        return n
    men = me & ~k
    while men:
        sq = lowb(men)
        men &= men - 1
        fb = (<u64>1) << sq
        for i in range(r.n_man_steps[turn]):
            t = r.nb[r.man_steps[turn][i]][sq]
            if t < 0 or has(occ, t):
                continue
            if n >= MAXCHILD:
                return -1
            tb = (<u64>1) << t
            promotes = has(r.promo[turn], t)
            me2 = (me ^ fb) | tb
            out[n].w = me2 if turn == 0 else w
            out[n].b = b if turn == 0 else me2
            out[n].k = k | tb if promotes else k
            out[n].changes = promotes
            n += 1
    kk = me & k
    while kk:
        sq = lowb(kk)
        kk &= kk - 1
        fb = (<u64>1) << sq
        for d in range(4):
            for j in range(r.raylen[d][sq] if r.flying else (1 if r.raylen[d][sq] else 0)):
                t = r.ray[d][sq][j]
                if has(occ, t):
                    break
                if n >= MAXCHILD:
                    return -1
                tb = (<u64>1) << t
                me2 = (me ^ fb) | tb
                out[n].w = me2 if turn == 0 else w
                out[n].b = b if turn == 0 else me2
                out[n].k = (k ^ fb) | tb
                out[n].changes = 0
                n += 1
    return n


cdef int parents(Rules* r, u64 w, u64 b, u64 k, int turn, Child* out) noexcept nogil:
    """Every position, with the other side to move, from which a quiet move that keeps the material
    leads here: the piece steps back, and the move was legal only if its side had no capture."""
    cdef int mover = turn ^ 1, n = 0, sq, i, d, o, j
    cdef u64 me = w if mover == 0 else b
    cdef u64 opp = b if mover == 0 else w
    cdef u64 occ = w | b, pieces = me, fb, ob, me2, k2
    while pieces:
        sq = lowb(pieces)
        pieces &= pieces - 1
        fb = (<u64>1) << sq
        if has(k, sq):
            for d in range(4):
                for j in range(r.raylen[d][sq] if r.flying else (1 if r.raylen[d][sq] else 0)):
                    o = r.ray[d][sq][j]
                    if has(occ, o):
                        break
                    ob = (<u64>1) << o
                    me2 = (me ^ fb) | ob
                    k2 = (k ^ fb) | ob
                    if not has_capture(r, me2, opp, k2, mover):
                        out[n].w = me2 if mover == 0 else opp
                        out[n].b = opp if mover == 0 else me2
                        out[n].k = k2
                        n += 1
        else:
            for i in range(r.n_man_steps[mover]):
                d = r.man_steps[mover][i]
                o = r.nb[d ^ 1][sq]
                if o < 0 or has(occ, o) or not has(r.menok[mover], o):
                    continue
                ob = (<u64>1) << o
                me2 = (me ^ fb) | ob
                if not has_capture(r, me2, opp, k, mover):
                    out[n].w = me2 if mover == 0 else opp
                    out[n].b = opp if mover == 0 else me2
                    out[n].k = k
                    n += 1
    return n


# -- the kernel --------------------------------------------------------------------------------------

cdef class Kernel:
    """One variant's rules on dense squares, the slices solved so far, and the solver.

    ``Kernel(board.kernel_spec())``; ``attach(material, results, dist, width)`` makes a solved slice
    available to the moves that leave the slice being solved; ``solve(material, progress)`` returns
    ``(results, dist)``: 2-bit results (0 draw, 1 win, 2 loss for the side to move; four positions a
    byte, lowest bits first) and 16-bit distances in plies, both indexed ``turn * size + index``.
    """

    cdef Rules rules
    cdef Search* search
    cdef Table tables[CODES]
    cdef dict keep

    def __cinit__(self):
        self.search = <Search*>calloc(1, sizeof(Search))
        if self.search == NULL:
            raise MemoryError()
        memset(self.tables, 0, sizeof(self.tables))
        self.keep = {}

    def __init__(self, spec):
        cdef Rules* r = &self.rules
        cdef int d, c, i, t
        memset(r, 0, sizeof(Rules))
        r.size = spec["size"]
        if r.size > MAXSQ:
            raise ValueError("board too large for the endgame kernel")
        r.full = ((<u64>1) << r.size) - 1 if r.size < 64 else <u64>0xFFFFFFFFFFFFFFFF
        for t in range(2):
            r.promo[t] = spec["promotion"][t]
            r.menok[t] = r.full & ~r.promo[t]
            r.n_man_steps[t] = len(spec["man_steps"][t])
            for i in range(r.n_man_steps[t]):
                r.man_steps[t][i] = spec["man_steps"][t][i]
            r.n_man_jumps[t] = len(spec["man_jumps"][t])
            for i in range(r.n_man_jumps[t]):
                r.man_jumps[t][i] = spec["man_jumps"][t][i]
        for d in range(4):
            for c in range(r.size):
                r.nb[d][c] = spec["neighbours"][d][c]
                ray = spec["rays"][d][c]
                if len(ray) > MAXRAY:
                    raise ValueError("ray too long for the endgame kernel")
                r.raylen[d][c] = len(ray)
                for i in range(len(ray)):
                    r.ray[d][c][i] = ray[i]
        r.flying = spec["flying"]
        r.immediate = spec["immediate"]
        r.men_take_kings = spec["men_take_kings"]
        r.precedence = spec["precedence"]
        r.capture_promotion = spec["capture_promotion"]
        r.losing = spec["losing"]
        self.search.r = &self.rules

    def __dealloc__(self):
        cdef int c
        for c in range(CODES):
            if self.tables[c].index != NULL:
                free_index(self.tables[c].index)
                self.tables[c].index = NULL
        free(self.search)

    cdef Index* _index(self, tuple material) except NULL:
        """The index of ``material`` (kept in ``tables`` for the life of the kernel)."""
        cdef int wm = material[0], wk = material[1], bm = material[2], bk = material[3]
        cdef int c
        if wm + wk + bm + bk > MAXPIECES or min(wm, wk, bm, bk) < 0:
            raise ValueError(f"material {material} out of the kernel's range")
        c = ((wm * 9 + wk) * 9 + bm) * 9 + bk
        if self.tables[c].index == NULL:
            self.tables[c].index = new_index(&self.rules, wm, wk, bm, bk)
        return self.tables[c].index

    # -- the index and the moves, for tests and for probing -------------------------------------------

    def size(self, material):
        return self._index(tuple(material)).size

    def index(self, material, u64 w, u64 b, u64 k):
        return index_of(&self.rules, self._index(tuple(material)), w, b, k)

    def offsets(self, material):
        """The index's men offsets as bytes (``n_white + 1`` native 64-bit words, index.py's
        ``offsets``), its white and black kings' ways and its size: what the compiled puzzle search
        needs to index the slice by itself (generator/endgame/leaves.py)."""
        cdef Index* ix = self._index(tuple(material))
        return (<char*>ix.offsets)[:(ix.n_white + 1) * sizeof(u64)], ix.wk_ways, ix.bk_ways, ix.size

    def position(self, material, u64 i):
        cdef Index* ix = self._index(tuple(material))
        cdef u64 w, b, k
        if i >= ix.size:
            raise IndexError(i)
        position_of(&self.rules, ix, i, &w, &b, &k)
        return w, b, k

    def children(self, u64 w, u64 b, u64 k, int turn):
        """[(white, black, kings, material changed), ...] after each legal move (dense masks)."""
        cdef Child out[MAXCHILD]
        cdef int n = children(&self.rules, self.search, w, b, k, turn, out), i
        if n < 0:
            raise OverflowError("too many moves for the endgame kernel")
        return [(out[i].w, out[i].b, out[i].k, bool(out[i].changes)) for i in range(n)]

    def parents(self, u64 w, u64 b, u64 k, int turn):
        """[(white, black, kings), ...]: the positions one quiet, material-keeping move before."""
        cdef Child out[MAXCHILD]
        cdef int n = parents(&self.rules, w, b, k, turn, out), i
        return [(out[i].w, out[i].b, out[i].k) for i in range(n)]

    # -- solved slices ----------------------------------------------------------------------------------

    def attach(self, material, results, dist, int width):
        """Make a solved slice available (``results``/``dist`` buffers as :meth:`solve` returns them,
        ``width`` bytes per distance, 1 or 2)."""
        cdef Index* ix = self._index(tuple(material))
        cdef int c = ((material[0] * 9 + material[1]) * 9 + material[2]) * 9 + material[3]
        cdef const uint8_t[::1] rv = results
        cdef const uint8_t[::1] dv = dist
        if rv.shape[0] * 4 < 2 * ix.size or dv.shape[0] < 2 * ix.size * width or width not in (1, 2):
            raise ValueError(f"slice {tuple(material)}: buffers of the wrong size")
        self.keep[c] = (results, dist)
        self.tables[c].present = 1
        self.tables[c].results = &rv[0]
        self.tables[c].dist = &dv[0]
        self.tables[c].width = width

    def detach(self, material):
        cdef int c = ((material[0] * 9 + material[1]) * 9 + material[2]) * 9 + material[3]
        self.tables[c].present = 0
        self.tables[c].results = NULL
        self.tables[c].dist = NULL
        self.keep.pop(c, None)

    cdef int _lookup(self, u64 w, u64 b, u64 k, int turn, int* result, unsigned int* dist) except -1:
        cdef int c = code_of(w, b, k)
        cdef Table* t = &self.tables[c]
        cdef u64 i
        if not t.present:
            raise LookupError(
                f"slice {(popc(w & ~k), popc(w & k), popc(b & ~k), popc(b & k))} is not attached"
            )
        i = <u64>turn * t.index.size + index_of(&self.rules, t.index, w, b, k)
        result[0] = (t.results[i >> 2] >> ((i & 3) * 2)) & 3
        if t.width == 1:
            dist[0] = t.dist[i]
        else:
            dist[0] = t.dist[2 * i] | (t.dist[2 * i + 1] << 8)
        return 0

    # -- the solver ---------------------------------------------------------------------------------------

    def solve(self, material, progress=None):
        """Solve one slice; its exits must be attached.

        1. Every position once, forwards: count the moves that stay in the slice, and read the moves
           that leave it in the attached tables (the fastest win and slowest loss they give, and
           whether one draws).  A position without a move is decided at distance 0.
        2. By levels n = 0, 1, 2...: every position decided at distance n is final; each of its
           parents (moves back, :func:`parents`) wins at n + 1 if this one loses, or loses one more
           of its moves if this one wins, and loses at max(n + 1, its slowest exit) when none is left.
        3. What is never decided is a draw.

        Returns ``(results, dist, levels)``: bytearrays as the class docstring says, and the number
        of levels.
        """
        cdef Index* ix = self._index(tuple(material))
        cdef Rules* r = &self.rules
        cdef u64 n = ix.size, total = 2 * n, i, q, w, b, k
        cdef uint8_t* state = NULL
        cdef uint8_t* count = NULL
        cdef uint16_t* dist = NULL
        cdef uint16_t* exitloss = NULL
        cdef Child* kids = <Child*>malloc(MAXCHILD * sizeof(Child))
        cdef long long pending = 0, done
        cdef unsigned int level = 0
        if kids == NULL:
            raise MemoryError()
        try:
            state = <uint8_t*>calloc(total, 1)
            count = <uint8_t*>calloc(total, 1)
            dist = <uint16_t*>calloc(total, 2)
            exitloss = <uint16_t*>calloc(total, 2)
            if state == NULL or count == NULL or dist == NULL or exitloss == NULL:
                raise MemoryError()
            pending = self._first_pass(ix, state, count, dist, exitloss, kids, progress)
            while pending > 0:
                if level >= INF - 1:
                    raise OverflowError("distance beyond 65534 plies")
                done = self._level(ix, level, state, count, dist, exitloss, kids, &pending)
                pending -= done
                level += 1
                if progress is not None:
                    progress("levels", level, level + (1 if pending else 0))
            return self._pack(state, dist, total) + (level,)
        finally:
            free(state)
            free(count)
            free(dist)
            free(exitloss)
            free(kids)

    cdef long long _first_pass(
        self, Index* ix, uint8_t* state, uint8_t* count, uint16_t* dist, uint16_t* exitloss, Child* kids, progress
    ) except -1:
        cdef Rules* r = &self.rules
        cdef u64 n = ix.size, total = 2 * n, i, w, b, k
        cdef int turn, m, j, res, inside, exit_draw
        cdef unsigned int d, best_win, slow_loss
        cdef long long pending = 0
        for i in range(total):
            if (i & 0xFFFF) == 0:
                if PyErr_CheckSignals() < 0:
                    return -1
                if progress is not None:
                    progress("positions", i, total)
            turn = 1 if i >= n else 0
            position_of(r, ix, i - n if turn else i, &w, &b, &k)
            m = children(r, self.search, w, b, k, turn, kids)
            if m < 0:
                raise OverflowError("too many moves for the endgame kernel")
            if m == 0:  # no move: lost, or won where the side that cannot move wins
                state[i] = S_PEND_WIN if r.losing else S_PEND_LOSS
                dist[i] = 0
                pending += 1
                continue
            inside = 0
            exit_draw = 0
            best_win = INF
            slow_loss = 0
            for j in range(m):
                if not kids[j].changes:
                    inside += 1
                    continue
                self._lookup(kids[j].w, kids[j].b, kids[j].k, turn ^ 1, &res, &d)
                if res == R_LOSS:
                    if d + 1 < best_win:
                        best_win = d + 1
                elif res == R_WIN:
                    if d + 1 > slow_loss:
                        slow_loss = d + 1
                else:
                    exit_draw = 1
            count[i] = inside
            exitloss[i] = slow_loss
            if best_win != INF:
                state[i] = S_PEND_WIN
                dist[i] = best_win
                pending += 1
            elif inside == 0:
                if exit_draw:
                    state[i] = S_DRAW
                else:
                    state[i] = S_PEND_LOSS
                    dist[i] = slow_loss
                    pending += 1
            elif exit_draw:
                state[i] = S_EXIT_DRAW
        if progress is not None:
            progress("positions", total, total)
        return pending

    cdef long long _level(
        self, Index* ix, unsigned int level, uint8_t* state, uint8_t* count, uint16_t* dist, uint16_t* exitloss,
        Child* kids, long long* pending
    ) except -1:
        """Finalise the positions pending at distance ``level`` and pass the news to their parents;
        return how many were finalised (``pending`` grows by the parents now pending)."""
        cdef Rules* r = &self.rules
        cdef u64 n = ix.size, total = 2 * n, i, q, w, b, k
        cdef int turn, m, j, st, won
        cdef long long done = 0
        cdef unsigned int later
        for i in range(total):
            st = state[i] & 7
            if (st != S_PEND_WIN and st != S_PEND_LOSS) or dist[i] != level:
                continue
            won = st == S_PEND_WIN
            state[i] = S_WIN if won else S_LOSS
            done += 1
            if (done & 0xFFFF) == 0 and PyErr_CheckSignals() < 0:
                return -1
            turn = 1 if i >= n else 0
            position_of(r, ix, i - n if turn else i, &w, &b, &k)
            m = parents(r, w, b, k, turn, kids)
            for j in range(m):
                q = index_of(r, ix, kids[j].w, kids[j].b, kids[j].k) + (0 if turn else n)
                st = state[q] & 7
                if st >= S_WIN:
                    continue
                if not won:  # this one loses: the parent wins by moving here
                    if st == S_PEND_WIN:
                        if dist[q] > level + 1:
                            dist[q] = level + 1
                    else:
                        state[q] = S_PEND_WIN | (state[q] & S_EXIT_DRAW)
                        dist[q] = level + 1
                        pending[0] += 1
                elif st == S_UNKNOWN:  # this one wins: one refuge fewer for the parent
                    count[q] -= 1
                    if count[q] == 0:
                        if state[q] & S_EXIT_DRAW:
                            state[q] = S_DRAW
                        else:
                            later = exitloss[q] if exitloss[q] > level + 1 else level + 1
                            state[q] = S_PEND_LOSS
                            dist[q] = later
                            pending[0] += 1
        return done

    # -- the colour-swapped twin ---------------------------------------------------------------------------

    def derive(self, material, image, results, dist, int width, progress=None):
        """``(results, dist16)`` of ``material``, in :meth:`solve`'s format, copied from its solved
        colour-swapped twin (``results``/``dist``/``width`` as :meth:`attach` takes them) instead of
        solved: the position with ``turn`` to move, turned half a turn (``image[c]``: the dense
        square of ``c``, ``board.half_turn``) and its colours swapped, is the twin's position with
        the other side to move, with the same result and distance (mirror.py, the reference).
        """
        cdef Index* ix = self._index(tuple(material))
        cdef Index* src = self._index((material[2], material[3], material[0], material[1]))
        cdef const uint8_t[::1] rv = results
        cdef const uint8_t[::1] dv = dist
        cdef signed char img[MAXSQ]
        cdef u64 total = 2 * ix.size
        cdef int c
        if len(image) != self.rules.size or sorted(image) != list(range(self.rules.size)):
            raise ValueError("image is not a permutation of the board's squares")
        if src.size != ix.size or width not in (1, 2) or rv.shape[0] * 4 < total or dv.shape[0] < total * width:
            raise ValueError(f"slice {tuple(material)}: the twin's buffers do not fit")
        for c in range(self.rules.size):
            img[c] = image[c]
        out_results = bytearray((total + 3) // 4)
        out_dist = bytearray(2 * total)
        self._derive(ix, src, img, &rv[0], &dv[0], width, out_results, out_dist, progress)
        return out_results, out_dist

    cdef int _derive(
        self, Index* ix, Index* src, signed char* img, const uint8_t* rv, const uint8_t* dv, int width,
        uint8_t[::1] orv, uint8_t[::1] odv, progress
    ) except -1:
        """Every placement once, in index order and group by group as :func:`position_of` decodes
        them, but the men decoded once for all their kings and the white kings once for all the
        black kings (decoding is most of the cost); each placement is copied with either side to
        move.  The twin's white pieces are the turned black ones."""
        cdef Rules* r = &self.rules
        cdef u64 n = ix.size, rw = 0, men, rwk, rbk, block, i, j, jmen
        cdef u64 wmen, bmen, free, wkings, bkings, twmen, tbmen, tfree, twk, tbk
        for men in range(ix.offsets[ix.n_white]):
            while ix.offsets[rw + 1] <= men:  # the white men's rank: the last rw with offsets[rw] <= men
                rw += 1
            wmen = unrank_subset(rw, ix.wm, r.menok[0])
            bmen = unrank_subset(men - ix.offsets[rw], ix.bm, r.menok[1] & ~wmen)
            free = r.full & ~(wmen | bmen)
            twmen = turned(img, bmen)
            tbmen = turned(img, wmen)
            jmen = src.offsets[rank_subset(twmen, r.menok[0])] + rank_subset(tbmen, r.menok[1] & ~twmen)
            tfree = r.full & ~(twmen | tbmen)
            for rwk in range(ix.wk_ways):
                block = men * ix.wk_ways + rwk
                if (block & 0xFF) == 0:
                    if PyErr_CheckSignals() < 0:
                        return -1
                    if progress is not None:
                        progress("positions", 2 * block * ix.bk_ways, 2 * n)
                wkings = unrank_subset(rwk, ix.wk, free)
                tbk = turned(img, wkings)
                for rbk in range(ix.bk_ways):
                    bkings = unrank_subset(rbk, ix.bk, free & ~wkings)
                    twk = turned(img, bkings)
                    i = block * ix.bk_ways + rbk
                    j = (jmen * src.wk_ways + rank_subset(twk, tfree)) * src.bk_ways + rank_subset(tbk, tfree & ~twk)
                    copy_entry(rv, dv, width, j + n, orv, odv, i)
                    copy_entry(rv, dv, width, j, orv, odv, i + n)
        if progress is not None:
            progress("positions", 2 * n, 2 * n)
        return 0

    cdef tuple _pack(self, uint8_t* state, uint16_t* dist, u64 total):
        cdef bytearray results = bytearray((total + 3) // 4)
        cdef bytearray out = bytearray(2 * total)
        cdef uint8_t[::1] rv = results
        cdef uint8_t[::1] dv = out
        cdef u64 i
        cdef int st, res
        for i in range(total):
            st = state[i] & 7
            res = R_WIN if st == S_WIN else (R_LOSS if st == S_LOSS else R_DRAW)
            rv[i >> 2] |= res << ((i & 3) * 2)
            if res != R_DRAW:
                dv[2 * i] = dist[i] & 0xFF
                dv[2 * i + 1] = dist[i] >> 8
        return results, out
