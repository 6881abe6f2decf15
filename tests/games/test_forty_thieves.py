"""Forty Thieves: PySolFC's layout, text, moves, keys, the safe-move proof and small twins.

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path

import pytest

from conftest import random_play
from games.forty_thieves import (DRAW, FOUNDATION, GAME, REDEAL, WASTE, FortyThieves, Move,
                                 State)
from solver.cards import parse_card, pysol_deck_order
from solver.game import DealError, InvalidMoveError, Status, twins
from solver.search import Budget, dfs
from solver.verify import check_solution, replay_notation
from solver.view import Sighted
from symmetry import Symmetry, bag, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

SYMMETRY = Symmetry(
    lambda s, rng: s._replace(columns=tuple(shuffled(s.columns, rng))),
    lambda s: (bag(s.columns), s.foundations, s.waste, s.stock))


DATA = Path(__file__).resolve().parents[2] / "data" / "forty_thieves"
CLASSIC = FortyThieves(redeal=False)
# small twins: 2 decks of few suits and ranks, few columns; dfs decides each in milliseconds
TWINS = twins(GAME)


def cards(text: str) -> bytes:
    return bytes(parse_card(t) for t in text.split())  # type: ignore[misc]


def verdicts(game: object, deals: range, states: int = 20_000) -> list[Status]:
    return [dfs(game, game.deal(n), Budget(max_states=states)).status  # type: ignore[attr-defined]
            for n in deals]


def all_cards(state: State) -> Counter[int]:
    count: Counter[int] = Counter()
    for column in state.columns:
        count.update(column)
    count.update(state.waste)
    count.update(state.stock)
    return count


# -- PySolFC's deal ---------------------------------------------------------------------


def test_deal_1_is_laid_out_as_pysolfc_deals_it():
    """Four rows left to right, then one card to the waste; 63 cards stay in the stock."""
    state = GAME.deal(1)
    assert state.columns[0] == cards("3D AS KD 7D")
    assert state.columns[9] == cards("JD 4H 8S 2S")
    assert [c[0] for c in state.columns] == list(cards("3D 5H JC KH 5S 5H KC KC 8D JD"))
    assert state.waste == cards("3S")
    assert len(state.stock) == 63
    assert state.stock[-1] == parse_card("9C")          # the next card drawn
    assert state.stock[0] == parse_card("AC")           # the last card drawn
    assert state.foundations == bytes(8)


def test_deal_follows_the_pysolfc_dealing_order():
    order = pysol_deck_order(7, decks=2)
    state = GAME.deal(7)
    for i in range(40):
        assert state.columns[i % 10][i // 10] == order[i]
    assert state.waste == bytes(order[40:41])
    assert state.stock == bytes(reversed(order[41:]))
    assert sorted(all_cards(state).elements()) == sorted(list(range(52)) * 2)


def test_deal_numbers_start_at_one():
    with pytest.raises(ValueError):
        GAME.deal(0)


# -- text --------------------------------------------------------------------------------


def test_a_deal_written_by_hand_reads_as_the_numbered_deal():
    assert GAME.parse((DATA / "deal-1.txt").read_text()) == GAME.deal(1)


def test_midgame_text_with_foundations_waste_and_an_empty_column():
    twin = FortyThieves(suits=1, ranks=3, columns=3, rows=1)
    state = twin.parse("Foundations: C-A C-2\nWaste: 3C\nStock:\n: 2C\n:\n: 3C\n")
    assert state == State((cards("2C"), b"", cards("3C")), bytes((1, 2)), cards("3C"), b"")
    assert twin.format(state).splitlines()[0] == "Foundations: C-A C-2"


# -- moves -------------------------------------------------------------------------------

# A twin of 2 suits, ranks A-4, 4 columns, mid-game:
#   clubs home up to A and 2, diamonds none; waste top 3D; stock 4C drawn next
LITERAL = """\
Foundations: C-A C-2 D-0 D-0
Waste: 3D 3D
Stock: 4C AD AD 2D 2C
: 4D 2D
: 4D
: 3C 4C 3C
:
"""


def test_legal_moves_of_a_literal_position():
    twin = FortyThieves(suits=2, ranks=4, columns=4, rows=1)
    state = twin.parse(LITERAL)
    expected = {
        Move(2, FOUNDATION),          # 3C on the 2C foundation
        Move(WASTE, 1),               # 3D on 4D
        Move(WASTE, 3), Move(0, 3), Move(2, 3),   # to the empty column (column 2's lone 4D not)
        DRAW,
    }
    assert set(twin.moves(state)) == expected
    assert len(twin.moves(state)) == len(expected)
    for move in twin.moves(state):
        assert twin.illegal_reason(state, move) == ""


def test_moves_come_home_waste_builds_draw_empty_column_in_that_order():
    twin = FortyThieves(suits=2, ranks=4, columns=4, rows=1)
    assert twin.moves(twin.parse(LITERAL)) == [
        Move(2, FOUNDATION), Move(WASTE, 1), DRAW, Move(WASTE, 3), Move(0, 3), Move(2, 3)]


def test_a_card_showing_twice_moves_from_both_columns_left_to_right():
    """Home moves, then builds by target column, each from both copies' columns."""
    twin = FortyThieves(suits=1, ranks=3, columns=4, rows=1)
    state = twin.parse("Foundations: C-A C-A\n: 3C\n: 2C\n: 3C\n: 2C\n")
    assert twin.moves(state) == [Move(1, FOUNDATION), Move(3, FOUNDATION),
                                 Move(1, 0), Move(3, 0), Move(1, 2), Move(3, 2)]


