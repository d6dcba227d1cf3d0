"""Helpers for the build tests: tiny lesson trees written into tmp folders, and small readers for the
HTML, SVG and PDF output.

The lessons are real: ``damas check`` must accept them, so every claim in them is true.
"""

from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

# ---------------------------------------------------------------------------------------------------
# Lessons
# ---------------------------------------------------------------------------------------------------

AMERICAN_RULES: dict[str, Any] = {
    "variant": "american",
    "language": "pt-BR",
    "title": "Primeiros passos",
    "slug": "regras",
    "summary": "O primeiro lance, a captura e o fim da partida.",
    "order": 1,
    "sections": [
        {
            "title": "O primeiro lance",
            "id": "primeiro-lance",
            "text": (
                "As **pretas** começam. Veja a [captura](#captura) e os [golpes](golpes.html#exercicios).\n\n"
                "* a pedra anda *uma casa* na diagonal;\n"
                "* veja também a [lição sobre golpes](golpes.html).\n"
            ),
            "diagrams": [
                {
                    "position": "start",
                    "id": "tabuleiro",
                    "caption": "Posição inicial, vez das pretas.",
                    "show": {"highlight": [9, 10, 11, 12], "arrows": ["9-13"]},
                    "claims": [
                        {
                            "moves": ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"],
                            "text": "As pretas têm sete lances.",
                        }
                    ],
                }
            ],
        },
        {
            "title": "A captura",
            "id": "captura",
            "text": "Quem pode capturar tem de capturar, e a captura vai até o fim.",
            "diagrams": [
                {
                    "position": "W:W27,30:B15,23",
                    "id": "captura-obrigatoria",
                    "caption": "Vez das brancas: 27x18x11 é o único lance.",
                    "show": {"route": "27x18x11", "captured": True},
                    "claims": [{"only_move": "27x18x11"}],
                }
            ],
        },
        {
            "title": "O fim da partida",
            "text": "Quem fica sem lance perde.",
            "diagrams": [
                {
                    "position": "W:W13,14:B5",
                    "caption": "O lance 13-9 vence.",
                    "claims": [{"line": ["13-9"], "result": "white-wins", "reason": "blocked"}],
                }
            ],
        },
    ],
}

# A string on purpose: the helper takes YAML text as well as dicts.
AMERICAN_GOLPES = """\
variant: american
language: pt-BR
title: Um golpe
slug: golpes
summary: Um sacrifício que ganha uma pedra.
order: 2
sections:
  - title: O sacrifício
    text: |
      Às vezes é preciso **dar** uma pedra para ganhar duas. Volte às [regras](regras.html#tabuleiro).
    diagrams:
      - position: W:W26,31,32:B1,17,19
        id: golpe
        caption: Vez das brancas, que entregam uma pedra.
        claims:
          - legal: [26-23, 26-22]
puzzles:
  - id: golpe-1
    position: W:W26,31,32:B1,17,19
    stipulation: gain:1
    solution: [26-23, 19x26, 31x22x13]
    themes: [sacrifício]
    difficulty: 1
    caption: As brancas ganham uma pedra.
"""

BRAZILIAN_START: dict[str, Any] = {
    "variant": "brazilian",
    "language": "pt-BR",
    "title": "Primeiros lances",
    "slug": "inicio",
    "summary": "A saída e a captura para trás.",
    "order": 1,
    "sections": [
        {
            "title": "A saída",
            "id": "saida",
            "text": "As brancas começam. As casas têm nome de coluna e fileira, como c3.",
            "diagrams": [
                {
                    "position": "start",
                    "id": "tabuleiro",
                    "caption": "As brancas começam.",
                    "show": {"coordinates": True},
                    "claims": [{"moves": ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]}],
                },
                {
                    "position": "W:Wc3:Bd4",
                    "id": "pedra-captura",
                    "caption": "A pedra de c3 captura: c3xe5.",
                    "show": {"coordinates": True, "route": "c3xe5"},
                    "claims": [{"only_move": "c3xe5"}],
                },
            ],
        }
    ],
}

BAD_LESSON = """\
variant: american
language: pt-BR
title: Errada
slug: errada
sections:
  - title: Um erro
    diagrams:
      - position: start
        caption: Afirma um lance único que não é.
        claims:
          - only_move: 9-13
"""


def write_lesson(root: Path, variant: str, name: str, content: dict[str, Any] | str) -> Path:
    """Write one lesson file ``root/variant/name.yaml`` from a dict or from YAML text."""
    folder = root / variant
    folder.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else yaml.safe_dump(content, allow_unicode=True, sort_keys=False)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def write_course(root: Path) -> Path:
    """Three lessons: two American (one with the puzzle), one Brazilian (algebraic squares)."""
    write_lesson(root, "american", "regras", AMERICAN_RULES)
    write_lesson(root, "american", "golpes", AMERICAN_GOLPES)
    write_lesson(root, "brazilian", "inicio", BRAZILIAN_START)
    return root


# ---------------------------------------------------------------------------------------------------
# A built course
# ---------------------------------------------------------------------------------------------------

