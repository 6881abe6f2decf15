"""Chris-Cross Pairs Solitaire (Victor Wakefield's invented game).

Rules: 25 cards are dealt face up to a tableau of five rows and five columns, down the
columns (column 1 top to bottom, then column 2, ...); the other 27 cards are the stock,
its order known to the solver (full information). The tableau's two diagonals of five
places cross at its centre. The object is to cast out every card in pairs of equal rank.

- A pair is two cards of one rank in one column (any two places of it), or on a
  diagonal while all five of the diagonal's places hold a card. When the centre card
  pairs with a card on each diagonal, one pair goes, not both.
- A turn casts out one pair, or several pairs with no card in common, each of them a
  pair when the turn began. Then, for each place a card was cast out of, the player
  may slide the card directly above it down one place into it, or the card directly
  below it up one place, or leave it empty. Then every row closes its gaps by shifting
  its cards to the left.
- Each round has up to two phases. Phase 1 repeats turns until no pair is left. If at
  least one pair went in phase 1, phase 2 begins: every row of fewer than five cards
  moves its first card to its end (rotates left by one); then turns repeat until no pair
  is left, which ends the round. A round in which no pair can be cast out (phase 1 finds
  none) loses the game, whether or not the stock holds cards.
- Each round after the first begins by filling the tableau's empty places from the
  stock, column by column from the left, each top to bottom, as far as the stock lasts.
- The game is won when the tableau and the stock are empty.

Rulings (where the rule text is silent, the project's ruling decides):

- The turn's pairs are all pairs of the position the turn began in: a diagonal counts
  for the whole turn if it was full then, even after another of the turn's pairs took a
  card from it. Turns are compulsory: while a pair is left, the phase goes on.
- Each slide moves a card that was directly above or below a cast-out place right after
  the casting out; a card slides at most once, by one place, into a cast-out place only
  (never into the place another card slid out of). Slides into different places in one
  column may use different cards, even both neighbours of a card between two places.
- Phase 2's rotation happens once a round, as phase 2 begins; rows of five cards (and of
  one card or none, where it changes nothing) stay as they are.
- A round whose phase 1 finds no pair loses the game: a full tableau without a pair is
  lost even with cards in the stock. When the stock is empty, the round that ends with
  cards left is the last: the next would find no pair (nothing changed), so the game is
  lost then; the step that would start it (``deal``) is not offered.
- The round's number does not change the rules; positions that differ only in it are
  the same to the search (its key leaves the number out).

Numbered deals: ``solver.cards.pysol_deck_order(number)``, PySolFC's shuffle of one
52-card deck (the Microsoft generator up to 32000, a Mersenne Twister above), in the
order PySolFC's talon hands the cards out: the first 25 fill the tableau down the
columns (card i goes to column i // 5 + 1, row i % 5 + 1, row 1 at the top), the other
27 are the stock, the 26th card of the order dealt first. A deal is the first round's
position, filled as every later round fills its empty places.

Moves. One move (the rules' unit, counted and verified one by one) is one step of a turn;
a turn is a sequence of steps with its unfinished part held in the position:

- ``b1+b4``: cast out the pair at places b1 and b4 (columns ``a``-``e`` left to right,
  rows ``1``-``5`` top to bottom). A turn's first step casts out a pair; until a card
  slides, another pair (of the turn's starting position) may follow.
- ``b3-b4``: slide the card at b3 down into the cast-out place b4 (``b5-b4``: up).
  After the first slide no more pairs go this turn.
- ``close``: end the turn: places left open stay empty and every row closes its gaps to
  the left.
- ``rotate``: phase 2 begins (phase 1 has no pair left, a pair went this round): every
  row of fewer than five cards turns its first card to its end.
- ``deal``: phase 2 has no pair left: the round ends and the next begins by filling the
  empty places from the stock (only while the stock holds cards).

The positions between turns that this reaches are exactly the rules': any set of
disjoint pairs can be cast out one by one, any set of slides made one by one (they
commute), and ``close`` ends the turn. ``moves`` offers a turn's slides in the order of
the places they fill (row by row from the top left) only, which reaches every set of
slides once; ``illegal_reason`` accepts any order. ``rotate`` and ``deal`` are forced:
each is then the only legal step (see ``forced``).

Text format: optional ``Round:`` (a number from 1), ``Phase:`` (``start``: phase 1 before
any pair went this round; ``1``; ``2``), ``Stock:`` (the next card first) and ``Waste:``
(the cards cast out so far, in any order) lines, left out for a fresh deal's (round 1,
start, empty); then five lines, the tableau's rows from the top, each place from the
left: a card (``7H``), ``x`` for a place cast out in the turn under way (its card is in
the waste), a card with ``*`` (``7H*``) for one that slid in that turn, ``.`` for an
empty place before the row's last card; ``-`` for a row with nothing in it. ``#``
starts a comment. Between turns every row's cards stand together at its left.

The player's view (``ChrisCrossPairsView``): the tableau is dealt face up and every
card dealt to it from the stock is too; the stock is "placed in one pile face down", so
its order is all a player does not see. Cast-out cards go to a waste pile face down,
but each was seen in the tableau before it went, so the waste is known (it is the
cards found nowhere else). The solver's full information (the stock's order known) is
the project's ruling; the player's view drops it.

Test-only small twins: ``size`` (3 or 4: a smaller square tableau whose short rows are
those of fewer than ``size`` cards), ``ranks`` and ``suits`` (a deck of the first
``suits`` suits times ranks A..``ranks``: the same shuffle, other cards left out).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from games._chris_cross_pairs_rules import (CARD_LIMIT, CLOSE, DEAL, EMPTY, HOLE, MOVED, PAIR,
                                            PHASE_1, PHASE_2, ROTATE, SLIDE, START, Move, Rules,
                                            State)
from solver.cards import Card, card_str, make_card, pysol_deck_order
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import EMPTY_PILE, DealReader, labelled, number_in
from solver.view import Remembers, Unseen
from solver.layout import Layout, pile

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["CLOSE", "DEAL", "EMPTY", "GAME", "HOLE", "MOVED", "PAIR", "PHASE_1", "PHASE_2",
           "ROTATE", "SLIDE", "START", "ChrisCrossPairs", "ChrisCrossPairsView", "Move", "State"]

_LABELS = ("Round", "Phase", "Stock", "Waste")
_PHASE_NAMES = {START: "start", PHASE_1: "1", PHASE_2: "2"}
_PHASES = {name: phase for phase, name in _PHASE_NAMES.items()}
_PLACE = r"([a-z])([0-9]{1,2})"
_PAIR = re.compile(_PLACE + r"\s*\+\s*" + _PLACE)
_SLIDE = re.compile(_PLACE + r"\s*-\s*" + _PLACE)
_WORDS = {"close": CLOSE, "rotate": ROTATE, "deal": DEAL}
_RANK_NAMES = ("Aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Jacks",
               "Queens", "Kings")


@dataclass(frozen=True)
class ChrisCrossPairs(Game[State, Move]):
    """Chris-Cross Pairs; every field makes a small twin for tests (the game has no variant)."""

    size: int = 5
    ranks: int = 13
    suits: int = 4

    name: ClassVar[str] = "chris-cross-pairs"
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "the score does not grade these deals: every won deal of 1-1000 scores 0 (nearly every "
        "first move keeps the deal winnable, and random play wins on every deal)")
    aliases: ClassVar[tuple[str, ...]] = ("chris-cross", "chris-cross-pairs-solitaire")
    summary: ClassVar[str] = ("5x5 tableau and a 27-card stock; cast out pairs of a rank from "
                              "a column or a full diagonal, slide, close the rows; two phases "
                              "a round")
    variants: ClassVar[dict[str, str]] = {
        "size": "test-only twin: rows and columns of the square tableau, 3..5 (default 5)",
        "ranks": "test-only twin: ranks per suit, A up to this, 2..13 (default 13)",
        "suits": "test-only twin: suits, 2 or 4 (default 4)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 30, 5_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"size": 3, "ranks": 8, "suits": 2},
        {"size": 4, "ranks": 10, "suits": 2},
        {"size": 4, "ranks": 6},
    )
    # Exhaustive depth-first search decides deals in milliseconds, won or lost.
    default_strategy: ClassVar[str] = "dfs"

    def __post_init__(self) -> None:
        check_option("size", self.size, range(3, 6))
        check_option("ranks", self.ranks, range(2, 14))
        check_option("suits", self.suits, (2, 4))
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.size, self.ranks)

    @property
    def deck(self) -> list[Card]:
        """Return this game's cards: suits C D (H S) times ranks A up to ``ranks``."""
        return [make_card(r, s) for s in range(self.suits) for r in range(1, self.ranks + 1)]

    def place_name(self, place: int) -> str:
        """Return a place's name: its column's letter and its row's number (``b4``).

        >>> GAME.place_name(0), GAME.place_name(16)
        ('a1', 'b4')
        """
        row, column = divmod(place, self.size)
        return f"{'abcdefghijklmnopqrstuvwxyz'[column]}{row + 1}"

    # -- deals and text ---------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return numbered deal `number`: PySolFC's shuffle, the first 25 cards dealt down
        the columns, the rest the stock (for a twin: the same order, its cards only).

        >>> print(GAME.format(GAME.deal(1)).splitlines()[4])      # row 1
        JD 7H 9S 3H JS
        """
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        wanted = set(self.deck)
        return self.from_order([c for c in pysol_deck_order(number) if c in wanted])

    def from_order(self, cards: list[Card]) -> State:
        """Return the first round of the cards `cards` in dealing order: the tableau filled
        down the columns as far as they go, the rest the stock."""
        rules = self.rules
        grid, used = rules.filled(bytes([EMPTY]) * (self.size * self.size), bytes(cards))
        return State(grid, bytes(cards[used:]), START, 1)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        >>> GAME.parse(GAME.format(GAME.deal(3))) == GAME.deal(3)
        True
        """
        size = self.size
        read = DealReader(self.name, self.deck, pile="row")
        round_, phase = 1, START
        stock: list[Card] = []
        waste: list[Card] = []
        phase_line: int | None = None
        waste_line: int | None = None
        rows: list[tuple[int, list[int]]] = []
        seen: set[str] = set()
        for number, label, rest in read.labelled_lines(text, _LABELS):
            label = label.lower()
            if label and label in seen:
                read.add(DealProblem.BAD_LINE, f"a second {label.capitalize()} line", line=number)
                continue
            seen.add(label)
            if label == "round":
                found = number_in(rest, 1, 99)
                if found is not None:
                    round_ = found
                else:
                    read.add(DealProblem.BAD_LINE, f"round {quote(rest)}: expected a number "
                             "1..99", line=number)
            elif label == "phase":
                phase_line = number
                if rest.lower() in _PHASES:
                    phase = _PHASES[rest.lower()]
                else:
                    read.add(DealProblem.BAD_LINE, f"phase {quote(rest)}: expected start, 1 "
                             "or 2", line=number)
            elif label in ("stock", "waste"):
                waste_line = number if label == "waste" else waste_line
                cards = read.cards_in(rest, number) if rest != EMPTY_PILE else []
                (stock if label == "stock" else waste).extend(cards)
            else:
                rows.append((number, self._row(read, rest, number)))
        read.check_count(len(rows), size)
        read.check_cards()
        grid = bytearray([EMPTY]) * (size * size)
        for r, (_, cells) in enumerate(rows[:size]):
            grid[r * size:r * size + len(cells)] = bytes(cells)
        self._check_turn(read, rows[:size], phase, phase_line)
        self._check_waste(read, waste, waste_line)
        read.raise_if_any()
        return State(bytes(grid), bytes(stock), phase, round_)

    def _row(self, read: DealReader, text: str, line: int) -> list[int]:
        """Return a row line's cells, left to right, without its trailing empty places."""
        cells: list[int] = []
        for token in text.split() if text != EMPTY_PILE else ():
            if token == ".":
                cells.append(EMPTY)
            elif token.lower() == "x":
                cells.append(HOLE)
            else:
                moved = token.endswith("*")
                card = read.card(token[:-1] if moved else token, line)
                # an unreadable card (recorded already) keeps its place: no gap follows
                cells.append(0 if card is None else MOVED | card if moved else card)
        if len(cells) > self.size:
            read.add(DealProblem.WRONG_PILE_SIZE, f"a row holds at most {self.size} places, "
                     f"this one {len(cells)}", line=line)
            cells = cells[:self.size]
        while cells and cells[-1] == EMPTY:
            cells.pop()
        return cells

    def _check_turn(self, read: DealReader, rows: list[tuple[int, list[int]]],
                    phase: int, phase_line: int | None) -> None:
        """Record what no position of the game shows: a gap in a row before any card has
        slid this turn, a turn under way at a round's start, a slid card with no empty
        place above or below it (where it came from)."""
        size = self.size
        cells = [cell for _, row in rows for cell in row]
        slid = any(MOVED <= c < HOLE for c in cells)
        under_way = slid or HOLE in cells
        if under_way and phase == START:
            read.add(DealProblem.BAD_LINE, "a turn is under way, so a pair went this round: "
                     "the phase is 1 or 2, not start", line=phase_line)
        grid = [EMPTY] * (size * size)
        for r, (_, row) in enumerate(rows):
            grid[r * size:r * size + len(row)] = row
        for r, (line, row) in enumerate(rows):
            if not slid and EMPTY in row:
                read.add(DealProblem.BAD_LINE, f"a gap in row {r + 1}: rows close their gaps "
                         "at the end of a turn, and only a slide opens one in it", line=line)
            for c, cell in enumerate(row):
                if MOVED <= cell < HOLE:
                    p = r * size + c
                    above = grid[p - size] if r > 0 else None
                    below = grid[p + size] if r + 1 < size else None
                    if EMPTY not in (above, below):
                        read.add(DealProblem.BAD_LINE, f"{card_str(cell & 63)}* slid into "
                                 f"{self.place_name(p)}, but no place above or below it is "
                                 "empty", line=line)

    def _check_waste(self, read: DealReader, waste: list[Card], line: int | None) -> None:
        """Record a rank the waste holds an odd number of (cards go out in pairs)."""
        for r in range(self.ranks):
            count = sum(1 for c in waste if c % 13 == r)
            if count % 2:
                read.add(DealProblem.BAD_LINE, f"the waste holds an odd number of "
                         f"{_RANK_NAMES[r]} ({count}): cards are cast out in pairs", line=line)

    def drawing(self, state: State) -> Layout:
        """The stock and the waste above the grid, a hole an empty place (``solver.layout``)."""
        grid, stock, phase, round_ = state
        present = {cell & 63 for cell in grid if cell < HOLE} | set(stock)
        top = [pile("stock", stock[::-1], hidden=len(stock), fan="stack"),
               pile("waste", [c for c in self.deck if c not in present], fan="stack")]
        rows = [[pile(f"{r + 1}.{p + 1}", [] if c >= HOLE else [c & 63], fan="stack")
                 for p, c in enumerate(grid[r * self.size:(r + 1) * self.size])]
                for r in range(self.size)]
        return {"rows": [top, *rows], "notes": [f"Round {round_}, phase {_PHASE_NAMES[phase]}"]}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        grid, stock, phase, round_ = state
        size = self.size
        present = {cell & 63 for cell in grid if cell < HOLE} | set(stock)
        lines = [f"Round: {round_}", f"Phase: {_PHASE_NAMES[phase]}",
                 labelled("Stock", map(card_str, stock)),
                 labelled("Waste", (card_str(c) for c in self.deck if c not in present))]
        for r in range(size):
            cells = list(grid[r * size:(r + 1) * size])
            while cells and cells[-1] == EMPTY:
                cells.pop()
            lines.append(" ".join(map(_cell_str, cells)) if cells else EMPTY_PILE)
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    legal_moves = from_rules(Rules.legal_moves)

    moves = from_rules(Rules.moves, doc="""
        Return the legal steps, a turn's slides in the order of the places they fill.

        Between turns: the pairs (or else ``rotate`` or ``deal``); while casting out:
        more pairs, the slides, ``close``; once a card has slid: the slides into places
        after the last one filled, ``close``. Slides into different places commute (no
        slide moves a card that slid, or fills the place a card left), so each set of
        slides is still reached, once. A won game offers nothing.
        """)

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the cells, the phase and the stock with ranks renamed in order of first
        appearance (tableau row by row, then the stock); suits and the round left out.

        The rules compare ranks only for equality, so renaming ranks (one to one) and
        changing suits maps every line of play to a line of play, step for step.
        """)

    heuristic = from_rules(Rules.heuristic)

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced, doc="""
        Return the only legal step when there is exactly one (else []).

        Proof: every line of play from a position with one legal step begins with that
        step, so playing it first loses no win, and a position's verdict is its only
        child's. This plays ``rotate`` and ``deal`` (always alone when legal: they need a
        position with no pair, which has no other step), a lone pair between turns, and
        ``close`` when no pair and no slide is left in a turn.
        """)

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return `[move]`: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a step's notation.

        >>> [GAME.notation(m) for m in (Move(PAIR, 1, 16), Move(SLIDE, 11, 16),
        ...                             Move(CLOSE, 0, 0), Move(ROTATE, 0, 0), Move(DEAL, 0, 0))]
        ['b1+b4', 'b3-b4', 'close', 'rotate', 'deal']
        """
        kind, a, b = move
        if kind == PAIR:
            return f"{self.place_name(a)}+{self.place_name(b)}"
        if kind == SLIDE:
            return f"{self.place_name(a)}-{self.place_name(b)}"
        return {CLOSE: "close", ROTATE: "rotate", DEAL: "deal"}[kind]

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text`: ``b1+b4``, ``b3-b4``, ``close``, ``rotate``,
        ``deal``.

        >>> GAME.parse_move(GAME.deal(1), "B4+b1"), GAME.parse_move(GAME.deal(1), "Close")
        (Move(kind=0, a=1, b=16), Move(kind=2, a=0, b=0))
        """
        written = text.strip().lower()
        if written in _WORDS:
            return Move(_WORDS[written], 0, 0)
        for kind, pattern in ((PAIR, _PAIR), (SLIDE, _SLIDE)):
            found = pattern.fullmatch(written)
            if found is None:
                continue
            a = self._place(text, found.group(1), found.group(2))
            b = self._place(text, found.group(3), found.group(4))
            if kind == PAIR:
                a, b = min(a, b), max(a, b)
            return Move(kind, a, b)
        raise InvalidMoveError(f"{quote(text)} is not a move: write a pair b1+b4, a slide "
                               "b3-b4, close, rotate or deal")

    def _place(self, text: str, column: str, row: str) -> int:
        c, r = ord(column) - ord("a"), (number_in(row, 1, self.size) or 0) - 1
        if not (0 <= c < self.size and 0 <= r < self.size):
            last = "abcde"[self.size - 1]
            raise InvalidMoveError(f"{quote(text)}: there is no place {column}{row} (columns "
                                   f"a-{last}, rows 1-{self.size})")
        return r * self.size + c

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules in `state`, or "" (written apart from
        ``moves``)."""
        grid, stock, phase, _ = state
        size, cells = self.size, self.size * self.size
        kind, a, b = move
        if self.is_won(state):
            return "the game is won: no card is left"
        slid = any(MOVED <= c < HOLE for c in grid)
        under_way = slid or HOLE in grid
        if kind in (PAIR, SLIDE):
            for p in (a, b):
                if not 0 <= p < cells:
                    return f"there is no place {p + 1} (the tableau has {cells})"
            if a == b:
                return "the two places are the same"
        if kind == PAIR:
            if slid:
                return "a card has slid this turn: no more pairs until the rows close"
            for p in (a, b):
                if grid[p] >= CARD_LIMIT:
                    return f"{self.place_name(p)} holds no card"
            if grid[a] % 13 != grid[b] % 13:
                return (f"{card_str(grid[a])} and {card_str(grid[b])} are not of one rank")
            if a % size == b % size:
                return ""
            for diagonal in self._diagonals():
                if a in diagonal and b in diagonal:
                    if any(grid[p] == EMPTY for p in diagonal):
                        return "the diagonal does not hold five cards" if size == 5 else \
                            "the diagonal is not full"
                    return ""
            return (f"{self.place_name(a)} and {self.place_name(b)} are in no one column or "
                    "diagonal")
        if kind == SLIDE:
            if grid[b] != HOLE:
                return f"{self.place_name(b)} is not a place cast out this turn and still open"
            if a not in (b - size, b + size):
                return f"{self.place_name(a)} is not directly above or below {self.place_name(b)}"
            if grid[a] >= MOVED and grid[a] < HOLE:
                return f"{card_str(grid[a] & 63)} has slid already this turn"
            if grid[a] >= CARD_LIMIT:
                return f"{self.place_name(a)} holds no card"
            return ""
        if kind == CLOSE:
            return "" if under_way else "no pair has been cast out this turn"
        if kind in (ROTATE, DEAL):
            if under_way:
                return "a turn is under way: close it first"
            if self.rules.has_pair(grid):
                return "a pair is left to cast out"
            if kind == ROTATE:
                if phase == START:
                    return "no pair went in phase 1: the game is lost"
                return "" if phase == PHASE_1 else "phase 2 has begun already this round"
            if phase != PHASE_2:
                return "phase 2 has not been played yet (rotate first)" if phase == PHASE_1 \
                    else "no pair went in phase 1: the game is lost"
            return "" if stock else "the stock is empty: no round follows"
        return "no such move"

    def _diagonals(self) -> list[list[int]]:
        size = self.size
        return [[i * size + i for i in range(size)],
                [i * size + size - 1 - i for i in range(size)]]

    def describe(self, state: State, step: Move) -> str:
        """Return a step as a player reads it.

        >>> GAME.describe(GAME.deal(1), Move(PAIR, 1, 6))
        'cast out 7H (b1) and 7C (b2)'
        """
        grid = state.grid
        kind, a, b = step
        cells = len(grid)
        if kind == PAIR:
            names = [f"{card_str(grid[p] & 63) if 0 <= p < cells and grid[p] < HOLE else 'nothing'}"
                     f" ({self.place_name(p)})" for p in (a, b)]
            return f"cast out {names[0]} and {names[1]}"
        if kind == SLIDE:
            card = card_str(grid[a] & 63) if 0 <= a < cells and grid[a] < HOLE else "nothing"
            way = "down" if a < b else "up"
            return f"slide {card} {way} from {self.place_name(a)} to {self.place_name(b)}"
        if kind == CLOSE:
            return "close the gaps in every row, to the left"
        if kind == ROTATE:
            return (f"phase 2: every row of fewer than {self.size} cards moves its first card "
                    "to its end")
        return "new round: fill the empty places from the stock, down the columns"

    # -- certificates of loss -----------------------------------------------------------

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """How a lost deal is written for the independent checker
        (``checker/chris_cross_pairs.py``): the writer follows ``legal_moves`` (a turn's
        slides in any order: the checker follows them all) and ``forced`` (the only legal
        step, which the checker's ``only-move`` reduction plays too); positions are written
        with their ranks renamed in order of appearance (``rank-names``), as ``key`` does.
        """
        from checker import chris_cross_pairs as checker
        from solver.certify import Certifier

        variant = {"size": self.size, "ranks": self.ranks, "suits": self.suits}
        reductions = ("only-move", "rank-names")
        named = frozenset(reductions)

        def encode(state: State) -> str:
            return checker.encode(checker.parse(self.format(state), variant), variant, named)
        return Certifier(reductions, encode)

    # -- the player's view ------------------------------------------------------------

    @property
    def blind_calibration(self) -> tuple[float, ...] | None:
        """The weights that calibrate a blind hint's chance (``solver.app.blind.calibrated``),
        for the full game only (not the tests' twins): fitted on 400 blind games (PySolFC
        deals 1-400, 100 worlds a decision, cap 5,000). The raw share runs high (0.999
        predicted, 0.902 won in the top bin). Checked by five-fold cross-validation over
        those games: Brier score 0.100 -> 0.090, the largest gap between predicted and won
        in a bin of 100+ decisions 9.7 -> 2.6 points; fitted on deals 1-200 and checked on
        201-400, 0.110 -> 0.098 and 10.7 -> 3.6 points (data/chris_cross_pairs/blind.md)."""
        if (self.size, self.ranks, self.suits) != (5, 13, 4):
            return None
        return (1.0203, -3.6522, 0.0651, 0.6649, -0.1227, -0.0130, 4.5831)

    @functools.cached_property
    def player_view(self) -> "ChrisCrossPairsView":
        """What a player sees: the tableau and the cards cast out, not the stock's order
        (``ChrisCrossPairsView``)."""
        return ChrisCrossPairsView(self)


@dataclass(frozen=True)
class ChrisCrossPairsView(Remembers):
    """A Chris-Cross Pairs player's view (``solver.view``).

    Unseen: the stock, in dealing order (the next card first). The stock is face down
    until a new round deals its cards face up into the tableau's empty places; every
    tableau card is face up, and a card cast out was seen before it went (the waste is
    the cards found nowhere else), so what was seen before adds nothing to the position
    (``seen`` is None), for a deal's start and for a position read from a file alike.
    How many cards the stock holds is seen, never their order.

    The player's steps are ``legal_moves``: every legal step, slides in any order; it
    reads the tableau, the phase and whether the stock holds cards (``deal`` needs one),
    never a stock card.
    """

    game: ChrisCrossPairs

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the stock's cards, the next one dealt first, and how to put others there."""
        grid, stock, phase, round_ = state

        def fill(placed: Sequence[int]) -> State:
            return State(grid, bytes(placed), phase, round_)
        return Unseen(tuple(stock), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return every legal step (``legal_moves``)."""
        return self.game.legal_moves(state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return ``forced``'s step: the only legal step, when there is one alone.

        Safe in every world: every line of play begins with it (``ChrisCrossPairs.forced``),
        and which steps are legal reads no stock card (``steps``).
        """
        return self.game.forced(state)


def _cell_str(cell: int) -> str:
    """Return a place's token: a card, ``7H*`` (slid this turn), ``x`` (cast out this
    turn), ``.`` (empty)."""
    if cell == EMPTY:
        return "."
    if cell == HOLE:
        return "x"
    if cell >= MOVED:
        return card_str(cell & 63) + "*"
    return card_str(cell)


GAME = ChrisCrossPairs()
