"""Links, image paths, ids and slugs that pass ``check`` but break the pages or the build.

Scheme-relative links (``//host/``) left the course; image paths climbing out of it
(``../../../../etc/passwd``) were accepted; a section or diagram id equal to an anchor the build
makes (``exercicios``, ``conteudo``, ``secao-N``, ``diagrama-N``) gave a page two elements with one
id; a 250-character slug passed ``check`` and failed the build with "File name too long".
"""

from __future__ import annotations

import pytest

from generator.lessons.check import check_text

from .lesson_text import lesson, section


def errors_of(text: str) -> list[str]:
    _, errors = check_text(text, "l.yaml")
    return [str(e) for e in errors]


def test_scheme_relative_links_are_refused() -> None:
    got = errors_of(lesson(sections=[section("Veja [isto](//evil.example.com/x).")]))
    assert len(got) == 1 and "link to '//evil.example.com/x' is scheme-relative" in got[0]


@pytest.mark.parametrize("src", ["../../../../etc/passwd", "/etc/passwd", "../../img.png"])
def test_image_paths_outside_the_course_are_refused(src: str) -> None:
    got = errors_of(lesson(sections=[section(f"![tabuleiro]({src})")]))
    assert len(got) == 1 and f"image '{src}' is outside the course folder" in got[0]


@pytest.mark.parametrize("src", ["img/a.png", "../img/a.png", "./a.png"])
def test_image_paths_inside_the_course_pass(src: str) -> None:
    assert errors_of(lesson(sections=[section(f"![tabuleiro]({src})")])) == []


@pytest.mark.parametrize("ident", ["exercicios", "conteudo", "secao-1", "diagrama-2", "como-ler", "indices"])
def test_generated_anchors_are_reserved(ident: str) -> None:
    got = errors_of(lesson(sections=[section(id=ident)]))
    assert len(got) == 1 and f"id '{ident}' is an anchor the build makes on every page" in got[0]
    diagram = {"title": "S", "text": "t", "diagrams": [{"position": "start", "id": ident}]}
    got = errors_of(lesson(sections=[diagram]))
    assert len(got) == 1 and "is an anchor the build makes" in got[0]


def test_ids_that_only_look_alike_pass() -> None:
    assert errors_of(lesson(sections=[section(id="secao-um"), section(id="diagramas")])) == []


def test_a_long_slug_is_a_check_error() -> None:
    got = errors_of(lesson(slug="a" * 250))
    assert got == ["l.yaml:5:10: 'slug' has 250 characters; at most 80 are allowed"]


def test_a_long_id_is_a_check_error() -> None:
    got = errors_of(lesson(sections=[section(id="b" * 100)]))
    assert len(got) == 1 and "has 100 characters; at most 80 are allowed" in got[0]
