"""The checker's rules for Black Hole, written again from the rule text.

The rules (as ``games/black_hole.py`` quotes them): the A♠ starts the foundation alone; the
other 51 cards are dealt to 17 piles of 3, the last card dealt to a pile on top. The top
card of a pile may go to the foundation when its rank is one above or one below the rank
of the foundation's top card, whatever the suits; K and A are adjacent (ranks wrap). That
is the only move. The game is won when all 52 cards are on the foundation.

Variant ``ranks`` (4, 7, 10 or 13): the deck keeps ranks A..ranks of each suit, dealt to
``(4 * ranks - 1) // 3`` piles of 3; the top rank wraps to the A.

A position is (foundation, piles): the foundation's top card and each pile's cards, bottom
first. A card is its text, ``"5D"`` (rank, then suit); a position read from a line written
under the reduction ``ranks`` has cards of one character, the rank alone (``"5"``), since
the suits are not written; nothing here looks at a suit.

LINE: the foundation's card, then each pile as its cards run together, bottom first, ``-``
for an empty pile, separated by spaces: ``5 A2K 5Q - 77 ...``.

Static proofs of loss (``check_facts``), both counting only the ranks left in the piles:

- ``{"proof": "unreachable", "rank": R}``: a card of rank R is in the piles, but the
  foundation can never show a rank next to R. Each play puts on the foundation a card of a
  rank next to the one it shows, taken from the piles; so the foundation only ever shows
  its present rank or a rank joined to it by a chain of neighbouring ranks each of which
  still has cards in the piles (the chain only shrinks as cards are played). A card whose
  rank is outside that chain never becomes playable: were the foundation ever to show a
  rank next to it, its rank, having cards, would be in the chain.
- ``{"proof": "no-walk"}``: no order of the cards left can be played, by counting the steps
  of a walk. A win from here plays the n cards left in some order, and the foundation's
  ranks r0 (now), r1, ..., rn form a walk round the cycle of ranks, each step to a
  neighbour, landing on each rank v exactly counts[v] times. Let e(v) be how often the
  walk crosses the edge between v and v + 1 (either way). Every time the walk is at v,
  except at its start and its end, it arrives by one edge and leaves by one, so
  e(v - 1) + e(v) = 2 o(v) - [v = r0] - [v = rn], with o(v) = counts[v] + [v = r0] the
  times it is at v; every e(v) >= 0; and the ranks the walk is at are joined by edges it
  crosses (a cycle of at least 4 ranks: the two edges at v are distinct). Given the last
  rank rn and x, the crossings of the edge between the highest rank and the A, these
  equations fix every e(v) in turn from the A up. The proof holds when, for every possible last rank and every x from 0 to the
  largest degree, they fail: some e(v) is negative, the last equation does not close, or
  the edges crossed leave a rank with cards apart.
"""
from __future__ import annotations

from typing import Any, Iterator

from checker.cards import RANKS, SUITS, rank_of, token
from checker.deals import pysol_order

NAME = "black-hole"
PILE_SIZE = 3
REDUCTIONS: dict[str, str] = {
    "ranks": "cards are written by rank alone: the rules look only at ranks (a card may go "
             "on the foundation when its rank is next to the foundation's, whatever the "
             "suits), so positions that differ only in suits have the same moves, move for "
             "move, and the same verdict",
    "piles-sorted": "the piles are written in sorted order: any pile's top card may be "
                    "played and no rule names a pile, so positions that differ only in the "
                    "order of their piles have the same moves and the same verdict",
}

Card = str                                 # "5D", or "5" under the reduction "ranks"
Position = tuple[Card, tuple[tuple[Card, ...], ...]]     # (foundation, piles bottom first)


# -- the variant and the deal ---------------------------------------------------------------


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" for a variant this checker knows, else why not."""
    if set(variant) != {"ranks"} or variant["ranks"] not in (4, 7, 10, 13):
        return "the checker knows Black Hole with ranks 4, 7, 10 or 13 and no other option"
    return ""


def _ranks(variant: dict[str, Any]) -> int:
    return int(variant["ranks"])


def _pile_count(variant: dict[str, Any]) -> int:
    return (4 * _ranks(variant) - 1) // PILE_SIZE


def deal(number: int, variant: dict[str, Any]) -> Position:
    """Return deal `number` as PySolFC deals Black Hole: the A♠ is taken out to start the
    foundation, the other cards of the variant's deck go round the piles in turn."""
    ranks = RANKS[:_ranks(variant)]
    cards = [c for c in pysol_order(number) if c[0] in ranks and c != "AS"]
    count = _pile_count(variant)
    return "AS", tuple(tuple(cards[i::count]) for i in range(count))


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the project's text of a position: an optional ``Foundations: 5H`` line first
    (the A♠ when absent), then one line per pile, bottom card first, ``-`` for an empty
    pile; a pile line may start with ``:``. Blank lines and ``#`` comments are skipped.
    Cards are written ``5H``, ``TD`` or ``10D``, in either case."""
    foundation = "AS"
    piles: list[tuple[Card, ...]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().startswith("foundations:"):
            tokens = line.split(":", 1)[1].split()
            if piles or len(tokens) != 1:
                raise ValueError(f"line {number}: the foundations line comes first and "
                                 "names one card")
            foundation = _card(tokens[0], number)
            continue
        if line.startswith(":"):
            line = line[1:].strip()
        tokens = [] if line in ("-", "") else line.split()
        if len(tokens) > PILE_SIZE:
            raise ValueError(f"line {number}: a pile holds at most {PILE_SIZE} cards")
        piles.append(tuple(_card(token, number) for token in tokens))
    if len(piles) != _pile_count(variant):
        raise ValueError(f"{len(piles)} piles, {_pile_count(variant)} expected")
    cards = [foundation] + [c for pile in piles for c in pile]
    if len(set(cards)) != len(cards) or any(rank_of(c) > _ranks(variant) for c in cards):
        raise ValueError("a card appears twice, or is not in this variant's deck")
    return foundation, tuple(piles)


def _card(text: str, line: int) -> Card:
    try:
        return token(text)
    except ValueError as error:
        raise ValueError(f"line {line}: {error}") from None


# -- the one-line encoding -------------------------------------------------------------------


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """Return the position's LINE, canonical under the reductions."""
    foundation, piles = position
    short = "ranks" in reductions
    texts = ["".join(c[0] if short else c for c in pile) or "-" for pile in piles]
    if "piles-sorted" in reductions:
        texts.sort()
    return " ".join([foundation[0] if short else foundation, *texts])


