"""Bridge Solitaire: the rule text's worked hands, hand-computed scores, the trick rules,
the text format and the play's search on hands small enough to check by hand."""
from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from games.bridge_solitaire import (BID, GAME, HOUSE, KEEP_MOVE, NOTRUMP, PASS, PLAY, PLAYER,
                                    Contract, Move, best_play, blind_bid, blind_card, blind_keep,
                                    blind_score, card_name, contract_options, declarer_score,
                                    hand_score, house_bid, max_tricks, notrump_allowed,
                                    player_bids, read_card, resolve, search_deal,
                                    score_row, unknown_samples, winning_tricks)
from games._bridge_play import Tricks
from solver.app.analyze import solve
from solver.game import DealError, DealProblem, InvalidMoveError, Status
from solver.search import Budget
from solver.verify import replay
from symmetry import NO_SYMMETRY


# -- symmetries (tests/test_contract.py checks the key against them) --------------

# the key is the whole position: no two choices, bids or lines of play are alike
SYMMETRY = NO_SYMMETRY



def cards(text: str) -> list[int]:
    found = [read_card(t) for t in text.split()]
    assert None not in found
    out: list[int] = []
    for c in found:
        assert c is not None
        out.append(53 if c == 52 and 52 in out else c)
    return out


# the rule text's two worked hands, after the choice
EXAMPLE_1 = cards("AC KC QC JC TC 8C QH 8H 7H 9S 4S 3D JK")
EXAMPLE_2 = cards("AH QH TH 3H 2H 3D KC 4C 3C AS 9S 3S JK")


def test_the_worked_hands_house_bids_pass_and_one_diamond():
    assert [winning_tricks(EXAMPLE_1, s) for s in range(4)] == [5, 0, 1, 0]
    assert house_bid(EXAMPLE_1) is None
    assert [winning_tricks(EXAMPLE_2, s) for s in range(4)] == [1, 0, 3, 1]
    assert house_bid(EXAMPLE_2) == (1, 1)


def test_house_bid_ties_go_to_the_lowest_suit_and_a_weak_hand_bids_high():
    weak = cards("2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S 5S")
    assert house_bid(weak) == (6, 0)           # no winner; C, D, H all of length 3
    assert player_bids(weak)[0] == (6, 1)      # overcalls start at 6D
    assert (7, NOTRUMP) in player_bids(weak) and notrump_allowed(weak)


def test_player_bids_over_a_pass_include_every_suit_bid_and_notrump_only_by_shape():
    assert house_bid(EXAMPLE_1) is None
    bids = player_bids(EXAMPLE_1)
    assert bids[0] == (1, 0) and len(bids) == 28 and not notrump_allowed(EXAMPLE_1)
    assert notrump_allowed(cards("AC KC QC AD KD QD AH KH QH AS KS QS JK"))
    assert notrump_allowed(cards("AC KC QC AD KD QD AH KH QH AS KS JK JK"))
    assert not notrump_allowed(cards("AC KC QC JC AD KD QD AH KH QH AS KS JK"))


def test_the_first_worked_hand_scores_290():
    # 1C doubled made with 7 tricks: trick points 20 x 2 = 40 (under 100: a part score),
    # 50 insult, 50 part-score bonus, 150 for the five club honours: 40 + 50 + 50 + 150
    assert hand_score(EXAMPLE_1, Contract(1, 0, True, 2), 7) == 290
    # vulnerable: the part-score bonus and the insult stay 50
    assert hand_score(EXAMPLE_1, Contract(1, 0, True, 2), 7, vulnerable=True) == 290
    # redoubled: 20 x 4 = 80, still a part score: 80 + 100 insult + 50 + 150
    assert hand_score(EXAMPLE_1, Contract(1, 0, True, 4), 7) == 380


@pytest.mark.parametrize("level, strain, doubling, tricks, vulnerable, points", [
    (1, NOTRUMP, 1, 7, False, 90),         # 40 + 50 part score
    (2, 0, 1, 9, False, 110),              # 40 + 50 + one overtrick 20
    (1, 2, 1, 11, False, 200),             # 30 + 50 + four overtricks 4 x 30
    (3, NOTRUMP, 1, 9, False, 400),        # 100 + 300 game
    (3, NOTRUMP, 1, 9, True, 600),         # 100 + 500 game vulnerable
    (3, NOTRUMP, 1, 10, False, 430),       # 100 + 300 + one overtrick 30
    (4, 2, 1, 10, False, 420),             # 120 + 300
    (5, 0, 1, 11, False, 400),             # 100 + 300
    (4, 0, 1, 10, False, 130),             # 80 + 50: four clubs is a part score
    (2, 2, 2, 8, False, 470),              # 2H doubled: 120 (a game) + 300 + 50 insult
    (2, 2, 2, 10, False, 670),             # 120 + 300 + 2 x 100 doubled overtricks + 50
    (2, 2, 2, 10, True, 1070),             # 120 + 500 + 2 x 200 + 50
    (1, 0, 4, 7, False, 230),              # 1C redoubled: 80 + 50 part score + 100 insult
    (6, 3, 1, 12, False, 980),             # 180 + 300 + small slam 500
    (6, 3, 1, 12, True, 1430),             # 180 + 500 + 750
    (7, NOTRUMP, 4, 13, False, 2280),      # (40 + 6 x 30) x 4 + 300 + 100 insult + 1000
    (4, 2, 1, 8, False, -100),             # 2 down undoubled
    (4, 2, 1, 8, True, -200),
    (4, 2, 2, 6, False, -800),             # 100 + 200 + 200 + 300
    (4, 2, 2, 7, True, -800),              # 200 + 300 + 300
    (4, 2, 4, 6, True, -2200),             # (200 + 3 x 300) x 2
    (1, 0, 4, 6, False, -200),
])
def test_declarer_scores_computed_by_hand(level, strain, doubling, tricks, vulnerable, points):
    assert declarer_score(level, strain, doubling, tricks, vulnerable) == points


