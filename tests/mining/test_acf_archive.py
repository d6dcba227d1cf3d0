"""The ACF archive kept in tests/data/acf: the conversion's square numbering, and every kept game replays.

The archive numbers squares 0-31 from the first player's side (its REF.png); the standard numbering
has Black (the first player) on 1-12 with 1 on b8.  A wrong mapping makes almost every game fail to
replay, so the replay of all 9,377 games is the real test of the conversion; the unit tests pin
the mapping on a few squares and moves the picture shows.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from generator.rules.pdn import read_pdn, replay

FOLDER = Path(__file__).resolve().parents[1] / "data" / "acf"
ARCHIVE = FOLDER / "acf.pdn"
_SPEC = importlib.util.spec_from_file_location("acf_to_pdn", FOLDER / "acf_to_pdn.py")
assert _SPEC is not None and _SPEC.loader is not None
acf_to_pdn = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(acf_to_pdn)  # the converter lives beside the archive it wrote (README there)
GAMES = 9377


@pytest.mark.parametrize(
    ("acf", "standard"),
    [(0, 4), (3, 1), (4, 8), (8, 12), (11, 9), (28, 32), (31, 29)],
)
def test_archive_squares_turn_half_a_turn_into_the_standard_numbering(acf: int, standard: int) -> None:
    # REF.png: 0 = a1 (Red's left corner), 3 = g1, 8 = a3, 31 = h8; standard: 4 = h8 ... seen from White
    assert acf_to_pdn.standard_square(acf) == standard


def test_moves_and_jumps_are_written_in_standard_text() -> None:
    assert acf_to_pdn.convert_move("10-13") == "10-15"  # the archive's first opening move
    assert acf_to_pdn.convert_move("21-14-5") == "23x14x7"
    with pytest.raises(ValueError):
        acf_to_pdn.convert_move("10-13-17")  # a step is not a jump


def test_a_line_that_does_not_replay_is_reported_not_dropped(tmp_path: Path) -> None:
    source = tmp_path / "ACF.txt"
    source.write_text("10-13 21-17\t1/2-1/2\n10-13 10-14\t1-0\n11-15\tbad\n", encoding="utf-8")
    kept, rejected = acf_to_pdn.convert(source, tmp_path / "out.pdn", tmp_path / "rejected.txt")
    assert kept == 1
    assert [r.split(":")[1] for r in rejected] == ["2", "3"]
    assert (tmp_path / "rejected.txt").read_text(encoding="utf-8").count("\n") == 2


def archive_games() -> list:
    return read_pdn(ARCHIVE.read_text(encoding="utf-8"), "american", str(ARCHIVE))


def test_the_archive_holds_every_game_once() -> None:
    text = ARCHIVE.read_text(encoding="utf-8")
    numbers = [line.split('"')[1] for line in text.splitlines() if line.startswith("[GameNumber ")]
    assert len(numbers) == GAMES and len(set(numbers)) == GAMES
    assert sorted(map(int, numbers)) == list(range(1, GAMES + 1)), "no game of the archive left out"
    assert (ARCHIVE.parent / "rejected.txt").read_text(encoding="utf-8") == "", "the conversion rejected none"


@pytest.mark.slow  # about 30 CPU seconds; CI runs it (.ci/run)
def test_every_kept_game_replays() -> None:
    games = archive_games()
    assert len(games) == GAMES
    failed = []
    numbers = set()
    for g in games:
        numbers.add(g.tags.get("GameNumber"))
        errors = [e for e in (*g.errors, *replay(g).errors) if e.is_error]
        if errors:
            failed.append(f"game {g.tags.get('GameNumber')}: {errors[0]}")
    assert not failed, f"{len(failed)} games do not replay: {failed[:5]}"
    assert len(numbers) == GAMES, "every game keeps its own number in the archive"