def decode(line: str, variant: dict[str, Any]) -> Position:
    """Return the position a LINE writes; raise ValueError on text it cannot read."""
    foundation, *texts = line.split(" ")
    width = len(foundation)                  # 1: ranks alone, 2: rank and suit
    ranks = RANKS[:_ranks(variant)]
    if width not in (1, 2) or len(texts) != _pile_count(variant):
        raise ValueError("not a foundation card and one token a pile")
    piles = []
    for text in texts:
        if text != "-" and (not 1 <= len(text) <= PILE_SIZE * width or len(text) % width):
            raise ValueError(f"{text!r} is not a pile")
        piles.append(() if text == "-" else
                     tuple(text[i:i + width] for i in range(0, len(text), width)))
    for card in [foundation, *(c for pile in piles for c in pile)]:
        if card[0] not in ranks or (width == 2 and card[1] not in SUITS):
            raise ValueError(f"{card!r} is not a card of this variant")
    return foundation, tuple(piles)


# -- the rules ----------------------------------------------------------------------------


def _adjacent(a: int, b: int, ranks: int) -> bool:
    """Return whether ranks a and b are one apart, K and A (the top rank and 1) included."""
    return (a - b) % ranks in (1, ranks - 1)


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every legal move: the top card of any pile whose rank is next to the foundation's
    goes onto the foundation. No reduction leaves a move out."""
    foundation, piles = position
    ranks = _ranks(variant)
    for i, pile in enumerate(piles):
        if pile and _adjacent(rank_of(pile[-1]), rank_of(foundation), ranks):
            yield pile[-1], (pile[-1], piles[:i] + (pile[:-1],) + piles[i + 1:])


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """Black Hole has no automatic moves."""
    return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card is on the foundation: every pile is empty."""
    return not any(position[1])


# -- static proofs of loss ------------------------------------------------------------------


def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """Return "" when the static proof `facts` names holds at `position`, else the fault."""
    ranks = _ranks(variant)
    foundation, piles = position
    top = rank_of(foundation) - 1                     # rank indices 0 .. ranks - 1 from here
    counts = [0] * ranks
    for pile in piles:
        for card in pile:
            counts[rank_of(card) - 1] += 1
    if facts == {"proof": "no-walk"}:
        if _walk_possible(counts, top, ranks):
            return "the step counts of a walk through the cards left can be met"
        return ""
    if not isinstance(facts, dict) or set(facts) != {"proof", "rank"} \
            or facts["proof"] != "unreachable" or facts["rank"] not in RANKS[:ranks]:
        return f"{facts!r} names no proof this checker knows"
    cut_off = RANKS.index(facts["rank"])
    if not counts[cut_off]:
        return f"no card of rank {facts['rank']} is left in the piles"
    if cut_off in _reachable(counts, top, ranks):
        return f"the foundation can still reach rank {facts['rank']}"
    return ""


def _reachable(counts: list[int], top: int, ranks: int) -> set[int]:
    """Return the rank indices whose cards can still be played: the chain of ranks with
    cards left joined to the foundation's rank `top` through neighbouring ranks."""
    reached, frontier = {top}, [top]
    while frontier:
        v = frontier.pop()
        for w in ((v + 1) % ranks, (v - 1) % ranks):
            if counts[w] and w not in reached:
                reached.add(w)
                frontier.append(w)
    return reached


def _walk_possible(counts: list[int], top: int, ranks: int) -> bool:
    """Return whether the edge counts of a walk from `top` landing on each rank index v
    counts[v] times can be met (see the module's docstring); True when no card is left."""
    if not any(counts):
        return True
    times = [counts[v] + (v == top) for v in range(ranks)]
    for end in range(ranks):
        if not counts[end]:
            continue                               # the last card played has rank `end`
        degree = [2 * times[v] - (v == top) - (v == end) for v in range(ranks)]
        for x in range(max(degree) + 1):           # x: crossings of the edge (ranks-1, 0)
            edges, before = [], x
            for v in range(ranks):                 # edges[v]: crossings of (v, v + 1)
                before = degree[v] - before
                edges.append(before)
            if edges[-1] != x or min(edges) < 0:
                continue
            joined, frontier = {top}, [top]        # the ranks joined to `top` by crossings
            while frontier:
                v = frontier.pop()
                for w, crossings in (((v + 1) % ranks, edges[v]), ((v - 1) % ranks, edges[v - 1])):
                    if crossings and w not in joined:
                        joined.add(w)
                        frontier.append(w)
            if all(v in joined for v in range(ranks) if times[v]):
                return True
    return False
