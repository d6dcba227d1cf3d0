"""Exceptions of the rules engine: bad variant names, FENs and move texts.

They stay here, beside the code that raises them (they describe the engine's own input), and
subclass the application's base :class:`generator.errors.DamasError`, so a caller catches engine
errors and every other bad input in one place.
"""

from __future__ import annotations

from ..errors import DamasError

__all__ = [
    "AmbiguousMoveError",
    "DamasError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "UnknownVariantError",
]


class UnknownVariantError(DamasError):
    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown variant '{name}' (known: {', '.join(known)})")


class InvalidFenError(DamasError):
    """A FEN that cannot be read, or that describes an impossible position."""

    def __init__(self, fen: str, reason: str) -> None:
        self.fen = fen
        self.reason = reason
        shown = fen if len(fen) <= 100 else fen[:97] + "..."
        super().__init__(f"invalid FEN '{shown}': {reason}")


class InvalidMoveError(DamasError):
    """Move text that cannot be read as a move at all."""


class IllegalMoveError(DamasError):
    """A readable move that is not legal in the position."""


class AmbiguousMoveError(DamasError):
    """Move text that fits more than one legal move."""
