"""The puzzle as a student plays it on the page: the proof's lines merged into one tree, with, at
every student node on them, the moves that win and the refutation of each move that fails.

This belongs to the proof, not to the page: it is computed once, by the check stage, right after
:func:`generator.puzzles.proof.prove_puzzle` has proven the puzzle sound
(:func:`generator.lessons.verify`), travels with the proof's result
(:attr:`generator.puzzles.result.PuzzleResult.play`) and is stored with it in the proof cache.  The
interactive pages (:mod:`generator.render.interactive`) only read it, so rendering runs no solver.

The lines come from the proof (:func:`puzzle_lines`): the printed line, then every defence of its
solution tree (or, without a tree, the answer key's defences).  At the student's nodes the solver
says which legal moves win within the plies left (a second winning move is accepted as such) and
refutes each failing one (the defence that holds, then the line on); the defender's nodes keep every
defence the lines hold.

In the JSON form (:func:`play_to_json`) moves are written in the variant's long notation and matched
back against the legal moves of each position on read (:func:`play_from_json`), as everywhere in a
stored result: stored data never puts a move on a page that the engine did not make.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules.draws import DrawProfile
from ..rules.game import Game
from ..rules.move import Move
from ..rules.notation import move_texts
from ..rules.position import Position
from .search import Solver, Stipulation
from .tree import SolutionTree

if TYPE_CHECKING:
    from .result import PuzzleResult

NODE_CAP = 400
"""At most this many positions of a puzzle's tree are embedded in its page.  Every line the proof
prints is kept whatever the cap (the main line, then each defence in the answer key's order); the cap
only stops the student's nodes from being expanded further.  On the bundled course no tree reaches it."""


@dataclass
class PlayNode:
    """A position of the puzzle's tree.

    At the student's nodes ``children`` maps each winning move the proof continues with to the node
    after it, ``wins`` lists every winning move and ``refutations`` how each failing one is met (the
    failing move, the defence, the line on); at the defender's nodes ``children`` holds every defence
    the proof knows, the main one first.  ``done``: the goal is met here.
    """

    position: Position
    plies: int
    wins: list[Move] = field(default_factory=list)
    children: dict[Move, PlayNode] = field(default_factory=dict)
    done: bool = False
    refutations: dict[Move, list[Move]] = field(default_factory=dict)

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())


def proof_lines(main: Sequence[Move], defences: Sequence[tuple[int, Move, Sequence[Move]]]) -> list[list[Move]]:
    """The lines the proof prints: the main line, then each defence as the line it makes (the main
    line up to the defence, the defence, and how the attacker wins on)."""
    lines = [list(main)]
    for j, reply, rest in defences:
        lines.append([*main[:j], reply, *rest])
    return lines


def tree_lines(position: Position, tree: SolutionTree | None) -> list[list[Move]]:
    """Every line of a proof's solution tree below its first solution (the key): each defence at
    every defender ply, with the solver's answer to it, to the printed depth; the printed line
    first, as the tree keeps it."""
    lines: list[list[Move]] = []

    def walk(pos: Position, node: Any, line: list[Move]) -> None:
        move = pos.parse_move(node.move)
        line = [*line, move]
        after = pos.play(move)
        if not node.replies:
            lines.append(line)
        for reply in node.replies:
            walk(after, reply, line)

    if tree is not None and tree.solutions:
        walk(position, tree.solutions[0], [])
    return lines


def puzzle_lines(
    position: Position,
    main: Sequence[Move],
    defences: Sequence[tuple[int, Move, Sequence[Move]]] = (),
    tree: SolutionTree | None = None,
) -> list[list[Move]]:
    """The lines a puzzle's page lets the student play: the solution ``tree`` (every defence to the
    printed depth) when it has one whose key is the main line's, the printed line first (the page
    meets its defence first); else the main line and the answer key's ``defences``."""
    found = tree_lines(position, tree)
    if found and found[0][:1] == list(main[:1]):
        return [list(main), *found]
    return proof_lines(main, defences)


def play_tree(
    position: Position,
    stipulation: str,
    lines: Sequence[Sequence[Move]],
    profile: DrawProfile | str | None = None,
    cap: int = NODE_CAP,
) -> PlayNode:
    """The proven ``lines`` (:func:`puzzle_lines`, the main line first, each ending where the goal
    is met) merged into one tree, the student's nodes completed by the solver (see the module
    docstring).  Past ``cap`` positions the student's nodes are no longer expanded."""
    solver = Solver(position.variant, profile)
    solver.prepare(position, Stipulation.parse(stipulation))
    depth = max((len(line) for line in lines), default=0)
    root = PlayNode(position, depth)
    for line in lines:
        node = root
        for m in line:
            child = node.children.get(m)
            if child is None:
                child = node.children[m] = PlayNode(node.position.play(m), node.plies - 1)
            node = child
    count = root.size()
    queue = [root]
    while queue:
        node = queue.pop(0)
        if not node.children:
            node.done = True
            continue
        queue.extend(node.children.values())
        if node.position.turn != solver.attacker or count >= cap:
            continue
        game = Game(position.variant, node.position, profile=profile)
        node.wins = solver.winning_moves(game, node.plies)
        for m in node.position.legal_moves():
            if m not in node.wins and m not in node.children:
                node.refutations[m] = solver.refute(node.position, m, node.plies)
                count += 1
    return root


