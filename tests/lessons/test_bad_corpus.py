"""The bad corpus: one mistake per file, each reported at its exact place with a message that says
what was claimed and what is true.

Where the checker is wrong today the expectation states the right behaviour (see the notes on
each); those tests fail until the checker is fixed.
"""

from __future__ import annotations

import os
import time
from functools import cache

import pytest

from generator.lessons.check import CheckReport, check_paths, check_text

from .helpers import BAD, Near, assert_errors

M = "moves, only_move, legal, illegal, line, result, ending"
LESSON_KEYS = (
    "draw_profile, language, margin, margin_reason, order, proof_budget, puzzles, sections, slug, summary, "
    "title, variant"
)
AMBIGUOUS_35X15 = r"35x15 is ambiguous.*35x49x21x8x24x15.*35x49x21x12x29x15"
AMERICAN_START_HINT = "PDN FEN 'B:W21-32:B1-12', or write 'start'"

EXPECTED: dict[str, list[str | Near]] = {
    # -- reading the file ----------------------------------------------------------------------
    "yaml-syntax.yaml": ["yaml-syntax.yaml:7:12: YAML syntax error: mapping values are not allowed here"],
    # The '[' opened on line 7 is never closed.  Today the error points at 8:1, a line the file does
    # not have ("got '<stream end>'"); it should point at the unclosed bracket, as Python does.
    "yaml-unclosed-list.yaml": [Near(7, 11, r"YAML syntax error")],
    "duplicate-key.yaml": ["duplicate-key.yaml:4:1: duplicate key 'title' (first given on line 3)"],
    # A Python tag must be refused *as a tag*; today it is walked as a plain list and reported as
    # "'title' must be text, not a list", which hides what is wrong.
    "python-tag.yaml": [Near(3, 8, r"python/object/apply:os\.system.*not allowed|not allowed.*python/object")],
    "alias-bomb.yaml": [
        "alias-bomb.yaml:5:32: the document expands to more than 200000 values "
        "(limit yaml_nodes = 200000; raise it with DAMAS_LIMIT_YAML_NODES)"
    ],
    # The bad byte (0xE7 of 'Lição' in Latin-1) is on line 3, column 10; today: 1:1.
    "not-utf8.yaml": [Near(3, 10, r"UTF-8")],
    # -- structure (schema) --------------------------------------------------------------------
    "unknown-key-lesson.yaml": [
        f"unknown-key-lesson.yaml:5:1: unknown key 'author' in the lesson; expected one of: {LESSON_KEYS}"
    ],
    "unknown-key-section.yaml": [
        "unknown-key-section.yaml:7:5: unknown key 'body' in section 1; expected one of: diagrams, for_authors, id, "
        "text, title"
    ],
    "unknown-key-diagram.yaml": [
        "unknown-key-diagram.yaml:9:9: unknown key 'captoin' in diagram 1 of section 1; expected one of: "
        "board, caption, claims, counters, id, position, show, turn"
    ],
    "unknown-key-claim.yaml": [
        "unknown-key-claim.yaml:10:13: unknown key 'only_moves' in claim 1 of diagram 1 of section 1; expected "
        "one of: ending, forced, illegal, legal, line, moves, only_move, position, reason, result, text, wins_in"
    ],
    "unknown-key-show.yaml": [
        "unknown-key-show.yaml:10:11: unknown key 'flip' in 'show' of diagram 1 of section 1; expected one of: "
        "arrows, captured, coordinates, highlight, numbers, orientation, route"
    ],
    "unknown-key-puzzle.yaml": [
        "unknown-key-puzzle.yaml:12:5: unknown key 'hint' in puzzle 1; expected one of: board, caption, "
        "counters, difficulty, id, margin, margin_reason, position, solution, source, stipulation, themes, turn"
    ],
    "text-as-list.yaml": ["text-as-list.yaml:8:7: 'text' of section 1 must be text, not a list"],
    "difficulty-text.yaml": ["difficulty-text.yaml:12:17: 'difficulty' of puzzle 1 must be a whole number, not text"],
    "missing-title.yaml": ["missing-title.yaml:1:1: the lesson is missing 'title'"],
    "missing-slug.yaml": ["missing-slug.yaml:1:1: the lesson is missing 'slug'"],
    "missing-stipulation.yaml": ["missing-stipulation.yaml:8:5: puzzle 1 is missing 'stipulation'"],
    "bad-slug.yaml": [
        "bad-slug.yaml:4:7: 'slug' 'Regras_1' is not valid: expected lower-case words and digits joined by "
        "hyphens, like 'regras-basicas'"
    ],
    "unknown-variant.yaml": [
        "unknown-variant.yaml:1:10: unknown variant 'checkers-9x9' (known: brazilian, international, russian, "
        "american, english, portuguese, italian, turkish, perde-ganha, antidraughts)"
    ],
    "bad-language.yaml": [
        "bad-language.yaml:2:11: 'language' 'portuguese' is not valid: expected a language tag such as pt-BR or en"
    ],
    "unknown-draw-profile.yaml": [
        "unknown-draw-profile.yaml:5:15: draw profile 'cbd' is not one of american's: wcdf, none"
    ],
    "forced-without-line.yaml": ["forced-without-line.yaml:10:13: 'forced' needs 'line' in the same claim"],
    "claim-states-nothing.yaml": [
        f"claim-states-nothing.yaml:10:13: this claim states nothing to check; give one of: {M}"
    ],
    # -- positions -----------------------------------------------------------------------------
    "malformed-fen.yaml": ["malformed-fen.yaml:8:19: invalid FEN 'W:W27,,x:B15': 'x' is not a square number"],
    "fen-light-square.yaml": [
        "fen-light-square.yaml:8:19: invalid FEN 'W:Wc3,d3:Bf6': square 'd3' is a light square, not a playing square"
    ],
    "fen-man-on-last-row.yaml": [
        "fen-man-on-last-row.yaml:8:19: invalid FEN 'W:W2,27:B15': white man on 2, its own promotion row "
        "(it would be a king)"
    ],
    "too-many-pieces.yaml": [
        "too-many-pieces.yaml:8:19: invalid FEN 'W:W13-32:B1-12': white has 20 pieces; at most 12 fit in american"
    ],
    "square-twice.yaml": ["square-twice.yaml:8:19: invalid FEN 'W:W27,30:B15,27': square 27 is listed twice"],
    "board-man-on-last-row.yaml": [
        "board-man-on-last-row.yaml:9:21: a white man on 3, its own promotion row (draw it as a king)",
        "board-man-on-last-row.yaml:16:11: a black man on 29, its own promotion row (draw it as a king)",
    ],
    # "a american board" reads badly; either article is accepted here.
    "board-row-count.yaml": [Near(8, 16, r"^the board has 7 row\(s\); the american board has 8$")],
    "board-row-length.yaml": ["board-row-length.yaml:12:11: row 4 has 7 squares; expected 8"],
    "board-bad-char.yaml": [
        "board-bad-char.yaml:13:21: 'x' is not a square: use w b (men), W B (kings), . (empty) or - (light)"
    ],
    "board-light-square.yaml": ["board-light-square.yaml:15:19: a piece on e2, a light square (not played on)"],
    # Drawn with the standard colours on the mirrored Italian board: one error for the colours (not one
    # per square), then each piece on a light square.
    "board-light-square-mirrored.yaml": [
        "board-light-square-mirrored.yaml:9:11: '.' and '-' do not match the board's colours at a8 and 61 other "
        "square(s): '.' is an empty playing square, '-' a light one; on the italian board a1 (bottom left) is a "
        "light square",
        "board-light-square-mirrored.yaml:13:17: a piece on d4, a light square (not played on)",
        "board-light-square-mirrored.yaml:15:21: a piece on f2, a light square (not played on)",
    ],
    "board-too-many-pieces.yaml": ["board-too-many-pieces.yaml:8:16: white has 19 pieces; at most 12 fit"],
    "position-and-board.yaml": ["position-and-board.yaml:9:16: give either 'position' or 'board', not both"],
    "board-without-turn.yaml": ["board-without-turn.yaml:8:16: a drawn board needs 'turn: white' or 'turn: black'"],
    "turn-with-fen.yaml": ["turn-with-fen.yaml:9:15: 'turn' goes with 'board'; a FEN already says who is to move"],
    "counters-twice.yaml": ["counters-twice.yaml:10:11: counters are given twice: in the FEN and in 'counters'"],
    "balance-below-quiet.yaml": [
        "balance-below-quiet.yaml:11:20: balance (10) is less than quiet (40): every capture or promotion "
        "also resets the quiet count"
    ],
    # -- moves ---------------------------------------------------------------------------------
    "unreadable-move.yaml": ["unreadable-move.yaml:10:27: 'nine-13': 'nine' is not a square number"],
    "illegal-line-move.yaml": [
        "illegal-line-move.yaml:13:17: line move 3: 32-27 is not legal here: capture is compulsory; legal: 31x13"
    ],
    "ambiguous-line.yaml": [
        "ambiguous-line.yaml:10:20: line move 1: 35x15 is ambiguous: write the path "
        "(35x49x21x8x24x15, 35x49x21x12x29x15)"
    ],
    # Outside a line an ambiguous move is reported as "not legal" (both 35x15 captures ARE legal),
    # and `illegal: [35x15]` -- a false claim -- is not reported at all.
    "ambiguous-claims.yaml": [
        Near(10, 21, AMBIGUOUS_35X15),
        Near(11, 24, AMBIGUOUS_35X15),
        Near(12, 23, r"35x15"),
    ],
    "show-errors.yaml": [
        "show-errors.yaml:10:23: '0' is not a square name (expected a letter and a rank, like c3)",
        "show-errors.yaml:10:26: square 'k9' is off the 8x8 board",
        "show-errors.yaml:10:30: square 'c4' is a light square, not a playing square",
        "show-errors.yaml:10:34: '12' is not a square name (expected a letter and a rank, like c3)",
        "show-errors.yaml:11:27: 'c3-b5': square 'b5' is a light square, not a playing square",
        "show-errors.yaml:12:18: route c3-d4 is not a capture; use 'arrows'",
    ],
    # -- false claims --------------------------------------------------------------------------
    "moves-false.yaml": [
        "moves-false.yaml:10:20: claimed exactly 7 legal move(s), but 12-16 is also legal",
        "moves-false.yaml:10:61: claimed 12-17 is legal, but it is not; legal: 9-13 9-14 10-14 10-15 11-15 11-16 12-16",
    ],
    "only-move-other.yaml": ["only-move-other.yaml:10:24: claimed only move 27x18x11, but 30x21 is also legal"],
    "only-move-illegal.yaml": [
        "only-move-illegal.yaml:10:24: claimed only move 30-26, but it is not legal here: "
        "capture is compulsory; legal: 27x11"
    ],
    "legal-false.yaml": [
        "legal-false.yaml:10:31: claimed 30-25 is legal, but it is not: capture is compulsory; legal: 27x11"
    ],
    "illegal-is-legal.yaml": ["illegal-is-legal.yaml:10:23: claimed 9-13 is not legal, but it is"],
    "illegal-wrong-why.yaml": [
        "illegal-wrong-why.yaml:12:22: claimed 30-26 is not legal because of 'precedence', but the reason is "
        "'capture-compulsory': capture is compulsory"
    ],
    "forced-false.yaml": [
        "forced-false.yaml:10:26: claimed 22-18 is forced, but 21-17 22-17 23-18 23-19 24-19 24-20 are also legal"
    ],
    "forced-list-false.yaml": [
        "forced-list-false.yaml:10:44: claimed 1-6 is forced, but 1-5 is also legal",
        "forced-list-false.yaml:11:34: 9-14 is not a move of the line",
    ],
    "line-position-wrong.yaml": [
        "line-position-wrong.yaml:11:23: claimed the position after the line is B:W11,30:B15, but it is B:W11,30:B"
    ],
    "result-wrong.yaml": ["result-wrong.yaml:11:21: claimed white-wins after the line, but the game is still ongoing"],
    "result-no-line-wrong.yaml": [
        "result-no-line-wrong.yaml:10:21: claimed white-wins in the diagram, but the game is still ongoing"
    ],
    "reason-wrong.yaml": [
        "reason-wrong.yaml:11:21: claimed white-wins by no-pieces in the diagram, but the game is a white win "
        "(blocked: black cannot move)"
    ],
    "unknown-reason.yaml": [
        "unknown-reason.yaml:12:21: unknown reason 'forty-moves'; use one of: E1, E2, blocked, no-pieces, repetition"
    ],
    # -- the rule that makes a claim false (generator/lessons/explain.py; every rule in test_explain.py) --
    # The American start with White to move: one error per list of moves, not one per move.
    "rule-side-to-move.yaml": [
        "rule-side-to-move.yaml:10:20: the position has White to move, but every claimed move is a Black move "
        f"(American / English checkers starts with Black: {AMERICAN_START_HINT})",
        "rule-side-to-move.yaml:11:24: claimed only move 9-13, but it is not legal here: the position has White to "
        f"move, and 9-13 is a Black move (American / English checkers starts with Black: {AMERICAN_START_HINT}); "
        "legal: 21-17 22-17 22-18 23-18 23-19 24-19 24-20",
        "rule-side-to-move.yaml:12:20: the position has White to move, but every claimed move is a Black move "
        f"(American / English checkers starts with Black: {AMERICAN_START_HINT})",
    ],
    "rule-majority-law.yaml": [
        "rule-majority-law.yaml:10:21: claimed e5xg7 is legal, but it is not: the majority law: a capture must take "
        "as many pieces as possible (d8xg5xc1 takes 2 pieces, e5xg7 takes 1); legal: d8xc1 d8xd2"
    ],
    "rule-italian-precedence.yaml": [
        "rule-italian-precedence.yaml:12:22: claimed 29x22 is not legal because of 'no-such-move', but the reason "
        "is 'precedence': the Italian precedence, rule 2 (the king captures): when a king and a man can take as "
        "many pieces, the king must capture (21x30 is the king's capture)"
    ],
    "rule-men-capture-backward.yaml": [
        "rule-men-capture-backward.yaml:10:24: claimed only move 18x27, but it is not legal here: men do not "
        "capture backward in American / English checkers; legal: 18-14 18-15"
    ],
    "rule-crowning-ends-the-move.yaml": [
        "rule-crowning-ends-the-move.yaml:10:20: line move 1: 12x3x10 is not legal here: crowning ends the move in "
        "American / English checkers: a man that reaches the last row by capturing is crowned and stops there; "
        "legal: 12x3"
    ],
    "rule-kings-move-one-square.yaml": [
        "rule-kings-move-one-square.yaml:10:20: claimed exactly 2 legal move(s), but 28-23 28-31 are also legal",
        "rule-kings-move-one-square.yaml:10:21: claimed 28-19 is legal, but it is not: kings move one square at a "
        "time in Italian draughts (kings do not fly); legal: 28-23 28-24 28-31",
    ],
    "rule-draw-counter.yaml": [
        "rule-draw-counter.yaml:11:21: claimed draw after the line, but the game is still ongoing: E2 (40 moves each "
        "with no man advanced and nothing captured) draws at 80 plies without a capture or a man move; the counter "
        "is at 79 of 80 plies"
    ],
    # -- puzzles -------------------------------------------------------------------------------
    "puzzle-reply-not-forced.yaml": [
        "puzzle-reply-not-forced.yaml:11:23: defender move d8-e7 is not forced: d8-c7 h6-g5 are also legal; "
        "list them under 'others' or change the line",
        # b6-a7 and a7-b8 walk a man to the crown: no combination (docs/lessons.md, "not a puzzle")
        "puzzle-reply-not-forced.yaml:10:18: not a puzzle: the line gives nothing up, "
        "the side to move simply crowns anyway; show a combination (a sacrifice) or use the 'win' "
        "stipulation for a quiet win",
    ],
    "puzzle-others-incomplete.yaml": [
        "puzzle-others-incomplete.yaml:13:31: 'others' leaves out d8-c7",
        # b6-a7 and a7-b8 walk a man to the crown: no combination (docs/lessons.md, "not a puzzle")
        "puzzle-others-incomplete.yaml:10:18: not a puzzle: the line gives nothing up, "
        "the side to move simply crowns anyway; show a combination (a sacrifice) or use the 'win' "
        "stipulation for a quiet win",
    ],
    "puzzle-others-misplaced.yaml": [
        "puzzle-others-misplaced.yaml:12:16: 'others' is for the defender's replies, not the solver's moves",
        "puzzle-others-misplaced.yaml:13:31: 19x26 is forced: there are no other replies",
    ],
    "puzzle-gain-short.yaml": ["puzzle-gain-short.yaml:10:18: claimed white wins 2 piece(s), but the solution nets 1"],
    "puzzle-win-fails.yaml": [
        "puzzle-win-fails.yaml:10:18: claimed white wins, but after the solution the game is ongoing"
    ],
    "puzzle-second-solution.yaml": [
        "puzzle-second-solution.yaml:11:16: second solution: b6-c7 also promotes",
        # b6-a7 and a7-b8 walk a man to the crown: no combination (docs/lessons.md, "not a puzzle")
        "puzzle-second-solution.yaml:10:18: not a puzzle: the line gives nothing up, "
        "the side to move simply crowns anyway; show a combination (a sacrifice) or use the 'win' "
        "stipulation for a quiet win",
    ],
    # g1-h2 DOES force the win (`damas solve brazilian W:WKa1,g1:Bd6` lists it, in 5 plies); it only
    # fails to win within the 3 plies of the written solution.  Today the message says flatly "g1-h2
    # does not force the win", contradicting damas solve; it must name the bound.
    "puzzle-unsound.yaml": [Near(12, 9, r"g1-h2 does not force the win within 3 (plies|moves)")],
    # The line that "escapes" must refute the author's line: after 16-11 22-27 11-6 the defence 27-31
    # forces a capture, so 6-1 comes too late.  Today the line shown has White leave the solution at
    # once (16-11 22-27 36-31 27x36 37-32), which tells the author nothing.
    "puzzle-defence-escapes.yaml": [
        Near(12, 9, r"does not force a promotion.*after 16-11 22-27 11-6 escapes with 27-31")
    ],
    # -- text ----------------------------------------------------------------------------------
    "html-script.yaml": ["html-script.yaml:10:7: raw HTML is not allowed in lesson text: <script>alert(1)</script>"],
    # The <img> is on line 9 (the paragraph's second line, column 20); today: 8:7.
    "html-img-inline.yaml": [Near(9, None, r"raw HTML.*<img src=x onerror=alert\(1\)>")],
    # Not reported at all today (markdown-it refuses to make it a link, so the checker never sees it).
    "javascript-link.yaml": [Near(10, None, r"javascript")],
    "external-image.yaml": [
        "external-image.yaml:11:18: image 'https://evil.example.com/track.png' is not a local file; pages must work "
        "offline"
    ],
    # A protocol-relative URL loads from the web just as https:// does; not reported today.
    "external-image-protocol-relative.yaml": [Near(10, 16, r"//evil\.example\.com/track\.png.*not a local file")],
    # -- ids -----------------------------------------------------------------------------------
    "duplicate-ids.yaml": [
        "duplicate-ids.yaml:9:9: id 'intro' is used twice in this lesson (first on line 7)",
        "duplicate-ids.yaml:17:9: id 'p1' is used twice in this lesson (first on line 11)",
    ],
    # -- every error of a file in one run ------------------------------------------------------
    "multi-error-claims.yaml": [
        "multi-error-claims.yaml:10:7: raw HTML is not allowed in lesson text: <div>block</div>",
        "multi-error-claims.yaml:14:24: claimed only move 30-26, but it is not legal here: "
        "capture is compulsory; legal: 27x11",
        "multi-error-claims.yaml:15:23: claimed 27x11 is not legal, but it is",
        "multi-error-claims.yaml:18:20: claimed exactly 1 legal move(s), but 9-14 10-14 10-15 11-15 11-16 12-16 "
        "are also legal",
        "multi-error-claims.yaml:22:18: claimed white wins 2 piece(s), but the solution nets 1",
    ],
    # One unknown key at the top hides every other error of the file today (the lesson is not built).
    "multi-error.yaml": [
        f"multi-error.yaml:5:1: unknown key 'colour' in the lesson; expected one of: {LESSON_KEYS}",
        "multi-error.yaml:11:7: raw HTML is not allowed in lesson text: <div>block</div>",
        "multi-error.yaml:15:24: claimed only move 30-26, but it is not legal here: "
        "capture is compulsory; legal: 27x11",
        "multi-error.yaml:18:20: claimed exactly 1 legal move(s), but 9-14 10-14 10-15 11-15 11-16 12-16 "
        "are also legal",
        "multi-error.yaml:22:18: claimed white wins 2 piece(s), but the solution nets 1",
    ],
    # A bad 'show' value hides the false claim of the same diagram today.
    "diagram-error-hides-claims.yaml": [
        "diagram-error-hides-claims.yaml:10:24: 'orientation' of 'show' of diagram 1 of section 1 must be one of: "
        "white, black; got 'sideways'",
        "diagram-error-hides-claims.yaml:12:24: claimed only move 30-26, but it is not legal here: "
        "capture is compulsory; legal: 27x11",
    ],
    # An unknown key in a section hides the false claims of all its diagrams today.
    "section-error-hides-diagrams.yaml": [
        "section-error-hides-diagrams.yaml:7:5: unknown key 'body' in section 1; expected one of: diagrams, "
        "for_authors, id, text, title",
        "section-error-hides-diagrams.yaml:11:24: claimed only move 30-26, but it is not legal here: "
        "capture is compulsory; legal: 27x11",
    ],
}