def test_the_score_never_falls_as_the_player_takes_more_tricks():
    """The best-play search asks each contract only for the fewest tricks that beat the
    best found, and takes contracts by their 13-trick score: sound only while the
    player's score rises with the player's tricks, declaring or defending. Every contract
    at every doubling, both vulnerabilities: and each row jumps where the contract is
    made (the contract bonus), 13 tricks being the most."""
    for level in range(1, 8):
        for strain in range(5):
            for doubling in (1, 2, 4):
                for vulnerable in (False, True):
                    for declares in (True, False):
                        row = score_row(Contract(level, strain, declares, doubling), vulnerable)
                        assert all(a <= b for a, b in zip(row, row[1:])), (level, strain)
                        assert row[13] == max(row)
                    made = declarer_score(level, strain, doubling, level + 6, vulnerable)
                    down = declarer_score(level, strain, doubling, level + 5, vulnerable)
                    assert made >= 20 + 50 and down < 0     # the least made: 1C, 20 + 50


def test_deal_7001_bids_the_game_it_makes_instead_of_one_heart_with_overtricks():
    # Keeping 5D KD AH 9H TH KH the player's 13 cards are 4C 6C QC / 5D KD / AH 2H 9H TH
    # JH KH / 2S 9S: the house counts 7 winning tricks and passes, so the player bids; no
    # joker, no doubling; hearts honours A K J T: 100. The play takes 11 tricks in hearts.
    # Without the contract bonus 1H made with 11 tricks scored 30 + 4 x 30 + 100 = 250, as
    # much as 4H made with 11 (120 + 30 + 100). Now:
    #   1H, 11 tricks: 30 + 50 part score + 4 x 30 + 100 honours = 300
    #   4H, 11 tricks: 120 + 300 game + 30 + 100 honours = 550 (5H: 150 + 300 + 100, equal)
    #   6H needs 12: one down, -50 + 100 honours = 50
    state = GAME.deal(7001)
    score, kept, bid, tricks = best_play(state.face_up, state.face_down, state.stock)
    assert (score, bid, tricks) == (550, (4, 2), 11)
    assert " ".join(card_name(c) for c in kept) == "5D KD AH 9H TH KH"
    hand = bytes(sorted(kept + state.face_down))
    assert house_bid(hand) is None and max_tricks(hand, state.stock, 0, HOUSE, 2) == 11
    assert hand_score(hand, Contract(1, 2, True, 1), 11) == 300
    assert hand_score(hand, Contract(4, 2, True, 1), 11) == 550
    assert hand_score(hand, Contract(5, 2, True, 1), 11) == 550
    assert hand_score(hand, Contract(6, 2, True, 1), 11) == 50


def test_a_defended_contract_scores_the_undertricks_for_the_player_and_honours_count():
    # house 2D doubled (one joker), player takes 8: house 5 of 8, 3 down = 100 + 200 + 200
    assert hand_score(EXAMPLE_2, Contract(2, 1, False, 2), 8) == 500
    # house 1D doubled made with 7 tricks: 40 + 50 insult + 50 part score to the house;
    # the hearts honours do not count in diamonds
    assert hand_score(EXAMPLE_2, Contract(1, 1, False, 2), 6) == -140
    # house 4D doubled made: 160, a game: 160 + 300 + 50 insult to the house
    assert hand_score(EXAMPLE_2, Contract(4, 1, False, 2), 3) == -510
    four_aces = cards("AC AD AH AS 2C 3C 4C 2D 3D 2H 3H 2S 3S")
    assert hand_score(four_aces, Contract(1, NOTRUMP, True, 1), 7) == 40 + 50 + 150


def test_trick_rules_trumps_notrump_limit_and_jokers():
    stock = bytes(cards("5D 7D AH 9C 4C 2S"))
    nine = cards("9C")[0]
    # player leads 9C in hearts: 5D, 7D out of play, AH trumps it: the house wins
    assert resolve(stock, 0, PLAYER, nine, 2) == (3, False)
    # in clubs the house turns to 9C (ties never happen: 9C is the player's... use 8C)
    eight = cards("8C")[0]
    assert resolve(stock, 0, PLAYER, eight, 0) == (4, False)      # 9C beats 8C
    # in notrump the house turns at most four: 5D 7D AH 9C -> 9C is the fourth, legal
    assert resolve(stock, 0, PLAYER, cards("TC")[0], NOTRUMP) == (4, True)
    # a spade lead in notrump: four turned, none a spade: the player wins
    assert resolve(stock, 0, PLAYER, cards("3S")[0], NOTRUMP) == (4, True)
    # house leads 5D; a trump (hearts) from a void player wins, a joker loses
    assert resolve(stock, 0, HOUSE, cards("2H")[0], 2) == (1, True)
    assert resolve(stock, 0, HOUSE, 52, 2) == (1, False)
    jokers = bytes([52, 4])
    assert resolve(jokers, 0, HOUSE, 53, 2) == (1, True)          # the other joker wins
    assert resolve(jokers, 0, HOUSE, cards("AS")[0], 2) == (1, False)
    assert resolve(jokers, 0, PLAYER, cards("AS")[0], 2) == (1, False)   # joker answers


