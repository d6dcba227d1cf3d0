"""How a solver adopts the compiled proof-search kernel (``generator.rules.core.make_prover``).

Used by tests/rules/test_core.py (the kernel must prove what the Python solver proves, in the same
number of nodes) and bench/puzzles.py (solver nodes per second).
"""

from __future__ import annotations

from generator.rules.core import make_generator, make_prover
from generator.rules.variants import Variant


def kernel_solver(variant: Variant):  # type: ignore[no-untyped-def]
    """A Solver whose ``forced`` runs in the compiled kernel: how a solver adopts ``make_prover``."""
    from generator.puzzles.search import QUIESCENCE_PLIES, Solver

    class KernelSolver(Solver):
        def __init__(self, variant: Variant) -> None:
            super().__init__(variant)
            self.gen = make_generator(variant, "compiled")
            self.prover = make_prover(self.gen, self._z.keys, self._z.black_to_move, self.losing, QUIESCENCE_PLIES)

        def prepare(self, root, stip) -> None:  # type: ignore[no-untyped-def]
            super().prepare(root, stip)
            self.prover.prepare(stip.goal, stip.pieces, self.attacker, self.root_balance, self.root_kings)

        def forced(self, state, plies, h=None):  # type: ignore[no-untyped-def]
            before = self.prover.nodes
            try:
                return self.prover.forced(*state, plies, h)
            finally:
                self.nodes += self.prover.nodes - before

    return KernelSolver(variant)
