"""The answer key of a puzzle as players write it: numbered moves, defences where they branch,
the material at the end and a one-line comment.

Move numbers count pairs that start with the variant's first mover (White in most games, Black in
American checkers), so a line that starts with the second mover opens ``1. … 26-23``.  A defence the
defender could have chosen goes in parentheses right after the main-line reply it replaces, with its
own numbers: ``2. 25x14 6-11 (2. … 15-20 3. 14x25) 3. 16x7``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import DEFAULT_LANGUAGE, translator
from ..rules import Move, Position
from ..rules.geometry import WHITE
from ..rules.notation import move_text
from ..rules.variants import Goal

ELLIPSIS = "…"


def numbered(pos: Position, moves: Sequence[Move], ply: int) -> list[str]:
    """``moves`` from ``pos`` as numbered tokens; ``ply`` is the index of the first one in the
    puzzle (0 for the key move), which fixes its number."""
    first = pos.variant.first_to_move
    # the puzzle's first move is move 1; when the second mover starts, its move is "1. …"
    offset = 0 if _start_turn(pos, ply) == first else 1
    out: list[str] = []
    for k, m in enumerate(moves):
        index = ply + k + offset
        number = index // 2 + 1
        text = move_text(pos, m, long=True)
        if pos.turn == first:
            out.append(f"{number}. {text}")
        elif k == 0:
            out.append(f"{number}. {ELLIPSIS} {text}")
        else:
            out.append(text)
        pos = pos.play(m)
    return out


def _start_turn(pos: Position, ply: int) -> int:
    """Who made the puzzle's first move, from the side to move at ``ply``."""
    return pos.turn if ply % 2 == 0 else pos.turn ^ 1


def answer_text(start: Position, moves: Sequence[Move], defences: Sequence[tuple[int, Move, Sequence[Move]]]) -> str:
    """The main line with each defence in parentheses after the reply it replaces."""
    branches: dict[int, list[str]] = {}
    positions = [start]
    for m in moves:
        positions.append(positions[-1].play(m))
    for j, reply, rest in defences:
        before = positions[j]
        branches.setdefault(j, []).append("(" + " ".join(numbered(before, [reply, *rest], j)) + ")")
    tokens: list[str] = []
    after_branch = False
    for j, m in enumerate(moves):
        pos = positions[j]
        token = numbered(pos, [m], j)[0]  # "N. move" or, for the second mover, "N. … move"
        if pos.turn != pos.variant.first_to_move and j > 0 and not after_branch:
            token = move_text(pos, m, long=True)
        tokens.append(token)
        after_branch = j in branches
        tokens.extend(branches.get(j, []))
    return " ".join(tokens)


def material(pos: Position, language: str = DEFAULT_LANGUAGE) -> str:
    """``brancas com 3 pedras e 1 dama; pretas com 1 pedra`` for the pieces on the board."""
    tr = translator(language)
    parts = []
    for color in (WHITE, WHITE ^ 1):
        men, kings = pos.men(color).bit_count(), pos.kings_of(color).bit_count()
        words = []
        if men:
            words.append(tr.ngettext("%(num)s man", "%(num)s men", men) % {"num": tr.number(men)})
        if kings:
            words.append(tr.ngettext("%(num)s king", "%(num)s kings", kings) % {"num": tr.number(kings)})
        if color == WHITE:
            text = tr.gettext("White with %(pieces)s") if words else tr.gettext("White with no pieces")
        else:
            text = tr.gettext("Black with %(pieces)s") if words else tr.gettext("Black with no pieces")
        parts.append(text % {"pieces": tr.gettext(" and ").join(words)} if words else text)
    return "; ".join(parts)


def outcome(start: Position, end: Position, goal: str, pieces: int, language: str = DEFAULT_LANGUAGE) -> str:
    """What the line achieves, in one clause: ``as brancas ficam com uma peça a mais``."""
    tr = translator(language)
    _ = tr.gettext
    white = start.turn == WHITE
    if goal == "gain":
        count = {
            1: tr.pgettext("count", "one"),
            2: tr.pgettext("count", "two"),
            3: tr.pgettext("count", "three"),
            4: tr.pgettext("count", "four"),
            5: tr.pgettext("count", "five"),
        }.get(pieces, tr.number(pieces))
        if white:
            text = tr.ngettext("White is %(num)s piece up", "White is %(num)s pieces up", pieces)
        else:
            text = tr.ngettext("Black is %(num)s piece up", "Black is %(num)s pieces up", pieces)
        return text % {"num": count}
    if goal == "promote":
        return _("White gets a king") if white else _("Black gets a king")
    if goal == "draw":
        return _("the game ends in a draw")
    loser_white = end.turn == WHITE
    if start.variant.goal is Goal.LOSING:
        return (
            _("White has no moves left and wins the game")
            if loser_white
            else _("Black has no moves left and wins the game")
        )
    if not end.pieces(end.turn):
        return (
            _("White has no pieces left and loses the game")
            if loser_white
            else _("Black has no pieces left and loses the game")
        )
    return (
        _("White has no moves left and loses the game")
        if loser_white
        else _("Black has no moves left and loses the game")
    )


def comment(
    themes: Sequence[str], start: Position, end: Position, goal: str, pieces: int, language: str = DEFAULT_LANGUAGE
) -> str:
    """One line: the themes, then what the line achieves."""
    result = outcome(start, end, goal, pieces, language)
    if not themes:
        return result[0].upper() + result[1:] + "."
    joiner = translator(language).gettext(" and ")
    named = ", ".join(themes[:-1]) + (joiner if len(themes) > 1 else "") + themes[-1]
    return f"{named[0].upper()}{named[1:]}: {result}."


def provenance(source: dict | None, language: str = DEFAULT_LANGUAGE) -> str:
    """Where a puzzle comes from, for the answer key: ``ACF archive, game 4, move 17`` for a
    position from a game of an archive (its PDN ``GameNumber``), ``ACF archive, move 17`` when the
    game has no number; empty for self-play and composed puzzles."""
    if not isinstance(source, dict) or source.get("kind") != "pdn" or "move" not in source:
        return ""
    tr = translator(language)
    event = str(source.get("event") or source.get("file") or "")
    if source.get("game") is not None:
        return tr.gettext("%(event)s, game %(game)s, move %(move)s") % {
            "event": event,
            "game": source["game"],
            "move": source["move"],
        }
    return tr.gettext("%(event)s, move %(move)s") % {"event": event, "move": source["move"]}
