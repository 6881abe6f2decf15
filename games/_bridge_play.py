"""Bridge Solitaire's play: the most tricks a hand can take against the stock.

Kept apart from ``bridge_solitaire.py`` (rules text, bidding, scoring, text format)
because this is the hot path of every solve, and it is written for mypyc: a final class
with typed attributes and tables indexed by card class. The same source runs unchanged
as plain Python.

The stock fixes the house's every card, so the player alone chooses and the most tricks
from a position is a longest path: a memoised search over (the player's cards left, the
stock position, who leads). Two facts make it share work:

- Cards of one suit with no stock card ranked between them are interchangeable (every
  trick compares the player's card with stock cards only, never with another of the
  player's), and so are the two jokers. A hand is therefore a count of cards per *class*
  (suit, stock cards of the suit ranked below), and one of a class is tried.
- Nothing in a trick reads which cards the player held before, so the table of a
  (stock, trump) answers for every hand drawn from the same cards: the 1,716 choices of
  kept cards of a deal share one table per trump.
"""
from __future__ import annotations

from typing import Final, final

PLAYER: Final = 0
HOUSE: Final = 1
NOTRUMP: Final = 4
_BITS: Final = 4            # bits of a class's count in a packed hand (a class holds <= 13)


def suit_of(card: int) -> int:
    """Return a card's suit 0..3, 4 for a joker (52, 53)."""
    return 4 if card >= 52 else card // 13


def rank_of(card: int) -> int:
    """Return a card's rank for comparison, 2..14 (aces high)."""
    r = card % 13 + 1
    return 14 if r == 1 else r


def house_answer(stock: bytes, at: int, led: int, trump: int) -> tuple[int, int]:
    """Return (stock position after, the house's card or -1) for a player's lead `led`.

    The house turns cards from `at` until one is of the suit led, a trump or a joker; in
    notrump at most four. -1: no legal card (the player wins the trick). To a joker led
    the house's top card answers (a joker has no suit).
    """
    size = len(stock)
    if led >= 52:
        return (at + 1, stock[at]) if at < size else (at, -1)
    suit = led // 13
    limit = size if trump != NOTRUMP else min(size, at + 4)
    for i in range(at, limit):
        c = stock[i]
        if c >= 52 or c // 13 == suit or c // 13 == trump:
            return i + 1, c
    return limit, -1


def player_wins(led: int, answer: int, trump: int) -> bool:
    """Return whether `answer` beats `led` (jokers aside, which the caller applies):
    the higher card of the suit led, or a trump on another suit."""
    if answer // 13 == led // 13:
        return rank_of(answer) < rank_of(led)
    return answer // 13 != trump


def resolve(stock: bytes, at: int, lead: int, card: int, trump: int) -> tuple[int, bool]:
    """Play the player's `card` in a trick at stock position `at`; return (stock
    position after, whether the player won it)."""
    if lead == PLAYER:
        after, answer = house_answer(stock, at, card, trump)
        if answer < 0:
            return after, True
        if card >= 52 or answer >= 52:
            return after, False
        return after, player_wins(card, answer, trump)
    led = stock[at]
    if led >= 52:
        return at + 1, card >= 52
    if card >= 52:
        return at + 1, False
    return at + 1, not player_wins(led, card, trump)


