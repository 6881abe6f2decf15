"""Gaps' positions, move generator, play (with the redeal), keys and heuristic for one variant.

Kept apart from ``gaps.py`` (rules text, text format, notation, the verifier's rule check)
because this is the hot path of every Gaps search, written to be compiled by mypyc: a
variant's rules become lookup tables of a ``Rules`` object built once, a layout is one
``bytes`` of places, and each distinct ``Move`` is built once.

The redeal's shuffle is PySolFC's (``Montana_Talon.dealCards``): the gathered cards, in
the layout's order (left to right, top to bottom), are shuffled with the random stream
that dealt the game, continued where it stands. ``stream_draws`` gives the numbers that
stream hands out; a position carries how many it has handed out so far (``draws``).
"""
from __future__ import annotations

import random
from typing import Final, NamedTuple, final

GAP: Final = 255                 # a place without a card
NO_PLACE: Final = 254            # move target: the place right of a row's last card
REDEAL_CARD: Final = 253
MAX_PLACES: Final = 52
MS_LAST: Final = 32000           # deals 1..32000 use the Microsoft generator, as pysol_cards
_LCG_MASK: Final = 0x1FFFFFFFF
_CACHE_LIMIT: Final = 20000


class State(NamedTuple):
    """A position: the layout, the redeals made and where the deal's random stream stands."""

    places: bytes                # rows * width places, row by row, left to right; GAP: none
    redeals: int                 # redeals made so far
    seed: int                    # the deal number: it seeds the stream every redeal uses
    draws: int                   # numbers the stream has handed out (the deal's own shuffle too)


class Move(NamedTuple):
    """One step: `card` into the gap at place `target`; ``REDEAL`` is the redeal."""

    card: int
    target: int


REDEAL: Final = Move(REDEAL_CARD, REDEAL_CARD)

_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__


def stream_draws(seed: int, draws: int, count: int) -> list[int]:
    """Return the swap indices of PySolFC's shuffle of `count` cards with deal `seed`'s
    stream after `draws` numbers: for n = count-1 down to 1, ``randint(0, n)``.

    Deals 1..32000 use the Microsoft generator (pysol_cards' ``LCRandom31``: 15-bit
    values, ``randint(a, b) = a + value % (b + 1 - a)``); other numbers the Mersenne
    Twister seeded with the number (``MTRandom``: ``a + int(random() * (b + 1 - a))``).
    Each ``randint`` draws one number, so a shuffle of n cards draws n - 1.

    >>> stream_draws(1, 51, 5), stream_draws(40000, 51, 3)
    ([4, 2, 0, 1], [0, 1])
    """
    found: list[int] = []
    if 1 <= seed <= MS_LAST:
        x = seed
        for _ in range(draws):
            x = (x * 214013 + 2531011) & _LCG_MASK
        for n in range(count - 1, 0, -1):
            x = (x * 214013 + 2531011) & _LCG_MASK
            found.append(((x >> 16) & 0x7FFF) % (n + 1))
        return found
    rng = random.Random(seed)
    for _ in range(draws):
        rng.random()
    for n in range(count - 1, 0, -1):
        found.append(int(rng.random() * (n + 1)))
    return found


