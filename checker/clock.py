"""The checker's rules for The Clock, written again from the rule text.

The rules (as ``games/the_clock.py`` quotes them): 13 piles of 4 face down, 12 for A..Q
(1 to 12 o'clock) and the centre pile for K. Turn the top card of the centre pile, put it
face up under the pile of its rank, turn that pile's top face-down card; repeat. The game
is lost when the fourth K is turned while face-down cards remain, won when it is the last
card turned. There are no choices: one legal move at a time, or none when it is over.

Variant (test-only twins): ``ranks`` piles (2..13), the last being the "King" pile, of
``suits`` cards (1..4).

A certificate of loss is the start alone: the play is forced, so the loss is its own
proof. Its one line carries the facts ``"forced"``, and ``check_facts`` confirms them by
playing the game out with the rules below, move by move (there is never a choice to
search), and finding that play stops with cards still face down.

A position is (down, up, due): each pile's face-down cards, bottom first, the face-up cards
put under each pile, and the index of the pile whose top card turns next (-1 once play has
stopped). A card is its text, ``"7H"``.

LINE: the pile due (its rank, ``-`` once play has stopped), then for each pile its
face-down cards run together, a ``|``, and its face-up cards run together, separated by
spaces: ``K JDQCTS7D| ... 6H5C8SKD|``.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import RANKS, SUITS, rank_of, run_of, token
from checker.deals import pysol_order

NAME = "clock"
OVER = -1
REDUCTIONS: dict[str, str] = {}          # none: positions are written exactly

Card = str
Pile = tuple[Card, ...]
Position = tuple[tuple[Pile, ...], tuple[Pile, ...], int]      # (down, up, due)


# -- the variant and the deal ---------------------------------------------------------------


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" for a variant this checker knows, else why not."""
    ranks, suits = variant.get("ranks"), variant.get("suits")
    if set(variant) != {"ranks", "suits"} or not isinstance(ranks, int) \
            or not isinstance(suits, int) or not 2 <= ranks <= 13 or not 1 <= suits <= 4:
        return "the checker knows The Clock with ranks 2..13 and suits 1..4, no other option"
    return ""


def deal(number: int, variant: dict[str, Any]) -> Position:
    """Return deal `number`: the i-th card dealt (from 0) goes to pile i % ranks, so the
    last cards dealt are the piles' tops; the K pile turns first.

    The full game deals PySolFC's shuffle `number`; a twin shuffles its deck (ranks
    1..ranks of the first `suits` suits, suit by suit) with Python's
    ``random.Random(number).shuffle``.
    """
    ranks, suits = variant["ranks"], variant["suits"]
    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    if (ranks, suits) == (13, 4):
        cards = pysol_order(number)
    else:
        cards = [RANKS[r] + SUITS[s] for s in range(suits) for r in range(ranks)]
        random.Random(number).shuffle(cards)
    down = tuple(tuple(cards[i::ranks]) for i in range(ranks))
    return down, ((),) * ranks, ranks - 1


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the project's text of a position: one line per pile, A first, the K pile last,
    each optionally labelled (``7:``), its face-down cards bottom first, then for a position
    in play a ``|`` and its face-up cards; a ``Next:`` line names the pile due (``-`` once
    play has stopped). Without one, the pile due is the one entered once more than it was
    left: entered once per face-up card of its rank (the K pile also at the start), left
    once per card turned from it. Blank lines and ``#`` comments are skipped."""
    ranks, suits = variant["ranks"], variant["suits"]
    down: list[Pile] = []
    up: list[Pile] = []
    named: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        label, colon, rest = line.partition(":")
        label = label.strip().upper().replace("10", "T").replace("1", "A")
        if colon and label == "NEXT":
            named = rest.strip().upper().replace("10", "T")
            continue
        if not colon:
            rest = line
        elif label != RANKS[len(down) % 13]:
            raise ValueError(f"the pile labelled {label!r} where the {RANKS[len(down) % 13]} "
                             "pile was due")
        face_down, _, face_up = rest.partition("|")
        down.append(tuple(map(token, face_down.split())))
        up.append(tuple(map(token, face_up.split())))
    if len(down) != ranks:
        raise ValueError(f"{len(down)} piles, {ranks} expected")
    cards = [c for pile in down + up for c in pile]
    deck = {RANKS[r] + SUITS[s] for s in range(suits) for r in range(ranks)}
    if sorted(cards) != sorted(deck):
        raise ValueError("the cards are not this variant's deck, each once")
    entered_more = [len(up[i]) - (suits - len(down[i])) + (i == ranks - 1) for i in range(ranks)]
    if sorted(entered_more) != [0] * (ranks - 1) + [1] or \
            any(rank_of(c) != i + 1 for i in range(ranks) for c in up[i]):
        raise ValueError("the face-up cards do not fit the cards turned from each pile")
    due = entered_more.index(1)
    due = due if down[due] else OVER
    if named is not None and named != ("-" if due == OVER else RANKS[due]):
        raise ValueError(f"'Next: {named}' but the cards turned say otherwise")
    return tuple(down), tuple(up), due


# -- the one-line encoding -------------------------------------------------------------------


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """Return the position's LINE (no reduction applies)."""
    down, up, due = position
    piles = ["".join(d) + "|" + "".join(u) for d, u in zip(down, up)]
    return " ".join(["-" if due == OVER else RANKS[due], *piles])


def decode(line: str, variant: dict[str, Any]) -> Position:
    """Return the position a LINE writes; raise ValueError on text it cannot read."""
    ranks = variant["ranks"]
    due_text, *piles = line.split(" ")
    if len(piles) != ranks or due_text not in ("-", *RANKS[:ranks]) \
            or any(p.count("|") != 1 for p in piles):
        raise ValueError("not the pile due and one DOWN|UP token a pile")
    down, up = [], []
    for pile in piles:
        face_down, face_up = pile.split("|")
        down.append(tuple(map(token, run_of(face_down))))
        up.append(tuple(map(token, run_of(face_up))))
    return tuple(down), tuple(up), OVER if due_text == "-" else RANKS.index(due_text)


# -- the rules ----------------------------------------------------------------------------


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """The one legal move: turn the top face-down card of the pile due and put it face up
    under the pile of its rank; that pile turns next, and when it has no face-down card
    left (only the K pile can be so, once its fourth K is turned) play stops."""
    down, up, due = position
    if due == OVER or not down[due]:
        return
    card = down[due][-1]
    target = rank_of(card) - 1
    new_down = down[:due] + (down[due][:-1],) + down[due + 1:]
    new_up = up[:target] + (up[target] + (card,),) + up[target + 1:]
    yield card, (new_down, new_up, target if new_down[target] else OVER)


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """No automatic moves are named: a position is kept as it is."""
    return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card is face up."""
    return not any(position[0])


def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """Confirm ``"forced"``: play the one legal move after another until none is left, and
    find cards still face down (a loss); return "" then, else the fault."""
    if facts != "forced":
        return f"{facts!r} names no proof this checker knows (only \"forced\")"
    turned = 0
    while True:
        after = [pos for _, pos in moves(position, variant, frozenset())]
        if not after:
            break
        position = after[0]
        turned += 1
    if is_won(position, variant):
        return f"the forced play wins: all {turned} cards turned face up"
    return ""
