"""``damas render``: one diagram to an SVG, PNG or PDF file.

The command is registered in :mod:`generator.cli`, whose ``main()`` turns a
:class:`~generator.rules.DamasError` into one line on stderr with exit 1 and a usage error into exit 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import DamasError
from ..render.export import ExportError, export, export_format
from ..render.svg import THEMES, diagram, move_overlay
from ..rules import BLACK, WHITE, Position, get_variant
from .common import Whole


def _variant(ctx: click.Context, param: click.Parameter, value: str):
    try:
        return get_variant(value)
    except DamasError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def _output(ctx: click.Context, param: click.Parameter, value: str) -> Path:
    try:
        export_format(value)
    except ExportError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return Path(value)


@click.command(name="render")
@click.argument("variant", callback=_variant, metavar="VARIANT")
@click.argument("fen", metavar="FEN")
@click.option(
    "-o",
    "--output",
    required=True,
    callback=_output,
    metavar="FILE",
    help="File to write: .svg, .png (800 px wide) or .pdf.",
)
@click.option(
    "--arrow",
    "arrows",
    multiple=True,
    metavar="MOVE",
    help="Show a legal move: a quiet move as an arrow, a capture as its route with the captured "
    "pieces marked. Repeatable (at most one capture).",
)
@click.option("--flip", is_flag=True, help="Black at the bottom.")
@click.option(
    "--numbers/--no-numbers",
    default=None,
    help="Square numbers on the playing squares (default: on for numeric notation).",
)
@click.option(
    "--coordinates/--no-coordinates",
    default=None,
    help="Letters and numbers on the edges (default: on for algebraic notation).",
)
@click.option("--theme", type=click.Choice(sorted(THEMES)), default="classic", show_default=True)
@click.option("--size", type=Whole("image_size"), default=None, metavar="N", help="Width in pixels.")
@click.option(
    "--lang",
    type=click.Choice(["pt", "en"]),
    default="pt",
    show_default=True,
    help="Language of the title and description.",
)
def render(
    variant,
    fen: str,
    output: Path,
    arrows: tuple[str, ...],
    flip: bool,
    numbers: bool | None,
    coordinates: bool | None,
    theme: str,
    size: int | None,
    lang: str,
) -> None:
    """Draw one diagram of a position (FEN, or 'start') into FILE.

    \b
    Example:
      damas render american W:W27,30:B15,23 --arrow 27x18x11 -o d.png
    """
    pos = Position.from_fen(variant, fen)
    overlay: dict[str, Any] = {"arrows": ()}
    legal = pos.legal_moves()
    for text in arrows:
        move = pos.parse_move(text, legal)
        shown: dict[str, Any] = move_overlay(pos, move)
        if "route" in shown:
            if "route" in overlay:
                raise click.BadParameter("only one capture can be shown per diagram", param_hint="'--arrow'")
            overlay["route"] = shown["route"]
            overlay["captured"] = shown["captured"]
        else:
            overlay["arrows"] = (*overlay["arrows"], *shown["arrows"])
    svg = diagram(
        pos,
        orientation=BLACK if flip else WHITE,
        numbers=numbers,
        coordinates=coordinates,
        theme=theme,
        size=size,
        lang=lang,
        **overlay,
    )
    export(svg, output, width=size)
