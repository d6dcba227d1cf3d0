"""Every claim of a lesson checked with the rules engine; errors say what was claimed and what is true.

The verifier never stops at the first problem: it reports each false claim at its own place and
goes on, so one ``damas check`` run lists everything wrong in a file.  It also records, on the
model, what the renderer needs from the proof (the move a claim names, its route).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import cache as proof_cache
from ..errors import DamasError
from ..puzzles.proof import prove_for_pages, resolve_budget
from ..puzzles.result import Problem, PuzzleResult
from ..rules import IllegalMoveError, Move, Position
from ..rules.draws import Repetition
from ..rules.game import Game, Outcome
from ..rules.notation import fitting, split_move_text
from .explain import counter_words, draw_progress, explain_move, side_to_move_of_all, why_category
from .markdown_safety import unsafe_markdown
from .model import AUTHOR_KEY, Diagram, Lesson, Puzzle, Text
from .source import Document, Path, SourceError
from .verify_cache import KIND as PROOF_KIND
from .verify_cache import proof_key

CLAIM_KEYS = ("moves", "only_move", "legal", "illegal", "line", "result", "ending")
OUTCOMES = {
    "white-wins": Outcome.WHITE_WINS,
    "black-wins": Outcome.BLACK_WINS,
    "draw": Outcome.DRAW,
    "ongoing": Outcome.ONGOING,
}


@dataclass
class DiagramProof:
    """What the verifier established about a diagram, for drawing it."""

    arrows: list[Move | tuple[int, int]] = field(default_factory=list)
    route: Move | None = None
    highlight: list[int] = field(default_factory=list)


PuzzleProof = PuzzleResult
"""What the proof established about a sound puzzle, for the books and pages (the puzzles layer's
:class:`~generator.puzzles.result.PuzzleResult`; the name is kept for the renderers)."""


def text_fields(data: Any) -> list[tuple[Path, str]]:
    """Every text of a lesson document shown on its page, with its path: what may hold Markdown (the
    blocks for authors included; ``reader_text.reader_fields`` leaves those out)."""
    if not isinstance(data, dict):
        return []
    out: list[tuple[Path, Any]] = [(("summary",), data.get("summary")), (("title",), data.get("title"))]
    for i, s in enumerate(_items(data.get("sections"))):
        if not isinstance(s, dict):
            continue
        out.append((("sections", i, "text"), s.get("text")))
        out.append((("sections", i, "title"), s.get("title")))
        out.append((("sections", i, AUTHOR_KEY), s.get(AUTHOR_KEY)))
        for j, d in enumerate(_items(s.get("diagrams"))):
            if not isinstance(d, dict):
                continue
            out.append((("sections", i, "diagrams", j, "caption"), d.get("caption")))
            for k, c in enumerate(_items(d.get("claims"))):
                if not isinstance(c, dict):
                    continue
                out.append((("sections", i, "diagrams", j, "claims", k, "text"), c.get("text")))
                for m, item in enumerate(_items(c.get("illegal"))):
                    if isinstance(item, dict):
                        out.append(
                            (("sections", i, "diagrams", j, "claims", k, "illegal", m, "reason"), item.get("reason"))
                        )
    for i, p in enumerate(_items(data.get("puzzles"))):
        if isinstance(p, dict):
            out.append((("puzzles", i, "caption"), p.get("caption")))
    return [(where, text) for where, text in out if isinstance(text, str)]


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _status_words(status: Any, game: Game) -> str:
    """ "still ongoing", "a white win (blocked: black cannot move)", "a draw (E2: ...; the counter
    is at 80 of 80 plies)"."""
    if not status.is_over:
        return "still ongoing"
    kind = {Outcome.WHITE_WINS: "a white win", Outcome.BLACK_WINS: "a black win", Outcome.DRAW: "a draw"}
    counted = counter_words(game, status.reason) if status.outcome is Outcome.DRAW else None
    return f"{kind[status.outcome]} ({status.reason}: {status.text}{f'; {counted}' if counted else ''})"


def _draw_rule_words(game: Game, reason: str | None) -> str:
    """``: E2 (...) draws at 80 plies ...; the counter is at 79 of 80 plies``: the claimed draw rule
    (or, without one, the rule nearest its threshold) and how far its counter is."""
    rule_id = reason
    if reason == "repetition":
        rule_id = next((r.id for r in game.profile.rules if isinstance(r, Repetition)), None)
    progress = draw_progress(game, rule_id if rule_id in game.profile.rule_ids else None)
    if progress is None:
        return f": the draw profile '{game.profile.name}' has no draw rules"
    return f": {progress}"


