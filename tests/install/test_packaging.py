"""The wheel's package list matches the source tree, and every template is reached through
``generator.resources`` (no module finds data by a path relative to its own file)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from generator import resources

ROOT = Path(__file__).resolve().parents[2]


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_of_the_tree_is_listed() -> None:
    """pyproject lists packages by hand (one of them lives outside generator/); a new subpackage that is
    not listed would be missing from the wheel, so the list must equal the tree."""
    tree = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "generator").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    listed = set(_setuptools()["packages"])
    assert listed - {"generator._templates"} == tree
    assert _setuptools()["package-dir"]["generator._templates"] == "templates"


def test_templates_resolve_to_the_source_folder_in_this_checkout() -> None:
    assert resources.templates_dir().resolve() == (ROOT / "templates").resolve()
    assert resources.template_path("board.svg.j2").is_file()
    assert resources.template_path("typst", "book.typ").is_file()
    assert (resources.templates_dir() / "html" / "style.css").is_file()


def test_no_module_locates_data_relative_to_its_file() -> None:
    modules = sorted((ROOT / "generator").rglob("*.py"))
    assert len(modules) > 50
    offenders = [
        str(p.relative_to(ROOT)) for p in modules if re.search(r"__file__|parents\[\d\]", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
