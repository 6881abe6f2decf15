"""Yukon.

Rules (rules/004 and RULES.md "Yukon"): one deck, no stock. 7 columns: the first holds
1 face-up card, column ``i`` (2..7) holds ``i - 1`` face-down cards under 5 face-up ones
(PySolFC's layout; RULES.md's "1+4 ... 6+4" forgets the last row dealt to every column:
52 = 1 + (1..6 face down) + 6 * 5 face up). Any face-up card moves, together with
everything lying on it, onto a column's top card one rank higher and of the other
colour; an empty column takes only a King (with what lies on it). Only a column's top
card goes home; foundations are built up by suit from the Ace. A foundation's top card
may come back to the tableau (onto a card one rank higher of the other colour, or a King
to an empty column). A face-down card is turned up as soon as it becomes a top card
(part of the move that exposed it, as in PySolFC). Won when all cards are home.

Rulings where the rules are silent:
- Numbered deals are PySolFC's (``pysol_cards``' Yukon layout, face-down cards included).
- A foundation card coming back obeys the tableau's rules for a single card.
- Moving a whole column (no face-down cards under it) to an empty column changes
  nothing up to symmetry and is not generated; of several empty columns only the first
  is offered as a target (columns are interchangeable: the key sorts them).

Variant options: ``empty`` (what an empty column takes: ``kings``, the default, or
``any``); for tests' small twins ``ranks`` (cards per suit) and ``columns``. Twins are
dealt from a seeded shuffle: column ``i`` gets ``i - 1`` face-down cards, then one
face-up card per column, the rest face up round the columns 2.. in turn.

Text format (``pysol_cards``' output): one line per column, bottom card first, face-down
cards written ``<KS>`` (they must lie below the face-up ones), ``-`` for an empty column;
an optional first line ``Foundations: C-A D-0 H-3 S-0`` gives each suit's top rank.

Move notation (columns numbered from 1, ``f`` the foundations): ``3f`` moves column 3's
top card home; ``3-5:8H`` moves the 8H of column 3, with everything lying on it, onto
column 5; ``f5:7S`` brings the 7S back from its foundation onto column 5. On input the
card may be left out when only one card fits (``35``, ``3-5``, ``f5``).

Forced moves: an Ace on top of a column goes home; so does a card of rank r >= 2 once
both foundations of the other colour hold r - 1 and the other suit of its colour holds
r - 2 (for a Two: both Aces of the other colour; proofs in ``Yukon.forced``).

The player's view (``YukonView``): the face-down cards are all a player does not see.
There is no stock, and a card once turned up stays face up wherever it goes, so nothing
seen before matters beyond the position itself.
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from solver.cards import (SUIT_NAMES, Card, build_reason, card_str, make_card, parse_card,
                          pysol_layout, rank, run_str, suit)
from solver.game import (Game, InvalidMoveError, check_option, from_rules, quote, shared_rules,
                         use_rules)
from solver.text import DealReader, foundations_line, pile_text
from solver.view import Remembers, Unseen, face_down, face_down_filled
from solver.layout import Layout, foundation, pile
from games._deadlock import stuck_reason
from games._yukon_rules import (FOUNDATION, FROM_FOUNDATION, H_DISORDER, H_DOWN, H_EMPTY,
                                H_KING, H_OUT, H_WANTED, Move, Rules, State)

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["FOUNDATION", "FROM_FOUNDATION", "H_DISORDER", "H_DOWN", "H_EMPTY", "H_KING",
           "H_OUT", "H_WANTED", "GAME", "Move", "State", "Yukon", "YukonView"]




@dataclass(frozen=True)
class Yukon(Game[State, Move]):
    """Yukon; the fields are the variant options."""

    empty: str = "kings"         # what an empty column takes: "kings" or "any" card
    ranks: int = 13
    columns: int = 7

    name: ClassVar[str] = "yukon"
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "FreeCell's weights, checked against blind play on deals 1-80 (Yukon has no "
        "dial): a blind player won 29 of the 40 easy deals and 7 of the 32 others (area "
        "under the ROC curve 0.768)")
    # The default portfolio's members (solver.search.portfolio): quick narrowed searches
    # first, then the complete ones that also prove losses (data/yukon/winnability.md).
    portfolio: ClassVar[tuple[str, ...]] = ("narrow_best_first", "narrow_dfs", "best_first", "dfs")
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = "7 columns, any face-up card moves with what lies on it"
    variants: ClassVar[dict[str, str]] = {
        "empty": "what an empty column takes: 'kings' (default) or 'any'",
        "ranks": "cards per suit, 1-13 (tests use fewer: small twins)",
        "columns": "columns, 1-9 (Yukon 7; tests use fewer)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 30, 5_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"ranks": 4, "columns": 5}, {"ranks": 5, "columns": 5},
        {"ranks": 4, "columns": 5, "empty": "any"}, {"ranks": 3, "columns": 4})

    def __post_init__(self) -> None:
        check_option("empty", self.empty, ("kings", "any"))
        check_option("ranks", self.ranks, range(1, 14))
        check_option("columns", self.columns, range(1, 10))
        if self.columns * (self.columns + 1) // 2 > 4 * self.ranks:
            raise ValueError(f"{4 * self.ranks} cards cannot fill {self.columns} columns")
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.empty == "any", self.ranks)

    @property
    def pysol(self) -> bool:
        """Whether numbered deals are PySolFC's (the full game) or seeded twins."""
        return self.ranks == 13 and self.columns == 7

    # -- deals and text -------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return numbered deal `number`: PySolFC's, or a seeded deal for a twin."""
        if self.pysol:
            return self.parse(pysol_layout("yukon", number))
        deck = self._deck()
        random.Random(number).shuffle(deck)
        n = self.columns
        columns: list[list[Card]] = [[] for _ in range(n)]
        hidden = list(range(n))
        for i in range(n):
            for _ in range(i):
                columns[i].append(deck.pop())
        for i in range(n):
            columns[i].append(deck.pop())
        turn = 0
        while deck:
            columns[1 + turn % (n - 1) if n > 1 else 0].append(deck.pop())
            turn += 1
        return State(tuple(bytes(c) for c in columns), bytes(hidden), bytes(4))

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem."""
        read = DealReader(self.name, self._deck(), face_down=True)
        foundations = [0, 0, 0, 0]
        columns: list[bytes] = []
        hidden: list[int] = []
        for number, label, rest in read.labelled_lines(text, ("Foundations",)):
            if label:
                for s, top in read.foundations(rest, number):
                    foundations[s] = top
                continue
            column, down = read.pile(rest, number)
            columns.append(bytes(column))
            hidden.append(down)
        read.check_count(len(columns), self.columns)
        read.check_cards()
        read.raise_if_any()
        return State(tuple(columns), bytes(hidden), bytes(foundations))

    def drawing(self, state: State) -> Layout:
        """The foundations above the columns (``solver.layout``)."""
        columns = [pile(f"column {i + 1}", column, hidden)
                   for i, (column, hidden) in enumerate(zip(state.columns, state.hidden))]
        return {"rows": [[foundation(s, state.foundations[s]) for s in range(4)], columns],
                "notes": []}

    def format(self, state: State) -> str:
        """Return the position's text (a ``Foundations:`` line once any card is home)."""
        lines = [foundations_line(enumerate(state.foundations))] if any(state.foundations) else []
        lines += map(pile_text, state.columns, state.hidden)
        return "\n".join(lines) + "\n"

    def _deck(self) -> list[Card]:
        return [make_card(r, s) for s in range(4) for r in range(1, self.ranks + 1)]

    # -- rules ------------------------------------------------------------------------

    moves = from_rules(Rules.moves, doc="""
        Return the legal moves, the promising first (dfs tries them in this order).

        Order (only an order: every legal move is returned): moves that turn a face-down
        card, those of columns with the most face-down cards first; moves home; moves
        that expose a face-up card the moved card did not fit on (they fix a break in a
        column's sequence, or empty a column); moves of a stack off a card it already
        fits on (they only expose that card); cards back from the foundations last.
        Within a group: sources left to right, longer stacks first, then targets.
        A position proven dead (``dead_end``: cards that can never leave their columns)
        has no moves, so a search never enters a dead subtree; this order and that cut
        each decide more deals in fewer positions (data/yukon/winnability.md).
        Built from the targets (``games._yukon_rules``): for each column's top card, the
        (at most two) cards that fit on it are looked up in a table of where each card
        lies, filled in the same pass over the columns as the dead-end check's.
        """)

    narrow_moves = from_rules(Rules.narrow_moves, doc="""
        Return the moves a quick search tries: ``moves`` less the ones seldom needed.

        Left out: cards coming back from the foundations, and stacks moved off a card
        they already fit on unless that card then goes home. A search over these alone is
        incomplete, so the portfolio takes its wins but never its losses.
        """)

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    def dead_end(self, state: State) -> str:
        """Return a proof that the position is lost when some cards can never leave their
        columns (``games._deadlock``'s rule, applied by ``Rules.stuck``), else ""."""
        stuck = self.rules.stuck(state.columns, state.hidden)
        return stuck_reason(stuck) if stuck else ""

    key = from_rules(Rules.key, doc="""
        Columns are interchangeable: sort them, each with its face-down count.

        Foundations are left out: they hold exactly the cards found in no column.
        """)

    heuristic = from_rules(Rules.heuristic, doc="""
        Return a weighted count of work left: cards out, face-down cards, disorder.

        Per column: face-down cards, face-up cards lying on a card that is not one rank
        higher of the other colour, Kings not at the bottom (each needs an empty column),
        a bonus for an empty column. Then cards not home, and cards lying above the next
        card each foundation wants.
        """)

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced, doc="""
        Return one safe move home: an Ace on top of a column, or a higher card whose
        possible children are home for good (proofs below).

        Why it is safe: let P be a position with an Ace A on top of a column, P' the
        same with A home, and W any winning line from P. Play W from P' skipping every
        move that carries A alone (to a column, home, or back from home). Nothing ever
        lies on an Ace in Yukon except what lay on it in the deal, and A is a top card in
        P, so A is always a lone top card in W's positions until it goes home. Invariant:
        each position Q' of the replay is W's position Q with A home, and with at least
        as many cards face up. It holds for each replayed move: a move of a stack whose
        top is A moves the same stack less A in Q' (same card, same target); no move
        targets A (no card is one rank below an Ace); a column empty in Q is empty in
        Q', so Kings still fit; a face-up card in Q is face up in Q'; while A is not home
        in Q no other card of its suit is home or comes back, and once it is, that
        foundation is the same in Q and Q'. So W's last position, all cards home, is
        reached from P' too: P' is winnable whenever P is. The argument uses no property
        of what an empty column takes, so it holds for both variants.

        A card c of rank r >= 2 on top of a column goes home when its foundation holds r -
        1, both foundations of the other colour hold r - 1, and the other suit of its colour
        holds r - 2 (a Two: its Ace and both Aces of the other colour). Why it is safe: let
        X be the cards these foundations hold, all home in P. A card that fits on a card of
        X (one rank lower, other colour) is in X, so in any line of play from P only cards
        of X ever lie above a card of X (one comes back alone onto a top card, and a stack
        put on it has a card of X at its bottom, with only X cards above that). Replay a
        winning line W from P dropping every move of a stack whose bottom card is in X, and
        every other stack less its X cards. Invariant: each column of the replay is W's
        column less the X cards on its top, and the replay's foundations are W's plus the X
        cards out. A remaining move has a bottom card b not in X and a target that is not in
        X (b would be), so that target is a top card, or an empty column, in the replay too;
        if b goes home or comes back from home, every X card of its suit is home in W (they
        rank below b), so the foundation is the same. No X card lands on a face-down card or
        is a King, so the replay turns up every card W does, no later. So the replay wins,
        and in it nothing is put on c (only X cards fit on it) and c's r - 1 stays home:
        then, as for the Ace, the replay less c's own moves wins from P with c home. Nothing
        here depends on what an empty column takes either.
        """)

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return ``[move]``: a stack moves as one move in Yukon."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return the move's notation: ``3f``, ``3-5:8H`` or ``f5:7S``.

        >>> GAME.notation(Move(2, FOUNDATION, 1, 0)), GAME.notation(Move(1, 0, 5, 39))
        ('3f', '2-1:AS')
        """
        source, target, _, card = move
        if target == FOUNDATION:
            return f"{source + 1}f"
        if source >= FROM_FOUNDATION:
            return f"f{target + 1}:{card_str(card)}"
        return f"{source + 1}-{target + 1}:{card_str(card)}"

    def parse_move(self, state: State, text: str) -> Move:
        """Return the move written `text` (``3f``, ``3-5:8H``, ``35``, ``f5:7S``, ``f5``).

        >>> GAME.parse_move(GAME.deal(1), "2-1:AS")
        Move(source=1, target=0, count=5, card=39)
        """
        found = re.fullmatch(r"([1-9f])\s*(?:-\s*)?([1-9f])\s*(?::\s*(\S+))?", text.strip().lower())
        if not found or found.group(1) == found.group(2) == "f":
            raise InvalidMoveError(f"{quote(text)} is not a move: write 3f, 3-5:8H or f5:7S")
        first, second, card_text = found.groups()
        card = None
        if card_text is not None:
            card = parse_card(card_text)
            if card is None:
                raise InvalidMoveError(f"{quote(text)}: {quote(card_text)} is not a card")
        for place in (first, second):
            if place != "f" and _column(place) >= len(state.columns):
                raise InvalidMoveError(f"{quote(text)}: there is no column {place}")
        if second == "f":
            column = state.columns[_column(first)]
            if not column:
                raise InvalidMoveError(f"{quote(text)}: column {first} is empty")
            return Move(_column(first), FOUNDATION, 1, column[-1])
        target = _column(second)
        if first == "f":
            if card is not None:
                return Move(FROM_FOUNDATION + suit(card), target, 1, card)
            choices = [Move(FROM_FOUNDATION + s, target, 1, make_card(top, s))
                       for s, top in enumerate(state.foundations) if top]
        else:
            source = _column(first)
            column = state.columns[source]
            if card is not None:
                if card not in column:
                    raise InvalidMoveError(f"{quote(text)}: {card_str(card)} is not in column {first}")
                return Move(source, target, len(column) - column.index(card), card)
            choices = [Move(source, target, n, column[-n]) for n in range(1, len(column) + 1)]
        legal = [m for m in choices if not self.illegal_reason(state, m)]
        if len(legal) != 1:
            raise InvalidMoveError(f"{quote(text)}: name the card that moves, like "
                                   f"{first}-{second}:8H")
        return legal[0]

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a move breaks the rules, or "" (written apart from ``moves``)."""
        columns, hidden, foundations = state
        source, target, count, named = move
        if source >= FROM_FOUNDATION:
            s = source - FROM_FOUNDATION
            if s >= 4:
                return "there is no such foundation"
            if not foundations[s]:
                return f"the {SUIT_NAMES[s]} foundation is empty"
            if count != 1:
                return "one card comes back from a foundation at a time"
            card = make_card(foundations[s], s)
            if card != named:
                return f"{card_str(named)} is not the top card of its foundation"
        else:
            if not 0 <= source < len(columns):
                return f"there is no column {source + 1}"
            if not columns[source]:
                return f"column {source + 1} is empty"
            column = columns[source]
            if not 1 <= count <= len(column):
                return f"column {source + 1} has no card {count} from the top"
            if len(column) - count < hidden[source]:
                return f"that card of column {source + 1} is face down"
            card = column[len(column) - count]
            if card != named:
                return f"{card_str(named)} is not card {count} from the top of column {source + 1}"
        if target == FOUNDATION:
            if source >= FROM_FOUNDATION:
                return "the card is already home"
            if count != 1:
                return "only a column's top card goes home"
            if foundations[suit(card)] + 1 != rank(card):
                return f"{card_str(card)} does not go on its foundation yet"
            return ""
        if not 0 <= target < len(columns):
            return f"there is no column {target + 1}"
        if target == source:
            return "source and target are the same column"
        if not columns[target]:
            if self.empty == "kings" and rank(card) != self.ranks:
                return f"an empty column takes only a King, not {card_str(card)}"
            return ""
        return build_reason(card, columns[target][-1])

    def describe(self, state: State, step: Move) -> str:
        """Return the move as a player reads it: the card(s), where from and where to.

        A stack of several cards is named by its bottom and top cards and counted (in
        Yukon it need not be a run).

        >>> GAME.describe(GAME.deal(1), Move(1, 5, 5, 39))
        'AS..8C (5 cards) from column 2 to column 6'
        """
        source, target, count, card = step
        if source >= FROM_FOUNDATION:
            moving, where = bytes((card,)), "the foundation"
        else:
            column = state.columns[source] if 0 <= source < len(state.columns) else b""
            moving, where = column[len(column) - count:] if count else b"", f"column {source + 1}"
        cards = run_str(moving) + (f" ({len(moving)} cards)" if len(moving) > 1 else "")
        to = "the foundation" if target == FOUNDATION else f"column {target + 1}"
        return f"{cards} from {where} to {to}"


    # -- certificates of loss ---------------------------------------------------------

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """How a lost verdict is written for ``checker.yukon`` (``solver.certify``).

        The checker accepts sorted columns and the safe home moves of ``forced``, so the
        writer follows ``moves`` (which leave out only moves to a position the same up to
        the columns' order: a whole column to an empty one, a second empty column) and
        ``forced``. A position whose cards can never all leave their columns is not
        expanded: its facts are those cards (``moves`` has none from it either).
        """
        from solver.certify import Certifier
        import checker.yukon as ck

        variant = {"empty": self.empty, "ranks": self.ranks, "columns": self.columns}
        reductions = ("columns-sorted", "safe-home")
        named = frozenset(reductions)
        rules = self.rules

        def encode(state: State) -> str:
            columns, hidden, foundations = state
            return ck.encode((tuple(tuple(c) for c in columns), tuple(hidden),
                              (foundations[0], foundations[1], foundations[2], foundations[3])),
                             variant, named)

        def dead(state: State) -> object | None:
            stuck = rules.stuck(state.columns, state.hidden)
            return {"stuck": " ".join(map(card_str, sorted(stuck)))} if stuck else None

        return Certifier(reductions, encode, moves=self.moves, dead=dead)

    # -- the player's view ------------------------------------------------------------

    @functools.cached_property
    def player_view(self) -> "YukonView":
        """What a player sees: every card but the face-down ones (``YukonView``)."""
        return YukonView(self)


