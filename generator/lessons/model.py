"""The lesson model: typed objects built from a schema-valid YAML document.

Every object keeps ``where`` (its path in the document) so the verifier can put any error at the
right ``file:line:col``.  Positions are parsed here (FEN, ``start`` or a drawn board); moves are
kept as text with their paths, because what a move means depends on the position the verifier
reaches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import DamasError
from ..rules import BLACK, WHITE, Position, Variant, get_variant
from ..rules.draws import DrawProfile, draw_profile
from ..rules.game import Counters
from .drawing import read_board
from .source import Document, Path, SourceError


@dataclass
class Text:
    """A piece of text from the lesson, with where it was written."""

    value: str
    where: Path


@dataclass
class Show:
    orientation: int = WHITE
    numbers: bool | None = None
    coordinates: bool | None = None
    arrows: list[Text] = field(default_factory=list)
    route: Text | None = None
    captured: bool = True
    highlight: list[Text] = field(default_factory=list)


@dataclass
class Diagram:
    where: Path
    id: str | None
    position: Position
    counters: Counters
    caption: str | None
    show: Show
    claims: list[dict[str, Any] | None]
    """Raw claim mappings (None where the claim is malformed and already reported);
    ``claim_where(i)`` locates them."""

    def claim_where(self, i: int) -> Path:
        return (*self.where, "claims", i)


AUTHOR_KEY = "for_authors"
"""The section key of the block meant for authors: Markdown shown in a box marked for authors, which
the reader-text check (``reader_text``) skips."""


@dataclass
class Section:
    where: Path
    id: str | None
    title: str
    text: str
    diagrams: list[Diagram]
    for_authors: str = ""
    """Text for authors and teachers (command lines, file names): shown apart, never checked as reader text."""


@dataclass
class SolutionMove:
    move: Text
    others: list[Text] | None = None
    """For a defender move that is not forced: the other replies the author lists."""


@dataclass
class Puzzle:
    where: Path
    id: str
    position: Position
    counters: Counters
    stipulation: str
    solution: list[SolutionMove]
    themes: list[str]
    difficulty: int | None
    caption: str | None
    margin: int | None = None
    """Cook margin in plies past the printed line (None: the default); set with ``margin_reason``."""
    margin_reason: str | None = None
    source: dict[str, Any] | None = None
    """Provenance (a PDN game or a self-play seed and ply), as ``damas mine`` writes it."""

    @property
    def goal(self) -> str:
        return self.stipulation.split(":")[0]

    @property
    def pieces(self) -> int:
        return int(self.stipulation.split(":")[1]) if ":" in self.stipulation else 0


@dataclass
class Lesson:
    path: str
    variant: Variant
    language: str
    title: str
    slug: str
    summary: str
    order: int
    profile: DrawProfile
    sections: list[Section]
    puzzles: list[Puzzle]
    proof_budget: int | None = None
    """The node budget of each puzzle's proof, when the lesson sets one (a book with a wide cook
    margin needs more than the default); the course's own setting still wins."""

    def diagrams(self) -> list[Diagram]:
        return [d for s in self.sections for d in s.diagrams]

    def section_anchor(self, index: int) -> str:
        """The page anchor of section ``index`` (0-based): its id, else ``secao-N``."""
        return self.sections[index].id or self._anchor("section") % {"num": index + 1}

    def _anchor(self, role: str) -> str:
        from ..i18n import anchor_names

        return anchor_names(self.language)[role]

    def diagram_anchors(self) -> list[str]:
        """The page anchor of every diagram, in page order: its id, else ``diagrama-N``."""
        name = self._anchor("diagram")
        return [d.id or name % {"num": n} for n, d in enumerate(self.diagrams(), start=1)]

    def anchors(self) -> set[str]:
        """Every anchor a link may point at on this lesson's page."""
        found = {self.section_anchor(i) for i in range(len(self.sections))} | set(self.diagram_anchors())
        found |= {p.id for p in self.puzzles} | {self._anchor("content")}
        if self.puzzles:
            found.add(self._anchor("puzzles"))
        return found


