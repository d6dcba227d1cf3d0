"""The PDFs of a built course, read back with pypdf (and drawn with pdftoppm when it is installed)."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from pypdf import PdfReader

from generator.rules import get_variant

from .helpers import PDFS, Built, flat_outline, pdf_text, read_page, role, struct_elements

AMERICAN = get_variant("american").title
BRAZILIAN = get_variant("brazilian").title

TITLES = {
    "american/regras.pdf": AMERICAN,
    "american/exercicios.pdf": f"{AMERICAN} · Exercícios",
    "american/solucoes.pdf": f"{AMERICAN} · Soluções",
    "brazilian/regras.pdf": BRAZILIAN,
}


def _lesson_diagram(src: str) -> bool:
    return "-p" not in src.rsplit("/", 1)[-1]


def _puzzle(src: str) -> bool:
    return "-p" in src.rsplit("/", 1)[-1] and not src.endswith("-fim.svg")


def _final(src: str) -> bool:
    return src.endswith("-fim.svg")


SAME_IMAGES_AS = {
    # PDF -> (HTML page, which of its images) whose alt texts the PDF's figures must repeat
    "american/regras.pdf": [("american/regras.html", _lesson_diagram), ("american/golpes.html", _lesson_diagram)],
    "american/exercicios.pdf": [("american/livro-de-golpes.html", _puzzle)],
    "american/solucoes.pdf": [("american/livro-de-golpes.html", _final)],
    "brazilian/regras.pdf": [("brazilian/inicio.html", _lesson_diagram)],
}
BOOKLETS = ["american/regras.pdf", "brazilian/regras.pdf"]
SOLUTION = "1. … 26-23 2. 19x26 31x22x13"
"""American: Black moves first, so White's key move is the second half of move 1."""


@functools.cache
def _texts(path: Path) -> tuple[str, ...]:
    return tuple(pdf_text(PdfReader(path)))


def reader(built: Built, name: str) -> PdfReader:
    return PdfReader(built.pdf / name)


def texts_of(built: Built, name: str) -> list[str]:
    """Extracted text per page (cached: pypdf's extraction is the slow part of these tests)."""
    return list(_texts(built.pdf / name))


def test_the_table_covers_every_pdf() -> None:
    assert set(TITLES) == set(PDFS) == set(SAME_IMAGES_AS)


@pytest.mark.parametrize("name", PDFS)
def test_title_language_and_pages(built: Built, name: str) -> None:
    r = reader(built, name)
    assert len(r.pages) >= (2 if name in BOOKLETS else 1)
    assert r.metadata is not None and r.metadata.title == TITLES[name]
    root = r.trailer["/Root"]
    assert root.get("/Lang") == "pt-BR"
    prefs = root.get("/ViewerPreferences")
    assert prefs is not None and bool(prefs.get("/DisplayDocTitle")), "PDF/UA: the title, not the file name"
    for page in r.pages:
        box = [round(float(x)) for x in page.mediabox]
        assert box == [0, 0, 595, 842], f"{name}: not A4: {box}"


@pytest.mark.parametrize("name", PDFS)
def test_page_x_of_y_footers(built: Built, name: str) -> None:
    texts = texts_of(built, name)
    n = len(texts)
    if name in BOOKLETS:
        assert "Página" not in texts[0], f"{name}: the cover has no footer"
    first = 2 if name in BOOKLETS else 1  # a worksheet starts work on its first page
    assert n >= first
    for i, text in enumerate(texts[first - 1 :], start=first):
        assert f"Página {i} de {n}" in text, f"{name}: page {i} has no 'Página {i} de {n}'"


@pytest.mark.parametrize("name", PDFS)
def test_outline_matches_headings_and_contents_page(built: Built, name: str) -> None:
    r = reader(built, name)
    titles = flat_outline(r.outline)
    assert titles, f"{name}: no bookmarks"
    texts = texts_of(built, name)
    contents = next((t for t in texts if "Sumário" in t), None)
    if name not in BOOKLETS:  # worksheets and answer keys are short: bookmarks, no contents page
        assert contents is None, f"{name}: a contents page in a short document"
        for item in r.outline:
            if not isinstance(item, list):
                assert str(item.title) in texts[r.get_destination_page_number(item)], item.title
        assert {"Exercícios" if "exercicios" in name else "Soluções"} <= set(titles)
        return
    assert contents is not None, f"{name}: no contents page"
    position = 0

    def walk(items: list) -> None:  # type: ignore[type-arg]
        nonlocal position
        for item in items:
            if isinstance(item, list):
                walk(item)
                continue
            page = r.get_destination_page_number(item) + 1
            title = str(item.title)
            assert title in texts[page - 1], f"{name}: bookmark {title!r} -> page {page}, heading not there"
            m = re.compile(re.escape(title) + r" ?\.{3,} ?(\d+)").search(contents, position)
            assert m, f"{name}: {title!r} not in the contents"
            assert int(m.group(1)) == page, f"{name}: contents says {title!r} is on p{m.group(1)}, it is on p{page}"
            position = m.end()

    walk(r.outline)
    if name == "american/regras.pdf":
        assert "Primeiros passos" in titles and "A captura" in titles


