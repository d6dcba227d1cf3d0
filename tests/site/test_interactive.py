"""The interactive pages in Debian's chromium: replay of lines, puzzles solved on the board, copy
buttons and the position editor, by mouse and by keyboard alone, and the print view without controls.

The expected moves, positions and drawings come from the engine (Position, Solver, draw_board,
``damas moves``), never from the page's own data.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.lessons.drawing import draw_board
from generator.puzzles.search import Solver, Stipulation
from generator.render.interactive import NODE_CAP, editor_tables, solution_tree
from generator.rules import Position
from generator.rules.pdn import read_pdn
from generator.rules.variants import VARIANTS

from .helpers import chromium_path, write_course, write_lesson

PUZZLE_FEN = "W:W26,31,32:B1,17,19"
SOLUTION = ["26-23", "19x26", "31x22x13"]

LINES = {
    "variant": "american",
    "language": "pt-BR",
    "title": "Linhas",
    "slug": "linhas",
    "summary": "Uma linha para reproduzir.",
    "order": 3,
    "sections": [
        {
            "title": "A entrega",
            "text": "As brancas entregam uma pedra e tomam duas.",
            "diagrams": [
                {
                    "position": PUZZLE_FEN,
                    "caption": "A linha completa.",
                    "claims": [{"line": SOLUTION, "text": "A entrega e a resposta."}],
                }
            ],
        }
    ],
}


# -- the build side, without a browser ---------------------------------------------------------------


def test_tree_follows_the_solver() -> None:
    pos = Position.from_fen("american", PUZZLE_FEN)
    main = []
    cur = pos
    for text in SOLUTION:
        m = cur.parse_move(text)
        main.append(m)
        cur = cur.play(m)
    tree = solution_tree(pos, "gain:1", main)
    proof = Solver(pos.variant).solve(pos, Stipulation.parse("gain:1"), len(main))
    assert set(tree.wins) == set(proof.solutions)
    assert main[0] in tree.children
    defender = tree.children[main[0]]
    assert defender.defence == main[1]
    last = defender.children[main[1]]
    assert main[2] in last.wins and last.children[main[2]].done
    failing = [m for m in pos.legal_moves() if m not in proof.solutions]
    assert failing and set(tree.refutations) == set(failing)
    for m, line in tree.refutations.items():
        assert line[0] == m
    small = solution_tree(pos, "gain:1", main, cap=2)
    assert _count(small) <= 2 < _count(tree) <= NODE_CAP


def _count(node: Any) -> int:
    return 1 + sum(_count(c) for c in node.children.values())


def test_editor_tables_cover_every_variant() -> None:
    tables = editor_tables(list(VARIANTS.values()))
    assert [t["name"] for t in tables] == list(VARIANTS)
    for t, v in zip(tables, VARIANTS.values(), strict=True):
        g = v.geometry
        assert len(t["rows"]) == g.height and all(len(r) == g.width for r in t["rows"])
        assert len(t["order"]) == len(g.squares)
        assert sum(name is not None for row in t["rows"] for name in row) == len(g.squares)


# -- the browser ------------------------------------------------------------------------------------

pytestmark_browser = pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from generator.build import build

    base = tmp_path_factory.mktemp("interactive")
    lessons = write_course(base / "lessons")
    write_lesson(lessons, "american", "linhas", LINES)
    build(base / "out", lessons=[lessons], formats=["html"], jobs=1)
    return base / "out" / "html"


def _open(page: Any, site: Path, name: str) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith("file://") else outside.append(r.url))
    page.goto((site / name).as_uri(), wait_until="load")
    assert outside == []
    return errors


def _texts(fen: str, moves: list[str]) -> list[str]:
    cur = Position.from_fen("american", fen)
    out = []
    for t in moves:
        m = cur.parse_move(t)
        out.append(cur.move_text(m, long=True))
        cur = cur.play(m)
    return out


def _img_loaded(page: Any, selector: str) -> bool:
    return page.eval_on_selector(selector, "i => i.complete && i.naturalWidth > 0")


@pytestmark_browser
def test_replay_to_the_end_and_back(page: Any, site: Path) -> None:
    errors = _open(page, site, "american/linhas.html")
    group = page.locator("[data-replay]").first
    assert group.is_visible()
    img = page.locator("figure.diagram img").first
    start_src, start_alt = img.get_attribute("src"), img.get_attribute("alt")
    texts = _texts(PUZZLE_FEN, SOLUTION)
    forward = group.get_by_role("button", name="Próximo lance")
    for k, text in enumerate(texts, start=1):
        forward.click()
        assert group.locator(".mv[aria-current]").inner_text() == text
        assert f"Lance {k} de {len(texts)}" in img.get_attribute("alt")
        assert text in group.locator(".replay-status").inner_text()
        page.wait_for_function("i => i.complete", arg=img.element_handle())
        assert _img_loaded(page, "figure.diagram img")
    # the last step's file shows the route and the crossed pieces the engine says were taken
    cur = Position.from_fen("american", PUZZLE_FEN)
    for t in SOLUTION[:-1]:
        cur = cur.play(cur.parse_move(t))
    last = cur.parse_move(SOLUTION[-1])
    svg = (site / "american" / img.get_attribute("src")).read_text()
    for sq in last.captured:
        assert f'data-captured="{cur.square_name(sq)}"' in svg
    assert 'data-layer="route"' in svg
    forward.click(force=True)  # past the end (aria-disabled): stays on the last move
    assert group.locator(".mv[aria-current]").inner_text() == texts[-1]
    assert forward.get_attribute("aria-disabled") == "true"
    group.get_by_role("button", name="Lance anterior").click()
    assert group.locator(".mv[aria-current]").inner_text() == texts[-2]
    group.get_by_role("button", name="Início da linha").click()
    assert img.get_attribute("src") == start_src and img.get_attribute("alt") == start_alt
    assert group.locator(".mv[aria-current]").count() == 0
    group.get_by_role("button", name="Fim da linha").click()
    assert group.locator(".mv[aria-current]").inner_text() == texts[-1]
    assert errors == []


def _tab_to(page: Any, predicate: str, limit: int = 80) -> None:
    """Press Tab until ``predicate`` (JS, on document.activeElement as ``el``) holds."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const el = document.activeElement; return !!({predicate}); }}"):
            return
    raise AssertionError(f"Tab never reached {predicate}")


