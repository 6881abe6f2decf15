"""Klondike, as the checker reads its rules (games/klondike.py quotes them).

Rules: 7 columns dealt 1..7 cards, the top card of each face up, the rest face down;
24 cards in the stock. Columns build down in alternating colours; a face-up run built
so moves as a unit; an empty column takes only a King (or a King-headed run). The
foundations build up by suit from the Ace, and a foundation's top card may come back to
a column. The stock is turned onto the waste ``draw`` cards at a time; the waste's top
card is playable; an empty stock is refilled by turning the waste over (a redeal), as
often as wanted, or so that the stock is gone through at most ``passes`` times. A
face-down card turns up as soon as it is a column's top card. Won when every card is
home. The solver knows every card; a face-down card only cannot move.

A position is (columns, hidden, talon, waste, foundations, redeals): each column's
cards bottom first, how many at its bottom are face down, the talon (the waste bottom
first, then the stock, the next card turned first), the waste's size, each suit's top
rank home (C D H S), and the redeals made. Cards are numbered (``checker.cards``); the
columns' text, LINE fields and deck check are Yukon's too (``checker.tableau``).

LINE: ``FFFF R W TALON COLUMN...``: the foundations' top ranks (``0`` none), the redeals,
the waste size (``*``: any size on the stock's cycle, see "waste-cycle"), the talon's cards
(``-`` none) and each column as face-down count ``/`` cards (``2/5D9S5C``, ``0/`` empty).

FACTS (a static proof of loss; ``checker.tableau.facts_fault`` states and checks it, for
Yukon too): ``{"never": {"top": ..., "left": ..., "home": ..., "empty": bool}}``, the events
of a relaxed Klondike (whatever becomes possible stays possible) that never happen, some
card never going home; or ``{"stuck": "KC QD ..."}``, column cards that never leave their
places, which are such events too. No event listed could be the first of them to happen.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import SUITS, card_text, deck, rank, read_card, run_of, suit
from checker.deals import pysol_order
from checker.tableau import (Columns, check_cards, facts_fault, fits, line_fields, raised,
                             read_fields, read_text, tops_home)

NAME = "klondike"

REDUCTIONS: dict[str, str] = {
    "columns-sorted": "columns are interchangeable (no rule names one), so LINE lists "
                      "them sorted",
    "waste-plays": "the stock is turned only just before a play of the waste's top card, by "
                   "the fewest turns that bring that card up: turning reads and changes "
                   "only the stock and waste, which only a waste play reads, so any win "
                   "reorders to this; a turn more only spends redeals",
    "waste-cycle": "with unlimited passes and waste-plays, waste sizes on the stock's "
                   "cycle (0, draw, 2 draw, ..., the talon's size) are one position: "
                   "turns alone lead from each to the other, so the plays reached are the "
                   "same (without waste-plays it is not applied: a bare turn would then "
                   "lead back to its own position)",
    "safe-home": "a column's top card goes home at once when no win needs it (Aces, Twos; "
                 "a Three when both other-colour Twos are home; rank r when both "
                 "other-colour foundations hold r - 1 and its colour's other suit r - 2); "
                 "with draw 1 and unlimited passes so does such a talon card; and all "
                 "cards, where home moves alone win",
    "partial-run": "a run moves off a face-up card it is built on only when that card "
                   "can then go home (otherwise a win does as well without)",
    "empty-column": "a move that empties a column (nothing face down) is made only while "
                    "no column is empty and some King could ever enter one",
}
# The proofs of the last three are PROOFS in games/_klondike_rules.py ("Safe home moves",
# "The partial-run rule", "The empty-column rule"), for every draw and number of passes.

Position = tuple[Columns, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int]


# -- the variant, the deals, the text and LINE --------------------------------------------

def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != {"draw", "passes", "ranks", "columns"}:
        return "the options must be draw, passes, ranks and columns"
    draw, passes, ranks, columns = (variant[k] for k in ("draw", "passes", "ranks", "columns"))
    if not all(isinstance(n, int) for n in (draw, ranks, columns)) or \
            not (passes is None or isinstance(passes, int) and passes >= 1):
        return "draw, ranks and columns must be numbers, passes a number or null"
    if not (1 <= draw <= 24 and 1 <= ranks <= 13 and 1 <= columns <= 9
            and columns * (columns + 1) // 2 <= 4 * ranks):
        return "draw must be 1..24, ranks 1..13, columns 1..9 (and the deck must fill them)"
    return ""


def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's deal `number` (``checker.deals``), or a twin's seeded deal."""
    ranks, width = variant["ranks"], variant["columns"]
    if ranks == 13 and width == 7:
        # PySolFC: rows of 6, 5, .., 1 face-down cards from the left, then a face-up row
        # of 7; then the columns are listed right to left; the rest is the stock.
        cards = [read_card(card) for card in pysol_order(number)]
        columns: list[list[int]] = [[] for _ in range(7)]
        for at, i in enumerate(i for row in (6, 5, 4, 3, 2, 1, 7) for i in range(row)):
            columns[6 - i].append(cards[at])
        return tuple(map(tuple, columns)), tuple(range(7)), tuple(cards[28:]), 0, (0, 0, 0, 0), 0
    if number < 1:
        raise ValueError("deal numbers start at 1")
    cards = deck(ranks)
    random.Random(number).shuffle(cards)                # column i takes the next i + 1
    starts = [i * (i + 1) // 2 for i in range(width + 1)]
    return (tuple(tuple(cards[starts[i]:starts[i + 1]]) for i in range(width)),
            tuple(range(width)), tuple(cards[starts[width]:]), 0, (0, 0, 0, 0), 0)


def parse(text: str, variant: dict[str, Any]) -> Position:
    """The project's text (``checker.tableau.read_text``) with optional ``Talon:`` (or
    ``Stock:``), ``Waste:`` and ``Redeals:`` (or ``Passes: n/m``) lines."""
    foundations, labelled, columns, hidden = read_text(
        text, ("talon", "stock", "waste", "redeals", "passes"))
    piles: dict[str, list[int]] = {"waste": [], "talon": []}
    redeals = 0
    for label, rest in labelled:
        if label in ("redeals", "passes"):
            redeals = int(rest) if label == "redeals" else int(rest.split("/")[0]) - 1
        else:                                           # talon (or stock), waste
            piles["waste" if label == "waste" else "talon"] += map(read_card, rest.split())
    position = (columns, hidden, tuple(piles["waste"] + piles["talon"]), len(piles["waste"]),
                tuple(foundations), 0 if variant["passes"] is None else redeals)
    _check(position, variant)
    return position


def _check(position: Position, variant: dict[str, Any]) -> None:
    """Raise ValueError unless the position holds the variant's deck once, in its columns."""
    columns, hidden, talon, waste, foundations, redeals = position
    check_cards(columns, hidden, foundations, talon, variant)
    if not 0 <= waste <= len(talon) or redeals < 0:
        raise ValueError("wrong waste size or redeals")


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    columns, hidden, talon, waste, foundations, redeals = position
    found, cols = line_fields(foundations, columns, hidden, "columns-sorted" in reductions)
    # "waste-cycle": a waste size that turning alone reaches again (unlimited passes)
    merged = {"waste-cycle", "waste-plays"} <= reductions and variant["passes"] is None and \
        (waste == len(talon) or waste % variant["draw"] == 0)
    return " ".join([found, str(redeals), "*" if merged else str(waste),
                     "".join(map(card_text, talon)) or "-", *cols])


def decode(line: str, variant: dict[str, Any]) -> Position:
    parts = line.split(" ")
    if len(parts) != 4 + variant["columns"]:
        raise ValueError("not FFFF R W TALON and one field a column")
    found, redeals, waste, talon, *cols = parts
    foundations, columns, hidden = read_fields(found, cols)
    position = (columns, hidden, () if talon == "-" else tuple(map(read_card, run_of(talon))),
                0 if waste == "*" else int(waste), foundations, int(redeals))
    _check(position, variant)
    return position


# -- moves ------------------------------------------------------------------------------

def is_won(position: Position, variant: dict[str, Any]) -> bool:
    return all(r == variant["ranks"] for r in position[4])


def _turn(talon: int, waste: int, redeals: int, variant: dict[str, Any]) -> tuple[int, int] | None:
    """(waste, redeals) after one turn of the stock, or None where none is allowed."""
    if waste < talon:
        return min(waste + variant["draw"], talon), redeals
    passes = variant["passes"]
    if waste == 0 or passes is not None and redeals + 1 >= passes:
        return None
    return 0, redeals + 1 if passes is not None else 0


def _targets(card: int, columns: Columns, foundations: tuple[int, ...], ranks: int,
             source: int = -1, home: bool = True) -> list[str]:
    """Where `card` (with the cards on it) may go: ``f``, home (with `home`: nothing lies
    on it), onto its suit's top rank; a column's number, onto its top card if it fits,
    or a King onto it empty (not back to column `source`)."""
    found = ["f"] if home and foundations[suit(card)] + 1 == rank(card) else []
    for t, column in enumerate(columns):
        if t != source and (fits(card, column[-1]) if column else rank(card) == ranks):
            found.append(str(t + 1))
    return found


def _put(lifted: Position, to: str, cards: tuple[int, ...]) -> Position:
    """`lifted`, a position without `cards`, with them put on target `to` (``_targets``)."""
    columns, hidden, talon, waste, foundations, redeals = lifted
    if to == "f":
        return columns, hidden, talon, waste, raised(foundations, suit(cards[0])), redeals
    t = int(to) - 1
    return (columns[:t] + (columns[t] + cards,) + columns[t + 1:], hidden, talon, waste,
            foundations, redeals)


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every move the rules allow, less what the named pruning reductions leave out."""
    columns, hidden, talon, waste, foundations, redeals = position
    ranks = variant["ranks"]
    # the waste's top card; with "waste-plays" after the fewest turns to each waste size
    # (sizes[k] being (waste, redeals) after k turns), else a turn is a move of its own
    sizes, after = [(waste, redeals)], _turn(len(talon), waste, redeals, variant)
    if "waste-plays" not in reductions:
        if after is not None:
            yield "s", (columns, hidden, talon, after[0], foundations, after[1])
    else:
        while after is not None and after[0] not in [w for w, _ in sizes]:
            sizes.append(after)
            after = _turn(len(talon), *after, variant)
    for turns, (w, r) in enumerate(sizes):
        for to in _targets(talon[w - 1], columns, foundations, ranks) if w else ():
            lifted = (columns, hidden, talon[:w - 1] + talon[w:], w - 1, foundations, r)
            yield (f"{turns}s,w" if turns else "w") + to, _put(lifted, to, talon[w - 1:w])
    # column cards: the top card home, a run onto another column (a pruned one only home)
    for i, column in enumerate(columns):
        for start in range(len(column) - 1, hidden[i] - 1, -1):
            if start < len(column) - 1 and not fits(column[start + 1], column[start]):
                break                                   # the cards above are no run
            targets = _targets(column[start], columns, foundations, ranks, i,
                               home=start == len(column) - 1)
            if targets and _pruned(position, i, start, variant, reductions):
                targets = [to for to in targets if to == "f"]
            if not targets:
                continue        # else the run is lifted off (the card under it turned up)
            lifted = (columns[:i] + (column[:start],) + columns[i + 1:],
                      hidden[:i] + (min(hidden[i], max(start - 1, 0)),) + hidden[i + 1:],
                      talon, waste, foundations, redeals)
            for to in targets:
                yield f"{i + 1}{to}", _put(lifted, to, column[start:])
    # a foundation's top card back to a column
    for s in range(4):
        if foundations[s]:
            card, lowered = s * 13 + foundations[s] - 1, raised(foundations, s, -1)
            for to in _targets(card, columns, lowered, ranks, home=False):
                yield f"f{SUITS[s].lower()}{to}", _put(
                    (columns, hidden, talon, waste, lowered, redeals), to, (card,))


def _pruned(position: Position, i: int, start: int, variant: dict[str, Any],
            reductions: frozenset[str]) -> bool:
    """Whether a pruning reduction leaves out moving column i's run from `start` up."""
    columns, hidden, talon, _, foundations, _ = position
    column, ranks = columns[i], variant["ranks"]
    if "partial-run" in reductions and start > hidden[i] and fits(column[start], column[start - 1]):
        below = column[start - 1]
        if foundations[suit(below)] + 1 != rank(below):
            return True
    if "empty-column" in reductions and start == 0:
        king_waits = ranks in foundations or any(rank(c) == ranks for c in talon) or \
            any(rank(c) == ranks for col, down in zip(columns, hidden) for c in col[max(down, 1):])
        return not king_waits or any(not column for column in columns)
    return False


# -- automatic moves --------------------------------------------------------------------

def _safe(card: int, foundations: tuple[int, ...]) -> bool:
    """Whether `card` goes home now and no win needs it out ("safe-home")."""
    r, s = rank(card), suit(card)
    if foundations[s] + 1 != r:
        return False
    other = min(f for t, f in enumerate(foundations) if (t in (1, 2)) != (s in (1, 2)))
    same = foundations[3 - s]                         # C<->S, D<->H: the colour's other suit
    return r <= 2 or r == 3 and other >= 2 or other >= r - 1 and same >= r - 2


def _clear(position: Position, free_talon: bool) -> bool:
    """Whether home moves alone win: nothing face down, every column falling in rank
    from its bottom, and every talon card playable when wanted (draw 1 with unlimited
    passes, or one talon card at most). The lowest rank not all home then has a card
    that goes home (a column's top, as the cards on it are lower, so home; or turned up
    from the talon), and a home move keeps the position clear: all go home."""
    columns, hidden, talon = position[0], position[1], position[2]
    return not any(hidden) and (free_talon or len(talon) <= 1) and \
        all(rank(a) > rank(b) for column in columns for a, b in zip(column, column[1:]))


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """With "safe-home": send every card home from a clear position (``_clear``); else
    send safe cards home until none is left, column tops first (``tops_home``), then the
    first talon card (the order does not matter: a card once safe stays safe until it
    goes)."""
    if "safe-home" not in reductions:
        return position
    free_talon = variant["draw"] == 1 and variant["passes"] is None
    if _clear(position, free_talon):
        width, ranks = len(position[0]), variant["ranks"]
        return ((),) * width, (0,) * width, (), 0, (ranks,) * 4, position[5]
    while True:
        columns, hidden, foundations = tops_home(position[0], position[1], position[4], _safe)
        talon, waste, redeals = position[2], position[3], position[5]
        turned = [j for j, card in enumerate(talon) if _safe(card, foundations)] if free_talon else []
        if not turned:
            return columns, hidden, talon, waste, foundations, redeals
        j = turned[0]           # turned to (the waste then holds the talon up to it), played
        position = (columns, hidden, talon[:j] + talon[j + 1:], j,
                    raised(foundations, suit(talon[j])), redeals)


# -- static proofs ----------------------------------------------------------------------

def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """"" if the facts prove the position lost (see the module's docstring), else why not."""
    return facts_fault(position[0], position[1], position[4], variant["ranks"], facts)
