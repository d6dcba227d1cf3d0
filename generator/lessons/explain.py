"""Which rule makes a claim false: the rule an error message names.

A claimed move that is not legal is asked about in the engine's own terms: is it a move of the
other side?  Is it a quiet move or a capture the rules would allow but for compulsion or precedence?
Which *single* rule switch of the variant (``Variant.with_rules``: men capturing backward, men taking
kings, flying kings, crowning during a capture, removal of captured pieces) would make it a move?
That switch is exactly the rule that forbids it.  A move that no single rule explains gets no rule
name: a wrong name is worse than none.

Draw claims are explained the same way: which draw rule was expected, its threshold and where its
counter stands ("79 of 80 plies").

Knows nothing of YAML: it takes positions and written squares and returns sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ..rules import WHITE, CapturePromotion, Move, Position, Precedence, Removal, Variant
from ..rules.draws import DrawRule, EndgameLimit, MoveLimit, Repetition
from ..rules.game import Game
from ..rules.notation import captured_along, fitting

SIDE = ("White", "Black")


@dataclass(frozen=True)
class Rule:
    """The rule that forbids a written move, as a sentence for an error message."""

    id: str
    """A stable name for tests and tools: ``capture-compulsory``, ``majority-law``, ``side-to-move`` ..."""
    text: str
    """What the rule says, applied to this move (English, like every checker message)."""


def game_name(variant: Variant) -> str:
    """``American / English checkers``, ``Italian draughts``: the variant's English title without
    the parenthesis, for sentences."""
    return variant.title_en.split(" (")[0]


# -- why a move is not legal ----------------------------------------------------------------------


def why_category(pos: Position, squares: Sequence[int]) -> str:
    """The lesson's ``why`` of an illegal move: ``precedence`` (a complete capture along that route
    exists, but the precedence law prefers another), ``capture-incomplete`` (it stops where the piece
    could still capture), ``capture-compulsory`` (a quiet move, barred because a capture exists) or
    ``no-such-move``."""
    every_capture, quiet = pos.variant.generator.unfiltered(*pos.state)
    if fitting(pos, squares, every_capture):
        return "precedence"
    if any(_stops_short(pos, squares, m) for m in every_capture):
        return "capture-incomplete"
    if every_capture and len(squares) == 2 and fitting(pos, squares, quiet):
        return "capture-compulsory"
    return "no-such-move"


def explain_move(pos: Position, squares: Sequence[int], written: str) -> Rule | None:
    """The rule that makes the move written as ``squares`` (text ``written``) illegal in ``pos``, or
    None when no single rule explains it (then it is simply not a move here).

    The move must not be legal in ``pos``.
    """
    g = pos.variant.geometry
    piece = pos.piece_at(squares[0])
    if piece is None:
        return Rule("no-piece", f"there is no piece on {g.name(squares[0])}")
    color, king = piece
    if color != pos.turn:
        return _side_to_move(pos, squares, written)
    every_capture, quiet = pos.variant.generator.unfiltered(*pos.state)
    found = fitting(pos, squares, every_capture)
    if found:
        return _precedence(pos, found[0])
    if every_capture and len(squares) == 2 and fitting(pos, squares, quiet):
        return Rule("capture-compulsory", "capture is compulsory")
    for field, value in single_switches(pos.variant, king):
        changed = switched(pos.variant, field, value)
        other = Position(changed, *pos.state)
        caps, steps = changed.generator.unfiltered(*pos.state)
        if fitting(other, squares, caps) or (len(squares) == 2 and fitting(other, squares, steps)):
            return _switch_rule(pos.variant, field, value, bool(caps and fitting(other, squares, caps)))
    if any(_stops_short(pos, squares, m) for m in every_capture):
        if king and pos.variant.flying_kings and not _could_go_on_from(pos, squares):
            text = "a capture must be completed: a flying king must land on a square from which it can go on capturing"
        else:
            text = f"a capture must be completed: after {written} the piece can still capture"
        return Rule("capture-incomplete", text)
    if not king and len(squares) == 2 and _backward_step(pos, squares):
        where = "forward or sideways" if g.orthogonal else "forward"
        return Rule("men-move-forward", f"men move only {where}, one square at a time")
    return None


def side_to_move_of_all(pos: Position, texts: Sequence[tuple[Sequence[int], str]]) -> str | None:
    """When every written move is a move of the side *not* to move (and legal for it), the one
    sentence that says so, naming the variant's first mover when the pieces stand as at the start;
    else None."""
    if not texts:
        return None
    flipped = Position(pos.variant, pos.white, pos.black, pos.kings, pos.turn ^ 1)
    legal = flipped.legal_moves()
    for squares, _ in texts:
        piece = pos.piece_at(squares[0])
        if piece is None or piece[0] == pos.turn or not fitting(flipped, squares, legal):
            return None
    me, them = SIDE[pos.turn], SIDE[pos.turn ^ 1]
    if len(texts) == 1:
        text = f"the position has {me} to move, but the claimed move {texts[0][1].strip()} is a {them} move"
    else:
        text = f"the position has {me} to move, but every claimed move is a {them} move"
    return text + _start_hint(pos)


def _side_to_move(pos: Position, squares: Sequence[int], written: str) -> Rule:
    me, them = SIDE[pos.turn], SIDE[pos.turn ^ 1]
    flipped = Position(pos.variant, pos.white, pos.black, pos.kings, pos.turn ^ 1)
    if fitting(flipped, squares, flipped.legal_moves()):
        text = f"the position has {me} to move, and {written} is a {them} move"
    else:
        name = pos.variant.geometry.name(squares[0])
        text = f"the position has {me} to move, and the piece on {name} is {them.lower()}"
    return Rule("side-to-move", text + _start_hint(pos))


def _start_hint(pos: Position) -> str:
    """`` (American / English checkers starts with Black: PDN FEN 'B:W21-32:B1-12', ...)`` when the
    pieces stand as at the start but the other side is to move."""
    start = Position.start(pos.variant)
    if (pos.white, pos.black, pos.kings) != (start.white, start.black, start.kings) or pos.turn == start.turn:
        return ""
    first = SIDE[start.turn]
    return f" ({game_name(pos.variant)} starts with {first}: PDN FEN '{start.fen()}', or write 'start')"


# -- precedence -----------------------------------------------------------------------------------


def _precedence(pos: Position, move: Move) -> Rule:
    """Which precedence law rules out ``move``, a complete capture, and which legal capture it prefers."""
    v = pos.variant
    legal = pos.legal_moves()
    opp_kings = pos.pieces(pos.turn ^ 1) & pos.kings
    best = legal[0]  # every legal capture ties under the law; cite the first in notation order
    mine, theirs = pos.move_text(move, long=True), pos.move_text(best, long=True)
    n_mine, n_best = move.captures.bit_count(), best.captures.bit_count()
    k_mine, k_best = (move.captures & opp_kings).bit_count(), (best.captures & opp_kings).bit_count()
    pieces = f"({theirs} takes {_count(n_best, 'piece')}, {mine} takes {n_mine})"
    kings = f"({theirs} takes {_count(k_best, 'king')}, {mine} takes {k_mine})"
    if v.precedence is Precedence.MOST_PIECES:
        return Rule("majority-law", f"the majority law: a capture must take as many pieces as possible {pieces}")
    if v.precedence is Precedence.MOST_PIECES_THEN_KINGS:
        if n_mine < n_best:
            return Rule(
                "law-of-quantity", f"the law of quantity: a capture must take as many pieces as possible {pieces}"
            )
        return Rule(
            "law-of-quality",
            f"the law of quality: among captures of as many pieces, the one that takes the most kings is "
            f"compulsory {kings}",
        )
    if v.precedence is not Precedence.ITALIAN:  # free choice rules nothing out; kept for new laws
        return Rule("precedence", f"the precedence rule of {game_name(v)} prefers {theirs}")
    # Italian: the first criterion of the chain on which the two differ decided (docs/spec.md §1.7).
    if n_mine < n_best:
        return Rule(
            "italian-most-pieces",
            f"the Italian precedence, rule 1 (most pieces): a capture must take as many pieces as possible {pieces}",
        )
    if best.king and not move.king:
        return Rule(
            "italian-king-captures",
            f"the Italian precedence, rule 2 (the king captures): when a king and a man can take as many "
            f"pieces, the king must capture ({theirs} is the king's capture)",
        )
    if k_mine < k_best:
        return Rule(
            "italian-most-kings",
            f"the Italian precedence, rule 3 (most kings): among captures of as many pieces, the one that takes "
            f"the most kings is compulsory {kings}",
        )
    at_mine = [i + 1 for i, sq in enumerate(move.captured) if (opp_kings >> sq) & 1]
    at_best = [i + 1 for i, sq in enumerate(best.captured) if (opp_kings >> sq) & 1]
    i = next((j for j, (a, b) in enumerate(zip(at_best, at_mine, strict=False)) if a != b), 0)
    which = "a king" if i == 0 else f"its {_ordinal(i + 1)} king"
    return Rule(
        "italian-kings-first",
        f"the Italian precedence, rule 4 (kings first): among captures of as many kings, the one that meets a "
        f"king earliest is compulsory ({theirs} takes {which} with its {_ordinal(at_best[i])} capture, "
        f"{mine} only with its {_ordinal(at_mine[i])})",
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


# -- single rule switches -------------------------------------------------------------------------


@cache
def switched(variant: Variant, field: str, value: object) -> Variant:
    """The variant with one rule switched, built once (its move generator is cached on it)."""
    return variant.with_rules(**{field: value})


def single_switches(v: Variant, king: bool) -> list[tuple[str, object]]:
    """The single rule changes worth trying for a move of a man (``king`` False) or a king."""
    out: list[tuple[str, object]] = []
    if king:
        if not v.flying_kings:
            out.append(("flying_kings", True))
    else:
        if not v.men_capture_backward:
            out.append(("men_capture_backward", True))
        if not v.men_capture_kings:
            out.append(("men_capture_kings", True))
        out.extend(("capture_promotion", c) for c in CapturePromotion if c is not v.capture_promotion)
    other = Removal.END_OF_MOVE if v.removal is Removal.IMMEDIATE else Removal.IMMEDIATE
    out.append(("removal", other))
    return out


def _switch_rule(v: Variant, field: str, value: object, capture: bool) -> Rule:
    game = game_name(v)
    if field == "men_capture_backward":
        return Rule("men-capture-forward", f"men do not capture backward in {game}")
    if field == "men_capture_kings":
        return Rule("men-capture-kings", f"a man may not capture a king in {game}")
    if field == "flying_kings":
        if capture:
            return Rule(
                "short-kings",
                f"a king captures only an adjacent piece, landing right behind it, in {game} (kings do not fly)",
            )
        return Rule("short-kings", f"kings move one square at a time in {game} (kings do not fly)")
    if field == "capture_promotion":
        if v.capture_promotion is CapturePromotion.PROMOTE_AND_STOP:
            return Rule(
                "crowning-ends-the-move",
                f"crowning ends the move in {game}: a man that reaches the last row by capturing is crowned "
                "and stops there",
            )
        if v.capture_promotion is CapturePromotion.PROMOTE_AND_CONTINUE:
            return Rule(
                "crowned-and-continues",
                f"in {game} a man that reaches the last row while capturing is crowned at once and goes on "
                "capturing as a king",
            )
        return Rule(
            "no-crowning-mid-capture",
            f"in {game} a man that reaches the last row in the middle of a capture is not crowned: it goes on "
            "capturing as a man, and is crowned only if the capture ends there",
        )
    assert field == "removal"
    if v.removal is Removal.IMMEDIATE:
        return Rule(
            "immediate-removal",
            f"in {game} each captured piece leaves the board as soon as it is jumped, so the capture goes on "
            "across its square",
        )
    return Rule(
        "removal-at-end",
        f"in {game} captured pieces stay on the board until the capture ends (the Turkish strike rule): the "
        "capturing piece may not pass over or land on a square it has already captured",
    )


# -- shapes of written moves ----------------------------------------------------------------------


def _stops_short(pos: Position, squares: Sequence[int], move: Move) -> bool:
    """Is the written capture the start of ``move``: same origin, taking the pieces ``move`` takes
    first, and no more?  Then it stops (or lands) where the piece could still capture."""
    if move.origin != squares[0]:
        return False
    along = captured_along(pos, squares)
    if not along or along == move.captures:
        return False
    return _bits(move.captured[: along.bit_count()]) == along


def _could_go_on_from(pos: Position, squares: Sequence[int]) -> bool:
    """Does some capture route pass through the written last square, having taken the written
    pieces, and go on from there?  (Every route, not one per move: routes that differ only in a
    landing square are one move.)"""
    along = captured_along(pos, squares)
    if not along:
        return False
    me, opp = (pos.white, pos.black) if pos.turn == WHITE else (pos.black, pos.white)
    gen = pos.variant.generator
    routes = gen.captures(me, opp, pos.kings, pos.turn, pos.white | pos.black, precedence=False, merge=False)
    last = squares[-1]
    for r in routes:
        for i in range(1, len(r.path) - 1):
            if r.path[i] == last and _bits(r.captured[:i]) == along:
                return True
    return False


def _bits(squares: Sequence[int]) -> int:
    out = 0
    for sq in squares:
        out |= 1 << sq
    return out


def _backward_step(pos: Position, squares: Sequence[int]) -> bool:
    """A man's one-square step to an empty square in a direction men may not step in."""
    gen = pos.variant.generator
    origin, dest = squares
    if pos.piece_at(dest) is not None:
        return False
    allowed = gen.man_steps[pos.turn]
    return any(
        d not in allowed and origin < len(gen.neighbours[d]) and gen.neighbours[d][origin] == dest for d in range(4)
    )