def test_identical_targets_are_both_offered():
    twin = FortyThieves(suits=1, ranks=3, columns=3, rows=1)
    state = twin.parse("Foundations: C-A C-A\n: 3C\n: 3C\n: 2C 2C\n")
    assert set(twin.moves(state)) == {Move(2, 0), Move(2, 1), Move(2, FOUNDATION)}


def test_a_lone_card_does_not_move_to_an_empty_column():
    twin = FortyThieves(suits=1, ranks=3, columns=3, rows=1)
    state = twin.parse("Foundations: C-A C-A\n: 3C\n:\n: 2C 3C 2C\n")
    assert Move(0, 1) not in twin.moves(state)
    assert Move(2, 1) in twin.moves(state)


def test_redeal_turns_the_waste_over_in_drawing_order():
    twin = FortyThieves(suits=1, ranks=4, columns=1, rows=1)
    state = twin.parse("Waste: AC 2C 3C\nStock: 4C\n: 4C AC 2C 3C\n")
    assert REDEAL not in twin.moves(state)
    state = twin.play(state, DRAW)
    assert state.stock == b"" and state.waste == cards("AC 2C 3C 4C")
    assert REDEAL in twin.moves(state)
    turned = twin.play(state, REDEAL)
    assert turned.waste == b""
    assert twin.format(turned).splitlines()[2] == "Stock: AC 2C 3C 4C"
    classic = FortyThieves(redeal=False, suits=1, ranks=4, columns=1, rows=1)
    assert REDEAL not in classic.moves(state)
    assert classic.illegal_reason(state, REDEAL) == "this variant does not turn the waste over"


def test_illegal_steps_are_explained():
    twin = FortyThieves(suits=2, ranks=4, columns=4, rows=1)
    state = twin.parse(LITERAL)
    assert "build down by suit" in twin.illegal_reason(state, Move(0, 2))
    assert "foundation" in twin.illegal_reason(state, Move(WASTE, FOUNDATION))
    assert "empty" in twin.illegal_reason(state, Move(3, 0))
    assert "stock is empty" in twin.illegal_reason(state, REDEAL)
    assert "same" in twin.illegal_reason(state, Move(1, 1))
    drawn = state
    for _ in range(5):
        drawn = twin.play(drawn, DRAW)
    assert twin.illegal_reason(drawn, DRAW) == "the stock is empty"


