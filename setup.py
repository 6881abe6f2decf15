"""Build: the hot modules are compiled by mypyc from their Python source where possible.

``pip install .`` (or ``-e .``) compiles the modules in COMPILED with mypyc when it and a C
compiler are available; the same sources run unchanged, only slower, where they are not
(or when SOLITAIRE_PURE=1 is set). A failed compilation never fails the install: it warns
and leaves plain Python. Everything else about the package is in pyproject.toml.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# Move generation, play, keys, forced moves, the table and the search loops: the engine's
# hot modules, and every game's own modules (games/_*.py) but its CP-SAT model, which
# spends its time in OR-Tools. A new game's rules module is compiled without a list here.
ENGINE = [
    "solver/cards.py",
    "solver/piles.py",
    "solver/table.py",
    "solver/verify.py",
    "solver/search/base.py",
    "solver/search/dfs.py",
    "solver/search/best_first.py",
    "solver/search/beam.py",
    "solver/search/portfolio.py",
    "solver/search/astar.py",
    "solver/search/bfs.py",
]
COMPILED = ENGINE + sorted(str(path.relative_to(ROOT)) for path in (ROOT / "games").glob("_*.py")
                           if path.name != "__init__.py" and not path.stem.endswith("_cpsat"))

def _warn(message: str) -> None:
    print(f"warning: {message}; the solver runs as plain Python (slower)", file=sys.stderr)


def _extensions() -> list:
    if os.environ.get("SOLITAIRE_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available")
        return []
    try:
        # One fixed name for the shared library, so an editable install still finds it
        # after the module list changes and the build runs again in place.
        return mypycify(COMPILED, opt_level="3", verbose=False, group_name="solitaire_solver")
    except BaseException as error:              # a type error mypyc refuses, say
        _warn(f"mypyc could not compile the hot modules ({error})")
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or, if the C compiler fails, none of them."""

    def run(self) -> None:
        try:
            super().run()
        except BaseException as error:
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            _warn(f"the C compiler could not build the compiled modules ({error})")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
