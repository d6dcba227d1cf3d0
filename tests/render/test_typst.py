"""The diagrams go through Typst (the PDF books' engine) without warnings, with their alt text."""

from __future__ import annotations

import pytest

from generator.render.svg import diagram, move_overlay
from generator.rules import BLACK, Position

typst = pytest.importorskip("typst", reason="typst (PyPI) needed")


def test_diagrams_compile_in_typst_without_warnings(tmp_path):
    images = []
    for i, (variant, fen, move) in enumerate(
        [
            ("american", "W:W27,30,K5:B15,23,K9", "27x18x11"),
            ("international", "W:WK46,31:B41,23,13,K3", "46x37x19x2"),
            ("turkish", "W:Wd3,Kb2:Bd4,d6,Ke7", None),
            ("italian", "start", "21-17"),
        ]
    ):
        pos = Position.from_fen(variant, fen)
        overlay = move_overlay(pos, move) if move else {}
        svg = diagram(pos, **overlay, orientation=BLACK if i % 2 else 0, theme="print" if i == 1 else "classic")
        (tmp_path / f"d{i}.svg").write_text(svg, encoding="utf-8")
        images.append(f'image("d{i}.svg", alt: "diagram {i}")')
    (tmp_path / "doc.typ").write_text(
        f'#set document(title: "t")\n#set page(width: 20cm, height: auto)\n#grid(columns: 2, {", ".join(images)})\n',
        encoding="utf-8",
    )
    pdf, warnings = typst.compile_with_warnings(str(tmp_path / "doc.typ"), root=str(tmp_path))
    assert pdf.startswith(b"%PDF-")
    assert warnings == []
