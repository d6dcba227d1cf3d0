"""The glossary shared by the pages and ``damas check``: warnings for avoided forms and straight
quotes (errors only in a strict course: tests/lessons/test_reader_text.py), quoted mentions left alone,
a course's own glossary, and the course's pages written in the glossary's vocabulary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cache import Cache, use
from generator.cli import main
from generator.lessons.check import check_paths
from generator.lessons.glossary import GlossaryError, bundled_glossary, load_glossary, parse_glossary

COURSE = Path(__file__).resolve().parents[2] / "lessons"

LESSON = """\
variant: brazilian
language: pt-BR
title: Vocabulário
slug: vocabulario
sections:
  - title: Palavras
    text: |
      A pedra anda uma casa.
      Na Fila de trás, perto da beirada, o “peão” das regras portuguesas.
    diagrams:
      - position: W:Wc3:Bd4
        caption: Cada "meio-lance" conta.
        claims:
          - only_move: c3xe5
"""


@pytest.fixture
def lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "lessons" / "brazilian"
    folder.mkdir(parents=True)
    (folder / "vocabulario.yaml").write_text(LESSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder / "vocabulario.yaml"


def test_bundled_glossary_is_consistent() -> None:
    g = bundled_glossary("pt-BR")
    assert g is not None and g.language == "pt-BR"
    terms = [t.term for t in g.terms]
    assert len(terms) == len(set(terms))
    avoided = [a for t in g.terms for a in t.avoid]
    assert len(avoided) == len(set(avoided))
    assert not set(avoided) & set(terms), "a form is both the course's word and one to avoid"
    assert {"fileira", "borda", "lance", "grande diagonal", "pedra", "dama"} <= set(terms)
    assert bundled_glossary("xx-XX") is None


def test_findings_name_the_form_and_the_course_word() -> None:
    g = bundled_glossary("pt-BR")
    assert g is not None
    assert g.findings("A pedra na fileira de trás.") == []
    assert g.findings("Fila e filas.\nna beirada") == [
        (0, 0, "'Fila': this course writes 'fileira' (glossary)"),
        (0, 7, "'filas': this course writes 'fileira' (glossary)"),
        (1, 3, "'beirada': this course writes 'borda' (glossary)"),
    ]
    # Whole words only, and a quoted word is a mention, not a use.
    assert g.findings("perfilado, beiral") == []
    assert g.findings("o “peão” das regras portuguesas") == []
    assert g.findings('o "peão"') == [
        (0, 2, "straight quote: write “…”"),
        (0, 3, "'peão': this course writes 'pedra' (glossary)"),
        (0, 7, "straight quote: write “…”"),
    ]


def test_check_reports_warnings_with_positions_and_still_passes(lesson: Path) -> None:
    report = check_paths(["lessons"])
    assert report.ok, report.errors
    assert [str(w) for w in report.warnings] == [
        "lessons/brazilian/vocabulario.yaml:9:10: 'Fila': this course writes 'fileira' (glossary)",
        "lessons/brazilian/vocabulario.yaml:9:33: 'beirada': this course writes 'borda' (glossary)",
        # A plain (not block) scalar has one position, its start: the two quotes are one warning there.
        "lessons/brazilian/vocabulario.yaml:12:18: 'meio-lance': this course writes 'lance' (glossary)",
        "lessons/brazilian/vocabulario.yaml:12:18: straight quote: write “…”",
    ]


def test_cli_prints_warnings_and_exits_zero(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "lessons"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "lessons/brazilian/vocabulario.yaml:9:10: warning: 'Fila': this course writes 'fileira' (glossary)"
    assert sum(": warning: " in line for line in out) == 4
    assert out[-1].startswith("ok: ")
    assert main(["check", "lessons", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is True and len(payload["warnings"]) == 4
    assert payload["warnings"][0] == {
        "path": "lessons/brazilian/vocabulario.yaml",
        "line": 9,
        "col": 10,
        "message": "'Fila': this course writes 'fileira' (glossary)",
    }


def test_a_course_glossary_replaces_the_bundled_one(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = lesson.parent.parent.parent / "glossario.yml"
    own.write_text("language: pt-BR\ntitle: G\nterms:\n  - term: peça\n    definition: d\n    avoid: [pedra]\n")
    assert main(["check", "lessons", "--glossary", str(own)]) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if ": warning: " in line]
    assert warnings == [
        "lessons/brazilian/vocabulario.yaml:8:9: warning: 'pedra': this course writes 'peça' (glossary)"
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("terms: [", "not valid YAML"),
        ("title: x", "expected a mapping with a list of 'terms'"),
        ("language: pt-BR\ntitle: G\nterms:\n  - term: x\n", "term 1: 'definition' must be a non-empty text"),
        ("language: pt-BR\ntitle: G\nterms:\n  - {term: x, definition: y, avoid: z}\n", "'avoid' must be a list"),
    ],
)
def test_a_bad_glossary_is_one_clear_message(text: str, message: str) -> None:
    with pytest.raises(GlossaryError, match=message):
        parse_glossary(text, "g.yaml")


def test_cli_bad_or_missing_glossary_is_a_usage_error(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "lessons", "--glossary", "nowhere.yaml"]) == 2
    err = capsys.readouterr().err
    assert "cannot read the glossary" in err and "Traceback" not in err
    with pytest.raises(GlossaryError):
        load_glossary(lesson.parent / "missing.yaml")


def test_the_course_rules_and_endgame_pages_follow_the_glossary(shared_cache: Cache) -> None:
    with use(shared_cache):  # the run's proof cache: the bundled puzzles are proven once per run
        report = check_paths([COURSE])
    assert report.ok, report.errors
    pages = [c for c in report.lessons if c.lesson.path.endswith(("regras.yaml", "finais.yaml"))]
    assert len(pages) >= 8, "the rules and endgame pages were checked"
    mine = [w for w in report.warnings if w.path.endswith(("regras.yaml", "finais.yaml"))]
    assert mine == [], "\n".join(map(str, mine))


def test_the_english_glossary_names_the_english_words_and_avoids_pawn_and_queen() -> None:
    g = bundled_glossary("en")
    assert g is not None and g.language == "en" and g.title == "Glossary"
    terms = {t.term for t in g.terms}
    assert {"man", "king", "crown", "capture", "jump", "multiple jump", "king row", "double corner"} <= terms
    assert {"single corner", "the move", "majority rule", "flying king"} <= terms
    avoided = [a for t in g.terms for a in t.avoid]
    assert len(avoided) == len(set(avoided)) and not set(avoided) & terms
    assert g.findings("A man on the king row is crowned; a checker is a piece.") == []
    found = g.findings("The pawn becomes a queen.")
    assert [m.split("'")[1] for _, _, m in found] == ["pawn", "queen"]
    assert "this course writes 'man'" in found[0][2] and "this course writes 'king'" in found[1][2]
    assert bundled_glossary("en-US") == g  # a regional tag finds the language's glossary


def test_the_english_lessons_follow_the_english_glossary(shared_cache: Cache) -> None:
    english = [COURSE / v / "en" for v in ("american", "international")]
    assert all(p.is_dir() for p in english)
    with use(shared_cache):
        report = check_paths(english)
    assert report.ok, report.errors
    assert report.lessons and all(c.lesson.language == "en" for c in report.lessons)
    assert report.warnings == [], "\n".join(map(str, report.warnings))