@pytestmark_browser
def test_replay_by_keyboard_only(page: Any, site: Path) -> None:
    _open(page, site, "american/linhas.html")
    texts = _texts(PUZZLE_FEN, SOLUTION)
    _tab_to(page, "el.getAttribute('data-go') === 'forward'")
    focus_ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert focus_ring != "none", "no visible focus on the replay buttons"
    page.keyboard.press("Enter")
    current = page.locator("[data-replay] .mv[aria-current]").first
    assert current.inner_text() == texts[0]
    page.keyboard.press(" ")
    assert current.inner_text() == texts[1]
    page.keyboard.press("ArrowRight")
    assert page.locator("[data-replay] .mv[aria-current]").first.inner_text() == texts[2]
    page.keyboard.press("Home")
    assert page.locator("[data-replay] .mv[aria-current]").count() == 0
    page.keyboard.press("End")
    assert page.locator("[data-replay] .mv[aria-current]").first.inner_text() == texts[-1]
    page.keyboard.press("ArrowLeft")
    assert page.locator("[data-replay] .mv[aria-current]").first.inner_text() == texts[-2]


def _solve_panel(page: Any) -> Any:
    return page.locator("li.puzzle").first


def _square(puzzle: Any, name: str) -> Any:
    return puzzle.locator(f'.board-overlay button[data-square="{name}"]')


def _play(puzzle: Any, text: str, fen: str) -> None:
    pos = Position.from_fen("american", fen)
    m = pos.parse_move(text)
    _square(puzzle, pos.square_name(m.origin)).click()
    _square(puzzle, pos.square_name(m.dest)).click()


