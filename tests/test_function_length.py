"""No function in ``generator/`` is over 60 lines (the developers' guide), unless a one-line comment
right above it (above its decorators, if any) says why it must stay whole: ``# whole: <why>``.

The compiled kernels (``.pyx``) are not Python files and are not counted.  Lines are counted from the
``def`` to the function's last line, its docstring included; a nested function counts on its own and
inside the function that holds it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import generator

LIMIT = 60
ROOT = Path(generator.__file__).parent
WHOLE = "# whole:"

NOT_YET = {}
"""Files (a path ending in ``/``: a folder) that other branches of the same issue split; their long
functions are not counted here yet.  The integrator removes each entry when that branch lands; an
entry with nothing long left under it fails the test below, so none outlives its reason."""


@dataclass(frozen=True)
class Long:
    path: str
    """Relative to ``generator/``, with ``/``."""
    name: str
    line: int
    lines: int

    def __str__(self) -> str:
        return f"generator/{self.path}:{self.line}: {self.name} is {self.lines} lines"


def long_functions(source: str, path: str, limit: int = LIMIT) -> list[Long]:
    """The functions of ``source`` over ``limit`` lines without a ``# whole: <why>`` comment above them."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if length <= limit:
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        above = lines[first - 2].strip() if first >= 2 else ""
        if above.startswith(WHOLE) and above.removeprefix(WHOLE).strip():
            continue
        found.append(Long(path, node.name, node.lineno, length))
    return found


def _entry(path: str) -> str | None:
    """The most specific entry of :data:`NOT_YET` that covers ``path`` (``rules/pdn.py`` before ``rules/``)."""
    covering = [prefix for prefix in NOT_YET if path == prefix or path.startswith(prefix)]
    return max(covering, key=len, default=None)


def _package() -> list[tuple[str, str]]:
    files = sorted(ROOT.rglob("*.py"))
    return [(f.relative_to(ROOT).as_posix(), f.read_text(encoding="utf-8")) for f in files]


def test_the_package_is_walked() -> None:
    files = _package()
    assert len(files) > 80, [p for p, _ in files]
    assert {"build.py", "render/svg.py", "lessons/model.py", "cli/course.py"} <= {p for p, _ in files}
    functions = sum(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for _, text in files for n in ast.walk(ast.parse(text))
    )
    assert functions > 800


def test_no_function_is_over_60_lines_without_saying_why() -> None:
    files = _package()
    assert files
    found = [f for path, text in files for f in long_functions(text, path)]
    assert [str(f) for f in found if _entry(f.path) is None] == []


def test_every_entry_of_the_allow_list_still_has_a_reason() -> None:
    found = [f for path, text in _package() for f in long_functions(text, path)]
    covered = {_entry(f.path) for f in found}
    stale = [prefix for prefix in NOT_YET if prefix not in covered]
    assert stale == [], "nothing long is left there: remove these entries from NOT_YET"


def _function(lines: int, above: str = "") -> str:
    body = "\n".join(f"    x{i} = {i}" for i in range(lines - 2))
    return f"{above}\ndef f():\n{body}\n    return 0\n"


def test_the_rule_counts_from_def_to_the_last_line() -> None:
    assert long_functions(_function(60), "m.py") == []
    assert long_functions(_function(61), "m.py") == [Long("m.py", "f", 2, 61)]


def test_only_a_comment_with_a_reason_keeps_a_long_function_whole() -> None:
    assert long_functions(_function(61, "# whole: one table, read top to bottom"), "m.py") == []
    assert len(long_functions(_function(61, "# whole:"), "m.py")) == 1
    assert len(long_functions(_function(61, "# a comment"), "m.py")) == 1
    decorated = "# whole: the reason\n@decorator\n" + _function(61).lstrip("\n")
    assert long_functions(decorated, "m.py") == []


def test_nested_functions_count_on_their_own() -> None:
    inner = "\n".join("    " + line for line in _function(61).strip("\n").splitlines())
    source = f"def outer():\n{inner}\n    return f\n"
    assert sorted(f.name for f in long_functions(source, "m.py")) == ["f", "outer"]
