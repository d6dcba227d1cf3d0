"""A puzzle has the same number in every edition of its book: the Portuguese and English books of a
variant number the puzzles they share alike, and a puzzle only one edition has comes after the shared
ones.  Puzzles are matched across editions by position and solution line."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cache import Cache, use
from generator.lessons.check import check_paths
from generator.render.book import edition_numbers, plan_books
from generator.render.languages import language_trees
from generator.render.site import plan_site
from generator.rules import get_variant

ROOT = Path(__file__).resolve().parents[2]


def test_shared_puzzles_keep_one_number_and_edition_only_ones_come_after() -> None:
    pt = [("a", "1", 1), ("b", "1", 1), ("c", "1", 1), ("d", "1", 1)]
    en = [("b", "1", 1), ("x", "1", 1), ("a", "1", 1), ("d", "1", 1), ("c", "1", 1)]
    got_pt, got_en = edition_numbers([pt, en])
    assert got_pt == {pt[0]: 1, pt[1]: 2, pt[2]: 3, pt[3]: 4}
    assert {k: got_en[k] for k in pt} == got_pt  # the reference's order for the shared ones
    assert got_en[("x", "1", 1)] == 5  # the English-only puzzle, after them
    # each edition still runs 1..n without a gap
    assert sorted(got_en.values()) == list(range(1, 6)) and sorted(got_pt.values()) == list(range(1, 5))


def test_an_edition_only_puzzle_of_the_reference_comes_after_the_shared_ones_too() -> None:
    pt = [("only-pt", "l", 1), ("a", "l", 1)]
    en = [("a", "l", 1)]
    got_pt, got_en = edition_numbers([pt, en])
    assert got_pt == {("a", "l", 1): 1, ("only-pt", "l", 1): 2} and got_en == {("a", "l", 1): 1}
    assert edition_numbers([pt]) == [{("only-pt", "l", 1): 1, ("a", "l", 1): 2}]  # one edition: its own order


@pytest.mark.parametrize("variant", ["american", "international"])
def test_the_bundled_editions_number_the_same_puzzle_alike(variant: str, shared_cache: Cache) -> None:
    with use(shared_cache):  # the run's proof cache: the bundled puzzles are proven once per run
        report = check_paths([ROOT / "lessons" / variant])
    assert report.ok, report.errors
    site = plan_site(report.lessons, [get_variant(variant)])
    trees = language_trees(site, "pt-BR")
    assert [t.language for t in trees] == ["pt-BR", "en"]
    books = [plan_books(t.site, t.language)[0] for t in trees]
    numbered = [{(bp.item.fen, bp.item.solution): bp.number for bp in b.puzzles} for b in books]
    pt, en = numbered
    assert len(pt) >= 100 and len(en) >= 100
    shared = pt.keys() & en.keys()
    assert len(shared) >= 100
    assert all(pt[k] == en[k] for k in shared)
    for edition in numbered:
        assert sorted(edition.values()) == list(range(1, len(edition) + 1))
        assert all(edition[k] > len(shared) for k in edition.keys() - shared)
    # the book still runs from the easiest to the hardest through the shared puzzles
    levels = [bp.item.difficulty or 0 for bp in books[0].puzzles if (bp.item.fen, bp.item.solution) in shared]
    assert levels == sorted(levels)


def test_the_english_american_book_has_one_puzzle_of_its_own_and_it_comes_last(shared_cache: Cache) -> None:
    """The English puzzles page repeats the rules page's first shot (give one, take two) as a puzzle; the
    Portuguese edition shows it only as a diagram of the rules page."""
    with use(shared_cache):
        report = check_paths([ROOT / "lessons" / "american"])
    trees = language_trees(plan_site(report.lessons, [get_variant("american")]), "pt-BR")
    pt, en = (plan_books(t.site, t.language)[0] for t in trees)
    assert len(en.puzzles) == len(pt.puzzles) + 1
    last = en.puzzles[-1]
    assert last.number == len(en.puzzles) and last.item.id == "give-one-take-two"
    assert last.item.fen not in {bp.item.fen for bp in pt.puzzles}
