"""Engine commands: ``damas variants``, ``moves``, ``perft`` and ``game``."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from ..errors import DamasError
from ..limits import limit, raise_hint
from ..rules import VARIANTS, Position, Variant
from ..rules.core import active_core
from ..rules.draws import PROFILES
from ..rules.game import Game
from ..rules.move import Move
from ..rules.perft import estimate, first_moves, perft
from .app import Progress
from .common import RULE_OPTION, VARIANT, Whole, position_arg, with_rules


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the parameters as JSON.")
def variants(as_json: bool) -> None:
    """List the variants with their rule parameters (and which engine core runs)."""
    rows = [_variant_summary(v) for v in VARIANTS.values()]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    click.echo(f"core: {active_core()}")
    for row in rows:
        click.echo(f"{row['name']:<14} {row['title_en']}")
        for key in ("board", "first", "men", "kings", "precedence", "capture_promotion", "goal", "draws"):
            click.echo(f"  {key.replace('_', ' '):<18} {row[key]}")
        if row["aliases"]:
            click.echo(f"  {'aliases':<18} {', '.join(row['aliases'])}")
        click.echo(f"  {'PDN GameType':<18} {row['gametype']}")


def _variant_summary(v: Variant) -> dict[str, Any]:
    g = v.geometry
    lines = "orthogonal" if g.orthogonal else "diagonal"
    return {
        "name": v.name,
        "aliases": list(v.aliases),
        "title": v.title,
        "title_en": v.title_en,
        "board": f"{g.width}x{g.height} {g.layout.value}, {lines}, {len(g.squares)} squares, "
        f"notation {g.numbering.value}",
        "first": "white" if v.first_to_move == 0 else "black",
        "men": "capture "
        + ("backward too" if v.men_capture_backward else "forward (and sideways)" if g.orthogonal else "forward only")
        + ("" if v.men_capture_kings else "; may not capture kings"),
        "kings": "flying" if v.flying_kings else "one square",
        "removal": v.removal.value,
        "precedence": v.precedence.value,
        "capture_promotion": v.capture_promotion.value,
        "goal": v.goal.value,
        "gametype": v.gametype,
        "draws": ", ".join(f"{name} ({' '.join(PROFILES[name].rule_ids)})" for name in v.draw_profiles)
        + " (first is the default)",
        "start": Position.start(v).fen(),
    }


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen", required=False, default="start")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of moves.")
@click.option("--long", "long_form", is_flag=True, help="Write every landing square of a capture.")
@RULE_OPTION
def moves(variant: Variant, fen: str, as_json: bool, long_form: bool, rules: tuple[str, ...]) -> None:
    """Legal moves of a position (FEN, or 'start'), one per line."""
    pos = position_arg(with_rules(variant, rules), fen)
    legal = pos.legal_moves()
    g = variant.geometry
    if as_json:
        data = [
            {
                "move": pos.move_text(m, long=long_form, legal=legal),
                "from": g.name(m.origin),
                "to": g.name(m.dest),
                "path": [g.name(s) for s in m.path],
                "captures": [g.name(s) for s in m.captured],
            }
            for m in legal
        ]
        click.echo(json.dumps(data))
        return
    for m in legal:
        click.echo(pos.move_text(m, long=long_form, legal=legal))


@click.command(name="perft")
@click.argument("variant", type=VARIANT)
@click.argument("depth", type=Whole("perft_depth"))
@click.option("--fen", default="start", help="Start from this position instead of the initial one.")
@click.option("--divide", "split", is_flag=True, help="Also print the count below each first move.")
@click.option("--all-paths", is_flag=True, help="Count every capture route as its own move.")
@click.option(
    "--force", is_flag=True, help="Run a count estimated to take more than a few minutes (see docs/limits.md)."
)
@RULE_OPTION
def perft_command(
    variant: Variant, depth: int, fen: str, split: bool, all_paths: bool, force: bool, rules: tuple[str, ...]
) -> None:
    """Count leaf positions DEPTH plies deep; the last line is the number.  Ctrl-C stops it (exit 130).

    The first plies are counted and timed first; a count estimated to take more than a few minutes
    is refused (saying the estimate) unless --force is given, and then shows its progress on a terminal.
    """
    pos = position_arg(with_rules(variant, rules), fen)
    started = time.process_time()
    guess, total = estimate(pos, depth, all_paths=all_paths)
    most = limit("perft_seconds")
    if guess.at(depth) > most and not force:
        raise click.BadParameter(
            f"depth {depth} from this position would take about {_duration(guess.at(depth))} (depth {guess.depth}: "
            f"{guess.leaves:,} leaves in {guess.seconds:.2f} s, x{guess.growth:.1f} a ply; more than {most} s "
            f"{raise_hint('perft_seconds')}); add --force to run it",
            param_hint="'DEPTH'",
        )
    if split and depth >= 1:
        first = first_moves(pos, all_paths=all_paths)
        legal = pos.legal_moves()
        counts = _count_by_first_move(pos, depth, all_paths, first)
        for m, n in zip(first, counts, strict=True):
            click.echo(f"{pos.move_text(m, legal=legal)}: {n}")
        total = sum(counts)
    elif total is None:
        total = sum(_count_by_first_move(pos, depth, all_paths)) if force else perft(pos, depth, all_paths=all_paths)
    seconds = time.process_time() - started
    click.echo(f"{variant.name} perft {depth}: {seconds:.2f} s CPU", err=True)
    click.echo(str(total))


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _count_by_first_move(pos: Position, depth: int, all_paths: bool, first: list[Move] | None = None) -> list[int]:
    """perft split by first move, counted in parts with a progress bar on a terminal (one part per
    position after one ply, or after two when one ply gives fewer than 32)."""
    if depth < 1:
        return [perft(pos, depth, all_paths=all_paths)]
    first = first_moves(pos, all_paths=all_paths) if first is None else first
    parts = [(i, pos.play(m)) for i, m in enumerate(first)]
    rest = depth - 1
    if rest >= 3 and len(parts) < 32:
        parts = [(i, p.play(m)) for i, p in parts for m in first_moves(p, all_paths=all_paths)]
        rest -= 1
    counts = [0] * len(first)
    with Progress() as progress:
        for done, (i, p) in enumerate(parts, start=1):
            counts[i] += perft(p, rest, all_paths=all_paths)
            progress(f"perft {depth}", done, len(parts))
    return counts


@click.command()
@click.argument("variant", type=VARIANT)
@click.argument("moves_text", nargs=-1, metavar="MOVE...")
@click.option("--fen", default="start", help="Start position; may carry counters (:H79, see docs/rules.md).")
@click.option("--draw-profile", "profile", default=None, help="Draw rules by name (default: the variant's).")
@click.option("--no-draw-rule", "disabled", multiple=True, metavar="ID", help="Switch one draw rule off.")
@click.option("--long", "long_form", is_flag=True, help="Echo the moves with every landing square.")
@RULE_OPTION
def game(
    variant: Variant,
    moves_text: tuple[str, ...],
    fen: str,
    profile: str | None,
    disabled: tuple[str, ...],
    long_form: bool,
    rules: tuple[str, ...],
) -> None:
    """Play MOVE... from a position; print the final FEN and one status line."""
    variant = with_rules(variant, rules)
    try:
        g = Game(variant, fen, profile=profile, disabled=disabled)
    except DamasError:
        raise  # bad FEN: content, exit 1
    except ValueError as exc:  # an unknown profile or rule id is a usage mistake
        raise click.BadParameter(str(exc), param_hint="'--draw-profile' / '--no-draw-rule'") from None
    for i, text in enumerate(moves_text, start=1):
        try:
            g.play(text)
        except DamasError as exc:
            raise type(exc)(f"move {i} ({text}): {exc}") from None
    click.echo(g.fen())
    click.echo(str(g.status()))
