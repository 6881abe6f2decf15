"""The checker's rules for Gaps (Montana), written again from the rule text, to be read
beside it (``games/gaps.py`` quotes the rules and the rulings):

    The 52 cards are dealt in four rows of 13, then the four Aces are taken out, leaving
    four gaps. A gap right of a card X takes only the card of X's suit one rank higher;
    a gap in a row's first place takes any Two (from anywhere, even from another row's
    first place); a gap right of a King or of another gap is dead. When no move is left
    the player may redeal (twice by default): each row keeps its Two-headed suit sequence
    from the first place, every other card is gathered, shuffled and dealt back, leaving
    one gap right after each row's sequence. The game is won when every row holds Two to
    King of one suit.

Variants: ``redeals`` (0..9), ``redeal_any_time`` (a redeal with moves left),
``suit_rows`` (row r takes only the Two of suit r and is won in that suit), and the
small twins ``suits`` (rows) and ``ranks`` (places per row; the top rank plays the King).

A card is its text, ``"5H"``. A position is (rows, redeals, seed, draws): the rows, each
a tuple of cards or None (a gap); the redeals made; the deal number that seeds the random
stream the redeals shuffle with (0 when not known); how many numbers that stream has
handed out. Once no redeal is left no rule reads the seed or the stream, so the position
drops them (0, 0), and its LINE does not write them.

LINE: ``redeals|seed|draws|row|row...``, each row its places written two characters each,
``--`` for a gap (``seed`` and ``draws`` empty once no redeal is left).

Static proof (FACTS ``{"frozen": [cards]}``, only with no redeal left): a set F of cards
such that, while every card of F stays where it stands, none of them has a legal move.
Then none ever moves (the first move of one would be a move while all stand), so a won
position reachable from here has each card of F where it stands now; if no won position
can (a card off its rank's place, two suits in one row...), the position is lost.
"""
from __future__ import annotations

import random
from typing import Any, Iterator, Optional

from checker.cards import RANKS, SUITS, rank_of

NAME = "gaps"
REDUCTIONS: dict[str, str] = {}      # every legal move is followed, none is automatic
VARIANT_KEYS = {"redeals", "redeal_any_time", "suit_rows", "suits", "ranks"}

Card = str
Rows = tuple[tuple[Optional[Card], ...], ...]
Position = tuple[Rows, int, int, int]


def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != VARIANT_KEYS:
        return f"expected the options {sorted(VARIANT_KEYS)}"
    ok = (isinstance(variant["redeals"], int) and 0 <= variant["redeals"] <= 9
          and isinstance(variant["suits"], int) and 1 <= variant["suits"] <= 4
          and isinstance(variant["ranks"], int) and 3 <= variant["ranks"] <= 13
          and isinstance(variant["redeal_any_time"], bool) and isinstance(variant["suit_rows"], bool))
    return "" if ok else "redeals 0..9, suits 1..4, ranks 3..13, the others true or false"


def card(rank_: int, suit: str) -> Card:
    return RANKS[rank_ - 1] + suit