@pytest.mark.parametrize("name", PDFS)
def test_tagged_with_alt_text_for_every_figure(built: Built, name: str) -> None:
    r = reader(built, name)
    root = r.trailer["/Root"]
    mark = root.get("/MarkInfo")
    assert mark is not None and bool(mark.get("/Marked")), f"{name}: not marked as tagged"
    assert "/StructTreeRoot" in root, f"{name}: no structure tree"
    role_map = root["/StructTreeRoot"].get_object().get("/RoleMap")
    elements = struct_elements(r)
    figures = [e for e in elements if role(e, role_map) == "/Figure"]
    alts = []
    for f in figures:
        alt = f.get("/Alt")
        assert alt is not None and str(alt).strip(), f"{name}: a /Figure without /Alt"
        alts.append(str(alt))
    html_alts = []
    for page, which in SAME_IMAGES_AS[name]:
        html_alts += [i.attrs["alt"] for i in read_page(built.html / page).all("img") if which(i.attrs["src"])]
    assert sorted(alts) == sorted(html_alts), f"{name}: PDF figures and HTML images differ"
    assert figures or name == "american/solucoes.pdf", f"{name}: no /Figure in the structure tree"
    assert any(role(e, role_map) in ("/H1", "/H") for e in elements), f"{name}: no heading tags"
    xmp = r.xmp_metadata
    assert xmp is not None and "<pdfuaid:part>1</pdfuaid:part>" in xmp.rdf_root.toxml(), f"{name}: not PDF/UA-1"


@pytest.mark.parametrize("name", PDFS)
def test_fonts_are_embedded(built: Built, name: str) -> None:
    r = reader(built, name)
    seen: set[int] = set()
    fonts: list[str] = []

    def visit(resources: object) -> None:
        res = resources.get_object() if resources is not None else None  # type: ignore[attr-defined]
        if not res:
            return
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            descriptor_owner = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            descriptor = descriptor_owner.get("/FontDescriptor")
            base = str(font.get("/BaseFont"))
            fonts.append(base)
            if font.get("/Subtype") == "/Type3":
                continue
            assert descriptor is not None, f"{name}: {base} has no descriptor"
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), f"{name}: {base}"
        for xobject in (res.get("/XObject") or {}).values():
            if xobject.idnum in seen:
                continue
            seen.add(xobject.idnum)
            x = xobject.get_object()
            if x.get("/Subtype") == "/Form":
                visit(x.get("/Resources"))

    for page in r.pages:
        visit(page.get("/Resources"))
    assert fonts, f"{name}: no fonts"
    assert all("DejaVu" in f for f in fonts if not f.startswith("/Type3")), f"{name}: {sorted(set(fonts))}"


@pytest.mark.parametrize("name", PDFS)
def test_links_in_pdfs_lead_somewhere(built: Built, name: str) -> None:
    """A link in a PDF is a web/mail address, an internal jump, or a file that exists beside the PDF.

    Lesson Markdown links such as ``golpes.html#exercicios`` or ``#captura`` are written for the
    HTML pages; in a PDF under ``pdf/`` they point at nothing.
    """
    path = built.pdf / name
    r = reader(built, name)
    broken = []
    for number, page in enumerate(r.pages, start=1):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            action = annot.get("/A")
            if annot.get("/Subtype") != "/Link" or action is None or "/URI" not in action:
                continue
            uri = str(action["/URI"])
            parts = urlsplit(uri)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            if parts.scheme == "" and parts.path and (path.parent / unquote(parts.path)).is_file():
                continue
            broken.append(f"p{number}: {uri}")
    assert broken == [], f"{name}: links that lead nowhere: {broken}"


