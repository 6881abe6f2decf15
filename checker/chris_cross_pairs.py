"""The checker's rules for Chris-Cross Pairs, written again from the rule text, to be read
beside it (``games/chris_cross_pairs.py`` quotes the rules and the project's rulings):

    25 cards are dealt face up to a tableau of five rows and five columns, down the
    columns; the other 27 are the stock. The object is to cast out every card in pairs of
    equal rank. A pair is two cards of one rank in one column, or on a diagonal while all
    five of its places hold a card. A turn casts out one pair, or several with no card in
    common, each a pair when the turn began. Then, for each place a card was cast out of,
    the card directly above may slide down into it, or the card directly below up, or it
    stays empty. Then every row closes its gaps to the left. Phase 1 repeats turns until no
    pair is left; if a pair went, phase 2 begins: every row of fewer than five cards turns
    its first card to its end, and turns repeat until no pair is left. A round whose phase 1
    finds no pair loses. Each later round begins by filling the empty places from the stock,
    column by column from the left, each top to bottom. Won: tableau and stock empty.

A turn is played in steps, as the game's notation writes them: ``b1+b4`` casts out a pair
(columns a.., rows 1.. from the top), ``b3-b4`` slides a card into a cast-out place,
``close`` ends the turn, ``rotate`` begins phase 2, ``deal`` begins the next round.

The rules read a card's rank only, and only to compare it with another's; no rule reads
its suit or the round's number, so a position here is (cells, stock, phase): the cells row
by row, each ``.`` (empty), ``x`` (cast out this turn, open to a slide), a rank (``7``) or
a rank that slid this turn (``7*``); the stock's ranks, the next first; the phase,
``start`` (phase 1, no pair gone yet this round), ``1`` or ``2``.

LINE: ``phase|cells|stock``, the cells joined by ``,`` and the rows by ``/``.
"""
from __future__ import annotations

from typing import Any, Iterator

NAME = "chris-cross-pairs"
REDUCTIONS = {
    "only-move": "a position with one legal move has the verdict of the position after it, "
                 "so settle plays that move (and again while there is one alone)",
    "rank-names": "the rules compare ranks only for equality, so renaming ranks one to one "
                  "maps lines of play to lines of play: ranks are renamed A, 2, 3... in the "
                  "order they first appear (cells row by row, then the stock)",
}
RANKS = "A23456789TJQK"
COLUMNS = "abcde"

Position = tuple[tuple[str, ...], tuple[str, ...], str]


def variant_problem(variant: dict[str, Any]) -> str:
    size, ranks, suits = variant.get("size"), variant.get("ranks"), variant.get("suits")
    if set(variant) != {"size", "ranks", "suits"} or size not in (3, 4, 5) \
            or ranks not in range(2, 14) or suits not in (2, 4):
        return "expected size 3..5, ranks 2..13, suits 2 or 4"
    return ""


def is_card(cell: str) -> bool:
    """A card that has not slid this turn (it may pair or slide)."""
    return cell in RANKS


# -- the deal and the text ----------------------------------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's shuffle of one deck (the Microsoft generator to 32000, the Mersenne
    Twister above); the first cards fill the tableau down the columns, the rest the stock.
    A twin keeps the order of its own cards."""
    if number < 1:
        raise ValueError("deal numbers start at 1")
    if number <= 32000:                  # on the deck ordered AC AD AH AS 2C ...
        deck = [r + s for r in RANKS for s in "CDHS"]
        x = number
        for n in range(51, 0, -1):
            x = (x * 214013 + 2531011) & 0x1FFFFFFFF
            j = ((x >> 16) & 0x7FFF) % (n + 1)
            deck[n], deck[j] = deck[j], deck[n]
    else:                                # on PySolFC's deck order C, S, H, D
        import random
        deck = [r + s for s in "CSHD" for r in RANKS]
        twister = random.Random(number)
        for n in range(51, 0, -1):
            j = int(twister.random() * (n + 1))
            deck[n], deck[j] = deck[j], deck[n]
    deck.reverse()                       # PySolFC deals from the end
    ours = [c[0] for c in deck if c[0] in RANKS[:variant["ranks"]] and c[1] in "CDHS"[:variant["suits"]]]
    size = variant["size"]
    cells = ["."] * (size * size)
    return fill((tuple(cells), tuple(ours), "start"), variant)


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the ``Phase:`` and ``Stock:`` lines (``Round:`` and ``Waste:`` name nothing the
    rules read) and one line a row: cards, ``x``, ``7H*``, ``.``; ``-`` an empty row."""
    size = variant["size"]
    phase, rows = "start", []
    stock: tuple[str, ...] = ()
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        label, colon, rest = line.partition(":")
        label = label.strip().lower()
        if colon and label == "phase":
            phase = rest.strip().lower()
        elif colon and label == "stock":
            stock = tuple(token[0].upper() for token in rest.split() if token != "-")
        elif colon and label in ("round", "waste"):
            continue
        elif line:
            tokens = [] if line == "-" else line.split()
            cells = [t if t in ".x" else t[0].upper() + ("*" if t.endswith("*") else "") for t in tokens]
            if len(cells) > size or any(c[0] not in RANKS + ".x" for c in cells):
                raise ValueError(f"cannot read the row {line!r}")
            rows.append(cells + ["."] * (size - len(cells)))
    if len(rows) != size or phase not in ("start", "1", "2"):
        raise ValueError(f"expected {size} rows and the phase start, 1 or 2")
    return tuple(c for row in rows for c in row), stock, phase


