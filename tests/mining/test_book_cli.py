"""``damas book report|compose|recheck``: the maintainer's tools for the printed books (docs/mining.md)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import yaml

from generator.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
AMERICAN = ROOT / "lessons" / "american" / "exercicios.yaml"


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    return code, out.getvalue()


def small_book(tmp_path: Path, keep: int) -> tuple[Path, list[dict]]:
    """A course holding the American book's head and its first ``keep`` puzzles; the rest returned."""
    text = AMERICAN.read_text(encoding="utf-8")
    puzzles = yaml.safe_load(text)["puzzles"]
    folder = tmp_path / "lessons" / "american"
    folder.mkdir(parents=True)
    head = text[: text.index("\npuzzles:")]
    body = yaml.safe_dump({"puzzles": puzzles[:keep]}, allow_unicode=True, sort_keys=False)
    (folder / "exercicios.yaml").write_text(head + "\n" + body, encoding="utf-8")
    return tmp_path / "lessons", puzzles[keep:]


def test_report_prints_each_book_of_the_bundled_course() -> None:
    code, out = run(["book", "report", str(ROOT / "lessons")])
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert {"american", "brazilian", "international", "russian"} <= set(lines)
    assert int(lines["american"].split()[1]) >= 100
    assert "3-ply" in lines["american"] and "levels" in lines["american"]


def test_compose_adds_a_mined_candidate_proven_and_levelled(tmp_path: Path) -> None:
    lessons, rest = small_book(tmp_path, 2)
    mined = {k: rest[0][k] for k in ("position", "stipulation", "solution")}
    mined["source"] = {"kind": "self-play", "seed": 7, "ply": 30}
    candidates = tmp_path / "mined.yaml"
    candidates.write_text(yaml.safe_dump({"puzzles": [mined]}), encoding="utf-8")
    code, out = run(["book", "compose", "american", "--lessons", str(lessons), "--candidates", str(candidates)])
    assert code == 0 and "chosen 3 (old 2" in out, out
    book = lessons / "american" / "exercicios.yaml"
    assert len(yaml.safe_load(book.read_text(encoding="utf-8"))["puzzles"]) == 2, "no --write: nothing written"
    args = ["book", "compose", "american", "--lessons", str(lessons), "--candidates", str(candidates), "--write"]
    code, out = run([*args, "--size", "3"])
    written = yaml.safe_load(book.read_text(encoding="utf-8"))
    assert code == 0 and written["margin"] == 8
    assert [p["id"] for p in written["puzzles"]].count("sp-7-30") == 1
    levels = [p["difficulty"] for p in written["puzzles"]]
    assert len(levels) == 3 and levels == sorted(levels)
    assert all(p["caption"] for p in written["puzzles"])


def test_recheck_names_each_puzzle_and_fails_on_a_cook(tmp_path: Path) -> None:
    lessons, _ = small_book(tmp_path, 2)
    book = lessons / "american" / "exercicios.yaml"
    code, out = run(["book", "recheck", str(book)])
    assert code == 0 and out.splitlines()[-1] == "0 failed" and len(out.splitlines()) == 3
    doc = yaml.safe_load(book.read_text(encoding="utf-8"))
    doc["puzzles"][0]["solution"] = doc["puzzles"][0]["solution"][:1]  # a line cut short proves nothing
    book.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    code, out = run(["book", "recheck", str(book)])
    assert code == 1 and out.splitlines()[-1] == "1 failed" and "FAIL" in out.splitlines()[0]


def test_recheck_proves_with_the_books_budget(tmp_path: Path) -> None:
    """A book's wide cook search needs its own proof budget: recheck proves with it, not the default."""
    lessons, _ = small_book(tmp_path, 1)
    book = lessons / "american" / "exercicios.yaml"
    doc = yaml.safe_load(book.read_text(encoding="utf-8"))
    doc["proof_budget"] = 10  # below the schema's least budget: the one-puzzle lesson must refuse it
    book.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    code, out = run(["book", "recheck", "--no-cache", str(book)])
    assert code == 1 and "'proof_budget' must be at least 1000; got 10" in out, out


def test_compose_writes_the_book_before_it_reports(tmp_path: Path) -> None:
    """``damas book compose --write | head``: a reader that stops reading must not stop the write."""
    from generator.lessons.compose import Plan, compose
    from generator.rules import get_variant

    lessons, _ = small_book(tmp_path, 2)
    book = lessons / "american" / "exercicios.yaml"
    doc = yaml.safe_load(book.read_text(encoding="utf-8"))
    for p in doc["puzzles"]:
        del p["difficulty"]
    book.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")

    def closed_pipe(line: str) -> None:
        raise BrokenPipeError(line)

    with pytest.raises(BrokenPipeError):
        compose(Plan(get_variant("american"), lessons, [], 2, 0.0, True), closed_pipe)
    written = yaml.safe_load(book.read_text(encoding="utf-8"))["puzzles"]
    assert len(written) == 2 and all(p["difficulty"] for p in written)
