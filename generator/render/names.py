"""File and anchor names of the output, per language (``livro-de-golpes`` / ``puzzle-book``)."""

from __future__ import annotations

from functools import cache

from ..i18n import translator


@cache
def file_names(language: str) -> dict[str, str]:
    """Role -> file name (without extension) in ``language``'s catalog (context ``file name``)."""
    tr = translator(language)
    return {
        "comparison": tr.pgettext("file name", "comparison"),
        "glossary": tr.pgettext("file name", "glossary"),
        "book": tr.pgettext("file name", "puzzle-book"),
        "booklet": tr.pgettext("file name", "rules"),
        "worksheet": tr.pgettext("file name", "puzzles"),
        "answers": tr.pgettext("file name", "solutions"),
        "printset": tr.pgettext("file name", "board"),
    }
