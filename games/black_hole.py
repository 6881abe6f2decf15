"""Black Hole.

Rules (rules/004 and RULES.md "Black Hole"): the A♠ starts the foundation alone; the other
51 cards are dealt to 17 piles of 3, the last card dealt to a pile on top. The top card
of a pile may go to the foundation when its rank is one above or one below the rank of
the foundation's top card, whatever the suits; K and A are adjacent (ranks wrap). That
is the only move. The game is won when all 52 cards are on the foundation.

Rulings used:

- Numbered deals are PySolFC's (``pysol_cards``' ``black_hole`` layout): the A♠ is taken
  out, the rest dealt round the 17 piles in turn.
- Text is black-hole-solver's board format: an optional ``Foundations: AS`` line (any card
  for a position in mid-game), then one line per pile, bottom card first. A leading ``:``
  on a pile line is allowed (the solver's ``--display-boards`` style); an empty pile is a
  line ``-`` (``:`` alone is read the same). Blank lines and ``#`` comments are ignored.
- Only ranks matter to the rules, so the canonical key keeps ranks only: two positions
  whose piles hold the same rank sequences (in any order) with the same foundation rank
  have the same future, move for move.
- ``moves`` leaves out moves into positions proven dead (see ``viable``), so it lists
  the legal moves that may still win; ``legal_moves`` lists them all.
- Variant (tests only): ``ranks`` = 4, 7, 10 or 13 keeps ranks A..ranks of each suit and
  deals ``(4 * ranks - 1) // 3`` piles of 3; the top rank wraps to the A.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from games import _black_hole_rules
from games._black_hole_rules import PILE_SIZE, Move, Rules, State
from games._black_hole_rules import RANK_OF as _RANK_OF
from solver.cards import RANKS, Card, card_str, make_card, parse_card, pysol_deck_order, pysol_layout, rank
from solver.game import (DealProblem, Game, InvalidMoveError, check_option, cut, from_rules, quote,
                         shared_rules, use_rules)
from solver.text import EMPTY_PILE, DealReader, pile_text, read_number
from solver.layout import Layout, pile

if TYPE_CHECKING:
    from solver.certify import Certifier
    from solver.search.result import Budget, Result

__all__ = ["ACE_OF_SPADES", "EMPTY_PILE", "GAME", "PILE_SIZE", "BlackHole", "Move", "State",
           "viable"]

ACE_OF_SPADES: Card = make_card(1, 3)


@dataclass(frozen=True)
class BlackHole(Game[State, Move]):
    ranks: int = 13

    name: ClassVar[str] = "black-hole"
    aliases: ClassVar[tuple[str, ...]] = ("blackhole", "bh")
    summary: ClassVar[str] = "17 piles of 3; play tops one rank up or down onto the A♠ (K-A wrap)"
    variants: ClassVar[dict[str, str]] = {
        "ranks": "ranks per suit, 4, 7, 10 or 13 (default); fewer make small test twins",
    }
    presets: ClassVar[dict[str, dict[str, object]]] = {}
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 50, 20_000),)
    twins: ClassVar[tuple[dict[str, object], ...]] = (                 # solver.game.twins
        {"ranks": 4}, {"ranks": 7})
    # Every win plays all 51 cards, so a heuristic has nothing to rank: depth-first
    # search in the move order below (fullest piles first) is the quickest, won or lost.
    default_strategy: ClassVar[str] = "dfs"

    def __post_init__(self) -> None:
        check_option("ranks", self.ranks, (4, 7, 10, 13))
        use_rules(self)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this variant, shared by every game of it."""
        return shared_rules(Rules, self.ranks)

    @property
    def _tables(self) -> _Tables:
        return _tables(self.ranks)

    @property
    def pile_count(self) -> int:
        """Return the number of piles: 17 for the full deck."""
        return (4 * self.ranks - 1) // PILE_SIZE

    @property
    def deck(self) -> tuple[Card, ...]:
        """Return the cards of this game's deck (A♠ included)."""
        return self._tables.deck

    # -- deals and text ---------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return PySolFC deal `number` (for a twin: the same shuffle, smaller deck).

        >>> " ".join(map(card_str, GAME.deal(6).piles[11]))     # KC on top
        '9H KD KC'
        """
        if self.ranks == 13:
            return self.parse(pysol_layout("black_hole", number))
        return self.deal_from_order(pysol_deck_order(number))

    def deal_from_order(self, order: list[Card]) -> State:
        """Return the deal PySolFC makes from cards in dealing order.

        The A♠ goes to the foundation; the other cards of this deck, in order, go round
        the piles in turn. For 13 ranks this is exactly PySolFC's Black Hole deal.
        """
        wanted = set(self.deck) - {ACE_OF_SPADES}
        cards = [c for c in order if c in wanted]
        count = self.pile_count
        return State(tuple(bytes(cards[i::count]) for i in range(count)), ACE_OF_SPADES)

    def parse(self, text: str) -> State:
        """Return the position in black-hole-solver's text; raise DealError on problems.

        >>> GAME.parse("Foundations: 4H\\n" + "-\\n" * 16 + ": 5D").piles[16]
        b'\\x11'
        """
        read = DealReader(self.name, self.deck, pile="pile", repeat_lines=True)
        foundation: Card | None = None
        piles: list[bytes] = []
        for number, label, rest in read.labelled_lines(text, ("Foundations",)):
            if label and (foundation is not None or piles or len(rest.split()) != 1):
                read.add(DealProblem.BAD_LINE, "the foundations line must come first, once, and "
                         "name one card", line=number)
            elif label:
                foundation = read.card(rest, number)
            else:
                pile = read.pile(rest, number)[0]
                if len(pile) > PILE_SIZE:
                    read.add(DealProblem.WRONG_PILE_SIZE, f"a pile holds at most {PILE_SIZE} "
                             f"cards, this one {len(pile)}", line=number)
                piles.append(bytes(pile))
        read.check_count(len(piles), self.pile_count)
        if foundation != ACE_OF_SPADES:         # the A♠ started the foundation: in no pile
            read.count(ACE_OF_SPADES)
        fresh = foundation in (None, ACE_OF_SPADES)     # nothing played: every card in a pile
        read.check_cards(missing=fresh)
        uneven = any(len(p) != PILE_SIZE for p in piles)
        if fresh and uneven and not read.problems & DealProblem.MISSING_CARD:
            read.add(DealProblem.WRONG_PILE_SIZE, "with the A♠ alone on the foundation "
                     f"every pile holds {PILE_SIZE} cards")
        read.raise_if_any()
        return State(tuple(piles), ACE_OF_SPADES if foundation is None else foundation)

    def drawing(self, state: State) -> Layout:
        """The Black Hole (its top card) above the piles (``solver.layout``)."""
        piles = [pile(f"pile {i + 1}", cards) for i, cards in enumerate(state.piles)]
        return {"rows": [[pile("black hole", [state.foundation], fan="stack")], piles],
                "notes": []}

    def format(self, state: State) -> str:
        """Return the position as text that `parse` reads back.

        >>> print(GAME.format(GAME.deal(6)).splitlines()[12])
        9H KD KC
        """
        lines = [f"Foundations: {card_str(state.foundation)}"]
        lines += map(pile_text, state.piles)
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """Return every legal move, the fullest piles first."""
        playable = self._tables.playable[state.foundation]
        found = [(-len(p), i, p[-1]) for i, p in enumerate(state.piles)
                 if p and playable[p[-1]]]
        found.sort()
        return [Move(i, c) for _, i, c in found]

    moves = from_rules(Rules.moves, doc="""
        Return the legal moves that do not lead to a dead position, fullest piles first.

        Playing from a full pile first keeps the piles even, so fewer cards stay buried
        under others late in the game; black-hole-solver reaches its solutions in a
        similar order. A move is left out only when ``viable`` proves the position after
        it cannot be won, so a search over these moves finds every win there is.

        Built in ``games._black_hole_rules``: the cards left are counted by rank, packed
        3 bits a rank, and ``viable``'s answer for each move's counts is cached.
        """)

    play = from_rules(Rules.play)

    is_won = from_rules(Rules.is_won)

    # -- search support ---------------------------------------------------------------

    key = from_rules(Rules.key, doc="""
        Return the foundation's rank and the piles' rank sequences, sorted.

        Piles are interchangeable and suits never matter to the rules, so positions
        that differ only in pile order or in suits give equal keys.
        """)

    heuristic = from_rules(Rules.heuristic)

    lower_bound = from_rules(Rules.lower_bound)

    forced = from_rules(Rules.forced)

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return `[move]`: a search move is one step."""
        return [move]

    def cpsat_solve(self, state: State, budget: Budget) -> Result[Move]:
        """Decide `state` with the CP-SAT model of a win (``--strategy cpsat``).

        The model (``games/_black_hole_cpsat.py``) is a route through the cards and
        shares nothing with ``moves`` and ``viable``; OR-Tools is loaded only here.
        """
        from games._black_hole_cpsat import solve

        return solve(self, state, budget)

    # -- certificates of loss ---------------------------------------------------------

    @property
    def certifier(self) -> Certifier[State, Move]:
        """Certificates of loss (``solver.certify``, checked by ``checker/black_hole.py``).

        The writer follows every legal move (``legal_moves``, not ``moves``, which leaves
        out moves into dead positions) and makes no automatic move; a position ``viable``
        proves dead is written with the facts of its proof (``dead_facts``) and not
        expanded. Positions are written by rank alone with their piles sorted (the
        checker's reductions ``ranks`` and ``piles-sorted``), so the certificate holds the
        positions the search's ``key`` tells apart, and a few thousand make a lost deal.
        """
        from solver.certify import Certifier

        return Certifier(("ranks", "piles-sorted"), self.certificate_line,
                         moves=self.legal_moves, forced=_no_moves, dead=self.dead_facts)

    def certificate_line(self, state: State) -> str:
        """Return the checker's LINE of `state` under ``ranks`` and ``piles-sorted``: the
        foundation's rank, then the piles' ranks run together, sorted, ``-`` for empty.

        >>> GAME.certificate_line(GAME.parse("Foundations: 4H\\n" + "-\\n" * 16 + ": 5D TC"))
        '4 - - - - - - - - - - - - - - - - 5T'
        """
        piles = sorted("".join([RANKS[c % 13] for c in pile]) or EMPTY_PILE
                       for pile in state.piles)
        return " ".join([RANKS[state.foundation % 13], *piles])

    def dead_facts(self, state: State) -> dict[str, str] | None:
        """Return the facts of the static proof that `state` is lost where ``viable``
        finds one, for the checker's ``check_facts``, else None.

        ``{"proof": "unreachable", "rank": R}`` where cards of rank R are cut off from
        the foundation's rank by ranks with no cards left (``viable``'s arc case), else
        ``{"proof": "no-walk"}`` (the walk's step counts cannot be met).

        >>> GAME.dead_facts(GAME.parse("Foundations: AH\\n" + "-\\n" * 16 + ": 5D 3C"))
        {'proof': 'unreachable', 'rank': '3'}
        """
        counts = [0] * self.ranks
        for pile in state.piles:
            for card in pile:
                counts[card % 13] += 1
        top = state.foundation % 13
        if _black_hole_rules.viable(counts, top, self.ranks):
            return None
        chain, frontier = {top}, [top]          # ranks the foundation can still show
        while frontier:
            r = frontier.pop()
            for n in ((r + 1) % self.ranks, (r - 1) % self.ranks):
                if counts[n] and n not in chain:
                    chain.add(n)
                    frontier.append(n)
        cut_off = [r for r in range(self.ranks) if counts[r] and r not in chain]
        if cut_off:
            return {"proof": "unreachable", "rank": RANKS[cut_off[0]]}
        return {"proof": "no-walk"}

    def notation(self, move: Move) -> str:
        """Return the card played.

        >>> GAME.notation(Move(11, 12))
        'KC'
        """
        return card_str(move.card)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the move that `text` names: a card (``KC``) or a pile number (1-17).

        >>> GAME.parse_move(GAME.deal(6), "kc"), GAME.parse_move(GAME.deal(6), "12")
        (Move(pile=11, card=12), Move(pile=11, card=12))
        """
        token = text.strip()
        if token.isdigit():                 # a pile's number, in any script: read, or refused
            number = read_number(token, 6)
            pile = -1 if number is None else number - 1
            if not 0 <= pile < len(state.piles):
                raise InvalidMoveError(f"{quote(text)}: there is no pile {cut(token)} (piles are "
                                       f"1 to {len(state.piles)})")
            if not state.piles[pile]:
                raise InvalidMoveError(f"{quote(text)}: pile {pile + 1} is empty")
            return Move(pile, state.piles[pile][-1])
        card = parse_card(token)
        if card is None:
            raise InvalidMoveError(f"{quote(text)} is not a card (write it as KC, 10♦ or 7h)")
        tops = [i for i, p in enumerate(state.piles) if p and p[-1] == card]
        holders = [i for i, p in enumerate(state.piles) if card in p]
        return Move((tops or holders or [-1])[0], card)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why `move` breaks the rules in `state`, or "" when it is legal."""
        name = card_str(move.card) if 0 <= move.card < 52 else repr(move.card)
        if move.pile == -1:                    # parse_move: the card is in no pile
            return f"{name} is not on top of any pile"
        if not 0 <= move.pile < len(state.piles):
            return f"there is no pile {move.pile + 1}"
        pile = state.piles[move.pile]
        if not pile or pile[-1] != move.card:
            return f"{name} is not on top of pile {move.pile + 1}"
        gap = (rank(move.card) - rank(state.foundation)) % self.ranks
        if gap not in (1, self.ranks - 1):
            return (f"{name} is not one rank above or below the foundation's "
                    f"{card_str(state.foundation)}")
        return ""

    def describe(self, state: State, step: Move) -> str:
        """Return the move as a player reads it.

        >>> GAME.describe(GAME.deal(6), Move(11, 12))
        'KC from pile 12 to the foundation'
        """
        where = f" from pile {step.pile + 1}" if 0 <= step.pile < len(state.piles) else ""
        return f"{card_str(step.card)}{where} to the foundation"


