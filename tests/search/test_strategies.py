"""Strategies agree with each other, prove what they claim, and stop within budgets.

Small FreeCell twins (fewer ranks and columns) let exhaustive search decide hundreds of
deals in a second, with a good share of lost ones.
"""
from __future__ import annotations

import zlib

import pytest

from conftest import portfolio_verdicts_agree_with_dfs
from games.freecell import FreeCell
from solver.game import Status
from solver.search import Budget, astar, bfs, dfs, greedy, weighted, without_forced
from solver.search.astar import counted
from solver.verify import check_solution

TWINS = [
    FreeCell(ranks=4, columns=4, cells=1),
    FreeCell(ranks=4, columns=4, cells=0),
    FreeCell(ranks=6, columns=5, cells=1, build="suit", empty="kings", layout="seeded"),
]


OPTIMAL_TWINS = [FreeCell(ranks=3, columns=3, cells=1), FreeCell(ranks=3, columns=3, cells=0)]


@pytest.mark.parametrize("game", OPTIMAL_TWINS, ids=["cells1", "cells0"])
def test_astar_and_bfs_find_equally_short_solutions(game):
    for number in range(1, 16):
        state = game.deal(number)
        a, b = astar(game, state), bfs(game, state)
        assert a.status == b.status
        if a.status is Status.WON:
            assert a.optimal and b.optimal
            assert counted(a) == counted(b)
            assert counted(a) <= counted(greedy(game, state))


def test_lower_bounds_never_exceed_the_shortest_win_from_positions_in_play():
    """FreeCell's bound is admissible: checked against uniform-cost search from
    positions of random play."""
    from conftest import random_play

    game = FreeCell(ranks=4, columns=4, cells=1)
    checked = 0
    for number in range(1, 25):
        played, final = random_play(game, game.deal(number), 8, number)
        for state in [game.deal(number), final]:
            shortest = bfs(game, state, Budget(max_states=200_000))
            if shortest.status is Status.WON:
                assert game.lower_bound(state) <= counted(shortest), (number, state)
                checked += 1
    assert checked >= 20


def test_astar_returns_a_win_it_cannot_prove_shortest_when_the_budget_runs_out():
    """The quick first pass's win comes back, verified and marked not proven shortest;
    it is no shorter than the published optimum (Paul and Helmert, SoCS 2016: MS deals
    1, 4 and 5 need 82, 79 and 85 moves, a run moved at once counting as one)."""
    game = FreeCell()
    for number, optimum in ((1, 82), (4, 79), (5, 85)):
        state = game.deal(number)
        result = astar(game, state, Budget(max_states=20_000))
        assert result.status is Status.WON and not result.optimal
        assert counted(result) >= optimum
        check_solution(game, state, result.moves)


def test_every_won_result_replays_to_a_win():
    game = OPTIMAL_TWINS[0]
    for number in range(1, 16):
        state = game.deal(number)
        for strategy in (dfs, greedy, weighted, astar, bfs):
            result = strategy(game, state)
            if result.status is Status.WON:
                check_solution(game, state, result.moves)


def test_a_state_budget_gives_unknown_not_lost():
    game = FreeCell()
    result = dfs(game, game.deal(11982), Budget(max_states=500))
    assert result.status is Status.UNKNOWN
    assert result.stopped_by == "max-states"
    assert result.stored <= 501


def test_a_time_budget_gives_unknown():
    game = FreeCell()
    result = greedy(game, game.deal(11982), Budget(seconds=0.0))
    assert result.status is Status.UNKNOWN and result.stopped_by == "seconds"


def test_a_memory_budget_gives_unknown():
    game = FreeCell()
    result = dfs(game, game.deal(11982), Budget(memory=1))
    assert result.status is Status.UNKNOWN and result.stopped_by == "memory"


def test_a_lost_twin_is_lost_for_every_strategy():
    game = OPTIMAL_TWINS[1]
    lost = next(n for n in range(1, 100) if dfs(game, game.deal(n)).status is Status.LOST)
    for strategy in (greedy, weighted, astar, bfs):
        assert strategy(game, game.deal(lost)).status is Status.LOST


