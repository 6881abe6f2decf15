"""Compiled and plain Python give the same answers, position for position.

The install compiles the hot modules with mypyc where it can (``setup.py``). When it did,
this test copies the plain sources to a scratch folder and runs there, as plain Python,
the whole regression set (``benchmarks/pin_regression.py --check``: every game's verdicts,
stored positions and solution lengths) and the doctests of the compiled modules, which
pytest cannot collect beside their compiled twins. The default run checks the compiled
modules against the same set (``tests/test_regression.py``), so both agree.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPILED = sorted(p.with_name(p.name.split(".")[0] + ".py")
                  for folder in ("solver", "games") for p in (ROOT / folder).rglob("*.so"))


def test_the_install_compiled_the_hot_modules_where_it_could():
    """Where mypyc and a C compiler are present (the [test] extra brings mypy) and plain
    Python was not asked for, the install must have compiled: a build that quietly fell
    back to plain Python (a type error mypyc refuses, say) is a failure, not a skip."""
    if os.environ.get("SOLITAIRE_PURE") or not (shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("plain Python was asked for, or there is no C compiler")
    pytest.importorskip("mypyc.build", reason="mypyc is not installed")
    assert COMPILED, ("nothing was compiled: `pip install -v -e .` shows mypyc's warning; "
                      "`python setup.py build_ext --inplace` builds in place")


def test_compiled_modules_are_imported_compiled():
    if not COMPILED:
        pytest.skip("this install runs as plain Python (nothing compiled)")
    import solver.table

    assert not solver.table.__file__.endswith(".py")


def test_no_compiled_module_is_older_than_its_source():
    """A compiled module is imported in place of its source, so an edit to the source has
    no effect until the build runs again: fail loudly rather than test stale code."""
    # The code lives in the shared library; a module's own .so is a stub that a rebuild
    # may leave untouched, so the newer of the two says when the module was built.
    shared = max((p.stat().st_mtime for p in ROOT.glob("*__mypyc*.so")), default=0.0)
    stale = [str(source.relative_to(ROOT)) for source in COMPILED
             if any(max(built.stat().st_mtime, shared) < source.stat().st_mtime
                    for built in source.parent.glob(source.stem + ".*.so"))]
    assert not stale, ("compiled modules older than their source: " + ", ".join(stale)
                       + "; rebuild with `pip install -e .` or `python setup.py build_ext --inplace`")


def _plain_copy(folder: Path) -> Path:
    """Copy the sources without their compiled extensions into `folder`; return it."""
    for part in ("solver", "games"):
        shutil.copytree(ROOT / part, folder / part,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (folder / "benchmarks").mkdir()
    shutil.copy(ROOT / "benchmarks" / "pin_regression.py", folder / "benchmarks")
    shutil.copytree(ROOT / "data", folder / "data")
    probe = subprocess.run([sys.executable, "-c", "import solver.table; print(solver.table.__file__)"],
                           cwd=folder, capture_output=True, text=True)
    assert probe.stdout.strip() == str(folder / "solver" / "table.py")
    return folder


@pytest.mark.skipif(not COMPILED, reason="this install runs as plain Python (nothing compiled)")
def test_plain_python_gives_the_first_pinned_answer_of_every_game(tmp_path):
    """The default run's plain-Python check: the first deal of each line of the set, where
    it is pinned at 15,000 positions or fewer (Spider's, Crescent's and Bridge Solitaire's
    first deals, the costliest as plain Python, are checked by the slow test below)."""
    check = subprocess.run([sys.executable, "benchmarks/pin_regression.py", "--check", "--first", "1",
                            "--at-most", "15000"],
                           cwd=_plain_copy(tmp_path), capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    compared = re.match(r"0 of ([0-9]+) differ", check.stdout.splitlines()[-1])
    assert compared is not None and int(compared.group(1)) >= 12, check.stdout   # all but three


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="this install runs as plain Python (nothing compiled)")
def test_plain_python_gives_the_pinned_answers_too(tmp_path):
    """The whole set and the compiled modules' doctests as plain Python (about 90 CPU s)."""
    folder = _plain_copy(tmp_path)
    check = subprocess.run([sys.executable, "benchmarks/pin_regression.py", "--check"],
                           cwd=folder, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
    doctests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
         *(str(p.relative_to(ROOT)) for p in COMPILED)],
        cwd=folder, capture_output=True, text=True)
    assert doctests.returncode == 0, doctests.stdout[-2000:]