@pytestmark_browser
@pytest.mark.parametrize("name", ["american/golpes.html", "american/livro-de-golpes.html"])
def test_solve_by_clicks(page: Any, site: Path, name: str) -> None:
    errors = _open(page, site, name)
    puzzle = _solve_panel(page)
    status = puzzle.locator(".solve-status")
    assert "Jogue com as brancas" in status.inner_text()
    _play(puzzle, SOLUTION[0], PUZZLE_FEN)
    after_defence = Position.from_fen("american", PUZZLE_FEN)
    for t in SOLUTION[:2]:
        after_defence = after_defence.play(after_defence.parse_move(t))
    reply = _texts(PUZZLE_FEN, SOLUTION)[1]
    page.wait_for_function("el => el.textContent.includes('Sua vez')", arg=status.element_handle(), timeout=5000)
    assert reply in status.inner_text()
    _play(puzzle, SOLUTION[2], after_defence.fen())
    page.wait_for_function("el => el.textContent.includes('Correto')", arg=status.element_handle(), timeout=5000)
    assert "Correto" in status.inner_text()
    assert puzzle.locator(".board-overlay button").count() == 0  # nothing more to play
    stored = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('damas:resolvido:'))")
    assert stored == ["damas:resolvido:american/golpes/golpe-1"]
    page.reload()
    assert "já resolveu" in _solve_panel(page).locator(".solve-status").inner_text()
    assert errors == []


@pytestmark_browser
def test_wrong_move_shows_its_refutation(page: Any, site: Path) -> None:
    _open(page, site, "american/golpes.html")
    pos = Position.from_fen("american", PUZZLE_FEN)
    proof = Solver(pos.variant).solve(pos, Stipulation.parse("gain:1"), len(SOLUTION))
    wrong = [m for m in pos.legal_moves() if m not in proof.solutions]
    refuted = [(m, line) for m, line in proof.refutations.items() if len(line) > 1]
    assert refuted, "the solver knows no refutation here"
    move, line = refuted[0]
    assert move in wrong
    puzzle = _solve_panel(page)
    img = puzzle.locator("img")
    start_src = img.get_attribute("src")
    _play(puzzle, pos.move_text(move), PUZZLE_FEN)
    status = puzzle.locator(".solve-status")
    after = pos.play(move)
    reply = after.move_text(line[1], long=True)
    assert "Não é este lance" in status.inner_text()
    assert f"respondem {reply}" in status.inner_text()
    assert img.get_attribute("src") != start_src
    assert reply in img.get_attribute("alt")
    svg = (site / "american" / img.get_attribute("src")).read_text()
    r = line[1]
    if r.is_capture:
        assert f'data-route="{" ".join(after.square_name(s) for s in r.path)}"' in svg
    else:
        assert f'data-move="{after.square_name(r.origin)}-{after.square_name(r.dest)}"' in svg
    puzzle.get_by_role("button", name="Tentar de novo").click()
    assert img.get_attribute("src") == start_src
    assert _square(puzzle, pos.square_name(move.origin)).count() == 1


@pytestmark_browser
def test_solve_by_keyboard_only(page: Any, site: Path) -> None:
    _open(page, site, "american/golpes.html")
    pos = Position.from_fen("american", PUZZLE_FEN)
    status = _solve_panel(page).locator(".solve-status")
    cur = pos
    for j in (0, 2):
        if j == 2:
            page.wait_for_function("el => el.textContent.includes('Sua vez')", arg=status.element_handle())
            cur = pos.play(pos.parse_move(SOLUTION[0]))
            cur = cur.play(cur.parse_move(SOLUTION[1]))
        m = cur.parse_move(SOLUTION[j])
        origin, dest = cur.square_name(m.origin), cur.square_name(m.dest)
        if j == 0:
            _tab_to(page, f"el.getAttribute('data-square') === '{origin}'")
        else:  # after the defence the focus is already on the board's buttons
            _tab_to(page, f"el.getAttribute('data-square') === '{origin}'")
        page.keyboard.press("Enter")
        _tab_to(page, f"el.getAttribute('data-square') === '{dest}' && el.classList.contains('dest')")
        page.keyboard.press("Enter")
    page.wait_for_function("el => el.textContent.includes('Correto')", arg=status.element_handle())


@pytestmark_browser
def test_hint_and_show_solution(page: Any, site: Path) -> None:
    _open(page, site, "american/golpes.html")
    puzzle = _solve_panel(page)
    hint = puzzle.locator(".solve-hint")
    assert not hint.is_visible()
    puzzle.get_by_role("button", name="Dica").click()
    # the hint is the puzzle's themes as the build computed them from the proof (shown in the answer's
    # "Temas:" line), or a general nudge when the proof found none
    meta = page.locator("li.puzzle").first.locator("details.answer .meta")
    assert hint.is_visible()
    if meta.count():
        assert meta.first.inner_text().split(":", 1)[1].strip() in hint.inner_text()
    else:
        assert hint.inner_text() == "Dica: procure um lance que force a resposta."
    puzzle.get_by_role("button", name="Mostrar solução").click()
    replay = puzzle.locator(".solve-replay [data-replay]")
    assert replay.is_visible()
    assert replay.locator(".mv").all_inner_texts() == _texts(PUZZLE_FEN, SOLUTION)
    page.keyboard.press("Enter")  # focus went to "next move"
    assert replay.locator(".mv[aria-current]").inner_text() == _texts(PUZZLE_FEN, SOLUTION)[0]


