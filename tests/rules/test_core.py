"""The compiled core against the pure-Python reference (generator.rules.core).

Differential tests on reproducible random positions of every variant and of rule profiles that
recombine the switches: seeded random games from the start position (every position along them)
and seeded random sparse positions with men and kings of both colours.  On each position the two
cores must give

* the same legal moves, in the same order, with the same paths, captured squares (in order), king
  and promotion flags, both merged (one move per origin, destination and captured set) and per
  route (``merge=False``);
* the same ``count``, ``has_moves`` and ``apply`` result for every move, and the same ``children``
  with Zobrist hashes;
* the same perft 3 on every 25th position.

The default run takes ``DAMAS_CORE_POSITIONS`` (2,000) positions per variant; ``-m slow`` runs the
10,000 per variant the issue asks for (CI runs it).  The compiled-only tests skip when the extension
is not built, unless ``DAMAS_REQUIRE_CORE=1`` (set by CI), which makes its absence a failure.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from generator.rules import BLACK, VARIANTS, WHITE, Position, get_variant
from generator.rules.core import (
    COMPILED_AVAILABLE,
    WHY_PURE,
    CompiledMoveGenerator,
    active_core,
    make_generator,
    make_zobrist,
)
from generator.rules.move import Move
from generator.rules.movegen import MoveGenerator, PureZobrist
from generator.rules.variants import Variant

DEFAULT_POSITIONS = int(os.environ.get("DAMAS_CORE_POSITIONS", "2000"))
FULL_POSITIONS = 10_000
PERFT_EVERY = 25

needs_core = pytest.mark.skipif(
    not COMPILED_AVAILABLE and not os.environ.get("DAMAS_REQUIRE_CORE"),
    reason=f"the compiled core is not active: {WHY_PURE}",
)

PROFILES = [  # (variant, rule switches): recombinations no bundled variant has
    ("russian", ("flying_kings=no",)),
    ("international", ("removal=immediate", "precedence=most-pieces-then-kings")),
    ("brazilian", ("men_capture_kings=no", "capture_promotion=promote-and-stop")),
    ("turkish", ("capture_promotion=promote-and-continue",)),
    ("turkish", ("capture_promotion=promote-and-stop", "men_capture_backward=yes")),
    ("american", ("precedence=italian", "men_capture_backward=yes")),
    ("italian", ("men_capture_kings=yes", "flying_kings=yes")),
    ("portuguese", ("precedence=free", "removal=immediate")),
]


def profile_variant(name: str, switches: tuple[str, ...]) -> Variant:
    v = get_variant(name)
    for s in switches:
        v = v.with_rule_text(s)
    return v


def random_positions(v: Variant, n: int, seed: str) -> list[tuple[int, int, int, int]]:
    """``n`` positions: half along seeded random games from the start (pure generator), half random
    sparse placements of men and kings (no man on its own promotion row)."""
    rng = random.Random(f"{seed}:{v.name}")
    gen = MoveGenerator(v)
    out: list[tuple[int, int, int, int]] = []
    start = v.start_state()
    state = start
    plies = 0
    while len(out) < n // 2:
        out.append(state)
        moves = gen.moves(*state)
        if not moves or plies >= 120:
            state, plies = start, 0
            continue
        state = gen.apply(*state, rng.choice(moves))
        plies += 1
    g = v.geometry
    while len(out) < n:
        white = black = kings = 0
        count = rng.randint(2, min(24, 2 * v.max_pieces))
        king_share = rng.choice((0.0, 0.2, 0.5, 1.0))
        for sq in rng.sample(g.squares, count):
            colour = rng.choice((WHITE, BLACK))
            king = rng.random() < king_share or g.rank_of(sq) == v.promotion_rank(colour)
            if colour == WHITE:
                white |= 1 << sq
            else:
                black |= 1 << sq
            if king:
                kings |= 1 << sq
        out.append((white, black, kings, rng.choice((WHITE, BLACK))))
    return out


def _fields(moves: list) -> list[tuple]:
    return [(m.origin, m.dest, m.captures, m.path, m.captured, m.king, m.promotes) for m in moves]


def compare(v: Variant, states: list[tuple[int, int, int, int]]) -> None:
    pure = make_generator(v, "pure")
    fast = make_generator(v, "compiled")
    from generator.puzzles.search import _Zobrist

    ref = _Zobrist(v.geometry.size)
    zp = PureZobrist(ref.keys, ref.black_to_move)
    zc = make_zobrist(ref.keys, ref.black_to_move)
    for i, state in enumerate(states):
        where = f"{v.name} position {i}: {Position(v, *state).fen()}"
        moves = pure.moves(*state)
        got = fast.moves(*state)
        assert _fields(got) == _fields(moves), where
        assert all(type(m) is Move for m in got), where
        assert _fields(fast.moves(*state, merge=False)) == _fields(pure.moves(*state, merge=False)), where
        assert fast.count(*state) == pure.count(*state) == len(moves), where
        assert fast.has_moves(*state) == pure.has_moves(*state) == bool(moves), where
        h = zp.hash(*state)
        assert zc.hash(*state) == h == ref.hash(*state), where
        children = [(*pure.apply(*state, m), zp.after(h, state, m)) for m in moves]
        assert [(*fast.apply(*state, m), zc.after(h, state, m)) for m in moves] == children, where
        assert fast.children(*state, zc, h) == (bool(moves) and moves[0].captures != 0, children), where
        assert pure.children(*state, zp, h) == fast.children(*state, zc, h), where
        if i % PERFT_EVERY == 0:
            assert fast.perft(*state, 3) == pure.perft(*state, 3), where
            assert fast.perft(*state, 2, all_paths=True) == pure.perft(*state, 2, all_paths=True), where


ALL = sorted(VARIANTS)
PROFILE_IDS = [f"{n}-{'-'.join(s)}" for n, s in PROFILES]


@needs_core
@pytest.mark.parametrize("name", ALL)
def test_compiled_equals_pure(name: str) -> None:
    v = get_variant(name)
    compare(v, random_positions(v, DEFAULT_POSITIONS, "default"))


@needs_core
@pytest.mark.parametrize(("name", "switches"), PROFILES, ids=PROFILE_IDS)
def test_compiled_equals_pure_on_profiles(name: str, switches: tuple[str, ...]) -> None:
    v = profile_variant(name, switches)
    compare(v, random_positions(v, DEFAULT_POSITIONS // 4, "profile"))


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("name", ALL)
def test_compiled_equals_pure_10000(name: str) -> None:
    v = get_variant(name)
    compare(v, random_positions(v, FULL_POSITIONS, "full"))


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize(("name", "switches"), PROFILES, ids=PROFILE_IDS)
def test_compiled_equals_pure_on_profiles_2000(name: str, switches: tuple[str, ...]) -> None:
    v = profile_variant(name, switches)
    compare(v, random_positions(v, 2000, "full-profile"))


# -- the random positions really are varied ---------------------------------------------------------


@pytest.mark.parametrize("name", ["international", "turkish", "italian"])
def test_random_positions_cover_captures_kings_and_ends(name: str) -> None:
    v = get_variant(name)
    gen = MoveGenerator(v)
    states = random_positions(v, 400, "coverage")
    assert states == random_positions(v, 400, "coverage")  # reproducible
    moves = [gen.moves(*s) for s in states]
    assert sum(1 for ms in moves if ms and ms[0].captures) > 40
    assert sum(1 for ms in moves if any(len(m.captured) >= 2 for m in ms)) > 5
    assert sum(1 for s, ms in zip(states, moves, strict=True) if any(m.king for m in ms) and s[2]) > 40
    assert any(not ms for ms in moves)


# -- which core runs ---------------------------------------------------------------------------------


@needs_core
def test_the_active_core_is_the_compiled_one() -> None:
    """Every engine user (Position, perft, the solvers) goes through Variant.generator."""
    assert COMPILED_AVAILABLE, f"the compiled core did not build or load: {WHY_PURE}"
    assert active_core() == "compiled (generator.rules._core)"
    for v in VARIANTS.values():
        assert isinstance(v.generator, CompiledMoveGenerator)
    assert isinstance(get_variant("russian").with_rules(flying_kings=False).generator, CompiledMoveGenerator)
    from generator.puzzles.kernel import COMPILED_AVAILABLE as SEARCH_COMPILED
    from generator.puzzles.kernel import WHY_PURE as SEARCH_WHY_PURE
    from generator.puzzles.kernel import active_search

    assert SEARCH_COMPILED, f"the compiled search kernel did not build or load: {SEARCH_WHY_PURE}"
    assert active_search() == "compiled (generator.puzzles._search)"


def test_pure_is_forced_by_the_environment() -> None:
    code = (
        "from generator.rules import get_variant; from generator.rules.core import active_core; "
        "print(active_core(), type(get_variant('brazilian').generator).__name__)"
    )
    env = {**os.environ, "DAMAS_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "pure Python (DAMAS_PURE is set) MoveGenerator"


def test_make_generator_rejects_an_unknown_core() -> None:
    with pytest.raises(ValueError, match="unknown core"):
        make_generator(get_variant("brazilian"), "fortran")
    assert type(make_generator(get_variant("brazilian"), "pure")) is MoveGenerator


def test_make_generator_says_why_the_compiled_core_is_missing() -> None:
    if COMPILED_AVAILABLE:
        assert isinstance(make_generator(get_variant("brazilian"), "compiled"), CompiledMoveGenerator)
    else:
        with pytest.raises(RuntimeError, match="not available"):
            make_generator(get_variant("brazilian"), "compiled")


def test_variants_command_names_the_core() -> None:
    from click.testing import CliRunner

    from generator.cli import cli

    result = CliRunner().invoke(cli, ["variants"])
    assert result.exit_code == 0
    assert f"core: {active_core()}" in result.output
    version = CliRunner().invoke(cli, ["--version"])
    assert version.exit_code == 0
    assert f"core: {active_core()}" in version.output
