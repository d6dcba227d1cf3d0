"""The one move generator, driven by a :class:`~generator.rules.variants.Variant` record.

Positions are four plain values here (``white``, ``black``, ``kings`` bit sets and ``turn``) so the
hot path does no attribute look-ups on wrapper objects; :class:`~generator.rules.position.Position`
is the friendly face over it.

The algorithm follows rules-spec §1: find every complete capture sequence of the side to move (a
depth-first search that makes and unmakes on local bit sets); if there is any, only captures are
legal and the variant's precedence filter picks among them; otherwise list the quiet moves.  Quiet
men moves and the search for which men can start a capture use whole-board shifts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .geometry import BLACK, WHITE
from .move import Move
from .variants import CapturePromotion, Precedence, Removal

if TYPE_CHECKING:
    from .variants import Variant

State = tuple[int, int, int, int]
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

        if g.orthogonal:  # N, S, E, W: men go forward or sideways (rules-spec §1.3, §9)
            man_steps = ((0, 2, 3), (1, 2, 3))
            man_jumps = man_steps if not variant.men_capture_backward else ((0, 1, 2, 3),) * 2
        else:  # NE, SW, NW, SE
            man_steps = ((0, 2), (1, 3))
            man_jumps = ((0, 1, 2, 3),) * 2 if variant.men_capture_backward else man_steps
        self.man_steps: tuple[tuple[int, ...], tuple[int, ...]] = man_steps
        self.man_jumps: tuple[tuple[int, ...], ...] = man_jumps
        self.king_dirs = (0, 1, 2, 3)
        self.precedence_key = _precedence_key(variant.precedence)

    # -- public API on raw states ------------------------------------------------------------------

    def moves(self, white: int, black: int, kings: int, turn: int) -> list[Move]:
        """Every legal move of the side to move, duplicates (same origin, destination and captured set)
        merged."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        caps = self.captures(me, opp, kings, turn, occ)
        if caps:
            return caps
        return self.quiet_moves(me, kings, turn, self.mask & ~occ)

    def count(self, white: int, black: int, kings: int, turn: int) -> int:
        """``len(self.moves(...))`` without building quiet moves (bulk counting for perft)."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        caps = self.captures(me, opp, kings, turn, occ)
        if caps:
            return len(caps)
        empty = self.mask & ~occ
        men = me & ~kings
        n = 0
        for d in self.man_steps[turn]:
            n += (_shift(men, self.shifts[d]) & empty).bit_count()
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
        for d in self.man_steps[turn]:
            if _shift(men, self.shifts[d]) & empty:
                return True
        kk = me & kings
        for s in self.shifts:  # a king with an empty neighbour can always step there
            if _shift(kk, s) & empty:
                return True
        return bool(self.captures(me, opp, kings, turn, occ))

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
        if kings & fb:
            kings = (kings ^ fb) | tb
        elif move.promotes:
            kings |= tb
        kings &= ~cap
        return white, black, kings, turn ^ 1

    def why_illegal(self, white: int, black: int, kings: int, turn: int, origin: int, dest: int) -> str:
        """Why no legal move goes from ``origin`` to ``dest``: ``capture-compulsory`` (a quiet move
        there exists but a capture must be made), ``precedence`` (a complete capture there exists
        but the precedence law prefers another) or ``no-such-move``."""
        me, opp = (white, black) if turn == WHITE else (black, white)
        occ = white | black
        every_capture = self.captures(me, opp, kings, turn, occ, precedence=False)
        if any(m.origin == origin and m.dest == dest for m in every_capture):
            return "precedence"
        quiet = self.quiet_moves(me, kings, turn, self.mask & ~occ)
        if every_capture and any(m.origin == origin and m.dest == dest for m in quiet):
            return "capture-compulsory"
        return "no-such-move"

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
        shifts = self.shifts
        for d in self.man_jumps[turn]:
            s = shifts[d]
            if s > 0:
                starts |= men & (victims >> s) & (empty >> (2 * s))
            else:
                starts |= men & (victims << -s) & (empty << (-2 * s))
        kk = me & kings
        if kk:
            if self.flying:
                starts |= kk
            else:
                for s in shifts:
                    if s > 0:
                        starts |= kk & (opp >> s) & (empty >> (2 * s))
                    else:
                        starts |= kk & (opp << -s) & (empty << (-2 * s))
        return starts

    def captures(self, me: int, opp: int, kings: int, turn: int, occ: int, *, precedence: bool = True) -> list[Move]:
        """Every complete capture sequence that the precedence rule allows (all of them with
        ``precedence=False``), duplicates merged."""
        starts = self.capture_starts(me, opp, kings, turn, occ)
        if not starts:
            return []
        found: dict[tuple[int, int, int], Move] = {}
        neighbours = self.neighbours
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
        path: list[int] = []
        caplist: list[int] = []
        origin = 0
        started_as_king = False

        def finish(dest: int, capmask: int, crowned: bool) -> None:
            key = (origin, dest, capmask)
            if key not in found:
                promotes = not started_as_king and (crowned or bool((promo >> dest) & 1))
                found[key] = Move(origin, dest, capmask, (*path, dest), tuple(caplist), started_as_king, promotes)

        def extend(sq: int, king: bool, crowned: bool, capmask: int, occupied: int, last: int) -> bool:
            """Try every next jump from ``sq``; record finished sequences; True if any jump exists."""
            jumped = False
            victims = opp & ~capmask if king or men_take_kings else opp & ~capmask & ~opp_kings
            for d in king_dirs if king else man_dirs:
                if d == last ^ 1:  # no 180-degree turn between two jumps (rules-spec §1.5)
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
                    landings = []
                    i += 1
                    while i < n and not (after >> ray[i]) & 1:
                        landings.append(ray[i])
                        i += 1
                    if not landings:
                        continue
                else:
                    victim = neighbours[d][sq]
                    if victim < 0 or not (victims >> victim) & 1:
                        continue
                    land = neighbours[d][victim]
                    if land < 0 or (occupied >> land) & 1:
                        continue
                    vbit = 1 << victim
                    after = occupied & ~vbit if immediate else occupied
                    landings = (land,)
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
                        finish(land, newmask, now_crowned)
                caplist.pop()
            return jumped

        all_occ = occ
        for origin in _squares(starts):
            started_as_king = bool((kings >> origin) & 1)
            path.append(origin)
            extend(origin, started_as_king, False, 0, all_occ & ~(1 << origin), -2)
            path.pop()

        moves = list(found.values())
        key = self.precedence_key
        if key is None or len(moves) < 2 or not precedence:
            return moves
        scores = [key(m, opp_kings) for m in moves]
        best = max(scores)
        return [m for m, s in zip(moves, scores, strict=True) if s == best]


def _precedence_key(rule: Precedence) -> Callable[[Move, int], object] | None:
    """The comparison key of rules-spec §1.7: the legal captures are those with the greatest key."""
    if rule is Precedence.FREE:
        return None
    if rule is Precedence.MOST_PIECES:
        return lambda m, opp_kings: m.captures.bit_count()
    if rule is Precedence.MOST_PIECES_THEN_KINGS:
        return lambda m, opp_kings: (m.captures.bit_count(), (m.captures & opp_kings).bit_count())

    def italian(m: Move, opp_kings: int) -> tuple[int, bool, int, int]:
        # (a) pieces, (b) a king captures, (c) kings taken, (d) kings met earliest: a bit for each
        # king at (31 - its place in capture order), so an earlier king makes a larger number.
        order = 0
        for i, sq in enumerate(m.captured):
            if (opp_kings >> sq) & 1:
                order |= 1 << (31 - i)
        return (m.captures.bit_count(), m.king, (m.captures & opp_kings).bit_count(), order)

    return italian


__all__ = ["BLACK", "WHITE", "MoveGenerator", "State"]
