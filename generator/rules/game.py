"""A game: a start position, the moves played, the draw-rule counters, and how it stands.

``push``/``pop`` are the make/unmake of the engine: positions are immutable, so a game keeps one
frame per ply (position, move, counters) and popping restores every counter exactly.

Counters can be given in a FEN (a documented extension of PDN FEN, read here and ignored by
:func:`~generator.rules.fen.parse_fen`), so a lesson can start from "79 plies without progress":

=========  ==========================================================================
``H<n>``   plies since the last capture or man move (the king-move rules: D2, R3, E2 ...)
``P<n>``   plies since the last capture or promotion (Russian 7.2.6, Portuguese P1);
           when absent it is taken equal to ``H`` (a promotion is a man move, so P >= H)
``E<n>``   plies since the present endgame configuration arose (the short-ending rules);
           ``E<id>-<n>`` gives one rule's count when two endgame rules count differently
           (Russian R2 and R5 can), e.g. ``:ER2-21:ER5-0``
``F<n>``   the number of the next full move, as PDN counts them (informational)
=========  ==========================================================================

``W:W12,K3:BK28:H79:F60``.  lidraughts writes ``:H<n>:F<n>`` with the same meaning of H and F.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from enum import Enum

from .draws import DrawProfile, EndgameLimit, MoveLimit, Repetition, draw_profile
from .errors import DamasError, IllegalMoveError, InvalidFenError
from .geometry import BLACK, COLOR_NAMES, WHITE, is_ascii_number
from .move import Move
from .position import Position
from .variants import Goal, Variant, get_variant

COLOR_NAMES_PT = ("brancas", "pretas")
MAX_COUNTER_DIGITS = 9
"""A FEN counter (H, P, E, F) with more digits than this is refused (Python's ``int`` itself refuses
more than 4,300 digits with a ValueError)."""


class GameOverError(DamasError):
    """A move was given after the game had ended."""


@dataclass(frozen=True)
class Counters:
    """Draw-rule counters of a position (see the module docstring)."""

    quiet: int = 0
    """H: plies since the last capture or man move."""
    balance: int = 0
    """P: plies since the last capture or promotion."""
    endgame: int = 0
    """E: plies since the present endgame configuration arose."""
    move_number: int = 1
    """F: number of the next full move."""
    endgame_rules: tuple[tuple[str, int], ...] = ()
    """Per-rule endgame counts (rule id, plies) where they differ from ``endgame``."""

    @classmethod
    def from_fen(cls, fen: str) -> Counters:
        """Read the ``H``, ``P``, ``E`` and ``F`` fields of a FEN (others are ignored).

        Raises:
            InvalidFenError: for a counter field that is not a number.
        """
        values: dict[str, int] = {}
        per_rule: list[tuple[str, int]] = []
        for field in fen.strip().rstrip(".").split(":")[1:]:
            field = field.strip()
            if field[:1] == "E" and "-" in field:
                rule, _, n = field[1:].partition("-")
                if not rule or not is_ascii_number(n) or len(n) > MAX_COUNTER_DIGITS:
                    raise InvalidFenError(fen, f"counter '{field}' must look like ER5-3 (rule id, plies)")
                per_rule.append((rule, int(n)))
                continue
            if len(field) >= 1 and field[0] in "HPEF" and field[0] not in values:
                if not is_ascii_number(field[1:]) or len(field) > MAX_COUNTER_DIGITS + 1:
                    raise InvalidFenError(
                        fen,
                        f"counter '{field[:20]}' must be a letter and a number of at most {MAX_COUNTER_DIGITS} digits",
                    )
                values[field[0]] = int(field[1:])
        h = values.get("H", 0)
        p = values.get("P", h)
        if p < h:
            raise InvalidFenError(fen, f"P{p} < H{h}: every capture or promotion also resets H, so P is at least H")
        return cls(h, p, values.get("E", 0), max(1, values.get("F", 1)), tuple(per_rule))

    def text(self) -> str:
        """The FEN suffix, empty when every counter has its initial value."""
        parts = []
        if self.quiet:
            parts.append(f"H{self.quiet}")
        if self.balance != self.quiet:
            parts.append(f"P{self.balance}")
        if self.endgame:
            parts.append(f"E{self.endgame}")
        parts.extend(f"E{rule}-{n}" for rule, n in self.endgame_rules)
        if self.move_number != 1:
            parts.append(f"F{self.move_number}")
        return "".join(":" + p for p in parts)


class Outcome(Enum):
    ONGOING = "ongoing"
    WHITE_WINS = "white wins"
    BLACK_WINS = "black wins"
    DRAW = "draw"


@dataclass(frozen=True)
class Status:
    """How a game stands, always with its reason."""

    outcome: Outcome
    reason: str
    """``no-pieces``, ``blocked``, or the id of the draw rule that ended the game; empty if ongoing."""
    text: str
    """Why, in English: ``black cannot move``, ``threefold repetition``."""
    text_pt: str
    """Why, in Brazilian Portuguese."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not Outcome.ONGOING

    @property
    def winner(self) -> int | None:
        return {Outcome.WHITE_WINS: WHITE, Outcome.BLACK_WINS: BLACK}.get(self.outcome)

    def __str__(self) -> str:
        if self.outcome is Outcome.ONGOING:
            return "ongoing"
        return f"{self.outcome.value}: {self.text}"

    def result(self, variant: Variant) -> str:
        """The PDN result token (see :func:`result_token`)."""
        return result_token(self.outcome, variant)


