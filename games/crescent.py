"""Crescent (La Demi-Lune), with Crescent Four; Open Crescent plays the same.

Rules: two decks shuffled together. One King and one Ace of each suit start the eight
foundations: the Kings' foundations are built down by suit (K, Q, ..., A), the Aces' up by
suit (A, 2, ..., K). The other 96 cards are dealt to 16 piles of 6, the top card of each
face up. Only a pile's top card moves, one card at a time: to a foundation, or onto the
top card of another pile one rank above or below it in the same suit, King and Ace being
adjacent ("round the corner"). A face-down card that becomes a pile's top is turned up.
An empty pile stays empty: nothing may go into it. When the two foundations of a suit
meet in sequence (the King foundation's top is one rank above the Ace foundation's top),
the top card of either may move onto the other, but never a base card (the Ace or King
that started it). The special redeal moves every pile's bottom card to its top, keeping
the order of the others; it may be made at any time, 3 times in a game (Crescent Four:
``redeals=4``). The game is won when all 104 cards are on the foundations.

The solver knows every card (full information), and only a pile's top card ever moves,
so which cards are face down changes nothing: positions do not record it and the text
shows every card. Open Crescent, dealt face up, is therefore the same game to this
solver; it differs only in what a player sees (``open``, preset ``open-crescent``: the
blind answers then see every card, see ``CrescentView``).

Rulings used:

- The special redeal is a step (``r``) the player may take at any time, even with moves
  left, as long as redeals remain; a pile of one card is unchanged by it.
- ``worry_back`` (default false, the rule text's): whether a foundation's top card may
  come back onto a pile (onto a top card one rank away in its suit, round the corner; an
  empty pile still takes nothing). ``bases_move`` (default false, the rule text's): whether
  the base Aces and Kings may leave their foundations like any other foundation card
  (onto the other foundation of their suit, or with ``worry_back`` onto a pile); an empty
  Ace foundation then takes only an Ace of its suit, an empty King foundation a King.
  PySolFC allows both (preset ``crescent-pysolfc``).
- Numbered deals are PySolFC's (game 647, ``Crescent``): its two-deck shuffle (the
  Microsoft generator up to 32000, Mersenne Twister above, as ``pysol_cards`` computes
  it); the Ace and the King of each suit of the first deck (PySolFC's ``deck == 0``; not
  whichever copy comes first) are taken out for the foundations, as its shuffle hook does;
  the rest is dealt in six rounds of one card to each of the 16 piles in turn. Piles are
  numbered in PySolFC's order (four rows of four, left to right, top row first).
- A card goes home automatically never: see ``forced``.

Test-only small twins: ``suits``, ``ranks`` and ``piles`` shrink the game (the top rank
plays the King); twin deals shuffle with ``random.Random(number)`` and deal the cards
round the piles in turn.

Text format: an ``Aces:`` line, each suit's Ace foundation by its top card
(``C-5 D-A H-A S-A``: clubs A..5); a ``Kings:`` line, each King foundation by its top card
(``C-J``: clubs K..J); ``0`` for a foundation whose base has left it. A ``Redeals:`` line
gives the special redeals made so far. A line left out means a fresh deal's: the bases
alone, no redeal made. Then one line per pile, bottom card first, ``-`` for an empty pile;
``#`` starts a comment.

What the player has seen (read only by the blind answers, ``CrescentView``): the cards at
a pile's bottom never seen are marked as face-down cards are in other games, ``<2H> <5D>
7C QS``, and a line ``Seen: all`` says that every card has been seen. Once any pile has a
mark, the marks say everything: an unmarked pile has been seen whole. A text with neither
shows only the piles' tops, as it always did. A marked card above an unmarked one or on a
pile's top, more marks in a pile than it can still hide (dealt n cards, after r redeals
at most n - 1 - r), marks beside ``Seen: all``, and any mark in Open Crescent are errors;
the full-information answers read the same position with the marks or without them.

Notation: piles ``1``-``16``; ``a`` and ``k``, the moving card's Ace and King foundations;
a foundation as a source is named with its suit, ``aH`` or ``kH``. ``3-a`` plays pile 3's
top card to its Ace foundation, ``3-k`` to its King foundation, ``3-12`` onto pile 12,
``kH-a`` the hearts King foundation's top card onto the hearts Ace foundation, ``aH-5``
(``worry_back``) onto pile 5, ``r`` the special redeal.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from solver.certify import Certifier
from solver.cards import RANKS, SUITS, Card, card_str, make_card, parse_card, parse_foundation
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import DealReader, labelled, number_in, pile_text, read_number
from solver.view import SEEN_LABEL, Unseen, all_seen, first_steps
from solver.layout import Layout, foundation, pile
from games._crescent_rules import (DOWN, FROM_DOWN, FROM_UP, MAX_PILES, REDEAL, UP, Move, Rules,
                                   State)

__all__ = ["DOWN", "FROM_DOWN", "FROM_UP", "GAME", "REDEAL", "UP", "Crescent", "CrescentView",
           "Move", "State", "pysol_order"]

_LABELS = ("Aces", "Kings", "Redeals", SEEN_LABEL)
CERTIFICATE_REDUCTIONS = ("pile-order",)     # the checker's reductions (checker/crescent.py)
_CARD_TEXT = tuple(card_str(c) for c in range(52))
_MOVE = re.compile(r"([0-9]{1,2}|[ak][cdhs])-?([0-9]{1,2}|[ak])")
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True)
class Crescent(Game[State, Move]):
    """Crescent; `redeals`, `worry_back` and `bases_move` are rule variants, the other
    fields make small twins."""

    redeals: int = 3
    worry_back: bool = False
    bases_move: bool = False
    open: bool = False
    suits: int = 4
    ranks: int = 13
    piles: int = 16

    name: ClassVar[str] = "crescent"
    # Greedy best-first and dfs stall with 20-30 cards left; a beam with the redeals as
    # strata wins most deals in seconds (data/crescent/winnability.md).
    default_strategy: ClassVar[str] = "beam"
    aliases: ClassVar[tuple[str, ...]] = ("la-demi-lune", "demi-lune")
    summary: ClassVar[str] = ("two decks, 16 piles of 6; tops build up or down by suit (K-A "
                              "wrap) onto piles or Ace and King foundations; 3 redeals")
    variants: ClassVar[dict[str, str]] = {
        "redeals": "special redeals (bottom card of every pile to its top) allowed, 0..9 "
                   "(default 3; 4 is Crescent Four)",
        "worry_back": "a foundation's top card may come back onto a pile (default false; "
                      "PySolFC: true)",
        "bases_move": "the base Aces and Kings may leave their foundations (default false; "
                      "PySolFC: true)",
        "open": "Open Crescent: every card dealt face up, which changes only what a player "
                "sees (default false)",
        "suits": "test-only twin: suits, 1..4 (default 4)",
        "ranks": "test-only twin: cards per suit, 3..13, the top one playing the King "
                 "(default 13)",
        "piles": "test-only twin: piles, 1..16 (default 16)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "crescent-four": {"redeals": 4},
        "open-crescent": {"open": True},
        "crescent-pysolfc": {"worry_back": True, "bases_move": True},
    }
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 3, 120_000),)   # the beam wins each within this
    # solver.game.Game.dial: the special redeals
    dial: ClassVar[tuple[str, tuple[Any, ...]] | None] = ("redeals", (0, 1, 2, 3))
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "the score does not grade these deals: on deals 1-212 it does not follow the "
        "redeals a win needs (weights fitted on 1-106: area under the ROC curve 0.48 on "
        "107-212; FreeCell's weights 0.48 on all)")
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"suits": 2, "ranks": 4, "piles": 3, "redeals": 1},
        {"suits": 2, "ranks": 3, "piles": 2, "redeals": 1, "worry_back": True,
         "bases_move": True},
        {"suits": 1, "ranks": 5, "piles": 2, "redeals": 1, "worry_back": True,
         "bases_move": True},
    )

    def __post_init__(self) -> None:
        check_option("redeals", self.redeals, range(0, 10))
        check_option("suits", self.suits, range(1, 5))
        check_option("ranks", self.ranks, range(3, 14))
        check_option("piles", self.piles, range(1, MAX_PILES + 1))
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.redeals, self.worry_back, self.bases_move, self.suits, self.ranks)

    @property
    def pysol(self) -> bool:
        """Return whether numbered deals are PySolFC's (the full game's size)."""
        return (self.suits, self.ranks, self.piles) == (4, 13, 16)

    # -- deals and text ---------------------------------------------------------------

    def deck(self) -> list[Card]:
        """Return one deck of this game's cards (a game holds two of each)."""
        return [make_card(r, s) for s in range(self.suits) for r in range(1, self.ranks + 1)]

    def start(self) -> State:
        """Return the foundations of a fresh deal with no piles: each holds its base."""
        return State((), bytes([1] * self.suits), bytes([self.ranks] * self.suits), 0)

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (>= 1): PySolFC's for the full game.

        >>> GAME.format(GAME.deal(1)).splitlines()[3]
        '3D QC 2D QC 6C QD'
        """
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        if self.pysol:
            return self.from_order(pysol_order(number))
        cards = self.deck() * 2
        random.Random(number).shuffle(cards)
        bases = {make_card(1, s) for s in range(self.suits)} | {
            make_card(self.ranks, s) for s in range(self.suits)}
        for base in bases:
            cards.remove(base)
        return self.from_order(cards)

    def from_order(self, cards: list[Card]) -> State:
        """Return the fresh deal of the pile cards `cards` in dealing order: card i goes
        to pile ``i % piles``, each pile's first card at its bottom."""
        piles = tuple(bytes(cards[i::self.piles]) for i in range(self.piles))
        return self.start()._replace(piles=piles)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        >>> GAME.parse(GAME.format(GAME.deal(3))) == GAME.deal(3)
        True
        """
        return self.parse_seen(text)[0]

    def parse_seen(self, text: str) -> tuple[State, bytes | None]:
        """Return the position a text describes and, pile by pile, how many cards at its
        bottom its marks say were never seen (None: it says nothing; see the module
        docstring).

        Marks the rules cannot produce are a DealError: a marked card above an unmarked
        one or on a pile's top, more marked than the redeals made can leave unseen,
        ``Seen: all`` beside marks, any mark in Open Crescent.

        >>> twin = Crescent(suits=1, ranks=5, piles=2)      # 8 pile cards, 4 dealt to each
        >>> twin.parse_seen("<AC> 2C 3C 4C\\n2C 3C 4C 5C")[1], twin.parse_seen("AC 2C 3C 4C\\n2C 3C 4C 5C")[1]
        (b'\\x01\\x00', None)
        >>> twin.parse_seen("Redeals: 1\\n<AC> <2C> <3C> 4C\\n2C 3C 4C 5C")
        Traceback (most recent call last):
        ...
        solver.game.DealError: crescent deal: pile 1: 3 cards marked never seen, at most 2 \
