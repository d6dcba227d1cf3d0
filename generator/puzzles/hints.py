"""Hints written from the proof: every fact they state is read off the proven line, so they cannot lie.

A hint says who is to move, then points at what the solver has to see, in the order a coach would:
the offers (how many pieces go first), a quiet move that prepares the shot, the piece that makes
the decisive capture (named by the square it stands on at the start) and how many it takes, a
crowning, and how the game ends when the line wins it.  Each clause comes from
:class:`~generator.puzzles.line_facts.LineFacts`; nothing is guessed.  Square names follow the
variant's notation.  Portuguese (the course's language) and American English.
"""

from __future__ import annotations

from .line_facts import Capture, LineFacts

_COUNT_PT = {1: "uma", 2: "duas", 3: "três", 4: "quatro", 5: "cinco", 6: "seis", 7: "sete", 8: "oito"}
_COUNT_EN = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def start_square(facts: LineFacts, ply: int) -> int:
    """Where the piece that moves at ``ply`` stood at the start (followed back along the line)."""
    square = facts.moves[ply].origin
    side = facts.positions[ply].turn
    for j in range(ply - 1, -1, -1):
        if facts.positions[j].turn == side and facts.moves[j].dest == square:
            square = facts.moves[j].origin
    return square


def _decisive(facts: LineFacts) -> Capture | None:
    """The solver's capture that takes the most (the last of equals)."""
    return facts.biggest_capture


def hint(facts: LineFacts, goal: str, language: str = "pt-BR") -> str:
    """The hint for a proven line (``goal``: the stipulation's goal, ``win``, ``gain``, ``promote``)."""
    return _hint_pt(facts, goal) if language == "pt-BR" else _hint_en(facts, goal)


def _join(parts: list[str], last: str) -> str:
    """``a, b e c``: the clauses of a hint in one sentence."""
    if len(parts) < 2:
        return parts[0] if parts else ""
    return ", ".join(parts[:-1]) + last + parts[-1]


def _name(facts: LineFacts, square: int) -> str:
    return facts.start.square_name(square)


def _hint_pt(f: LineFacts, goal: str) -> str:
    side = "Vez das brancas." if f.attacker == 0 else "Vez das pretas."
    them = "as pretas" if f.attacker == 0 else "as brancas"
    parts: list[str] = []
    offers = f.sacrifices
    if offers == 1:
        parts.append("Uma entrega abre o caminho")
    elif offers > 1:
        parts.append(f"{_COUNT_PT.get(offers, str(offers)).capitalize()} entregas seguidas abrem o caminho")
    if f.quiet_moves:
        parts.append("um lance tranquilo prepara o golpe" if parts else "Um lance tranquilo prepara o golpe")
    best = _decisive(f)
    if best is not None:
        piece = "dama" if f.positions[0].piece_at(start_square(f, best.ply)) == (f.attacker, True) else "pedra"
        where = _name(f, start_square(f, best.ply))
        takes = _COUNT_PT.get(best.taken, str(best.taken))
        clause = f"a {piece} de {where} toma {takes} de uma vez"
        if best.taken == 1:
            clause = f"a {piece} de {where} decide"
        if best.promotes:
            clause += " e coroa"
        parts.append(clause if parts else clause[0].upper() + clause[1:])
    elif f.crowns(f.attacker):
        parts.append("uma pedra chega à coroação" if parts else "Uma pedra chega à coroação")
    text = _join(parts, " e ")
    end = ""
    if goal == "win" and f.defender_has_no_pieces:
        end = f" No fim, {them} ficam sem peças."
    elif goal == "win" and f.defender_blocked:
        end = f" No fim, {them} ficam sem lances."
    body = f" {text}." if text else ""
    return f"{side}{body}{end}".strip()


def _hint_en(f: LineFacts, goal: str) -> str:
    side = "White to move." if f.attacker == 0 else "Black to move."
    them = "Black" if f.attacker == 0 else "White"
    parts: list[str] = []
    offers = f.sacrifices
    if offers == 1:
        parts.append("One offer opens the way")
    elif offers > 1:
        parts.append(f"{_COUNT_EN.get(offers, str(offers)).capitalize()} offers in a row open the way")
    if f.quiet_moves:
        parts.append("a quiet move prepares the shot" if parts else "A quiet move prepares the shot")
    best = _decisive(f)
    if best is not None:
        piece = "king" if f.positions[0].piece_at(start_square(f, best.ply)) == (f.attacker, True) else "man"
        where = _name(f, start_square(f, best.ply))
        takes = _COUNT_EN.get(best.taken, str(best.taken))
        clause = f"the {piece} on {where} jumps {takes} at once"
        if best.taken == 1:
            clause = f"the {piece} on {where} decides"
        if best.promotes:
            clause += " and crowns"
        parts.append(clause if parts else clause[0].upper() + clause[1:])
    elif f.crowns(f.attacker):
        parts.append("a man reaches the king row" if parts else "A man reaches the king row")
    text = _join(parts, ", and " if len(parts) > 2 else " and ")
    end = ""
    if goal == "win" and f.defender_has_no_pieces:
        end = f" In the end, {them} has no pieces left."
    elif goal == "win" and f.defender_blocked:
        end = f" In the end, {them} has no move."
    body = f" {text}." if text else ""
    return f"{side}{body}{end}".strip()
