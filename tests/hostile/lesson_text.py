"""A small valid lesson as YAML text, for hostile tests to bend one field at a time."""

from __future__ import annotations

import json
from typing import Any


def lesson(**fields: Any) -> str:
    """A lesson that checks clean, with ``fields`` replacing top-level keys (JSON is valid YAML)."""
    data: dict[str, Any] = {
        "variant": "american",
        "language": "pt-BR",
        "title": "Primeiros passos",
        "slug": "primeiros-passos",
        "sections": [
            {
                "title": "O tabuleiro",
                "text": "As pretas começam.",
                "diagrams": [{"position": "start", "caption": "Início."}],
            }
        ],
    }
    data.update(fields)
    return json.dumps(data, ensure_ascii=False, indent=1)


def section(text: str = "Texto.", **fields: Any) -> dict[str, Any]:
    return {"title": "S", "text": text, "diagrams": [{"position": "start"}], **fields}
