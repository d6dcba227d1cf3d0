"""Ending claims in lessons (``ending: win|draw|loss``, ``wins_in: N``), checked by ``damas check``
against the tables and the lesson's draw rules."""

from __future__ import annotations

from pathlib import Path

from generator.lessons.check import check_paths


def _claims(fen: str, body: str) -> str:
    return f"      - position: {fen}\n        claims:\n" + "".join(f"          {line}\n" for line in body.split("|"))


def _check(tmp_path: Path, variant: str, diagrams: str) -> list[str]:
    lesson = tmp_path / "l.yaml"
    lesson.write_text(
        f"variant: {variant}\nlanguage: en\ntitle: T\nslug: t\nsections:\n  - title: A\n    diagrams:\n{diagrams}",
        encoding="utf-8",
    )
    return [str(e) for e in check_paths([lesson]).errors]


def test_true_claims_pass(tmp_path: Path) -> None:
    errors = _check(
        tmp_path,
        "american",
        """      - position: W:WK1,K2:BK32
        claims:
          - ending: win
            wins_in: 17
      - position: W:WK1:BK32
        claims:
          - ending: draw
      - position: B:WK1,K2:BK32
        claims:
          - ending: loss
""",
    )
    assert errors == []


def test_a_false_result_is_explained_with_the_tables_line(tmp_path: Path) -> None:
    errors = _check(tmp_path, "american", _claims("W:WK1:BK32", "- ending: win"))
    assert len(errors) == 1
    assert "claimed win, but the endgame tables say white (to move) draws: 1-5" in errors[0]
    assert errors[0].split(":")[1] == "10"  # the line of the claim in the file


def test_a_wrong_number_of_moves_gives_the_right_one(tmp_path: Path) -> None:
    errors = _check(
        tmp_path,
        "american",
        "      - position: W:WK1,K2:BK32\n        claims:\n          - ending: win\n            wins_in: 16\n",
    )
    assert len(errors) == 1 and "takes 17 (33 plies)" in errors[0] and errors[0].endswith("11x4")


def test_a_win_the_draw_rules_stop_is_refused_with_the_defence(tmp_path: Path) -> None:
    """Brazilian three kings against one: 21 plies in the tables; with 30 plies of king moves already
    counted, rule B1 (40) draws first."""
    ok = _check(
        tmp_path, "brazilian", "      - position: W:WKa1,Kc1,Ke1:BKf8\n        claims:\n          - ending: win\n"
    )
    late = _check(
        tmp_path, "brazilian", "      - position: W:WKa1,Kc1,Ke1:BKf8:H30\n        claims:\n          - ending: win\n"
    )
    assert ok == []
    assert len(late) == 1 and "under the draw rules (cbd) the game can end as a draw first: a1-d4" in late[0]


def test_misused_claims_are_reported(tmp_path: Path) -> None:
    errors = _check(
        tmp_path,
        "american",
        """      - position: W:WK1:BK32
        claims:
          - ending: draw
            wins_in: 3
      - position: W:WK1,K2,K3:BK30,K31,K32
        claims:
          - ending: draw
          - line: [1-5]
            ending: draw
""",
    )
    assert len(errors) == 3
    assert "wins_in goes with ending: win" in errors[0]
    assert "need at most 5 pieces" in errors[1]
    assert "give it a claim of its own" in errors[2]
