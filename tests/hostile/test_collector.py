"""The garbage collector's threshold is raised for a check or a build, and only for it."""

from __future__ import annotations

import gc

import pytest

from generator.collector import THRESHOLD, fewer_collections


def test_the_threshold_is_raised_inside_and_restored_after_even_on_an_error() -> None:
    before = gc.get_threshold()
    assert before[0] < THRESHOLD
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_threshold() == (THRESHOLD, *before[1:])
        with fewer_collections():  # nested (a build inside damas serve): still raised, then restored
            assert gc.get_threshold()[0] == THRESHOLD
        assert gc.get_threshold()[0] == THRESHOLD
        raise RuntimeError("a failed build")
    assert gc.get_threshold() == before


def test_a_build_runs_with_the_raised_threshold_and_restores_it(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from generator import build as build_module

    seen: list[int] = []

    def collect(config: object) -> None:
        seen.append(gc.get_threshold()[0])
        raise KeyboardInterrupt  # the user stops the build during its first stage

    before = gc.get_threshold()
    monkeypatch.setattr(build_module, "collect", collect)
    (tmp_path / "lessons").mkdir()
    with pytest.raises(KeyboardInterrupt):
        build_module.build(tmp_path / "out", lessons=[tmp_path / "lessons"])
    assert seen == [THRESHOLD]
    assert gc.get_threshold() == before
