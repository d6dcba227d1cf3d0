"""The build plan: which pages exist, what is on them, where each diagram file goes.

Made from verified lessons only; everything the HTML and PDF writers need is decided here, once,
so the two outputs show the same diagrams, captions and numbering.  Nothing is written to disk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..i18n import translator
from ..lessons.check import CheckedLesson
from ..lessons.model import Diagram, Lesson, Puzzle
from ..lessons.verify import DiagramProof, PuzzleProof
from ..puzzles.themes import THEMES, difficulty_words, theme_names
from ..rules import Move, Position, Variant
from ..rules.notation import line_text
from .answer import answer_text, comment, material, provenance
from .comparison import ROWS
from .interactive import diagram_replays, puzzle_play, replay_data
from .liveboard import board_data, style_key
from .markdown import inline_html, inline_runs, to_blocks, to_html
from .svg import Svg, build_view, describe_position, diagram

SVG_DIR = "html/svg"
"""Where diagram files go, relative to the build root (HTML and Typst both reference them)."""


@dataclass
class DiagramItem:
    number: int
    anchor: str
    svg_path: str
    """Relative to the build root."""
    svg: Svg
    alt: str
    caption: str
    caption_html: str
    caption_runs: list[dict[str, Any]]
    claim_texts: list[str] = field(default_factory=list)
    see_also: list[tuple[str, str]] = field(default_factory=list)
    """(variant title, link from this variant's folder) to the diagram of the same rule elsewhere."""
    fen: str = ""
    replays: list[dict[str, Any]] = field(default_factory=list)
    """Replay data of the lines claimed on the diagram (generator/render/interactive.py)."""
    board: dict[str, Any] = field(default_factory=dict)
    """The diagram as the page's script draws it (generator/render/liveboard.py)."""


@dataclass
class SectionItem:
    title: str
    anchor: str
    html: str
    blocks: list[dict[str, Any]]
    diagrams: list[DiagramItem]
    authors_html: str = ""
    """The section's block for authors (``for_authors``), shown apart in a box marked for authors."""
    authors_blocks: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PuzzleItem:
    number: int
    id: str
    svg_path: str
    svg: Svg
    alt: str
    stipulation: str
    solution: str
    solution_moves: list[str]
    themes: list[str]
    """The author's themes, then those the engine recognised."""
    difficulty: int | None
    """The author's level, else the one computed from the proof."""
    caption: str
    defences: list[str] = field(default_factory=list)
    """Key defences: "18x27: 31x22x13 …" (the defender's other reply and how the solver wins on)."""
    answer: str = ""
    """The answer key's line: numbered moves, defences in parentheses where they branch."""
    material: str = ""
    """The pieces left at the end of the main line, in words."""
    comment: str = ""
    """One line: the themes and what the combination achieves."""
    provenance: str = ""
    """The game the position comes from (archive, game number, move), empty when none."""
    final_svg_path: str | None = None
    """A small diagram of the final position, for lines long enough to need one."""
    final_svg: Svg | None = None
    final_alt: str = ""
    fen: str = ""
    play: dict[str, Any] | None = None
    """The solve-on-the-board data (generator/render/interactive.py), None when unproven."""
    replay: dict[str, Any] | None = None
    """The main line's replay data, None when unproven."""
    board: dict[str, Any] = field(default_factory=dict)
    """The puzzle's position as the page's script draws it (generator/render/liveboard.py)."""
    lesson_slug: str = ""
    """The lesson the puzzle comes from."""
    language: str = "pt-BR"

    @property
    def level_words(self) -> str:
        return difficulty_words(self.language).get(self.difficulty or 0, "")


@dataclass
class LessonItem:
    variant: Variant
    slug: str
    title: str
    summary: str
    language: str
    order: int
    source: str
    sections: list[SectionItem]
    puzzles: list[PuzzleItem]
    previous: tuple[str, str] | None = None
    """(slug, title) of the lesson before this one in its variant, for the page's pager."""
    following: tuple[str, str] | None = None
    """(slug, title) of the lesson after this one."""

    @property
    def diagrams(self) -> list[DiagramItem]:
        return [d for s in self.sections for d in s.diagrams]


@dataclass
class VariantItem:
    variant: Variant
    lessons: list[LessonItem]
    english: bool = False
    """The course is in English: the variant's English name heads its pages."""
    book_numbers: dict[tuple[str, str, int], int] = field(default_factory=dict)
    """The puzzle book's number of each puzzle (``book.puzzle_key``), when the course has the variant's
    book in more than one language: the same puzzle keeps its number in every edition."""

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def puzzle_count(self) -> int:
        return sum(len(lesson.puzzles) for lesson in self.lessons)

    @property
    def title(self) -> str:
        return self.variant.title_en if self.english else self.variant.title


@dataclass
class Site:
    variants: list[VariantItem]

    def svgs(self) -> dict[str, Svg]:
        out: dict[str, Svg] = {}
        for v in self.variants:
            for lesson in v.lessons:
                for d in lesson.diagrams:
                    out[d.svg_path] = d.svg
                for p in lesson.puzzles:
                    out[p.svg_path] = p.svg
                    if p.final_svg_path and p.final_svg is not None:
                        out[p.final_svg_path] = p.final_svg
        return out


def _lang(language: str) -> str:
    return "en" if language.lower().startswith("en") else "pt"


def stipulation_text(puzzle: Puzzle, language: str) -> str:
    """ "Jogam as brancas e ganham duas peças." / "White to play and win 2 pieces." from the stipulation."""
    tr = translator(language)
    _ = tr.gettext
    white = puzzle.position.turn == 0
    n = puzzle.pieces
    if puzzle.goal == "win":
        return _("White to play and win.") if white else _("Black to play and win.")
    if puzzle.goal == "promote":
        return _("White to play and get a king.") if white else _("Black to play and get a king.")
    if puzzle.goal == "draw":
        return _("White to play and draw.") if white else _("Black to play and draw.")
    if white:
        text = tr.ngettext("White to play and win %(num)s piece.", "White to play and win %(num)s pieces.", n)
    else:
        text = tr.ngettext("Black to play and win %(num)s piece.", "Black to play and win %(num)s pieces.", n)
    return text % {"num": _number_words(tr, n)}


def _number_words(tr: Any, n: int) -> str:
    """Small counts in words where the language writes them so ("duas peças"), else digits."""
    words = {
        1: tr.pgettext("count", "one"),
        2: tr.pgettext("count", "two"),
        3: tr.pgettext("count", "three"),
        4: tr.pgettext("count", "four"),
        5: tr.pgettext("count", "five"),
    }
    return words.get(n, tr.number(n))


def _diagram_svg(d: Diagram, proof: DiagramProof, lesson: Lesson, uid: str) -> Svg:
    return diagram(d.position, **_diagram_args(d, proof), lang=_lang(lesson.language), uid=uid)


def _diagram_board(d: Diagram, proof: DiagramProof) -> dict[str, Any]:
    """The diagram for the page's script: its FEN and the marks the build's picture shows."""
    args = _diagram_args(d, proof)
    view = build_view(d.position, **args)
    key = style_key(d.position.variant, args["orientation"], args["numbers"], args["coordinates"])
    return board_data(
        d.position,
        key,
        arrows=[tuple(a["text"].split("-", 1)) for a in view.arrows],
        route=view.route["squares"].split() if view.route else None,
        captured=[c["name"] for c in view.captured],
        highlight=[h["name"] for h in view.highlights],
    )


def _diagram_args(d: Diagram, proof: DiagramProof) -> dict[str, Any]:
    """What a lesson diagram shows besides its position: view settings and marks."""
    route = proof.route
    captured = list(route.captured) if route is not None and d.show.captured else []
    arrows: list[Any] = []
    for a in proof.arrows:
        if isinstance(a, Move) and a.captures:
            if route is None:
                route = a
                captured = list(a.captured) if d.show.captured else []
        else:
            arrows.append(a)
    return {
        "orientation": d.show.orientation,
        "numbers": d.show.numbers,
        "coordinates": d.show.coordinates,
        "arrows": arrows,
        "route": route,
        "captured": captured,
        "highlight": proof.highlight,
    }


def _alt(svg_position: Position, caption: str, language: str) -> str:
    described = describe_position(svg_position, _lang(language))
    return f"{caption.strip()} {described}".strip() if caption else described


def plan_lesson(checked: CheckedLesson) -> LessonItem:
    lesson = checked.lesson
    sections: list[SectionItem] = []
    number = 0
    anchors = lesson.diagram_anchors()
    for i, s in enumerate(lesson.sections):
        items = []
        for d in s.diagrams:
            number += 1
            items.append(plan_diagram(checked, d, number, anchors[number - 1]))
        sections.append(
            SectionItem(
                title=s.title,
                anchor=lesson.section_anchor(i),
                html=to_html(s.text),
                blocks=to_blocks(s.text),
                diagrams=items,
                authors_html=to_html(s.for_authors) if s.for_authors else "",
                authors_blocks=to_blocks(s.for_authors) if s.for_authors else [],
            )
        )
    puzzles = [
        plan_puzzle(lesson, p, n, checked.puzzle_proofs.get(p.where), interactive=True)
        for n, p in enumerate(lesson.puzzles, start=1)
    ]
    return LessonItem(
        variant=lesson.variant,
        slug=lesson.slug,
        title=lesson.title,
        summary=lesson.summary,
        language=lesson.language,
        order=lesson.order,
        source=lesson.path,
        sections=sections,
        puzzles=puzzles,
    )


def plan_diagram(checked: CheckedLesson, d: Diagram, number: int, anchor: str) -> DiagramItem:
    """The ``number``-th diagram of a lesson: its picture drawn from the check's proof (the arrows and
    the route it found), its texts, and the replays of the lines claimed on it."""
    lesson = checked.lesson
    v = lesson.variant.name
    proof = checked.proofs.get(d.where, DiagramProof())
    caption = d.caption or ""
    return DiagramItem(
        number=number,
        anchor=anchor,
        svg_path=f"{SVG_DIR}/{v}/{lesson.slug}-{number:02d}.svg",
        svg=_diagram_svg(d, proof, lesson, f"{v}-{lesson.slug}-{number}"),
        alt=_alt(d.position, caption, lesson.language),
        caption=caption,
        caption_html=inline_html(caption),
        caption_runs=inline_runs(caption),
        claim_texts=[c["text"] for c in d.claims if c is not None and isinstance(c.get("text"), str)],
        fen=d.position.fen(),
        replays=diagram_replays(d.position, d.claims),
        board=_diagram_board(d, proof),
    )


FINAL_DIAGRAM_PLIES = 5
"""Lines of at least this many plies get a small diagram of the final position in the answer key."""


def _played(p: Puzzle) -> tuple[list[str], list[Move], Position]:
    """The printed solution's moves as long text, as moves, and the position they end in."""
    texts: list[str] = []
    moves: list[Move] = []
    cur = p.position
    for step in p.solution:  # already verified: every move parses
        m = cur.parse_move(step.move.value)
        texts.append(cur.move_text(m, long=True))
        moves.append(m)
        cur = cur.play(m)
    return texts, moves, cur


@dataclass
class _Proven:
    """What a puzzle's proof adds to its page: the themes the engine recognised, the difficulty it
    measured, and every defence with the solver's answer (as text and as branches of the answer key)."""

    themes: list[str]
    level: int | None
    defences: list[str] = field(default_factory=list)
    branches: list[tuple[int, Move, list[Move]]] = field(default_factory=list)


def _proven(lesson: Lesson, p: Puzzle, proof: PuzzleProof | None) -> _Proven:
    # The engine decides the themes it knows; the author's other tags (atração, tempo …) stay.
    out = _Proven([t for t in p.themes if t not in THEMES], p.difficulty)
    if proof is None:
        return out
    shown = theme_names(lesson.language)
    out.themes += [shown.get(t, t) for t in proof.themes if shown.get(t, t) not in out.themes]
    out.level = out.level or proof.difficulty
    out.branches = list(proof.defences)
    positions = [p.position]
    for m in proof.moves:
        positions.append(positions[-1].play(m))
    for j, reply, rest in proof.defences:
        before = positions[j]
        out.defences.append(f"{before.move_text(reply, long=True)} {line_text(before.play(reply), rest)}".strip())
    return out


def plan_puzzle(
    lesson: Lesson, p: Puzzle, number: int, proof: PuzzleProof | None = None, *, interactive: bool = False
) -> PuzzleItem:
    pos = p.position
    texts, moves, cur = _played(p)
    v = lesson.variant.name
    lang = _lang(lesson.language)
    svg = diagram(pos, lang=lang, uid=f"{v}-{lesson.slug}-p{number}")
    stip = stipulation_text(p, lesson.language)
    proven = _proven(lesson, p, proof)
    themes = proven.themes
    item = PuzzleItem(
        number=number,
        id=p.id,
        svg_path=f"{SVG_DIR}/{v}/{lesson.slug}-p{number:02d}.svg",
        svg=svg,
        alt=f"{stip} {describe_position(pos, lang)}",
        stipulation=stip,
        solution=" ".join(texts),
        solution_moves=[t.value for t in (s.move for s in p.solution)],
        themes=themes,
        difficulty=proven.level,
        caption=p.caption or "",
        defences=proven.defences,
        answer=answer_text(pos, moves, proven.branches),
        material=material(cur, lesson.language),
        comment=comment(themes, pos, cur, p.goal, p.pieces, lesson.language),
        provenance=provenance(p.source, lesson.language),
        fen=pos.fen(),
        language=lesson.language,
        board=board_data(pos, style_key(pos.variant)),
        lesson_slug=lesson.slug,
    )
    if proof is not None and interactive:
        if proof.play is not None:  # the tree the check stage proved: no solver runs here
            item.play = puzzle_play(proof.play, key=f"{v}/{lesson.slug}/{p.id}")
        item.replay = replay_data(pos, proof.moves)
    if len(moves) >= FINAL_DIAGRAM_PLIES:
        item.final_svg_path = f"{SVG_DIR}/{v}/{lesson.slug}-p{number:02d}-fim.svg"
        item.final_svg = diagram(cur, numbers=False, lang=lang, uid=f"{v}-{lesson.slug}-p{number}-fim")
        item.final_alt = describe_position(cur, lang)
    return item


def plan_site(
    checked: list[CheckedLesson],
    variants: list[Variant],
    *,
    english: bool = False,
    plan: Callable[[CheckedLesson], LessonItem] | None = None,
) -> Site:
    """Pages for ``variants`` (in that order) from the checked lessons of those variants.

    ``plan`` plans one lesson (default :func:`plan_lesson`); ``damas serve`` passes one that keeps
    the plans of lessons that did not change."""
    plan = plan or plan_lesson
    by_variant: dict[str, list[LessonItem]] = {v.name: [] for v in variants}
    for c in checked:
        if c.lesson.variant.name in by_variant:
            by_variant[c.lesson.variant.name].append(plan(c))
    items = []
    for v in variants:
        lessons = sorted(by_variant[v.name], key=lambda lesson: (lesson.order, lesson.slug))
        items.append(VariantItem(v, lessons, english))
    link_neighbours(items)
    link_same_rules(items)
    return Site(items)


def link_neighbours(items: list[VariantItem]) -> None:
    """Previous/next between the lessons of each variant, in course order."""
    for item in items:
        for before, after in zip(item.lessons, item.lessons[1:], strict=False):
            before.following = (after.slug, after.title)
            after.previous = (before.slug, before.title)


def link_same_rules(items: list[VariantItem]) -> None:
    """Link each diagram that demonstrates a rule of the comparison page to the diagram of the same
    rule in the other variants (the comparison's rows name the diagram ids)."""
    rule_ids = {row.anchor for row in ROWS if row.anchor}
    first: dict[str, dict[str, str]] = {}
    for item in items:
        for lesson in item.lessons:
            for d in lesson.diagrams:
                if d.anchor in rule_ids:
                    first.setdefault(d.anchor, {}).setdefault(
                        item.name, f"../{item.name}/{lesson.slug}.html#{d.anchor}"
                    )
    for item in items:
        seen: set[str] = set()
        for lesson in item.lessons:
            for d in lesson.diagrams:
                if d.anchor not in rule_ids or d.anchor in seen:
                    continue
                seen.add(d.anchor)
                d.see_also = [
                    (other.title, first[d.anchor][other.name])
                    for other in items
                    if other.name != item.name and other.name in first[d.anchor]
                ]
