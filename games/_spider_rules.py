"""Spider's move generator, play, canonical key and heuristic, as lookup tables.

Kept apart from ``spider.py`` (which states the rules, the text format and the notation)
because this is the hot path of every Spider search. Cards are ints ``suit * 13 + rank - 1``
(so a card continues a same-suit run on ``below`` exactly when it is ``below - 1`` and
``below`` is not an Ace); positions are tuples of ``bytes``.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable

from solver.cards import BYTE, make_card

DEAL_SOURCE = 255
_SEPARATOR = b"\xff"
_STOCK_MARK = b"\xfe"

# heuristic weights, chosen by short runs of the beam (Spider's default strategy) over the
# first deals of each suit count (data/spider/winnability.md)
HIDDEN_WEIGHT = 12         # a face-down card
DEEP_HIDDEN_WEIGHT = 16    # the same in the beam's second heuristic (Spider.beam_heuristics)
BREAK_WEIGHT = 6           # face-up neighbours that are not in sequence at all
# in rank sequence but of different suits: dearer than no sequence at all, so an off-suit
# build is made only when it turns a card or empties a column. An off-suit pair cannot
# move as one and blocks the card under it; weighted 3 (cheaper than a break), the beam
# filled with off-suit builds and won no 4-suit deal of 1-5 in 30 CPU s; weighted 9, it
# wins 4 of them. With 2 suits that weight lost deal 2 (won at 3), so it is per suit count.
SUIT_BREAK_WEIGHT = 3
FOUR_SUIT_BREAK_WEIGHT = 9
CARD_WEIGHT = 1            # a card still in play (tableau or stock)
COVER_WEIGHT = 1           # a face-up card lying over face-down ones
EMPTY_BONUS = 10           # an empty column, once the stock is out
EMPTY_STOCK_BONUS = 3      # an empty column while the stock must still deal (it must be filled)
STOCK_WEIGHT = 6           # a card still in the stock (on top of CARD_WEIGHT): a break to come
_CACHE_LIMIT = 1 << 18


def _run_length(column: bytes, hidden: int) -> int:
    """Return how many top cards of a column form a face-up same-suit descending run.

    >>> _run_length(bytes([12, 11, 10]), 0), _run_length(bytes([12, 11, 10]), 1)
    (3, 2)
    >>> _run_length(bytes([13, 12]), 0), _run_length(b"", 0)
    (1, 0)
    """
    i = len(column) - 1
    if i < 0:
        return 0
    count = 1
    while i > hidden:
        below = column[i - 1]
        if below - 1 != column[i] or below % 13 == 0:
            break
        count += 1
        i -= 1
    return count


def _stock_order(stock: bytes, width: int) -> tuple[list[int], bytes, list[list[int]]]:
    """Return the columns in order of their future stock cards, the sorted futures
    (ending in a mark), and the runs of places whose futures are equal (ties).

    >>> _stock_order(bytes([5, 2, 5, 6, 1, 6]), 3)
    ([1, 0, 2], b'\\x02\\x01\\x05\\x06\\x05\\x06\\xfe', [[1, 2]])
    """
    futures = [stock[i::width] for i in range(width)]
    order = sorted(range(width), key=futures.__getitem__)
    groups: list[list[int]] = []
    for place in range(1, width):
        if futures[order[place]] == futures[order[place - 1]]:
            if groups and groups[-1][-1] == place - 1:
                groups[-1].append(place)
            else:
                groups.append([place - 1, place])
    return order, b"".join(futures[i] for i in order) + _STOCK_MARK, groups


class _Rules:
    """The rules of one Spider variant, precomputed."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.ranks = game.ranks
        # column costs by face-down weight (the beam may alternate two), then (hidden, column)
        self.caches: dict[int, dict[tuple[int, bytes], int]] = {}
        self.ties: dict[bytes, tuple[Callable[..., Any], bytes, list[list[int]]]] = {}
        self.complete = {bytes(make_card(r, s) for r in range(game.ranks, 0, -1)): s
                         for s in range(4)}
        # cost[below * 64 + above] of two face-up neighbours, for the heuristic
        self.cost = bytearray(64 * 64)
        self.bad = bytearray(64 * 64)       # 1 when the pair must be cut before a win
        suit_break = FOUR_SUIT_BREAK_WEIGHT if game.suits == 4 else SUIT_BREAK_WEIGHT
        for below in range(52):
            for above in range(52):
                same_rank_step = above % 13 + 1 == below % 13
                if same_rank_step and above // 13 == below // 13:
                    continue
                self.bad[below * 64 + above] = 1
                self.cost[below * 64 + above] = suit_break if same_rank_step \
                    else BREAK_WEIGHT

    # -- moves -------------------------------------------------------------------------

    def moves(self, state: Any) -> list[Any]:
        """Return every legal move: same-suit builds, other builds, to empty columns, deal.

        Only one symmetry is used: with the stock empty, columns are interchangeable, so
        a run goes only to the first empty column, and a whole column never moves to an
        empty one (its key would not change).
        """
        from games.spider import DEAL, Move

        columns, hidden, stock, _ = state
        empties = [j for j, column in enumerate(columns) if not column]
        targets = empties if stock else empties[:1]
        tops = [(j, column[-1]) for j, column in enumerate(columns) if column]
        same: list[Any] = []
        other: list[Any] = []
        to_empty: list[Any] = []
        for i, column in enumerate(columns):
            if not column:
                continue
            n = len(column)
            length = _run_length(column, hidden[i])
            top_rank = column[-1] % 13
            for j, under in tops:
                k = under % 13 - top_rank
                if 1 <= k <= length and j != i:
                    move = Move(i, j, k)
                    if under // 13 == column[-1] // 13:
                        # a same-suit join; best when it turns a card or empties a column
                        if k == n - hidden[i]:
                            same.insert(0, move)
                        else:
                            same.append(move)
                    elif k == n - hidden[i]:
                        other.insert(0, move)
                    else:
                        other.append(move)
            for j in targets:
                for k in range(length, 0, -1):
                    if k == n and not stock:
                        continue
                    to_empty.append(Move(i, j, k))
        result = same + other + to_empty
        if stock and not empties:
            result.append(DEAL)
        return result

    def play(self, state: Any, move: Any) -> Any:
        """Return the position after a run move or a deal, complete runs removed."""
        from games.spider import State

        columns, hidden, stock, removed = state
        source, target, count = move
        ranks, complete = self.ranks, self.complete
        if source == DEAL_SOURCE:
            width = len(columns)
            new = []
            down = bytearray(hidden)
            for i, column in enumerate(columns):
                column = column + stock[i:i + 1]
                if column[-1] % 13 == 0 and len(column) - down[i] >= ranks \
                        and column[-ranks:] in complete:
                    removed = bytes(sorted(removed + bytes((complete[column[-ranks:]],))))
                    column = column[:-ranks]
                    if down[i] >= len(column):
                        down[i] = max(len(column) - 1, 0)
                new.append(column)
            return State(tuple(new), bytes(down), stock[width:], removed)
        column = columns[source]
        rest = column[:len(column) - count]
        onto = columns[target] + column[len(column) - count:]
        down = bytearray(hidden)
        if down[source] >= len(rest):
            down[source] = max(len(rest) - 1, 0)
        if onto[-1] % 13 == 0 and len(onto) - down[target] >= ranks and onto[-ranks:] in complete:
            removed = bytes(sorted(removed + bytes((complete[onto[-ranks:]],))))
            onto = onto[:-ranks]
            if down[target] >= len(onto):
                down[target] = max(len(onto) - 1, 0)
        new_columns = list(columns)
        new_columns[source] = rest
        new_columns[target] = onto
        return State(tuple(new_columns), bytes(down), stock, removed)

    # -- search support ----------------------------------------------------------------

    def key(self, state: Any) -> bytes:
        """Return the canonical key: (future stock cards, face-down count, column) sorted.

        Columns are ordered by the cards the stock will deal them (worked out once per
        stock and cached), then columns with identical futures by face-down count and
        cards; the key is the sorted futures, the face-down counts and the columns in
        that order. That is the same as sorting the (future, face down, column) chunks.
        """
        columns, hidden, stock, _ = state
        if not stock:
            return _SEPARATOR.join(sorted([BYTE[h] + column for column, h in zip(columns, hidden)]))
        info = self.ties.get(stock)
        if info is None:
            if len(self.ties) > _CACHE_LIMIT:
                self.ties.clear()
            order, prefix, groups = _stock_order(stock, len(columns))
            pick = itemgetter(*order) if len(order) > 1 else lambda items: (items[order[0]],)
            info = self.ties[stock] = pick, prefix, groups
        pick, prefix, groups = info
        new_columns = list(pick(columns))
        new_hidden = bytearray(pick(hidden))
        for group in groups:
            chunks = sorted((new_hidden[p], new_columns[p]) for p in group)
            for p, (down, column) in zip(group, chunks):
                new_columns[p], new_hidden[p] = column, down
        return prefix + new_hidden + _SEPARATOR.join(new_columns)

    def heuristic(self, state: Any, hidden_weight: int = HIDDEN_WEIGHT) -> int:
        """Return a weighted count of work left (smaller is better).

        Face-down cards, face-up neighbours out of sequence, face-up cards covering
        face-down ones, cards in play; a stock card counts as a break to come, so a deal
        does not look like a step back; empty columns count in favour. With 4 suits a
        pair in rank sequence but off suit costs more than a plain break (see the weights).
        `hidden_weight` is what a face-down card costs.
        """
        columns, hidden, stock, _ = state
        cache = self.caches.get(hidden_weight)
        if cache is None:
            cache = self.caches[hidden_weight] = {}
        column_cost = self.column_cost
        total = (CARD_WEIGHT + STOCK_WEIGHT) * len(stock)
        bonus = EMPTY_STOCK_BONUS if stock else EMPTY_BONUS
        for column, down in zip(columns, hidden):
            if not column:
                total -= bonus
                continue
            entry = down, column
            value = cache.get(entry)
            if value is None:
                if len(cache) > _CACHE_LIMIT:
                    cache.clear()
                value = cache[entry] = column_cost(column, down, hidden_weight)
            total += value
        return total

    def column_cost(self, column: bytes, hidden: int, hidden_weight: int = HIDDEN_WEIGHT) -> int:
        """Return one non-empty column's share of the heuristic."""
        cost = self.cost
        total = CARD_WEIGHT * len(column) + hidden_weight * hidden
        if hidden:
            total += COVER_WEIGHT * (len(column) - hidden)
        for below, above in zip(column[hidden:], column[hidden + 1:]):
            total += cost[below * 64 + above]
        return total

    def lower_bound(self, state: Any) -> int:
        """Return deals left plus half the breaks the deals cannot mend.

        Every pair of neighbours in a column that is not a same-suit step must be cut
        before a win. A run move cuts at most two (under the run, and under a K..A it
        completes); a deal cuts at most one per column (under each run it completes).
        All the stock must be dealt, so with d deals and b such pairs a win needs at
        least ``d + ceil((b - columns * d) / 2)`` moves.
        """
        columns, hidden, stock, _ = state
        bad = self.bad
        cuts = 0
        for column in columns:
            for below, above in zip(column, column[1:]):
                cuts += bad[below * 64 + above]
        deals = len(stock) // len(columns)
        rest = max(0, cuts - len(columns) * deals)
        bound = deals + (rest + 1) // 2
        if bound == 0 and any(columns):
            bound = 1
        return bound
