"""The static proof of loss shared by Klondike and Yukon: cards that can never leave."""
from __future__ import annotations

import random

import pytest

from conftest import DATA, read_known
from games._deadlock import stuck_cards
from games.klondike import GAME as KLONDIKE, Klondike
from games.yukon import GAME as YUKON, Yukon
from solver.app.analyze import solve
from solver.cards import parse_card
from solver.game import Status
from solver.search import Budget, dfs


def cards(text):
    return bytes(parse_card(token) for token in text.split())


def no_yukon_pruning(monkeypatch, game):
    """Yukon without the rule: ``moves`` (and ``dead_end``) see no stuck cards."""
    monkeypatch.setattr(game.rules, "prune", False)


# -- the rule on hand-built positions ---------------------------------------------------

def test_two_queens_waiting_for_black_kings_under_each_other_are_stuck():
    # QH lies on the face-down KS and JH, QD on the face-down KC and JD: each Queen needs
    # a black King (both lie under the Queens) or its Jack home (under itself).
    columns = (cards("JH KS QH"), cards("JD KC QD"))
    assert stuck_cards(columns, bytes((2, 2)), 13) == list(columns[0] + columns[1])
    # where any card may go to an empty column, a Queen leaves there and all unwinds
    assert stuck_cards(columns, bytes((2, 2)), 13, any_to_empty=True) == []
    # a face-up King leaves for an empty column, so its Queen's Jack is freed
    assert stuck_cards(columns, bytes((0, 2)), 13) == []
    # a black King off the tableau (in the talon or home) takes a Queen
    assert stuck_cards((cards("JH KS QH"), cards("JD QD")), bytes((2, 1)), 13) == []


def test_a_card_whose_lower_cards_are_all_off_the_tableau_can_go_home():
    # the 2H's parents (black Threes) lie under it, but the AH is not on the tableau
    assert stuck_cards((cards("3S 3C 2H"),), bytes((2,)), 13) == []
    assert stuck_cards((cards("AH 3S 3C 2H"),), bytes((3,)), 13) == list(cards("AH 3S 3C 2H"))


def test_klondike_deal_29_is_lost_without_a_search():
    # Column 5: 3S KC QD 7D face down, QS; column 7: 8D AC 6H TD KS 7H face down, QH.
    # The QH needs a black King (the KS lies under it, the KC under the QD) or the 6H
    # home (under it); the QD needs a black King (the KC under it, the KS under the QH)
    # or the 8D home (under the QH). Neither can ever move, nor the cards under them.
    result = solve(KLONDIKE, KLONDIKE.deal(29))
    assert result.status is Status.LOST and result.stored == 0
    stuck = result.extra["proof"].split(": ")[1].split()
    assert {"QH", "QD", "KS", "KC", "6H", "8D"} <= set(stuck)
    assert "QS" not in stuck and "7D" not in stuck   # the 7D may go on the talon's 8C
    assert solve(Klondike(draw=3), Klondike(draw=3).deal(29)).status is Status.LOST


@pytest.mark.parametrize("game,file", [(KLONDIKE, "klondike"), (YUKON, "yukon")])
def test_no_won_known_deal_is_called_dead(game, file):
    won = [int(r["deal"]) for r in read_known(DATA / file / "known.txt")
           if r.get("status") == "won" and "draw" not in r]
    assert len(won) >= 3
    assert all(game.dead_end(game.deal(n)) == "" for n in won)


# -- soundness on small twins --------------------------------------------------------------

def positions(game, seed, count=300):
    """Deals 1..count, each after 0-29 random moves."""
    rng = random.Random(seed)
    for number in range(1, count + 1):
        state = game.deal(number)
        for _ in range(rng.randrange(30)):
            moves = list(game.moves(state))
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        yield number, state


@pytest.mark.parametrize("game", [Klondike(ranks=6, columns=6), Klondike(ranks=6, columns=6, draw=3)],
                         ids=["r6c6d1", "r6c6d3"])
def test_every_klondike_position_called_dead_is_lost_by_exhaustive_search(game):
    dead = 0
    for number, state in positions(game, seed=1):
        if game.dead_end(state):
            dead += 1
            assert dfs(game, state, Budget(seconds=20)).status is Status.LOST, number
    assert dead >= 20                                  # 41 and 47 when written


@pytest.mark.parametrize("game", [Klondike(ranks=6, columns=6), Klondike(ranks=6, columns=6, draw=3),
                                  Klondike(ranks=5, columns=5, draw=3, passes=2)],
                         ids=["r6c6d1", "r6c6d3", "r5c5d3p2"])
def test_every_position_only_the_relaxed_game_calls_dead_is_lost_by_exhaustive_search(game):
    # Positions the stuck-cards proof does not catch: the relaxed game's own findings.
    from games._klondike_relax import never_home

    found = 0
    for number, state in positions(game, seed=3, count=400):
        if never_home(state.columns, state.hidden, state.foundations, game.ranks) and \
                not stuck_cards(state.columns, state.hidden, game.ranks):
            found += 1
            assert dfs(game, state, Budget(seconds=20)).status is Status.LOST, number
    assert found >= 20                                 # 45, 42 and 23 when written


def test_every_yukon_position_called_dead_is_lost_by_exhaustive_search(monkeypatch):
    game = Yukon(ranks=6, columns=6)
    dead = []
    for number, state in positions(game, seed=2):
        if game.dead_end(state):
            dead.append((number, state))
    no_yukon_pruning(monkeypatch, game)
    for number, state in dead:
        assert dfs(game, state, Budget(seconds=20)).status is Status.LOST, number
    assert len(dead) >= 20                             # 50 when written


@pytest.mark.parametrize("game", [Yukon(ranks=6, columns=6), Yukon(ranks=7, columns=6)],
                         ids=["r6c6", "r7c6"])
def test_yukon_pruning_of_dead_positions_never_changes_a_verdict(game, monkeypatch):
    pruned = [dfs(game, game.deal(n), Budget(seconds=20)) for n in range(1, 101)]
    no_yukon_pruning(monkeypatch, game)
    plain = [dfs(game, game.deal(n), Budget(seconds=20)) for n in range(1, 101)]
    assert [r.status for r in pruned] == [r.status for r in plain]
    lost = [(p.stored, q.stored) for p, q in zip(pruned, plain) if p.status is Status.LOST]
    assert all(a <= b for a, b in lost)                 # pruning only removes positions
    assert len(lost) >= 5 and sum(a for a, _ in lost) < sum(b for _, b in lost)
