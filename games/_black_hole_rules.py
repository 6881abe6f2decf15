"""Black Hole's positions, move generator, play, key and dead-position test for one variant.

Kept apart from ``black_hole.py`` (rules text, text format, notation, the verifier's rule
check and the proof of ``viable``) because this is the hot path of every Black Hole
search, written to be compiled by mypyc: a variant's rules become lookup tables of a
``Rules`` object built once, positions stay tuples of ``bytes``, the rank counts a move
leaves are packed into an int (3 bits a rank) that keys a cache of ``viable``'s answers,
a key sorts one small int per pile instead of the piles' bytes, and each distinct
``Move`` is built once.
"""
from __future__ import annotations

import struct
from typing import Callable, Final, NamedTuple, final

PILE_SIZE: Final = 3
RANK_OF: Final = bytes([c % 13 for c in range(52)])     # card -> rank - 1
_COUNT_BITS: Final = 3            # a rank's count (0-4) in the packed counts
_COUNT_MASK: Final = 7
_CACHE_LIMIT: Final = 1 << 18     # entries a cache holds before it starts afresh
_CODES: Final = 1 << (4 * PILE_SIZE)     # pile codes (4 bits a rank) are below this


class State(NamedTuple):
    piles: tuple[bytes, ...]           # every pile, bottom card first, top card last
    foundation: int                    # the card on top of the foundation


class Move(NamedTuple):
    pile: int                          # index of the pile (0-based)
    card: int                          # the card it plays: the pile's top card


_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__     # makes a State without its Python-level __new__


