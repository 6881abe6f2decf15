"""Forty Thieves (Napoleon at St. Helena).

Rules (rules/004 and RULES.md "Forty Thieves"): two decks shuffled together; 10 columns
of 4 cards, all face up; 8 foundations, two per suit, built up by suit from the Ace; the
other 64 cards form the stock. Only the top card of a column moves, one card at a time,
onto the next higher card of its suit or into an empty column (any card). The stock is
drawn one card at a time onto the waste, whose top card may go to a column or home.

Variant ``redeal`` (default True, the rule text's): when the stock is empty the waste is
turned over to make a new stock, as often as the player likes. ``redeal=False`` is the
classic rule (one pass, PySolFC's "Forty Thieves"): preset ``forty-thieves-classic``.

Rulings used (the text is silent):
- Foundation cards never come back to the tableau.
- Turning the waste over is its own step (``r``), allowed only with the stock empty and
  the waste not; it keeps the order the cards were drawn in (the waste's bottom card,
  drawn first, is drawn first again).
- Numbered deals are PySolFC's: ``pysol_deck_order(n, decks=2)`` dealt as PySolFC's
  ``FortyThieves.startGame`` does: four rows left to right (card i of the order to column
  ``i % 10``), then one card from the stock to the waste (``_startAndDealRowAndCards``
  ends with ``talon.dealCards()``), leaving 63 in the stock.
- The two foundations of a suit are interchangeable: a position keeps their tops as a
  sorted pair, and a move home is written ``f`` without saying which one.
- A card goes home automatically only under the rule proven in ``forced``.

Test-only small twins: ``suits``, ``ranks``, ``columns`` and ``rows`` (cards per column in
the deal) shrink the game; twin deals shuffle with ``random.Random(number)``.

Text format: a ``Foundations:`` line of eight ``suit-top`` tokens (``C-A C-0 D-5 D-3 ...``,
``0`` for an empty foundation); a ``Waste:`` line, bottom card first (the playable card
last); a ``Stock:`` line in drawing order (the next card drawn first); then one line per
column, bottom card first, an optional leading ``:``. Lines starting with ``#`` are comments.

Notation: columns ``1``-``9`` and ``0`` (the 10th), ``w`` the waste, ``f`` home:
``s`` draws a card, ``r`` turns the waste over, ``w3`` waste to column 3, ``wf`` waste
home, ``4f`` column 4 home, ``27`` column 2 to column 7.

The player's view (``FortyThievesView``): every column card and the waste are face up;
the stock is face down, so a player does not know the order of the cards never drawn.
A card drawn once is known for the rest of the game: the waste keeps the order cards
were drawn in, and turning it over (``redeal``) makes a stock whose order the player
saw, so the cards never drawn are always the ones at the stock's far end (none after
the first redeal). The card the deal puts on the waste is seen at the start.

What the player has seen, in the text (read only by the blind answers): stock cards never
drawn are marked as face-down cards are in other games, ``Stock: <4H> <AC> <7S>``, and a
line ``Seen: all`` says that every stock card has been drawn before (a redeal was made).
The rules allow nothing in between: in the first pass no stock card has been drawn, and
the redeal makes a stock of cards all drawn. A text with neither counts its whole stock
as never drawn, as it always did. Marking only some stock cards, or a column or waste
card, and ``Seen: all`` without ``redeal``, are errors; the full-information answers read
the same position with the marks or without them.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from solver.cards import SUITS, Card, card_str, make_card, pysol_deck_order, rank, suit
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import DealReader, foundations_line, labelled
from solver.view import SEEN_LABEL, Unseen, all_seen, unseen_marks, whole_or_none, without_marks
from solver.layout import Layout, foundation, pile
from games._forty_thieves_rules import DRAW, FOUNDATION, REDEAL, STOCK, WASTE, Move, Rules, State

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["DRAW", "FOUNDATION", "GAME", "REDEAL", "STOCK", "WASTE", "FortyThieves",
           "FortyThievesView", "Move", "State"]

_COLUMN_NAMES = "1234567890"
_LABELS = ("Foundations", "Waste", "Stock", "Talon", SEEN_LABEL)
_TEXT = tuple(card_str(c) for c in range(52))           # a card's text, by card


@dataclass(frozen=True)
class FortyThieves(Game[State, Move]):
    """Forty Thieves; `redeal` is the rule variant, the other fields make small twins."""

    redeal: bool = True
    suits: int = 4
    ranks: int = 13
    columns: int = 10
    rows: int = 4

    name: ClassVar[str] = "forty-thieves"
    aliases: ClassVar[tuple[str, ...]] = ("fortythieves", "forty", "napoleon-at-st-helena", "ft")
    summary: ClassVar[str] = ("two decks, 10 columns of 4 face up, build down by suit, "
                              "stock one at a time to a waste")
    variants: ClassVar[dict[str, str]] = {
        "redeal": "turn the waste over to make a new stock, unlimited times (default true); "
                  "false: one pass (the classic rule)",
        "suits": "test-only twin: suits, 1..4 (default 4)",
        "ranks": "test-only twin: cards per suit, 1..13 (default 13)",
        "columns": "test-only twin: columns, 1..10 (default 10)",
        "rows": "test-only twin: cards per column in the deal (default 4)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "forty-thieves-classic": {"redeal": False},
        "forty-thieves-no-redeal": {"redeal": False},
    }
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 20, 5_000),)
    # solver.game.Game.dial: one pass, then redeals
    dial: ClassVar[tuple[str, tuple[Any, ...]] | None] = ("redeal", (False, True))
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "the score does not grade these deals: every won deal of 1-1000 scores 0 (random play "
        "wins nearly every game), and the features follow the redeal only weakly (area "
        "under the ROC curve 0.611)")
    twins: ClassVar[tuple[dict[str, Any], ...]] = tuple(              # solver.game.twins
        {"suits": 2, "ranks": ranks, "columns": columns, "rows": 3, "redeal": redeal}
        for ranks, columns in ((4, 2), (5, 2), (6, 3)) for redeal in (False, True))

    def __post_init__(self) -> None:
        check_option("suits", self.suits, range(1, 5))
        check_option("ranks", self.ranks, range(1, 14))
        check_option("columns", self.columns, range(1, 11))
        if not 0 <= self.rows or self.rows * self.columns > 2 * self.suits * self.ranks:
            raise ValueError(f"rows must be 0..{2 * self.suits * self.ranks // self.columns}, "
                             f"got {self.rows}")
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.redeal, self.suits, self.ranks)

    @property
    def pysol(self) -> bool:
        """Return whether numbered deals are PySolFC's (the full game's size)."""
        return (self.suits, self.ranks, self.columns, self.rows) == (4, 13, 10, 4)

    # -- deals and text ---------------------------------------------------------------

    def deck(self) -> list[Card]:
        """Return one deck of this game's cards (a deal holds two of each)."""
        return [make_card(r, s) for s in range(self.suits) for r in range(1, self.ranks + 1)]

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (>= 1): PySolFC's for the full game.

        >>> GAME.format(GAME.deal(1)).splitlines()[3]
        ': 3D AS KD 7D'
        """
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        if self.pysol:
            return self.from_order(pysol_deck_order(number, decks=2))
        cards = self.deck() * 2
        random.Random(number).shuffle(cards)
        return self.from_order(cards)

    def from_order(self, cards: list[Card]) -> State:
        """Return the fresh deal of `cards` in dealing order, as PySolFC deals it.

        Rows go left to right (card i to column ``i % columns``), then one card goes to
        the waste; the rest is the stock, the first of them drawn next.
        """
        dealt = self.columns * self.rows
        columns = tuple(bytes(cards[i:dealt:self.columns]) for i in range(self.columns))
        waste = bytes(cards[dealt:dealt + 1])
        stock = bytes(reversed(cards[dealt + 1:]))
        return State(columns, bytes(2 * self.suits), waste, stock)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        >>> GAME.parse(GAME.format(GAME.deal(3))) == GAME.deal(3)
        True
        """
        return self.parse_seen(text)[0]

    def parse_seen(self, text: str) -> tuple[State, int | None]:
        """Return the position a text describes and how many stock cards its marks say
        were never drawn (None: it says nothing; see the module docstring).

        Marks the rules cannot produce are a DealError: some stock cards marked and not
        others, a column or waste card marked, ``Seen: all`` without ``redeal``.

        >>> GAME.parse_seen(GAME.format(GAME.deal(3)))[1] is None
        True
        >>> FortyThieves(redeal=False).parse_seen(GAME.format(GAME.deal(3)) + "Seen: all")
        Traceback (most recent call last):
        ...
        solver.game.DealError: forty-thieves deal: Seen: all, but without redeal the stock \
holds only cards never drawn
        """
        read = DealReader(self.name, self.deck(), 2)
        pairs: list[list[int]] = [[] for _ in range(self.suits)]
        columns: list[bytes] = []
        waste: list[Card] = []
        stock: list[Card] = []
        seen: set[str] = set()
        marks: list[bool] = []                  # the Stock line's tokens marked never drawn
        said_all = False
        for number, label, rest in read.labelled_lines(text, _LABELS):
            label = label.lower()
            if label == "foundations":
                for s, top in read.foundations(rest, number):
                    pairs[s].append(top)
            elif label == "seen":
                said_all = all_seen(rest)
                if not said_all:
                    read.add(DealProblem.BAD_LINE, f"Seen: {quote(rest)}: expected all",
                             line=number)
            elif label:
                pile = "Waste" if label == "waste" else "Stock"      # Talon: the stock
                if pile in seen:             # its cards would be counted, and then lost
                    read.add(DealProblem.BAD_LINE, f"a second {pile} line", line=number)
                    continue
                seen.add(pile)
                if pile == "Stock":
                    if "<" in rest:
                        marks, rest = unseen_marks(rest), without_marks(rest)
                    stock.extend(read.cards_in(rest, number))
                else:
                    waste.extend(read.cards_in(self._face_up(read, rest, number, "waste"),
                                               number))
            else:
                rest = self._face_up(read, rest, number, "column")
                columns.append(bytes(read.pile(rest, number)[0]))
        read.check_count(len(columns), self.columns)
        never = self._never_drawn(read, marks, said_all, len(stock))
        read.check_cards()
        read.raise_if_any()
        tops = [top for pair in pairs for top in sorted((pair + [0, 0])[:2])]
        return State(tuple(columns), bytes(tops), bytes(waste), bytes(reversed(stock))), never

    @staticmethod
    def _face_up(read: DealReader, text: str, line: int, where: str) -> str:
        """Return a line of cards the rules always show, its marks recorded as problems
        and dropped."""
        if "<" not in text and ">" not in text:      # nothing marked: the common case
            return text
        for token, marked in zip(text.split(), unseen_marks(text)):
            if marked:
                read.add(DealProblem.BAD_LINE, f"{where} card {quote(token)} marked never "
                         f"seen: every {where} card is face up", line=line)
        return without_marks(text)

    def _never_drawn(self, read: DealReader, marks: list[bool], said_all: bool,
                     stock: int) -> int | None:
        """Return how many stock cards the text says were never drawn (None: it says
        nothing), recording marks the rules cannot produce: in the first pass no stock
        card has been drawn, and a redeal makes a stock of cards all drawn before
        (``FortyThievesView``), so the cards never drawn are the whole stock or none."""
        marked, problem = sum(marks), whole_or_none(marks, said_all, "drawn")
        if problem:
            read.add(DealProblem.BAD_LINE, problem)
        elif said_all and stock and not self.redeal:
            read.add(DealProblem.BAD_LINE, "Seen: all, but without redeal the stock holds only "
                     "cards never drawn")
        if said_all:
            return 0
        return stock if marked else None

    def format_seen(self, state: State, never: int | None) -> str:
        """Return the text of a position with the `never` stock cards drawn last marked
        never drawn (``Seen: all`` for 0; None writes no marks, as ``format``)."""
        shown = len(state.stock) - (never or 0)
        stock = [card_str(c) if i < shown else f"<{card_str(c)}>"
                 for i, c in enumerate(reversed(state.stock))]
        lines = [foundations_line((i // 2, top) for i, top in enumerate(state.foundations)),
                 labelled("Waste", map(card_str, state.waste)), labelled("Stock", stock)]
        if never == 0:
            lines.append(f"{SEEN_LABEL}: all")
        lines += (labelled("", map(card_str, column)) for column in state.columns)
        return "\n".join(lines) + "\n"

    def drawing(self, state: State) -> Layout:
        """The stock, the waste and the foundations above the columns (``solver.layout``)."""
        top = [pile("stock", state.stock, hidden=len(state.stock), fan="stack"),
               pile("waste", state.waste, fan="right")]
        top += [foundation(i // 2, t, f"foundation {SUITS[i // 2]}{i % 2 + 1}")
                for i, t in enumerate(state.foundations)]
        return {"rows": [top, [pile(f"column {i + 1}", column)
                               for i, column in enumerate(state.columns)]], "notes": []}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        return self.format_seen(state, None)

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(Rules.moves, doc="""
        Return the legal steps: home, builds, draw, to an empty column, redeal.

        Empty columns are interchangeable, so a card goes only to the first; a column's
        only card never moves to an empty column (the same position up to symmetry).
        """)

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the sorted columns, the waste and the stock, packed.

        Columns are interchangeable. Foundations are left out: they hold exactly the
        cards found nowhere else, and which cards of a suit are home fixes the pair of
        tops (the higher top is the count of ranks home at all, the lower one the count
        of ranks home twice). Identical cards are equal bytes already.
        """)

    heuristic = from_rules(Rules.heuristic, doc="""
        Return a weighted count of work left: cards out, and cards off their suit run;
        with one pass, twice the cards in the waste as well.

        Only an order for the searches, never a proof. With one pass a waste card is
        buried for good under every card drawn after it, so lines that draw past cards
        they could have used look worse; counting the waste won more classic deals
        (figures in data/measurements.md).
        """)

    def dead_end(self, state: State) -> str:
        """Return a proof that no win is reachable (one pass only), or "".

        ``games._forty_thieves_rules.stuck_card`` computes a least fixpoint: which card
        instances out may ever leave the pile they lie in now, and which may ever go
        home; if fewer than two copies of some card are home or may go home, the
        position is lost. Proof (by induction on time along any line of play, for the
        first time each instance leaves its pile and the time it goes home): an instance
        leaves only when it is its pile's top, so the instances lying on it now (in a
        column, or in the waste: with one pass nothing ever comes back under it, and a
        stock card is on no pile yet) have left before; it goes home when a foundation
        shows its rank - 1, so more copies of rank - 1 than of its rank are home then,
        and each of them was home now or went home earlier; it goes onto a parent that
        is a column's top then, so that parent was a column's top now, or the instances
        on it now had left, or it had left its own pile (waste and stock cards reach a
        column only so); it goes to an empty column, which was empty now or whose
        instances all had left (its bottom one last). Each event meets the fixpoint's
        condition with earlier events, so the fixpoint holds every instance that ever
        leaves and counts at least as many copies home as any line gets (a copy goes
        home only while more copies of the rank below are home). With the waste turned
        over (``redeal``) a waste card comes back without the cards on it leaving, so
        the rule is not used there. Checked at the start only: inside the search it cost
        far more time than the positions it saved (figures in data/measurements.md).
        """
        card = self.rules.stuck(state)
        if card < 0:
            return ""
        return (f"{card_str(card)} can never go home twice: the cards it waits for lie "
                "under it or under cards that can never move")

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced, doc="""
        Return one move home that is proven safe, or [].

        Rule: a playable card (a column's top or the waste's top) of rank r goes home
        when the LOWER foundation of its suit shows r - 1, i.e. both copies of rank r - 1
        of its suit are home already (an Ace always: the rule's r = 1 case).

        Proof. Let T be a position with such a card c playable and T* the position after
        c goes home. Take any winning line from T; build one from T* by playing the same
        steps but skipping every step that moves c (c's own later trip home included)
        and a draw that turns up c. Invariant: T* equals the current position of the line
        with c deleted from wherever c lies, and with c home. (1) Nothing can ever be
        laid on c in a column: only the r - 1 of its suit could be, and both are home for
        good (foundation cards never come back). So c in a column is always its top card,
        and any other column is the same in both positions; an empty column stays empty.
        (2) A card other than c that is playable in the line (a column top, the waste
        top, the stock top drawn) is playable at the same place in T* (deleting c from a
        pile changes its top only when c is that top). Draws and redeals commute with
        deleting c (a redeal that turns over a waste holding only c is skipped: both
        stocks then hold the same cards but c). (3) Foundations: a suit's home cards in
        T* are the line's plus c; a card of rank k may go home exactly when fewer copies
        of rank k than of rank k - 1 are home. The line has both r - 1 home and c's copy
        of r not home, so adding c keeps that true for every k: for k = r + 1 there is
        one more r home (weaker condition), for k = r only the other copy can move and
        it still can (2 copies of r - 1, at most 1 of r after adding c), other k are
        unchanged. So every kept step is legal in T*, and when the line wins (every card
        home, c included) T* has won too. Hence T winnable implies T* winnable.
        """)

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """Certificates of loss, checked by ``checker/forty_thieves.py``.

        The writer follows ``moves`` and ``forced``; the checker's rules list every legal
        step and apply two reductions: ``column-order`` (columns written sorted, so the
        steps ``moves`` leaves out, into an empty column other than the first and a
        column's only card into an empty column, lead to positions it writes alike) and
        ``safe-home`` (the move home ``forced`` makes, by the same rule). No static proof
        is written: ``dead_end`` (one pass) is asked only of the start, and never fires on
        a numbered deal (its 63 stock cards may all be drawn); where it does fire, the
        writer expands the position instead, an exhaustive search of it.
        """
        from solver.certify import Certifier

        return Certifier(("column-order", "safe-home"), self.certificate_line)

    def certificate_line(self, state: State) -> str:
        """Return the checker's one-line encoding of a position (``checker.forty_thieves``:
        the foundation tops in hexadecimal, the waste, the stock in drawing order, the
        columns sorted), the same as its ``encode`` of this position's text."""
        text = _TEXT.__getitem__
        columns = sorted("".join(map(text, column)) for column in state.columns)
        return "|".join(["".join(f"{top:x}" for top in state.foundations),
                         "".join(map(text, state.waste)),
                         "".join(map(text, reversed(state.stock))), *columns])

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the move itself: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a step's notation.

        >>> [GAME.notation(m) for m in (DRAW, REDEAL, Move(WASTE, 2), Move(9, FOUNDATION), Move(1, 6))]
        ['s', 'r', 'w3', '0f', '27']
        """
        if move == DRAW:
            return "s"
        if move == REDEAL:
            return "r"
        return _place_name(move.source) + _place_name(move.target)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text` (``s``, ``r``, ``w3``, ``wf``, ``4f``, ``27``).

        >>> GAME.parse_move(GAME.deal(1), "0F")
        Move(source=9, target=12)
        """
        text = text.strip().lower()
        if text == "s":
            return DRAW
        if text == "r":
            return REDEAL
        if len(text) != 2:
            raise InvalidMoveError(f"{quote(text)} is not a move: write s, r, or a source and a "
                                   "target like w3, 4f, 27")
        source, target = _place(text[0]), _place(text[1])
        if source is None or source == FOUNDATION:
            raise InvalidMoveError(f"{quote(text)}: {text[0]!r} is not a column or w")
        if target is None or target == WASTE:
            raise InvalidMoveError(f"{quote(text)}: {text[1]!r} is not a column or f")
        for place in (source, target):
            if place < WASTE and place >= len(state.columns):
                raise InvalidMoveError(f"{quote(text)}: there is no column {place + 1}")
        return Move(source, target)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules, or "" (written apart from ``moves``)."""
        columns, foundations, waste, stock = state
        source, target = move
        if move == DRAW:
            return "" if stock else "the stock is empty"
        if move == REDEAL:
            if not self.redeal:
                return "this variant does not turn the waste over"
            if stock:
                return "the waste is turned over only when the stock is empty"
            return "" if waste else "the waste is empty"
        if source == WASTE:
            if not waste:
                return "the waste is empty"
            card = waste[-1]
        elif 0 <= source < len(columns):
            if not columns[source]:
                return f"column {source + 1} is empty"
            card = columns[source][-1]
        else:
            return f"there is no column {source + 1}"
        if target == FOUNDATION:
            s, r = suit(card), rank(card)
            if r - 1 not in (foundations[2 * s], foundations[2 * s + 1]):
                return f"{card_str(card)} does not go on a foundation yet"
            return ""
        if target == source:
            return "source and target are the same"
        if not 0 <= target < len(columns):
            return f"there is no column {target + 1}"
        column = columns[target]
        if not column:
            return ""
        under = column[-1]
        if suit(under) != suit(card) or rank(under) != rank(card) + 1:
            return (f"{card_str(card)} cannot go on {card_str(under)}: build down by suit, "
                    "one rank at a time")
        return ""

    def describe(self, state: State, step: Move) -> str:
        """Return the step as a player reads it: the card, where from and where to.

        A draw is "draw a card from the stock" whatever it draws, so that a run of draws
        reads as one (solver.app.analyze.narrate); the play from the waste names its card.

        >>> state = GAME.deal(1)
        >>> GAME.describe(state, DRAW), GAME.describe(state, Move(2, 9))
        ('draw a card from the stock', '8H from column 3 to column 10')
        """
        columns, _, waste, stock = state
        source, target = step
        if step == DRAW:
            return "draw a card from the stock"
        if step == REDEAL:
            return "turn the waste over"
        if source == WASTE:
            moving, where = waste[-1:], "the waste"
        else:
            moving = columns[source][-1:] if 0 <= source < len(columns) else b""
            where = f"column {source + 1}"
        card = card_str(moving[0]) if moving else "no card"
        to = "the foundation" if target == FOUNDATION else f"column {target + 1}"
        return f"{card} from {where} to {to}"

    # -- the player's view ------------------------------------------------------------

    @functools.cached_property
    def player_view(self) -> "FortyThievesView":
        """What a player sees: the columns, the waste, and the stock cards drawn before
        (``FortyThievesView``)."""
        return FortyThievesView(self)


@dataclass(frozen=True)
class FortyThievesView:
    """A Forty Thieves player's view (``solver.view``).

    Unseen: the stock cards never drawn. The stock lies face down and is drawn from its
    end (``State.stock``'s last card first), so the cards never drawn are its first
    ones, ``stock[:seen]``: what is seen beyond the position is how many those are. At a
    deal's start that is the whole stock; each draw shows one; after a redeal (the
    waste turned over, its order kept) the stock holds only cards drawn before, which
    the player saw go by, so none is unseen. A position read from a file counts its
    whole stock as never drawn unless its text says otherwise (``read``: ``Seen: all``).
    Without ``redeal`` the count is always the stock's size.

    The player's steps are ``moves``: it reads the columns, the waste, the foundations
    and whether the stock holds cards, never a stock card (the proof of loss that reads
    the stock, ``dead_end``, is not part of ``moves``).
    """

    can_undo: ClassVar[bool] = True

    game: FortyThieves

    def start(self, state: State) -> int:
        """Return how many cards at the stock's far end were never drawn: all of them."""
        return len(state.stock)

    def read(self, text: str, state: State) -> int | None:
        """Return how many stock cards the text's marks say were never drawn (all or
        none), 0 for ``Seen: all``, else None (``FortyThieves.parse_seen``)."""
        return self.game.parse_seen(text)[1]

    def write(self, state: State, seen: Any) -> str:
        """Return the text with the stock's cards never drawn marked, or ``Seen: all``
        when every one was drawn before."""
        never = int(seen)
        return self.game.format(state) if not never and not state.stock \
            else self.game.format_seen(state, never)

    def after(self, state: State, seen: Any, step: Move, next_state: State) -> int:
        """A draw shows the stock's last card; a redeal makes a stock of seen cards."""
        return min(int(seen), len(next_state.stock))

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the stock cards never drawn, in stock order, and how to put others there."""
        columns, foundations, waste, stock = state
        never = int(seen)
        known = stock[never:]

        def fill(placed: Sequence[int]) -> State:
            return State(columns, foundations, waste, bytes(placed) + known)
        return Unseen(tuple(stock[:never]), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return every legal step (``moves``)."""
        return self.game.moves(state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return ``forced``'s move home, if any.

        It is safe in every world: its rule reads only the waste's and the columns' top
        cards and the foundations, all face up, and its proof (``FortyThieves.forced``)
        holds whatever the stock holds, draws and redeals included.
        """
        return self.game.forced(state)


def _place_name(place: int) -> str:
    if place == FOUNDATION:
        return "f"
    if place == WASTE:
        return "w"
    if place == STOCK:
        return "s"
    return _COLUMN_NAMES[place] if 0 <= place < 10 else "?"


def _place(letter: str) -> int | None:
    if letter == "f":
        return FOUNDATION
    if letter == "w":
        return WASTE
    if letter in _COLUMN_NAMES:
        return _COLUMN_NAMES.index(letter)
    return None


GAME = FortyThieves()
