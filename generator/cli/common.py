"""Click parameter types and helpers shared by the command modules."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..errors import DamasError
from ..rules import Position, Variant, get_variant


class VariantType(click.ParamType):
    """A variant name or alias; unknown names are usage errors listing the known ones."""

    name = "variant"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Variant:
        if isinstance(value, Variant):
            return value
        try:
            return get_variant(str(value))
        except DamasError as exc:
            self.fail(str(exc), param, ctx)


VARIANT = VariantType()


def position_arg(variant: Variant, fen: str | None) -> Position:
    """The position a FEN argument names; only a missing argument means 'start' (an empty one, such
    as an unset shell variable, is an error)."""
    return Position.from_fen(variant, "start" if fen is None else fen)


def with_rules(variant: Variant, switches: Sequence[str]) -> Variant:
    for text in switches:
        try:
            variant = variant.with_rule_text(text)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--rule'") from None
    return variant


RULE_OPTION = click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="NAME=VALUE",
    help="Change one rule parameter (a profile for rules the spec marks unverified), "
    "e.g. capture_promotion=promote-and-continue. Repeatable; see 'damas variants --json'.",
)
