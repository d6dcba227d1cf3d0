"""Reader text: what a page says to its reader, checked for words that only make sense to the people
who build the course.

A reader has no repository, no rules specification and no terminal.  So the text of a lesson (titles,
summaries, section text, captions, claim texts, reasons, puzzle captions and themes) may not contain

* an internal section mark (``§7``, ``rules-spec``): the sources are cited by title, body, year and
  article instead;
* a repository path or file name (``seeds/000``, ``docs/rules.md``, ``regras.yaml``);
* a command line (``damas game ...``, ``--draw-profile``);
* a form the language's glossary lists under ``avoid`` (``jogada`` where the course writes ``lance``);
* a break of the language's house style (``style/<language>.yaml``): for English, American spelling
  (``defense``, ``center``, ``color``), the checkers words (``king row``, not ``back rank``) and the
  singular for the sides (``Black has``, ``White is``), as the ACF and the classic books write.

Text written for authors goes in a section's ``for_authors`` block: it is shown on the page in a box
marked for authors and is not checked here.  Each finding is a *warning* for any course and an *error*
when the course sets ``strict_text: true`` (the bundled course does, so its tests hold the line).

The same rules check the package's own reader text (the glossaries, the message catalogs, the
templates' fixed text): the tests run :func:`findings` over them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import yaml

from ..resources import style_dir
from .glossary import Glossary, bundled_glossary
from .model import AUTHOR_KEY
from .source import Document, SourceError
from .verify import text_fields

COMMANDS = (
    "board", "book", "build", "check", "endgame", "export", "fen", "game", "import", "init", "mine", "moves", "pdn",
    "perft", "play", "render", "schema", "serve", "solve", "variants", "worksheet",
)  # fmt: skip
"""damas's subcommands: ``damas check`` is a command line, ``damas brasileiras`` is the game.  A test
keeps this list in step with the command line's own."""

SECTION_MARK = re.compile(r"§\s*\d[\d.]*|§|\brules-spec\b")
REPOSITORY_PATH = re.compile(
    r"(?<![\w./:-])(?:seeds|docs|generator|lessons|templates|tests|bench|output|shared)/[\w./-]*"
    r"|(?<![\w/:-])[\w-]+\.(?:ya?ml|py|pyx|md|j2|typ|po|mo|json|toml)\b"
)
COMMAND_LINE = re.compile(
    rf"\bdamas\s+(?:{'|'.join(COMMANDS)})\b|(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b"
    r"|\bpython3?\s+-m\b|\bpip\s+install\b"
)
NOT_A_SUBJECT = {
    "does", "did", "do", "can", "could", "will", "would", "shall", "should", "may", "might",
    "must", "to", "let", "lets", "make", "makes", "made", "help", "helps", "see", "sees", "watch",
    "a", "an", "the", "each", "every", "any", "no", "one", "whose",
}  # fmt: skip
"""Words after which a side's name is not the subject of a plural verb that follows it."""


@dataclass(frozen=True)
class HouseStyle:
    """A language's house style beyond its glossary: spellings, trade words and the sides' verbs."""

    language: str
    spelling: dict[str, str] = field(default_factory=dict)
    """Avoided spelling -> the house spelling (whole words, any case)."""
    words: dict[str, str] = field(default_factory=dict)
    """Avoided trade word or phrase -> the game's own word."""
    sides: tuple[str, ...] = ()
    """The names of the sides, which take a singular verb."""
    plural_verbs: dict[str, str] = field(default_factory=dict)
    """A plural verb form -> its singular, for "Black have" -> "Black has"."""


@cache
def house_style(language: str) -> HouseStyle | None:
    """The bundled house style of ``language`` (``en``, ``pt-BR``; ``pt`` finds ``pt-BR``), or None."""
    short = language.replace("_", "-").split("-")[0].lower()
    found = sorted(p for p in style_dir().glob("*.yaml") if p.stem.split("-")[0].lower() == short)
    if not found:
        return None
    data = yaml.safe_load(found[0].read_text(encoding="utf-8"))
    return HouseStyle(
        language=str(data["language"]),
        spelling=dict(data.get("spelling") or {}),
        words=dict(data.get("words") or {}),
        sides=tuple(data.get("sides") or ()),
        plural_verbs=dict(data.get("plural_verbs") or {}),
    )


def _whole(forms: Iterable[str]) -> re.Pattern[str] | None:
    forms = sorted(forms, key=len, reverse=True)
    if not forms:
        return None
    return re.compile(rf"(?<![\w-])(?:{'|'.join(re.escape(f) for f in forms)})(?![\w-])", re.IGNORECASE)


Patterns = tuple[re.Pattern[str] | None, re.Pattern[str] | None, re.Pattern[str] | None]


@cache
def _style_patterns(language: str) -> Patterns:
    """The spelling, word and agreement patterns of a language's house style (compiled once)."""
    style = house_style(language)
    if style is None:
        return None, None, None
    agreement = None
    if style.sides and style.plural_verbs:
        sides = "|".join(re.escape(s) for s in style.sides)
        verbs = "|".join(re.escape(v) for v in sorted(style.plural_verbs, key=len, reverse=True))
        agreement = re.compile(rf"\b(?P<side>{sides})\s+(?P<verb>{verbs})(?![\w'’])")
    return _whole(style.spelling), _whole(style.words), agreement


