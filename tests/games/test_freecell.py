"""FreeCell: deals, text, rules, known answers (Seahaven Towers: test_seahaven.py).

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import random

import pytest

from conftest import DATA, read_known
from games.freecell import EMPTY, FOUNDATION, GAME, SEAHAVEN, FreeCell, Move
from solver.cards import pile_str
from solver.game import Status, twins
from solver.search import Budget, astar, bfs, dfs, greedy, without_forced
from solver.search.astar import counted
from solver.search.base import follow, settle
from solver.verify import check_solution
from symmetry import Symmetry, bag, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

SYMMETRY = Symmetry(
    lambda s, rng: s._replace(columns=tuple(shuffled(s.columns, rng)),
                              cells=bytes(shuffled(s.cells, rng))),
    lambda s: (bag(s.columns), bag(s.cells), s.foundations))


KNOWN = read_known(DATA / "freecell" / "known.txt")


# -- deals -----------------------------------------------------------------------------

def test_microsoft_deal_1_first_row():
    state = GAME.deal(1)
    assert pile_str(column[0] for column in state.columns) == "JD 2D 9H JC 5D 7H 7C 5H"
    assert [len(c) for c in state.columns] == [7, 7, 7, 7, 6, 6, 6, 6]


@pytest.mark.parametrize("record", [r for r in KNOWN if "first-column" in r], ids=lambda r: r["id"])
def test_freecell_pro_extension_layouts(record):
    state = GAME.deal(int(record["deal"]))
    assert pile_str(state.columns[0]) == record["first-column"]


def test_deal_numbers_outside_the_generator_are_refused():
    for number in (0, 2**33):
        with pytest.raises(ValueError):
            GAME.deal(number)


# -- text ------------------------------------------------------------------------------

def test_a_midgame_position_is_read_with_its_foundations_and_cells():
    mid = GAME.parse((DATA / "freecell" / "midgame.txt").read_text())
    assert mid.foundations == bytes([1, 0, 0, 2])            # C-A, S-2
    assert mid.cells == bytes([mid.cells[0], EMPTY, mid.cells[2], EMPTY])
    assert GAME.parse(GAME.format(mid)) == mid


def test_freecell_solver_board_variants_are_accepted():
    text = GAME.format(GAME.deal(5))
    plain = "\n".join(line.lstrip(": ") for line in text.splitlines())
    assert GAME.parse(plain) == GAME.deal(5)
    assert GAME.parse(text.replace("T", "10").replace("\n", "\r\n")) == GAME.deal(5)
    assert GAME.parse((DATA / "freecell" / "utf8-bom.txt").read_text(encoding="utf-8")) == GAME.deal(1)


# -- rules -----------------------------------------------------------------------------

ENDGAME = """\
Foundations: H-Q C-Q D-J S-Q
Freecells: KS - - -
: KH
: QD
: KC KD
:
:
:
:
:
"""


def test_legal_moves_of_a_literal_position():
    # home: KH (H-Q), QD (D-J), KS from cell a; KD may not go home before QD.
    # to the first empty column: KD alone (KC under it) and KS from the cell;
    # moving a whole one-card column to an empty column would change nothing.
    # to the first free cell (b): every column's top card.
    state = GAME.parse(ENDGAME)
    assert {GAME.notation(m) for m in GAME.moves(state)} == {
        "1h", "2h", "ah", "34", "a4", "1b", "2b", "3b"}


def test_illegal_steps_are_explained():
    state = GAME.deal(1)
    reason = GAME.illegal_reason
    assert "go down by one" in reason(state, GAME.parse_move(state, "12"))
    assert "foundation" in reason(state, GAME.parse_move(state, "1h"))
    assert reason(state, GAME.parse_move(state, "1a")) == ""
    after = GAME.play(state, GAME.parse_move(state, "1a"))
    assert "occupied" in reason(after, GAME.parse_move(after, "2a"))
    assert "empty" in reason(after, GAME.parse_move(after, "ba"))
    assert "alternate" in reason(GAME.parse(ENDGAME), Move(2, 0, 1)) or \
        reason(GAME.parse(ENDGAME), Move(2, 0, 1))
    assert "only a King" in SEAHAVEN.illegal_reason(
        SEAHAVEN.parse(ENDGAME.replace(":\n:\n:\n:\n:\n", ":\n:\n:\n:\n:\n:\n:\n")), Move(1, 3, 1))


def test_sequence_moves_use_cells_and_empty_columns():
    # QS JH (a 2-card run) with one free cell: onto the KD, or into an empty column,
    # each carried out as 3 single-card steps through the free cell
    text = """\
