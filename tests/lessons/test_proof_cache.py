"""The proof cache (generator/cache.py): a hit gives exactly what a cold run gives, every input of a
proof is in its key, failures are reported warm as cold, and a broken, foreign, unwritable or
shared cache folder never changes an answer."""

from __future__ import annotations

import json
import multiprocessing
import os
from dataclasses import replace
from pathlib import Path

import pytest

import generator.cache as cache_module
from generator.cache import Cache, default_dir, pack_text, unpack_text, use
from generator.cli import main
from generator.lessons import verify_cache
from generator.lessons.check import check_text
from tests.search.catalog import BY_ID, lesson_text

PATH = "puzzle.yaml"
ROOT = Path(__file__).resolve().parents[2]
GOLPE = BY_ID["american-golpe"]  # sound: 26-23 19x26 31x22x13
BREAKTHROUGH = BY_ID["american-breakthrough"]  # cooked at the default margin (26-23 crowns in 7)


def sound_and_cooked(margin: int | None = None) -> str:
    """One lesson, two puzzles: a sound one and (at the default margin) a cooked one."""
    text = lesson_text(
        "american",
        [
            ("golpe", GOLPE.fen, GOLPE.goal, GOLPE.line),
            ("ruptura", BREAKTHROUGH.fen, BREAKTHROUGH.goal, BREAKTHROUGH.line),
        ],
    )
    if margin is not None:
        text = text.replace("    solution:", f"    margin: {margin}\n    margin_reason: 'r'\n    solution:")
    return text


def run(text: str, store: Cache | None) -> tuple[list[str], dict]:
    """check_text with ``store`` active: the errors as text and the proofs (without the seconds the
    proof took, which no two runs share)."""
    with use(store):
        checked, errors = check_text(text, PATH)
    assert checked is not None
    return [str(e) for e in errors], {k: replace(v, seconds=0.0) for k, v in checked.puzzle_proofs.items()}


