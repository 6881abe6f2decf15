"""Spider's positions, move generator, play, canonical key and heuristic, as lookup tables.

Kept apart from ``spider.py`` (which states the rules, the text format and the notation)
because this is the hot path of every Spider search, and compiled by mypyc (``setup.py``):
the code is typed precisely (``tuple[bytes, ...]``, ``int``) so that it runs as native
code, and the same source runs unchanged as plain Python. Cards are ints
``suit * 13 + rank - 1`` (so a card continues a same-suit run on ``below`` exactly when it
is ``below - 1`` and ``below`` is not an Ace); positions are tuples of ``bytes``.

Cheap per position: moves are prebuilt once per variant (a move list holds shared
``Move`` objects), positions are built with ``tuple.__new__`` (a NamedTuple's own
constructor is a Python function), a face-down count string is reused when a move leaves
it unchanged, and complete runs are recognised by their cards' values, not by slicing.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Callable, Final, NamedTuple, final

from solver.cards import BYTE, make_card

DEAL_SOURCE: Final = 255                # the source and target of the stock deal
_SEPARATOR: Final = b"\xff"
_STOCK_MARK: Final = b"\xfe"
_LINKED: Final = 64                     # streamlined_key: a face-up card joining a same-suit run
_MAX_RUN: Final = 16                    # more than the longest run (13): a stride of the move table

# heuristic weights, chosen by short runs of the beam (Spider's default strategy) over the
# first deals of each suit count (data/spider/winnability.md)
HIDDEN_WEIGHT: Final = 12         # a face-down card
DEEP_HIDDEN_WEIGHT: Final = 16    # the same in the beam's second heuristic (Spider.beam_heuristics)
BREAK_WEIGHT: Final = 6           # face-up neighbours that are not in sequence at all
# in rank sequence but of different suits: dearer than no sequence at all, so an off-suit
# build is made only when it turns a card or empties a column. An off-suit pair cannot
# move as one and blocks the card under it; with 4 suits a weight below a break filled
# the beam with off-suit builds, and with 2 suits the higher weight lost a deal, so it is
# per suit count (figures in data/spider/winnability.md).
SUIT_BREAK_WEIGHT: Final = 3
FOUR_SUIT_BREAK_WEIGHT: Final = 9
CARD_WEIGHT: Final = 1            # a card still in play (tableau or stock)
COVER_WEIGHT: Final = 1           # a face-up card lying over face-down ones
EMPTY_BONUS: Final = 10           # an empty column, once the stock is out
EMPTY_STOCK_BONUS: Final = 3      # an empty column while the stock must still deal (it must be filled)
STOCK_WEIGHT: Final = 6           # a card still in the stock (on top of CARD_WEIGHT): a break to come
_CACHE_LIMIT: Final = 1 << 18
# whether this module runs compiled by mypyc (then a short native loop is cheaper than
# a dict lookup; as plain Python it is the other way round)
NATIVE: Final = not __file__.endswith(".py")
_COUNT_BITS: Final = 6                  # a face-down count (at most 53) fits in 6 bits
_COUNT_MASK: Final = (1 << _COUNT_BITS) - 1


class State(NamedTuple):
    """A position: columns bottom card first, face-down counts, stock, removed runs."""

    columns: tuple[bytes, ...]
    hidden: bytes                       # per column, how many bottom cards are face down
    stock: bytes                        # in dealing order: stock[i] goes to column i next
    removed: bytes                      # the suit of each removed run, sorted


class Move(NamedTuple):
    """The top `count` cards of column `source` onto column `target`, or a deal."""

    source: int
    target: int
    count: int = 1   # type: ignore[assignment]  # shadows tuple.count; the name reads best


DEAL: Final = Move(DEAL_SOURCE, DEAL_SOURCE, 0)

_new_tuple: Final = tuple.__new__       # builds a State without a Python-level __new__


def _state(columns: tuple[bytes, ...], hidden: bytes, stock: bytes, removed: bytes) -> State:
    """Return ``State(columns, hidden, stock, removed)``, built the cheap way."""
    return _new_tuple(State, (columns, hidden, stock, removed))


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


def _replace(counts: bytes, place: int, value: int) -> bytes:
    """Return `counts` with byte `place` set to `value` (itself when it already is)."""
    if counts[place] == value:
        return counts
    return counts[:place] + BYTE[value] + counts[place + 1:]


def _only(columns: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Return the one column of a one-column twin (``itemgetter`` of one place would
    return the item, not a tuple)."""
    return columns


