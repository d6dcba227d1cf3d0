"""Shared helpers of the language tests: the Portuguese-only phrases of the catalog and a page scanner."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

from babel.messages.pofile import read_po

from generator.i18n import LOCALE_DIR
from generator.puzzles.theme_words import THEME_WORDS

NOT_WORDS = {"damas"} | {w.tag for w in THEME_WORDS}
"""The program's name is the same in every language; the theme tags are the course's identifiers,
which the English answer key prints on purpose beside each theme it explains (and ``final`` is an
English word too)."""


def _strings(locale: str) -> set[str]:
    with open(LOCALE_DIR / locale / "LC_MESSAGES" / "damas.po", "rb") as f:
        cat = read_po(f, locale=locale)
    out: set[str] = set()
    for m in cat:
        if not m.id or m.context == "language name":  # a language's own name links to its pages
            continue
        for s in [m.string] if isinstance(m.string, str) else m.string:
            for part in re.split(r"%\(\w+\)[sd]", s):
                part = part.strip(" .,:;()")
                if len(part) >= 5:
                    out.add(part)
    return out


def portuguese_phrases() -> set[str]:
    """Every phrase of the pt_BR catalog that the English catalog does not also use."""
    return _strings("pt_BR") - _strings("en") - NOT_WORDS


def page_text(path: Path) -> str:
    if path.suffix == ".pdf":
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    else:
        text = html.unescape(path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", text)


def portuguese_in(paths: list[Path]) -> dict[str, list[str]]:
    """File -> the Portuguese catalog phrases found in it."""
    # Each phrase's pattern compiled once (there are more of them than re's own cache holds), and tried
    # only on a page that holds the phrase at all: the whole bundled course is scanned in seconds.
    phrases = {w: re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in portuguese_phrases()}
    found = {}
    for p in paths:
        text = page_text(p)
        hits = sorted(w for w, pattern in phrases.items() if w in text and pattern.search(text))
        if hits:
            found[str(p)] = hits
    return found
