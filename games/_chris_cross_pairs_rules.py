"""Chris-Cross Pairs' positions, move generator, play, keys and heuristic for one variant.

Kept apart from ``chris_cross_pairs.py`` (rules text, rulings, text format, notation, the
verifier's rule check) because this is the hot path of every search, written to be
compiled by mypyc: a variant's geometry (its columns and diagonals) becomes lists of
places in a ``Rules`` object built once, a position's tableau is one ``bytes`` of
``size * size`` cells, and each distinct ``Move`` is built once.

A cell holds a card (0-51), a card that slid this turn (``MOVED | card``), a place cast
out this turn and still open to a slide (``HOLE``) or nothing (``EMPTY``). Places are
numbered row by row from the top left: place ``row * size + column``.
"""
from __future__ import annotations

from typing import Final, NamedTuple, final

EMPTY: Final = 255              # a place with no card
HOLE: Final = 254               # a place cast out this turn, open to a slide until the close
MOVED: Final = 64               # MOVED | card: a card that slid this turn (it moves no more)
CARD_LIMIT: Final = 52          # cells below this hold a card that has not moved this turn

PAIR: Final = 0                 # Move(PAIR, a, b): cast out the cards at places a < b
SLIDE: Final = 1                # Move(SLIDE, a, b): the card at a slides into the hole at b
CLOSE: Final = 2                # Move(CLOSE, 0, 0): end the turn, every row closes its gaps
ROTATE: Final = 3               # Move(ROTATE, 0, 0): phase 2 begins, short rows rotate
DEAL: Final = 4                 # Move(DEAL, 0, 0): a new round fills the tableau from the stock

START: Final = 0                # phase: phase 1, no pair cast out yet this round
PHASE_1: Final = 1              # phase 1 after a pair went
PHASE_2: Final = 2              # phase 2: the rows have rotated


class State(NamedTuple):
    """A position: the tableau's cells row by row, the stock, the phase and the round."""

    grid: bytes                 # size * size cells, row by row from the top left
    stock: bytes                # the stock, the next card to be dealt first
    phase: int                  # START, PHASE_1 or PHASE_2
    round: int                  # the round's number, from 1 (no rule reads it)


class Move(NamedTuple):
    """One step: ``kind`` (PAIR, SLIDE, CLOSE, ROTATE, DEAL) and two places (0 if unused)."""

    kind: int
    a: int
    b: int


_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__


