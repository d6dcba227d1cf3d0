"""The wheel carries everything a build reads: build it, install it in a fresh venv, and start and build a
course from an empty folder outside the repository.

Slow (a wheel build and a venv install, about a minute), so deselected by default; CI runs it with
``pytest -m wheel``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.wheel


def run(argv: list[str | Path], cwd: Path, timeout: int = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_wheel_installs_and_builds_a_course_anywhere(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", dist, ROOT], cwd=tmp_path)
    [wheel] = list(dist.glob("damas-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*") if p.is_file()}
    templates = {t for t in templates if "__pycache__" not in t}
    assert {f"generator/_templates/{t}" for t in templates} <= names, "every template is in the wheel"
    assert {"generator/lessons/lesson.schema.json", "generator/course.schema.json"} <= names
    assert "generator/starter/variants.yaml" in names
    bundled = ROOT / "generator" / "endgame" / "bundled"
    shipped = {p.relative_to(ROOT).as_posix() for p in bundled.rglob("*") if p.is_file()}
    assert len(shipped) >= 60 and shipped <= names, "the endgame slices that ship with damas are in the wheel"
    assert not [n for n in names if "__pycache__" in n or n.startswith(("templates/", "lessons/", "tests/"))]

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=tmp_path)
    bin_dir = venv / "bin"
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", wheel], cwd=tmp_path)

    work = tmp_path / "elsewhere"
    work.mkdir()
    where = run([bin_dir / "python", "-c", "import generator.resources as r; print(r.templates_dir())"], cwd=work)
    assert Path(where.strip()).is_relative_to(venv), f"templates read from {where.strip()}, not the installed wheel"

    damas = bin_dir / "damas"
    run([damas, "init", "curso", "--variant", "brazilian", "--variant", "american"], cwd=work)
    course = work / "curso"
    assert "ok:" in run([damas, "check"], cwd=course)
    out = run([damas, "build"], cwd=course)
    assert "built" in out
    html = course / "output" / "html"
    assert (html / "index.html").is_file()
    assert (html / "brazilian" / "regras.html").is_file() and (html / "american" / "golpes.html").is_file()
    assert list((html / "svg").rglob("*.svg"))
    pdf = course / "output" / "pdf"
    pdfs = sorted(p.relative_to(pdf).as_posix() for p in pdf.rglob("*.pdf"))
    assert {
        f"{v}/{kind}.pdf"
        for v in ("brazilian", "american")
        for kind in ("regras", "exercicios", "solucoes", "tabuleiro")
    } == set(pdfs)
    assert all((pdf / p).read_bytes().startswith(b"%PDF") for p in pdfs)
