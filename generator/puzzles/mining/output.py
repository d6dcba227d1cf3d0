"""The miner's output: one lesson file holding the mined puzzles (the schema of lessons/*/golpes.yaml),
written once at the end of a run, to a temporary file renamed into place (never half-written).

The puzzles were proven with :func:`generator.puzzles.proof.prove_puzzle`, the proof ``damas check``
applies, so the file passes ``damas check`` as written; nothing is written to be read back.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from ...rules.variants import get_variant
from .candidate import Settings

HEADER = "# Written by damas mine: every puzzle passed damas check when mined. Curate captions and themes.\n"


def lesson_document(
    variant: str, language: str, puzzles: list[dict[str, Any]], title: str, text: str
) -> dict[str, Any]:
    """A lesson holding ``puzzles`` (the schema of lessons/*/golpes.yaml)."""
    return {
        "variant": variant,
        "language": language,
        "title": title,
        "slug": "golpes-minerados",
        "summary": text,
        "sections": [{"title": title, "text": text}],
        "puzzles": puzzles,
    }


def dump_lesson(doc: dict[str, Any]) -> str:
    return str(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=100))


def write_lesson(path: Path, settings: Settings, puzzles: list[dict[str, Any]]) -> None:
    """The output lesson, written to a temporary file and renamed (never half-written)."""
    v = get_variant(settings.variant)
    if settings.language == "pt-BR":
        title = f"Golpes minerados ({v.title})"
        text = (
            "Posições encontradas pelo minerador do damas em partidas; cada solução foi provada contra "
            "todas as defesas. Revise as legendas e os temas antes de publicar."
        )
    else:
        title = f"Mined shots ({v.title_en})"
        text = "Positions found by the damas miner in games; every solution is proven against every defense."
    doc = lesson_document(v.name, settings.language, puzzles, title, text)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(HEADER + dump_lesson(doc), encoding="utf-8")
    os.replace(tmp, path)
