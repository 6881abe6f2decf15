"""The Clock.

Rules (rules/004 and RULES.md "The Clock"): 13 piles of 4 face down, 12 for A..Q (1 to
12 o'clock) and the centre pile for K. Turn the top card of the centre pile, put it face
up under the pile of its rank, turn that pile's top face-down card; repeat. The game is
lost when the fourth K is turned while face-down cards remain, won when it is the last
card turned. There are no choices: one legal move at a time, or none when it is over.

Rulings used: a move is the turn of one card, written as that card (``7H``). The play
stops exactly when it reaches the K pile with no face-down card left: a non-K pile is
entered once per card of its rank and left once per card turned from it, so it always
has a card when entered. Verdicts come from play, from the CP-SAT model of the same play
(``solver/cpsat/the_clock.py``) and from Knuth's characterisation (``knuth_verdict``).
Test-only small twins: ``ranks`` piles (the last is the "King" pile) of ``suits`` cards.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from solver.cards import RANKS, SUITS, Card, card_str, make_card, parse_card, rank
from solver.game import DealChecker, DealProblem, InvalidMoveError

OVER = -1                        # next_pile once the play has stopped


class State(NamedTuple):
    piles: tuple[bytes, ...]     # face-down cards of pile i (rank i+1), bottom first, top last
    face_up: tuple[bytes, ...]   # face-up cards under pile i, all of rank i+1, in turning order
    next_pile: int               # the pile whose top card turns next; OVER when play stopped


class Move(NamedTuple):
    pile: int                    # the pile the card is turned from
    card: Card                   # the card turned


@dataclass(frozen=True)
class TheClock:
    """The Clock; ``ranks`` and ``suits`` shrink it to a small twin for exhaustive tests."""

    ranks: int = 13
    suits: int = 4

    name: ClassVar[str] = "clock"
    aliases: ClassVar[tuple[str, ...]] = ("the-clock", "clock-patience", "travellers-clock")
    summary: ClassVar[str] = "13 piles of 4 face down; turn cards round the clock (no choices)"
    variants: ClassVar[dict[str, str]] = {
        "ranks": "test-only twin: ranks and piles, 2..13, the last pile is the K's (default 13)",
        "suits": "test-only twin: suits, so cards per pile, 1..4 (default 4)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {}

    def __post_init__(self) -> None:
        if not 2 <= self.ranks <= 13:
            raise ValueError(f"ranks must be 2..13, got {self.ranks}")
        if not 1 <= self.suits <= 4:
            raise ValueError(f"suits must be 1..4, got {self.suits}")

    # -- deals and text -----------------------------------------------------------

    def deck(self) -> list[Card]:
        """Return this game's cards: ranks 1..ranks of the first `suits` suits, by suit."""
        return [make_card(r, s) for s in range(self.suits) for r in range(1, self.ranks + 1)]

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (>= 1), dealt round-robin to the piles.

        The full game shuffles with PySolFC's generator (``pysol_deck_order(number)``:
        Microsoft's up to 32000, Mersenne Twister above) and deals the i-th card (from 0)
        to pile ``i % 13``, so the first 13 cards are the bottoms and the last 13 the tops.
        This is our own documented generator: PySolFC's "Clock" is a different game. A twin
        shuffles ``deck()`` with ``random.Random(number).shuffle`` and deals the same way.

        >>> GAME.format(GAME.deal(1)).splitlines()[0]
        'A: JD QC TS 7D'
        """
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        if (self.ranks, self.suits) == (13, 4):
            from solver.cards import pysol_deck_order
            cards = pysol_deck_order(number)
        else:
            cards = self.deck()
            random.Random(number).shuffle(cards)
        return self.from_order(cards)

    def from_order(self, cards: list[Card]) -> State:
        """Return the fresh deal of `cards` in dealing order (card i to pile i % ranks)."""
        piles = tuple(bytes(cards[i::self.ranks]) for i in range(self.ranks))
        return State(piles, (b"",) * self.ranks, self.ranks - 1)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        One line per pile in order A, 2 .. Q, K, each optionally labelled (``7:``): the
        face-down cards bottom first, then for a position in play a bar and the face-up
        cards under that pile. A ``Next:`` line names the pile that turns next (``-`` when
        play has stopped); when absent it is worked out from the counts. Lines starting
        with ``#`` are comments.

        >>> GAME.parse(GAME.format(GAME.deal(7))) == GAME.deal(7)
        True
        """
        return _Parser(self, text).state()

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``.

        >>> twin = TheClock(ranks=2, suits=2)
        >>> print(twin.format(twin.play(twin.parse("AD 2D\\n2C AC"), Move(1, 0))))
        A: AD 2D | AC
        2: 2C
        Next: A
        """
        lines = []
        for i, (down, up) in enumerate(zip(state.piles, state.face_up)):
            text = " ".join(card_str(c) for c in down)
            if up:
                text = (text + " | " if text else "| ") + " ".join(card_str(c) for c in up)
            lines.append(f"{RANKS[i]}: {text}".rstrip())
        nxt = "-" if state.next_pile == OVER else RANKS[state.next_pile]
        return "\n".join(lines + [f"Next: {nxt}"])

    # -- rules ----------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        """Return the one legal move (turn the top card of the pile due), or none."""
        if state.next_pile == OVER:
            return []
        return [Move(state.next_pile, state.piles[state.next_pile][-1])]

    def play(self, state: State, move: Move) -> State:
        """Return the position after turning the move's card face up under its own pile."""
        target = rank(move.card) - 1
        piles = list(state.piles)
        piles[move.pile] = piles[move.pile][:-1]
        face_up = list(state.face_up)
        face_up[target] += bytes((move.card,))
        return State(tuple(piles), tuple(face_up), target if piles[target] else OVER)

    def is_won(self, state: State) -> bool:
        """Return whether every card is face up."""
        return not any(state.piles)

    # -- search support -----------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the face-down piles and the next pile, packed.

        Face-up cards never move again and are the complement of the face-down ones, so
        they cannot matter; there is no symmetry to strip (each pile has its own rank).
        """
        return b"\xff".join(state.piles) + bytes((state.next_pile + 1,))

    def heuristic(self, state: State) -> int:
        """Return the face-down cards left."""
        return sum(map(len, state.piles))

    def lower_bound(self, state: State) -> int:
        """Return the face-down cards left: each step turns exactly one."""
        return sum(map(len, state.piles))

    def forced(self, state: State) -> list[Move]:
        """Return no forced moves: there is only ever one move anyway."""
        return []

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the move itself: a search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return the card turned.

        >>> GAME.notation(Move(12, 45))
        '7S'
        """
        return card_str(move.card)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the turn of the card `text` names, from the pile holding it face down.

        A card that is face up already gets pile -1 (``illegal_reason`` says why).
        """
        card = parse_card(text)
        if card is None or card not in self.deck():
            raise InvalidMoveError(f"{text!r} is not a card of {self.name} (a move is the card turned)")
        for i, pile in enumerate(state.piles):
            if card in pile:
                return Move(i, card)
        return Move(-1, card)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why the move is not the turn of the top card of the pile due, or ""."""
        name = card_str(move.card)
        if not any(state.piles):
            return "every card is face up already"
        king = len(state.piles) - 1
        if state.next_pile == OVER:
            return f"play has stopped: all the {RANKS[king]}s are face up"
        due = state.next_pile
        pile = state.piles[due] if 0 <= due < len(state.piles) else b""
        if not pile:
            return f"the {RANKS[due]} pile, which turns next, has no face-down card"
        if move.pile != due or move.card != pile[-1]:
            return (f"{name} is not the top card of the {RANKS[due]} pile, which turns next "
                    f"(its top card is {card_str(pile[-1])})")
        return ""

    # -- Knuth's characterisation ---------------------------------------------------

    def knuth_verdict(self, state: State) -> bool:
        """Return whether play wins, by Knuth's characterisation (pointer chasing).

        The last card turned from a pile is its bottom card; draw an arc from every
        non-K pile with face-down cards to the pile of its bottom card's rank. The game
        is won exactly when every arc path reaches the K pile (the arcs form a tree
        rooted there; TAOCP 2.3.4.2). This holds mid-game too, for any position play
        can reach (parse checks the counts that make it so).

        >>> GAME.knuth_verdict(GAME.deal(1)), GAME.knuth_verdict_networkx(GAME.deal(1))
        (False, False)
        """
        piles = state.piles
        king = len(piles) - 1
        reaches = [not pile for pile in piles]   # empty piles are done, so "good"
        reaches[king] = True
        for start in range(king):
            if reaches[start]:
                continue
            seen = 0                             # bit set of the piles on this path
            p = start
            while not reaches[p]:
                if seen >> p & 1:
                    return False                 # a cycle never reaches the K pile
                seen |= 1 << p
                p = piles[p][0] % 13             # rank - 1 of the bottom card
            for q in range(king):
                if seen >> q & 1:
                    reaches[q] = True
        return True

    def knuth_verdict_networkx(self, state: State) -> bool:
        """Return Knuth's verdict with networkx: the reversed arcs form an arborescence.

        The reference version of ``knuth_verdict`` (slower; the tests check they agree).
        """
        import networkx as nx

        king = len(state.piles) - 1
        graph = nx.DiGraph()
        graph.add_node(king)
        graph.add_edges_from((p, rank(state.piles[p][0]) - 1)
                             for p in range(king) if state.piles[p])
        return bool(nx.is_arborescence(graph.reverse(copy=False)))


