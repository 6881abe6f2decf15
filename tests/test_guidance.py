"""The optional search guidance is read in one place, with its defaults."""
from __future__ import annotations

import dataclasses

import pytest

from games import GAMES, find_game
from solver.game import Guidance, guidance
from solver.search import find_strategy
from solver.search.base import Budget, narrowed, without_forced


def test_a_game_without_guidance_gets_every_default():
    class Bare:
        name = "bare"

    assert guidance(Bare()) == Guidance()
    assert Guidance().default_strategy == "portfolio"
    # FreeCell declares only how shortest solutions count and that forced moves keep them
    freecell = guidance(GAMES["freecell"])
    assert freecell.forced_keeps_shortest and freecell.move_cost is not None
    assert dataclasses.replace(freecell, forced_keeps_shortest=False, move_cost=None) == Guidance()


def test_declared_guidance_is_read():
    black_hole, klondike = GAMES["black-hole"], GAMES["klondike"]
    assert guidance(black_hole).default_strategy == "dfs"
    assert guidance(black_hole).cpsat_solve == black_hole.cpsat_solve
    assert guidance(GAMES["clock"]).cpsat_solve is not None
    hints = guidance(klondike)
    assert hints.portfolio[0] == "narrow_best_first" and hints.dead_end is not None
    assert hints.verdict_key is not None and hints.narrow_moves is not None
    assert len(guidance(GAMES["spider"]).beam_heuristics) == 2
    assert len(guidance(find_game("spider", {"suits": 1})).beam_heuristics) == 1
    assert guidance(GAMES["spider"]).beam_strata is not None
    assert guidance(find_game("spider", {"suits": 2})).beam_strata is None
    assert guidance(GAMES["spider"]).streamlined_key is not None
    assert guidance(find_game("spider", {"suits": 1})).streamlined_key is None


def test_views_of_a_game_keep_its_guidance():
    klondike = GAMES["klondike"]
    assert guidance(without_forced(klondike)).portfolio == guidance(klondike).portfolio
    assert guidance(narrowed(klondike)).dead_end is not None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_cpsat_model_offered_decides_and_others_are_refused(name):
    from solver.game import SolitaireError

    game = GAMES[name]
    if guidance(game).cpsat_solve is not None:
        assert find_strategy("cpsat")(game, game.deal(2), Budget(seconds=30)).status.value in (
            "won", "lost")
    else:
        with pytest.raises(SolitaireError, match="no CP-SAT model"):
            find_strategy("cpsat")(game, game.deal(2), Budget(seconds=1))
