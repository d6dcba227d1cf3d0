"""Control characters, lone surrogates and escapes in lesson text, keys and file names.

NUL and ESC passed ``check`` and broke Typst; a ``"\\ud800"`` escape passed ``check`` and crashed
``build`` (in an unknown key ``check`` itself crashed); ESC sequences and line breaks in keys and
file names reached the terminal raw.  Now the text is refused at its position, and every message
goes through one escaping helper.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.lessons.check import check_paths, check_text
from generator.rules.pdn import PdnError
from generator.terminal import printable

from .lesson_text import lesson, section


def errors_of(text: str) -> list[str]:
    _, errors = check_text(text, "l.yaml")
    return [str(e) for e in errors]


@pytest.mark.parametrize(
    "escape,shown",
    [("\\u0000", "'\\\\x00'"), ("\\u001b[2J", "'\\\\x1b'"), ("\\u0085", "'\\\\x85'"), ("\\u007f", "'\\\\x7f'")],
)
def test_control_characters_in_text_are_refused(escape: str, shown: str) -> None:
    text = lesson().replace('"As pretas começam."', f'"As pretas {escape} começam."')
    got = errors_of(text)
    assert len(got) == 1, got
    assert "text holds the control character" in got[0] and "only tab and newline are allowed" in got[0]
    assert got[0].startswith("l.yaml:")
    assert "\x1b" not in got[0] and "\x00" not in got[0]


def test_tab_and_newline_are_fine() -> None:
    assert errors_of(lesson(sections=[section("linha\tum\nlinha dois")])) == []


@pytest.mark.parametrize("where", ["title", "key"])
def test_a_lone_surrogate_is_refused_not_a_crash(where: str) -> None:
    base = json.loads(lesson())
    text = lesson().replace('"Primeiros passos"', '"A \\ud800 B"')
    if where == "key":
        base["extra"] = 1
        text = json.dumps(base).replace('"extra"', '"ex\\ud800tra"')
    got = errors_of(text)
    assert any("a lone surrogate ('\\ud800')" in e for e in got), got
    for e in got:
        e.encode("utf-8")  # every message can be printed


def test_the_cli_prints_surrogate_errors_without_crashing(tmp_path: Path) -> None:
    path = tmp_path / "l.yaml"
    path.write_text(lesson().replace('"Primeiros passos"', '"A \\ud800 B"'), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "generator", "check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "lone surrogate" in done.stdout and "Traceback" not in done.stderr


def test_escape_sequences_in_keys_do_not_reach_the_terminal() -> None:
    data = json.loads(lesson())
    data["\x1b[2Jx\nl.yaml:1:1: fake"] = 1
    got = errors_of(json.dumps(data))
    assert got, "an unknown key is an error"
    for e in got:
        assert "\x1b" not in e and "\n" not in e
    assert any("\\x1b[2Jx\\nl.yaml:1:1: fake" in e for e in got)


def test_a_file_name_with_escapes_and_newlines_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    bad = folder / "x\x1b[31m\nfake.yaml:1:1: ok.yaml"
    bad.write_text("variant: [", encoding="utf-8")
    report = check_paths([folder])
    lines = [str(e) for e in report.errors]
    assert len(lines) == 1
    assert "\x1b" not in lines[0] and "\n" not in lines[0]
    assert "x\\x1b[31m\\nfake.yaml" in lines[0]
    done = subprocess.run(
        [sys.executable, "-m", "generator", "check", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert "\x1b" not in done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == 2  # the error, the summary


def test_pdn_messages_are_escaped_by_their_printer() -> None:
    """The engine keeps the text as written (it formats for no terminal); the CLI escapes it."""
    err = PdnError("g\x1b.pdn", 1, 2, "tag \u202eevil\n")
    assert str(err) == "g\x1b.pdn:1:2: tag \u202eevil\n"
    assert printable(str(err)) == "g\\x1b.pdn:1:2: tag \\u202eevil\\n"


def test_pdn_check_escapes_tag_values(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text('[Variant "x\x1b[2Jy"]\n1. 32-28 *\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "generator", "pdn", "check", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "unknown variant 'x\\x1b[2Jy'" in done.stderr, done.stderr
    assert "\x1b" not in done.stdout + done.stderr


def test_printable_leaves_ordinary_text_alone() -> None:
    assert printable("Lição 1: 32-28 é forçado — ♛") == "Lição 1: 32-28 é forçado — ♛"
    assert printable("a\tb\rc\x9bd\u2066") == "a\\tb\\rc\\x9bd\\u2066"


def test_usage_errors_escape_the_arguments_they_quote() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "generator", "moves", "\x1b[2Jx\nfake:1:1: ok", "start"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and len(done.stderr.splitlines()) == 1
    assert "\\x1b[2Jx\\nfake:1:1: ok" in done.stderr
