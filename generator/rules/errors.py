"""Exceptions of the rules engine.  All are ``ValueError`` so callers can catch bad input in one place."""

from __future__ import annotations


class DamasError(ValueError):
    """Base of every error the engine raises for bad input."""


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
