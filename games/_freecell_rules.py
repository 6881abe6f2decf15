"""FreeCell's hot path for one variant: moves, play, safe auto-moves, keys and guidance.

Kept apart from ``freecell.py`` (which states the rules, the text format and the
notation) because this is what every FreeCell search runs per position, and it is
compiled by mypyc (``setup.py``): the class is native and final, every table is typed,
and positions stay tuples of ``bytes``, so the loops run on machine integers. The same
source runs unchanged as plain Python. It imports nothing from the game module: the
position and move types live here and ``freecell.py`` re-exports them.
"""
from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Final, Iterator, NamedTuple, final

if TYPE_CHECKING:      # compiled, a native 64-bit int; as plain Python, never looked up
    from mypy_extensions import i64

from solver.cards import OTHER_COLOUR_SUITS, is_red, make_card, rank, suit
from solver.piles import BYTE, raised, replaced

EMPTY: Final = 255              # an empty free cell
FOUNDATION: Final = 255         # target index of a move home
CELL: Final = 100               # place CELL + i is free cell i
SEPARATOR: Final = b"\xfe"      # between the parts of a key (never a card)
MAX_COLUMNS: Final = 10
MAX_CELLS: Final = 7
MAX_RUN: Final = 13             # a run descends one rank a card, so it is at most 13 long


class State(NamedTuple):
    """A position: columns bottom card first, cells in place, foundation ranks by suit."""

    columns: tuple[bytes, ...]
    cells: bytes                 # one byte per cell, EMPTY where free
    foundations: bytes           # top rank on each suit's foundation, 0 = none


class Move(NamedTuple):
    """Cards moving from `source` to `target`; `count` > 1 only for a run column to column.

    Sources and targets: 0..columns-1 a column, 100 + i cell i, FOUNDATION home.
    """

    source: int
    target: int
    count: int = 1   # type: ignore[assignment]  # shadows tuple.count; the name reads best


# Every move the generator can make, built once: index _slot(source), _slot(target), count.
# Places are numbered 0-9 for columns, 10-16 for cells and 17 for the foundation.
_PLACES: Final = MAX_COLUMNS + MAX_CELLS + 1
_NEW: Final = tuple.__new__     # makes a NamedTuple without its Python-level __new__
_HOME_SLOT: Final = _PLACES - 1


def _place(slot: int) -> int:
    """Return the place (column, CELL + i or FOUNDATION) of a move-table slot."""
    if slot < MAX_COLUMNS:
        return slot
    if slot == _HOME_SLOT:
        return FOUNDATION
    return CELL + slot - MAX_COLUMNS


def _slot(place: int) -> int:
    """Return the move-table slot of a place."""
    if place < CELL:
        return place
    if place == FOUNDATION:
        return _HOME_SLOT
    return place - CELL + MAX_COLUMNS


_MOVES: Final[list[Move]] = [Move(_place(a), _place(b), k)
                             for a in range(_PLACES) for b in range(_PLACES)
                             for k in range(MAX_RUN + 1)]
# The search edge of each of those moves when no forced move follows it: (move,), made once.
_ALONE: Final[list[tuple[Move, ...]]] = [(move,) for move in _MOVES]


