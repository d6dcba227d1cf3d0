"""``damas solve`` (generator/cli/solve.py): one key proven or refuted, undecided within a budget
(exit 3), the solution tree as JSON and from the Python API, the depth limit."""

from __future__ import annotations

import json

from generator.cli import EXIT_USAGE, main
from generator.cli.solve import EXIT_UNDECIDED, MAX_DEPTH
from generator.puzzles.dfpn import DfpnSolver
from generator.puzzles.search import Stipulation
from generator.puzzles.tree import Node, solution_tree
from generator.rules import Position

GOLPE = "W:W26,31,32:B1,17,19"  # american: 26-23 19x26 31x22x13


def test_first_proves_the_key(capsys) -> None:
    assert main(["solve", "american", GOLPE, "--goal", "gain:1", "--depth", "3", "--first", "26-23"]) == 0
    assert capsys.readouterr().out.strip() == "26-23: forces gain:1 within 3 plies; main line: 26-23 19x26 31x22x13"


def test_first_refutes_a_wrong_key_with_the_defence(capsys) -> None:
    assert main(["solve", "american", GOLPE, "--goal", "gain:1", "--depth", "3", "--first", "31-27"]) == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith("31-27: refuted; the defence escapes: 31-27 ")


def test_timeout_and_node_budget_end_undecided(capsys) -> None:
    args = ["solve", "international", "start", "--goal", "gain:1", "--depth", "20"]
    assert main([*args, "--nodes", "2000"]) == EXIT_UNDECIDED
    assert "undecided: could not prove within the budget (2000 nodes)" in capsys.readouterr().err
    assert main([*args, "--timeout", "0.3"]) == EXIT_UNDECIDED
    assert "undecided" in capsys.readouterr().err


def test_absurd_depth_is_refused(capsys) -> None:
    assert main(["solve", "american", GOLPE, "--depth", str(MAX_DEPTH + 1)]) == EXIT_USAGE
    assert main(["solve", "american", GOLPE, "--tree"]) == EXIT_USAGE


def _walk(node: dict, pos: Position, attacker: int, goal_check) -> int:
    """Play every branch of a JSON tree; returns the number of leaves, each meeting the goal."""
    move = pos.parse_move(node["move"])
    after = pos.play(move)
    assert node["fen"] == after.fen()
    replies = node["replies"]
    if not replies:
        assert goal_check(after), after.fen()
        return 1
    if after.turn != attacker:  # every defence is there
        assert {r["move"] for r in replies} == {after.move_text(m, long=True) for m in after.legal_moves()}
    else:
        assert len(replies) == 1
    return sum(_walk(r, after, attacker, goal_check) for r in replies)


def test_json_tree_answers_every_defence_down_to_the_goal(capsys) -> None:
    fen = "W:W7,12,19,26:B2,3,9,27"  # american-breakthrough, black has three captures after 12-8
    assert main(["solve", "american", fen, "--goal", "promote", "--depth", "3", "--json", "--tree"]) == 0
    payload = json.loads(capsys.readouterr().out)
    tree = payload["tree"]
    root = Position.from_fen("american", fen)
    (sol,) = tree["solutions"]
    assert sol["move"] == "12-8"
    crowned = lambda p: (p.pieces(root.turn) & p.kings).bit_count() > 0  # noqa: E731
    assert _walk(sol, root, root.turn, crowned) == 3
    assert not tree["truncated"]
    # every other first move comes with one refuting line
    others = {root.move_text(m, long=True) for m in root.legal_moves()} - {"12-8"}
    assert {r["move"] for r in tree["refuted"]} == others


def test_python_api_returns_the_same_tree() -> None:
    pos = Position.from_fen("american", GOLPE)
    solver = DfpnSolver(pos.variant)
    solver.prepare(pos, Stipulation.parse("gain:1"))
    key = pos.parse_move("26-23")
    assert solver.forced(pos.variant.generator.apply(*pos.state, key), 2)
    tree = solution_tree(solver, pos, 3, [key])
    assert isinstance(tree.solutions[0], Node)
    assert tree.to_json()["solutions"] == [
        {
            "move": "26-23",
            "fen": "B:W23,31,32:B1,17,19",
            "replies": [
                {
                    "move": "19x26",
                    "fen": "W:W31,32:B1,17,26",
                    "replies": [{"move": "31x22x13", "fen": "B:W13,32:B1", "replies": []}],
                }
            ],
        }
    ]


def test_ctrl_c_stops_cleanly(monkeypatch, capsys) -> None:
    """Ctrl-C during the search: one line, exit 130, no traceback."""
    import generator.cli.solve as solve_cli

    def interrupt(self, solver) -> None:  # the progress hook runs every 1024 nodes
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cli._Meter, "__call__", interrupt)
    assert main(["solve", "international", "start", "--goal", "gain:1", "--depth", "20"]) == 130
    err = capsys.readouterr().err
    assert err.startswith("interrupted after ") and "Traceback" not in err
