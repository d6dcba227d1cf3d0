"""``damas build`` options: --format, --variant, and usage errors (exit 2, one line on stderr)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import MANIFEST, build
from generator.cli import main
from generator.errors import DamasError
from generator.output import MARKER

from .helpers import PAGES, PDFS, PRINTSETS, SUMMARY, leftovers, read_page


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``damas ARGV --jobs 1``: in this process PDFs compile in-process (see test_parallel.py for why)."""
    code = main([*argv, "--jobs", "1"] if argv[0] == "build" and "--jobs" not in argv else argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def files(out: Path) -> set[str]:
    return {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}


def test_format_html_writes_no_pdf(lessons_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    code, stdout, err = run(["build", "--out", str(out), "--lessons", str(lessons_dir), "--format", "html"], capsys)
    assert code == 0, err
    m = SUMMARY.fullmatch(stdout.strip().splitlines()[-1])
    assert m, stdout
    assert int(m["pdfs"]) == 0 and int(m["pages"]) == len(PAGES)
    assert not (out / "pdf").exists()
    assert all(not f.endswith(".pdf") for f in files(out))
    pages = sorted((out / "html").rglob("*.html"))
    assert len(pages) == len(PAGES)
    for page in pages:
        hrefs = [a.attrs["href"] for a in read_page(page).all("a")]
        assert not [h for h in hrefs if ".pdf" in h], f"{page.name} links to PDFs that were not built"
    assert leftovers(tmp_path, "site") == []


def test_format_pdf_writes_only_pdfs(lessons_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    code, stdout, err = run(["build", "--out", str(out), "--lessons", str(lessons_dir), "--format", "pdf"], capsys)
    assert code == 0, err
    m = SUMMARY.fullmatch(stdout.strip().splitlines()[-1])
    assert m, stdout
    assert int(m["pdfs"]) == len(PDFS) + len(PRINTSETS) and int(m["pages"]) == 0
    assert files(out) == {f"pdf/{p}" for p in PDFS + PRINTSETS} | {MANIFEST, MARKER}, (
        "only PDFs (no pages, SVGs or Typst data)"
    )
    assert leftovers(tmp_path, "site") == []


@pytest.mark.parametrize("name", ["american", "english"])
def test_variant_restricts_the_build(
    lessons_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    out = tmp_path / "site"
    code, stdout, err = run(["build", "--out", str(out), "--lessons", str(lessons_dir), "--variant", name], capsys)
    assert code == 0, err
    m = SUMMARY.fullmatch(stdout.strip().splitlines()[-1])
    assert m, stdout
    assert int(m["variants"]) == 1
    built = files(out)
    assert not [f for f in built if "brazilian" in f]
    assert "html/comparacao.html" not in built, "no comparison for a single variant"
    assert {
        "html/index.html",
        "html/american/regras.html",
        "pdf/american/regras.pdf",
        "pdf/american/exercicios.pdf",
    } <= built
    hrefs = [a.attrs["href"] for a in read_page(out / "html" / "index.html").all("a")]
    assert "american/index.html" in hrefs
    assert not [h for h in hrefs if "brazilian" in h or "comparacao" in h]


def test_several_variants_and_formats_in_python(lessons_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    summary = build(out, lessons=[lessons_dir], variants=["brazilian"], formats=["html"], jobs=1)
    assert summary.variants == ["brazilian"]
    assert summary.pdfs == 0 and summary.pages == 5  # home, glossary, editor, variant index, one lesson
    assert (out / "html" / "brazilian" / "inicio.html").is_file()
    assert not (out / "html" / "american").exists()


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["--variant", "klingon"], "klingon"),
        (["--format", "html,docx"], "docx"),
        (["--format", "epub"], "epub"),
        (["--format", ","], "format"),
        (["--jobs", "0"], "jobs"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    lessons_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    out = tmp_path / "site"
    code, stdout, err = run(["build", "--out", str(out), "--lessons", str(lessons_dir), *argv], capsys)
    assert code == 2
    assert stdout == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert word in lines[0]
    assert "Traceback" not in err
    assert not out.exists()
    assert leftovers(tmp_path, "site") == []


def test_python_api_rejects_unknown_variant_and_format(lessons_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(DamasError, match="klingon"):
        build(tmp_path / "a", lessons=[lessons_dir], variants=["klingon"])
    with pytest.raises(ValueError, match="docx"):
        build(tmp_path / "b", lessons=[lessons_dir], formats=["docx"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lessons"], "nothing written"
