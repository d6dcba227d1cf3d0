"""Property tests over random legal positions of every variant (hypothesis).

Positions come from two sources:

* random games: 0-40 random legal moves from the start (the move indices are drawn by hypothesis,
  so failures shrink to short games);
* random sparse positions: up to 16 men and kings of both colours on random playing squares, no man
  on its own promotion row, at most the variant's number of pieces per side, either side to move.

Each property is a ``check_*`` function.  The hypothesis tests run them on random positions; the
``test_*_on_fixed_positions`` tests run them on every rulebook position (tests/rules/test_rulebook.py)
and a few hand-picked ones, so rare shapes are always covered whatever hypothesis draws.

``check_reference`` compares every legal move set with the naive, independently written generator
in ``tests/rules/reference.py`` (all capture routes enumerated, precedence applied per route, then
duplicates merged).
"""

from __future__ import annotations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from generator.rules import BLACK, VARIANTS, WHITE, Goal, Position, Removal, get_variant, perft
from tests.rules.reference import Reference, board_of, engine_key
from tests.rules.test_rulebook import ALL_CASES

ALL = sorted(VARIANTS)
MAJORITY = ["international", "brazilian", "turkish", "perde-ganha", "antidraughts", "portuguese", "italian"]
MEN_FORWARD_ONLY = ["american", "italian", "portuguese"]


# -- strategies ---------------------------------------------------------------------------------------


@st.composite
def played_positions(draw, variant: str, max_plies: int = 40) -> Position:
    v = get_variant(variant)
    gen = v.generator  # the raw generator: no sorting, no Position objects along the way
    state = Position.start(v).state
    choices = draw(st.lists(st.integers(min_value=0, max_value=10_000), max_size=max_plies))
    for i in choices:
        moves = gen.moves(*state)
        if not moves:
            break
        state = gen.apply(*state, moves[i % len(moves)])
    return Position(v, *state)


@st.composite
def sparse_positions(draw, variant: str) -> Position:
    v = get_variant(variant)
    g = v.geometry
    cells = draw(
        st.lists(
            st.tuples(st.sampled_from(g.squares), st.sampled_from([WHITE, BLACK]), st.booleans()),
            min_size=1,
            max_size=16,
            unique_by=lambda t: t[0],
        )
    )
    white = black = kings = 0
    counts = [0, 0]
    for sq, colour, king in cells:
        if counts[colour] >= v.max_pieces:
            continue
        counts[colour] += 1
        if g.rank_of(sq) == v.promotion_rank(colour):
            king = True  # a man never stands on its own promotion row
        if colour == WHITE:
            white |= 1 << sq
        else:
            black |= 1 << sq
        if king:
            kings |= 1 << sq
    turn = draw(st.sampled_from([WHITE, BLACK]))
    return Position(v, white, black, kings, turn)


_STRATEGIES = {v: st.one_of(played_positions(v), sparse_positions(v)) for v in ALL}


def positions(variant: str):
    """Random legal positions of ``variant`` (built once: building strategies is not free)."""
    return _STRATEGIES[variant]


def each(variants: list[str]):
    return pytest.mark.parametrize("variant", variants)


# -- the properties -----------------------------------------------------------------------------------


def check_fen_round_trip(pos: Position) -> None:
    fen = pos.fen()
    again = Position.from_fen(pos.variant.name, fen)
    assert again == pos
    assert again.state == pos.state
    assert again.fen() == fen


def check_play(pos: Position) -> None:
    """make/unmake: ``play`` never touches the position it is called on (the game layer keeps a stack
    of positions), and the new position moves the piece and removes exactly the captured ones."""
    before_state, before_fen = pos.state, pos.fen()
    before_moves = pos.legal_moves()
    me, opp = pos.turn, pos.turn ^ 1
    for m in before_moves:
        text = pos.move_text(m, long=True)
        after = pos.play(m)
        assert after is not pos
        assert pos.state == before_state
        assert after.turn == pos.turn ^ 1
        assert after.variant is pos.variant
        assert (after.pieces(me) >> m.dest) & 1, text
        if m.origin != m.dest:
            assert not (after.pieces(me) >> m.origin) & 1, text
        assert after.pieces(me).bit_count() == pos.pieces(me).bit_count(), text
        assert after.pieces(opp) == pos.pieces(opp) & ~m.captures, text
        assert m.king == bool((pos.kings >> m.origin) & 1), text
        assert bool((after.kings >> m.dest) & 1) == (m.king or m.promotes), f"{text}: a king stays a king"
        # every other piece keeps its kind
        moved = (1 << m.origin) | (1 << m.dest) | m.captures
        assert after.kings & ~moved == pos.kings & ~moved, text
        assert after.kings & ~(after.white | after.black) == 0
        assert after.white & after.black == 0
    assert pos.fen() == before_fen
    assert pos.legal_moves() == before_moves


def check_well_formed(pos: Position) -> None:
    g = pos.variant.geometry
    occupied = pos.white | pos.black
    mine = pos.pieces(pos.turn)
    opp = pos.pieces(pos.turn ^ 1)
    immediate = pos.variant.removal is Removal.IMMEDIATE
    moves = pos.legal_moves()
    for m in moves:
        # free squares: empty ones, the origin (left at the start), and in Turkish the squares of
        # pieces already taken in this move (removed at once, docs/spec.md §1.5)
        free = (g.mask & ~occupied) | (1 << m.origin) | (m.captures if immediate else 0)
        assert (mine >> m.origin) & 1, "a move starts on a piece of the side to move"
        assert (g.mask >> m.dest) & 1, "destination is a playing square"
        assert (free >> m.dest) & 1, "destination is empty"
        assert m.path[0] == m.origin and m.path[-1] == m.dest
        for sq in m.path[1:]:
            assert (free >> sq) & 1, "every landing square is a free playing square"
        # captured squares hold opponent pieces, each taken once
        assert m.captures & ~opp == 0
        assert len(m.captured) == len(set(m.captured)) == m.captures.bit_count()
        assert set(m.captured) == set(g.bits(m.captures))
        if m.captures:
            assert len(m.path) == len(m.captured) + 1
    assert len({bool(m.captures) for m in moves}) <= 1, "capture is compulsory"
    assert len(set(moves)) == len(moves), "no duplicate (origin, destination, captured set)"
    assert pos.sorted_moves(moves) == moves, "legal_moves() is in notation order"


