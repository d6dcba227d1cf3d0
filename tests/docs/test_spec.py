"""docs/spec.md, the project's rules specification: every section the code, the tests and the other
documents cite exists, with the numbering the citations use; the file names no outside material."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "spec.md"

CITATION = re.compile(r"docs/spec\.md(?P<refs>(?:[ ,]*(?:and|or)?\s*§?\s*\d+(?:\.\d+)*\b)+)")
"""``docs/spec.md §1.5``, ``docs/spec.md 1.5``, ``docs/spec.md §9, §14.13``."""
SECTION = re.compile(r"§?\s*(\d+(?:\.\d+)*)")


def headings() -> set[str]:
    """Section numbers of the spec's headings: ``## 1. Title`` -> 1, ``### 14.13 Title`` -> 14.13."""
    found = set()
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#{2,4} (\d+(?:\.\d+)*)\.? ", line)
        if m:
            found.add(m.group(1))
    return found


def cited(paths: list[Path]) -> dict[str, list[str]]:
    """Section number -> the places (file:line) that cite it as ``docs/spec.md §N``."""
    out: dict[str, list[str]] = {}
    for path in paths:
        for k, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            for m in CITATION.finditer(line):
                for ref in SECTION.findall(m.group("refs")):
                    out.setdefault(ref.rstrip("."), []).append(f"{path.relative_to(ROOT)}:{k}")
    return out


def sources() -> list[Path]:
    files = [
        p for top in ("generator", "tests", "bench") for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".pyx")
    ]
    return sorted(files)


def test_the_spec_keeps_the_section_numbers_of_the_rules_it_describes() -> None:
    have = headings()
    wanted = {f"1.{i}" for i in range(1, 11)} | {str(i) for i in range(1, 16)}
    wanted |= {"11.1", "11.2", "12.1", "12.2", "12.3", "12.4", "13.1", "13.2", "13.3", "13.4", "13.5"}
    wanted |= {f"14.{i}" for i in range(1, 17)}
    assert wanted <= have, sorted(wanted - have)


def test_every_citation_in_the_code_resolves_to_a_heading() -> None:
    files = sources()
    assert len(files) > 100
    refs = cited(files)
    assert len(refs) >= 20, "the code cites the spec by section"
    missing = {ref: places for ref, places in refs.items() if ref not in headings()}
    assert missing == {}


def test_every_section_mark_in_the_other_documents_resolves() -> None:
    """docs/rules.md and the README cite the spec by bare section marks (§14.13) as well."""
    docs = [ROOT / "docs" / "rules.md", ROOT / "README.md"]
    marks = {m for p in docs for m in re.findall(r"§(\d+(?:\.\d+)*)", p.read_text(encoding="utf-8"))}
    assert len(marks) > 5
    assert marks - headings() == set()


def test_the_repository_points_no_one_at_outside_material() -> None:
    """The spec is the project's own: no path to the shared reference folder or its files, anywhere."""
    files = sources() + sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    files += sorted((ROOT / "lessons").rglob("*.yaml"))
    assert len(files) > 150
    bad = [
        f"{p.relative_to(ROOT)}:{k}"
        for p in files
        for k, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), start=1)
        if re.search(r"/work/shared|shared/seeds|rules-spec\.md", line) and p != Path(__file__)
    ]
    assert bad == []
