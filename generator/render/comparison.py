"""The rules of every variant side by side, generated from the variant records (never typed by hand).

Each cell is worded from one field of :class:`~generator.rules.variants.Variant` (or its draw
profile), and links to the diagram of the variant's lessons that demonstrates it, found by the
diagram ids the course uses (``pedra-captura``, ``precedencia`` ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules import BLACK, CapturePromotion, Goal, Precedence, Removal, Variant
from ..rules.draws import draw_profile
from ..rules.geometry import Layout, Numbering
from .site import Site

LANGUAGES = {"pt"}
"""The languages the table's cells are worded in (not in the catalogs yet): a site tree in another
language gets no comparison page and no link to one, rather than a Portuguese one."""


@dataclass(frozen=True)
class Row:
    label: str
    anchor: str | None
    """Diagram id that demonstrates this rule in the variant's lessons."""
    cell: Callable[[Variant], str]


def _board(v: Variant) -> str:
    g = v.geometry
    if g.layout is Layout.FULL:
        return f"{g.width}×{g.height}, todas as 64 casas, movimento ortogonal"
    corner = "casa escura no canto à esquerda" if g.layout is Layout.STANDARD else "casa escura no canto à direita"
    return f"{g.width}×{g.height}, {len(g.squares)} casas escuras, {corner}"


def _notation(v: Variant) -> str:
    g = v.geometry
    if g.numbering is Numbering.ALGEBRAIC:
        sep = "dois-pontos (:)" if v.capture_separator == ":" else "x"
        return f"algébrica (a1–h8), captura com {sep}"
    start = "no alto, à esquerda" if g.numbering is Numbering.TOP_LEFT else "embaixo, à direita das brancas"
    return f"números 1–{len(g.squares)}, a casa 1 {start}"


def _men_capture(v: Variant) -> str:
    if v.geometry.orthogonal:
        base = "para a frente e para os lados"
    else:
        base = "para a frente e para trás" if v.men_capture_backward else "só para a frente"
    return base if v.men_capture_kings else f"{base}; a pedra não captura dama"


def _precedence(v: Variant) -> str:
    return {
        Precedence.FREE: "livre escolha (mas a captura é obrigatória e vai até o fim)",
        Precedence.MOST_PIECES: "lei da maioria: a que toma mais peças (dama e pedra valem igual)",
        Precedence.MOST_PIECES_THEN_KINGS: "a que toma mais peças; empatando, a que toma mais damas",
        Precedence.ITALIAN: "mais peças; capturar com dama; mais damas; damas encontradas primeiro",
    }[v.precedence]


def _promotion(v: Variant) -> str:
    return {
        CapturePromotion.PASS_THROUGH: "só passando: segue como pedra; vira dama se terminar na última fileira",
        CapturePromotion.PROMOTE_AND_CONTINUE: "vira dama na hora e continua capturando como dama",
        CapturePromotion.PROMOTE_AND_STOP: "vira dama e o lance termina",
    }[v.capture_promotion]


def _draws(v: Variant) -> str:
    profile = draw_profile(v)
    return "; ".join(r.reason_pt for r in profile.rules)


ROWS: tuple[Row, ...] = (
    Row("Tabuleiro", "tabuleiro", _board),
    Row("Quem começa", "tabuleiro", lambda v: "as pretas" if v.first_to_move == BLACK else "as brancas"),
    Row(
        "A pedra anda",
        "pedra-anda",
        lambda v: (
            "uma casa para a frente ou para o lado" if v.geometry.orthogonal else "uma casa na diagonal, para a frente"
        ),
    ),
    Row("A pedra captura", "pedra-captura", _men_capture),
    Row("Captura obrigatória", "captura-obrigatoria", lambda v: "sim, e a sequência vai até o fim"),
    Row("Qual captura escolher", "precedencia", _precedence),
    Row(
        "Dama",
        "dama",
        lambda v: (
            ("voadora" if v.flying_kings else "anda uma casa")
            + (", em linha reta (ortogonal)" if v.geometry.orthogonal else ", na diagonal")
        ),
    ),
    Row(
        "Peças capturadas saem",
        "pedra-captura",
        lambda v: (
            "uma a uma, no salto (sem volta de 180°)" if v.removal is Removal.IMMEDIATE else "todas no fim do lance"
        ),
    ),
    Row("Pedra na última fileira durante a captura", "promocao-captura", _promotion),
    Row(
        "Fim da partida",
        "fim-bloqueio",
        lambda v: (
            "quem fica sem lance vence"
            if v.goal is Goal.LOSING
            else "quem fica sem lance (sem peças ou bloqueado) perde"
        ),
    ),
    Row("Empates", None, _draws),
    Row("Notação", None, _notation),
)


@dataclass
class Cell:
    text: str
    href: str | None


@dataclass
class Table:
    variants: list[Variant]
    rows: list[tuple[str, list[Cell]]]


def comparison_table(site: Site) -> Table:
    """One column per variant of the site, linking cells to demonstrating diagrams when present."""
    columns = [v for v in site.variants]
    anchors: dict[str, dict[str, str]] = {}
    for item in columns:
        found: dict[str, str] = {}
        for lesson in item.lessons:
            for d in lesson.diagrams:
                found.setdefault(d.anchor, f"{item.name}/{lesson.slug}.html#{d.anchor}")
        anchors[item.name] = found
    rows = []
    for row in ROWS:
        cells = [
            Cell(row.cell(item.variant), anchors[item.name].get(row.anchor) if row.anchor else None) for item in columns
        ]
        rows.append((row.label, cells))
    return Table([c.variant for c in columns], rows)