def test_max_tricks_on_small_hands_checked_by_hand():
    # spades trump, house leads KH: the player (AH, 2S) takes it with AH, leads 2S, the
    # house turns 3S: 1 trick. Ruffing KH with 2S instead is illegal (the player has a
    # heart) so 1 is the most.
    hand = bytes(sorted(cards("AH 2S")))
    stock = bytes(cards("KH 3S 4D 5D"))
    assert max_tricks(hand, stock, 0, HOUSE, 3) == 1
    # led by the player, stock KH 4D 5D 6D 7D 3S: AH wins (KH answers); then 2S: in
    # notrump the house turns 4D 5D 6D 7D, none legal, and stops: the player wins (2);
    # with spades trump it turns on to 3S, which wins (1). 2S first loses to 3S either way
    # in spades; in notrump 2S first wins too (four diamonds), then AH to KH: still 2.
    stock = bytes(cards("KH 4D 5D 6D 7D 3S"))
    assert max_tricks(hand, stock, 0, PLAYER, NOTRUMP) == 2
    assert max_tricks(hand, stock, 0, PLAYER, 3) == 1
    # the stock runs out under a lead: that trick and the rest of the hand are the player's
    assert max_tricks(bytes(sorted(cards("2S 2H 2D"))), bytes(cards("3D")), 0, PLAYER, 0) == 3


def test_numbered_deals_and_played_positions_round_trip_and_the_notation_reads_back():
    for number in range(1, 30):
        state = GAME.deal(number)
        assert sorted(state.face_up + state.face_down + state.stock) == list(range(54))
        rng = random.Random(number)
        while True:
            assert GAME.parse(GAME.format(state)) == state, GAME.format(state)
            moves = GAME.moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            assert GAME.parse_move(state, GAME.notation(move)) == move
            state = GAME.play(state, move)
        assert GAME.is_over(state) and state.tricks + len(state.hand) <= 13


def test_the_deal_is_the_documented_shuffle():
    state = GAME.deal(1)
    assert " ".join(GAME.format(state).splitlines()[1:3]) == (
        "Face up: JS 3D 4H TD 6C 4C JK QH 7H 9S QS JD 5S "
        "Face down: 3C KH QC KD 7D TC 6D")


def test_jokers_face_up_must_be_kept_and_both_jokers_read_alike():
    state = GAME.deal(1)                                # JK is face up
    assert all(52 in move.cards for move in GAME.moves(state))
    assert len(GAME.moves(state)) == 792                # 5 of the other 12
    kept = GAME.parse_move(state, "keep JK TD QH 4H 5S JS")
    assert GAME.notation(kept) == "keep:TD+4H+QH+5S+JS+JK"
    assert GAME.parse_move(state, GAME.notation(kept)) == kept
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(state, "keep JK TD")


def test_a_pass_over_a_house_pass_is_not_offered():
    state = GAME.deal(1)
    for move in GAME.moves(state)[:50]:
        after = GAME.play(state, move)
        offered = GAME.moves(after)
        passing = Move(2) in offered
        assert passing == (house_bid(GAME.full_hand(after)) is not None)


@pytest.mark.parametrize("text, problem", [
    ("", DealProblem.EMPTY),
    ("Face up: JS\n", DealProblem.WRONG_PILE_COUNT),
    (GAME.format(GAME.deal(1)).replace("3D", "XD", 1), DealProblem.UNREADABLE_CARD),
    (GAME.format(GAME.deal(1)).replace("3D", "JS", 1), DealProblem.DUPLICATE_CARD),
    ("Deal: 1\nWhat: 3\n", DealProblem.BAD_LINE),
    # deal 1 keeping these, the house bids 2S: 2S itself and 3NT (4-3-3-2 with a joker)
    # are not open to the player
    (GAME.format(GAME.deal(1)) + "Kept: JK TD 4H QH 5S JS\nContract: 2S\n", DealProblem.BAD_LINE),
    (GAME.format(GAME.deal(1)) + "Kept: JK TD 4H QH 5S JS\nContract: 3NT\n", DealProblem.BAD_LINE),
    (GAME.format(GAME.deal(1)) + "Kept: JK TD 4H QH 5S 9C\n", DealProblem.BAD_LINE),
])
def test_bad_text_is_refused_with_its_problem(text, problem):
    with pytest.raises(DealError) as caught:
        GAME.parse(text)
    assert caught.value.problems & problem and "\n" not in str(caught.value)


def _through_the_rules(game: Any, state: Any) -> int:
    """Return the player's most tricks from `state` by trying every line of ``moves``."""
    @functools.cache
    def most(position: Any) -> int:
        moves = game.moves(position)
        if not moves:
            return int(position.tricks + len(position.hand))
        return max(most(game.play(position, move)) for move in moves)
    return most(state)


