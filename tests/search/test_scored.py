"""The scored strategy and the score in records and summaries, on any scored game."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from games import GAMES, find_game
from solver.app.batch import ScoreSummary, Summary
from solver.app.record import Verdict
from solver.game import SolitaireError, Status
from solver.search import Budget, dfs, find_strategy

# games scored by the generic branch and bound (a game with its own search, ``best_line``,
# checks it against play through the rules in its own tests)
SCORED = sorted(name for name, game in GAMES.items()
                if game.score is not None and game.best_line is None)


def test_a_game_without_a_score_is_refused_by_the_scored_strategy():
    game = GAMES["freecell"]
    with pytest.raises(SolitaireError, match="not a scored game"):
        find_strategy("scored")(game, game.deal(1), Budget(max_states=10))


@pytest.mark.parametrize("name", SCORED)
def test_scored_verdicts_agree_with_dfs_and_carry_the_score(name):
    game = GAMES[name]
    best = game.best_score
    for twin in [find_game(name, options) for options in game.twins]:
        for number in range(1, 31):
            state = twin.deal(number)
            result = find_strategy("scored")(twin, state, Budget())
            assert result.status is dfs(twin, state).status, number
            assert (result.score == best) is (result.status is Status.WON)
            assert result.score is not None and result.score <= best


def test_a_record_keeps_the_score_through_json_and_dfs_wins_score_best():
    game = find_game("crisscross", {"double": 3})
    won = Verdict.of(game, 1, dfs(game, game.deal(1)))
    assert won.score == 0 and won.to_json()["score"] == 0
    assert Verdict.from_json(json.loads(json.dumps(won.to_json()))).score == 0
    plain = Verdict.of(GAMES["black-hole"], 1, dfs(GAMES["black-hole"], GAMES["black-hole"].deal(1)))
    assert plain.score is None and "score" not in plain.to_json()
    with pytest.raises(SolitaireError):
        Verdict.from_json({**won.to_json(), "score": "many"})


def test_the_summary_counts_scores_and_the_unproven_ones():
    summary = Summary()
    for status, score in (("won", 0), ("won", 0), ("lost", -1), ("unknown", -3), ("unknown", None)):
        summary.add(status, score)
    assert summary.scores == Counter({0: 2, -1: 1, -3: 1}) and summary.proven == 3
    assert ScoreSummary.of(summary.scores) == ScoreSummary(4, -1.0, (-3, -3, -1, 0, 0))
