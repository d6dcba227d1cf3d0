"""Regex blow-ups: every parser of user text must finish quickly on adversarial input.

A backtracking regex with an ambiguous repetition (the old PDN move pattern split a digit run every
possible way) takes 2^n steps on n characters: 40 digits was hours.  Here every entry point gets
long runs (thousands of characters) of the shapes that trip such patterns.  Exponential behaviour
would not finish in a human lifetime; linear takes milliseconds.  The work runs in a subprocess with
a generous timeout, so a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from generator.rules import Position, get_variant
from generator.rules.errors import DamasError
from generator.rules.game import Counters
from generator.rules.pdn import read_pdn, replay

N = 3_000

SHAPES = [
    "1" * N + "%",
    "1" * N + "!",
    "1x" * N + "%",
    "1-" * N + "1?%",
    "a1" * N + "%",
    "a1x" * N + "%",
    "x1" * N + "(",
    "1." * N,
    "[" * N,
    "[A " + '"' * N,
    "{" * N,
    "$" + "1" * N,
    "/" * N,
    "(" * N,
]

SCRIPT = textwrap.dedent(
    """
    import sys
    from generator.lessons.check import check_text
    from generator.lessons.markdown_safety import scan
    from generator.rules import Position, get_variant
    from generator.rules.errors import DamasError
    from generator.rules.pdn import read_pdn, replay
    shapes = {shapes!r}
    for v in ("international", "russian"):
        variant = get_variant(v)
        start = Position.start(variant)
        for s in shapes:
            for games in (read_pdn(s), read_pdn("1. " + s), read_pdn('[FEN "W:W' + s + '"] 1. 32-28 *')):
                for g in games:
                    replay(g)
            for text in (s, "32-" + s, "c3" + s):
                try:
                    start.parse_move(text)
                except DamasError:
                    pass
            for fen in (s, "W:W" + s, "W:W31-50:B1-20:H" + s, "W:" + s + ":B1"):
                try:
                    Position.from_fen(variant, fen)
                except DamasError:
                    pass
    for s in shapes:
        scan(s)
        body = s.replace("\\\\", "/").replace('"', "'")
        lesson = (
            "variant: brazilian\\nlanguage: pt-BR\\ntitle: t\\nslug: " + '"' + body[:200] + '"'
            + "\\nsections:\\n  - title: x\\n    text: " + '"' + body + '"'
            + "\\n    diagrams:\\n      - position: " + '"' + body + '"'
            + "\\n        claims:\\n          - only_move: " + '"' + body + '"\\n'
        )
        check_text(lesson, "x.yaml")
    print("done")
    """
)


def test_every_parser_finishes_on_long_adversarial_runs() -> None:
    code = SCRIPT.format(shapes=SHAPES)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "done"


def test_the_45_byte_pdn_is_one_clear_error() -> None:
    """The reported file: ``1. `` + 40 digits + ``%``; it hung for hours, now it is an error."""
    games = read_pdn("1. " + "1" * 40 + "%")
    errors = replay(games[0]).errors
    assert [(e.line, e.col) for e in errors] == [(1, 4)]
    assert "is not a move" in errors[0].message


@pytest.mark.parametrize(
    "text",
    ["32-28", "3228", "28x19", "47x38x20x9x36", "05-10", "32-28!", "32-28?!", "32-28*"],
)
def test_moves_the_new_pattern_still_reads(text: str) -> None:
    games = read_pdn(f"1. {text} *")
    assert [e for e in games[0].errors if e.is_error] == []
    assert games[0].moves[0].text == text.rstrip("!?*")


@pytest.mark.parametrize("text", ["c3-d4", "c3xd4", "c3:e5:c7", "a3b4", "C3-D4"])
def test_algebraic_moves_still_read(text: str) -> None:
    games = read_pdn(f"1. {text} *")
    assert [e for e in games[0].errors if e.is_error] == []
    assert games[0].moves[0].text == text


def test_a_lone_square_is_not_a_move() -> None:
    games = read_pdn("1. 5 *")
    assert any("is not a move" in e.message for e in games[0].errors)


def test_long_move_numbers_are_refused_not_crashing() -> None:
    for text, needle in (("1" * 5000 + ". 32-28 *", "too long"), ("1234567. 32-28 *", "move number 1234567")):
        games = read_pdn(text)
        assert any(needle in e.message and "too long" in e.message for e in games[0].errors)
        assert replay(games[0]).errors


@pytest.mark.parametrize("digit", ["²", "٣", "1" * 5000])
def test_non_ascii_or_huge_digits_in_fen_counters_and_squares(digit: str) -> None:
    v = get_variant("international")
    for read, fen in (
        (Counters.from_fen, f"W:W31-50:B1-20:H{digit}"),
        (Counters.from_fen, f"W:W31-50:B1-20:F{digit}"),
        (lambda f: Position.from_fen(v, f), f"W:W3{digit}:B1"),
    ):
        with pytest.raises(DamasError) as info:
            read(fen)
        assert len(str(info.value)) < 400


def test_pdn_fen_tag_with_superscript_counter_is_an_error_not_a_crash() -> None:
    games = read_pdn('[FEN "W:W31-50:B1-20:F²"]\n1. 32-28 *')
    result = replay(games[0])
    assert any(e.is_error and "counter" in e.message for e in result.errors)


def test_many_unclosed_tags_stay_linear() -> None:
    """Each malformed tag used to search to the far ']' : quadratic.  Now each searches its line."""
    text = "[\n" * 20_000 + "]"
    games = read_pdn(text)
    assert sum(1 for g in games for e in g.errors if "malformed tag" in e.message) == 20_000


ALL_PATTERNS = textwrap.dedent(
    """
    import importlib, pkgutil, re, sys
    import generator
    shapes = {shapes!r}
    names = []
    for info in pkgutil.walk_packages(generator.__path__, "generator."):
        if info.name.endswith("__main__"):
            continue  # importing it runs the command line
        try:
            module = importlib.import_module(info.name)
        except Exception:
            continue
        for attr, value in vars(module).items():
            if isinstance(value, re.Pattern):
                names.append(info.name + "." + attr)
                for s in shapes:
                    value.search(s)
                    value.fullmatch(s)
                    value.findall(s)
    print(len(names))
    """
)


def test_every_module_level_regex_of_the_package_is_linear_on_adversarial_runs() -> None:
    """Closes the class: any compiled pattern at module level anywhere in ``generator`` (present or
    future) gets the long runs above; a backtracking blow-up would hit the timeout."""
    shapes = [*SHAPES, "#" + "f" * N + "g", "a" * N + "!", "[ " + "x" * N, "a-" * N + "-", "\\\\" * N + '"']
    code = ALL_PATTERNS.format(shapes=shapes)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) >= 8  # the PDN, notation, markdown and terminal patterns at least