can be after 1 redeal (4 dealt, the top one face up, and each redeal shows one)
        """
        read = DealReader(self.name, self.deck(), 2, face_down=True, pile="pile")
        up = [0] * self.suits
        down = [self.ranks + 1] * self.suits
        redeals = 0
        piles: list[bytes] = []
        marked: list[int] = []                  # pile by pile, its bottom cards marked
        said_all = False
        seen: set[str] = set()
        for number, label, rest in read.labelled_lines(text, _LABELS):
            label = label.lower()
            if label and label in seen:
                read.add(DealProblem.BAD_LINE, f"a second {label.capitalize()} line",
                         line=number)
                continue
            seen.add(label)
            if label == "aces":
                for s, top in self._foundations(read, rest, number, "Ace"):
                    up[s] = top
            elif label == "kings":
                for s, top in self._foundations(read, rest, number, "King"):
                    down[s] = top if top else self.ranks + 1
            elif label == "redeals":
                found = number_in(rest, 0, self.redeals)
                if found is not None:
                    redeals = found
                else:
                    read.add(DealProblem.BAD_LINE, f"redeals made {quote(rest)}: expected a "
                             f"number 0..{self.redeals}", line=number)
            elif label == "seen":
                said_all = all_seen(rest)
                if not said_all:
                    read.add(DealProblem.BAD_LINE, f"Seen: {quote(rest)}: expected all",
                             line=number)
            else:
                cards, under = read.pile(rest, number)
                piles.append(bytes(cards))
                marked.append(under)
        for label, tops, base in (("aces", up, 1), ("kings", down, self.ranks)):
            if label not in seen:            # no line: each foundation holds its base alone
                for s in range(self.suits):
                    tops[s] = base
                    read.count(make_card(base, s))
        read.check_count(len(piles), self.piles)
        never = self._never_seen(read, marked, said_all, redeals)
        read.check_cards()
        read.raise_if_any()
        return State(tuple(piles), bytes(up), bytes(down), redeals), never

    def _never_seen(self, read: DealReader, marked: list[int], said_all: bool,
                    redeals: int) -> bytes | None:
        """Return, pile by pile, how many bottom cards the text says were never seen
        (None: it says nothing), recording marks the rules cannot produce.

        A pile dealt n cards shows its top; a card put on a pile lands on its top, face
        up; each redeal shows its bottom card. So after r redeals at most n - 1 - r of
        its cards were never seen (``CrescentView``). The reader has already recorded a
        marked card above an unmarked one, and a marked top.
        """
        if self.open:
            if any(marked):
                read.add(DealProblem.BAD_LINE, "cards marked never seen in Open Crescent, "
                         "whose cards are all dealt face up")
            return None
        if said_all:
            if any(marked):
                read.add(DealProblem.BAD_LINE, f"Seen: all, but {sum(marked)} pile cards are "
                         "marked never seen")
            return bytes(len(marked))
        if not any(marked):
            return None
        cards = 2 * self.suits * (self.ranks - 1)           # dealt: all but the 2 bases a suit
        for i, k in enumerate(marked[:self.piles]):
            dealt = len(range(i, cards, self.piles))
            most = max(dealt - 1 - redeals, 0)
            if k > most:
                after = f" after {redeals} redeal{'s' if redeals > 1 else ''}" if redeals else ""
                shown = ", and each redeal shows one" if redeals else ""
                read.add(DealProblem.BAD_LINE, f"pile {i + 1}: {k} cards marked never seen, at "
                         f"most {most} can be{after} ({dealt} dealt, the top one face up{shown})")
        return bytes(marked)

    def _foundations(self, read: DealReader, text: str, line: int,
                     base: str) -> list[tuple[int, int]]:
        """Return (suit, top rank) of each token of an ``Aces:`` or ``Kings:`` line, each
        suit once, counting the cards each foundation holds (A..top, or K..top)."""
        found: dict[int, int] = {}
        for token in text.split():
            parsed = parse_foundation(token)
            card = parse_card(token) if parsed is None else None
            if card is not None:
                parsed = (card // 13, card % 13 + 1)
            if parsed is None:
                read.add(DealProblem.BAD_LINE, f"unreadable foundation {quote(token)}",
                         line=line, card=token)
                continue
            s, top = parsed
            if s >= self.suits or s in found or top > self.ranks:
                why = ("no such suit in this game" if s >= self.suits else
                       f"a second {_SUIT_NAMES[s]} {base} foundation" if s in found else
                       f"no rank above {self.ranks}")
                read.add(DealProblem.BAD_LINE, f"foundation {quote(token)}: {why}", line=line,
                         card=token)
                continue
            held = range(1, top + 1) if base == "Ace" else range(top, self.ranks + 1) if top \
                else range(0)
            for r in held:
                read.count(make_card(r, s), line)
            found[s] = top
        for s in range(self.suits):
            if s not in found:
                read.add(DealProblem.BAD_LINE, f"no {_SUIT_NAMES[s]} {base} foundation "
                         f"(write {SUITS[s]}-0 for an empty one)", line=line)
        return sorted(found.items())

    def drawing(self, state: State) -> Layout:
        """The Ace and King foundations above the piles, fanned (``solver.layout``)."""
        aces = [foundation(s, a, f"aces {SUITS[s]}") for s, a in enumerate(state.up)]
        kings = [pile(f"kings {SUITS[s]}", [make_card(r, s) for r in range(self.ranks, k - 1, -1)],
                      fan="stack") for s, k in enumerate(state.down)]
        piles = [pile(f"pile {i + 1}", cards, fan="right") for i, cards in enumerate(state.piles)]
        half = (len(piles) + 1) // 2
        return {"rows": [aces + kings, piles[:half], piles[half:]],
                "notes": [f"Redeals: {state.redeals} of {self.redeals}"]}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        return self.format_seen(state, None)

    def format_seen(self, state: State, never: bytes | None) -> str:
        """Return the text of a position with each pile's `never` bottom cards marked
        never seen (``Seen: all`` when none is; None writes no marks, as ``format``)."""
        lines = [labelled("Aces", (_top_str(s, a) for s, a in enumerate(state.up))),
                 labelled("Kings", (_top_str(s, 0 if k > self.ranks else k)
                                    for s, k in enumerate(state.down))),
                 f"Redeals: {state.redeals}"]
        if never is not None and not any(never):
            lines.append(f"{SEEN_LABEL}: all")
        lines += map(pile_text, state.piles, never or bytes(len(state.piles)))
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(Rules.moves, doc="""
        Return the legal steps: tops home, transfers between foundations, builds,
        foundation cards back onto piles (``worry_back``), the redeal.""")

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the foundations, the redeals made and the sorted piles, packed.

        Piles are interchangeable, even across redeals: no rule names a pile (a card goes
        onto any pile whose top fits, and a redeal turns every pile the same way), so
        renumbering the piles of a position renumbers the piles of every position after
        it and nothing else. The two copies of a card are one value already.
        """)

    heuristic = from_rules(Rules.heuristic, doc="""
        Return three times the cards in piles plus, for each foundation, the cards
        above the shallowest copy of the card it needs next (its ``buried`` cost).

        Both directions count: a suit's Ace foundation waits for the rank above its top,
        its King foundation for the rank below its top, and either copy of that card will
        do (the two copies are one value). Going home lowers the value by 3, digging by 1
        a card: a greedy beam over it wins most deals (data/crescent/winnability.md),
        where the disorder count it replaced (``disorder``) won almost none.
        """)

    wary_heuristic = from_rules(Rules.wary_heuristic)

    @property
    def beam_heuristics(self) -> tuple[Any, ...]:
        """The heuristics the beam's passes take in turn (``solver.search.beam``): each
        wins deals the other misses (data/crescent/winnability.md)."""
        return (self.heuristic, self.wary_heuristic)

    def beam_strata(self, state: State) -> int:
        """Return the special redeals made: the beam's strata (``solver.search.beam``).

        A redeal buries every pile's top under its bottom card, so right after one the
        heuristic rates a position worse than the same position before it; without
        strata the beam drops the lines that redeal and keeps those that do not.
        """
        return state.redeals

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced, doc="""
        Return [] : no automatic move is proven safe here.

        The usual argument (a card home that nothing can need in the tableau any more can
        go at once; delete its later steps from any winning line) breaks twice over in
        Crescent. A redeal rotates every pile, and a card kept in a pile shifts the
        rotation of its pile (deleting a card from a pile commutes with the redeal only
        while that card is not the pile's bottom card). And both copies of a rank can go
        home to either foundation of the suit, the two foundations trading cards when
        they meet, so the line may need the copy sent home on the other foundation.
        """)

    @property
    def certifier(self) -> Certifier[State, Move]:
        """Certificates of loss (``checker/crescent.py``): every position the game's
        ``moves`` reach (all the legal steps: it leaves none out) and no automatic move,
        as the checker's rules have them; the one reduction is the piles' order, the
        symmetry ``key`` sorts out too, so the certificate holds the positions the search
        stores. Positions are written by ``certificate_line``."""
        return Certifier(CERTIFICATE_REDUCTIONS, self.certificate_line)

    def certificate_line(self, state: State) -> str:
        """Return the checker's LINE of a position under ``pile-order``: a rank per suit
        for each foundation row (``0`` empty), the redeals made, the piles' cards sorted
        (``-`` empty), joined by ``/``. Written directly: going through the text
        (``format``, then the checker's ``parse`` and ``encode``, which the tests compare
        with this) cost 25 times as much (136 against 5 microseconds a full position)."""
        ranks = self.ranks
        piles = sorted("".join([_CARD_TEXT[c] for c in pile]) or "-" for pile in state.piles)
        aces = "".join([RANKS[a - 1] if a else "0" for a in state.up])
        kings = "".join([RANKS[k - 1] if k <= ranks else "0" for k in state.down])
        return "/".join([aces, kings, str(state.redeals), *piles])

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the move itself: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a step's notation.

        >>> [GAME.notation(m) for m in (REDEAL, Move(2, UP), Move(0, 11), Move(FROM_DOWN + 2, UP))]
        ['r', '3-a', '1-12', 'kH-a']
        """
        if move == REDEAL:
            return "r"
        return f"{_place_name(move.source)}-{_place_name(move.target)}"

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text` (``r``, ``3-a``, ``3-k``, ``3-12``, ``kH-a``, ``aH-5``).

        >>> GAME.parse_move(GAME.deal(1), "16-A"), GAME.parse_move(GAME.deal(1), "ac-k")
        (Move(source=15, target=16), Move(source=20, target=17))
        """
        written = text.strip().lower()
        if written == "r":
            return REDEAL
        found = _MOVE.fullmatch(written)
        if found is None:
            raise InvalidMoveError(f"{quote(text)} is not a move: write r, or a source and a "
                                   "target like 3-a, 3-k, 3-12, kH-a")
        source_text, target_text = found.groups()
        piles = read_number(source_text) is not None and read_number(target_text) is not None
        if piles and "-" not in written:
            raise InvalidMoveError(f"{quote(text)}: write a hyphen between two piles (3-12)")
        source = _place(source_text, self.suits)
        target = _place(target_text, self.suits)
        if source is None or target is None:
            raise InvalidMoveError(f"{quote(text)}: no such pile or foundation")
        if source >= UP and target == UP and source < FROM_DOWN:
            raise InvalidMoveError(f"{quote(text)}: the card is on its Ace foundation already")
        if source >= FROM_DOWN and target == DOWN:
            raise InvalidMoveError(f"{quote(text)}: the card is on its King foundation already")
        return Move(source, target)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules, or "" (written apart from ``moves``)."""
        piles, up, down, redeals = state
        if move == REDEAL:
            return "" if redeals < self.redeals else f"all {self.redeals} redeals are made"
        source, target = move
        low = 0 if self.bases_move else 1
        if source < MAX_PILES:
            if source >= len(piles):
                return f"there is no pile {source + 1}"
            if not piles[source]:
                return f"pile {source + 1} is empty"
            card = piles[source][-1]
        elif FROM_UP <= source < FROM_UP + self.suits:
            s = source - FROM_UP
            if up[s] <= low:
                return (f"the {_SUIT_NAMES[s]} Ace foundation is empty" if not up[s] else
                        f"the base {card_str(make_card(1, s))} stays on its foundation")
            card = make_card(up[s], s)
        elif FROM_DOWN <= source < FROM_DOWN + self.suits:
            s = source - FROM_DOWN
            if down[s] > self.ranks - low:
                return (f"the {_SUIT_NAMES[s]} King foundation is empty" if down[s] > self.ranks
                        else f"the base {card_str(make_card(self.ranks, s))} stays on its "
                        "foundation")
            card = make_card(down[s], s)
        else:
            return "no such pile or foundation"
        s, r = card // 13, card % 13 + 1
        if target == UP:
            if source == FROM_UP + s:
                return "the card is on its Ace foundation already"
            return "" if up[s] + 1 == r else f"{card_str(card)} does not go on the Ace foundation"
        if target == DOWN:
            if source == FROM_DOWN + s:
                return "the card is on its King foundation already"
            return "" if down[s] - 1 == r else f"{card_str(card)} does not go on the King foundation"
        if source >= MAX_PILES and not self.worry_back:
            return "foundation cards never come back to the piles"
        if not 0 <= target < len(piles):
            return f"there is no pile {target + 1}"
        if target == source:
            return "source and target are the same"
        if not piles[target]:
            return f"pile {target + 1} is empty, and an empty pile stays empty"
        under = piles[target][-1]
        gap = (under % 13 - card % 13) % self.ranks
        if under // 13 != s or gap not in (1, self.ranks - 1):
            return (f"{card_str(card)} cannot go on {card_str(under)}: build up or down by suit, "
                    "one rank at a time")
        return ""

    def describe(self, state: State, step: Move) -> str:
        """Return the step as a player reads it: the card, where from and where to.

        >>> state = GAME.deal(1)
        >>> GAME.describe(state, REDEAL), GAME.describe(state, Move(0, 5))
        ("special redeal: every pile's bottom card to its top (3D onto QD in pile 1, ...)", \
'QD from pile 1 to pile 6')
        """
        piles, up, down, _ = state
        if step == REDEAL:
            said = "special redeal: every pile's bottom card to its top"
            for i, pile in enumerate(piles):
                if len(pile) > 1:
                    return (f"{said} ({card_str(pile[0])} onto {card_str(pile[-1])} in pile "
                            f"{i + 1}, ...)")
            return said
        source, target = step
        if source < MAX_PILES:
            pile = piles[source] if source < len(piles) else b""
            card = card_str(pile[-1]) if pile else "no card"
            where = f"pile {source + 1}"
        elif source < FROM_DOWN:
            s = source - FROM_UP
            card, where = card_str(make_card(up[s], s)), f"the {_SUIT_NAMES[s]} Ace foundation"
        else:
            s = source - FROM_DOWN
            card, where = card_str(make_card(down[s], s)), f"the {_SUIT_NAMES[s]} King foundation"
        to = ("the Ace foundation" if target == UP else "the King foundation" if target == DOWN
              else f"pile {target + 1}")
        return f"{card} from {where} to {to}"

    # -- the player's view ------------------------------------------------------------

    @property
    def blind_cap(self) -> int:
        """20,000 positions a world: a full deal's start needs some 30,000 for the beam,
        and at 5,000 only a tenth of deal 1's first worlds are decided (``blind_strategy``)."""
        return 20_000

    @property
    def blind_spending(self) -> frozenset[Move]:
        """The special redeal: a blind hint keeps it, between plans of equal chance, for
        when the player knows more (``solver.game.Game.blind_spending``, and
        data/crescent/blind.md: ranked by the worlds decided instead, the player spent all
        three redeals within its first 15 steps)."""
        return frozenset((REDEAL,))

    @property
    def blind_pooled(self) -> bool:
        """Pooled: about half of a deal's first worlds, and fewer later, are left undecided
        within the cap, so a plan none of whose few worlds was decided would rank at 0.5
        under any plan with one world won (``solver.game.Game.blind_pooled``)."""
        return True

    @property
    def blind_strategy(self) -> str | None:
        """The beam started at width 32, so that a round of its two passes (at most 300
        positions a unit of width each) ends within the cap: the default beam's first pass
        at width 256 cannot, and decided none of deal 1's first worlds at 5,000 positions.
        At 20,000, started at 4, 16 or 64, it won 21, 19 and 21 of 40 worlds drawn from
        deal 1's start, in about half a CPU second each (the rest undecided, none lost)."""
        return "beam:width=32"

    @functools.cached_property
    def player_view(self) -> "CrescentView | None":
        """What a player sees: each pile's top card, and the cards seen before
        (``CrescentView``); everything in Open Crescent (None)."""
        return None if self.open else CrescentView(self)


