"""The record of a verdict: built from a result, written and read back unchanged."""
from __future__ import annotations

import json

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
