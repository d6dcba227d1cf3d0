"""The endgame slices that ship with damas: exactly what the solver builds today for the bundled
course's ending claims, and what a cold cache copies instead of solving."""

from __future__ import annotations

import json
from pathlib import Path

from generator.endgame.material import Material
from generator.endgame.prebuild import is_built
from generator.endgame.store import bundled_root, load, rules_folder
from generator.endgame.tables import Tables, closure
from generator.rules import get_variant
from tests.endgame.bundled import SHIPPED, build, claimed


def _files(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_shipped_slices_are_what_the_solver_builds_for_the_course_claims(tmp_path: Path) -> None:
    build(tmp_path)
    assert bundled_root() == SHIPPED, "the package's slices are this checkout's"
    made, shipped = _files(tmp_path), _files(SHIPPED)
    assert sum(name.endswith(".json") for name in made) >= 20
    assert sorted(shipped) == sorted(made), "make them again: python -m tests.endgame.bundled"
    for name, path in made.items():
        if name.endswith(".json"):  # the meta data, but the time the build took
            ours, theirs = json.loads(path.read_text()), json.loads(shipped[name].read_text())
            ours.pop("seconds"), theirs.pop("seconds")
            assert ours == theirs, name
        else:
            assert path.read_bytes() == shipped[name].read_bytes(), name


def test_a_cold_cache_copies_the_shipped_slices_instead_of_solving_them(tmp_path: Path) -> None:
    variant, wanted = next(iter(claimed().items()))
    reports = Tables(variant, tmp_path, bundled=True).build_materials(wanted)
    assert reports and all(r.built and r.bundled and r.seconds == 0.0 for r in reports)
    folder, source = rules_folder(get_variant(variant), tmp_path), rules_folder(get_variant(variant), SHIPPED)
    for r in reports:
        size = Tables(variant, tmp_path).size(r.material)
        here, there = load(folder, r.material, size), load(source, r.material, size)
        assert here is not None and there is not None
        assert (here.results, here.dist) == (there.results, there.dist)
    # without ``bundled`` the same tables solve them: a test of the solver never reads the copies
    solved = Tables(variant, tmp_path / "solved").build_materials(wanted)
    assert solved and not any(r.bundled for r in solved)


def test_is_built_copies_what_ships_and_says_no_to_what_does_not(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path))
    variant, wanted = next(iter(claimed().items()))
    m = wanted[-1]
    assert is_built(variant, tuple(m))  # copied from the shipped slices, with all it needs
    folder = rules_folder(get_variant(variant), tmp_path)
    assert all((folder / f"{x.name}.json").is_file() for x in closure([m]))
    bigger = Material(1, 0, 1, 0)  # a man each: no claim of the course reads it
    assert bigger not in closure([m for ms in claimed().values() for m in ms])
    assert not is_built(variant, tuple(bigger))


def test_an_unwritable_cache_copies_nothing_and_says_so(tmp_path: Path) -> None:
    """A cache folder that cannot be written: no copy, no exception; the slices count as not stored
    (the build's workers then try to make them, as before any slice shipped)."""
    variant, wanted = next(iter(claimed().items()))
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    tables = Tables(variant, blocked, bundled=True)
    assert not tables.copy_bundled(wanted)
    assert not any(tables.is_stored(m) for m in closure(wanted))
