"""Every reader-facing word, looked up in a gettext catalog of the reader's language.

The source strings (msgids) are English: it is the language every translator can read, gettext's
own convention, and the language of the code.  Each language, English included, has a complete
catalog under ``generator/locale/<locale>/LC_MESSAGES/damas.po`` (compiled to ``.mo`` beside it,
shipped in the wheel); adding a language is adding a catalog.  Lookups are strict: a string the
catalog lacks raises :class:`MissingTranslation` naming the msgid and the language, so a page is
never silently half Portuguese.  ``pt-BR`` is the default language.

Strings are marked for ``pybabel extract`` (see ``babel.cfg``) as ``_()``/``ngettext()`` in Jinja
templates and as ``N_()`` / ``tr.gettext()`` / ``tr.ngettext()`` in Python.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from babel.numbers import format_decimal as _format_decimal
from babel.support import Translations

from .errors import DamasError

DOMAIN = "damas"
DEFAULT_LANGUAGE = "pt-BR"
LOCALE_DIR = Path(str(resources.files("generator").joinpath("locale")))
"""The catalogs, found like every other package data (generator/resources.py): in the wheel or the source."""


class MissingTranslation(DamasError):
    """A reader-facing string has no translation in the catalog of the page's language."""


def NP_(context: str, msgid: str) -> str:
    """Mark a string with a message context for extraction (``pybabel -k NP_:1c,2``) without
    translating it: the msgid is returned and translated where shown with ``pgettext(context, ...)``."""
    return msgid


def N_(msgid: str) -> str:
    """Mark a string for extraction without translating it (it is translated where shown)."""
    return msgid


def available_languages() -> list[str]:
    """The locales that have a compiled catalog (``pt_BR``, ``en`` …)."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))


def locale_of(language: str) -> str:
    """The catalog's locale for a BCP 47 tag: ``pt-BR`` -> ``pt_BR``, ``en-US`` -> ``en``, ``pt`` -> ``pt_BR``."""
    have = available_languages()
    tag = language.replace("-", "_")
    base = tag.split("_")[0].lower()
    for cand in (tag, base):
        if cand in have:
            return cand
    for cand in have:
        if cand.split("_")[0] == base:
            return cand
    raise MissingTranslation(
        f"no message catalog for language '{language}' (have: {', '.join(have)}); "
        f"add generator/locale/{tag}/LC_MESSAGES/{DOMAIN}.po"
    )


def short_language(language: str) -> str:
    """``pt-BR`` -> ``pt``, ``en-GB`` -> ``en``: the key other modules switch on (Typst ``lang``)."""
    return language.split("-")[0].split("_")[0].lower()


class Translator:
    """gettext/ngettext of one language, strict: a msgid the catalog lacks is an error."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.locale = locale_of(language)
        self._tr = Translations.load(str(LOCALE_DIR), [self.locale], DOMAIN)
        self._catalog: dict[object, str] = getattr(self._tr, "_catalog", {})

    def _missing(self, msgid: str) -> MissingTranslation:
        return MissingTranslation(
            f"the message catalog for '{self.language}' ({LOCALE_DIR.name}/{self.locale}/LC_MESSAGES/"
            f"{DOMAIN}.po) has no translation of {msgid!r}"
        )

    def gettext(self, msgid: str) -> str:
        text = self._catalog.get(msgid)
        if not text:
            raise self._missing(msgid)
        return text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if not self._catalog.get((singular, 0)):
            raise self._missing(singular)
        return self._tr.ngettext(singular, plural, n)

    def pgettext(self, context: str, msgid: str) -> str:
        text = self._catalog.get(f"{context}\x04{msgid}")
        if not text:
            raise self._missing(f"{context}|{msgid}")
        return text

    def number(self, value: float) -> str:
        """A number as the language writes it (``1.234,5`` in pt-BR, ``1,234.5`` in en)."""
        return _format_decimal(value, locale=self.locale)

    def quote(self, text: str) -> str:
        """Quotation marks of the language (“…” in both pt-BR and en)."""
        return self.gettext("“") + text + self.gettext("”")

    @property
    def html_lang(self) -> str:
        """The ``lang`` attribute of the pages."""
        return self.locale.replace("_", "-")

    @property
    def typst(self) -> tuple[str, str | None]:
        """Typst's ``lang`` and ``region`` (hyphenation patterns, quotes, figure words)."""
        lang, _, region = self.locale.partition("_")
        return lang, region or None


@cache
def translator(language: str = DEFAULT_LANGUAGE) -> Translator:
    """The (cached) translator of ``language``; raises :class:`MissingTranslation` without a catalog."""
    return Translator(language)


@cache
def anchor_names(language: str) -> dict[str, str]:
    """The page anchors the build makes, in ``language`` (``exercicios`` / ``puzzles``).

    ``section`` and ``diagram`` hold ``%(num)s`` for the number."""
    tr = translator(language)
    return {
        "content": tr.pgettext("anchor", "content"),
        "puzzles": tr.pgettext("anchor", "puzzles"),
        "section": tr.pgettext("anchor", "section-%(num)s"),
        "diagram": tr.pgettext("anchor", "diagram-%(num)s"),
        "reading": tr.pgettext("anchor", "how-to-read"),
        "indexes": tr.pgettext("anchor", "indexes"),
        "print": tr.pgettext("anchor", "to-print"),
    }
