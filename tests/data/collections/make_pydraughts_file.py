"""How ``pydraughts-international.pdn`` was made (kept for provenance; the test suite never runs it).

The file is written by another program, pydraughts 0.6.7 (PyPI ``pydraughts``, MIT licence, by Ioannis
Pantidis, https://github.com/AttackingOrDefending/pydraughts), which replays every move with its own
move generator and writes the game with its own ``PDNWriter`` (its GameType, FEN and move notation).
damas only chose the positions and lines, in a first step run in damas's own environment:

    .venv/bin/python tests/data/collections/make_pydraughts_file.py entries > /tmp/entries.json

then, in a throwaway environment that has pydraughts (never a dependency of damas):

    python3 -m venv /tmp/pyd && /tmp/pyd/bin/pip install pydraughts==0.6.7
    /tmp/pyd/bin/python tests/data/collections/make_pydraughts_file.py write /tmp/entries.json \\
        tests/data/collections/pydraughts-international.pdn

The entries: the first eight International puzzles of the bundled course (sound), one position with
two keys (cooked: 32x23 and 33x22 both take the last black piece), and one line that reaches its goal
only because the defender blunders (wrong).  No entry states its goal: the import infers it.
"""

from __future__ import annotations

import json
import sys


def entries() -> list[dict[str, object]]:
    from generator.lessons.check import check_paths

    report = check_paths(["lessons/international/exercicios.yaml"])
    checked = report.lessons[0]
    out: list[dict[str, object]] = []
    wrong = None
    for p in checked.lesson.puzzles:
        proof = checked.puzzle_proofs[p.where]
        pos = p.position
        texts, cur = [], pos
        for m in proof.moves:
            texts.append(cur.move_text(m, long=True))
            cur = cur.play(m)
        if len(out) < 8:
            out.append({"fen": pos.fen(), "moves": texts, "event": f"damas course {p.id}"})
        if wrong is None and p.goal == "gain" and len(proof.moves) == 3:
            wrong = _wrong_line(pos, proof.moves[0], p.pieces)
        if len(out) >= 8 and wrong is not None:
            break
    out.append({"fen": "W:W32,33:B28", "moves": ["32x23"], "event": "two keys"})
    assert wrong is not None
    out.append({**wrong, "event": "a blunder in the line"})
    return out


def _wrong_line(pos, key, pieces):  # type: ignore[no-untyped-def]
    """Another first move, a reply that blunders, and a capture: the line nets ``pieces`` in a quiet
    position, but the first move does not force it (the course proved the key the only one)."""
    me = pos.turn
    for first in pos.legal_moves():
        if first == key:
            continue
        after = pos.play(first)
        for reply in after.legal_moves():
            then = after.play(reply)
            for third in then.legal_moves():
                end = then.play(third)
                gained = (pos.pieces(me ^ 1).bit_count() - end.pieces(me ^ 1).bit_count()) - (
                    pos.pieces(me).bit_count() - end.pieces(me).bit_count()
                )
                if third.captures and gained == pieces and not any(m.captures for m in end.legal_moves()):
                    texts, cur = [], pos
                    for m in (first, reply, third):
                        texts.append(cur.move_text(m, long=True))
                        cur = cur.play(m)
                    return {"fen": pos.fen(), "moves": texts}
    return None


def write(entries_file: str, out: str) -> None:
    from draughts import Board, Move
    from draughts.PDN import PDNWriter

    with open(entries_file, encoding="utf-8") as f:
        found = json.load(f)
    for e in found:
        board = Board("standard", e["fen"])
        for text in e["moves"]:
            board.push(Move(board, pdn_move=text))
        PDNWriter(out, board=board, tags={"Event": e["event"], "Result": "*"}, file_mode="a")


if __name__ == "__main__":
    if sys.argv[1] == "entries":
        json.dump(entries(), sys.stdout, indent=1)
    else:
        write(sys.argv[2], sys.argv[3])
