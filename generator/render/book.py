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

from ..puzzles.themes import DIFFICULTY_WORDS
from ..rules.geometry import Numbering
from .site import PuzzleItem, Site, VariantItem

__all__ = ["DIFFICULTY_WORDS", "Book", "BookPuzzle", "answers_data", "plan_books", "worksheet_data"]


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
    first_side = "das pretas" if v.first_to_move else "das brancas"
    out.append(
        f"Nas soluções, cada número de lance reúne um lance {first_side}, que começam a partida, e a resposta "
        "do adversário; «1. … » quer dizer que o exercício começa com o segundo lance do par. Entre parênteses, "
        "no ponto em que divergem, estão as outras defesas com a continuação que ainda ganha. Todas as "
        "soluções foram provadas pelo motor de regras contra todas as defesas, e nenhuma outra primeira jogada "
        "alcança o objetivo, nem mesmo com quatro lances a mais que a solução."
    )
    return out


def plan_books(site: Site) -> list[Book]:
    """One book per variant that has puzzles."""
    books = []
    for variant in site.variants:
        found = [(lesson.slug, p) for lesson in variant.lessons for p in lesson.puzzles]
        # Easiest first; equal levels keep the course's order (sorted() is stable).
        found = sorted(found, key=lambda sp: sp[1].difficulty or 0)
        puzzles = [BookPuzzle(i, slug, p) for i, (slug, p) in enumerate(found, start=1)]
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


def _words() -> dict[str, str]:
    return {
        "contents": "Sumário",
        "page": "Página",
        "of": "de",
        "reading": "Como ler os diagramas",
        "puzzles": "Exercícios",
        "hints": "Dicas",
        "solutions": "Soluções",
        "material": "No fim",
        "index_theme": "Índice por tema",
        "index_difficulty": "Índice por dificuldade",
        "level": "nível",
        "name": "Nome",
        "date": "Data",
    }


def _common(book: Book, title: str, subtitle: str) -> dict[str, Any]:
    return {
        "title": title,
        "running": f"{book.variant.title} · {title}",
        "subtitle": subtitle,
        "variant": book.variant.title,
        "lang": "pt",
        "region": "BR",
        "words": _words(),
    }


def _count(n: int) -> str:
    return "1 exercício" if n == 1 else f"{n} exercícios"


def worksheet_data(book: Book) -> dict[str, Any]:
    """The JSON of the worksheet: diagrams, side to move, stipulation, level; hints apart."""
    data = _common(book, "Exercícios", f"{_count(len(book.puzzles))}, do mais fácil ao mais difícil")
    data["reading"] = book.reading[:-1]  # the last paragraph explains the answer key
    data["puzzles"] = [
        {
            "number": bp.number,
            "path": "/" + bp.item.svg_path,
            "alt": bp.item.alt,
            "stipulation": bp.item.stipulation,
            "difficulty": bp.item.difficulty or 0,
            "level": bp.item.level_words,
        }
        for bp in book.puzzles
    ]
    data["hints"] = [{"number": bp.number, "text": bp.item.caption} for bp in book.puzzles if bp.item.caption]
    return data


def answers_data(book: Book) -> dict[str, Any]:
    """The JSON of the answer key: numbered lines, material, comment, final diagrams, indexes."""
    data = _common(book, "Soluções", f"da folha de exercícios ({_count(len(book.puzzles))})")
    data["reading"] = book.reading[-1:]
    data["puzzles"] = [
        {
            "number": bp.number,
            "stipulation": bp.item.stipulation,
            "answer": bp.item.answer,
            "material": bp.item.material,
            "comment": bp.item.comment,
            "difficulty": bp.item.difficulty or 0,
            "level": bp.item.level_words,
            "final": "/" + bp.item.final_svg_path if bp.item.final_svg_path else None,
            "final_alt": bp.item.final_alt,
        }
        for bp in book.puzzles
    ]
    data["by_theme"] = [{"theme": t, "numbers": ns} for t, ns in book.by_theme.items()]
    data["by_difficulty"] = [
        {"level": lvl, "words": DIFFICULTY_WORDS[lvl], "numbers": ns} for lvl, ns in book.by_difficulty.items()
    ]
    return data
