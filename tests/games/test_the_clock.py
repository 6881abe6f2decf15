"""The Clock: rules, text, and three verdicts (play, CP-SAT, Knuth) that must agree.

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import find_game
from games.the_clock import GAME, OVER, Move, State, TheClock
from solver.cards import DECK, parse_card
from games._the_clock_cpsat import solve as cpsat_solve
from solver.game import DealError, DealProblem, InvalidMoveError, Status
from solver.search import Budget, dfs
from solver.verify import replay, replay_notation
from symmetry import Symmetry, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

SYMMETRY = Symmetry(                   # face-up cards never move again: their order is moot
    lambda s, rng: s._replace(face_up=tuple(bytes(shuffled(up, rng)) for up in s.face_up)),
    lambda s: (s.piles, s.next_pile))


DATA = Path(__file__).resolve().parents[2] / "data" / "the_clock"
WON_DEAL, LOST_DEAL = 12, 1          # data/the_clock/known.txt


def play_out(game: TheClock, state: State) -> tuple[bool, int, State]:
    """Return (won, cards turned, final position) by plain play."""
    turned = 0
    while moves := game.moves(state):
        assert len(moves) == 1
        assert game.illegal_reason(state, moves[0]) == ""
        state = game.play(state, moves[0])
        turned += 1
    return game.is_won(state), turned, state


def positions(game: TheClock, state: State) -> list[State]:
    """Return every position of the play from `state`, `state` first."""
    seen = [state]
    while moves := game.moves(state):
        state = game.play(state, moves[0])
        seen.append(state)
    return seen


def text(*piles: str, next_pile: str | None = None) -> str:
    lines = list(piles) + ([f"Next: {next_pile}"] if next_pile else [])
    return "\n".join(lines)


# A won deal built by hand: the pile of rank r holds the four cards of rank r + 1 and
# the K pile the four aces, so play goes K, A, 2 .. Q, K four times round the clock and
# the fourth K is the last card turned. (Bottom cards: arcs A->2->..->Q->K, a path.)
ROUND_THE_CLOCK = """\
A: 2C 2D 2H 2S
2: 3C 3D 3H 3S
3: 4C 4D 4H 4S
4: 5C 5D 5H 5S
5: 6C 6D 6H 6S
6: 7C 7D 7H 7S
7: 8C 8D 8H 8S
8: 9C 9D 9H 9S
9: TC TD TH TS
T: JC JD JH JS
J: QC QD QH QS
Q: KC KD KH KS
K: AC AD AH AS
"""
# A lost deal built by hand: the K pile holds the four kings, so play stops after four
# turns, and the Q pile the aces; the arcs A->2->..->Q->A make a cycle.
KINGS_IN_THE_CENTRE = """\
A: 2C 2D 2H 2S
2: 3C 3D 3H 3S
3: 4C 4D 4H 4S
4: 5C 5D 5H 5S
5: 6C 6D 6H 6S
6: 7C 7D 7H 7S
7: 8C 8D 8H 8S
8: 9C 9D 9H 9S
9: TC TD TH TS
T: JC JD JH JS
J: QC QD QH QS
Q: AC AD AH AS
K: KC KD KH KS
"""


# -- variants and registry -----------------------------------------------------------


def test_registry_finds_the_clock_by_name_and_alias() -> None:
    for name in ("clock", "the-clock", "Clock Patience", "travellers_clock"):
        assert find_game(name) is GAME
    assert find_game("clock", {"ranks": "3", "suits": "2"}) == TheClock(ranks=3, suits=2)


@pytest.mark.parametrize("options", [{"ranks": 1}, {"ranks": 14}, {"suits": 0}, {"suits": 5}])
def test_twin_options_are_validated(options: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        TheClock(**options)


# -- deals ------------------------------------------------------------------------------


def test_numbered_deal_is_pysol_order_dealt_round_robin() -> None:
    from solver.cards import pysol_deck_order

    order = pysol_deck_order(1)
    state = GAME.deal(1)
    assert state.piles == tuple(bytes(order[i::13]) for i in range(13))
    assert state.face_up == (b"",) * 13 and state.next_pile == 12
    assert sorted(b"".join(state.piles)) == list(DECK)


def test_twin_deal_is_a_seeded_shuffle_of_its_own_deck() -> None:
    twin = TheClock(ranks=4, suits=3)
    state = twin.deal(5)
    assert state == twin.deal(5) != twin.deal(6)
    assert sorted(b"".join(state.piles)) == sorted(twin.deck())
    assert [len(p) for p in state.piles] == [3] * 4 and state.next_pile == 3


def test_deal_numbers_start_at_one() -> None:
    with pytest.raises(ValueError):
        GAME.deal(0)


# -- text -------------------------------------------------------------------------------


def test_fresh_deal_may_be_written_without_labels_or_next_line() -> None:
    state = GAME.deal(7)
    bare = "\n".join(line.split(":", 1)[1] for line in GAME.format(state).splitlines()[:13])
    assert GAME.parse(bare) == state
    assert GAME.parse("# a comment\n\n" + bare.replace("T", "10").replace("H", "♥")) == state


def test_mid_game_next_pile_is_worked_out_when_not_written() -> None:
    state = positions(GAME, GAME.deal(WON_DEAL))[10]
    lines = GAME.format(state).splitlines()
    assert lines[-1].startswith("Next: ")
    assert GAME.parse("\n".join(lines[:-1])) == state


def test_stopped_play_is_written_with_a_dash() -> None:
    final = positions(GAME, GAME.deal(LOST_DEAL))[-1]
    assert final.next_pile == OVER
    assert GAME.format(final).endswith("Next: -\n")
    assert GAME.parse(GAME.format(final)) == final


def test_utf8_bom_crlf_and_trailing_spaces_are_tolerated() -> None:
    raw = (DATA / "utf8-bom-crlf.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    assert GAME.parse(raw.decode("utf-8")) == GAME.deal(1)


def test_empty_text_is_reported() -> None:
    with pytest.raises(DealError) as caught:
        GAME.parse("  \n\n")
    assert caught.value.problems == DealProblem.EMPTY


def test_card_outside_a_twins_deck_is_unreadable() -> None:
    twin = TheClock(ranks=2, suits=1)
    with pytest.raises(DealError) as caught:
        twin.parse("AC\nKC")
    assert caught.value.problems == DealProblem.UNREADABLE_CARD | DealProblem.MISSING_CARD
    assert caught.value.cards == ("KC", "2C")


# -- rules ------------------------------------------------------------------------------


def test_first_move_turns_the_top_card_of_the_king_pile() -> None:
    state = GAME.deal(1)
    (move,) = GAME.moves(state)
    assert move == Move(12, state.piles[12][-1])


def test_turned_card_goes_face_up_under_its_own_pile_which_turns_next() -> None:
    state = GAME.parse(ROUND_THE_CLOCK)
    after = GAME.play(state, Move(12, parse_card("AS")))
    assert after.face_up[0] == bytes([parse_card("AS")])
    assert after.piles[12] == state.piles[12][:-1] and after.next_pile == 0
    assert GAME.moves(after) == [Move(0, parse_card("2S"))]
    assert state == GAME.parse(ROUND_THE_CLOCK)              # the old position is untouched


def test_hand_built_deal_round_the_clock_is_won() -> None:
    state = GAME.parse(ROUND_THE_CLOCK)
    won, turned, final = play_out(GAME, state)
    assert won and turned == 52 and final.next_pile == OVER
    assert GAME.knuth_verdict(state) and GAME.knuth_verdict_networkx(state)
    assert cpsat_solve(GAME, state).status is Status.WON


def test_hand_built_deal_with_kings_in_the_centre_stops_after_four_turns() -> None:
    state = GAME.parse(KINGS_IN_THE_CENTRE)
    won, turned, final = play_out(GAME, state)
    assert not won and turned == 4 and final.next_pile == OVER
    assert GAME.heuristic(final) == GAME.lower_bound(final) == 48
    assert GAME.moves(final) == []
    assert not GAME.knuth_verdict(state) and not GAME.knuth_verdict_networkx(state)
    assert cpsat_solve(GAME, state).status is Status.LOST


def test_play_stops_only_when_the_fourth_king_is_turned() -> None:
    for number in range(1, 60):
        history = positions(GAME, GAME.deal(number))
        final = history[-1]
        assert final.next_pile == OVER and final.piles[12] == b""
        assert len(final.face_up[12]) == 4 and len(history[-2].face_up[12]) == 3
        assert all(s.next_pile != OVER for s in history[:-1])


# -- moves: notation and illegal moves -----------------------------------------------------


def test_notation_is_the_card_turned_and_parses_back() -> None:
    state = GAME.deal(WON_DEAL)
    (move,) = GAME.moves(state)
    assert GAME.parse_move(state, GAME.notation(move)) == move
    assert GAME.parse_move(state, GAME.notation(move).lower()) == move


def test_solution_in_notation_replays() -> None:
    result = dfs(GAME, GAME.deal(WON_DEAL))
    final = replay_notation(GAME, GAME.deal(WON_DEAL), [GAME.notation(m) for m in result.moves])
    assert GAME.is_won(final)


def test_turning_a_card_that_is_not_on_top_of_the_pile_due_is_illegal() -> None:
    state = GAME.parse(ROUND_THE_CLOCK)
    below = GAME.parse_move(state, "AC")                     # in the K pile, under three aces
    assert "not the top card of the K pile" in GAME.illegal_reason(state, below)
    elsewhere = GAME.parse_move(state, "2S")                 # top of the A pile, not due
    assert "its top card is AS" in GAME.illegal_reason(state, elsewhere)


def test_turning_a_face_up_card_is_illegal() -> None:
    state = GAME.play(GAME.parse(ROUND_THE_CLOCK), Move(12, parse_card("AS")))
    move = GAME.parse_move(state, "AS")
    assert move.pile == -1 and GAME.illegal_reason(state, move)


def test_no_move_is_legal_once_play_has_stopped() -> None:
    lost = positions(GAME, GAME.parse(KINGS_IN_THE_CENTRE))[-1]
    assert "play has stopped" in GAME.illegal_reason(lost, Move(0, parse_card("2S")))
    won = positions(GAME, GAME.parse(ROUND_THE_CLOCK))[-1]
    assert "face up already" in GAME.illegal_reason(won, Move(12, parse_card("AS")))


@pytest.mark.parametrize("bad", ["", "7X", "move", "1010"])
def test_unreadable_move_text_is_invalid(bad: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(GAME.deal(1), bad)


def test_twin_rejects_a_card_outside_its_deck_as_a_move() -> None:
    twin = TheClock(ranks=3, suits=2)
    with pytest.raises(InvalidMoveError):
        twin.parse_move(twin.deal(1), "KS")


# -- three verdicts agree --------------------------------------------------------------------


def verdicts(game: TheClock, state: State, cpsat: bool = True) -> set[bool]:
    """Return the set of verdicts (True = won) of every method on `state`."""
    found = {play_out(game, state)[0], game.knuth_verdict(state), game.knuth_verdict_networkx(state)}
    search = dfs(game, state)
    found.add(search.status is Status.WON)
    if cpsat:
        found.add(cpsat_solve(game, state, Budget(seconds=30)).status is Status.WON)
    return found


def test_play_dfs_and_knuth_agree_on_200_numbered_deals() -> None:
    wins = 0
    for number in range(1, 201):
        (won,) = verdicts(GAME, GAME.deal(number), cpsat=False)
        wins += won
    assert 5 < wins < 35


def test_cpsat_agrees_on_20_numbered_deals() -> None:
    for number in list(range(1, 11)) + [12, 51, 58, 63, 111, 150, 162, 171, 184, 206]:
        assert len(verdicts(GAME, GAME.deal(number))) == 1, number


@pytest.mark.slow
def test_cpsat_agrees_on_200_numbered_deals() -> None:
    for number in range(1, 201):
        assert len(verdicts(GAME, GAME.deal(number))) == 1, number


def test_knuth_holds_from_every_position_of_a_play() -> None:
    for number in (1, 2, WON_DEAL, 51):
        for state in positions(GAME, GAME.deal(number)):
            assert len(verdicts(GAME, state, cpsat=False)) == 1


def test_cpsat_works_from_positions_in_play() -> None:
    for number in (2, WON_DEAL):
        history = positions(GAME, GAME.deal(number))
        for state in history[1::7] + [history[-1]]:
            assert len(verdicts(GAME, state)) == 1


def test_cpsat_win_is_the_verified_play() -> None:
    state = GAME.deal(WON_DEAL)
    result = cpsat_solve(GAME, state)
    assert result.status is Status.WON and len(result.moves) == 52
    assert result.moves == dfs(GAME, state).moves
    assert GAME.is_won(replay(GAME, state, result.moves))


def test_cpsat_out_of_time_is_unknown_never_lost() -> None:
    result = cpsat_solve(GAME, GAME.deal(WON_DEAL), Budget(seconds=1e-9))
    assert result.status in (Status.UNKNOWN, Status.WON)
    if result.status is Status.UNKNOWN:
        assert result.stopped_by == "seconds"


def multiset_permutations(items: list[int]) -> Iterator[tuple[int, ...]]:
    """Yield each distinct ordering of `items` once (not n! orderings with repeats)."""
    counts = Counter(items)
    size = len(items)

    def extend(prefix: list[int]) -> Iterator[tuple[int, ...]]:
        if len(prefix) == size:
            yield tuple(prefix)
            return
        for item in sorted(counts):
            if counts[item]:
                counts[item] -= 1
                prefix.append(item)
                yield from extend(prefix)
                prefix.pop()
                counts[item] += 1

    return extend([])


def rank_arrangements(game: TheClock) -> list[State]:
    """Return one deal per distinct arrangement of ranks (suits dealt in order)."""
    ranks = [r for r in range(1, game.ranks + 1) for _ in range(game.suits)]
    deals = []
    for order in multiset_permutations(ranks):
        next_suit = dict.fromkeys(range(1, game.ranks + 1), 0)
        cards = []
        for r in order:
            cards.append(13 * next_suit[r] + r - 1)
            next_suit[r] += 1
        deals.append(game.from_order(cards))
    return deals


def test_every_ordering_of_a_small_twin_agrees_and_wins_exactly_one_in_ranks() -> None:
    twin = TheClock(ranks=3, suits=2)
    wins = 0
    orderings = list(itertools.permutations(twin.deck()))
    assert len(orderings) == 720
    for order in orderings:
        (won,) = verdicts(twin, twin.from_order(list(order)), cpsat=False)
        wins += won
    assert Fraction(wins, len(orderings)) == Fraction(1, 3)


def test_cpsat_agrees_on_every_rank_arrangement_of_a_small_twin() -> None:
    twin = TheClock(ranks=3, suits=2)
    deals = rank_arrangements(twin)
    assert len(deals) == 90
    wins = sum(verdicts(twin, state) == {True} for state in deals)
    assert all(len(verdicts(twin, state, cpsat=False)) == 1 for state in deals)
    assert Fraction(wins, len(deals)) == Fraction(1, 3)


@pytest.mark.parametrize("ranks, suits", [(2, 4), (3, 3), (4, 2), (5, 1),
                                          pytest.param(4, 3, marks=pytest.mark.slow)])
def test_knuth_win_share_is_exactly_one_in_ranks(ranks: int, suits: int) -> None:
    twin = TheClock(ranks=ranks, suits=suits)
    deals = rank_arrangements(twin)
    wins = 0
    for state in deals:
        won = twin.knuth_verdict(state)
        assert won == play_out(twin, state)[0]
        wins += won
    assert Fraction(wins, len(deals)) == Fraction(1, ranks)


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(DECK)))
def test_knuth_agrees_with_play_on_any_shuffle(order: list[int]) -> None:
    state = GAME.from_order(order)
    assert play_out(GAME, state)[0] == GAME.knuth_verdict(state) == GAME.knuth_verdict_networkx(state)


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_win_share_of_13000_numbered_deals_is_one_in_thirteen() -> None:
    wins = sum(GAME.knuth_verdict(GAME.deal(number)) for number in range(1, 13001))
    low, high = wilson(wins, 13000)
    assert low < 1 / 13 < high


# -- known answers --------------------------------------------------------------------------


def known_answers() -> list[dict[str, str]]:
    entries, entry = [], {}
    for line in (DATA / "known.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if entry:
                entries.append(entry)
            entry = {}
            continue
        field, value = line.split(None, 1)
        entry[field] = value
    if entry:
        entries.append(entry)
    return entries


@pytest.mark.parametrize("entry", known_answers(), ids=lambda e: e["id"])
def test_known_answer(entry: dict[str, str]) -> None:
    state = GAME.deal(int(entry["deal"]))
    won, turned, _ = play_out(GAME, state)
    assert ("won" if won else "lost") == entry["status"]
    assert turned == int(entry["turned"])
    assert verdicts(GAME, state) == {entry["status"] == "won"}