PAIRED = ("dup-slug-a.yaml", "dup-slug-b.yaml")


@cache
def _report(name: str) -> CheckReport:
    """check_paths on one bad file, run from the bad folder so the path shown is the file name."""
    old = os.getcwd()
    os.chdir(BAD)
    try:
        return check_paths([name])
    finally:
        os.chdir(old)


def test_the_corpus_is_complete() -> None:
    """Every bad file has an expectation, and there are at least 30 distinct mistakes."""
    files = {p.name for p in BAD.glob("*.yaml")}
    assert files == set(EXPECTED) | set(PAIRED)
    assert len(EXPECTED) >= 30
    assert all(EXPECTED.values()), "every bad file must expect at least one error"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file(name: str) -> None:
    report = _report(name)
    assert not report.ok
    assert report.files == [name]
    assert_errors(name, report.errors, EXPECTED[name])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_errors_are_sorted_and_printable(name: str) -> None:
    errors = _report(name).errors
    assert errors, f"{name}: no error"
    assert errors == sorted(errors)
    for e in errors:
        assert e.line >= 1 and e.col >= 1
        assert str(e) == f"{e.path}:{e.line}:{e.col}: {e.message}"
        assert "Traceback" not in e.message


def test_duplicate_slug_across_files_of_one_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """'american' and its alias 'english' are one variant: the second file's slug is reported."""
    monkeypatch.chdir(BAD)
    for name in PAIRED:
        assert check_paths([name]).ok, f"{name} alone is a valid lesson"
    report = check_paths(list(PAIRED))
    assert [str(e) for e in report.errors] == [
        "dup-slug-b.yaml:4:7: slug 'same-slug' is already used by dup-slug-a.yaml"
    ]


