"""The interactive pages in Debian's chromium: replay of lines, puzzles solved on the board, copy
buttons and the position editor, by mouse and by keyboard alone, and the print view without controls.

The expected moves, positions and drawings come from the engine (Position, Solver, draw_board,
``damas moves``), never from the page's own data.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.lessons.drawing import draw_board
from generator.puzzles.play import play_tree, proof_lines
from generator.puzzles.search import Solver, Stipulation
from generator.render.answer import numbered
from generator.render.interactive import editor_tables, puzzle_game
from generator.render.svg import describe_position
from generator.rules import Position
from generator.rules.pdn import read_pdn
from generator.rules.variants import VARIANTS

from .helpers import chromium_path, write_course, write_lesson

PUZZLE_FEN = "W:W26,31,32:B1,17,19"
SOLUTION = ["26-23", "19x26", "31x22x13"]
# A puzzle whose proof knows two defences after the key (18x25 and 17x26)
BRANCHY_FEN = "W:W19,25,28,30,32:B3-5,7,11,17,18"
BRANCHY = ["25-22", "18x25", "30x21x14"]

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
    "puzzles": [
        {
            "id": "defesas",
            "position": BRANCHY_FEN,
            "stipulation": "gain:1",
            "solution": [BRANCHY[0], {"move": BRANCHY[1], "others": ["17x26"]}, BRANCHY[2]],
            "difficulty": 2,
        }
    ],
}


ENGLISH = {
    "variant": "american",
    "language": "en",
    "title": "A shot",
    "slug": "shots",
    "summary": "A sacrifice that wins a man.",
    "order": 1,
    "sections": [{"title": "The shot", "text": "Give one, take two."}],
    "puzzles": [{"id": "shot-1", "position": PUZZLE_FEN, "stipulation": "gain:1", "solution": SOLUTION}],
}


def _moves(fen: str, texts: list[str]) -> tuple[Position, list[Any]]:
    pos = Position.from_fen("american", fen)
    out, cur = [], pos
    for t in texts:
        m = cur.parse_move(t)
        out.append(m)
        cur = cur.play(m)
    return pos, out


# -- the build side, without a browser ---------------------------------------------------------------


def test_tree_holds_every_defence_of_the_proof_and_the_solvers_answers() -> None:
    pos, main = _moves(BRANCHY_FEN, BRANCHY)
    after_key = pos.play(main[0])
    others = [m for m in after_key.legal_moves() if m != main[1]]
    assert others, "the defender has another reply here"
    solver = Solver(pos.variant)
    solver.prepare(pos, Stipulation.parse("gain:1"))
    defences = [(1, r, solver.play_out(after_key.play(r).state, 1)) for r in others]
    tree = play_tree(pos, "gain:1", proof_lines(main, defences))
    defender = tree.children[main[0]]
    assert list(defender.children) == [main[1], *others], "every defence, the main one first"
    for r in others:
        assert defender.children[r].children, "each defence goes on to the goal"
    proof = Solver(pos.variant).solve(pos, Stipulation.parse("gain:1"), len(main))
    assert set(tree.wins) == set(proof.solutions)
    failing = [m for m in pos.legal_moves() if m not in proof.solutions]
    assert failing and set(tree.refutations) == set(failing)
    data = puzzle_game(tree)
    root = data["nodes"][0]
    assert root["f"] == pos.fen()
    key = next(m for m in root["moves"] if m["t"] == pos.move_text(main[0], long=True))
    replies = data["nodes"][key["next"]]["replies"]
    assert [r["t"] for r in replies] == [after_key.move_text(m, long=True) for m in [main[1], *others]]
    for m in root["moves"]:
        if "ref" in m:  # the refutation: the reply, the position after it, the line with move numbers
            wrong = next(x for x in failing if pos.move_text(x, long=True) == m["t"])
            line = tree.refutations[wrong]
            assert m["ref"]["f"] == pos.play(wrong).play(line[1]).fen()
            assert m["ref"]["line"] == " ".join(numbered(pos, line, 0))
            assert m["ref"]["line"].startswith("1. ")


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
    write_lesson(lessons, "american", "shots", ENGLISH)
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


def _board(host: Any) -> Any:
    return host.locator(".board svg").first


@pytestmark_browser
def test_replay_to_the_end_and_back(page: Any, site: Path) -> None:
    errors = _open(page, site, "american/linhas.html")
    group = page.locator("[data-replay]").first
    group.scroll_into_view_if_needed()
    assert group.is_visible()
    figure = page.locator("figure.diagram").first
    board = _board(figure)
    start_label = board.get_attribute("aria-label")
    assert start_label.startswith("A linha completa."), "the first picture's text is the build's alt"
    texts = _texts(PUZZLE_FEN, SOLUTION)
    forward = group.get_by_role("button", name="Próximo lance")
    cur = Position.from_fen("american", PUZZLE_FEN)
    for k, (text, played) in enumerate(zip(texts, SOLUTION, strict=True), start=1):
        m = cur.parse_move(played)
        cur = cur.play(m)
        forward.click()
        assert group.locator(".mv[aria-current]").inner_text() == text
        label = _board(figure).get_attribute("aria-label")
        assert f"Lance {k} de {len(texts)}" in label
        assert label.endswith(describe_position(cur, "pt")), "the pieces after the move, as the build says them"
        assert text in group.locator(".replay-status").inner_text()
    # the last step shows the route and the crossed pieces the engine says were taken
    before = Position.from_fen("american", PUZZLE_FEN)
    for t in SOLUTION[:-1]:
        before = before.play(before.parse_move(t))
    last = before.parse_move(SOLUTION[-1])
    for sq in last.captured:
        assert _board(figure).locator(f'[data-captured="{before.square_name(sq)}"]').count() == 1
    assert _board(figure).locator('[data-layer="route"]').count() == 1
    forward.click(force=True)  # past the end (aria-disabled): stays on the last move
    assert group.locator(".mv[aria-current]").inner_text() == texts[-1]
    assert forward.get_attribute("aria-disabled") == "true"
    group.get_by_role("button", name="Lance anterior").click()
    assert group.locator(".mv[aria-current]").inner_text() == texts[-2]
    group.get_by_role("button", name="Início da linha").click()
    assert _board(figure).get_attribute("aria-label") == start_label
    assert group.locator(".mv[aria-current]").count() == 0
    assert page.locator("img").count() == 0, "with the script, no picture file is loaded"
    assert errors == []


def _tab_to(page: Any, predicate: str, limit: int = 80) -> int:
    """Press Tab until ``predicate`` (JS, on document.activeElement as ``el``) holds; the presses."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const el = document.activeElement; return !!({predicate}); }}"):
            return n
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