def test_notation_round_trips_and_bad_text_is_refused():
    state = GAME.deal(1)
    for text in ("s", "r", "w3", "wf", "4f", "27", "0f", "w0", "01"):
        assert GAME.notation(GAME.parse_move(state, text)) == text
    for bad in ("x", "f3", "3w", "123", ""):
        with pytest.raises(InvalidMoveError):
            GAME.parse_move(state, bad)


def test_foundation_cards_never_come_back_and_each_pair_stays_ordered():
    """Along seeded random plays: no step lowers a foundation, and the tops of each suit's
    two foundations stay written lower first."""
    for game in (GAME, CLASSIC, TWINS[0]):
        for number in (1, 2, 3):
            played, final = random_play(game, game.deal(number), 300, seed=11)
            states = [state for state, _ in played] + [final]
            for before, after in zip(states, states[1:]):
                assert all(a <= b for a, b in zip(before.foundations, after.foundations))
            for state in states:
                assert all(a <= b for a, b in zip(state.foundations[::2], state.foundations[1::2]))


# -- keys --------------------------------------------------------------------------------


def test_key_tells_apart_waste_stock_and_columns():
    state = GAME.deal(3)
    drawn = GAME.play(state, DRAW)
    assert GAME.key(drawn) != GAME.key(state)
    moved = state._replace(columns=(state.columns[0][:-1],) + state.columns[1:],
                           waste=state.waste + state.columns[0][-1:])
    assert GAME.key(moved) != GAME.key(state)


# -- forced moves --------------------------------------------------------------------------


def test_forced_moves_send_home_only_cards_whose_lower_foundation_is_ready():
    twin = FortyThieves(suits=1, ranks=4, columns=3, rows=1)
    state = twin.parse("Foundations: C-A C-2\n: 2C 4C\n: 3C\n: 4C 3C\n")
    assert twin.forced(state) == []                     # 3C: the lower foundation shows A
    assert Move(1, FOUNDATION) in twin.moves(state)     # (but 3C may go home)
    state = twin.parse("Foundations: C-2 C-2\n: 3C\n: 4C\n: 4C 3C\n")
    assert twin.forced(state) == [Move(0, FOUNDATION)]
    assert twin.forced(twin.parse("Waste: AC\n: 2C 3C\n: 4C 4C\n: 3C 2C AC\n")) \
        == [Move(WASTE, FOUNDATION)]


def test_forced_moves_are_legal_along_random_play():
    rng = random.Random(3)
    state = GAME.deal(4)
    for _ in range(400):
        for move in GAME.forced(state):
            assert GAME.illegal_reason(state, move) == ""
            assert move.target == FOUNDATION
        moves = GAME.moves(state)
        if not moves:
            break
        state = GAME.play(state, rng.choice(moves))


# -- twins: strategies and variants agree ---------------------------------------------------


@pytest.mark.parametrize("game", [twin for twin in TWINS if not twin.redeal],
                         ids=lambda g: f"r{g.ranks}c{g.columns}")
def test_redeal_wins_whatever_no_redeal_wins(game):
    """Turning the waste over only adds moves, so it never turns a win into a loss."""
    deals = range(1, 201)
    one_pass = verdicts(game, deals)
    redeal = verdicts(dataclasses.replace(game, redeal=True), deals)
    assert Status.LOST in one_pass                      # the twin is not trivial
    for a, b in zip(one_pass, redeal):
        assert not (a is Status.WON and b is Status.LOST)


# -- numbered deals solved ------------------------------------------------------------------


def known() -> list[dict[str, str]]:
    from conftest import read_known
    return read_known(DATA / "known.txt")