def test_same_slug_in_two_variants_is_fine() -> None:
    text = "variant: {v}\nlanguage: en\ntitle: T\nslug: same\nsections:\n  - title: S\n"
    a = check_text(text.format(v="american"), "a.yaml")
    b = check_text(text.format(v="italian"), "b.yaml")
    assert a[1] == [] and b[1] == []


def test_whole_bad_folder_in_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checking every bad file together reports exactly what checking each alone does (no file hides
    another's errors), plus the duplicate slug."""
    alone = [e for name in sorted(EXPECTED) for e in _report(name).errors]
    monkeypatch.chdir(BAD)
    together = check_paths(["."])
    dup = [e for e in together.errors if e.path == "dup-slug-b.yaml"]
    rest = [e for e in together.errors if e.path != "dup-slug-b.yaml"]
    assert [str(e) for e in dup] == ["dup-slug-b.yaml:4:7: slug 'same-slug' is already used by dup-slug-a.yaml"]
    assert sorted(map(str, rest)) == sorted(map(str, alone))
    assert len(together.files) == len(EXPECTED) + len(PAIRED)
    assert set(together.failed_files()) == {e.path for e in alone} | {"dup-slug-b.yaml"}


def test_python_tag_is_not_executed(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """`!!python/object/apply:os.system ["echo hi"]` must never run: nothing is printed by a shell."""
    monkeypatch.chdir(BAD)
    report = check_paths(["python-tag.yaml"])
    out, err = capfd.readouterr()
    assert "hi" not in out.split() and "hi" not in err.split()
    assert not report.ok


def test_alias_bomb_is_refused_quickly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    started = time.perf_counter()
    report = check_paths(["alias-bomb.yaml"])
    elapsed = time.perf_counter() - started
    assert not report.ok
    assert elapsed < 3.0, f"alias bomb took {elapsed:.2f} s"


def test_recursive_alias_is_refused() -> None:
    text = "variant: american\nlanguage: en\ntitle: T\nslug: r\nsections: &s\n  - title: S\n    diagrams: *s\n"
    lesson, errors = check_text(text, "r.yaml")
    assert lesson is None
    assert errors and all(e.path == "r.yaml" for e in errors)


def test_multi_error_file_reports_everything_in_one_run() -> None:
    """The same content with and without a stray top-level key: the key must add one error, not hide
    the other four."""
    with_key = _report("multi-error.yaml").errors
    text = (BAD / "multi-error.yaml").read_text("utf-8").replace("colour: red\n", "")
    _, without_key = check_text(text, "multi-error.yaml")
    assert len(without_key) == 4
    assert len(with_key) == len(without_key) + 1