# -- draw rules -----------------------------------------------------------------------------------

_COUNTED = {
    "H": "plies without a capture or a man move",
    "P": "plies without a capture or a promotion",
}


def draw_progress(game: Game, rule_id: str | None = None) -> str | None:
    """Where the game stands against a draw rule: the rule ``rule_id``, or, when None, the rule of
    the profile that is nearest its threshold.  ``E2 (40 moves each with no man advanced and nothing
    captured) draws at 80 plies without a capture or a man move; the counter is at 79 of 80 plies``.
    None when the profile has no such rule."""
    rules = game.profile.rules
    if rule_id is not None:
        chosen = [r for r in rules if r.id == rule_id]
    else:
        progress = [(_ratio(game, r), -i, r) for i, r in enumerate(rules)]
        progress = [p for p in progress if p[0] is not None]
        chosen = [max(progress, key=lambda p: (p[0], p[1]))[2]] if progress else []
    if not chosen:
        return None
    return _rule_progress(game, chosen[0])


def _ratio(game: Game, rule: DrawRule) -> float | None:
    """How far the rule's count is towards its threshold, or None when it does not apply here."""
    count, limit = _count_and_limit(game, rule)
    return None if count is None else count / limit


def _count_and_limit(game: Game, rule: DrawRule) -> tuple[int | None, int]:
    pos = game.position
    counters = game.counters
    if isinstance(rule, Repetition):
        return game.repetitions(), rule.times
    if isinstance(rule, MoveLimit):
        if rule.condition is not None and rule.condition(pos) is None:
            return None, rule.plies
        return (counters.quiet if rule.counter == "H" else counters.balance), rule.plies
    assert isinstance(rule, EndgameLimit)
    if rule.condition(pos) is None:
        return None, rule.plies
    return dict(counters.endgame_rules).get(rule.id, counters.endgame), rule.plies


