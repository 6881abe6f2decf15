"""Shared fixtures: the data folder and a reader for known-answer files."""
from __future__ import annotations

import json
import random
import signal
from pathlib import Path
from typing import Any, Iterator

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"

# Klondike and Yukon with six ranks (the 6 is the King), four columns: the black Fours are
# home, the 3D covers the AD, and the only red Five that can take a black Four back from
# home is the 5H (the 5D lies face down under the AD). Won: the 4S back onto the 5H, the
# 3D onto it, the AD home; the 4C back onto the 5D turned up, the 3D across; the 4S and
# the 5H home, the 2D turned up and home, and the rest follows. Lost once the 5H is home.
WORRY_BACK = """\
Foundations: S-4 C-4 H-4
<6S> <6C> <5D> <AD> 3D
<2D> 5H
<4D> 5C
<6D> <6H> 5S
"""
# The same with the diamonds home up to the 3D: nothing can need the 5H back.
WORRY_BACK_DONE = """\
Foundations: S-4 C-4 H-4 D-3
<6S> <6C> <5D> 6H
5H
5C
<6D> <4D> 5S
"""


def assert_a_card_goes_home_only_when_none_can_need_it_back(game: Any) -> None:
    """Check the rule for Threes and up on WORRY_BACK (Klondike's and Yukon's ``forced``).

    The 5H fits home and the black Fours are home, but the other red suit is not home up
    to the Three: the 5H must stay, and the deal is won. Sent home anyway (the rule
    without its second condition, Blake and Gent's for games whose foundation cards stay
    home), it loses the deal. With the diamonds home up to the 3D it goes at once.
    """
    from solver.game import Status
    from solver.search import dfs, without_forced

    state = game.parse(WORRY_BACK)
    assert game.forced(state) == []
    assert dfs(game, state).status is Status.WON
    home = game.parse_move(state, "2f")
    assert dfs(without_forced(game), game.play(state, home)).status is Status.LOST
    assert [game.notation(m) for m in game.forced(game.parse(WORRY_BACK_DONE))] == ["2f"]


def benchmark_script(name: str) -> Any:
    """Import ``benchmarks/<name>.py`` (a script, not a package module) for its tests."""
    import importlib.util
    import sys

    path = DATA.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def quick_first(values: Any, quick: Any) -> list[Any]:
    """Return `values` as test parameters: those in `quick` run by default, the others
    only with ``-m slow`` (the same check, on more games or larger twins)."""
    return [value if value in quick else pytest.param(value, marks=pytest.mark.slow)
            for value in values]


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


def random_play(game: Any, state: Any, count: int, seed: int) -> tuple[list[tuple[Any, Any]], Any]:
    """Return ((position, step) pairs, final position) of a seeded random play.

    Up to `count` search moves are chosen at random and played as the game's steps;
    every step is checked legal by the rules (``illegal_reason``) on the way, and the
    steps of a move must reach the position the move reaches.
    """
    rng = random.Random(seed)
    played: list[tuple[Any, Any]] = []
    for _ in range(count):
        moves = list(game.moves(state))
        if not moves:
            break
        move = rng.choice(moves)
        after = game.play(state, move)
        for step in game.expand(state, move):
            assert game.illegal_reason(state, step) == "", (game.name, game.notation(step))
            played.append((state, step))
            state = game.play(state, step)
        assert state == after, (game.name, game.notation(move))
    return played, state


TIMING = ("seconds", "cpu_seconds", "peak_memory", "max_resident")


def records_by_deal(path: Path) -> dict[int, dict[str, Any]]:
    """A results file's records by deal, without what the machine's speed sets; a deal
    written twice fails the test."""
    found: dict[int, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        assert record["deal"] not in found, f"deal {record['deal']} written twice"
        found[record["deal"]] = {k: v for k, v in record.items() if k not in TIMING}
    return found


def run_main(args: list[str], capsys: Any) -> tuple[int, str, str]:
    """Run the ``solitaire`` entry point as the script does; return (status, stdout, stderr)."""
    from solver.app.cli import main

    try:
        main(args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else -1
    else:
        code = 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def default_signals() -> None:
    """In a child process before it starts: SIGINT as a terminal's program gets it.

    A shell without job control starts background commands with SIGINT ignored, and
    Python then never turns it into KeyboardInterrupt; a test that presses Ctrl-C on the
    command would fail whenever the whole test run had been started in the background.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)