# What the fixture course builds to (relative to html/, html/svg/ and pdf/).
PAGES = [
    "index.html",
    "comparacao.html",
    "glossario.html",
    "american/index.html",
    "american/regras.html",
    "american/golpes.html",
    "american/livro-de-golpes.html",
    "brazilian/index.html",
    "brazilian/inicio.html",
    "editor.html",
]
PAGES_WITH_DIAGRAMS = [
    "american/regras.html",
    "american/golpes.html",
    "american/livro-de-golpes.html",
    "brazilian/inicio.html",
]
"""The pages that show diagrams as images (the others show none)."""
SVGS = [
    "american/regras-01.svg",
    "american/regras-02.svg",
    "american/regras-03.svg",
    "american/golpes-01.svg",
    "american/golpes-p01.svg",
    "brazilian/inicio-01.svg",
    "brazilian/inicio-02.svg",
]
PDFS = [
    "american/regras.pdf",
    "american/exercicios.pdf",
    "american/solucoes.pdf",
    "brazilian/regras.pdf",
]
"""One set per variant: the rules booklet, and the worksheet and answer key where there are puzzles."""
PRINTSETS = ["american/tabuleiro.pdf", "brazilian/tabuleiro.pdf"]
"""The printable board-and-pieces sets (generator/render/printset.py), one per variant."""
SUMMARY = re.compile(
    r"built (?P<pages>\d+) page\(s\), (?P<diagrams>\d+) diagram\(s\), (?P<puzzles>\d+) puzzle\(s\), "
    r"(?P<pdfs>\d+) PDF\(s\)(?: \((?:(?P<reused>\d+) unchanged)?(?:, )?(?:(?P<cached>\d+) from the cache)?\))? "
    r"for (?P<variants>\d+) variant\(s\) in "
    r"(?P<seconds>\d+\.\d) s -> (?P<out>.+)"
)

TIMINGS: list[str] = []
"""Build times noted by the fixtures, printed at the end of the run (never asserted)."""


@dataclass
class Built:
    out: Path
    lessons: Path
    summary: Any
    seconds: float

    @property
    def html(self) -> Path:
        return self.out / "html"

    @property
    def pdf(self) -> Path:
        return self.out / "pdf"


# ---------------------------------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    line: int


@dataclass
class Page:
    """What the tests need from one HTML page, read with the standard library's parser."""

    path: Path
    elements: list[Element] = field(default_factory=list)
    title: str = ""
    text: str = ""
    problems: list[str] = field(default_factory=list)
    """Nesting errors found while parsing (an end tag that closes nothing open, unclosed tags)."""

    def all(self, tag: str) -> list[Element]:
        return [e for e in self.elements if e.tag == tag]

    def ids(self) -> list[str]:
        return [e.attrs["id"] for e in self.elements if "id" in e.attrs]


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.in_title = False
        self.chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.page.elements.append(Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0]))
        if tag == "title":
            self.in_title = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.page.elements.append(Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.page.problems.append(f"line {self.getpos()[0]}: </{tag}> but open: {self.stack[-3:]}")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.page.title += data
        self.chunks.append(data)


def read_page(path: Path) -> Page:
    page = Page(path)
    reader = _Reader(page)
    reader.feed(path.read_text(encoding="utf-8"))
    reader.close()
    if reader.stack:
        page.problems.append(f"unclosed at end: {reader.stack}")
    page.text = " ".join("".join(reader.chunks).split())
    return page


def parse_html_text(text: str, name: str = "page.html") -> Page:
    page = Page(Path(name))
    reader = _Reader(page)
    reader.feed(text)
    reader.close()
    page.text = " ".join("".join(reader.chunks).split())
    return page


def local_target(page: Path, href: str) -> tuple[Path, str] | None:
    """(file, fragment) a relative link or src points to, or None for a link with a scheme."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    return target, unquote(parts.fragment)


SVG_NS = "{http://www.w3.org/2000/svg}"


def read_svg(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


# ---------------------------------------------------------------------------------------------------
# PDF
# ---------------------------------------------------------------------------------------------------


def struct_elements(reader: Any) -> list[Any]:
    """Every structure element (a dict with /S) of a tagged PDF, walking /StructTreeRoot /K."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    root = reader.trailer["/Root"]
    tree = root["/StructTreeRoot"].get_object()
    out: list[Any] = []
    seen: set[int] = set()

    def walk(node: Any) -> None:
        if isinstance(node, IndirectObject):
            if node.idnum in seen:
                return
            seen.add(node.idnum)
            node = node.get_object()
        if isinstance(node, ArrayObject):
            for child in node:
                walk(child)
        elif isinstance(node, DictionaryObject):
            if "/S" in node:
                out.append(node)
            if "/K" in node:
                walk(node["/K"])

    walk(tree.get("/K"))
    return out


def role(element: Any, role_map: Any) -> str:
    """The standard structure type of an element, following /RoleMap."""
    name = str(element["/S"])
    for _ in range(10):
        if role_map is None or name not in role_map:
            break
        name = str(role_map[name])
    return name


def pdf_text(reader: Any) -> list[str]:
    """Per page, the extracted text with whitespace collapsed."""
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def flat_outline(outline: Any) -> list[str]:
    out: list[str] = []
    for item in outline:
        if isinstance(item, list):
            out.extend(flat_outline(item))
        else:
            out.append(str(item.title))
    return out


# ---------------------------------------------------------------------------------------------------
# Folder snapshots (atomicity)
# ---------------------------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file and folder under ``folder``: relative path -> (content, mtime in ns); folders end in "/"."""
    out: dict[str, tuple[bytes, int]] = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_dir():
            out[rel + "/"] = (b"", 0)
        else:
            out[rel] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def leftovers(parent: Path, name: str) -> list[str]:
    """Temporary folders a build may have left beside ``parent/name``."""
    return sorted(p.name for p in parent.iterdir() if p.name.startswith(f".{name}-"))


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    """Debian's chromium (a shell wrapper at /usr/bin/chromium), or None."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    return shutil.which("chromium")
