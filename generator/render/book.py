"""Puzzle books: every puzzle of a variant's lessons, ordered by difficulty, numbered once.

The same plan feeds what a club prints, the worksheet (``templates/typst/worksheet.typ``:
exercises only, hints in their own section) and the answer key (``templates/typst/answers.typ``:
numbered lines, defences where they branch, material, a comment, indexes), and the HTML book page
with the solutions behind toggles.  Difficulty and themes come from the uniqueness proof made by
``damas check`` (the author's own level wins where given).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import DEFAULT_LANGUAGE, Translator, translator
from ..puzzles.theme_words import explained
from ..puzzles.themes import DIFFICULTY_WORDS, difficulty_words
from ..rules.geometry import Numbering
from ..rules.variants import Variant
from .site import PuzzleItem, Site, VariantItem

__all__ = ["DIFFICULTY_WORDS", "Book", "BookPuzzle", "answers_data", "make_book", "plan_books", "worksheet_data"]


@dataclass
class BookPuzzle:
    number: int
    lesson: str
    """Slug of the lesson page holding the puzzle."""
    item: PuzzleItem


@dataclass
class Book:
    variant: VariantItem
    puzzles: list[BookPuzzle]
    reading: list[str]
    """How to read the diagrams and the notation (paragraphs)."""
    by_theme: dict[str, list[int]] = field(default_factory=dict)
    by_difficulty: dict[int, list[int]] = field(default_factory=dict)
    language: str = DEFAULT_LANGUAGE

    @property
    def tr(self) -> Translator:
        return translator(self.language)

    @property
    def title(self) -> str:
        return self.tr.gettext("Shots: %(variant)s") % {"variant": self.variant.title.lower()}


def reading_guide(variant: VariantItem, example_capture: str | None, language: str = DEFAULT_LANGUAGE) -> list[str]:
    """The book's "how to read" paragraphs: the diagrams, the square names, the notation, the solutions."""
    tr = translator(language)
    v = variant.variant
    return [
        _guide_diagrams(v, tr),
        _guide_squares(v, tr),
        _guide_notation(v, example_capture, tr),
        _guide_solutions(v, tr),
    ]


