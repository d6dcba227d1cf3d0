"""The theme words of the books, explained: what each tag a puzzle carries means.

A puzzle's themes come from two places: the tagger (:data:`~generator.puzzles.themes.THEMES`, which
decides its seven tags from the proven line) and the authors, who add words the engine does not
decide (``atração``, ``tempo``, ``troca`` …).  A reader meets both in the answer key's index by
theme, so the key explains each one: its name in the reader's language, the other language's name,
the tag as authors write it, whether the engine decides it, and what it means.

Tags are the Portuguese words the course uses; ``aliases`` are the other spellings authors wrote
for the same idea (the English lessons' ``exchange`` for ``troca``), so an English book's index
finds its explanations too.  Names and meanings are English msgids translated where shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import NP_, translator
from .themes import THEME_MSGIDS, THEMES


@dataclass(frozen=True)
class ThemeWord:
    tag: str
    """The tag as the course writes it (Portuguese), and as the tagger names it."""
    name: str
    """English msgid of the name (context ``theme``)."""
    meaning: str
    """English msgid of the explanation (context ``theme meaning``)."""
    aliases: tuple[str, ...] = ()
    """Other tags authors write for the same idea."""

    @property
    def decided(self) -> bool:
        """Does the engine decide this theme from the line (rather than the author)?"""
        return self.tag in THEMES


THEME_WORDS: tuple[ThemeWord, ...] = (
    ThemeWord(
        "sacrifício",
        THEME_MSGIDS["sacrifício"],
        NP_(
            "theme meaning",
            "Material is really given up: after the opponent's capture and the solver's next move, the "
            "solver is still behind what it had at the start. A shot that takes two for one at once is "
            "not a sacrifice, nor is an even exchange.",
        ),
    ),
    ThemeWord(
        "golpe de dama",
        THEME_MSGIDS["golpe de dama"],
        NP_(
            "theme meaning",
            "A king, already crowned when the move starts, makes the biggest capture of the combination.",
        ),
    ),
    ThemeWord(
        "coroação",
        THEME_MSGIDS["coroação"],
        NP_(
            "theme meaning",
            "A man of the solver is crowned during the line, and the new king is still on the board at the end.",
        ),
    ),
    ThemeWord(
        "bloqueio",
        THEME_MSGIDS["bloqueio"],
        NP_(
            "theme meaning",
            "The line ends with the opponent to move, holding pieces but without a single legal move, "
            "which loses the game.",
        ),
    ),
    ThemeWord(
        "lei da maioria",
        THEME_MSGIDS["lei da maioria"],
        NP_(
            "theme meaning",
            "The capture rule (take the most pieces, or what the variant's order of captures says) forces "
            "the opponent into one capture although another capture was on the board.",
        ),
    ),
    ThemeWord(
        "golpe turco",
        THEME_MSGIDS["golpe turco"],
        NP_(
            "theme meaning",
            "Pieces already jumped stay on the board until the capture is over and may not be jumped "
            "twice, so they stop the capturing piece halfway.",
        ),
    ),
    ThemeWord(
        "captura para trás",
        THEME_MSGIDS["captura para trás"],
        NP_("theme meaning", "A man, not a king, captures backward, toward its own side of the board."),
    ),
    ThemeWord(
        "atração",
        NP_("theme", "attraction"),
        NP_(
            "theme meaning",
            "An offer that forces an opponent's piece, by the compulsory capture, onto the square where "
            "the combination needs it.",
        ),
        ("attraction",),
    ),
    ThemeWord(
        "tempo",
        NP_("theme", "tempo"),
        NP_(
            "theme meaning",
            "A quiet move, capturing nothing and offering nothing, after which every move the opponent "
            "has loses: the opponent must move and so spoils the position.",
        ),
    ),
    ThemeWord(
        "troca",
        NP_("theme", "exchange"),
        NP_(
            "theme meaning",
            "Pieces are given and taken back in equal numbers, to open a road or to change who has to move.",
        ),
        ("exchange",),
    ),
    ThemeWord(
        "captura em cadeia",
        NP_("theme", "multiple capture"),
        NP_(
            "theme meaning",
            "One capture takes several pieces in a single move, the capturing piece jumping from one to the next.",
        ),
        ("multiple capture", "multiple jump"),
    ),
    ThemeWord(
        "entrega dupla",
        NP_("theme", "double offer"),
        NP_(
            "theme meaning",
            "Two offers in a row, each answered by a compulsory capture, before the decisive capture.",
        ),
        ("double offer",),
    ),
    ThemeWord(
        "dois por um",
        NP_("theme", "two-for-one"),
        NP_("theme meaning", "One piece given, two taken back."),
        ("two-for-one",),
    ),
    ThemeWord(
        "três por um",
        NP_("theme", "three-for-one"),
        NP_("theme meaning", "One piece given, three taken back."),
        ("three-for-one",),
    ),
    ThemeWord(
        "ruptura",
        NP_("theme", "breakthrough"),
        NP_(
            "theme meaning",
            "Men force their way through the opponent's line, usually by giving one up, so that one of "
            "them reaches the king row or the decisive square.",
        ),
        ("breakthrough",),
    ),
    ThemeWord(
        "coroação na tomada",
        NP_("theme", "crowning in a capture"),
        NP_(
            "theme meaning",
            "A man reaches the last row in the middle of a capture, is crowned there and goes on capturing "
            "as a king, as the Russian rules allow.",
        ),
    ),
    ThemeWord(
        "coroação forçada",
        NP_("theme", "forced crowning"),
        NP_(
            "theme meaning",
            "In the losing game: the opponent is made to crown a man, and the new king is then forced to "
            "capture the pieces the solver wants to be rid of.",
        ),
    ),
    ThemeWord(
        "final",
        NP_("theme", "ending"),
        NP_(
            "theme meaning",
            "An ending with few pieces left, won by the position of the pieces more than by a shot.",
        ),
        ("ending",),
    ),
)
"""Every theme word the course uses, engine tags first (in the tagger's order)."""


def find_word(tag: str, language: str) -> ThemeWord | None:
    """The theme word a book shows as ``tag``: its Portuguese tag, an alias, or its name in ``language``."""
    tr = translator(language)
    wanted = tag.strip().casefold()
    for word in THEME_WORDS:
        names = {word.tag, *word.aliases, tr.pgettext("theme", word.name)}
        if wanted in {n.casefold() for n in names}:
            return word
    return None


def explained(tags: list[str], language: str) -> list[dict[str, str | bool]]:
    """The explanations of ``tags`` (as a book's index names them), in the index's order; a tag
    with no explanation is left out.  Each: the name shown, the other language's name, the tag,
    whether the engine decides it, and the meaning."""
    tr = translator(language)
    other = translator("en" if tr.locale.startswith("pt") else "pt-BR")
    out: list[dict[str, str | bool]] = []
    seen: set[str] = set()
    for tag in tags:
        word = find_word(tag, language)
        if word is None or word.tag in seen:
            continue
        seen.add(word.tag)
        out.append(
            {
                "name": tag,
                "other": other.pgettext("theme", word.name),
                "tag": word.tag,
                "decided": word.decided,
                "meaning": tr.pgettext("theme meaning", word.meaning),
            }
        )
    return out
