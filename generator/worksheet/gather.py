"""The puzzles a worksheet may pick from: every proven puzzle of a variant's lessons, planned as the
books plan them (stipulation, answer key line, material, comment, themes, level), in the sheet's
language.

Only the lesson files of the wanted variant are checked (a file's ``variant:`` is read first, so a
worksheet of Brazilian puzzles does not prove the Russian ones), and a file that fails its check
stops the worksheet with its ``file:line:col`` errors: a worksheet never prints an unproven puzzle.

Language: the lessons written in the sheet's language are used (the English twins of the American
book for an English sheet); a variant with none in that language lends its lessons in another one,
with every generated word (stipulations, answers, themes) in the sheet's language and the authors'
hints left out, since they are in the other language.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import DamasError
from ..i18n import short_language, translator
from ..lessons.check import CheckedLesson, CheckReport, check_paths, lesson_files
from ..puzzles.theme_words import find_word
from ..puzzles.themes import THEMES
from ..render.site import PuzzleItem, plan_puzzle
from ..rules import Variant, get_variant


class WorksheetRefused(DamasError):
    """A lesson the worksheet would pick from fails its check (the errors were collected)."""

    def __init__(self, report: CheckReport) -> None:
        self.report = report
        files = report.failed_files()
        super().__init__(
            f"no worksheet: {len(report.errors)} error(s) in {', '.join(files)} (run 'damas check' for details)"
        )


@dataclass(frozen=True)
class Candidate:
    """One proven puzzle a worksheet may print."""

    item: PuzzleItem
    """Planned in the sheet's language (numbered later, by the worksheet)."""
    source: str
    """The lesson file it comes from, as shown in messages."""
    puzzle_id: str
    tags: frozenset[str]
    """Its themes as canonical tags (``golpe de dama`` whether the page says it in English or not)."""

    @property
    def key(self) -> tuple[str, str]:
        """A stable order for the seeded choice: file, then id."""
        return (self.source, self.puzzle_id)


_VARIANT_LINE = re.compile(r"""^variant:\s*["']?([A-Za-z-]+)["']?\s*(?:#.*)?$""", re.MULTILINE)


def _variant_of(path: Path) -> str | None:
    """The ``variant:`` of a lesson file, read without checking it (None when it cannot be told)."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            head = f.read(64 * 1024)
    except OSError:
        return None
    found = _VARIANT_LINE.search(head)
    if found is None:
        return None
    try:
        return get_variant(found.group(1)).name
    except DamasError:
        return None


def lesson_paths(paths: Iterable[str | os.PathLike[str]], variant: Variant) -> tuple[list[Path], list[str]]:
    """The lesson files under ``paths`` that may be of ``variant`` (plus problems finding them)."""
    files, errors = lesson_files(paths)
    return [f for f in files if _variant_of(f) in (None, variant.name)], [str(e) for e in errors]


def gather(
    paths: Iterable[str | os.PathLike[str]],
    variant: Variant,
    language: str,
    proof_budget: int | None = None,
) -> list[Candidate]:
    """Every proven puzzle of ``variant`` in the lessons under ``paths``, in ``language``.

    Raises:
        WorksheetRefused: when a lesson of the variant fails its check.
    """
    files, problems = lesson_paths(paths, variant)
    report = check_paths(files, proof_budget) if files else CheckReport()
    if problems and not report.errors:
        report.errors.extend(lesson_files(paths)[1])
    if not report.ok:
        raise WorksheetRefused(report)
    lessons = [c for c in report.lessons if c.lesson.variant.name == variant.name]
    own = [c for c in lessons if short_language(c.lesson.language) == short_language(language)]
    out: list[Candidate] = []
    seen: set[tuple[str, str]] = set()
    for index, checked in enumerate(own or lessons):
        for cand in _candidates(checked, index, language):
            what = (cand.item.fen, cand.item.stipulation)
            if what not in seen:  # the same position and goal twice (a copy in another file) is one puzzle
                seen.add(what)
                out.append(cand)
    return out


def _candidates(checked: CheckedLesson, index: int, language: str) -> list[Candidate]:
    lesson = checked.lesson
    foreign = short_language(lesson.language) != short_language(language)
    # A slug of its own per file: two files may share a slug, their diagrams may not share a path.
    planned = replace(lesson, slug=f"f{index:03d}-{lesson.slug}", language=language)
    out = []
    for n, p in enumerate(lesson.puzzles, start=1):
        proof = checked.puzzle_proofs.get(p.where)
        if proof is None:
            continue  # not proven (e.g. checked without its proof): never printed
        if foreign:  # the author's words are in the other language: themes renamed, hint left out
            p = replace(
                p,
                caption=None,
                themes=[t if t in THEMES else _theme_in(t, lesson.language, language) for t in p.themes],
            )
        item = plan_puzzle(planned, p, n, proof)
        out.append(Candidate(item, lesson.path, p.id, frozenset(canonical_tag(t, language) for t in item.themes)))
    return out


def _theme_in(name: str, source: str, language: str) -> str:
    """An author's theme word, written in ``source``'s language, named in ``language``."""
    word = find_word(name, source)
    return translator(language).pgettext("theme", word.name) if word is not None else name


def canonical_tag(name: str, language: str) -> str:
    """The course's tag for a theme as a reader or a page names it (``king shot`` -> ``golpe de dama``);
    a word no glossary knows stands for itself (case aside)."""
    for lang in (language, "pt-BR", "en"):
        word = find_word(name, lang)
        if word is not None:
            return word.tag
    return name.strip().casefold()
