"""``damas pdn``: PDN game files from the command line.

``damas pdn check FILE...`` replays every game of every file with the rules engine.  Each problem
goes to stderr as ``path:line:col: message`` (warnings as ``path:line:col: warning: message``), and
each game gets one stdout line ``path: game N (White - Black): <final status>, <n> moves``.  Exit 0
when no file has an error (warnings allowed, unless ``--strict``), 1 when one has, 2 for usage
mistakes (a missing file, an unknown variant or draw profile).

The group is registered in :mod:`generator.cli`; it only lets :class:`~generator.errors.DamasError`
and click exceptions escape.  A failed check ends by raising :class:`PdnCheckFailed` (a DamasError),
so that ``main()`` prints one summary line (``damas: pdn check: 1 error in 1 of 2 files``) and exits 1.
"""

from __future__ import annotations

import click

from ..errors import DamasError
from ..folders import each_file_once
from ..inputfile import InputFileError, read_pieces
from ..limits import limit, raise_hint
from ..rules.draws import PROFILES
from ..rules.pdn import iter_pdn, replay
from ..rules.variants import VARIANTS, Variant
from ..terminal import printable
from .common import VARIANT


class PdnCheckFailed(DamasError):
    """Some checked file had errors (each was already printed)."""


@click.group(name="pdn")
def pdn() -> None:
    """Read and check PDN game files (Portable Draughts Notation)."""


@pdn.command(name="check")
@click.argument(
    "files",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, readable=False),
)
@click.option(
    "--variant",
    type=VARIANT,
    default="international",
    show_default=True,
    help=f"Rules for games with neither a Variant nor a GameType tag ({', '.join(VARIANTS)}).",
)
@click.option(
    "--draw-profile",
    "profile",
    default=None,
    metavar="NAME",
    help=f"Draw rules by name (default: each variant's own; one of {', '.join(PROFILES)}).",
)
@click.option("--no-draw-rule", "disabled", multiple=True, metavar="ID", help="Switch one draw rule off.")
@click.option("--strict", is_flag=True, help="Treat warnings (result mismatch, move numbers) as errors.")
def check(
    files: tuple[str, ...],
    variant: Variant,
    profile: str | None,
    disabled: tuple[str, ...],
    strict: bool,
) -> None:
    """Replay every game of FILE... and report illegal or ambiguous moves and wrong results."""
    if profile is not None and profile not in PROFILES:
        raise click.BadParameter(
            f"unknown draw profile '{profile}' (known: {', '.join(PROFILES)})", param_hint="'--draw-profile'"
        )
    errors = 0
    bad_files = set()
    files = tuple(each_file_once(files))  # one file named twice (by any path) is checked once
    for path in files:
        found = _check_file(path, variant, profile, disabled, strict)
        errors += found
        if found:
            bad_files.add(path)
    if errors:
        raise PdnCheckFailed(
            f"pdn check: {errors} error{'' if errors == 1 else 's'} in {len(bad_files)} of {len(files)} "
            f"file{'' if len(files) == 1 else 's'}"
        )


def _check_file(path: str, variant: Variant, profile: str | None, disabled: tuple[str, ...], strict: bool) -> int:
    """Replay each game of one file as it is read (memory holds one game, not the file); the
    number of errors, each printed."""
    errors = games = 0
    pieces = read_pieces(path, "pdn_file_bytes")
    try:
        most, hint = limit("pdn_game_chars"), raise_hint("pdn_game_chars")
        for game in iter_pdn(pieces, variant, str(path), max_game_chars=most, hint=hint):
            games += 1
            try:
                result = replay(game, profile=profile, disabled=disabled)
            except DamasError:
                raise
            except Exception as exc:  # a bug, not bad input: still one line, never a traceback
                raise DamasError(f"{path}: {game.name}: internal error while replaying: {exc!r}") from None
            for err in result.errors:
                click.echo(printable(str(err)), err=True)
                errors += err.is_error or strict
            moves = f"{result.plies} move" + ("" if result.plies == 1 else "s")
            click.echo(printable(f"{path}: game {game.index} ({game.players}): {result.summary}, {moves}"))
    except InputFileError as exc:  # before the first piece, or at a byte that is not UTF-8
        click.echo(printable(exc.at(str(path))), err=True)
        return errors + 1
    if not games:
        click.echo(printable(f"{path}: warning: no games found"), err=True)
    return errors
