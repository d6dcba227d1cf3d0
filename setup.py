"""Build script for the optional compiled kernels: the rules kernel (generator.rules._core), the
puzzle-search kernel built on it (generator.puzzles._search, which cimports the first through
generator/rules/_core.pxd) and the endgame tables' kernel (generator.endgame._retro).

Everything else is declared in pyproject.toml.  The extension is optional, the way PyYAML treats
libyaml: when Cython, a C compiler or the Python headers are missing, or the compiler has no
128-bit integers, the build prints a warning and the install goes on with the pure-Python engine,
which gives identical results.  ``DAMAS_NO_CORE=1`` skips the extension on purpose.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _warn(what: str, exc: BaseException | None = None) -> None:
    detail = f": {exc}" if exc else ""
    print(
        f"WARNING: the compiled engine core was not built ({what}{detail}); damas will use the pure-Python engine.",
        file=sys.stderr,
    )


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compile into a warning."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: keep the pure engine
            _warn("build_ext failed", exc)

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:
            _warn(f"compiling {ext.name} failed", exc)


def _extensions() -> list:
    if os.environ.get("DAMAS_NO_CORE"):
        _warn("DAMAS_NO_CORE is set")
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        _warn("Cython is not installed", exc)
        return []
    args = ["-O3", "-g0"] if os.name != "nt" else []
    exts = [
        Extension("generator.rules._core", ["generator/rules/_core.pyx"], extra_compile_args=args, optional=True),
        Extension("generator.puzzles._search", ["generator/puzzles/_search.pyx"], extra_compile_args=args, optional=True),
        # the endgame tables' kernel (its own move generator on 64-bit masks, see docs/endgames.md)
        Extension("generator.endgame._retro", ["generator/endgame/_retro.pyx"], extra_compile_args=args, optional=True),
    ]
    try:
        return cythonize(exts, compiler_directives={"language_level": "3"}, quiet=True)
    except Exception as exc:
        _warn("cythonize failed", exc)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