@final
class Rules:
    """The rules of one variant: its geometry as lists of places."""

    size: int                   # rows, columns and places on a diagonal
    ranks: int                  # ranks per suit
    cells: int                  # size * size
    columns: list[list[int]]    # columns[c]: its places, top to bottom
    diagonals: list[list[int]]  # the two diagonals' places, top to bottom
    rank_of: bytes              # rank_of[cell]: the rank index of a card or moved card
    made: list[Move]            # made[(kind * cells + a) * cells + b]: each Move once
    close_move: Move
    rotate_move: Move
    deal_move: Move

    def __init__(self, size: int, ranks: int) -> None:
        self.size = size
        self.ranks = ranks
        cells = size * size
        self.cells = cells
        self.columns = [[r * size + c for r in range(size)] for c in range(size)]
        self.diagonals = [[i * size + i for i in range(size)],
                          [i * size + size - 1 - i for i in range(size)]]
        self.rank_of = bytes([(v & 63) % 13 if (v & 63) < 52 else 0 for v in range(256)])
        self.made = [Move(kind, a, b) for kind in range(2) for a in range(cells)
                     for b in range(cells)]
        self.close_move = Move(CLOSE, 0, 0)
        self.rotate_move = Move(ROTATE, 0, 0)
        self.deal_move = Move(DEAL, 0, 0)

    # -- what a position offers ------------------------------------------------------

    def stage(self, grid: bytes) -> int:
        """Return 0 between turns, 1 while casting out (holes, no slide yet), 2 once a
        card has slid this turn."""
        found = 0
        for v in grid:
            if v >= MOVED and v < HOLE:
                return 2
            if v == HOLE:
                found = 1
        return found

    def pairs(self, grid: bytes) -> list[Move]:
        """Return every pair that may be cast out while no card has slid this turn: two
        cards of one rank in a column, or on a diagonal whose every place held a card at
        the turn's start (a card still, or a place cast out this turn)."""
        found: list[Move] = []
        for places in self.columns:
            self._pairs_among(places, grid, found)
        for places in self.diagonals:
            full = True
            for p in places:
                if grid[p] == EMPTY:
                    full = False
                    break
            if full:
                self._pairs_among(places, grid, found)
        return found

    def _pairs_among(self, places: list[int], grid: bytes, found: list[Move]) -> None:
        """Append to `found` every pair of equal rank among `places` (a column or a
        diagonal), skipping places that hold no card still there."""
        rank_of = self.rank_of
        cells = self.cells
        made = self.made
        for i in range(len(places)):
            p = places[i]
            v = grid[p]
            if v >= CARD_LIMIT:
                continue
            for j in range(i + 1, len(places)):
                q = places[j]
                w = grid[q]
                if w < CARD_LIMIT and rank_of[w] == rank_of[v]:
                    found.append(made[(PAIR * cells + p) * cells + q])

    def has_pair(self, grid: bytes) -> bool:
        """Return whether a pair may be cast out (``pairs`` is not empty)."""
        return len(self.pairs(grid)) > 0

    def slides(self, grid: bytes, first: int) -> list[Move]:
        """Return the slides into holes at places `first` and after: the unmoved card
        directly above a hole down into it, or the one directly below up."""
        size = self.size
        cells = self.cells
        made = self.made
        found: list[Move] = []
        for h in range(first, cells):
            if grid[h] != HOLE:
                continue
            if h >= size and grid[h - size] < CARD_LIMIT:
                found.append(made[(SLIDE * cells + h - size) * cells + h])
            if h + size < cells and grid[h + size] < CARD_LIMIT:
                found.append(made[(SLIDE * cells + h + size) * cells + h])
        return found

    def legal_moves(self, state: State) -> list[Move]:
        """Return every legal step (slides in any order); none once the game is won."""
        return self._steps(state, False)

    def between_turns(self, state: State) -> list[Move]:
        """Return the steps between turns: the pairs, or else the rotation or the deal."""
        grid, stock, phase, _ = state
        found = self.pairs(grid)
        if found:
            return found
        if phase == PHASE_1:
            return [self.rotate_move]
        if phase == PHASE_2 and len(stock) > 0:
            return [self.deal_move]
        return found

    def moves(self, state: State) -> list[Move]:
        """Return ``ChrisCrossPairs.moves``: the legal steps, slides into holes in place
        order only (the slides of a turn commute, so each set of them is reached once);
        none once the game is won."""
        return self._steps(state, True)

    def _steps(self, state: State, in_place_order: bool) -> list[Move]:
        """Return the legal steps; with `in_place_order`, once a card has slid this turn,
        only slides into holes after the last place a card slid into."""
        grid = state[0]
        if self.is_won(state):
            return []
        stage = self.stage(grid)
        if stage == 0:
            return self.between_turns(state)
        first = 0
        if stage == 2 and in_place_order:
            for p in range(self.cells):
                v = grid[p]
                if v >= MOVED and v < HOLE:
                    first = p + 1
        found = self.pairs(grid) if stage == 1 else []
        found.extend(self.slides(grid, first))
        found.append(self.close_move)
        return found

    def forced(self, state: State) -> list[Move]:
        """Return the only legal step when there is exactly one, else []."""
        found = self.legal_moves(state)
        return found if len(found) == 1 else []

    # -- play ------------------------------------------------------------------------

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step (not checked)."""
        grid, stock, phase, round_ = state
        kind = move[0]
        if kind == PAIR:
            cells = bytearray(grid)
            cells[move[1]] = HOLE
            cells[move[2]] = HOLE
            return _NEW_TUPLE(_STATE, (bytes(cells), stock, phase if phase else PHASE_1,
                                       round_))
        if kind == SLIDE:
            cells = bytearray(grid)
            cells[move[2]] = MOVED | grid[move[1]]
            cells[move[1]] = EMPTY
            return _NEW_TUPLE(_STATE, (bytes(cells), stock, phase, round_))
        if kind == CLOSE:
            return _NEW_TUPLE(_STATE, (self.closed(grid), stock, phase, round_))
        if kind == ROTATE:
            return _NEW_TUPLE(_STATE, (self.rotated(grid), stock, PHASE_2, round_))
        filled, used = self.filled(grid, stock)
        return _NEW_TUPLE(_STATE, (filled, stock[used:], START, round_ + 1))

    def closed(self, grid: bytes) -> bytes:
        """Return the tableau with every row's cards shifted left over its gaps (holes
        left open become gaps, slid cards plain cards)."""
        size = self.size
        out = bytearray([EMPTY]) * self.cells
        for r in range(size):
            k = r * size
            for p in range(r * size, r * size + size):
                v = grid[p]
                if v < HOLE:
                    out[k] = v & 63
                    k += 1
        return bytes(out)

    def rotated(self, grid: bytes) -> bytes:
        """Return the tableau with every row of fewer than `size` cards turned left by
        one: its first card goes to its end."""
        size = self.size
        out = bytearray(grid)
        for r in range(size):
            start = r * size
            n = 0
            while n < size and grid[start + n] != EMPTY:
                n += 1
            if 1 < n < size:
                for i in range(n - 1):
                    out[start + i] = grid[start + i + 1]
                out[start + n - 1] = grid[start]
        return bytes(out)

    def filled(self, grid: bytes, stock: bytes) -> tuple[bytes, int]:
        """Return the tableau with its empty places filled from the stock, column by
        column from the left, each top to bottom, as far as the stock lasts, and the
        number of stock cards used."""
        size = self.size
        out = bytearray(grid)
        used = 0
        total = len(stock)
        for c in range(size):
            for r in range(size):
                p = r * size + c
                if out[p] == EMPTY and used < total:
                    out[p] = stock[used]
                    used += 1
        return bytes(out), used

    def is_won(self, state: State) -> bool:
        """Return whether no card is left in the tableau or the stock."""
        if len(state[1]):
            return False
        for v in state[0]:
            if v < HOLE:
                return False
        return True

    # -- search support --------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the cells, the phase and the stock with ranks renamed in order of first
        appearance (tableau row by row, then the stock); suits and the round left out.

        The rules read only ranks, and only whether two ranks are equal, so positions
        that differ by a renaming of ranks (and by suits) have the same future, step for
        step. A cell's code: 0 empty, 1 a hole, 2 + name a card, 2 + 13 + name a card
        that slid this turn; the stock's cards are 2 + name.
        """
        grid, stock, phase, _ = state
        rank_of = self.rank_of
        names = bytearray([255]) * 13
        next_name = 0
        out = bytearray(len(grid) + 1 + len(stock))
        k = 0
        for v in grid:
            if v == EMPTY:
                out[k] = 0
            elif v == HOLE:
                out[k] = 1
            else:
                r = rank_of[v]
                name = names[r]
                if name == 255:
                    name = next_name
                    names[r] = name
                    next_name += 1
                out[k] = 2 + name + (13 if v >= MOVED else 0)
            k += 1
        out[k] = phase
        k += 1
        for v in stock:
            r = rank_of[v]
            name = names[r]
            if name == 255:
                name = next_name
                names[r] = name
                next_name += 1
            out[k] = 2 + name
            k += 1
        return bytes(out)

    def cards_left(self, state: State) -> int:
        """Return the cards in the tableau and the stock."""
        left = len(state[1])
        for v in state[0]:
            if v < HOLE:
                left += 1
        return left

    def heuristic(self, state: State) -> int:
        """Return the cards left in the tableau and the stock."""
        return self.cards_left(state)

    def lower_bound(self, state: State) -> int:
        """Return the pairs left: each needs a step that casts it out."""
        return self.cards_left(state) // 2