@final
class _StockOrder:
    """How one stock orders the columns in the key (``_Rules.key``).

    `order` lists the columns by the cards the stock will deal them, `prefix` is those
    futures in that order (ending in a mark), and `groups` are the runs of places whose
    futures are equal (ties, sorted by face-down count and cards).
    """

    def __init__(self, stock: bytes, width: int) -> None:
        futures = [stock[i::width] for i in range(width)]
        self.order: list[int] = sorted(range(width), key=futures.__getitem__)
        groups: list[list[int]] = []
        for place in range(1, width):
            if futures[self.order[place]] == futures[self.order[place - 1]]:
                if groups and groups[-1][-1] == place - 1:
                    groups[-1].append(place)
                else:
                    groups.append([place - 1, place])
        self.groups: list[list[int]] = groups
        self.prefix: bytes = b"".join([futures[i] for i in self.order]) + _STOCK_MARK
        # the columns in `order`: pick(columns)[place] is columns[order[place]]
        self.pick: Callable[[tuple[bytes, ...]], tuple[bytes, ...]] = (
            itemgetter(*self.order) if width > 1 else _only)
        self.hidden: bytes = b""        # the face-down counts last seen, and their head
        self.last_head: bytes = b""

    def head(self, hidden: bytes) -> bytes:
        """Return the key's head, `prefix` then the face-down counts in `order` (no ties).

        The last answer is kept: the children of one position mostly share its counts
        (the same ``bytes`` object, which ``play`` passes on when no card turns).
        """
        if hidden is not self.hidden:
            self.hidden = hidden
            self.last_head = self.prefix + bytes([hidden[p] for p in self.order])
        return self.last_head


def _stock_order(stock: bytes, width: int) -> tuple[list[int], bytes, list[list[int]]]:
    """Return the columns in order of their future stock cards, the sorted futures
    (ending in a mark), and the runs of places whose futures are equal (ties).

    >>> _stock_order(bytes([5, 2, 5, 6, 1, 6]), 3)
    ([1, 0, 2], b'\\x02\\x01\\x05\\x06\\x05\\x06\\xfe', [[1, 2]])
    """
    found = _StockOrder(stock, width)
    return found.order, found.prefix, found.groups


