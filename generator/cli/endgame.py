"""``damas endgame build|probe|info``: the endgame tables (docs/endgames.md)."""

from __future__ import annotations

import json

import click

from ..limits import RANGES
from ..rules import Variant
from ..rules.notation import line_text
from .app import Progress
from .common import RULE_OPTION, VARIANT, Whole, with_rules

MAX_BUILD_PIECES = RANGES["endgame_pieces"][1]


@click.group(name="endgame")
def endgame() -> None:
    """Endgame tables: the exact result of every position of a few pieces (docs/endgames.md)."""


@endgame.command("build")
@click.argument("variant", type=VARIANT)
@click.option(
    "--pieces",
    type=Whole("endgame_pieces"),
    required=True,
    help="Build every slice of 1 to N pieces (the stored ones are kept).",
)
@click.option("--pure", is_flag=True, help="Use the pure-Python reference solver (slow; for small slices).")
@click.option(
    "--no-derive",
    "no_derive",
    is_flag=True,
    help="Solve every slice, also those that could be copied from their stored colour-swapped twin (benches).",
)
@click.option(
    "--jobs",
    type=Whole("jobs"),
    default=None,
    help="Processes solving slices that do not need each other at the same time (default: every CPU; "
    "a large slice waits while it would not fit in the free memory beside the others).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record per slice.")
@RULE_OPTION
def build_cmd(
    variant: Variant,
    pieces: int,
    pure: bool,
    no_derive: bool,
    jobs: int | None,
    as_json: bool,
    rules: tuple[str, ...],
) -> None:
    """Solve every position of up to N pieces of VARIANT into the user cache, slice by slice.

    A killed build keeps every slice it finished; the next build goes on from there.  A slice whose
    colour-swapped twin is stored is copied from it (the board turned half a turn) instead of solved.
    """
    from ..cpus import usable_cpus
    from ..endgame.parallel import build
    from ..endgame.tables import Tables

    variant = with_rules(variant, rules)
    with Progress() as progress:
        tables = Tables(variant, progress=progress, pure=pure, derive=not no_derive)
        reports = build(tables, pieces, min(jobs or usable_cpus(), usable_cpus()))
    for r in reports:
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "slice": r.material.name,
                        "positions": r.positions,
                        "seconds": round(r.seconds, 3),
                        "bytes": r.bytes_on_disk,
                        "levels": r.levels,
                        "built": r.built,
                        "derived_from": r.derived_from or None,
                    }
                )
            )
        else:
            click.echo(
                f"{r.material.name:12} {r.positions:>12,} positions {r.seconds:8.2f} s {r.bytes_on_disk:>12,} bytes"
                + ("" if r.built else " (stored)")
                + (f" (derived from {r.derived_from})" if r.derived_from else "")
            )
    if not as_json:
        click.echo(f"{variant.name}: {len(reports)} slices in {tables.folder}")


@endgame.command("probe")
@click.argument("variant", type=VARIANT)
@click.argument("fen")
@click.option("--json", "as_json", is_flag=True, help="Print result, distance and moves as JSON.")
@RULE_OPTION
def probe_cmd(variant: Variant, fen: str, as_json: bool, rules: tuple[str, ...]) -> None:
    """The result of FEN for the side to move, the distance to the end of the game in plies, and
    every move that keeps the best result (building the slices it needs)."""
    from ..endgame.claims import claim_limit
    from ..endgame.material import material_of
    from ..endgame.probe import probe_position
    from ..endgame.tables import EndgameError, Tables
    from ..rules import Position

    variant = with_rules(variant, rules)
    pos = Position.from_fen(variant, fen)
    with Progress() as progress:
        tables = Tables(variant, progress=progress)
        pieces = (pos.white | pos.black).bit_count()
        material = material_of(pos.white, pos.black, pos.kings)
        if pieces > MAX_BUILD_PIECES:
            raise EndgameError(f"{pieces} pieces: the tables go up to {MAX_BUILD_PIECES}")
        if pieces > claim_limit(tables) and not tables.is_stored(material):
            # Building on demand stops where a laptop builds in minutes; more is asked for explicitly.
            raise EndgameError(
                f"{pieces} pieces: build the tables first (damas endgame build {variant.name} --pieces {pieces})"
            )
        probe = probe_position(tables, pos)
        line = probe.line(tables)
    best = [pos.move_text(m, long=True) for m in probe.best]
    if as_json:
        doc = {
            "fen": pos.fen(),
            "result": probe.value.result,
            "plies": probe.value.plies,
            "moves_to_end": probe.value.moves,
            "best": best,
            "moves": {pos.move_text(m, long=True): {"result": v.result, "plies": v.plies} for m, v in probe.moves},
            "line": line_text(pos, line).split() if line else [],
        }
        click.echo(json.dumps(doc))
        return
    click.echo(probe.value.text())
    click.echo("best: " + (" ".join(best) if best else "(no legal move)"))
    for m, v in probe.moves:
        click.echo(f"  {pos.move_text(m, long=True):12} {v.text()}")
    if line:
        click.echo("line: " + line_text(pos, line))


@endgame.command("info")
@click.argument("variant", type=VARIANT)
@click.option("--json", "as_json", is_flag=True, help="One JSON record per stored slice.")
@RULE_OPTION
def info_cmd(variant: Variant, as_json: bool, rules: tuple[str, ...]) -> None:
    """The slices of VARIANT stored in the cache: positions, results, longest distance, time, size."""
    from ..endgame.material import materials_up_to
    from ..endgame.store import read_meta
    from ..endgame.tables import Tables

    variant = with_rules(variant, rules)
    tables = Tables(variant)
    found = 0
    for m in materials_up_to(MAX_BUILD_PIECES):
        meta = read_meta(tables.folder, m)
        if meta is None:
            continue
        found += 1
        if as_json:
            click.echo(json.dumps(meta, sort_keys=True))
            continue
        click.echo(
            f"{m.name:12} {2 * meta['size']:>12,} positions  longest {meta.get('longest', 0):>4} plies  "
            f"{meta.get('seconds', 0):8.2f} s {meta.get('bytes_on_disk', 0):>12,} bytes"
            + (f"  derived from {meta['derived_from']}" if meta.get("derived_from") else "")
        )
    if not as_json:
        click.echo(f"{variant.name}: {found} slices stored in {tables.folder}")
