"""The ``damas`` command line (contract in design.md).

Bad input never produces a traceback: usage mistakes (unknown variant, bad option) print one line
and exit 2; bad content (a FEN that cannot be a position, an illegal move) prints one line and
exits 1.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence

import click

from .cli_pdn import pdn
from .clitypes import VARIANT
from .render.cli_render import render
from .rules import VARIANTS, DamasError, Position, Variant
from .rules.draws import PROFILES
from .rules.game import Game
from .rules.perft import divide, perft

EXIT_CONTENT = 1
EXIT_USAGE = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="damas", prog_name="damas")
def cli() -> None:
    """damas: verified draughts lessons, diagrams, rule pages and puzzle books."""


def _position(variant: Variant, fen: str | None) -> Position:
    return Position.from_fen(variant, fen or "start")


def _with_rules(variant: Variant, switches: Sequence[str]) -> Variant:
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


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the parameters as JSON.")
def variants(as_json: bool) -> None:
    """List the variants with their rule parameters."""
    rows = [_variant_summary(v) for v in VARIANTS.values()]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for row in rows:
        click.echo(f"{row['name']:<14} {row['title_en']}")
        for key in ("board", "first", "men", "kings", "precedence", "capture_promotion", "goal", "draws"):
            click.echo(f"  {key.replace('_', ' '):<18} {row[key]}")
        if row["aliases"]:
            click.echo(f"  {'aliases':<18} {', '.join(row['aliases'])}")
        click.echo(f"  {'PDN GameType':<18} {row['gametype']}")


def _variant_summary(v: Variant) -> dict[str, object]:
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
        "start": v.start().fen(),
    }


@cli.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen", required=False, default="start")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of moves.")
@click.option("--long", "long_form", is_flag=True, help="Write every landing square of a capture.")
@RULE_OPTION
def moves(variant: Variant, fen: str, as_json: bool, long_form: bool, rules: tuple[str, ...]) -> None:
    """Legal moves of a position (FEN, or 'start'), one per line."""
    pos = _position(_with_rules(variant, rules), fen)
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


@cli.command(name="perft")
@click.argument("variant", type=VARIANT)
@click.argument("depth", type=click.IntRange(min=0, max=64))
@click.option("--fen", default="start", help="Start from this position instead of the initial one.")
@click.option("--divide", "split", is_flag=True, help="Also print the count below each first move.")
@click.option("--all-paths", is_flag=True, help="Count every capture route as its own move.")
@RULE_OPTION
def perft_command(variant: Variant, depth: int, fen: str, split: bool, all_paths: bool, rules: tuple[str, ...]) -> None:
    """Count leaf positions DEPTH plies deep; the last line is the number."""
    pos = _position(_with_rules(variant, rules), fen)
    started = time.process_time()
    if split and depth >= 1:
        legal = pos.legal_moves()
        total = 0
        for m, n in divide(pos, depth, all_paths=all_paths):
            click.echo(f"{pos.move_text(m, legal=legal)}: {n}")
            total += n
    else:
        total = perft(pos, depth, all_paths=all_paths)
    seconds = time.process_time() - started
    click.echo(f"{variant.name} perft {depth}: {seconds:.2f} s CPU", err=True)
    click.echo(str(total))


@cli.command()
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
    variant = _with_rules(variant, rules)
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


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(paths: tuple[str, ...], as_json: bool) -> None:
    """Verify every claim of the lessons under PATHS (default: lessons/)."""
    from .lessons.check import check_paths

    started = time.perf_counter()
    report = check_paths(paths or ("lessons",))
    seconds = time.perf_counter() - started
    counts = report.counts()
    if as_json:
        payload = {"ok": report.ok, "counts": counts, "errors": [e.as_dict() for e in report.errors]}
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        for error in report.errors:
            click.echo(str(error))
        summary = (
            f"{counts['files']} file(s), {counts['lessons']} lesson(s), {counts['diagrams']} diagram(s), "
            f"{counts['claims']} claim(s), {counts['puzzles']} puzzle(s) checked in {seconds:.2f} s"
        )
        if report.ok:
            click.echo(f"ok: {summary}")
        else:
            n, files = len(report.errors), len(report.failed_files())
            click.echo(f"{n} error(s) in {files} file(s); {summary}")
    if not report.ok:
        raise SystemExit(EXIT_CONTENT)


@cli.command()
@click.argument("variant", type=VARIANT)
@click.argument("fen")
@click.option("--goal", default="win", show_default=True, help="win, gain:N, promote or draw.")
@click.option("--depth", type=click.IntRange(min=1, max=40), default=9, show_default=True, help="Ply bound.")
@click.option("--draw-profile", "profile", default=None, help="Draw rules for the draw goal.")
@click.option("--json", "as_json", is_flag=True, help="Print the proof as JSON.")
def solve(variant: Variant, fen: str, goal: str, depth: int, profile: str | None, as_json: bool) -> None:
    """Every first move that forces GOAL within DEPTH plies, against every defence."""
    from .rules.search import SEARCH_VERSION, Solver, Stipulation

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


@cli.command()
def schema() -> None:
    """Print the JSON Schema of lesson files (for editors: yaml-language-server)."""
    from .lessons.schema import schema_text

    click.echo(schema_text().rstrip())


@cli.command()
@click.option("--out", "out", default="output", show_default=True, type=click.Path(), help="Where to build.")
@click.option("--variant", "variant_names", multiple=True, type=VARIANT, help="Only these variants (repeatable).")
@click.option("--format", "formats", default="html,pdf", show_default=True, help="Comma-separated: html, pdf.")
@click.option(
    "--lessons", "lessons_dir", default="lessons", show_default=True, type=click.Path(), help="Lesson folder."
)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="PDF processes (default 1).")
@click.option(
    "--clean", is_flag=True, help="Compile every PDF again (default: reuse those whose inputs are unchanged)."
)
def build(
    out: str, variant_names: tuple[Variant, ...], formats: str, lessons_dir: str, jobs: int | None, clean: bool
) -> None:
    """Check the lessons, then build HTML pages and PDFs into OUT."""
    from .build import FORMATS, BuildRefused
    from .build import build as run_build

    chosen = [f.strip() for f in formats.split(",") if f.strip()]
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise click.BadParameter(f"formats are {', '.join(FORMATS)}; got '{formats}'", param_hint="'--format'")
    with _progress() as progress:
        try:
            summary = run_build(
                out,
                lessons=[lessons_dir],
                variants=[v.name for v in variant_names],
                formats=chosen,
                progress=progress,
                jobs=jobs,
                incremental=not clean,
            )
        except BuildRefused as exc:
            for error in exc.report.errors:
                click.echo(str(error), err=True)
            raise
    click.echo(str(summary))


class _progress:
    """A rich progress bar on stderr when it is a terminal; silent otherwise (CI logs, pipes)."""

    def __enter__(self):  # type: ignore[no-untyped-def]
        self.bar = None
        if sys.stderr.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.tasks: dict[str, int] = {}
        return self.update

    def update(self, stage: str, done: int, total: int) -> None:
        if self.bar is None:
            return
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(stage, total=total)
        self.bar.update(self.tasks[stage], completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run the command, turning every expected error into one line and an exit code."""
    try:
        code = cli.main(args=list(argv) if argv is not None else None, prog_name="damas", standalone_mode=False)
    except click.exceptions.Exit as exc:  # --help, --version
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("damas: aborted", err=True)
        return EXIT_CONTENT
    except click.UsageError as exc:
        ctx = exc.ctx
        where = f"{ctx.command_path}: " if ctx is not None else "damas: "
        click.echo(f"{where}{exc.format_message()} (see --help)", err=True)
        return EXIT_USAGE
    except DamasError as exc:
        click.echo(f"damas: {exc}", err=True)
        return EXIT_CONTENT
    except BrokenPipeError:
        return 0
    except SystemExit as exc:  # commands exit with a code after printing their own report
        return int(exc.code or 0)
    return code if isinstance(code, int) else 0  # ctx.exit(n) inside a command returns n here


cli.add_command(render)
cli.add_command(pdn)

if __name__ == "__main__":
    sys.exit(main())
