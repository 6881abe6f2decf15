"""The portfolio decides what its dfs member alone decides, at about twice the cost.

A loss is proven only when one complete member has stored every reachable position. With
equal shares each of the default three members stored that space in its own table, so
the portfolio needed three times the positions dfs alone did (the small Gaps twin below:
96,081 positions for deal 12, which dfs proves lost in 32,080, and it was still unknown
at the budget below, 78,160). The dfs member (the anchor) now gets as many states as
the others together after the first equal rounds.
"""
from __future__ import annotations

import pytest

from games.gaps import Gaps
from solver.game import Status
from solver.search import Budget, dfs, portfolio
from solver.search.portfolio import EQUAL_ROUNDS, FIRST_CAP, GROWTH, anchor, members, shares_of

TWIN = Gaps(suits=4, ranks=6, redeals=0)        # uses the default portfolio


def head_start() -> int:
    """Return the caps of the equal rounds summed (2,000 + 4,000 + 8,000): what each
    member may store before the anchor's half begins, so the others' lead over it."""
    return FIRST_CAP * (GROWTH ** EQUAL_ROUNDS - 1) // (GROWTH - 1)


@pytest.mark.parametrize("number", [12, 28])
def test_the_portfolio_proves_what_dfs_proves_within_twice_its_positions(number):
    state = TWIN.deal(number)
    alone = dfs(TWIN, state)
    assert alone.status is Status.LOST
    budget = Budget(max_states=2 * alone.stored + head_start())
    result = portfolio(TWIN, state, budget)
    assert result.status is Status.LOST, result.stopped_by
    assert result.extra["decided_by"] == "dfs"


def test_the_anchor_is_dfs_else_the_last_complete_member():
    class Named:
        portfolio = ("best_first", "dfs", "best_first_newest")

        def __getattr__(self, name):
            return getattr(TWIN, name)

    chosen = members(Named())
    assert chosen[anchor(chosen)][0] == "dfs"
    Named.portfolio = ("best_first", "weighted", "best_first_newest")
    chosen = members(Named())
    assert chosen[anchor(chosen)][0] == "best_first_newest"



def test_freecell_shares_and_rounds_keep_the_verdicts_of_dfs():
    """FreeCell gives its greedy members twice dfs's share for one round more (they win
    where its dfs wanders); on small twins, lost ones among them, the verdicts agree."""
    from games.freecell import FreeCell

    game = FreeCell(ranks=5, columns=4, cells=1)
    assert game.portfolio_equal_rounds > EQUAL_ROUNDS
    assert shares_of(game, members(game)) == {"best_first": 2, "best_first_newest": 2, "dfs": 1}
    verdicts = []
    for number in range(1, 41):
        state = game.deal(number)
        alone = dfs(game, state)
        assert portfolio(game, state).status is alone.status, number
        verdicts.append(alone.status)
    assert Status.LOST in verdicts and Status.WON in verdicts


def test_shares_must_name_each_member_once():
    class Named:
        portfolio = ("best_first", "dfs")
        portfolio_shares = (2, 1, 1)

        def __getattr__(self, name):
            return getattr(TWIN, name)

    with pytest.raises(ValueError, match="portfolio_shares"):
        shares_of(Named(), members(Named()))
    assert shares_of(TWIN, members(TWIN)) == {"best_first": 1, "best_first_newest": 1, "dfs": 1}
