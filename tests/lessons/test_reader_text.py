"""The reader-text check: one test per rule (internal section marks, repository paths, command lines, the
glossary's avoided forms, the house style of each language), the block for authors, warnings for any
course and errors where the course is strict, and the package's own reader text held to the same rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from generator.cache import Cache, use
from generator.cli import main
from generator.cli.app import COMMANDS as CLI_COMMANDS
from generator.i18n import LOCALE_DIR
from generator.lessons import reader_text
from generator.lessons.check import check_paths
from generator.lessons.glossary import bundled_glossary
from generator.resources import glossary_dir, templates_dir

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "lessons"


def messages(text: str, language: str = "en") -> list[str]:
    return [m for _, _, m in reader_text.findings(text, language)]


def test_internal_section_marks_are_found() -> None:
    found = messages("As the rules-spec says (§14.6), and § 3 too.")
    assert [m.split("'")[1] for m in found] == ["rules-spec", "§14.6", "§ 3"]
    assert all(m.startswith("internal section mark") for m in found)
    assert messages("Article 4.15 of the FMJD rules, 2018 edition.") == []


def test_repository_paths_and_file_names_are_found() -> None:
    found = messages("See seeds/000 and docs/rules.md, or regras.yaml.", "pt-BR")
    assert [m.split("'")[1] for m in found] == ["seeds/000", "docs/rules.md", "regras.yaml"]
    # web addresses and sites are sources a reader can use
    assert messages("Copies at e-dama.net/dama/Annex_1.htm and https://example.org/docs/x.") == []


def test_command_lines_are_found_but_the_name_of_the_game_is_not() -> None:
    found = messages("Use damas game brazilian --draw-profile fmjd64, or pip install damas.", "pt-BR")
    assert [m.split("'")[1] for m in found] == ["damas game", "--draw-profile", "pip install"]
    assert messages("As damas brasileiras e as damas russas: o jogo de damas.", "pt-BR") == []
    assert messages("A dash — not a flag — and 12-16, 27x18x11.") == []


def test_the_check_knows_every_subcommand_of_the_command_line() -> None:
    assert len(CLI_COMMANDS) > 10
    assert set(CLI_COMMANDS) <= set(reader_text.COMMANDS)


def test_the_glossary_avoided_forms_are_found_even_across_a_line_break() -> None:
    found = reader_text.findings("Na primeira jogada, a tomada em\ncadeia vai até o fim.", "pt-BR")
    assert [(k, col, m.split("'")[1]) for k, col, m in found] == [
        (0, 3, "primeira jogada"),
        (0, 22, "tomada em cadeia"),
    ]
    assert all("(glossary)" in m for _, _, m in found)
    # a quoted word is a mention
    assert messages("O texto antigo diz “tomada em cadeia”.", "pt-BR") == []


def test_american_spelling_is_the_english_house_style() -> None:
    found = messages("The defence of the centre: colour, favourite, recognise.")
    assert [m.split("'")[1::2] for m in found] == [
        ["defence", "defense"],
        ["centre", "center"],
        ["colour", "color"],
        ["favourite", "favorite"],
        ["recognise", "recognize"],
    ]
    assert messages("The defense of the center, in color.") == []
    assert messages("Descentralizar a defesa.", "pt-BR") == []  # English words only on English pages


def test_checkers_words_are_the_english_house_style() -> None:
    found = messages("A man on the back\nrank; White to play and win one piece.")
    assert [m.split("'")[1::2] for m in found] == [["back rank", "king row"], ["win one piece", "win a piece"]]
    assert messages("A man on the king row; White to play and win a piece.") == []


def test_the_sides_take_a_singular_verb() -> None:
    found = messages("Black have two men and White are to move; Black don't.")
    assert [re.findall(r"'(.+?)'(?:[:)]|$)", m) for m in found] == [
        ["Black have", "Black has"],
        ["White are", "White is"],
        ["Black don't", "Black doesn't"],
    ]
    # not the side's own verb, or a plural subject
    assert messages("Does White have a win? Can Black do it? Black and White are even.") == []
    assert messages("Black has two men and White is to move.") == []


def test_european_portuguese_spelling_is_not_the_brazilian_house_style() -> None:
    found = messages("Para efectuar o lance, o objectivo é claro.", "pt-BR")
    assert [m.split("'")[1::2] for m in found] == [["efectuar", "efetuar"], ["objectivo", "objetivo"]]
    assert messages("Para efetuar o lance; a FPD escreve “efectuar”.", "pt-BR") == []


LESSON = """\
variant: brazilian
language: pt-BR
title: Empates
slug: empates
sections:
  - title: Perfis
    text: |
      As regras da CBD (rules-spec §4): use `damas game --draw-profile fmjd64`.
    for_authors: |
      Para analisar: `damas game brazilian --draw-profile fmjd64`, ou veja docs/rules.md.
    diagrams:
      - position: W:Wc3:Bd4
        caption: A primeira jogada.
        claims:
          - only_move: c3xe5
