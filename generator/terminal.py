"""Text for the terminal: what a file name, key or lesson text could smuggle into a message.

An error message quotes user text (a file name, an unknown key, a move).  Written raw, an ESC
sequence in it can clear the screen or recolour the terminal, a line break can print a fake
``path:line:col: ...`` line, and a bidi override can make the text read differently from what it
is.  :func:`printable` escapes all of them, as Python's ``repr`` does, and leaves every other
character (accents, symbols, any script) as it is.
"""

from __future__ import annotations

import re

_ESCAPE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(m: re.Match[str]) -> str:
    ch = m.group()
    code = ord(ch)
    if ch in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with C0/C1 control characters, line and paragraph separators, bidi controls and
    lone surrogates written as ``\\n``, ``\\x1b``, ``\\u202e`` (one linear pass)."""
    return _ESCAPE.sub(_escaped, text)
