"""The engine and the games type-check under `mypy --strict` (pyproject.toml): the type hints are checked, not decoration."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_no_errors_in_the_engine_and_the_games():
    api = pytest.importorskip("mypy.api", reason="mypy comes with the [test] extra")
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      str(ROOT / "solver"), str(ROOT / "games"),
                                      str(ROOT / "tests" / "toy_game.py")])
    assert status == 0, report + errors


def test_mypy_checks_a_games_hooks_against_the_contract(tmp_path):
    """A hook declared with the wrong shape is a type error where the game is written."""
    api = pytest.importorskip("mypy.api", reason="mypy comes with the [test] extra")
    wrong = tmp_path / "wrong_game.py"
    wrong.write_text(
        "from dataclasses import dataclass\n"
        "from toy_game import Ladder, Move, State\n\n\n"
        "@dataclass(frozen=True)\n"
        "class Wrong(Ladder):\n"
        "    def narrow_moves(self, state: State, depth: int) -> list[Move]:\n"
        "        return []\n")
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      "--cache-dir", str(tmp_path / "cache"),
                                      str(ROOT / "tests" / "toy_game.py"), str(wrong)])
    assert status == 1 and 'Signature of "narrow_moves" incompatible with supertype' in report, \
        report + errors
