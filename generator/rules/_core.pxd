# cython: language_level=3
# The compiled rules kernel's declarations (generator/rules/_core.pyx), shared with the kernels that
# cimport it: the puzzle searches (generator/puzzles/_search.pyx) call the move generator's C methods
# (``Core._generate``, ``_apply``, ``_count``), its move stack and ``Zobrist._after`` directly.

cimport cython
from cpython.long cimport PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong

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


@cython.final
cdef class Core:
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
    cdef CMove* stack
    cdef int capacity
    cdef int top
    cdef u128 s_opp, s_opp_kings, s_promo
    cdef int s_origin, s_base
    cdef bint s_merge
    cdef int* s_man_dirs
    cdef int s_n_man_dirs
    cdef signed char s_path[MAXPATH]
    cdef int s_npath
    cdef signed char s_cap[MAXPATH]
    cdef int s_ncap

    cdef int _reserve(self, int need) except -1
    cdef int _quiet(self, u128 me, u128 kings, int turn, u128 empty) except -1
    cdef int _push_quiet(self, int origin, int dest, int king, int promotes) except -1
    cdef int _count_quiet(self, u128 me, u128 kings, int turn, u128 occ) noexcept nogil
    cdef u128 _capture_starts(self, u128 me, u128 opp, u128 kings, int turn, u128 occ) noexcept nogil
    cdef u128 _flying_starts(self, u128 kk, u128 opp, u128 occ) noexcept nogil
    cdef bint _has_quiet(self, u128 me, u128 kings, int turn, u128 occ) noexcept nogil
    cdef int _captures(self, u128 me, u128 opp, u128 kings, int turn, u128 occ, bint merge, bint precedence) except -1
    cdef int _extend(self, int sq, bint king, bint crowned, u128 capmask, u128 occupied, int last) except -1
    cdef int _record(self, int dest, u128 capmask, bint crowned) except -1
    cdef void _fill(self, CMove* m, int dest, u128 capmask, bint crowned) noexcept nogil
    cdef void _replace_if_earlier(self, CMove* m, int dest, bint crowned) noexcept nogil
    cdef unsigned long long _score(self, CMove* m, u128 kings) noexcept nogil
    cdef int _preferred(self, int base, u128 kings) noexcept nogil
    cdef int _generate(self, u128 white, u128 black, u128 kings, int turn, bint merge) except -1
    cdef long long _count(self, u128 white, u128 black, u128 kings, int turn, bint merge) except -1
    cdef bint _has_moves(self, u128 white, u128 black, u128 kings, int turn) except -1
    cdef void _apply(self, CMove* m, u128* w, u128* b, u128* k, int turn) noexcept nogil
    cdef long long _perft(self, u128 w, u128 b, u128 k, int turn, int depth, bint merge) except -1
    cdef CMove* _take(self, int start, int n) except? NULL
    cdef object _move_object(self, CMove* m)


@cython.final
cdef class Zobrist:
    cdef unsigned long long keys[4][MAXSQ]
    cdef unsigned long long black_to_move

    cdef unsigned long long _after(self, unsigned long long h, u128 kings, int turn, CMove* m) noexcept nogil
