"""`damas check` on the command line: error lines, the summary, the exit code, --json, missing
paths, and never a traceback."""

from __future__ import annotations

import json
import shutil

import pytest

from generator.cli import main

from .helpers import BAD, ERROR_LINE, GOOD, SUMMARY_BAD, SUMMARY_OK

BAD_FILES = sorted(p.name for p in BAD.glob("*.yaml"))


@pytest.fixture
def one_bad(tmp_path, monkeypatch):
    """A lesson folder with two good lessons and one bad one (two false claims), as cwd."""
    folder = tmp_path / "lessons"
    shutil.copytree(GOOD / "american", folder / "american")
    shutil.copy(BAD / "moves-false.yaml", folder / "american" / "moves-false.yaml")
    monkeypatch.chdir(tmp_path)
    return folder


def test_check_folder_with_one_bad_file(one_bad, capsys) -> None:
    code = main(["check", "lessons"])
    out, err = capsys.readouterr()
    assert code == 1
    assert err == ""
    assert out.splitlines()[:-1] == [
        "lessons/american/moves-false.yaml:10:20: claimed exactly 7 legal move(s), but 12-16 is also legal",
        "lessons/american/moves-false.yaml:10:61: claimed 12-17 is legal, but it is not; legal: 9-13 9-14 10-14 "
        "10-15 11-15 11-16 12-16",
    ]
    summary = SUMMARY_BAD.match(out.splitlines()[-1])
    assert summary, out.splitlines()[-1]
    errors, failed, files, lessons, *_ = (int(g) for g in summary.groups())
    assert (errors, failed, files, lessons) == (2, 1, 3, 3)


def test_check_default_path_is_lessons(one_bad, capsys) -> None:
    assert main(["check"]) == 1
    assert "moves-false.yaml:10:20:" in capsys.readouterr().out


def test_check_json(one_bad, capsys) -> None:
    code = main(["check", "--json", "lessons"])
    out, _ = capsys.readouterr()
    assert code == 1
    payload = json.loads(out)
    assert payload["ok"] is False
    assert payload["counts"]["files"] == 3
    assert payload["counts"]["errors"] == 2
    assert payload["errors"] == [
        {
            "path": "lessons/american/moves-false.yaml",
            "line": 10,
            "col": 20,
            "message": "claimed exactly 7 legal move(s), but 12-16 is also legal",
        },
        {
            "path": "lessons/american/moves-false.yaml",
            "line": 10,
            "col": 61,
            "message": "claimed 12-17 is legal, but it is not; legal: 9-13 9-14 10-14 10-15 11-15 11-16 12-16",
        },
    ]


def test_check_json_keeps_accents(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "a.yaml").write_text(
        "variant: american\nlanguage: pt-BR\ntitle: Lição\nslug: a\nsections:\n  - title: Seção\n"
        "    diagrams:\n      - position: start\n        claims:\n          - only_move: 9-13\n",
        "utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--json", "a.yaml"]) == 1
    payload = json.loads(capsys.readouterr().out)
    [error] = payload["errors"]
    assert (error["path"], error["line"], error["col"]) == ("a.yaml", 10, 24)
    assert error["message"].startswith("claimed only move 9-13, but ")


def test_missing_path_is_reported(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["check", "no-such-folder"])
    out, err = capsys.readouterr()
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "no-such-folder:1:1: no such file or folder"
    assert SUMMARY_BAD.match(lines[-1])
    assert "Traceback" not in out + err


def test_missing_path_next_to_a_good_one(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["check", str(GOOD / "italian"), "missing.yaml"])
    out, _ = capsys.readouterr()
    assert code == 1
    assert "missing.yaml:1:1: no such file or folder" in out.splitlines()
    assert SUMMARY_BAD.match(out.splitlines()[-1]).group(3) == "1"  # the good file was still checked


def test_good_corpus_prints_only_the_ok_line(capsys) -> None:
    assert main(["check", str(GOOD)]) == 0
    out = capsys.readouterr().out
    assert SUMMARY_OK.match(out.strip())


@pytest.mark.parametrize("name", BAD_FILES)
def test_no_traceback_for_any_bad_file(name, monkeypatch, capsys) -> None:
    """Each bad file alone: nothing on stderr, only `path:line:col: message` lines and the summary,
    and the exit code agrees with the summary.  (Whether the file is *rightly* failed is
    test_bad_corpus's business.)"""
    monkeypatch.chdir(BAD)
    code = main(["check", name])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert err == ""
    lines = out.splitlines()
    assert lines
    if code == 0:
        assert len(lines) == 1 and SUMMARY_OK.match(lines[0]), out
        return
    assert code == 1, out
    assert SUMMARY_BAD.match(lines[-1]), lines[-1]
    assert int(SUMMARY_BAD.match(lines[-1]).group(1)) == len(lines) - 1
    for line in lines[:-1]:
        m = ERROR_LINE.match(line)
        assert m, line
        assert m.group("path") == name


def test_json_for_every_bad_file_at_once(monkeypatch, capsys) -> None:
    monkeypatch.chdir(BAD)
    code = main(["check", "--json", "."])
    out, err = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out + err
    payload = json.loads(out)
    assert payload["ok"] is False
    assert payload["counts"]["files"] == len(BAD_FILES)
    assert payload["counts"]["errors"] == len(payload["errors"])
    # every bad file has an error (the two halves of a duplicated slug have one between them)
    assert len(payload["errors"]) >= len(BAD_FILES) - 1
    for e in payload["errors"]:
        assert set(e) == {"path", "line", "col", "message"}
        assert e["path"] in BAD_FILES
        assert isinstance(e["line"], int) and e["line"] >= 1
        assert isinstance(e["col"], int) and e["col"] >= 1
        assert e["message"]