@pytest.mark.parametrize("record", known(), ids=lambda r: r["id"])
def test_known_deals_are_won_with_a_verified_solution(record):
    game = FortyThieves(redeal=record["variant"] == "redeal=true")
    state = game.deal(int(record["deal"]))
    if "first-column" in record:
        assert state.columns[0] == cards(record["first-column"])
        assert state.waste == cards(record["waste"])
    result = dfs(game, state, Budget(seconds=20))
    assert result.status.value == record["status"]
    check_solution(game, state, result.moves)
    final = replay_notation(game, state, [game.notation(m) for m in result.moves])
    assert game.is_won(final)
    if not game.redeal:
        assert "r" not in [game.notation(m) for m in result.moves]


# -- dead ends and the heuristic (one pass) ---------------------------------------------------

SMALL = FortyThieves(redeal=False, suits=1, ranks=4, columns=3, rows=1)
DEAD = ": AC 2C\n: AC 2C\n: 3C 3C 4C 4C\n"


def test_a_card_whose_only_way_home_lies_under_it_is_a_dead_end():
    """Each 2C lies on an AC, and the 3Cs that could take a 2C lie under 4Cs that can go
    nowhere (no empty column can ever appear): lost."""
    state = SMALL.parse(DEAD)
    assert SMALL.dead_end(state).startswith("AC can never go home")
    assert dfs(SMALL, state, Budget(max_states=10_000)).status is Status.LOST


def test_a_parent_still_in_the_stock_keeps_a_position_alive():
    """The 3C that frees a 2C is still in the stock: drawn onto the 4C it wins. A rule that
    counted only the cards in columns as possible parents would call this lost."""
    state = SMALL.parse("Stock: 3C 3C 4C\n: AC 2C\n: AC 2C\n: 4C\n")
    assert SMALL.dead_end(state) == ""
    result = dfs(SMALL, state, Budget(max_states=10_000))
    assert result.status is Status.WON
    check_solution(SMALL, state, result.moves)


def test_the_dead_end_rule_is_left_out_with_redeals():
    """Turning the waste over frees a waste card without the cards on it leaving."""
    redeal = dataclasses.replace(SMALL, redeal=True)
    state = redeal.parse(DEAD)
    assert redeal.dead_end(state) == ""


@pytest.mark.parametrize("game", [twin for twin in TWINS if not twin.redeal],
                         ids=lambda g: f"r{g.ranks}c{g.columns}")
def test_every_position_called_a_dead_end_on_twins_is_lost(game):
    """Along seeded random plays of 150 deals: each position the rule calls dead is proven
    lost by exhaustive search, and the rule does call some dead (it is not idle)."""
    called = 0
    for number in range(1, 151):
        played, final = random_play(game, game.deal(number), 40, seed=number)
        for state in {*(state for state, _ in played), final}:
            if game.dead_end(state):
                called += 1
                assert dfs(game, state, Budget(max_states=50_000)).status is Status.LOST, \
                    game.format(state)
    assert called >= 20


def test_the_waste_counts_in_the_one_pass_heuristic_only():
    state = GAME.deal(1)
    drawn = GAME.play(state, DRAW)
    assert CLASSIC.heuristic(drawn) - CLASSIC.heuristic(state) == \
        GAME.heuristic(drawn) - GAME.heuristic(state) + 2


@pytest.mark.parametrize("line", ["Waste:", "Stock:", "Talon: -", "Waste: 3S"])
def test_a_second_waste_or_stock_line_is_refused_not_dropped(line: str) -> None:
    text = GAME.format(GAME.deal(1)) + line + "\n"
    with pytest.raises(DealError, match=r"a second (Waste|Stock) line") as error:
        GAME.parse(text)
    assert error.value.line == len(text.splitlines())


# -- the player's view -------------------------------------------------------------------

def test_the_player_does_not_see_the_stock_cards_never_drawn():
    for game in (GAME, FortyThieves(redeal=False)):
        position = Sighted.of(game, game.deal(1))
        assert position.seen == 63 and len(position.unseen().cards) == 63
        assert len(position.state.waste) == 1              # the deal's waste card is seen
        masked = position.masked().state
        assert masked.stock == bytes(sorted(position.state.stock))
        assert (masked.columns, masked.waste) == (position.state.columns, position.state.waste)
        drawn = position.state.stock[-1]
        position = position.play(DRAW)
        assert position.seen == 62 and position.state.waste[-1] == drawn
        assert sorted(position.unseen().cards) == sorted(position.state.stock)


