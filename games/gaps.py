"""Gaps (Montana, Vacancies; SolSuite's rules).

Rules: the 52 cards are dealt in four rows of 13, then the four Aces are taken out,
leaving four gaps. A gap right of a card X takes only the card of X's suit one rank
higher (the card and the gap change places); a gap in a row's first place takes any Two
(the player picks which, from anywhere, even from another row's first place); a gap right
of a King or of another gap is dead. When no move is left the player may redeal, twice
(three deals in all): each row keeps its Two-headed suit sequence from the first place,
every other card is gathered, shuffled and dealt back left to right, top to bottom,
leaving one gap right after each row's sequence (in the first place of a row without
one). The game is won when every row holds Two to King of one suit.

The solver knows every card, and what every redeal will bring (full information): a
deal's redeals are fixed by its number, as below, so the deal and its number are one
deterministic game, and choosing when to redeal (which cards are gathered) is part of
the play. A board given without its deal number has unknown redeals: the solver then
plays no redeal (see the rulings). A player is not told the deal number: the player's
view (``GapsView``) sees the layout but not what a redeal will deal, and a blind hint or
blind game redeals with or without a deal number.

Rulings used:

- Numbered deals are PySolFC's (game 53, ``Montana``): its shuffle (``pysol_cards``: the
  Microsoft generator for numbers 1..32000, the Mersenne Twister above), the cards dealt
  to the 52 places in turn, row by row, the Aces then taken out.
- The redeal is PySolFC's too (``Montana_Talon.dealCards``): the cards out of sequence are
  gathered in the layout's order (row by row, left to right), shuffled by PySolFC's
  shuffle (for n = count-1 down to 1, swap card n with card ``randint(0, n)``) with the
  random stream that dealt the game, continued from where it stands, and dealt from the
  end of that list to the places out of sequence in layout order, skipping the first
  such place of each row. The deal's own shuffle draws 51 numbers and a redeal of n
  cards n - 1 more, so the stream's place (``draws``) is 51 plus what earlier redeals
  drew; it depends on how many cards each earlier redeal gathered. A redeal is thus a
  function of (deal number, the stream's place, the gathered cards in layout order),
  exactly as PySolFC computes it, which ``tests/games/test_gaps.py`` checks against
  ``pysol_cards``' own generators.
- ``redeal_any_time`` (default false, the rule text's: only when no move is left; PySolFC:
  any time). A redeal is never made in a won position.
- ``redeals`` = 0..9 (default 2). ``redeals=0`` is Blake and Gent's "Gaps One Deal";
  ``suit_rows`` (default false) gives each row a suit (row 1 clubs, 2 diamonds, 3 hearts,
  4 spades): its first place takes only that Two, it is won holding that suit, and a
  redeal keeps only a sequence of the row's suit; with ``redeals=0`` it is their "Basic
  Variant" (preset ``gaps-basic``).
- Numbered deals outside 1..32000 use the Mersenne Twister (as ``pysol_cards``; PySolFC
  itself switches at 32000). Deal numbers run from 1 to 10**20 (``MAX_DEAL``).
- A board without a ``Deal:`` line has unknown redeals: nothing tells what a redeal would
  deal, so ``moves`` offers none and the rule check refuses one. A win found without a
  redeal is a win; a search that runs out of moves proves no loss while a redeal is left
  (the player's redeal might win), so ``solve`` and ``hint`` say ``unknown`` with
  ``stopped_by`` ``redeal-unknown`` and say why (``unknown_future``), and a shortest win
  found is not proven shortest. With no redeal left, the deal number does not matter.
- No step is played automatically while a redeal is left; with none left, ``forced``
  plays a step that some shortest win plays, and ``moves`` offers none in a position
  ``dead_end`` proves lost (``Rules.frozen``, ``Rules.stuck_card``).

Test-only small twins: ``suits`` (rows) and ``ranks`` (places per row; the top rank
plays the King) shrink the game. A twin's deal is PySolFC's order of the full deck with
the cards outside the twin left out, dealt the same way, and its stream stands at 51.

Text format: an optional ``Deal:`` line (the number that seeds the redeals, 1 to 10**20;
left out when not known, and then left out of ``format`` too), ``Redeals:`` (redeals made, 0 when
left out) and ``Draws:`` (numbers the stream has handed out, 51 when left out, at most
510), then one line per row, its places left to right, ``-`` for a gap::

    Deal: 1
    Redeals: 0
    Draws: 51
    KD 8H 3C 2S - 6C 7D 2H QS TC 6D 4H 8C
    ...

Notation: a card names its step, ``5H``: the 5H into the gap right of the 4H. A Two
names its row too, ``2H-3``: the 2H into the first place of row 3. ``r`` is the redeal.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from solver.cards import Card, card_str, make_card, parse_card, pysol_deck_order
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, cut, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import DealReader, number_in
from solver.view import Remembers, Unseen, first_steps
from solver.layout import Layout, pile
from games._gaps_rules import (GAP, MS_LAST, NO_DEAL, NO_PLACE, REDEAL, REDEAL_CARD, Move, Rules,
                               State)

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["GAME", "GAP", "MAX_DEAL", "NO_DEAL", "REDEAL", "Gaps", "GapsView", "Move", "State"]

_LABELS = ("Deal", "Redeals", "Draws")
_TWO = re.compile(r"(\S+?)-([0-9]{1,2})")
DEAL_DRAWS = 51                  # numbers PySolFC's shuffle of the 52 cards draws
MAX_DRAWS = 10 * DEAL_DRAWS      # more than the deal and nine redeals draw (each < 51)
MAX_DEAL = 10 ** 20              # deal numbers run 1..MAX_DEAL (the key packs them in 9 bytes)
_CARD_NAMES = tuple(card_str(c) if c < 52 else "--" for c in range(256))   # GAP is "--"
UNKNOWN_REDEALS = ("redeal-unknown", "the board has no Deal: line, so its redeals are unknown")


@dataclass(frozen=True)
class Gaps(Game[State, Move]):
    """Gaps; `redeals`, `redeal_any_time` and `suit_rows` are rule variants, `suits` and
    `ranks` make small twins."""

    redeals: int = 2
    redeal_any_time: bool = False
    suit_rows: bool = False
    suits: int = 4
    ranks: int = 13

    name: ClassVar[str] = "gaps"
    aliases: ClassVar[tuple[str, ...]] = ("montana", "vacancies")
    summary: ClassVar[str] = ("4 rows of 13, Aces out: fill a gap with the card one above its "
                              "left neighbour, a first place with a Two; 2 redeals")
    variants: ClassVar[dict[str, str]] = {
        "redeals": "redeals allowed, 0..9 (default 2; 0 is Blake and Gent's Gaps One Deal)",
        "redeal_any_time": "a redeal may be made with moves left (default false: only when "
                           "none is; PySolFC: true)",
        "suit_rows": "each row has its suit, row 1 clubs .. row 4 spades, and takes only its "
                     "Two (default false; with redeals=0, Blake and Gent's Basic Variant)",
        "suits": "test-only twin: rows and suits, 1..4 (default 4)",
        "ranks": "test-only twin: places per row, 3..13, the top rank playing the King "
                 "(default 13)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "gaps-one-deal": {"redeals": 0},
        "gaps-basic": {"redeals": 0, "suit_rows": True},
        "gaps-pysolfc": {"redeal_any_time": True},
    }
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 20, 5_000), ({"redeals": 0}, 7, 8, 100_000))
    # solver.game.Game.dial: the redeals
    dial: ClassVar[tuple[str, tuple[Any, ...]] | None] = ("redeals", (0, 1, 2))
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "scaled to the redeals on deals 1-500 and checked on 501-1000: a deal not won "
        "with one redeal scores above one won with none 77% of the time (area under the "
        "ROC curve 0.769)")
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"suits": 3, "ranks": 5, "redeals": 0},
        {"suits": 3, "ranks": 5, "redeals": 1},
        {"suits": 2, "ranks": 6, "redeals": 1, "redeal_any_time": True},
        {"suits": 3, "ranks": 5, "redeals": 0, "suit_rows": True},
    )

    def __post_init__(self) -> None:
        check_option("redeals", self.redeals, range(0, 10))
        check_option("suits", self.suits, range(1, 5))
        check_option("ranks", self.ranks, range(3, 14))
        use_rules(self)

    @property
    def difficulty_weights(self) -> dict[str, float] | None:
        """The difficulty score's weights for the default rules (two redeals, only when no
        move is left): the FreeCell-fitted weights scaled and shifted to Gaps' own dial, a
        scale and a shift fitted on PySolFC deals 1-500 (``benchmarks/difficulty_fit.py
        --scale-only --easy 0 --hard 1 --hard-unproven``: won with no redeal, easy, against
        not won with one within the card's time, hard; a loss with one redeal is seldom
        proven). The FreeCell weights alone put nearly every won deal in "very hard" (155 of
        the first 159); these keep their order of the deals and spread them over the tiers
        (data/winnable/README.md)."""
        if (self.redeals, self.redeal_any_time, self.suit_rows, self.suits, self.ranks) \
                != (2, False, False, 4, 13):
            return None
        return {"bias": -0.458, "effort": 0.3, "narrow": 0.464, "critical": 0.159,
                "length": 0.233, "random": -27.853, "progress": -43.011, "guided": -6.989}

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.redeals, self.redeal_any_time, self.suit_rows, self.suits, self.ranks)

    # -- deals and text ---------------------------------------------------------------

    def deck(self) -> list[Card]:
        """Return the cards of the layout: Two to the top rank of each suit."""
        return [make_card(r, s) for s in range(self.suits) for r in range(2, self.ranks + 1)]

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (1 to MAX_DEAL): PySolFC's for the full game.

        >>> GAME.format(GAME.deal(1)).splitlines()[3]
        'JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S -'
        >>> GAME.deal(10 ** 30)
        Traceback (most recent call last):
        ...
        ValueError: deal numbers run from 1 to 10**20, got 10000000000000000000000…
        """
        if not 1 <= number <= MAX_DEAL:
            raise ValueError(f"deal numbers run from 1 to 10**20, got {cut(str(number), 24)}")
        wanted = {make_card(r, s) for s in range(self.suits) for r in range(1, self.ranks + 1)}
        cards = [c for c in pysol_deck_order(number) if c in wanted]
        places = bytes(GAP if c % 13 == 0 else c for c in cards)
        return State(places, 0, number, DEAL_DRAWS)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        >>> GAME.parse(GAME.format(GAME.deal(3))) == GAME.deal(3)
        True
        """
        read = DealReader(self.name, self.deck(), pile="row")
        numbers = {"deal": NO_DEAL, "redeals": 0, "draws": DEAL_DRAWS}
        ranges = {"deal": (1, MAX_DEAL), "redeals": (0, self.redeals), "draws": (0, MAX_DRAWS)}
        seen: set[str] = set()
        rows: list[bytes] = []
        for line, label, rest in read.labelled_lines(text, _LABELS):
            label = label.lower()
            if label:
                if label in seen:
                    read.add(DealProblem.BAD_LINE, f"a second {label.capitalize()} line",
                             line=line)
                    continue
                seen.add(label)
                low, high = ranges[label]
                found = number_in(rest, low, high)
                if found is not None:
                    numbers[label] = found
                else:
                    shown = "10**20" if high == MAX_DEAL else high
                    read.add(DealProblem.BAD_LINE, f"{label} {quote(rest)}: expected a number "
                             f"{low}..{shown}", line=line)
                continue
            rows.append(self._row(read, rest, line))
        read.check_count(len(rows), self.suits)
        read.check_cards()
        read.raise_if_any()
        return State(b"".join(rows), numbers["redeals"], numbers["deal"], numbers["draws"])

    def _row(self, read: DealReader, text: str, line: int) -> bytes:
        """Return one row's places, recording a wrong number of them."""
        tokens = text.split()
        if len(tokens) != self.ranks:
            read.add(DealProblem.WRONG_PILE_SIZE, f"{len(tokens)} places in a row, expected "
                     f"{self.ranks}", line=line)
        places = []
        for token in tokens:
            card = None if token == "-" else read.card(token, line)
            places.append(GAP if card is None else card)
        return bytes(places)

    def drawing(self, state: State) -> Layout:
        """The grid: a row of places for each suit, a gap an empty place (``solver.layout``)."""
        rows = [[pile(f"{r + 1}.{p + 1}", [] if c == GAP else [c], fan="stack")
                 for p, c in enumerate(state.places[r * self.ranks:(r + 1) * self.ranks])]
                for r in range(self.suits)]
        return {"rows": rows, "notes": [f"Redeals: {state.redeals} of {self.redeals}"]}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s`` (no ``Deal:`` line
        when the deal number is not known)."""
        places, redeals, seed, draws = state
        lines = [f"Redeals: {redeals}", f"Draws: {draws}"]
        if seed != NO_DEAL:
            lines.insert(0, f"Deal: {seed}")
        for r in range(self.suits):
            row = places[r * self.ranks:(r + 1) * self.ranks]
            lines.append(" ".join("-" if c == GAP else card_str(c) for c in row))
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(Rules.moves, doc="""
        Return the legal steps: fills that extend a row's sequence first, then the
        other fills and Twos, Twos from one first place to another last; the redeal.""")

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the layout and the redeals made, packed, with the deal number and the
        stream's place while a redeal is left: after the last redeal no rule reads them.
        Rows are not interchangeable while a redeal is left (it deals row by row), and
        suits not (the shuffle moves named cards), so the layout is kept as it is.""")

    heuristic = from_rules(Rules.heuristic, doc="""
        Return three per card outside the rows' sequences, less one per such card
        right of the card one rank below it, plus one per dead gap.""")

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced, doc="""
        Return a step some shortest win plays, found only once no redeal is left.

        While a redeal is left nothing is safe. The natural candidate, the card that
        extends a row's sequence, is not safe by the usual exchange argument: its old
        place becomes a gap right of another card, but the place right of it loses its
        left neighbour, and a winning line may first put the next card there (freeing
        the place that card held); a sequence is not fixed either, since its Two may move
        to another row's first place and the rest follow it; and playing the card earlier
        changes which cards the redeal gathers and so the whole shuffle.

        With no redeal left: let g be a gap right of a card X that can never move again
        (``Rules.frozen``), and Y the card after X, at place p. Y into g is forced when
        Y is a King, or p is a row's last place, or the place right of p holds Y's
        successor or a frozen card. Proof: a won position has no legal step (every gap is
        right of a King, every first place holds a Two), so every winning line ends with
        Y into g played: until then it stays legal, since X stays, g takes only Y while
        X stands left of it, and Y can go only into g. Take a winning line and its first
        Y into g, and play that step first instead. Each step before it stays legal and
        ends where it did: it moved neither Y nor into g, it did not fill p (Y stood
        there), and the one step that Y's leaving p could make illegal, Y's successor
        into the place right of p, cannot come before it under the conditions (that
        place is not a row's, or it never becomes a gap: its frozen card never moves, and
        Y's successor moves only right of Y, into its own place). The line is as long,
        so a shortest win survives; ``tests/games/test_gaps.py`` checks the rule on twins
        and on a position where a looser one (dropping the last condition) loses a win.
        """)

    def dead_end(self, state: State) -> str:
        """Return why no win is reachable, or "": with no redeal left, a card that can
        never move again (``Rules.frozen``) and stands where no won position has it."""
        if state.redeals < self.redeals:
            return ""
        card: int = self.rules.stuck_card(state.places)
        if card == GAP:
            return ""
        return (f"{card_str(card)} can never move again, and no won position has it where "
                "it stands")

    def unknown_future(self, state: State) -> tuple[str, str] | None:
        """Return why a search from `state` proves no loss, or None when it can.

        A board without its deal number has unknown redeals, and ``moves`` offers none
        (``solver.game.Game``): while a redeal is left, a search that runs out of
        moves has not searched the player's redeals.
        """
        if state.seed == NO_DEAL and state.redeals < self.redeals and not self.is_won(state):
            return UNKNOWN_REDEALS
        return None

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the move itself: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a step's notation.

        >>> GAME.notation(Move(make_card(5, 2), 7)), GAME.notation(Move(make_card(2, 2), 26))
        ('5H', '2H-3')
        >>> GAME.notation(REDEAL)
        'r'
        """
        card, target = move
        if card == REDEAL_CARD:
            return "r"
        if card % 13 == 1:
            return f"{card_str(card)}-{target // self.ranks + 1}"
        return card_str(card)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text`: ``5H``, ``2H-3`` or ``r``.

        >>> GAME.parse_move(GAME.deal(1), "2h-2"), GAME.parse_move(GAME.deal(1), "R")
        (Move(card=27, target=13), Move(card=253, target=253))
        """
        written = text.strip()
        if written.lower() == "r":
            return REDEAL
        two = _TWO.fullmatch(written)
        card = parse_card(two.group(1) if two else written)
        if card is None or card % 13 == 0 or card not in self.deck():
            raise InvalidMoveError(f"{quote(text)} is not a move: write a card (5H), a Two "
                                   "and its row (2H-3), or r")
        if card % 13 == 1:
            if two is None:
                raise InvalidMoveError(f"{quote(text)}: a Two goes to a row's first place; "
                                       f"name the row ({card_str(card)}-1)")
            row = number_in(two.group(2), 1, self.suits)
            if row is None:
                raise InvalidMoveError(f"{quote(text)}: there is no row {two.group(2)}")
            return Move(card, (row - 1) * self.ranks)
        if two is not None:
            raise InvalidMoveError(f"{quote(text)}: only a Two names a row; write "
                                   f"{card_str(card)}")
        below = state.places.find(card - 1)
        if below < 0 or below % self.ranks == self.ranks - 1:
            return Move(card, NO_PLACE)
        return Move(card, below + 1)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules, or "" (written apart from ``moves``)."""
        places, redeals = state.places, state.redeals
        if move == REDEAL:
            if redeals >= self.redeals:
                return f"all {self.redeals} redeals are made"
            if self._won(places):
                return "the game is won"
            if state.seed == NO_DEAL:
                return "the board has no Deal: line, so its redeal is unknown"
            if not self.redeal_any_time and self._any_fill(places):
                return "a move is left: redeal only when none is"
            return ""
        card, target = move
        where = places.find(card) if 0 <= card < 52 else -1
        if where < 0:
            return "no such card in this layout"
        if target == NO_PLACE:
            return f"{card_str(card - 1)} ends its row: no place right of it"
        if not 0 <= target < len(places):
            return "no such place"
        if places[target] != GAP:
            return f"{self._where(target)} is not a gap"
        if target % self.ranks == 0:
            if card % 13 != 1:
                return f"{self._where(target)} takes only a Two"
            if self.suit_rows and card // 13 != target // self.ranks:
                return f"{self._where(target)} takes only the {card_str(make_card(2, target // self.ranks))}"
            return ""
        left = places[target - 1]
        if left == GAP:
            return f"{self._where(target)} is right of a gap: dead"
        if left % 13 + 1 == self.ranks:
            return f"{self._where(target)} is right of a King: dead"
        if left + 1 != card:
            return f"{card_str(card)} does not go right of {card_str(left)}"
        return ""

    def _won(self, places: bytes) -> bool:
        for r in range(self.suits):
            row = places[r * self.ranks:(r + 1) * self.ranks]
            s = row[0] // 13 if row[0] != GAP else -1
            if s < 0 or (self.suit_rows and s != r):
                return False
            if any(row[j] != make_card(j + 2, s) for j in range(self.ranks - 1)):
                return False
        return True

    def _any_fill(self, places: bytes) -> bool:
        """Return whether some gap can be filled (a first place always can: the Twos)."""
        for p, card in enumerate(places):
            if card != GAP:
                continue
            if p % self.ranks == 0:
                return True
            left = places[p - 1]
            if left != GAP and left % 13 + 1 < self.ranks:
                return True
        return False

    def _where(self, place: int) -> str:
        return f"row {place // self.ranks + 1} place {place % self.ranks + 1}"

    def describe(self, state: State, step: Move) -> str:
        """Return the step as a player reads it: the card, where from and where to.

        >>> GAME.describe(GAME.deal(1), Move(make_card(2, 3), 26))
        '2S from row 2 place 4 to row 3 place 1'
        """
        if step == REDEAL:
            return "redeal: the cards out of sequence gathered, shuffled and dealt back"
        card, target = step
        source = state.places.find(card) if 0 <= card < 52 else -1
        start = self._where(source) if source >= 0 else "nowhere"
        end = self._where(target) if 0 <= target < len(state.places) else "no place"
        return f"{card_str(card)} from {start} to {end}"

    # -- certificates of loss -----------------------------------------------------------

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """How a lost deal is written for the independent checker (``checker/gaps.py``).

        The writer follows every legal step (``moves`` leaves none out, but for a position
        ``dead_end``'s proof closes) and plays nothing automatically: ``forced`` fills are
        not among the moves the checker makes by itself, so the certificate holds the
        positions before them too. A position with no redeal left whose frozen cards
        (``Rules.frozen``) no won position has where they stand is written with those cards
        as its facts, not expanded: the checker confirms the set is frozen and misplaced.
        """
        from solver.certify import Certifier

        return Certifier((), self._checker_line, forced=_nothing_forced, dead=self._frozen_facts)

    def _checker_line(self, state: State) -> str:
        """Return the checker's LINE of a position (``checker/gaps.py``: redeals, the seed
        and the stream's place while a redeal is left, the rows two characters a place),
        written directly: going through ``format`` and the checker's ``parse`` took two
        thirds of the writer's time. ``tests/test_certificates_gaps.py`` compares the two."""
        places, redeals, seed, draws = state
        head = f"{redeals}|{seed}|{draws}|" if redeals < self.redeals else f"{redeals}|||"
        names = _CARD_NAMES
        rows = ["".join(names[c] for c in places[r * self.ranks:(r + 1) * self.ranks])
                for r in range(self.suits)]
        return head + "|".join(rows)

    def _frozen_facts(self, state: State) -> dict[str, list[str]] | None:
        """Return the frozen cards where they prove the position lost (``dead_end``: no
        redeal left, a frozen card where no won position has it), else None."""
        rules = self.rules
        if state.redeals < self.redeals or not rules.twos_first(state.places) or \
                rules.stuck_card(state.places) == GAP:
            return None
        fixed = rules.frozen(state.places)
        return {"frozen": sorted(card_str(c) for c in state.places if c != GAP and fixed[c])}

    # -- the player's view ------------------------------------------------------------

    @functools.cached_property
    def player_view(self) -> "GapsView":
        """What a player sees: the whole layout, but not what a redeal will deal
        (``GapsView``)."""
        return GapsView(self)


@dataclass(frozen=True)
class GapsView(Remembers):
    """A Gaps player's view (``solver.view``).

    Every card is face up; what the player does not know is what each redeal will deal:
    a numbered deal fixes its redeals through the deal number (the seed of the random
    stream, ``State.seed``, and the stream's place, ``State.draws``), which no player is
    told. So no card is unseen, and the hidden part is a future (``Unseen.future``): the
    mask holds no deal number (``NO_DEAL``) and the stream's first place (51), the same
    whatever the deal, and a world draws a deal number at random among those that use the
    Mersenne Twister (32001 to 10**20). Each redeal of such a world is PySolFC's shuffle
    with ``randint(0, n)`` computed as ``int(random() * (n + 1))``, uniform within 2**-53
    for each swap, so a redeal deals the gathered cards in each order alike as far as any
    sample can tell; the Microsoft generator of deals 1 to 32000 is left out because its
    15-bit values taken modulo n + 1 favour some orders slightly. A player facing a
    numbered deal is taken to treat its redeals as fair shuffles: the deal number is not
    part of what the player knows, so a blind game needs none, and a board without a
    ``Deal:`` line is played blind like any other.

    Steps: the game's moves, with the redeal wherever the rules allow one, whatever the
    position's deal number (``moves`` offers none without it: the full-information search
    cannot play an unknown redeal, but a player can). Safe: ``Gaps.forced``'s step, found
    only once no redeal is left, when its proof reads the layout alone, all of it seen.
    """

    game: Gaps

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return no card, and the redeals as a future: the mask has no deal number."""
        fixed = state._replace(seed=NO_DEAL, draws=DEAL_DRAWS)
        if state.redeals >= self.game.redeals:
            return Unseen((), lambda cards: fixed)
        return Unseen((), lambda cards: fixed, _random_redeals)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return the game's legal steps, the redeal among them wherever the rules allow
        one (``moves`` is asked with a stand-in deal number when the position has none:
        whether a redeal is allowed never reads it)."""
        if state.seed == NO_DEAL:
            state = state._replace(seed=MAX_DEAL)
        return first_steps(self.game, state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return ``forced``'s step: it plays one only when no redeal is left, and its
        proof (``Gaps.forced``) reads nothing but the layout, which the player sees."""
        return list(self.game.forced(state)[:1])


def _nothing_forced(state: State) -> list[Move]:
    """No step is automatic in a certificate's positions (``Gaps.certifier``)."""
    return []


def _random_redeals(state: State, rng: random.Random) -> State:
    """Return `state` with a deal number drawn at random (``GapsView``) and the stream at
    its first place: its redeals are fair shuffles, each order alike."""
    return state._replace(seed=rng.randint(MS_LAST + 1, MAX_DEAL), draws=DEAL_DRAWS)


GAME = Gaps()
