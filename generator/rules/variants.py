"""The variants as data: one frozen record each, read by the one generic move generator.

A record states only how its rulebook differs from the defaults of :class:`Variant` (which are the
International rules).  Each line cites its source in ``docs/spec.md`` and the rulebook
article where one is known.  A new variant is a new record plus tests, never a new generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from .errors import UnknownVariantError
from .geometry import BLACK, WHITE, Geometry, Layout, Numbering
from .switches import CapturePromotion as CapturePromotion  # re-exported: the switches belong to the records
from .switches import Goal as Goal
from .switches import Precedence as Precedence
from .switches import Removal as Removal

if TYPE_CHECKING:
    from .movegen import MoveGenerator


def _switch_value(kind: type, text: str, name: str) -> object:
    t = text.lower().replace("_", "-")
    if kind is bool:
        if t in ("yes", "true", "on", "1"):
            return True
        if t in ("no", "false", "off", "0"):
            return False
        raise ValueError(f"{name} takes yes or no, not '{text}'")
    if kind is int:  # a colour
        if t in ("white", "w"):
            return WHITE
        if t in ("black", "b"):
            return BLACK
        raise ValueError(f"{name} takes white or black, not '{text}'")
    choices = {m.name.lower().replace("_", "-"): m for m in kind}  # type: ignore[attr-defined]  # an Enum here
    if t not in choices:
        raise ValueError(f"{name} takes one of {', '.join(choices)}, not '{text}'")
    return choices[t]


INTERNATIONAL_BOARD = Geometry(10, 10, Layout.STANDARD, Numbering.TOP_LEFT)
BOARD_8X8_NUMERIC = Geometry(8, 8, Layout.STANDARD, Numbering.TOP_LEFT)
BOARD_8X8_ALGEBRAIC = Geometry(8, 8, Layout.STANDARD, Numbering.ALGEBRAIC)
ITALIAN_BOARD = Geometry(8, 8, Layout.MIRRORED, Numbering.TOP_LEFT)
PORTUGUESE_BOARD = Geometry(8, 8, Layout.MIRRORED, Numbering.BOTTOM_RIGHT)
TURKISH_BOARD = Geometry(8, 8, Layout.FULL, Numbering.ALGEBRAIC)


@dataclass(frozen=True)
class Variant:
    """The rules of one game, as parameters.  Defaults are the FMJD International rules (§3)."""

    name: str
    """Identifier used on the command line and in lessons (``brazilian``)."""
    title: str
    """Human name in Brazilian Portuguese, for pages."""
    title_en: str
    geometry: Geometry = INTERNATIONAL_BOARD
    start_ranks: tuple[int, ...] = (0, 1, 2, 3)
    """White's starting ranks (0-based); Black's are the mirror image."""
    first_to_move: int = WHITE
    men_capture_backward: bool = True
    men_capture_kings: bool = True
    flying_kings: bool = True
    removal: Removal = Removal.END_OF_MOVE
    precedence: Precedence = Precedence.MOST_PIECES
    capture_promotion: CapturePromotion = CapturePromotion.PASS_THROUGH
    goal: Goal = Goal.NORMAL
    capture_separator: str = "x"
    gametype: str = "20"
    """PDN GameType tag value (§12.3); the losing games have no standard number."""
    draw_profiles: tuple[str, ...] = ("fmjd",)
    """Names of the draw-rule profiles this variant offers (generator.rules.draws), the default first."""
    base: str | None = None
    """For a variant that only changes the goal, the variant whose moves it uses."""
    aliases: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    """Short English notes on sources and defaults, printed by ``damas variants``."""

    @property
    def flying(self) -> bool:
        return self.flying_kings

    def __getstate__(self) -> dict[str, object]:
        """The fields without the cached move generator (a compiled one cannot be pickled): a
        variant sent to a worker process builds its own generator there."""
        state = dict(self.__dict__)
        state.pop("generator", None)
        return state

    @cached_property
    def generator(self) -> MoveGenerator:
        """The move generator for these rules (built once per variant): the compiled core when it
        was built, else the pure-Python one (``generator.rules.core`` chooses)."""
        from .core import make_generator

        return make_generator(self)

    @cached_property
    def max_pieces(self) -> int:
        """Pieces per side at the start, the most a legal position may hold."""
        return sum(1 for sq in self.geometry.squares if self.geometry.rank_of(sq) in self.start_ranks)

    def promotion_rank(self, color: int) -> int:
        return self.geometry.height - 1 if color == WHITE else 0

    def with_rules(self, **changes: object) -> Variant:
        """A copy with some rule parameters changed: a *profile*, for following another source where
        docs/spec.md marks a rule unverified (``TURKISH.with_rules(capture_promotion=...)``).

        Raises:
            ValueError: for a parameter that is not a rule switch.
        """
        unknown = sorted(set(changes) - set(RULE_SWITCHES))
        if unknown:
            raise ValueError(f"not a rule switch: {', '.join(unknown)} (switches: {', '.join(RULE_SWITCHES)})")
        return replace(self, **changes)  # type: ignore[arg-type]  # names checked above, values by the caller

    def with_rule_text(self, text: str) -> Variant:
        """``with_rules`` from ``name=value`` text, as given on the command line
        (``capture_promotion=promote-and-continue``, ``flying_kings=no``)."""
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in RULE_SWITCHES:
            raise ValueError(
                f"'{text}' is not a rule switch; expected NAME=VALUE, NAME one of {', '.join(RULE_SWITCHES)}"
            )
        kind = RULE_SWITCHES[name]
        return self.with_rules(**{name: _switch_value(kind, value.strip(), name)})

    def start_state(self) -> tuple[int, int, int, int]:
        """The initial position as ``(white, black, kings, turn)`` (``Position.start`` makes it a
        position)."""
        g = self.geometry
        white = black = 0
        for sq in g.squares:
            r = g.rank_of(sq)
            if r in self.start_ranks:
                white |= 1 << sq
            if g.height - 1 - r in self.start_ranks:
                black |= 1 << sq
        return white, black, 0, self.first_to_move

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


INTERNATIONAL = Variant(
    name="international",
    title="Damas internacionais (10×10)",
    title_en="International draughts (10x10)",
    # every other field is the default: FMJD 2.1-2.6 board and numbering, 3.9 flying king, 4.1-4.2
    # men capture both ways, 4.8 removal at the end, 4.13-4.14 majority, 4.15 pass-through.
    gametype="20",
)

BRAZILIAN = replace(
    INTERNATIONAL,
    name="brazilian",
    title="Damas brasileiras",
    title_en="Brazilian draughts",
    geometry=BOARD_8X8_ALGEBRAIC,  # CBD item 3; algebraic notation (§4, §14.14)
    start_ranks=(0, 1, 2),
    draw_profiles=("cbd", "fmjd64", "fmjd64-plies"),  # §4: the sources disagree (§14.7)
    gametype="26",  # moves and captures are the International rules on 8x8 (CBD items 1-17)
)

RUSSIAN = replace(
    BRAZILIAN,
    name="russian",
    title="Damas russas",
    title_en="Russian draughts (shashki)",
    precedence=Precedence.FREE,  # §5: free choice, the chosen sequence is completed
    capture_promotion=CapturePromotion.PROMOTE_AND_CONTINUE,  # Russian rules 1.5.15
    capture_separator=":",  # PDN table, game type 25
    gametype="25",
    draw_profiles=("fmjd64", "fmjd64-plies"),  # FMJD-64 7.2.x; §14.3 for the unit
)

AMERICAN = Variant(
    name="american",
    title="Damas americanas",
    title_en="American / English checkers",
    geometry=BOARD_8X8_NUMERIC,  # WCDF 1.4-1.5: 1 = b8 with Black on top
    start_ranks=(0, 1, 2),  # WCDF 1.11: White on 21-32
    first_to_move=BLACK,  # WCDF 1.13: Black (Red) moves first
    men_capture_backward=False,  # WCDF 1.18
    flying_kings=False,  # WCDF 1.17
    precedence=Precedence.FREE,  # WCDF 1.20
    capture_promotion=CapturePromotion.PROMOTE_AND_STOP,  # WCDF 1.16/1.19
    gametype="21",
    draw_profiles=("wcdf",),  # WCDF 1.32
    aliases=("english", "checkers"),
)

PORTUGUESE = Variant(
    name="portuguese",
    title="Damas portuguesas (clássicas)",
    title_en="Portuguese draughts",
    geometry=PORTUGUESE_BOARD,  # FPD items 3-6: mirrored board, 1 = h1, right to left
    start_ranks=(0, 1, 2),  # FPD item 7: White 1-12
    men_capture_backward=False,  # §7 [IMPL]
    precedence=Precedence.MOST_PIECES_THEN_KINGS,  # FPD laws of quantity and quality
    capture_promotion=CapturePromotion.PROMOTE_AND_STOP,  # §7, §14.2
    gametype="28",
    draw_profiles=("fpd", "fpd-man-moves"),  # §7; §14.12
)

ITALIAN = Variant(
    name="italian",
    title="Damas italianas",
    title_en="Italian draughts",
    geometry=ITALIAN_BOARD,  # FID 2.3-2.4: mirrored board, 1 = a8
    start_ranks=(0, 1, 2),  # FID 2.6: White 21-32
    men_capture_backward=False,  # FID rule 3
    men_capture_kings=False,  # FID rule 3, 5.3: a man never takes a king
    flying_kings=False,
    precedence=Precedence.ITALIAN,  # FID art. 6.6-6.10
    capture_promotion=CapturePromotion.PROMOTE_AND_STOP,
    gametype="22",
    draw_profiles=("fid", "fid-threefold"),  # §8, §14.10
)

TURKISH = Variant(
    name="turkish",
    title="Damas turcas",
    title_en="Turkish draughts (dama)",
    geometry=TURKISH_BOARD,  # §9: all 64 squares, orthogonal
    start_ranks=(1, 2),  # §9: White on ranks 2-3
    men_capture_backward=False,  # men jump forward and sideways only
    removal=Removal.IMMEDIATE,  # §9 [IMPL]: removed at once, no 180-degree turn
    capture_promotion=CapturePromotion.PASS_THROUGH,  # §9 [IMPL, §14.13]
    gametype="30",
    draw_profiles=("turkish", "turkish-pydraughts"),  # §9, §14.13
)

PERDE_GANHA = replace(
    BRAZILIAN,
    name="perde-ganha",
    title="Perde-ganha",
    title_en="Losing draughts on the Brazilian board (perde-ganha)",
    goal=Goal.LOSING,  # §10: the side left without a move wins
    base="brazilian",
    draw_profiles=("losing",),  # §10
    gametype="26",
    aliases=("perdeganha", "losing"),
)

ANTIDRAUGHTS = replace(
    INTERNATIONAL,
    name="antidraughts",
    title="Perde-ganha internacional (antidraughts)",
    title_en="Antidraughts (losing International draughts)",
    goal=Goal.LOSING,  # §10 [IMPL lidraughts, pydraughts]
    base="international",
    draw_profiles=("losing",),  # §10
    aliases=("giveaway",),
)

RULE_SWITCHES: dict[str, type] = {
    "first_to_move": int,
    "men_capture_backward": bool,
    "men_capture_kings": bool,
    "flying_kings": bool,
    "removal": Removal,
    "precedence": Precedence,
    "capture_promotion": CapturePromotion,
    "goal": Goal,
}
"""The rule parameters a profile may change, with their types."""

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        BRAZILIAN,
        INTERNATIONAL,
        RUSSIAN,
        AMERICAN,
        PORTUGUESE,
        ITALIAN,
        TURKISH,
        PERDE_GANHA,
        ANTIDRAUGHTS,
    )
}

_ALIASES: dict[str, str] = {alias: v.name for v in VARIANTS.values() for alias in v.aliases}


def get_variant(name: str | Variant) -> Variant:
    """Find a variant by name or alias, case-insensitively.

    Raises:
        UnknownVariantError: naming the known variants.

    >>> get_variant("English").name
    'american'
    """
    if isinstance(name, Variant):
        return name
    key = name.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        raise UnknownVariantError(name, sorted(VARIANTS)) from None
