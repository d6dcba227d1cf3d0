"""``damas export``: PDN that ``damas pdn check`` replays, and a round trip import -> export -> import
that keeps every position, line and goal."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.inputfile import read_text
from generator.interchange.entries import read_entries
from generator.interchange.importer import Verdict, import_entries
from generator.lessons.check import check_paths
from generator.rules import get_variant
from generator.rules.pdn import read_pdn, replay

LESSONS = Path(__file__).resolve().parents[2] / "lessons"
SOURCES = [LESSONS / "brazilian" / "golpes.yaml", LESSONS / "russian" / "golpes.yaml"]


def _puzzles(files: list[Path]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(variant, FEN, goal, main line in long notation) of every puzzle of the checked lessons."""
    report = check_paths(files)
    assert report.ok, [str(e) for e in report.errors]
    out = []
    for c in report.lessons:
        for p in c.lesson.puzzles:
            pos, texts = p.position, []
            for step in p.solution:
                m = pos.parse_move(step.move.value)
                texts.append(pos.move_text(m, long=True))
                pos = pos.play(m)
            out.append((c.lesson.variant.name, p.position.fen(), p.stipulation, tuple(texts)))
    assert out
    return sorted(out)


def read_pdn_file(path: Path) -> list:  # type: ignore[type-arg]
    return read_pdn(read_text(path, "pdn_file_bytes"), "international", str(path))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "golpes.pdn"
    assert main(["export", *map(str, SOURCES), "--out", str(out)]) == 0
    return out


def test_every_game_replays_and_says_where_it_starts(exported: Path) -> None:
    games = read_pdn_file(exported)
    assert len(games) == len(_puzzles(SOURCES))
    for game in games:
        result = replay(game)
        assert [str(e) for e in result.errors] == []
        assert game.tags["SetUp"] == "1" and game.tags["FEN"] and game.tags["GameType"] in ("25", "26")
        assert game.tags["Goal"] and game.tags["Puzzle"]
    assert main(["pdn", "check", str(exported)]) == 0
    text = exported.read_text(encoding="utf-8")
    assert "{Vez das" in text  # the captions are the games' comments


def test_round_trip_keeps_positions_lines_and_goals(exported: Path, tmp_path: Path) -> None:
    lessons = []
    for variant in ("brazilian", "russian"):
        out = tmp_path / f"{variant}.yaml"
        done = list(import_entries(read_entries(exported, get_variant(variant)), "pt-BR", variant=variant))
        assert {d.verdict for d in done} == {Verdict.SOUND, Verdict.OTHER_VARIANT}, [d.report() for d in done]
        assert main(["import", str(exported), "--variant", variant, "--out", str(out)]) == 0
        lessons.append(out)
    assert _puzzles(lessons) == _puzzles(SOURCES)
    again = tmp_path / "again.pdn"
    assert main(["export", *map(str, lessons), "--out", str(again)]) == 0
    assert len(read_pdn_file(again)) == len(read_pdn_file(exported))


def test_a_lesson_that_fails_its_check_is_not_exported(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "variant: international\nlanguage: pt-BR\ntitle: T\nslug: t\nsections: [{title: S, text: x}]\n"
        "puzzles:\n  - id: a\n    position: W:W32,33:B28\n    stipulation: win\n    solution: [32x23]\n",
        encoding="utf-8",
    )
    assert main(["export", str(bad), "--out", str(tmp_path / "x.pdn")]) == 1
    assert not (tmp_path / "x.pdn").exists()