def counter_words(game: Game, rule_id: str) -> str | None:
    """``the counter is at 79 of 80 plies`` (``... has occurred 2 of 3 times`` for a repetition
    rule) for the rule ``rule_id`` of the game's profile; None when there is no such rule or it does
    not apply to the position."""
    rule = next((r for r in game.profile.rules if r.id == rule_id), None)
    if rule is None:
        return None
    count, limit = _count_and_limit(game, rule)
    if count is None:
        return None
    if isinstance(rule, Repetition):
        return f"the position has occurred {count} of {limit} times"
    return f"the counter is at {count} of {limit} plies"


def _rule_progress(game: Game, rule: DrawRule) -> str:
    count, limit = _count_and_limit(game, rule)
    head = f"{rule.id} ({rule.reason})"
    if count is None:
        what = "position" if isinstance(rule, MoveLimit) else "material"
        return f"{head} does not apply to this {what}"
    words = counter_words(game, rule.id)
    if isinstance(rule, Repetition):
        return f"{head} draws when a position occurs {limit} times; {words}"
    if isinstance(rule, MoveLimit):
        return f"{head} draws at {limit} {_COUNTED[rule.counter]}; {words}"
    return f"{head} draws after {limit} plies in this ending; {words}"


__all__ = [
    "Rule",
    "counter_words",
    "draw_progress",
    "explain_move",
    "game_name",
    "side_to_move_of_all",
    "single_switches",
    "switched",
    "why_category",
]