@final
class Tricks:
    """The most tricks any hand drawn from `pool` can take against `stock` with `trump`
    (4: notrump), from any stock position and either leader; what it learns is kept
    between questions."""

    stock: bytes
    size: int
    card_class: dict[int, int]
    cards_of: list[list[int]]        # each class's cards in the pool, lowest first
    units: list[int]                 # 1 << (class * _BITS)
    suit_classes: list[list[int]]    # the classes of each suit, jokers at 4
    led_after: list[list[int]]       # [class][position]: stock position after its lead
    led_won: list[list[bool]]        # [class][position]: the player wins with that lead
    answered: list[list[bool]]       # [class][position]: it wins answering the house
    low: dict[int, int]              # position key -> tricks known reachable
    high: dict[int, int]             # position key -> fewest tricks known out of reach

    def __init__(self, pool: bytes, stock: bytes, trump: int) -> None:
        self.stock = stock
        self.size = len(stock)
        index: dict[tuple[int, int], int] = {}
        self.card_class = {}
        self.cards_of = []
        for card in sorted(pool):
            s = suit_of(card)
            below = 0 if s == 4 else sum(
                1 for x in stock if x < 52 and x // 13 == s and rank_of(x) < rank_of(card))
            name = (s, below)
            if name not in index:
                index[name] = len(self.cards_of)
                self.cards_of.append([])
            self.card_class[card] = index[name]
            self.cards_of[index[name]].append(card)
        count = len(self.cards_of)
        self.units = [1 << (i * _BITS) for i in range(count)]
        self.suit_classes = [[] for _ in range(5)]
        self.led_after = []
        self.led_won = []
        self.answered = []
        for i in range(count):
            card = self.cards_of[i][0]
            self.suit_classes[suit_of(card)].append(i)
            after: list[int] = []
            won: list[bool] = []
            answer: list[bool] = []
            for p in range(self.size):
                a, w = resolve(stock, p, PLAYER, card, trump)
                after.append(a)
                won.append(w)
                answer.append(resolve(stock, p, HOUSE, card, trump)[1])
            self.led_after.append(after)
            self.led_won.append(won)
            self.answered.append(answer)
        self.low = {}
        self.high = {}

    def packed(self, hand: bytes) -> int:
        """Return `hand` as counts per class, ``_BITS`` bits each."""
        counts = 0
        for card in hand:
            counts += self.units[self.card_class[card]]
        return counts

    def reaches(self, hand: bytes, at: int, lead: int, goal: int) -> bool:
        """Return whether the player, holding `hand` with the stock at `at` and `lead`
        to lead, can take at least `goal` more tricks."""
        return self._reaches(self.packed(hand), len(hand), at, lead, goal)

    def most(self, hand: bytes, at: int, lead: int, floor: int = 0) -> int:
        """Return the most tricks `hand` can take from here; `floor` tricks are known
        reachable (the target is raised one trick at a time from there)."""
        counts, left = self.packed(hand), len(hand)
        reached = floor
        while reached < left and self._reaches(counts, left, at, lead, reached + 1):
            reached += 1
        return reached

    def line(self, hand: bytes, at: int, lead: int, goal: int) -> list[int]:
        """Return the player's cards, in order, of a play that takes `goal` tricks from
        here (every card of the hand when the stock lasts); `goal` must be reachable."""
        cards = list(hand)
        played: list[int] = []
        counts, left = self.packed(hand), len(hand)
        while cards and at < self.size:
            for i in self._choices(counts, at, lead):
                after, won = self._step(i, at, lead)
                nxt = PLAYER if won else HOUSE
                if self._reaches(counts - self.units[i], left - 1, after, nxt, goal - won):
                    card = max(c for c in self.cards_of[i] if c in cards)
                    cards.remove(card)
                    played.append(card)
                    counts -= self.units[i]
                    left -= 1
                    at, lead, goal = after, nxt, goal - won
                    break
            else:
                raise ValueError("the goal is out of reach")
        return played

    def _step(self, i: int, at: int, lead: int) -> tuple[int, bool]:
        if lead == PLAYER:
            return self.led_after[i][at], self.led_won[i][at]
        return at + 1, self.answered[i][at]

    def _choices(self, counts: int, at: int, lead: int) -> list[int]:
        """Return the classes the player may play from (winning ones first)."""
        found: list[int] = []
        if lead == HOUSE:
            led = self.stock[at]
            if led < 52:
                for i in self.suit_classes[led // 13]:
                    if counts >> (i * _BITS) & 15:
                        found.append(i)
        if not found:
            for i in range(len(self.units)):
                if counts >> (i * _BITS) & 15:
                    found.append(i)
        if lead == HOUSE:
            answered = self.answered
            return [i for i in found if answered[i][at]] + [i for i in found if not answered[i][at]]
        won = self.led_won
        return [i for i in found if won[i][at]] + [i for i in found if not won[i][at]]

    def _reaches(self, counts: int, left: int, at: int, lead: int, goal: int) -> bool:
        if goal <= 0:
            return True
        if left < goal:
            return False
        if at >= self.size:
            return True                     # every card left is a trick
        key = (counts << 7 | at) << 1 | lead
        if self.low.get(key, 0) >= goal:
            return True
        if self.high.get(key, 99) <= goal:
            return False
        for i in self._choices(counts, at, lead):
            after, won = self._step(i, at, lead)
            if self._reaches(counts - self.units[i], left - 1, after,
                             PLAYER if won else HOUSE, goal - 1 if won else goal):
                if self.low.get(key, 0) < goal:
                    self.low[key] = goal
                return True
        if self.high.get(key, 99) > goal:
            self.high[key] = goal
        return False
