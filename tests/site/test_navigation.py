"""Navigation between pages: previous/next inside a variant, links from a rule's diagram to the same
rule in the other variants, breadcrumbs that survive printing, and the glossary page."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from generator.build import build
from generator.lessons.glossary import bundled_glossary, glossary_anchor

from .helpers import BRAZILIAN_START, Built, local_target, read_page, write_course, write_lesson


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture course, plus a second Brazilian lesson and an American one that show the same rule
    (diagram id ``pedra-captura``) as the first Brazilian lesson."""
    root = write_course(tmp_path_factory.mktemp("nav") / "lessons")
    second: dict[str, Any] = copy.deepcopy(BRAZILIAN_START)
    second.update(title="Segunda lição", slug="segunda", order=2)
    second["sections"][0]["diagrams"] = second["sections"][0]["diagrams"][1:]
    second["sections"][0]["diagrams"][0]["id"] = "outra-captura"
    write_lesson(root, "brazilian", "segunda", second)
    american: dict[str, Any] = {
        "variant": "american",
        "language": "pt-BR",
        "title": "Captura",
        "slug": "captura",
        "order": 9,
        "sections": [
            {
                "title": "A pedra captura",
                "diagrams": [
                    {
                        "position": "W:W22:B18",
                        "id": "pedra-captura",
                        "caption": "22x15.",
                        "claims": [{"only_move": "22x15"}],
                    }
                ],
            }
        ],
    }
    write_lesson(root, "american", "captura", american)
    out = root.parent / "site"
    build(out, lessons=[root], formats=["html"], jobs=1)
    return out / "html"


def pager(page: Path) -> dict[str, str]:
    return {a.attrs["rel"]: a.attrs["href"] for a in read_page(page).all("a") if a.attrs.get("rel") in ("prev", "next")}


def test_previous_and_next_follow_the_course_order(course: Path) -> None:
    assert pager(course / "brazilian/inicio.html") == {"next": "segunda.html"}
    assert pager(course / "brazilian/segunda.html") == {"prev": "inicio.html"}
    # American: regras (1), golpes (2), captura (9)
    assert pager(course / "american/regras.html") == {"next": "golpes.html"}
    assert pager(course / "american/golpes.html") == {"prev": "regras.html", "next": "captura.html"}
    assert pager(course / "american/captura.html") == {"prev": "golpes.html"}
    for page in ("brazilian/inicio.html", "american/golpes.html"):
        for href in pager(course / page).values():
            assert local_target(course / page, href) is not None, f"{page}: {href} leads nowhere"


def test_a_rule_links_to_the_same_rule_in_the_other_variants(course: Path) -> None:
    page = read_page(course / "brazilian/inicio.html")
    hrefs = [a.attrs["href"] for a in page.all("a")]
    assert "../american/captura.html#pedra-captura" in hrefs
    back = [a.attrs["href"] for a in read_page(course / "american/captura.html").all("a")]
    assert "../brazilian/inicio.html#pedra-captura" in back
    # Only the comparison's rule ids are linked: "outra-captura" is no rule of the comparison table.
    assert not [h for h in hrefs if "outra-captura" in h]
    target = local_target(course / "american/captura.html", "../brazilian/inicio.html#pedra-captura")
    assert target is not None


def test_breadcrumbs_are_in_the_page_for_print(course: Path) -> None:
    text = read_page(course / "brazilian/segunda.html").text
    assert "Início › Damas brasileiras › Segunda lição" in text
    css = (course / "style.css").read_text(encoding="utf-8")
    screen, _, printed = css.partition("/* arbiter:")[2].partition("@media print")
    assert ".print-crumbs { display: none; }" in screen
    assert ".print-crumbs { display: block;" in printed


def test_the_glossary_page_lists_every_term_and_is_linked_from_home(course: Path) -> None:
    glossary = bundled_glossary("pt-BR")
    assert glossary is not None
    page = read_page(course / "glossario.html")
    ids = page.ids()
    assert [glossary_anchor(t.term) for t in glossary.terms] == [
        i for i in ids if i in {glossary_anchor(t.term) for t in glossary.terms}
    ]
    assert "fileira" in ids and "grande-diagonal" in ids
    # The page names the avoided words, not the narrower phrases the checker matches.
    assert "não usam: jogada, meio-lance." in page.text and "a jogada" not in page.text
    assert "glossario.html" in [a.attrs["href"] for a in read_page(course / "index.html").all("a")]


def test_the_fixture_course_also_has_the_glossary(built: Built) -> None:
    assert (built.html / "glossario.html").is_file()
