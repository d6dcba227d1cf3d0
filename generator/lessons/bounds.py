"""What one lesson may produce: bounded before anything expensive looks at it.

A lesson's cost grows with its text and its diagrams: a 1 MB title is copied into every page head,
running head and index entry; thousands of diagrams are thousands of SVG files; 100 MB of text is
gigabytes of parsed Markdown.  These limits (see :mod:`generator.limits`, docs/limits.md) are far
above any real lesson and each is reported once, naming the limit, at the value that breaks it.
A lesson over a limit is not verified or built further.
"""

from __future__ import annotations

from typing import Any

from ..limits import limit, raise_hint
from .source import Document, SourceError
from .verify import text_fields

LONG_TEXTS = {"text"}
"""Keys of the texts that hold a section's Markdown body (the ``text_chars`` limit); ``title`` has
``title_chars``; every other text has ``short_text_chars``."""


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def lesson_bounds(doc: Document) -> list[SourceError]:
    """Errors for every limit the document breaks (empty when it fits)."""
    data = doc.data
    if not isinstance(data, dict):
        return []
    errors: list[SourceError] = []
    total = 0
    for where, text in text_fields(data):
        total += len(text)
        key = where[-1]
        name = "text_chars" if key in LONG_TEXTS else "title_chars" if where == ("title",) else "short_text_chars"
        if len(text) > limit(name):
            errors.append(doc.error(where, f"this text has {len(text)} characters, too many {raise_hint(name)}"))
    if total > limit("lesson_text_chars"):
        errors.append(
            doc.error(
                (), f"the lesson's texts have {total} characters in all, too many {raise_hint('lesson_text_chars')}"
            )
        )
    sections = _items(data.get("sections"))
    diagrams = [
        ((*("sections", i, "diagrams", j),), d)
        for i, s in enumerate(sections)
        if isinstance(s, dict)
        for j, d in enumerate(_items(s.get("diagrams")))
    ]
    if len(diagrams) > limit("diagrams"):
        where = diagrams[limit("diagrams")][0]
        errors.append(doc.error(where, f"the lesson has {len(diagrams)} diagrams, too many {raise_hint('diagrams')}"))
    puzzles = _items(data.get("puzzles"))
    if len(puzzles) > limit("puzzles"):
        errors.append(
            doc.error(
                ("puzzles", limit("puzzles")),
                f"the lesson has {len(puzzles)} puzzles, too many {raise_hint('puzzles')}",
            )
        )
    claims = [(w, k) for w, d in diagrams if isinstance(d, dict) for k in range(len(_items(d.get("claims"))))]
    if len(claims) > limit("claims"):
        where, k = claims[limit("claims")]
        errors.append(
            doc.error((*where, "claims", k), f"the lesson has {len(claims)} claims, too many {raise_hint('claims')}")
        )
    return errors