@dataclass(frozen=True)
class CrescentView:
    """A Crescent player's view (``solver.view``).

    Unseen: the cards dealt face down that no step has shown yet. The piles are squared,
    so only a pile's top card shows; a card once seen stays known where it lies (a player
    remembers it when a card is played onto it, or a redeal moves it). Only a pile's top
    moves, and the redeal moves a pile's bottom card to its top, showing it, so the cards
    never seen are always the bottom ones of their pile: what is seen beyond the position
    is how many those are, per pile (``bytes``, pile by pile). A deal's start has all but
    the top card of each pile unseen (80 of the 96); a position read from a file says what
    was seen by its marks (``read``), and without them shows only its tops, whatever its
    redeals made.

    Open Crescent (``open``), dealt face up, hides nothing and declares no view.

    Steps: the game's ``moves``, which read only the piles' top cards, the foundations
    and the redeals made. Safe: none (``Crescent.forced`` proves no step safe even with
    every card known).
    """

    can_undo: ClassVar[bool] = True

    game: Crescent

    def start(self, state: State) -> bytes:
        """Return, pile by pile, how many cards at its bottom were never seen."""
        return bytes(max(len(pile) - 1, 0) for pile in state.piles)

    def read(self, text: str, state: State) -> bytes | None:
        """Return, pile by pile, how many bottom cards the text's marks say were never
        seen (all zero for ``Seen: all``), else None (``Crescent.parse_seen``)."""
        return self.game.parse_seen(text)[1]

    def write(self, state: State, seen: Any) -> str:
        """Return the text with each pile's cards never seen marked, or ``Seen: all``
        when every card was seen and ``start`` would say otherwise."""
        never = bytes(seen)
        if not any(never) and not any(self.start(state)):
            return self.game.format(state)
        return self.game.format_seen(state, never)

    def after(self, state: State, seen: Any, step: Move, next_state: State) -> bytes:
        """A redeal shows each pile's bottom card (a pile of one keeps it on top); a
        card leaving a pile shows the one under it; nothing else shows a card."""
        redeal = step == REDEAL
        return bytes(min(k - 1 if redeal and k else k, max(len(pile) - 1, 0))
                     for k, pile in zip(bytes(seen), next_state.piles))

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the cards never seen, pile by pile, bottom first."""
        piles, never = state.piles, bytes(seen)
        cards = b"".join([pile[:k] for pile, k in zip(piles, never)])

        def fill(placed: Sequence[int]) -> State:
            at, filled = 0, []
            for pile, k in zip(piles, never):
                filled.append(bytes(placed[at:at + k]) + pile[k:])
                at += k
            return state._replace(piles=tuple(filled))
        return Unseen(tuple(cards), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return the game's legal steps: none reads a card under a pile's top."""
        return first_steps(self.game, state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return []: no step is proven safe in Crescent (``Crescent.forced``)."""
        return []


def pysol_order(number: int) -> list[Card]:
    """Return the 96 pile cards of PySolFC's Crescent deal `number`, in dealing order.

    PySolFC shuffles two decks (``pysol_cards`` reproduces the shuffle; the cards keep
    their deck), its shuffle hook moves the first deck's Aces and Kings to the top of
    the talon, which deals them to the foundations first, and the other 96 cards follow
    in the talon's order.
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    talon = shuffle(createCards(2), number, RandomBase.DEALS_PYSOLFC)   # bottom card first
    suits = (0, 3, 2, 1)                    # pysol_cards' suit order is C S H D; ours C D H S
    return [make_card(c.rank, suits[c.suit]) for c in reversed(talon)
            if not (c.rank in (1, 13) and c.id < 52)]


def _top_str(suit: int, top: int) -> str:
    """Return a foundation token by its top card (``C-5``), ``C-0`` for an empty one."""
    return f"{SUITS[suit]}-{card_str(make_card(top, suit))[:-1] if top else '0'}"


def _place_name(place: int) -> str:
    if place == UP:
        return "a"
    if place == DOWN:
        return "k"
    if FROM_UP <= place < FROM_UP + 4:
        return "a" + SUITS[place - FROM_UP]
    if FROM_DOWN <= place < FROM_DOWN + 4:
        return "k" + SUITS[place - FROM_DOWN]
    return str(place + 1)


def _place(text: str, suits: int) -> int | None:
    if text in ("a", "k"):
        return UP if text == "a" else DOWN
    if text[0] in "ak":
        s = SUITS.lower().index(text[1])
        return None if s >= suits else (FROM_UP if text[0] == "a" else FROM_DOWN) + s
    pile = number_in(text, 1, MAX_PILES)
    return None if pile is None else pile - 1


GAME = Crescent()
