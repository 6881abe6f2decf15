"""Klondike's positions and moves, move generator, play, keys, safe auto-moves and heuristic.

Kept apart from ``klondike.py`` (rules text, text format, notation, the verifier's rule
check) because this is the hot path of every search, and it is written for mypyc:
precise types, a final class with typed attributes, lookup tables indexed by card,
positions as tuples of ``bytes``, the search moves built once per variant and shared
(they are immutable tuples), and the stock walked once per (talon size, waste size,
redeals), cached. The same source runs unchanged as plain Python. A bytes value is tested
with ``len(b)`` rather than ``if b``: compiled, the first reads its size, the second is a
call.

``State``, ``Move`` and the move constants live here so that the compiled code needs
nothing from the game module; ``games.klondike`` re-exports them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final, Iterable, Iterator, NamedTuple, final

if TYPE_CHECKING:      # compiled, a native 64-bit int; as plain Python, never looked up
    from mypy_extensions import i64

from solver.cards import OTHER_COLOUR_SUITS, SAME_COLOUR_SUIT, is_red, make_card, rank, suit
from solver.piles import BYTE, raised, replaced
from games._klondike_relax import Relaxed, relaxed

WASTE: Final = 10           # move source: the waste's top card
STOCK: Final = 11           # move source of a stock turn (and of the waste-play macro)
FOUNDATION: Final = 12      # move target: home; source FOUNDATION + s: the top card of suit s

_NONE: Final = 52           # "no card": the index of an always-empty slot in card tables
_COUNTS: Final = 32         # move counts below this come from the shared table
_TAILS: Final = tuple(bytes((254, n, 0)) for n in range(256))   # a key's tail, no redeals
# A key's column mark, 128 + the column's face-down count: above every card, below 254
_MARKS: Final = tuple(bytes((128 + n,)) for n in range(64))
_RANKS: Final = 0x1FFF                   # a suit's 13 bits in a bit set of cards


def _children(tops: i64) -> i64:
    """Return the cards that may be built on the cards of `tops` (one rank lower, the
    other colour), as a bit set: each black suit's ranks shifted down one into both red
    suits and each red suit's into both black suits (Clubs and Spades are bits 0-12 and
    39-51, Diamonds and Hearts 13-25 and 26-38). A card's bit is set exactly when one
    of its parents (``_Rules.parents``) is in `tops`, whatever the variant's ranks.
    """
    black: i64 = ((tops | (tops >> 39)) & _RANKS) >> 1
    red: i64 = (((tops >> 13) | (tops >> 26)) & _RANKS) >> 1
    return (black << 13) | (black << 26) | red | (red << 39)


class State(NamedTuple):
    """A position; the talon is waste (bottom first) then stock (next card first)."""

    columns: tuple[bytes, ...]   # bottom card first
    hidden: bytes                # face-down cards at the bottom of each column
    talon: bytes                 # waste + stock: talon[:waste] is the waste, top last
    waste: int                   # how many talon cards are in the waste
    foundations: bytes           # top rank on each suit's foundation, 0 = none
    redeals: int                 # redeals made (kept 0 when passes are unlimited)


class Move(NamedTuple):
    """A step or a search macro.

    ``Move(STOCK, STOCK, 1)`` is the step ``s``. ``Move(STOCK, t, n)`` is the macro "turn
    the stock n times, then play the waste's top card to t". ``Move(WASTE, t, 1)`` plays
    the waste's top card; ``Move(i, t, n)`` moves n cards from column i;
    ``Move(FOUNDATION + s, t, 1)`` brings suit s's top card back to column t.
    """

    source: int
    target: int
    count: int = 1   # type: ignore[assignment]  # shadows tuple.count; the name reads best


def _home(foundations: bytes) -> int:
    """Return the cards on the foundations (sum(foundations), without an iterator)."""
    return foundations[0] + foundations[1] + foundations[2] + foundations[3]


def _slot(column: bytes, index: i64) -> i64:
    """Return a column's place in key order (``_Rules._key7``): its bottom card, 63 when
    it is empty, times 16, plus its index."""
    bottom: i64 = column[0] if len(column) else 63
    return bottom * 16 + index


# Knuth's sorting network for seven inputs, as ``_Rules._key7`` applies it (a test checks
# that it sorts every input of zeros and ones, hence every input)
SORT7: Final = ((0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5), (3, 4),
                (1, 2), (4, 6), (2, 3), (4, 5), (1, 2), (3, 4), (5, 6))


# State(...) runs the named tuple's __new__, a Python function; tuple.__new__ builds the
# same object in C (play makes one per move).
_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__


@final
class _Rules:
    """The rules of one Klondike variant as lookup tables."""

    draw: int
    passes: int | None
    king: int
    free_talon: bool
    partial_rule: bool           # the exact moves leave out dominated partial runs
    empty_rule: bool             # a column is emptied only when a King waits to enter
    rank: list[int]
    suit: list[int]
    parent1: list[int]
    parent2: list[int]
    fits: list[int]
    table: list[Move]
    lower_of_suit: list[int]     # the cards of each card's suit of lower rank, a bit set
    parents: list[int]           # parent1 and parent2 as a bit set (0 for a King)
    relaxed: Relaxed
    _walks: dict[int, list[tuple[int, int, int]]]
    _packed_walks: dict[int, list[int]]
    _after: dict[int, tuple[int, int]]
    _safe_cards: dict[bytes, int]      # foundations -> the safe cards as a bit set
    _last_foundations: bytes
    _last_safe: i64
    _where: list[int]                  # scratch for keys: the column of each bottom card
    _last_talon: bytes
    _last_talon_bits: i64
    one: i64                           # 1 (a literal 1 on the left of a shift of i64s
                                       # is compiled as a 32-bit C int: see _klondike_relax)
    _raised: dict[bytes, list[bytes]]  # foundations -> each suit's one card more (piles.raised)
    _walk_at: int                      # the last packed_walk asked for, and its answer
    _walk_found: list[int]

    def __init__(self, draw: int, passes: int | None, ranks: int) -> None:
        self.draw, self.passes, self.king = draw, passes, ranks
        self.free_talon = draw == 1 and passes is None   # any talon card, any time
        # on in every variant (the proof in PROOFS below holds for all); tests switch
        # it off to compare verdicts
        self.partial_rule = True
        self.empty_rule = True                  # likewise (the proof in PROOFS below)
        self.rank = [rank(c) for c in range(52)] + [0]
        self.suit = [suit(c) for c in range(52)] + [0]
        # parent1[c] < parent2[c]: the cards c may be built on (one rank up, other
        # colour), _NONE for a King
        self.parent1 = [_NONE] * 53
        self.parent2 = [_NONE] * 53
        self.fits = [0] * (52 * 52)             # fits[below * 52 + above]
        for c in range(52):
            r = rank(c)
            if r < ranks:
                found = [make_card(r + 1, s) for s in range(4)
                         if is_red(make_card(r + 1, s)) != is_red(c)]
                self.parent1[c], self.parent2[c] = found[0], found[1]
                for p in found:
                    self.fits[p * 52 + c] = 1
        self.parents = [0 if self.parent1[c] == _NONE else
                        1 << self.parent1[c] | 1 << self.parent2[c] for c in range(52)]
        # table[(source * 13 + target) * _COUNTS + count]: every search move, built once
        self.table = [Move(source, target, count) for source in range(FOUNDATION + 4)
                      for target in range(FOUNDATION + 1) for count in range(_COUNTS)]
        self.lower_of_suit = [sum(1 << make_card(r, suit(c)) for r in range(1, rank(c)))
                              for c in range(52)]
        self.relaxed = relaxed(ranks)
        self._walks = {}
        self._packed_walks = {}
        self._after = {}
        self._safe_cards = {}
        self._last_foundations = b""
        self._last_safe = 0
        self._where = [0] * 52
        self._last_talon = b""
        self._last_talon_bits = 0
        self.one = 1
        self._walk_at = -1
        self._raised = {}
        self._walk_found = []

    def move(self, source: int, target: int, count: int) -> Move:
        """Return ``Move(source, target, count)``, the shared one when there is one."""
        if count < _COUNTS:
            return self.table[(source * 13 + target) * _COUNTS + count]
        return Move(source, target, count)

    # -- the stock -------------------------------------------------------------------

    def turn(self, size: int, waste: int, redeals: int) -> tuple[int, int] | None:
        """Return (waste, redeals) after one ``s`` step, or None if it is not allowed."""
        if waste < size:
            return min(waste + self.draw, size), redeals
        passes = self.passes
        if not waste or (passes is not None and redeals + 1 >= passes):
            return None
        return 0, redeals + 1 if passes is not None else 0

    def turns(self, size: int, waste: int, redeals: int, count: int) -> tuple[int, int]:
        """Return (waste, redeals) after `count` ``s`` steps (cached: search macros repeat)."""
        if self.free_talon:       # one card a turn, no limit: 0, 1, ..., size, 0, ... (redeals 0)
            return (waste + count) % (size + 1), redeals
        at = ((redeals * 1024 + count) * 64 + size) * 64 + waste if count < 1024 else -1
        after = self._after.get(at)
        if after is None:
            now = waste, redeals
            for _ in range(count):
                step = self.turn(size, now[0], now[1])
                assert step is not None, "stock turn not allowed"
                now = step
            if at >= 0:
                self._after[at] = now
            return now
        return after

    def walk(self, size: int, waste: int, redeals: int) -> list[tuple[int, int, int]]:
        """Return (turns, waste, redeals) for each waste size the stock can reach.

        Each waste size comes once, with the fewest turns (so the fewest redeals): the
        walk is deterministic, so it stops when a waste size comes back.
        """
        at = (redeals * 64 + size) * 64 + waste
        cached = self._walks.get(at)
        if cached is not None:
            return cached
        found: list[tuple[int, int, int]] = [(0, waste, redeals)] if waste else []
        seen = {waste}
        turns, now = 0, (waste, redeals)
        while True:
            after = self.turn(size, now[0], now[1])
            if after is None or after[0] in seen:
                break
            turns += 1
            now = after
            seen.add(now[0])
            if now[0]:
                found.append((turns, now[0], now[1]))
        self._walks[at] = found
        return found

    # -- moves -----------------------------------------------------------------------

    def moves(self, state: State) -> Iterator[Move]:
        """Return the legal search moves, the most promising first (``Klondike.moves``);
        none from a position the relaxed game proves lost (``games._klondike_relax``)."""
        if self.relaxed.lost(state[0], state[1], state[4]):
            return iter(())
        return iter(self.move_list(state, False))

    def narrow_moves(self, state: State) -> Iterator[Move]:
        """Return the moves a quick search tries first (``Klondike.narrow_moves``); none
        from a position the relaxed game proves lost, as ``moves`` (they are a subset)."""
        if self.relaxed.lost(state[0], state[1], state[4]):
            return iter(())
        return iter(self.move_list(state, True))

    def won_line_moves(self, moves: Callable[[State], Iterable[Move]]
                       ) -> Callable[[State], Iterable[Move]]:
        """Return ``moves`` or ``narrow_moves`` without the relaxed game's check, for
        positions known to be won (``Klondike.won_line_moves``): the check proves a
        position lost, so there it never answers yes and the moves are the same."""
        if moves == self.moves:
            return self._unchecked_moves
        if moves == self.narrow_moves:
            return self._unchecked_narrow_moves
        return moves

    def _unchecked_moves(self, state: State) -> Iterator[Move]:
        return iter(self.move_list(state, False))

    def _unchecked_narrow_moves(self, state: State) -> Iterator[Move]:
        return iter(self.move_list(state, True))

    def legal_moves(self, state: State) -> list[Move]:
        """Return every legal search move (``Klondike.legal_moves``): no partial run left
        out, and moves from positions the relaxed game proves lost too."""
        return self.move_list(state, False, False)

    def move_list(self, state: State, narrow: bool, prune: bool = True) -> list[Move]:
        """Return the legal search moves, the most promising first: cards home from the
        columns, runs that turn a card up (or empty a column), the stock's cards, other
        runs, and last (unless `narrow`) foundation cards coming back.

        With `prune` false, no partial run is left out (every legal move, for a player
        who asks to see them all; the searches always prune). With `narrow`, only the
        moves a quick search tries first (``Klondike.narrow_moves``): no foundation
        returns, and a run moves off face-up cards only to let the card it uncovers go
        home. Two rules leave moves out, each proved in PROOFS at the end of this
        module: the partial-run rule and the empty-column rule.
        """
        columns = state[0]
        # top[c]: the column whose top card is c, -1 when none (top[_NONE] stays -1)
        top = [-1] * 53
        tops: i64 = 0                           # the same top cards as a bit set
        one: i64 = self.one
        empty = -1
        for t in range(len(columns)):
            column = columns[t]
            if len(column):
                top[column[-1]] = t
                tops |= one << column[-1]
            elif empty < 0:
                empty = t
        placeable = _children(tops)             # the cards a top card takes
        # each kind appends to the one list (the runs that turn nothing up wait in
        # `others` for their turn)
        moves = self.home_moves(state)
        others = self.column_moves(state, top, placeable, empty, narrow, prune, moves)
        self.stock_moves(state, top, placeable, empty, moves)
        moves.extend(others)
        if not narrow:
            self.foundation_returns(state, top, empty, moves)
        return moves

    def home_moves(self, state: State) -> list[Move]:
        """Return the columns' top cards that fit their foundation, moved home."""
        columns, foundations = state[0], state[4]
        rank_of, suit_of, table = self.rank, self.suit, self.table
        home: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            if len(column):
                card = column[-1]
                if foundations[suit_of[card]] + 1 == rank_of[card]:
                    home.append(table[i * 13 * _COUNTS + FOUNDATION * _COUNTS + 1])
        return home

    def column_moves(self, state: State, top: list[int], placeable: i64, empty: int,
                     narrow: bool, prune: bool, uncover: list[Move]) -> list[Move]:
        """Append to `uncover` the face-up runs moved between columns that turn a card up
        or empty their column, and return the others (runs off face-up cards, partial-run
        rule).
        `placeable` is the cards a top card of `top` takes, a bit set (``_children``)."""
        columns, hidden, _, _, foundations, _ = state
        rank_of, suit_of, king = self.rank, self.suit, self.king
        parent1, parent2, fits, table = self.parent1, self.parent2, self.fits, self.table
        partial = self.partial_rule and prune
        empty_rule = self.empty_rule and prune
        king_waits = -1                         # unknown yet; then 0 or 1
        others: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            n = len(column)
            if not n:
                continue
            base = i * 13 * _COUNTS
            low = hidden[i]
            k = n - 1                              # lowest card of the movable run
            while k > low and fits[column[k - 1] * 52 + column[k]]:
                k -= 1
            for start in range(k, n):
                card = column[start]
                if placeable >> card & 1:       # a parent is a top card (so no King)
                    t1 = top[parent1[card]]
                    t2 = top[parent2[card]]
                    king_move = False
                elif empty >= 0 and start > 0 and rank_of[card] == king:
                    t1 = t2 = -1
                    king_move = True
                else:
                    continue
                if start == low:
                    if not low and empty_rule:      # the empty-column rule
                        if empty >= 0:
                            continue
                        if king_waits < 0:
                            king_waits = self.king_waits(state)
                        if not king_waits:
                            continue
                    into = uncover
                else:
                    into = others
                    below = column[start - 1]
                    # start > k: the run is built on `below` (the partial-run rule)
                    if foundations[suit_of[below]] + 1 != rank_of[below] and \
                            (narrow or start > k and partial):
                        continue
                count = n - start                  # at most a run of 13
                if t1 >= 0:
                    into.append(table[base + t1 * _COUNTS + count])
                if t2 >= 0:
                    into.append(table[base + t2 * _COUNTS + count])
                if king_move:
                    into.append(table[base + empty * _COUNTS + count])
        return others

    def stock_moves(self, state: State, top: list[int], placeable: i64,
                    empty: int, plays: list[Move]) -> None:
        """Append to `plays` each talon card the stock can bring to the waste's top (in
        the fewest turns) played home or onto a column: one macro of turns and a play.
        `placeable` is the cards a top card of `top` takes, a bit set (``_children``)."""
        _, _, talon, waste, foundations, redeals = state
        rank_of, king = self.rank, self.king
        parent1, parent2 = self.parent1, self.parent2
        one: i64 = self.one
        going_home: i64 = 0                     # the next card of each foundation
        for s in range(4):
            if foundations[s] < king:
                going_home |= one << (s * 13 + foundations[s])
        kings = empty >= 0
        for packed in self.packed_walk(len(talon), waste, redeals):
            card = talon[(packed & 63) - 1]
            home = going_home >> card & 1
            if not home and not placeable >> card & 1 and \
                    not (kings and rank_of[card] == king):
                continue                        # no place for it (the usual case)
            turns = packed >> 6
            source, count = (STOCK, turns) if turns else (WASTE, 1)
            if home:
                plays.append(self.move(source, FOUNDATION, count))
            t1 = top[parent1[card]]
            if t1 >= 0:
                plays.append(self.move(source, t1, count))
            t2 = top[parent2[card]]
            if t2 >= 0:
                plays.append(self.move(source, t2, count))
            if kings and rank_of[card] == king:
                plays.append(self.move(source, empty, count))

    def packed_walk(self, size: int, waste: int, redeals: int) -> list[int]:
        """Return ``walk`` as turns * 64 + waste size for each entry (cached): ints, so
        that the move generator reads them without unpacking tuples."""
        at = (redeals * 64 + size) * 64 + waste
        if at == self._walk_at:                 # a position's children mostly share it
            return self._walk_found
        cached = self._packed_walks.get(at)
        if cached is None:
            cached = [turns << 6 | w for turns, w, _ in self.walk(size, waste, redeals)]
            self._packed_walks[at] = cached
        self._walk_at = at
        self._walk_found = cached
        return cached

    def foundation_returns(self, state: State, top: list[int], empty: int,
                           returns: list[Move]) -> None:
        """Append to `returns` the foundations' top cards brought back onto a column."""
        foundations = state[4]
        parent1, parent2, table, king = self.parent1, self.parent2, self.table, self.king
        for s in range(4):
            r = foundations[s]
            if r:
                card = s * 13 + r - 1
                base = (FOUNDATION + s) * 13 * _COUNTS + 1
                t1 = top[parent1[card]]
                if t1 >= 0:
                    returns.append(table[base + t1 * _COUNTS])
                t2 = top[parent2[card]]
                if t2 >= 0:
                    returns.append(table[base + t2 * _COUNTS])
                if r == king and empty >= 0:
                    returns.append(table[base + empty * _COUNTS])

    def king_waits(self, state: State) -> int:
        """Return 1 when a King could enter an empty column some time (it is on a
        foundation, in the talon, or face up above other cards), else 0."""
        columns, hidden, talon, _, foundations, _ = state
        king = self.king
        for s in range(4):
            if foundations[s] == king:
                return 1
        if self._talon_bits(talon) & self.relaxed.king_bits:
            return 1
        rank_of = self.rank
        for i in range(len(columns)):
            column = columns[i]
            for depth in range(max(hidden[i], 1), len(column)):
                if rank_of[column[depth]] == king:
                    return 1
        return 0

    def run_length(self, state: State, source: int, target: int) -> int:
        """Return how many cards of `source` fit on `target` (1 when none do)."""
        columns, hidden = state.columns, state.hidden
        column = columns[source]
        onto = columns[target]
        under = onto[-1] if onto else -1
        for start in range(hidden[source], len(column)):
            card = column[start]
            if under < 0 and self.rank[card] == self.king or \
                    under >= 0 and self.fits[under * 52 + card]:
                return len(column) - start
        return 1

    # -- play ------------------------------------------------------------------------

    def play(self, state: State, move: Move) -> State:
        """Return the position after a step or a macro."""
        columns, hidden, talon, waste, foundations, redeals = state
        source, target, count = move
        if source == STOCK:
            waste, redeals = self.turns(len(talon), waste, redeals, count)
            if target == STOCK:
                return _NEW_TUPLE(_STATE, (columns, hidden, talon, waste, foundations, redeals))
            source = WASTE
        # the columns are copied only when one of them changes (not for a waste or
        # foundation card going home): `changed` is the source column, if any, and
        # `left` what stays of it
        changed = -1
        left = b""
        if source == WASTE:
            card = talon[waste - 1]
            moving = BYTE[card]
            talon = talon[:waste - 1] + talon[waste:]
            waste -= 1
        elif source >= FOUNDATION:
            s = source - FOUNDATION
            card = s * 13 + foundations[s] - 1
            moving = BYTE[card]
            foundations = foundations[:s] + BYTE[foundations[s] - 1] + foundations[s + 1:]
        else:
            column = columns[source]
            cut = len(column) - count
            card = column[cut]
            moving = column[cut:]
            changed = source
            left = column[:cut]
            down = hidden[source]
            if down and down >= cut:
                hidden = b"%b%b%b" % (hidden[:source], BYTE[cut - 1 if cut else 0],
                                      hidden[source + 1:])   # compiled, one allocation
        if target == FOUNDATION:
            foundations = raised(self._raised, foundations, self.suit[card])
            if changed >= 0:
                columns = replaced(columns, changed, left, -1, b"")
        else:
            columns = replaced(columns, changed, left, target, columns[target] + moving)
        return _NEW_TUPLE(_STATE, (columns, hidden, talon, waste, foundations, redeals))

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the steps of a move: a stock macro is n ``s`` steps and a waste play
        (the same from every position)."""
        source, target, count = move
        if source != STOCK or target == STOCK:
            return [move]
        return [self.move(STOCK, STOCK, 1)] * count + [self.move(WASTE, target, 1)]

    def is_won(self, state: State) -> bool:
        """Return whether every card is home."""
        foundations = state[4]
        return foundations[0] + foundations[1] + foundations[2] + foundations[3] == 4 * self.king

    # -- safe auto-moves -------------------------------------------------------------

    def forced(self, state: State) -> list[Move]:
        """Return the home moves no solution can regret: Aces, Twos, and higher cards
        whose possible children are home for good; and every home move of a position
        that home moves alone win (``sure_win``).

        A card c (rank r, suit s) on a column's top goes home at once when r <= 2; when
        r == 3 and both foundations of the other colour hold their Two; or when r >= 4,
        both foundations of the other colour hold r - 1 and the other foundation of c's
        colour holds r - 2. With draw 1 and unlimited passes, so does such a card
        anywhere in the talon.

        Why each is safe: PROOFS at the end of this module, "Safe home moves".
        """
        columns, hidden, talon, waste, foundations, _ = state
        for i in range(len(hidden)):          # sure_win needs nothing face down
            if hidden[i]:
                break
        else:
            if self.sure_win(state):
                return self._all_home(state)
        if foundations is self._last_foundations:   # a child mostly shares its parent's
            safe: i64 = self._last_safe
        else:
            found = self._safe_cards.get(foundations)
            if found is None:
                found = 0
                for s in range(4):
                    if foundations[s] < self.king and \
                            self._safe(s * 13 + foundations[s], foundations):
                        found |= 1 << (s * 13 + foundations[s])
                self._safe_cards[foundations] = found
            safe = self._last_safe = found
            self._last_foundations = foundations
        if not safe:
            return []
        table = self.table
        result: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            if len(column) and safe >> column[-1] & 1:
                result.append(table[(i * 13 + FOUNDATION) * _COUNTS + 1])
        if self.free_talon and len(talon) and safe & self._talon_bits(talon):
            # the first safe card met turning from here (as ``walk`` orders them): the
            # waste's top (index waste - 1) first, then talon order round the redeal
            n, best = len(talon), -1
            for j in range(n):
                if not safe >> talon[j] & 1:
                    continue
                if not waste:
                    turns = j + 1
                elif j >= waste - 1:
                    turns = j - waste + 1
                else:
                    turns = n - waste + 2 + j
                if best < 0 or turns < best:
                    best = turns
            if best >= 0:                      # the talon changes: one at a time
                result.append(self.move(STOCK, FOUNDATION, best) if best
                              else self.move(WASTE, FOUNDATION, 1))
        return result

    def _talon_bits(self, talon: bytes) -> i64:
        """Return the talon's cards as a bit set (kept for the last talon asked about:
        a position's children mostly share its talon)."""
        if talon is not self._last_talon:
            one: i64 = self.one
            bits: i64 = 0
            for j in range(len(talon)):
                bits |= one << talon[j]
            self._last_talon = talon
            self._last_talon_bits = bits
        return self._last_talon_bits

    def sure_win(self, state: State) -> bool:
        """Return whether the position is won whatever home moves are played: nothing is
        face down, every column falls in rank from bottom to top, and every talon card
        can be played when wanted (draw 1 with unlimited passes, or one card at most).

        Proof (for our rules, foundation cards coming back or not). Call such a position
        clear. A clear position that is not won has a home move: take a card c of the
        lowest rank r not all home. The cards of lower ranks are home, so c's foundation
        holds r - 1. If c is in a column, the cards on it are of lower ranks (the column
        falls), so home, so there are none: c is a top card. If c is in the talon, turning
        brings it to the top of the waste (draw 1 and unlimited passes walk every waste
        size; a single talon card is the waste's top, or is after one turn, which is
        always allowed while the stock holds a card). Any home move from a clear position
        leaves a clear one (it takes a top card or a talon card away and turns nothing up),
        and every home move puts one more card home, so home moves alone win from any
        clear position. So a clear position is won, and each home move keeps it won.

        Lonelybot's test (nothing face down and at most one stock card) omits the falling
        columns because its positions come from play; a parsed column need not fall, and
        then the test is wrong: with two cards a suit and one column, ``AC 2C`` face up
        and the rest home is lost (the 2C, this twin's King, has no empty column to go
        to, and the AC lies under it).
        """
        hidden, talon = state[1], state[2]
        if hidden.count(0) != len(hidden) or not (self.free_talon or len(talon) <= 1):
            return False
        rank_of = self.rank
        for column in state[0]:
            for i in range(1, len(column)):
                if rank_of[column[i]] >= rank_of[column[i - 1]]:
                    return False
        return True

    def _all_home(self, state: State) -> list[Move]:
        """Return every home move of a clear position (see ``sure_win``): each column top
        that fits its foundation and the talon card that fits, fewest turns first (one
        at most; the talon changes with it)."""
        columns, _, talon, waste, foundations, _ = state
        rank_of, suit_of, table = self.rank, self.suit, self.table
        result: list[Move] = []
        for i in range(len(columns)):
            column = columns[i]
            if column and foundations[suit_of[column[-1]]] + 1 == rank_of[column[-1]]:
                result.append(table[(i * 13 + FOUNDATION) * _COUNTS + 1])
        for turns, w, _ in self.walk(len(talon), waste, state[5]):
            card = talon[w - 1]
            if foundations[suit_of[card]] + 1 == rank_of[card]:
                result.append(self.move(STOCK, FOUNDATION, turns) if turns
                              else self.move(WASTE, FOUNDATION, 1))
                break
        return result

    def _safe(self, card: int, foundations: bytes) -> bool:
        r, s = self.rank[card], self.suit[card]
        if foundations[s] + 1 != r:
            return False
        if r <= 2:
            return True
        a, b = OTHER_COLOUR_SUITS[s]           # (see ``forced``)
        if r == 3:
            return foundations[a] >= 2 and foundations[b] >= 2
        return foundations[a] >= r - 1 and foundations[b] >= r - 1 and \
            foundations[SAME_COLOUR_SUIT[s]] >= r - 2

    # -- keys ------------------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the key (see Klondike.key)."""
        return self._key(state, state[3])

    def _key(self, state: State, waste: int) -> bytes:
        """Return the key with `waste` written for the waste size."""
        columns, hidden, talon, _, _, redeals = state
        if len(columns) == 7:
            return self._key7(columns, hidden, talon, waste, redeals)
        # Columns in the order of their bottom cards (distinct; the empty ones, all
        # alike, last): an order that depends only on the set of columns, found by a
        # bit set instead of a sort. Each column is written as its mark (128 + its
        # face-down count) then its cards; then 254, waste size, redeals and the
        # talon. Marks and 254 are above every card, so the bytes read back one way.
        one: i64 = self.one
        bottoms: i64 = 0
        where = self._where
        for i in range(len(columns)):
            column = columns[i]
            if len(column):
                bottoms |= one << column[0]
                where[column[0]] = i
        parts: list[bytes] = []
        empty = len(columns)
        while bottoms:
            low: i64 = bottoms & -bottoms
            bottoms ^= low
            i = where[int(low).bit_length() - 1]
            parts.append(_MARKS[hidden[i]] + columns[i])
            empty -= 1
        for _ in range(empty):
            parts.append(_MARKS[0])             # an empty column has nothing face down
        parts.append(_TAILS[waste] + talon if not redeals else
                     bytes((254, waste, redeals)) + talon)
        return b"".join(parts)

    def _key7(self, columns: tuple[bytes, ...], hidden: bytes, talon: bytes, waste: int,
              redeals: int) -> bytes:
        """Return ``_key``'s bytes for seven columns (every deal of the full game), built
        in one allocation. Each column is one native int, its bottom card (63 when empty,
        so the empty ones come last) times 16 plus its index, and a sorting network of 16
        compare-exchanges (Knuth's for seven, checked on every 0-1 input in the tests)
        puts them in key order, with no list; then one bytes formatting of 16 pieces,
        which compiled is a single ``CPyBytes_Build`` (the general case makes a list, a
        bytes object per column and joins them: about three times the instructions)."""
        k0 = _slot(columns[0], 0)
        k1 = _slot(columns[1], 1)
        k2 = _slot(columns[2], 2)
        k3 = _slot(columns[3], 3)
        k4 = _slot(columns[4], 4)
        k5 = _slot(columns[5], 5)
        k6 = _slot(columns[6], 6)
        if k0 > k6:
            k0, k6 = k6, k0
        if k2 > k3:
            k2, k3 = k3, k2
        if k4 > k5:
            k4, k5 = k5, k4
        if k0 > k2:
            k0, k2 = k2, k0
        if k1 > k4:
            k1, k4 = k4, k1
        if k3 > k6:
            k3, k6 = k6, k3
        if k0 > k1:
            k0, k1 = k1, k0
        if k2 > k5:
            k2, k5 = k5, k2
        if k3 > k4:
            k3, k4 = k4, k3
        if k1 > k2:
            k1, k2 = k2, k1
        if k4 > k6:
            k4, k6 = k6, k4
        if k2 > k3:
            k2, k3 = k3, k2
        if k4 > k5:
            k4, k5 = k5, k4
        if k1 > k2:
            k1, k2 = k2, k1
        if k3 > k4:
            k3, k4 = k4, k3
        if k5 > k6:
            k5, k6 = k6, k5
        c0 = int(k0 & 15)
        c1 = int(k1 & 15)
        c2 = int(k2 & 15)
        c3 = int(k3 & 15)
        c4 = int(k4 & 15)
        c5 = int(k5 & 15)
        c6 = int(k6 & 15)
        tail = _TAILS[waste] if not redeals else bytes((254, waste, redeals))
        return b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b" % (
            _MARKS[hidden[c0]], columns[c0], _MARKS[hidden[c1]], columns[c1],
            _MARKS[hidden[c2]], columns[c2], _MARKS[hidden[c3]], columns[c3],
            _MARKS[hidden[c4]], columns[c4], _MARKS[hidden[c5]], columns[c5],
            _MARKS[hidden[c6]], columns[c6], tail, talon)

    def verdict_key(self, state: State) -> bytes:
        """Return the key with every on-cycle waste size written 255 (see Klondike)."""
        waste = state[3]
        if self.passes is None and (waste == len(state[2]) or waste % self.draw == 0):
            waste = 255
        return self._key(state, waste)

    # -- guidance --------------------------------------------------------------------

    def lower_bound(self, state: State) -> int:
        """Return a number of steps every win from `state` needs (admissible, for A*).

        Four kinds of step, each counted only where it is certain and never twice:

        - every card not home needs its own step home;
        - every stock card must be turned up before it can leave the talon: ``s``
          steps, ``draw`` cards each;
        - a card lying above a lower card of its suit must leave by a step that does
          not take it home (it cannot go home before that card, which cannot go home
          while covered). In a column such a face-down card needs a step of its own:
          it is turned up only when everything above it has gone, and the cards below
          it are still face down when it leaves. The face-up cards of a column form one
          run, so they count one step between them. Steps have one source, so counts of
          different columns never share a step. In the waste such a card is either
          played to a column (its own step) or is still in the waste at a redeal and is
          then turned up again after the stock's cards: at least one more ``s`` step
          per ``draw`` such cards.
        """
        columns, hidden, talon, waste, foundations, _ = state
        draw = self.draw
        steps = 4 * self.king - _home(foundations) + (len(talon) - waste + draw - 1) // draw
        # below[c]: the cards of c's suit of lower rank, as a bit set; a card lies above
        # a lower card of its suit when a card of `below[c]` was met before it
        below = self.lower_of_suit
        one: i64 = self.one
        seen: i64 = 0
        covered = 0
        for i in range(waste):
            card = talon[i]
            if seen & below[card]:
                covered += 1
            seen |= one << card
        steps += (covered + draw - 1) // draw
        for c in range(len(columns)):
            column = columns[c]
            down = hidden[c]
            seen = 0
            up_must = 0
            for i in range(len(column)):
                card = column[i]
                if seen & below[card]:
                    if i < down:
                        steps += 1
                    else:
                        up_must = 1
                seen |= one << card
            steps += up_must
        return steps

    def heuristic(self, state: State) -> int:
        """Return work left: face-down cards weigh most, then cards not home.

        Talon cards weigh half a card with draw 1 and unlimited passes (every one can
        be turned up at any time) and two cards otherwise, where a card may lie out of
        reach of this pass: on PySolFC deals 1-40, draw 3, 3 CPU s each, greedy search
        then won deals 2, 5 and 8 that a weight of one half left undecided, and with
        draw 1 the half weight did best (data/klondike/winnability.md).
        """
        columns, hidden, talon, _, foundations, _ = state
        left = 4 * self.king - _home(foundations)
        down = 0
        for i in range(len(hidden)):            # sum(hidden), without an iterator
            down += hidden[i]
        if self.free_talon:
            return left + 4 * down + len(talon) // 2
        return left + 4 * down + 2 * len(talon)


