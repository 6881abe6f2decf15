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
from typing import TYPE_CHECKING, Final, NamedTuple, final

if TYPE_CHECKING:      # compiled, a native 64-bit int; as plain Python, never looked up
    from mypy_extensions import i64

GAP: Final = 255                 # a place without a card
NO_PLACE: Final = 254            # move target: the place right of a row's last card
REDEAL_CARD: Final = 253
NO_DEAL: Final = 0               # State.seed of a board whose deal number is not known
MAX_PLACES: Final = 52
MS_LAST: Final = 32000           # deals 1..32000 use the Microsoft generator, as pysol_cards
_LCG_MASK: Final = 0x1FFFFFFFF
_CACHE_LIMIT: Final = 20000


class State(NamedTuple):
    """A position: the layout, the redeals made and where the deal's random stream stands."""

    places: bytes                # rows * width places, row by row, left to right; GAP: none
    redeals: int                 # redeals made so far
    seed: int                    # the deal number: it seeds the stream every redeal uses;
                                 # NO_DEAL when not known, and then no redeal is offered
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
        # a native int (it stays below 2 ** 51): compiled, a Python int multiplied past
        # 2 ** 31 goes through CPython's long multiplication, which checks for signals,
        # and a Ctrl-C there would abort the process instead of stopping it cleanly
        x: i64 = seed
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
    _last_places: bytes          # frozen's last question and answer: the search asks
    _last_frozen: list[bool]     # forced, then moves (stuck_card), of the same position

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
        self._last_places, self._last_frozen = b"", []

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
        places last; the redeal when it is allowed and the deal number is known (without
        it nobody knows what the redeal deals). None once no redeal is left and
        ``stuck_card`` proves the position lost."""
        places = state[0]
        if state[1] >= self.redeals and self.twos_first(places) and \
                self.stuck_card(places) != GAP:
            return []
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
        if state[1] < self.redeals and state[2] != NO_DEAL and (self.any_time or not result) \
                and not self.is_won(state):
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

    # -- proofs (only once no redeal is left) ----------------------------------------------

    def twos_first(self, places: bytes) -> bool:
        """Return whether every first place holds a Two (else ``frozen`` finds nothing)."""
        ranks = self.ranks
        for r in range(self.suits):
            first = places[r * ranks]
            if first == GAP or first % 13 != 1:
                return False
        return True

    def frozen(self, places: bytes) -> list[bool]:
        """Return, per card, whether it can never move again (with no redeal left).

        The greatest set F of cards such that, while every card of F stays where it is, no
        card of F has a legal step: a Two only while some first place is a gap or holds a
        card outside F; a higher card c only while the card c-1 is outside F, or stands
        before a row's last place with a gap or a card outside F right of it (c goes only
        right of c-1, and not into its own place). Sound by induction: the first step of
        any card of F would need one of those conditions while every card of F still
        stands, and none holds. It is the greatest such set, found by taking out cards
        that break the conditions until none does. F is empty while a first place is a
        gap: every Two could move, and a card is in F only when c-1 is. It is taken as
        empty too (any set of no cards meets the conditions) while a first place holds a
        card other than a Two: such a card is rarely frozen, and the search asks this of
        every position it meets, so the common case costs one look at the first places.
        """
        if places == self._last_places:
            return self._last_frozen      # read, never changed, by its callers
        ranks, size, next_card = self.ranks, self.size, self.next_card
        fixed = [False] * 52
        for r in range(self.suits):
            if places[r * ranks] == GAP or places[r * ranks] % 13 != 1:
                return fixed             # the empty set: sound, and cheap (see above)
        at = [-1] * 52
        for p in range(size):
            card = places[p]
            if card != GAP:
                at[card] = p
                fixed[card] = True
        # Take out what may move, from the cards that may move now (right of a live gap),
        # spreading along the conditions: a card out of F takes out the card after it,
        # and the card whose predecessor stands left of its place.
        loose: list[int] = []
        for g in range(size):
            if places[g] == GAP:
                left = places[g - 1]
                if left != GAP and next_card[left] != GAP and fixed[next_card[left]]:
                    fixed[next_card[left]] = False
                    loose.append(next_card[left])
        twos_out = False
        while loose:
            card = loose.pop()
            after = next_card[card]
            if after != GAP and fixed[after]:
                fixed[after] = False
                loose.append(after)
            p = at[card]
            if p % ranks == 0:
                if not twos_out:
                    twos_out = True
                    for suit in range(self.suits):
                        two = suit * 13 + 1
                        if fixed[two]:
                            fixed[two] = False
                            loose.append(two)
                continue
            left = places[p - 1]
            if left != GAP:
                follower = next_card[left]
                if follower != GAP and follower != card and fixed[follower]:
                    fixed[follower] = False
                    loose.append(follower)
        self._last_places, self._last_frozen = places, fixed
        return fixed

    def stuck_card(self, places: bytes) -> int:
        """Return a card that proves the position lost with no redeal left, or GAP.

        A card of ``frozen`` never moves again, so the won position must have it where
        it stands: at the place of its rank (the Two first), in a row won in its suit
        (with ``suit_rows``, the row of its suit). The frozen cards must then agree:
        one suit per row and one row per suit. The card returned is the first frozen
        one that breaks this.
        """
        fixed = self.frozen(places)
        ranks = self.ranks
        row_suit = [-1] * 4
        suit_row = [-1] * 4
        for p in range(self.size):
            card = places[p]
            if card == GAP or not fixed[card]:
                continue
            row, suit = p // ranks, card // 13
            if p % ranks != card % 13 - 1 or (self.suit_rows and suit != row):
                return card
            if row_suit[row] < 0 and suit_row[suit] < 0:
                row_suit[row] = suit
                suit_row[suit] = row
            elif row_suit[row] != suit or suit_row[suit] != row:
                return card
        return GAP

    def forced(self, state: State) -> list[Move]:
        """Return a step that some shortest win from here plays, or [] (only once no
        redeal is left; ``Gaps.forced`` gives the proof)."""
        if state[1] < self.redeals:
            return []
        places = state[0]
        if not self.twos_first(places):
            return []                    # nothing is frozen (``frozen``)
        ranks, next_card = self.ranks, self.next_card
        fixed = self.frozen(places)
        for g in range(self.size):
            if places[g] != GAP or g % ranks == 0:
                continue
            left = places[g - 1]
            if left == GAP or not fixed[left]:
                continue
            card = next_card[left]
            if card == GAP:
                continue
            p = places.find(card)
            follower = next_card[card]
            if p % ranks == ranks - 1 or follower == GAP:
                return [self.made[card * MAX_PLACES + g]]
            right = places[p + 1]
            if right == follower or (right != GAP and fixed[right]):
                return [self.made[card * MAX_PLACES + g]]
        return []
