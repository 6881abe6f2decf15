"""Yukon: PySolFC deals, text, rules, forced moves and small-twin properties.

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import random

import pytest

from conftest import (DATA, assert_a_card_goes_home_only_when_none_can_need_it_back,
                      left_out_by_narrow_moves, portfolio_verdicts_agree_with_dfs, read_known)
from games.yukon import FOUNDATION, FROM_FOUNDATION, GAME, Move, State, Yukon
from solver.cards import parse_card, pysol_layout
from solver.game import Status, twins
from solver.search import Budget, dfs, greedy
from solver.verify import check_solution
from solver.view import Sighted
from symmetry import Symmetry, by_hidden_column, columns_shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

SYMMETRY = Symmetry(columns_shuffled,
                      lambda s: (by_hidden_column(s), s.foundations))


KNOWN = read_known(DATA / "yukon" / "known.txt")
TWIN = Yukon(ranks=4, columns=5)            # 16 cards: dfs exhausts a deal in milliseconds
TWIN_5 = Yukon(ranks=5, columns=5)


# -- deals -----------------------------------------------------------------------------

def test_deal_1_is_the_layout_pysolfc_shows():
    # pysol_cards' text for Yukon deal 1 (PySolFC numbering), face-down cards in <>
    assert pysol_layout("yukon", 1).splitlines() == [
        "3D",
        "<JD> AS QH TD 7D 8C",
        "<2D> <7C> AH 4H 4S 6D TC",
        "<9H> <5H> <5S> 3C AC TH 8S 6S",
        "<JC> <KD> <AD> <3H> 4C 4D 8H 8D 9C",
        "<5D> <KC> <QC> <2S> <9D> 5C 7S 2C QS 2H",
        "<7H> <9S> <KH> <KS> <QD> <JS> TS 3S JH 6C 6H",
    ]
    state = GAME.deal(1)
    assert state.hidden == bytes([0, 1, 2, 3, 4, 5, 6])
    assert [len(c) for c in state.columns] == [1, 6, 7, 8, 9, 10, 11]
    assert state.columns[0] == bytes([parse_card("3D")])
    assert state.foundations == bytes(4)


@pytest.mark.parametrize("record", [r for r in KNOWN if "first-column" in r], ids=lambda r: r["id"])
def test_known_layouts(record):
    assert GAME.format(GAME.deal(int(record["deal"]))).splitlines()[0] == record["first-column"]


def test_twin_deals_use_every_card_once_with_a_yukon_shape():
    state = TWIN.deal(3)
    assert state.hidden == bytes([0, 1, 2, 3, 4])
    assert sorted(b for c in state.columns for b in c) == sorted(TWIN._deck())
    assert [len(c) for c in state.columns] == [1, 3, 3, 4, 5]


# -- text ------------------------------------------------------------------------------

def test_deals_are_written_as_pysolfc_lays_them_out_and_a_midgame_position_is_read():
    for number in range(1, 20):
        assert GAME.format(GAME.deal(number)) == pysol_layout("yukon", number)
    mid = GAME.parse((DATA / "yukon" / "midgame.txt").read_text())
    assert mid.foundations == bytes([1, 3, 0, 1])          # C-A D-3 H-0 S-A
    assert mid.hidden == bytes([0, 0, 1, 0, 0, 1, 0])
    assert GAME.parse(GAME.format(mid)) == mid
    empty = State(mid.columns[:6] + (b"",), mid.hidden, bytes([2, 3, 0, 1]))   # 2C home
    assert GAME.format(empty).splitlines()[-1] == "-"
    assert GAME.parse(GAME.format(empty)) == empty


# -- rules -----------------------------------------------------------------------------

# A 4-rank twin (4 is its King), 5 columns, the A♣ home.
LITERAL = """\
Foundations: C-A D-0 H-0 S-0
<2C> 4D 3S 2H
4H 4S 3H
-
<AH> <3D> 3C 2D AS
<AD> 4C 2S
"""


def test_legal_moves_of_a_literal_position():
    # home: AS. Kings (4s) to the empty column 3: 4D, 4S, 4C; the 4H would move its
    # whole column, which changes nothing. AS onto 2H; 2S onto 3H; AC back onto 2H.
    state = TWIN.parse(LITERAL)
    assert {TWIN.notation(m) for m in TWIN.moves(state)} == {
        "4f", "1-3:4D", "2-3:4S", "5-3:4C", "4-1:AS", "5-2:2S", "f1:AC"}


def test_moves_come_turning_first_then_home_then_fixing_then_sideways_then_returns():
    # 4D and 4C turn a face-down card; AS goes home; 4S (off the 4H) and 2S (off the
    # 4C) expose a card they did not fit on; AS lies on the 2D it fits on; AC comes back
    state = TWIN.parse(LITERAL)
    assert [TWIN.notation(m) for m in TWIN.moves(state)] == [
        "1-3:4D", "5-3:4C", "4f", "2-3:4S", "5-2:2S", "4-1:AS", "f1:AC"]
    deeper = TWIN.parse(LITERAL.replace("<AD> 4C 2S", "<AD> <4C> 2S").replace(
        "<2C> 4D 3S 2H", "<2H> 4D 3S").replace("C-A", "C-2"))
    # the 2S turns a card of the column with 2 face-down cards: it comes first
    assert [TWIN.notation(m) for m in TWIN.moves(deeper)][:2] == ["5-2:2S", "1-3:4D"]


def test_empty_column_takes_any_card_in_the_any_variant():
    game = Yukon(ranks=4, columns=5, empty="any")
    state = game.parse(LITERAL)
    assert {game.notation(m) for m in game.moves(state)} == {
        "4f", "1-3:4D", "2-3:4S", "5-3:4C", "4-1:AS", "5-2:2S", "f1:AC",
        "1-3:3S", "1-3:2H", "2-3:3H", "4-3:3C", "4-3:2D", "4-3:AS", "5-3:2S", "f3:AC"}


def test_a_stack_moves_and_the_exposed_card_turns_face_up():
    state = TWIN.parse(LITERAL)
    after = TWIN.play(state, TWIN.parse_move(state, "1-3:4D"))
    assert TWIN.format(after).splitlines()[1:4] == ["2C", "4H 4S 3H", "4D 3S 2H"]
    assert after.hidden == bytes([0, 0, 0, 2, 1])
    back = TWIN.play(after, TWIN.parse_move(after, "f1:AC"))
    assert back.foundations == bytes(4) and back.columns[0] == bytes([parse_card("2C"),
                                                                       parse_card("AC")])
    assert state == TWIN.parse(LITERAL)                      # play left it untouched


def test_illegal_moves_are_explained():
    state = TWIN.parse(LITERAL)
    reason = TWIN.illegal_reason
    c = parse_card
    assert "face down" in reason(state, Move(0, 1, 4, c("2C")))
    assert "only a King" in reason(state, Move(0, 2, 2, c("3S")))
    assert "go down by one" in reason(state, Move(3, 1, 1, c("AS")))
    assert "go down by one" in reason(state, Move(1, 0, 1, c("3H")))
    assert "foundation yet" in reason(state, Move(0, FOUNDATION, 1, c("2H")))
    assert "top card goes home" in reason(state, Move(3, FOUNDATION, 2, c("2D")))
    assert "empty" in reason(state, Move(FROM_FOUNDATION + 1, 0, 1, c("AD")))
    assert "not card" in reason(state, Move(3, 0, 1, c("2D")))
    assert reason(state, Move(3, 0, 1, c("AS"))) == ""
    assert reason(state, Move(FROM_FOUNDATION, 0, 1, c("AC"))) == ""


def test_colours_must_alternate():
    # a partial position (only the rule check looks at it): 2C onto the 3S is refused
    game = Yukon(ranks=4, columns=5)
    state = State((bytes([parse_card("4C"), parse_card("3S")]), bytes([parse_card("3H")]),
                   b"", b"", bytes([parse_card("2C")])), bytes(5), bytes(4))
    assert "colours must alternate" in game.illegal_reason(state, Move(4, 0, 1, parse_card("2C")))
    assert game.illegal_reason(state, Move(4, 1, 1, parse_card("2C"))) == ""


def test_notation_round_trips_and_short_forms_are_read():
    for number in (1, 2, 3):
        state = GAME.deal(number)
        for move in GAME.moves(state):
            assert GAME.parse_move(state, GAME.notation(move)) == move
    state = TWIN.parse(LITERAL)
    assert TWIN.parse_move(state, "41") == TWIN.parse_move(state, "4-1:AS")
    assert TWIN.parse_move(state, "f1") == Move(FROM_FOUNDATION, 0, 1, parse_card("AC"))
    assert TWIN.parse_move(state, "4f") == Move(3, FOUNDATION, 1, parse_card("AS"))


# -- forced moves ----------------------------------------------------------------------

def test_forced_moves_send_only_aces_home():
    state = TWIN.parse(LITERAL)
    assert [TWIN.notation(m) for m in TWIN.forced(state)] == ["4f"]
    after = TWIN.play(state, TWIN.forced(state)[0])
    assert TWIN.forced(after) == []                     # the 2S waits for the 2 red Aces


# Every card home but the Twos and up; the 4-rank twin again. The AD lies face down.
TWOS = """\
Foundations: C-A D-0 H-A S-A
<3C> 4D 2S
4H 4S 3H 2C
-
<3D> 3S 2D
<AD> 4C 2H
"""


def test_a_two_goes_home_once_its_ace_and_the_other_colours_aces_are_home():
    state = TWIN.parse(TWOS)
    # 2S and 2C wait for the AD (other colour); the 2D for its own Ace; the 2H may go
    assert [TWIN.notation(m) for m in TWIN.forced(state)] == ["5f"]
    all_aces = TWIN.parse(TWOS.replace("D-0", "D-A").replace("<AD> ", ""))
    assert [TWIN.notation(m) for m in TWIN.forced(all_aces)] == ["1f"]


def test_higher_cards_go_home_only_when_no_card_can_need_them_back():
    assert_a_card_goes_home_only_when_none_can_need_it_back(Yukon(ranks=6, columns=4))


@pytest.mark.parametrize("game", twins(GAME), ids=lambda g: f"{g.ranks}x{g.columns}-{g.empty}")
def test_the_two_rule_is_exercised_on_the_twins(game):
    """tests/test_contract.py checks that forced moves never change a verdict on these
    twins; that proves something about the Two rule only if the rule sends Twos home."""
    twos_forced = 0
    for number in range(1, 121):
        start = game.deal(number)
        twos_forced += any(m.card % 13 == 1 for m in settle_moves(game, start))
    assert twos_forced > 0


def settle_moves(game, start):
    """Return the forced moves met along dfs's first line of play from `start`."""
    found, state = [], start
    for _ in range(200):
        forced = game.forced(state)
        if forced:
            found += forced
            state = game.play(state, forced[0])
            continue
        moves = list(game.moves(state))
        if not moves:
            break
        state = game.play(state, moves[0])
    return found


