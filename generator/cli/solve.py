"""``damas solve``: prove which first moves force a goal."""

from __future__ import annotations

import json

import click

from ..rules import DamasError, Variant
from ..rules.game import Game
from .app import cli
from .common import VARIANT


@cli.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen")
@click.option("--goal", default="win", show_default=True, help="win, gain:N, promote or draw.")
@click.option("--depth", type=click.IntRange(min=1, max=40), default=9, show_default=True, help="Ply bound.")
@click.option("--draw-profile", "profile", default=None, help="Draw rules for the draw goal.")
@click.option("--json", "as_json", is_flag=True, help="Print the proof as JSON.")
def solve(variant: Variant, fen: str, goal: str, depth: int, profile: str | None, as_json: bool) -> None:
    """Every first move that forces GOAL within DEPTH plies, against every defence."""
    from ..puzzles.search import SEARCH_VERSION, Solver, Stipulation

    try:
        stip = Stipulation.parse(goal)
        game = Game(variant, fen, profile=profile)
    except DamasError:
        raise
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--goal' / '--draw-profile'") from None
    pos = game.position
    solver = Solver(variant, game.profile)
    proof = solver.solve(pos, stip, depth, game)
    lines = {m: solver.main_line(pos, m, proof.shortest[m]) for m in proof.solutions}

    def text(line: list) -> list[str]:  # type: ignore[type-arg]
        out, q = [], pos
        for m in line:
            out.append(q.move_text(m, long=True))
            q = q.play(m)
        return out

    if as_json:
        payload = {
            "variant": variant.name,
            "fen": pos.fen(),
            "goal": str(stip),
            "depth": depth,
            "solutions": [
                {"move": pos.move_text(m, long=True), "plies": len(lines[m]), "line": text(lines[m])}
                for m in proof.solutions
            ],
            "nodes": proof.nodes,
            "seconds": round(proof.seconds, 4),
            "search_version": SEARCH_VERSION,
        }
        click.echo(json.dumps(payload, ensure_ascii=False))
        return
    if not proof.solutions:
        click.echo(f"no move forces {stip} within {depth} plies")
    for m in proof.solutions:
        line = text(lines[m])
        click.echo(f"{pos.move_text(m, long=True)}: forces {stip}; main line ({len(line)} plies): {' '.join(line)}")
    click.echo(f"proof: depth {depth}, {proof.nodes} nodes, {proof.seconds * 1000:.0f} ms", err=True)
