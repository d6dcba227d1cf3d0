"""The values a rule switch of a variant can take (docs/spec.md §1): plain enums, below everything
else in the engine, so that the variant records (:mod:`.variants`) and the move generators that
read them (:mod:`.movegen`, the compiled ``_core``) share them without importing each other.
"""

from __future__ import annotations

from enum import Enum


class Precedence(Enum):
    """Which capture sequences stay legal when several exist (docs/spec.md §1.7)."""

    FREE = "free choice"
    MOST_PIECES = "most pieces"
    MOST_PIECES_THEN_KINGS = "most pieces, then most kings"
    ITALIAN = "most pieces, king captures first, most kings, earliest kings"


class CapturePromotion(Enum):
    """What a man does when a capture brings it to its promotion row (docs/spec.md §1.6)."""

    PASS_THROUGH = "continues as a man; promoted only if the move ends there"
    PROMOTE_AND_CONTINUE = "promoted at once and continues capturing as a king"
    PROMOTE_AND_STOP = "crowned and the move ends"


class Removal(Enum):
    """When captured pieces leave the board (docs/spec.md §1.5)."""

    END_OF_MOVE = "at the end of the move"
    IMMEDIATE = "as each is jumped"


class Goal(Enum):
    """What the side left without a move gets (docs/spec.md §1.9, §10)."""

    NORMAL = "the side that cannot move loses"
    LOSING = "the side that cannot move wins"
