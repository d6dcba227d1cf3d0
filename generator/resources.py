"""Where the package's data lives: templates, schemas and the starter course, one code path for all.

Everything a build reads ships inside the wheel and is found through ``importlib.resources``: the
top-level ``templates/`` folder of the repository is the package ``generator._templates`` (mapped in
pyproject.toml), so an installed wheel reads ``site-packages/generator/_templates`` and an editable
install reads the source folder, with the same call.  No module locates data by a path relative to
its own file.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from jinja2 import FileSystemLoader

from .errors import DamasError

TEMPLATES_PACKAGE = "generator._templates"


class MissingData(DamasError):
    """The installation lacks data damas needs (a broken or stale install, not a user mistake)."""


def _folder(package: str, *parts: str) -> Path:
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        raise MissingData(
            f"this damas installation has no {package} (reinstall it: pip install damas, or pip install -e . "
            "in the repository)"
        ) from None
    folder = root.joinpath(*parts)
    if not isinstance(folder, Path) or not folder.is_dir():
        raise MissingData(f"this damas installation has no readable folder {'/'.join((package, *parts))}")
    return folder


@cache
def templates_dir() -> Path:
    """The templates folder: ``board.svg.j2``, ``html/`` (Jinja, CSS) and ``typst/``."""
    return _folder(TEMPLATES_PACKAGE)


def template_path(*parts: str) -> Path:
    """One template file, e.g. ``template_path("typst", "book.typ")``."""
    return templates_dir().joinpath(*parts)


def jinja_loader(*parts: str) -> FileSystemLoader:
    """A Jinja loader over the templates folder (or one of its subfolders)."""
    return FileSystemLoader(str(templates_dir().joinpath(*parts)))


@cache
def starter_dir() -> Path:
    """The files ``damas init`` copies into a new course (per language)."""
    return _folder("generator", "starter")


@cache
def glossary_dir() -> Path:
    """The bundled glossaries, one YAML file per language (``pt-BR.yaml``)."""
    return _folder("generator.lessons", "glossary")


@cache
def style_dir() -> Path:
    """The bundled house styles of the reader text, one YAML file per language (``en.yaml``)."""
    return _folder("generator.lessons", "style")


def data_text(name: str) -> str:
    """A data file shipped at the top of the package (``course.schema.json``)."""
    return resources.files("generator").joinpath(name).read_text(encoding="utf-8")