def test_booklet_text(built: Built) -> None:
    text = " ".join(texts_of(built, "american/regras.pdf"))
    for words in (
        "Primeiros passos",
        "O primeiro lance",
        "Posição inicial, vez das pretas.",
        "As pretas têm sete lances.",
        "Vez das brancas: 27x18x11 é o único lance.",
        "Quem pode capturar tem de capturar",
        "Um golpe",
    ):
        assert words in text, words
    assert "**" not in text and "<" not in text, "Markdown or markup leaked into the PDF"
    assert "26-23 19x26" not in text, "the booklet gives a solution away"
    brazilian = " ".join(texts_of(built, "brazilian/regras.pdf"))
    assert "Primeiros lances" in brazilian and "A pedra de c3 captura: c3xe5." in brazilian
    assert "Primeiros passos" not in brazilian


def test_worksheet_has_no_solutions_and_hints_apart(built: Built) -> None:
    texts = texts_of(built, "american/exercicios.pdf")
    whole = " ".join(texts)
    assert "Jogam as brancas e ganham uma peça." in whole
    assert "26-23" not in whole and "19x26" not in whole, "the worksheet gives the solution away"
    hints = whole.index("Dicas")
    assert whole.index("As brancas ganham uma pedra.") > hints, "the author's caption is not in the hints"
    assert whole.index("Jogam as brancas e ganham uma peça.") < hints
    assert "1 exercício," in texts[0] and "1 exercícios" not in whole


def test_answer_key_numbers_branches_material_comment(built: Built) -> None:
    whole = " ".join(" ".join(texts_of(built, "american/solucoes.pdf")).split())
    assert SOLUTION in whole
    assert "No fim: brancas com 2 pedras; pretas com 1 pedra." in whole
    assert "brancas ficam com uma peça a mais." in whole
    for words in ("Índice por tema", "Índice por dificuldade", "nível 1: muito fácil"):
        assert words in whole, words


def test_one_puzzle_does_not_run_to_many_pages(built: Built) -> None:
    """A worksheet and an answer key with one puzzle fit one page each; the booklet wastes no
    page on front matter (title and contents share the first page)."""
    assert len(texts_of(built, "american/exercicios.pdf")) == 1
    assert len(texts_of(built, "american/solucoes.pdf")) == 1
    first = texts_of(built, "american/regras.pdf")[0]
    assert "Sumário" in first and AMERICAN in first


# --------------------------------------------------------------------------------------------------
# Drawn pages
# --------------------------------------------------------------------------------------------------

BOARD_DARK = (169, 116, 79)  # the dark squares' colour in the SVG template (#a9744f)


def render_page(pdf: Path, page: int, png: Path, dpi: int = 40) -> Path:
    exe = shutil.which("pdftoppm")
    if exe is None:
        pytest.skip("pdftoppm is not installed (apt-get install -y poppler-utils)")
    subprocess.run(
        [
            exe,
            "-f",
            str(page),
            "-l",
            str(page),
            "-r",
            str(dpi),
            "-png",
            "-singlefile",
            str(pdf),
            str(png.with_suffix("")),
        ],
        check=True,
        capture_output=True,  # poppler 22 complains about Typst's /Suspects on stderr: harmless
    )
    return png


def colour_shares(png: Path) -> tuple[float, float]:
    """(share of dark pixels, share of board-square-coloured pixels)."""
    from PIL import Image

    with Image.open(png) as im:
        data = im.convert("RGB").tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3], strict=True))
    dark = sum(1 for r, g, b in pixels if r + g + b < 200)
    board = sum(
        1 for r, g, b in pixels if abs(r - BOARD_DARK[0]) + abs(g - BOARD_DARK[1]) + abs(b - BOARD_DARK[2]) < 60
    )
    return dark / len(pixels), board / len(pixels)


@pytest.mark.parametrize(
    ("name", "words"),
    [("american/regras.pdf", "Posição inicial, vez das pretas."), ("american/exercicios.pdf", "Jogam as brancas e")],
)
def test_page_with_a_diagram_is_drawn(built: Built, tmp_path: Path, name: str, words: str) -> None:
    pytest.importorskip("PIL", reason="pip install pillow")
    texts = texts_of(built, name)
    page = next(i for i, t in enumerate(texts, start=1) if words in t)
    dark, board = colour_shares(render_page(built.pdf / name, page, tmp_path / "page.png"))
    assert dark > 0.002, f"{name} p{page}: almost no dark pixels ({dark:.3%}): blank page?"
    assert board > 0.01, f"{name} p{page}: no board squares drawn ({board:.3%})"
    if name in BOOKLETS:
        _, cover_board = colour_shares(render_page(built.pdf / name, 1, tmp_path / "cover.png"))
        assert cover_board < board / 10, "the colour test does not tell a board from a page without one"
