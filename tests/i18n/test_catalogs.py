"""The message catalogs: complete, compiled, strict, with the right plurals."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from generator.i18n import LOCALE_DIR, MissingTranslation, available_languages, translator

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ["pt_BR", "en"]


def _po(locale: str):
    with open(LOCALE_DIR / locale / "LC_MESSAGES" / "damas.po", "rb") as f:
        return read_po(f, locale=locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_committed_mo_is_the_compiled_po(locale: str) -> None:
    out = io.BytesIO()
    write_mo(out, _po(locale))
    assert (LOCALE_DIR / locale / "LC_MESSAGES" / "damas.mo").read_bytes() == out.getvalue(), (
        f"{locale}: run 'pybabel compile -d generator/locale -D damas'"
    )


def test_every_extracted_string_is_translated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pot = tmp_path / "damas.pot"
    monkeypatch.chdir(ROOT)
    keywords = ["-k", "N_", "-k", "NP_:1c,2"]
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel.cfg", *keywords, "-o", str(pot), "."])
    with open(pot, "rb") as f:
        template = read_po(f)
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    assert len(wanted) > 100
    # theme and level names are marked once, with their context, where they are defined (NP_)
    assert {("theme", "backward capture"), ("difficulty", "very hard")} <= wanted
    for locale in LOCALES:
        cat = _po(locale)
        have = {
            (m.context, m.id if isinstance(m.id, str) else m.id[0])
            for m in cat
            if m.id and (m.string if isinstance(m.string, str) else all(m.string))
        }
        assert not wanted - have, f"{locale} lacks {sorted(wanted - have)[:5]}"


def test_both_languages_ship() -> None:
    assert set(LOCALES) <= set(available_languages())


def test_a_missing_string_is_an_error_naming_it_and_the_language() -> None:
    with pytest.raises(MissingTranslation, match=r"'en'.*'No such words here'"):
        translator("en").gettext("No such words here")
    with pytest.raises(MissingTranslation, match="pt-BR"):
        translator("pt-BR").ngettext("%(num)d apple", "%(num)d apples", 2)


def test_a_language_without_a_catalog_is_an_error() -> None:
    with pytest.raises(MissingTranslation, match="no message catalog for language 'fr'"):
        translator("fr")


@pytest.mark.parametrize(
    ("language", "n", "text"),
    [("pt-BR", 1, "1 lição"), ("pt-BR", 2, "2 lições"), ("en", 1, "1 lesson"), ("en", 2, "2 lessons")],
)
def test_plurals(language: str, n: int, text: str) -> None:
    tr = translator(language)
    assert tr.ngettext("%(num)d lesson", "%(num)d lessons", n) % {"num": n} == text


def test_numbers_follow_the_language() -> None:
    assert translator("pt-BR").number(1234.5) == "1.234,5"
    assert translator("en").number(1234.5) == "1,234.5"


def test_regional_tags_find_their_catalog() -> None:
    assert translator("en-US").locale == "en"
    assert translator("pt").locale == "pt_BR"