def test_narrow_moves_leave_out_only_returns_and_stacks_that_uncover_a_card_they_fit():
    for game in (GAME, TWIN_5, Yukon(ranks=4, columns=5, empty="any")):
        for state, (source, target, count, card) in left_out_by_narrow_moves(game, seed=3):
            if source >= FROM_FOUNDATION:
                continue                               # a foundation card coming back
            column = state.columns[source]
            under = column[-count - 1]
            assert target != FOUNDATION and len(column) - count > state.hidden[source]
            assert under % 13 == card % 13 + 1 and (under // 13 in (1, 2)) != (card // 13 in (1, 2))
            assert state.foundations[under // 13] != under % 13      # it cannot go home



def test_klondikes_partial_run_rule_would_lose_a_won_yukon_position():
    # Klondike's moves leave out a run moved off a card it is built on while that card
    # cannot go home (proof in PROOFS at the end of games._klondike_rules). Yukon's stacks
    # need not be runs, and the proof fails: here the only wins move 3C off 4D (hearts
    # and diamonds empty) onto 4H, then carry 4D, in the stack of 2H, onto that 3C, so
    # 4D ends on top of the card that covered it. Yukon's full moves keep such moves.
    game = Yukon(ranks=4, columns=3)
    state = game.parse("Foundations: H-A S-A\n3C\n<3D> <2D> <AC> <AD> <4C> <2C> 3S 2H 4D\n"
                       "<4H> 3H 2S 4S\n")
    result = dfs(game, state)
    assert result.status is Status.WON
    check_solution(game, state, result.moves)
    rules = game.rules

    def barred(position):
        for move in rules.moves(position):
            if move.source >= FROM_FOUNDATION or move.target == FOUNDATION:
                yield move
                continue
            column = position.columns[move.source]
            start = len(column) - move.count
            if start > position.hidden[move.source] and \
                    rules.fits[column[start] * 52 + column[start - 1]] and \
                    position.foundations[column[start - 1] // 13] != column[start - 1] % 13:
                continue
            yield move

    partial = Yukon(ranks=4, columns=3)
    object.__setattr__(partial, "moves", lambda position: list(barred(position)))
    assert dfs(partial, state).status is Status.LOST

@pytest.mark.parametrize("game", [TWIN, TWIN_5], ids=["4x5", "5x5"])
def test_portfolio_with_narrowed_members_agrees_with_dfs(game, monkeypatch):
    assert any(name.startswith("narrow_") for name in game.portfolio)
    verdicts = portfolio_verdicts_agree_with_dfs(game, range(1, 81), monkeypatch)
    assert verdicts == {Status.WON, Status.LOST}

def test_any_card_to_an_empty_column_wins_whatever_kings_only_wins():
    free = Yukon(ranks=4, columns=5, empty="any")
    lost = 0
    for number in range(1, 201):
        kings = dfs(TWIN, TWIN.deal(number)).status
        anything = dfs(free, free.deal(number)).status
        lost += kings is Status.LOST
        assert kings is not Status.WON or anything is Status.WON, number
    assert lost > 0                                     # the twins do have lost deals


# -- known deals -----------------------------------------------------------------------

@pytest.mark.parametrize("record", [r for r in KNOWN if r.get("status") == "won"],
                         ids=lambda r: r["id"])
def test_known_deals_are_won_with_verified_solutions(record):
    start = GAME.deal(int(record["deal"]))
    result = greedy(GAME, start, Budget(seconds=20))
    assert result.status is Status.WON
    check_solution(GAME, start, result.moves)


@pytest.mark.slow
def test_deal_28_is_proven_lost():
    # No start-position proof; dfs exhausts about 5.0 million positions (7 CPU minutes).
    state = GAME.deal(28)
    assert GAME.dead_end(state) == ""
    assert dfs(GAME, state).status is Status.LOST


@pytest.mark.parametrize("text", ["٣f", "3-٥", "²f", "8f", "f8:AS"])
def test_column_names_in_moves_are_ascii_digits_of_a_column(text: str) -> None:
    from solver.game import InvalidMoveError

    with pytest.raises(InvalidMoveError):
        GAME.parse_move(GAME.deal(1), text)


# -- the player's view -------------------------------------------------------------------

def test_the_player_does_not_see_the_face_down_cards_of_deal_1():
    position = Sighted.of(GAME, GAME.deal(1))
    unseen = position.unseen()
    assert position.seen is None
    assert len(unseen.cards) == 21 == sum(position.state.hidden)             # 1 + 2 + ... + 6
    assert sorted(unseen.cards) == sorted(
        c for column, down in zip(position.state.columns, position.state.hidden)
        for c in column[:down])
    masked = position.masked().state
    assert masked.hidden == position.state.hidden
    assert [column[down:] for column, down in zip(masked.columns, masked.hidden)] == \
        [column[down:] for column, down in zip(position.state.columns, position.state.hidden)]


def test_a_card_turned_up_stays_seen_wherever_it_goes():
    position = Sighted.of(GAME, GAME.deal(1))
    turning = GAME.parse_move(position.state, "2-6:AS")       # takes AS..8C off the JD
    assert GAME.illegal_reason(position.state, turning) == ""
    position = position.play(turning)
    jd = parse_card("JD")
    assert jd not in position.unseen().cards and len(position.unseen().cards) == 20
    rng = random.Random(4)
    known = {c for column, down in zip(position.state.columns, position.state.hidden)
             for c in column[down:]}
    for _ in range(60):
        steps = position.steps()
        if not steps:
            break
        position = position.play(rng.choice(steps))
        unseen = set(position.unseen().cards)
        assert not unseen & known              # covered or moved, a card seen stays seen
        known |= {c for column, down in zip(position.state.columns, position.state.hidden)
                  for c in column[down:]}


def test_the_players_steps_do_not_stop_where_the_dead_end_proof_reads_face_down_cards():
    """``moves`` is empty where cards that can never leave their columns (a proof that
    reads the face-down cards) make the position lost; the player, who does not see
    them, still has the legal moves, the same in every world."""
    for deal in range(1, 40):
        rng = random.Random(deal)
        position = Sighted.of(GAME, GAME.deal(deal))
        for _ in range(60):
            steps = position.steps()
            if not steps:
                break
            if GAME.dead_end(position.state) and any(position.state.hidden):
                assert GAME.moves(position.state) == []
                for n in range(20):
                    world = position.sample(random.Random(n))
                    assert set(Sighted(GAME, world).steps()) == set(steps)
                    assert all(GAME.illegal_reason(world, step) == "" for step in steps)
                return
            position = position.play(rng.choice(steps))
    pytest.fail("no position proven dead on the lines tried")