def _guide_diagrams(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    intro = _(
        "Each diagram shows a position with White at the bottom. Men are discs; a king wears a crown. The "
        "small disc beside the board, above or below it, shows who is to play: always the side that solves "
        "the puzzle."
    )
    starts = (
        _("In the game, Black makes the first move.")
        if v.first_to_move
        else _("In the game, White makes the first move.")
    )
    return f"{intro} {starts}"


def _guide_squares(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    g = v.geometry
    if g.numbering is Numbering.ALGEBRAIC:
        return _(
            "Each square is named by its file (a to h, from left to right) and its rank (1 to 8, from "
            "bottom to top), as in c3. The letters and numbers are on the edge of the board."
        )
    where = (
        _("square 1 is at the top left, and the count goes from left to right, from top to bottom")
        if g.numbering is Numbering.TOP_LEFT
        else _("square 1 is in White's bottom right corner, and the count goes from right to left, from bottom to top")
    )
    return _("The dark squares are numbered 1 to %(n)s: %(where)s. The number is in the corner of each square.") % {
        "n": tr.number(len(g.squares)),
        "where": where,
    }


def _guide_notation(v: Variant, example_capture: str | None, tr: Translator) -> str:
    _ = tr.gettext
    sep = _("a colon") if v.capture_separator == ":" else _("an x")
    example = (
        " " + _("For example, %(move)s goes through all those squares.") % {"move": example_capture}
        if example_capture
        else ""
    )
    return (
        _(
            "A move without a capture joins the starting square to the arrival square with a dash. A capture "
            "uses %(sep)s and lists the starting square and every square where the piece lands."
        )
        % {"sep": sep}
        + example
    )


def _guide_solutions(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    pair = (
        _("In the solutions, each move number holds a move by Black, who starts the game, and the opponent's reply;")
        if v.first_to_move
        else _(
            "In the solutions, each move number holds a move by White, who starts the game, and the opponent's reply;"
        )
    )
    rest = _(
        "%(ellipsis)s means the puzzle starts with the second move of the pair. Where the play branches, "
        "the other defenses follow in parentheses, each with the continuation that still wins. Every solution has "
        "been proved by computer against every defense, and no other first move reaches the goal, even with four "
        "more moves than the solution."
    ) % {"ellipsis": tr.quote("1. … ")}
    return f"{pair} {rest}"


PuzzleKey = tuple[str, str, int]
"""A puzzle as the same in every edition: its position (FEN), its solution line, and which copy it is when
one edition holds the same puzzle twice."""


def book_order(variant: VariantItem) -> list[tuple[str, PuzzleItem]]:
    """(lesson slug, puzzle) of a variant's book, easiest first; equal levels keep the course's order."""
    found = [(lesson.slug, p) for lesson in variant.lessons for p in lesson.puzzles]
    return sorted(found, key=lambda sp: sp[1].difficulty or 0)  # sorted() is stable


def puzzle_keys(puzzles: list[PuzzleItem]) -> list[PuzzleKey]:
    """Each puzzle's key (position + line), in order; a repeated puzzle gets the next copy number."""
    seen: dict[tuple[str, str], int] = {}
    keys = []
    for p in puzzles:
        base = (p.fen, p.solution)
        seen[base] = seen.get(base, 0) + 1
        keys.append((*base, seen[base]))
    return keys


def edition_numbers(orders: list[list[PuzzleKey]]) -> list[dict[PuzzleKey, int]]:
    """Book numbers for several editions of one book (each given as its puzzles' keys in book order; the
    first edition is the reference).  A puzzle every edition has gets the same number in all of them, in
    the reference's order; a puzzle only some editions have is numbered after the shared ones, in its
    edition's order.  So "puzzle 12" is the same position and line in Portuguese and in English."""
    if not orders:
        return []
    shared = set(orders[0]).intersection(*orders[1:])
    common = {k: i for i, k in enumerate((k for k in orders[0] if k in shared), start=1)}
    out = []
    for order in orders:
        numbers = dict(common)
        for k in order:
            if k not in shared:
                numbers[k] = len(numbers) + 1
        out.append(numbers)
    return out


def number_editions(variants: list[VariantItem]) -> None:
    """Give the editions of one variant's book (the same variant in several language trees, the course's
    language first) their shared numbering (``VariantItem.book_numbers``)."""
    editions = [v for v in variants if v.puzzle_count]
    if len(editions) < 2:
        return
    orders = [puzzle_keys([p for _, p in book_order(v)]) for v in editions]
    for v, numbers in zip(editions, edition_numbers(orders), strict=True):
        v.book_numbers = numbers


def plan_books(site: Site, language: str = DEFAULT_LANGUAGE) -> list[Book]:
    """One book per variant that has puzzles, numbered as its other editions are (``number_editions``)."""
    books = []
    for variant in site.variants:
        found = book_order(variant)
        if not found:
            continue
        numbers = None
        if variant.book_numbers:
            numbers = [variant.book_numbers[k] for k in puzzle_keys([p for _, p in found])]
        books.append(make_book(variant, found, language, numbers=numbers))
    return books


def make_book(
    variant: VariantItem,
    found: list[tuple[str, PuzzleItem]],
    language: str = DEFAULT_LANGUAGE,
    *,
    numbers: list[int] | None = None,
) -> Book:
    """A book of ``found`` ((lesson slug, puzzle) pairs, in print order) with its reading guide and
    indexes: what a variant's book and a teacher's worksheet share.  Numbered from 1, or with
    ``numbers`` (one per puzzle: the numbers its other editions share) and printed in their order."""
    given = numbers if numbers is not None else range(1, len(found) + 1)
    puzzles = sorted(
        (BookPuzzle(n, slug, p) for n, (slug, p) in zip(given, found, strict=True)), key=lambda bp: bp.number
    )
    example = next(
        (
            m
            for bp in puzzles
            for m in bp.item.solution.split()
            if any(c in m for c in "x:") and m.count("x") + m.count(":") >= 2
        ),
        None,
    )
    book = Book(variant, puzzles, reading_guide(variant, example, language), language=language)
    for bp in puzzles:
        for theme in bp.item.themes:
            book.by_theme.setdefault(theme, []).append(bp.number)
        if bp.item.difficulty:
            book.by_difficulty.setdefault(bp.item.difficulty, []).append(bp.number)
    book.by_theme = dict(sorted(book.by_theme.items()))
    book.by_difficulty = dict(sorted(book.by_difficulty.items()))
    return book


def book_words(tr: Translator) -> dict[str, str]:
    """The PDFs' interface words (Typst templates read them from the JSON data)."""
    _ = tr.gettext
    return {
        "contents": _("Contents"),
        "for_authors": _("For authors and teachers"),
        "page": _("Page"),
        "of": _("of"),
        "diagram": _("Diagram"),
        "reading": _("How to read the diagrams"),
        "puzzles": _("Puzzles"),
        "hints": _("Hints"),
        "solutions": _("Solutions"),
        "defences": _("Defenses"),
        "material": _("At the end"),
        "index_theme": _("Index by theme"),
        "index_difficulty": _("Index by difficulty"),
        "level": _("level"),
        "name": _("Name"),
        "class": _("Class"),
        "date": _("Date"),
        "themes": _("The themes"),
        "tag": _("tag"),
        "decided": _("found by the engine in the line"),
        "authored": _("named by the author"),
    }


def typst_language(tr: Translator) -> dict[str, str]:
    """Typst's ``lang`` and ``region``: hyphenation, smart quotes and its own words follow them."""
    lang, region = tr.typst
    return {"lang": lang, "region": region or ("BR" if lang == "pt" else "GB")}


def _common(book: Book, title: str, subtitle: str) -> dict[str, Any]:
    return {
        "title": title,
        "running": f"{book.variant.title} · {title}",
        "subtitle": subtitle,
        "variant": book.variant.title,
        **typst_language(book.tr),
        "words": book_words(book.tr),
    }


def _count(book: Book) -> str:
    n = len(book.puzzles)
    return book.tr.ngettext("%(num)s puzzle", "%(num)s puzzles", n) % {"num": book.tr.number(n)}


def worksheet_data(book: Book) -> dict[str, Any]:
    """The JSON of the worksheet: diagrams, side to move, stipulation, level; hints apart."""
    _ = book.tr.gettext
    data = _common(book, _("Puzzles"), _("%(count)s, from the easiest to the hardest") % {"count": _count(book)})
    data["reading"] = book.reading[:-1]  # the last paragraph explains the answer key
    data["puzzles"] = [
        {
            "number": bp.number,
            "path": "/" + bp.item.svg_path,
            "alt": bp.item.alt,
            "stipulation": bp.item.stipulation,
            "difficulty": bp.item.difficulty or 0,
            "level": difficulty_words(book.language).get(bp.item.difficulty or 0, ""),
        }
        for bp in book.puzzles
    ]
    data["hints"] = [{"number": bp.number, "text": bp.item.caption} for bp in book.puzzles if bp.item.caption]
    return data


def answers_data(book: Book) -> dict[str, Any]:
    """The JSON of the answer key: numbered lines, material, comment, final diagrams, indexes."""
    _ = book.tr.gettext
    data = _common(book, _("Solutions"), _("to the worksheet (%(count)s)") % {"count": _count(book)})
    data["reading"] = book.reading[-1:]
    data["puzzles"] = [
        {
            "number": bp.number,
            "stipulation": bp.item.stipulation,
            "answer": bp.item.answer,
            "material": bp.item.material,
            "comment": bp.item.comment,
            "provenance": bp.item.provenance,
            "difficulty": bp.item.difficulty or 0,
            "level": difficulty_words(book.language).get(bp.item.difficulty or 0, ""),
            "final": "/" + bp.item.final_svg_path if bp.item.final_svg_path else None,
            "final_alt": bp.item.final_alt,
        }
        for bp in book.puzzles
    ]
    data["by_theme"] = [{"theme": t, "numbers": ns} for t, ns in book.by_theme.items()]
    data["themes"] = explained(list(book.by_theme), book.language)
    data["themes_lead"] = _(
        "What each theme of the index means. The engine finds some themes in the proven line itself; "
        "the others are named by the author of the puzzle."
    )
    data["by_difficulty"] = [
        {"level": lvl, "words": difficulty_words(book.language)[lvl], "numbers": ns}
        for lvl, ns in book.by_difficulty.items()
    ]
    return data
