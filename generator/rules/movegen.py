"""The one move generator, driven by a :class:`~generator.rules.variants.Variant` record.

Positions are four plain values here (``white``, ``black``, ``kings`` bit sets and ``turn``) so the
hot path does no attribute look-ups on wrapper objects; :class:`~generator.rules.position.Position`
is the friendly face over it.

The algorithm follows docs/spec.md §1: find every complete capture sequence of the side to move (a
depth-first search that makes and unmakes on local bit sets); if there is any, only captures are
legal and the variant's precedence filter picks among them; otherwise list the quiet moves.  Quiet
men moves and the search for which men can start a capture use whole-board shifts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .geometry import BLACK, WHITE
from .move import Move
from .switches import CapturePromotion, Precedence, Removal

if TYPE_CHECKING:
    from .variants import Variant

State = tuple[int, int, int, int]
CaptureKey = tuple[Any, ...]
"""One capture sequence found by the search: ``(origin, dest, captured set)``, and its path as a
fourth item when equal sequences are not merged."""
"""(white, black, kings, turn): the raw position the generator works on."""


def _shift(bits: int, s: int) -> int:
    return bits << s if s > 0 else bits >> -s


def _squares(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class MoveGenerator:
    """Legal moves, move application and move counting for one variant."""

    def __init__(self, variant: Variant) -> None:
        g = variant.geometry
        self.variant = variant
        self.geometry = g
        self.mask = g.mask
        self.neighbours = g.neighbours
        self.rays = g.rays
        self.shifts = g.shifts
        self.flying = variant.flying_kings
        self.immediate = variant.removal is Removal.IMMEDIATE
        self.men_take_kings = variant.men_capture_kings
        self.capture_promotion = variant.capture_promotion
        self.promotion_mask = (g.rank_mask(g.height - 1), g.rank_mask(0))

        man_steps: tuple[tuple[int, ...], tuple[int, ...]]
        man_jumps: tuple[tuple[int, ...], tuple[int, ...]]
        if g.orthogonal:  # N, S, E, W: men go forward or sideways (docs/spec.md §1.3, §9)
            man_steps = ((0, 2, 3), (1, 2, 3))
            man_jumps = man_steps if not variant.men_capture_backward else ((0, 1, 2, 3),) * 2
        else:  # NE, SW, NW, SE
            man_steps = ((0, 2), (1, 3))
            man_jumps = ((0, 1, 2, 3),) * 2 if variant.men_capture_backward else man_steps
        self.man_steps = man_steps
        self.man_jumps: tuple[tuple[int, ...], ...] = man_jumps
        self.king_dirs = (0, 1, 2, 3)
        self.precedence = variant.precedence
        self.italian = variant.precedence is Precedence.ITALIAN
        self.man_jump_shifts = tuple(tuple(self.shifts[d] for d in man_jumps[t]) for t in (WHITE, BLACK))
        self.man_step_shifts = tuple(tuple(self.shifts[d] for d in man_steps[t]) for t in (WHITE, BLACK))
        # short_jumps[d][sq]: (victim square, landing square) of a one-square jump, or None
        nb = self.neighbours
        self.short_jumps = tuple(
            tuple(
                (nb[d][sq], nb[d][nb[d][sq]]) if sq < len(nb[d]) and nb[d][sq] >= 0 and nb[d][nb[d][sq]] >= 0 else None
                for sq in range(len(nb[d]))
            )
            for d in range(4)
        )

    # -- public API on raw states ------------------------------------------------------------------

    def moves(self, white: int, black: int, kings: int, turn: int, *, merge: bool = True) -> list[Move]:
        """Every legal move of the side to move, duplicates (same origin, destination and captured set)
        merged; ``merge=False`` keeps one move per capture route, as "all paths" perft tables count."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        caps = self.captures(me, opp, kings, turn, occ, merge=merge)
        if caps:
            return caps
        return self.quiet_moves(me, kings, turn, self.mask & ~occ)

    def count(self, white: int, black: int, kings: int, turn: int) -> int:
        """``len(self.moves(...))`` without building quiet moves (bulk counting for perft)."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        n = self.count_captures(me, opp, kings, turn, occ)
        if n:
            return n
        empty = self.mask & ~occ
        men = me & ~kings
        for s in self.man_step_shifts[turn]:
            n += (((men << s) if s > 0 else (men >> -s)) & empty).bit_count()
        kk = me & kings
        if kk:
            if self.flying:
                rays = self.rays
                for k in _squares(kk):
                    for d in self.king_dirs:
                        for sq in rays[d][k]:
                            if (occ >> sq) & 1:
                                break
                            n += 1
            else:
                for s in self.shifts:
                    n += (_shift(kk, s) & empty).bit_count()
        return n

    def has_moves(self, white: int, black: int, kings: int, turn: int) -> bool:
        """True when the side to move has at least one legal move (the end-of-game test)."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        empty = self.mask & ~occ
        men = me & ~kings
        for s in self.man_step_shifts[turn]:
            if _shift(men, s) & empty:
                return True
        kk = me & kings
        for s in self.shifts:  # a king with an empty neighbour can always step there
            if _shift(kk, s) & empty:
                return True
        return self.count_captures(me, opp, kings, turn, occ) > 0

    def apply(self, white: int, black: int, kings: int, turn: int, move: Move) -> State:
        """The position after ``move`` (which must be legal here), with the turn passed."""
        fb = 1 << move.origin
        tb = 1 << move.dest
        cap = move.captures
        if turn == WHITE:
            white = (white ^ fb) | tb
            black &= ~cap
        else:
            black = (black ^ fb) | tb
            white &= ~cap
        was_king = kings & fb
        kings &= ~cap  # first: with immediate removal a piece may end on a square it captured
        if was_king:
            kings = (kings ^ fb) | tb
        elif move.promotes:
            kings |= tb
        return white, black, kings, turn ^ 1

    def perft(self, white: int, black: int, kings: int, turn: int, depth: int, *, all_paths: bool = False) -> int:
        """Leaf count ``depth`` plies below the position (docs/spec.md §1.10), the last ply counted in
        bulk; ``all_paths`` counts every capture route as its own move."""
        if depth < 0:
            raise ValueError("depth must be at least 0")
        if depth == 0:
            return 1
        apply = self.apply
        moves: Callable[[int, int, int, int], list[Move]] = self.moves
        count: Callable[[int, int, int, int], int] = self.count
        if all_paths:

            def moves(w: int, b: int, k: int, t: int) -> list[Move]:
                return self.moves(w, b, k, t, merge=False)

            def count(w: int, b: int, k: int, t: int) -> int:
                return len(self.moves(w, b, k, t, merge=False))

        def walk(w: int, b: int, k: int, t: int, d: int) -> int:
            if d == 1:
                return count(w, b, k, t)
            total = 0
            for m in moves(w, b, k, t):
                total += walk(*apply(w, b, k, t, m), d - 1)
            return total

        return walk(white, black, kings, turn, depth)

    def children(
        self, white: int, black: int, kings: int, turn: int, zobrist: Any = None, h: int = 0
    ) -> tuple[bool, list[tuple[int, int, int, int, int]]]:
        """``(captures, [(white, black, kings, turn, hash), ...])``: the position after each legal
        move, in the order of ``moves()``; ``captures`` is True when the moves are captures.  With a
        ``zobrist`` table (``generator.rules.core.make_zobrist``) and the hash ``h`` of this
        position, each child carries its hash, else 0.  The compiled core does this without
        building ``Move`` objects."""
        state = (white, black, kings, turn)
        moves = self.moves(white, black, kings, turn)
        out = [
            (*self.apply(white, black, kings, turn, m), zobrist.after(h, state, m) if zobrist is not None else 0)
            for m in moves
        ]
        return bool(moves) and moves[0].captures != 0, out

    def unfiltered(self, white: int, black: int, kings: int, turn: int) -> tuple[list[Move], list[Move]]:
        """(every complete capture, ignoring precedence; every quiet move, ignoring compulsion):
        the moves the rules would allow without those two laws, to explain why a move is illegal."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        every_capture = self.captures(me, opp, kings, turn, occ, precedence=False)
        return every_capture, self.quiet_moves(me, kings, turn, self.mask & ~occ)

    # -- quiet moves ------------------------------------------------------------------------------

    def quiet_moves(self, me: int, kings: int, turn: int, empty: int) -> list[Move]:
        out: list[Move] = []
        men = me & ~kings
        promo = self.promotion_mask[turn]
        for d in self.man_steps[turn]:
            s = self.shifts[d]
            targets = _shift(men, s) & empty
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                targets ^= low
                out.append(Move(to - s, to, 0, None, (), False, bool(promo & low)))
        kk = me & kings
        if kk:
            if self.flying:
                rays = self.rays
                for k in _squares(kk):
                    for d in self.king_dirs:
                        for sq in rays[d][k]:
                            if not (empty >> sq) & 1:
                                break
                            out.append(Move(k, sq, 0, None, (), True, False))
            else:
                for s in self.shifts:
                    targets = _shift(kk, s) & empty
                    while targets:
                        low = targets & -targets
                        to = low.bit_length() - 1
                        targets ^= low
                        out.append(Move(to - s, to, 0, None, (), True, False))
        return out

    # -- captures ---------------------------------------------------------------------------------

    def capture_starts(self, me: int, opp: int, kings: int, turn: int, occ: int) -> int:
        """Bit set of the men (and short kings) that can make a first jump; flying kings always
        included when they exist, as their reach is checked by the search itself."""
        empty = self.mask & ~occ
        men = me & ~kings
        victims = opp if self.men_take_kings else opp & ~kings
        starts = 0
        for s in self.man_jump_shifts[turn]:
            if s > 0:
                starts |= men & (victims >> s) & (empty >> (s + s))
            else:
                starts |= men & (victims << -s) & (empty << -(s + s))
        kk = me & kings
        if kk:
            if self.flying:
                starts |= kk
            else:
                for s in self.shifts:
                    if s > 0:
                        starts |= kk & (opp >> s) & (empty >> (s + s))
                    else:
                        starts |= kk & (opp << -s) & (empty << -(s + s))
        return starts

    def captures(
        self, me: int, opp: int, kings: int, turn: int, occ: int, *, precedence: bool = True, merge: bool = True
    ) -> list[Move]:
        """Every complete capture sequence that the precedence rule allows (all of them with
        ``precedence=False``), duplicates merged unless ``merge=False``."""
        starts = self.capture_starts(me, opp, kings, turn, occ)
        if not starts:
            return []
        found = self._search(me, opp, kings, turn, occ, starts, True, merge)
        keys = self._preferred(found, opp & kings, kings) if precedence else list(found)
        promo = self.promotion_mask[turn]
        out = []
        for key in keys:
            origin, dest, capmask = key[:3]
            path, captured, crowned = found[key]
            was_king = bool((kings >> origin) & 1)
            promotes = not was_king and (crowned or bool((promo >> dest) & 1))
            out.append(Move(origin, dest, capmask, path, captured, was_king, promotes))
        return out

    def count_captures(self, me: int, opp: int, kings: int, turn: int, occ: int) -> int:
        """``len(self.captures(...))``, without building moves or paths where the precedence rule
        does not need the capture order (every rule but the Italian one)."""
        starts = self.capture_starts(me, opp, kings, turn, occ)
        if not starts:
            return 0
        found = self._search(me, opp, kings, turn, occ, starts, self.italian)
        if len(found) < 2 or self.precedence is Precedence.FREE:
            return len(found)
        return len(self._preferred(found, opp & kings, kings))

    def _preferred(self, found: dict[CaptureKey, Any], opp_kings: int, kings: int) -> list[CaptureKey]:
        """The keys of the sequences the precedence law keeps (docs/spec.md §1.7)."""
        rule = self.precedence
        if rule is Precedence.FREE or len(found) < 2:
            return list(found)
        if rule is Precedence.MOST_PIECES:
            scores: dict[CaptureKey, Any] = {k: k[2].bit_count() for k in found}
        elif rule is Precedence.MOST_PIECES_THEN_KINGS:
            scores = {k: (k[2].bit_count(), (k[2] & opp_kings).bit_count()) for k in found}
        else:
            scores = {k: _italian_key(k, found[k][1], kings, opp_kings) for k in found}
        best = max(scores.values())
        return [k for k, v in scores.items() if v == best]

    # The pure engine's hot loop; split into methods it would read every table through ``self``.
    # whole: one recursive closure over local names, as the compiled core mirrors it.
    def _search(
        self, me: int, opp: int, kings: int, turn: int, occ: int, starts: int, full: bool, merge: bool = True
    ) -> dict[CaptureKey, Any]:
        """Depth-first search of every complete capture sequence from ``starts``.

        Returns (origin, destination, captured set) -> (path, captured in order, crowned on the way)
        when ``full``, else -> None (enough to count and to apply every precedence law but Italy's).
        With ``merge=False`` the key also holds the path, so every route is kept.
        """
        found: dict[CaptureKey, Any] = {}
        jumps = self.short_jumps
        rays = self.rays
        flying = self.flying
        immediate = self.immediate
        men_take_kings = self.men_take_kings
        promo = self.promotion_mask[turn]
        stop_at_promotion = self.capture_promotion is CapturePromotion.PROMOTE_AND_STOP
        crown_and_go_on = self.capture_promotion is CapturePromotion.PROMOTE_AND_CONTINUE
        man_dirs = self.man_jumps[turn]
        king_dirs = self.king_dirs
        opp_kings = opp & kings
        italian = self.italian and full
        path: list[int] = []
        caplist: list[int] = []
        origin = 0

        # whole: the recursive step of the loop above, reading its locals (see there).
        def extend(sq: int, king: bool, crowned: bool, capmask: int, occupied: int, last: int) -> bool:
            """Try every next jump from ``sq``; record finished sequences; True if any jump exists."""
            jumped = False
            victims = opp & ~capmask if king or men_take_kings else opp & ~capmask & ~opp_kings
            for d in king_dirs if king else man_dirs:
                if d == last ^ 1:  # no 180-degree turn between two jumps (docs/spec.md §1.5)
                    continue
                if king and flying:
                    ray = rays[d][sq]
                    n = len(ray)
                    i = 0
                    while i < n and not (occupied >> ray[i]) & 1:
                        i += 1
                    if i + 1 >= n:
                        continue
                    victim = ray[i]
                    if not (victims >> victim) & 1:
                        continue
                    vbit = 1 << victim
                    after = occupied & ~vbit if immediate else occupied
                    landings: list[int] = []
                    i += 1
                    while i < n and not (after >> ray[i]) & 1:
                        landings.append(ray[i])
                        i += 1
                    if not landings:
                        continue
                else:
                    jump = jumps[d][sq]
                    if jump is None:
                        continue
                    victim, land = jump
                    if not (victims >> victim) & 1 or (occupied >> land) & 1:
                        continue
                    vbit = 1 << victim
                    after = occupied & ~vbit if immediate else occupied
                    landings = [land]
                jumped = True
                newmask = capmask | vbit
                caplist.append(victim)
                ends = []
                goes_on = False
                for land in landings:
                    now_king, now_crowned = king, crowned
                    if not king and (promo >> land) & 1:
                        if stop_at_promotion:  # crowning ends the move (WCDF 1.16, FID, FPD)
                            ends.append((land, True))
                            continue
                        if crown_and_go_on:  # Russian 1.5.15
                            now_king = now_crowned = True
                    path.append(land)
                    if extend(land, now_king, now_crowned, newmask, after, d):
                        goes_on = True
                    elif not goes_on:
                        ends.append((land, now_crowned))
                    path.pop()
                # A flying king must land where it can jump on, if such a square exists (§1.7).
                if not goes_on:
                    for land, now_crowned in ends:
                        key = (origin, land, newmask) if merge else (origin, land, newmask, (*path, land))
                        if key not in found:
                            found[key] = ((*path, land), tuple(caplist), now_crowned) if full else None
                        elif italian and _kings_order(tuple(caplist), opp_kings) > _kings_order(
                            found[key][1], opp_kings
                        ):
                            # One move, several routes: the Italian law judges a move by its best route
                            # (kings met earliest), so keep that route.
                            found[key] = ((*path, land), tuple(caplist), now_crowned)
                caplist.pop()
            return jumped

        while starts:
            low = starts & -starts
            origin = low.bit_length() - 1
            starts ^= low
            path.append(origin)
            extend(origin, bool(kings & low), False, 0, occ & ~low, -2)
            path.pop()
        return found


def _kings_order(captured: tuple[int, ...], opp_kings: int) -> int:
    """FID's "kings met earliest" as a number: a bit at (31 - place in capture order) per king, so
    an earlier king makes a larger number (comparing the whole order, docs/spec.md §1.7, §14.11)."""
    order = 0
    for i, sq in enumerate(captured):
        if (opp_kings >> sq) & 1:
            order |= 1 << (31 - i)
    return order


def _italian_key(
    key: tuple[int, ...], captured: tuple[int, ...], kings: int, opp_kings: int
) -> tuple[int, int, int, int]:
    """FID precedence as a comparable key (docs/spec.md §1.7): (a) pieces, (b) a king captures,
    (c) kings taken, (d) kings met earliest."""
    capmask = key[2]
    return (
        capmask.bit_count(),
        (kings >> key[0]) & 1,
        (capmask & opp_kings).bit_count(),
        _kings_order(captured, opp_kings),
    )


class PureZobrist:
    """Zobrist hashing with given keys (``keys[kind][square]``, kinds: white man, white king, black
    man, black king): the pure twin of the compiled ``_core.Zobrist`` (the solvers' keys come from
    ``generator.puzzles.search._Zobrist``)."""

    def __init__(self, keys: list[list[int]], black_to_move: int) -> None:
        self.keys = keys
        self.black_to_move = black_to_move

    def hash(self, white: int, black: int, kings: int, turn: int) -> int:
        h = self.black_to_move if turn else 0
        for kind, bits in enumerate((white & ~kings, white & kings, black & ~kings, black & kings)):
            table = self.keys[kind]
            while bits:
                low = bits & -bits
                h ^= table[low.bit_length() - 1]
                bits ^= low
        return h

    def after(self, h: int, state: tuple[int, int, int, int], move: Move) -> int:
        kings, turn = state[2], state[3]
        keys = self.keys
        own = 2 * turn
        was_king = (kings >> move.origin) & 1
        h ^= keys[own + was_king][move.origin]
        h ^= keys[own + (1 if was_king or move.promotes else 0)][move.dest]
        other = 2 - own
        for sq in move.captured:
            h ^= keys[other + ((kings >> sq) & 1)][sq]
        return h ^ self.black_to_move


__all__ = ["BLACK", "WHITE", "MoveGenerator", "PureZobrist", "State"]
