"""Click parameter types shared by the command modules."""

from __future__ import annotations

import click

from .rules import DamasError, Variant, get_variant


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
