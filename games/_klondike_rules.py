"""Klondike's move generator, play, safe auto-moves and heuristic for one variant.

Kept apart from ``klondike.py`` (rules, text format, notation, the verifier's rule
check) because this is the hot path of every search: lookup tables indexed by card,
positions as tuples of ``bytes``, and the stock walked once per (talon size, waste
size, redeals), cached.
"""
from __future__ import annotations

from typing import Any

from solver.cards import BYTE, OTHER_COLOUR_SUITS, SAME_COLOUR_SUIT, is_red, make_card, rank, suit

WASTE, STOCK, FOUNDATION = 10, 11, 12


class _Rules:
    """The rules of one Klondike variant as lookup tables."""

    def __init__(self, game: Any) -> None:
        from games.klondike import Move, State

        self.Move, self.State = Move, State
        self.draw, self.passes, self.king = game.draw, game.passes, game.ranks
        self.free_talon = game.draw == 1 and game.passes is None   # any talon card, any time
        self.rank = [rank(c) for c in range(52)]
        self.suit = [suit(c) for c in range(52)]
        # parents[c]: the cards c may be built on (one rank up, other colour)
        self.parents: list[tuple[int, ...]] = []
        for c in range(52):
            r = rank(c)
            self.parents.append(() if r >= game.ranks else tuple(
                make_card(r + 1, s) for s in range(4) if is_red(make_card(r + 1, s)) != is_red(c)))
        self.fits = bytearray(52 * 52)          # fits[below * 52 + above]
        # children[p]: the cards that may be built on p
        self.children: list[list[int]] = [[] for _ in range(52)]
        for c in range(52):
            for p in self.parents[c]:
                self.fits[p * 52 + c] = 1
                self.children[p].append(c)
        self._walks: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
        self._after: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self._safe_cards: dict[bytes, frozenset[int]] = {}

    # -- the stock -------------------------------------------------------------------

    def turn(self, size: int, waste: int, redeals: int) -> tuple[int, int] | None:
        """Return (waste, redeals) after one ``s`` step, or None if it is not allowed."""
        if waste < size:
            return min(waste + self.draw, size), redeals
        if not waste or (self.passes is not None and redeals + 1 >= self.passes):
            return None
        return 0, redeals + 1 if self.passes is not None else 0

    def turns(self, size: int, waste: int, redeals: int, count: int) -> tuple[int, int]:
        """Return (waste, redeals) after `count` ``s`` steps (cached: search macros repeat)."""
        at = (size, waste, redeals, count)
        after = self._after.get(at)
        if after is None:
            after = waste, redeals
            for _ in range(count):
                step = self.turn(size, *after)
                assert step is not None, "stock turn not allowed"
                after = step
            self._after[at] = after
        return after

    def walk(self, size: int, waste: int, redeals: int) -> list[tuple[int, int, int]]:
        """Return (turns, waste, redeals) for each waste size the stock can reach.

        Each waste size comes once, with the fewest turns (so the fewest redeals): the
        walk is deterministic, so it stops when a waste size comes back.
        """
        cached = self._walks.get((size, waste, redeals))
        if cached is not None:
            return cached
        found = [(0, waste, redeals)] if waste else []
        seen = {waste}
        turns, now = 0, (waste, redeals)
        while True:
            after = self.turn(size, *now)
            if after is None or after[0] in seen:
                break
            turns += 1
            now = after
            seen.add(now[0])
            if now[0]:
                found.append((turns, now[0], now[1]))
        self._walks[(size, waste, redeals)] = found
        return found

    # -- moves -----------------------------------------------------------------------

    def moves(self, state: Any, narrow: bool = False) -> list[Any]:
        """Return the legal search moves, the most promising first.

        With `narrow`, only the moves a quick search tries first (``Klondike.narrow_moves``):
        no foundation returns, and a run moves off face-up cards only to let the card it
        uncovers go home.
        """
        columns, hidden, talon, waste, foundations, redeals = state
        Move, rank_of, suit_of, king = self.Move, self.rank, self.suit, self.king
        children, fits = self.children, self.fits
        # onto[c]: the columns whose top card c fits on, in the order of c's parents
        onto: dict[int, list[int]] = {}
        empty = -1
        for p, t in sorted((column[-1], t) for t, column in enumerate(columns) if column):
            for c in children[p]:
                targets = onto.get(c)
                if targets is None:
                    onto[c] = [t]
                else:
                    targets.append(t)
        for t, column in enumerate(columns):
            if not column:
                empty = t
                break
        home: list[Any] = []
        uncover: list[Any] = []
        waste_plays: list[Any] = []
        others: list[Any] = []
        returns: list[Any] = []
        for i, column in enumerate(columns):
            if not column:
                continue
            n = len(column)
            top = column[-1]
            if foundations[suit_of[top]] + 1 == rank_of[top]:
                home.append(Move(i, FOUNDATION, 1))
            low = hidden[i]
            k = n - 1                              # lowest card of the movable run
            while k > low and fits[column[k - 1] * 52 + column[k]]:
                k -= 1
            for start in range(k, n):
                card = column[start]
                targets = onto.get(card)
                king_move = empty >= 0 and start > 0 and rank_of[card] == king
                if targets is None and not king_move:
                    continue
                into = uncover if start == low and (low > 0 or start == 0) else others
                if narrow and into is others and \
                        foundations[suit_of[column[start - 1]]] + 1 != rank_of[column[start - 1]]:
                    continue
                count = n - start
                if targets is not None:
                    for t in targets:
                        into.append(Move(i, t, count))
                if king_move:
                    into.append(Move(i, empty, count))
        for turns, w, _ in self.walk(len(talon), waste, redeals):
            card = talon[w - 1]
            source, count = (STOCK, turns) if turns else (WASTE, 1)
            if foundations[suit_of[card]] + 1 == rank_of[card]:
                waste_plays.append(Move(source, FOUNDATION, count))
            targets = onto.get(card)
            if targets is not None:
                for t in targets:
                    waste_plays.append(Move(source, t, count))
            if empty >= 0 and rank_of[card] == king:
                waste_plays.append(Move(source, empty, count))
        for s in range(4 if not narrow else 0):
            r = foundations[s]
            if r:
                card = make_card(r, s)
                targets = onto.get(card)
                if targets is not None:
                    for t in targets:
                        returns.append(Move(FOUNDATION + s, t, 1))
                if r == king and empty >= 0:
                    returns.append(Move(FOUNDATION + s, empty, 1))
        return home + uncover + waste_plays + others + returns

    def run_length(self, state: Any, source: int, target: int) -> int:
        """Return how many cards of `source` fit on `target` (1 when none do)."""
        columns, hidden = state.columns, state.hidden
        column = columns[source]
        under = columns[target][-1] if columns[target] else None
        for start in range(hidden[source], len(column)):
            card = column[start]
            if under is None and self.rank[card] == self.king or \
                    under is not None and self.fits[under * 52 + card]:
                return len(column) - start
        return 1

    # -- play ------------------------------------------------------------------------

    def play(self, state: Any, move: Any) -> Any:
        """Return the position after a step or a macro."""
        columns, hidden, talon, waste, foundations, redeals = state
        source, target, count = move
        if source == STOCK:
            waste, redeals = self.turns(len(talon), waste, redeals, count)
            if target == STOCK:
                return self.State(columns, hidden, talon, waste, foundations, redeals)
            source = WASTE
        if source == WASTE:
            moving = talon[waste - 1:waste]
            talon = talon[:waste - 1] + talon[waste:]
            waste -= 1
        elif source >= FOUNDATION:
            s = source - FOUNDATION
            moving = bytes((make_card(foundations[s], s),))
            foundations = foundations[:s] + bytes((foundations[s] - 1,)) + foundations[s + 1:]
        else:
            column = columns[source]
            moving = column[-count:]
            rest = column[:-count]
            columns = columns[:source] + (rest,) + columns[source + 1:]
            down = hidden[source]
            if down and down >= len(rest):
                hidden = hidden[:source] + bytes((len(rest) - 1 if rest else 0,)) + hidden[source + 1:]
        if target == FOUNDATION:
            s = self.suit[moving[0]]
            foundations = foundations[:s] + bytes((foundations[s] + 1,)) + foundations[s + 1:]
        else:
            columns = columns[:target] + (columns[target] + moving,) + columns[target + 1:]
        return self.State(columns, hidden, talon, waste, foundations, redeals)

    # -- safe auto-moves -------------------------------------------------------------

    def forced(self, state: Any) -> list[Any]:
        """Return the home moves no solution can regret: Aces, Twos, and higher cards
        whose possible children are home for good.

        A card c (rank r, suit s) on a column's top goes home at once when r <= 2; when
        r == 3 and both foundations of the other colour hold their Two; or when r >= 4,
        both foundations of the other colour hold r - 1 and the other foundation of c's
        colour holds r - 2. With draw 1 and unlimited passes, so does such a card
        anywhere in the talon.

        Lemma (L). Let c be on a column's top with its foundation at r - 1, and let S be
        a win from position P in which no step puts a card on c and no step takes the
        card r - 1 of suit s off its foundation. Then S less c's own steps wins from P'
        (P with c home, the card under it turned up). While c is in a column it is that
        column's top, so every other step from there moves a run of which c is at most
        the top card, and the same run less c moves in S' (a King-headed run stays one
        unless c is that King, and then the step is c's own). c's foundation holds r - 1
        cards while c is out, and only c goes on it then. So after each step the
        position of S' is that of S with c home and, at most, fewer face-down cards, and
        a face-up card only allows more: every step of S' is legal, and S' wins.

        (A) Any win can be rewritten so that no Ace ever leaves its foundation or is
        put on a card. Take the first step that does either to an Ace a. If it brings
        a back from its foundation onto a (face-up) column top, drop it: L, applied
        after it, removes a's later steps. If it puts a from a column or the waste
        onto a Two, play a home instead (a's foundation is empty while a is out): the
        position is the one after the step with a home, and L removes a's later
        steps. Each rewrite removes such steps and adds none, so this ends.
        (B) It can further be rewritten so that no Two ever leaves its foundation: at
        the first step bringing a Two back, drop it and apply L (by A, no Ace is ever
        put on it and its Ace stays home); the rewrite only removes steps, so A holds.
        Twos: by A, nothing is ever put on a Two and its Ace stays home: L.
        Threes: the only cards that fit on c are the Twos of the other colour; when
        both are home they stay there (B), as does c's own Two: L.
        A Three sent back to the tableau may hold a Two that is not home, so B stops at
        Twos.
        (C) r >= 4. Let X be the cards the condition names, all home in P: c's suit
        below r, the other colour up to r - 1, the other suit of c's colour up to r - 2.
        A card that fits on a card of X is in X, so cards of X, once brought back, only
        ever hold cards of X. Dropping every step that moves a card of X after P leaves
        a win: the other steps move the same cards onto the same parents, a moved run
        loses at most cards of X from its top, cards of X come back only onto face-up
        column tops (so no card turns up later), and none is a King (so no column
        empties later). In that win nothing is put on c (only cards of X fit on it) and
        its r - 1 stays home: L. Blake and Gent's rule for games whose foundation cards
        stay home (the other colour within one rank) lacks the second condition and is
        not safe here: a 5H sent home may be the only red Five that can take a 4S back
        from its foundation to take the 3D that covers the AD (test_klondike has such a
        position, won, and lost once the 5H is home).
        Talon cards: with draw 1 and unlimited passes any talon card can be turned to
        the top of the waste, so every win can be written as "turn to card x, play x"
        and tableau steps. L then holds for a talon card c too: nothing is put on c
        while it is in the talon, S' turns to the same cards (the talon less c holds
        every card S plays from it), and once S plays c to a column the column case
        applies. With more cards turned at a time, removing c changes which cards come
        to the top, and with limited passes it changes when passes end: not used there.
        """
        columns, _, talon, waste, foundations, redeals = state
        safe = self._safe_cards.get(foundations)
        if safe is None:
            safe = self._safe_cards[foundations] = frozenset(
                make_card(foundations[s] + 1, s) for s in range(4)
                if foundations[s] < self.king and self._safe(make_card(foundations[s] + 1, s), foundations))
        if not safe:
            return []
        Move = self.Move
        result = [Move(i, FOUNDATION, 1) for i, column in enumerate(columns)
                  if column and column[-1] in safe]
        if self.draw == 1 and self.passes is None and talon:
            # the first safe card met turning from here (as ``walk`` orders them): the
            # waste's top (index waste - 1) first, then talon order round the redeal
            n, best = len(talon), None
            for card in safe:
                j = talon.find(card)
                if j < 0:
                    continue
                if not waste:
                    turns = j + 1
                elif j >= waste - 1:
                    turns = j - waste + 1
                else:
                    turns = n - waste + 2 + j
                if best is None or turns < best:
                    best = turns
            if best is not None:               # the talon changes: one at a time
                result.append(Move(STOCK, FOUNDATION, best) if best else Move(WASTE, FOUNDATION, 1))
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

    def key(self, state: Any, waste: int) -> bytes:
        """Return the key (see Klondike.key) with `waste` written for the waste size."""
        columns, hidden, talon, _, _, redeals = state
        return b"\xff".join(sorted([BYTE[h] + c for c, h in zip(columns, hidden)])) + \
            bytes((254, waste, redeals)) + talon

    def verdict_key(self, state: Any) -> bytes:
        """Return the key with every on-cycle waste size written 255 (see Klondike)."""
        waste = state.waste
        if self.passes is None and (waste == len(state.talon) or waste % self.draw == 0):
            waste = 255
        return self.key(state, waste)

    # -- guidance --------------------------------------------------------------------

    def heuristic(self, state: Any) -> int:
        """Return work left: face-down cards weigh most, then cards not home.

        Talon cards weigh half a card with draw 1 and unlimited passes (every one can
        be turned up at any time) and two cards otherwise, where a card may lie out of
        reach of this pass: on PySolFC deals 1-40, draw 3, 3 CPU s each, greedy search
        then won deals 2, 5 and 8 that a weight of one half left undecided, and with
        draw 1 the half weight did best (data/klondike/winnability.md).
        """
        columns, hidden, talon, _, foundations, _ = state
        left = 4 * self.king - sum(foundations)
        if self.free_talon:
            return left + 4 * sum(hidden) + len(talon) // 2
        return left + 4 * sum(hidden) + 2 * len(talon)
