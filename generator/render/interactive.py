"""Data for the interactive pages: replayable lines, puzzles solved on the board, the position editor.

The browser runs no engine and knows no rules.  Everything it needs is decided here, at build time,
and embedded in the page as JSON; the page draws every board itself from a FEN and its marks
(generator/render/liveboard.py), so no picture file is made per step:

* a *replay* is a line: per step the position after the move (FEN) and the move (text, from, to, and
  for a capture its landing squares and the pieces it takes), plus the line as PDN for the copy button;
* a *puzzle game* is a tree (:func:`page_tree`): at the student's nodes every legal move, which of them
  win and, for each one that fails, the defence that refutes it with its line in numbered notation; at
  the defender's nodes *every* defence the proof knows, so the page can vary its replies;
* the *editor tables* give, per variant, the board's squares (name, playing or light) and the
  promotion rows, so the editor's JavaScript writes FENs and text drawings with no rules knowledge.

The tree's defences and lines come from the puzzle's proof (``damas check``), carried forward; only
what the proof does not record (whether a student's other move also wins, and how a failing one is
refuted) is asked of the solver, per student node.  With a proof cache active (:mod:`generator.cache`)
each puzzle's panel and each diagram's replays are stored under a key of everything they depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import cache as proof_cache
from ..puzzles.search import Solver, Stipulation
from ..rules import BLACK, WHITE, Move, Position, Variant
from ..rules.game import Game
from ..rules.geometry import Numbering
from ..rules.pdn import game_to_pdn, write_pdn
from .answer import numbered

NODE_CAP = 400
"""At most this many positions of a puzzle's tree are embedded in its page.  Every line the proof
prints is kept whatever the cap (the main line, then each defence in the answer key's order); the cap
only stops the student's nodes from being expanded further.  On the bundled course no tree reaches it."""

RENDER_FORMAT = 2
"""Bump when a cached panel or replay could differ from a fresh one (the tree, the page's JSON)."""
RENDER_SOURCES = (
    "rules",
    "puzzles",
    "render/interactive.py",
    "render/answer.py",
    "locale",
    "i18n.py",
    "cache.py",
)
"""The code and data a panel depends on: hashed into every key."""
PLAY_FIELDS = {"key", "nodes"}
"""The keys of a puzzle's panel (:func:`puzzle_play`)."""
REPLAY_FIELDS = {"steps", "pdn", "fen"}
"""The keys of a line's replay (:func:`replay_data`)."""


@dataclass(frozen=True)
class View:
    """How a board is drawn (kept equal between a diagram and its steps)."""

    orientation: int = WHITE
    numbers: bool | None = None
    coordinates: bool | None = None
    lang: str = "pt"


def _cached(kind: str, key: dict[str, Any], compute: Callable[[], dict[str, Any]], fields: set[str]) -> dict[str, Any]:
    """``compute()`` (a dict of plain JSON data with exactly ``fields``), read from the active proof
    cache when stored under ``key``, else computed and stored.  A stored entry of another shape is
    ignored."""
    store = proof_cache.active()
    if store is None:
        return compute()
    key = {**key, "format": RENDER_FORMAT, "code": proof_cache.source_fingerprint(*RENDER_SOURCES)}
    hit = store.get(kind, key)
    if isinstance(hit, dict) and isinstance(hit.get("value"), dict) and set(hit["value"]) == fields:
        return hit["value"]
    value = compute()
    store.put(kind, key, {"value": value})
    return value


def move_json(pos: Position, m: Move) -> dict[str, Any]:
    """A move for the page: its text, origin and destination, and for a capture its landing squares
    and the pieces it takes (a quiet move's path is just from-to, so it is left out)."""
    name = pos.square_name
    out: dict[str, Any] = {"t": pos.move_text(m, long=True), "from": name(m.origin), "to": name(m.dest)}
    if m.captured:
        out["path"] = [name(s) for s in m.path]
        out["cap"] = [name(s) for s in m.captured]
    return out


def line_pdn(position: Position, moves: list[Move]) -> str:
    """The line as a PDN game (GameType, SetUp/FEN when not the initial position, result ``*``)."""
    game = Game(position.variant, position)
    for m in moves:
        game.push(m)
    return write_pdn([game_to_pdn(game, result="*")])


def replay_data(position: Position, moves: list[Move]) -> dict[str, Any]:
    """What the replay controls of one line need: per step the move and the position after it."""
    out = []
    cur = position
    for m in moves:
        step = move_json(cur, m)
        cur = cur.play(m)
        step["f"] = cur.fen()
        out.append(step)
    return {"steps": out, "pdn": line_pdn(position, moves), "fen": position.fen()}


# -- the puzzle tree --------------------------------------------------------------------------------


@dataclass
class TreeNode:
    """A position of the puzzle's tree.

    At the student's nodes ``children`` maps each winning move the proof continues with to the node
    after it, ``wins`` lists every winning move and ``refutations`` how each failing one is met; at
    the defender's nodes ``children`` holds every defence the proof knows, the main one first.
    ``done``: the goal is met here.
    """

    position: Position
    plies: int
    wins: list[Move] = field(default_factory=list)
    children: dict[Move, TreeNode] = field(default_factory=dict)
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


def tree_lines(position: Position, tree: Any) -> list[list[Move]]:
    """Every line of a proof's solution tree (:class:`generator.puzzles.tree.SolutionTree`) below its
    first solution (the key): each defence at every defender ply, with the solver's answer to it, to
    the printed depth; the printed line first, as the tree keeps it."""
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


def page_tree(
    position: Position,
    stipulation: str,
    lines: Sequence[Sequence[Move]],
    profile: Any = None,
    cap: int = NODE_CAP,
) -> TreeNode:
    """The proof's lines merged into one tree, the student's nodes completed by the solver.

    ``lines`` are the proven lines (:func:`proof_lines`: the main line first); each ends where the
    goal is met.  At every student node on them the solver says which legal moves win within the
    plies left (a second winning move is accepted as such) and refutes each failing one (the
    defence that holds, then the line on).  The defender's nodes keep every defence the lines hold.
    """
    solver = Solver(position.variant, profile)
    solver.prepare(position, Stipulation.parse(stipulation))
    depth = max((len(line) for line in lines), default=0)
    root = TreeNode(position, depth)
    for line in lines:
        node = root
        for m in line:
            child = node.children.get(m)
            if child is None:
                child = node.children[m] = TreeNode(node.position.play(m), node.plies - 1)
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


def puzzle_game(tree: TreeNode) -> dict[str, Any]:
    """The tree as the page's JSON: a flat list of nodes, the root first.  Every node has its FEN
    (``f``); a student's node lists its legal ``moves`` (``win``, ``next``, ``ref``), a defender's
    node its ``replies`` (each with ``next``), a final one ``done``."""
    nodes: list[dict[str, Any]] = []
    start = tree.position
    depth = tree.plies

    def add(node: TreeNode) -> int:
        index = len(nodes)
        pos = node.position
        entry: dict[str, Any] = {"f": pos.fen()}
        nodes.append(entry)
        if node.done:
            entry["done"] = 1
            return index
        if pos.turn != start.turn:
            entry["replies"] = [{**move_json(pos, m), "next": add(c)} for m, c in node.children.items()]
            return index
        moves = []
        ply = depth - node.plies
        for m in pos.legal_moves():
            item = move_json(pos, m)
            if m in node.wins or m in node.children:
                item["win"] = 1
            if m in node.children:
                item["next"] = add(node.children[m])
            line = node.refutations.get(m)
            if line and len(line) > 1:
                after = pos.play(m)
                item["ref"] = {
                    **move_json(after, line[1]),
                    "f": after.play(line[1]).fen(),
                    "line": " ".join(numbered(pos, line, ply)),
                }
            moves.append(item)
        entry["moves"] = moves
        return index

    add(tree)
    return {"nodes": nodes}


def puzzle_play(
    position: Position,
    stipulation: str,
    main: list[Move],
    defences: Sequence[tuple[int, Move, Sequence[Move]]] = (),
    *,
    key: str,
    profile: Any,
    tree: Any = None,
) -> dict[str, Any]:
    """Everything the solve-on-the-board panel of one puzzle needs (from the proof cache when the
    puzzle, its proof, its rules and the code are unchanged).

    The lines come from the proof: its solution ``tree`` (every defence to the printed depth) when it
    has one whose key is the main line's, else the main line and the answer key's ``defences``."""
    found = tree_lines(position, tree)
    # the printed line first: the page meets its defence first
    lines = [list(main), *found] if found and found[0][:1] == main[:1] else proof_lines(main, defences)

    def compute() -> dict[str, Any]:
        return {"key": key, **puzzle_game(page_tree(position, stipulation, lines, profile))}

    cache_key = {
        "rules": proof_cache.rules_key(position.variant, profile),
        "fen": position.fen(),
        "stipulation": stipulation,
        "lines": [_line_texts(position, line) for line in lines],
        "key": key,
        "cap": NODE_CAP,
    }
    return _cached("play", cache_key, compute, PLAY_FIELDS)


def _line_texts(position: Position, moves: Sequence[Move]) -> list[str]:
    out, cur = [], position
    for m in moves:
        out.append(cur.move_text(m, long=True))
        cur = cur.play(m)
    return out


# -- the position editor ----------------------------------------------------------------------------


def editor_tables(variants: list[Variant]) -> list[dict[str, Any]]:
    """Per variant: the board drawn top row first (square name, or None for a light square), the
    squares in numbering order (for FEN ranges), the promotion rows and the piece limit."""
    out = []
    for v in variants:
        g = v.geometry
        rows = []
        for rank in range(g.height - 1, -1, -1):
            rows.append([g.name(g.square(f, rank)) if g.is_playing(f, rank) else None for f in range(g.width)])
        out.append(
            {
                "name": v.name,
                "title": v.title,
                "algebraic": g.numbering is Numbering.ALGEBRAIC,
                "rows": rows,
                "order": [g.name(s) for s in g.squares],
                # the top row of the drawing is index 0: White promotes there, Black on the last row
                "promo": {"w": g.height - 1 - v.promotion_rank(WHITE), "b": g.height - 1 - v.promotion_rank(BLACK)},
                "max": v.max_pieces,
                "start": Position.start(v).fen(),
            }
        )
    return out


# -- hooks for the site plan ------------------------------------------------------------------------


def diagram_lines(position: Position, claims: list[dict[str, Any] | None]) -> list[list[Move]]:
    """The lines claimed on a diagram, each played from its position; a line that only begins
    another one is left out (its replay would be a part of the longer one)."""
    lines: list[list[Move]] = []
    for c in claims:
        if not isinstance(c, dict) or not isinstance(c.get("line"), list) or not c["line"]:
            continue
        cur, moves = position, []
        for text in c["line"]:  # verified: every move is legal
            m = cur.parse_move(str(text))
            moves.append(m)
            cur = cur.play(m)
        lines.append(moves)
    return [a for a in lines if not any(len(b) > len(a) and b[: len(a)] == a for b in lines) and a]


def diagram_replays(position: Position, claims: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The replay data of every distinct line of a diagram (duplicates dropped)."""
    out, seen = [], set()
    for moves in diagram_lines(position, claims):
        key = tuple(moves)
        if key not in seen:
            seen.add(key)
            cache_key = {
                "rules": proof_cache.rules_key(position.variant),
                "fen": position.fen(),
                "line": _line_texts(position, moves),
            }
            replay = lambda m=moves: replay_data(position, m)  # noqa: E731
            out.append(_cached("replay", cache_key, replay, REPLAY_FIELDS))
    return out
