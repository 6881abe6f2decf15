"""Yukon's positions, move generator, play, keys, forced moves and heuristic for one variant.

Kept apart from ``yukon.py`` (rules text, text format, notation, the verifier's rule check
and the proofs of the forced moves) because this is the hot path of every Yukon search,
written to be compiled by mypyc: the rules of a variant become lookup tables of a
``Rules`` object built once, positions stay tuples of ``bytes``, moves are packed into
ints while they are generated and sorted, and each distinct ``Move`` is built once.
"""
from __future__ import annotations

from typing import Final, NamedTuple, final

from games._deadlock import OFF, TOP, Fixpoint, fixpoint

FOUNDATION: Final = 255         # target of a move home
FROM_FOUNDATION: Final = 100    # source 100 + suit: a foundation's top card comes back
# heuristic weights (tuned on deals 1-30, checked on 31-60)
H_OUT: Final = 4
H_DOWN: Final = 6
H_DISORDER: Final = 3
H_WANTED: Final = 4
H_KING: Final = 6
H_EMPTY: Final = 3
SEPARATOR: Final = 0xFE         # between the columns of a key

# A move packed into an int while moves are generated: source, target, count, card.
_CODE_BITS: Final = 27
_CODE_MASK: Final = (1 << 27) - 1
_BYTES: Final = [bytes((n,)) for n in range(256)]


class State(NamedTuple):
    """A position: columns bottom card first, face-down counts, foundation tops by suit."""

    columns: tuple[bytes, ...]
    hidden: bytes                # how many cards at the bottom of each column are face down
    foundations: bytes           # top rank on each suit's foundation (CDHS), 0 = none


class Move(NamedTuple):
    """`count` cards from the top of column `source` (or a foundation) to `target`.

    Sources: 0..columns-1 a column, FROM_FOUNDATION + suit a foundation's top card.
    Targets: a column, or FOUNDATION. `card` is the card that moves (the bottom one of
    the stack), kept so that the notation can name it.
    """

    source: int
    target: int
    count: int   # type: ignore[assignment]  # shadows tuple.count; the name reads best
    card: int


def _code(source: int, target: int, count: int, card: int) -> int:
    """Return a move packed into an int (`_CODE_BITS` bits)."""
    return (source << 20) | (target << 12) | (count << 6) | card


def _order(hidden: int, source: int, count: int, target: int) -> int:
    """Return a move's sort key: most face-down cards under it first (0 when that does not
    count), then sources left to right, longer stacks first, then targets."""
    return ((((63 - hidden) << 7 | source) << 6 | (63 - count)) << 8 | target) << _CODE_BITS


