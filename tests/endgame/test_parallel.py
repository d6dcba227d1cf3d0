"""Slices built on several processes are the slices of the serial build, byte for byte (issue 25).

The parallel build changes only when a slice is solved, never how: every comparison here is with
the serial build of the same set in another folder, itself checked against the pure reference and
the published counts elsewhere (test_kernel.py, test_theory.py).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.endgame import solver
from generator.endgame.material import Material, materials_up_to, parse_material
from generator.endgame.parallel import _workers, build, needs, startable
from generator.endgame.tables import Tables, closure

pytestmark = pytest.mark.skipif(not solver.COMPILED_AVAILABLE, reason="the compiled endgame kernel is not built")


def _files(tables: Tables) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in tables.folder.iterdir() if p.suffix in (".wdl", ".dtw")}
    assert files
    return files


@pytest.mark.parametrize("variant", ["brazilian", "american"])
def test_two_processes_store_the_bytes_of_the_serial_build(tmp_path: Path, variant: str) -> None:
    serial = Tables(variant, tmp_path / "serial")
    one = serial.build(3)
    parallel = Tables(variant, tmp_path / "parallel")
    two = build(parallel, 3, jobs=2)
    assert [r.material for r in two] == [r.material for r in one] == closure(materials_up_to(3))
    assert [r.derived_from for r in two] == [r.derived_from for r in one]
    assert any(r.derived_from for r in two)  # the twins were derived, as in the serial build
    assert all(r.built for r in two)
    assert _files(parallel) == _files(serial)
    assert not list(parallel.folder.glob(".tmp-*"))


def test_a_parallel_build_goes_on_from_a_serial_one(tmp_path: Path) -> None:
    Tables("russian", tmp_path).build(2)
    reports = build(Tables("russian", tmp_path), 3, jobs=2)
    built = {r.material for r in reports if r.built}
    assert built == set(materials_up_to(3)) - set(materials_up_to(2))
    assert _files(Tables("russian", tmp_path)) == _files(_serial(tmp_path / "again", "russian", 3))


def _serial(root: Path, variant: str, pieces: int) -> Tables:
    t = Tables(variant, root)
    t.build(pieces)
    return t


def test_a_derived_slice_waits_for_its_twin_only_and_the_rest_for_their_exits(tmp_path: Path) -> None:
    t = Tables("brazilian", tmp_path)
    todo = closure(materials_up_to(3))
    plan = needs(t, todo)
    assert set(plan) == set(todo)
    for m, need in plan.items():
        twin = m.swapped()
        if twin != m and todo.index(twin) < todo.index(m):
            assert need == {twin}
        else:
            assert need == m.successors()
        assert all(todo.index(x) < todo.index(m) for x in need)  # the serial order satisfies the plan
    solved = Tables("brazilian", tmp_path, derive=False)
    assert all(need == m.successors() for m, need in needs(solved, todo).items())


def test_stored_slices_are_not_planned(tmp_path: Path) -> None:
    t = Tables("american", tmp_path)
    t.build(2)
    assert set(needs(t, closure(materials_up_to(3)))) == set(materials_up_to(3)) - set(materials_up_to(2))


def test_a_slice_starts_only_while_it_fits_beside_the_running_ones() -> None:
    a, b, c = parse_material("2k-1k"), parse_material("1k-2k"), parse_material("1k1m-1k")
    peak = {a: 60, b: 50, c: 10}.__getitem__
    assert startable([a, b, c], [], 3, 1000, peak) == [a, b, c]
    assert startable([a, b, c], [], 2, 1000, peak) == [a, b]  # no more than the jobs
    assert startable([a, b, c], [], 3, 100, peak) == [a]  # b would not fit beside a, and c waits behind b
    assert startable([b, c], [a], 3, 100, peak) == []
    assert startable([a], [], 3, 10, peak) == [a]  # alone, a slice starts whatever its size
    assert startable([c], [a], 3, 70, peak) == [c]


def _workers_of(pid: int) -> list[int]:
    """The worker processes of ``pid`` (not multiprocessing's resource tracker, which leaves by
    itself once the command has exited)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    pids = [int(x) for x in children.read_text().split()] if children.exists() else []
    return [p for p in pids if b"spawn_main" in _cmdline(p)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc to find the workers")
def test_ctrl_c_stops_the_build_and_its_workers_and_keeps_the_finished_slices(tmp_path: Path) -> None:
    env = {**os.environ, "DAMAS_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "generator", "endgame", "build", "brazilian", "--pieces", "5", "--jobs", "2"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    folder = Tables("brazilian", tmp_path).folder
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(folder.glob("*-*.json"))) < 20:
        time.sleep(0.2)  # the small slices are done, the workers busy with larger ones
    workers = _workers_of(proc.pid)
    assert workers, "the build started no worker"
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - start < 10
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert not [pid for pid in workers if b"spawn_main" in _cmdline(pid)], "a worker outlived the command"
    kept = Tables("brazilian", tmp_path)
    finished = [m for m in materials_up_to(5) if kept.is_stored(m)]
    assert len(finished) >= 20
    assert all(kept.slice(m).size == kept.size(m) for m in finished)
    assert Material(0, 1, 0, 1) in finished


def test_an_interrupt_kills_a_busy_worker_instead_of_waiting_for_it(tmp_path: Path) -> None:
    # A worker in the middle of a large slice is minutes from done; here it sleeps for a minute.
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), _workers(Tables("american", tmp_path), 2) as workers:
        pids = {workers.pool.submit(os.getpid).result(timeout=60) for _ in range(4)}
        children = [p for p in multiprocessing.active_children() if p.pid in pids]
        assert children
        busy = [workers.pool.submit(time.sleep, 60) for _ in range(2)]
        while not all(f.running() for f in busy):
            time.sleep(0.05)
        time.sleep(0.5)
        raise KeyboardInterrupt
    assert time.monotonic() - start < 40
    assert not any(p.is_alive() for p in children)
