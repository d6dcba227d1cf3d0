"""A deliberately naive second move generator, written from docs/spec.md §1-§11 for differential tests.

It shares nothing with ``generator.rules.movegen``: no bit boards, no shifts, no duplicate merging
during the search.  It works on a dict ``(file, rank) -> (colour, is_king)`` and enumerates *every*
capture path, applies the variant's precedence to each path (docs/spec.md §1.7) and only then merges
paths with the same origin, destination and captured set (§1.8).  It is slow and only meant for
small positions and shallow trees.

Only the engine's board coordinates are borrowed (``geometry.file_of`` / ``rank_of`` / ``square``),
to translate to and from ``Position``; square names, numbering and FEN are tested elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

WHITE, BLACK = 0, 1


@dataclass(frozen=True)
class Rules:
    """The rules of docs/spec.md §2, written out again independently of ``generator.rules.variants``."""

    size: int
    layout: str  # "standard" (a1 dark), "mirrored" (a1 light), "full" (Turkish)
    men_capture_backward: bool
    men_capture_kings: bool
    flying: bool
    immediate_removal: bool
    precedence: str  # "free", "max", "max-kings", "italian"
    capture_promotion: str  # "pass", "continue", "stop"


RULES: dict[str, Rules] = {
    "international": Rules(10, "standard", True, True, True, False, "max", "pass"),
    "brazilian": Rules(8, "standard", True, True, True, False, "max", "pass"),
    "russian": Rules(8, "standard", True, True, True, False, "free", "continue"),
    "american": Rules(8, "standard", False, True, False, False, "free", "stop"),
    "portuguese": Rules(8, "mirrored", False, True, True, False, "max-kings", "stop"),
    "italian": Rules(8, "mirrored", False, False, False, False, "italian", "stop"),
    "turkish": Rules(8, "full", False, True, True, True, "max", "pass"),
}
RULES["perde-ganha"] = RULES["brazilian"]
RULES["antidraughts"] = RULES["international"]

Coord = tuple[int, int]
Board = dict[Coord, tuple[int, bool]]


@dataclass(frozen=True)
class RefMove:
    origin: Coord
    dest: Coord
    captured: tuple[Coord, ...]  # in capture order
    path: tuple[Coord, ...]  # origin, every landing square
    promotes: bool

    @property
    def key(self) -> tuple[Coord, Coord, frozenset[Coord]]:
        return (self.origin, self.dest, frozenset(self.captured))


class Reference:
    def __init__(self, variant: str | Rules) -> None:
        self.rules = variant if isinstance(variant, Rules) else RULES[variant]

    # -- board ----------------------------------------------------------------------------------

    def playing(self, f: int, r: int) -> bool:
        n = self.rules.size
        if not (0 <= f < n and 0 <= r < n):
            return False
        if self.rules.layout == "full":
            return True
        dark = (f + r) % 2 == 0
        return dark if self.rules.layout == "standard" else not dark

    def directions(self) -> list[Coord]:
        if self.rules.layout == "full":
            return [(0, 1), (0, -1), (1, 0), (-1, 0)]
        return [(1, 1), (-1, 1), (1, -1), (-1, -1)]

    def forward(self, colour: int) -> int:
        return 1 if colour == WHITE else -1

    def man_step_dirs(self, colour: int) -> list[Coord]:
        fw = self.forward(colour)
        if self.rules.layout == "full":
            return [(0, fw), (1, 0), (-1, 0)]
        return [(1, fw), (-1, fw)]

    def man_jump_dirs(self, colour: int) -> list[Coord]:
        if self.rules.layout == "full":
            return self.man_step_dirs(colour)  # forward and sideways, never backward
        if self.rules.men_capture_backward:
            return self.directions()
        return self.man_step_dirs(colour)

    def promotion_rank(self, colour: int) -> int:
        return self.rules.size - 1 if colour == WHITE else 0

    # -- moves ----------------------------------------------------------------------------------

    def capture_paths(self, board: Board, colour: int) -> list[RefMove]:
        """Every complete capture path of ``colour``, before precedence and before merging."""
        out: list[RefMove] = []
        for origin, (c, is_king) in sorted(board.items()):
            if c != colour:
                continue
            work = dict(board)
            del work[origin]  # the origin is empty during the whole sequence (§1.5 item 4)
            self._extend(work, colour, origin, origin, is_king, is_king, False, [], [origin], None, out)
        return out

    def _jumps(self, work: Board, colour: int, sq: Coord, king: bool, captured: list[Coord], last):
        """(direction, victim, [landing squares]) for every single jump from ``sq``."""
        rules = self.rules
        result = []
        dirs = self.directions() if king else self.man_jump_dirs(colour)
        for d in dirs:
            if last is not None and d == (-last[0], -last[1]):
                continue  # no 180-degree turn (§1.5); implied by deferred removal elsewhere
            f, r = sq
            df, dr = d
            if king and rules.flying:
                f, r = f + df, r + dr
                while self.playing(f, r) and (f, r) not in work:
                    f, r = f + df, r + dr
                if not self.playing(f, r):
                    continue
            else:
                f, r = f + df, r + dr
                if not self.playing(f, r) or (f, r) not in work:
                    continue
            victim = (f, r)
            vc, vk = work[victim]
            if vc == colour or victim in captured:
                continue
            if vk and not king and not rules.men_capture_kings:
                continue
            landings = []
            f, r = f + df, r + dr
            while self.playing(f, r) and (f, r) not in work:
                landings.append((f, r))
                if not (king and rules.flying):
                    break
                f, r = f + df, r + dr
            if landings:
                result.append((d, victim, landings))
        return result

    def _extend(self, work, colour, origin, sq, king, started_king, crowned, captured, path, last, out):
        jumps = self._jumps(work, colour, sq, king, captured, last)
        if not jumps:
            if captured:
                promotes = not started_king and (crowned or sq[1] == self.promotion_rank(colour))
                out.append(RefMove(origin, sq, tuple(captured), tuple(path), promotes))
            return
        for d, victim, landings in jumps:
            after = dict(work)
            if self.rules.immediate_removal:
                del after[victim]
            caps = [*captured, victim]
            options = []
            for land in landings:
                now_king, now_crowned, stop = king, crowned, False
                if not king and land[1] == self.promotion_rank(colour):
                    if self.rules.capture_promotion == "stop":
                        now_crowned, stop = True, True
                    elif self.rules.capture_promotion == "continue":
                        now_king = now_crowned = True
                can_go_on = not stop and bool(self._jumps(after, colour, land, now_king, caps, d))
                options.append((land, now_king, now_crowned, stop, can_go_on))
            # a (flying) king must choose a landing square from which it can jump on, if any (§1.7)
            if any(o[4] for o in options):
                options = [o for o in options if o[4]]
            for land, now_king, now_crowned, stop, _ in options:
                if stop:
                    out.append(RefMove(origin, land, tuple(caps), (*path, land), True))
                    continue
                self._extend(
                    after, colour, origin, land, now_king, started_king, now_crowned, caps, [*path, land], d, out
                )

    def _score(self, board: Board, m: RefMove):
        p = self.rules.precedence
        n = len(m.captured)
        kings = [i for i, sq in enumerate(m.captured) if board[sq][1]]
        if p == "free":
            return 0
        if p == "max":
            return n
        if p == "max-kings":
            return (n, len(kings))
        capturer_is_king = board[m.origin][1]
        return (n, capturer_is_king, len(kings), tuple(-i for i in kings))

    def legal_paths(self, board: Board, colour: int) -> list[RefMove]:
        """Every legal path (captures after precedence), duplicates *not* merged."""
        caps = self.capture_paths(board, colour)
        if caps:
            scores = [self._score(board, m) for m in caps]
            best = max(scores)
            return [m for m, s in zip(caps, scores, strict=True) if s == best]
        out = []
        for sq, (c, is_king) in sorted(board.items()):
            if c != colour:
                continue
            if is_king:
                for df, dr in self.directions():
                    f, r = sq[0] + df, sq[1] + dr
                    while self.playing(f, r) and (f, r) not in board:
                        out.append(RefMove(sq, (f, r), (), (sq, (f, r)), False))
                        if not self.rules.flying:
                            break
                        f, r = f + df, r + dr
            else:
                for df, dr in self.man_step_dirs(colour):
                    to = (sq[0] + df, sq[1] + dr)
                    if self.playing(*to) and to not in board:
                        out.append(RefMove(sq, to, (), (sq, to), to[1] == self.promotion_rank(colour)))
        return out

    def legal_moves(self, board: Board, colour: int) -> dict:
        """Legal moves merged by (origin, destination, captured set): key -> RefMove (first path)."""
        merged: dict = {}
        for m in self.legal_paths(board, colour):
            merged.setdefault(m.key, m)
        return merged

    def play(self, board: Board, m: RefMove) -> Board:
        new = dict(board)
        colour, is_king = new.pop(m.origin)
        for sq in m.captured:
            del new[sq]
        new[m.dest] = (colour, is_king or m.promotes)
        return new

    def perft(self, board: Board, colour: int, depth: int, all_paths: bool = False) -> int:
        if depth == 0:
            return 1
        moves = self.legal_paths(board, colour) if all_paths else list(self.legal_moves(board, colour).values())
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.play(board, m), colour ^ 1, depth - 1, all_paths) for m in moves)


# -- translation from and to the engine ------------------------------------------------------------


def board_of(pos) -> tuple[Board, int]:
    """The reference board and side to move of an engine ``Position``."""
    g = pos.variant.geometry
    board: Board = {}
    for colour, bits in ((WHITE, pos.white), (BLACK, pos.black)):
        for sq in g.bits(bits):
            board[(g.file_of(sq), g.rank_of(sq))] = (colour, bool((pos.kings >> sq) & 1))
    return board, pos.turn


def engine_key(pos, move) -> tuple[Coord, Coord, frozenset[Coord]]:
    """A ``Move`` of the engine as a reference key."""
    g = pos.variant.geometry

    def c(sq: int) -> Coord:
        return (g.file_of(sq), g.rank_of(sq))

    return (c(move.origin), c(move.dest), frozenset(c(s) for s in g.bits(move.captures)))