def test_the_trick_search_agrees_with_every_line_of_play_through_the_rules():
    """Mid-game positions of numbered deals (a random choice, bid and six tricks): the
    search, with its tables and interchangeable cards, finds what trying every legal line
    through ``moves`` and ``play`` finds; the target question agrees with it."""
    for number in range(1, 7):
        rng = random.Random(number)
        state = GAME.deal(number)
        state = GAME.play(state, rng.choice(GAME.moves(state)))
        for bid in rng.sample(GAME.moves(state), 2):
            position = GAME.play(state, bid)
            for _ in range(6):
                position = GAME.play(position, rng.choice(GAME.moves(position)))
            contract = GAME.contract(position)
            assert contract is not None
            most = max_tricks(position.hand, position.stock, position.played, position.lead,
                              contract.strain)
            assert position.tricks + most == _through_the_rules(GAME, position)
            assert max_tricks(position.hand, position.stock, position.played, position.lead,
                              contract.strain, most) == most
            assert max_tricks(position.hand, position.stock, position.played, position.lead,
                              contract.strain, most + 1) == most


def test_deal_one_best_is_to_keep_a_weak_hand_and_defend_the_house_bid():
    # found by the search and, before the bounds were added, by trying every contract of
    # every choice to the end: 1,100. Two choices tie there. Keeping 6C 3D 5S 9S JS JK the
    # house counts 2 winning tricks and bids 4H, doubled by the face-up joker; the player
    # defends and takes 8 tricks, the house 5 of its 10: 5 down doubled = 100 + 200 + 200
    # + 300 + 300. Keeping 4H for 5S, the house bids 3H and the player takes 9: the same.
    state = GAME.deal(1)
    score, kept, bid, tricks = best_play(state.face_up, state.face_down, state.stock)
    assert (score, bid, tricks) == (1100, (0, 0), 8)
    assert " ".join(card_name(c) for c in kept) == "6C 3D 5S 9S JS JK"
    assert house_bid(kept + state.face_down) == (4, 2)
    other = bytes(sorted(cards("6C 3D 4H 9S JS") + [52]))
    assert house_bid(other + state.face_down) == (3, 2)
    assert max_tricks(bytes(sorted(other + state.face_down)), state.stock, 0, PLAYER, 2) == 9


def test_every_step_of_random_play_passes_the_rule_check_and_broken_ones_do_not():
    for number in range(1, 6):
        rng = random.Random(number)
        state = GAME.deal(number)
        while GAME.moves(state):
            for move in GAME.moves(state):
                assert GAME.illegal_reason(state, move) == "", GAME.notation(move)
                assert GAME.describe(state, move)
            state = GAME.play(state, rng.choice(GAME.moves(state)))
    state = GAME.deal(1)                                   # JK face up
    assert "joker" in GAME.illegal_reason(state, GAME.parse_move(state, "keep TD 4H QH 5S JS 9S"))
    kept = GAME.play(state, GAME.parse_move(state, "keep JK TD 4H QH 5S JS"))
    assert house_bid(GAME.full_hand(kept)) == (2, 3)        # 2S: the lowest overcall is 3C
    assert player_bids(GAME.full_hand(kept))[0] == (3, 0)
    assert "overcall" in GAME.illegal_reason(kept, GAME.parse_move(kept, "bid 2H"))
    assert "notrump" in GAME.illegal_reason(kept, GAME.parse_move(kept, "bid 3NT"))
    bid = GAME.play(kept, GAME.parse_move(kept, "bid 3C"))
    assert card_name(bid.stock[0]) == "AS"                  # the house leads AS; 5S JS held
    assert "follow suit" in GAME.illegal_reason(bid, GAME.parse_move(bid, "QH"))
    assert GAME.illegal_reason(bid, GAME.parse_move(bid, "5S")) == ""
    assert "not in the hand" in GAME.illegal_reason(bid, GAME.parse_move(bid, "AS"))
    assert GAME.describe(bid, GAME.parse_move(bid, "5S")) == (
        "trick 1: house leads AS, player plays 5S: house wins; player 0, house 1")


def _most_by_contract(hand: bytes, stock: bytes, tables: dict[int, Tricks]) -> int:
    """Return a hand's best score by trying every contract open to it to the end (the
    most tricks of each from `tables`, a trick table per trump of the deal's cards)."""
    best = None
    for _, contract in contract_options(hand):
        leader = HOUSE if contract.player_declares else PLAYER
        tricks = tables[contract.strain].most(hand, 0, leader)
        value = hand_score(hand, contract, tricks)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def test_the_bounded_search_finds_what_trying_every_contract_of_every_choice_finds():
    """Branch and bound (choices by falling ceiling, contracts asked only for the tricks
    that beat the best found) against every contract of every choice played out in full,
    on a random 40 of each deal's choices; and one choice alone (the position after keep)."""
    for number in range(1, 3):
        state = GAME.deal(number)
        choices = [move.cards for move in random.Random(number).sample(GAME.moves(state), 40)]
        pool = bytes(sorted(state.face_up + state.face_down))
        tables = {strain: Tricks(pool, state.stock, strain) for strain in range(5)}
        every = {kept: _most_by_contract(bytes(sorted(kept + state.face_down)), state.stock,
                                         tables) for kept in choices}
        best, whole = search_deal(state.face_up, state.face_down, state.stock, choices=choices)
        assert whole and best is not None
        assert best.score == max(every.values()) == every[best.kept]
        kept = choices[0]
        alone, _ = search_deal(state.face_up, state.face_down, state.stock, choices=[kept])
        assert alone is not None and alone.score == every[kept]