def result_play(result: PuzzleResult, stipulation: str, profile: DrawProfile | str | None = None) -> PlayNode:
    """The tree of a proven puzzle (``result`` sound) from its own lines: what the check stage stores
    in :attr:`PuzzleResult.play <generator.puzzles.result.PuzzleResult.play>`."""
    lines = puzzle_lines(result.start, result.moves, result.defences, result.tree)
    return play_tree(result.start, stipulation, lines, profile)


# -- JSON ---------------------------------------------------------------------------------------------


def play_to_json(node: PlayNode) -> dict[str, Any]:
    """The tree as plain JSON data: ``plies`` at the root, then per node its winning moves, its
    children (in order), ``done``, and its refutations (the failing move, then its line)."""
    return {"plies": node.plies, "root": _node_json(node)}


def _node_json(node: PlayNode) -> dict[str, Any]:
    pos = node.position
    out: dict[str, Any] = {}
    if node.done:
        out["done"] = True
    if node.wins:
        out["wins"] = [pos.move_text(m, long=True) for m in node.wins]
    if node.children:
        out["children"] = [[pos.move_text(m, long=True), _node_json(c)] for m, c in node.children.items()]
    if node.refutations:
        refutations = node.refutations.items()
        out["refutations"] = [[pos.move_text(m, long=True), move_texts(pos, line)] for m, line in refutations]
    return out


def play_from_json(data: Any, start: Position) -> PlayNode:
    """The tree :func:`play_to_json` wrote for the puzzle starting at ``start``, every move matched
    against the legal moves where it stands.

    Raises:
        ValueError, TypeError, KeyError: for anything but that shape, or a move that is not legal.
    """
    if not isinstance(data, dict):
        raise ValueError("not a play tree")
    plies = data["plies"]
    if not isinstance(plies, int) or isinstance(plies, bool) or plies < 0:
        raise ValueError(f"bad plies {plies!r}")
    return _node_from(data["root"], start, plies)


def _node_from(data: Any, pos: Position, plies: int) -> PlayNode:
    """One node and the nodes under it (at most the printed depth deep: recursion is fine)."""
    if not isinstance(data, dict) or set(data) - {"done", "wins", "children", "refutations"}:
        raise ValueError("not a play node")
    # a node that names no move (most are the line's ends) costs no move generation
    legal = _legal_by_text(pos) if data.keys() & {"wins", "children", "refutations"} else {}
    node = PlayNode(pos, plies, done=data.get("done") is True)
    node.wins = [_legal(legal, text) for text in data.get("wins", [])]
    for text, child in data.get("children", []):
        m = _legal(legal, text)
        node.children[m] = _node_from(child, pos.play(m), plies - 1)
    for text, line in data.get("refutations", []):
        m = _legal(legal, text)
        if not isinstance(line, list) or line[:1] not in ([], [text]):
            raise ValueError("a refutation that does not start with its move")
        node.refutations[m] = [m, *moves_from(pos.play(m), line[1:])] if line else []
    return node


def _legal(legal: dict[str, Move], text: Any) -> Move:
    if not isinstance(text, str) or text not in legal:
        raise ValueError(f"no legal move {text!r}")
    return legal[text]


def moves_from(pos: Position, texts: Any) -> list[Move]:
    """A stored line (long move texts) played from ``pos``, each move matched against the legal moves
    where it stands."""
    if not isinstance(texts, list):
        raise ValueError("not a line")
    out = []
    for text in texts:
        m = find_move(pos, text)
        out.append(m)
        pos = pos.play(m)
    return out


def find_move(pos: Position, text: Any) -> Move:
    """The legal move of ``pos`` whose long notation is ``text``.

    Raises:
        ValueError: when no legal move is written so.
    """
    if isinstance(text, str):
        for m in pos.variant.generator.moves(*pos.state):  # no move has another's long text: no order needed
            if pos.move_text(m, long=True) == text:
                return m
    raise ValueError(f"no legal move {text!r}")


def _legal_by_text(pos: Position) -> dict[str, Move]:
    """The legal moves at ``pos`` by their long notation (the generator's order: a lookup needs no
    sorting, and a stored tree is read back for every puzzle of every build)."""
    return {pos.move_text(m, long=True): m for m in pos.variant.generator.moves(*pos.state)}