def encode(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    cells, stock, phase = pos
    if "rank-names" in reductions:
        names: dict[str, str] = {}
        for r in [c[0] for c in cells if c not in ".x"] + list(stock):
            if r not in names:
                names[r] = RANKS[len(names)]
        cells = tuple(c if c in ".x" else names[c[0]] + c[1:] for c in cells)
        stock = tuple(names[r] for r in stock)
    size = variant["size"]
    rows = [",".join(cells[i:i + size]) for i in range(0, size * size, size)]
    return f"{phase}|{'/'.join(rows)}|{''.join(stock)}"


def decode(line: str, variant: dict[str, Any]) -> Position:
    phase, rows, stock = line.split("|")
    cells = tuple(c for row in rows.split("/") for c in row.split(","))
    size = variant["size"]
    if phase not in ("start", "1", "2") or len(rows.split("/")) != size or len(cells) != size * size \
            or not all(c in (".", "x") or len(c) in (1, 2) and c[0] in RANKS and c[1:] in ("", "*") for c in cells) \
            or any(r not in RANKS for r in stock):
        raise ValueError("not phase|cells|stock")
    return cells, tuple(stock), phase


# -- the rules ------------------------------------------------------------------------------

def lines_of(variant: dict[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    """The columns' places top to bottom, and the two diagonals'."""
    n = variant["size"]
    columns = [[r * n + c for r in range(n)] for c in range(n)]
    diagonals = [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return columns, diagonals


def pairs(cells: tuple[str, ...], variant: dict[str, Any]) -> list[tuple[int, int]]:
    """Two cards of a rank, still there, in one column, or on a diagonal none of whose
    places is empty (a place cast out this turn held a card when the turn began)."""
    columns, diagonals = lines_of(variant)
    found = []
    for places in columns + [d for d in diagonals if all(cells[p] != "." for p in d)]:
        for i, a in enumerate(places):
            for b in places[i + 1:]:
                if is_card(cells[a]) and cells[a] == cells[b]:
                    found.append((min(a, b), max(a, b)))
    return found


def name(place: int, variant: dict[str, Any]) -> str:
    return f"{COLUMNS[place % variant['size']]}{place // variant['size'] + 1}"


def moves(pos: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every legal step (no reduction prunes any)."""
    cells, stock, phase = pos
    if is_won(pos, variant):
        return
    n = variant["size"]
    slid = any(c.endswith("*") for c in cells)
    under_way = slid or "x" in cells
    if not slid:                             # pairs, until a card has slid this turn
        for a, b in pairs(cells, variant):
            after = list(cells)
            after[a] = after[b] = "x"
            yield f"{name(a, variant)}+{name(b, variant)}", (tuple(after), stock, phase if phase != "start" else "1")
    if under_way:
        for h, cell in enumerate(cells):     # slides: the unmoved card above or below a hole
            if cell != "x":
                continue
            for source in (h - n, h + n):
                if 0 <= source < n * n and is_card(cells[source]):
                    after = list(cells)
                    after[h], after[source] = cells[source] + "*", "."
                    yield f"{name(source, variant)}-{name(h, variant)}", (tuple(after), stock, phase)
        yield "close", (closed(cells, n), stock, phase)
    elif not pairs(cells, variant):
        if phase == "1":                     # phase 2 begins: short rows turn left by one
            yield "rotate", (rotated(cells, n), stock, "2")
        elif phase == "2" and stock:         # the round ends, the next one fills the tableau
            yield "deal", fill((cells, stock, "start"), variant)


def closed(cells: tuple[str, ...], n: int) -> tuple[str, ...]:
    """Every row's cards (a slid card now a card like any) shifted left over its gaps."""
    out = []
    for r in range(n):
        row = [c[0] for c in cells[r * n:r * n + n] if c not in ".x"]
        out += row + ["."] * (n - len(row))
    return tuple(out)


def rotated(cells: tuple[str, ...], n: int) -> tuple[str, ...]:
    """Each row of more than one card and fewer than n turns its first card to its end
    (between turns a row's cards stand together at its left)."""
    out = []
    for r in range(n):
        row = [c for c in cells[r * n:r * n + n] if c != "."]
        if 1 < len(row) < n:
            row = row[1:] + row[:1]
        out += row + ["."] * (n - len(row))
    return tuple(out)


def fill(pos: Position, variant: dict[str, Any]) -> Position:
    """The empty places filled from the stock, column by column, each top to bottom."""
    cells, stock, phase = pos
    n = variant["size"]
    out, rest = list(cells), list(stock)
    for c in range(n):
        for r in range(n):
            if out[r * n + c] == "." and rest:
                out[r * n + c] = rest.pop(0)
    return tuple(out), tuple(rest), phase


def settle(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    if "only-move" in reductions:
        while True:
            found = list(moves(pos, variant, frozenset()))
            if len(found) != 1:
                return pos
            pos = found[0][1]
    return pos


def is_won(pos: Position, variant: dict[str, Any]) -> bool:
    cells, stock, _ = pos
    return not stock and all(c in ".x" for c in cells)
