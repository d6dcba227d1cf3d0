"""Data for the interactive pages: replayable lines, puzzles solved on the board, the position editor.

The browser runs no engine and knows no rules.  Everything it needs is decided here, at build time,
and embedded in the page as JSON; the page draws every board itself from a FEN and its marks
(generator/render/liveboard.py), so no picture file is made per step:

* a *replay* is a line: per step the position after the move (FEN) and the move (text, from, to, and
  for a capture its landing squares and the pieces it takes), plus the line as PDN for the copy button;
* a *puzzle game* is a tree (:class:`generator.puzzles.play.PlayNode`): at the student's nodes every
  legal move, which of them win and, for each one that fails, the defence that refutes it with its
  line in numbered notation; at the defender's nodes *every* defence the proof knows, so the page can
  vary its replies;
* the *editor tables* give, per variant, the board's squares (name, playing or light) and the
  promotion rows, so the editor's JavaScript writes FENs and text drawings with no rules knowledge.

The tree is the puzzle's proof's (``damas check``, :mod:`generator.puzzles.play`), carried forward with
the proof's result: this module runs no solver, it only writes what the proof recorded as the page's
JSON.  With a proof cache active (:mod:`generator.cache`) each diagram's replays are stored under a
key of everything they depend on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import cache as proof_cache
from ..puzzles.play import PlayNode
from ..rules import BLACK, WHITE, Move, Position, Variant
from ..rules.game import Game
from ..rules.geometry import Numbering
from ..rules.notation import move_texts
from ..rules.pdn import game_to_pdn, write_pdn
from .answer import numbered

RENDER_FORMAT = 2
"""Bump when a cached replay could differ from a fresh one (the page's JSON)."""
RENDER_SOURCES = (
    "rules",
    "puzzles",
    "render/interactive.py",
    "render/answer.py",
    "locale",
    "i18n.py",
    "cache.py",
)
"""The code and data a replay depends on: hashed into every key."""
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


def puzzle_game(tree: PlayNode) -> dict[str, Any]:
    """The tree as the page's JSON: a flat list of nodes, the root first.  Every node has its FEN
    (``f``); a student's node lists its legal ``moves`` (``win``, ``next``, ``ref``), a defender's
    node its ``replies`` (each with ``next``), a final one ``done``."""
    nodes: list[dict[str, Any]] = []
    start = tree.position
    depth = tree.plies

    def add(node: PlayNode) -> int:
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


def puzzle_play(tree: PlayNode, *, key: str) -> dict[str, Any]:
    """Everything the solve-on-the-board panel of one puzzle needs: the tree the check stage stored
    with the puzzle's proof (:attr:`generator.puzzles.result.PuzzleResult.play`), as the page's JSON."""
    return {"key": key, **puzzle_game(tree)}


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
                "line": move_texts(position, moves),
            }
            replay = lambda m=moves: replay_data(position, m)  # noqa: E731
            out.append(_cached("replay", cache_key, replay, REPLAY_FIELDS))
    return out