# -- the deal and the random stream (PySolFC's) -----------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's deal (game 53, Montana): its shuffle of one deck, cards dealt to the
    places row by row, the Aces taken out. A twin keeps the order of its own cards."""
    if not 1 <= number <= 10 ** 20:
        raise ValueError("deal numbers run from 1 to 10**20")
    if number <= 32000:      # Microsoft's generator, on the deck ordered AC AD AH AS 2C ...
        deck = [r + s for r in RANKS for s in "CDHS"]
    else:                    # the Mersenne Twister, on PySolFC's deck order C, S, H, D
        deck = [r + s for s in "CSHD" for r in RANKS]
    draws = iter(stream(number, 0, len(deck)))
    for n in range(len(deck) - 1, 0, -1):
        j = next(draws)
        deck[n], deck[j] = deck[j], deck[n]
    deck.reverse()                                   # PySolFC deals from the end
    ours = [c for c in deck if rank_of(c) <= variant["ranks"] and c[1] in SUITS[:variant["suits"]]]
    width = variant["ranks"]
    places = [None if rank_of(c) == 1 else c for c in ours]
    rows = tuple(tuple(places[i:i + width]) for i in range(0, len(places), width))
    return forget_spent_stream((rows, 0, number, 51), variant)


def stream(seed: int, skip: int, count: int) -> list[int]:
    """The swap indices of PySolFC's shuffle of `count` cards by deal `seed`'s stream after
    `skip` numbers: for n = count-1 down to 1, randint(0, n), one number each."""
    found = []
    if seed <= 32000:                # Microsoft: x = x * 214013 + 2531011 (33 bits), 15 bits out
        x = seed
        for _ in range(skip):
            x = (x * 214013 + 2531011) & 0x1FFFFFFFF
        for n in range(count - 1, 0, -1):
            x = (x * 214013 + 2531011) & 0x1FFFFFFFF
            found.append(((x >> 16) & 0x7FFF) % (n + 1))
        return found
    twister = random.Random(seed)    # the Mersenne Twister: randint(0, n) = int(random() * (n + 1))
    for _ in range(skip):
        twister.random()
    for n in range(count - 1, 0, -1):
        found.append(int(twister.random() * (n + 1)))
    return found


def forget_spent_stream(pos: Position, variant: dict[str, Any]) -> Position:
    rows, redeals, seed, draws = pos
    return (rows, redeals, 0, 0) if redeals >= variant["redeals"] else pos


# -- text -------------------------------------------------------------------------------

def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read ``Deal:``, ``Redeals:``, ``Draws:`` (optional) and one line a row."""
    numbers = {"deal": 0, "redeals": 0, "draws": 51}
    rows = []
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        label, colon, rest = line.partition(":")
        if colon and label.lower() in numbers:
            numbers[label.lower()] = int(rest)
        elif line:
            row = tuple(None if token == "-" else token.upper() for token in line.split())
            if len(row) != variant["ranks"]:
                raise ValueError(f"a row of {len(row)} places, expected {variant['ranks']}")
            rows.append(row)
    if len(rows) != variant["suits"]:
        raise ValueError(f"{len(rows)} rows, expected {variant['suits']}")
    pos = (tuple(rows), numbers["redeals"], numbers["deal"], numbers["draws"])
    check_cards(pos, variant)
    return forget_spent_stream(pos, variant)


def check_cards(pos: Position, variant: dict[str, Any]) -> None:
    """Raise ValueError unless the rows hold each card of the deck once, no Ace."""
    deck = sorted(card(r, s) for s in SUITS[:variant["suits"]] for r in range(2, variant["ranks"] + 1))
    if sorted(c for row in pos[0] for c in row if c is not None) != deck:
        raise ValueError("the rows do not hold each card Two up to the top rank once")
    if not 0 <= pos[1] <= variant["redeals"]:
        raise ValueError(f"redeals made must be 0..{variant['redeals']}")