def _no_moves(state: State) -> list[Move]:
    """Return no automatic moves: Black Hole has none, and the checker makes none."""
    return []


# -- dead positions ---------------------------------------------------------------------


def viable(counts: list[int], top: int, ranks: int) -> bool:
    """Return False when the cards left can provably never all be played.

    `counts[r]` is how many cards of rank index r (0 = A) are still in the piles and
    `top` the rank index on the foundation. Proof: a win plays the cards left in some
    order p1..pn where p1 is adjacent to `top` and each p(i+1) to p(i), so the ranks
    top, p1, .., pn are a walk on the cycle of ranks that lands on rank r exactly
    counts[r] times. Let o(v) = counts[v] + [v = top] be the times the walk is at v and
    e the number of times it crosses each edge (v, v+1). Counting the walk's ends,
    e(v-1, v) + e(v, v+1) = 2 o(v) - [v = top] - [v = end], every e >= 0, and the edges
    with e >= 1 join every rank with o >= 1 (the walk is connected). We test, for every
    possible end, whether such e exist:

    - the walk never steps on a rank with no cards left, so if some rank other than
      `top` has none, the ranks it can reach form an arc (a path) holding `top`; any
      card outside it is unreachable, and along the path e is fixed edge by edge;
    - if every rank but `top` has cards and `top` has none, the walk leaves `top` at
      once for one end of the path top+1 .. top-1 and stays on it;
    - if every rank has cards, on an odd cycle (13 ranks) e is unique given the end
      (twice e(top, top+1) is the alternating sum of the degrees); an even cycle
      (ranks 4, 10) is not tested.

    Any walk meets these conditions, so a position failing all of them cannot be won;
    the test ignores the order within piles, so it never rejects a winnable position.

    >>> viable([0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, 13)   # a 4 cut off by 3s
    False
    >>> viable([1, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, 13)   # A, then 2, 3, 2, A
    True
    """
    return _black_hole_rules.viable(counts, top, ranks)


class _Tables(NamedTuple):
    ranks: int
    deck: tuple[Card, ...]
    rank_index: bytes                  # rank_index[card] = rank - 1
    playable: tuple[bytes, ...]        # playable[foundation][card] = 1 if card may go on it


@functools.lru_cache(maxsize=None)
def _tables(ranks: int) -> _Tables:
    deck = tuple(make_card(r, s) for s in range(4) for r in range(1, ranks + 1))
    playable = tuple(bytes(c in deck and (c % 13 - f % 13) % ranks in (1, ranks - 1)
                           for c in range(52)) for f in range(52))
    return _Tables(ranks, deck, _RANK_OF[:52], playable)


GAME = BlackHole()
