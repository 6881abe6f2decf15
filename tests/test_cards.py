"""Cards: tokens in every accepted spelling, printing, deck checks."""
from __future__ import annotations

import pytest

from solver.cards import (BYTE, DECK, OTHER_COLOUR_SUITS, SAME_COLOUR_SUIT, card_str, deck_problems,
                          is_red, make_card, parse_card, pile_str, rank, suit)


def test_every_card_round_trips_in_ascii_and_unicode():
    for card in DECK:
        assert parse_card(card_str(card)) == card
        assert parse_card(card_str(card, unicode=True)) == card


@pytest.mark.parametrize("token,expected", [
    ("AS", make_card(1, 3)), ("as", make_card(1, 3)), ("10D", make_card(10, 1)),
    ("TD", make_card(10, 1)), ("10♦", make_card(10, 1)), ("9♥", make_card(9, 2)),
    ("K♣", make_card(13, 0)), ("qh", make_card(12, 2)),
])
def test_tokens_name_the_right_card(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["", "A", "XS", "1X", "11H", "KK", "ASS"])
def test_unknown_tokens_are_refused(token):
    assert parse_card(token) is None


def test_colours_and_ranks():
    assert [is_red(make_card(5, s)) for s in range(4)] == [False, True, True, False]
    assert rank(make_card(13, 2)) == 13 and suit(make_card(13, 2)) == 2
    assert pile_str([make_card(1, 0), make_card(10, 2)]) == "AC TH"
    for s in range(4):
        red = is_red(make_card(1, s))
        assert sorted(t for t in range(4) if is_red(make_card(1, t)) != red) == list(OTHER_COLOUR_SUITS[s])
        assert [t for t in range(4) if t != s and is_red(make_card(1, t)) == red] == [SAME_COLOUR_SUIT[s]]
    assert all(BYTE[n] == bytes((n,)) for n in range(256))


def test_deck_problems_name_duplicates_and_missing_cards():
    cards = list(DECK)
    cards[5] = 7
    assert deck_problems(cards) == ([7], [5])
    assert deck_problems(list(DECK) * 2, decks=2) == ([], [])
    assert deck_problems(list(DECK), decks=2) == ([], list(DECK))


def test_fast_microsoft_shuffle_is_pysol_cards_shuffle():
    """solver.cards deals numbers up to 32000 itself; pysol_cards is the reference."""
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    from solver.cards import _PYSOL_SUIT, make_card, pysol_deck_order

    def reference(number, decks, which):
        cards = shuffle(createCards(decks), number, which)
        cards.reverse()
        return [make_card(c.rank, _PYSOL_SUIT[c.suit]) for c in cards]

    for number in (1, 2, 617, 11982, 14934, 31999, 32000):
        for decks in (1, 2):
            assert pysol_deck_order(number, decks) == reference(number, decks,
                                                                RandomBase.DEALS_PYSOLFC)
    for number in (1, 1941, 2**31 - 1):
        assert pysol_deck_order(number, microsoft=True) == reference(number, 1, RandomBase.DEALS_MS)