"""


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "lessons" / "brazilian"
    folder.mkdir(parents=True)
    (folder / "empates.yaml").write_text(LESSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


EXPECTED = [
    "lessons/brazilian/empates.yaml:8:25: internal section mark 'rules-spec': cite the source by title, body, "
    "year and article (reader text)",
    "lessons/brazilian/empates.yaml:8:36: internal section mark '§4': cite the source by title, body, year and "
    "article (reader text)",
    "lessons/brazilian/empates.yaml:8:46: command line 'damas game': move it to a for_authors block or leave it "
    "out (reader text)",
    "lessons/brazilian/empates.yaml:8:57: command line '--draw-profile': move it to a for_authors block or leave "
    "it out (reader text)",
    # a plain (not block) scalar has one position, its start
    "lessons/brazilian/empates.yaml:13:18: 'primeira jogada': this course writes 'lance' (glossary)",
]


def test_any_course_gets_warnings_with_positions_and_the_author_block_is_left_alone(course: Path) -> None:
    report = check_paths(["lessons"])
    assert report.ok, report.errors
    assert [str(w) for w in report.warnings] == EXPECTED


def test_a_strict_course_gets_errors_and_fails(course: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = check_paths(["lessons"], strict_text=True)
    assert not report.ok and report.warnings == []
    assert [str(e) for e in report.errors] == EXPECTED
    assert main(["check", "lessons", "--strict-text"]) == 1
    assert main(["check", "lessons"]) == 0
    # course.yaml's own setting, without the flag
    (course / "course.yaml").write_text("title: T\nlanguage: pt-BR\nstrict_text: true\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert [e["message"] for e in payload["errors"]][-1] == "'primeira jogada': this course writes 'lance' (glossary)"
    assert payload["warnings"] == []


def test_the_author_block_is_shown_apart_on_the_page(course: Path) -> None:
    from generator.render.site import plan_lesson

    report = check_paths(["lessons"])
    item = plan_lesson(report.lessons[0])
    section = item.sections[0]
    assert "docs/rules.md" in section.authors_html and "docs/rules.md" not in section.html
    assert section.authors_blocks, "the PDF gets the block too"


def test_the_bundled_course_passes_the_strict_check(shared_cache: Cache) -> None:
    with use(shared_cache):  # the run's proof cache: the bundled puzzles are proven once per run
        report = check_paths([COURSE], strict_text=True)
    assert report.lessons and len(report.lessons) >= 40
    assert report.ok, "\n".join(map(str, report.errors))
    assert report.warnings == []


def _catalog_strings(locale: str) -> list[tuple[str, str]]:
    with open(LOCALE_DIR / locale / "LC_MESSAGES" / "damas.po", "rb") as f:
        cat = read_po(f, locale=locale)
    out = []
    for m in cat:
        if not m.id:
            continue
        for s in [m.string] if isinstance(m.string, str) else m.string:
            out.append((m.id if isinstance(m.id, str) else m.id[0], s))
    return out


@pytest.mark.parametrize(("locale", "language"), [("en", "en"), ("pt_BR", "pt-BR")])
def test_the_message_catalogs_reader_strings_pass(locale: str, language: str) -> None:
    strings = _catalog_strings(locale)
    assert len(strings) > 300
    bad = [(mid, s, reader_text.findings(s, language)) for mid, s in strings if reader_text.findings(s, language)]
    assert bad == []


def test_the_glossaries_pass() -> None:
    files = sorted(glossary_dir().glob("*.yaml"))
    assert len(files) >= 2
    for f in files:
        g = bundled_glossary(f.stem)
        assert g is not None
        texts = [g.title, g.lead] + [t.definition for t in g.terms]
        bad = [(t, reader_text.findings(t, g.language)) for t in texts if reader_text.findings(t, g.language)]
        assert bad == [], f.name


def test_the_templates_fixed_text_passes() -> None:
    """Words written into the templates themselves (not through the catalogs): what is left of each HTML
    template once tags, Jinja code and scripts are taken out, checked in both languages' internal rules."""
    templates = sorted((templates_dir() / "html").glob("*.j2")) + sorted((templates_dir() / "typst").glob("*.typ"))
    assert len(templates) > 8
    for path in templates:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"(?s)<script.*?</script>|<style.*?</style>|\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}|<[^>]+>", " ", text)
        if path.suffix == ".typ":
            text = "\n".join(re.findall(r"\[([^\[\]#]{12,})\]", text))  # Typst content blocks with words
        found = [m for _, _, m in reader_text.findings(text, "pt-BR") if "(reader text)" in m]
        assert found == [], path.name


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_a_new_course_passes_the_strict_check(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The starter lessons ``damas init`` writes keep their command lines in blocks for authors."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "curso", "--language", language, "--variant", "brazilian", "--variant", "american"]) == 0
    capsys.readouterr()
    assert main(["check", "--course", "curso", "--strict-text"]) == 0, capsys.readouterr().out