@final
class Rules:
    """The rules of one Yukon variant as lookup tables indexed by card."""

    any_to_empty: bool           # an empty column takes any card (else only a King)
    ranks: int
    prune: bool                  # moves are withheld from dead positions (``stuck``)
    deadlock: Fixpoint           # the cards that can never leave their columns
    parent_a: list[int]          # the two cards a card may lie on (one rank up, other
    parent_b: list[int]          # colour), -1 for none: the fixpoint's tables
    child_a: list[int]           # the two cards that may lie on a card, -1 for none
    child_b: list[int]
    kings: list[int]             # each suit's King, CDHS
    fits: bytes                  # fits[c * 52 + p]: c may lie on p
    in_sequence: bytes           # [below * 52 + above]: one rank down, other colour
    suit: list[int]
    rank0: list[int]             # rank - 1
    made: dict[int, Move]        # each Move once, by its code

    def __init__(self, any_to_empty: bool, ranks: int) -> None:
        self.any_to_empty = any_to_empty
        self.ranks = ranks
        self.prune = True
        self.deadlock = fixpoint(ranks, any_to_empty)
        self.parent_a = self.deadlock.parent_a
        self.parent_b = self.deadlock.parent_b
        self.child_a = [-1] * 52
        self.child_b = [-1] * 52
        fits = bytearray(52 * 52)
        in_sequence = bytearray(52 * 52)
        for c in range(52):
            for p in (self.parent_a[c], self.parent_b[c]):
                if p < 0:
                    continue
                fits[c * 52 + p] = 1
                if self.child_a[p] < 0:
                    self.child_a[p] = c
                else:
                    self.child_b[p] = c
        for below in range(52):
            for above in range(52):
                if below % 13 == above % 13 + 1 and (13 <= below < 39) != (13 <= above < 39):
                    in_sequence[below * 52 + above] = 1
        self.fits = bytes(fits)
        self.in_sequence = bytes(in_sequence)
        self.kings = [s * 13 + ranks - 1 for s in range(4)]
        self.suit = [c // 13 for c in range(52)]
        self.rank0 = [c % 13 for c in range(52)]
        self.made = {}

    def move(self, code: int) -> Move:
        """Return the Move packed in `code`, built once."""
        made = self.made.get(code)
        if made is None:
            made = Move(code >> 20, (code >> 12) & 255, (code >> 6) & 63, code & 63)
            self.made[code] = made
        return made

    # -- cards that can never leave their columns ------------------------------------

    def stuck(self, columns: tuple[bytes, ...], hidden: bytes) -> list[int]:
        """Return the cards that can never leave their columns, bottom first by column
        (``games._deadlock``, which has the rule and the proof). None while ``prune`` is
        off (tests compare searches with and without the rule)."""
        if not self.prune:
            return []
        return self.deadlock.stuck(columns, hidden)

    # -- moves ------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return the legal moves in ``Yukon.moves``' order; none from a dead position:
        stacks whose move turns a card up, cards home, stacks taken off a card they are
        not built on, stacks taken off a card they are built on (sideways), then cards
        back from the foundations."""
        columns, hidden, foundations = state
        on = [OFF] * 52
        where = [-1] * 52
        face_down = [False] * 52
        pending: list[int] = []
        deadlock = self.deadlock
        deadlock.lay_out(columns, hidden, on, where, face_down, pending)
        if self.prune and deadlock.settle(on, face_down, pending):
            return []                  # no line of play wins from here
        home: list[int] = []
        turning: list[int] = []
        fixing: list[int] = []
        sideways: list[int] = []
        empty_column = self.stack_moves(state, where, home, turning, fixing, sideways)
        if empty_column >= 0:
            self.empty_column_moves(state, where, empty_column, turning, fixing, sideways)
        turning.sort()
        fixing.sort()
        sideways.sort()
        move = self.move
        result = [move(item & _CODE_MASK) for item in turning]
        for code in home:
            result.append(move(code))
        for item in fixing:
            result.append(move(item & _CODE_MASK))
        for item in sideways:
            result.append(move(item & _CODE_MASK))
        self.foundation_returns(state, on, where, empty_column, result)
        return result

    def stack_moves(self, state: State, where: list[int], home: list[int], turning: list[int],
                    fixing: list[int], sideways: list[int]) -> int:
        """Add the column tops that go home and the stacks that go onto a column's top
        card, each sorted into its kind; return the first empty column (-1: none)."""
        columns, hidden, foundations = state
        fits, suit, rank0 = self.fits, self.suit, self.rank0
        child_a, child_b = self.child_a, self.child_b
        empty_column = -1
        for t in range(len(columns)):
            column = columns[t]
            if not column:
                if empty_column < 0:
                    empty_column = t
                continue
            top = column[len(column) - 1]
            if foundations[suit[top]] == rank0[top]:
                home.append(_code(t, FOUNDATION, 1, top))
            card = child_a[top]
            while card >= 0:
                at = where[card]
                if at >= 0:
                    i = at >> 6
                    j = at & 63
                    down = hidden[i]
                    if i != t and j >= down:
                        count = len(columns[i]) - j
                        if j == down and down:
                            turning.append(_order(down, i, count, t) | _code(i, t, count, card))
                        elif j and fits[card * 52 + columns[i][j - 1]]:
                            sideways.append(_order(0, i, count, t) | _code(i, t, count, card))
                        else:
                            fixing.append(_order(0, i, count, t) | _code(i, t, count, card))
                card = child_b[top] if card == child_a[top] else -1
        return empty_column

    def empty_column_moves(self, state: State, where: list[int], t: int, turning: list[int],
                           fixing: list[int], sideways: list[int]) -> None:
        """Add the stacks that go to the empty column `t`: any face-up stack, or only
        King-headed ones, as the variant says."""
        columns, hidden, _ = state
        fits = self.fits
        if self.any_to_empty:
            for i in range(len(columns)):
                column = columns[i]
                down = hidden[i]
                n = len(column)
                for j in range(max(down, 1), n):
                    card = column[j]
                    count = n - j
                    if j == down:
                        turning.append(_order(down, i, count, t) | _code(i, t, count, card))
                    elif fits[card * 52 + column[j - 1]]:
                        sideways.append(_order(0, i, count, t) | _code(i, t, count, card))
                    else:
                        fixing.append(_order(0, i, count, t) | _code(i, t, count, card))
            return
        for card in self.kings:
            at = where[card]
            if at < 0:
                continue
            i = at >> 6
            j = at & 63
            down = hidden[i]
            if j and j >= down:
                count = len(columns[i]) - j
                if j == down:
                    turning.append(_order(down, i, count, t) | _code(i, t, count, card))
                else:
                    fixing.append(_order(0, i, count, t) | _code(i, t, count, card))

    def foundation_returns(self, state: State, on: list[int], where: list[int],
                           empty_column: int, result: list[Move]) -> None:
        """Add cards back from the foundations: onto a top card, then to the first empty
        column."""
        foundations = state[2]
        parent_a, parent_b, move = self.parent_a, self.parent_b, self.move
        for s in range(4):
            top_rank = foundations[s]
            if not top_rank:
                continue
            card = s * 13 + top_rank - 1
            parent = parent_a[card]
            if parent >= 0:
                if on[parent] == TOP:
                    result.append(move(_code(FROM_FOUNDATION + s, where[parent] >> 6, 1, card)))
                parent = parent_b[card]
                if on[parent] == TOP:
                    result.append(move(_code(FROM_FOUNDATION + s, where[parent] >> 6, 1, card)))
            if empty_column >= 0 and (self.any_to_empty or top_rank == self.ranks):
                result.append(move(_code(FROM_FOUNDATION + s, empty_column, 1, card)))

    def narrow_moves(self, state: State) -> list[Move]:
        """Return ``moves`` less cards back from the foundations and stacks moved off a
        card they already fit on, unless that card then goes home."""
        columns, hidden, foundations = state
        fits, suit, rank0 = self.fits, self.suit, self.rank0
        result: list[Move] = []
        for move in self.moves(state):
            source, target, count, card = move
            if source >= FROM_FOUNDATION:
                continue
            if target != FOUNDATION:
                column = columns[source]
                j = len(column) - count
                if j > hidden[source]:
                    under = column[j - 1]
                    if fits[card * 52 + under] and foundations[suit[under]] != rank0[under]:
                        continue
            result.append(move)
        return result

    # -- play, won, key ----------------------------------------------------------------

    def play(self, state: State, move: Move) -> State:
        """Return the position after `move`; an exposed face-down card is turned up."""
        columns, hidden, foundations = state
        source, target, count, card = move
        new_columns = list(columns)
        if source >= FROM_FOUNDATION:
            s = source - FROM_FOUNDATION
            moving = _BYTES[card]
            foundations = foundations[:s] + _BYTES[foundations[s] - 1] + foundations[s + 1:]
        else:
            column = columns[source]
            cut = len(column) - count
            moving = column[cut:]
            new_columns[source] = column[:cut]
            down = hidden[source]
            if down and down >= cut:
                hidden = hidden[:source] + _BYTES[max(cut - 1, 0)] + hidden[source + 1:]
        if target == FOUNDATION:
            s = moving[0] // 13
            foundations = foundations[:s] + _BYTES[foundations[s] + 1] + foundations[s + 1:]
        else:
            new_columns[target] = columns[target] + moving
        return State(tuple(new_columns), hidden, foundations)

    def is_won(self, state: State) -> bool:
        """Return whether every card is home."""
        foundations = state[2]
        return foundations[0] + foundations[1] + foundations[2] + foundations[3] == 4 * self.ranks

    def key(self, state: State) -> bytes:
        """Return the columns sorted, each after its face-down count, joined."""
        columns, hidden, _ = state
        pieces = [_BYTES[hidden[i]] + columns[i] for i in range(len(columns))]
        pieces.sort()
        return _BYTES[SEPARATOR].join(pieces)

    # -- search support ------------------------------------------------------------------

    def heuristic(self, state: State) -> int:
        """Return ``Yukon.heuristic``: cards out, face-down cards, disorder, Kings off the
        bottom, empty columns, cards above the ones the foundations want next."""
        columns, hidden, foundations = state
        in_sequence, suit, rank0 = self.in_sequence, self.suit, self.rank0
        king = self.ranks - 1
        score = H_OUT * (4 * self.ranks - (foundations[0] + foundations[1] + foundations[2]
                                           + foundations[3]))
        for i in range(len(columns)):
            column = columns[i]
            n = len(column)
            if not n:
                score -= H_EMPTY
                continue
            down = hidden[i]
            score += H_DOWN * down
            below = column[0]
            if foundations[suit[below]] == rank0[below]:
                score += H_WANTED * (n - 1)
            for j in range(1, n):
                above = column[j]
                if j >= down and not in_sequence[below * 52 + above]:
                    score += H_DISORDER
                if rank0[above] == king:
                    score += H_KING
                if foundations[suit[above]] == rank0[above]:
                    score += H_WANTED * (n - 1 - j)
                below = above
        return score

    def lower_bound(self, state: State) -> int:
        """Every card not yet home needs at least one more move."""
        foundations = state[2]
        return 4 * self.ranks - (foundations[0] + foundations[1] + foundations[2] + foundations[3])

    def forced(self, state: State) -> list[Move]:
        """Return one safe move home (``Yukon.forced`` has the rule and its proofs)."""
        columns, _, foundations = state
        suit, rank0 = self.suit, self.rank0
        for i in range(len(columns)):
            column = columns[i]
            if column:
                top = column[len(column) - 1]
                s = suit[top]
                r = rank0[top]
                if foundations[s] != r:
                    continue
                if r == 0:
                    return [self.move(_code(i, FOUNDATION, 1, top))]
                if s == 0 or s == 3:             # black: the red suits, then the other black
                    first, second, same = foundations[1], foundations[2], foundations[3 - s]
                else:
                    first, second, same = foundations[0], foundations[3], foundations[3 - s]
                if first >= r and second >= r and same >= r - 1:
                    return [self.move(_code(i, FOUNDATION, 1, top))]
        return []