@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 5, 16, 7001])
def test_the_bounded_search_finds_the_best_of_every_contract_of_every_choice(number):
    """Brute force with the new scoring: every choice of kept cards, every contract open
    to it (each bid, and the pass), each played out to its most tricks by a trick table
    (exact, checked against the rules above), the best score of all; the bounded search
    finds the same. Deal 1 defends, 5 bids a grand slam in notrump, 16 a part score, 7001
    a game (the module's search picks contracts by falling 13-trick score)."""
    state = GAME.deal(number)
    pool = bytes(sorted(state.face_up + state.face_down))
    tables = {strain: Tricks(pool, state.stock, strain) for strain in range(5)}
    every = []
    for move in GAME.moves(state):
        hand = bytes(sorted(move.cards + state.face_down))
        for bid, contract in contract_options(hand):
            leader = HOUSE if contract.player_declares else PLAYER
            tricks = tables[contract.strain].most(hand, 0, leader)
            every.append((hand_score(hand, contract, tricks), bid))
    best = best_play(state.face_up, state.face_down, state.stock)
    assert best[0] == max(every)[0]
    assert (best[0], best[2]) in every


def test_solve_from_mid_game_positions_matches_every_line_and_replays():
    """The engine's scored strategy hands Bridge Solitaire to its own search: from random
    positions with 5 cards left its score is the best of every line through the rules,
    its play reaches it, won exactly when positive, and the best is proven."""
    seen = set()
    for number in range(1, 13):
        rng = random.Random(number)
        position = GAME.deal(number)
        while len(position.hand) != 5 or position.bid is None:
            moves = GAME.moves(position)
            defend = [move for move in moves if move == Move(PASS)]
            position = GAME.play(position, rng.choice(defend if number % 2 and defend else moves))
        best_points = _best_points_through_the_rules(GAME, position)
        result = solve(GAME, position)
        assert result.score == best_points and result.optimal
        assert GAME.points(replay(GAME, position, result.moves)) == best_points
        assert result.status is (Status.WON if best_points > 0 else Status.LOST)
        seen.add(result.status)
    assert seen == {Status.WON, Status.LOST}


def _best_points_through_the_rules(game: Any, state: Any) -> int:
    @functools.cache
    def best(position: Any) -> int:
        moves = game.moves(position)
        if not moves:
            return int(game.points(position))
        return max(best(game.play(position, move)) for move in moves)
    return best(state)


def test_a_deal_solves_to_its_best_score_with_a_line_and_a_budget_gives_unknown():
    state = GAME.deal(1)
    result = solve(GAME, state)
    assert (result.status, result.score, result.optimal) == (Status.WON, 1100, True)
    assert len(result.moves) == 15                       # keep, pass, 13 cards
    assert GAME.points(replay(GAME, state, result.moves)) == 1100
    cut = solve(GAME, state, budget=Budget(max_states=1))
    assert cut.status is Status.UNKNOWN and not cut.optimal and cut.stopped_by == "max-states"


def test_hidden_card_samples_deal_the_unseen_cards_and_blind_play_follows_the_rules():
    state = GAME.deal(1)                                   # one joker face up
    samples = unknown_samples(state.face_up, 5, seed=1)
    assert len(set(samples)) == 5
    for face_down, stock in samples:
        assert (len(face_down), len(stock)) == (7, 34)
        assert sorted(state.face_up + face_down + stock) == list(range(54))
        for keep in ("low", "high"):
            kept = blind_keep(state.face_up, keep)
            assert 52 in kept and len(kept) == 6
            position = state._replace(face_down=face_down, stock=stock)
            position = GAME.play(position, Move(KEEP_MOVE, kept))
            bid = GAME.moves(position)[-1]                 # pass when the house bids
            if house_bid(GAME.full_hand(position)) is not None:
                assert bid == Move(PASS)
            position = GAME.play(position, bid)
            contract = GAME.contract(position)
            assert contract is not None
            while GAME.moves(position):
                card = blind_card(position.hand, stock, position.played, position.lead,
                                  contract.strain)
                step = Move(PLAY, bytes((card,)))
                assert GAME.illegal_reason(position, step) == ""
                position = GAME.play(position, step)
            if house_bid(GAME.full_hand(position)) is not None:
                assert GAME.points(position) == blind_score(state.face_up, face_down, stock, keep)
            # the same choice and bid with the best play: never less than the rule's play
            assert blind_score(state.face_up, face_down, stock, keep, see_stock=True) >= \
                blind_score(state.face_up, face_down, stock, keep)
    # face up: JS 3D 4H TD 6C 4C JK QH 7H 9S QS JD 5S: the joker and ranks 3, 4, 4, 5, 6;
    # the highest: the joker, the ace-less top five Q Q J J T
    low, high = blind_keep(state.face_up, "low"), blind_keep(state.face_up, "high")
    assert " ".join(card_name(c) for c in low) == "4C 6C 3D 4H 5S JK"
    assert " ".join(card_name(c) for c in high) == "TD JD QH JS QS JK"


