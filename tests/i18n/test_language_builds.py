"""Whole builds in English: an English course, and a course with lessons in two languages."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

import generator.i18n as i18n
from generator.build import build
from generator.render import names
from tests.site.helpers import write_course

from .helpers import page_text, portuguese_in


def _damas(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def english_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``damas init --language en`` built with HTML and PDF."""
    base = tmp_path_factory.mktemp("en")
    r = _damas("init", "--language", "en", "club", cwd=base)
    assert r.returncode == 0, r.stderr
    r = _damas("build", "--out", str(base / "out"), cwd=base / "club")
    assert r.returncode == 0, r.stderr
    return base / "out"


def _pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html")) + sorted(root.rglob("*.pdf"))


def test_english_course_has_no_portuguese(english_course: Path) -> None:
    pages = _pages(english_course)
    assert len([p for p in pages if p.suffix == ".pdf"]) >= 3
    assert portuguese_in(pages) == {}


def test_english_course_names_its_files_in_english(english_course: Path) -> None:
    for path in [
        "html/american/puzzle-book.html",
        "pdf/american/rules.pdf",
        "pdf/american/puzzles.pdf",
        "pdf/american/solutions.pdf",
        "pdf/american/board.pdf",
        "html/glossary.html",
    ]:
        assert (english_course / path).is_file(), path
    book = (english_course / "html/american/puzzle-book.html").read_text(encoding="utf-8")
    assert 'id="puzzles"' in book and "exercicios" not in book
    pages = sorted(english_course.rglob("*.html"))
    assert len(pages) == 7, pages  # home, glossary, editor; american: index, book, rules, puzzles
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert re.search(r'<html lang="en(-[A-Z]+)?">', text), page
        hrefs = re.findall(r'href="([^"#]+)', text)
        assert hrefs, f"{page}: no links"
        for href in hrefs:
            assert (page.parent / href).exists(), f"{page}: broken link {href}"


