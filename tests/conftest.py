"""Shared fixtures: the data folder and a reader for known-answer files."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

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


def assert_bad_deal(game: Any, path: Path, problems: Any, cards: tuple[str, ...] | None,
                    line: int | None) -> None:
    """Assert that parsing the file raises one DealError with these flags, cards and line."""
    from solver.game import DealError

    with pytest.raises(DealError) as caught:
        game.parse(path.read_text(encoding="utf-8"))
    error = caught.value
    assert error.problems == problems
    if cards is not None:
        assert error.cards == cards
    assert error.line == line
    assert "\n" not in str(error)


@pytest.fixture
def data() -> Path:
    return DATA


def left_out_by_narrow_moves(game: Any, seed: int) -> Iterator[tuple[Any, Any]]:
    """Yield (position, move) for every move ``narrow_moves`` leaves out along seeded
    random plays of deals 1-3, checking on the way that it only ever leaves moves out."""
    rng = random.Random(seed)
    for number in range(1, 4):
        state = game.deal(number)
        for _ in range(150):
            moves = list(game.moves(state))
            narrow = list(game.narrow_moves(state))
            assert set(narrow) <= set(moves)
            for move in set(moves) - set(narrow):
                yield state, move
            if not moves:
                break
            state = game.play(state, rng.choice(moves))


def portfolio_verdicts_agree_with_dfs(game: Any, numbers: range, monkeypatch: Any) -> set[Any]:
    """Check the default portfolio, under tiny caps (many rounds, many pauses and
    resumptions), gives dfs's verdict on each deal and a verified win; return the verdicts."""
    import importlib

    from solver.game import Status
    from solver.search import dfs
    from solver.verify import check_solution

    module = importlib.import_module("solver.search.portfolio")   # the module, not the function
    monkeypatch.setattr(module, "FIRST_CAP", 10)
    verdicts = set()
    for number in numbers:
        state = game.deal(number)
        result = module.portfolio(game, state)
        assert result.status == dfs(game, state).status, number
        verdicts.add(result.status)
        if result.status is Status.WON:
            check_solution(game, state, result.moves)
    return verdicts
