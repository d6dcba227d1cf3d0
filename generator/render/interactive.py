"""Data for the interactive pages: replayable lines, puzzles solved on the board, the position editor.

The browser runs no engine and knows no rules.  Everything it needs is decided here, at build time:

* a *replay* is the list of step diagrams of a line (one SVG file per step, the position after the
  move with its route or arrow and the taken pieces crossed, drawn by the same ``svg.diagram`` as
  every static diagram), plus the line as PDN and the start FEN for the copy buttons;
* a *puzzle game* is a small tree: per node the legal moves of the side the student plays (with
  from/to/path/captured square names), which of them win, the defence the page answers with, and
  for failing first moves the defence that refutes them (one SVG per node the page can show);
* the *editor tables* give, per variant, the board's squares (name, playing or light) and the
  promotion rows, so the editor's JavaScript writes FENs and text drawings with no rules knowledge.

Step files are named by a hash of what they show, so equal steps share a file.

Growing a puzzle's tree and drawing its steps is the costliest part of planning a page; with a proof
cache active (:mod:`generator.cache`) each puzzle's panel and each diagram's replays are stored with
their step diagrams (compressed together) under a key of everything they depend on, and a later
build with nothing changed reads them back instead of searching and drawing again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import cache as proof_cache
from ..i18n import translator
from ..puzzles.search import Solver, Stipulation
from ..rules import BLACK, WHITE, Move, Position, Variant
from ..rules.game import Game
from ..rules.geometry import Numbering
from ..rules.pdn import game_to_pdn, write_pdn
from .svg import Svg, build_view, describe_position, diagram

STEP_DIR = "html/svg/passos"
"""Where step diagrams go, relative to the build root."""

NODE_CAP = 40
"""At most this many positions of a puzzle's solution tree are embedded in its page (the main line
always is; other winning branches are expanded breadth-first until the cap)."""

RENDER_FORMAT = 1
"""Bump when a cached panel or replay could differ from a fresh one (the tree, the page's JSON, the
step diagrams, the stored form)."""
RENDER_SOURCES = (
    "rules",
    "puzzles",
    "render/interactive.py",
    "render/svg.py",
    "locale",
    "i18n.py",
    "cache.py",
    "templates:board.svg.j2",
)
"""The code and data a panel depends on: hashed into every key."""
PLAY_FIELDS = {"key", "hint", "side", "other", "cells", "size", "nodes", "solution"}
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


@dataclass
class Steps:
    """Step diagram files collected while planning: build-root path -> SVG text."""

    svgs: dict[str, Svg] = field(default_factory=dict)
    touched: set[str] | None = None
    """While a cached unit is computed: every step file it uses (drawn now or before)."""

    def after(self, before: Position, move: Move, view: View) -> str:
        """The file showing the position after ``move`` with its route (or arrow) and taken pieces."""
        after = before.play(move)
        text = before.move_text(move, long=True)
        key = repr((after.variant.name, after.fen(), move.origin, move.path, move.captured, view))
        uid = "s" + hashlib.sha1(key.encode()).hexdigest()[:12]
        path = f"{STEP_DIR}/{after.variant.name}/{uid}.svg"
        if self.touched is not None:
            self.touched.add(path)
        if path not in self.svgs:
            overlay: dict[str, Any] = (
                {"route": move, "captured": tuple(move.captured)} if move.is_capture else {"arrows": (move,)}
            )
            self.svgs[path] = diagram(
                after,
                orientation=view.orientation,
                numbers=view.numbers,
                coordinates=view.coordinates,
                lang=view.lang,
                uid=uid,
                description=translator(view.lang).gettext("Move played: %(move)s.") % {"move": text},
                **overlay,
            )
        return path


def _cached(
    kind: str, key: dict[str, Any], steps: Steps, compute: Callable[[], dict[str, Any]], fields: set[str]
) -> dict[str, Any]:
    """``compute()`` (a dict of plain JSON data with exactly ``fields``, naming step files), read
    from the active proof cache when stored under ``key``, else computed and stored with the step
    diagrams it uses.  A stored entry of another shape is ignored."""
    store = proof_cache.active()
    if store is None:
        return compute()
    key = {
        **key,
        "format": RENDER_FORMAT,
        "code": proof_cache.source_fingerprint(*RENDER_SOURCES),
        "jinja": proof_cache.jinja_version(),
    }
    hit = store.get(kind, key)
    if isinstance(hit, dict) and isinstance(hit.get("value"), dict) and set(hit["value"]) == fields:
        try:
            svgs = proof_cache.unpack_text(hit.get("svgs"))
        except ValueError:
            svgs = None
        if (
            svgs is not None
            and all(p.startswith(STEP_DIR + "/") and p.endswith(".svg") for p in svgs)
            and _referenced(hit["value"]) <= set(svgs)
        ):
            for path, text in svgs.items():
                steps.svgs.setdefault(path, Svg(text))
            return hit["value"]
    outer, steps.touched = steps.touched, set()
    try:
        with proof_cache.use(None):  # the step diagrams are stored below, with the panel, not one by one
            value = compute()
        used = steps.touched
    finally:
        steps.touched = outer
    if outer is not None:
        outer.update(used)
    store.put(kind, key, {"value": value, "svgs": proof_cache.pack_text({p: str(steps.svgs[p]) for p in used})})
    return value


def _referenced(value: Any) -> set[str]:
    """Every step file a panel or replay names (``svg``, ``reply_svg``), as build-root paths: a
    stored entry must carry each of them."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                if k in ("svg", "reply_svg") and isinstance(v, str):
                    out.add(f"html/{v}")
                else:
                    stack.append(v)
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _after_text(before: Position, move: Move, lang: str = "pt") -> str:
    tr = translator(lang)
    text = before.move_text(move, long=True)
    caps = ", ".join(before.square_name(s) for s in move.captured)
    said = (tr.gettext("White plays: %(move)s.") if before.turn == 0 else tr.gettext("Black plays: %(move)s.")) % {
        "move": text
    }
    if caps:
        taken = tr.ngettext("Captured: %(squares)s.", "Captured: %(squares)s.", len(move.captured))
        said += " " + taken % {"squares": caps}
    return said


