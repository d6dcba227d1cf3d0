"""``damas init`` writes a course that checks and builds; course.yaml is found, validated and obeyed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from generator.build import build
from generator.cli import main
from generator.course import CourseError, find_course, load_course
from generator.course import check_course as check
from generator.rules import VARIANTS
from generator.scaffold import Starter, starter_files, write_starter

ALL = tuple(VARIANTS.values())


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_every_variant_starter_checks(tmp_path: Path, language: str) -> None:
    """Every claim and puzzle of every variant's starter lessons is verified (not just parsed)."""
    course_dir = tmp_path / "curso"
    files = write_starter(course_dir, Starter(variants=ALL, language=language))
    course = find_course(course_dir)
    report = check(course)
    assert [str(e) for e in report.errors] == []
    counts = report.counts()
    assert counts["lessons"] == 2 * len(ALL)
    assert counts["puzzles"] == len(ALL)
    assert counts["claims"] >= 2 * len(ALL)
    assert {c.lesson.language for c in report.lessons} == {language}
    assert f"lessons/american/{'rules' if language == 'en' else 'regras'}.yaml" in files


def test_init_command_then_check_and_build_from_the_folder(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "meu-curso", "--variant", "brazilian", "--title", "Damas: o início", "--author", "Ana"]) == 0
    assert "started a course in meu-curso" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path / "meu-curso")
    assert main(["check"]) == 0
    assert capsys.readouterr().out.startswith("ok: 2 file(s), 2 lesson(s)")
    assert main(["build", "--format", "html"]) == 0
    index = (tmp_path / "meu-curso" / "output" / "html" / "index.html").read_text("utf-8")
    assert '<html lang="pt-BR">' in index
    assert "<title>Damas: o início</title>" in index
    assert (tmp_path / "meu-curso" / "output" / "html" / "brazilian" / "regras.html").is_file()
    assert "__damas__" not in index, "the preview's reload script never reaches damas build output"


def test_course_flag_builds_into_the_course_folder(tmp_path: Path, monkeypatch, capsys) -> None:
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["american"],), language="en", paper="letter"))
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--course", "c"]) == 0
    out = tmp_path / "c" / "output"
    page = (out / "html" / "index.html").read_text("utf-8")
    assert '<html lang="en">' in page and "<title>My draughts course</title>" in page
    assert ">Home<" in page and "American / English checkers" in page
    pdf = PdfReader(out / "pdf" / "american" / "rules.pdf")  # the rules booklet, named in English (issue 17)
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792), "US letter"
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert "My draughts course" in text, "the course title is on the cover"
    assert "Contents" in text and "Sumário" not in text


def test_a4_is_the_default_paper(tmp_path: Path) -> None:
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["international"],)))
    summary = build(tmp_path / "out", course=find_course(tmp_path / "c"), formats=["pdf"])
    assert summary.pdfs >= 2
    box = PdfReader(tmp_path / "out" / "pdf" / "international" / "regras.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842), "A4"


def test_values_with_yaml_syntax_survive(tmp_path: Path) -> None:
    title = 'Damas: "#1" & <b>curso</b> — [x]'
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["italian"],), title=title, author="O'Neil: A"))
    course = find_course(tmp_path / "c")
    assert (course.title, course.author) == (title, "O'Neil: A")
    build(tmp_path / "out", course=course, formats=["html"])
    page = (tmp_path / "out" / "html" / "index.html").read_text("utf-8")
    assert "&lt;b&gt;curso&lt;/b&gt;" in page and "<b>curso" not in page


