"""A one-lesson course and small helpers shared by the output and process tests of tests/hostile.

The lesson is real (``damas check`` accepts it) and tiny, so a build with ``--format html`` takes a
fraction of a second and a subprocess build about one second.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

LESSON = """\
variant: american
language: pt-BR
title: {title}
slug: licao
summary: Uma lição mínima.
sections:
  - title: O início
    text: As pretas começam.
    diagrams:
      - position: start
        caption: Posição inicial.
        claims:
          - legal: [9-13]
"""

PAGE = "html/american/licao.html"
"""The lesson's page in the output (its title tells two builds apart)."""


def write_course(root: Path, title: str = "Primeira") -> Path:
    """``root/lessons/american/licao.yaml``; returns the lessons folder."""
    lessons = root / "lessons"
    (lessons / "american").mkdir(parents=True, exist_ok=True)
    (lessons / "american" / "licao.yaml").write_text(LESSON.format(title=title), encoding="utf-8")
    return lessons


def files(folder: Path) -> dict[str, bytes]:
    """Every regular file under ``folder`` (relative path -> content); links and folders are left out."""
    out: dict[str, bytes] = {}
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            p = Path(dirpath) / name
            if p.is_file() and not p.is_symlink():
                out[str(p.relative_to(folder))] = p.read_bytes()
    return out


def siblings(out: Path) -> list[str]:
    """Temporary folders a build left beside ``out``."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}-"))


def run_damas(
    *args: str, code: str = "", cwd: Path | None = None, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    """``damas ARGS`` in a fresh interpreter; ``code`` runs first (to patch a hook), then main()."""
    script = f"import sys\n{code}\nfrom generator.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    options: dict[str, object] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", script, *args], cwd=cwd, text=True, timeout=120, **options
    )