def _unpruned_rules(any_to_empty: bool, ranks: int) -> Rules:
    """Return a variant's rules with the dead-end cut off (``Rules.prune``): a move list
    that reads no face-down card, for the player's steps."""
    rules = Rules(any_to_empty, ranks)
    rules.prune = False
    return rules


@dataclass(frozen=True)
class YukonView(Remembers):
    """A Yukon player's view (``solver.view``).

    Unseen: the face-down cards, column by column (bottom first). Nothing else is
    hidden: there is no stock, and a card turned up stays face up for the rest of the
    game (nothing in Yukon turns a card face down again), so what was seen before adds
    nothing to the position (``seen`` is None), for a deal's start and for a position
    read from a file alike.

    The player's steps come from ``moves`` with the dead-end cut off: ``moves`` gives
    nothing from a position its proof of loss (cards that can never leave their
    columns, ``games._deadlock``) calls dead, and that proof reads the face-down cards,
    so two positions that look the same could otherwise offer different steps.
    """

    game: Yukon

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the face-down cards, column by column, and how to put others there."""
        columns, hidden = state.columns, state.hidden
        cards = face_down(columns, hidden)

        def fill(placed: Sequence[int]) -> State:
            return State(face_down_filled(columns, hidden, placed)[0], hidden, state.foundations)
        return Unseen(tuple(cards), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return every legal move: ``moves`` without the dead-end cut (the rest of its
        choices, such as the first empty column only, read face-up cards alone)."""
        game = self.game
        return shared_rules(_unpruned_rules, game.empty == "any", game.ranks).moves(state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return ``forced``'s move home, if any.

        It is safe in every world: its rule reads only the columns' top cards (face up:
        a face-down card is turned as soon as it is a top card) and the foundations, and
        its proof (``Yukon.forced``) holds for any face-down cards.
        """
        return self.game.forced(state)


def _column(name: str) -> int:
    """Return the 0-based column a move's column name (a digit 1-9) stands for."""
    return "123456789".index(name)


GAME = Yukon()