class _Builder:
    def __init__(self, doc: Document, variant: Variant, errors: list[SourceError]) -> None:
        self.doc = doc
        self.variant = variant
        self.errors = errors

    def fail(self, where: Path, message: str) -> None:
        self.errors.append(self.doc.error(where, message))

    # -- positions ------------------------------------------------------------------------------

    def position(self, data: dict[str, Any], where: Path) -> tuple[Position, Counters] | None:
        has_fen, has_board = "position" in data, "board" in data
        if has_fen and has_board:
            self.fail((*where, "board"), "give either 'position' or 'board', not both")
            return None
        if not has_fen and not has_board:
            self.fail(where, "no position: give 'position' (a FEN or 'start') or 'board' (a drawn board)")
            return None
        counters = self.counters(data, where)
        if has_fen:
            if "turn" in data:
                self.fail((*where, "turn"), "'turn' goes with 'board'; a FEN already says who is to move")
            fen = data["position"]
            try:
                pos = Position.from_fen(self.variant, fen)
                fen_counters = Counters.from_fen(fen)
            except DamasError as exc:
                self.fail((*where, "position"), str(exc))
                return None
            if "counters" not in data:
                return pos, fen_counters
            if fen_counters != Counters():
                self.fail((*where, "counters"), "counters are given twice: in the FEN and in 'counters'")
                return None
            return (pos, counters) if counters is not None else None
        if "turn" not in data:
            self.fail((*where, "board"), "a drawn board needs 'turn: white' or 'turn: black'")
            return None
        drawn = self.board(data["board"], (*where, "board"), WHITE if data["turn"] == "white" else BLACK)
        if drawn is None or counters is None:
            return None
        return drawn, counters

    def counters(self, data: dict[str, Any], where: Path) -> Counters | None:
        raw = data.get("counters") or {}
        quiet = raw.get("quiet", 0)
        balance = raw.get("balance", quiet)
        if balance < quiet:
            self.fail(
                (*where, "counters", "balance"),
                f"balance ({balance}) is less than quiet ({quiet}): every capture or promotion also "
                "resets the quiet count",
            )
            return None
        return Counters(quiet, balance, raw.get("endgame", 0), raw.get("move_number", 1))

    def board(self, text: str, where: Path, turn: int) -> Position | None:
        """A board drawn row by row from the top (White at the bottom); see :mod:`.drawing`."""
        pos, problems = read_board(self.variant, text, turn)
        for p in problems:
            if p.row is None:
                self.fail(where, p.message)
            else:
                self.fail_cell(where, p.row, p.col, p.message)
        return pos

    def fail_cell(self, where: Path, row: int, col: int, message: str) -> None:
        line, column = self.doc.block_cell(where, row, col)
        self.errors.append(SourceError(self.doc.path, line, column, message))

    # -- structure ------------------------------------------------------------------------------

    def texts(self, data: dict[str, Any], key: str, where: Path) -> list[Text]:
        return [Text(str(v), (*where, key, i)) for i, v in enumerate(data.get(key) or [])]

    def show(self, data: dict[str, Any], where: Path) -> Show:
        raw = data.get("show") or {}
        w = (*where, "show")
        return Show(
            orientation=BLACK if raw.get("orientation") == "black" else WHITE,
            numbers=raw.get("numbers"),
            coordinates=raw.get("coordinates"),
            arrows=self.texts(raw, "arrows", w),
            route=Text(raw["route"], (*w, "route")) if "route" in raw else None,
            captured=raw.get("captured", True),
            highlight=self.texts(raw, "highlight", w),
        )

    def diagram(self, data: dict[str, Any], where: Path) -> Diagram | None:
        placed = self.position(data, where)
        if placed is None:
            return None
        pos, counters = placed
        return Diagram(
            where=where,
            id=data.get("id"),
            position=pos,
            counters=counters,
            caption=data.get("caption"),
            show=self.show(data, where),
            claims=list(data.get("claims") or []),
        )

    def puzzle(self, data: dict[str, Any], where: Path) -> Puzzle | None:
        placed = self.position(data, where)
        if placed is None:
            return None
        pos, counters = placed
        solution = []
        for i, item in enumerate(data["solution"]):
            w = (*where, "solution", i)
            if isinstance(item, dict):
                others = [Text(str(o), (*w, "others", j)) for j, o in enumerate(item["others"])]
                solution.append(SolutionMove(Text(item["move"], (*w, "move")), others))
            else:
                solution.append(SolutionMove(Text(str(item), w)))
        return Puzzle(
            where=where,
            id=data["id"],
            position=pos,
            counters=counters,
            stipulation=data["stipulation"],
            solution=solution,
            themes=list(data.get("themes") or []),
            difficulty=data.get("difficulty"),
            caption=data.get("caption"),
            margin=data.get("margin"),
            margin_reason=data.get("margin_reason"),
            source=data.get("source"),
        )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


