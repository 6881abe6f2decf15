"""Forty Thieves' positions, move generator, play, keys, forced moves and heuristic for one variant.

Kept apart from ``forty_thieves.py`` (rules text, text format, notation, the verifier's rule
check and the proof of the forced move) because this is the hot path of every Forty Thieves
search, written to be compiled by mypyc: the rules of a variant become lookup tables of a
``Rules`` object built once, positions stay tuples of ``bytes``, and each distinct ``Move``
is built once.
"""
from __future__ import annotations

from typing import Final, NamedTuple, final

WASTE: Final = 10               # move source: the waste's top card; target of a draw
STOCK: Final = 11               # move source of a draw; target of a redeal
FOUNDATION: Final = 12          # move target: home
_COLUMN_SEPARATOR: Final = b"\xfe"
_SECTION_SEPARATOR: Final = b"\xfd"
_EMPTY: Final = -2              # tops[i] of an empty column (never a card, never a parent)
_BYTES: Final = tuple(bytes((n,)) for n in range(256))   # _BYTES[n] == bytes((n,))
_PAIRS: Final = tuple(bytes((n >> 4, n & 15)) for n in range(256))   # a suit's two tops


class State(NamedTuple):
    """A position: columns, foundation tops (a sorted pair per suit), waste and stock."""

    columns: tuple[bytes, ...]   # bottom card first
    foundations: bytes           # 2 * suits bytes: per suit (lower top, higher top), 0 = empty
    waste: bytes                 # bottom card first, the playable card last
    stock: bytes                 # bottom card first, the next card drawn last


class Move(NamedTuple):
    """One step: a card from `source` (column 0-9 or WASTE) to `target` (column or FOUNDATION).

    ``Move(STOCK, WASTE)`` draws a card; ``Move(WASTE, STOCK)`` turns the waste over.
    """

    source: int
    target: int


DRAW: Final = Move(STOCK, WASTE)
REDEAL: Final = Move(WASTE, STOCK)

_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__


