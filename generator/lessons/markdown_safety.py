"""What lesson text may not contain: raw HTML, script links, images from the web.

Lesson Markdown is rendered with raw HTML switched off and markdown-it's link validation on, so
markup and ``javascript:`` links could never reach a page anyway; the checker still reports them,
because an author who typed ``<b>`` or a script link expects something the page will not show.
Links may be web (http, https), mail or page-relative; images must be local files inside the
course, since the pages work offline.  Scheme-relative links (``//host/``) are refused: they leave
the course for whatever host they name, over whatever protocol the page was opened with.

The checker also refuses what the build cannot lay out: block quotes and lists nested deeper than the
``markdown_depth`` limit (Typst stops at about 15 levels) and texts with more links and images than
``markdown_links`` (each becomes several objects in every output).
"""

from __future__ import annotations

import posixpath
from functools import cache
from urllib.parse import urlparse

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..limits import limit, raise_hint

SAFE_LINK_SCHEMES = {"", "http", "https", "mailto"}


@cache
def _parser() -> MarkdownIt:
    # html=True and every link accepted, so that raw HTML and script links show up as tokens we can
    # report; the renderer (generator.render.markdown) keeps both off.
    md = MarkdownIt("commonmark", {"html": True})
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # markdown-it's documented hook
    return md


_CONTAINERS = {"blockquote_open", "bullet_list_open", "ordered_list_open"}
_CLOSERS = {"blockquote_close", "bullet_list_close", "ordered_list_close"}


def parse(text: str) -> list[Token]:
    """The token stream the checks read (raw HTML and every link kept, so they can be reported)."""
    return _parser().parse(text)


def count_links(tokens: list[Token]) -> int:
    """Links and images in a token stream (cheap: nothing is located in the source)."""
    return sum(1 for t in tokens for c in _walk(t) if c.type in ("link_open", "image"))


def scan(text: str, tokens: list[Token] | None = None) -> list[tuple[str, str, int, int]]:
    """Every raw HTML piece, link and image of a Markdown text: (kind, content or URL, line,
    column), kinds ``html``, ``link``, ``image``; line and column are 0-based within ``text``."""
    found: list[tuple[str, str, int, int]] = []
    lines = text.splitlines()
    cursor = [0, 0]  # search position (line, column), so repeated snippets are found in order

    missed: dict[str, tuple[int, int, int]] = {}

    def locate(snippet: str, block_line: int, block_end: int) -> tuple[int, int]:
        # Search only the block's own lines, so a snippet written differently in the source
        # (markdown-it normalises URLs, a reference link's URL is written elsewhere) costs the
        # block, not the rest of the text; and a snippet already missed from an earlier point of
        # the same block is not searched again (a thousand "[x]" on one line would rescan it).
        start = max(block_line, cursor[0])
        end = min(len(lines), max(block_end, block_line + 1))
        here = (start, cursor[1] if start == cursor[0] else 0)
        miss = missed.get(snippet)
        if miss is not None and (miss[0], miss[1]) <= here and end <= miss[2]:
            return block_line, 0
        for i in range(start, end):
            col = lines[i].find(snippet, cursor[1] if i == cursor[0] else 0)
            if col >= 0:
                cursor[0], cursor[1] = i, col + len(snippet)
                return i, col
        missed[snippet] = (*here, end)
        return block_line, 0

    for token in _parser().parse(text) if tokens is None else tokens:
        line, end = token.map if token.map else (0, len(lines))
        if token.type == "html_block":
            first = token.content.strip().splitlines()[0] if token.content.strip() else token.content
            found.append(("html", token.content, *locate(first.strip(), line, end)))
        for child in _walk(token):
            if child.type == "html_inline":
                found.append(("html", child.content, *locate(child.content, line, end)))
            elif child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                found.append(("link", href, *locate(_raw_target(href), line, end)))
            elif child.type == "image":
                src = str(child.attrs.get("src", ""))
                found.append(("image", src, *locate(_raw_target(src), line, end)))
    return found


def unsafe_markdown(text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) for every unsafe construct; line and column are 0-based positions
    within ``text``."""
    problems: list[tuple[int, int, str]] = []
    tokens = parse(text)
    problems.extend(_too_deep(tokens))
    most = limit("markdown_links")
    links = count_links(tokens)
    if links > most:  # counted before any is located: locating thousands is the expensive part
        problems.append(
            (
                tokens[0].map[0] if tokens and tokens[0].map else 0,
                0,
                f"this text has {links} links and images, too many {raise_hint('markdown_links')}",
            )
        )
        return problems
    for kind, value, line, col in scan(text, tokens):
        if kind == "html":
            problems.append((line, col, f"raw HTML is not allowed in lesson text: {_snippet(value)}"))
        elif kind == "link" and value.startswith(("//", "\\\\", "/\\", "\\/")):
            problems.append(
                (
                    line,
                    col,
                    f"link to '{_snippet(value)}' is scheme-relative (it names another host); "
                    "write https://... for a web link",
                )
            )
        elif kind == "link" and urlparse(value).scheme.lower() not in SAFE_LINK_SCHEMES:
            problems.append(
                (
                    line,
                    col,
                    f"link to '{_snippet(value)}' is not allowed (only http, https, mailto or links within the course)",
                )
            )
        elif kind == "image" and (urlparse(value).scheme or urlparse(value).netloc):
            problems.append((line, col, f"image '{_snippet(value)}' is not a local file; pages must work offline"))
        elif kind == "image" and _outside(value):
            problems.append((line, col, f"image '{_snippet(value)}' is outside the course folder"))
    return problems


def _outside(src: str) -> bool:
    """An image path that is absolute or climbs out of the course.  Pages sit one folder below
    the site root (``american/regras.html``), so one ``..`` reaches the root and a second leaves it."""
    path = urlparse(src).path
    if path.startswith("/"):
        return True
    target = posixpath.normpath(posixpath.join("variant", path))
    return target == ".." or target.startswith("../")


def _too_deep(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Block quotes and lists nested deeper than the ``markdown_depth`` limit: one error, at the
    first container over it."""
    most = limit("markdown_depth")
    depth = 0
    for token in tokens:
        if token.type in _CONTAINERS:
            depth += 1
            if depth > most:
                line = token.map[0] if token.map else 0
                return [
                    (
                        line,
                        0,
                        f"block quotes and lists nested more than {most} levels deep {raise_hint('markdown_depth')}",
                    )
                ]
        elif token.type in _CLOSERS:
            depth -= 1
    return []


def _raw_target(url: str) -> str:
    """The start of a URL as it is probably written in the source (markdown-it normalises it)."""
    return url.split("%")[0][:12] or url


def _walk(token: Token) -> list[Token]:
    out = []
    for child in token.children or []:
        out.append(child)
        out.extend(_walk(child))
    return out


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."
