"""Input limits: how much a lesson or game file may hold before damas refuses it.

Every limit bounds what one hostile or mistaken file can cost (memory, time, output size) and is
far above what a real course needs.  Each has a name; the environment variable
``DAMAS_LIMIT_<NAME>`` (upper case) raises or lowers it, e.g. ``DAMAS_LIMIT_LESSON_FILE_BYTES=5000000``.
docs/limits.md lists them all.  The engine modules read them through :func:`limit` only, so the
values live in one table.
"""

from __future__ import annotations

import os

from .errors import DamasError

DEFAULTS: dict[str, int] = {
    # files
    "lesson_file_bytes": 2_000_000,
    "pdn_file_bytes": 50_000_000,
    "pdn_game_chars": 500_000,
    # lesson folders
    "folder_depth": 32,
    "folder_entries": 100_000,
    # YAML
    "yaml_depth": 40,
    "yaml_nodes": 200_000,
    "yaml_expanded_chars": 4_000_000,
    # one lesson
    "lesson_text_chars": 2_000_000,
    "text_chars": 500_000,
    "title_chars": 300,
    "short_text_chars": 5_000,
    "diagrams": 1_000,
    "puzzles": 500,
    "claims": 5_000,
    "markdown_depth": 10,
    "markdown_links": 2_000,
    # commands
    "perft_seconds": 180,
    # searches
    "search_memory_mb": 512,
}
"""Name -> default value.  ``*_chars`` count characters after YAML alias expansion."""

RANGES: dict[str, tuple[int, int]] = {
    # plies
    "solve_depth": (1, 40),
    "play_depth": (1, 20),
    "mine_depth": (1, 15),
    "perft_depth": (0, 64),
    "mine_max_plies": (1, 1_000),
    # budgets and counts
    "nodes": (1, 10**12),
    "seconds": (0, 10**7),
    "self_play": (0, 10**6),
    "seed": (0, 2**32 - 1),
    "jobs": (1, 256),
    "gain": (1, 99),
    "level": (1, 5),
    "endgame_pieces": (1, 6),
    "worksheet_count": (1, 500),
    "book_size": (1, 10_000),
    "percent": (0, 100),
    "cook_margin": (0, 20),  # as a lesson's margin (lesson.schema.json)
    # lessons (draw counters and game references: as many digits as a FEN counter)
    "counter": (0, 999_999_999),
    # other
    "port": (0, 65_535),
    "image_size": (16, 10_000),
    "memory_mb": (16, 1 << 20),
}
"""Name -> (least, greatest) for a number a user gives (command-line options, goals such as
``gain:N``, lesson numbers).  Fixed, not raisable: each bounds a loop, a C integer or a run's
length, and is far past any real use (a node budget of 10^12 is weeks of search; ``seconds``
bounds ``--timeout`` at about 115 days).  :func:`whole` and :func:`decimal` read a number against
its range."""


class NumberError(ValueError):
    """A number outside its range, or not written as a plain ASCII number (the message says which)."""


def _range_text(name: str) -> str:
    low, high = RANGES[name]
    return f"a whole number from {low} to {high}"


def whole(text: str, name: str) -> int:
    """``text`` as a whole number within ``RANGES[name]``.

    Only ASCII digits with an optional leading minus are read: ``int()`` would also take ``"٣"``
    (Arabic-Indic three), ``" 3 "`` and ``"1_000"``, and thousands of digits cost it quadratic time
    (Python refuses 4,300), so the length is checked before converting.

    Raises:
        NumberError: naming the range, for anything else.
    """
    low, high = RANGES[name]
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise NumberError(f"'{text}' is not {_range_text(name)}")
    if len(digits) > len(str(max(abs(low), abs(high)))) or not low <= int(text) <= high:
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"
        raise NumberError(f"{shown} is out of range: give {_range_text(name)}")
    return int(text)


def decimal(text: str, name: str) -> float:
    """``text`` (``12``, ``0.5``) as a positive decimal number at most ``RANGES[name][1]``; no
    exponent, ``nan`` or ``inf`` (``float()`` takes all three, and ``nan`` passes every comparison
    test as false, so a ``> 0`` check lets it through).

    Raises:
        NumberError: naming the range, for anything else.
    """
    high = RANGES[name][1]
    whole_part, _, fraction = text.partition(".")
    plain = (whole_part + fraction).isascii() and (whole_part + fraction).isdigit()
    if not plain or len(whole_part) > len(str(high)) or len(fraction) > 9:
        shown = text if len(text) <= 24 else f"{text[:20]}..."
        raise NumberError(f"'{shown}' is not a decimal number from 0 to {high}")
    value = float(text)
    if not 0 < value <= high:
        raise NumberError(f"{text} is out of range: give a number above 0 and at most {high}")
    return value


class LimitError(DamasError):
    """A ``DAMAS_LIMIT_*`` variable that is not a positive whole number."""


def env_name(name: str) -> str:
    return f"DAMAS_LIMIT_{name.upper()}"


def limit(name: str) -> int:
    """The value of limit ``name``: its environment variable when set, else the default."""
    raw = os.environ.get(env_name(name))
    if raw is None or not raw.strip():
        return DEFAULTS[name]
    text = raw.strip().replace("_", "")
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise LimitError(f"{env_name(name)}={raw!r} is not a positive whole number")
    return int(text)


def raise_hint(name: str) -> str:
    """``(limit lesson_file_bytes = 2000000; raise it with DAMAS_LIMIT_LESSON_FILE_BYTES)``."""
    return f"(limit {name} = {limit(name)}; raise it with {env_name(name)})"
