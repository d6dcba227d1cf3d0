"""The proof cache in ``damas build``: a warm build writes the very bytes of a cold one (pages with their
puzzle panels and replays, step diagrams), a damaged entry is ignored and rewritten, and
``--no-cache`` leaves the cache alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.build import build
from generator.cache import Cache
from generator.cli import main

ROOT = Path(__file__).resolve().parents[2]


def tree(out: Path) -> dict[str, bytes]:
    """Every file of a build's html/, by path."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted((out / "html").rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture course plus the bundled Russian puzzles (defences, themes, long lines)."""
    from .helpers import write_course

    root = write_course(tmp_path_factory.mktemp("cached") / "lessons")
    (root / "russian").mkdir()
    shutil.copy(ROOT / "lessons" / "russian" / "golpes.yaml", root / "russian" / "golpes.yaml")
    return root


@pytest.fixture(scope="module")
def cold(lessons: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("nocache") / "out"
    build(out, lessons=[lessons], formats=["html"], cache=False)
    return tree(out)


def test_a_warm_build_writes_the_bytes_of_a_cold_one(lessons: Path, cold: dict[str, bytes], tmp_path: Path) -> None:
    store = Cache(tmp_path / "c")
    build(tmp_path / "one", lessons=[lessons], formats=["html"], cache=store)
    assert store.writes > 0 and store.hits == 0
    assert tree(tmp_path / "one") == cold
    kinds = {p.parent.parent.name for p in (tmp_path / "c").rglob("*.json")}
    assert kinds == {"proof", "replay", "svg"}, "a puzzle's panel travels with its proof (no panel kind)"
    warm = Cache(tmp_path / "c")
    build(tmp_path / "two", lessons=[lessons], formats=["html"], cache=warm)  # a fresh output: no old files
    assert warm.misses == 0 and warm.writes == 0 and warm.hits == store.writes
    assert tree(tmp_path / "two") == cold
    assert not any("passos" in p for p in cold), "no picture file per step: the pages draw them"


def test_damaged_panels_and_diagrams_are_drawn_again(lessons: Path, cold: dict[str, bytes], tmp_path: Path) -> None:
    store = Cache(tmp_path / "c")
    build(tmp_path / "one", lessons=[lessons], formats=["html"], cache=store)
    damaged = 0
    for f in (tmp_path / "c").rglob("*.json"):
        raw = f.read_text(encoding="utf-8")
        # valid JSON of the right envelope, but a panel of another shape, a diagram not a packed text
        if f.parent.parent.name == "replay":
            f.write_text(raw.replace('{"value":{', '{"value":{"x":1,', 1), encoding="utf-8")
            damaged += 1
        elif f.parent.parent.name == "svg":
            f.write_text(raw.replace('"value":"', '"value":"!'), encoding="utf-8")
            damaged += 1
    assert damaged
    again = Cache(tmp_path / "c")
    build(tmp_path / "two", lessons=[lessons], formats=["html"], cache=again)
    assert again.writes == damaged
    assert tree(tmp_path / "two") == cold


def test_a_stored_play_tree_with_a_move_the_engine_did_not_make_is_not_used(
    lessons: Path, cold: dict[str, bytes], tmp_path: Path
) -> None:
    """A puzzle's panel is drawn from the play tree stored with its proof: a tree naming an illegal
    move makes the whole proof entry a miss, proven again, and the pages come out the same."""
    store = Cache(tmp_path / "c")
    build(tmp_path / "one", lessons=[lessons], formats=["html"], cache=store)
    damaged = 0
    for f in (tmp_path / "c" / "v1" / "proof").rglob("*.json"):
        entry = json.loads(f.read_text(encoding="utf-8"))
        play = entry["value"]["play"]
        if play is not None:
            play["root"]["children"][0][0] = "1-5"
            f.write_text(json.dumps(entry), encoding="utf-8")
            damaged += 1
    assert damaged
    again = Cache(tmp_path / "c")
    build(tmp_path / "two", lessons=[lessons], formats=["html"], cache=again)
    assert again.writes == damaged
    assert tree(tmp_path / "two") == cold


def test_build_no_cache_leaves_the_cache_alone(
    lessons: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "c"))
    args = ["build", "--lessons", str(lessons), "--format", "html", "--out"]
    assert main([*args, str(tmp_path / "one"), "--no-cache"]) == 0
    assert not (tmp_path / "c").exists()
    assert main([*args, str(tmp_path / "two")]) == 0
    assert list((tmp_path / "c").rglob("*.json"))
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
    assert "built" in capsys.readouterr().out


def test_an_unchanged_build_takes_over_the_old_files_and_only_those(
    lessons: Path, cold: dict[str, bytes], tmp_path: Path
) -> None:
    """Unchanged files are hard-linked from the previous output (deleting the old output then frees
    nothing); a file changed in the old output, or a link planted there, is written anew."""
    out = tmp_path / "out"
    build(out, lessons=[lessons], formats=["html"], cache=Cache(tmp_path / "c"))
    steps = sorted((out / "html" / "svg").rglob("*.svg"))
    kept, changed, planted = steps[0], steps[1], steps[2]
    inode = kept.stat().st_ino
    other_inode = changed.stat().st_ino
    changed.write_bytes(changed.read_bytes().replace(b"<svg", b"<SVG", 1))  # same size, other bytes
    outside = tmp_path / "outside.svg"
    outside.write_bytes(planted.read_bytes())
    planted.unlink()
    planted.symlink_to(outside)
    build(out, lessons=[lessons], formats=["html"], cache=Cache(tmp_path / "c"))
    assert kept.stat().st_ino == inode  # taken over, not written again
    assert changed.stat().st_ino != other_inode
    assert not planted.is_symlink() and planted.stat().st_ino != outside.stat().st_ino
    assert tree(out) == cold
    build(out, lessons=[lessons], formats=["html"], cache=Cache(tmp_path / "c"), incremental=False)
    assert kept.stat().st_ino != inode  # --clean writes everything
    assert tree(out) == cold
