"""The rules of every variant side by side, generated from the variant records (never typed by hand).

Each cell is worded from one field of :class:`~generator.rules.variants.Variant` (or its draw
profile), and links to the diagram of the variant's lessons that demonstrates it, found by the
diagram ids the course uses (``pedra-captura``, ``precedencia`` ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import DEFAULT_LANGUAGE, N_, Translator, short_language, translator
from ..rules import BLACK, CapturePromotion, Goal, Precedence, Removal, Variant
from ..rules.draws import draw_profile
from ..rules.geometry import Layout, Numbering

if TYPE_CHECKING:
    from .site import Site


@dataclass(frozen=True)
class Row:
    label: str
    """English msgid of the row's heading."""
    anchor: str | None
    """Diagram id that demonstrates this rule in the variant's lessons."""
    cell: Callable[[Variant, Translator], str]


def _board(v: Variant, tr: Translator) -> str:
    g = v.geometry
    size = f"{g.width}×{g.height}"
    if g.layout is Layout.FULL:
        return tr.gettext("%(size)s, all 64 squares, orthogonal moves") % {"size": size}
    if g.layout is Layout.STANDARD:
        text = tr.gettext("%(size)s, %(n)s dark squares, dark square in the left corner")
    else:
        text = tr.gettext("%(size)s, %(n)s dark squares, dark square in the right corner")
    return text % {"size": size, "n": len(g.squares)}


def _notation(v: Variant, tr: Translator) -> str:
    g = v.geometry
    if g.numbering is Numbering.ALGEBRAIC:
        if v.capture_separator == ":":
            return tr.gettext("algebraic (a1–h8), captures with a colon (:)")
        return tr.gettext("algebraic (a1–h8), captures with x")
    if g.numbering is Numbering.TOP_LEFT:
        text = tr.gettext("numbers 1–%(n)s, square 1 at the top left")
    else:
        text = tr.gettext("numbers 1–%(n)s, square 1 at White's bottom right")
    return text % {"n": len(g.squares)}


def _men_capture(v: Variant, tr: Translator) -> str:
    if v.geometry.orthogonal:
        base = tr.gettext("forward and sideways")
    else:
        base = tr.gettext("forward and backward") if v.men_capture_backward else tr.gettext("forward only")
    return base if v.men_capture_kings else tr.gettext("%(how)s; a man cannot capture a king") % {"how": base}


def _precedence(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    return {
        Precedence.FREE: _("free choice (but capturing is compulsory and goes to the end)"),
        Precedence.MOST_PIECES: _("majority rule: the one taking most pieces (king and man count the same)"),
        Precedence.MOST_PIECES_THEN_KINGS: _("the one taking most pieces; if equal, the one taking most kings"),
        Precedence.ITALIAN: _("most pieces; capture with a king; most kings; kings met first"),
    }[v.precedence]


def _promotion(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    return {
        CapturePromotion.PASS_THROUGH: _("passing only: it stays a man; crowned if it ends on the last row"),
        CapturePromotion.PROMOTE_AND_CONTINUE: _("crowned at once and goes on capturing as a king"),
        CapturePromotion.PROMOTE_AND_STOP: _("crowned and the move ends"),
    }[v.capture_promotion]


def _draws(v: Variant, tr: Translator) -> str:
    profile = draw_profile(v)
    pt = short_language(tr.language) == "pt"
    return "; ".join(r.reason_pt if pt else r.reason for r in profile.rules)


def _first(v: Variant, tr: Translator) -> str:
    return tr.pgettext("who starts", "Black") if v.first_to_move == BLACK else tr.pgettext("who starts", "White")


def _man_moves(v: Variant, tr: Translator) -> str:
    if v.geometry.orthogonal:
        return tr.gettext("one square forward or sideways")
    return tr.gettext("one square diagonally forward")


def _king(v: Variant, tr: Translator) -> str:
    _ = tr.gettext
    if v.geometry.orthogonal:
        return (
            _("flying, in a straight line (orthogonal)")
            if v.flying_kings
            else _("moves one square, in a straight line (orthogonal)")
        )
    return _("flying, diagonally") if v.flying_kings else _("moves one square, diagonally")


def _removal(v: Variant, tr: Translator) -> str:
    if v.removal is Removal.IMMEDIATE:
        return tr.gettext("one by one, as jumped (no 180° turn)")
    return tr.gettext("all at the end of the move")


def _end(v: Variant, tr: Translator) -> str:
    if v.goal is Goal.LOSING:
        return tr.gettext("the side left without a move wins")
    return tr.gettext("the side left without a move (no pieces or blocked) loses")


ROWS: tuple[Row, ...] = (
    Row(N_("Board"), "tabuleiro", _board),
    Row(N_("Who starts"), "tabuleiro", _first),
    Row(N_("A man moves"), "pedra-anda", _man_moves),
    Row(N_("A man captures"), "pedra-captura", _men_capture),
    Row(
        N_("Compulsory capture"),
        "captura-obrigatoria",
        lambda v, tr: tr.gettext("yes, and the sequence goes to the end"),
    ),
    Row(N_("Which capture to choose"), "precedencia", _precedence),
    Row(N_("King"), "dama", _king),
    Row(N_("Captured pieces come off"), "pedra-captura", _removal),
    Row(N_("A man reaching the last row during a capture"), "promocao-captura", _promotion),
    Row(N_("End of the game"), "fim-bloqueio", _end),
    Row(N_("Draws"), None, _draws),
    Row(N_("Notation"), None, _notation),
)


@dataclass
class Cell:
    text: str
    href: str | None


@dataclass
class Table:
    variants: list[Variant]
    rows: list[tuple[str, list[Cell]]]


def comparison_table(site: Site, language: str = DEFAULT_LANGUAGE) -> Table:
    """One column per variant of the site, linking cells to demonstrating diagrams when present."""
    columns = [v for v in site.variants]
    anchors: dict[str, dict[str, str]] = {}
    for item in columns:
        found: dict[str, str] = {}
        for lesson in item.lessons:
            for d in lesson.diagrams:
                found.setdefault(d.anchor, f"{item.name}/{lesson.slug}.html#{d.anchor}")
        anchors[item.name] = found
    tr = translator(language)
    rows = []
    for row in ROWS:
        cells = [
            Cell(row.cell(item.variant, tr), anchors[item.name].get(row.anchor) if row.anchor else None)
            for item in columns
        ]
        rows.append((tr.gettext(row.label), cells))
    return Table([c.variant for c in columns], rows)
