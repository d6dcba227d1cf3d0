"""The bundled puzzle books are a collection a club could print (issue 14): enough puzzles per
variant, each with a caption a person wrote, ordered by difficulty.

That every puzzle is sound (key, uniqueness within the cook margin) is proven by ``damas check`` on
the bundled course, which other tests run; here the shape of the collection is checked.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.puzzles.mining.candidate import _CAPTIONS

ROOT = Path(__file__).resolve().parents[2]
TARGETS = {
    "brazilian": 100,
    "international": 100,
    "russian": 100,
    "american": 100,
    "portuguese": 50,
    "italian": 50,
    "turkish": 50,
    "perde-ganha": 50,
}
MINER_CAPTIONS = {
    f"{side} {goal.format(n=n)}"
    for words in _CAPTIONS.values()
    for side in words["side"]
    for goal in [words["win"], words["promote"], *words["gain"]]
    for n in range(1, 13)
}
"""What ``damas mine`` writes before a person curates it."""


def puzzles_of(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text(encoding="utf-8")).get("puzzles") or []


def puzzles(folder: Path) -> list[dict]:
    """Every puzzle of a variant's book (its pt-BR lessons)."""
    return [p for path in sorted(folder.glob("*.yaml")) for p in puzzles_of(path)]


@pytest.mark.parametrize("variant", TARGETS)
def test_each_book_holds_its_target_of_puzzles(variant: str) -> None:
    found = puzzles(ROOT / "lessons" / variant)
    assert len(found) >= TARGETS[variant], f"{variant}: {len(found)} puzzles"
    written = [p.get("position") or (p.get("board"), p.get("turn")) for p in found]
    assert len(set(written)) == len(found), f"{variant}: a position twice"


@pytest.mark.parametrize("variant", TARGETS)
def test_captions_are_written_by_a_person_and_never_repeated(variant: str) -> None:
    mined = puzzles_of(ROOT / "lessons" / variant / "exercicios.yaml")
    assert mined, f"{variant}: no exercises"
    assert all(p.get("caption") for p in mined), f"{variant}: an exercise without a caption"
    captions = [" ".join(p["caption"].split()) for p in puzzles(ROOT / "lessons" / variant) if p.get("caption")]
    generic = [c for c in captions if c in MINER_CAPTIONS]
    assert not generic, f"{variant}: the miner's caption left as is: {generic[:3]}"
    twice = [c for c, n in Counter(captions).items() if n > 1]
    assert not twice, f"{variant}: the same caption twice: {twice[:3]}"


COLLECTIONS = sorted(ROOT.glob("lessons/*/exercicios.yaml")) + sorted(ROOT.glob("lessons/*/en/exercises.yaml"))


def test_every_variant_has_its_exercise_collection() -> None:
    assert {p.parent.name for p in COLLECTIONS if p.name == "exercicios.yaml"} == set(TARGETS)


@pytest.mark.parametrize("path", COLLECTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_exercise_collections_go_from_easy_to_hard_and_keep_their_provenance(path: Path) -> None:
    found = yaml.safe_load(path.read_text(encoding="utf-8"))["puzzles"]
    assert found, "an empty collection"
    levels = [p.get("difficulty", 0) for p in found]
    assert levels == sorted(levels)
    assert all(p.get("source") for p in found), "every mined puzzle says where it comes from"


@pytest.mark.parametrize("variant", ["american", "international"])
def test_the_english_collection_holds_the_same_puzzles_in_the_same_order(variant: str) -> None:
    def positions(path: Path) -> list[str]:
        return [p["position"] for p in yaml.safe_load(path.read_text(encoding="utf-8"))["puzzles"]]

    folder = ROOT / "lessons" / variant
    assert positions(folder / "en" / "exercises.yaml") == positions(folder / "exercicios.yaml")


# -- issue 24: books a master would print ------------------------------------------------------------


def _book_entries(variant: str) -> list:
    from generator.lessons.books import books

    return books(ROOT / "lessons")[variant]


def test_the_american_book_is_at_least_half_real_games_each_with_its_provenance() -> None:
    from generator.render.answer import provenance

    entries = _book_entries("american")
    real = [e for e in entries if (e.puzzle.source or {}).get("kind") == "pdn"]
    assert len(entries) >= 100 and 2 * len(real) >= len(entries)
    for e in real:
        assert provenance(e.puzzle.source, "en").startswith("ACF archive, game "), e.name


MAIN_BOOKS = ["american", "brazilian", "international", "russian"]


@pytest.mark.parametrize("variant", MAIN_BOOKS)
def test_each_main_book_follows_the_book_rules(variant: str) -> None:
    from generator.puzzles import book_rules

    entries = _book_entries(variant)
    assert len(entries) >= 100
    assert book_rules.length_mix(len(e.facts.moves) for e in entries).ok
    broken = [(e.name, book_rules.judge(e.facts, e.puzzle.stipulation).reasons) for e in entries]
    assert not [b for b in broken if b[1]]
    pairs = book_rules.duplicate_pairs([(e.name, e.facts) for e in entries])
    assert not pairs


def test_no_position_of_the_main_books_appears_twice_in_the_course() -> None:
    """Brazilian and Russian share the board: a position (or a near-duplicate) is printed once."""
    from generator.lessons.books import books
    from generator.puzzles import book_rules

    course = books(ROOT / "lessons")
    assert set(MAIN_BOOKS) <= set(course)
    named = [(e.name, e.facts) for v in MAIN_BOOKS for e in course[v]]
    assert not book_rules.duplicate_pairs(named)


PUZZLE_LESSONS = sorted(p for p in (ROOT / "lessons").rglob("*.yaml") if puzzles_of(p))


def test_the_course_has_puzzle_lessons_of_every_variant() -> None:
    assert {p.relative_to(ROOT / "lessons").parts[0] for p in PUZZLE_LESSONS} == set(TARGETS)


@pytest.mark.parametrize("path", PUZZLE_LESSONS, ids=lambda p: str(p.relative_to(ROOT / "lessons")))
def test_every_printed_puzzle_keeps_the_eight_ply_margin(path: Path) -> None:
    """The printed books hold every puzzle of a variant's lessons (generator/render/book.py), the worked
    examples of the golpes lessons too: each lesson with puzzles sets the books' margin, none lowers it."""
    found = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert found["margin"] == 8 and found["margin_reason"] and found["proof_budget"] >= 5_000_000
    assert all("margin" not in p for p in found["puzzles"]), "no puzzle lowers the book's margin"


@pytest.mark.parametrize("variant", TARGETS)
def test_no_caption_states_what_the_line_does_not_do(variant: str) -> None:
    from generator.puzzles.book_rules import theme_problems, understated
    from generator.puzzles.caption_audit import audit_caption

    entries = _book_entries(variant)
    assert entries
    false = [(e.name, audit_caption(e.puzzle.caption or "", e.facts)) for e in entries]
    assert not [f for f in false if f[1]]
    assert not [e.name for e in entries if understated(e.facts, e.puzzle.goal)], "a win printed as less"
    assert not [e.name for e in entries if theme_problems(e.facts, e.puzzle.themes)]


@pytest.mark.parametrize("variant", ["american", "international"])
def test_no_english_caption_states_what_the_line_does_not_do(variant: str) -> None:
    from generator.lessons.books import books
    from generator.puzzles.caption_audit import audit_caption

    entries = books(ROOT / "lessons", "en")[variant]
    assert entries
    assert not [
        (e.name, audit_caption(e.puzzle.caption or "", e.facts, "en"))
        for e in entries
        if audit_caption(e.puzzle.caption or "", e.facts, "en")
    ]
