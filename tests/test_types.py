"""The engine and the games type-check under `mypy --strict` (pyproject.toml): the type hints are checked, not decoration."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_no_errors_in_the_engine_and_the_games():
    api = pytest.importorskip("mypy.api", reason="mypy comes with the [test] extra")
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      str(ROOT / "solver"), str(ROOT / "games")])
    assert status == 0, report + errors
