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
(``games/_the_clock_cpsat.py``) and from Knuth's characterisation (``knuth_verdict``).
Test-only small twins: ``ranks`` piles (the last is the "King" pile) of ``suits`` cards.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from games._the_clock_rules import OVER, Move, Rules, State
from solver.cards import RANKS, Card, card_str, make_card, parse_card, rank
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, cut, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import DealReader, labelled, read_number
from solver.layout import Layout, card_token

if TYPE_CHECKING:
    from solver.certify import Certifier
    from solver.search.result import Budget, Result

__all__ = ["GAME", "OVER", "Move", "State", "TheClock"]



@dataclass(frozen=True)
class TheClock(Game[State, Move]):
    """The Clock; ``ranks`` and ``suits`` shrink it to a small twin for exhaustive tests."""

    ranks: int = 13
    suits: int = 4

    name: ClassVar[str] = "clock"
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "none needed: play is forced, so every won deal is as easy as any other")
    aliases: ClassVar[tuple[str, ...]] = ("the-clock", "clock-patience", "travellers-clock")
    summary: ClassVar[str] = "13 piles of 4 face down; turn cards round the clock (no choices)"
    variants: ClassVar[dict[str, str]] = {
        "ranks": "test-only twin: ranks and piles, 2..13, the last pile is the K's (default 13)",
        "suits": "test-only twin: suits, so cards per pile, 1..4 (default 4)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 1000, 1_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (                    # solver.game.twins
        {"ranks": 3, "suits": 2}, {"ranks": 4, "suits": 3})

    def __post_init__(self) -> None:
        check_option("ranks", self.ranks, range(2, 14))
        check_option("suits", self.suits, range(1, 5))
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.ranks)

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

    def drawing(self, state: State) -> Layout:
        """The thirteen piles as on a clock's face, the Kings' pile in the middle row
        (``solver.layout``); the cards turned up lie under each pile, face up."""
        piles = [{"name": f"{RANKS[i]} pile", "fan": "down",
                  "cards": [card_token(c) for c in up] + [card_token(c, True) for c in down]}
                 for i, (down, up) in enumerate(zip(state.piles, state.face_up))]
        half = (len(piles) - 1 + 1) // 2
        rows = [piles[:half], piles[half:-1], piles[-1:]] if len(piles) > 2 else [piles]
        nxt = "over" if state.next_pile == OVER else f"the {RANKS[state.next_pile]} pile"
        return {"rows": [row for row in rows if row], "notes": [f"Next: {nxt}"]}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``.

        >>> twin = TheClock(ranks=2, suits=2)
        >>> print(twin.format(twin.play(twin.parse("AD 2D\\n2C AC"), Move(1, 0))), end="")
        A: AD 2D | AC
        2: 2C
        Next: A
        """
        lines = []
        for i, (down, up) in enumerate(zip(state.piles, state.face_up)):
            face_up = ["|", *map(card_str, up)] if up else []
            lines.append(labelled(RANKS[i], [*map(card_str, down), *face_up]))
        nxt = "-" if state.next_pile == OVER else RANKS[state.next_pile]
        return "\n".join(lines + [f"Next: {nxt}"]) + "\n"

    # -- rules ----------------------------------------------------------------------

    moves = from_rules(Rules.moves)

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support -----------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the face-down piles and the next pile, packed.

        Face-up cards never move again and are the complement of the face-down ones, so
        they cannot matter; there is no symmetry to strip (each pile has its own rank).
        """)

    heuristic = from_rules(Rules.heuristic)

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced)

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return the move itself: a search move is one step."""
        return [move]

    def cpsat_solve(self, state: State, budget: Budget) -> Result[Move]:
        """Decide `state` with the CP-SAT model of the play (``--strategy cpsat``).

        The model (``games/_the_clock_cpsat.py``) states the play as a route through the
        face-down cards; OR-Tools is loaded only here.
        """
        from games._the_clock_cpsat import solve

        return solve(self, state, budget)

    # -- certificates of loss ---------------------------------------------------------

    @property
    def certifier(self) -> Certifier[State, Move]:
        """Certificates of loss (``solver.certify``, checked by ``checker/clock.py``).

        The play is forced, so a loss is its own proof: the certificate is the start alone,
        with the facts ``"forced"`` (``forced_loss``), and the checker confirms them by
        playing the game out with its own rules. No reduction, no automatic move.
        """
        from solver.certify import Certifier

        return Certifier((), self.certificate_line, forced=_no_moves, dead=self.forced_loss)

    def certificate_line(self, state: State) -> str:
        """Return the checker's LINE of `state`: the pile due (``-`` once play stopped),
        then each pile's face-down cards run together, ``|``, its face-up cards.

        >>> twin = TheClock(ranks=2, suits=2)
        >>> twin.certificate_line(twin.play(twin.parse("AD 2D\\n2C AC"), Move(1, 0)))
        'A AD2D|AC 2C|'
        """
        piles = ["".join(map(card_str, down)) + "|" + "".join(map(card_str, up))
                 for down, up in zip(state.piles, state.face_up)]
        return " ".join(["-" if state.next_pile == OVER else RANKS[state.next_pile], *piles])

    def forced_loss(self, state: State) -> str | None:
        """Return ``"forced"`` when playing on from `state` (there is never a choice)
        stops with cards face down, else None.

        >>> GAME.forced_loss(GAME.deal(1)), TheClock(ranks=2, suits=1).forced_loss(
        ...     TheClock(ranks=2, suits=1).parse("2C\\nAC"))
        ('forced', None)
        """
        moves = self.moves(state)
        while moves:
            state = self.play(state, moves[0])
            moves = self.moves(state)
        return None if self.is_won(state) else "forced"

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
            raise InvalidMoveError(f"{quote(text)} is not a card of {self.name} (a move is the card "
                                   "turned)")
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

    def describe(self, state: State, step: Move) -> str:
        """Return the move as a player reads it: the card turned and the pile it is from.

        >>> GAME.describe(GAME.deal(1), GAME.moves(GAME.deal(1))[0])
        'turn 6H from the K pile'
        """
        if 0 <= step.pile < len(state.piles):
            pile = "10" if RANKS[step.pile] == "T" else RANKS[step.pile]
            return f"turn {card_str(step.card)} from the {pile} pile"
        return f"turn {card_str(step.card)}"

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


def _no_moves(state: State) -> list[Move]:
    """Return no automatic moves: the checker makes none."""
    return []


# -- parsing --------------------------------------------------------------------------


def _rank_of_label(label: str) -> int | None:
    """Return the rank a pile label names (``A``, ``1``, ``7``, ``T``, ``10``, ``K``), or None."""
    label = label.strip().upper()
    if label in ("1", "10"):
        return read_number(label)
    return RANKS.index(label) + 1 if len(label) == 1 and label in RANKS else None


class _Parser:
    """Read a position's text, collecting every problem in a DealReader."""

    def __init__(self, game: TheClock, text: str) -> None:
        self.game = game
        self.check = DealReader(game.name, game.deck(), pile="pile", repeat_lines=True)
        self.down: list[list[Card]] = []         # readable face-down cards of each pile
        self.up: list[list[Card]] = []           # readable face-up cards of each pile
        self.sizes: list[int] = []               # face-down tokens, readable or not
        self.lines: list[int] = []               # the line of each pile
        self.next_label: tuple[str, int] | None = None
        self.any_bar = False
        for number, label, rest in self.check.labelled_lines(text, None):
            self._line(label, rest, number)

    def _add(self, problem: DealProblem, detail: str, line: int | None = None,
             card: str | None = None) -> None:
        """Record a problem (DealChecker names its line unless the message leads with it)."""
        self.check.add(problem, detail, line=line, card=card)

    def _line(self, label: str, rest: str, number: int) -> None:
        if label.lower() == "next":
            if self.next_label is not None:
                self._add(DealProblem.BAD_LINE, "a second 'Next:' line", number)
            self.next_label = (rest, number)
            return
        index = len(self.down)
        if label and _rank_of_label(label) != index + 1:
            due = f"the {RANKS[index]} pile" if index < 13 else "no more piles"
            self._add(DealProblem.BAD_LINE, f"pile label {quote(label)} where {due} was due",
                      number)
        parts = rest.split("|")
        if len(parts) > 2:
            self._add(DealProblem.BAD_LINE, "more than one '|' in a pile", number)
        self.any_bar |= len(parts) > 1
        self.sizes.append(len(parts[0].split()))
        self.down.append(self.check.cards_in(parts[0], number))
        self.up.append(self.check.cards_in(" ".join(parts[1:]), number))
        self.lines.append(number)

    def state(self) -> State:
        game, check = self.game, self.check
        check.check_count(len(self.down), game.ranks)
        check.check_cards()
        nxt = self._next_pile() if len(self.down) == game.ranks else OVER
        check.raise_if_any()
        return State(tuple(map(bytes, self.down)), tuple(map(bytes, self.up)), nxt)

    def _next_pile(self) -> int:
        """Check the pile sizes and face-up ranks; return the pile due next."""
        game, suits, king = self.game, self.game.suits, self.game.ranks - 1
        fresh = not self.any_bar and (self.next_label is None or
                                      _rank_of_label(self.next_label[0]) == game.ranks)
        counts_mean_something = True
        for i, (size, up, number) in enumerate(zip(self.sizes, self.up, self.lines)):
            if size != suits and (fresh or size > suits):
                counts_mean_something = False
                self._add(DealProblem.WRONG_PILE_SIZE,
                          f"the {RANKS[i]} pile has {size} face-down cards, "
                          + (f"{suits} expected" if fresh else f"at most {suits} allowed"), number)
            for card in up:
                if rank(card) != i + 1:
                    counts_mean_something = False
                    self._add(DealProblem.BAD_LINE, f"{card_str(card)} lies face up under "
                              f"the {RANKS[i]} pile, not its own", number, card_str(card))
        if not counts_mean_something or self.check.problems:
            return OVER
        # Pile i was entered once per face-up card of its rank (the K pile once more, at
        # the start) and left once per card turned from it; only the pile due differs.
        surplus = [len(up) - (suits - len(down)) for down, up in zip(self.down, self.up)]
        surplus[king] += 1
        if sorted(surplus) != [0] * king + [1]:
            off = ", ".join(RANKS[i] for i, extra in enumerate(surplus) if extra)
            self._add(DealProblem.WRONG_PILE_SIZE, "the face-up cards do not fit the cards "
                      f"turned from each pile (piles {off})")
            return OVER
        due = surplus.index(1)
        nxt = due if self.down[due] else OVER
        if self.next_label is not None:
            label, number = self.next_label
            named = _rank_of_label(label)
            if label.lower() in ("-", "none", "over"):
                wanted: int | None = OVER
            else:
                wanted = named - 1 if named is not None and named <= game.ranks else None
            if wanted is None:
                self._add(DealProblem.BAD_LINE, f"no pile called {quote(label)} in 'Next:'", number)
            elif wanted != nxt and not (wanted == king and nxt == OVER):
                should = "-" if nxt == OVER else RANKS[nxt]
                self._add(DealProblem.BAD_LINE,
                          f"'Next: {cut(label)}', but the cards turned say {should!r}", number)
        return nxt


GAME = TheClock()
