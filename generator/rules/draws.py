"""Draw rules as data (docs/spec.md §3-§11), grouped in named profiles.

Three kinds of rule cover every federation text in the spec:

* :class:`Repetition`: the same position (placement and side to move) for the n-th time;
* :class:`MoveLimit`: a number of plies without "progress", where progress is a capture plus either
  a man move (counter ``H``) or a promotion (counter ``P``), optionally only while a material
  condition holds;
* :class:`EndgameLimit`: a number of plies since a material configuration arose (the short-ending
  rules), counted separately for each rule.

A profile is a tuple of rules; each rule has an id (the spec's: ``D2``, ``R4``, ``E2`` ...) so it
can be switched off by name.  Rules are applied automatically when the threshold is reached
(docs/spec.md §1.9): the game layer asks each rule in turn after every ply.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Literal

from .geometry import BLACK, WHITE, Geometry, Layout

if TYPE_CHECKING:
    from .position import Position
    from .variants import Variant

Condition = Callable[["Position"], Hashable | None]
"""A position -> a key naming the configuration it is in, or None when the rule does not apply.
A change of key restarts the rule's count."""


@dataclass(frozen=True)
class Repetition:
    id: str
    times: int
    reason: str
    reason_pt: str


@dataclass(frozen=True)
class MoveLimit:
    id: str
    plies: int
    counter: Literal["H", "P"]
    """``H``: plies since the last capture or man move; ``P``: since the last capture or promotion."""
    reason: str
    reason_pt: str
    condition: Condition | None = None
    """Only applies while this holds (``None``: always)."""


@dataclass(frozen=True)
class EndgameLimit:
    id: str
    plies: int
    condition: Condition
    reason: str
    reason_pt: str


DrawRule = Repetition | MoveLimit | EndgameLimit


@dataclass(frozen=True)
class DrawProfile:
    """A named set of draw rules."""

    name: str
    description: str
    rules: tuple[DrawRule, ...]

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    def without(self, *ids: str) -> DrawProfile:
        """The profile with some rules switched off.

        Raises:
            ValueError: for an id that is not in the profile.
        """
        unknown = [i for i in ids if i not in self.rule_ids]
        if unknown:
            raise ValueError(
                f"draw rule {', '.join(unknown)} is not in profile '{self.name}' "
                f"(its rules: {', '.join(self.rule_ids)})"
            )
        kept = tuple(r for r in self.rules if r.id not in ids)
        return replace(self, name=f"{self.name}-without-{'-'.join(ids)}", rules=kept)

    @property
    def endgame_rules(self) -> tuple[EndgameLimit, ...]:
        return tuple(r for r in self.rules if isinstance(r, EndgameLimit))


# -- material helpers --------------------------------------------------------------------------------


def material(pos: Position) -> tuple[tuple[int, int], tuple[int, int]]:
    """((white kings, white men), (black kings, black men))."""
    wk = (pos.white & pos.kings).bit_count()
    bk = (pos.black & pos.kings).bit_count()
    return ((wk, pos.white.bit_count() - wk), (bk, pos.black.bit_count() - bk))


@cache
def long_diagonal(geometry: Geometry) -> int:
    """The bit set of the board's longest diagonal ("grande diagonal", "большак", "rio"):
    a1-h8 on the standard board, h1-a8 on the mirrored one."""
    if geometry.layout is Layout.FULL:
        return 0
    best: tuple[int, ...] = ()
    for sq in geometry.squares:
        for d in range(4):
            ray = (sq, *geometry.rays[d][sq])
            if len(ray) > len(best):
                best = ray
    mask = 0
    for sq in best:
        mask |= 1 << sq
    return mask


def _strong_vs_lone_king(pos: Position, allowed: AbstractSet[tuple[int, int]]) -> int | None:
    """The strong side's colour when one side has a lone king and the other's (kings, men) is in
    ``allowed``; else None."""
    (wk, wm), (bk, bm) = material(pos)
    if (bk, bm) == (1, 0) and (wk, wm) in allowed:
        return WHITE
    if (wk, wm) == (1, 0) and (bk, bm) in allowed:
        return BLACK
    return None


# The conditions with parameters are frozen dataclasses, not closures: a profile crosses to the
# build's worker processes with each proof job, and a closure cannot be pickled.


@dataclass(frozen=True)
class _ClassKey:
    """Applies when one side has a lone king and the other one of the ``allowed`` (kings, men)."""

    label: str
    allowed: frozenset[tuple[int, int]]

    def __call__(self, pos: Position) -> Hashable | None:
        strong = _strong_vs_lone_king(pos, self.allowed)
        # The key names the class only: in K v K either side is "strong", and a capture that
        # swaps them must not restart the count.
        return None if strong is None else (self.label,)


def _class_key(label: str, allowed: set[tuple[int, int]]) -> Condition:
    return _ClassKey(label, frozenset(allowed))