def test_init_refuses_a_non_empty_folder(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine", "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["init", "x"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["damas init: x is not empty: give a new or empty folder"]
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x"], "no temporary folder left behind"
    (tmp_path / "f").write_text("", "utf-8")
    assert main(["init", "f"]) == 2
    assert "f is a file" in capsys.readouterr().err


def test_init_into_an_existing_empty_folder(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["init", "empty", "--language", "en", "--variant", "russian", "--variant", "turkish"]) == 0
    names = {str(p.relative_to(tmp_path / "empty")) for p in (tmp_path / "empty").rglob("*") if p.is_file()}
    assert names == {
        "course.yaml",
        "course.schema.json",
        "lesson.schema.json",
        "README.md",
        ".gitignore",
        "lessons/russian/rules.yaml",
        "lessons/russian/puzzles.yaml",
        "lessons/turkish/rules.yaml",
        "lessons/turkish/puzzles.yaml",
    }


def test_schema_modelines_point_at_the_copied_schemas(tmp_path: Path) -> None:
    """The yaml-language-server modeline of every file resolves, relative to that file, to a schema file."""
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["american"],)))
    yamls = list((tmp_path / "c").rglob("*.yaml"))
    assert len(yamls) == 3
    for f in yamls:
        first = f.read_text("utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        target = (f.parent / first.split("$schema=", 1)[1]).resolve()
        schema = json.loads(target.read_text("utf-8"))
        assert schema["title"] == ("damas course" if f.name == "course.yaml" else "damas lesson")


def test_starter_files_are_valid_yaml_in_both_languages() -> None:
    for language in ("pt-BR", "en"):
        files = starter_files(Starter(variants=ALL, language=language))
        assert len([n for n in files if n.endswith(".yaml")]) == 1 + 2 * len(ALL)  # course.yaml, 2 lessons each
        for name, text in files.items():
            if name.endswith(".yaml"):
                assert isinstance(yaml.safe_load(text), dict), name
        assert yaml.safe_load(files["course.yaml"])["language"] == language


def test_course_yaml_errors_have_positions(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / "course.yaml").write_text("title: X\nlanguage: fr\npaper: a5\ncolour: red\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "course.yaml:2:11: 'language' must be one of: pt-BR, en; got 'fr'",
        "course.yaml:3:8: 'paper' must be one of: a4, letter; got 'a5'",
        "course.yaml:4:1: unknown key 'colour' in the course; expected one of: author, language, paper, proof_budget, "
        "strict_text, summary, title, variants",
    ]
    (tmp_path / "course.yaml").write_text("title: [unclosed\n", "utf-8")
    with pytest.raises(CourseError) as exc:
        load_course(tmp_path / "course.yaml")
    assert str(exc.value.errors[0]).startswith("course.yaml:1:8: YAML syntax error")


def test_lesson_outside_the_listed_variants_is_an_error(tmp_path: Path) -> None:
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["american"], VARIANTS["brazilian"])))
    text = (tmp_path / "c" / "course.yaml").read_text("utf-8")
    (tmp_path / "c" / "course.yaml").write_text(text.replace('["american", "brazilian"]', '["american"]'), "utf-8")
    errors = [str(e) for e in check(find_course(tmp_path / "c")).errors]
    assert len(errors) == 2
    assert all("variant 'brazilian' is not among the variants of" in e for e in errors)
    assert all(e.split(":")[1:3] == ["2", "10"] for e in errors), errors


def test_no_course_here_is_a_usage_error(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["check"], ["build"], ["serve"], ["build", "--course", "nowhere"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and ("no course here" in err or "no such folder" in err), err
    assert os.listdir(tmp_path) == []


def test_lessons_folder_without_course_yaml_keeps_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "lessons").mkdir()
    course = find_course(tmp_path)
    assert (course.title, course.language, course.paper, course.source) == ("Regras de damas", "pt-BR", "a4", None)
    assert course.lessons == tmp_path / "lessons"


def test_course_schema_is_printed_and_knows_every_variant(capsys) -> None:
    assert main(["schema", "course"]) == 0
    printed = json.loads(capsys.readouterr().out)
    lesson = json.loads((Path(__file__).resolve().parents[2] / "generator/lessons/lesson.schema.json").read_text())
    assert printed["properties"]["variants"]["items"]["enum"] == lesson["properties"]["variant"]["enum"]
    assert printed["properties"]["paper"]["enum"] == ["a4", "letter"]


def test_init_dot_in_an_empty_current_folder(tmp_path: Path, monkeypatch) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["init", "."]) == 0
    assert (here / "course.yaml").is_file() and (here / "lessons" / "brazilian" / "regras.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"], "no temporary folder left beside it"
    assert main(["check"]) == 0


def test_english_course_names_variants_in_english(tmp_path: Path) -> None:
    write_starter(tmp_path / "c", Starter(variants=(VARIANTS["brazilian"],), language="en"))
    build(tmp_path / "out", course=find_course(tmp_path / "c"), formats=["html"])
    for page in ("index.html", "brazilian/index.html", "brazilian/rules.html"):
        text = (tmp_path / "out" / "html" / page).read_text("utf-8")
        assert "Brazilian draughts" in text and "Damas brasileiras" not in text, page
