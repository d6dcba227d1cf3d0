"""Every file of the HTML site, in memory: the pages of each language tree and the diagrams.

``damas build`` writes them out; ``damas serve`` keeps them in memory and serves them from there, so
a preview writes nothing to disk and a rebuild renders only the pages a change touches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .html import Render, page_plan
from .languages import language_trees, other_homes
from .site import Site

if TYPE_CHECKING:
    from ..course import Course


def site_plan(site: Site, course: Course, *, pdf: bool) -> dict[str, Render]:
    """Path under the build root -> a function that renders that page (every language tree)."""
    trees = language_trees(site, course.language)
    plan: dict[str, Render] = {}
    for tree in trees:
        others = other_homes(trees, tree)
        plan.update(
            page_plan(tree.site, pdf=pdf, course=course, language=tree.language, prefix=tree.prefix, others=others)
        )
    return plan


def cross_links(site: Site) -> tuple[object, ...]:
    """What a page of one variant shows of the others: the links from a diagram to the same rule in
    the other variants (set by :func:`site_plan`'s language split) and the language trees.  When this
    is unchanged, a change to one variant's lessons leaves the other variants' pages as they were."""
    return tuple(
        (v.name, lesson.language, lesson.slug, d.anchor, tuple(d.see_also))
        for v in site.variants
        for lesson in v.lessons
        for d in lesson.diagrams
    )


def site_files(site: Site, course: Course, *, pdf: bool, wanted: Callable[[str], bool] | None = None) -> dict[str, str]:
    """The diagrams and the rendered pages (those ``wanted`` says, or all)."""
    files: dict[str, str] = dict(site.svgs())
    for path, render in site_plan(site, course, pdf=pdf).items():
        if wanted is None or wanted(path):
            files[path] = render()
    return files
