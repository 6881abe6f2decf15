"""Crescent's positions, move generator, play, keys and heuristic for one variant.

Kept apart from ``crescent.py`` (rules text, text format, notation, the verifier's rule
check) because this is the hot path of every Crescent search, written to be compiled by
mypyc: a variant's rules become lookup tables of a ``Rules`` object built once, positions
stay tuples of ``bytes``, and each distinct ``Move`` is built once.
"""
from __future__ import annotations

from typing import Final, NamedTuple, final

MAX_PILES: Final = 16
UP: Final = 16                  # move target: the Ace foundation of the moving card's suit
DOWN: Final = 17                # move target: the King foundation of the moving card's suit
FROM_UP: Final = 20             # move source FROM_UP + suit: that suit's Ace foundation
FROM_DOWN: Final = 24           # move source FROM_DOWN + suit: that suit's King foundation
_REDEAL_PLACE: Final = 30
_PLACES: Final = 32
_PILE_SEPARATOR: Final = b"\xfe"
_BYTES: Final = tuple(bytes((n,)) for n in range(256))   # _BYTES[n] == bytes((n,))
_FAR: Final = 255                # "no copy in the piles" in the heuristic's depth table


class State(NamedTuple):
    """A position: the piles, both foundations of each suit, and the redeals made."""

    piles: tuple[bytes, ...]     # bottom card first, the playable card last
    up: bytes                    # per suit: the Ace foundation's top rank (0: empty)
    down: bytes                  # per suit: the King foundation's top rank (ranks + 1: empty)
    redeals: int                 # special redeals made so far


class Move(NamedTuple):
    """One step: the top card of `source` to `target`.

    Sources: a pile (0-15), ``FROM_UP + suit`` or ``FROM_DOWN + suit`` (a foundation's top
    card). Targets: a pile, ``UP`` or ``DOWN`` (the moving card's own suit's foundation).
    ``REDEAL`` is the special redeal.
    """

    source: int
    target: int


REDEAL: Final = Move(_REDEAL_PLACE, _REDEAL_PLACE)

_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__


