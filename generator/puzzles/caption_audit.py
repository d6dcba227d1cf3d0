"""A proofreader's pass over a caption: every fact it states about the puzzle, read against the line.

A caption is free text a person wrote, so it cannot be proven as a whole; but the facts a hint
states are few and recognisable: who is to move, a piece on a named square, the material
("duas pedras a mais", "three against two"), a crowning, a backward capture, how many pieces a
capture takes, how the game ends ("sem lances", "no pieces left").  Each phrase is matched by a
pattern (Portuguese and English) and compared with the facts of the proven main line
(:mod:`generator.puzzles.line_facts`).  What the patterns do not recognise is not checked: this
finds false hints, it does not certify prose.

Threats and negations are not facts of the line and are skipped ("a um passo de coroar", "sem
coroar", "quer coroar", "about to crown").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .line_facts import LineFacts

NUMBERS = {
    "um": 1, "uma": 1, "one": 1, "a": 1, "an": 1, "single": 1,
    "dois": 2, "duas": 2, "two": 2, "double": 2, "dupla": 2, "duplo": 2,
    "três": 3, "three": 3, "tripla": 3, "triplo": 3, "triple": 3,
    "quatro": 4, "four": 4, "quádrupla": 4, "cinco": 5, "five": 5, "seis": 6, "six": 6,
    "sete": 7, "seven": 7, "oito": 8, "eight": 8, "nove": 9, "nine": 9,
}  # fmt: skip
NUM = r"(\d+|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")"


def _n(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def _square_names(facts: LineFacts) -> dict[str, int]:
    pos = facts.start
    return {pos.square_name(sq).lower(): sq for sq in pos.variant.geometry.squares}


Check = Callable[[re.Match[str], LineFacts], "str | None"]


def _side(m: re.Match[str], f: LineFacts) -> str | None:
    word = m.group(1).lower()
    side = 0 if word in ("brancas", "white") else 1
    return None if f.attacker == side else f"says {m.group(0)!r} but the other side is to move"


def _piece_on(m: re.Match[str], f: LineFacts) -> str | None:
    kind, colour, square = m.group("kind").lower(), (m.group("colour") or "").lower(), m.group("sq").lower()
    names = _square_names(f)
    if square not in names:
        return None
    sq = names[square]
    want_side = {"branca": 0, "brancas": 0, "white": 0, "preta": 1, "pretas": 1, "black": 1}.get(colour)
    want_king = {"dama": True, "king": True, "pedra": False, "man": False}.get(kind)
    for pos in f.positions:
        here = pos.piece_at(sq)
        if here is None:
            continue
        side, king = here
        if (want_side is None or side == want_side) and (want_king is None or king == want_king):
            return None
    return f"names {m.group(0)!r} but no such piece stands there in the line"


def _crowning(m: re.Match[str], f: LineFacts) -> str | None:
    return None if f.crownings else f"says {m.group(0)!r} but no man is crowned in the line"


def _backward(m: re.Match[str], f: LineFacts) -> str | None:
    if f.backward_by(0) or f.backward_by(1):
        return None
    return f"says {m.group(0)!r} but no man captures backwards in the line"


def _takes(m: re.Match[str], f: LineFacts) -> str | None:
    n = _n(m.group("n"))
    if any(c.taken == n for c in f.captures):
        return None
    return f"says {m.group(0)!r} but no capture in the line takes {n}"


def _no_moves(m: re.Match[str], f: LineFacts) -> str | None:
    return None if f.defender_blocked else f"says {m.group(0)!r} but the line does not end with the opponent blocked"


def _no_pieces(m: re.Match[str], f: LineFacts) -> str | None:
    return None if f.defender_has_no_pieces else f"says {m.group(0)!r} but the opponent keeps pieces"


def _up(m: re.Match[str], f: LineFacts) -> str | None:
    n = _n(m.group("n"))
    kind = m.group("kind").lower()
    sign = -1 if m.group("dir").lower() in ("menos", "down", "behind") else 1
    men, kings = f.lead(0)
    if kind.startswith(("dama", "king")):
        ok = kings == sign * n and men == 0
    elif kind.startswith(("pedra", "man", "men")):
        ok = men == sign * n and kings == 0
    else:
        ok = men + kings == sign * n
    return None if ok else f"says {m.group(0)!r} but the solver starts {men:+d} men and {kings:+d} kings"


def _against(m: re.Match[str], f: LineFacts) -> str | None:
    a, b = _n(m.group("a")), _n(m.group("b"))
    mine, theirs = f.material(f.attacker).pieces, f.material(f.defender).pieces
    if (a, b) == (mine, theirs):
        return None
    return f"says {m.group(0)!r} but the start is {mine} against {theirs}"


_SQ = r"(?P<sq>[a-l]\d{1,2}|\d{1,2})\b"
_NOT_A_FACT = r"(?<!passo de )(?<!sem )(?<!quer )(?<!querem )(?<!perto de )(?<!about to )(?<!wants to )(?<!without )"
PATTERNS: list[tuple[re.Pattern[str], Check]] = [
    (re.compile(r"\bvez das (brancas|pretas)\b", re.I), _side),
    (re.compile(r"\b(white|black) to (?:move|play)\b", re.I), _side),
    (
        re.compile(
            r"\b(?P<kind>pedra|dama|peça|man|king)s? (?:(?P<colour>branca|preta|white|black)s? )?"
            r"(?:de|da|do|em|na|no|on|at|from) (?:casa )?" + _SQ,
            re.I,
        ),
        _piece_on,
    ),
    (
        re.compile(
            r"\b(?P<colour>white|black) (?P<kind>man|king) (?:on|at|from) " + _SQ,
            re.I,
        ),
        _piece_on,
    ),
    (
        re.compile(
            _NOT_A_FACT + r"\b(coroar|coroa|coroe|coroando|coroam|corou|faz(?:er|endo)? dama|faça dama|"
            r"dama nova|nova dama|crowns?|crowning|crowned|new king)\b",
            re.I,
        ),
        _crowning,
    ),
    (re.compile(r"\b(para trás|backwards?)\b", re.I), _backward),
    (
        re.compile(
            r"\b(?:toma|tomam|come|comem|coma|tome|salta|saltam|salte|leva|takes?|jumps?|captures?) "
            r"(?P<n>" + NUM[1:-1] + r")\b(?! (?:vezes|times|lances|moves))",
            re.I,
        ),
        _takes,
    ),
    (re.compile(r"\btomada (?P<n>dupla|tripla|quádrupla)\b|\b(?P<n2>double|triple) (?:jump|capture)\b", re.I), None),  # type: ignore[list-item]
    (
        re.compile(
            r"\bsem lances?\b(?! (?:seguros?|bons|bom|que|útil|úteis))|\bno moves?\b(?! (?:that|but|left but))", re.I
        ),
        _no_moves,
    ),
    (re.compile(r"\bsem peças\b|\bno pieces\b", re.I), _no_pieces),
    (
        re.compile(
            r"\b(?P<n>" + NUM[1:-1] + r") (?P<kind>pedras?|peças?|damas?|men|man|pieces?|kings?) "
            r"(?:a |de )?(?P<dir>mais|menos|up|down|behind)\b",
            re.I,
        ),
        _up,
    ),
    (
        re.compile(r"\b(?P<a>" + NUM[1:-1] + r") (?:contra|against|versus|v\.?) (?P<b>" + NUM[1:-1] + r")\b", re.I),
        _against,
    ),
]


def _named_capture(m: re.Match[str], f: LineFacts) -> str | None:
    word = m.group("n") or m.group("n2")
    n = _n(word)
    if any(c.taken == n for c in f.captures):
        return None
    return f"says {m.group(0)!r} but no capture in the line takes {n}"


PATTERNS = [(p, c if c is not None else _named_capture) for p, c in PATTERNS]


def audit_caption(caption: str, facts: LineFacts, language: str = "pt-BR") -> list[str]:
    """What the caption states that the line contradicts (empty: nothing recognised is false)."""
    text = " ".join(caption.split())
    out: list[str] = []
    for pattern, check in PATTERNS:
        for m in pattern.finditer(text):
            why = check(m, facts)
            if why is not None:
                out.append(why)
    return out