def line_pdn(position: Position, moves: list[Move]) -> str:
    """The line as a PDN game (GameType, SetUp/FEN when not the initial position, result ``*``)."""
    game = Game(position.variant, position)
    for m in moves:
        game.push(m)
    return write_pdn([game_to_pdn(game, result="*")])


def replay_data(position: Position, moves: list[Move], view: View, steps: Steps) -> dict[str, Any]:
    """What the replay controls of one line need: per step the file, the spoken text, the move text."""
    out = []
    cur = position
    for k, m in enumerate(moves, start=1):
        path = steps.after(cur, m, view)
        said = _after_text(cur, m, view.lang)
        text = cur.move_text(m, long=True)
        cur = cur.play(m)
        out.append(
            {
                "svg": path.removeprefix("html/"),
                "text": text,
                "alt": translator(view.lang).gettext("Move %(num)s of %(count)s.") % {"num": k, "count": len(moves)}
                + f" {said} {describe_position(cur, view.lang)}",
            }
        )
    return {"steps": out, "pdn": line_pdn(position, moves), "fen": position.fen()}


def board_cells(position: Position, view: View) -> dict[str, Any]:
    """Where each playing square sits on the drawn diagram, in percent of the image (for click targets)."""
    v = build_view(position, orientation=view.orientation, numbers=view.numbers, coordinates=view.coordinates)
    cells = {s["name"]: [round(100 * s["x"] / v.width, 3), round(100 * s["y"] / v.height, 3)] for s in v.squares}
    return {"cells": cells, "size": [round(100 * v.square / v.width, 3), round(100 * v.square / v.height, 3)]}


# -- the puzzle tree --------------------------------------------------------------------------------


@dataclass
class TreeNode:
    """A position of the solution tree.

    At the student's nodes ``children`` maps each winning move that was expanded to the node after
    it, ``wins`` lists every winning move; at the defender's nodes ``defence`` is the reply the page
    plays and ``children`` holds the node after it.  ``done``: the goal is met here.
    """

    position: Position
    plies: int
    wins: list[Move] = field(default_factory=list)
    children: dict[Move, TreeNode] = field(default_factory=dict)
    defence: Move | None = None
    done: bool = False
    refutations: dict[Move, list[Move]] = field(default_factory=dict)


def solution_tree(
    position: Position, stipulation: str, main: list[Move], profile: Any = None, cap: int = NODE_CAP
) -> TreeNode:
    """Walk the current solver (``generator.puzzles.search``) into a tree of at most ``cap`` nodes.

    The one place that knows the solver: swap it for a proof tree (every defence with its winning
    answer, a refutation per failing first move) and the rest of this module stays as is.  The main
    line (the author's solution) is expanded first; the failing first moves get ``Solver.refute``.

    Why not the df-pn :class:`~generator.puzzles.tree.SolutionTree`: the page answers each student
    move with one defence, and on 328 mined and bundled puzzles this walk gives 5.8 nodes on average
    (at most 13; the cap never bites) against 9.9 (at most 226) for the full proof tree, in half the
    CPU (0.5 s against 0.9 s for all of them).  Neither cost matters beside drawing the step diagrams.
    """
    solver = Solver(position.variant, profile)
    stip = Stipulation.parse(stipulation)
    solver.prepare(position, stip)
    depth = len(main)
    root = TreeNode(position, depth)
    count = 1
    queue: list[tuple[TreeNode, list[Move]]] = [(root, main)]
    while queue:
        node, rest = queue.pop(0)
        if node.position.turn == solver.attacker:
            if node.plies <= 0:
                node.done = True
                continue
            game = Game(position.variant, node.position, profile=profile)
            node.wins = solver.winning_moves(game, node.plies)
            if node is root:
                node.refutations = {
                    m: solver.refute(position, m, depth) for m in position.legal_moves() if m not in node.wins
                }
            order = ([rest[0]] if rest and rest[0] in node.wins else []) + [m for m in node.wins if m not in rest[:1]]
            for m in order:
                if count >= cap:
                    break
                child = TreeNode(node.position.play(m), node.plies - 1)
                node.children[m] = child
                count += 1
                queue.append((child, rest[1:] if rest and m == rest[0] else []))
            continue
        if rest:
            reply: Move | None = rest[0]
        else:
            played = solver.play_out(node.position.state, node.plies)
            reply = played[0] if played else None
        if reply is None or not node.position.legal_moves() or count >= cap:
            node.done = reply is None or not node.position.legal_moves()
            continue
        node.defence = reply
        child = TreeNode(node.position.play(reply), node.plies - 1)
        node.children[reply] = child
        count += 1
        queue.append((child, rest[1:]))
    return root


