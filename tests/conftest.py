"""Shared fixtures: the data folder and a reader for known-answer files."""
from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"


def read_known(path: Path) -> list[dict[str, str]]:
    """Return the records of a perft-like known-answer file (``key value`` lines, blank-separated)."""
    records: list[dict[str, str]] = []
    current: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if current:
                records.append(current)
                current = {}
            continue
        key, _, value = line.partition(" ")
        current[key] = value.strip()
    if current:
        records.append(current)
    return records


@pytest.fixture
def data() -> Path:
    return DATA