def test_english_course_pdfs_speak_english(english_course: Path) -> None:
    out = subprocess.run(
        ["pdftotext", str(english_course / "pdf/american/solutions.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Solutions" in out and "Soluções" not in out


def test_english_printable_set_speaks_english(english_course: Path) -> None:
    """The board-and-pieces PDF is worded from the English catalog and linked from the home page."""
    pdf = english_course / "pdf/american/board.pdf"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Print your draughts set: American / English checkers" in info
    out = page_text(pdf)
    for phrase in ("American / English checkers · board", "GLUE PART 2 HERE", "Rules in brief", "pieces to cut out"):
        assert phrase in out, phrase
    for phrase in ("COLE AQUI", "Regras resumidas", "pedras", "tabuleiro"):
        assert phrase not in out, phrase
    home = (english_course / "html/index.html").read_text(encoding="utf-8")
    assert re.search(r'href="[./]*pdf/american/board\.pdf"', home)


@pytest.fixture(scope="module")
def two_languages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Portuguese fixture lessons plus an English edition of the American rules and puzzles."""
    base = tmp_path_factory.mktemp("two")
    lessons = write_course(base / "lessons")
    r = _damas("init", "--language", "en", "--variant", "american", "--variant", "international", "starter", cwd=base)
    assert r.returncode == 0, r.stderr
    for variant in ("american", "international"):
        shutil.copytree(base / "starter" / "lessons" / variant, lessons / variant / "en")
    build(base / "out", lessons=[lessons], formats=["html", "pdf"], jobs=1)
    return base / "out"


def test_second_language_gets_its_own_tree(two_languages: Path) -> None:
    root = two_languages / "html"
    home = (root / "index.html").read_text(encoding="utf-8")
    home_en = (root / "en/index.html").read_text(encoding="utf-8")
    assert '<html lang="pt-BR">' in home and '<html lang="en">' in home_en
    assert 'href="en/index.html"' in home and ">English</a>" in home
    assert 'href="../index.html"' in home_en and ">Português</a>" in home_en
    assert (root / "en/american/rules.html").is_file() and (root / "en/american/puzzle-book.html").is_file()
    assert not (root / "en/brazilian").exists()  # no English lessons there
    assert 'href="comparison.html"' in home_en and (root / "en/comparison.html").is_file()
    assert (root / "comparacao.html").is_file()
    assert (root / "american/livro-de-golpes.html").is_file() and not (root / "american/rules.html").exists()
    assert (two_languages / "pdf/en/american/rules.pdf").is_file()
    assert (two_languages / "pdf/american/regras.pdf").is_file()
    assert (two_languages / "pdf/en/american/board.pdf").is_file()
    assert (two_languages / "pdf/american/tabuleiro.pdf").is_file()
    assert "pdf/en/american/board.pdf" in home_en
    assert 'href="glossary.html"' in home_en and (root / "en/glossary.html").is_file()
    assert 'href="glossario.html"' in home and (root / "glossario.html").is_file()
    glossary = (root / "en/glossary.html").read_text(encoding="utf-8")
    assert 'id="king-row"' in glossary and "pawn" in glossary and "Glossário" not in glossary
    variant_en = (root / "en/american/index.html").read_text(encoding="utf-8")
    assert "american/board.pdf" in variant_en


def test_second_language_tree_has_no_portuguese(two_languages: Path) -> None:
    pages = _pages(two_languages / "html/en") + _pages(two_languages / "pdf/en")
    assert len(pages) >= 6
    assert portuguese_in(pages) == {}


def test_second_language_links_resolve(two_languages: Path) -> None:
    pages = sorted((two_languages / "html/en").rglob("*.html"))
    # home, comparison, glossary, editor; per variant (american, international): index, book, rules, puzzles
    assert len(pages) == 4 + 2 * 4, pages
    for page in pages:
        refs = _links(page)
        assert refs, f"{page}: no links"
        for ref in refs:
            assert (page.parent / ref).exists(), f"{page}: broken link {ref}"


@pytest.fixture
def catalog_without_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The English catalog with "Puzzles" taken out, installed in place of the shipped one."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    po = locale / "en" / "LC_MESSAGES" / "damas.po"
    with open(po, "rb") as f:
        cat = read_po(f, locale="en")
    cat.delete("Puzzles")
    with open(po, "wb") as f:
        write_po(f, cat)
    with open(po.with_suffix(".mo"), "wb") as f:
        write_mo(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    for cached in (i18n.translator, i18n.anchor_names, names.file_names):
        cached.cache_clear()
    yield
    for cached in (i18n.translator, i18n.anchor_names, names.file_names):
        cached.cache_clear()


def test_a_string_missing_from_the_catalog_stops_the_build(tmp_path: Path, catalog_without_puzzles: None) -> None:
    r = _damas("init", "--language", "en", "starter", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    shutil.copytree(tmp_path / "starter" / "lessons", tmp_path / "lessons")
    with pytest.raises(i18n.MissingTranslation, match=r"'en'.*'Puzzles'"):
        build(tmp_path / "out", lessons=[tmp_path / "lessons"], formats=["html"], jobs=1)
    assert not (tmp_path / "out").exists()


def test_english_links_to_english_pages_and_anchors_check(tmp_path: Path) -> None:
    from generator.lessons.check import check_paths

    r = _damas("init", "--language", "en", "club", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rules = tmp_path / "club/lessons/american/rules.yaml"
    text = rules.read_text(encoding="utf-8")
    good = "Black moves first. See [the book](puzzle-book.html#puzzles) and [the puzzles](puzzles.html#puzzles)."
    rules.write_text(text.replace("Black moves first.", good, 1), encoding="utf-8")
    assert check_paths([tmp_path / "club/lessons"]).errors == []
    rules.write_text(text.replace("Black moves first.", "See [the book](livro-de-golpes.html).", 1), encoding="utf-8")
    errors = check_paths([tmp_path / "club/lessons"]).errors
    assert errors and "livro-de-golpes" in str(errors[0])


def test_pdfs_declare_their_language(english_course: Path, two_languages: Path) -> None:
    from pypdf import PdfReader

    def lang(path: Path) -> str:
        return str(PdfReader(path).trailer["/Root"].get("/Lang"))

    assert lang(english_course / "pdf/american/rules.pdf").startswith("en")
    assert lang(two_languages / "pdf/en/american/solutions.pdf").startswith("en")
    assert lang(two_languages / "pdf/american/regras.pdf") == "pt-BR"


def _links(page: Path) -> list[str]:
    """The local links and sources of a page (without their fragments)."""
    refs = re.findall(r'(?:href|src)="([^"#]+)', page.read_text(encoding="utf-8"))
    return [r for r in refs if not r.startswith(("http://", "https://", "mailto:"))]


def test_bundled_course_english_tree(bundled_build: Path) -> None:
    """The repository's own course: Portuguese at html/, its English edition (lessons/<variant>/en/) at
    html/en/ and pdf/en/: a page for every English lesson, the English PDFs of every variant that has
    English lessons, the English book with every English puzzle, no Portuguese, every link resolving."""
    lessons = Path(__file__).resolve().parents[2] / "lessons"
    english = {p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(lessons.glob("*/en/*.yaml"))}
    variants = sorted({p.parents[1].name for p in english})
    assert len(english) >= 8 and len(variants) >= 2, "the bundled course has an English edition"
    out = bundled_build  # built once per run (tests/conftest.py)
    en = out / "html/en"
    assert (en / "index.html").is_file() and ">English</a>" in (out / "html/index.html").read_text("utf-8")
    for path, data in english.items():
        assert data["language"] == "en" and data["variant"] == path.parents[1].name, path
        page = en / data["variant"] / f"{data['slug']}.html"
        assert page.is_file(), f"{path}: no page"
        text = page.read_text(encoding="utf-8")
        assert '<html lang="en">' in text and html.escape(data["title"]) in text, page
    files = names.file_names("en")
    for variant in variants:
        puzzles = sum(len(d.get("puzzles") or []) for p, d in english.items() if p.parents[1].name == variant)
        kinds = ["booklet", "printset"] + (["worksheet", "answers"] if puzzles else [])
        for kind in kinds:
            assert (out / "pdf/en" / variant / f"{files[kind]}.pdf").is_file(), (variant, kind)
        book = (en / variant / f"{files['book']}.html").read_text(encoding="utf-8")
        assert f'id="p{puzzles}"' in book and f'id="p{puzzles + 1}"' not in book, f"{variant}: {puzzles} puzzles"
    pages = _pages(en) + _pages(out / "pdf/en")
    assert len(pages) >= len(english) + 2 * len(variants)
    assert portuguese_in(pages) == {}
    html_pages = sorted(en.rglob("*.html"))
    assert len(html_pages) >= len(english) + 2 * len(variants)  # the lessons, each variant's index and book
    for page in html_pages:
        refs = _links(page)
        assert refs, f"{page}: no links"
        for ref in refs:
            assert (page.parent / ref).exists(), f"{page}: broken link {ref}"