def _book_puzzle(page: Any, fen: str) -> Any:
    """The book's entry for the puzzle at ``fen`` (the book orders by difficulty)."""
    for item in page.locator("li.puzzle").all():
        if (
            json.loads(item.locator(".board").get_attribute("data-board"))["f"]
            == Position.from_fen("american", fen).fen()
        ):
            item.scroll_into_view_if_needed()
            return item
    raise AssertionError(f"no puzzle at {fen}")


def _square(puzzle: Any, name: str) -> Any:
    return puzzle.locator(f'.board-overlay button[data-square="{name}"]')


def _play(puzzle: Any, text: str, fen: str) -> None:
    pos = Position.from_fen("american", fen)
    m = pos.parse_move(text)
    _square(puzzle, pos.square_name(m.origin)).click()
    _square(puzzle, pos.square_name(m.dest)).click()


def _wait_text(page: Any, locator: Any, text: str) -> None:
    page.wait_for_function(
        "([el, t]) => el.textContent.includes(t)", arg=[locator.element_handle(), text], timeout=5000
    )


@pytestmark_browser
def test_each_puzzle_once_and_lessons_link_to_the_book(page: Any, site: Path) -> None:
    _open(page, site, "american/golpes.html")
    assert page.locator("li.puzzle, [data-solve]").count() == 0, "the lesson page does not repeat the puzzles"
    link = page.locator(".book-refs a").first
    href = link.get_attribute("href")
    assert href.startswith("livro-de-golpes.html#p")
    link.click()
    target = page.locator(f"li.puzzle#{href.split('#')[1]}")
    assert target.count() == 1 and target.locator("[data-solve]").is_visible()