Foundations: H-T C-Q D-J S-T
Freecells: QH KC KS -
: KH QS JH
: KD
: QD JS
:
:
:
:
:
"""
    game = FreeCell(columns=8, cells=4)
    state = game.parse(text)
    moves = set(game.moves(state))
    assert Move(0, 1, 2) in moves and Move(0, 3, 2) in moves
    assert Move(0, 1, 3) not in moves                       # KH cannot go on the KD
    for run in (Move(0, 1, 2), Move(0, 3, 2)):
        steps = game.expand(state, run)
        assert len(steps) == 3
        stepped = state
        for step in steps:
            assert game.illegal_reason(stepped, step) == ""
            stepped = game.play(stepped, step)
        assert stepped == game.play(state, run)


def test_long_run_is_carried_through_an_empty_column():
    # a 4-card run, one free cell, one spare empty column: (1 + 1) * 2 = 4 cards
    text = """\
Foundations: H-8 C-8 D-9 S-9
Freecells: QC KC - KD
: KH QS JH TS 9H
: KS QD JC
: QH JS
: TC 9C
: TD
: JD TH
:
:
"""
    game = FreeCell(columns=8, cells=4)
    state = game.parse(text)
    run = Move(0, 6, 4)                     # QS JH TS 9H to an empty column
    assert run in set(game.moves(state))
    assert Move(0, 6, 5) not in set(game.moves(state))      # the whole column: pointless
    steps = game.expand(state, run)
    stepped = state
    for step in steps:
        assert game.illegal_reason(stepped, step) == ""
        stepped = game.play(stepped, step)
    assert stepped == game.play(state, run)
    assert len(steps) == 9                  # 3 steps to park 2, 3 to move 2, 3 to bring back


# -- search support --------------------------------------------------------------------

def test_forced_moves_only_send_cards_home():
    state = GAME.deal(1)
    for _ in range(40):
        for move in GAME.forced(state):
            assert move.target == FOUNDATION
        state = GAME.play(state, next(iter(GAME.moves(state))))


def raymond_position(clubs: str) -> str:
    """A position with the Three of Hearts on the first column's top: hearts home to the
    Two, spades to the Ace, diamonds none, clubs to `clubs`; the other cards in 8 columns."""
    home = {"H": "A2", "S": "A", "D": "", "C": "A23456789TJQK"[:"0A23456789TJQK".index(clubs)]}
    rest = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"
            if rank not in home[suit] and rank + suit != "3H"]
    columns = [rest[i::8] for i in range(8)]
    columns[0].append("3H")
    return (f"Foundations: H-2 C-{clubs} D-0 S-A\n"
            + "".join(": " + " ".join(column) + "\n" for column in columns))


def test_raymonds_rule_sends_a_three_home_that_the_one_rank_rule_keeps():
    """3H may go home when both black foundations hold its rank - 2 (clubs and spades at
    the Ace) and the other red suit its rank - 3 (diamonds at none), though neither black
    Two is home; with clubs at none it may not. The checker's ``safe-home-wide`` agrees,
    and its ``safe-home`` (one rank below only) keeps it."""
    from checker import freecell as ck
    home = Move(0, FOUNDATION)
    sent, kept = GAME.parse(raymond_position("A")), GAME.parse(raymond_position("0"))
    assert home in GAME.forced(sent) and home not in GAME.forced(kept)
    variant = {"cells": 4, "columns": 8, "ranks": 13, "build": "alternate", "empty": "any",
               "layout": "microsoft"}
    position = ck.parse(raymond_position("A"), variant)
    assert "3H" not in ck.settle(position, variant, frozenset({"safe-home-wide"}))[0][0]
    assert ck.settle(position, variant, frozenset({"safe-home"}))[0][0][-1] == "3H"


# -- known answers ---------------------------------------------------------------------

@pytest.mark.parametrize("number", [1, 2, 3, 617, 1941, 8589934591])
def test_known_deals_are_won_with_a_verified_solution(number):
    state = GAME.deal(number)
    result = greedy(GAME, state, Budget(seconds=60))
    assert result.status is Status.WON
    check_solution(GAME, state, result.moves)
    assert all(m.count == 1 for m in result.moves)         # single-card steps only


def test_two_cells_and_bakers_game_variants_solve():
    two = FreeCell(cells=2)
    for number in (2, 3, 5):
        state = two.deal(number)
        result = greedy(two, state, Budget(seconds=60))
        assert result.status is Status.WON, number
        check_solution(two, state, result.moves)
    bakers = FreeCell(build="suit")
    assert greedy(bakers, bakers.deal(3), Budget(seconds=60)).status is Status.WON


def test_two_cell_deal_6_is_proven_lost():
    """Freecell Solver 5.0 (-l tfts --freecells-num 2) also exhausts deal 6 unsolved."""
    two = FreeCell(cells=2)
    assert dfs(two, two.deal(6)).status is Status.LOST


@pytest.mark.slow
def test_two_cell_deal_1_is_proven_lost():
    """Freecell Solver 5.0 (-l tfts --freecells-num 2) exhausts it after 180,452 states."""
    two = FreeCell(cells=2)
    assert dfs(two, two.deal(1)).status is Status.LOST


@pytest.mark.slow
def test_deal_11982_is_proven_lost():
    result = dfs(GAME, GAME.deal(11982))
    assert result.status is Status.LOST


@pytest.mark.slow
def test_deals_1_to_200_are_all_won():
    for number in range(1, 201):
        assert greedy(GAME, GAME.deal(number), Budget(seconds=60)).status is Status.WON, number


# -- shortest solutions: the bound and the counted moves ---------------------------------

# Two columns that block each other: 2S lies above AH, which must go home before 2H;
# 2H lies above AS, which must go home before 2S. One of the two Twos moves twice.
DEADLOCK = """Foundations: H-0 C-2 D-2 S-0
: AH 2S
: AS 2H
"""
# 3H and 2S each lie above a lower card of their own suit, and 2S sits on 3H: they
# leave together as one run move (two moves only if counted in single cards).
RUN_OF_BLOCKERS = """Foundations: H-0 C-3 D-3 S-0
: AH AS 3H 2S
: 2H
: 3S
:
"""


def test_the_deadlock_bound_counts_a_cycle_of_blocked_columns():
    """No card lies above a lower card of its own suit, so cards-not-home gives 4; the
    cycle 2S -> 2H -> 2S adds the fifth move that every win needs."""
    game = FreeCell(ranks=2, columns=2, cells=1)
    state = game.parse(DEADLOCK)
    shortest = bfs(game, state)
    assert game.lower_bound(state) == 5 == counted(shortest)
    assert shortest.optimal


def test_the_bound_counts_a_run_of_blocked_cards_once():
    """A run moved at once is one move: 3H and 2S need one extra move between them,
    not one each (a per-card count, 8, would overestimate the 7 moves of the best win)."""
    game = FreeCell(ranks=3, columns=4, cells=1)
    state = game.parse(RUN_OF_BLOCKERS)
    shortest = bfs(game, state)
    assert game.lower_bound(state) == 7 == counted(shortest)
    assert len(shortest.moves) > 7           # written out, the run move takes 3 steps


@pytest.mark.parametrize("twin", [
    {"ranks": 4, "columns": 4, "cells": 1}, {"ranks": 5, "columns": 4, "cells": 1},
    {"ranks": 5, "columns": 5, "cells": 0}, {"ranks": 5, "columns": 5, "cells": 2,
                                              "build": "suit", "empty": "kings"}])
def test_the_bound_never_exceeds_the_fewest_moves_from_positions_in_play(twin):
    """Admissible: checked against uniform-cost search from deals and random play."""
    from conftest import random_play

    game = FreeCell(layout="seeded", **twin)
    checked = above_cards_left = 0
    for number in range(1, 31):
        _, final = random_play(game, game.deal(number), 6, number)
        for state in (game.deal(number), final):
            shortest = bfs(game, state, Budget(max_states=100_000))
            if shortest.status is Status.WON:
                bound = game.lower_bound(state)
                assert bound <= counted(shortest), (number, state)
                left = sum(map(len, state.columns)) + sum(c != EMPTY for c in state.cells)
                above_cards_left += bound > left
                checked += 1
    assert checked >= 20 and above_cards_left >= 10


@pytest.mark.parametrize("game", [
    FreeCell(ranks=4, columns=4, cells=1, layout="seeded"),
    pytest.param(FreeCell(ranks=5, columns=4, cells=1, layout="seeded"), marks=pytest.mark.slow),
    pytest.param(FreeCell(ranks=5, columns=5, cells=1, build="suit", empty="kings",
                          layout="seeded"), marks=pytest.mark.slow)], ids=["r4c4", "r5c4", "r5c5-suit"])
def test_forced_home_moves_keep_a_shortest_win(game):
    """FreeCell declares ``forced_keeps_shortest``: uniform-cost search with its safe
    home moves finds wins exactly as short as without them (the larger twins: slow)."""
    for number in range(1, 13):
        state = game.deal(number)
        with_forced = bfs(game, state, Budget(max_states=200_000))
        plain = bfs(without_forced(game), state, Budget(max_states=200_000))
        assert with_forced.status == plain.status, number
        if plain.status is Status.WON:
            assert counted(with_forced) == counted(plain), number


@pytest.mark.parametrize("number, optimum", [(3, 70), pytest.param(9, 81, marks=pytest.mark.slow)])
def test_microsoft_deals_are_solved_at_the_published_optimal_length(number, optimum):
    """Paul and Helmert (SoCS 2016) give the fewest moves of deals 1-10, a run moved
    at once counting as one move: A* proves the same lengths here."""
    result = astar(GAME, GAME.deal(number), Budget(max_states=1_500_000))
    assert result.status is Status.WON and result.optimal
    assert counted(result) == optimum
    check_solution(GAME, GAME.deal(number), result.moves)


@pytest.mark.slow
@pytest.mark.parametrize("number, optimum", [(2, 73), (6, 75), (7, 76), (8, 74), (10, 80)])
def test_more_microsoft_deals_at_the_published_optimal_length(number, optimum):
    result = astar(GAME, GAME.deal(number), Budget(max_states=4_000_000))
    assert result.status is Status.WON and result.optimal
    assert counted(result) == optimum


# -- the fused expansion (solver.game.Game.children) -----------------------------------

FUSED_GAMES = [GAME, SEAHAVEN, FreeCell(build="suit"), FreeCell(cells=2),
               *twins(GAME), *twins(SEAHAVEN)]


@pytest.mark.parametrize("game", FUSED_GAMES, ids=lambda game: repr(game))
def test_children_are_follow_and_key_of_every_move_in_order(game):
    """``children`` gives exactly what the searches made child by child: for each move
    of ``moves`` in order, ``follow``'s edge and child and the child's ``key``, the child
    left for the search to make (None) only where ``play`` of the edge's one move makes
    it and it is not won. Positions come from random play, some with forced moves still
    to play (its shortcut for settled positions must not apply there), from deals 1-80."""
    rng = random.Random(7)
    play, forced = game.play, game.forced
    seen = {"positions": 0, "unsettled": 0, "forced edges": 0, "emptied or filled": 0}
    for number in range(1, 81):
        state = game.deal(number)
        for _ in range(60):
            expected = [(edge, child, game.key(child))
                        for edge, child in (follow(play, forced, state, move)
                                            for move in game.moves(state))]
            fused = list(game.children(state))
            made = [(edge, play(state, edge[0]) if child is None else child, key)
                    for edge, child, key in fused]
            assert made == expected, (number, game.format(state))
            assert all(len(edge) == 1 and not game.is_won(made_child) for (edge, child, _),
                       (_, made_child, _) in zip(fused, made) if child is None)
            seen["positions"] += 1
            seen["left to make"] = seen.get("left to make", 0) + sum(
                child is None for _, child, _ in fused)
            seen["unsettled"] += bool(forced(state))
            seen["forced edges"] += sum(len(edge) > 1 for edge, _, _ in expected)
            seen["emptied or filled"] += sum(
                sum(map(bool, child.columns)) != sum(map(bool, state.columns))
                for _, child, _ in expected)
            if not expected:
                break
            state = play(state, rng.choice(expected)[0][0])
            if rng.random() < 0.5:
                state = settle(game, state)[1]
    assert seen["positions"] >= 250 and min(seen.values()) >= 30, seen


def newest(game, state, budget):
    return greedy(game, state, budget, newest_first=True)


class Unfused:
    """The game without its fused expansion: searches go child by child."""

    children = None

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)


def test_searches_find_the_same_with_and_without_the_fused_expansion():
    """dfs, greedy best-first (both tie orders) and A* store the same positions and find
    the same wins through ``children`` as child by child; views never forward it (what
    they change would be bypassed)."""
    assert GAME.children is not None and without_forced(GAME).children is None
    for game, numbers in ((GAME, range(1, 6)), (twins(GAME)[0], range(1, 31)),
                          (twins(SEAHAVEN)[0], range(1, 31))):
        for number in numbers:
            state = game.deal(number)
            for search in (dfs, greedy, newest, astar):
                fused = search(game, state, Budget(max_states=5_000))
                plain = search(Unfused(game), state, Budget(max_states=5_000))
                assert (fused.status, fused.stored, fused.moves) == \
                    (plain.status, plain.stored, plain.moves), (game, number, search)
