"""Lesson Markdown for the two outputs: safe HTML for pages, plain data blocks for Typst.

HTML: markdown-it in CommonMark mode with raw HTML off, so any tag an author types is shown as
text and never becomes markup; markdown-it's own link validation drops ``javascript:`` and similar
URLs.  Typst: the same token stream becomes JSON-able blocks (paragraphs, lists, headings) of
inline runs (text, strong, emphasis, code, link), which the Typst template turns into content
with its own functions, so no lesson text is ever parsed as Typst markup.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

Inline = dict[str, Any]
Block = dict[str, Any]


@cache
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False})


def to_html(text: str) -> str:
    """Markdown as HTML with raw HTML disabled (it is escaped, not dropped)."""
    return _md().render(text or "")


def inline_html(text: str) -> str:
    """A one-line Markdown text (a caption) as HTML without the enclosing paragraph."""
    return _md().renderInline(text or "")


def to_blocks(text: str) -> list[Block]:
    """Markdown as a list of blocks for the Typst template.

    Block kinds: ``{"kind": "par", "runs": [...]}``, ``{"kind": "heading", "level": n, "runs": [...]}``,
    ``{"kind": "list", "ordered": bool, "items": [[block, ...], ...]}``, ``{"kind": "quote",
    "blocks": [...]}``, ``{"kind": "code", "text": str}``.  Runs: ``{"text": str, "strong": bool,
    "emph": bool, "code": bool, "link": str | None}``.
    """
    tokens = _md().parse(text or "")
    blocks, _ = _blocks(tokens, 0, None)
    return blocks


def inline_runs(text: str) -> list[Inline]:
    """A one-line Markdown text as runs."""
    tokens = _md().parseInline(text or "")
    return _runs(tokens[0].children or []) if tokens else []


def _blocks(tokens: list[Token], i: int, closing: str | None) -> tuple[list[Block], int]:
    out: list[Block] = []
    while i < len(tokens):
        t = tokens[i]
        if closing is not None and t.type == closing:
            return out, i + 1
        if t.type == "paragraph_open":
            out.append({"kind": "par", "runs": _runs(tokens[i + 1].children or [])})
            i += 3
        elif t.type == "heading_open":
            out.append({"kind": "heading", "level": int(t.tag[1]), "runs": _runs(tokens[i + 1].children or [])})
            i += 3
        elif t.type in ("bullet_list_open", "ordered_list_open"):
            ordered = t.type == "ordered_list_open"
            items: list[list[Block]] = []
            i += 1
            end = "ordered_list_close" if ordered else "bullet_list_close"
            while tokens[i].type != end:
                assert tokens[i].type == "list_item_open"
                item, i = _blocks(tokens, i + 1, "list_item_close")
                items.append(item)
            out.append({"kind": "list", "ordered": ordered, "items": items})
            i += 1
        elif t.type == "blockquote_open":
            inner, i = _blocks(tokens, i + 1, "blockquote_close")
            out.append({"kind": "quote", "blocks": inner})
        elif t.type in ("fence", "code_block", "html_block"):
            out.append({"kind": "code", "text": t.content.rstrip("\n")})
            i += 1
        elif t.type == "hr":
            i += 1
        elif t.type == "inline":  # tight list items hold their inline token directly
            out.append({"kind": "par", "runs": _runs(t.children or [])})
            i += 1
        else:
            i += 1
    return out, i


def _runs(children: list[Token]) -> list[Inline]:
    runs: list[Inline] = []
    strong = emph = 0
    link: str | None = None
    for c in children:
        if c.type == "strong_open":
            strong += 1
        elif c.type == "strong_close":
            strong -= 1
        elif c.type == "em_open":
            emph += 1
        elif c.type == "em_close":
            emph -= 1
        elif c.type == "link_open":
            href = str(c.attrs.get("href", ""))
            link = href if _md().validateLink(href) else None
        elif c.type == "link_close":
            link = None
        elif c.type in ("text", "html_inline"):
            runs.append(_run(c.content, strong, emph, False, link))
        elif c.type == "code_inline":
            runs.append(_run(c.content, strong, emph, True, link))
        elif c.type == "softbreak":
            runs.append(_run(" ", strong, emph, False, link))
        elif c.type == "hardbreak":
            runs.append(_run("\n", strong, emph, False, link))
        elif c.type == "image":
            runs.append(_run(c.content or "", strong, emph, False, link))
    return runs


def _run(text: str, strong: int, emph: int, code: bool, link: str | None) -> Inline:
    return {"text": text, "strong": strong > 0, "emph": emph > 0, "code": code, "link": link}