@pytestmark_browser
def test_copy_buttons(page: Any, site: Path) -> None:
    _open(page, site, "american/linhas.html")
    page.evaluate(
        "() => { window.copied = [];"
        " navigator.clipboard.writeText = t => { copied.push(t); return Promise.resolve(); }; }"
    )
    page.get_by_role("button", name="Copiar FEN").first.click()
    page.get_by_role("button", name="Copiar PDN").first.click()
    page.wait_for_function("() => window.copied.length === 2")
    fen, pdn = page.evaluate("() => window.copied")
    assert Position.from_fen("american", fen) == Position.from_fen("american", PUZZLE_FEN)
    games = read_pdn(pdn, "american")
    cur, short = Position.from_fen("american", PUZZLE_FEN), []
    for t in SOLUTION:
        m = cur.parse_move(t)
        short.append(cur.move_text(m))
        cur = cur.play(m)
    assert len(games) == 1 and [n.text for n in games[0].moves] == short
    assert games[0].tags.get("FEN") == Position.from_fen("american", PUZZLE_FEN).fen()
    assert "copiado" in page.locator(".copy-status").first.inner_text()
    # without the Clipboard API: the text is selected for the reader (or copied by execCommand)
    page.evaluate("() => { Object.defineProperty(navigator, 'clipboard', {value: undefined}); }")
    page.get_by_role("button", name="Copiar FEN").first.click()
    status = page.locator(".copy-status").first.inner_text()
    area = page.locator("textarea.copy-fallback")
    assert "copiado" in status or (area.count() == 1 and area.input_value() == fen)


# -- the editor -------------------------------------------------------------------------------------


def _editor(page: Any, site: Path) -> None:
    errors = _open(page, site, "editor.html")
    assert errors == []
    assert page.locator("#editor").is_visible()


@pytestmark_browser
def test_home_links_the_editor(page: Any, site: Path) -> None:
    _open(page, site, "index.html")
    page.get_by_role("link", name="Editor de posições").click()
    assert page.locator("h1").inner_text() == "Editor de posições"


