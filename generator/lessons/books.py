"""The books of a course against the book rules: per book, the figures a proofreader asks for and
every puzzle a rule leaves out (``damas book report [LESSONS] [--details]``, docs/mining.md).

Per book (a variant's puzzle lessons in the course's language, numbered as the book numbers them:
lessons in their order, then easiest first): puzzles, the share from real games, of 3-ply and of
7+-ply lines, of starts two men or a king up, the level histogram; with ``--details`` every rule
verdict, theme problem, caption fact and near-duplicate (across the whole course).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..puzzles import book_rules
from ..puzzles.caption_audit import audit_caption
from ..puzzles.line_facts import LineFacts, line_facts
from .model import Lesson, Puzzle, build_lesson
from .source import load_document


@dataclass
class Entry:
    """One puzzle of a book, with the facts of its line (what every rule and the caption audit read)."""

    variant: str
    number: int
    lesson: str
    puzzle: Puzzle
    facts: LineFacts
    language: str

    @property
    def name(self) -> str:
        return f"{self.variant} #{self.number} ({self.puzzle.id})"


def load(path: Path) -> Lesson | None:
    """The lesson of a YAML file, or None when it does not read (``damas check`` reports why)."""
    doc, _ = load_document(path.read_text(encoding="utf-8"), str(path))
    if doc is None:
        return None
    lesson, _ = build_lesson(doc, set())
    return lesson


def books(root: Path, language: str = "pt-BR") -> dict[str, list[Entry]]:
    """variant -> its book's puzzles, numbered as the book prints them."""
    out: dict[str, list[Entry]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        lessons: list[Lesson] = []
        files = sorted(folder.glob("*.yaml")) if language == "pt-BR" else sorted((folder / "en").glob("*.yaml"))
        for f in files:
            lesson = load(f)
            if lesson is not None and lesson.puzzles and lesson.language == language:
                lessons.append(lesson)
        lessons.sort(key=lambda le: le.order if le.order is not None else 1_000)
        found = [(le, p) for le in lessons for p in le.puzzles]
        found.sort(key=lambda lp: lp[1].difficulty or 0)
        entries = []
        for i, (le, p) in enumerate(found, 1):
            facts = line_facts(p.position, [s.move.value for s in p.solution])
            entries.append(Entry(folder.name, i, le.slug, p, facts, le.language))
        if entries:
            out[folder.name] = entries
    return out


def summary(variant: str, entries: list[Entry]) -> str:
    """The one line a proofreader reads first: the book's figures against the books' standard."""
    n = len(entries)
    real = sum(1 for e in entries if (e.puzzle.source or {}).get("kind") == "pdn")
    mix = book_rules.length_mix(len(e.facts.moves) for e in entries)
    up = sum(1 for e in entries if book_rules.starts_two_up(e.facts))
    levels = Counter(e.puzzle.difficulty or 0 for e in entries)
    hist = " ".join(f"{lvl}:{levels[lvl]}" for lvl in sorted(levels))
    return (
        f"{variant:14} {n:4} puzzles  real {real / n:5.0%}  3-ply {mix.short_share:4.0%}  "
        f"7+ {mix.long_share:4.0%}  two up {up / n:4.0%}  levels {hist}"
    )


def details(all_books: dict[str, list[Entry]]) -> list[str]:
    """Every puzzle a rule would leave out, with the reason; near-duplicates across the whole course."""
    out = []
    for entries in all_books.values():
        for e in entries:
            p = e.puzzle
            for why in book_rules.judge(e.facts, p.stipulation).reasons:
                out.append(f"{e.name}: rule: {why}")
            for why in book_rules.theme_problems(e.facts, p.themes):
                out.append(f"{e.name}: themes: {why}")
            for why in audit_caption(p.caption or "", e.facts, e.language):
                out.append(f"{e.name}: caption: {why}")
    everything = [(e.name, e.facts) for entries in all_books.values() for e in entries]
    for a, b in book_rules.duplicate_pairs(everything):
        out.append(f"near-duplicates: {a} and {b}")
    return out
