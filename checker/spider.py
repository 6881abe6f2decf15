"""The checker's rules of Spider (4, 2 or 1 suits), written from the rule text.

The rule text (the game's docstring, ``games/spider.py``): two decks; 10 columns of 54
cards (six in four columns, five in the others), only the top card of each face up; the
other 50 cards are the stock. A card or a run goes on a card one rank higher, whatever its
suit, or into an empty column; only a same-suit descending run moves as a unit (any top
part of such a run may move). A face-down card is turned face up as soon as it is
exposed. The stock deals one card face up to every column, column 1 first, and only when
no column is empty. A complete same-suit run K..A (all face up, at the top of a column)
leaves the tableau at once, as part of the move or deal that completes it. The game is
won when all 104 cards have left.

Rulings the text leaves open, as the game states them: numbered deals are PySolFC's (the
six-card columns are 1, 4, 7 and 10); with 2 suits black cards are clubs and red cards
hearts, with 1 suit every card is a club; a deal may complete runs in several columns at
once, and each leaves. Small twins (tests) shorten the runs (``ranks``: A..ranks is
complete) and have fewer ``columns``, ``decks`` and stock ``deals``.

A position here is a tuple ``(columns, hidden, stock, removed)``: each column's cards,
bottom first; how many bottom cards of each column are face down; the stock in dealing
order (the next deal gives its first card to column 1, the next to column 2...); the suit
letter of each removed run, sorted. A card is its text, rank then suit: ``AS``, ``TD``.

LINE: ``REMOVED|FUTURE:HIDDEN:CARDS|...``, one chunk per column: the stock cards it will be
dealt (``stock[i::columns]``), its face-down count and its cards, written one after
another (``KS5H``). Under ``column-order`` the chunks are written sorted.

Notation (the game's): ``3>7`` moves column 3's top card onto column 7, ``3>7*3`` its top
three cards, ``d`` deals the stock.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import RANKS, rank_of, run_of, token
from checker.deals import pysol_order

NAME = "spider"
SUIT_LETTERS = {4: "CDHS", 2: "CH", 1: "C"}

REDUCTIONS = {
    "column-order": "a column with its face-down cards and the stock cards it will be dealt "
                    "is what it will ever hold, and no other rule names a column, so "
                    "permuting columns together with their stock cards maps every game onto "
                    "a game: those positions are one, their chunks written sorted",
}

Position = tuple[tuple[tuple[str, ...], ...], tuple[int, ...], tuple[str, ...], tuple[str, ...]]


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" for the options this module knows: the game's own and its small twins."""
    if set(variant) != {"suits", "ranks", "columns", "decks", "deals"}:
        return "the options must be suits, ranks, columns, decks and deals"
    if variant["suits"] not in SUIT_LETTERS:
        return "suits must be 4, 2 or 1"
    limits = {"ranks": (2, 13), "columns": (1, 10), "decks": (1, 2), "deals": (0, 104)}
    for name, (low, high) in limits.items():
        value = variant[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return f"{name} must be {low}..{high}"
    if (variant["deals"] + 1) * variant["columns"] > len(full_deck(variant)):
        return "the stock deals take more cards than the decks hold"
    return ""


def full_deck(variant: dict[str, Any]) -> list[str]:
    """Return every card of the variant, each copy listed (8 suit runs in all, two decks)."""
    letters: str = SUIT_LETTERS[variant["suits"]]
    copies: int = variant["decks"] * 4 // variant["suits"]
    return [r + s for s in letters for r in RANKS[:variant["ranks"]]] * copies


# -- deals --------------------------------------------------------------------------


def deal(number: int, variant: dict[str, Any]) -> Position:
    """Return numbered deal `number`: PySolFC's for the real game, a seeded shuffle for twins.

    PySolFC deals four rows of ten face down, one more face-down card to columns 1, 4, 7
    and 10, then a face-up row; the 50 cards left are the stock, in that order. With 2
    suits the cards are recoloured (spades to clubs, diamonds to hearts), with 1 suit every
    card is a club: the same shuffle. A twin deals its shuffled deck in rows over its
    columns, the last row face up, and keeps ``deals * columns`` cards for the stock.
    """
    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    width = variant["columns"]
    if (variant["ranks"], width, variant["decks"], variant["deals"]) == (13, 10, 2, 5):
        recolour = {4: "CDHS", 2: "CHHC", 1: "CCCC"}[variant["suits"]]
        order = [card[0] + recolour["CDHS".index(card[1])] for card in pysol_order(number, decks=2)]
        down = list(range(10)) * 4 + [0, 3, 6, 9]
    else:
        order = full_deck(variant)
        random.Random(number).shuffle(order)
        down = [j % width for j in range(len(order) - variant["deals"] * width - width)]
    columns: list[list[str]] = [[] for _ in range(width)]
    for place, column in enumerate(down):
        columns[column].append(order[place])
    hidden = tuple(len(column) for column in columns)
    for column in range(width):                         # the face-up row
        columns[column].append(order[len(down) + column])
    return tuple(map(tuple, columns)), hidden, tuple(order[len(down) + width:]), ()


def card_of(text: str, variant: dict[str, Any]) -> str:
    """Return the card a token names (``AS``, ``10d``) in the variant's ranks and suits,
    or raise ValueError."""
    return token(text, RANKS[:variant["ranks"]], SUIT_LETTERS[variant["suits"]])


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the project's text of a position: an optional ``Stock:`` (or ``Talon:``) line in
    dealing order, an optional ``Foundations:`` line naming the top of each removed run
    (``KS``, or ``S-K``), then one line per column, bottom card first, face-down cards written
    ``<KS>``, an empty column ``-``. Blank lines and ``#`` comments say nothing."""
    columns: list[tuple[str, ...]] = []
    hidden: list[int] = []
    stock: list[str] = []
    removed: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        label, colon, rest = line.partition(":")
        label = label.strip().lower()
        if colon and label in ("stock", "talon"):
            stock += [card_of(token, variant) for token in rest.split()]
        elif colon and label in ("foundations", "foundation"):
            for token in rest.upper().replace("10", "T").split():     # KS, or S-K
                top, suit = (token[0], token[1]) if len(token) == 2 and token[1] in "CDHS" \
                    else (token[1:].lstrip("-"), token[0])
                if suit not in SUIT_LETTERS[variant["suits"]] or top != RANKS[variant["ranks"] - 1]:
                    raise ValueError(f"{token!r} is not a complete run of this game")
                removed.append(suit)
        elif colon and label:
            raise ValueError(f"unknown line label {label!r}")
        else:
            tokens = line.lstrip(":").split()
            if tokens == ["-"]:
                tokens = []
            down = sum(token.startswith("<") and token.endswith(">") for token in tokens)
            if any(token.startswith("<") for token in tokens[down:]) or tokens and down == len(tokens):
                raise ValueError(f"column {len(columns) + 1}: face-down cards must lie under "
                                 "the face-up ones, its top face up")
            columns.append(tuple(card_of(token.strip("<>"), variant) for token in tokens))
            hidden.append(down)
    if len(columns) != variant["columns"] or len(stock) % variant["columns"]:
        raise ValueError(f"{len(columns)} columns and {len(stock)} stock cards: not "
                         f"{variant['columns']} columns and whole rows")
    position = (tuple(columns), tuple(hidden), tuple(stock), tuple(sorted(removed)))
    cards = [card for column in columns for card in column] + stock + \
        [r + s for s in removed for r in RANKS[:variant["ranks"]]]
    if sorted(cards) != sorted(full_deck(variant)):
        raise ValueError("the cards are not the variant's decks, each card once a copy")
    return position


# -- the one-line encoding ----------------------------------------------------------


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """Return LINE (module docstring); the chunks sorted under ``column-order``."""
    columns, hidden, stock, removed = position
    width = len(columns)
    chunks = [f"{''.join(stock[i::width])}:{hidden[i]}:{''.join(columns[i])}"
              for i in range(width)]
    if "column-order" in reductions:
        chunks.sort()
    return "|".join(["".join(removed), *chunks])


def decode(line: str, variant: dict[str, Any]) -> Position:
    """Return the position LINE writes; raise ValueError on text that is not one."""
    removed, *chunks = line.split("|")
    if len(chunks) != variant["columns"] or \
            any(s not in SUIT_LETTERS[variant["suits"]] for s in removed):
        raise ValueError(f"not REMOVED and {variant['columns']} chunks")
    futures, hidden, columns = [], [], []
    for chunk in chunks:
        parts = chunk.split(":")
        if len(parts) != 3 or not parts[1].isdigit() or len(parts[0]) % 2 or len(parts[2]) % 2:
            raise ValueError(f"{chunk!r} is not FUTURE:HIDDEN:CARDS")
        futures.append([card_of(card, variant) for card in run_of(parts[0])])
        columns.append(tuple(card_of(card, variant) for card in run_of(parts[2])))
        hidden.append(int(parts[1]))
        if hidden[-1] >= max(len(columns[-1]), 1):
            raise ValueError(f"{chunk!r}: a column's top card is face up")
    if len({len(future) for future in futures}) > 1:
        raise ValueError("the columns' stock cards are not whole rows")
    stock = tuple(future[row] for row in range(len(futures[0])) for future in futures)
    return tuple(columns), tuple(hidden), stock, tuple(removed)


# -- the rules ----------------------------------------------------------------------


def top_run(column: tuple[str, ...], hidden: int) -> int:
    """Return how many top cards of a column form a face-up same-suit descending run."""
    count = 1 if len(column) > hidden else 0
    while count and len(column) - count > hidden:
        below, above = column[-count - 1], column[-count]
        if below[1] != above[1] or rank_of(below) != rank_of(above) + 1:
            break
        count += 1
    return count


def turned_and_cleared(column: tuple[str, ...], down: int, removed: tuple[str, ...],
                       variant: dict[str, Any]) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """Return a column, its face-down count and the removed runs once a complete run on top
    has left ("a complete same-suit run K..A, all face up, at the top of a column, leaves
    at once") and the card exposed is turned face up ("as soon as it is exposed")."""
    ranks = variant["ranks"]
    if len(column) - down >= ranks and top_run(column, down) >= ranks and rank_of(column[-1]) == 1:
        removed = tuple(sorted(removed + (column[-1][1],)))
        column = column[:-ranks]
    if down >= len(column):
        down = max(len(column) - 1, 0)
    return column, down, removed


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Yield every legal move (notation, position after it). No reduction leaves one out."""
    columns, hidden, stock, removed = position
    width = len(columns)
    for source in range(width):
        for count in range(1, top_run(columns[source], hidden[source]) + 1):
            run = columns[source][-count:]
            for target in range(width):
                onto = columns[target]
                if target == source or onto and rank_of(onto[-1]) != rank_of(run[0]) + 1:
                    continue          # "on a card one rank higher ... or into an empty column"
                left, left_down, _ = turned_and_cleared(columns[source][:-count],
                                                        hidden[source], removed, variant)
                built, built_down, after = turned_and_cleared(onto + run, hidden[target],
                                                              removed, variant)
                new_columns, new_hidden = list(columns), list(hidden)
                new_columns[source], new_hidden[source] = left, left_down
                new_columns[target], new_hidden[target] = built, built_down
                name = f"{source + 1}>{target + 1}" + (f"*{count}" if count > 1 else "")
                yield name, (tuple(new_columns), tuple(new_hidden), stock, after)
    if stock and all(columns):        # "only when no column is empty": one card to each
        new_columns, new_hidden = [], []
        for i in range(width):
            column, down, removed = turned_and_cleared(columns[i] + (stock[i],), hidden[i],
                                                       removed, variant)
            new_columns.append(column)
            new_hidden.append(down)
        yield "d", (tuple(new_columns), tuple(new_hidden), stock[width:], removed)


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """No automatic moves: a run's leaving is part of the move that completes it."""
    return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card has left: the stock is empty and so is every column."""
    return not position[2] and not any(position[0])