@pytest.mark.parametrize("game", TWINS, ids=["alt-cells1", "alt-cells0", "suit-kings"])
def test_weighted_search_agrees_with_dfs(game):
    """Weighted best-first search is complete: the same verdict as dfs on every deal,
    losses included, and every win replays."""
    statuses = set()
    for number in range(1, 61):
        state = game.deal(number)
        result = weighted(game, state)
        assert result.status == dfs(game, state).status, number
        statuses.add(result.status)
        if result.status is Status.WON:
            check_solution(game, state, result.moves)
    assert statuses == {Status.WON, Status.LOST}


class CountingVerdictKey:
    """A twin whose verdict key is its key, counting which of the two a search asks for."""

    def __init__(self, game):
        self._game, self.calls = game, {"key": 0, "verdict_key": 0}

    def key(self, state):
        self.calls["key"] += 1
        return self._game.key(state)

    def verdict_key(self, state):
        self.calls["verdict_key"] += 1
        return self._game.key(state)

    def __getattr__(self, name):
        return getattr(self._game, name)


def test_verdict_key_serves_dfs_and_greedy_but_not_optimal_search():
    from solver.search.best_first import best_first

    twin = OPTIMAL_TWINS[0]
    exact = (lambda game, start: best_first(game, start, lambda g, s: g + game.lower_bound(s),
                                            optimal=True))
    for strategy, wanted in ((dfs, "verdict_key"), (greedy, "verdict_key"),
                             (exact, "key"), (bfs, "key")):
        game = CountingVerdictKey(twin)
        strategy(game, twin.deal(3))
        other = "key" if wanted == "verdict_key" else "verdict_key"
        assert game.calls[wanted] > 0 and game.calls[other] == 0, strategy
    # A*'s quick first pass may use the verdict key (it only finds a win to beat); its
    # shortest-path pass, the one above, uses the exact key. (Deal 6's first win is
    # longer than the bound, so that pass runs; on deal 3 the bound proves it at once.)
    game = CountingVerdictKey(twin)
    assert astar(game, twin.deal(6)).optimal and game.calls["key"] > 0


def test_a_games_default_strategy_is_used_when_none_is_named():
    from solver.app.analyze import default_strategy, solve

    class Prefers(CountingVerdictKey):
        default_strategy = "dfs"

    game = Prefers(OPTIMAL_TWINS[0])
    assert default_strategy(game) == "dfs" and default_strategy(game, "bfs") == "bfs"
    assert default_strategy(OPTIMAL_TWINS[0]) == "portfolio"
    assert solve(game, OPTIMAL_TWINS[0].deal(3)).strategy == "dfs"


@pytest.mark.parametrize("game", TWINS, ids=lambda g: f"r{g.ranks}c{g.columns}x{g.cells}{g.build[0]}")
def test_portfolio_agrees_with_dfs_and_proves_losses_under_small_caps(game, monkeypatch):
    portfolio_verdicts_agree_with_dfs(game, range(1, 61), monkeypatch)

def test_a_games_portfolio_members_are_checked():
    from solver.search.portfolio import members

    class Named(CountingVerdictKey):
        portfolio = ("dfs",)

    game = Named(OPTIMAL_TWINS[0])
    assert [name for name, _, _ in members(game)] == ["dfs"]
    for names, problem in ((("dfs", "bogus"), "unknown portfolio member"),
                           (("narrow_dfs", "dfs"), "has no narrow_moves")):
        Named.portfolio = names
        with pytest.raises(ValueError, match=problem):
            members(game)
    Named.narrow_moves = lambda self, state: self._game.moves(state)
    Named.portfolio = ("narrow_dfs",)
    with pytest.raises(ValueError, match="needs a complete member"):
        members(game)
    Named.portfolio = ("narrow_dfs", "best_first")
    assert [complete for _, _, complete in members(game)] == [False, True]