@dataclass(frozen=True)
class _ExactMaterialKey:
    """Applies when the two sides' (kings, men) pairs form one of ``configs``; the key is the exact
    material, so a capture that leaves another listed configuration restarts the count."""

    configs: frozenset[frozenset[tuple[int, int]]]

    def __call__(self, pos: Position) -> Hashable | None:
        m = material(pos)
        if frozenset(m) in self.configs:  # 2K v 2K is the one-element set {(2, 0)}
            return ("material", m)
        return None


def _exact_material_key(configs: set[frozenset[tuple[int, int]]]) -> Condition:
    return _ExactMaterialKey(frozenset(configs))


@dataclass(frozen=True)
class _BothSidesKings:
    """Applies when each side has a king and there are ``lo`` to ``hi`` pieces in all."""

    lo: int
    hi: int

    def __call__(self, pos: Position) -> Hashable | None:
        (wk, wm), (bk, bm) = material(pos)
        total = wk + wm + bk + bm
        return ("balance",) if wk >= 1 and bk >= 1 and self.lo <= total <= self.hi else None


def _both_sides_kings(lo: int, hi: int) -> Condition:
    return _BothSidesKings(lo, hi)


def _lone_king_on_long_diagonal(pos: Position) -> Hashable | None:
    strong = _strong_vs_lone_king(pos, {(3, 0), (2, 1), (1, 2)})
    if strong is None:
        return None
    lone = pos.pieces(strong ^ 1)
    return ("R5",) if lone & long_diagonal(pos.variant.geometry) else None


def _three_kings_hold_long_diagonal(pos: Position) -> Hashable | None:
    strong = _strong_vs_lone_king(pos, {(3, 0)})
    if strong is None:
        return None
    held = pos.pieces(strong) & long_diagonal(pos.variant.geometry)
    return ("P2",) if held else None


# -- the rules of each federation ----------------------------------------------------------------

THREEFOLD = Repetition("repetition", 3, "threefold repetition", "repetição de posição (3 vezes)")

FMJD = DrawProfile(
    "fmjd",
    "FMJD rules for International draughts, article 6 (docs/spec.md §3)",
    (
        replace(THREEFOLD, id="D1"),
        MoveLimit(
            "D2",
            50,
            "H",
            "25 moves each with only kings moving and no capture",
            "25 lances de cada lado só com damas, sem captura",
        ),
        EndgameLimit(
            "D3",
            32,
            _class_key("D3", {(3, 0), (2, 1), (1, 2)}),
            "16 moves each of three pieces (one a king) against a lone king",
            "16 lances de cada lado de três peças (uma dama) contra dama sozinha",
        ),
        EndgameLimit(
            "D4",
            10,
            _class_key("D4", {(1, 0), (2, 0), (1, 1)}),
            "5 moves each of at most two pieces (one a king) against a lone king",
            "5 lances de cada lado de até duas peças (uma dama) contra dama sozinha",
        ),
    ),
)


def _fmjd64(name: str, balance_unit_plies: int, description: str) -> DrawProfile:
    """FMJD-64 / Russian rules 7.2.3-7.2.8; ``balance_unit_plies`` is 2 when R4's "30 moves" counts
    moves of each player (pydraughts, the default) and 1 when it counts plies (lidraughts)."""
    u = balance_unit_plies

    def unit(n: int) -> str:
        return f"{n} moves each" if u == 2 else f"{n} plies"

    return DrawProfile(
        name,
        description,
        (
            replace(THREEFOLD, id="R1"),
            EndgameLimit(
                "R2",
                30,
                _class_key("R2", {(k, 0) for k in range(3, 13)}),
                "three or more kings failed to catch a lone king in 15 moves",
                "três damas ou mais não capturaram a dama sozinha em 15 lances",
            ),
            MoveLimit(
                "R3",
                30,
                "H",
                "15 moves each with only kings moving and no capture",
                "15 lances de cada lado só com damas, sem captura",
            ),
            MoveLimit(
                "R4a",
                30 * u,
                "P",
                f"{unit(30)} with kings on both sides and no change of material (4-5 pieces)",
                "lances com damas dos dois lados sem mudança de material (4 ou 5 peças)",
                _both_sides_kings(4, 5),
            ),
            MoveLimit(
                "R4b",
                60 * u,
                "P",
                f"{unit(60)} with kings on both sides and no change of material (6-7 pieces)",
                "lances com damas dos dois lados sem mudança de material (6 ou 7 peças)",
                _both_sides_kings(6, 7),
            ),
            EndgameLimit(
                "R5",
                10,
                _lone_king_on_long_diagonal,
                "5 moves each of three pieces against a lone king holding the long diagonal",
                "5 lances de cada lado de três peças contra dama sozinha na grande diagonal",
            ),
            EndgameLimit(
                "R6",
                10,
                _class_key("R6", {(2, 0), (1, 1), (1, 0)}),
                "5 moves each of at most two pieces against a lone king",
                "5 lances de cada lado de até duas peças contra dama sozinha",
            ),
        ),
    )


FMJD64 = _fmjd64("fmjd64", 2, "FMJD-64 / Russian federation rules 7.2.3-7.2.8 (docs/spec.md §5)")
FMJD64_PLIES = _fmjd64("fmjd64-plies", 1, "as fmjd64, but rule 7.2.6 counts 30/60 plies, as lidraughts does (§14.3)")

