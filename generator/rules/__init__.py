"""The rules engine: variants as data, one generic move generator, FEN and move notation.

It imports nothing from lessons, rendering or files.

>>> from generator.rules import Position
>>> Position.from_fen("international", "W:W28:B").legal_moves() and "ok"
'ok'
"""

from .errors import (
    AmbiguousMoveError,
    DamasError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    UnknownVariantError,
)
from .geometry import BLACK, WHITE, Geometry, Layout, Numbering, Square
from .move import Move
from .perft import perft
from .position import Position
from .variants import (
    VARIANTS,
    CapturePromotion,
    Goal,
    Precedence,
    Removal,
    Variant,
    get_variant,
)

__all__ = [
    "BLACK",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "CapturePromotion",
    "DamasError",
    "Geometry",
    "Goal",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Layout",
    "Move",
    "Numbering",
    "Position",
    "Precedence",
    "Removal",
    "Square",
    "UnknownVariantError",
    "Variant",
    "get_variant",
    "perft",
]