def test_portfolio_respects_the_state_budget():
    from solver.search import portfolio

    game = FreeCell()
    result = portfolio(game, game.deal(11982), Budget(max_states=5_000))
    assert result.status is Status.UNKNOWN and result.stopped_by == "max-states"
    # Each member checks its cap once an expansion, so it may pass it by the children of
    # one position: at most 13 moves home and to cells, 8 x 8 between columns.
    assert 5_000 <= result.stored <= 5_000 + len(game.portfolio) * (13 + 64)


def test_shortcut_keeps_a_win_and_never_lengthens_it():
    from solver.search.base import shortcut, to_steps

    game = OPTIMAL_TWINS[0]
    for number in range(1, 16):
        start = game.deal(number)
        result = dfs(without_forced(game), start)
        if result.status is not Status.WON:
            continue
        path = [()] + [(m,) for m in result.moves]
        shorter = shortcut(without_forced(game), start, path)
        steps = to_steps(game, start, shorter)
        check_solution(game, start, steps)
        assert len(steps) <= len(result.moves)


def test_beam_counts_every_pass_against_the_state_budget():
    from solver.search import beam

    game = FreeCell()
    result = beam(game, game.deal(11982), Budget(max_states=5_000), width=8)
    assert result.status is Status.UNKNOWN and result.stopped_by == "max-states"
    assert result.extra["width"] > 8                      # it restarted wider on the way
    assert 5_000 <= result.stored <= 5_000 + result.extra["width"]   # a level adds `width`


def test_beam_passes_take_the_games_heuristics_in_turn():
    from solver.search import beam
    from solver.search.views import _View

    game, calls = FreeCell(), []

    class TwoHeuristics(_View):
        beam_heuristics = (lambda state: calls.append(1) or game.heuristic(state),
                           lambda state: calls.append(2) or -game.heuristic(state))

    result = beam(TwoHeuristics(game), game.deal(11982), Budget(max_states=3_000), width=4)
    assert result.status is Status.UNKNOWN
    turns = [c for i, c in enumerate(calls) if i == 0 or calls[i - 1] != c]
    assert len(turns) >= 4 and turns[:4] == [1, 2, 1, 2]
    single = beam(game, game.deal(11982), Budget(max_states=3_000), width=4)
    assert result.extra["width"] < single.extra["width"]     # each width runs twice


