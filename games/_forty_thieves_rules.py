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
        """Return the legal steps in ``FortyThieves.moves``' order: the columns' cards home
        (``home_moves``), the waste's card home and onto columns (``waste_moves``), builds
        (``build_moves``), the draw (``draw_moves``), moves to the first empty column
        (``empty_column_moves``), the redeal (``redeal_moves``).

        One pass over the column tops (``_scan_tops``) serves every kind: with two decks a
        card may show on two columns, and home moves and builds list a top card's moves
        at the first column showing it, then at the next ones (``after``) left to right.
        """
        columns, foundations, waste, stock = state
        n = len(columns)
        tops: list[int] = [_EMPTY] * n
        after: list[int] = [-1] * n
        showing, repeated, empty = _scan_tops(columns, tops, after)
        result = self.home_moves(foundations, tops, after, repeated)
        self.waste_moves(waste, foundations, tops, showing, result)
        self.build_moves(tops, after, showing, repeated, result)
        self.draw_moves(stock, result)
        if empty >= 0:
            self.empty_column_moves(columns, waste, empty, result)
        self.redeal_moves(waste, stock, result)
        return result

    def home_moves(self, foundations: bytes, tops: list[int], after: list[int],
                   repeated: int) -> list[Move]:
        """Return the columns' top cards that go home: "8 foundations, two per suit, built
        up by suit from the Ace". By top card, in the order the cards first show as a
        column's top, each card's columns left to right."""
        home_index, below, made = self.home_index, self.below, self.made
        result: list[Move] = []
        for i in range(len(tops)):
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
        return result

    def waste_moves(self, waste: bytes, foundations: bytes, tops: list[int], showing: int,
                    result: list[Move]) -> None:
        """Add the waste's top card home, then onto the columns it fits left to right: the
        stock is drawn "onto the waste, whose top card may go to a column or home" (into
        an empty column: ``empty_column_moves``)."""
        if not waste:
            return
        made = self.made
        card = waste[len(waste) - 1]
        h = self.home_index[card]
        b = self.below[card]
        if foundations[h] == b or foundations[h + 1] == b:
            result.append(made[WASTE * 16 + FOUNDATION])
        p = self.parent[card]
        if p >= 0 and showing >> p & 1:
            for t in range(len(tops)):
                if tops[t] == p:
                    result.append(made[WASTE * 16 + t])

    def build_moves(self, tops: list[int], after: list[int], showing: int, repeated: int,
                    result: list[Move]) -> None:
        """Add the builds: "only the top card of a column moves, one card at a time, onto
        the next higher card of its suit". By moving card, in the order the cards first
        show as a column's top; then targets left to right, then sources left to right.

        ``showing`` (a bit set of the cards on top of a column) says at once whether a
        card's parent shows anywhere, so the targets are sought only when it does.
        """
        parent, made = self.parent, self.made
        n = len(tops)
        for i in range(n):
            card = tops[i]
            if card < 0 or repeated >> i & 1:
                continue
            p = parent[card]
            if p >= 0 and showing >> p & 1:
                for t in range(n):
                    if tops[t] == p:
                        j = i
                        while j >= 0:
                            result.append(made[j * 16 + t])
                            j = after[j]

    def draw_moves(self, stock: bytes, result: list[Move]) -> None:
        """Add the draw while the stock lasts: "the stock is drawn one card at a time onto
        the waste"."""
        if stock:
            result.append(self.made[STOCK * 16 + WASTE])

    def empty_column_moves(self, columns: tuple[bytes, ...], waste: bytes, empty: int,
                           result: list[Move]) -> None:
        """Add the moves into the first empty column `empty`, the waste's card first, then
        the columns' left to right: a card goes "into an empty column (any card)". Only
        the first empty column, and never a column's only card: PROOFS, "Empty columns"."""
        made = self.made
        if waste:
            result.append(made[WASTE * 16 + empty])
        for i in range(len(columns)):
            if len(columns[i]) > 1:
                result.append(made[i * 16 + empty])

    def redeal_moves(self, waste: bytes, stock: bytes, result: list[Move]) -> None:
        """Add the redeal with ``redeal``: "when the stock is empty the waste is turned over
        to make a new stock" (a step of its own, only with the waste not empty)."""
        if self.redeal and not stock and waste:
            result.append(self.made[WASTE * 16 + STOCK])

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


def _scan_tops(columns: tuple[bytes, ...], tops: list[int], after: list[int]
               ) -> tuple[int, int, int]:
    """Fill `tops` (each column's top card, ``_EMPTY`` for an empty column) and `after`
    (the next column right of a column showing the same top card, -1 none); return the
    bit set of the cards showing, the bit set of the columns whose top a column left of
    them shows too, and the first empty column (-1 none)."""
    showing = 0
    repeated = 0
    empty = -1
    for i in range(len(columns)):
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
    return showing, repeated, empty


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


# -- PROOFS -------------------------------------------------------------------------
#
# Empty columns (``Rules.empty_column_moves``). No rule names a column, so exchanging
# two columns maps every legal step to a legal step, a winning line to a winning line,
# and keeps the key (``Rules.key`` sorts the columns). A card moved into any empty
# column gives the position that the same move into the first empty column gives, with
# those two empty columns exchanged: as winnable, and the same key. A column's only card
# moved into an empty column gives the same position with the two columns exchanged: a
# winning line through that step wins without it (drop it and exchange the two columns
# in every later step), so leaving it out loses no win and makes no loss look won.
