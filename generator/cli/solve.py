"""``damas solve``: prove which first moves force a goal, or prove or refute one key.

Exit codes: 0 the question was answered (solutions listed, possibly none; with ``--first``, the
key forces the goal); 1 with ``--first`` when the key is refuted (the refuting defence is printed),
or bad content; 2 usage; 3 undecided (``--timeout`` or ``--nodes`` ran out, see
:data:`EXIT_UNDECIDED`); 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

import click

from ..errors import DamasError
from ..limits import RANGES
from ..rules import Variant
from ..rules.game import Game
from ..rules.move import Move
from ..rules.position import Position
from .app import EXIT_CONTENT
from .common import MEMORY_OPTION, VARIANT, Decimal, Whole

if TYPE_CHECKING:  # a type only: the search loads when the command runs
    from ..puzzles.search import Stipulation

EXIT_UNDECIDED = 3
"""The search ran out of its ``--timeout`` or ``--nodes`` budget without an answer."""
EXIT_INTERRUPTED = 130
MAX_DEPTH = RANGES["solve_depth"][1]
"""Deeper bounds are refused: even df-pn cannot settle 40-ply questions in open positions."""
WARN_DEPTH = 25
"""Above this, without ``--timeout`` or ``--nodes``, a warning says the search may run very long."""


class _Meter:
    """Progress on stderr (nodes, proven and disproven counts) when stderr is a terminal."""

    def __init__(self) -> None:
        self.live = None
        self.last = 0.0
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(stderr=True), transient=True, refresh_per_second=4)
            self.live.start()

    def __call__(self, solver) -> None:
        now = time.perf_counter()
        if self.live is None or now - self.last < 0.25:
            return
        self.last = now
        proved = getattr(solver, "proved_count", 0)
        disproved = getattr(solver, "disproved_count", 0)
        rate = solver.nodes / max(now - solver.started, 1e-9)
        self.live.update(
            f"solving: {solver.nodes:,} nodes ({rate:,.0f}/s), {proved:,} proven, {disproved:,} disproven, "
            f"{now - solver.started:.1f} s"
        )

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()


def _text(pos: Position, line: list[Move]) -> list[str]:
    out, q = [], pos
    for m in line:
        out.append(q.move_text(m, long=True))
        q = q.play(m)
    return out


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen")
@click.option("--goal", default="win", show_default=True, help="win, gain:N, promote or draw.")
@click.option(
    "--depth",
    type=Whole("solve_depth"),
    default=9,
    show_default=True,
    help=f"Ply bound (at most {MAX_DEPTH}).",
)
@click.option("--first", "first", default=None, metavar="MOVE", help="Prove or refute this one first move.")
@click.option("--timeout", type=Decimal("seconds"), default=None, help="Give up after SECONDS.")
@click.option("--nodes", "max_nodes", type=Whole("nodes"), default=None, help="Give up after N nodes.")
@click.option("--draw-profile", "profile", default=None, help="Draw rules for the draw goal.")
@click.option("--json", "as_json", is_flag=True, help="Print the proof as JSON.")
@click.option("--tree", is_flag=True, help="With --json: the solution tree (every defence and its answer).")
@MEMORY_OPTION
@click.option("--old", is_flag=True, help="Use the reference iterative-deepening search instead of df-pn.")
@click.option(
    "--no-tables", "no_tables", is_flag=True, help="Ignore the endgame tables stored by 'damas endgame build'."
)
def solve(
    variant: Variant,
    fen: str,
    goal: str,
    depth: int,
    first: str | None,
    timeout: float | None,
    max_nodes: int | None,
    profile: str | None,
    as_json: bool,
    tree: bool,
    old: bool,
    no_tables: bool,
) -> None:
    """Every first move that forces GOAL within DEPTH plies, against every defence (for the win
    goal, the stored endgame tables answer the positions they hold: docs/endgames.md).

    Exit status: 0 answered; 1 the --first move is refuted; 3 undecided within --timeout/--nodes.
    """
    from ..puzzles.dfpn import DfpnSolver
    from ..puzzles.search import Budget, BudgetExceeded, Solver

    stip, game = _read_problem(variant, fen, goal, profile)
    if tree and not as_json:
        raise click.UsageError("--tree goes with --json")
    if tree and (old or stip.goal == "draw"):
        raise click.UsageError("--tree needs the df-pn search (not --old, not the draw goal)")
    if depth > WARN_DEPTH and timeout is None and max_nodes is None:
        click.echo(f"damas solve: warning: depth {depth} may take very long; consider --timeout", err=True)
    pos = game.position
    key = pos.parse_move(first) if first is not None else None
    budget = Budget(nodes=max_nodes, seconds=timeout)
    search = Solver if old or stip.goal == "draw" else DfpnSolver
    solver = search(variant, game.profile, budget, endgame=not no_tables)
    meter = _Meter()
    solver.progress = meter
    try:
        if key is not None:
            code = _one_key(solver, pos, game, stip, key, depth, as_json, tree)
        else:
            code = _all_keys(solver, pos, game, stip, depth, as_json, tree)
    except BudgetExceeded as exc:
        meter.stop()
        click.echo(f"undecided: {exc} after {exc.seconds:.1f} s", err=True)
        if as_json:
            click.echo(json.dumps({"fen": pos.fen(), "goal": str(stip), "depth": depth, "undecided": True}))
        sys.exit(EXIT_UNDECIDED)
    except KeyboardInterrupt:
        meter.stop()
        click.echo(f"interrupted after {solver.nodes:,} nodes", err=True)
        sys.exit(EXIT_INTERRUPTED)
    meter.stop()
    if code:
        sys.exit(code)


def _read_problem(variant: Variant, fen: str, goal: str, profile: str | None) -> tuple[Stipulation, Game]:
    """The goal and the game, a bad goal or draw profile named by its own option."""
    from ..puzzles.search import Stipulation

    try:
        stip = Stipulation.parse(goal)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--goal'") from None
    try:
        return stip, Game(variant, fen, profile=profile)
    except DamasError:
        raise
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--draw-profile'") from None


def _one_key(solver, pos, game, stip, key, depth, as_json, tree) -> int:
    from ..puzzles.search import SEARCH_VERSION
    from ..puzzles.tree import solution_tree

    started = time.perf_counter()
    solver.prepare(pos, stip)
    ok = solver.move_forces(game, key, depth)
    line = solver.main_line(pos, key, depth) if ok else solver.refute(pos, key, depth)
    seconds = time.perf_counter() - started
    move = pos.move_text(key, long=True)
    if as_json:
        payload = {
            "variant": pos.variant.name,
            "fen": pos.fen(),
            "goal": str(stip),
            "depth": depth,
            "move": move,
            "forces": ok,
            "line": _text(pos, line),
            "nodes": solver.nodes,
            "seconds": round(seconds, 4),
            "search_version": SEARCH_VERSION,
        }
        if tree:
            t = solution_tree(solver, pos, depth, [key] if ok else [], [] if ok else [key])
            payload["tree"] = t.to_json()
        click.echo(json.dumps(payload, ensure_ascii=False))
    elif ok:
        click.echo(f"{move}: forces {stip} within {depth} plies; main line: {' '.join(_text(pos, line))}")
    else:
        click.echo(f"{move}: refuted; the defence escapes: {' '.join(_text(pos, line))}")
    click.echo(f"proof: depth {depth}, {solver.nodes} nodes, {seconds * 1000:.0f} ms", err=True)
    return 0 if ok else EXIT_CONTENT


def _all_keys(solver, pos, game, stip, depth, as_json, tree) -> int:
    from ..puzzles.search import SEARCH_VERSION
    from ..puzzles.tree import solution_tree

    proof = solver.solve(pos, stip, depth, game)
    lines = {m: solver.main_line(pos, m, proof.shortest[m]) for m in proof.solutions}
    if as_json:
        payload = {
            "variant": pos.variant.name,
            "fen": pos.fen(),
            "goal": str(stip),
            "depth": depth,
            "solutions": [
                {"move": pos.move_text(m, long=True), "plies": len(lines[m]), "line": _text(pos, lines[m])}
                for m in proof.solutions
            ],
            "nodes": proof.nodes,
            "seconds": round(proof.seconds, 4),
            "search_version": SEARCH_VERSION,
        }
        if tree:
            failing = [m for m in pos.legal_moves() if m not in proof.solutions]
            payload["tree"] = solution_tree(solver, pos, depth, proof.solutions, failing).to_json()
        click.echo(json.dumps(payload, ensure_ascii=False))
        return 0
    if not proof.solutions:
        click.echo(f"no move forces {stip} within {depth} plies")
    for m in proof.solutions:
        line = _text(pos, lines[m])
        click.echo(f"{pos.move_text(m, long=True)}: forces {stip}; main line ({len(line)} plies): {' '.join(line)}")
    click.echo(f"proof: depth {depth}, {proof.nodes} nodes, {proof.seconds * 1000:.0f} ms", err=True)
    return 0
