"""One vocabulary per language: the glossary the lesson pages, the glossary page and ``damas check``
share.

The glossary is data (``glossary/<language>.yaml``, shipped with the package; a course may pass its
own file).  Each term may list forms to avoid (``fila`` where the course says ``fileira``); the
reader-text check (``reader_text``) reports every use of such a form, and every straight double quote
where the language has typographic quotes: a warning, or an error where the course sets strict_text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from ..resources import glossary_dir


class GlossaryError(ValueError):
    """A glossary file that cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class Term:
    term: str
    definition: str
    plural: str = ""
    avoid: tuple[str, ...] = ()
    """Forms the checker warns about (whole words or phrases, any case)."""
    shown: tuple[str, ...] = ()
    """How the glossary page names the avoided forms (default: ``avoid``), when the checked phrases
    are narrower than the word ("a jogada", not the participle in "peça tocada é peça jogada")."""

    @property
    def avoided_words(self) -> tuple[str, ...]:
        return self.shown or self.avoid


@dataclass(frozen=True)
class Glossary:
    language: str
    title: str
    lead: str
    terms: tuple[Term, ...]
    quotes: tuple[str, str] | None = None
    """Opening and closing quote marks of the language; straight ``"`` in text is then warned about."""
    _patterns: list[tuple[re.Pattern[str], Term]] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        for t in self.terms:
            for form in t.avoid:
                # Whole words only, any case: "Fila" at the start of a sentence, not "perfilar".
                pattern = re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", re.IGNORECASE)
                self._patterns.append((pattern, t))

    def avoided_patterns(self) -> list[tuple[re.Pattern[str], Term]]:
        """The compiled avoided forms (whole words, any case), each with the term to write instead."""
        return list(self._patterns)

    def _quoted_spans(self, line: str) -> list[tuple[int, int]]:
        """Column ranges between the language's opening and closing quote marks on one line."""
        if not self.quotes:
            return []
        spans: list[tuple[int, int]] = []
        start: int | None = None
        for i, ch in enumerate(line):
            if ch == self.quotes[0] and start is None:
                start = i
            elif ch == self.quotes[1] and start is not None:
                spans.append((start, i))
                start = None
        return spans

    def findings(self, text: str) -> list[tuple[int, int, str]]:
        """(line, column, message) for each avoided form and straight quote in ``text``, 0-based."""
        out: list[tuple[int, int, str]] = []
        for k, line in enumerate(text.splitlines()):
            quoted = self._quoted_spans(line)
            for pattern, t in self._patterns:
                for m in pattern.finditer(line):
                    if any(a <= m.start() < b for a, b in quoted):
                        continue  # a word in quotes is mentioned, not used: “peão” in the FPD's text
                    out.append((k, m.start(), f"'{m.group(0)}': this course writes '{t.term}' (glossary)"))
            if self.quotes:
                for m in re.finditer('"', line):
                    out.append((k, m.start(), f"straight quote: write {self.quotes[0]}…{self.quotes[1]}"))
        return sorted(out)


def _text(value: object, what: str, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GlossaryError(f"{path}: {what} must be a non-empty text")
    return value.strip()


def parse_glossary(text: str, path: str) -> Glossary:
    """The glossary in ``text`` (YAML).

    Raises:
        GlossaryError: when the file is not YAML or lacks a field.
    """
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise GlossaryError(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list):
        raise GlossaryError(f"{path}: expected a mapping with a list of 'terms'")
    terms = []
    for i, item in enumerate(data["terms"], start=1):
        if not isinstance(item, dict):
            raise GlossaryError(f"{path}: term {i} must be a mapping")
        avoid = item.get("avoid", [])
        shown = item.get("shown", [])
        for name, value in (("avoid", avoid), ("shown", shown)):
            if not isinstance(value, list) or not all(isinstance(a, str) and a.strip() for a in value):
                raise GlossaryError(f"{path}: term {i}: '{name}' must be a list of words")
        terms.append(
            Term(
                term=_text(item.get("term"), f"term {i}: 'term'", path),
                definition=_text(item.get("definition"), f"term {i}: 'definition'", path),
                plural=str(item.get("plural") or ""),
                avoid=tuple(a.strip() for a in avoid),
                shown=tuple(a.strip() for a in shown),
            )
        )
    quotes = data.get("quotes")
    if quotes is not None and not (
        isinstance(quotes, list) and len(quotes) == 2 and all(isinstance(q, str) for q in quotes)
    ):
        raise GlossaryError(f"{path}: 'quotes' must be a pair of marks")
    return Glossary(
        language=_text(data.get("language"), "'language'", path),
        title=_text(data.get("title"), "'title'", path),
        lead=str(data.get("lead") or "").strip(),
        terms=tuple(terms),
        quotes=(quotes[0], quotes[1]) if quotes else None,
    )


def load_glossary(path: str | Path) -> Glossary:
    """A glossary file (a course's own).

    Raises:
        GlossaryError: when it cannot be read or parsed.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GlossaryError(f"{path}: cannot read the glossary: {exc}") from None
    return parse_glossary(text, str(path))


@cache
def bundled_glossary(language: str) -> Glossary | None:
    """The glossary shipped for ``language`` (``pt-BR``, ``en``; ``pt`` finds ``pt-BR``), or None
    when there is none."""
    path = glossary_dir() / f"{language}.yaml"
    if not path.is_file():
        short = language.replace("_", "-").split("-")[0].lower()
        found = sorted(p for p in glossary_dir().glob("*.yaml") if p.stem.split("-")[0].lower() == short)
        if not found:
            return None
        path = found[0]
    return parse_glossary(path.read_text(encoding="utf-8"), path.name)


def glossary_anchor(term: str) -> str:
    """The glossary page's anchor of a term: "grande diagonal" -> "grande-diagonal"."""
    return re.sub(r"[^\w]+", "-", term.lower()).strip("-")