@dataclass(frozen=True)
class _Usable:
    """Which values of the document may be read: none at or inside a path with a reported error."""

    invalid: set[Path]

    def bad(self, where: Path) -> bool:
        """An error at ``where`` or inside it."""
        return any(p[: len(where)] == where for p in self.invalid)

    def text(self, d: dict[str, Any], key: str, where: Path) -> str:
        value = d.get(key)
        return value if isinstance(value, str) and not self.bad((*where, key)) else ""


def build_lesson(doc: Document, invalid: set[Path]) -> tuple[Lesson | None, list[SourceError]]:
    """The typed lesson from a document whose schema errors (at the paths in ``invalid``) are
    already reported.  Only what an error makes unusable is left out (a diagram whose position is
    malformed, a claim with a wrong key), so every other claim is still verified in the same run.
    Position errors are returned, located."""
    errors: list[SourceError] = []
    data = doc.data
    ok = _Usable(invalid)
    if not isinstance(data, dict) or ok.bad(("variant",)) or "variant" not in data:
        return None, errors
    variant = get_variant(data["variant"])
    try:
        profile = draw_profile(variant, None if ok.bad(("draw_profile",)) else data.get("draw_profile"))
    except ValueError as exc:
        errors.append(doc.error(("draw_profile",), str(exc)))
        profile = draw_profile(variant)
    b = _Builder(doc, variant, errors)
    order = data.get("order", 0)
    lesson = Lesson(
        path=doc.path,
        variant=variant,
        language=ok.text(data, "language", ()) or "pt-BR",
        title=ok.text(data, "title", ()),
        slug=ok.text(data, "slug", ()),
        summary=ok.text(data, "summary", ()),
        order=order if isinstance(order, int) and not ok.bad(("order",)) else 0,
        profile=profile,
        sections=_sections(data, b, ok),
        puzzles=_puzzles(data, b, ok),
        proof_budget=data["proof_budget"]
        if isinstance(data.get("proof_budget"), int) and not ok.bad(("proof_budget",))
        else None,
    )
    return lesson, errors


def _sections(data: dict[str, Any], b: _Builder, ok: _Usable) -> list[Section]:
    sections = []
    for i, s in enumerate(_list(data.get("sections"))):
        w: Path = ("sections", i)
        if not isinstance(s, dict):
            continue
        diagrams = []
        for j, raw in enumerate(_list(s.get("diagrams"))):
            diagram = _diagram(raw, (*w, "diagrams", j), b, ok)
            if diagram is not None:
                diagrams.append(diagram)
        ident = s.get("id") if not ok.bad((*w, "id")) else None
        sections.append(
            Section(w, ident, ok.text(s, "title", w), ok.text(s, "text", w), diagrams, ok.text(s, AUTHOR_KEY, w))
        )
    return sections


def _diagram(d: Any, dw: Path, b: _Builder, ok: _Usable) -> Diagram | None:
    """One diagram, without what an error made unusable (None when its position is)."""
    if not isinstance(d, dict) or any(ok.bad((*dw, k)) for k in ("position", "board", "turn", "counters")):
        return None
    d = dict(d)
    if ok.bad((*dw, "show")):
        d.pop("show", None)
    for key in ("caption", "id"):
        if ok.bad((*dw, key)):
            d.pop(key, None)
    claims = d.get("claims")
    d["claims"] = (
        [None if ok.bad((*dw, "claims", k)) else c for k, c in enumerate(claims)] if isinstance(claims, list) else []
    )
    return b.diagram(d, dw)


def _puzzles(data: dict[str, Any], b: _Builder, ok: _Usable) -> list[Puzzle]:
    puzzles = []
    for i, p in enumerate(_list(data.get("puzzles"))):
        pw: Path = ("puzzles", i)
        essential = ("position", "board", "turn", "counters", "stipulation", "solution", "id")
        if not isinstance(p, dict) or pw in ok.invalid or any(ok.bad((*pw, k)) for k in essential):
            continue
        p = dict(p)
        for key in ("themes", "difficulty", "caption", "margin", "margin_reason"):
            if ok.bad((*pw, key)):
                p.pop(key, None)
        if "margin" not in p and isinstance(data.get("margin"), int) and not ok.bad(("margin",)):
            p["margin"] = data["margin"]  # the lesson's margin (a printed book's) for puzzles that set none
        puzzle = b.puzzle(p, pw)
        if puzzle is not None:
            puzzles.append(puzzle)
    return puzzles