def test_the_rule_player_ends_the_hand_as_the_rules_played_step_by_step_end_it():
    """``by_rule`` (the blind hint's playout) from the start scores what ``blind_score``
    scores keeping the highest cards, and from positions along random lines of play it
    ends where the same rules, played as the game's own steps, end."""
    rng = random.Random(4)
    for deal in range(1, 21):
        state = GAME.deal(deal)
        end = GAME.by_rule(state)
        assert GAME.is_over(end)
        assert GAME.points(end) == blind_score(state.face_up, state.face_down, state.stock, "high")
        position = state
        while not GAME.is_over(position):
            position = GAME.play(position, rng.choice(GAME.moves(position)))
            if GAME.is_over(position):
                break
            stepped = position
            if stepped.bid is None:          # the bid by rule, as the game's step
                level, strain = blind_bid(GAME.full_hand(stepped))
                stepped = GAME.play(stepped, Move(PASS) if level == 0 else Move(BID, b"", level, strain))
            contract = GAME.contract(stepped)
            assert contract is not None
            while not GAME.is_over(stepped):
                card = blind_card(stepped.hand, stepped.stock, stepped.played, stepped.lead,
                                  contract.strain)
                step = Move(PLAY, bytes((card,)))
                assert GAME.illegal_reason(stepped, step) == ""
                stepped = GAME.play(stepped, step)
            assert GAME.by_rule(position) == stepped


def test_a_blind_hint_values_each_plan_by_the_rule_players_score_in_its_worlds():
    """The game declares a playout (``blind_playout``), so a plan's expected score is the
    mean of ``by_rule``'s scores in the plan's worlds, not of each world's best."""
    from solver.app.blind import Settings, blind_hint, world
    from solver.view import Sighted

    state = GAME.deal(2)
    state = GAME.play(state, Move(KEEP_MOVE, blind_keep(state.face_up, "high")))
    position = Sighted.of(GAME, GAME.deal(2)).play(Move(KEEP_MOVE, state.kept))
    hint = blind_hint(position, Settings(samples=200, seed=3))
    masked = position.masked()
    assert len(hint.estimates) == len(GAME.moves(state))         # every bid and the pass
    for estimate in hint.estimates:
        assert estimate.samples >= 4
        scores = []
        for index in range(estimate.samples):
            after = GAME.play(world(masked, 3, index), estimate.steps[0])
            scores.append(GAME.points(GAME.by_rule(after)))
        assert estimate.mean_score == pytest.approx(sum(scores) / len(scores))
        assert estimate.won == sum(s > 0 for s in scores)
        assert estimate.undecided == 0


# -- positions the rules cannot reach, and texts that once crashed the parser ------------

DEAL_1 = GAME.format(GAME.deal(1))
# deal 1 keeping JK TD 4H QH 5S JS, the player bids 3C over the house's 2S; the house leads
BID_3C = DEAL_1 + "Kept: JK TD 4H QH 5S JS\nContract: 3C\n"


def _refusal(text: str) -> DealError:
    with pytest.raises(DealError) as caught:
        GAME.parse(text)
    assert "\n" not in str(caught.value)
    return caught.value


@pytest.mark.parametrize("text, phrase", [
    # a third joker (once StopIteration) and a missing one (once IndexError naming it)
    (DEAL_1.replace("Face up: JS 3D", "Face up: JS JK"), "3 jokers: a deal has 2"),
    (DEAL_1.replace("4C JK QH", "4C 3D QH"), "missing card JK"),
    # digits int() refuses or str.isdigit() alone accepts (once ValueError), and huge ones
    (DEAL_1.replace("Deal: 1", "Deal: ³"), "deal '³': expected a whole number"),
    (DEAL_1.replace("Deal: 1", "Deal: ٣"), "deal '٣': expected a whole number"),
    (BID_3C + "Played: " + "9" * 30 + "\n", "expected a whole number"),
    # play lines without the bidding (once dropped without a word), a bid without a choice
    (DEAL_1 + "Played: 5\n", "Played without a Contract line"),
    (DEAL_1 + "Kept: JK TD 4H QH 5S JS\nHand: TD\nTricks: 1\n",
     "Hand and Tricks without a Contract line"),
    (DEAL_1 + "Contract: 3C\n", "a Contract line without a Kept line"),
    # a card kept or held twice (once read as a hand of 13 with a card twice)
    (DEAL_1 + "Kept: JK TD TD QH 5S JS\n", "kept: TD twice"),
    (BID_3C + "Hand: 3C 3C QC 6D 7D TD KD 4H QH KH 5S JS JK\n", "hand: 3C twice"),
    # jokers the player does not have (once dropped: a hand of 12, a choice of 5)
    (DEAL_1 + "Kept: JK JK TD 4H QH 5S\n", "kept: 2 jokers, the face-up cards hold 1 joker"),
    (BID_3C + "Hand: JK JK TC QC 6D 7D TD KD 4H QH KH 5S JS\n", "hand: 2 jokers"),
    (GAME.format(GAME.deal(2)) + "Kept: JK 9C 5H TH 2S 3S\n", "the face-up cards hold no joker"),
    (BID_3C + "Hand: 9C TC QC 6D 7D TD KD 4H QH KH 5S JS JK\n",
     "hand: 9C is not one of the kept or face-down cards"),
])
def test_texts_that_crashed_or_were_misread_are_refused_in_one_line(text, phrase):
    assert phrase in str(_refusal(text))


