"""The build plan: which pages exist, what is on them, where each diagram file goes.

Made from verified lessons only; everything the HTML and PDF writers need is decided here, once,
so the two outputs show the same diagrams, captions and numbering.  Nothing is written to disk.
"""

from __future__ import annotations

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
from .interactive import Steps, View, diagram_replays, puzzle_play
from .markdown import inline_html, inline_runs, to_blocks, to_html
from .svg import Svg, describe_position, diagram

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
    step_svgs: dict[str, Svg] = field(default_factory=dict)
    """Step diagrams of the interactive replays and puzzles (build-root path -> SVG)."""

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
                out.update(lesson.step_svgs)
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
    return diagram(
        d.position,
        orientation=d.show.orientation,
        numbers=d.show.numbers,
        coordinates=d.show.coordinates,
        arrows=arrows,
        route=route,
        captured=captured,
        highlight=proof.highlight,
        lang=_lang(lesson.language),
        uid=uid,
    )


def _alt(svg_position: Position, caption: str, language: str) -> str:
    described = describe_position(svg_position, _lang(language))
    return f"{caption.strip()} {described}".strip() if caption else described


def plan_lesson(checked: CheckedLesson) -> LessonItem:
    lesson = checked.lesson
    v = lesson.variant.name
    sections: list[SectionItem] = []
    number = 0
    anchors = lesson.diagram_anchors()
    steps = Steps()
    for i, s in enumerate(lesson.sections):
        items = []
        for d in s.diagrams:
            number += 1
            proof = checked.proofs.get(d.where, DiagramProof())
            uid = f"{v}-{lesson.slug}-{number}"
            caption = d.caption or ""
            items.append(
                DiagramItem(
                    number=number,
                    anchor=anchors[number - 1],
                    svg_path=f"{SVG_DIR}/{v}/{lesson.slug}-{number:02d}.svg",
                    svg=_diagram_svg(d, proof, lesson, uid),
                    alt=_alt(d.position, caption, lesson.language),
                    caption=caption,
                    caption_html=inline_html(caption),
                    caption_runs=inline_runs(caption),
                    claim_texts=[c["text"] for c in d.claims if c is not None and isinstance(c.get("text"), str)],
                    fen=d.position.fen(),
                    replays=diagram_replays(
                        d.position,
                        d.claims,
                        View(d.show.orientation, d.show.numbers, d.show.coordinates, _lang(lesson.language)),
                        steps,
                    ),
                )
            )
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
        plan_puzzle(lesson, p, n, checked.puzzle_proofs.get(p.where), steps)
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
        step_svgs=steps.svgs,
    )


FINAL_DIAGRAM_PLIES = 5
"""Lines of at least this many plies get a small diagram of the final position in the answer key."""


def plan_puzzle(
    lesson: Lesson, p: Puzzle, number: int, proof: PuzzleProof | None = None, steps: Steps | None = None
) -> PuzzleItem:
    pos = p.position
    texts: list[str] = []
    moves: list[Move] = []
    cur = pos
    for step in p.solution:  # already verified: every move parses
        m = cur.parse_move(step.move.value)
        texts.append(cur.move_text(m, long=True))
        moves.append(m)
        cur = cur.play(m)
    v = lesson.variant.name
    lang = _lang(lesson.language)
    svg = diagram(pos, lang=lang, uid=f"{v}-{lesson.slug}-p{number}")
    stip = stipulation_text(p, lesson.language)
    # The engine decides the themes it knows; the author's other tags (atração, tempo …) stay.
    themes = [t for t in p.themes if t not in THEMES]
    shown = theme_names(lesson.language)
    defences: list[str] = []
    branches: list[tuple[int, Move, list[Move]]] = []
    level = p.difficulty
    if proof is not None:
        themes += [shown.get(t, t) for t in proof.themes if shown.get(t, t) not in themes]
        level = level or proof.difficulty
        branches = list(proof.defences)
        positions = [pos]
        for m in proof.moves:
            positions.append(positions[-1].play(m))
        for j, reply, rest in proof.defences:
            before = positions[j]
            defences.append(f"{before.move_text(reply, long=True)} {line_text(before.play(reply), rest)}".strip())
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
        difficulty=level,
        caption=p.caption or "",
        defences=defences,
        answer=answer_text(pos, moves, branches),
        material=material(cur, lesson.language),
        comment=comment(themes, pos, cur, p.goal, p.pieces, lesson.language),
        provenance=provenance(p.source, lesson.language),
        fen=pos.fen(),
        language=lesson.language,
        play=None
        if proof is None or steps is None
        else puzzle_play(
            pos,
            p.stipulation,
            proof.moves,
            key=f"{v}/{lesson.slug}/{p.id}",
            hint=", ".join(themes),
            profile=lesson.profile,
            view=View(lang=_lang(lesson.language)),
            steps=steps,
        ),
    )
    if len(moves) >= FINAL_DIAGRAM_PLIES:
        item.final_svg_path = f"{SVG_DIR}/{v}/{lesson.slug}-p{number:02d}-fim.svg"
        item.final_svg = diagram(cur, numbers=False, lang=lang, uid=f"{v}-{lesson.slug}-p{number}-fim")
        item.final_alt = describe_position(cur, lang)
    return item


def plan_site(checked: list[CheckedLesson], variants: list[Variant], *, english: bool = False) -> Site:
    """Pages for ``variants`` (in that order) from the checked lessons of those variants."""
    by_variant: dict[str, list[LessonItem]] = {v.name: [] for v in variants}
    for c in checked:
        if c.lesson.variant.name in by_variant:
            by_variant[c.lesson.variant.name].append(plan_lesson(c))
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
