"""``damas play``: the built-in engine's move, score and expected line in a position ("what would a
player do here")."""

from __future__ import annotations

import json

import click

from ..limits import RANGES
from ..rules import Variant
from ..rules.notation import line_text
from .app import EXIT_CONTENT
from .common import MEMORY_OPTION, RULE_OPTION, VARIANT, Whole, position_arg, with_rules

MAX_PLAY_DEPTH = RANGES["play_depth"][1]


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen", required=False)
@click.option(
    "--depth",
    type=Whole("play_depth"),
    default=6,
    show_default=True,
    help=f"Search depth in plies (captures are played out past it; at most {MAX_PLAY_DEPTH}).",
)
@click.option(
    "--seed", type=Whole("seed"), default=None, help="Vary the choice between near-equal moves (same seed, same move)."
)
@MEMORY_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print move, score, line as JSON.")
@click.option(
    "--no-tables", "no_tables", is_flag=True, help="Ignore the endgame tables stored by 'damas endgame build'."
)
@RULE_OPTION
def play(
    variant: Variant,
    fen: str | None,
    depth: int,
    seed: int | None,
    as_json: bool,
    no_tables: bool,
    rules: tuple[str, ...],
) -> None:
    """The engine's move in FEN (default: the start position), its score for the side to move and
    the line it expects.

    The score is in men (+1.00: a man up for the side to move), or "win in N plies" when the
    search sees a forced end.  Positions the stored endgame tables hold (docs/endgames.md) are
    answered from them: a move that keeps the exact result, the fastest win or the slowest loss.
    Exit status 1 when the side to move has no legal move.
    """
    from ..puzzles.engine import Engine, score_text

    variant = with_rules(variant, rules)
    pos = position_arg(variant, fen)
    result = Engine(variant, seed=seed, endgame=not no_tables).search(pos, depth)
    if result.move is None:
        click.echo("no legal move: the game is over", err=True)
        raise SystemExit(EXIT_CONTENT)
    move = pos.move_text(result.move, long=True)
    line = line_text(pos, result.pv)
    if as_json:
        doc = {
            "move": move,
            "score": result.score,
            "score_text": score_text(result),
            "pv": line.split(),
            "depth": result.depth,
            "nodes": result.nodes,
            "tables": result.tables,
        }
        click.echo(json.dumps(doc))
        return
    click.echo(move)
    how = "endgame tables" if result.tables else f"depth {result.depth}, {result.nodes:,} nodes"
    click.echo(f"score: {score_text(result)} ({how})")
    click.echo(f"line: {line}")