def _move_json(pos: Position, m: Move) -> dict[str, Any]:
    """A move for the page: its text, origin and destination, and for a capture its landing squares
    and the pieces it takes (a quiet move's path is just from-to, so it is left out)."""
    name = pos.square_name
    out: dict[str, Any] = {"t": pos.move_text(m, long=True), "from": name(m.origin), "to": name(m.dest)}
    if m.captured:
        out["path"] = [name(s) for s in m.path]
        out["cap"] = [name(s) for s in m.captured]
    return out


def puzzle_game(tree: TreeNode, view: View, steps: Steps) -> dict[str, Any]:
    """The tree as the page's JSON: a flat list of nodes, the root first."""
    nodes: list[dict[str, Any]] = []

    def add(node: TreeNode, svg: str | None, alt: str | None) -> int:
        index = len(nodes)
        entry: dict[str, Any] = {"svg": svg, "alt": alt}
        nodes.append(entry)
        pos = node.position
        if node.done:
            entry["done"] = True
            return index
        if node.defence is not None:
            m = node.defence
            child = node.children[m]
            path = steps.after(pos, m, view)
            entry["reply"] = {
                **_move_json(pos, m),
                "next": add(child, path.removeprefix("html/"), _after_text(pos, m, view.lang)),
            }
            return index
        if not node.wins and not node.children:
            entry["done"] = True  # cut by the node cap: nothing more the page can check
            entry["cut"] = True
            return index
        moves = []
        for m in pos.legal_moves():
            item = _move_json(pos, m)
            item["win"] = m in node.wins
            if m in node.children:
                path = steps.after(pos, m, view)
                item["next"] = add(node.children[m], path.removeprefix("html/"), _after_text(pos, m, view.lang))
            line = node.refutations.get(m)
            if line and len(line) > 1:
                after = pos.play(m)
                reply_path = steps.after(after, line[1], view)
                texts, cur = [], pos
                for x in line:
                    texts.append(cur.move_text(x, long=True))
                    cur = cur.play(x)
                item["ref"] = {
                    "reply_svg": reply_path.removeprefix("html/"),
                    "reply": after.move_text(line[1], long=True),
                    "line": " ".join(texts),
                }
            moves.append(item)
        entry["moves"] = moves
        return index

    add(tree, None, None)
    return {"nodes": nodes}


def puzzle_play(
    position: Position,
    stipulation: str,
    main: list[Move],
    *,
    key: str,
    hint: str,
    profile: Any,
    view: View,
    steps: Steps,
) -> dict[str, Any]:
    """Everything the solve-on-the-board panel of one puzzle needs (from the proof cache when the
    puzzle, its rules and the code are unchanged)."""

    def compute() -> dict[str, Any]:
        tree = solution_tree(position, stipulation, main, profile)
        tr = translator(view.lang)
        sides = (tr.gettext("White"), tr.gettext("Black"))
        return {
            "key": key,
            "hint": hint,
            "side": sides[position.turn],
            "other": sides[position.turn ^ 1],
            **board_cells(position, view),
            **puzzle_game(tree, view, steps),
            "solution": replay_data(position, main, view, steps),
        }

    cache_key = {
        "rules": proof_cache.rules_key(position.variant, profile),
        "fen": position.fen(),
        "stipulation": stipulation,
        "main": _line_texts(position, main),
        "key": key,
        "hint": hint,
        "view": proof_cache.plain(view),
        "cap": NODE_CAP,
    }
    return _cached("play", cache_key, steps, compute, PLAY_FIELDS)


def _line_texts(position: Position, moves: list[Move]) -> list[str]:
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


def diagram_replays(
    position: Position, claims: list[dict[str, Any] | None], view: View, steps: Steps
) -> list[dict[str, Any]]:
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
                "view": proof_cache.plain(view),
            }
            replay = lambda m=moves: replay_data(position, m, view, steps)  # noqa: E731
            out.append(_cached("replay", cache_key, steps, replay, REPLAY_FIELDS))
    return out
