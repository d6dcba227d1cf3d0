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
}
"""Name -> default value.  ``*_chars`` count characters after YAML alias expansion."""


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