@final
class Rules:
    """The rules of one Black Hole variant as lookup tables indexed by card."""

    ranks: int
    pile_count: int              # piles of a position: 17 for the full deck
    playable: list[bytes]        # playable[foundation][card]: card may go on foundation
    rank_index: list[int]        # rank - 1 of each card
    shift: bytes                 # 3 * (rank - 1): where a card counts in the packed counts
    rank_code: bytes             # rank of each card (1-13): a card in a pile's code
    made: list[Move]             # made[pile * 52 + card]: each Move once
    pack_key: Callable[..., bytes]      # packs a key's pile_count + 1 numbers, 16 bits each
    viable_cache: dict[int, bool]   # packed counts << 4 | top -> viable

    def __init__(self, ranks: int) -> None:
        self.ranks = ranks
        self.pile_count = (4 * ranks - 1) // PILE_SIZE
        deck = [r - 1 + 13 * s for s in range(4) for r in range(1, ranks + 1)]
        self.playable = [bytes([c in deck and (c % 13 - f % 13) % ranks in (1, ranks - 1)
                                for c in range(52)]) for f in range(52)]
        self.rank_index = [c % 13 for c in range(52)]
        self.shift = bytes([_COUNT_BITS * (c % 13) for c in range(52)])
        self.rank_code = bytes([c % 13 + 1 for c in range(52)])
        self.made = [Move(i, c) for i in range(self.pile_count) for c in range(52)]
        self.pack_key = struct.Struct(f"<{self.pile_count + 1}H").pack
        self.viable_cache = {}

    def viable_packed(self, packed: int, top: int) -> bool:
        """Return ``viable`` for rank counts packed 3 bits a rank, answers cached."""
        code = packed << 4 | top
        cache = self.viable_cache
        known = cache.get(code)
        if known is not None:
            return known
        ranks = self.ranks
        counts = [(packed >> (_COUNT_BITS * r)) & _COUNT_MASK for r in range(ranks)]
        answer = viable(counts, top, ranks)
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[code] = answer
        return answer

    # -- moves, play, won, key -----------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return ``BlackHole.moves``: the legal moves into positions ``viable`` does not
        prove dead, fullest piles first, then left to right."""
        piles, foundation = state
        playable = self.playable[foundation]
        order: list[int] = []          # (cards missing) << 5 | pile index (below 32)
        n = len(piles)
        for i in range(n):
            pile = piles[i]
            size = len(pile)
            if size and playable[pile[size - 1]]:
                order.append((PILE_SIZE - size) << 5 | i)
        if not order:
            return []
        if len(order) > 1:
            order.sort()
        shift = self.shift
        packed = 0
        for pile in piles:
            for card in pile:
                packed += 1 << shift[card]
        rank_index = self.rank_index
        made = self.made
        result: list[Move] = []
        for code in order:
            i = code & 31
            pile = piles[i]
            card = pile[len(pile) - 1]
            if self.viable_packed(packed - (1 << shift[card]), rank_index[card]):
                result.append(made[i * 52 + card])
        return result

    def play(self, state: State, move: Move) -> State:
        """Return the position after `move` (not checked)."""
        piles = state[0]
        i, card = move
        new_piles = list(piles)
        pile = piles[i]
        new_piles[i] = pile[:len(pile) - 1]
        return _NEW_TUPLE(_STATE, (tuple(new_piles), card))

    def is_won(self, state: State) -> bool:
        """Return whether every pile is empty."""
        for pile in state[0]:
            if len(pile):
                return False
        return True

    def key(self, state: State) -> bytes:
        """Return the piles' rank sequences, sorted, and the foundation's rank.

        Each pile's ranks are packed into an int, 4 bits a rank (1-13): one to one on the
        rank sequences a pile can hold (piles only shrink from PILE_SIZE cards). The
        foundation's rank goes in as 4096 + rank, above every pile's code, and the sorted
        numbers are packed 16 bits each. Sorting small ints is cheaper than sorting bytes.
        """
        piles, foundation = state
        rank_code = self.rank_code
        codes: list[int] = [_CODES + foundation % 13]
        for pile in piles:
            size = len(pile)
            if size == 3:
                codes.append(rank_code[pile[0]] << 8 | rank_code[pile[1]] << 4
                             | rank_code[pile[2]])
            elif size == 2:
                codes.append(rank_code[pile[0]] << 4 | rank_code[pile[1]])
            elif size == 1:
                codes.append(rank_code[pile[0]])
            else:
                codes.append(0)
        codes.sort()
        if len(codes) == self.pile_count + 1:
            return self.pack_key(*codes)
        return struct.pack(f"<{len(codes)}H", *codes)

    def heuristic(self, state: State) -> int:
        """Return the number of cards left in the piles (``lower_bound``)."""
        return self.lower_bound(state)

    def lower_bound(self, state: State) -> int:
        """Return the cards left: each needs one move."""
        left = 0
        for pile in state[0]:
            left += len(pile)
        return left

    def forced(self, state: State) -> list[Move]:
        """Return no moves: no forced-move rule is proven safe for this game."""
        return []


# -- dead positions (proof: ``games.black_hole.viable``) ----------------------------------


def viable(counts: list[int], top: int, ranks: int) -> bool:
    """Return False when the cards left (`counts` by rank index, `top` the foundation's
    rank index) can provably never all be played; see ``games.black_hole.viable``."""
    right = 0
    r = top + 1 if top + 1 < ranks else 0
    while right < ranks - 1 and counts[r]:
        right += 1
        r = r + 1 if r + 1 < ranks else 0
    if right < ranks - 1:                               # an arc: the walk cannot go round
        left = 0
        r = top - 1 if top else ranks - 1
        while counts[r]:
            left += 1
            r = r - 1 if r else ranks - 1
        stay: list[int] = []
        inside = 0
        any_left = False
        for i in range(-left, right + 1):
            c = counts[(top + i) % ranks]
            stay.append(c)
            inside += c
            if c:
                any_left = True
        total = 0
        for c in counts:
            total += c
        if inside != total:
            return False                                # cards the walk cannot reach
        if not any_left:
            return True                                 # nothing left: won
        stay[left] += 1
        return _path_walk(stay, left)
    if not counts[top]:
        stay = [counts[(top + i) % ranks] for i in range(1, ranks)]
        return _path_walk(stay, 0) or _path_walk(stay, ranks - 2)
    if ranks % 2 == 0:
        return True
    return _cycle_walk([counts[(top + i) % ranks] + (1 if i == 0 else 0) for i in range(ranks)])


def _path_walk(stay: list[int], start: int) -> bool:
    """Return whether a walk on a path from `start` can be at vertex v stay[v] times."""
    last = len(stay) - 1
    for end in range(last + 1):
        if stay[end] - (1 if end == start else 0) < 1:
            continue
        crossed = 0
        ok = True
        for v in range(last + 1):
            crossed = 2 * stay[v] - (1 if v == start else 0) - (1 if v == end else 0) - crossed
            if v < last and crossed < 1:
                ok = False
                break
        if ok and crossed == 0:
            return True
    return False


def _cycle_walk(stay: list[int]) -> bool:
    """Return whether a walk round an odd cycle from vertex 0 can be at v stay[v] times."""
    size = len(stay)
    degree = [2 * s for s in stay]
    degree[0] -= 1
    alternating = degree[0]
    for v in range(1, size):
        alternating += degree[v] if v % 2 else -degree[v]
    for end in range(size):
        twice = alternating - (1 if end == 0 or end % 2 else -1)   # 2 e(0, 1)
        if twice < 0:
            continue
        crossed = twice // 2
        zero = crossed == 0
        ok = True
        for v in range(1, size):                    # e(v, v+1) from v's degree
            crossed = degree[v] - (1 if v == end else 0) - crossed
            if crossed < 0 or (crossed == 0 and zero):
                ok = False
                break                               # negative, or two edges unused
            zero = zero or crossed == 0
        if ok:
            return True
    return False