def check_precedence(pos: Position) -> None:
    name = pos.variant.name
    caps = [m for m in pos.legal_moves() if m.captures]
    if name in MAJORITY:  # no legal capture takes fewer pieces than another
        assert len({m.captures.bit_count() for m in caps}) <= 1
    if name in ("portuguese", "italian"):  # quality: then the most kings
        assert len({(m.captures & pos.kings).bit_count() for m in caps}) <= 1
    if name == "italian":  # men never take kings; a king captures rather than a man
        assert all(m.king or not m.captures & pos.kings for m in caps)
        assert len({m.king for m in caps}) <= 1


def check_men_forward(pos: Position) -> None:
    if pos.variant.name not in MEN_FORWARD_ONLY:
        return
    g = pos.variant.geometry
    step = 1 if pos.turn == WHITE else -1
    for m in pos.legal_moves():
        if not m.king:
            for a, b in zip(m.path, m.path[1:], strict=False):
                assert (g.rank_of(b) - g.rank_of(a)) * step > 0


def check_text(pos: Position) -> None:
    legal = pos.legal_moves()
    for m in legal:
        short = pos.move_text(m)
        long = pos.move_text(m, long=True)
        assert pos.parse_move(short) == m, short
        assert pos.parse_move(long) == m, long
        assert pos.parse_move(short, legal) == m
        assert " " not in short and " " not in long


def check_counts(pos: Position) -> None:
    moves = pos.legal_moves()
    assert len(moves) == pos.variant.generator.count(*pos.state)
    assert pos.has_legal_moves() == bool(moves)
    assert perft(pos, 1) == len(moves)
    if moves:
        assert pos.winner() is None
    else:
        loser = pos.turn
        assert pos.winner() == (loser if pos.variant.goal is Goal.LOSING else loser ^ 1)


def check_reference(pos: Position) -> None:
    board, turn = board_of(pos)
    expected = Reference(pos.variant.name).legal_moves(board, turn)
    got = {engine_key(pos, m): m for m in pos.legal_moves()}
    assert set(got) == set(expected), (
        f"engine only: {sorted(pos.move_text(got[k], long=True) for k in set(got) - set(expected))}; "
        f"reference only: {sorted(str(expected[k].path) for k in set(expected) - set(got))}"
    )
    for key, ref_move in expected.items():
        assert got[key].promotes == ref_move.promotes, pos.move_text(got[key], long=True)


# -- hypothesis: random positions ---------------------------------------------------------------------


@each(ALL)
@given(data=st.data())
def test_fen_round_trip(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_fen_round_trip(pos)


@each(ALL)
@given(data=st.data())
def test_play_returns_a_new_position_and_leaves_the_old_one_alone(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_play(pos)


@each(ALL)
@given(data=st.data())
def test_legal_moves_are_well_formed(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_well_formed(pos)
    check_counts(pos)


@each(MAJORITY)
@given(data=st.data())
def test_majority_rule_no_capture_takes_fewer_pieces(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_precedence(pos)


@each(MEN_FORWARD_ONLY)
@given(data=st.data())
def test_men_move_and_capture_forward_only(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_men_forward(pos)


@each(ALL)
@given(data=st.data())
def test_move_text_parses_back(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_text(pos)


@each(["international", "russian", "american", "italian", "turkish"])
@given(data=st.data())
def test_perft_two_is_the_sum_over_moves(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    assert perft(pos, 2) == sum(len(pos.play(m).legal_moves()) for m in pos.legal_moves())


@each(ALL)
@given(data=st.data())
def test_matches_reference_generator(variant: str, data) -> None:
    pos = data.draw(positions(variant))
    note(pos.fen())
    check_reference(pos)


# -- the same properties on fixed positions -----------------------------------------------------------

FIXED = sorted(
    {(p.values[0], p.values[1]) for p in ALL_CASES}
    | {
        ("international", "W:W12,K13:B18,28,30,37"),  # two captures 13x25 over different pieces
        ("international", "W:WK1:B7,9,17,19,20,30,31,33,43,44"),
        ("antidraughts", "W:WK41,49:B9,10,12,19,38"),
        ("perde-ganha", "W:Wb6:Bc7,f6"),
        ("russian", "W:WKa1:Bc3,e5,e7,c7"),  # a flying king that may circle back through its origin
        ("turkish", "W:WKb8:Bc3,d4,b5,c5"),  # the king may end on a square it captured
        ("turkish", "W:WKd4:Bd6,f4,d2,b4"),
        ("italian", "W:WK1:B5,13-15,21,K22"),  # two routes, the king met 3rd or 4th
    }
)


@pytest.mark.parametrize(("variant", "fen"), [pytest.param(v, f, id=f"{v}-{f}") for v, f in FIXED])
def test_properties_on_fixed_positions(variant: str, fen: str) -> None:
    pos = Position.from_fen(variant, fen)
    for check in (
        check_fen_round_trip,
        check_play,
        check_well_formed,
        check_counts,
        check_precedence,
        check_men_forward,
        check_text,
        check_reference,
    ):
        check(pos)