_CBD_SHORT = {
    frozenset({(2, 0)}),  # 2K v 2K
    frozenset({(2, 0), (1, 0)}),  # 2K v 1K
    frozenset({(2, 0), (1, 1)}),  # 2K v 1K+1M
    frozenset({(1, 0)}),  # 1K v 1K
    frozenset({(1, 0), (1, 1)}),  # 1K v 1K+1M
}

CBD = DrawProfile(
    "cbd",
    "Brazilian national rules as in the CBD summary and the short-ending table (docs/spec.md §4, §14.7)",
    (
        MoveLimit(
            "B1",
            40,
            "H",
            "20 moves each with only kings moving, no capture and no man move",
            "20 lances de cada lado só com damas, sem captura nem lance de pedra",
        ),
        replace(THREEFOLD, id="B2"),
        EndgameLimit(
            "B3",
            10,
            _exact_material_key(_CBD_SHORT),
            "short ending: 5 moves each",
            "final curto: 5 lances de cada lado",
        ),
    ),
)

WCDF = DrawProfile(
    "wcdf",
    "WCDF rule 1.32 for American/English checkers (docs/spec.md §6)",
    (
        replace(THREEFOLD, id="E1"),
        MoveLimit(
            "E2",
            80,
            "H",
            "40 moves each with no man advanced and nothing captured",
            "40 lances de cada lado sem avanço de pedra e sem captura",
        ),
    ),
)


def _fpd(name: str, counter: Literal["H", "P"], description: str) -> DrawProfile:
    return DrawProfile(
        name,
        description,
        (
            MoveLimit(
                "P1",
                40,
                counter,
                "20 moves each without capture or promotion",
                "20 lances de cada lado sem captura nem promoção",
            ),
            EndgameLimit(
                "P2",
                24,
                _three_kings_hold_long_diagonal,
                "12 moves each of three kings holding the long diagonal against one king",
                "12 lances de cada lado de três damas na grande diagonal contra uma dama",
            ),
            replace(THREEFOLD, id="P3"),
        ),
    )


FPD = _fpd("fpd", "P", "FPD limited-moves laws as summarised in docs/spec.md §7 (P1 reset by capture or promotion)")
FPD_MAN_MOVES = _fpd("fpd-man-moves", "H", "as fpd, but a man move also resets P1 (§14.12)")

FID = DrawProfile(
    "fid",
    "Italian draws as dctl encodes them: 4th repetition (FID 9.3 b1), 80 reversible plies (10.4) (§8)",
    (
        Repetition("I1", 4, "fourth repetition", "repetição de posição (4 vezes)"),
        MoveLimit(
            "I2",
            80,
            "H",
            "40 moves each without capture or man move",
            "40 lances de cada lado sem captura nem lance de pedra",
        ),
    ),
)
FID_THREEFOLD = DrawProfile(
    "fid-threefold",
    "Italian draws as pydraughts has them: threefold repetition, 40 king moves each (§14.10)",
    (
        replace(THREEFOLD, id="I1"),
        FID.rules[1],
    ),
)


def _one_against_one(pos: Position) -> Hashable | None:
    (wk, wm), (bk, bm) = material(pos)
    return ("1v1",) if wk + wm == 1 and bk + bm == 1 else None


TURKISH_DRAWS = DrawProfile(
    "turkish",
    "Turkish: threefold repetition only; the other rules in the sources are unverified (§9, §14.13)",
    (replace(THREEFOLD, id="T1"),),
)
TURKISH_PYDRAUGHTS = DrawProfile(
    "turkish-pydraughts",
    "Turkish as pydraughts: threefold, and one piece against one drawn after 2 moves each",
    (
        replace(THREEFOLD, id="T1"),
        EndgameLimit("T2", 4, _one_against_one, "one piece against one", "uma peça contra uma"),
    ),
)

LOSING = DrawProfile(
    "losing",
    "Losing games: threefold repetition only, as lidraughts does for antidraughts (§10)",
    (replace(THREEFOLD, id="L1"),),
)

NO_DRAWS = DrawProfile("none", "No draw rules (games end only when a side cannot move)", ())

PROFILES: dict[str, DrawProfile] = {
    p.name: p
    for p in (
        FMJD,
        FMJD64,
        FMJD64_PLIES,
        CBD,
        WCDF,
        FPD,
        FPD_MAN_MOVES,
        FID,
        FID_THREEFOLD,
        TURKISH_DRAWS,
        TURKISH_PYDRAUGHTS,
        LOSING,
        NO_DRAWS,
    )
}


def draw_profile(variant: Variant, name: str | None = None) -> DrawProfile:
    """The variant's draw profile called ``name`` (default: the variant's first).

    Raises:
        ValueError: for a profile that does not belong to the variant.
    """
    offered = variant.draw_profiles
    if name is None:
        return PROFILES[offered[0]]
    if name not in offered and name != "none":
        raise ValueError(f"draw profile '{name}' is not one of {variant.name}'s: {', '.join((*offered, 'none'))}")
    return PROFILES[name]
