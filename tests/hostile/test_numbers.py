"""Numbers on the command line and in lessons are range-checked before use (issue 30 item 2).

`damas solve american W:W26,31,32:B1,17,19 --goal gain:999999999999999999999` ended in a traceback
(OverflowError: the compiled prover takes N as a C long); `--timeout nan` and `--depth ٣` (an
Arabic-Indic three) were accepted.  Every numeric option of every command is driven here with huge,
negative, non-ASCII and non-finite numbers: one usage line, exit 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.cli import cli, main
from generator.cli.common import Decimal, Whole
from generator.lessons.check import check_text
from generator.limits import RANGES, NumberError, decimal, whole
from generator.puzzles.search import Stipulation

GOLPE = "W:W26,31,32:B1,17,19"


def _commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    ctx = click.Context(group)
    for name in sorted(group.list_commands(ctx)):  # the group loads a command's module on demand
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


NUMERIC = [
    (path, param)
    for path, command in _commands()
    for param in command.params
    if isinstance(param.type, (Whole, Decimal, click.types.IntParamType, click.types.FloatParamType))
]

BASE = {
    ("solve",): ["solve", "american", GOLPE],
    ("play",): ["play", "american"],
    ("perft",): ["perft", "american"],
    ("mine",): ["mine", "american", "--out", "{tmp}/out.yaml"],
    ("build",): ["build", "--out", "{tmp}/site"],
    ("serve",): ["serve", "{tmp}"],
    ("render",): ["render", "american", "start", "-o", "{tmp}/x.svg"],
    ("check",): ["check", "{tmp}"],
    ("endgame", "build"): ["endgame", "build", "american"],
    ("book", "compose"): ["book", "compose", "american", "--lessons", "{tmp}"],
    ("book", "recheck"): ["book", "recheck", __file__],  # any existing file: the number fails first
    ("worksheet",): ["worksheet", "american", "--out", "{tmp}/w.pdf"],
    ("import",): ["import", "{tmp}/none.pdn", "--variant", "american", "--out", "{tmp}/l.yaml"],
}
"""Everything a command needs besides the number under test (the number fails first: nothing runs)."""


def test_every_numeric_parameter_has_a_range() -> None:
    assert len(NUMERIC) >= 22, "solve, play, perft, mine, build, check, serve, render, worksheet, import take numbers"
    for path, param in NUMERIC:
        assert isinstance(param.type, (Whole, Decimal)), f"damas {' '.join(path)} {param.name}: no range"
        assert path in BASE, f"damas {' '.join(path)}: add its base arguments to BASE"


_NON_ASCII_DIGITS = st.text(
    alphabet=st.characters(whitelist_categories=("Nd",), blacklist_characters="0123456789"), min_size=1, max_size=6
)
BAD = st.one_of(
    st.integers(min_value=10**12 + 1, max_value=10**400).map(str),  # past every range
    st.integers(min_value=-(10**30), max_value=-1).map(str),
    _NON_ASCII_DIGITS,
    st.sampled_from(["nan", "inf", "-inf", "1e999", "0x10", "1_000", " 5", "5 ", "+5", "", "٣", "²", "1.5.5"]),
    st.integers(min_value=1, max_value=9).map(lambda n: "9" * 5000 * n),  # Python's int() refuses 4,300 digits
)


@pytest.mark.parametrize("case", NUMERIC, ids=[f"{' '.join(p)}-{param.name}" for p, param in NUMERIC])
@given(value=BAD)
def test_bad_numbers_are_one_usage_line(
    case: tuple[tuple[str, ...], click.Parameter], value: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path, param = case
    tmp = tmp_path_factory.mktemp("numbers")
    args = [a.replace("{tmp}", str(tmp)) for a in BASE[path]]
    # an argument goes after "--" (else click takes "-5" for an option)
    args = [*args, "--", value] if isinstance(param, click.Argument) else [*args, param.opts[0], value]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(args)
    assert code == 2, (args[:6], value[:30], err.getvalue())
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1, lines
    hint = param.opts[0] if isinstance(param, click.Option) else (param.name or "").upper()
    assert hint in lines[0], lines[0]
    assert list(tmp.iterdir()) == [], "nothing written"


def test_the_reported_overflow_is_one_line_in_a_real_process() -> None:
    """The finding as reported, through the installed entry point (a fresh interpreter)."""
    r = subprocess.run(
        [sys.executable, "-m", "generator", "solve", "american", GOLPE, "--goal", "gain:999999999999999999999"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "from 1 to 99" in r.stderr


def test_worksheet_levels_are_ascii_and_in_range() -> None:
    from generator.worksheet.pick import parse_levels

    assert parse_levels("2-3") == (2, 3) and parse_levels("5") == (5, 5)
    for bad in ("٣", "6", "0-2", "9" * 5000, "-1", "3-"):
        with pytest.raises(ValueError, match="level"):
            parse_levels(bad)


def test_good_numbers_still_pass() -> None:
    assert whole("40", "solve_depth") == 40
    assert whole("0", "perft_depth") == 0
    assert decimal("0.5", "seconds") == 0.5
    assert decimal("12", "seconds") == 12.0
    assert Stipulation.parse("gain:99").pieces == 99
    for text, name in (("41", "solve_depth"), ("٣", "solve_depth"), ("-1", "seed"), ("9" * 5000, "nodes")):
        with pytest.raises(NumberError):
            whole(text, name)
    for text in ("nan", "inf", "0", "1e3", "-1", "10000001"):
        with pytest.raises(NumberError):
            decimal(text, "seconds")
    for text in ("gain:100", "gain:0", "gain:-1", "gain:٣", "gain:" + "9" * 30):
        with pytest.raises(ValueError, match="gain"):
            Stipulation.parse(text)


def test_a_good_option_value_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "american", GOLPE, "--goal", "gain:1", "--depth", "3", "--timeout", "2.5"]) == 0
    assert "26-23: forces gain:1" in capsys.readouterr().out


def test_mine_seed_plus_games_stays_in_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Game i of --self-play N plays with seed SEED+i, which a lesson records: it must stay in range."""
    top = RANGES["seed"][1]
    code = main(["mine", "american", "--self-play", "2", "--seed", str(top), "--out", str(tmp_path / "o.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and "--seed" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def _integers(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("type") == "integer":
            yield where, node
        for key, value in node.items():
            yield from _integers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integers(value, f"{where}/{i}")


@pytest.mark.parametrize(
    ("package", "name"), [("generator.lessons", "lesson.schema.json"), ("generator", "course.schema.json")]
)
def test_every_whole_number_in_a_lesson_or_course_has_a_maximum(package: str, name: str) -> None:
    schema = json.loads(resources.files(package).joinpath(name).read_text("utf-8"))
    found = list(_integers(schema))
    assert found, "the schema has whole numbers"
    for where, node in found:
        assert "maximum" in node and "minimum" in node, f"{name}{where}: no range"
    if name == "lesson.schema.json":
        counters = schema["$defs"]["counters"]["properties"]
        assert counters["quiet"]["maximum"] == RANGES["counter"][1]
        seed = next(node for where, node in found if where.endswith("/seed"))
        assert seed["maximum"] == RANGES["seed"][1]


def test_a_huge_counter_in_a_lesson_is_one_error_at_its_place() -> None:
    text = (
        "variant: american\nlanguage: pt-BR\ntitle: T\nslug: t\nsections:\n  - title: S\n    text: x\n"
        "    diagrams:\n      - position: start\n        counters: {quiet: 999999999999999999}\n"
        "        claims:\n          - legal: [9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16]\n"
    )
    _, errors = check_text(text, "l.yaml")
    assert [str(e) for e in errors] == [
        f"l.yaml:10:27: 'quiet' of 'counters' of diagram 1 of section 1 must be at most {RANGES['counter'][1]}; "
        "got 999999999999999999"
    ]