@final
class _Rules:
    """The rules of one Spider variant (`ranks` per run, `suits`, `width` columns), precomputed."""

    def __init__(self, ranks: int, suits: int, width: int) -> None:
        self.ranks = ranks
        self.width = width
        self.ties: dict[bytes, _StockOrder] = {}
        # pairs_cost of a column, shifted left by _COUNT_BITS, or'd with its face-down
        # count; keyed by the column itself, which a move shares with most children
        # (so a lookup mostly finds the very object, its hash already known). Used
        # only as plain Python: compiled, the loop costs less than the lookup.
        self.breaks: dict[bytes, int] = {}
        # streamlined_key's column, with the face-down count it was written for
        self.plain: dict[bytes, tuple[int, bytes]] = {}
        self.complete: dict[bytes, int] = {
            bytes(make_card(r, s) for r in range(ranks, 0, -1)): s for s in range(4)}
        # every run move, moves[(source * width + target) * _MAX_RUN + count], built once
        self.move_table: list[Move] = [
            Move(source, target, count) for source in range(width) for target in range(width)
            for count in range(_MAX_RUN)]
        # cost[below * 64 + above] of two face-up neighbours, for the heuristic
        cost = bytearray(64 * 64)
        bad = bytearray(64 * 64)            # 1 when the pair must be cut before a win
        suit_break = FOUR_SUIT_BREAK_WEIGHT if suits == 4 else SUIT_BREAK_WEIGHT
        for below in range(52):
            for above in range(52):
                same_rank_step = above % 13 + 1 == below % 13
                if same_rank_step and above // 13 == below // 13:
                    continue
                bad[below * 64 + above] = 1
                cost[below * 64 + above] = suit_break if same_rank_step else BREAK_WEIGHT
        self.cost: bytes = bytes(cost)
        self.bad: bytes = bytes(bad)

    # -- moves -------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return every legal move: builds (``build_moves``), then moves into empty columns
        (``empty_column_moves``), then the deal (``deal_moves``).

        Only one symmetry is used: once the stock is empty, a run goes only to the first
        empty column and a whole column never moves to an empty one (PROOFS, "Empty
        columns").
        """
        columns = state[0]
        hidden = state[1]
        stock = state[2]
        width = len(columns)
        lengths: list[int] = [0] * width    # the face-up same-suit run on each top, 0 empty
        empties: list[int] = []
        for j in range(width):
            column = columns[j]
            if len(column):
                lengths[j] = _run_length(column, hidden[j])
            else:
                empties.append(j)
        result = self.build_moves(columns, hidden, lengths)
        if empties:
            self.empty_column_moves(columns, lengths, empties, len(stock) > 0, result)
        self.deal_moves(stock, empties, result)
        return result

    def build_moves(self, columns: tuple[bytes, ...], hidden: bytes,
                    lengths: list[int]) -> list[Move]:
        """Return the runs moved onto a card: "a card or a run goes on a card one rank
        higher, whatever its suit ...; only a same-suit descending run moves as a unit (any
        top part of such a run may move)". `lengths` holds each column's top run.

        Same-suit builds come first, those that turn a card or empty a column foremost
        (the later found first), then the other builds in the same order.
        """
        width = len(columns)
        table = self.move_table
        top_places: list[int] = []
        top_cards: list[int] = []
        for j in range(width):
            if lengths[j]:
                column = columns[j]
                top_places.append(j)
                top_cards.append(column[len(column) - 1])
        tops = len(top_places)
        same_first: list[Move] = []         # built back to front
        same: list[Move] = []
        other_first: list[Move] = []        # built back to front
        other: list[Move] = []
        for s in range(tops):
            i = top_places[s]
            top = top_cards[s]
            length = lengths[i]
            top_rank = top % 13
            top_suit = top // 13
            face_up = len(columns[i]) - hidden[i]
            row = i * width * _MAX_RUN
            for t in range(tops):
                under = top_cards[t]
                k = under % 13 - top_rank
                if 1 <= k <= length:
                    j = top_places[t]
                    if j == i:
                        continue
                    move = table[row + j * _MAX_RUN + k]
                    if under // 13 == top_suit:
                        # a same-suit join; best when it turns a card or empties a column
                        if k == face_up:
                            same_first.append(move)
                        else:
                            same.append(move)
                    elif k == face_up:
                        other_first.append(move)
                    else:
                        other.append(move)
        same_first.reverse()
        other_first.reverse()
        result = same_first + same
        result += other_first
        result += other
        return result

    def empty_column_moves(self, columns: tuple[bytes, ...], lengths: list[int],
                           empties: list[int], dealing: bool, result: list[Move]) -> None:
        """Add the runs moved "into an empty column", by source column, then target,
        longest run first. With the stock empty (not `dealing`) only into the first empty
        column, and never a whole column (PROOFS, "Empty columns")."""
        width = len(columns)
        table = self.move_table
        targets = empties if dealing else empties[:1]
        for i in range(width):
            length = lengths[i]
            if not length:
                continue
            n = len(columns[i])
            row = i * width * _MAX_RUN
            for j in targets:
                for k in range(length, 0, -1):
                    if k == n and not dealing:
                        continue
                    result.append(table[row + j * _MAX_RUN + k])

    def deal_moves(self, stock: bytes, empties: list[int], result: list[Move]) -> None:
        """Add the deal: "the stock deals one card face up to every column, column 1 first,
        and only when no column is empty"."""
        if len(stock) and not empties:
            result.append(DEAL)

    def _completed(self, column: bytes, down: int) -> int:
        """Return the suit of the complete face-up run K..A on top of `column`, or -1."""
        n = len(column)
        ranks = self.ranks
        if n - down < ranks:
            return -1
        ace = column[n - 1]
        if ace % 13 != 0:
            return -1
        for step in range(1, ranks):
            if column[n - 1 - step] != ace + step:
                return -1
        return ace // 13

    def play(self, state: State, move: Move) -> State:
        """Return the position after a run move or a deal, complete runs removed."""
        columns = state[0]
        hidden = state[1]
        stock = state[2]
        removed = state[3]
        source = move[0]
        if source == DEAL_SOURCE:
            return self._deal(columns, hidden, stock, removed)
        target = move[1]
        count = move[2]
        column = columns[source]
        cut = len(column) - count
        rest = column[:cut]
        onto = columns[target] + column[cut:]
        down = hidden[source]
        if down >= cut and down:
            hidden = _replace(hidden, source, max(cut - 1, 0))
        onto, hidden, removed = self._clear_run(onto, target, hidden, removed)
        new_columns = list(columns)
        new_columns[source] = rest
        new_columns[target] = onto
        return _state(tuple(new_columns), hidden, stock, removed)

    def _deal(self, columns: tuple[bytes, ...], hidden: bytes, stock: bytes,
              removed: bytes) -> State:
        """Return the position after the stock deals a card to every column."""
        width = len(columns)
        new_columns: list[bytes] = []
        for i in range(width):
            column, hidden, removed = self._clear_run(columns[i] + stock[i:i + 1], i, hidden,
                                                      removed)
            new_columns.append(column)
        return _state(tuple(new_columns), hidden, stock[width:], removed)

    def _clear_run(self, column: bytes, i: int, hidden: bytes,
                   removed: bytes) -> tuple[bytes, bytes, bytes]:
        """Return column `i`, the face-down counts and the removed runs after a complete
        same-suit run on top of the column leaves (unchanged when there is none); the
        card it uncovers turns face up."""
        down = hidden[i]
        completed = self._completed(column, down)
        if completed < 0:
            return column, hidden, removed
        column = column[:len(column) - self.ranks]
        if down >= len(column) and down:
            hidden = _replace(hidden, i, max(len(column) - 1, 0))
        return column, hidden, bytes(sorted(removed + BYTE[completed]))

    def is_won(self, state: State) -> bool:
        """Return whether every card has left: no stock and every column empty."""
        if len(state[2]):
            return False
        for column in state[0]:
            if len(column):
                return False
        return True

    # -- search support ----------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the canonical key: (future stock cards, face-down count, column) sorted.

        Columns are ordered by the cards the stock will deal them (worked out once per
        stock and cached), then columns with identical futures by face-down count and
        cards; the key is the sorted futures, the face-down counts and the columns in
        that order. That is the same as sorting the (future, face down, column) chunks.
        """
        columns = state[0]
        hidden = state[1]
        stock = state[2]
        width = len(columns)
        if len(stock) == 0:
            byte = BYTE
            chunks = [byte[hidden[i]] + columns[i] for i in range(width)]
            chunks.sort()
            return _SEPARATOR.join(chunks)
        info = self.ties.get(stock)
        if info is None:
            if len(self.ties) > _CACHE_LIMIT:
                self.ties.clear()
            info = _StockOrder(stock, width)
            self.ties[stock] = info
        if len(info.groups) == 0:
            parts = [info.head(hidden)]
            parts.extend(info.pick(columns))
            return _SEPARATOR.join(parts)
        order = info.order
        new_columns = [columns[p] for p in order]
        new_hidden = [hidden[p] for p in order]
        for group in info.groups:
            pairs = [(new_hidden[p], new_columns[p]) for p in group]
            pairs.sort()
            for t in range(len(group)):
                p = group[t]
                new_hidden[p] = pairs[t][0]
                new_columns[p] = pairs[t][1]
        parts = [info.prefix + bytes(new_hidden)]
        parts.extend(new_columns)
        return _SEPARATOR.join(parts)

    def streamlined_key(self, state: State) -> bytes:
        """Return ``key`` of the position with the suits of its face-up cards dropped.

        Each face-up card is written as its rank, plus ``_LINKED`` when it continues a
        same-suit run on the card below it; face-down cards and the stock keep their
        suits. So two positions have equal streamlined keys exactly when their exact keys
        are equal once every face-up card is replaced by its rank and whether it joins a
        same-suit run below. The heuristics read no more than that, so merged positions
        look alike to a search, but they are not proven equally winnable (a face-up 9H
        and 9D on a TS differ as soon as an 8H turns up): a search over this key may
        win, never prove a loss.
        """
        columns = state[0]
        hidden = state[1]
        known = self.plain
        plain: list[bytes] = []
        for i in range(len(columns)):
            column = columns[i]
            down = hidden[i]
            # kept with the face-down count it was written for: a move shares most columns
            # (the very objects) with its parent, so most are found at once
            found = known.get(column)
            if found is not None and found[0] == down:
                plain.append(found[1])
                continue
            n = len(column)
            out = bytearray(column)
            for place in range(down + 1, n):
                card = column[place]
                below = column[place - 1]
                out[place] = card % 13 + _LINKED if below - 1 == card and below % 13 != 0 \
                    else card % 13
            if n > down:
                out[down] = column[down] % 13
            written = bytes(out)
            if len(known) > _CACHE_LIMIT:
                known.clear()
            known[column] = (down, written)
            plain.append(written)
        return self.key(_state(tuple(plain), hidden, state[2], state[3]))

    def heuristic(self, state: State) -> int:
        """Return ``weighted(state, HIDDEN_WEIGHT)``."""
        return self.weighted(state, HIDDEN_WEIGHT)

    def deep_heuristic(self, state: State) -> int:
        """Return ``weighted(state, DEEP_HIDDEN_WEIGHT)``."""
        return self.weighted(state, DEEP_HIDDEN_WEIGHT)

    def weighted(self, state: State, hidden_weight: int) -> int:
        """Return a weighted count of work left (smaller is better).

        Face-down cards, face-up neighbours out of sequence, face-up cards covering
        face-down ones, cards in play; a stock card counts as a break to come, so a deal
        does not look like a step back; empty columns count in favour. With 4 suits a
        pair in rank sequence but off suit costs more than a plain break (see the weights).
        `hidden_weight` is what a face-down card costs.
        """
        columns = state[0]
        hidden = state[1]
        stock = state[2]
        total = (CARD_WEIGHT + STOCK_WEIGHT) * len(stock)
        bonus = EMPTY_STOCK_BONUS if len(stock) else EMPTY_BONUS
        known = self.breaks
        for column, down in zip(columns, hidden):
            n = len(column)
            if n == 0:
                total -= bonus
                continue
            total += CARD_WEIGHT * n + hidden_weight * down
            if down:
                total += COVER_WEIGHT * (n - down)
            if NATIVE:
                total += self.pairs_cost(column, down)
                continue
            # the pairs' cost, remembered with the face-down count it was taken for
            found = known.get(column, -1)
            if found < 0 or found & _COUNT_MASK != down:
                if len(known) > _CACHE_LIMIT:
                    known.clear()
                found = self.pairs_cost(column, down) << _COUNT_BITS | down
                known[column] = found
            total += found >> _COUNT_BITS
        return total

    def column_cost(self, column: bytes, hidden: int, hidden_weight: int = HIDDEN_WEIGHT) -> int:
        """Return one non-empty column's share of the heuristic."""
        total = CARD_WEIGHT * len(column) + hidden_weight * hidden
        if hidden:
            total += COVER_WEIGHT * (len(column) - hidden)
        return total + self.pairs_cost(column, hidden)

    def pairs_cost(self, column: bytes, hidden: int) -> int:
        """Return the cost of a non-empty column's face-up neighbours (`cost`)."""
        cost = self.cost
        total = 0
        below = column[hidden]
        for place in range(hidden + 1, len(column)):
            above = column[place]
            total += cost[below * 64 + above]
            below = above
        return total

    def lower_bound(self, state: State) -> int:
        """Return deals left plus half the breaks the deals cannot mend, at least 1 while a
        card is in a column (PROOFS, "Lower bound")."""
        columns = state[0]
        stock = state[2]
        bad = self.bad
        width = len(columns)
        cuts = 0
        occupied = False
        for column in columns:
            n = len(column)
            if n:
                occupied = True
            for place in range(1, n):
                cuts += bad[column[place - 1] * 64 + column[place]]
        deals = len(stock) // width
        rest = max(0, cuts - width * deals)
        bound = deals + (rest + 1) // 2
        if bound == 0 and occupied:
            bound = 1
        return bound


# -- PROOFS -------------------------------------------------------------------------
#
# Empty columns (``_Rules.empty_column_moves``). While the stock lasts every move into
# an empty column is listed: each column will be dealt its own stock cards, so empty
# columns are different targets. Once the stock is empty no rule names a column, so
# exchanging two columns (each with its face-down count) maps every legal move to a
# legal move, a winning line to a winning line, and keeps the key (which then sorts
# the columns with their face-down counts). A run moved into any empty column gives the
# position that the same run moved into the first empty column gives, with those two
# empty columns exchanged: as winnable, and the same key. A whole column (no card face
# down under it, since a run is face up) moved into an empty column turns no card and
# gives the same position with the two columns exchanged: a winning line through that
# move wins without it (drop it and exchange the two columns in every later move), so
# leaving it out loses no win and makes no loss look won.
#
# Lower bound (``_Rules.lower_bound``). Every pair of neighbours in a column that is not
# a same-suit step (``bad``) must be cut before a win: its upper card is not built on
# its lower one, so they cannot leave in one complete run. A run move cuts at most two
# such pairs (under the run it moves, and under a K..A it completes on the target); a
# deal cuts at most one per column (under each run it completes). All the stock must be
# dealt, so with d deals left and b such pairs a win needs at least
# ``d + ceil((b - columns * d) / 2)`` moves, and at least one while a card is in a column.
