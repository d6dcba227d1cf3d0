"""From one position to a sound puzzle, or to nothing: the miner's per-position work.

A position goes through three gates, cheapest first:

1. **quiet and open**: the side to move has no capture pending and at least two moves (a forced
   capture is no puzzle's key);
2. **the engine sees something**: a shallow search (:class:`~generator.puzzles.engine.Engine`,
   ``filter_depth`` plies plus captures) scores the position at least about a man above its static
   evaluation, or sees a forced end; quiet positions where nothing happens stop here;
3. **a proof**: the df-pn solver proves the strongest goal with exactly one key within ``depth``
   plies (``win``, then ``gain:N`` for the largest N, then ``promote``; in losing variants only
   ``win``), and its main line must pass the very proof ``damas check`` applies
   (:func:`generator.puzzles.proof.prove_puzzle`: key first, cook search over the printed length
   plus the margin, "not a puzzle" for lines that give nothing up, the proof budget), so what the
   miner writes is accepted unchanged.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ...rules.draws import draw_profile
from ...rules.move import Move
from ...rules.position import Position
from ...rules.variants import Goal
from ..dfpn import DfpnSolver
from ..engine import WIN, Engine
from ..proof import default_margin, gives_material, not_a_puzzle, prove_puzzle
from ..search import Budget, BudgetExceeded, Stipulation

MINER_VERSION = 4
"""Bumped when the same input would give different puzzles (stamped in checkpoints)."""


@dataclass(frozen=True)
class Settings:
    """What a mining run looks for; everything that changes its output (checkpoints compare it)."""

    variant: str
    depth: int = 9
    """Ply bound of the proofs (the printed solution is at most this long)."""
    filter_depth: int = 4
    """Plies of the engine's shallow search in the cheap filter."""
    filter_gain: int = 70
    """Score jump (hundredths of a man) that makes a position a candidate."""
    proof_nodes: int = 150_000
    """Node budget of each goal's proof search (the check itself uses damas check's budget)."""
    max_gain: int = 6
    min_plies: int = 2
    """A line shorter than this (a lone quiet move that ends the game) is no book puzzle.  Two plies
    only occur in the losing variants (give the last piece away); elsewhere a goal needs three."""
    max_lead: int = 2
    """Positions where the solver already leads by more pieces, or has three times as many, are
    won endings, not puzzles (not applied to the losing variants, where a lead is a handicap)."""
    max_promote_cost: int = 1
    """A ``promote`` line may give up at most this many pieces, net, on the way to the crown."""
    language: str = "pt-BR"
    engine_depth: int = 4
    """Self-play: the engine's depth for each move."""
    max_plies: int = 160
    """Self-play: a game stops after this many plies."""
    random_plies: tuple[int, int] = (2, 8)
    """Self-play: random opening moves (at least, at most) drawn from the seed, for a variant
    without named openings."""
    named_openings: bool = True
    """Self-play: start from the variant's named openings (:mod:`.openings`) where it has some."""

    def to_json(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["random_plies"] = list(self.random_plies)
        d["miner_version"] = MINER_VERSION
        return d


def is_candidate(engine: Engine, pos: Position, settings: Settings) -> bool:
    """Gates 1 and 2 of the module docstring."""
    moves = pos.legal_moves()
    if len(moves) < 2 or moves[0].captures:
        return False
    result = engine.search(pos, settings.filter_depth, node_limit=20_000)
    if result.score >= WIN - 1000:
        return True
    if result.score - engine.evaluate(pos.state) < settings.filter_gain:
        return False
    return pos.variant.goal is Goal.LOSING or gives_material(pos, result.pv)  # a combination gives first


def goals_for(pos: Position, settings: Settings) -> list[str]:
    """The goals to try, strongest first (the gain ladder is climbed by :func:`prove_best`)."""
    if pos.variant.goal is Goal.LOSING:
        return ["win"]
    return ["win", "gain", "promote"]


def _unique_key(solver: DfpnSolver, pos: Position, stip: str, depth: int) -> tuple[Move, int] | None:
    """None when no move forces ``stip`` within ``depth``; else the quickest key and its length,
    the length -1 when another move forces it within that length plus the cook margin.

    The bound is deepened two plies at a time (1, 3, 5, ... ``depth``) and the first bound with a
    solution gives the key; the cooks are then looked for within the key's length plus the margin
    (at most ``depth``).  One proof at the full depth asks the same question, but where the
    branching is high (turkish: men step sideways, kings fly along ranks and files) a 9-ply proof
    exceeds the node budget in most middlegame positions and a 3-ply shot in them was never seen.
    When only the cook search exceeds the budget, the key is still returned: the proof that every
    mined puzzle passes (:func:`~generator.puzzles.proof.prove_puzzle`) searches the cooks with its
    own budget.
    """
    parsed = Stipulation.parse(stip)
    margin = default_margin(parsed.goal)
    bounds = [*range(1, depth, 2), depth]
    for bound in bounds:
        try:
            proof = solver.solve(pos, parsed, bound)
        except BudgetExceeded:
            return None
        if proof.solutions:
            break
    else:
        return None
    ranked = sorted(proof.solutions, key=lambda m: proof.shortest[m])
    key, plies = ranked[0], proof.shortest[ranked[0]]
    if any(proof.shortest[m] <= plies + margin for m in ranked[1:]):
        return key, -1
    reach = min(plies + margin, depth)
    if reach > bound:
        try:
            wider = solver.solve(pos, parsed, reach)
        except BudgetExceeded:
            return key, plies
        if any(m != key and wider.shortest[m] <= plies + margin for m in wider.solutions):
            return key, -1
    return key, plies


def prove_best(pos: Position, settings: Settings) -> dict[str, Any] | None:
    """The strongest sound puzzle of ``pos`` (gate 3), as a lesson puzzle without ``id``, or None."""
    solver = DfpnSolver(pos.variant, None, Budget(nodes=settings.proof_nodes))
    for goal in goals_for(pos, settings):
        tries: list[tuple[str, Move, int]] = []
        if goal == "gain":
            for n in range(1, settings.max_gain + 1):
                found = _unique_key(solver, pos, f"gain:{n}", settings.depth)
                if found is None:
                    break
                if found[1] > 0:
                    tries.append((f"gain:{n}", *found))
            tries.reverse()  # the largest gain first
        else:
            found = _unique_key(solver, pos, goal, settings.depth)
            if found is not None and found[1] > 0:
                tries.append((goal, *found))
        for stip, key, plies in tries:
            puzzle = _puzzle(solver, pos, stip, key, plies, settings)
            if puzzle is not None:
                return puzzle
    return None


def _puzzle(
    solver: DfpnSolver, pos: Position, stip: str, key: Move, plies: int, settings: Settings
) -> dict[str, Any] | None:
    try:
        solver.prepare(pos, Stipulation.parse(stip))
        line = solver.main_line(pos, key, plies)
    except BudgetExceeded:
        return None
    if not_a_puzzle(Stipulation.parse(stip).goal, pos, line) is not None or not worth_a_book(pos, stip, line, settings):
        return None
    proof = prove_puzzle(pos, stip, line, profile=draw_profile(pos.variant))
    if not proof.sound:
        return None
    puzzle: dict[str, Any] = {
        "position": pos.fen(),
        "caption": caption(pos, stip, settings.language),
        "stipulation": stip,
        "solution": solution_items(pos, line),
    }
    if proof.themes:
        puzzle["themes"] = list(proof.themes)
    puzzle["difficulty"] = proof.difficulty
    return puzzle


def lead(pos: Position, side: int) -> int:
    """Pieces of ``side`` minus the opponent's (a king counts as one piece, as in ``gain:N``)."""
    return pos.pieces(side).bit_count() - pos.pieces(side ^ 1).bit_count()


def worth_a_book(pos: Position, stip: str, line: list[Move], settings: Settings) -> bool:
    """The taste filter after the proof: sound lines a collection would still leave out (a
    one-move "puzzle", an ending already won on material, a crown bought with half the army)."""
    if len(line) < settings.min_plies:
        return False
    me = pos.turn
    mine, theirs = pos.pieces(me).bit_count(), pos.pieces(me ^ 1).bit_count()
    if pos.variant.goal is not Goal.LOSING and (lead(pos, me) > settings.max_lead or mine >= 3 * theirs):
        return False
    if Stipulation.parse(stip).goal == "promote":
        end = pos
        for m in line:
            end = end.play(m)
        if lead(pos, me) - lead(end, me) > settings.max_promote_cost:
            return False
    return True


def solution_items(pos: Position, line: list[Move]) -> list[Any]:
    """The line as a lesson ``solution``: defender moves that are not forced list the others."""
    out: list[Any] = []
    attacker = pos.turn
    for m in line:
        text = pos.move_text(m, long=True)
        if pos.turn != attacker:
            legal = pos.legal_moves()
            others = [pos.move_text(o, long=True) for o in pos.sorted_moves([o for o in legal if o != m])]
            out.append({"move": text, "others": others} if others else text)
        else:
            out.append(text)
        pos = pos.play(m)
    return out


_CAPTIONS = {
    "pt-BR": {
        "side": ("Vez das brancas.", "Vez das pretas."),
        "win": "Jogue e vença.",
        "gain": ("Jogue e ganhe uma pedra.", "Jogue e ganhe {n} pedras."),
        "promote": "Jogue e faça dama.",
    },
    "en": {
        "side": ("White to move.", "Black to move."),
        "win": "Play and win.",
        "gain": ("Play and win a piece.", "Play and win {n} pieces."),
        "promote": "Play and crown a king.",
    },
}


def caption(pos: Position, stip: str, language: str) -> str:
    """A plain caption (who moves, what to achieve); a curator replaces it with a better one."""
    words = _CAPTIONS.get(language, _CAPTIONS["en"])
    s = Stipulation.parse(stip)
    if s.goal == "gain":
        goal = words["gain"][0] if s.pieces == 1 else words["gain"][1].format(n=s.pieces)
    else:
        goal = str(words[s.goal])
    return f"{words['side'][pos.turn]} {goal}"


def puzzle_id(variant: str, fen: str) -> str:
    """A stable id from the position (the same position gets the same id in every run)."""
    return "m-" + hashlib.sha256(f"{variant}:{fen}".encode()).hexdigest()[:10]