@pytestmark_browser
def test_editor_fen_is_read_by_damas_moves(page: Any, site: Path) -> None:
    _editor(page, site)
    page.select_option("#ed-variant", "american")
    placed = {"22": "w", "5": "W", "9": "b", "30": "B", "23": "w"}
    for square, piece in placed.items():
        page.check(f'input[name="ed-tool"][value="{piece}"]')
        page.click(f'.ed-board button[data-square="{square}"]')
    page.check('input[name="ed-turn"][value="B"]')
    fen = page.input_value("#ed-fen")
    pos = Position.from_fen("american", fen)
    g = pos.variant.geometry
    for square, piece in placed.items():
        color, king = pos.piece_at(g.parse_square(square))
        assert ("w" if color == 0 else "b") == piece.lower() and king == piece.isupper()
    assert (pos.white | pos.black).bit_count() == len(placed) and pos.turn == 1
    out = subprocess.run(
        [sys.executable, "-m", "generator", "moves", "american", fen], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == [pos.move_text(m) for m in pos.legal_moves()]
    assert page.input_value("#ed-drawing") == draw_board(pos)
    # clicking a square again with the same piece empties it
    page.check('input[name="ed-tool"][value="w"]')
    page.click('.ed-board button[data-square="22"]')
    assert Position.from_fen("american", page.input_value("#ed-fen")).piece_at(g.parse_square("22")) is None


def _sample(variant: str) -> list[Position]:
    """The start position and a middle-game-like one with kings of both colours."""
    start = Position.start(variant)
    pos = start
    for _ in range(6):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[len(moves) // 2])
    g = start.variant.geometry
    crowned = 1 << g.bits(pos.white)[0] | 1 << g.bits(pos.black)[-1] | 1 << g.bits(pos.black)[0]
    return [start, Position(start.variant, pos.white, pos.black, pos.kings | crowned, pos.turn)]


@pytestmark_browser
def test_editor_reads_fens_and_draws_like_the_engine_for_every_variant(page: Any, site: Path) -> None:
    _editor(page, site)
    for name in VARIANTS:
        page.select_option("#ed-variant", name)
        for pos in _sample(name):
            page.fill("#ed-fen-in", pos.fen())
            page.click("#ed-read")
            assert page.locator(".ed-msg").inner_text() == "FEN lida.", name
            assert page.input_value("#ed-fen") == pos.fen(), name
            assert page.input_value("#ed-drawing") == draw_board(pos), name
    # liberal reading: ranges, kings, either list first, a trailing dot, algebraic squares
    page.select_option("#ed-variant", "international")
    page.fill("#ed-fen-in", "B:BK17,K24,1-3:W31-35,K40.")
    page.click("#ed-read")
    assert Position.from_fen("international", page.input_value("#ed-fen")) == Position.from_fen(
        "international", "B:BK17,K24,1-3:W31-35,K40"
    )
    page.select_option("#ed-variant", "brazilian")
    page.fill("#ed-fen-in", "W:Wa1,C3,Kh2:Bb6")
    page.click("#ed-read")
    assert Position.from_fen("brazilian", page.input_value("#ed-fen")) == Position.from_fen(
        "brazilian", "W:Wa1,c3,Kh2:Bb6"
    )
    for bad in ("X:W1", "W:W1,1", "W:W99", ""):
        page.fill("#ed-fen-in", bad)
        page.click("#ed-read")
        assert page.locator(".ed-msg").inner_text() not in ("", "FEN lida."), bad


@pytestmark_browser
def test_editor_by_keyboard_only(page: Any, site: Path) -> None:
    _editor(page, site)
    _tab_to(page, "el.id === 'ed-variant'")
    page.keyboard.press("ArrowDown")  # the next variant in the list
    variant = page.input_value("#ed-variant")
    _tab_to(page, "el.classList.contains('ed-sq')")
    first = page.evaluate("() => document.activeElement.getAttribute('data-square')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    target = page.evaluate("() => document.activeElement.getAttribute('data-square')")
    assert target != first
    page.keyboard.press("Enter")
    pos = Position.from_fen(variant, page.input_value("#ed-fen"))
    assert pos.piece_at(pos.variant.geometry.parse_square(target)) == (0, False)
    page.keyboard.press(" ")  # again: the same piece is taken away
    assert (Position.from_fen(variant, page.input_value("#ed-fen")).white) == 0


# -- print ----------------------------------------------------------------------------------------


@pytestmark_browser
@pytest.mark.parametrize("name", ["american/linhas.html", "american/golpes.html", "american/livro-de-golpes.html"])
def test_print_hides_the_controls(page: Any, site: Path, name: str) -> None:
    _open(page, site, name)
    controls = page.locator(".tools button, .board-overlay button")
    assert controls.count() > 0 and controls.first.is_visible()
    page.emulate_media(media="print")
    visible = page.evaluate(
        "() => Array.from(document.querySelectorAll('.tools, .board-overlay button'))"
        ".filter(e => e.getClientRects().length > 0).length"
    )
    assert visible == 0
    assert page.locator("figure img").first.is_visible()


@pytestmark_browser
def test_screenshots(page: Any, site: Path, tmp_path: Path) -> None:
    """Pictures of the interactive parts (kept in pytest's temporary folder of the run, to look at)."""
    _open(page, site, "american/golpes.html")
    puzzle = _solve_panel(page)
    _square(puzzle, "26").click()
    puzzle.screenshot(path=str(tmp_path / "interactive-solve-selected.png"))
    _open(page, site, "american/linhas.html")
    page.get_by_role("button", name="Próximo lance").first.click()
    page.get_by_role("button", name="Próximo lance").first.click()
    page.locator("figure.diagram").first.screenshot(path=str(tmp_path / "interactive-replay.png"))
    _editor(page, site)
    page.select_option("#ed-variant", "american")
    page.fill("#ed-fen-in", "W:W21,22,K30:B9,10,K5")
    page.click("#ed-read")
    page.screenshot(path=str(tmp_path / "interactive-editor.png"), full_page=True)
    for shot in ("interactive-solve-selected.png", "interactive-replay.png", "interactive-editor.png"):
        assert (tmp_path / shot).stat().st_size > 3000