def test_a_stratified_level_keeps_the_best_of_each_stratum():
    from solver.search.beam import best

    children = [(h, h, h, h, 0, ()) for h in (5, 1, 4, 2, 3, 10, 11)]
    # strata: below 10 or not; width 4 gives each of the two strata 2 places
    assert sorted(c[0] for c in best(children, 4, lambda h: h // 10)) == [1, 2, 10, 11]
    assert sorted(c[0] for c in best(children, 4, None)) == [1, 2, 3, 4]
    # a stratum smaller than its share keeps all it has, and the level keeps fewer
    assert sorted(c[0] for c in best(children[:6], 4, lambda h: h // 10)) == [1, 2, 10]


@pytest.mark.parametrize("game", TWINS, ids=lambda g: f"r{g.ranks}c{g.columns}x{g.cells}{g.build[0]}")
def test_a_stratified_beam_agrees_with_dfs(game):
    """Strata change which positions a pass keeps, not what a verdict needs: lost only
    after a pass that pruned nothing."""
    from solver.search import beam
    from solver.search.views import _View

    class Staged(_View):
        def beam_strata(self, state):           # a fixed split, whatever PYTHONHASHSEED
            return zlib.crc32(game.key(state)) % 3

    verdicts = set()
    for number in range(1, 41):
        state = game.deal(number)
        a = dfs(game, state, Budget(max_states=100_000))
        b = beam(Staged(game), state, Budget(max_states=100_000), width=2)
        assert a.status is b.status is not Status.UNKNOWN, number
        verdicts.add(b.status)
    assert verdicts == {Status.WON, Status.LOST}


@pytest.mark.parametrize("game", TWINS, ids=lambda g: f"r{g.ranks}c{g.columns}x{g.cells}{g.build[0]}")
def test_a_beam_over_a_streamlined_key_never_proves_a_loss(game):
    """A streamlined key may merge positions of different verdicts: here it merges every
    position into one of two, so a pass over it prunes nothing and still proves nothing.
    Passes over it alone say unknown, never lost; with
    the exact passes after them the beam agrees with dfs, and every win replays."""
    from solver.search import beam
    from solver.search.views import _View

    class Streamlined(_View):
        def streamlined_key(self, state):       # a fixed split, whatever PYTHONHASHSEED
            return b"%d" % (zlib.crc32(game.key(state)) % 2)

    streamlined = Streamlined(game)
    verdicts, alone = set(), set()
    for number in range(1, 21):
        state = game.deal(number)
        a = dfs(game, state, Budget(max_states=100_000))
        for streamline in ("first", "mix"):
            b = beam(streamlined, state, Budget(max_states=100_000), width=2,
                     streamline=streamline)
            assert a.status is b.status is not Status.UNKNOWN, number
            if b.status is Status.WON:
                check_solution(game, state, b.moves)
            verdicts.add(b.status)
        c = beam(streamlined, state, Budget(max_states=2_000), width=2, streamline="only")
        assert c.status is not Status.LOST
        assert c.status is Status.UNKNOWN or a.status is Status.WON
        alone.add(c.status)
    assert verdicts == {Status.WON, Status.LOST} and alone == {Status.UNKNOWN}
    with pytest.raises(ValueError, match="streamline"):
        beam(streamlined, game.deal(1), Budget(max_states=10), streamline="some")


def test_a_beam_plans_its_passes_over_the_two_keys():
    from solver.search.beam import plan

    h1, h2, exact, streamlined = abs, len, bytes, bytearray
    assert plan((h1, h2), exact, None, "mix", 0) == [(h1, exact, True), (h2, exact, True)]
    assert plan((h1, h2), exact, streamlined, None, 0) == plan((h1, h2), exact, None, None, 3)
    assert plan((h1, h2), exact, streamlined, "first", 5) == [
        (h1, streamlined, False), (h2, streamlined, False), (h1, exact, True), (h2, exact, True)]
    assert plan((h1, h2), exact, streamlined, "only", 1) == [
        (h1, streamlined, False), (h2, streamlined, False)]
    assert plan((h1, h2), exact, streamlined, "mix", 0) == [
        (h1, streamlined, False), (h2, exact, True)]
    assert plan((h1, h2), exact, streamlined, "mix", 1) == [
        (h1, exact, True), (h2, streamlined, False)]


def test_searches_wake_the_cycle_collector_less_and_put_its_threshold_back():
    import gc

    from solver.search import GC_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    with pytest.raises(KeyError):
        with fewer_collections():
            assert gc.get_threshold()[0] >= GC_THRESHOLD
            assert gc.get_threshold()[1:] == before[1:]
            raise KeyError("a search that fails")
    assert gc.get_threshold() == before


def test_a_strategy_name_carries_its_options():
    """``beam:width=32`` is the beam started at width 32: under a cap of 20,000 positions
    the default beam's first pass (width 256) cannot end, so Crescent deal 1 stays
    undecided, while the narrower start wins it, verified, within the cap."""
    from games.crescent import GAME as crescent
    from solver.search import STRATEGY_OPTIONS, find_strategy, strategy_kind

    deal, cap = crescent.deal(1), Budget(max_states=20_000)
    assert find_strategy("beam")(crescent, deal, cap).status is Status.UNKNOWN
    narrow = find_strategy("beam:width=32")(crescent, deal, cap)
    assert narrow.status is Status.WON and narrow.extra["width"] == 32
    check_solution(crescent, deal, narrow.moves)
    assert strategy_kind("best-first:newest-first=true") == "best_first"
    assert set(STRATEGY_OPTIONS["beam"]) == {"width", "pass_limit", "streamline"}
