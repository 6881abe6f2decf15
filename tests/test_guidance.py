"""The optional hooks: declared with their defaults in solver.game.Game, read from the game."""
from __future__ import annotations

import pytest

from conftest import quick_first
from games import GAMES, find_game
from solver.game import DEFAULT_EQUAL_ROUNDS, DEFAULT_PORTFOLIO, Game
from solver.search import find_strategy
from solver.search.base import Budget, narrowed, without_forced

HOOKS = ("default_strategy", "verdict_key", "streamlined_key", "narrow_moves", "portfolio",
         "beam_heuristics", "beam_strata", "dead_end", "freer", "cpsat_solve", "score",
         "best_score", "score_bound", "best_line", "legal_moves", "move_cost",
         "forced_keeps_shortest", "unknown_future", "twins", "no_twins", "regression",
         "portfolio_equal_rounds", "portfolio_shares", "children")


def test_the_contract_declares_every_optional_hook_with_its_default():
    class Bare(Game[int, int]):
        pass

    bare = Bare()
    defaults = {hook: getattr(bare, hook) for hook in HOOKS}
    assert defaults == {**{hook: None for hook in HOOKS}, "default_strategy": "portfolio",
                        "portfolio": DEFAULT_PORTFOLIO, "beam_heuristics": (),
                        "forced_keeps_shortest": False, "twins": (), "no_twins": "",
                        "regression": (), "portfolio_equal_rounds": DEFAULT_EQUAL_ROUNDS}
    # FreeCell declares how shortest solutions count and that forced moves keep them
    freecell = GAMES["freecell"]
    assert freecell.forced_keeps_shortest and freecell.move_cost is not None
    assert freecell.narrow_moves is None and freecell.default_strategy == "portfolio"


def test_declared_guidance_is_read():
    black_hole, klondike = GAMES["black-hole"], GAMES["klondike"]
    assert black_hole.default_strategy == "dfs"
    assert black_hole.cpsat_solve is not None and GAMES["freecell"].cpsat_solve is None
    assert GAMES["clock"].cpsat_solve is not None
    assert klondike.portfolio[0] == "narrow_best_first" and klondike.dead_end is not None
    assert klondike.verdict_key is not None and klondike.narrow_moves is not None
    assert len(GAMES["spider"].beam_heuristics) == 2
    assert len(find_game("spider", {"suits": 1}).beam_heuristics) == 1
    assert GAMES["spider"].beam_strata is not None
    assert find_game("spider", {"suits": 2}).beam_strata is None
    assert GAMES["spider"].streamlined_key is not None
    assert find_game("spider", {"suits": 1}).streamlined_key is None


def test_views_of_a_game_keep_its_guidance():
    klondike = GAMES["klondike"]
    assert without_forced(klondike).portfolio == klondike.portfolio
    assert narrowed(klondike).dead_end is not None


# Black Hole's model takes seconds on a full deal through this path; its agreement with the
# search on twins and full deals is checked by tests/games/test_black_hole.py.
@pytest.mark.parametrize("name", quick_first(sorted(GAMES), set(GAMES) - {"black-hole"}))
def test_every_cpsat_model_offered_decides_and_others_are_refused(name):
    from solver.game import SolitaireError

    game = GAMES[name]
    if game.cpsat_solve is not None:
        assert find_strategy("cpsat")(game, game.deal(2), Budget(seconds=30)).status.value in (
            "won", "lost")
    else:
        with pytest.raises(SolitaireError, match="no CP-SAT model"):
            find_strategy("cpsat")(game, game.deal(2), Budget(seconds=1))
