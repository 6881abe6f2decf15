"""FreeCell, and Seahaven Towers as a preset of the same mechanics.

Rules (rules/004 and RULES.md "FreeCell"): 8 columns dealt 7,7,7,7,6,6,6,6; 4 free cells
that hold one card each; 4 foundations built up by suit from the Ace. A column builds
down in alternating colours; an empty column takes any card; one card moves at a time.

Seahaven Towers (RULES.md "Seahaven Towers") is the same machine with 10 columns of 5,
the last 2 cards in two of the 4 cells, building down by suit, and only a King (or a
King-headed run) to an empty column: the preset ``seahaven``.

Rulings used:
- The search moves a run of cards as one macro when the cells and empty columns allow
  it (capacity ``(free cells + 1) * 2 ** empty columns``, halved for an empty target),
  but a solution is written out and verified as single-card steps. Shortest
  solutions count moves as Microsoft FreeCell does, a run moved at once as one
  (``move_cost``), so that they compare with published optimal lengths.
- Foundation cards never come back (no rule text allows it).
- A card goes home automatically only when that is proven safe (``forced``).
- Numbered deals: Microsoft's generator for FreeCell (1 to 2**33 - 1, Freecell Pro's
  extension past 2**31), PySolFC's for Seahaven Towers; both through ``pysol_cards``.

Variant options: ``cells`` (0-4 for FreeCell), and, for tests' small twins, ``ranks``
(cards per suit) and ``columns``.

Text format: Freecell Solver's board text. Optional ``Foundations: H-A C-0 D-2 S-0`` and
``Freecells: 8D - - -`` lines, then one line per column, bottom card first, an optional
leading ``:``. Notation: columns ``1``-``9`` (``0`` is the 10th), cells ``a``-``d``,
foundation ``h``: ``3a`` moves column 3's top card to cell a, ``a5`` cell a to column 5.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

# The position and move types, the place numbers and the hot path (moves, play, keys,
# forced moves, guidance) live in the compiled rules module; their names stay here too.
from games._freecell_rules import CELL, EMPTY, FOUNDATION, Move, State, _Rules
from solver.cards import Card, build_reason, card_str, make_card, pysol_layout, rank, run_str, suit
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import DealReader, foundations_line, labelled
from solver.layout import Layout, foundation, pile

if TYPE_CHECKING:
    from solver.certify import Certifier

_FOUNDATION_ORDER = (2, 0, 1, 3)    # the order Freecell Solver prints foundations in: H C D S
_COLUMN_NAMES = "1234567890"
_CELL_NAMES = "abcdefg"       # never "h": that is the foundation

@dataclass(frozen=True)
class FreeCell(Game[State, Move]):
    """FreeCell (default) and its relatives; the fields are the variant options."""

    cells: int = 4
    columns: int = 8
    ranks: int = 13
    build: str = "alternate"          # "alternate" colours, or "suit"
    empty: str = "any"                # what an empty column takes: "any" card, or "kings"
    layout: str = "microsoft"         # numbered deals: "microsoft", "seahaven", "seeded"

    name: ClassVar[str] = "freecell"
    aliases: ClassVar[tuple[str, ...]] = ("fc", "free-cell")
    summary: ClassVar[str] = "8 columns, 4 free cells, build down in alternating colours"
    presets: ClassVar[dict[str, dict[str, Any]]] = {"bakers-game": {"build": "suit"},
                                                    "two-cell": {"cells": 2}}

    variants: ClassVar[dict[str, str]] = {
        "cells": "free cells, 0-7 (FreeCell 4)",
        "columns": "columns, 1-10 (FreeCell 8; tests use fewer)",
        "ranks": "cards per suit, 1-13 (tests use fewer: small twins)",
        "build": "'alternate' colours or 'suit'",
        "empty": "what an empty column takes: 'any' or 'kings'",
        "layout": "numbered deals: 'microsoft', 'seahaven' (PySolFC) or 'seeded' (twins)",
    }
    # solver.game.Game.dial: the free cells, for FreeCell and Seahaven Towers alike
    dial: ClassVar[tuple[str, tuple[Any, ...]] | None] = ("cells", (0, 1, 2, 3, 4))
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "fitted on Microsoft deals 1-752 and checked on 753-2000 against the free "
        "cells: a deal not won with two scores above one won with one 96% of the time "
        "(area under the ROC curve 0.964)")
    # small twins of FreeCell and Seahaven Towers alike (each keeps its building rules)
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 50, 20_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"ranks": 4, "columns": 4, "cells": 1}, {"ranks": 4, "columns": 4, "cells": 0},
        {"ranks": 5, "columns": 4, "cells": 1})
    # The greedy members win most Microsoft deals, and dfs alone wins 80 of 1-100 in 2 CPU s
    # against their 100: in the rounds before dfs gets half, each greedy member gets twice
    # dfs's share, and there is one round more (the greedy members' caps 4,000, 8,000,
    # 16,000 and 32,000 positions, dfs's half of those). On
    # deals 1-1000: 3,117,430 positions in all before, 2,523,681 after; 1001-1400, replayed
    # from each member's own count: 1,178,231 before, 1,064,816 after
    # (data/portfolio-vs-dfs.md).
    portfolio_equal_rounds: ClassVar[int] = 4
    portfolio_shares: ClassVar[tuple[int, ...] | None] = (2, 2, 1)

    def __post_init__(self) -> None:
        check_option("cells", self.cells, range(0, len(_CELL_NAMES) + 1))
        check_option("columns", self.columns, range(1, 11))
        check_option("ranks", self.ranks, range(1, 14))
        check_option("build", self.build, ("alternate", "suit"))
        check_option("empty", self.empty, ("any", "kings"))
        check_option("layout", self.layout, ("microsoft", "seahaven", "seeded"))
        # The one field written here is a normalisation, not a table: a published layout
        # exists only for its own deck and columns, so a twin's numbered deals are seeded.
        full = self.ranks == 13
        if self.layout == "microsoft" and not (full and self.columns == 8):
            object.__setattr__(self, "layout", "seeded")
        if self.layout == "seahaven" and not (full and self.columns == 10 and self.cells >= 2):
            object.__setattr__(self, "layout", "seeded")
        use_rules(self)

    @property
    def rules(self) -> _Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(_Rules, self.ranks, self.build == "alternate", self.empty == "kings")

    # -- deals and text ---------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (Microsoft's, PySolFC's, or a seeded twin deal)."""
        if self.layout == "microsoft":
            if not 1 <= number <= 2**33 - 1:
                raise ValueError(f"Microsoft deal numbers run from 1 to 8589934591, got {number}")
            return self.parse(pysol_layout("freecell", number, microsoft=True))
        if self.layout == "seahaven":
            return self.parse(pysol_layout("seahaven", number))
        deck = [make_card(r, s) for s in range(4) for r in range(1, self.ranks + 1)]
        random.Random(number).shuffle(deck)
        columns: list[list[Card]] = [[] for _ in range(self.columns)]
        for index, card in enumerate(deck):
            columns[index % self.columns].append(card)
        return State(tuple(bytes(c) for c in columns), bytes([EMPTY]) * self.cells, bytes(4))

    def parse(self, text: str) -> State:
        """Return the position in Freecell Solver's board text; raise DealError."""
        read = DealReader(self.name, self._deck())
        foundations = [0, 0, 0, 0]
        cells: list[int] = []
        columns: list[bytes] = []
        for number, label, rest in read.labelled_lines(text, ("Foundations", "Freecells", "FC")):
            if label.lower() == "foundations":
                for s, top in read.foundations(rest, number):
                    foundations[s] = top
            elif label:                                 # free cells, "-" an empty one
                for token in rest.split():
                    card = EMPTY if token == "-" else read.card(token, number)
                    if card is not None:
                        cells.append(card)
            else:
                columns.append(bytes(read.pile(rest, number)[0]))
        read.check_count(len(columns), self.columns)
        occupied = [c for c in cells if c != EMPTY]
        if len(occupied) > self.cells:
            read.add(DealProblem.WRONG_PILE_SIZE,
                     f"{len(occupied)} cards in free cells, only {self.cells} cells")
        read.check_cards()
        read.raise_if_any()
        if len(cells) <= self.cells:
            cell_bytes = cells + [EMPTY] * (self.cells - len(cells))
        else:                                   # more slots written than cells: keep the cards
            cell_bytes = occupied + [EMPTY] * (self.cells - len(occupied))
        return State(tuple(columns), bytes(cell_bytes), bytes(foundations))

    def _deck(self) -> list[Card]:
        return [make_card(r, s) for s in range(4) for r in range(1, self.ranks + 1)]

    def drawing(self, state: State) -> Layout:
        """The cells and the foundations above the columns (``solver.layout``)."""
        top = [pile(f"cell {chr(97 + i)}", [] if c == EMPTY else [c], fan="stack")
               for i, c in enumerate(state.cells)]
        top += [foundation(s, state.foundations[s]) for s in range(4)]
        return {"rows": [top, [pile(f"column {i + 1}", column)
                               for i, column in enumerate(state.columns)]], "notes": []}

    def format(self, state: State) -> str:
        """Return Freecell Solver's board text (foundation and cell lines when not empty)."""
        lines = []
        if any(state.foundations) or any(c != EMPTY for c in state.cells):
            lines.append(foundations_line((s, state.foundations[s]) for s in _FOUNDATION_ORDER))
            lines.append(labelled("Freecells", ("-" if c == EMPTY else card_str(c)
                                                for c in state.cells)))
        lines.extend(labelled("", map(card_str, column)) for column in state.columns)
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(_Rules.moves)

    play = from_rules(_Rules.play)

    is_won = from_rules(_Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(_Rules.key)

    heuristic = from_rules(_Rules.heuristic)

    lower_bound = from_rules(_Rules.lower_bound, doc="""
        Return the moves every win needs at least: one for each card not home, and one
        for each stretch of a column that must hold a card moving twice, such as a card
        above a lower card of its suit (the proof is at ``_Rules.lower_bound``).""")

    # The proof at ``_Rules.forced`` deletes a card's steps from a win and plays it home
    # first: the win gets no longer, counted in steps or in moves, so A* may keep them.
    forced_keeps_shortest: ClassVar[bool] = True

    def move_cost(self, state: State, move: Move) -> int:
        """Count one move for every search move, a run moved at once included.

        This is Microsoft FreeCell's count, and the unit of Paul and Helmert's optimal
        lengths (deal 1 needs 82 moves); `--optimal` minimises it. A solution is still
        written out and verified as single-card steps, 2k - 1 or more for a run of k.
        """
        return 1

    forced = from_rules(_Rules.forced)

    expand = from_rules(_Rules.expand)

    children = from_rules(_Rules.children)

    @property
    def certifier(self) -> Certifier[State, Move]:
        """Certificates of loss in the encoding of ``checker/freecell.py``.

        The checker moves one card at a time, as the rules do; the writer follows the
        single-card moves of ``moves`` (``count == 1``), which are every single-card move
        up to the symmetries the checker's reductions name (``moves`` sends a card to the
        first free cell and the first empty column only, and never from cell to cell or a
        whole column to an empty one: under ``cells-unordered`` and ``columns-unordered``
        those are the same LINE). Its set is then closed under the checker's moves, and a
        run moved at once is only a sequence of them. ``forced`` sends home what the
        checker's ``safe-home-wide`` sends: the same rule, written again there.
        """
        from solver.certify import Certifier

        rules = self.rules

        def single_cards(state: State) -> list[Move]:
            return [move for move in rules.moves(state) if move[2] == 1]

        return Certifier(CERTIFICATE_REDUCTIONS, _certificate_line, single_cards)

    def notation(self, move: Move) -> str:
        """Return the standard notation of a step.

        >>> GAME.notation(Move(2, FOUNDATION)), GAME.notation(Move(0, CELL + 1))
        ('3h', '1b')
        """
        return _place_name(move.source) + _place_name(move.target)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text` (``3a``, ``a5``, ``8h``, ``26``).

        >>> GAME.parse_move(GAME.deal(1), "3h")
        Move(source=2, target=255, count=1)
        """
        text = text.strip().lower()
        if len(text) != 2:
            raise InvalidMoveError(f"{quote(text)} is not a move: write source and target, like 3a or a5")
        source, target = _place(text[0], self), _place(text[1], self)
        if source is None or source == FOUNDATION:
            raise InvalidMoveError(f"{quote(text)}: {text[0]!r} is not a column or a cell")
        if target is None:
            raise InvalidMoveError(f"{quote(text)}: {text[1]!r} is not a column, a cell or h")
        for place in (source, target):
            missing = _missing(state, place)
            if missing:
                raise InvalidMoveError(f"{quote(text)}: {missing}")
        return Move(source, target, 1)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a single-card step breaks the rules, or ""."""
        source, target, count = move
        if count != 1:
            return "one card moves at a time"
        if source == FOUNDATION:
            return "foundation cards never come back"
        missing = _missing(state, source) or _missing(state, target)
        if missing:
            return missing
        if source == target:
            return "source and target are the same"
        if source < CELL:
            if not state.columns[source]:
                return f"{_where(source)} is empty"
            card = state.columns[source][-1]
        else:
            if state.cells[source - CELL] == EMPTY:
                return f"{_where(source)} is empty"
            card = state.cells[source - CELL]
        if target == FOUNDATION:
            if state.foundations[suit(card)] + 1 != rank(card):
                return f"{card_str(card)} does not go on its foundation yet"
            return ""
        if target >= CELL:
            if state.cells[target - CELL] != EMPTY:
                return f"{_where(target)} is occupied"
            return ""
        column = state.columns[target]
        if not column:
            if self.empty == "kings" and rank(card) != self.ranks:
                return f"an empty column takes only a King, not {card_str(card)}"
            return ""
        return build_reason(card, column[-1], self.build)

    def describe(self, state: State, step: Move) -> str:
        """Return the step as a player reads it: the card(s), where from and where to.

        >>> GAME.describe(GAME.deal(1), Move(2, CELL))
        '2H from column 3 to cell a'
        """
        source, target, count = step
        if _missing(state, source) or source == FOUNDATION:
            moving = b""
        elif source >= CELL:
            moving = state.cells[source - CELL:source - CELL + 1].replace(bytes((EMPTY,)), b"")
        else:
            moving = state.columns[source][-count:]
        return f"{run_str(moving)} from {_where(source)} to {_where(target)}"


# The checker's reductions (``checker/freecell.py``): cells and columns as sets, safe moves home.
CERTIFICATE_REDUCTIONS = ("cells-unordered", "columns-unordered", "safe-home-wide")
_CARD_TEXT = tuple(card_str(c) for c in range(52))


def _certificate_line(state: State) -> str:
    """Return the checker's LINE of a position under CERTIFICATE_REDUCTIONS: the foundation
    ranks (C D H S), the cells sorted, the columns sorted, each column's cards run together.

    Written directly rather than through ``format`` and the checker's parser, which cost
    several times as much; a test compares the two on random-play positions."""
    text = _CARD_TEXT
    cells = sorted("-" if card == EMPTY else text[card] for card in state.cells)
    piles = sorted("".join([text[card] for card in column]) or "-" for column in state.columns)
    foundations = state.foundations
    return (f"{foundations[0]} {foundations[1]} {foundations[2]} {foundations[3]}|"
            f"{' '.join(cells)}|{' '.join(piles)}")


def _where(place: int) -> str:
    """Return a place as a phrase: ``column 10``, ``cell a``, ``the foundation``."""
    if place == FOUNDATION:
        return "the foundation"
    if place >= CELL:
        return f"cell {_place_name(place)}"
    return f"column {place + 1}"


def _missing(state: State, place: int) -> str:
    """Return "there is no column 9" when `place` does not exist in `state`'s layout, else ""."""
    if place == FOUNDATION:
        return ""
    if place >= CELL:
        if not 0 <= place - CELL < len(state.cells):
            return f"there is no cell {_place_name(place)}"
        return ""
    if not 0 <= place < len(state.columns):
        return f"there is no column {place + 1}"
    return ""


def _place_name(place: int) -> str:
    if place == FOUNDATION:
        return "h"
    if place >= CELL:
        return _CELL_NAMES[place - CELL] if place - CELL < len(_CELL_NAMES) else "?"
    return _COLUMN_NAMES[place] if 0 <= place < len(_COLUMN_NAMES) else "?"


def _place(letter: str, game: FreeCell) -> int | None:
    if letter == "h":
        return FOUNDATION
    if letter in _CELL_NAMES:
        return CELL + _CELL_NAMES.index(letter)
    if letter in _COLUMN_NAMES:
        return _COLUMN_NAMES.index(letter)
    return None


@dataclass(frozen=True)
class SeahavenTowers(FreeCell):
    """Seahaven Towers: FreeCell's machine with its own defaults (10 columns of 5, the
    last 2 cards in two of the 4 cells, build by suit, Kings to empty columns)."""

    columns: int = 10
    build: str = "suit"
    empty: str = "kings"
    layout: str = "seahaven"

    name: ClassVar[str] = "seahaven"
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "FreeCell's weights, checked on deals 1-1000 against the free cells: a deal "
        "lost with two scores above one won with two 92% of the time (area under the "
        "ROC curve 0.917)")
    aliases: ClassVar[tuple[str, ...]] = ("seahaven-towers", "st")
    summary: ClassVar[str] = ("10 columns of 5, 4 cells (2 filled), build down by suit, "
                              "Kings to empty columns")
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 30, 10_000),)
    portfolio_equal_rounds: ClassVar[int] = 3       # the defaults: it has lost deals (see FreeCell)
    portfolio_shares: ClassVar[tuple[int, ...] | None] = None


SEAHAVEN = SeahavenTowers()
GAME = FreeCell()
GAMES = (GAME, SEAHAVEN)
