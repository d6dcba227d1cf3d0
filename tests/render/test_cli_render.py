"""``damas render``: files written, moves shown, and one-line errors with the contract's exit codes."""

from __future__ import annotations

import pytest

from generator import cli
from generator.cli.render import render

from .helpers import NS, grid, layer, parse


@pytest.fixture
def damas(monkeypatch, capsys):
    """Run ``damas ARGS`` through ``generator.cli.main``; returns (exit code, stdout, stderr)."""
    monkeypatch.setitem(cli.cli.commands, "render", render)  # registered by generator.cli in the end

    def run(*args: str):
        code = cli.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_render_svg_with_capture_route(damas, tmp_path):
    target = tmp_path / "d.svg"
    code, out, err = damas("render", "american", "W:W27,30:B15,23", "--arrow", "27x18x11", "-o", str(target))
    assert (code, out, err) == (0, "", "")
    root = parse(target.read_text(encoding="utf-8"))
    assert layer(root, "route").get("data-route") == "27 18 11"
    assert {el.get("data-captured") for el in layer(root, "captured")} == {"23", "15"}
    assert root.find(f"{NS}desc").text == "Lance indicado: 27x18x11; capturadas: 23, 15."


def test_render_short_capture_notation_draws_full_route(damas, tmp_path):
    target = tmp_path / "d.svg"
    assert damas("render", "american", "W:W27,30:B15,23", "--arrow", "27x11", "-o", str(target))[0] == 0
    assert layer(parse(target.read_text()), "route").get("data-route") == "27 18 11"


def test_render_quiet_arrows_flip_and_options(damas, tmp_path):
    target = tmp_path / "d.svg"
    code, _, _ = damas(
        "render", "brazilian", "start", "--arrow", "c3-d4", "--arrow", "e3-f4", "--flip",
        "--theme", "print", "--numbers", "--no-coordinates", "--size", "300", "--lang", "en",
        "-o", str(target),
    )  # fmt: skip
    assert code == 0
    root = parse(target.read_text())
    assert [el.get("data-move") for el in root.iter() if el.get("data-layer") == "arrow"] == ["c3-d4", "e3-f4"]
    assert grid(root)["a1"] == (7, 0)  # flipped
    assert layer(root, "numbers") is not None and layer(root, "coordinates") is None
    assert root.get("width") == "300"
    assert root.find(f"{NS}title").text.endswith("White to move.")


@pytest.mark.parametrize("suffix", ["png", "pdf"])
def test_render_png_and_pdf(damas, tmp_path, suffix):
    pytest.importorskip("cairosvg")
    target = tmp_path / f"d.{suffix}"
    assert damas("render", "international", "start", "-o", str(target))[0] == 0
    magic = {"png": b"\x89PNG", "pdf": b"%PDF-"}[suffix]
    assert target.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["nosuch", "start"], 2, "unknown variant 'nosuch'"),
        (["american", "start", "--theme", "neon"], 2, "neon"),
        (["american", "W:W99"], 1, "invalid FEN"),
        (["american", "W:W27,30:B15,23", "--arrow", "30-26"], 1, "30-26 is not legal here"),
        (["american", "W:W27,30:B15,23", "--arrow", "banana"], 1, "banana"),
        (["american", "W:W22,23:B18,19", "--arrow", "22x15", "--arrow", "23x16"], 2, "only one capture"),
    ],
)
def test_render_errors_are_one_line(damas, tmp_path, args, code, message):
    target = tmp_path / "d.svg"
    got, _out, err = damas("render", *args, "-o", str(target))
    assert got == code
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not target.exists()


def test_render_bad_output(damas, tmp_path):
    code, _, err = damas("render", "american", "start", "-o", str(tmp_path / "d.gif"))
    assert code == 2 and ".svg, .png or .pdf" in err
    code, _, err = damas("render", "american", "start", "-o", str(tmp_path / "no" / "d.svg"))
    assert code == 1 and err.startswith("damas: cannot write")
    code, _, err = damas("render", "american", "start")
    assert code == 2 and "-o" in err
