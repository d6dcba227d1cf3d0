"""Commands start at once: an engine command never imports the course, rendering or PDF machinery.

Each command's module is imported only when it runs (``generator/cli/app.py``, ``COMMANDS``).  The
costs themselves are measured in ``bench/startup.py``, not here; these tests pin what makes them
small: which modules a fresh interpreter has loaded after running the command.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from generator.cli import cli
from generator.cli.app import COMMANDS

HEAVY = ("jinja2", "jsonschema", "typst", "markdown_it", "cairosvg", "babel", "rich", "watchfiles", "distributed")
"""Third-party packages an engine command has no use for."""
HEAVY_OURS = ("generator.render", "generator.build", "generator.course", "generator.lessons.schema", "generator.cache")
"""Our own modules above the engine that an engine command has no use for."""

BOARD_TEXT = "- b - b - b - b\n" + ". - . - . - . -\n- . - . - . - .\n" * 3 + "w - w - w - w -\n"
"""An American board drawn as text (``damas fen`` reads it from stdin): four men a side."""

ENGINE_COMMANDS = [
    (["--version"], ""),
    (["variants"], ""),
    (["moves", "american", "start"], ""),
    (["moves", "international", "start", "--json"], ""),
    (["board", "brazilian", "start"], ""),
    (["fen", "american", "--turn", "white"], BOARD_TEXT),
    (["game", "american", "11-15", "22-18"], ""),
    (["perft", "russian", "3"], ""),
]

CHILD = """
import contextlib, io, json, sys
from generator.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _run_fresh(args: list[str], stdin: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize(("args", "stdin"), ENGINE_COMMANDS, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_engine_command_imports_nothing_heavy(args: list[str], stdin: str) -> None:
    result = _run_fresh(args, stdin)
    assert result["code"] == 0
    assert result["out"], "the command printed nothing: it did not run"
    modules = result["modules"]
    assert isinstance(modules, list) and "generator.cli.app" in modules
    heavy = [m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY_OURS)]
    assert heavy == [], f"damas {' '.join(args)} imported {heavy}"


def test_every_listed_command_loads_under_its_name() -> None:
    assert len(COMMANDS) >= 16
    ctx = click.Context(cli)
    assert cli.list_commands(ctx)[: len(COMMANDS)] == list(COMMANDS)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command), name
        assert command.name == name, f"{COMMANDS[name]} is named {command.name!r}, listed as {name!r}"


def test_help_lists_every_command() -> None:
    result = _run_fresh(["--help"], "")
    assert result["code"] == 0
    listed = {line.split()[0] for line in str(result["out"]).split("Commands:")[1].splitlines() if line.strip()}
    assert listed == set(COMMANDS)
