"""Puzzle books: every puzzle of a variant's lessons, numbered, with solutions and indexes.

The same plan feeds the printable Typst book (``templates/typst/puzzles.typ``) and the HTML page
with the solutions behind toggles.  Difficulty and themes come from the uniqueness proof made by
``damas check`` (the author's own values win where given).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..rules.geometry import Numbering
from .site import PuzzleItem, Site, VariantItem

DIFFICULTY_WORDS = {1: "muito fácil", 2: "fácil", 3: "médio", 4: "difícil", 5: "muito difícil"}


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

    @property
    def title(self) -> str:
        return f"Golpes: {self.variant.title.lower()}"


def reading_guide(variant: VariantItem, example_capture: str | None) -> list[str]:
    v = variant.variant
    g = v.geometry
    first = "as pretas" if v.first_to_move else "as brancas"
    out = [
        "Cada diagrama mostra uma posição com as brancas embaixo. As pedras são discos; a dama tem uma coroa. "
        "O disco pequeno ao lado do tabuleiro, em cima ou embaixo, mostra quem joga: é sempre quem resolve o "
        f"exercício. Na partida, {first} fazem o primeiro lance.",
    ]
    if g.numbering is Numbering.ALGEBRAIC:
        out.append(
            "Cada casa tem o nome da coluna (a a h, da esquerda para a direita) e da fileira (1 a 8, de baixo "
            "para cima), como c3. As letras e os números estão na borda do tabuleiro."
        )
    else:
        n = len(g.squares)
        where = (
            "a casa 1 fica no alto, à esquerda, e a contagem segue da esquerda para a direita, de cima para baixo"
            if g.numbering is Numbering.TOP_LEFT
            else "a casa 1 fica no canto inferior direito das brancas, e a contagem segue da direita para a "
            "esquerda, de baixo para cima"
        )
        out.append(f"As casas escuras são numeradas de 1 a {n}: {where}. O número está no canto de cada casa.")
    sep = "dois-pontos" if v.capture_separator == ":" else "um x"
    example = f" Por exemplo, {example_capture} passa por todas essas casas." if example_capture else ""
    out.append(
        "Um lance sem captura liga a casa de saída à de chegada com um traço. Uma captura usa "
        f"{sep} e lista a casa de saída e cada casa onde a peça pousa.{example}"
    )
    out.append(
        "A solução traz a linha principal e, depois de «Defesas:», as outras respostas do adversário com a "
        "continuação que ainda ganha. Todas as soluções foram provadas pelo motor de regras contra todas as "
        "defesas, e cada exercício tem uma única primeira jogada que funciona."
    )
    return out


def plan_books(site: Site) -> list[Book]:
    """One book per variant that has puzzles."""
    books = []
    for variant in site.variants:
        puzzles: list[BookPuzzle] = []
        for lesson in variant.lessons:
            for p in lesson.puzzles:
                puzzles.append(BookPuzzle(len(puzzles) + 1, lesson.slug, p))
        if not puzzles:
            continue
        example = next(
            (
                m
                for bp in puzzles
                for m in bp.item.solution.split()
                if any(c in m for c in "x:") and m.count("x") + m.count(":") >= 2
            ),
            None,
        )
        book = Book(variant, puzzles, reading_guide(variant, example))
        for bp in puzzles:
            for theme in bp.item.themes:
                book.by_theme.setdefault(theme, []).append(bp.number)
            if bp.item.difficulty:
                book.by_difficulty.setdefault(bp.item.difficulty, []).append(bp.number)
        book.by_theme = dict(sorted(book.by_theme.items()))
        book.by_difficulty = dict(sorted(book.by_difficulty.items()))
        books.append(book)
    return books


def book_data(book: Book) -> dict[str, Any]:
    """The JSON the Typst template reads."""
    return {
        "title": book.title,
        "running": book.title,
        "subtitle": "1 exercício com solução"
        if len(book.puzzles) == 1
        else f"{len(book.puzzles)} exercícios com soluções",
        "note": "Todas as soluções foram provadas pelo motor de regras do programa damas.",
        "lang": "pt",
        "region": "BR",
        "words": {
            "contents": "Sumário",
            "page": "Página",
            "of": "de",
            "reading": "Como ler os diagramas",
            "puzzles": "Exercícios",
            "solutions": "Soluções",
            "defences": "Defesas",
            "index_theme": "Índice por tema",
            "index_difficulty": "Índice por dificuldade",
            "level": "nível",
        },
        "reading": book.reading,
        "puzzles": [
            {
                "number": bp.number,
                "path": "/" + bp.item.svg_path,
                "alt": bp.item.alt,
                "stipulation": bp.item.stipulation,
                "caption": bp.item.caption,
                "solution": bp.item.solution,
                "defences": bp.item.defences,
                "difficulty": bp.item.difficulty or 0,
            }
            for bp in book.puzzles
        ],
        "by_theme": [{"theme": t, "numbers": ns} for t, ns in book.by_theme.items()],
        "by_difficulty": [
            {"level": lvl, "words": DIFFICULTY_WORDS[lvl], "numbers": ns} for lvl, ns in book.by_difficulty.items()
        ],
    }