def _listing(pos: Position, moves: Sequence[Move], legal: Sequence[Move]) -> str:
    if not moves:
        return "none"
    return " ".join(pos.move_text(m, legal=legal) for m in pos.sorted_moves(moves))


class Verifier:
    proof_budget: int | None = None
    """Node budget of each puzzle's proof (None: the default of ``generator.puzzles.proof.resolve_budget``)."""

    def __init__(self, doc: Document, lesson: Lesson) -> None:
        self.doc = doc
        self.lesson = lesson
        self.errors: list[SourceError] = []
        self.proofs: dict[Path, DiagramProof] = {}
        self.puzzle_proofs: dict[Path, PuzzleResult] = {}

    def fail(self, where: Path, message: str) -> None:
        self.errors.append(self.doc.error(where, message))

    # -- moves as text --------------------------------------------------------------------------

    def resolve(self, pos: Position, text: Text, legal: Sequence[Move]) -> Move | None:
        """The legal move ``text`` names, or None after reporting why not."""
        try:
            return pos.parse_move(text.value, legal)
        except DamasError as exc:
            self.fail(text.where, str(exc))
            return None

    def squares(self, pos: Position, text: Text) -> list[int] | None:
        try:
            return split_move_text(pos, text.value)
        except DamasError as exc:
            self.fail(text.where, str(exc))
            return None

    def _is_legal_text(self, pos: Position, text: Text, legal: Sequence[Move]) -> Move | Literal[False] | None:
        """The legal move named by the text, False if it names no legal move, None if unreadable or
        ambiguous (reported)."""
        sq = self.squares(pos, text)
        if sq is None:
            return None
        found = fitting(pos, sq, legal)
        if len(found) > 1:
            options = ", ".join(pos.move_text(m, long=True) for m in found)
            self.fail(text.where, f"{text.value} is ambiguous: two legal captures fit; write the path ({options})")
            return None
        return found[0] if found else False

    def rule_named(self, pos: Position, text: Text) -> str:
        """``: <the rule that forbids it>`` for a readable move that is not legal, or ``""`` when no
        single rule explains it (see :mod:`.explain`)."""
        try:
            squares = split_move_text(pos, text.value)
        except DamasError:
            return ""
        rule = explain_move(pos, squares, text.value.strip())
        return f": {rule.text}" if rule is not None else ""

    def other_side_moves(self, pos: Position, texts: list[Text], where: Path, legal: list[Move]) -> bool:
        """Report once, at ``where``, when every move of a list is a move of the side not to move
        (the position's turn is what is wrong, not each move); True if so."""
        written: list[tuple[list[int], str]] = []
        for text in texts:
            try:
                squares = split_move_text(pos, text.value)
            except DamasError:
                return False
            if fitting(pos, squares, legal):
                return False
            written.append((squares, text.value))
        sentence = side_to_move_of_all(pos, written)
        if sentence is None:
            return False
        self.fail(where, sentence)
        return True

    # -- lesson ---------------------------------------------------------------------------------

    def verify(self) -> list[SourceError]:
        self.text_safety()
        self.unique_ids()
        for diagram in self.lesson.diagrams():
            self.diagram(diagram)
        for puzzle in self.lesson.puzzles:
            self.puzzle(puzzle)
        return self.errors

    def text_safety(self) -> None:
        for where, text in text_fields(self.doc.data):
            for line_in_text, col_in_line, message in unsafe_markdown(text):
                line, col = self.doc.text_position(where, line_in_text, col_in_line)
                self.errors.append(SourceError(self.doc.path, line, col, message))

    def unique_ids(self) -> None:
        seen: dict[str, Path] = {}
        items: list[tuple[str | None, Path]] = []
        for s in self.lesson.sections:
            items.append((s.id, (*s.where, "id")))
            items.extend((d.id, (*d.where, "id")) for d in s.diagrams)
        items.extend((p.id, (*p.where, "id")) for p in self.lesson.puzzles)
        for ident, where in items:
            if ident is None:
                continue
            if ident in seen:
                line, _ = self.doc.mark(seen[ident])
                self.fail(where, f"id '{ident}' is used twice in this lesson (first on line {line})")
            else:
                seen[ident] = where

    # -- diagrams -------------------------------------------------------------------------------

    def diagram(self, d: Diagram) -> None:
        pos = d.position
        legal = pos.legal_moves()
        proof = DiagramProof()
        self.proofs[d.where] = proof
        g = pos.variant.geometry
        for text in d.show.highlight:
            try:
                proof.highlight.append(g.parse_square(text.value))
            except ValueError as exc:
                self.fail(text.where, str(exc))
        for text in d.show.arrows:
            found = self._is_legal_text(pos, text, legal)
            if found:
                proof.arrows.append(found)
            elif found is False:
                sq = split_move_text(pos, text.value)
                proof.arrows.append((sq[0], sq[-1]))
        if d.show.route is not None:
            move = self.resolve(pos, d.show.route, legal)
            if move is not None:
                if not move.captures:
                    self.fail(d.show.route.where, f"route {d.show.route.value} is not a capture; use 'arrows'")
                proof.route = move
        for i, claim in enumerate(d.claims):
            if claim is not None:
                self.claim(d, i, claim, legal, proof)

    def claim(self, d: Diagram, i: int, c: dict[str, Any], legal: list[Move], proof: DiagramProof) -> None:
        where = d.claim_where(i)
        pos = d.position
        if not any(k in c for k in CLAIM_KEYS):
            self.fail(where, f"this claim states nothing to check; give one of: {', '.join(CLAIM_KEYS)}")
            return
        if "moves" in c:
            self.claim_moves(
                pos,
                [Text(str(m), (*where, "moves", j)) for j, m in enumerate(c["moves"])],
                (*where, "moves"),
                legal,
            )
        if "only_move" in c:
            self.claim_only(pos, Text(c["only_move"], (*where, "only_move")), legal, proof)
        legal_texts = [Text(str(m), (*where, "legal", j)) for j, m in enumerate(c.get("legal") or [])]
        if not self.other_side_moves(pos, legal_texts, (*where, "legal"), legal):
            for text in legal_texts:
                self.resolve_claimed_legal(pos, text, legal)
        for j, item in enumerate(c.get("illegal") or []):
            self.claim_illegal(pos, item, (*where, "illegal", j), legal)
        if "line" in c:
            self.claim_line(d, c, where)
        elif "result" in c:
            game = Game(pos.variant, pos, profile=self.lesson.profile, counters=d.counters)
            self.check_result(game, c, where, "in the diagram")
        if "ending" in c:
            self.claim_ending(d, c, where)

    def claim_ending(self, d: Diagram, c: dict[str, Any], where: Path) -> None:
        """``ending: win|draw|loss`` (and ``wins_in: N``) for the side to move, from the endgame
        tables combined with the lesson's draw rules (generator/endgame/claims.py)."""
        from ..endgame.claims import check_ending
        from ..endgame.tables import shared_tables

        if "line" in c:
            self.fail((*where, "ending"), "an ending claim is about the diagram itself: give it a claim of its own")
            return
        wins_in = c.get("wins_in")
        if wins_in is not None and c["ending"] != "win":
            self.fail((*where, "wins_in"), f"wins_in goes with ending: win, not ending: {c['ending']}")
            return
        game = Game(d.position.variant, d.position, profile=self.lesson.profile, counters=d.counters)
        fault = check_ending(game, c["ending"], wins_in, lambda g: shared_tables(g.variant))
        if fault is not None:
            self.fail((*where, fault[0]), fault[1])

    def claim_moves(self, pos: Position, texts: list[Text], where: Path, legal: list[Move]) -> None:
        if self.other_side_moves(pos, texts, where, legal):
            return
        claimed: list[Move] = []
        for text in texts:
            found = self._is_legal_text(pos, text, legal)
            if found is False:
                self.fail(
                    text.where,
                    f"claimed {text.value} is legal, but it is not{self.rule_named(pos, text)}; "
                    f"legal: {_listing(pos, legal, legal)}",
                )
            elif found:
                if found in claimed:
                    self.fail(text.where, f"{text.value} is listed twice")
                claimed.append(found)
        missing = [m for m in legal if m not in claimed]
        if missing:
            self.fail(
                where,
                f"claimed exactly {len(texts)} legal move(s), but {_listing(pos, missing, legal)} "
                f"{'is' if len(missing) == 1 else 'are'} also legal",
            )

    def claim_only(self, pos: Position, text: Text, legal: list[Move], proof: DiagramProof) -> None:
        found = self._is_legal_text(pos, text, legal)
        if found is None:
            return
        if found is False:
            self.fail(
                text.where,
                f"claimed only move {text.value}, but it is not legal here{self.rule_named(pos, text)}; "
                f"legal: {_listing(pos, legal, legal)}",
            )
            return
        others = [m for m in legal if m != found]
        if others:
            verb = "is" if len(others) == 1 else "are"
            self.fail(
                text.where,
                f"claimed only move {text.value}, but {_listing(pos, others, legal)} {verb} also legal",
            )
        if found.captures and proof.route is None:
            proof.route = found

    def resolve_claimed_legal(self, pos: Position, text: Text, legal: list[Move]) -> Move | None:
        found = self._is_legal_text(pos, text, legal)
        if found is False:
            self.fail(
                text.where,
                f"claimed {text.value} is legal, but it is not{self.rule_named(pos, text)}; "
                f"legal: {_listing(pos, legal, legal)}",
            )
            return None
        return found or None

    def claim_illegal(self, pos: Position, item: Any, where: Path, legal: list[Move]) -> None:
        if isinstance(item, dict):
            text = Text(item["move"], (*where, "move"))
            why = item.get("why")
        else:
            text = Text(str(item), where)
            why = None
        found = self._is_legal_text(pos, text, legal)
        if found is None:
            return
        if found is not False:
            self.fail(text.where, f"claimed {text.value} is not legal, but it is")
            return
        if why is None:
            return
        actual = why_category(pos, split_move_text(pos, text.value))
        if actual != why:
            rule = self.rule_named(pos, text)
            self.fail(
                (*where, "why"),
                f"claimed {text.value} is not legal because of '{why}', but the reason is '{actual}'{rule}",
            )

    def claim_line(self, d: Diagram, c: dict[str, Any], where: Path) -> None:
        pos = d.position
        game = Game(pos.variant, pos, profile=self.lesson.profile, counters=d.counters)
        texts = [Text(str(m), (*where, "line", j)) for j, m in enumerate(c["line"])]
        played: list[tuple[Position, list[Move], Move]] = []
        for j, text in enumerate(texts):
            here = game.position
            here_legal = here.legal_moves()
            try:
                move = game.play(text.value)
            except IllegalMoveError:
                self.fail(
                    text.where,
                    f"line move {j + 1}: {text.value.strip()} is not legal here{self.rule_named(here, text)}; "
                    f"legal: {_listing(here, here_legal, here_legal)}",
                )
                return
            except DamasError as exc:
                self.fail(text.where, f"line move {j + 1}: {exc}")
                return
            played.append((here, here_legal, move))
        forced = c.get("forced", False)
        must: set[int] = set()
        if forced is True:
            must = set(range(1, len(played), 2))  # every reply
        elif isinstance(forced, list):
            for k, f in enumerate(forced):
                ftext = Text(str(f), (*where, "forced", k))
                try:
                    squares = split_move_text(pos, ftext.value)
                except DamasError as exc:
                    self.fail(ftext.where, str(exc))
                    continue
                hits = [j for j, (here, _, move) in enumerate(played) if fitting(here, squares, [move])]
                if not hits:
                    self.fail(ftext.where, f"{ftext.value} is not a move of the line")
                must.update(hits[:1])
        for j in sorted(must):
            here, here_legal, move = played[j]
            if len(here_legal) > 1:
                others = [m for m in here_legal if m != move]
                verb = "is" if len(others) == 1 else "are"
                self.fail(
                    texts[j].where,
                    f"claimed {texts[j].value} is forced, but {_listing(here, others, here_legal)} {verb} also legal",
                )
        if "position" in c:
            try:
                expected = Position.from_fen(pos.variant, c["position"])
            except DamasError as exc:
                self.fail((*where, "position"), str(exc))
            else:
                if expected != game.position:
                    self.fail(
                        (*where, "position"),
                        f"claimed the position after the line is {expected.fen()}, but it is {game.position.fen()}",
                    )
        if "result" in c:
            self.check_result(game, c, where, "after the line")

    def check_result(self, game: Game, c: dict[str, Any], where: Path, when: str) -> None:
        status = game.status()
        claimed = OUTCOMES[c["result"]]
        reason = c.get("reason")
        actual = _status_words(status, game)
        if claimed is not status.outcome:
            why = _draw_rule_words(game, reason) if claimed is Outcome.DRAW and not status.is_over else ""
            self.fail((*where, "result"), f"claimed {c['result']} {when}, but the game is {actual}{why}")
            return
        if reason is None:
            return
        valid = {"no-pieces", "blocked", "repetition", *game.profile.rule_ids}
        if reason not in valid:
            self.fail((*where, "reason"), f"unknown reason '{reason}'; use one of: {', '.join(sorted(valid))}")
            return
        ok = reason == status.reason or (
            reason == "repetition"
            and any(isinstance(r, Repetition) and r.id == status.reason for r in game.profile.rules)
        )
        if not ok:
            why = _draw_rule_words(game, reason) if claimed is Outcome.DRAW and reason in game.profile.rule_ids else ""
            self.fail((*where, "reason"), f"claimed {c['result']} by {reason} {when}, but the game is {actual}{why}")

    # -- puzzles --------------------------------------------------------------------------------

    def puzzle(self, p: Puzzle) -> None:
        pos = p.position
        game = Game(pos.variant, pos, profile=self.lesson.profile, counters=p.counters)
        attacker = pos.turn
        moves: list[Move] = []
        for j, step in enumerate(p.solution):
            here = game.position
            legal = here.legal_moves()
            try:
                move = game.play(step.move.value)
            except DamasError as exc:
                self.fail(step.move.where, f"solution move {j + 1}: {exc}")
                return
            moves.append(move)
            if here.turn == attacker:
                if step.others is not None:
                    self.fail(step.move.where, "'others' is for the defender's replies, not the solver's moves")
                continue
            others = [m for m in legal if m != move]
            listed: list[Move] = []
            for text in step.others or []:
                found = self._is_legal_text(here, text, legal)
                if found is False:
                    self.fail(
                        text.where,
                        f"{text.value} is not a legal reply here; legal: {_listing(here, legal, legal)}",
                    )
                elif found:
                    listed.append(found)
            missing = [m for m in others if m not in listed]
            if missing and step.others is None:
                verb = "is" if len(missing) == 1 else "are"
                self.fail(
                    step.move.where,
                    f"defender move {step.move.value} is not forced: {_listing(here, missing, legal)} {verb} also "
                    "legal; list them under 'others' or change the line",
                )
            elif missing:
                self.fail(
                    (*step.move.where[:-1], "others"),
                    f"'others' leaves out {_listing(here, missing, legal)}",
                )
            elif step.others is not None and not others:
                self.fail(
                    (*step.move.where[:-1], "others"),
                    f"{step.move.value} is forced: there are no other replies",
                )
        self.prove(p, moves)

    def prove(self, p: Puzzle, moves: list[Move]) -> None:
        """The puzzle's proof (:func:`generator.puzzles.proof.prove_puzzle`: the line meets the
        goal, the key and each later solver move force it, no cook, a real combination, all within
        the proof budget), its problems reported at their places in the file, and the result kept
        for the books and pages when the puzzle is sound, with the tree its page lets the student
        play (:func:`generator.puzzles.proof.prove_for_pages`).

        With a proof cache active (:mod:`generator.cache`) the result, failures included, is read
        from it when everything the proof depends on is unchanged, and stored after a fresh proof."""
        budget = resolve_budget(self.proof_budget or self.lesson.proof_budget)
        cache = proof_cache.active()
        key = proof_key(p, self.lesson.profile, budget.nodes) if cache is not None else None
        result = _stored(cache.get(PROOF_KIND, key), p.position) if cache is not None else None
        if result is None:
            result = prove_for_pages(  # the page's tree is part of the proof: the renderer runs no solver
                p.position,
                p.stipulation,
                moves,
                margin=p.margin,
                budget=budget,
                profile=self.lesson.profile,
                counters=p.counters,
            )
            if cache is not None:
                cache.put(PROOF_KIND, key, result.to_json())
        for problem in result.problems:
            self.fail(_place(p, problem), problem.message)
        if result.sound:
            self.puzzle_proofs[p.where] = result


def _place(p: Puzzle, problem: Problem) -> Path:
    """Where in the file a problem of the proof is reported: the solution move it is about, the
    stipulation, or the puzzle."""
    if problem.ply is not None:
        return p.solution[problem.ply].move.where
    if problem.about == "stipulation":
        return (*p.where, "stipulation")
    return p.where


def _stored(value: object, start: Position) -> PuzzleResult | None:
    """A cached result, or None when there is none or it is unusable (then the puzzle is proven)."""
    if value is None:
        return None
    try:
        return PuzzleResult.from_json(value, start)
    except (ValueError, TypeError, KeyError, DamasError):
        return None
