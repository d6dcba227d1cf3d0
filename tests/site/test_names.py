"""Lesson names and links that could make the build lose a page or point at nothing.

Whatever ``damas check`` lets through, the built site must keep every page and every relative link
must lead somewhere; a build that cannot guarantee it refuses, naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.build import build
from generator.errors import DamasError
from generator.rules import get_variant

from .helpers import AMERICAN_GOLPES, AMERICAN_RULES, local_target, read_page, write_lesson


def build_or_refusal(lessons: Path, out: Path) -> DamasError | None:
    try:
        build(out, lessons=[lessons], formats=["html"], jobs=1)
    except DamasError as exc:
        return exc
    return None


@pytest.mark.parametrize("slug", ["index", "livro-de-golpes"])
def test_lesson_slug_never_replaces_a_generated_page(tmp_path: Path, slug: str) -> None:
    lessons = tmp_path / "lessons"
    rules: dict[str, Any] = {**AMERICAN_RULES, "slug": slug}
    path = write_lesson(lessons, "american", "regras", rules)
    write_lesson(lessons, "american", "golpes", AMERICAN_GOLPES)
    out = tmp_path / "site"

    refusal = build_or_refusal(lessons, out)

    if refusal is not None:
        assert path.name in str(refusal) or slug in str(refusal), f"the refusal does not say why: {refusal}"
        return
    index = read_page(out / "html" / "american" / "index.html")
    assert index.title.strip() == get_variant("american").title, (
        f"slug '{slug}': html/american/index.html is {index.title!r}, not the variant index"
    )
    book = read_page(out / "html" / "american" / "livro-de-golpes.html")
    assert book.title.startswith("Golpes"), f"slug '{slug}': the puzzle book page is {book.title!r}"
    hrefs = [a.attrs["href"] for a in index.all("a")]
    assert "livro-de-golpes.html" in hrefs and "golpes.html" in hrefs
    lesson_pages = [p for p in (out / "html" / "american").glob("*.html") if "Primeiros passos" in read_page(p).title]
    assert lesson_pages, f"slug '{slug}': the lesson page was lost"


def test_link_to_a_missing_lesson_is_not_built(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    rules: dict[str, Any] = {**AMERICAN_RULES, "sections": [dict(s) for s in AMERICAN_RULES["sections"]]}
    rules["sections"][1]["text"] = "Veja a [lição que não existe](nada.html) e a [seção](golpes.html#nada)."
    path = write_lesson(lessons, "american", "regras", rules)
    write_lesson(lessons, "american", "golpes", AMERICAN_GOLPES)
    out = tmp_path / "site"

    refusal = build_or_refusal(lessons, out)

    if refusal is not None:
        assert path.name in str(refusal), f"the refusal does not name the file: {refusal}"
        return
    page = out / "html" / "american" / "regras.html"
    broken = []
    for a in read_page(page).all("a"):
        target = local_target(page, a.attrs["href"])
        if target is None:
            continue
        file, fragment = target
        if not file.is_file() or (fragment and fragment not in read_page(file).ids()):
            broken.append(a.attrs["href"])
    assert broken == [], f"built with links that lead nowhere: {broken}"