@final
class _Rules:
    """The rules of one FreeCell variant as lookup tables.

    The game module's ``moves``, ``play``, ``is_won``, ``key``, ``heuristic``,
    ``lower_bound``, ``forced`` and ``expand`` each delegate to the method of the same
    name here.
    """

    king: int
    alternate: bool
    kings_only: bool
    full: bytes
    rank: bytes                  # rank of each card (indexing bytes gives a native int)
    suit: bytes
    parents: list[tuple[int, ...]]
    fits: bytes
    opposite: list[tuple[int, int]]
    partner: list[int]           # partner[s]: the other suit of the colour of s
    higher: dict[bytes, list[bytes]]    # foundations -> each suit's one card higher (piles.raised)
    table: list[Move]
    alone: list[tuple[Move, ...]]
    kind: type                   # State, read as an attribute (a module global is a dict lookup)

    def __init__(self, ranks: int, alternate: bool, kings_only: bool) -> None:
        self.king = ranks
        self.alternate = alternate
        self.kings_only = kings_only
        self.full = bytes([ranks] * 4)          # every foundation complete
        self.rank = bytes([rank(c) for c in range(52)] + [0] * 204)
        self.suit = bytes([suit(c) for c in range(52)] + [0] * 204)
        # parents[c]: the cards c may be placed on in a column
        self.parents = []
        for c in range(52):
            r = rank(c)
            if r >= ranks:
                self.parents.append(())
            elif alternate:
                self.parents.append(tuple([make_card(r + 1, s) for s in range(4)
                                           if is_red(make_card(r + 1, s)) != is_red(c)]))
            else:
                self.parents.append((make_card(r + 1, suit(c)),))
        # fits[below * 64 + above]: `above` sits properly on `below` (a run continues)
        fits = bytearray(64 * 64)
        for c in range(52):
            for p in self.parents[c]:
                fits[p * 64 + c] = 1
        self.fits = bytes(fits)
        # opposite[s]: the suits whose cards a card of suit s may hold in a column
        self.opposite = list(OTHER_COLOUR_SUITS)
        self.partner = [next(t for t in range(4) if t != s and t not in OTHER_COLOUR_SUITS[s])
                        for s in range(4)]
        self.table = _MOVES
        self.alone = _ALONE
        self.kind = State
        self.higher = {}

    def _move(self, source: int, target: int, count: int) -> Move:
        """Return the Move (shared, from the table when the run fits in it)."""
        if count > MAX_RUN:
            return Move(source, target, count)
        return self.table[(_slot(source) * _PLACES + _slot(target)) * (MAX_RUN + 1) + count]

    # -- moves ---------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return the legal moves: home first, then cells onto columns, runs onto
        columns (longest first), to the first empty column, to the first free cell."""
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        ncolumns: i64 = len(columns)
        # where[card]: the column whose top card it is, else -1
        where = [-1] * 64
        free: i64 = 0
        first_free: i64 = -1
        for j in range(len(cells)):
            if cells[j] == EMPTY:
                if first_free < 0:
                    first_free = j
                free += 1
        empties: i64 = 0
        first_empty: i64 = -1
        for i in range(ncolumns):
            column = columns[i]
            if len(column):
                where[column[len(column) - 1]] = i
            else:
                if first_empty < 0:
                    first_empty = i
                empties += 1
        result = self.home_moves(state)
        self.cell_moves(cells, where, result)
        lengths = self.run_moves(columns, where, free, empties, result)
        if first_empty >= 0:
            self.empty_column_moves(state, lengths, free, empties, first_empty, result)
        if first_free >= 0:
            f = MAX_COLUMNS + first_free
            step = MAX_RUN + 1
            table = self.table
            for i in range(ncolumns):
                if len(columns[i]):
                    result.append(table[(i * _PLACES + f) * step + 1])
        return result

    def home_moves(self, state: State) -> list[Move]:
        """Return the column tops and the cells' cards that go home now."""
        columns, cells, foundations = state[0], state[1], state[2]
        rank_of, suit_of, table = self.rank, self.suit, self.table
        step: i64 = MAX_RUN + 1
        result: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            if len(column):
                card: i64 = column[len(column) - 1]
                if foundations[suit_of[card]] + 1 == rank_of[card]:
                    result.append(table[(i * _PLACES + _HOME_SLOT) * step + 1])
        for j in range(len(cells)):
            card = cells[j]
            if card != EMPTY and foundations[suit_of[card]] + 1 == rank_of[card]:
                result.append(table[((MAX_COLUMNS + j) * _PLACES + _HOME_SLOT) * step + 1])
        return result

    def cell_moves(self, cells: bytes, where: list[int], result: list[Move]) -> None:
        """Add each cell's card played onto a column's top card it fits."""
        parents, table = self.parents, self.table
        step: i64 = MAX_RUN + 1
        for j in range(len(cells)):
            card: i64 = cells[j]
            if card != EMPTY:
                for p in parents[card]:
                    t: i64 = where[p]
                    if t >= 0:
                        result.append(table[((MAX_COLUMNS + j) * _PLACES + t) * step + 1])

    def run_moves(self, columns: tuple[bytes, ...], where: list[int], free: int, empties: int,
                  result: list[Move]) -> list[int]:
        """Add the runs moved onto a column's top card, longest first, as far as the
        free cells and empty columns allow; return each column's top run length."""
        parents, fits, table = self.parents, self.fits, self.table
        step: i64 = MAX_RUN + 1
        row: i64 = _PLACES * step
        capacity: i64 = free + 1 if self.kings_only else (free + 1) << empties
        lengths = [0] * len(columns)            # the run on top of each column
        for i in range(len(columns)):
            column = columns[i]
            n: i64 = len(column)
            if not n:
                continue
            length: i64 = 1
            while length < n and fits[column[n - length - 1] * 64 + column[n - length]]:
                length += 1
            lengths[i] = length
            k: i64 = length if length < capacity else capacity
            while k > 0:
                for p in parents[column[n - k]]:
                    t: i64 = where[p]
                    if t >= 0:
                        if k > MAX_RUN:
                            result.append(Move(i, t, k))
                        else:
                            result.append(table[i * row + t * step + k])
                k -= 1
        return lengths

    def empty_column_moves(self, state: State, lengths: list[int], free: int, empties: int,
                           e: int, result: list[Move]) -> None:
        """Add the runs and the cells' cards moved to the first empty column `e` (empty
        columns are interchangeable); with ``kings_only``, King-headed ones only."""
        columns, cells = state[0], state[1]
        rank_of, table, king, kings_only = self.rank, self.table, self.king, self.kings_only
        step: i64 = MAX_RUN + 1
        row: i64 = _PLACES * step
        capacity_to_empty: i64
        if kings_only:
            capacity_to_empty = free + 1
        else:
            capacity_to_empty = (free + 1) << (empties - 1 if empties > 0 else 0)
        for i in range(len(columns)):
            n: i64 = len(columns[i])
            if not n:
                continue
            length: i64 = lengths[i]
            k: i64 = length if length < capacity_to_empty else capacity_to_empty
            while k > 0:
                if k != n and (not kings_only or rank_of[columns[i][n - k]] == king):
                    if k > MAX_RUN:
                        result.append(Move(i, e, k))
                    else:
                        result.append(table[i * row + e * step + k])
                k -= 1
        for j in range(len(cells)):
            card = cells[j]
            if card != EMPTY and (not kings_only or rank_of[card] == king):
                result.append(table[((MAX_COLUMNS + j) * _PLACES + e) * step + 1])

    def play(self, state: State, move: Move) -> State:
        """Return the position after `move` (a single card, or a run column to column).

        The State is made by ``tuple.__new__`` (``_NEW``), which skips the Python-level
        ``__new__`` a NamedTuple class has: the same object, made without a Python call.
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        foundations: bytes = state[2]
        source: int = move[0]
        target: int = move[1]
        count: int = move[2]
        if source < CELL:
            column = columns[source]
            cut = len(column) - count
            moving = column[cut:]
            if target < CELL:
                return _NEW(self.kind, (replaced(columns, source, column[:cut], target,
                                                 columns[target] + moving), cells, foundations))
            columns = replaced(columns, source, column[:cut], -1, b"")
        else:
            j = source - CELL
            moving = BYTE[cells[j]]
            cells = b"%b%b%b" % (cells[:j], BYTE[EMPTY], cells[j + 1:])    # one allocation
            if target < CELL:
                return _NEW(self.kind, (replaced(columns, -1, b"", target,
                                                 columns[target] + moving), cells, foundations))
        if target == FOUNDATION:
            foundations = raised(self.higher, foundations, self.suit[moving[0]])
        else:
            j = target - CELL
            cells = b"%b%b%b" % (cells[:j], moving, cells[j + 1:])
        return _NEW(self.kind, (columns, cells, foundations))

    def is_won(self, state: State) -> bool:
        """Return whether every card is home."""
        foundations: bytes = state[2]
        return foundations == self.full

    # -- search support ---------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Columns are interchangeable and so are cells: sort the columns, and write the
        cells as the set of cards they hold (52 bits in 7 bytes, cheaper than sorting).

        Two positions share a key exactly when their columns are the same multiset and
        their cells hold the same cards (the number of cells is the variant's). Foundations
        are left out: they hold exactly the cards found nowhere else.
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        held = 0                                # the set of cards in cells, as bits
        for j in range(len(cells)):
            card = cells[j]
            if card != EMPTY:
                held |= 1 << card
        return held.to_bytes(7, "little") + SEPARATOR.join(sorted(columns))

    def lower_bound(self, state: State) -> int:
        """Return the moves every win from here needs at least (admissible, for A*).

        The unit is the search's move: one card, or a run moved at once within the
        cells' and empty columns' capacity (Microsoft FreeCell's count, the one published
        optimal lengths use). A card goes home on its own, so every card not yet home
        needs one move. Call a tableau card *direct* when its first move is home; the
        others need at least one move more before that, and cards that first move
        together lie next to each other in one *segment* of their column (a stretch
        that is already a run: cards moving at once are a run, and a column only grows
        on top, so column-mates moving together were neighbours all along). So the
        bound adds one for every segment that must hold a card that is not direct:

        - A card lying above a lower card of its own suit is not direct: that card must
          go home first and cannot move while it lies beneath (its segment counts).
        - For direct cards x and y, let x -> y when some card z lies below x with z of
          y's suit and lower: x leaves before z, which goes home before y. The direct
          cards' home moves follow every such arrow, so they hold no cycle, and every
          cycle of arrows holds a card that is not direct. Cycles over disjoint sets of
          segments need different segments: a greedy packing of them, shortest first,
          counts one each (Paul and Helmert's deadlock analysis, by segments).
        """
        columns: tuple[bytes, ...] = state[0]
        foundations: bytes = state[2]
        rank_of = self.rank
        suit_of = self.suit
        fits = self.fits
        left = 4 * self.king
        for s in range(len(foundations)):
            left -= foundations[s]
        cards: list[int] = []                   # the cards that may be direct
        segments: list[int] = []                # the segment of each
        lows: list[int] = []                    # the lowest rank of each suit below each
        segment = -1
        for column in columns:
            low = [13, 13, 13, 13]              # the lowest rank of each suit so far (13: none)
            opened = False
            first = 0                           # where this segment's cards begin
            for depth in range(len(column)):
                card = column[depth]
                if depth == 0 or not fits[column[depth - 1] * 64 + card]:
                    segment += 1
                    opened = False
                    first = len(cards)
                r = rank_of[card]
                s = suit_of[card]
                if low[s] < r:
                    if not opened:              # the segment holds a card not direct
                        opened = True
                        left += 1
                        del cards[first:]
                        del segments[first:]
                        del lows[4 * first:]
                elif not opened:
                    cards.append(card)
                    segments.append(segment)
                    lows.extend(low)
                if r < low[s]:
                    low[s] = r
        return left + self._cycles(cards, segments, lows)

    def _cycles(self, cards: list[int], segments: list[int], lows: list[int]) -> int:
        """Return how many cycles of ``lower_bound``'s arrows over disjoint segments a
        greedy packing finds, the shortest cycle first (sets of cards are bit masks)."""
        n = len(cards)
        rank_of = self.rank
        suit_of = self.suit
        above = [0] * 56                        # [suit * 14 + t]: the cards of suit ranked above t
        together = [0] * (segments[n - 1] + 1 if n else 0)    # the cards of each segment
        for j in range(n):
            card = cards[j]
            bit = 1 << j
            above[suit_of[card] * 14 + rank_of[card] - 1] |= bit   # ranked exactly t + 1
            together[segments[j]] |= bit
        for base in range(0, 56, 14):           # then above t: ranked t + 1 or more
            for t in range(12, -1, -1):
                above[base + t] |= above[base + t + 1]
        arrows = [0] * n
        for i in range(n):
            base = 4 * i
            arrows[i] = (above[lows[base]] | above[14 + lows[base + 1]]
                         | above[28 + lows[base + 2]] | above[42 + lows[base + 3]])
        alive = (1 << n) - 1
        found = 0
        shortest = 2                            # no cycle left is shorter than this
        while True:
            # a card with no arrow in or no arrow out among the living is on no cycle
            while True:
                pointed = 0
                rest = alive
                while rest:
                    low = rest & -rest
                    rest ^= low
                    v = low.bit_length() - 1
                    if arrows[v] & alive:
                        pointed |= arrows[v]
                    else:
                        alive ^= low
                if alive & pointed == alive:
                    break
                alive &= pointed
            best: list[int] = []
            starts = alive
            while starts:
                low = starts & -starts
                starts ^= low
                cycle = _shortest_cycle(low.bit_length() - 1, arrows, alive, len(best))
                if cycle and (not best or len(cycle) < len(best)):
                    best = cycle
                    if len(best) <= shortest:
                        break
            if not best:
                return found
            found += 1
            shortest = len(best)
            for v in best:
                alive &= ~together[segments[v]]

    # -- safe auto-moves -------------------------------------------------------------

    def forced(self, state: State) -> list[Move]:
        """Return the home moves no solution can regret.

        Why safe: a card home never comes back, so playing card c home now can only
        hurt if some later step needs c in the tableau, and the only use of a card
        there is to hold a card one rank lower (of the other colour, or of its own
        suit when building by suit). When all those cards are already home, take any
        solution, delete its steps of c and play c home first: every other step keeps
        its source and target top cards (nothing could ever be put on c), cells and
        columns only gain room, and the foundation of c's suit only gets ahead. So
        the deal is still won. Building by suit, the one card c could hold is the one
        just below it on its own foundation: every home move is safe. In alternating
        colours it is safe once both foundations of the other colour reach rank r - 1.

        It is also safe, in alternating colours, once both foundations of the other
        colour reach r - 2 and the other suit of c's colour reaches r - 3 (the rule
        patsolve credits to Raymond): the cards c could hold are x, the two cards of rank
        r - 1 of the other colour, and each of them can itself go home whenever a
        solution puts it on c, its r - 2 being home. So take the solution, play c home
        first, and wherever the solution puts x on c, send x home instead and delete x's
        later steps. What could then be put on x is a card z of rank r - 2 of c's colour:
        c's own suit's is home already, and the other's can go home, its r - 3 being
        home; send z home wherever the solution puts it on x after x went home, and
        delete z's later steps. Nothing can be put on z, its r - 3s of the other colour
        being home. The cards sent home early are always the top of their column in the
        solution, so every other step keeps its source's and target's top cards, the
        tableau and cells only hold fewer cards, and the win needs no more steps (each
        card's steps shrink to its one move home): the deal is still won, in as few moves.
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        foundations: bytes = state[2]
        rank_of = self.rank
        suit_of = self.suit
        table = self.table
        step = MAX_RUN + 1
        result: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            if len(column):
                card = column[len(column) - 1]
                r = rank_of[card]
                s = suit_of[card]
                if foundations[s] + 1 == r and self._safe(r, s, foundations):
                    result.append(table[(i * _PLACES + _HOME_SLOT) * step + 1])
        for j in range(len(cells)):
            card = cells[j]
            if card != EMPTY:
                r = rank_of[card]
                s = suit_of[card]
                if foundations[s] + 1 == r and self._safe(r, s, foundations):
                    result.append(table[((MAX_COLUMNS + j) * _PLACES + _HOME_SLOT) * step + 1])
        return result

    def _safe(self, r: int, s: int, foundations: bytes) -> bool:
        if not self.alternate:
            return True
        a, b = self.opposite[s]
        lower = foundations[a] if foundations[a] < foundations[b] else foundations[b]
        if lower >= r - 1:
            return True
        return lower >= r - 2 and foundations[self.partner[s]] >= r - 3

    # -- every child at once -----------------------------------------------------------

    def children(self, state: State) -> Iterator[tuple[tuple[Move, ...], State | None, bytes]]:
        """Yield (edge, child, key) for each move of ``moves``, in its order: the edge and
        child ``solver.search.base.follow`` makes of the move (it, then the forced moves it
        unlocks) and ``key(child)``, made in compiled code with no Python-level call a
        child (``solver.game.Game.children``). A generator, so that a depth-first search
        that goes down the first new child makes its siblings only when it comes back.
        The child is None where no forced move follows the move: the search makes it with
        ``play`` only if its key is new (most children are positions already seen).

        Made together, siblings share work that separate calls repeat:

        - When `state` has no forced move, a move that sends no card home leaves the
          foundations as they are, so no card that was on a column's top or in a cell is
          now safe to send home; the one card that may be is the one the move uncovers on
          its source column. ``forced`` of that child is that card's home move or nothing,
          and only that card is checked (``_uncovers``, on the parent).
        - ``key`` sorts the columns. The parent's are sorted once; a child's key joins them
          with the one or two columns the move changed put in their places (``_replace``),
          and its cells' cards are the parent's but the one that moved, if any. A child
          with forced moves played after its move gets ``key`` itself.

        ``tests/games/test_freecell.py`` checks it against ``follow`` and ``key`` on
        random play, FreeCell, Seahaven Towers and their twins.
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        moves = self.moves(state)
        settled = not self.forced(state)
        ranked = sorted(columns)                # the columns as key() sorts them
        held = 0                                # the cells' cards, as key() writes them
        for j in range(len(cells)):
            card = cells[j]
            if card != EMPTY:
                held |= 1 << card
        prefix = held.to_bytes(7, "little")
        for move in moves:
            source: int = move[0]
            target: int = move[1]
            count: int = move[2]
            if settled and target != FOUNDATION:
                home = self._uncovers(state, source, count)
                if home is None:            # no forced move: key it without making it
                    yield self._edge(move), None, self._child_key(state, move, ranked, held,
                                                                  prefix)
                    continue
                more: list[Move] | None = [home]
                child = self.play(state, move)
            else:
                child = self.play(state, move)
                more = self.forced(child)
            if not more:
                yield self._edge(move), child, self._child_key(state, move, ranked, held, prefix)
                continue
            played = [move]
            while more:
                for forced_move in more:
                    child = self.play(child, forced_move)
                    played.append(forced_move)
                more = self.forced(child)
            yield tuple(played), child, self.key(child)

    def _edge(self, move: Move) -> tuple[Move, ...]:
        """Return the search edge of `move` alone, (move,), shared from the table."""
        count: int = move[2]
        if count > MAX_RUN:
            return (move,)
        return self.alone[(_slot(move[0]) * _PLACES + _slot(move[1])) * (MAX_RUN + 1) + count]

    def _child_key(self, state: State, move: Move, ranked: list[bytes], held: int,
                   prefix: bytes) -> bytes:
        """Return ``key`` of the position after `move` from `state`'s columns already sorted
        (`ranked`) and its cells' cards (`held`, written as `prefix`), without making it."""
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        source: int = move[0]
        target: int = move[1]
        count: int = move[2]
        if source < CELL:
            column = columns[source]
            moving = column[len(column) - count:]
        else:
            moving = BYTE[cells[source - CELL]]
        if source >= CELL:
            start = (held ^ 1 << cells[source - CELL]).to_bytes(7, "little")
        elif target != FOUNDATION and target >= CELL:
            start = (held | 1 << moving[0]).to_bytes(7, "little")
        else:
            start = prefix                      # column to column, or home: cells as they were
        ordered = ranked[:]
        if source < CELL:
            _replace(ordered, columns[source], columns[source][:len(columns[source]) - count])
        if target < CELL:
            _replace(ordered, columns[target], columns[target] + moving)
        return start + SEPARATOR.join(ordered)

    def _uncovers(self, state: State, source: int, count: int) -> Move | None:
        """Return the home move ``forced`` would make after `count` cards leave `source`
        for anywhere but home (the card they uncover, if it is safe to send), else None.
        A move that sends no card home leaves the foundations as they are, so that card
        is the only one that can have become safe."""
        if source >= CELL:
            return None
        column = state[0][source]
        n = len(column) - count
        if not n:
            return None
        foundations: bytes = state[2]
        card = column[n - 1]
        r = self.rank[card]
        s = self.suit[card]
        if foundations[s] + 1 == r and self._safe(r, s, foundations):
            return self.table[(source * _PLACES + _HOME_SLOT) * (MAX_RUN + 1) + 1]
        return None

    # -- guidance --------------------------------------------------------------------

    def heuristic(self, state: State) -> int:
        """Return work left: disorder, cards out, buried next cards, cells, empty columns.

        A card "out of order" lies above a lower card of the same column, so it must
        move at least once more before that lower card can go home. A card "buried"
        lies above a card its foundation wants next. Weights were chosen on MS deals
        1-40 and checked on 100-179 (benchmarks/strategies.py): they cut the states
        stored to about half of the previous weights' and win every deal there within
        60 s, where the previous weights left one unknown. Disorder then weighed 4
        instead of 3: the default stores 4.5% fewer positions on MS deals 1-1000 and
        19% fewer on 1001-1400 (data/portfolio-vs-dfs.md).
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        foundations: bytes = state[2]
        rank_of = self.rank
        wanted: i64 = 0                     # the card each foundation wants next, as bits
        for s in range(4):
            if foundations[s] < self.king:
                wanted |= 1 << (s * 13 + foundations[s])
        out_of_order: i64 = 0
        buried: i64 = 0
        empty_columns: i64 = 0
        for column in columns:
            n: i64 = len(column)
            if not n:
                empty_columns += 1
                continue
            lowest: i64 = 99
            for depth in range(n):
                card: i64 = column[depth]
                r: i64 = rank_of[card]
                if r > lowest:
                    out_of_order += 1
                else:
                    lowest = r
                if wanted >> card & 1:
                    buried += n - 1 - depth
        busy_cells = 0
        for j in range(len(cells)):
            if cells[j] != EMPTY:
                busy_cells += 1
        left = 4 * self.king
        for s in range(len(foundations)):
            left -= foundations[s]
        return 4 * out_of_order + left + buried + busy_cells - 4 * empty_columns

    # -- solutions -------------------------------------------------------------------

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the single-card steps that carry out `move` (a run: ``run_steps``)."""
        if move[2] == 1:
            return [move]
        return self.run_steps(state, move)

    def run_steps(self, state: State, move: Move) -> list[Move]:
        """Return single-card steps moving a run through free cells and empty columns.

        The classic recursion: park part of the run in an empty column (itself moved
        through the cells and the other empty columns), move the rest, bring the part
        back. It needs at most the capacity ``moves`` allowed.
        """
        columns: tuple[bytes, ...] = state[0]
        cells: bytes = state[1]
        target: int = move[1]
        free = [CELL + j for j in range(len(cells)) if cells[j] == EMPTY]
        empties = [] if self.kings_only else [
            i for i in range(len(columns)) if not columns[i] and i != target]
        steps: list[Move] = []
        self._carry(move[2], move[0], target, empties, free, steps)
        return steps

    def _carry(self, n: int, source: int, target: int, empties: list[int], free: list[int],
               steps: list[Move]) -> None:
        if n <= len(free) + 1:
            used = free[:n - 1]
            for c in used:
                steps.append(self._move(source, c, 1))
            steps.append(self._move(source, target, 1))
            for c in reversed(used):
                steps.append(self._move(c, target, 1))
            return
        park, rest = empties[0], empties[1:]
        part = min(n - 1, (len(free) + 1) << len(rest))
        self._carry(part, source, park, rest, free, steps)
        self._carry(n - part, source, target, rest, free, steps)
        self._carry(part, park, target, rest, free, steps)


def _replace(ranked: list[bytes], old: bytes, new: bytes) -> None:
    """Put column `new` in the place of column `old` in `ranked`, the columns sorted as
    bytes, keeping them sorted: in its place when both hold cards (no card lies in two
    columns, so non-empty columns sort by their bottom cards, and a move keeps a column's
    bottom card unless it empties the column or fills an empty one), else by search."""
    if len(old) and len(new):
        for k in range(len(ranked)):
            if ranked[k] is old:
                ranked[k] = new
                return
    ranked.remove(old)
    insort(ranked, new)


def _shortest_cycle(start: int, arrows: list[int], alive: int, shorter_than: int) -> list[int]:
    """Return a shortest cycle of `arrows` (bit masks) through `start` among the `alive`
    cards, or [] (also when none is shorter than `shorter_than`, where that is not 0)."""
    target = 1 << start
    layers = [target]
    seen = target
    frontier = target
    while True:
        reached = 0
        rest = frontier
        while rest:
            low = rest & -rest
            rest ^= low
            reached |= arrows[low.bit_length() - 1]
        reached &= alive
        if reached & target:                    # back at the start: walk the layers back
            cycle = [start]
            for k in range(len(layers) - 1, 0, -1):
                rest = layers[k]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    v = low.bit_length() - 1
                    if arrows[v] & target:
                        cycle.append(v)
                        target = low
                        break
            return cycle
        reached &= ~seen
        if not reached or (shorter_than and len(layers) + 1 >= shorter_than):
            return []
        seen |= reached
        layers.append(reached)
        frontier = reached
