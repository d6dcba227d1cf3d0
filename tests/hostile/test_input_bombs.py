"""Alias, nesting, size and Markdown bombs: each is refused with one error naming its limit.

Small files that expand: YAML aliases repeating a long string, 500 levels of nesting (PyYAML's
composer recursed until RecursionError), 1,000 nested PDN variations (the same in replay), a title
of a megabyte copied into every page, thousands of diagrams, block quotes nested past what Typst
can lay out, tens of thousands of links.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.lessons.check import check_paths, check_text
from generator.lessons.markdown_safety import scan
from generator.rules.pdn import MAX_VARIATION_DEPTH, read_pdn, replay, write_pdn

from .lesson_text import lesson, section

HEAD = "variant: american\nlanguage: pt-BR\ntitle: T\nslug: t\n"


def errors_of(text: str) -> list[str]:
    _, errors = check_text(text, "l.yaml")
    return [str(e) for e in errors]


def test_the_plain_lesson_checks_clean() -> None:
    assert errors_of(lesson()) == []


def test_aliases_of_a_long_string_are_bounded_by_expanded_characters() -> None:
    """Under the node cap (a few thousand values) but megabytes of text once expanded."""
    text = (
        HEAD
        + 'big: &s "'
        + "x" * 50_000
        + '"\n'
        + "many: &m ["
        + ",".join(["*s"] * 50)
        + "]\n"
        + "more: ["
        + ",".join(["*m"] * 50)
        + "]\n"
    )
    assert len(text) < 60_000
    got = errors_of(text)
    assert len(got) == 1
    assert "expands (through aliases) to more than 4000000 characters" in got[0]
    assert "DAMAS_LIMIT_YAML_EXPANDED_CHARS" in got[0]
    assert got[0].startswith("l.yaml:")


def test_the_node_cap_still_holds() -> None:
    lines = [HEAD, 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n']
    prev = "a"
    for name in "bcdefg":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]\n")
        prev = name
    got = errors_of("".join(lines))
    assert len(got) == 1 and "more than 200000 values" in got[0]


@pytest.mark.parametrize("opener,closer", [("[", "]"), ("{a: ", "}")])
def test_500_levels_of_nesting_are_one_error_not_a_recursion_error(opener: str, closer: str) -> None:
    text = HEAD + "x: " + opener * 500 + closer * 500 + "\n"
    got = errors_of(text)
    assert len(got) == 1
    assert "nested more than 40 levels deep" in got[0] and "DAMAS_LIMIT_YAML_DEPTH" in got[0]
    assert got[0].startswith("l.yaml:5:")


def test_block_nesting_is_bounded_too() -> None:
    text = HEAD + "".join(" " * i + f"k{i}:\n" for i in range(300)) + " " * 300 + "end: 1\n"
    got = errors_of(text)
    assert len(got) == 1 and "nested more than 40 levels deep" in got[0]


def test_aliases_cannot_nest_deeper_than_the_limit() -> None:
    """Each anchor is shallow, but an alias inside an alias inside ... stacks their depths."""
    lines = [HEAD, "a0: &a0 " + "[" * 30 + "1" + "]" * 30 + "\n"]
    for i in range(1, 4):
        lines.append(f"a{i}: &a{i} " + "[" * 30 + f"*a{i - 1}" + "]" * 30 + "\n")
    got = errors_of("".join(lines))
    assert len(got) == 1 and "(through aliases)" in got[0] and "nested more than 40 levels" in got[0]


def test_the_limit_can_be_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    text = HEAD + "x: " + "[" * 60 + "]" * 60 + "\n"
    assert any("nested more than" in e for e in errors_of(text))
    monkeypatch.setenv("DAMAS_LIMIT_YAML_DEPTH", "100")
    assert not any("nested more than" in e for e in errors_of(text))


def test_a_megabyte_title_is_refused_before_anything_else() -> None:
    got = errors_of(lesson(title="T" * 1_000_000))
    assert got == [
        "l.yaml:4:11: this text has 1000000 characters, too many (limit title_chars = 300; "
        "raise it with DAMAS_LIMIT_TITLE_CHARS)"
    ]


def test_too_many_diagrams_and_a_too_long_text() -> None:
    many = [{"title": "S", "text": "t", "diagrams": [{"position": "start"}] * 600}] * 2
    got = errors_of(lesson(sections=many))
    assert len(got) == 1 and "1200 diagrams, too many (limit diagrams = 1000" in got[0]
    got = errors_of(lesson(sections=[section("palavra " * 70_000)]))
    assert len(got) == 1 and "560000 characters, too many (limit text_chars = 500000" in got[0]


def test_the_whole_lesson_text_is_bounded() -> None:
    sections = [section("a" * 400_000) for _ in range(6)]
    got = errors_of(lesson(sections=sections))
    assert len(got) == 1 and "limit lesson_text_chars" in got[0]


def test_5000_nested_block_quotes_are_refused_by_check() -> None:
    got = errors_of(lesson(sections=[section(">" * 5000 + " oi")]))
    assert len(got) == 1 and "nested more than 10 levels deep" in got[0]
    quoted_lists = "".join("> " * 6 + "  " * i + "- a\n" for i in range(6))  # lists inside quotes
    got = errors_of(lesson(sections=[section(quoted_lists)]))
    assert len(got) == 1 and "nested more than 10 levels deep" in got[0]


def test_ten_levels_still_check() -> None:
    mixed = "".join(">" * (i + 1) + " a\n" for i in range(10))
    assert errors_of(lesson(sections=[section(mixed)])) == []


def test_tens_of_thousands_of_reference_links_are_refused() -> None:
    text = " ".join(f"[l{i}]" for i in range(20_000)) + "\n\n" + "".join(f"[l{i}]: #x\n" for i in range(20_000))
    got = errors_of(lesson(sections=[section(text)]))
    assert len(got) == 1 and "20000 links and images, too many (limit markdown_links = 2000" in got[0]


def test_link_positions_survive_the_search_shortcuts() -> None:
    """Same positions as the plain search (checked against it): a snippet missed once is not
    searched again from the same place, but a later block still is."""
    cases = {
        "[a] [b](#x) [c](#x)\n\nfim [d](#x)\n\n[a]: #x\n": [(0, 8), (0, 16), (0, 0), (2, 8)],
        "[b](#y) [a] [c](#y)\n\n[a]: #q\n\n[e](#q)\n": [(0, 4), (0, 0), (0, 16), (4, 4)],
    }
    for text, expected in cases.items():
        assert [(line, col) for _, _, line, col in scan(text)] == expected


def test_1000_nested_pdn_variations_are_one_error() -> None:
    text = "1. 32-28 " + "(32-27 " * 1000 + ")" * 1000 + " *"
    games = read_pdn(text)
    result = replay(games[0])  # used to die with RecursionError
    messages = [e.message for e in result.errors]
    assert any(f"variations nested more than {MAX_VARIATION_DEPTH} deep" in m for m in messages)
    write_pdn(games)  # the writer recurses into variations too


def test_variations_up_to_the_limit_still_replay() -> None:
    depth = MAX_VARIATION_DEPTH
    text = "1. 32-28 " + "(32-27 " * depth + ")" * depth + " *"
    result = replay(read_pdn(text)[0])
    assert result.ok, result.errors


@pytest.mark.parametrize("number", ["1" * 5000, "0x" + "f" * 5000, "-" + "9" * 30])
def test_huge_yaml_numbers_are_refused_not_crashing(number: str) -> None:
    """YAML ints go through int(), which raises ValueError past 4,300 digits."""
    text = lesson().replace('"slug"', f'"order": {number}, "slug"')
    got = errors_of(text)
    assert got == [f"l.yaml:5:11: the number has {len(number)} characters; at most 18"]


def test_counters_with_huge_values_are_refused() -> None:
    sections = [{"title": "S", "text": "t", "diagrams": [{"position": "start", "counters": {"quiet": 10**30}}]}]
    got = errors_of(lesson(sections=sections))
    assert len(got) == 1 and "the number has 31 characters" in got[0]


def test_links_are_bounded_per_lesson_too(tmp_path: Path) -> None:
    """Each text under the limit, the lesson over it: every link becomes objects in every output."""
    text = " ".join(f"[l{i}](https://example.com/{i})" for i in range(1500))
    path = tmp_path / "l.yaml"
    path.write_text(lesson(sections=[section(text), section(text)]), encoding="utf-8")
    got = [str(e) for e in check_paths([path]).errors]
    assert len(got) == 1 and "3000 links and images in all, too many (limit markdown_links = 2000" in got[0]
