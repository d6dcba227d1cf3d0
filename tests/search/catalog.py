"""Known combinations, one or more per variant, each worked out by hand and confirmed with the engine.

Every :class:`Shot` names the position, the stipulation, the ply bound, the exact set of first moves
that force it (``solutions``, in the variant's long notation) and the main line written as a lesson
would write it (a defender reply that is not the only legal move carries its ``others``).  ``why``
is the hand analysis the expected answer rests on; the tests check the engine against it, they do
not take the engine's word for it.

The module also renders lesson YAML (``lesson_text``) so the same puzzles go through ``damas
check``.  (bench/data/shots/ holds a copy of these shots as lessons: the benchmark owns its data.)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    move: str
    others: tuple[str, ...] | None = None

    def yaml(self) -> str:
        if self.others is None:
            return f"'{self.move}'"
        listed = ", ".join(f"'{m}'" for m in self.others)
        return f"{{move: '{self.move}', others: [{listed}]}}"


@dataclass(frozen=True)
class Shot:
    id: str
    variant: str
    fen: str
    goal: str
    depth: int
    solutions: tuple[str, ...]
    line: tuple[Step, ...]
    why: str

    @property
    def moves(self) -> list[str]:
        return [s.move for s in self.line]


def _line(*items: str | tuple[str, tuple[str, ...]]) -> tuple[Step, ...]:
    return tuple(Step(i) if isinstance(i, str) else Step(i[0], i[1]) for i in items)


SHOTS: list[Shot] = [
    Shot(
        "american-golpe",
        "american",
        "W:W26,31,32:B1,17,19",
        "gain:1",
        3,
        ("26-23",),
        _line("26-23", "19x26", "31x22x13"),
        # the original lesson text: "26-23, a única resposta 19x26, 31x22x13 tomando duas pedras pela que foi
        # entregue".  19 must take 23 (landing on 26, vacated); 31 then jumps 26 and 17.  The other
        # four moves give nothing: 26-22 is taken by 17x26 and retaken one for one, the back men's
        # moves leave black a free move.
        "sacrifice on 23, the forced 19x26 lines up 26 and 17 for the double jump",
    ),
    Shot(
        "international-two-for-one",
        "international",
        "W:W28,29,32,37:B6,18,19",
        "gain:1",
        3,
        ("28-23",),
        _line("28-23", "19x28", "32x23x12"),
        # 28-23 offers the man: 18x29 is shut (29 is occupied), so 19x28 is the only capture, and it
        # cannot go on backwards over 32 because 37 holds the landing square.  32 then jumps 28 and
        # 18 (32x23x12); black's last man on 6 has no capture, the position is quiet at 3 v 1.
        "a man lured to 28 and the man on 18 go in one double jump; 37 stops the backward recapture",
    ),
    Shot(
        "international-majority-trap",
        "international",
        "W:W22,27,41:B32,37,38,39",
        "gain:1",
        3,
        ("22-17",),
        _line("22-17", "32x21x12", "41x32x43x34"),
        # After 22-17 black could take one man with 37x46 (and crown), but the majority law forces
        # the double 32x21x12 (over 27 and 17).  That opens 32, and 41 jumps 37, 38 and 39.  Under
        # free choice 37x46 refutes everything.
        "majority law: the two-piece capture is compulsory and clears the way for a triple",
    ),
    Shot(
        "brazilian-majority-trap",
        "brazilian",
        "W:Wg3,e5,f6:Bb4,b8,f4,h8",
        "gain:1",
        3,
        ("f6-g7",),
        _line("f6-g7", "h8xf6xd4", "g3xe5xc3xa5"),
        # f6-g7: black may take e5 backwards with f4xd6 (one piece) or g7 and e5 with h8xf6xd4
        # (two).  The majority law leaves only the double, which puts a man on d4: g3 takes f4, d4
        # and b4.  Three for two, black keeps b8.  In Russian (free choice) f4xd6 escapes.
        "majority law: the defender must take two and lands on d4 in front of the triple",
    ),
    Shot(
        "russian-crown-and-go-on",
        "russian",
        "W:Wg1,g3,g5:Bd6,g7,h2",
        "gain:1",
        3,
        ("g5-h6",),
        _line("g5-h6", "h2:f4", "h6:f8:c5"),
        # h2 already attacks g3; after g5-h6 the capture h2:f4 is black's only move.  h6 then jumps
        # g7, is crowned on f8 and goes on as a king over d6 (rules 1.5.15): two for one.  In
        # Brazilian the man stops on f8 and the trade is even.  The king may land on c5, b4 or a3.
        "the man crowned on f8 continues the capture as a king",
    ),
    Shot(
        "italian-king-takes-first",
        "italian",
        "W:W22,32,K28:B5,15,K14",
        "gain:1",
        3,
        ("22-19",),
        _line("22-19", "14x23", "28x19x12"),
        # 22-19 can be taken by the man (15x22) or by the king (14x23).  FID: when a man and a king
        # can take the same number, the king must take.  The king lands on 23 and the white king on
        # 28 (which 32 shields from 14x23x32) takes 23 and 15.  With any other law 15x22 is
        # possible and white wins nothing.
        "Italian precedence: the king must capture, and walks into the king shot",
    ),
    Shot(
        "portuguese-quality",
        "portuguese",
        "W:W5,K22,K26:B25,K15,K19",
        "gain:1",
        3,
        ("26-29",),
        _line("26-29", "19x26", "29x22x12"),
        # After 26-29 the king on 19 can take the man on 5 (19x1) or the king on 22 (19x26, the
        # only landing square, 29 being occupied).  Equal in number, so the law of quality forces
        # the king capture, and the king on 29 takes 26 and 15 in one line (29x12 or 29x8).
        "FPD law of quality: between equal captures the one taking a king is compulsory",
    ),
    Shot(
        "turkish-majority-trap",
        "turkish",
        "W:We7,f5,g7:Ba8,c6,d5,h7",
        "gain:1",
        3,
        ("f5-e5",),
        _line("f5-e5", "h7xf7xd7", "e5xc5xc7xe7"),
        # f5-e5 (sideways) offers e5 to d5xf5 (one piece), but h7 can take g7 and e7 sideways
        # (two, removed at once) and the majority law forces that.  Then e5 takes d5 sideways, c6
        # forwards and d7 sideways, ending on e7 which the capture emptied: three for two.
        "majority law with immediate removal: the white man ends on a square just emptied",
    ),
    Shot(
        "perde-ganha-giveaway",
        "perde-ganha",
        "W:Wb2,d2:Bc5,d4",
        "win",
        4,
        ("b2-c3",),
        _line("b2-c3", "d4xb2", "d2-c3", "b2xd4"),
        # Losing game: white wins by running out of pieces.  b2-c3 must be taken (d4xb2), then
        # d2-c3 must be taken backwards (b2xd4) and white has nothing left.  d2-c3 first cannot be
        # taken (b2 holds the landing square), d2-e3 is taken by d4xf2 but leaves b2 with no
        # capturer in reach, and b2-a3 gives black a free move.
        "both men given away in turn, each capture compulsory",
    ),
    Shot(
        "brazilian-block",
        "brazilian",
        "W:Wa3,b6,c5,d6:Ba7,d8",
        "win",
        3,
        ("a3-b4",),
        _line("a3-b4", ("d8-e7", ("d8-c7",)), "d6xf8"),
        # a7 is frozen (b6 and c5 behind it).  White waits with a3-b4; d8 must move: d8-e7 is taken
        # by d6xf8, d8-c7 by d6xb8, and a7 is left alone with no move.  b6 or c5 moving frees a7;
        # d6 moving lets d8 take or stay mobile.
        "a tempo move, then the last free black man is taken and a7 is blocked",
    ),
    Shot(
        "american-breakthrough",
        "american",
        "W:W7,12,19,26:B2,3,9,27",
        "promote",
        3,
        ("12-8",),
        _line("12-8", ("3x12", ("2x11", "3x10")), "7-3"),
        # The man on 7 is stuck behind 2 and 3.  12-8 must be taken: 3x12 opens 3 for 7-3, 3x10
        # (over 7) leaves 8-3 or 8-4, 2x11 (over 7) leaves 8-4.  Every capture lets a man through.
        "a sacrifice that forces open the king row whichever way black takes",
    ),
    Shot(
        "brazilian-king-loop",
        "brazilian",
        "W:WKc3,b2,c1,d2,f4:Bb4,b6,d4,d6,g5",
        "gain:4",
        3,
        ("c3xe5xc7xa5xc3",),
        _line("c3xa5xc7xe5xc3", "g5xe3", "d2xf4"),
        # The king takes the four men around c5 and returns to c3, clockwise or anticlockwise: one
        # move (same origin, destination and captured set).  b2 and d2 stop it landing beyond c3.
        # Then g5 must take f4 (c1 stops it going on over d2) and d2 retakes: five for one.
        "one capture that can be travelled two ways: the engine makes it one move",
    ),
]

BY_ID = {s.id: s for s in SHOTS}


CATALOGUE_MARGIN = 0
"""The catalogue states uniqueness within each shot's ply bound only (its ``solutions``); several
shots have slower other wins, so as lessons they set this cook margin, with the reason below."""
CATALOGUE_MARGIN_REASON = "solver catalogue: the key is unique within the printed line only"


def lesson_text(
    variant: str,
    puzzles: list[tuple[str, str, str, tuple[Step, ...]]],
    slug: str = "teste",
    margin: int | None = None,
    margin_reason: str = CATALOGUE_MARGIN_REASON,
) -> str:
    """A minimal lesson holding ``puzzles`` as (id, FEN, stipulation, solution steps), each with the
    cook ``margin`` (and its reason) when one is given."""
    out = [
        f"variant: {variant}",
        "language: pt-BR",
        "title: Teste do solucionador",
        f"slug: {slug}",
        "sections:",
        "  - title: Golpes",
        "puzzles:",
    ]
    for ident, fen, stip, steps in puzzles:
        out += [
            f"  - id: {ident}",
            f"    position: '{fen}'",
            f"    stipulation: '{stip}'",
            "    solution:",
        ]
        if margin is not None:
            out.insert(-1, f"    margin: {margin}")
            out.insert(-1, f"    margin_reason: '{margin_reason}'")
        out += [f"      - {s.yaml()}" for s in steps]
    return "\n".join(out) + "\n"


def shot_lesson(shot: Shot) -> str:
    return lesson_text(shot.variant, [(shot.id, shot.fen, shot.goal, shot.line)], slug=shot.id, margin=CATALOGUE_MARGIN)
