"""Seahaven Towers (a FreeCell preset): PySolFC deals, rules, verdicts against fc-solve.

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import pytest

from conftest import DATA, read_known
from games import find_game
from games.freecell import CELL, EMPTY, FOUNDATION, SEAHAVEN, FreeCell, Move
from solver.app.batch import wilson
from solver.cards import pile_str, pysol_layout
from solver.game import Status
from solver.search import Budget, dfs, greedy
from solver.verify import check_solution

KNOWN = read_known(DATA / "seahaven" / "known.txt")


def test_registry_finds_seahaven():
    assert find_game("seahaven-towers") is SEAHAVEN and find_game("st") is SEAHAVEN


def test_pysolfc_deal_1977_layout():
    state = SEAHAVEN.deal(1977)
    assert state == SEAHAVEN.parse(pysol_layout("seahaven", 1977))
    assert pile_str(state.columns[0]) == "QH TS 6D TH 2C"
    assert pile_str(state.columns[7]) == "KC KS KD 7S KH"
    assert pile_str(state.columns[9]) == "JH 4S 7C 9H 8H"
    assert pile_str(c for c in state.cells if c != EMPTY) == "5S 6H"
    assert [len(c) for c in state.columns] == [5] * 10


def test_builds_by_suit_one_card_and_kings_only_to_an_empty_column():
    text = """\
Foundations: H-9 C-9 D-T S-8
Freecells: QD KD JD -
: TH KH QH
: KS
: 9S
: TS
: JC TC
: QC
: KC
: JS
: QS JH
:
"""
    state = SEAHAVEN.parse(text)
    moves = set(SEAHAVEN.moves(state))
    assert Move(2, FOUNDATION) in moves                     # 9S home
    assert Move(2, 3) in moves                              # 9S on TS (same suit)
    assert Move(3, 7) in moves                              # TS on JS
    assert Move(4, 5, 2) in moves                           # JC TC on QC: 1 free cell + 1
    assert Move(8, 0) in moves                              # JH on QH
    assert Move(0, 9, 2) in moves                           # a King-headed run to the empty column
    assert Move(CELL + 1, 9) in moves                       # KD from its cell too
    assert Move(0, 9, 1) not in moves                       # QH alone: only Kings go there
    assert Move(CELL, 9) not in moves                       # nor the QD
    assert all(m.target != 1 for m in moves)                # nothing goes on KS but QS
    assert "only a King" in SEAHAVEN.illegal_reason(state, Move(0, 9, 1))
    assert "suits must match" in SEAHAVEN.illegal_reason(state, Move(7, 0, 1))


def test_any_card_to_an_empty_column_wins_whatever_kings_only_wins():
    kings = FreeCell(ranks=5, columns=5, cells=1, build="suit", empty="kings", layout="seeded")
    anything = FreeCell(ranks=5, columns=5, cells=1, build="suit", empty="any", layout="seeded")
    lost_with_kings = 0
    for number in range(1, 151):
        if dfs(kings, kings.deal(number)).status is Status.WON:
            assert dfs(anything, anything.deal(number)).status is Status.WON, number
        else:
            lost_with_kings += 1
    assert lost_with_kings


@pytest.mark.parametrize("record", [r for r in KNOWN if "slow" not in r], ids=lambda r: r["id"])
def test_verdicts_agree_with_freecell_solver(record):
    state = SEAHAVEN.deal(int(record["deal"]))
    result = greedy(SEAHAVEN, state, Budget(seconds=60))
    assert result.status.value == record["status"]
    if result.status is Status.WON:
        check_solution(SEAHAVEN, state, result.moves)


@pytest.mark.slow
@pytest.mark.parametrize("record", [r for r in KNOWN if "slow" in r], ids=lambda r: r["id"])
def test_slow_verdicts_agree_with_freecell_solver(record):
    state = SEAHAVEN.deal(int(record["deal"]))
    assert dfs(SEAHAVEN, state).status.value == record["status"]


@pytest.mark.slow
def test_win_share_agrees_with_blake_and_gent():
    """Blake & Gent: 89.332% ± 0.020% of Seahaven Towers deals are winnable."""
    won = lost = 0
    for number in range(1, 301):
        result = greedy(SEAHAVEN, SEAHAVEN.deal(number), Budget(seconds=120))
        won += result.status is Status.WON
        lost += result.status is Status.LOST
    assert won + lost >= 290                                # a figure needs decided deals
    _, low, high = wilson(won, won + lost)
    assert low <= 0.89332 <= high