def entries(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.json") if not p.name.startswith(".tmp-"))


def test_a_hit_gives_what_a_cold_run_gives_failures_included(tmp_path: Path) -> None:
    text = sound_and_cooked()
    cold_errors, cold_proofs = run(text, None)
    assert len(cold_errors) == 1 and "cooked: 26-23" in cold_errors[0]  # the false claim
    assert len(cold_proofs) == 1  # the sound puzzle's proof
    store = Cache(tmp_path / "c")
    assert run(text, store) == (cold_errors, cold_proofs)
    assert (store.hits, store.misses, store.writes) == (0, 2, 2)
    warm = Cache(tmp_path / "c")
    assert run(text, warm) == (cold_errors, cold_proofs)  # the cook is still reported, at its place
    assert (warm.hits, warm.misses, warm.writes) == (2, 0, 0)


@pytest.mark.parametrize("variant", ["international", "russian", "italian", "perde-ganha"])
def test_a_hit_gives_back_whole_proofs_of_the_bundled_puzzles(tmp_path: Path, variant: str) -> None:
    """Themes, difficulty, defences and their lines: everything the books print comes back equal."""
    text = (ROOT / "lessons" / variant / "golpes.yaml").read_text(encoding="utf-8")
    cold = run(text, None)
    proofs = cold[1].values()
    assert cold[0] == [] and proofs and any(p.defences for p in proofs) and any(p.themes for p in proofs)
    run(text, Cache(tmp_path / "c"))
    warm = Cache(tmp_path / "c")
    assert run(text, warm) == cold
    assert warm.hits == len(proofs) and warm.misses == 0


def test_a_puzzle_moved_in_its_file_keeps_its_entry_and_its_error_place(tmp_path: Path) -> None:
    text = sound_and_cooked()
    store = Cache(tmp_path / "c")
    run(text, store)
    moved = text.replace("sections:\n", "summary: Uma linha a mais.\nsections:\n")
    errors, _ = run(moved, store)
    assert store.hits == 2
    assert errors == run(moved, None)[0]  # the line numbers follow the file, not the cache


def key_of(text: str, budget: int = 1000) -> dict:
    with use(None):
        checked, _ = check_text(text, PATH)
    assert checked is not None
    return verify_cache.proof_key(checked.lesson.puzzles[0], checked.lesson.profile, budget)


GOLPE_TEXT = lesson_text("american", [("golpe", GOLPE.fen, GOLPE.goal, GOLPE.line)])


@pytest.mark.parametrize(
    ("change", "proven_again"),
    [
        pytest.param(lambda t: t.replace(GOLPE.fen, "W:W26,31,32:B1,4,17,19"), True, id="position"),
        # the line no longer meets the goal: that verdict is part of the proof, so it is a miss too
        pytest.param(lambda t: t.replace("'gain:1'", "'win'"), True, id="stipulation"),
        pytest.param(lambda t: t.replace("'19x26'", "{move: '19x26', others: []}"), True, id="solution"),
        pytest.param(
            lambda t: t.replace("    solution:", "    margin: 2\n    margin_reason: 'r'\n    solution:"),
            True,
            id="margin",
        ),
    ],
)
def test_every_input_of_the_proof_is_in_its_key(tmp_path: Path, change, proven_again: bool) -> None:
    changed = change(GOLPE_TEXT)
    assert changed != GOLPE_TEXT
    assert key_of(changed) != key_of(GOLPE_TEXT)
    store = Cache(tmp_path / "c")
    run(GOLPE_TEXT, store)
    store.hits = store.misses = 0
    assert run(changed, store) == run(changed, None)  # never the old answer
    assert (store.hits, store.misses) == (0, 1 if proven_again else 0)


def test_the_stored_endgame_slices_are_in_the_key_of_a_win(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The win goal reads the stored endgame tables at its leaves: with more slices a search that
    ran out of budget might decide, so the slices are in the key; gain:N does not read them."""
    from generator.endgame.tables import Tables

    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "cache"))
    win_text = GOLPE_TEXT.replace("'gain:1'", "'win'")
    assert win_text != GOLPE_TEXT
    win, gain = key_of(win_text), key_of(GOLPE_TEXT)
    assert win["endgame"] == gain["endgame"] == "none"
    Tables("american").build(2)
    assert key_of(win_text)["endgame"] not in ("none", win["endgame"])
    assert key_of(GOLPE_TEXT) == gain


def test_the_budget_is_in_the_key(tmp_path: Path) -> None:
    text = GOLPE_TEXT
    assert key_of(text, 1000) != key_of(text, 1001)
    store = Cache(tmp_path / "c")
    with use(store):
        check_text(text, PATH)
        _, small = check_text(text, PATH, proof_budget=1)
    assert store.misses == 2
    with use(None):
        assert small == check_text(text, PATH, proof_budget=1)[1]


def test_the_engine_version_is_in_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = GOLPE_TEXT
    store = Cache(tmp_path / "c")
    run(text, store)
    monkeypatch.setattr(verify_cache, "PROOF_FORMAT", verify_cache.PROOF_FORMAT + 1)
    run(text, store)
    assert (store.hits, store.misses) == (0, 2)
    monkeypatch.setattr(cache_module, "__version__", "0.0.0-other")
    run(text, store)
    assert (store.hits, store.misses) == (0, 3)
    monkeypatch.undo()
    run(text, store)
    assert store.hits == 1


def test_a_changed_solver_source_gives_new_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    before = key_of(GOLPE_TEXT)
    monkeypatch.setattr(verify_cache, "source_fingerprint", lambda *parts: "another-solver")
    assert key_of(GOLPE_TEXT) != before


def _rekey(raw: bytes) -> bytes:
    """The entry of another key (another position) copied under this file's name."""
    data = json.loads(raw)
    data["key"] = data["key"].replace('"fen":"W:W', '"fen":"W:W9,')
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda raw: b"\x00garbage", id="not-json"),
        pytest.param(lambda raw: raw[: len(raw) // 2], id="truncated"),
        pytest.param(lambda raw: b"[1, 2, 3]", id="other-json"),
        pytest.param(lambda raw: raw.replace(b'"layout":1', b'"layout":99'), id="other-layout"),
        pytest.param(lambda raw: _rekey(raw), id="foreign-key"),
        pytest.param(lambda raw: raw.replace(b'"moves":["', b'"moves":["9-14","'), id="illegal-move"),
        pytest.param(
            lambda raw: raw.replace(b'"problems":[', b'"problems":[["wrong", 7, null, null],'), id="bad-failure"
        ),
        pytest.param(lambda raw: raw.replace(b'"difficulty":', b'"difficulty":"hard","x":'), id="bad-number"),
    ],
)
def test_a_damaged_or_foreign_entry_is_ignored_and_rewritten(tmp_path: Path, damage) -> None:
    text = sound_and_cooked()
    cold = run(text, None)
    store = Cache(tmp_path / "c")
    run(text, store)
    files = entries(tmp_path / "c")
    assert len(files) == 2
    damaged = 0
    for f in files:
        raw = f.read_bytes()
        f.write_bytes(damage(raw))
        damaged += damage(raw) != raw
    assert damaged
    again = Cache(tmp_path / "c")
    assert run(text, again) == cold
    assert again.writes == damaged  # each damaged entry proven again and rewritten
    last = Cache(tmp_path / "c")
    assert run(text, last) == cold and last.writes == 0
    for f in files:  # rewritten whole
        assert json.loads(f.read_text(encoding="utf-8"))["layout"] == cache_module.LAYOUT


def test_an_unwritable_cache_folder_is_no_cache_and_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    text = sound_and_cooked()
    store = Cache(blocker / "cache")  # cannot be created, even by root
    assert run(text, store) == run(text, None)
    assert store.writable is False and store.writes == 0


def test_an_unwritable_cache_folder_from_the_environment_is_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    (tmp_path / "p.yaml").write_text(sound_and_cooked(margin=0), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(blocker / "cache"))
    assert main(["check", "p.yaml"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("ok: ") and captured.err == ""


def test_where_the_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_dir() == tmp_path / "mine"
    monkeypatch.delenv("DAMAS_CACHE_DIR")
    assert default_dir() == tmp_path / "xdg" / "damas"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_dir() == tmp_path / "home" / ".cache" / "damas"


def test_check_uses_the_cache_unless_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    (tmp_path / "p.yaml").write_text(sound_and_cooked(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "c"
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(root))
    assert main(["check", "--no-cache", "p.yaml"]) == 1
    cold = capsys.readouterr().out.splitlines()
    assert not root.exists()
    assert main(["check", "p.yaml"]) == 1
    assert len(entries(root)) == 2
    assert main(["check", "p.yaml"]) == 1  # warm: the cook is still an error
    warm = capsys.readouterr().out.splitlines()
    # the same report but for the seconds on the summary line
    assert cold[:-1] == warm[: len(cold) - 1] == warm[len(cold) : -1] and "cooked" in cold[0]


def test_packed_texts_round_trip_and_refuse_other_data() -> None:
    texts = {"html/svg/passos/x/s1.svg": "<svg>ç</svg>", "b": ""}
    assert unpack_text(pack_text(texts)) == texts
    for bad in (None, 3, "not base64!", pack_text({}).replace("A", "B", 1)):
        with pytest.raises(ValueError):
            unpack_text(bad)


def _writer(root: str, worker: int, rounds: int) -> int:
    """Write (and read back) shared and private keys; the number of reads that saw a bad value."""
    store = Cache(root)
    bad = 0
    for i in range(rounds):
        value = {"n": i % 7, "text": "x" * (1000 * (i % 5))}
        store.put("t", {"shared": i % 7}, {"n": i % 7, "text": "x" * (1000 * (i % 5))})
        store.put("t", {"own": worker, "i": i}, value)
        got = store.get("t", {"shared": (i + 3) % 7})
        if got is not None and got.get("n") != (i + 3) % 7:
            bad += 1
        if store.get("t", {"own": worker, "i": i}) != value:
            bad += 1
    return bad


def test_concurrent_writers_never_leave_a_broken_entry(tmp_path: Path) -> None:
    root = tmp_path / "c"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        bad = pool.starmap(_writer, [(str(root), w, 60) for w in range(4)])
    assert bad == [0, 0, 0, 0]
    files = entries(root)
    assert len(files) == 7 + 4 * 60
    for f in files:
        assert json.loads(f.read_text(encoding="utf-8"))["layout"] == cache_module.LAYOUT
    assert not [p for p in root.rglob(".tmp-*")], "no temporary file left behind"
    store = Cache(root)
    assert all(store.get("t", {"shared": k})["n"] == k for k in range(7))


def test_two_checks_at_once_share_a_cache(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "p.yaml").write_text(sound_and_cooked(), encoding="utf-8")
    env = {**os.environ, "DAMAS_CACHE_DIR": str(tmp_path / "c")}
    cmd = [sys.executable, "-m", "generator.cli", "check", "p.yaml"]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300)[0].splitlines() for p in procs]
    assert [p.returncode for p in procs] == [1, 1, 1]
    assert outs[0][:-1] == outs[1][:-1] == outs[2][:-1] and "cooked" in outs[0][0]
    assert len(entries(tmp_path / "c")) == 2
    with use(Cache(tmp_path / "c")) as store:
        assert [str(e) for e in check_text(sound_and_cooked(), PATH)[1]] == run(sound_and_cooked(), None)[0]
    assert store is not None and store.hits == 2


def test_stored_files_round_trip_and_refuse_another_key_or_damage(tmp_path: Path) -> None:
    store = Cache(tmp_path)
    data = b"%PDF-1.7\n" + bytes(range(256)) * 4 + b"\n%%EOF\n"  # newlines in the bytes are fine
    store.put_bytes("pdf", {"job": "a"}, data)
    assert store.get_bytes("pdf", {"job": "a"}) == data
    assert store.get_bytes("pdf", {"job": "b"}) is None, "another key"
    (path,) = (tmp_path / "v1" / "pdf").rglob("*.bin")
    path.write_bytes(path.read_bytes()[:-1])  # cut short: the size and the hash no longer match
    assert store.get_bytes("pdf", {"job": "a"}) is None
    path.write_bytes(b"not a header\n" + data)
    assert store.get_bytes("pdf", {"job": "a"}) is None


def test_prune_deletes_the_files_used_longest_ago(tmp_path: Path) -> None:
    store = Cache(tmp_path)
    for n in range(4):
        store.put_bytes("pdf", {"job": n}, bytes(1000))
    paths = {n: store.path("pdf", store.digest("pdf", {"job": n})[1], ".bin") for n in range(4)}
    for n, path in paths.items():  # written in order 0..3, a second apart
        os.utime(path, (1_000_000 + n, 1_000_000 + n))
    assert store.get_bytes("pdf", {"job": 0}) is not None  # read now: the most recently used
    size = paths[0].stat().st_size
    assert store.prune("pdf", 2 * size) == 2
    assert sorted(n for n, path in paths.items() if path.exists()) == [0, 3]
    assert store.prune("pdf", 2 * size) == 0
