"""What lesson text may not contain: raw HTML, script links, images from the web.

Lesson Markdown is rendered with raw HTML switched off, so markup could never run anyway; the
checker still reports it, because an author who typed ``<b>`` or ``<script>`` expects something the
page will not show.  Links may be web (http, https), mail or page-relative; images must be local,
since the pages work offline.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlparse

from markdown_it import MarkdownIt
from markdown_it.token import Token

SAFE_LINK_SCHEMES = {"", "http", "https", "mailto"}


@cache
def _parser() -> MarkdownIt:
    # html=True only so that raw HTML shows up as tokens we can report; rendering keeps it off.
    return MarkdownIt("commonmark", {"html": True})


def unsafe_markdown(text: str) -> list[tuple[int, str]]:
    """(line within the text, 0-based; message) for every unsafe construct."""
    problems: list[tuple[int, str]] = []
    for token in _parser().parse(text):
        line = token.map[0] if token.map else 0
        if token.type == "html_block":
            problems.append((line, f"raw HTML is not allowed in lesson text: {_snippet(token.content)}"))
        for child in _walk(token):
            if child.type == "html_inline":
                problems.append((line, f"raw HTML is not allowed in lesson text: {_snippet(child.content)}"))
            elif child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                scheme = urlparse(href).scheme.lower()
                if scheme not in SAFE_LINK_SCHEMES:
                    problems.append(
                        (
                            line,
                            f"link to '{_snippet(href)}' is not allowed (only http, https, mailto or "
                            "links within the course)",
                        )
                    )
            elif child.type == "image":
                src = str(child.attrs.get("src", ""))
                if urlparse(src).scheme:
                    problems.append((line, f"image '{_snippet(src)}' is not local; pages must work offline"))
    return problems


def _walk(token: Token) -> list[Token]:
    out = []
    for child in token.children or []:
        out.append(child)
        out.extend(_walk(child))
    return out


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."
