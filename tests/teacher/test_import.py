"""``damas import``: collections written by another program, the plain text form, a study with comments
and variations, bad entries that never stop the others, goals inferred, large collections split."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.interchange.entries import read_entries
from generator.interchange.importer import Verdict, import_entries, reached_goals
from generator.lessons.check import check_paths
from generator.rules import Position, get_variant

DATA = Path(__file__).resolve().parents[1] / "data" / "collections"
PYDRAUGHTS = DATA / "pydraughts-international.pdn"


def _verdicts(path: Path, variant: str) -> list[tuple[Verdict, str | None, list[str]]]:
    done = list(import_entries(read_entries(path, get_variant(variant)), "pt-BR"))
    assert done, f"no entry read from {path}"
    return [(d.verdict, d.goal, d.details) for d in done]


def test_a_file_written_by_pydraughts_is_proven_entry_by_entry() -> None:
    verdicts = _verdicts(PYDRAUGHTS, "international")
    assert len(verdicts) == 10
    assert [v for v, _, _ in verdicts[:8]] == [Verdict.SOUND] * 8
    cooked, wrong = verdicts[8], verdicts[9]
    assert cooked[0] is Verdict.COOKED and "33x22" in cooked[2][0]  # the other key is named
    assert wrong[0] is Verdict.WRONG and "escapes with" in wrong[2][0]  # and the defence that escapes


def test_the_written_lesson_passes_damas_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "colecao.yaml"
    code = main(["import", str(PYDRAUGHTS), "--variant", "international", "--out", str(out)])
    assert code == 1  # two entries are not sound; the lesson holds the eight that are
    report = capsys.readouterr()
    assert report.out.count(": sound") == 8 and ": cooked" in report.out and ": wrong" in report.out
    assert "10 entries: 8 sound, 1 cooked, 1 wrong" in report.err
    checked = check_paths([out])
    assert checked.ok, [str(e) for e in checked.errors]
    assert len(checked.lessons[0].lesson.puzzles) == 8


def test_plain_text_lines_and_unreadable_entries(tmp_path: Path) -> None:
    source = tmp_path / "livro.txt"
    source.write_text(
        "# FEN ; solução ; objetivo\n"
        "W:W32,33:B28 ; 32x23 ; win\n"
        "W:W35,K45,46:B5,11,25,36,K48 ; 1. 35-30 25x34 2. 45x16\n"
        "W:W35,46:B5 ; 35-99\n"
        "X:nonsense ; 1-2\n",
        encoding="utf-8",
    )
    done = list(import_entries(read_entries(source, get_variant("international")), "pt-BR"))
    assert [d.verdict for d in done] == [Verdict.COOKED, Verdict.SOUND, Verdict.UNREADABLE, Verdict.UNREADABLE]
    assert done[1].goal == "gain:1" and done[1].inferred
    assert done[2].details[0].startswith(f"{source}:4:15: 35-99")  # file:line:col of the bad move
    assert done[3].details[0].startswith(f"{source}:5:1: FEN")


def test_a_study_with_comments_and_variations_keeps_its_main_line(tmp_path: Path) -> None:
    source = tmp_path / "estudo.pdn"
    source.write_text(
        '[Event "Estudo: capítulo 1"]\n[GameType "20"]\n[SetUp "1"]\n[FEN "W:W35,K45,46:B5,11,25,36,K48"]\n\n'
        "{Jogam as brancas.} 1. 35-30 {entrega} 25x34 (1... 36-41 2. 46x37) 2. 45x16 ; fim\n*\n\n"
        '[Event "Estudo: capítulo 2"]\n[GameType "20"]\n[FEN "W:W32,33:B28"]\n\n1. 33x22 *\n',
        encoding="utf-8",
    )
    entries = list(read_entries(source, get_variant("international")))
    assert [len(e.moves) for e in entries] == [3, 1]
    assert entries[0].caption == "Jogam as brancas."
    assert (entries[1].line, entries[1].moves[0][1:]) == (11, (13, 4))  # the FEN tag, the move: lines kept


def test_goals_inferred_strongest_first() -> None:
    pos = Position.from_fen("international", "W:W32,33:B28")
    assert reached_goals(pos, [pos.parse_move("32x23")]) == ["win", "gain:1"]


def test_a_collection_over_the_lesson_limit_becomes_several_lessons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DAMAS_LIMIT_PUZZLES", "3")
    out = tmp_path / "grande.yaml"
    assert main(["import", str(PYDRAUGHTS), "--variant", "international", "--out", str(out)]) == 1
    files = sorted(tmp_path.glob("grande*.yaml"))
    assert [f.name for f in files] == ["grande-2.yaml", "grande-3.yaml", "grande.yaml"]
    report = check_paths(files)
    assert report.ok, [str(e) for e in report.errors]
    assert sum(len(c.lesson.puzzles) for c in report.lessons) == 8


def test_usage_mistakes_exit_2(tmp_path: Path) -> None:
    assert main(["import", str(PYDRAUGHTS), "--variant", "international", "--out", str(tmp_path / "x.txt")]) == 2
    assert (
        main(["import", str(tmp_path / "missing.pdn"), "--variant", "international", "--out", str(tmp_path / "x.yaml")])
        == 1
    )
    assert not (tmp_path / "x.yaml").exists()