def test_cards_drawn_once_are_known_after_the_waste_is_turned_over():
    position = Sighted.of(GAME, GAME.deal(1))
    for _ in range(63):
        position = position.play(DRAW)
    assert position.seen == 0 and position.unseen().cards == ()
    position = position.play(REDEAL)
    assert len(position.state.stock) == 64                     # the deal's waste card too
    assert position.seen == 0 and position.unseen().cards == ()
    assert position.masked().state == position.state            # nothing left to hide
    position = position.play(DRAW)
    assert position.seen == 0 and position.unseen().cards == ()


def test_a_position_read_from_a_file_hides_its_whole_stock():
    state = GAME.parse(GAME.format(GAME.deal(2)))
    assert Sighted.of(GAME, state).seen == len(state.stock) == 63


# -- what the player has seen, in the text (FortyThievesView) ---------------------------

def marked(text: str, first: int = 0) -> str:
    """Return a text with its Stock line's cards from the `first`-th on marked never drawn."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Stock:"))
    cards = lines[at].split()[1:]
    lines[at] = " ".join(["Stock:"] + cards[:first] + [f"<{c}>" for c in cards[first:]])
    return "\n".join(lines) + "\n"


def test_stock_cards_marked_never_drawn_or_seen_all_are_read_and_change_no_position():
    deal = GAME.deal(1)
    text = GAME.format(deal)
    assert GAME.format_seen(deal, 63) == marked(text)
    assert GAME.parse_seen(marked(text)) == (deal, 63)
    assert GAME.parse_seen(text) == (deal, None)                    # no marks: says nothing
    seen_all = GAME.format_seen(deal, 0)
    assert "\nSeen: all\n" in seen_all and GAME.parse_seen(seen_all) == (deal, 0)
    assert GAME.parse(marked(text)) == GAME.parse(seen_all) == deal
    assert Sighted.read(GAME, seen_all).seen == 0 and Sighted.read(GAME, text).seen == 63


def test_a_position_after_a_redeal_reads_back_from_its_text():
    position = Sighted.of(GAME, GAME.deal(1))
    for _ in range(63):
        position = position.play(DRAW)
    position = position.play(REDEAL)
    position = position.play(DRAW)
    assert position.seen == 0 and position.text().count("Seen: all") == 1
    back = Sighted.read(GAME, position.text())
    assert (back.state, back.seen) == (position.state, 0)
    assert Sighted.read(GAME, GAME.format(position.state)).seen == 63    # as before: all unseen


@pytest.mark.parametrize("game, change, message", [
    (GAME, lambda t: marked(t, 60), "3 of the 63 stock cards marked never drawn: in the first "
     "pass none has been drawn, after a redeal all have, so mark all or none"),
    (GAME, lambda t: marked(t) + "Seen: all\n", "Seen: all, but 63 stock cards are marked"),
    (GAME, lambda t: t.replace("Waste: 3S", "Waste: <3S>"),
     "line 2: waste card '<3S>' marked never seen: every waste card is face up"),
    (GAME, lambda t: t.replace(": 3D AS", ": <3D> AS"),
     "line 4: column card '<3D>' marked never seen: every column card is face up"),
    (GAME, lambda t: t + "Seen: everything\n", "Seen: 'everything': expected all"),
    (FortyThieves(redeal=False), lambda t: t + "Seen: all\n",
     "Seen: all, but without redeal the stock holds only cards never drawn"),
])
def test_marks_the_rules_cannot_produce_are_one_problem(game, change, message):
    with pytest.raises(DealError) as caught:
        game.parse(change(GAME.format(GAME.deal(1))))
    assert message in str(caught.value) and "\n" not in str(caught.value)