@pytestmark_browser
def test_solve_by_clicks_with_the_pieces_said_after_every_move(page: Any, site: Path) -> None:
    errors = _open(page, site, "american/livro-de-golpes.html")
    puzzle = _book_puzzle(page, PUZZLE_FEN)
    status = puzzle.locator(".solve-status")
    assert "Jogue com as brancas" in status.inner_text()
    pos, main = _moves(PUZZLE_FEN, SOLUTION)
    _play(puzzle, SOLUTION[0], PUZZLE_FEN)
    after_key = pos.play(main[0])
    assert _board(puzzle).get_attribute("aria-label").endswith(describe_position(after_key, "pt"))
    _wait_text(page, status, "Sua vez")
    after_defence = after_key.play(main[1])
    assert after_key.move_text(main[1], long=True) in status.inner_text()
    assert "As pretas responderam" in status.inner_text()
    label = _board(puzzle).get_attribute("aria-label")
    assert label.startswith("As pretas jogaram") and label.endswith(describe_position(after_defence, "pt"))
    _play(puzzle, SOLUTION[2], after_defence.fen())
    _wait_text(page, status, "Correto")
    assert _board(puzzle).get_attribute("aria-label").endswith(describe_position(after_defence.play(main[2]), "pt"))
    assert puzzle.locator(".board-overlay button").count() == 0  # nothing more to play
    stored = page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('damas:resolvido:'))")
    assert stored == ["damas:resolvido:american/golpes/golpe-1"]
    page.reload()
    assert "já resolveu" in _book_puzzle(page, PUZZLE_FEN).locator(".solve-status").inner_text()
    assert errors == []


@pytestmark_browser
def test_the_defender_varies_its_replies(page: Any, site: Path) -> None:
    _open(page, site, "american/livro-de-golpes.html")
    puzzle = _book_puzzle(page, BRANCHY_FEN)
    pos, main = _moves(BRANCHY_FEN, BRANCHY)
    after_key = pos.play(main[0])
    data = json.loads(puzzle.locator("[data-solve] script").inner_text())
    key = next(m for m in data["nodes"][0]["moves"] if m["t"] == pos.move_text(main[0], long=True))
    defences = [r["t"] for r in data["nodes"][key["next"]]["replies"]]
    assert len(defences) > 1, "the proof printed more than one defence here"
    legal = {after_key.move_text(m, long=True) for m in after_key.legal_moves()}
    assert set(defences) <= legal
    met = []
    for _ in defences:
        puzzle.get_by_role("button", name="Recomeçar").click()
        _play(puzzle, BRANCHY[0], BRANCHY_FEN)
        status = puzzle.locator(".solve-status")
        _wait_text(page, status, "Sua vez")
        met.append(next(d for d in defences if f"responderam {d}." in status.inner_text()))
    assert met[0] == after_key.move_text(main[1], long=True), "the main defence first"
    assert sorted(met) == sorted(defences), "every defence is met in turn"


@pytestmark_browser
def test_wrong_move_shows_its_refutation_with_move_numbers(page: Any, site: Path) -> None:
    _open(page, site, "american/livro-de-golpes.html")
    pos = Position.from_fen("american", PUZZLE_FEN)
    proof = Solver(pos.variant).solve(pos, Stipulation.parse("gain:1"), len(SOLUTION))
    refuted = [(m, line) for m, line in proof.refutations.items() if len(line) > 1]
    assert refuted, "the solver knows no refutation here"
    move, line = refuted[0]
    puzzle = _book_puzzle(page, PUZZLE_FEN)
    start_label = _board(puzzle).get_attribute("aria-label")
    _play(puzzle, pos.move_text(move), PUZZLE_FEN)
    status = puzzle.locator(".solve-status")
    after = pos.play(move)
    reply = after.move_text(line[1], long=True)
    assert "Não é este lance" in status.inner_text()
    assert f"respondem {reply}" in status.inner_text()
    assert "1. " in status.inner_text(), "the refuting line has move numbers"
    r = line[1]
    board = _board(puzzle)
    if r.is_capture:
        assert board.locator(f'[data-route="{" ".join(after.square_name(s) for s in r.path)}"]').count() == 1
    else:
        assert board.locator(f'[data-move="{after.square_name(r.origin)}-{after.square_name(r.dest)}"]').count() == 1
    assert board.get_attribute("aria-label").endswith(describe_position(after.play(r), "pt"))
    puzzle.get_by_role("button", name="Tentar de novo").click()
    assert _board(puzzle).get_attribute("aria-label") == start_label
    assert _square(puzzle, pos.square_name(move.origin)).count() == 1


