"""Click parameter types and helpers shared by the command modules."""

from __future__ import annotations

import os
from collections.abc import Sequence

import click

from ..errors import DamasError
from ..limits import DEFAULTS, RANGES, NumberError, decimal, env_name, whole
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


class Whole(click.ParamType):
    """A whole number within ``generator.limits.RANGES[name]``: ASCII digits only, range-checked
    before anything uses it, so a huge, negative or non-ASCII number is one usage line (exit 2)."""

    def __init__(self, name: str) -> None:
        self.range_name = name
        self.low, self.high = RANGES[name]
        self.name = "integer"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value  # a default
        try:
            return whole(str(value), self.range_name)
        except NumberError as exc:
            self.fail(str(exc), param, ctx)


class Decimal(click.ParamType):
    """A decimal number above 0 and at most ``RANGES[name][1]`` (no exponent, nan or inf)."""

    def __init__(self, name: str) -> None:
        self.range_name = name
        self.name = "number"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float) and 0 < value <= RANGES[self.range_name][1]:
            return value
        try:
            return decimal(str(value), self.range_name)
        except NumberError as exc:
            self.fail(str(exc), param, ctx)


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


def _memory(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    """``--memory MB`` sets the ``search_memory_mb`` limit for this run, through its environment
    variable, so the worker processes a command starts (``damas mine``) inherit it."""
    if value is not None:
        os.environ[env_name("search_memory_mb")] = str(value)


MEMORY_OPTION = click.option(
    "--memory",
    type=Whole("memory_mb"),
    default=None,
    metavar="MB",
    expose_value=False,
    callback=_memory,
    help=f"Memory for each search's tables, in MB (default {DEFAULTS['search_memory_mb']}; "
    "docs/limits.md). Full tables start over: slower, never wrong.",
)
