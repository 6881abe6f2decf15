"""The regression set: the same verdicts, stored positions and solution lengths as pinned.

``data/regression.jsonl`` holds, for numbered deals of every game, what the game's default
strategy answers under a fixed state budget (no clock, so every machine counts alike):
status, positions stored, solution length. Any change to move order, keys, forced moves or
search shows here. A change that means to alter the counts regenerates the file with
``python benchmarks/pin_regression.py`` and says why in its commit.
"""
from __future__ import annotations

import json
from itertools import groupby
from typing import Any

import pytest

from conftest import DATA
from games import find_game
from solver.app.analyze import default_strategy, solve
from solver.search import Budget

LINES = [json.loads(line) for line in (DATA / "regression.jsonl").read_text().splitlines()]
GROUPS = {f"{game}{''.join(f'-{k}{v}' for k, v in options)}": list(lines)
          for (game, options), lines in groupby(
              LINES, key=lambda line: (line["game"], tuple(sorted(line["options"].items()))))}


def now(line: dict[str, Any]) -> dict[str, Any]:
    game = find_game(line["game"], line["options"])
    result = solve(game, game.deal(line["deal"]), None,
                   Budget(max_states=line["max_states"], memory=8 << 30))
    return {**line, "strategy": default_strategy(game), "status": result.status.value,
            "states": result.stored, "length": len(result.moves)}


def test_the_set_holds_the_lines_every_game_declares():
    from games import GAMES

    declared = {(game.name, json.dumps(options, sort_keys=True), number)
                for game in GAMES.values() for options, first, last, _ in game.regression
                for number in range(first, last + 1)}
    pinned = {(line["game"], json.dumps(line["options"], sort_keys=True), line["deal"])
              for line in LINES}
    assert pinned == declared
    assert {name for name, _, _ in declared} == set(GAMES)          # every game has some


QUICK_STATES = 60_000        # a group's first lines up to this many pinned positions run by default


def split(lines: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return a group's first lines, up to ``QUICK_STATES`` pinned positions in all (at least
    one), and the rest: the default run checks the first, ``-m slow`` the rest (the heavy
    lines of Spider, Crescent and Bridge Solitaire cost more than the rest together)."""
    total, cut = 0, 0
    for cut, line in enumerate(lines):
        total += line["states"]
        if total > QUICK_STATES and cut:
            break
    else:
        cut = len(lines)
    return lines[:cut], lines[cut:]


def differences(lines: list[dict[str, Any]]) -> list[str]:
    found = [now(line) for line in lines]
    return [f"deal {w['deal']}: pinned {w['status']}, {w['states']} states, length "
            f"{w['length']}; now {f['status']}, {f['states']}, {f['length']}"
            for w, f in zip(lines, found) if w != f]


@pytest.mark.parametrize("group", list(GROUPS))
def test_verdicts_and_stored_positions_are_as_pinned(group):
    wrong = differences(split(GROUPS[group])[0])
    assert not wrong, f"{len(wrong)} differ: " + "; ".join(wrong[:5])


@pytest.mark.slow
@pytest.mark.parametrize("group", [group for group in GROUPS if split(GROUPS[group])[1]])
def test_the_heavy_lines_are_as_pinned_too(group):
    wrong = differences(split(GROUPS[group])[1])
    assert not wrong, f"{len(wrong)} differ: " + "; ".join(wrong[:5])


def test_every_line_is_checked_by_one_of_the_two_runs():
    for lines in GROUPS.values():
        quick, rest = split(lines)
        assert quick and quick + rest == lines