@pytestmark_browser
def test_one_set_of_controls_a_heading_and_one_tab_stop_per_board(page: Any, site: Path) -> None:
    _open(page, site, "american/livro-de-golpes.html")
    puzzles = page.locator("li.puzzle")
    assert puzzles.count() >= 2
    for item in puzzles.all():
        item.scroll_into_view_if_needed()
        assert item.get_by_role("heading", level=3).count() == 1
        assert item.locator("summary").all_inner_texts() in (["Dica", "Solução"], ["Solução"])
        assert item.get_by_role("button", name="Dica").count() == 0
        assert item.get_by_role("button", name="Mostrar solução").count() == 0
        tab_stops = item.locator(".board-overlay button[tabindex='0']").count()
        assert tab_stops == 1, "the board is one stop of the Tab key; the arrows move on it"
    # the skip link is the first stop and leads to the content
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("() => location.hash") == "#conteudo"


@pytestmark_browser
def test_solve_by_keyboard_only(page: Any, site: Path) -> None:
    _open(page, site, "american/livro-de-golpes.html")
    puzzle = _book_puzzle(page, PUZZLE_FEN)
    status = puzzle.locator(".solve-status")
    pos, main = _moves(PUZZLE_FEN, SOLUTION)
    # Tab reaches the board, then the arrow keys go from piece to piece
    puzzle.evaluate("el => el.setAttribute('data-target', '1')")
    _tab_to(page, "el.closest('.board-overlay') && el.closest('li.puzzle').dataset.target")
    origin = pos.square_name(main[0].origin)
    for _ in range(10):
        if page.evaluate("() => document.activeElement.getAttribute('data-square')") == origin:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    dest = pos.square_name(main[0].dest)
    for _ in range(10):
        if page.evaluate("() => document.activeElement.getAttribute('data-square')") == dest:
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    _wait_text(page, status, "Sua vez")


@pytestmark_browser
def test_hint_and_solution_fold_outs(page: Any, site: Path) -> None:
    _open(page, site, "american/livro-de-golpes.html")
    puzzle = _book_puzzle(page, PUZZLE_FEN)
    hint = puzzle.locator("details.hint p")
    assert not hint.is_visible()
    puzzle.locator("details.hint summary").click()
    assert hint.inner_text() == "As brancas ganham uma pedra."
    puzzle.locator("details.answer summary").click()
    replay = puzzle.locator("details.answer [data-replay]")
    assert replay.is_visible()
    assert replay.locator(".mv").all_inner_texts() == _texts(PUZZLE_FEN, SOLUTION)
    assert puzzle.locator(".board-overlay button").count() == 0, "the game stops when the solution is open"
    replay.get_by_role("button", name="Próximo lance").click()
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
    statuses = page.locator(".copy-status").all_inner_texts()
    assert "FEN copiada." in statuses and "PDN copiado." in statuses


@pytestmark_browser
def test_english_pages_speak_english(page: Any, site: Path) -> None:
    _open(page, site, "en/american/puzzle-book.html")
    puzzle = page.locator("li.puzzle").first
    puzzle.scroll_into_view_if_needed()
    page.evaluate(
        "() => { window.copied = [];"
        " navigator.clipboard.writeText = t => { copied.push(t); return Promise.resolve(); }; }"
    )
    puzzle.get_by_role("button", name="Copy FEN").click()
    page.wait_for_function("() => window.copied.length === 1")
    assert puzzle.locator(".copy-status").inner_text() == "FEN copied."
    data = json.loads(puzzle.locator("[data-solve] script").inner_text())
    fen = data["nodes"][0]["f"]
    pos = Position.from_fen("american", fen)
    key = next(m for m in data["nodes"][0]["moves"] if "next" in m)
    _play(puzzle, key["t"], fen)
    status = puzzle.locator(".solve-status")
    side = "Black" if pos.turn == 0 else "White"
    assert f"{side} replies" in status.inner_text() or "Correct" in status.inner_text()
    assert "copiado" not in page.content() and "Jogue" not in status.inner_text()


# -- the editor -------------------------------------------------------------------------------------


def _editor(page: Any, site: Path) -> None:
    page.on("dialog", lambda d: d.accept())  # switching variant with pieces set asks first
    errors = _open(page, site, "editor.html")
    assert errors == []
    assert page.locator("#editor").is_visible()


