"""The package's import graph, read statically (``ast``): no import circle, and layers that run one way.

Layers, lowest first: ``rules → puzzles → lessons → render → build → cli``.  A module may import its
own layer, the layers below it and the utility modules named in :data:`UTILITIES`; the engine
(``generator.rules``) may import nothing outside itself but :data:`ENGINE_MAY_IMPORT`; a utility
may import other utilities and the engine only.

Every import counts, at module level or inside a function (a lazy import is still a dependency),
except those under ``if TYPE_CHECKING:``: they name a type for the type checker and run nothing
(a position names its variant's type, a variant's generator names the position type), so they
can create no import-order problem.  docs/architecture.md describes the layers.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "generator"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("rules", ("generator.rules",)),
    ("endgame", ("generator.endgame",)),
    ("puzzles", ("generator.puzzles",)),
    ("lessons", ("generator.lessons", "generator.course", "generator.interchange")),
    ("render", ("generator.render",)),
    (
        "build",
        (
            "generator.build",
            "generator.incremental",
            "generator.output",
            "generator.serve",
            "generator.scaffold",
            "generator.worksheet",
        ),
    ),
    ("cli", ("generator.cli", "generator.__main__")),
]
"""Each layer and the modules (or packages) it is made of."""

UTILITIES = frozenset(
    {
        "generator",  # the package itself: __version__
        "generator.errors",
        "generator.limits",
        "generator.inputfile",
        "generator.folders",  # where a folder walk may go (lessons, cli)
        "generator.terminal",
        "generator.i18n",
        "generator.resources",
        "generator.cache",
        "generator.cpus",
        "generator.workers",
        "generator.collector",  # the garbage collector's threshold while checking and building
    }
)
"""Top-level modules every layer may use (each small, about one thing, below every layer)."""

ENGINE_MAY_IMPORT = frozenset({"generator.errors"})
"""What the engine may import from outside ``generator.rules``: the base error, nothing else."""


def module_names() -> dict[str, Path]:
    """Module name -> file, for every ``.py`` (and compiled ``.pyx``) module under generator/."""
    out = {}
    for f in sorted([*ROOT.rglob("*.py"), *ROOT.rglob("*.pyx")]):
        parts = list(f.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


MODULES = module_names()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, but those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _known(name: str) -> str | None:
    """The module ``name`` is, or is inside of (``generator.rules.Position`` -> ``generator.rules``)."""
    while name not in MODULES:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def _targets(node: ast.Import | ast.ImportFrom, name: str) -> list[str]:
    if isinstance(node, ast.Import):
        wanted = [a.name for a in node.names]
    else:
        package = name.split(".") if MODULES[name].name == "__init__.py" else name.split(".")[:-1]
        base = package[: len(package) - node.level + 1] if node.level else []
        module = ".".join([*base, *([node.module] if node.module else [])])
        wanted = [f"{module}.{a.name}" for a in node.names]
    return [t for t in (_known(w) for w in wanted if w.split(".")[0] == "generator") if t is not None and t != name]


PYX_IMPORT = re.compile(r"^(?:from\s+(generator[\w.]*)\s+c?import|c?import\s+(generator[\w.]*))", re.M)
"""A Python or C-level import of a generator module in a Cython source (which ``ast`` cannot read)."""


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        if path.suffix == ".pyx":
            found = (a or b for a, b in PYX_IMPORT.findall(path.read_text(encoding="utf-8")))
            graph[name] = {t for t in (_known(w) for w in found) if t is not None and t != name}
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {t for node in _imports(tree) for t in _targets(node, name)}
    return graph


GRAPH = import_graph()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def layer_of(name: str) -> int | None:
    """The layer's index, or None for a utility module."""
    if name in UTILITIES:
        return None
    for i, (_, members) in enumerate(LAYERS):
        if any(name == m or name.startswith(m + ".") for m in members):
            return i
    raise AssertionError(f"{name} is in no layer and not a utility: add it to tests/test_layers.py")


def test_the_graph_is_read() -> None:
    assert len(GRAPH) > 80
    assert "generator.rules.position" in GRAPH["generator.rules"]
    assert "generator.rules._core" in GRAPH["generator.rules.core"]  # the compiled kernels count
    assert "generator.rules._core" in GRAPH["generator.puzzles._search"]  # its cimport too
    assert "generator.puzzles.proof" in GRAPH["generator.lessons.verify"]


def test_a_cycle_is_found() -> None:
    """The detector itself: a circle of three, a self-contained pair, and a clean chain."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    assert cycles(GRAPH) == []


def test_every_module_has_a_layer() -> None:
    for name in GRAPH:
        layer_of(name)


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_imports_run_down_the_layers(name: str) -> None:
    mine = layer_of(name)
    for target in sorted(GRAPH[name]):
        theirs = layer_of(target)
        if name.startswith("generator.rules"):
            assert target.startswith("generator.rules") or target in ENGINE_MAY_IMPORT, f"{name} imports {target}"
        elif mine is None:  # a utility
            assert theirs is None or theirs == 0, f"utility {name} imports {target}"
        elif theirs is not None:
            assert theirs <= mine, f"{name} ({LAYERS[mine][0]}) imports {target} ({LAYERS[theirs][0]})"


def test_lessons_import_puzzles_and_never_the_reverse() -> None:
    lessons_to_puzzles = [
        (a, b)
        for a in GRAPH
        for b in GRAPH[a]
        if a.startswith("generator.lessons.") and b.startswith("generator.puzzles")
    ]
    assert lessons_to_puzzles, "the lesson checker proves its puzzles with generator.puzzles"
    reverse = [
        (a, b)
        for a in GRAPH
        for b in GRAPH[a]
        if a.startswith("generator.puzzles") and b.startswith("generator.lessons")
    ]
    assert reverse == []


SOLVER = frozenset(
    {
        "generator.puzzles.search",
        "generator.puzzles.dfpn",
        "generator.puzzles.kernel",
        "generator.puzzles._search",
        "generator.puzzles.proof",
        "generator.puzzles.engine",
    }
)
"""The modules that search positions: the provers, their kernels, the proof, the playing engine."""


def test_the_renderer_runs_no_solver() -> None:
    """Pages and books are drawn from the check's proof results (the page's play tree included,
    generator/puzzles/play.py): nothing under render/ imports a search."""
    render = [name for name in GRAPH if name.startswith("generator.render.")]
    assert len(render) > 10
    assert set(MODULES) >= SOLVER, "every solver module named here exists"
    found = sorted((a, b) for a in render for b in GRAPH[a] if b in SOLVER)
    assert found == []