def encode(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    rows, redeals, seed, draws = pos
    head = [str(redeals), "", ""] if redeals >= variant["redeals"] else [str(redeals), str(seed), str(draws)]
    return "|".join(head + ["".join(c or "--" for c in row) for row in rows])


def decode(line: str, variant: dict[str, Any]) -> Position:
    redeals, seed, draws, *texts = line.split("|")
    if len(texts) != variant["suits"] or any(len(t) != 2 * variant["ranks"] for t in texts):
        raise ValueError("not redeals|seed|draws|row... with the variant's rows")
    rows = tuple(tuple(None if t[i:i + 2] == "--" else t[i:i + 2] for i in range(0, len(t), 2))
                 for t in texts)
    if not redeals.isdigit() or not (seed + draws == "" or seed.isdigit() and draws.isdigit()):
        raise ValueError("redeals, seed and draws must be numbers")
    pos = (rows, int(redeals), int(seed or 0), int(draws or 0))
    check_cards(pos, variant)
    if pos[1] < variant["redeals"] and pos[2] == 0:
        raise ValueError("a redeal is left but the deal number that fixes it is not given")
    return pos


# -- the rules --------------------------------------------------------------------------

def moves(pos: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every legal move: a card into a gap (the rule for each kind of gap below), or,
    when the rules allow one, the redeal (``r``)."""
    rows, redeals, seed, draws = pos
    top = variant["ranks"]                           # the top rank plays the King
    where = {c: (r, p) for r, row in enumerate(rows) for p, c in enumerate(row) if c}
    fills = []
    for r, row in enumerate(rows):
        for p, cell in enumerate(row):
            if cell is not None:
                continue
            if p == 0:       # a first place takes any Two (suit_rows: the row's own Two)
                suits = SUITS[r] if variant["suit_rows"] else SUITS[:variant["suits"]]
                for suit in suits:
                    fills.append((f"2{suit}-{r + 1}", card(2, suit), r, p))
                continue
            left = row[p - 1]
            if left is None or rank_of(left) == top:    # right of a gap or of a King: dead
                continue
            mover = card(rank_of(left) + 1, left[1])    # X's suit, one rank higher
            fills.append((mover, mover, r, p))
    for name, mover, r, p in fills:
        fr, fp = where[mover]
        new = [list(row) for row in rows]
        new[fr][fp], new[r][p] = None, mover         # the card and the gap change places
        yield name, (tuple(tuple(row) for row in new), redeals, seed, draws)
    may_redeal = redeals < variant["redeals"] and (variant["redeal_any_time"] or not fills)
    if may_redeal and not is_won(pos, variant):
        yield "r", redeal(pos, variant)


def run_length(row: tuple[Optional[Card], ...], r: int, variant: dict[str, Any]) -> int:
    """The length of the row's Two-headed suit sequence from its first place (with
    suit_rows, only a sequence of the row's suit counts)."""
    first = row[0]
    if first is None or rank_of(first) != 2 or variant["suit_rows"] and first[1] != SUITS[r]:
        return 0
    n = 1
    while n < len(row) - 1 and row[n] == card(n + 2, first[1]):
        n += 1
    return n


def redeal(pos: Position, variant: dict[str, Any]) -> Position:
    """PySolFC's redeal: the places outside the rows' sequences, row by row, left to right,
    give up their cards in that order; the cards are shuffled with the deal's stream where
    it stands, and dealt from the end back to those places in the same order, the first
    such place of each row left a gap."""
    rows, redeals, seed, draws = pos
    runs = [run_length(row, r, variant) for r, row in enumerate(rows)]
    out = [(r, p) for r, row in enumerate(rows) for p in range(runs[r], len(row))]
    talon = [rows[r][p] for r, p in out if rows[r][p] is not None]
    count = len(talon)
    for n, j in zip(range(count - 1, 0, -1), stream(seed, draws, count)):
        talon[n], talon[j] = talon[j], talon[n]
    new = [list(row) for row in rows]
    for r, p in out:
        new[r][p] = None if p == runs[r] else talon.pop()
    after = (tuple(tuple(row) for row in new), redeals + 1, seed, draws + max(count - 1, 0))
    return forget_spent_stream(after, variant)


def settle(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    return pos


def is_won(pos: Position, variant: dict[str, Any]) -> bool:
    """Every row holds Two to the top rank of one suit (suit_rows: its own)."""
    return all(run_length(row, r, variant) == variant["ranks"] - 1 for r, row in enumerate(pos[0]))


# -- the static proof: cards that can never move again -----------------------------------

def check_facts(pos: Position, variant: dict[str, Any], facts: Any) -> str:
    rows, redeals, _, _ = pos
    if redeals < variant["redeals"]:
        return "a redeal is left, which may move any card out of sequence"
    if not isinstance(facts, dict) or not isinstance(facts.get("frozen"), list):
        return 'the facts are not {"frozen": [cards]}'
    where = {c: (r, p) for r, row in enumerate(rows) for p, c in enumerate(row) if c}
    frozen = set(facts["frozen"])
    if not frozen <= set(where):
        return "a frozen card is not in the layout"
    for c in sorted(frozen):
        if rank_of(c) == 2:     # a Two moves only into a first place: each must hold a card of F
            if any(row[0] not in frozen for row in rows):
                return f"{c} is not frozen: a first place holds a gap or a card that may move"
            continue
        below = card(rank_of(c) - 1, c[1])              # c moves only into the place right of c-1
        if below not in frozen:
            return f"{c} is not frozen: {below} may move"
        r, p = where[below]
        if p + 1 < len(rows[r]) and rows[r][p + 1] not in frozen:
            return f"{c} is not frozen: the place right of {below} may open"
    # No won position keeps every card of F where it stands?
    suit_of_row: dict[int, str] = {}
    row_of_suit: dict[str, int] = {}
    for c in frozen:
        r, p = where[c]
        if p != rank_of(c) - 2:
            return ""                                # a won row has rank p + 2 at place p
        if variant["suit_rows"] and c[1] != SUITS[r]:
            return ""
        if suit_of_row.setdefault(r, c[1]) != c[1] or row_of_suit.setdefault(c[1], r) != r:
            return ""                                # a won row holds one suit, a suit one row
    return "every frozen card stands where some won position has it"