@pytestmark_browser
def test_home_links_the_editor(page: Any, site: Path) -> None:
    _open(page, site, "index.html")
    page.get_by_role("link", name="Editor de posições").first.click()
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


@pytestmark_browser
def test_editor_asks_before_a_variant_switch_clears_the_board(page: Any, site: Path) -> None:
    _open(page, site, "editor.html")
    page.select_option("#ed-variant", "american")
    page.click('.ed-board button[data-square="22"]')
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.select_option("#ed-variant", "international")
    assert asked and "vazio" in asked[0]
    assert page.input_value("#ed-variant") == "american" and "22" in page.input_value("#ed-fen")
    page.once("dialog", lambda d: answer(d, True))
    page.select_option("#ed-variant", "international")
    assert page.input_value("#ed-variant") == "international" and page.input_value("#ed-fen") == "W:W:B"


@pytestmark_browser
def test_editor_numbers_are_never_under_a_piece(page: Any, site: Path) -> None:
    _editor(page, site)
    page.select_option("#ed-variant", "international")
    page.fill("#ed-fen-in", "W:W31-50:B1-20")
    page.click("#ed-read")
    hidden = page.evaluate(
        "() => Array.from(document.querySelectorAll('.ed-sq.pc-w .ed-num, .ed-sq.pc-b .ed-num')).filter(n => {"
        " const r = n.getBoundingClientRect();"
        " return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== n; }).length"
    )
    count = page.locator(".ed-sq.pc-w .ed-num, .ed-sq.pc-b .ed-num").count()
    assert count == 40 and hidden == 0


# -- print ----------------------------------------------------------------------------------------


@pytestmark_browser
@pytest.mark.parametrize("name", ["american/linhas.html", "american/livro-de-golpes.html"])
def test_print_hides_the_controls(page: Any, site: Path, name: str) -> None:
    _open(page, site, name)
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")  # what printing does first
    controls = page.locator(".tools button, .board-overlay button")
    assert controls.count() > 0
    page.emulate_media(media="print")
    visible = page.evaluate(
        "() => Array.from(document.querySelectorAll('.tools, .board-overlay button'))"
        ".filter(e => e.getClientRects().length > 0).length"
    )
    assert visible == 0
    boards = page.locator(".board")
    assert boards.count() and boards.count() == page.locator(".board svg").count(), "every board drawn for print"


@pytestmark_browser
def test_screenshots(page: Any, site: Path, tmp_path: Path) -> None:
    """Pictures of the interactive parts (kept in pytest's temporary folder of the run, to look at)."""
    _open(page, site, "american/livro-de-golpes.html")
    puzzle = _book_puzzle(page, PUZZLE_FEN)
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


# -- the home page ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture course's pages as ``damas build`` renders them with PDFs (the PDFs themselves are not
    compiled: only where the links sit on the page matters here)."""
    from generator.course import Course
    from generator.course import check_course as check
    from generator.render.site import plan_site
    from generator.render.website import site_files

    base = tmp_path_factory.mktemp("home")
    lessons = write_course(base / "lessons")
    write_lesson(lessons, "american", "linhas", LINES)
    write_lesson(lessons, "american", "shots", ENGLISH)
    course = Course(base, lessons)
    report = check(course)
    assert report.ok, report.errors
    site = plan_site(report.lessons, [VARIANTS["american"], VARIANTS["brazilian"]])
    for path, text in site_files(site, course, pdf=True).items():
        (base / path).parent.mkdir(parents=True, exist_ok=True)
        (base / path).write_text(text, encoding="utf-8")
    return base / "html"


@pytestmark_browser
@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_home_shows_books_print_set_editor_and_language_without_scrolling(
    browser: Any, home: Path, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto((home / "index.html").as_uri(), wait_until="load")
    wanted = {
        "book": page.locator('a[href$="/livro-de-golpes.html"]'),
        "print set": page.locator('table.home-index a[href$="/tabuleiro.pdf"]'),
        "editor": page.locator('a[href="editor.html"]'),
        "language": page.locator('a[hreflang="en"]'),
    }
    for what, links in wanted.items():
        assert links.count() > 0, f"no {what} link on the home page"
        box = links.first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, f"{what} is below the fold at {viewport}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{what} is off the side at {viewport}"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    page.close()
