"""Single-diagram exports: SVG, PNG and PDF through cairosvg, checked by file content and pixels."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from generator.errors import DamasError
from generator.render.export import PNG_WIDTH, ExportError, export, export_format
from generator.render.svg import THEMES, diagram, move_overlay, parse_color
from generator.rules import Position

from .helpers import centre, parse

cairosvg = pytest.importorskip("cairosvg", reason="cairosvg (and the libcairo2 system library) needed")
Image = pytest.importorskip("PIL.Image", reason="Pillow needed for pixel checks")


def rgb(hex_color: str) -> tuple[int, int, int]:
    c = parse_color(hex_color).color
    return tuple(int(c[i : i + 2], 16) for i in (1, 3, 5))


def near(a, b, tol=6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def luminance(px) -> float:
    r, g, b = px[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def png_pixels(svg: str, tmp_path, name="d.png"):
    out = export(svg, tmp_path / name)
    image = Image.open(io.BytesIO(out.read_bytes())).convert("RGB")
    vb = [float(v) for v in parse(svg).get("viewBox").split()]
    scale = image.width / vb[2]
    return image, scale


def test_png_has_default_width_and_right_colours(tmp_path):
    pos = Position.from_fen("american", "W:W27,K30:B15,K23")
    svg = diagram(pos)
    image, scale = png_pixels(svg, tmp_path)
    assert image.width == PNG_WIDTH
    vb = [float(v) for v in parse(svg).get("viewBox").split()]
    assert image.height == pytest.approx(PNG_WIDTH * vb[3] / vb[2], abs=1)
    root = parse(svg)

    def at(square, dx=0.0, dy=0.0):
        x, y = centre(root, square)
        return image.getpixel((int((x + dx) * scale), int((y + dy) * scale)))

    assert near(at("27"), rgb(THEMES["classic"]["white man"]))  # a white man's centre is light
    assert luminance(at("27")) > 200
    assert near(at("15"), rgb(THEMES["classic"]["black man"]))  # a black man's centre is dark
    assert luminance(at("15")) < 60
    assert near(at("18"), rgb(THEMES["classic"]["square dark"]))  # an empty playing square
    # kings: the crown's band sits below the centre
    assert near(at("30", 0, 6.5), rgb(THEMES["classic"]["white crown"]), tol=30)
    assert near(at("23", 0, 6.5), rgb(THEMES["classic"]["black crown"]), tol=30)


def test_png_route_and_captured_marks_are_painted(tmp_path):
    pos = Position.from_fen("american", "W:W27,30:B15,23")
    svg = diagram(pos, **move_overlay(pos, "27x18x11"))
    image, scale = png_pixels(svg, tmp_path)
    root = parse(svg)
    x, y = centre(root, "18")
    assert near(image.getpixel((int(x * scale), int(y * scale))), rgb(THEMES["classic"]["route"]), tol=20)
    x, y = centre(root, "23")  # the cross's arms run through the captured piece's centre
    assert near(image.getpixel((int(x * scale), int(y * scale))), rgb(THEMES["classic"]["captured"]), tol=20)


def test_png_print_theme_is_grey(tmp_path):
    pos = Position.from_fen("international", "W:W31,K46:B18,K5")
    svg = diagram(pos, theme="print", **move_overlay(pos, "31-27"), highlight=["46"])
    image, _ = png_pixels(svg, tmp_path)
    data = image.resize((200, 200)).tobytes()
    for i in range(0, len(data), 3):
        px = data[i : i + 3]
        assert max(px) - min(px) <= 2, tuple(px)


def test_png_width_option(tmp_path):
    out = export(diagram(Position.start("italian")), tmp_path / "w.png", width=300)
    assert Image.open(out).width == 300


def test_pdf_and_svg_export(tmp_path):
    svg = diagram(Position.start("turkish"))
    pdf = export(svg, tmp_path / "d.PDF")
    assert pdf.read_bytes().startswith(b"%PDF-")
    out = export(svg, tmp_path / "d.svg")
    assert out.read_text(encoding="utf-8") == svg


@pytest.mark.parametrize("name", ["d.gif", "d", "d.svgz", "d.png.txt"])
def test_unsupported_suffix(tmp_path, name):
    with pytest.raises(ValueError, match=r"\.svg, \.png or \.pdf"):
        export("<svg/>", tmp_path / name)
    assert not list(tmp_path.iterdir())
    with pytest.raises(ExportError):
        export_format(name)


def test_write_is_atomic_and_clean(tmp_path):
    svg = diagram(Position.start("american"))
    target = tmp_path / "d.png"
    target.write_bytes(b"old")
    export(svg, target)
    assert target.read_bytes().startswith(b"\x89PNG")
    assert [p.name for p in tmp_path.iterdir()] == ["d.png"]
    with pytest.raises(DamasError, match="cannot write"):
        export(svg, tmp_path / "missing" / "d.svg")
    with pytest.raises(ET.ParseError):
        export("<svg", tmp_path / "broken.png")  # nothing half-written on a failed render
    assert [p.name for p in tmp_path.iterdir()] == ["d.png"]


def test_external_references_are_not_fetched(tmp_path):
    secret = tmp_path / "secret.svg"
    secret.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect width="10" height="10" fill="#ff0000"/></svg>'
    )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><rect width="10" height="10" fill="#ffffff"/>'
        f'<image width="10" height="10" xlink:href="file://{secret}"/></svg>'
    )
    out = export(svg, tmp_path / "x.png", width=10)
    assert Image.open(out).convert("RGB").getpixel((5, 5)) == (255, 255, 255)