def result_token(outcome: Outcome, variant: Variant) -> str:
    """The PDN result token for an outcome: the first mover's score first (``1-0`` is a Black win
    in American checkers, PDN 2.0), ``2-0``/``1-1``/``0-2`` on 10x10 boards (PDN result type
    "International", game types 20 and 27)."""
    if outcome is Outcome.ONGOING:
        return "*"
    ten = variant.geometry.width == 10
    if outcome is Outcome.DRAW:
        return "1-1" if ten else "1/2-1/2"
    first = (outcome is Outcome.WHITE_WINS) == (variant.first_to_move == WHITE)
    if ten:
        return "2-0" if first else "0-2"
    return "1-0" if first else "0-1"


ONGOING = Status(Outcome.ONGOING, "", "", "")


@dataclass(frozen=True)
class _Frame:
    position: Position
    move: Move | None
    quiet: int
    balance: int
    endgame: tuple[tuple[Hashable, int] | None, ...]
    move_number: int


class Game:
    """Moves from a start position under a variant's rules and one draw profile.

    >>> g = Game("american", "W:WK10:BK19:H79")
    >>> g.play("10-14") and str(g.status())
    'draw: 40 moves each with no man advanced and nothing captured'
    """

    def __init__(
        self,
        variant: Variant | str,
        start: Position | str | None = None,
        *,
        profile: DrawProfile | str | None = None,
        disabled: Iterable[str] = (),
        counters: Counters | None = None,
    ) -> None:
        self.variant = get_variant(variant)
        if start is None or isinstance(start, str):
            fen = "start" if start is None else start  # "" is an error, not the start
            position = Position.from_fen(self.variant, fen)
            if counters is None and fen.strip().lower() != "start":
                counters = Counters.from_fen(fen)
        else:
            position = start
        if position.variant is not self.variant:
            position = Position(self.variant, *position.state)
        counters = counters or Counters()
        if not isinstance(profile, DrawProfile):
            profile = draw_profile(self.variant, profile)
        disabled = tuple(disabled)
        self.profile = profile.without(*disabled) if disabled else profile
        self._endgame_rules = self.profile.endgame_rules
        first = _Frame(
            position,
            None,
            counters.quiet,
            counters.balance,
            tuple(
                None
                if (key := r.condition(position)) is None
                else (key, dict(counters.endgame_rules).get(r.id, counters.endgame))
                for r in self._endgame_rules
            ),
            counters.move_number,
        )
        self._frames: list[_Frame] = [first]
        self._seen: Counter[tuple[int, int, int, int]] = Counter({position.state: 1})

    # -- state ----------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._frames[-1].position

    @property
    def start(self) -> Position:
        return self._frames[0].position

    @property
    def moves(self) -> list[Move]:
        return [f.move for f in self._frames[1:] if f.move is not None]

    @property
    def ply(self) -> int:
        """Plies played since the start position."""
        return len(self._frames) - 1

    @property
    def counters(self) -> Counters:
        f = self._frames[-1]
        active = [(r.id, c[1]) for r, c in zip(self._endgame_rules, f.endgame, strict=True) if c is not None]
        counts = {n for _, n in active}
        if len(counts) <= 1:
            return Counters(f.quiet, f.balance, counts.pop() if counts else 0, f.move_number)
        return Counters(f.quiet, f.balance, 0, f.move_number, tuple(active))

    def repetitions(self) -> int:
        """How many times the current position (placement and side to move) has occurred."""
        return self._seen[self.position.state]

    def fen(self, *, counters: bool = True) -> str:
        """The current position's FEN, with the counters extension when they are not initial."""
        return self.position.fen() + (self.counters.text() if counters else "")

    # -- moves ----------------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a legal move (raises IllegalMoveError otherwise)."""
        pos = self._frames[-1].position
        if move not in pos.variant.generator.moves(*pos.state):
            raise IllegalMoveError(f"{pos.move_text(move, long=True)} is not legal in {pos.fen()}")
        self._push_legal(move)

    def _push_legal(self, move: Move) -> None:
        """Push a move already known to be legal here (found among the legal moves)."""
        f = self._frames[-1]
        pos = f.position
        after = pos.play(move)
        captured = move.captures != 0
        quiet = 0 if captured or not move.king else f.quiet + 1
        balance = 0 if captured or move.promotes else f.balance + 1
        endgame: list[tuple[Hashable, int] | None] = []
        for rule, prev in zip(self._endgame_rules, f.endgame, strict=True):
            key = rule.condition(after)
            if key is None:
                endgame.append(None)
            elif prev is not None and prev[0] == key:
                endgame.append((key, prev[1] + 1))
            else:
                endgame.append((key, 0))  # the move creating the configuration is not counted
        number = f.move_number + (1 if pos.turn != self.variant.first_to_move else 0)
        self._frames.append(_Frame(after, move, quiet, balance, tuple(endgame), number))
        self._seen[after.state] += 1

    def play(self, text: str) -> Move:
        """Read a move in the variant's notation and push it.

        Raises:
            GameOverError: when the game has already ended.
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError: as ``Position.parse_move``.
        """
        status = self.status()
        if status.is_over:
            raise GameOverError(f"the game is over ({status}); {text.strip()} cannot be played")
        move = self.position.parse_move(text)
        self._push_legal(move)
        return move

    def pop(self) -> Move:
        """Take back the last move, restoring position and counters."""
        if len(self._frames) == 1:
            raise IndexError("no move to take back")
        frame = self._frames.pop()
        self._seen[frame.position.state] -= 1
        assert frame.move is not None
        return frame.move

    # -- result ---------------------------------------------------------------------------------

    def status(self) -> Status:
        """Win, loss or draw with its reason, or ongoing.  A side without a move ends the game
        before any draw rule is looked at (a win on the last counted ply beats the draw)."""
        f = self._frames[-1]
        pos = f.position
        if not pos.has_legal_moves():
            loser = pos.turn
            winner = loser if self.variant.goal is Goal.LOSING else loser ^ 1
            outcome = Outcome.WHITE_WINS if winner == WHITE else Outcome.BLACK_WINS
            if pos.pieces(loser) == 0:
                reason, text, pt = (
                    "no-pieces",
                    f"{COLOR_NAMES[loser]} has no pieces",
                    (f"as {COLOR_NAMES_PT[loser]} não têm peças"),
                )
            else:
                reason, text, pt = (
                    "blocked",
                    f"{COLOR_NAMES[loser]} cannot move",
                    (f"as {COLOR_NAMES_PT[loser]} não têm lance"),
                )
            if self.variant.goal is Goal.LOSING:
                text += " (losing game: the side left without a move wins)"
                pt += " (perde-ganha: quem fica sem lance vence)"
            return Status(outcome, reason, text, pt)
        endgame = dict(zip(self._endgame_rules, f.endgame, strict=True))
        for rule in self.profile.rules:
            if isinstance(rule, Repetition):
                hit = self._seen[pos.state] >= rule.times
            elif isinstance(rule, MoveLimit):
                count = f.quiet if rule.counter == "H" else f.balance
                hit = count >= rule.plies and (rule.condition is None or rule.condition(pos) is not None)
            else:
                assert isinstance(rule, EndgameLimit)
                state = endgame[rule]
                hit = state is not None and state[1] >= rule.plies
            if hit:
                return Status(Outcome.DRAW, rule.id, rule.reason, rule.reason_pt)
        return ONGOING
