"""Spider, with 4 suits (default), 2 suits or 1 suit.

Rules (rules/004 and RULES.md "Spider"): two decks; 10 columns of 54 cards (six in four
columns, five in the others), only the top card of each face up; the other 50 cards are
the stock. A card or a
run goes on a card one rank higher, whatever its suit, or into an empty column; only a
same-suit descending run moves as a unit (any top part of such a run may move). A
face-down card is turned face up as soon as it is exposed. The stock deals one card face up to
every column, column 1 first, and only when no column is empty. A complete same-suit run
K..A (all face up, at the top of a column) leaves the tableau at once, as part of the
move or deal that completes it. The game is won when all 104 cards have left.

Rulings used:

- Numbered deals are PySolFC's (games 11 "Spider", 270 "Spider (2 suits)", 269 "Spider
  (1 suit)"): ``solver.cards.pysol_deck_order(n, decks=2)`` in dealing order; four rows of
  ten face down, then one more face-down card to columns 1, 4, 7 and 10 (PySolFC's
  ``RelaxedSpider.startGame``; RULES.md says the first four columns get the extra card:
  numbered deals follow PySolFC, so the six-card columns are 1, 4, 7, 10), then a face-up
  row; the 50 cards left are the stock, dealt ten at a time in that order.
- 2 and 1 suits build the deck as PySolFC does (``GameInfo(suits=(0, 0, 2, 2))`` and
  ``(0, 0, 0, 0)``): PySolFC's suit slots clubs, spades, hearts, diamonds become clubs,
  clubs, hearts, hearts (2 suits) or all clubs (1 suit), shuffled identically; so a
  2-suit deal is the 4-suit deal of the same number with black cards written as clubs
  and red cards as hearts, and a 1-suit deal has every card a club (8 of each rank).
- A complete run is removed only when all its cards are face up (as PySolFC's drop), and
  a deal may complete runs in several columns at once; each is removed.
- Moving a run is one move (a step): solutions are counted in run moves and deals.
- ``moves`` lists every legal move but one kind of duplicate: once the stock is empty
  the columns are interchangeable, so a run goes only to the first empty column and a
  whole column never moves to an empty one. While the stock lasts, each column will get
  its own stock cards, so every empty column is a different target.
- Canonical key: a column together with its face-down count and the stock cards it will
  be dealt (``stock[i::columns]``) is what it will ever hold, so these triples are
  sorted; columns are not interchangeable on their own while the stock lasts.
- Forced moves: none. Whether a build helps depends on the cards still to come from the
  stock and from under face-down cards, and no Spider move is proven safe here (Blake &
  Gent find the usual auto-moves unsafe for Spider's building); the removal of a
  complete run is not a move but part of the move that completes it.

Variant options: ``suits`` (4, 2 or 1). Small twins for tests: ``ranks`` (the length of
a complete run, A..ranks), ``columns``, ``decks`` and ``deals`` (stock deals, each one
card per column); a twin's numbered deal is a seeded shuffle of its own deck, dealt in
rows over the columns (the last row face up), the last ``deals * columns`` cards the stock.

Text format: an optional ``Stock:`` line (the stock in dealing order: the first
``columns`` cards go to columns 1.. at the next deal; ``Talon:`` is read the same), an
optional ``Foundations:`` line naming the K of each removed run (``Foundations: KS KH``),
then one line per column, bottom card first, face-down cards written ``<KS>``, an empty
column as ``-``. For example (a twin with 4 ranks and 3 columns)::

    Stock: 2H 4S AS
    <3S> <2S> 4H
    <AH> 3H
    -

Move notation: columns 1-10; ``3>7`` moves column 3's top card to column 7, ``3>7*3``
its top three cards (a same-suit run), ``d`` deals the stock. ``card_notation`` writes
the run's bottom card too, ``3:9H>7``; ``parse_move`` reads all these, ``deal``, and ``3-7``
(the run that fits on column 7's top card, or the whole movable run into an empty column).
``describe`` says it in words: "9H..7H from column 3 to column 7".

The player's view (``SpiderView``): a player does not see the face-down cards, nor the
stock, whose order is unknown until a row is dealt (its cards then lie face up on the
columns). A card once face up stays face up (Spider turns no card down again), so the
position itself says all that was seen.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from games._spider_rules import (DEAL, DEAL_SOURCE, Move, State, _Rules,  # noqa: F401  (public here)
                                  _run_length)
from solver.cards import (SUIT_NAMES, Card, card_str, foundation_str, make_card, parse_card,
                          pysol_deck_order, rank, run_str, suit)
from solver.game import (BLIND_CAP, DealProblem, Game, InvalidMoveError, check_option, from_rules,
                         quote, shared_rules, use_rules)
from solver.text import DealReader, labelled, number_in, pile_text, read_number
from solver.view import Remembers, Unseen, face_down, face_down_filled
from solver.layout import Layout, pile

if TYPE_CHECKING:
    from solver.certify import Certifier

_TEXT = tuple(card_str(c) for c in range(52))           # a card's text, by card
_SUIT_SETS = {4: (0, 1, 2, 3), 2: (0, 2), 1: (0,)}
_TWO_SUITS = (0, 2, 2, 0)               # our suit (C D H S) -> the 2-suit deck's suit
_LABELS = ("Stock", "Talon", "Foundations", "Foundation")


@dataclass(frozen=True)
class Spider(Game[State, Move]):
    """Spider; the fields are the variant options (the last four make test twins)."""

    suits: int = 4
    ranks: int = 13
    columns: int = 10
    decks: int = 2
    deals: int = 5

    name: ClassVar[str] = "spider"
    # Greedy best-first deals the stock early and then sits on a plateau of look-alike
    # end positions; a beam keeps progress even (data/spider/winnability.md).
    default_strategy: ClassVar[str] = "beam"
    aliases: ClassVar[tuple[str, ...]] = ("spider-solitaire", "tarantula")
    summary: ClassVar[str] = ("two decks, 10 columns, build down; same-suit K..A runs leave; "
                              "1, 2 or 4 suits")
    variants: ClassVar[dict[str, str]] = {
        "suits": "4 (default), 2 (clubs and hearts) or 1 (clubs)",
        "ranks": "length of a complete run, 2-13 (13; tests use fewer: small twins)",
        "columns": "columns, 1-10 (10)",
        "decks": "decks, 1-2 (2)",
        "deals": "stock deals of one card per column (5)",
    }
    presets: ClassVar[dict[str, dict[str, object]]] = {
        "spider-1-suit": {"suits": 1}, "spider-2-suits": {"suits": 2},
        "spider1": {"suits": 1}, "spider2": {"suits": 2},
    }
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({"suits": 1}, 1, 10, 30_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"suits": 2, "ranks": 4, "columns": 4, "decks": 1, "deals": 1},
        {"suits": 4, "ranks": 3, "columns": 4, "decks": 1, "deals": 1},
        {"suits": 1, "ranks": 5, "columns": 4, "decks": 1, "deals": 2})

    def __post_init__(self) -> None:
        check_option("suits", self.suits, (1, 2, 4))
        check_option("ranks", self.ranks, range(2, 14))
        check_option("columns", self.columns, range(1, 11))
        check_option("decks", self.decks, range(1, 3))
        if self.deals < 0 or (self.deals + 1) * self.columns > len(self.deck()):
            raise ValueError(f"deals must leave cards for the tableau, got {self.deals}")
        use_rules(self)

    @property
    def rules(self) -> _Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(_Rules, self.ranks, self.suits, self.columns)

    @property
    def pysolfc(self) -> bool:
        """Return whether numbered deals are PySolFC's (the full-size game)."""
        return (self.ranks, self.columns, self.decks, self.deals) == (13, 10, 2, 5)

    def deck(self) -> list[Card]:
        """Return every card of the variant, each copy listed."""
        copies = self.decks * 4 // self.suits
        return [make_card(r, s) for s in _SUIT_SETS[self.suits]
                for r in range(1, self.ranks + 1)] * copies

    def _recolour(self, card: Card) -> Card:
        if self.suits == 4:
            return card
        return make_card(rank(card), 0 if self.suits == 1 else _TWO_SUITS[suit(card)])

    # -- deals and text ---------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (PySolFC's; a seeded shuffle for twins).

        >>> " ".join(card_str(c[-1]) for c in GAME.deal(14934).columns)
        '5S KH 2H 2D JH 6H 6H 2C KD 5D'
        """
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        if self.pysolfc:
            order = [self._recolour(c) for c in pysol_deck_order(number, decks=2)]
            face_down = list(range(10)) * 4 + [0, 3, 6, 9]
        else:
            order = self.deck()
            random.Random(number).shuffle(order)
            tableau = len(order) - self.deals * self.columns
            face_down = [j % self.columns for j in range(tableau - self.columns)]
        columns: list[list[Card]] = [[] for _ in range(self.columns)]
        for position, i in enumerate(face_down):
            columns[i].append(order[position])
        hidden = bytes(len(c) for c in columns)
        position = len(face_down)
        for i in range(self.columns):           # the face-up row
            columns[i].append(order[position])
            position += 1
        return State(tuple(bytes(c) for c in columns), hidden, bytes(order[position:]), b"")

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem."""
        read = DealReader(self.name, self.deck(), self.decks * 4 // self.suits, face_down=True)
        columns: list[list[Card]] = []
        hidden: list[int] = []
        stock: list[Card] = []
        removed: list[int] = []
        stock_line: int | None = None
        for number, label, rest in read.labelled_lines(text, _LABELS):
            if label.lower() in ("stock", "talon"):
                stock += read.cards_in(rest, number)
                stock_line = stock_line or number
            elif label:                                 # the K of each run removed
                for s, top in read.foundations(rest, number):
                    if top != self.ranks:
                        read.add(DealProblem.BAD_LINE, f"foundation {foundation_str(s, top)} is "
                                 "not a complete run", line=number)
                    removed.append(s)
            else:
                column, down = read.pile(rest, number)
                if len(column) - down >= self.ranks \
                        and bytes(column[-self.ranks:]) in self.rules.complete:
                    read.add(DealProblem.BAD_LINE, f"column {len(columns) + 1} ends in a complete "
                             f"run, which leaves at once", line=number)
                columns.append(column)
                hidden.append(down)
        read.check_count(len(columns), self.columns)
        if len(stock) % self.columns:
            read.add(DealProblem.WRONG_PILE_SIZE, f"{len(stock)} cards in the stock, not a "
                     f"multiple of {self.columns}", line=stock_line)
        read.check_cards()
        read.raise_if_any()
        return State(tuple(bytes(c) for c in columns), bytes(hidden), bytes(stock),
                     bytes(sorted(removed)))

    def drawing(self, state: State) -> Layout:
        """The stock and the removed runs above the columns (``solver.layout``)."""
        stock = state.stock[::-1]                        # the next card dealt on top
        top = [pile("stock", stock, hidden=len(stock), fan="stack")]
        top += [pile(f"run {i + 1}", [make_card(r, s) for r in range(self.ranks, 0, -1)], fan="stack")
                for i, s in enumerate(state.removed)]
        columns = [pile(f"column {i + 1}", column, hidden)
                   for i, (column, hidden) in enumerate(zip(state.columns, state.hidden))]
        return {"rows": [top, columns], "notes": []}

    def format(self, state: State) -> str:
        """Return the text of a position (``Stock:`` and ``Foundations:`` when not empty)."""
        lines = [labelled("Stock", map(card_str, state.stock))] if state.stock else []
        if state.removed:
            lines.append(labelled("Foundations", (card_str(make_card(self.ranks, s))
                                                  for s in state.removed)))
        lines += map(pile_text, state.columns, state.hidden)
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(_Rules.moves)

    play = from_rules(_Rules.play)

    is_won = from_rules(_Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(_Rules.key, doc="""
        Return the columns, each with its face-down count and future stock cards, sorted.

        The stock deals column i the cards ``stock[i::columns]``; a column together with
        those cards is what it will ever hold, so permuting columns with their stock
        cards maps games onto games (the deal rule, "no column empty", does not name a
        column). Removed runs are left out: they are the cards found nowhere else.
        """)

    heuristic = from_rules(_Rules.heuristic)

    deep_heuristic = from_rules(_Rules.deep_heuristic)

    @property
    def beam_heuristics(self) -> tuple[Any, ...]:
        """The heuristics the beam's passes take in turn (``solver.search.beam``).

        Each wins deals the other misses, and quickly, so with 2 or 4 suits the passes
        alternate between them (the figures are in data/spider/winnability.md). 1 suit,
        not measured with two, keeps the one heuristic.
        """
        return (self.heuristic, self.deep_heuristic) if self.suits >= 2 else (self.heuristic,)

    @property
    def beam_strata(self) -> Any:
        """The beam's strata with 4 suits: the cards left in the stock (``stock_left``).

        At every width the beam dealt the whole stock within 50-100 moves (the heuristic
        prices a deal about even) and then died out or wandered with many cards still
        face down; keeping the best positions of each stock count at each depth keeps
        the lines that deal later alive (data/spider/winnability.md). 1 and 2 suits, not
        measured with strata, keep the plain beam.
        """
        return self.stock_left if self.suits == 4 else None

    @property
    def streamlined_key(self) -> Any:
        """The streamlined key with 2 or 4 suits: ``key`` with face-up suits dropped.

        Each face-up card counts as its rank and whether it joins a same-suit run below
        (``_Rules.streamlined_key``): what the heuristics read. Positions merged by it
        are not proven equally winnable, so a beam's passes over it may win, never
        prove a loss; with 1 suit it would merge nothing more than ``key``. The default
        beam does not use it (``solver.search.beam.STREAMLINE``): on the deals measured
        it won as many deals as the exact passes, not more (data/spider/winnability.md).
        """
        return self.rules.streamlined_key if self.suits > 1 else None

    def stock_left(self, state: State) -> int:
        """Return how many cards are still in the stock."""
        return len(state.stock)

    lower_bound = from_rules(_Rules.lower_bound)

    def forced(self, state: State) -> list[Move]:
        """Return no moves: no Spider move is proven safe (module docstring)."""
        return []

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """Certificates of loss, checked by ``checker/spider.py``.

        The writer follows ``moves`` (no forced moves, no static proof); the checker's
        rules list every legal move and apply one reduction, ``column-order``: each column
        is written with its face-down count and the stock cards it will be dealt, the
        chunks sorted (the symmetry ``key`` uses), so the moves ``moves`` leaves out once
        the stock is empty (into an empty column other than the first, a whole column
        into an empty one) lead to positions it writes alike.
        """
        from solver.certify import Certifier

        return Certifier(("column-order",), self.certificate_line)

    def certificate_line(self, state: State) -> str:
        """Return the checker's one-line encoding of a position (``checker.spider``): the
        removed runs' suits, then per column its future stock cards, face-down count and
        cards, the columns sorted; the same as its ``encode`` of this position's text."""
        text = _TEXT.__getitem__
        columns, hidden, stock, removed = state
        width = len(columns)
        chunks = sorted(f"{''.join(map(text, stock[i::width]))}:{hidden[i]}:"
                        f"{''.join(map(text, columns[i]))}" for i in range(width))
        return "|".join(["".join("CDHS"[s] for s in removed), *chunks])

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return ``[move]``: a run move is one move in Spider's rules."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a move's notation: ``3>7`` one card, ``3>7*3`` three cards, ``d`` a deal.

        >>> GAME.notation(DEAL), GAME.notation(Move(2, 6, 1)), GAME.notation(Move(9, 0, 3))
        ('d', '3>7', '10>1*3')
        """
        if move.source == DEAL_SOURCE:
            return "d"
        suffix = f"*{move.count}" if move.count != 1 else ""
        return f"{move.source + 1}>{move.target + 1}{suffix}"

    def card_notation(self, state: State, move: Move) -> str:
        """Return the notation naming the run's bottom card, ``3:9H>7`` (or ``d``)."""
        if move.source == DEAL_SOURCE:
            return "d"
        card = state.columns[move.source][-move.count]
        return f"{move.source + 1}:{card_str(card)}>{move.target + 1}"

    def describe(self, state: State, step: Move) -> str:
        """Return the move as a player reads it, and the run it completes, if any.

        >>> state = GAME.deal(14934)
        >>> GAME.describe(state, Move(9, 6, 1)), GAME.describe(state, DEAL)
        ('5D from column 10 to column 7', 'deal a row from the stock')
        """
        if step.source == DEAL_SOURCE:
            return "deal a row from the stock"
        source, target, count = step
        column = state.columns[source] if 0 <= source < len(state.columns) else b""
        moving = column[len(column) - count:] if count else b""
        phrase = f"{run_str(moving)} from column {source + 1} to column {target + 1}"
        if 0 <= target < len(state.columns) and moving and not self.illegal_reason(state, step):
            completed = len(self.play(state, step).removed) - len(state.removed)
            if completed:
                phrase += f", completing a run of {SUIT_NAMES[suit(moving[0])]}, which leaves"
        return phrase

    def parse_move(self, state: State, text: str) -> Move:
        """Return the move `text` names: ``3>7``, ``3>7*2``, ``3:9H>7``, ``3-7``, ``d``.

        ``3-7`` moves the run that fits on column 7's top card, or the whole movable run
        into an empty column; ``3>7`` is one card.

        >>> state = GAME.deal(14934)
        >>> GAME.parse_move(state, "d"), GAME.parse_move(state, "10:5D>7")
        (Move(source=255, target=255, count=0), Move(source=9, target=6, count=1))
        """
        text = text.strip().lower().replace(" ", "")
        if text in ("d", "deal"):
            return DEAL
        found = re.fullmatch(r"([0-9]{1,4})(?::([0-9a-z]+))?([->])([0-9]{1,4})(?:\*([0-9]{1,4}))?",
                             text)
        if not found:
            raise InvalidMoveError(f"{quote(text)} is not a move: write 3>7, 3>7*2, 3:9H>7 or d")
        places = []
        for written in (found.group(1), found.group(4)):
            place = number_in(written, 1, len(state.columns))
            if place is None:
                raise InvalidMoveError(f"{quote(text)}: there is no column {written} (columns "
                                       f"are 1 to {len(state.columns)})")
            places.append(place - 1)
        source, target = places
        if found.group(5):
            return Move(source, target, read_number(found.group(5)) or 0)
        column = state.columns[source]
        movable = max(_run_length(column, state.hidden[source]), 1)
        if found.group(2):
            card = parse_card(found.group(2))
            if card is None:
                raise InvalidMoveError(f"{quote(text)}: {quote(found.group(2))} is not a card")
            for count in range(1, min(movable, len(column)) + 1):
                if column[-count] == card:
                    return Move(source, target, count)
            raise InvalidMoveError(f"{quote(text)}: {card_str(card)} does not head a movable run "
                                   f"of column {source + 1}")
        if found.group(3) == ">":
            return Move(source, target, 1)
        under = state.columns[target][-1:] if target != source else b""
        if under and column and 1 <= rank(under[0]) - rank(column[-1]) <= movable:
            return Move(source, target, rank(under[0]) - rank(column[-1]))
        return Move(source, target, movable)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a move breaks the rules, or "" (checked from the rules alone)."""
        source, target, count = move
        if source == DEAL_SOURCE or target == DEAL_SOURCE:
            if move != DEAL:
                return "a deal is written d"
            if not state.stock:
                return "the stock is empty"
            for i, column in enumerate(state.columns):
                if not column:
                    return f"column {i + 1} is empty: no deal while a column is empty"
            return ""
        for place in (source, target):
            if not 0 <= place < len(state.columns):
                return f"there is no column {place + 1} (columns are 1 to {len(state.columns)})"
        if source == target:
            return "source and target are the same column"
        column = state.columns[source]
        if count < 1 or count > len(column):
            return f"column {source + 1} has {len(column)} cards, not {count} to move"
        if count > len(column) - state.hidden[source]:
            return f"a face-down card of column {source + 1} cannot move"
        moving = column[len(column) - count:]
        for below, above in zip(moving, moving[1:]):
            if suit(below) != suit(above) or rank(below) != rank(above) + 1:
                return (f"{card_str(above)} on {card_str(below)}: only a same-suit "
                        f"descending run moves as a unit")
        onto = state.columns[target]
        if onto and rank(onto[-1]) != rank(moving[0]) + 1:
            return (f"{card_str(moving[0])} cannot go on {card_str(onto[-1])}: "
                    f"ranks must go down by one")
        return ""

    # -- the player's view ------------------------------------------------------------

    @functools.cached_property
    def player_view(self) -> "SpiderView":
        """What a player sees: the face-up cards and the runs removed (``SpiderView``)."""
        return SpiderView(self)

    @property
    def blind_spending(self) -> frozenset[Move]:
        """A deal from the stock: a blind hint keeps the rows, between plans of equal
        chance, for when no other plan is as good (``solver.game.Game.blind_spending``,
        and data/spider/blind.md: ranked by the worlds decided instead, the player dealt
        the whole stock of two-suit deal 2 within its first 14 steps)."""
        return frozenset((DEAL,))

    @property
    def blind_pooled(self) -> bool:
        """2 and 4 suits: pooled, as about half of a deal's first worlds, and fewer later,
        are left undecided within the cap (``solver.game.Game.blind_pooled``); one suit's
        worlds are mostly decided."""
        return self.suits != 1

    @property
    def blind_strategy(self) -> str | None:
        """One suit: best-first search. Its sampled worlds are easy, and best-first finds
        their wins far sooner than the default beam: the 24 worlds of deal 1's first blind
        hint (cap 40,000 positions) took 0.95 CPU s with 20 decided, against 16.4 s with 23
        decided by the beam. With 2 and 4 suits neither decides many worlds at a small cap
        (at 20,000 positions best-first decided 3 of 40 worlds with 2 suits, none with 4),
        nor does the default beam, whose first pass at width 256 cannot end there (none of
        20 decided, either suit count). Started at width 64 it won 11 of 20 worlds drawn
        from deal 1's start with 2 suits and 11 with 4, in about 0.4 CPU s each (at 32: 12
        and 3; at 128: 14 and 5); see ``blind_cap``."""
        return "best_first" if self.suits == 1 else "beam:width=64"

    @property
    def blind_cap(self) -> int:
        """One suit: the default 5,000 positions. 2 and 4 suits: 20,000, where a beam
        started at width 64 (``blind_strategy``) decides about half of a deal's first
        worlds; at 5,000 a beam started at 4 or 16 decided 5 and 6 of 20 with 2 suits and
        none with 4."""
        return BLIND_CAP if self.suits == 1 else 20_000


@dataclass(frozen=True)
class SpiderView(Remembers):
    """A Spider player's view (``solver.view``).

    Unseen: the face-down cards, column by column (bottom first), then the stock in
    dealing order. A row once dealt lies face up on the columns, and a card once face up
    stays face up wherever it goes (or leaves in a complete run, whose suit is shown),
    so what was seen before adds nothing to the position (``seen`` is None), for a
    deal's start and for a position read from a file alike. How many cards the stock
    holds is seen (it says how many deals are left), never their order.

    The player's steps are ``moves``: it reads only face-up cards, which columns are
    empty and whether the stock still holds cards (the only symmetry it uses, one empty
    column as target once the stock is out, reads no more), never a face-down card or
    a stock card.
    """

    game: Spider

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the face-down cards, column by column, then the stock."""
        columns, hidden, stock, removed = state
        cards = face_down(columns, hidden) + stock

        def fill(placed: Sequence[int]) -> State:
            filled, at = face_down_filled(columns, hidden, placed)
            return State(filled, hidden, bytes(placed[at:]), removed)
        return Unseen(tuple(cards), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return every legal move (``moves``; a run move or a deal is one step)."""
        return self.game.moves(state)



GAME = Spider()
