"""One site tree per language: the course's language at ``html/``, each other at ``html/<lang>/``.

A course's lessons each name their language; the bundled course has Portuguese lessons and an
English edition beside them.  The plan is split here, once, so every writer (HTML, PDF, printable
set) sees one language at a time: its pages, its interface words, its file names and its PDFs under
``pdf/<lang>/``.  The diagrams stay in one shared folder (``html/svg``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import short_language, translator
from .book import number_editions
from .site import Site, VariantItem, link_neighbours, link_same_rules


@dataclass
class Tree:
    """The pages of one language."""

    site: Site
    language: str
    prefix: str
    """Folder under ``html/`` and ``pdf/``: ``""`` for the course's language, ``"en/"`` for another."""

    @property
    def name(self) -> str:
        """The language's own name, for the link from the other trees' home pages ("English")."""
        return translator(self.language).pgettext("language name", "English")


def language_trees(site: Site, course_language: str) -> list[Tree]:
    """Split the planned site by the lessons' languages; the course's language comes first, at the root."""
    main = short_language(course_language)
    found: dict[str, str] = {}
    for v in site.variants:
        for lesson in v.lessons:
            found.setdefault(short_language(lesson.language), lesson.language)
    if main not in found and len(found) == 1:
        main, course_language = next(iter(found)), next(iter(found.values()))
    order = [main, *sorted(k for k in found if k != main)]
    trees = []
    for code in order:
        variants = []
        for v in site.variants:
            lessons = [lesson for lesson in v.lessons if short_language(lesson.language) == code]
            if lessons or code == main:
                variants.append(VariantItem(v.variant, lessons, english=code == "en"))
        for item in variants:
            for lesson in item.lessons:
                lesson.previous = lesson.following = None
                for d in lesson.diagrams:
                    d.see_also = []
        link_neighbours(variants)
        link_same_rules(variants)
        language = course_language if code == main else found[code]
        trees.append(Tree(Site(variants), language, "" if code == main else f"{code}/"))
    for name in {v.name for t in trees for v in t.site.variants}:
        number_editions([v for t in trees for v in t.site.variants if v.name == name])
    return trees


def other_homes(trees: list[Tree], here: Tree) -> list[dict[str, str]]:
    """The links from ``here``'s home page to the other trees' home pages."""
    up = "../" * here.prefix.count("/")
    return [
        {"name": t.name, "href": f"{up}{t.prefix}index.html", "lang": translator(t.language).html_lang}
        for t in trees
        if t is not here
    ]