@pytest.mark.parametrize("play, phrase", [
    # the house leads the first trick against the player's 3C: not the player
    ("Lead: player\n", "no card is played yet (Played: 0, Tricks: 0, Lead: player)"),
    ("Played: 3\n", "no card is played yet"),
    # the hand and the tricks do not add up: one card gone, two tricks
    ("Played: 1\nHand: TC QC 6D 7D TD KD 4H QH KH 5S JS JK\nTricks: 2\n",
     "tricks 2: the player has played 1 card"),
    # two cards gone, but one stock card used: each trick uses one at least
    ("Played: 1\nHand: QC 6D 7D TD KD 4H QH KH 5S JS JK\nTricks: 0\n",
     "played 1: the 2 tricks played used at least 2 stock cards"),
    ("Played: 35\nHand: -\nTricks: 0\n", "played 35: the stock holds 34 cards"),
    # the house leads AS; the player follows with 5S or JS and loses (the house's AS):
    # the player cannot take that trick, nor lead the next
    ("Played: 1\nHand: 3C TC QC 6D 7D TD KD 4H QH KH JS JK\nTricks: 1\nLead: player\n",
     "no legal play of the 1 card gone from the hand ends at Played: 1, Tricks: 1"),
    # ... and cannot discard a heart on it (a spade is held: follow suit)
    ("Played: 1\nHand: 3C TC QC 6D 7D TD KD 4H KH 5S JS JK\nTricks: 0\nLead: house\n",
     "no legal play of the 1 card gone"),
])
def test_play_lines_the_rules_cannot_reach_are_refused(play, phrase):
    assert phrase in str(_refusal(BID_3C + play))


def test_the_play_lines_read_are_exactly_the_positions_the_rules_reach():
    """Every position two cards into the play of three deals (by every legal line through
    ``moves``), each read back; and its neighbours (stock position, tricks, lead, one
    card of the hand changed) read exactly when some line reaches them too."""
    for number, choice in ((1, 0), (2, 100), (3, 200)):
        state = GAME.deal(number)
        state = GAME.play(state, GAME.moves(state)[choice])
        for bid in GAME.moves(state)[:1] + GAME.moves(state)[-1:]:     # a bid, a pass
            start = GAME.play(state, bid)
            reached = {start}
            frontier = {start}
            for _ in range(2):
                frontier = {GAME.play(p, m) for p in frontier for m in GAME.moves(p)}
                reached |= frontier
            for position in frontier:
                assert GAME.parse(GAME.format(position)) == position
                others = [position._replace(played=position.played + d) for d in (-1, 1, 2)]
                others += [position._replace(tricks=position.tricks + d) for d in (-1, 1)]
                others.append(position._replace(lead=1 - position.lead))
                others += [position._replace(hand=bytes(sorted(position.hand[1:] + bytes((c,)))))
                           for c in GAME.full_hand(position) if c not in position.hand]
                for other in others:
                    if other.played < 0 or other.tricks < 0:
                        continue
                    try:
                        GAME.parse(GAME.format(other))
                        read = True
                    except DealError:
                        read = False
                    assert read == (other in reached), GAME.format(other)


def test_the_command_line_gives_no_proven_best_for_a_position_the_rules_cannot_reach(tmp_path):
    from command_line import runner

    from solver.app.cli import app

    # the house's AS lead taken by the player: no line of play reaches it
    board = tmp_path / "taken.txt"
    board.write_text(BID_3C + "Played: 1\nHand: 3C TC QC 6D 7D TD KD 4H QH KH JS JK\n"
                     "Tricks: 1\nLead: player\n")
    said = runner.invoke(app, ["solve", "bridge-solitaire", str(board)])
    assert said.exit_code == 2 and "proven" not in said.output
    assert "no legal play of the 1 card gone from the hand" in said.output


# -- the bidding and the play, told step by step (solve --boards, hint) -----------------