def _quoted(text: str, quotes: tuple[str, str] | None) -> list[tuple[int, int]]:
    """Offset ranges between typographic quotes: a quoted word is mentioned, not used."""
    if not quotes:
        return []
    spans, start = [], None
    for i, ch in enumerate(text):
        if ch == quotes[0] and start is None:
            start = i
        elif ch == quotes[1] and start is not None:
            spans.append((start, i))
            start = None
    return spans


def _internal(flat: str) -> list[tuple[int, str]]:
    """Section marks, repository paths and command lines: (offset, message)."""
    out: list[tuple[int, str]] = []
    for m in SECTION_MARK.finditer(flat):
        out.append(
            (m.start(), f"internal section mark '{m.group(0)}': cite the source by title, body, year and article")
        )
    for m in REPOSITORY_PATH.finditer(flat):
        out.append((m.start(), f"repository path '{m.group(0)}': a reader has no such file"))
    for m in COMMAND_LINE.finditer(flat):
        out.append((m.start(), f"command line '{m.group(0)}': move it to a for_authors block or leave it out"))
    return out


def _house(flat: str, style: HouseStyle) -> list[tuple[int, str]]:
    """Spelling, trade words and the sides' verbs: (offset, message)."""
    out: list[tuple[int, str]] = []
    spelling, words, agreement = _style_patterns(style.language)
    for pattern, table, what in ((spelling, style.spelling, "spelling"), (words, style.words, "word")):
        for m in pattern.finditer(flat) if pattern else ():
            wanted = table[next(k for k in table if k.lower() == m.group(0).lower())]
            out.append((m.start(), f"'{m.group(0)}': the house {what} is '{wanted}'"))
    sides = {s.lower() for s in style.sides}
    for m in agreement.finditer(flat) if agreement else ():
        before = re.findall(r"[\w'’]+", flat[max(0, m.start() - 40) : m.start()].lower())
        if before and before[-1] in NOT_A_SUBJECT:
            continue  # "does White have", "can Black do": the verb is not the side's own
        if len(before) >= 2 and before[-1] in ("and", "or") and before[-2] in sides:
            continue  # "Black and White are": a plural subject
        singular = style.plural_verbs[m.group("verb")]
        out.append((m.start(), f"'{m.group(0)}': a side takes a singular verb ('{m.group('side')} {singular}')"))
    return out


def _glossary(flat: str, g: Glossary) -> list[tuple[int, str]]:
    """The glossary's avoided forms and straight quotes: (offset, message)."""
    out = [
        (m.start(), f"'{m.group(0)}': this course writes '{term.term}' (glossary)")
        for pattern, term in g.avoided_patterns()
        for m in pattern.finditer(flat)
    ]
    if g.quotes:
        out.extend((m.start(), f"straight quote: write {g.quotes[0]}…{g.quotes[1]}") for m in re.finditer('"', flat))
    return out


def findings(text: str, language: str, glossary: Glossary | None = None) -> list[tuple[int, int, str]]:
    """(line, column, message) for every reader-text problem in ``text``, 0-based, sorted.

    The text is read as Markdown reads it, a line break being a space, so a phrase split over two lines
    ("back" / "rank") is still found; words between typographic quotes are mentions and pass.
    ``glossary`` replaces the bundled glossary of ``language`` (a course's own list)."""
    g = glossary or bundled_glossary(language)
    style = house_style(language)
    flat = text.replace("\r", " ").replace("\n", " ")
    quoted = _quoted(flat, g.quotes if g is not None else None)
    found = [(at, f"{message} (reader text)") for at, message in _internal(flat)]
    if style is not None:
        found.extend(
            (at, f"{message} (reader text)")
            for at, message in _house(flat, style)
            if not any(a <= at < b for a, b in quoted)
        )
    if g is not None:
        found.extend(
            (at, message)
            for at, message in _glossary(flat, g)
            if message.startswith("straight") or not any(a <= at < b for a, b in quoted)
        )
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    out = set()
    for at, message in found:
        k = bisect_right(starts, at) - 1
        out.add((k, at - starts[k], message))
    return sorted(out)


def reader_fields(data: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """Every text of a lesson document a reader sees, with its path: the Markdown texts except the
    blocks for authors, and the puzzles' themes (printed in the books' theme index)."""
    out = [(where, text) for where, text in text_fields(data) if AUTHOR_KEY not in where]
    puzzles = data.get("puzzles") if isinstance(data, dict) else None
    for i, p in enumerate(puzzles if isinstance(puzzles, list) else []):
        themes = p.get("themes") if isinstance(p, dict) else None
        for j, theme in enumerate(themes if isinstance(themes, list) else []):
            if isinstance(theme, str):
                out.append((("puzzles", i, "themes", j), theme))
    return out


def lesson_findings(doc: Document, language: str, glossary: Glossary | None = None) -> list[SourceError]:
    """The reader-text problems of one lesson document, located ``file:line:col``."""
    out: list[SourceError] = []
    for where, text in reader_fields(doc.data):
        for k, col, message in findings(text, language, glossary):
            line, column = doc.text_position(where, k, col)
            out.append(SourceError(doc.path, line, column, message))
    return sorted(set(out))


def reader_text_report(
    lessons: Iterable[Any], *, strict: bool, glossary: Glossary | None = None
) -> tuple[list[SourceError], list[SourceError]]:
    """(errors, warnings) over checked lessons (``CheckedLesson``): every finding is an error when
    ``strict``, else a warning."""
    found: list[SourceError] = []
    for checked in lessons:
        found.extend(lesson_findings(checked.doc, checked.lesson.language, glossary))
    found = sorted(set(found))
    return (found, []) if strict else ([], found)