@final
class Rules:
    """The rules of one Forty Thieves variant as lookup tables indexed by card."""

    redeal: bool                 # the waste may be turned over when the stock is empty
    ranks: int
    waste_weight: int            # the heuristic's extra weight of a waste card (one pass: 2)
    total: int                   # cards in the game: the foundations' sum when won
    full: bytes                  # the foundations when every card is home
    home_index: list[int]        # index of the lower foundation of a card's suit
    below: list[int]             # rank - 1: the foundation top a card goes on
    parent: list[int]            # the card a card may lie on (one rank up, same suit), -1 none
    made: list[Move]             # made[source * 16 + target]: each Move once

    def __init__(self, redeal: bool, suits: int, ranks: int) -> None:
        self.redeal = redeal
        self.ranks = ranks
        self.waste_weight = 0 if redeal else 2
        self.total = 2 * suits * ranks
        self.full = bytes([ranks] * 2 * suits)
        self.home_index = [2 * (c // 13) for c in range(52)]
        self.below = [c % 13 for c in range(52)]
        self.parent = [c + 1 if c % 13 + 1 < ranks else -1 for c in range(52)]
        self.made = [Move(s, t) for s in range(16) for t in range(16)]

    # -- rules ---------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return the legal steps in ``FortyThieves.moves``' order.

        Home moves go by top card in the order the cards first show as a column's top,
        each card's columns left to right; then the waste home and onto columns; then
        builds, again by moving card in that order, targets left to right, sources left
        to right; the draw; moves to the first empty column; the redeal.

        One pass over the column tops finds each top card's home moves and builds, at
        the first column showing it; with two decks a card may show twice, so ``after``
        links each column to the next one right of it showing the same card. A bit set
        of the cards showing says at once whether a card's parent shows anywhere.
        """
        columns, foundations, waste, stock = state
        home_index, below, parent, made = self.home_index, self.below, self.parent, self.made
        n = len(columns)
        tops: list[int] = [_EMPTY] * n
        after: list[int] = [-1] * n  # the next column right of i showing the same top card
        showing = 0                  # bit set of the cards on top of a column
        repeated = 0                 # bit set of the columns whose top a column left shows
        empty = -1
        for i in range(n):
            column = columns[i]
            size = len(column)
            if size:
                card = column[size - 1]
                tops[i] = card
                if showing >> card & 1:
                    repeated |= 1 << i
                    j = i - 1
                    while tops[j] != card:
                        j -= 1
                    after[j] = i
                showing |= 1 << card
            elif empty < 0:
                empty = i
        result: list[Move] = []      # home moves, then the waste's
        builds: list[Move] = []
        for i in range(n):           # each top card once, at the first column showing it
            card = tops[i]
            if card < 0 or repeated >> i & 1:
                continue
            h = home_index[card]
            b = below[card]
            if foundations[h] == b or foundations[h + 1] == b:
                j = i
                while j >= 0:
                    result.append(made[j * 16 + FOUNDATION])
                    j = after[j]
            p = parent[card]
            if p >= 0 and showing >> p & 1:
                for t in range(n):
                    if tops[t] == p:
                        j = i
                        while j >= 0:
                            builds.append(made[j * 16 + t])
                            j = after[j]
        if waste:
            card = waste[len(waste) - 1]
            h = home_index[card]
            b = below[card]
            if foundations[h] == b or foundations[h + 1] == b:
                result.append(made[WASTE * 16 + FOUNDATION])
            p = parent[card]
            if p >= 0 and showing >> p & 1:
                for t in range(n):
                    if tops[t] == p:
                        result.append(made[WASTE * 16 + t])
        result.extend(builds)
        if stock:
            result.append(made[STOCK * 16 + WASTE])
        if empty >= 0:
            if waste:
                result.append(made[WASTE * 16 + empty])
            for i in range(n):
                if len(columns[i]) > 1:
                    result.append(made[i * 16 + empty])
        if self.redeal and not stock and waste:
            result.append(made[WASTE * 16 + STOCK])
        return result

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step."""
        columns, foundations, waste, stock = state
        source, target = move
        if source == STOCK:
            cut = len(stock) - 1
            return _NEW_TUPLE(_STATE, (columns, foundations, waste + _BYTES[stock[cut]],
                                       stock[:cut]))
        if target == STOCK:
            return _NEW_TUPLE(_STATE, (columns, foundations, b"", waste[::-1]))
        new_list = list(columns)
        if source == WASTE:
            cut = len(waste) - 1
            card = waste[cut]
            waste = waste[:cut]
        else:
            column = columns[source]
            cut = len(column) - 1
            card = column[cut]
            new_list[source] = column[:cut]
        if target == FOUNDATION:
            foundations = _home(foundations, card)
        else:
            new_list[target] = columns[target] + _BYTES[card]
        return _NEW_TUPLE(_STATE, (tuple(new_list), foundations, waste, stock))

    def is_won(self, state: State) -> bool:
        """Return whether every card is home (every foundation shows the top rank)."""
        return state[1] == self.full

    # -- search support ------------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the sorted columns, the waste and the stock, packed (``FortyThieves.key``)."""
        columns = list(state[0])
        columns.sort()
        return _SECTION_SEPARATOR.join([_COLUMN_SEPARATOR.join(columns), state[2], state[3]])

    def heuristic(self, state: State) -> int:
        """Return a weighted count of work left: cards out, cards off their suit run, and
        with one pass the waste's cards (``FortyThieves.heuristic``)."""
        parent = self.parent
        columns = state[0]
        out = self.total - _sum(state[1])
        disorder = 0
        for column in columns:
            size = len(column)
            if size > 1:
                below = column[0]
                for j in range(1, size):
                    above = column[j]
                    if parent[above] != below:
                        disorder += 1
                    below = above
        return 3 * out + 2 * disorder + len(state[3]) // 2 + self.waste_weight * len(state[2])

    def stuck(self, state: State) -> int:
        """Return a card of which a copy can never go home (``stuck_card``), or -1; only
        with one pass (the proof needs it)."""
        return -1 if self.redeal else stuck_card(state, self.ranks)

    def lower_bound(self, state: State) -> int:
        """Every card not home needs a step, and every stock card a draw as well."""
        return self.total - _sum(state[1]) + len(state[3])

    def forced(self, state: State) -> list[Move]:
        """Return one move home that is proven safe, or [] (``FortyThieves.forced``)."""
        columns, foundations, waste, _ = state
        home_index, below, made = self.home_index, self.below, self.made
        if waste:
            card = waste[len(waste) - 1]
            if foundations[home_index[card]] == below[card]:
                return [made[WASTE * 16 + FOUNDATION]]
        for i in range(len(columns)):
            column = columns[i]
            size = len(column)
            if size:
                card = column[size - 1]
                if foundations[home_index[card]] == below[card]:
                    return [made[i * 16 + FOUNDATION]]
        return []


def stuck_card(state: State, ranks: int) -> int:
    """Return a card (0..51) a copy of which can never go home from `state`, or -1.

    A least fixpoint over the cards out (``FortyThieves.dead_end`` gives the proof):
    ``left[i]``, card instance i may leave the pile it lies in now, and ``homed[i]``, it
    may go home. An instance may leave once the instances above it may (a column's or
    the waste's; a stock card has none: it is drawn) and it has somewhere to go: home
    (a foundation may show its rank - 1), a column top showing its parent (a parent
    that is a column's top now, or whose instances above may leave, or that may leave
    its own pile), or an empty column (one is empty now, or some column's bottom
    instance may leave). It may go home once it may leave and a foundation may show
    its rank - 1: more copies of rank - 1 home or homed than of its rank.
    """
    columns, foundations, waste, stock = state
    cards: list[int] = []
    above: list[int] = []        # the instance lying on instance i now, -1 none
    column_of: list[int] = []    # the column instance i lies in, -1 waste or stock
    bottoms: list[int] = []
    empty_now = False
    for c in range(len(columns)):
        column = columns[c]
        size = len(column)
        if not size:
            empty_now = True
            continue
        start = len(cards)
        bottoms.append(start + size - 1)
        for j in range(size - 1, -1, -1):        # top first: one sweep carries downwards
            cards.append(column[j])
            above.append(len(cards) - 2 if j < size - 1 else -1)
            column_of.append(c)
    for j in range(len(waste) - 1, -1, -1):
        cards.append(waste[j])
        above.append(len(cards) - 2 if j < len(waste) - 1 else -1)
        column_of.append(-1)
    for j in range(len(stock)):
        cards.append(stock[j])
        above.append(-1)
        column_of.append(-1)
    n = len(cards)
    home_now = [0] * 52
    possible = [0] * 52                          # copies home now or homed
    for s in range(len(foundations) // 2):
        low = foundations[2 * s]
        high = foundations[2 * s + 1]
        for r in range(1, ranks + 1):
            count = (1 if r <= low else 0) + (1 if r <= high else 0)
            home_now[13 * s + r - 1] = count
            possible[13 * s + r - 1] = count
    left = [False] * n
    homed = [False] * n
    changed = True
    while changed:
        changed = False
        tops = 0                                 # bit set: cards that may show on a column
        for i in range(n):
            if column_of[i] >= 0 and (above[i] < 0 or left[above[i]]) or left[i]:
                tops |= 1 << cards[i]
        empty = empty_now
        if not empty:
            for b in bottoms:
                if left[b]:
                    empty = True
                    break
        for i in range(n):
            card = cards[i]
            free = card % 13 == 0 or possible[card - 1] > home_now[card]
            if not left[i] and (above[i] < 0 or left[above[i]]):
                parent = card + 1 if card % 13 + 1 < ranks else -1
                if free or empty or parent >= 0 and tops >> parent & 1:
                    left[i] = True
                    changed = True
            if left[i] and not homed[i] and (possible[card] < 2 if card % 13 == 0
                                             else possible[card - 1] > possible[card]):
                homed[i] = True
                possible[card] += 1
                changed = True
    for s in range(len(foundations) // 2):
        for r in range(ranks):
            if possible[13 * s + r] < 2:
                return 13 * s + r
    return -1


def _home(foundations: bytes, card: int) -> bytes:
    """Return the foundations after `card` goes home (each suit's pair of tops kept sorted)."""
    h = 2 * (card // 13)
    r = card % 13 + 1
    low = foundations[h]
    high = foundations[h + 1]
    if low == r - 1:
        low = r
    else:
        high = r
    if low > high:
        low, high = high, low
    return foundations[:h] + _PAIRS[low << 4 | high] + foundations[h + 2:]


def _sum(data: bytes) -> int:
    """Return the sum of the bytes of `data`."""
    total = 0
    for i in range(len(data)):
        total += data[i]
    return total