def test_the_boards_tell_the_house_bid_the_contract_and_each_trick():
    state = GAME.deal(1)
    result = solve(GAME, state)
    told = []
    for step in result.moves:
        told.append(GAME.describe(state, step))
        state = GAME.play(state, step)
    assert told[0] == "the house counts 2 winning tricks (C 1, D 1, H 0, S 0) and bids 4H"
    assert told[1] == "the house declares 4H doubled, hearts trump; the player leads"
    # stock AS 9D KC AH 8H 8D JK ...: to KD the house turns AS (no diamond, no heart),
    # then 9D; to 3D, KC then AH, a trump
    assert told[2] == ("trick 1: player leads KD, house plays 9D after AS: player wins; "
                       "player 1, house 0")
    assert told[3] == ("trick 2: player leads 3D, house plays AH after KC: house wins; "
                       "player 1, house 1")
    assert told[4] == "trick 3: house leads 8H, player plays KH: player wins; player 2, house 1"
    assert told[-1] == "trick 13: player leads JK, house plays AC: house wins; player 8, house 5"
    state = GAME.deal(7001)
    keep = GAME.parse_move(state, "keep 5D KD AH 9H TH KH")
    assert GAME.describe(state, keep) == (
        "the house counts 7 winning tricks (C 1, D 1, H 5, S 0) and passes: the player must bid")
    kept = GAME.play(state, keep)
    assert GAME.describe(kept, GAME.parse_move(kept, "bid 4H")) == (
        "the house passed: the player declares 4H undoubled, hearts trump; the house leads")
    state = GAME.deal(1)                      # keeping these the house bids 2S; one joker
    kept = GAME.play(state, GAME.parse_move(state, "keep JK TD 4H QH 5S JS"))
    assert GAME.describe(kept, GAME.parse_move(kept, "bid 3C")) == (
        "over the house's 2S: the player declares 3C doubled, clubs trump; the house leads")


def test_each_trick_told_agrees_with_the_position_after_it():
    """Random play (notrump bid when open) of deals 1-40, 261 and 362: each step is told
    in one line under 100 characters; each card's names the trick's number, the winner
    and the running count the position after holds, the cards left counted as the
    player's when the stock is used up (deal 362), the stock running out under a lead
    (261) and notrump's four-card limit."""
    seen = set()
    for number in [*range(1, 41), 261, 362]:
        rng = random.Random(number)
        state = GAME.deal(number)
        while GAME.moves(state):
            moves = GAME.moves(state)
            notrump = [m for m in moves if m.kind == BID and m.strain == NOTRUMP]
            move = notrump[0] if notrump else rng.choice(moves)
            told = GAME.describe(state, move)
            after = GAME.play(state, move)
            assert len(told) < 100 and "\n" not in told, told
            if move.kind == PLAY:
                number_played = 13 - len(after.hand)
                lost = number_played - after.tricks
                assert told.startswith(f"trick {number_played}: ")
                winner = "player" if after.tricks > state.tricks else "house"
                assert f": {winner} wins; " in told
                left = len(after.hand) if GAME.is_over(after) else 0
                count = f"player {after.tricks + left}" + (f" ({left} left)" if left else "")
                assert told.endswith(f"{count}, house {lost}"), told
                seen |= {"left"} if left else set()
                if told.endswith("none legal: player wins; " + told.rpartition("; ")[2]):
                    seen.add("notrump")
                if "the stock runs out: player wins" in told:
                    seen.add("runs out")
            state = after
    assert seen == {"left", "notrump", "runs out"}


# -- the player's view ----------------------------------------------------------------

def test_the_view_hides_the_face_down_cards_until_the_choice_and_the_stock_unturned():
    from solver.view import Sighted

    state = GAME.deal(2)                            # a joker face down, the other in the stock
    position = Sighted.of(GAME, state)
    unseen = position.unseen()
    assert len(unseen.cards) == 41 and sorted(unseen.cards) == sorted(
        (state.face_down + state.stock).replace(b"\x35", b"\x34"))
    masked = position.masked().state
    assert masked.number == 0 and masked.face_up == state.face_up
    assert masked.face_down + masked.stock == bytes(sorted(state.face_down + state.stock))
    assert GAME.parse(GAME.format(masked)) == masked            # the jokers numbered in turn
    kept = position.play(GAME.moves(state)[0])
    assert len(kept.unseen().cards) == 34                       # the face-down cards shown
    assert kept.masked().state.face_down == state.face_down
    bid = next(m for m in GAME.moves(kept.state) if m.kind == BID)
    declared = kept.play(bid)                       # the house leads: its top card shows
    assert declared.state.lead == HOUSE and len(declared.unseen().cards) == 33
    assert declared.masked().state.stock[0] == state.stock[0]
    card = declared.steps()[0]
    after = declared.play(card)                     # the turned cards stay in sight
    turned = after.state.played
    assert after.masked().state.stock[:turned] == state.stock[:turned]


def test_worlds_with_both_jokers_unseen_are_uniform():
    """The last four stock cards hold both jokers: 12 worlds, each drawn alike (the
    jokers are alike; chi-square at the 0.1% level, 11 degrees of freedom)."""
    from solver.view import Sighted

    state = GAME.deal(6)                            # both jokers in the stock
    stock = bytes(c for c in state.stock if c < 52)
    stock = stock[:30] + b"\x34" + stock[30:31] + b"\x35" + stock[31:32]
    kept = GAME.play(state._replace(stock=stock), GAME.moves(state)[0])
    late = kept._replace(bid=(0, 0), played=30, lead=PLAYER)
    position = Sighted(GAME, late)
    assert sorted(position.unseen().cards) == sorted((stock[31], stock[33], 52, 52))
    rng = random.Random(7)
    counts: dict[bytes, int] = {}
    for _ in range(480):
        world = position.sample(rng)
        tail = world.stock[30:]
        assert sorted(tail) == sorted(stock[30:]) and tail.find(52) < tail.find(53)
        counts[tail] = counts.get(tail, 0) + 1
    assert len(counts) == 12
    assert sum((c - 40) ** 2 / 40 for c in counts.values()) < 31.27   # chi2(11) at 0.001