@final
class Rules:
    """The rules of one Crescent variant as lookup tables indexed by card."""

    redeals: int                 # special redeals a game allows
    worry_back: bool             # a foundation's top card may go back onto a pile
    bases_move: bool             # the base Ace and King may move like other foundation cards
    suits: int
    ranks: int
    total: int                   # cards in the game
    suit_of: list[int]
    rank_of: list[int]
    neighbours: list[int]        # neighbours[2 * card], [2 * card + 1]: the cards one rank
                                 # below and above in its suit, round the corner
    made: list[Move]             # made[source * _PLACES + target]: each Move once
    depth_scratch: list[int]     # the heuristic's tables, rewritten by each call: per
    turn_scratch: list[int]      # card, the cards above its shallowest copy, its turn

    def __init__(self, redeals: int, worry_back: bool, bases_move: bool, suits: int,
                 ranks: int) -> None:
        self.redeals = redeals
        self.worry_back = worry_back
        self.bases_move = bases_move
        self.suits = suits
        self.ranks = ranks
        self.total = 2 * suits * ranks
        self.suit_of = [c // 13 for c in range(52)]
        self.rank_of = [c % 13 + 1 for c in range(52)]
        self.neighbours = []
        for c in range(52):
            s, r = c // 13, c % 13 + 1
            lower = r - 1 if r > 1 else ranks
            upper = r + 1 if r < ranks else 1
            self.neighbours += [s * 13 + lower - 1, s * 13 + upper - 1]
        self.made = [Move(s, t) for s in range(_PLACES) for t in range(_PLACES)]
        self.depth_scratch = [_FAR] * 52
        self.turn_scratch = [_FAR] * 52

    # -- rules ---------------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return the legal steps in ``Crescent.moves``' order.

        Pile tops home (Ace foundation, then King foundation), piles left to right; then
        the transfers between a suit's two foundations; then builds, by source pile,
        targets left to right; then
        foundation cards back onto piles (variant); the redeal last.
        """
        piles, up, down, redeals = state
        suit_of, rank_of, neighbours, made = self.suit_of, self.rank_of, self.neighbours, self.made
        ranks = self.ranks
        result: list[Move] = []
        n = len(piles)
        tops: list[int] = [-1] * n
        for i in range(n):
            pile = piles[i]
            if pile:
                tops[i] = pile[len(pile) - 1]
        for i in range(n):
            card = tops[i]
            if card < 0:
                continue
            s = suit_of[card]
            r = rank_of[card]
            if up[s] + 1 == r:
                result.append(made[i * _PLACES + UP])
            if down[s] - 1 == r:
                result.append(made[i * _PLACES + DOWN])
        low = 0 if self.bases_move else 1
        for s in range(self.suits):
            a = up[s]
            k = down[s]
            if k == a + 1:
                if a > low:
                    result.append(made[(FROM_UP + s) * _PLACES + DOWN])
                if k <= ranks - low:
                    result.append(made[(FROM_DOWN + s) * _PLACES + UP])
        for i in range(n):
            card = tops[i]
            if card < 0:
                continue
            lower = neighbours[2 * card]
            upper = neighbours[2 * card + 1]
            for j in range(n):
                t = tops[j]
                if j != i and (t == lower or t == upper):
                    result.append(made[i * _PLACES + j])
        if self.worry_back:
            for s in range(self.suits):
                a = up[s]
                if a > low:
                    self._onto_piles(s * 13 + a - 1, FROM_UP + s, tops, result)
                k = down[s]
                if k <= ranks - low:
                    self._onto_piles(s * 13 + k - 1, FROM_DOWN + s, tops, result)
        if redeals < self.redeals:
            result.append(REDEAL)
        return result

    def _onto_piles(self, card: int, source: int, tops: list[int], result: list[Move]) -> None:
        """Append the moves of a foundation's top `card` onto each pile it fits."""
        neighbours, made = self.neighbours, self.made
        lower = neighbours[2 * card]
        upper = neighbours[2 * card + 1]
        for j in range(len(tops)):
            t = tops[j]
            if t == lower or t == upper:
                result.append(made[source * _PLACES + j])

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step."""
        piles, up, down, redeals = state
        source, target = move
        if source == _REDEAL_PLACE:
            rotated = tuple(pile[1:] + pile[:1] for pile in piles)
            return _NEW_TUPLE(_STATE, (rotated, up, down, redeals + 1))
        if source < MAX_PILES:
            pile = piles[source]
            cut = len(pile) - 1
            card = pile[cut]
            new_list = list(piles)
            new_list[source] = pile[:cut]
        else:
            new_list = list(piles)
            if source >= FROM_DOWN:
                s = source - FROM_DOWN
                k = down[s]
                card = s * 13 + k - 1
                down = down[:s] + _BYTES[k + 1] + down[s + 1:]
            else:
                s = source - FROM_UP
                a = up[s]
                card = s * 13 + a - 1
                up = up[:s] + _BYTES[a - 1] + up[s + 1:]
        if target == UP:
            s = card // 13
            up = up[:s] + _BYTES[up[s] + 1] + up[s + 1:]
        elif target == DOWN:
            s = card // 13
            down = down[:s] + _BYTES[down[s] - 1] + down[s + 1:]
        else:
            new_list[target] = new_list[target] + _BYTES[card]
        return _NEW_TUPLE(_STATE, (tuple(new_list), up, down, redeals))

    def is_won(self, state: State) -> bool:
        """Return whether every pile is empty (every card is home)."""
        return not any(state[0])

    # -- search support ------------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the foundations, the redeals made and the sorted piles, packed."""
        piles = list(state[0])
        piles.sort()
        return (state[1] + state[2] + _BYTES[state[3]] + _PILE_SEPARATOR
                + _PILE_SEPARATOR.join(piles))

    def heuristic(self, state: State) -> int:
        """Return ``weighted(state, 3, 1)``."""
        return self.weighted(state, 3, 1)

    def wary_heuristic(self, state: State) -> int:
        """Return ``weighted(state, 3, 2)``: blockers weigh twice as much."""
        return self.weighted(state, 3, 2)

    def weighted(self, state: State, out_weight: int, blocker_weight: int) -> int:
        """Return a weighted count of work left: cards out, cards over the next cards the
        foundations need, and cards that lie over a card needed sooner.

        Each of a suit's two foundations waits for one card (the Ace foundation for the
        rank above its top, the King foundation for the rank below); of the copies of
        that card in the piles, the one under the fewest cards counts, by the cards
        above it (``buried``). A card's turn is how many cards its suit's nearer
        foundation must take before it (ranks from the Ace foundation's top upwards, or
        from the King foundation's top downwards); a card over a card of an earlier turn
        in its pile must move away once more, or wait for a redeal, before that card can
        go home (``blockers``; counting both foundations keeps a card whose one
        foundation is full from looking free). Weights: `out_weight` a card out,
        `blocker_weight` a blocker, 1 a buried card.
        """
        ranks = self.ranks
        depth = self.depth_scratch
        turn = self.turn_scratch
        up, down = state[1], state[2]
        for s in range(self.suits):
            a = up[s]
            k = down[s]
            base = s * 13
            for r in range(1, ranks + 1):
                t = _FAR
                if r > a:
                    t = r - a
                if r < k and k - r < t:
                    t = k - r
                turn[base + r - 1] = t
                depth[base + r - 1] = _FAR
        out = 0
        blockers = 0
        for pile in state[0]:
            n = len(pile)
            out += n
            soonest = _FAR
            for i in range(n):
                card = pile[i]
                above = n - 1 - i
                if above < depth[card]:
                    depth[card] = above
                t = turn[card]
                if t > soonest:
                    blockers += 1
                else:
                    soonest = t
        buried = 0
        for s in range(self.suits):
            a = up[s]
            if a < ranks:
                d = depth[s * 13 + a]
                if d < _FAR:
                    buried += d
            k = down[s]
            if k > 1:
                d = depth[s * 13 + k - 2]
                if d < _FAR:
                    buried += d
        return out_weight * out + blocker_weight * blockers + buried

    def disorder(self, state: State) -> int:
        """Return twice the cards in piles plus the cards that do not lie on a card one
        rank away in their suit (the heuristic before ``heuristic``)."""
        neighbours = self.neighbours
        out = 0
        disorder = 0
        for pile in state[0]:
            out += len(pile)
            for i in range(1, len(pile)):
                above = pile[i]
                below = pile[i - 1]
                if neighbours[2 * above] != below and neighbours[2 * above + 1] != below:
                    disorder += 1
        return 2 * out + disorder

    def lower_bound(self, state: State) -> int:
        """Every card in a pile needs a step to go home."""
        out = 0
        for pile in state[0]:
            out += len(pile)
        return out

    def forced(self, state: State) -> list[Move]:
        """Return [] (``Crescent.forced`` says why)."""
        return []