# -- parsing --------------------------------------------------------------------------


def _rank_of_label(label: str) -> int | None:
    """Return the rank a pile label names (``A``, ``1``, ``7``, ``T``, ``10``, ``K``), or None."""
    label = label.strip().upper()
    if label in ("1", "10"):
        return int(label)
    return RANKS.index(label) + 1 if len(label) == 1 and label in RANKS else None


class _Parser:
    """Read a position's text, collecting every problem in a DealChecker."""

    def __init__(self, game: TheClock, text: str) -> None:
        self.game, self.check = game, DealChecker(game.name)
        self.deck = set(game.deck())
        self.down: list[list[Card]] = []
        self.up: list[list[Card]] = []
        self.lines: list[int] = []
        self.next_label: tuple[str, int] | None = None
        self.any_bar = False
        for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            line = line.strip()
            if line and not line.startswith("#"):
                self._line(line, number)

    def _line(self, line: str, number: int) -> None:
        label, colon, rest = line.partition(":")
        if not colon:
            label, rest = "", line
        elif label.strip().lower() == "next":
            if self.next_label is not None:
                self.check.add(DealProblem.BAD_LINE, f"line {number}: a second 'Next:' line", line=number)
            self.next_label = (rest.strip(), number)
            return
        index = len(self.down)
        if label and _rank_of_label(label) != index + 1:
            want = RANKS[index] if index < 13 else "none"
            self.check.add(DealProblem.BAD_LINE,
                           f"line {number}: pile label {label.strip()!r} where {want!r} was due",
                           line=number)
        parts = rest.split("|")
        if len(parts) > 2:
            self.check.add(DealProblem.BAD_LINE, f"line {number}: more than one '|'", line=number)
        self.any_bar |= len(parts) > 1
        self.down.append(self._cards(parts[0], number))
        self.up.append(self._cards(" ".join(parts[1:]), number))
        self.lines.append(number)

    def _cards(self, text: str, number: int) -> list[Card]:
        cards = []
        for token in text.split():
            card = parse_card(token)
            if card is None or card not in self.deck:
                why = "unreadable card" if card is None else "card not in this game's deck"
                self.check.add(DealProblem.UNREADABLE_CARD, f"line {number}: {why} {token!r}",
                               line=number, card=token)
            else:
                cards.append(card)
        return cards

    def state(self) -> State:
        game, check = self.game, self.check
        if not self.down and self.next_label is None:
            check.add(DealProblem.EMPTY, "no piles: the text is empty")
            check.raise_if_any()
        if len(self.down) != game.ranks:
            check.add(DealProblem.WRONG_PILE_COUNT,
                      f"{game.ranks} piles expected, {len(self.down)} found")
        check.check_deck([c for pile in self.down + self.up for c in pile],
                         universe=game.deck())
        nxt = self._next_pile() if len(self.down) == game.ranks else OVER
        check.raise_if_any()
        return State(tuple(map(bytes, self.down)), tuple(map(bytes, self.up)), nxt)

    def _next_pile(self) -> int:
        """Check the pile sizes and face-up ranks; return the pile due next."""
        game, check, suits = self.game, self.check, self.game.suits
        king = game.ranks - 1
        fresh = not self.any_bar and (self.next_label is None or
                                      _rank_of_label(self.next_label[0]) == game.ranks)
        sizes_ok = True
        for i, (down, up, number) in enumerate(zip(self.down, self.up, self.lines)):
            if len(down) != suits and (fresh or len(down) > suits):
                sizes_ok = False
                check.add(DealProblem.WRONG_PILE_SIZE,
                          f"line {number}: the {RANKS[i]} pile has {len(down)} face-down cards, "
                          + (f"{suits} expected" if fresh else f"at most {suits} allowed"),
                          line=number)
            for card in up:
                if rank(card) != i + 1:
                    check.add(DealProblem.BAD_LINE,
                              f"line {number}: {card_str(card)} lies face up under the "
                              f"{RANKS[i]} pile, not its own", line=number, card=card_str(card))
        if not sizes_ok:
            return OVER
        # Pile i was entered once per face-up card of its rank (the K pile once more, at
        # the start) and left once per card turned from it; only the pile due differs.
        surplus = [len(up) - (suits - len(down)) for down, up in zip(self.down, self.up)]
        surplus[king] += 1
        due = [i for i, s in enumerate(surplus) if s]
        if sorted(surplus) != [0] * (game.ranks - 1) + [1]:
            check.add(DealProblem.WRONG_PILE_SIZE,
                      "the face-up cards do not match the cards turned from each pile "
                      f"(piles {' '.join(RANKS[i] for i in due)} are off)")
            return OVER
        nxt = due[0] if self.down[due[0]] else OVER
        if self.next_label is not None:
            label, number = self.next_label
            named = _rank_of_label(label)
            wanted = OVER if label.lower() in ("-", "none", "over") else \
                named - 1 if named is not None and named <= game.ranks else None
            if wanted is None:
                check.add(DealProblem.BAD_LINE, f"line {number}: no pile called {label!r}",
                          line=number)
            elif wanted != nxt and not (wanted == king and nxt == OVER):
                should = "-" if nxt == OVER else RANKS[nxt]
                check.add(DealProblem.BAD_LINE,
                          f"line {number}: next pile {label!r}, but the counts say {should!r}",
                          line=number)
        return nxt


GAME = TheClock()