@final
class Rules:
    """The rules of one Gaps variant as lookup tables indexed by card and place."""

    redeals: int                 # redeals a game allows
    any_time: bool               # a redeal may be made with moves left (PySolFC)
    suit_rows: bool              # row r takes only the Two of suit r (the Basic Variant)
    suits: int                   # rows, and suits
    ranks: int                   # places per row; the top rank plays the King
    size: int                    # places
    next_card: list[int]         # next_card[card]: the card one rank higher, GAP for a King
    made: list[Move]             # made[card * MAX_PLACES + target]: each Move once
    _shuffles: dict[tuple[int, int, int], list[int]]

    def __init__(self, redeals: int, any_time: bool, suit_rows: bool, suits: int,
                 ranks: int) -> None:
        self.redeals = redeals
        self.any_time = any_time
        self.suit_rows = suit_rows
        self.suits = suits
        self.ranks = ranks
        self.size = suits * ranks
        self.next_card = [c + 1 if c % 13 + 1 < ranks else GAP for c in range(52)]
        self.made = [Move(c, t) for c in range(52) for t in range(MAX_PLACES)]
        self._shuffles = {}

    # -- rules ---------------------------------------------------------------------------

    def run_lengths(self, places: bytes) -> list[int]:
        """Return per row the length of its Two-headed suit sequence from the first place
        (0 when the first place holds no Two, or, with ``suit_rows``, not the row's Two)."""
        ranks = self.ranks
        found: list[int] = []
        for r in range(self.suits):
            base = r * ranks
            first = places[base]
            length = 0
            if first != GAP and first % 13 == 1 and (not self.suit_rows or first // 13 == r):
                length = 1
                while length < ranks - 1 and places[base + length] == first + length:
                    length += 1
            found.append(length)
        return found

    def moves(self, state: State) -> list[Move]:
        """Return the legal steps: cards that extend a row's sequence first, then the
        other fills, Twos from elsewhere into first places, Twos moved between first
        places last; the redeal when it is allowed."""
        places = state[0]
        ranks, made, next_card = self.ranks, self.made, self.next_card
        runs = self.run_lengths(places)
        first: list[Move] = []
        rest: list[Move] = []
        last: list[Move] = []
        for g in range(self.size):
            if places[g] != GAP:
                continue
            col = g % ranks
            if col == 0:
                row = g // ranks
                for s in range(self.suits):
                    if self.suit_rows and s != row:
                        continue
                    two = s * 13 + 1
                    at = places.find(two)
                    if at % ranks == 0:
                        last.append(made[two * MAX_PLACES + g])
                    else:
                        first.append(made[two * MAX_PLACES + g])
                continue
            left = places[g - 1]
            if left == GAP:
                continue
            card = next_card[left]
            if card == GAP:
                continue
            if runs[g // ranks] == col:
                first.append(made[card * MAX_PLACES + g])
            else:
                rest.append(made[card * MAX_PLACES + g])
        result = first + rest + last
        if state[1] < self.redeals and (self.any_time or not result) and not self.is_won(state):
            result.append(REDEAL)
        return result

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step."""
        card = move[0]
        if card == REDEAL_CARD:
            return self.redeal(state)
        places = state[0]
        new = bytearray(places)
        new[places.find(card)] = GAP
        new[move[1]] = card
        return _NEW_TUPLE(_STATE, (bytes(new), state[1], state[2], state[3]))

    def redeal(self, state: State) -> State:
        """Return the position after the redeal (PySolFC's ``Montana_Talon.dealCards``).

        Each row keeps its Two-headed sequence; the other places, row by row, left to
        right, give up their cards to the talon in that order, the first of them in each
        row stays a gap; the talon is shuffled (``stream_draws``) and dealt from its end
        to the other places in the same order.
        """
        places, redeals, seed, draws = state
        ranks = self.ranks
        runs = self.run_lengths(places)
        out: list[int] = []              # the places that are not in a sequence, in order
        gaps: list[int] = []             # the first of them in each row
        for r in range(self.suits):
            base = r * ranks
            gaps.append(base + runs[r])
            for j in range(runs[r], ranks):
                out.append(base + j)
        talon = [places[p] for p in out if places[p] != GAP]
        count = len(talon)
        if count > 1:
            for n, j in zip(range(count - 1, 0, -1), self.shuffle_indices(seed, draws, count)):
                talon[n], talon[j] = talon[j], talon[n]
        new = bytearray(places)
        for p in out:
            new[p] = GAP if p in gaps else talon.pop()
        used = count - 1 if count > 1 else 0
        return _NEW_TUPLE(_STATE, (bytes(new), redeals + 1, seed, draws + used))

    def shuffle_indices(self, seed: int, draws: int, count: int) -> list[int]:
        """Return ``stream_draws(seed, draws, count)``, kept for the searches that ask again."""
        key = (seed, draws, count)
        found = self._shuffles.get(key)
        if found is None:
            if len(self._shuffles) >= _CACHE_LIMIT:
                self._shuffles.clear()
            found = stream_draws(seed, draws, count)
            self._shuffles[key] = found
        return found

    def is_won(self, state: State) -> bool:
        """Return whether every row holds Two to King of one suit from its first place."""
        full = self.ranks - 1
        for length in self.run_lengths(state[0]):
            if length != full:
                return False
        return True

    # -- search support ------------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the layout and the redeals made, with the seed and the stream's place
        while a redeal is left (after the last one no rule reads them)."""
        places, redeals, seed, draws = state
        if redeals >= self.redeals:
            return places + bytes((redeals,))
        return (places + bytes((redeals,)) + draws.to_bytes(2, "little")
                + seed.to_bytes(9, "little"))

    def heuristic(self, state: State) -> int:
        """Return a weighted count of work left: three per card outside the rows'
        sequences, less one per such card already right of the card one rank below it
        (a pair that can follow it home), plus one per dead gap."""
        places = state[0]
        ranks, next_card = self.ranks, self.next_card
        runs = self.run_lengths(places)
        placed = 0
        for length in runs:
            placed += length
        out = self.suits * (ranks - 1) - placed
        pairs = 0
        dead = 0
        for r in range(self.suits):
            base = r * ranks
            for j in range(runs[r] + 1, ranks):
                card = places[base + j]
                left = places[base + j - 1]
                if card == GAP:
                    if left == GAP or next_card[left] == GAP:
                        dead += 1
                elif left != GAP and next_card[left] == card:
                    pairs += 1
        return 3 * out - pairs + dead

    def lower_bound(self, state: State) -> int:
        """Return the places before a row's last whose card is not of the place's rank
        (each such place must be filled by a step of its own); once a redeal is left it
        could set everything right at once, so then at most 1."""
        places = state[0]
        ranks = self.ranks
        wrong = 0
        for p in range(self.size):
            col = p % ranks
            if col == ranks - 1:
                continue
            card = places[p]
            if card == GAP or card % 13 != col + 1:
                wrong += 1
        if state[1] < self.redeals and wrong > 1:
            return 1
        return wrong

    def forced(self, state: State) -> list[Move]:
        """Return [] (``Gaps.forced`` says why)."""
        return []
