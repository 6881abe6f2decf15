"""The record of a verdict: built from a result, written and read back unchanged."""
from __future__ import annotations

import json
import re

import pytest

from games import GAMES
from solver.app.analyze import solve
from solver.game import SolitaireError, Status
from solver.app.record import Verdict
from solver.search import Budget


@pytest.mark.parametrize("name,deal,strategy,budget", [
    ("black-hole", 6, "dfs", Budget(seconds=30)),          # won, with moves
    ("black-hole", 1, "dfs", Budget(seconds=30)),          # lost by search
    ("klondike", 29, None, Budget(seconds=30)),            # lost by a static proof
    ("freecell", 11982, "dfs", Budget(max_states=50)),     # unknown
])
def test_a_record_survives_json(name, deal, strategy, budget):
    game = GAMES[name]
    result = solve(game, game.deal(deal), strategy, budget)
    verdict = Verdict.of(game, deal, result, budget, strategy or "portfolio")
    text = json.dumps(verdict.to_json())
    again = Verdict.from_json(json.loads(text))
    assert again.to_json() == verdict.to_json()
    assert again.status is result.status and again.length == len(result.moves)
    assert again.verified is (result.status is Status.WON)
    assert (again.stopped_by != "") is (result.status is Status.UNKNOWN)
    assert bool(again.proof) is (name == "klondike")


def test_a_record_written_before_budgets_were_recorded_still_reads():
    old = {"game": "freecell", "variant": {"cells": 4}, "deal": 3, "status": "won",
           "moves": ["3a"], "length": 1, "strategy": "portfolio", "decided_by": "dfs"}
    verdict = Verdict.from_json(old)
    assert verdict.budget is None and verdict.extra == {"decided_by": "dfs"} and verdict.verified


@pytest.mark.parametrize("item,problem", [
    ([1, 2], "not a JSON object"),
    ({"game": "freecell", "variant": {}, "deal": 1}, "no status"),
    ({"game": "freecell", "variant": {}, "deal": 1, "status": "maybe"}, "not won, lost"),
    ({"game": "freecell", "variant": {}, "status": "won"}, "no deal id"),
    ({"game": "freecell", "variant": {}, "deal": True, "status": "won"}, "no deal id"),
    ({"variant": {}, "deal": 1, "status": "won"}, "no game"),
    ({"game": "freecell", "variant": {}, "deal": 1, "status": "won", "states": "many"}, "wrong type"),
])
def test_a_bad_record_names_its_problem(item, problem):
    with pytest.raises(SolitaireError, match=problem):
        Verdict.from_json(item)


BASE = {"game": "freecell", "variant": {}, "deal": 1, "status": "won", "moves": ["3a", "3h"],
        "length": 2, "states": 10}


@pytest.mark.parametrize("change,problem", [
    ({"states": float("inf")}, "states 'Infinity' is not a whole number"),
    ({"states": -1}, "states -1 is negative"),
    ({"expanded": 1.5}, "expanded '1.5' is not a whole number"),
    ({"peak_memory": True}, "wrong type"),
    ({"seconds": float("nan")}, "seconds 'NaN' is not a finite time"),
    ({"cpu_seconds": -0.5}, "cpu_seconds '-0.5' is not a finite time"),
    ({"moves": "3a 3h"}, "are not a list of texts"),
    ({"moves": ["3a", 5], "length": 2}, "are not a list of texts"),
    ({"length": 3}, "length '3' but 2 moves"),
    ({"moves": [], "length": 0}, "a won record without the moves that win"),
    ({"status": "lost"}, "a lost record with a solution's 2 moves"),
    ({"budget": "60s"}, "is not a JSON object"),
])
def test_a_record_that_is_not_a_verdict_is_refused(change, problem):
    with pytest.raises(SolitaireError, match=re.escape(problem)):
        Verdict.from_json({**BASE, **change})


def test_a_scored_game_record_carries_its_play_won_or_lost():
    lost = {**BASE, "game": "crisscross", "status": "lost", "score": -3}
    assert Verdict.from_json(lost).moves == ("3a", "3h")
    with pytest.raises(SolitaireError, match="lost record"):
        Verdict.from_json({**lost, "score": None})
