"""Scripts in the built pages: the interactive pages carry exactly two kinds (generator/render/interactive.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from .helpers import Page

JSON_SCRIPT = re.compile(r'<script type="application/json"(?: id="damas-(?:words|boards)")?>(.*?)</script>', re.S)


def assert_scripts_inert(html: str, page: Page, where: str) -> list[Any]:
    """The only scripts are the project's own file (``<script src="…damas.js" defer>``, nothing
    inline) and JSON data blocks that parse and hold no ``<`` (so no text can close the element).
    Returns the parsed data blocks."""
    blocks = JSON_SCRIPT.findall(html)
    scripts = page.all("script")
    data = [s for s in scripts if s.attrs.get("type") == "application/json"]
    assert len(data) == len(blocks), f"{where}: a data block is not a plain JSON script"
    for s in scripts:
        if s in data:
            continue
        assert set(s.attrs) == {"src", "defer"}, f"{where}:{s.line}: <script> with {s.attrs}"
        assert re.fullmatch(r"(\.\./)*damas\.js", s.attrs["src"]), f"{where}:{s.line}: script {s.attrs['src']}"
    assert len(scripts) - len(data) <= 1, f"{where}: the script is loaded more than once"
    for body in blocks:
        assert "<" not in body, f"{where}: markup inside a JSON block"
    return [json.loads(body) for body in blocks]


def step_files(html: str) -> set[str]:
    """Step diagram files (relative to html/) named in a page's JSON data blocks."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in ("svg", "reply_svg") and isinstance(v, str):
                    found.add(v)
                else:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for body in JSON_SCRIPT.findall(html):
        walk(json.loads(body))
    return found