# -- PROOFS -------------------------------------------------------------------------
#
# The partial-run rule and the empty-column rule (``_Rules.move_list``).
#
# The partial-run rule (Blake and Gent's partial-pile rule, proved here for our
# rules: foundation cards come back, any draw, any passes). Call a move *barred*
# when it takes a run headed by X off a face-up card Y that X is built on (one rank
# down, other colour) while Y's foundation does not hold Y's rank less one. X is no
# King, so the run goes onto a column's top card P that X fits and that is not Y:
# P is Y's twin, the other card of Y's rank and colour (no partial run is
# King-headed, so none goes to an empty column; a parsed column whose face-up cards
# do not fall may hold a King on face-up cards, but it is not built on them and
# moves freely). Claim: of the wins from a position with the fewest steps, one with
# the fewest barred moves has none.
# Take such a win S and suppose it plays a barred move m from A to B. Call the cards
# lying on Y, and those lying on P, their piles. For each position Q of S from B on,
# until Y or P first goes home, let Q' be Q with the two piles exchanged; B' = A.
# (a) A pile is always a run whose lowest card is of X's rank and colour (cards join
# it only as a run put on its top, and leave it from some card upwards), so it fits
# Y and P alike and Q' is a position; its ranks are below Y's, so neither Y nor P
# ever lies in a pile, and they stay face up in two columns.
# (b) Every step of S from Q has a twin from Q' that leads to the next position's
# Q': the same cards move, to the same place, except that a run put on a bare Y goes
# on the bare P and vice versa. A step moving only pile cards or cards of other
# places reads nothing under the piles; a run holding Y (or P) carries its pile and
# its twin the other pile, a run built on the same card. Turned cards, empty
# columns, talon, waste, redeals and foundations are the same in Q and Q' (a
# returning foundation card goes on a pile's top or a bare Y or P like any run; Y
# and P are never on the foundations meanwhile), so this holds for every draw and
# passes. This covers the cases that break naive versions: X's twin X' put on Y
# after m (its twin step puts X' on P), and Y's run moved after m (the twin moves
# the same run with X's run on it).
# (c) A twin step is barred exactly when its step is: it uncovers the same card, and
# foundations agree, unless it takes a whole pile off Y or P. A pile's lowest card
# leaves such a card only for its foundation (not barred) or for the other of Y and
# P, bare; that step leads from Q to Q' itself, so S less m and less that step
# would win in fewer steps. Likewise if both piles are ever empty, Q' = Q and S
# less m wins: so neither happens.
# (d) A win puts Y and P home. When the first of them, say Y, goes home from Q, its
# pile is empty in Q, and in Q' it carries P's pile (not empty, by (c)): move that
# run onto P, which is not barred since Y can go home, reaching Q, and go on as S.
# This win has as many steps as S and one barred move fewer, a contradiction.
# So every won position has a shortest win without barred moves, whose first move
# the rule keeps and leads to a position with a shorter shortest win. The other
# prunings keep such a move too (a forced move drops its card's steps from a win,
# a stock macro takes the fewest turns, a relaxed-game loss is a loss), so a search
# without barred moves still wins every won position and a loss stays a proof.
#
# The empty-column rule (lonelybot's): a move that empties a column (its whole
# face-up run, with nothing face down) is kept only while no column is empty and a
# King could enter one (a King on a foundation, anywhere in the talon, or face up
# above other cards). Such a move m turns nothing up; it puts the run R on a card P
# and frees a column, which only a King (or a King-headed run) may enter. Take a
# shortest win S with no barred moves that plays m where the rule drops it, and
# let S' leave R where it was: each later position of S' is that of S with the pile
# on P (R, grown or shortened from its top) lying in the emptied column instead.
# Every step of S has the same step in S': steps moving pile cards find the same
# top cards, steps carrying P take the run up to P without the pile, P is never a
# target in S while covered, and the same cards turn up; none is barred unless it
# was. If S ever takes the whole pile off P, that step in S' takes it from its
# column and the positions agree from then on, so S' wins in one step fewer: not
# so for a shortest S. So S plays some first step u putting a King into an empty
# column. If another column is empty in S' then, let u go there and carry on;
# otherwise play m' (the pile back onto P, not barred: it leaves the column floor)
# just before u: a King is then ready to enter and no other column is empty, so
# the rule keeps m', the positions agree, and S' is a shortest win with one move
# the rule drops fewer. So a shortest win with no barred moves and the fewest
# dropped moves has none, and the induction above goes through with both rules.
#
# Safe home moves (``_Rules.forced``).
#
# Lemma (L). Let c be on a column's top with its foundation at r - 1, and let S be
# a win from position P in which no step puts a card on c and no step takes the
# card r - 1 of suit s off its foundation. Then S less c's own steps wins from P'
# (P with c home, the card under it turned up). While c is in a column it is that
# column's top, so every other step from there moves a run of which c is at most
# the top card, and the same run less c moves in S' (a King-headed run stays one
# unless c is that King, and then the step is c's own). c's foundation holds r - 1
# cards while c is out, and only c goes on it then. So after each step the
# position of S' is that of S with c home and, at most, fewer face-down cards, and
# a face-up card only allows more: every step of S' is legal, and S' wins.
#
# (A) Any win can be rewritten so that no Ace ever leaves its foundation or is
# put on a card. Take the first step that does either to an Ace a. If it brings
# a back from its foundation onto a (face-up) column top, drop it: L, applied
# after it, removes a's later steps. If it puts a from a column or the waste
# onto a Two, play a home instead (a's foundation is empty while a is out): the
# position is the one after the step with a home, and L removes a's later
# steps. Each rewrite removes such steps and adds none, so this ends.
# (B) It can further be rewritten so that no Two ever leaves its foundation: at
# the first step bringing a Two back, drop it and apply L (by A, no Ace is ever
# put on it and its Ace stays home); the rewrite only removes steps, so A holds.
# Twos: by A, nothing is ever put on a Two and its Ace stays home: L.
# Threes: the only cards that fit on c are the Twos of the other colour; when
# both are home they stay there (B), as does c's own Two: L.
# A Three sent back to the tableau may hold a Two that is not home, so B stops at
# Twos.
# (C) r >= 4. Let X be the cards the condition names, all home in P: c's suit
# below r, the other colour up to r - 1, the other suit of c's colour up to r - 2.
# A card that fits on a card of X is in X, so cards of X, once brought back, only
# ever hold cards of X. Dropping every step that moves a card of X after P leaves
# a win: the other steps move the same cards onto the same parents, a moved run
# loses at most cards of X from its top, cards of X come back only onto face-up
# column tops (so no card turns up later), and none is a King (so no column
# empties later). In that win nothing is put on c (only cards of X fit on it) and
# its r - 1 stays home: L. Blake and Gent's rule for games whose foundation cards
# stay home (the other colour within one rank) lacks the second condition and is
# not safe here: a 5H sent home may be the only red Five that can take a 4S back
# from its foundation to take the 3D that covers the AD (test_klondike has such a
# position, won, and lost once the 5H is home).
# Talon cards: with draw 1 and unlimited passes any talon card can be turned to
# the top of the waste, so every win can be written as "turn to card x, play x"
# and tableau steps. L then holds for a talon card c too: nothing is put on c
# while it is in the talon, S' turns to the same cards (the talon less c holds
# every card S plays from it), and once S plays c to a column the column case
# applies. With more cards turned at a time, removing c changes which cards come
# to the top, and with limited passes it changes when passes end: not used there.
