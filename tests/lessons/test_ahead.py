"""Puzzle proofs ahead of the check, in worker processes (generator/lessons/ahead.py): the check
reports exactly what it reports without them, each proof is made once and stored, and a worker
that fails costs only time."""

from __future__ import annotations

import shutil
from concurrent.futures import Future
from pathlib import Path

import pytest

from generator.cache import Cache, use
from generator.lessons import ahead as ahead_module
from generator.lessons import check as check_module
from generator.lessons.ahead import AHEAD_MIN, AheadCache, proofs_ahead
from generator.lessons.check import CheckReport, check_paths, lesson_files
from generator.lessons.verify_cache import KIND

ROOT = Path(__file__).resolve().parents[2]
FILES = ["american/golpes.yaml", "brazilian/golpes.yaml", "russian/golpes.yaml"]


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ahead") / "lessons"
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "lessons" / name, root / name)
    return root


def _verdicts(report: CheckReport) -> list[tuple[str, dict[str, object]]]:
    """Every sound puzzle's stored form (proof, defences, play tree) by lesson, in check order."""
    out = []
    for c in report.lessons:
        for where, proof in c.puzzle_proofs.items():
            data = proof.to_json()
            data.pop("seconds")  # how long it took is not part of the verdict
            out.append((f"{c.lesson.path}:{where}", data))
    return out


def _check(lessons: Path, store: Cache | None, jobs: int | None) -> CheckReport:
    files, _ = lesson_files([lessons])
    with use(store), proofs_ahead(files, jobs=jobs):
        return check_paths([lessons])


def _no_pool(*args: object, **kwargs: object) -> None:
    raise AssertionError("a worker pool was made")


def test_workers_prove_what_the_check_proves_once_each(
    lessons: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _check(lessons, None, 1)
    count = sum(len(c.puzzle_proofs) for c in alone.lessons)
    assert count >= AHEAD_MIN, "enough puzzles for the workers to start"
    store = Cache(tmp_path / "c")
    ahead = _check(lessons, store, 2)
    assert ahead.errors == alone.errors and ahead.warnings == alone.warnings
    assert _verdicts(ahead) == _verdicts(alone)
    assert all(proof.play is not None for c in ahead.lessons for proof in c.puzzle_proofs.values())
    assert store.writes == count and store.misses == 0, "each proof made once (in a worker) and stored"
    warm = Cache(tmp_path / "c")
    parsed: list[str] = []
    load = check_module.load_document
    monkeypatch.setattr(check_module, "load_document", lambda text, path: parsed.append(path) or load(text, path))
    monkeypatch.setattr(ahead_module, "ProcessPoolExecutor", _no_pool)
    again = _check(lessons, warm, 2)
    assert len(parsed) == len(FILES), "each file parsed once: read ahead, then taken by the check"
    assert warm.hits == count and warm.writes == 0, "nothing left to prove: no workers, every proof read"
    assert _verdicts(again) == _verdicts(alone)


def test_a_failed_worker_leaves_the_proof_to_the_verifier() -> None:
    store = AheadCache(None)
    key = {"fen": "W:W1:B2"}
    failed: Future[dict[str, object]] = Future()
    failed.set_exception(RuntimeError("the worker died"))
    store.pending[store.digest(KIND, key)[1]] = failed
    assert store.get(KIND, key) is None
    assert store.pending == {}
    assert store.get(KIND, key) is None, "with no base cache nothing is kept"


def test_the_slices_of_ending_claims_are_built_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The endgame slices a lesson's ending claims read are built by a worker before the check,
    into the same cache folder, and the check reports the same.  (This process does not see the
    slices that ship with damas, so it does not copy them itself: a worker makes them.)"""
    from generator.endgame.prebuild import is_built
    from generator.lessons.ahead import file_lesson, lesson_endings

    root = tmp_path / "lessons" / "american"
    root.mkdir(parents=True)
    shutil.copy(ROOT / "lessons" / "american" / "finais.yaml", root / "finais.yaml")
    lesson = file_lesson(root / "finais.yaml")
    assert lesson is not None
    wanted = lesson_endings(lesson)
    assert wanted, "the lesson has ending claims"
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "tables-alone"))
    alone = check_paths([root])
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "tables"))
    monkeypatch.setattr("generator.endgame.tables.bundled_root", lambda: None)
    assert not any(is_built("american", w) for w in wanted)
    with proofs_ahead([root / "finais.yaml"], jobs=2):
        assert all(is_built("american", w) for w in wanted), "built before the check starts"
        ahead = check_paths([root])
    assert ahead.errors == alone.errors and ahead.ok
    assert ahead.counts() == alone.counts()


def test_win_proofs_are_keyed_after_the_slices_are_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``win`` proof's cache key names the endgame slices stored when it is made.  The workers'
    proofs are keyed once the slices of the ending claims are built, as the verifier keys them:
    keyed before, the verifier did not find them and proved those puzzles again itself."""
    root = tmp_path / "lessons" / "american"
    root.mkdir(parents=True)
    for name in ("finais.yaml", "golpes.yaml"):
        shutil.copy(ROOT / "lessons" / "american" / name, root / name)
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("generator.endgame.tables.bundled_root", lambda: None)  # a worker makes them
    monkeypatch.setattr(ahead_module, "AHEAD_MIN", 2)  # the two lessons hold five puzzles
    files, _ = lesson_files([root.parent])
    store = Cache(tmp_path / "proofs")
    with use(store), proofs_ahead(files, jobs=2):
        report = check_paths([root.parent])
    proofs = [p for c in report.lessons for p in c.puzzle_proofs.values()]
    assert len(proofs) >= 2
    assert any(p.stipulation == "win" for c in report.lessons for p in c.lesson.puzzles), "a key naming slices"
    assert report.ok
    assert store.misses == 0, "every proof was made by a worker under the key the verifier asks for"
    assert store.writes == len(proofs)


def test_the_workers_start_while_the_lessons_are_read(lessons: Path, tmp_path: Path) -> None:
    """The workers are started (they take about a second to import damas) once the lessons read
    so far hold enough proofs to make, not after the last file is read; with every proof stored
    they are never started."""
    files, _ = lesson_files([lessons])
    read: list[str] = []
    started: list[int] = []
    original = ahead_module.file_lesson

    def file_lesson(path: Path, kept: object = None) -> object:
        read.append(path.name)
        return original(path, kept)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ahead_module, "file_lesson", file_lesson)
        mp.setattr(ahead_module, "AHEAD_MIN", 2)
        first = ahead_module.lesson_jobs(original(files[0]), None)  # type: ignore[arg-type]
        assert len(first) >= 2, "the first lesson alone holds enough proofs"
        store = Cache(tmp_path / "cold")
        proofs, endings, todo = ahead_module._work(files, None, {}, store, lambda: started.append(len(read)))
        assert endings == {}, "these lessons claim no endings"
        assert len(files) >= 3 and len(read) == len(files)
        assert started and started[0] == 1, "started after the first file, before the others were read"
        assert len(todo) == len({store.digest(KIND, key_of())[1] for key_of, _ in proofs})
        for digest in todo:  # as if every proof were stored
            path = store.path(KIND, digest)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("{}", encoding="utf-8")
        started.clear()
        *_, again = ahead_module._work(files, None, {}, store, lambda: started.append(len(read)))
        assert again == {} and started == [], "nothing to prove: no worker started"
