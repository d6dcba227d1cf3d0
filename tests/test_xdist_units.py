"""How the README's test command spreads the tests over pytest-xdist workers (tests/conftest.py): the tests
of the bundled course on one worker, a module's tests with their module-scoped fixture, the rest alone."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import BUNDLED_UNIT, _unit

ROOT = Path(__file__).resolve().parents[1]


def test_every_file_that_reads_the_bundled_course_is_one_unit() -> None:
    files = [p for p in sorted((ROOT / "tests").rglob("test_*.py")) if "bundled_build" in p.read_text(encoding="utf-8")]
    assert len(files) >= 3  # the print book, the print layout, the English tree
    for path in files:
        assert _unit(ROOT, f"{path.relative_to(ROOT).as_posix()}::test_x") == BUNDLED_UNIT, path
    assert _unit(ROOT, "tests/lessons/test_reader_text.py::test_x") == BUNDLED_UNIT  # shared_cache: its proofs


def test_a_module_fixture_keeps_its_module_together_and_other_tests_go_alone() -> None:
    assert _unit(ROOT, "tests/render/test_printset.py::test_a[american-a4]") == "tests/render/test_printset.py"
    assert _unit(ROOT, "tests/test_layers.py::test_b[x]") == "tests/test_layers.py::test_b[x]"
    doctest = "generator/rules/variants.py::generator.rules.variants.get_variant"
    assert _unit(ROOT, doctest) == doctest
