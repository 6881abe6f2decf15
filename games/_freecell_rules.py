"""FreeCell's move generator, safe auto-moves and heuristic, precomputed for one variant.

Kept apart from ``freecell.py`` (which states the rules, the text format and the
notation) because this is the hot path of every FreeCell search: tables indexed by
card replace calls, and positions stay tuples of ``bytes``.
"""
from __future__ import annotations

from typing import Any

from solver.cards import OTHER_COLOUR_SUITS, is_red, make_card, rank, suit

EMPTY = 255
FOUNDATION = 255
CELL = 100


class _Rules:
    """The rules of one FreeCell variant as lookup tables."""

    def __init__(self, game: Any) -> None:
        from games.freecell import Move

        self.Move = Move
        self.king = game.ranks
        self.alternate = game.build == "alternate"
        self.kings_only = game.empty == "kings"
        self.rank = [rank(c) for c in range(52)] + [0] * 204
        self.suit = [suit(c) for c in range(52)] + [0] * 204
        # parents[c]: the cards c may be placed on in a column
        self.parents: list[tuple[int, ...]] = []
        for c in range(52):
            r = rank(c)
            if r >= game.ranks:
                self.parents.append(())
            elif self.alternate:
                self.parents.append(tuple(make_card(r + 1, s) for s in range(4)
                                          if is_red(make_card(r + 1, s)) != is_red(c)))
            else:
                self.parents.append((make_card(r + 1, suit(c)),))
        # fits[below * 64 + above]: `above` sits properly on `below` (a run continues)
        self.fits = bytearray(64 * 64)
        for c in range(52):
            for p in self.parents[c]:
                self.fits[p * 64 + c] = 1
        # opposite[s]: the suits whose cards a card of suit s may hold in a column
        self.opposite = OTHER_COLOUR_SUITS

    # -- moves ---------------------------------------------------------------------

    def moves(self, state: Any) -> list[Any]:
        """Return the legal moves: home first, then builds, empty column, cells."""
        columns, cells, foundations = state
        Move, rank_of, suit_of, parents, fits = self.Move, self.rank, self.suit, self.parents, self.fits
        free = [i for i, c in enumerate(cells) if c == EMPTY]
        empties = [i for i, column in enumerate(columns) if not column]
        tops = {column[-1]: i for i, column in enumerate(columns) if column}
        result = []
        # home
        for card, i in tops.items():
            if foundations[suit_of[card]] + 1 == rank_of[card]:
                result.append(Move(i, FOUNDATION, 1))
        for j, card in enumerate(cells):
            if card != EMPTY and foundations[suit_of[card]] + 1 == rank_of[card]:
                result.append(Move(CELL + j, FOUNDATION, 1))
        # cell onto a column's top card
        for j, card in enumerate(cells):
            if card != EMPTY:
                for p in parents[card]:
                    t = tops.get(p)
                    if t is not None:
                        result.append(Move(CELL + j, t, 1))
        # runs onto a column's top card, longest first
        if self.kings_only:
            capacity = len(free) + 1
            capacity_to_empty = capacity
        else:
            capacity = (len(free) + 1) << len(empties)
            capacity_to_empty = (len(free) + 1) << max(0, len(empties) - 1)
        runs = []
        for i, column in enumerate(columns):
            if not column:
                continue
            length = 1
            n = len(column)
            while length < n and fits[column[n - length - 1] * 64 + column[n - length]]:
                length += 1
            runs.append((i, column, length))
            for k in range(min(length, capacity), 0, -1):
                for p in parents[column[-k]]:
                    t = tops.get(p)
                    if t is not None:
                        result.append(Move(i, t, k))
        # to the first empty column (empty columns are interchangeable)
        if empties:
            e = empties[0]
            king = self.king
            for i, column, length in runs:
                for k in range(min(length, capacity_to_empty), 0, -1):
                    if k == len(column):
                        continue          # a whole column to an empty one changes nothing
                    if self.kings_only and rank_of[column[-k]] != king:
                        continue
                    result.append(Move(i, e, k))
            for j, card in enumerate(cells):
                if card != EMPTY and (not self.kings_only or rank_of[card] == king):
                    result.append(Move(CELL + j, e, 1))
        # to the first free cell (cells are interchangeable)
        if free:
            f = CELL + free[0]
            for i, column, length in runs:
                result.append(Move(i, f, 1))
        return result

    def run_steps(self, state: Any, move: Any) -> list[Any]:
        """Return single-card steps moving a run through free cells and empty columns.

        The classic recursion: park part of the run in an empty column (itself moved
        through the cells and the other empty columns), move the rest, bring the part
        back. It needs at most the capacity ``moves`` allowed.
        """
        Move = self.Move
        columns, cells, _ = state
        source, target, count = move
        free = [CELL + i for i, c in enumerate(cells) if c == EMPTY]
        empties = [] if self.kings_only else [
            i for i, column in enumerate(columns) if not column and i != target]
        steps: list[Any] = []

        def carry(n: int, source: int, target: int, empties: list[int]) -> None:
            if n <= len(free) + 1:
                used = free[:n - 1]
                steps.extend(Move(source, c, 1) for c in used)
                steps.append(Move(source, target, 1))
                steps.extend(Move(c, target, 1) for c in reversed(used))
                return
            park, rest = empties[0], empties[1:]
            part = min(n - 1, (len(free) + 1) << len(rest))
            carry(part, source, park, rest)
            carry(n - part, source, target, rest)
            carry(part, park, target, rest)

        carry(count, source, target, empties)
        return steps

    # -- safe auto-moves -------------------------------------------------------------

    def forced(self, state: Any) -> list[Any]:
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
        colours it must wait for both foundations of the other colour to reach rank
        r - 1.
        """
        columns, cells, foundations = state
        rank_of, suit_of, Move = self.rank, self.suit, self.Move
        result = []
        for i, column in enumerate(columns):
            if column:
                card = column[-1]
                r, s = rank_of[card], suit_of[card]
                if foundations[s] + 1 == r and self._safe(r, s, foundations):
                    result.append(Move(i, FOUNDATION, 1))
        for j, card in enumerate(cells):
            if card != EMPTY:
                r, s = rank_of[card], suit_of[card]
                if foundations[s] + 1 == r and self._safe(r, s, foundations):
                    result.append(Move(CELL + j, FOUNDATION, 1))
        return result

    def _safe(self, r: int, s: int, foundations: bytes) -> bool:
        if not self.alternate:
            return True
        a, b = self.opposite[s]
        return foundations[a] >= r - 1 and foundations[b] >= r - 1

    # -- guidance --------------------------------------------------------------------

    def heuristic(self, state: Any) -> int:
        """Return work left: disorder, cards out, buried next cards, cells, empty columns.

        A card "out of order" lies above a lower card of the same column, so it must
        move at least once more before that lower card can go home. A card "buried"
        lies above a card its foundation wants next. Weights were chosen on MS deals
        1-40 and checked on 100-179 (benchmarks/strategies.py): they cut the states
        stored to about half of the previous weights' and win every deal there within
        60 s, where the previous weights left one unknown.
        """
        columns, cells, foundations = state
        rank_of = self.rank
        out_of_order = buried = 0
        for column in columns:
            lowest = 99
            for depth, card in enumerate(column):
                r = rank_of[card]
                if r > lowest:
                    out_of_order += 1
                else:
                    lowest = r
                if foundations[card // 13] + 1 == r:
                    buried += len(column) - 1 - depth
        busy_cells = sum(1 for c in cells if c != EMPTY)
        empty_columns = sum(1 for column in columns if not column)
        left = 4 * self.king - sum(foundations)
        return 3 * out_of_order + left + buried + busy_cells - 4 * empty_columns
