"""Tables on disk (resumable, atomic, checked on load) and the ``damas endgame`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.endgame.material import Material, materials_up_to
from generator.endgame.store import load, read_meta
from generator.endgame.tables import Tables


def test_build_stores_every_slice_and_a_second_build_solves_nothing(tmp_path: Path) -> None:
    t = Tables("american", tmp_path)
    first = t.build(3)
    assert len(first) == len(materials_up_to(3)) and all(r.built for r in first)
    again = Tables("american", tmp_path).build(3)
    assert [r.material for r in again] == [r.material for r in first]
    assert not any(r.built for r in again)
    assert not list(t.folder.glob(".tmp-*"))


def test_an_unfinished_slice_is_built_again_and_the_others_kept(tmp_path: Path) -> None:
    t = Tables("brazilian", tmp_path)
    t.build(3)
    victim = Material(0, 2, 0, 1)
    (t.folder / f"{victim.name}.json").unlink()  # as if killed before the meta file was written
    before = {m: (t.folder / f"{m.name}.wdl").stat().st_mtime_ns for m in materials_up_to(3)}
    reports = Tables("brazilian", tmp_path).build(3)
    assert [r.material for r in reports if r.built] == [victim]
    for m in materials_up_to(3):
        if m != victim:
            assert (t.folder / f"{m.name}.wdl").stat().st_mtime_ns == before[m]


def test_a_damaged_slice_is_refused_and_rebuilt(tmp_path: Path) -> None:
    t = Tables("american", tmp_path)
    t.build(2)
    m = Material(0, 1, 0, 1)
    size = t.size(m)
    assert load(t.folder, m, size) is not None
    (t.folder / f"{m.name}.dtw").write_bytes(b"not zlib")
    assert load(t.folder, m, size) is None
    fresh = Tables("american", tmp_path)
    assert fresh.slice(m).entry(0, 0) == Tables("american", tmp_path / "other").slice(m).entry(0, 0)


def test_rule_profiles_get_their_own_folder(tmp_path: Path) -> None:
    from generator.rules import get_variant

    plain = Tables("russian", tmp_path)
    other = Tables(get_variant("russian").with_rule_text("flying_kings=no"), tmp_path)
    assert plain.folder != other.folder


def test_meta_records_counts_and_time(tmp_path: Path) -> None:
    t = Tables("american", tmp_path)
    t.build(2)
    meta = read_meta(t.folder, Material(0, 1, 0, 1))
    assert meta is not None
    counts = meta["counts"]
    assert sum(counts["white"].values()) == sum(counts["black"].values()) == meta["size"] == 32 * 31
    assert meta["seconds"] >= 0 and meta["bytes_on_disk"] > 0


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("DAMAS_CACHE_DIR", str(tmp_path))
    return CliRunner()


def test_cli_build_and_info(runner: CliRunner) -> None:
    out = runner.invoke(cli, ["endgame", "build", "american", "--pieces", "2", "--json"])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert len(rows) == len(materials_up_to(2)) and all(r["built"] for r in rows)
    info = runner.invoke(cli, ["endgame", "info", "american"])
    assert info.exit_code == 0 and "14 slices stored" in info.output


def test_cli_probe_text_and_json(runner: CliRunner) -> None:
    out = runner.invoke(cli, ["endgame", "probe", "american", "W:WK1,K2:BK32"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "win in 33 plies"
    doc = json.loads(runner.invoke(cli, ["endgame", "probe", "american", "W:WK1,K2:BK32", "--json"]).output)
    assert doc["result"] == "win" and doc["plies"] == 33 and doc["moves_to_end"] == 17
    assert set(doc["best"]) == {m for m, v in doc["moves"].items() if v == {"result": "win", "plies": 33}}
    assert doc["line"][-1] == "11x4"


def test_cli_probe_refuses_bad_input(runner: CliRunner) -> None:
    from generator.cli import main

    assert main(["endgame", "probe", "american", "W:WK1:Bxyz"]) == 1
    assert main(["endgame", "probe", "nosuch", "W:WK1:BK32"]) == 2
    assert main(["endgame", "build", "american", "--pieces", "9"]) == 2
    assert main(["endgame", "probe", "american", "W:WK1,K2,K3,K4,K5,K6,K7,K8,K9:BK32"]) == 1
