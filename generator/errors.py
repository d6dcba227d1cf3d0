"""The base error of damas: every problem with what the user gave (a file, a FEN, a move, a setting).

It lives at the top of the package, below every layer, so the rules engine, the puzzle searches,
the lesson checker and the CLI share one base without any of them importing another: the CLI
catches :class:`DamasError` once and prints its message as one line (never a traceback).  It is a
``ValueError`` so library callers can treat bad input the usual Python way.
"""

from __future__ import annotations


class DamasError(ValueError):
    """Base of every error damas raises for bad input."""
