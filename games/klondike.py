"""Klondike.

Rules (rules/004 and RULES.md "Klondike"): 7 columns of 1..7 cards, the top card of each
face up, the rest face down; 24 cards in the stock. Columns build down in alternating
colours; any face-up run moves as a unit; an empty column takes only a King or a
King-headed run. Foundations are built up by suit from the Ace, and a foundation's top
card may come back to the tableau. The stock is turned onto the waste `draw` cards at a
time (default 1, variant 3); the waste's top card is playable; when the stock is empty
the waste is turned over to make a new stock, as often as wanted (default) or so that
the stock is gone through at most `passes` times (variant 3).

Rulings used:
- Full information: the solver knows the face-down cards (RULES.md "Everywhere"); a
  face-down card cannot move until it is turned, which is automatic, as part of the step
  that uncovers it.
- Numbered deals are PySolFC's (``solver.cards.pysol_layout("klondike", n)``): the same
  columns, face-down cards and stock order. PySolFC turns the first card(s) onto the
  waste by itself at the start; here that turn is the player's first ``s`` step, so a
  deal starts with 24 cards in the stock and an empty waste.
- Turning the waste over into the stock (a redeal) is a step of its own, ``s`` on an
  empty stock; it starts the next pass. With ``passes=3`` at most 2 redeals happen.
- A foundation's top card may return to any column it fits (a King to an empty column).
- The search's move from the waste is a macro, "turn the stock n times, then play the
  waste's top card"; ``expand`` writes it out as n ``s`` steps and the play. It is exact:
  turning the stock changes nothing but stock and waste, and no step except a play from
  the waste reads them, so any win can be reordered to turn the stock only just before a
  play from the waste (a pass used later is never better than the same position reached
  with fewer passes used, so only the fewest-redeals way to each waste card is kept).
- A run moves off a face-up card it is built on only when that card can then go home
  (Blake and Gent's partial-pile rule; proof in PROOFS of ``games._klondike_rules``, for
  every draw and number of passes, foundation cards coming back): any other such move
  takes the run to the twin of the card under it, and every win that makes one has a win
  of no more steps that does not.
- Safe automatic moves (``forced``): an Ace or a Two from a column's top, a Three when
  both Twos of the other colour are home, and a higher card of rank r when both
  other-colour foundations hold r - 1 and its colour's other suit holds r - 2; with draw
  1 and unlimited passes such a card anywhere in the talon too (proof in PROOFS of
  ``games._klondike_rules``; it allows for foundation cards coming back, which is why the
  other suit of the card's colour must be home too).
  And every home move of a position that home moves alone win: nothing face down,
  columns falling in rank, every talon card playable when wanted (``_Rules.sure_win``).
- Proofs of loss: cards that can never leave their columns (``games._deadlock``), and a
  relaxed game in which every move once possible stays possible
  (``games._klondike_relax``). Both hold for every draw and number of passes; the
  second is asked of every position searched, which then has no moves.
- The variants are ordered: every line of play with draw d >= 1 and p passes is one
  with draw 1 and unlimited passes too (a turn changes only the waste size, and
  turning one card at a time without a limit reaches every waste size from every
  other; every other step reads only the waste's top card, the columns and the
  foundations). So a deal lost with draw 1 and unlimited passes is lost in every
  variant, and one won in any variant is won with draw 1 (the twin tests check both).
- Keys sort the columns (they are interchangeable) and keep the waste size.

Variant options: ``draw`` (1 or 3, any 1..24 allowed), ``passes`` (None = unlimited, or
1..), and for tests' small twins ``ranks`` (cards per suit) and ``columns``.

Text format (pysol_cards' layout, extended for any mid-game position), bottom card
first on every line, face-down cards in angle brackets::

    Foundations: C-0 D-A H-0 S-2
    Talon: 4H AC 4D 7S            (the stock: the first card is the next one turned)
    Waste: 8S QS                  (bottom first: QS is on top and playable)
    Redeals: 1                    (redeals made so far; only with limited passes)
    <7H> TS
    -                             (an empty column)

Every line but the columns is optional (an absent ``Talon:`` means an empty stock);
``Stock:`` is accepted for ``Talon:``, ``Passes: 2/3`` (the pass under way) for
``Redeals: 1``, top cards (``Foundations: AD 2S``) for ``D-A S-2``. Columns may be
written with a leading ``:``.

What the player has seen (read only by the blind answers, ``KlondikeView``): stock cards
never turned are marked as face-down cards are, ``Talon: <4H> <AC> <4D> <7S>``, and a line
``Seen: all`` says that every stock card has been turned before. The rules allow nothing
in between: in the first pass no stock card has been turned yet, and the first redeal
makes a stock of cards all turned. A text with neither counts its stock as never turned
unless it has redeals made (``Redeals: 1``), as it always did. Marking only some stock
cards, a waste card, or any card after a redeal, and ``Seen: all`` in the first pass of a
game with limited passes, are errors; the full-information answers read the same
position with the marks or without them.

Notation (steps): ``s`` turns the stock (or turns the waste over when the stock is
empty); ``w3`` plays the waste's top card to column 3, ``wf`` to its foundation; ``4f``
sends column 4's top card home; ``63`` moves the run of column 6 that fits onto column 3
(the only one that can); ``fh2`` brings the top heart of the foundations back to column 2
(``f2`` is accepted when only one foundation card fits there).
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from solver.cards import (SUIT_NAMES, SUITS, Card, build_reason, card_str, is_red, make_card,
                          pysol_layout, rank, run_str, suit)
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, from_rules, quote,
                         shared_rules, use_rules)
from solver.view import (SEEN_LABEL, Unseen, all_seen, face_down, face_down_filled, unseen_marks,
                         whole_or_none)
from solver.text import DealReader, foundations_line, labelled, pile_text, read_number
from solver.layout import Layout, foundation, pile
from games._deadlock import stuck_cards, stuck_reason
from games._klondike_relax import never_home, never_home_reason
# The positions, moves and move constants live with the compiled move generator; they
# are imported from here (games.klondike) everywhere else.
from games._klondike_rules import FOUNDATION, STOCK, WASTE, Move, State, _Rules

if TYPE_CHECKING:
    from solver.certify import Certifier

_COLUMN_NAMES = "123456789"
_LABELS = ("Foundations", "Talon", "Stock", "Waste", "Redeals", "Passes", SEEN_LABEL)


@dataclass(frozen=True)
class Klondike(Game[State, Move]):
    """Klondike; the fields are the variant options."""

    draw: int = 1
    passes: int | None = None
    ranks: int = 13
    columns: int = 7

    name: ClassVar[str] = "klondike"
    aliases: ClassVar[tuple[str, ...]] = ("patience", "solitaire")
    summary: ClassVar[str] = "7 columns with face-down cards, a stock; alternate colours, Kings to empty"
    variants: ClassVar[dict[str, str]] = {
        "draw": "cards turned from the stock at a time, 1 to 24: 1 (default); 3 is the usual other",
        "passes": "times through the stock: unlimited (default, 'none') or 1..256, e.g. 3",
        "ranks": "test-only twin: cards per suit, 1-13",
        "columns": "test-only twin: columns, 1-9 (dealt 1..columns cards)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "klondike-draw-3": {"draw": 3},
        "klondike-by-threes": {"draw": 3},
        "klondike-3-passes": {"draw": 3, "passes": 3},
    }
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({"draw": 1}, 1, 30, 5_000), ({"draw": 3}, 1, 30, 5_000))
    # solver.game.Game.dial: passes through the stock (None: unlimited)
    dial: ClassVar[tuple[str, tuple[Any, ...]] | None] = ("passes", (1, 2, 3, None))
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "scaled to the passes through the stock on deals 1-500 and checked on 501-1000: "
        "a deal lost with one pass scores above one won with one 77% of the time (area "
        "under the ROC curve 0.774); played blind, deals 1-1000 were won 92% of the time "
        "in the easy tier, 82% medium, 57% hard, 31% very hard")
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"ranks": 4, "columns": 5}, {"ranks": 4, "columns": 5, "draw": 3},
        {"ranks": 5, "columns": 5, "draw": 3}, {"ranks": 5, "columns": 4, "draw": 3, "passes": 2})

    def __post_init__(self) -> None:
        check_option("ranks", self.ranks, range(1, 14))
        check_option("columns", self.columns, range(1, 10))
        if self.columns * (self.columns + 1) // 2 > 4 * self.ranks:
            raise ValueError(f"{self.columns} columns need more than {4 * self.ranks} cards")
        check_option("draw", self.draw, range(1, 25))
        if self.passes is not None and not 1 <= self.passes <= 256:    # the key keeps redeals in a byte
            raise ValueError(f"passes must be 1..256 (or unlimited), got {self.passes}")
        use_rules(self)

    @property
    def rules(self) -> _Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(_Rules, self.draw, self.passes, self.ranks)

    # -- deals and text ---------------------------------------------------------------

    def deck(self) -> list[Card]:
        """Return this game's cards: ranks 1..ranks of every suit."""
        return [make_card(r, s) for s in range(4) for r in range(1, self.ranks + 1)]

    def deal(self, number: int) -> State:
        """Return numbered deal `number`: PySolFC's, or a seeded shuffle for a twin.

        >>> GAME.format(GAME.deal(1)).splitlines()[1]
        'QH'
        """
        if self.ranks == 13 and self.columns == 7:
            return self.parse(pysol_layout("klondike", number))
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        deck = self.deck()
        random.Random(number).shuffle(deck)
        columns, at = [], 0
        for i in range(self.columns):
            columns.append(bytes(deck[at:at + i + 1]))
            at += i + 1
        return State(tuple(columns), bytes(range(self.columns)), bytes(deck[at:]), 0,
                     bytes(4), 0)

    def parse(self, text: str) -> State:
        """Return the position a text describes (format above); raise DealError."""
        return self.parse_seen(text)[0]

    def parse_seen(self, text: str) -> tuple[State, int | None]:
        """Return the position a text describes and how many cards at the end of its
        talon were never turned, as its marks say (None: it says nothing; format above).

        Marks the rules cannot produce are a DealError: some stock cards marked and not
        others, a waste card marked, cards marked after a redeal, ``Seen: all`` in the
        first pass of a game with limited passes.

        >>> aces = Klondike(ranks=1, columns=1)          # four Aces: one column, three in the stock
        >>> aces.parse_seen("Talon: AD AH AS\\nAC")[1], aces.parse_seen("Talon: <AD> <AH> <AS>\\nAC")[1]
        (None, 3)
        >>> aces.parse_seen("Talon: AD AH AS\\nSeen: all\\nAC")[1]
        0
        >>> aces.parse_seen("Talon: AD <AH> <AS>\\nAC")
        Traceback (most recent call last):
        ...
        solver.game.DealError: klondike deal: 2 of the 3 stock cards marked never turned: in \
the first pass none has been turned, after a redeal all have, so mark all or none
        """
        read = DealReader(self.name, self.deck(), face_down=True, name_misplaced=False)
        foundations, redeals = [0, 0, 0, 0], 0
        stock: list[Card] = []
        waste: list[Card] = []
        columns: list[bytes] = []
        hidden: list[int] = []
        marks: list[bool] = []                          # the talon's tokens marked never turned
        said_all = False                                # a Seen: all line
        for number, label, rest in read.labelled_lines(text, _LABELS):
            label = label.lower()
            if label == "foundations":
                for s, top in read.foundations(rest, number):
                    foundations[s] = top
            elif label in ("talon", "stock"):
                stock.extend(read.cards_in(rest, number))
                marks += unseen_marks(rest)
            elif label == "waste":
                waste.extend(read.cards_in(rest, number))
                for token, marked in zip(rest.split(), unseen_marks(rest)):
                    if marked:
                        read.add(DealProblem.BAD_LINE, f"waste card {quote(token)} marked never "
                                 "turned: the waste is face up", line=number)
            elif label == "seen":
                said_all = all_seen(rest)
                if not said_all:
                    read.add(DealProblem.BAD_LINE, f"Seen: {quote(rest)}: expected all",
                             line=number)
            elif label:                                 # redeals made, or the pass under way
                count = read_number(rest.split("/")[0].strip())
                if count is None:
                    read.add(DealProblem.BAD_LINE, f"unreadable {label} {quote(rest)}", line=number)
                else:
                    redeals = count - (label == "passes")
            else:
                column, down = read.pile(rest, number)
                columns.append(bytes(column))
                hidden.append(down)
        read.check_count(len(columns), self.columns)
        never = self._never_turned(read, marks, said_all, redeals, len(stock))
        if self.passes is None:
            redeals = 0
        elif not 0 <= redeals < self.passes:
            read.add(DealProblem.BAD_LINE, f"{redeals} redeals made, only {self.passes - 1} allowed")
        read.check_cards()
        read.raise_if_any()
        return State(tuple(columns), bytes(hidden), bytes(waste + stock), len(waste),
                     bytes(foundations), redeals), never

    def _never_turned(self, read: DealReader, marks: list[bool], said_all: bool,
                      redeals: int, stock: int) -> int | None:
        """Return how many stock cards the text says were never turned (None: it says
        nothing), recording marks the rules cannot produce.

        In the first pass every stock card is still unturned; the first redeal makes a
        stock of cards all turned before (``KlondikeView``). So the cards never turned
        are the whole stock or none of it, and none once a redeal is made (a
        ``Redeals:`` line counts even with unlimited passes, whose positions do not
        keep it).
        """
        marked, problem = sum(marks), whole_or_none(marks, said_all, "turned")
        if problem:
            read.add(DealProblem.BAD_LINE, problem)
        elif marked and redeals:
            read.add(DealProblem.BAD_LINE, f"stock cards marked never turned after {redeals} "
                     f"redeal{'s' if redeals > 1 else ''}: the first pass turned them all")
        elif said_all and stock and self.passes is not None and not redeals:
            read.add(DealProblem.BAD_LINE, "Seen: all in the first pass (no redeal made): "
                     "no stock card has been turned yet")
        if said_all or redeals:
            return 0
        return stock if marked else None

    def format_seen(self, state: State, never: int | None) -> str:
        """Return the text of a position with the last `never` cards of its talon marked
        never turned (``Seen: all`` for 0; None writes no marks, as ``format``).

        >>> print(GAME.format_seen(GAME.deal(1), 24).splitlines()[0][:26])
        Talon: <4H> <AC> <4D> <7S>
        """
        stock = state.talon[state.waste:]
        cut = len(stock) - (never or 0)
        lines = [foundations_line(enumerate(state.foundations))] if any(state.foundations) else []
        lines.append(labelled("Talon", (f"<{card_str(c)}>" if i >= cut else card_str(c)
                                        for i, c in enumerate(stock))))
        if state.waste:
            lines.append(labelled("Waste", map(card_str, state.talon[:state.waste])))
        if state.redeals:
            lines.append(f"Redeals: {state.redeals}")
        if never == 0:
            lines.append(f"{SEEN_LABEL}: all")
        lines += map(pile_text, state.columns, state.hidden)
        return "\n".join(lines) + "\n"

    def drawing(self, state: State) -> Layout:
        """The stock, the waste and the foundations above the columns (``solver.layout``)."""
        stock = state.talon[state.waste:][::-1]          # the next card turned on top
        top = [pile("stock", stock, hidden=len(stock), fan="stack"),
               pile("waste", state.talon[:state.waste], fan="right")]
        top += [foundation(s, state.foundations[s]) for s in range(4)]
        columns = [pile(f"column {i + 1}", column, hidden)
                   for i, (column, hidden) in enumerate(zip(state.columns, state.hidden))]
        notes = [f"Redeals: {state.redeals}"] if state.redeals else []
        return {"rows": [top, columns], "notes": notes}

    def format(self, state: State) -> str:
        """Return the text of a position (see the module docstring).

        >>> print(GAME.format(GAME.deal(1)).splitlines()[3])
        <5D> <9S> 5C
        """
        return self.format_seen(state, None)

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(_Rules.moves, doc="""
        Return the legal search moves: home first, waste plays as stock macros.

        Left out: runs moved off a face-up card they are built on while that card cannot
        go home (the partial-run rule, proved in PROOFS of ``games._klondike_rules``).

        None from a position that the relaxed game of ``games._klondike_relax`` proves
        lost (every move from it leads to a lost position): a large share of the
        positions a dfs expands are such (figures in data/klondike/winnability.md).
        """)

    legal_moves = from_rules(_Rules.legal_moves, doc="""
        Return every legal search move, none left out (``hint --all`` lists these):
        ``moves`` with the barred partial runs, and from relaxed-lost positions too.""")

    won_line_moves = from_rules(_Rules.won_line_moves, doc="""
        Return ``moves`` or ``narrow_moves`` without the relaxed game's check, for the
        positions of a win (``solver.search.base.shortcut``): the check only ever proves a
        position lost, so it finds nothing there, and the moves are the same.""")

    narrow_moves = from_rules(_Rules.narrow_moves, doc="""
        Return the moves a quick search tries: ``moves`` less the ones seldom needed.

        Left out: foundation cards coming back, and runs moved off face-up cards unless
        the card uncovered goes home. Most wins need neither, and without them the
        portfolio's narrowed members find them in far fewer positions. Like ``moves``,
        none from a position the relaxed game proves lost (a subset of ``moves`` must stay
        one). Searching these alone is incomplete (some deals are won only with the moves left out), so the
        portfolio takes a narrowed search's win but never its loss.
        """)

    play = from_rules(_Rules.play)

    is_won = from_rules(_Rules.is_won)

    # -- search support ---------------------------------------------------------------

    def dead_end(self, state: State) -> str:
        """Return a proof that the position is lost, else "": cards that can never leave
        their columns (``games._deadlock``; talon cards count as available at any time),
        or, failing that, cards that can never go home in a relaxed game where every
        move once possible stays possible (``games._klondike_relax``, which also asks
        whether talon cards can ever find a place, Kings an empty column, and lower
        cards their way home). Both are proofs for every variant (see their modules).

        Deal 29: the QH and QD each wait for a black King, and both lie under them.

        >>> GAME.dead_end(GAME.deal(29)).split(": ")[1]
        '3S KC QD 8D AC 6H TD KS 7H QH'

        Deal 95: the JC (column 5) and the JS (column 7) need a red Queen. The QD lies
        under the JC, and the QH, in the talon, can come out only onto a black King,
        and both lie under the JC too. So the 7S under the JC and the 8C, 5H and 3D
        under the JS never go home:

        >>> GAME.dead_end(GAME.deal(95)).split(": ")[1]
        '8C 3D 5H 7S'
        """
        stuck = stuck_cards(state.columns, state.hidden, self.ranks)
        if stuck:
            return stuck_reason(stuck)
        lost = never_home(state.columns, state.hidden, state.foundations, self.ranks)
        return never_home_reason(lost) if lost else ""

    key = from_rules(_Rules.key, doc="""
        Columns are interchangeable: sort them, each with its face-down count.

        Foundations are left out (they hold exactly the cards found nowhere else). The
        waste size stays in, though with unlimited passes the sizes that are multiples
        of ``draw`` are equally winnable (each turns into the other by ``s`` steps
        alone): merging them would shrink searches (data/klondike/winnability.md) but
        break the step counts A* and uniform-cost search prove minimal; ``verdict_key``
        merges them for the searches that only want a verdict.
        """)

    verdict_key = from_rules(_Rules.verdict_key, doc="""
        Return ``key`` with the waste size merged where turning alone links positions.

        Used by dfs and greedy best_first (not by A* or BFS, whose step counts it would
        break). With unlimited passes, turning the stock runs through the waste sizes
        0, d, 2d, ... (d = ``draw``), then the talon size n, then 0 again (a redeal): these
        sizes form a cycle, and a size off it (left by a play from the waste with
        d > 1) leads into the cycle and never back. Two positions that differ only in
        their waste sizes, both on the cycle, are therefore each reachable from the other
        by ``s`` steps alone, so they are equally winnable. More: ``moves`` never offers
        a bare turn, only "turn k times, play the waste's top card", and ``walk`` lists
        every waste size reachable by turning, so such positions have exactly the same
        search successors (and ``forced`` only ever adds proven-safe moves to them).
        The search graph under this key is the quotient of the exact one by a relation
        that keeps successor sets, so a win is found, and an exhausted search is a
        proof of loss, exactly as with ``key``. With draw 1 every size is on the cycle,
        so the waste size drops out. With limited passes the key is ``key``'s (a pass
        used changes what is left).

        >>> GAME.verdict_key(GAME.deal(3)) == GAME.verdict_key(GAME.play(GAME.deal(3), Move(STOCK, STOCK)))
        True
        """)

    @property
    def portfolio(self) -> tuple[str, ...]:
        """The default portfolio's members (solver.search.portfolio): quick narrowed
        searches first (greedy, weighted by moves played and the lower bound, and
        depth-first), then the complete ones that also prove losses
        (data/klondike/winnability.md); in every variant but the freest, a dfs of the
        freest too (``freer``), whose loss is a loss here.

        >>> Klondike(draw=3).portfolio[-1], GAME.portfolio[-1]
        ('freer_dfs', 'dfs')
        """
        members = ("narrow_best_first", "narrow_weighted", "narrow_dfs", "best_first", "dfs")
        return members if self.draw == 1 and self.passes is None else members + ("freer_dfs",)

    def freer(self, state: State) -> tuple["Klondike", State]:
        """Return draw 1 with unlimited passes, and `state` in it.

        Every line of play of this variant is one of that one (see the ordering of the
        variants in the module docstring: a turn of `draw` cards is that many turns of
        one, and a redeal is a redeal), so a position lost there is lost here. The
        redeal count is kept 0 with unlimited passes.
        """
        return replace(self, draw=1, passes=None), state._replace(redeals=0)

    heuristic = from_rules(_Rules.heuristic)

    lower_bound = from_rules(_Rules.lower_bound, doc="""
        Return steps every win needs: cards not home, stock turns, and the cards that
        must step aside first (proof in ``_Rules.lower_bound``).

        Deal 1: 52 cards to send home, 24 stock cards to turn, and 3 cards to step aside.

        >>> GAME.lower_bound(GAME.deal(1))
        79
        """)

    forced = from_rules(_Rules.forced, doc="""
        Return the home moves proven safe (proofs: PROOFS of ``games._klondike_rules``).

        Deal 1: the AH and AS on columns 6 and 7, and the AC two turns into the stock.

        >>> GAME.forced(GAME.deal(1))
        [Move(source=5, target=12, count=1), Move(source=6, target=12, count=1), \
Move(source=11, target=12, count=2)]
        """)

    expand = from_rules(_Rules.expand)

    def notation(self, move: Move) -> str:
        """Return a step's notation.

        >>> GAME.notation(Move(STOCK, STOCK)), GAME.notation(Move(WASTE, 2))
        ('s', 'w3')
        >>> GAME.notation(Move(5, 2, 3)), GAME.notation(Move(FOUNDATION + 2, 1))
        ('63', 'fh2')
        """
        source, target, _ = move
        if source == STOCK:
            return "s"
        if source >= FOUNDATION:
            return "f" + SUITS[source - FOUNDATION].lower() + _place_name(target)
        return ("w" if source == WASTE else _place_name(source)) + _place_name(target)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text` in `state` (``s``, ``w3``, ``4f``, ``63``, ``fh2``).

        >>> GAME.parse_move(GAME.deal(1), "s")
        Move(source=11, target=11, count=1)
        """
        text = text.strip().lower()
        if text == "s":
            return Move(STOCK, STOCK, 1)
        found = re.fullmatch(r"(w|f[cdhs]?|[1-9])([1-9f])", text)
        if not found:
            raise InvalidMoveError(f"{quote(text)} is not a move: write s, w3, wf, 4f, 63 or fh2")
        source_text, target_text = found.groups()
        target = FOUNDATION if target_text == "f" else _column(target_text)
        if target != FOUNDATION and target >= self.columns:
            raise InvalidMoveError(f"{quote(text)}: there is no column {target_text}")
        if source_text == "w":
            return Move(WASTE, target, 1)
        if source_text.startswith("f"):
            if target == FOUNDATION:
                raise InvalidMoveError(f"{quote(text)}: a foundation card goes back to a column")
            if len(source_text) == 2:
                return Move(FOUNDATION + SUITS.index(source_text[1].upper()), target, 1)
            fits = [s for s in range(4) if state.foundations[s] and self.illegal_reason(
                state, Move(FOUNDATION + s, target, 1)) == ""]
            if len(fits) != 1:
                raise InvalidMoveError(f"{quote(text)}: name the suit, like fh{target_text}")
            return Move(FOUNDATION + fits[0], target, 1)
        source = _column(source_text)
        if source >= self.columns:
            raise InvalidMoveError(f"{quote(text)}: there is no column {source_text}")
        if target == FOUNDATION:
            return Move(source, FOUNDATION, 1)
        return Move(source, target, self.rules.run_length(state, source, target))

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules, or "" (independent of ``moves``)."""
        columns, hidden, talon, waste, foundations, redeals = state
        source, target, count = move
        if source == STOCK:
            if target != STOCK or count != 1:
                return "a stock turn is one step, s"
            if waste < len(talon):
                return ""
            if not waste:
                return "stock and waste are both empty"
            if self.passes is not None and redeals + 1 >= self.passes:
                return f"no redeal left: the stock may be gone through {self.passes} times"
            return ""
        if source == WASTE:
            if not waste:
                return "the waste is empty"
            moving = talon[waste - 1:waste]
        elif source >= FOUNDATION:
            s = source - FOUNDATION
            if s > 3:
                return "there is no such foundation"
            if not foundations[s]:
                return f"the {SUIT_NAMES[s]} foundation is empty"
            moving = bytes((make_card(foundations[s], s),))
        else:
            if not 0 <= source < len(columns):
                return f"there is no column {source + 1}"
            column = columns[source]
            if not 1 <= count <= len(column) - hidden[source]:
                return f"column {source + 1} has no {count} face-up cards to move"
            moving = column[-count:]
            for below, above in zip(moving, moving[1:]):
                if rank(below) != rank(above) + 1 or is_red(below) == is_red(above):
                    return f"{card_str(above)} on {card_str(below)} is not a run that moves as a unit"
        card = moving[0]
        if target == FOUNDATION:
            if len(moving) != 1:
                return "one card at a time goes home"
            if foundations[suit(card)] + 1 != rank(card):
                return f"{card_str(card)} does not go on its foundation yet"
            return ""
        if not 0 <= target < len(columns):
            return f"there is no column {target + 1}"
        if target == source:
            return "source and target are the same column"
        if not columns[target]:
            if rank(card) != self.ranks:
                return f"an empty column takes only a King, not {card_str(card)}"
            return ""
        return build_reason(card, columns[target][-1])

    def describe(self, state: State, step: Move) -> str:
        """Return the step as a player reads it (the cards, where from, where to).

        A turn of the stock is "turn the stock" whatever it turns up, so that a run of
        turns reads as one ("turn the stock ×5", solver.app.analyze.narrate); the play from
        the waste that follows names its card.

        >>> state = GAME.deal(1)
        >>> GAME.describe(state, Move(STOCK, STOCK)), GAME.describe(state, Move(6, FOUNDATION))
        ('turn the stock', 'AS from column 7 to the foundation')
        """
        columns, hidden, talon, waste, foundations, redeals = state
        source, target, count = step
        if source == STOCK:
            if target != STOCK:                  # a search macro: turns, then a waste play
                after = self.play(state, Move(STOCK, STOCK, count))
                turns = "turn the stock once" if count == 1 else f"turn the stock {count} times"
                return f"{turns}, then {self.describe(after, Move(WASTE, target, 1))}"
            return "turn the stock" if waste < len(talon) else "turn the waste over"
        if source == WASTE:
            moving, where = talon[waste - 1:waste] if waste else b"", "the waste"
        elif source >= FOUNDATION:
            s = source - FOUNDATION
            moving = bytes((make_card(foundations[s], s),)) if s < 4 and foundations[s] else b""
            where = "the foundation"
        else:
            moving = columns[source][-count:] if 0 <= source < len(columns) else b""
            where = f"column {source + 1}"
        to = "the foundation" if target == FOUNDATION else f"column {target + 1}"
        return f"{run_str(moving)} from {where} to {to}"

    # -- certificates of loss ---------------------------------------------------------

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """How a lost verdict is written for ``checker.klondike`` (``solver.certify``).

        The checker accepts the partial-run and empty-column rules, the safe home moves,
        the stock turned only for a play (fewest turns), the waste sizes of the stock's
        cycle as one, and sorted columns, so the writer follows ``moves`` without the
        relaxed game's check (``won_line_moves``), and the game's ``forced`` (the
        checker's "safe-home" makes the same moves, ``sure_win``'s included).

        Positions closed by a static proof are not expanded: cards that never leave
        their columns (facts: the cards), else the relaxed game's loss (facts: the
        events of ``games._klondike_relax`` that never happen, which the checker
        confirms one by one without solving the relaxed game itself).
        """
        from solver.certify import Certifier
        import checker.klondike as ck

        variant = {"draw": self.draw, "passes": self.passes, "ranks": self.ranks,
                   "columns": self.columns}
        reductions = ("columns-sorted", "waste-plays", "waste-cycle", "safe-home",
                      "partial-run", "empty-column")
        named = frozenset(reductions)
        relaxed, ranks = self.rules.relaxed, self.ranks

        def encode(state: State) -> str:
            columns, hidden, talon, waste, foundations, redeals = state
            position = (tuple(tuple(c) for c in columns), tuple(hidden), tuple(talon), waste,
                        (foundations[0], foundations[1], foundations[2], foundations[3]), redeals)
            return ck.encode(position, variant, named)

        def dead(state: State) -> object | None:
            if not relaxed.lost(state.columns, state.hidden, state.foundations):
                return None
            stuck = stuck_cards(state.columns, state.hidden, ranks)
            if stuck:
                return {"stuck": " ".join(map(card_str, sorted(stuck)))}
            return {"never": never_events(state, ranks)}

        return Certifier(reductions, encode, moves=self.won_line_moves(self.moves), dead=dead)

    # -- the player's view ------------------------------------------------------------

    @functools.cached_property
    def player_view(self) -> "KlondikeView":
        """What a player sees: face-up cards, the waste, and the stock cards turned
        before (``KlondikeView``)."""
        return KlondikeView(self)

    @property
    def difficulty_weights(self) -> dict[str, float] | None:
        """The difficulty score's weights for draw 1 with unlimited passes (the default
        rules): the FreeCell-fitted weights scaled and shifted to Klondike's own dial, a
        scale and a shift fitted on PySolFC deals 1-500 (``benchmarks/difficulty_fit.py
        --scale-only``: won with one pass through the stock, easy, against lost with one,
        hard). The FreeCell weights alone scored every won deal of 1-1000 under 3 (random
        play gets far on every Klondike deal); these keep their order of the deals (area
        under the ROC curve 0.774 on deals 501-1000, 71 easy and 91 hard) and spread the
        915 won deals of 1-1000 over the tiers (data/winnable/README.md). The score reads as
        the chance that a deal like this one cannot be won in one pass."""
        if (self.draw, self.passes, self.ranks, self.columns) != (1, None, 13, 7):
            return None
        return {"bias": 2.809, "effort": 0.031, "narrow": 0.048, "critical": 0.016,
                "length": 0.024, "random": -2.863, "progress": -4.421, "guided": -0.718}

    @property
    def blind_calibration(self) -> tuple[float, ...] | None:
        """The weights that calibrate a blind hint's chance (``solver.app.blind.calibrated``),
        for draw 3 and draw 1 with unlimited passes, each fitted on its own blind games
        (PySolFC deals from 1, 300 worlds a decision, cap 1,000, the worlds solved depth
        first, the stock looked through first): draw 3, the present player's 1,000 games
        (deals 1-1000); draw 1, an earlier player's 444. Checked by five-fold
        cross-validation over those games (each predicted by weights fitted on the other
        folds): Brier score 0.263 -> 0.184 (draw 3) and 0.245 -> 0.182 (draw 1), the largest
        gap between predicted and won in a bin of 100+ decisions 4.2 and 3.9 points; the
        draw 1 weights on the present player's 1,000 draw 1 games, fitted on none of them,
        3.4 (data/klondike/blind.md, with the commands). Other variants have none."""
        if (self.passes, self.ranks, self.columns) != (None, 13, 7):
            return None
        if self.draw == 3:
            return (3.8829, 3.7676, -2.1237, -0.9861, -0.0611, 0.3394, -3.5457)
        if self.draw == 1:
            return (1.8086, -0.3779, -0.5511, -0.2152, -0.0666, 0.0522, 2.0125)
        return None

    @property
    def blind_cap(self) -> int:
        """1,000 positions a world (lonelybot's cap is 1,000 visits): about 2 CPU ms a
        world against 5-7 at 5,000, so a decision gets three times the worlds in the same
        time. Blind play of draw 3 deals 1-40 won 14 games with 300 worlds a decision at
        this cap, 6 with 100 at 5,000 (``data/klondike/blind.md``)."""
        return 1_000

    @property
    def blind_strategy(self) -> str | None:
        """Depth-first search (``dfs``): it decides more capped worlds, and sooner, than
        the portfolio. The first decision of PySolFC deals 1-50, 150 worlds each
        (``benchmarks/blind_worlds.py``): draw 3, 70.3% decided in 1.78 CPU ms a world
        against 68.0% in 1.94; draw 1, 84.2% in 1.02 ms against 82.1% in 1.39. Blind play
        of draw 3 deals 1-100 won 37 games either way, in 12.2 CPU s a game against 13.3
        (data/klondike/blind.md)."""
        return "dfs"


@dataclass(frozen=True)
class KlondikeView:
    """A Klondike player's view (``solver.view``).

    Unseen: the face-down cards of the columns, and the stock cards never turned. A
    stock card, once turned, is known for the rest of the game: the waste keeps its
    order, and a redeal turns it over whole, so the cards never turned are always the
    last ones of the talon. What is seen beyond the position is how many those are:
    the whole stock at a deal's start, none after the first redeal. A position read
    from a file says it by its marks (``read``: the stock marked ``<4H>``, or ``Seen:
    all``); without them it counts its stock as never turned unless it has redeals made.
    """

    can_undo: ClassVar[bool] = True

    game: Klondike

    def start(self, state: State) -> int:
        """Return how many cards at the end of the talon were never turned."""
        return 0 if state.redeals else len(state.talon) - state.waste

    def read(self, text: str, state: State) -> int | None:
        """Return how many stock cards the text's marks say were never turned (all or
        none), 0 for ``Seen: all`` or a redeal made, else None (``Klondike.parse_seen``)."""
        return self.game.parse_seen(text)[1]

    def write(self, state: State, seen: Any) -> str:
        """Return the text with the stock's cards never turned marked, or ``Seen: all``
        when every one was turned and ``start`` would say otherwise."""
        never = int(seen)
        if not never and not self.start(state):
            return self.game.format(state)
        return self.game.format_seen(state, never)

    def after(self, state: State, seen: Any, step: Move, next_state: State) -> int:
        """Turning the stock shows its cards; nothing else shows a talon card."""
        return min(int(seen), len(next_state.talon) - next_state.waste)

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the face-down cards, column by column, then the stock never turned."""
        columns, hidden, talon = state.columns, state.hidden, state.talon
        never = int(seen)
        cut = len(talon) - never
        cards = face_down(columns, hidden) + talon[cut:]

        def fill(placed: Sequence[int]) -> State:
            filled, at = face_down_filled(columns, hidden, placed)
            return state._replace(columns=filled, talon=talon[:cut] + bytes(placed[at:]))
        return Unseen(tuple(cards), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return the player's moves: every legal move that reads no unseen card.

        Column, waste and foundation moves read only face-up cards. A search move that
        turns the stock to a card and plays it is the player's too once every talon
        card has been seen (the player knows where each lies); until then a bare turn
        of the stock, which shows the next cards, takes its place.
        """
        moves = self.game.legal_moves(state)
        if int(seen):
            return [m for m in moves if m.source != STOCK] + [Move(STOCK, STOCK, 1)]
        return list(moves)

    def free_look(self, state: State) -> bool:
        """Whether turning the stock loses no win: with unlimited passes, when the waste
        holds a multiple of `draw` cards (as it does at a deal's start and after every
        redeal until a waste card is played).

        Why it is safe: from such a position, turning on to the end of the stock, redealing
        (with unlimited passes the redeal count stays 0) and turning ``waste / draw`` times
        again gives back exactly the position before the turn, so every win from before it
        is a win after it. Off that grid (a waste card played since the last redeal) the
        turns of later passes never stop at the same waste size, so the turn may lose one.
        """
        return (self.game.passes is None and len(state.talon) > state.waste
                and state.waste % self.game.draw == 0)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return the first of ``forced``'s home moves that reads no unseen card.

        ``forced``'s home moves are safe by rules that read only the foundations, the
        moving card and, for ``sure_win``, the talon and the face-down cards (PROOFS of
        ``games._klondike_rules``, "Safe home moves"). Once every talon card is seen,
        all of it is seen (``sure_win`` is asked only with nothing face down); before,
        only moves of a column's or the waste's top card are kept, and none where
        ``sure_win`` might answer (nothing face down).

        Before those, while stock cards were never turned: a turn of the stock, when
        ``free_look`` says it costs nothing, so that the player looks through the whole
        stock before choosing anything (as a careful player does; it is then known, as
        lonelybot's samples take it to be from the start).
        """
        if int(seen) and self.free_look(state):
            return [Move(STOCK, STOCK, 1)]
        if not int(seen):
            return self.game.forced(state)[:1]
        if not any(state.hidden):
            return []
        for move in self.game.forced(state):
            if move.source != STOCK:
                return [move]
        return []

def never_events(state: State, ranks: int) -> dict[str, Any]:
    """Return the events of the relaxed game (``games._klondike_relax``) that never happen
    from `state`: the cards never on a column's top, the column cards that never leave
    their places, the cards never home (as text), and whether no column ever empties.

    The least fixpoint of the relaxed rules, written out plainly (the compiled one keeps
    only the cards home): what is left out of it is what a certificate's facts name, and
    ``checker.klondike`` confirms that no event named could be the first to happen.
    """
    columns, hidden, talon, _, foundations, _ = state
    deck = [make_card(r, s) for s in range(4) for r in range(1, ranks + 1)]
    on: dict[int, int | None] = {}
    under: dict[int, int | None] = {}
    face_up: set[int] = set()
    for column, down in zip(columns, hidden):
        for j, card in enumerate(column):
            on[card] = column[j + 1] if j + 1 < len(column) else None
            under[card] = column[j - 1] if j else None
            if j >= down:
                face_up.add(card)

    def parents(c: int) -> list[int]:
        return [] if rank(c) == ranks else [make_card(rank(c) + 1, s) for s in range(4)
                                             if is_red(make_card(rank(c) + 1, s)) != is_red(c)]

    top = {c for c in on if on[c] is None}
    left: set[int] = set()
    home = {c for c in deck if rank(c) <= foundations[suit(c)]}
    empty = any(not column for column in columns)
    while True:
        before = (len(top), len(left), len(home), empty)
        for c in deck:
            placed = any(p in top for p in parents(c)) or rank(c) == ranks and empty
            if c in on:
                if on[c] is None or on[c] in left:
                    top.add(c)
                if (c in face_up or c in top) and placed or c in home:
                    left.add(c)
                    if under[c] is None:
                        empty = True
            elif placed:
                top.add(c)
            if (rank(c) == 1 or make_card(rank(c) - 1, suit(c)) in home) and \
                    (c not in on or c in top):
                home.add(c)
        if (len(top), len(left), len(home), empty) == before:
            break

    def text(cards: Sequence[int]) -> str:
        return " ".join(card_str(c) for c in sorted(cards))
    return {"top": text([c for c in deck if c not in top]),
            "left": text([c for c in on if c not in left]),
            "home": text([c for c in deck if c not in home]), "empty": not empty}


def _place_name(place: int) -> str:
    return "f" if place == FOUNDATION else _COLUMN_NAMES[place]


def _column(name: str) -> int:
    """Return the 0-based column a move's column name (a digit 1-9) stands for."""
    return _COLUMN_NAMES.index(name)


GAME = Klondike()
