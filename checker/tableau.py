"""What Klondike and Yukon share: columns of face-down cards under face-up ones, built down
in alternating colours, with foundations built up by suit; their text, their LINE fields,
the deck check, safe cards sent home, and one static proof of loss, the relaxed game's
events that never happen (``never_fault``), which also checks cards said never to leave
their columns (``stuck_events``).

A column is its numbered cards (``checker.cards``) bottom first and how many at its bottom
are face down; the foundations are each suit's top rank home (C D H S, 0 none).
"""
from __future__ import annotations

from typing import Any, Callable

from checker.cards import RANKS, SUITS, card_text, deck, rank, read_card, red, suit

Columns = tuple[tuple[int, ...], ...]


def fits(card: int, below: int) -> bool:
    """Whether `card` may lie on `below` in a column: one rank lower, other colour."""
    return rank(card) + 1 == rank(below) and red(card) != red(below)


def parents(card: int, ranks: int) -> list[int]:
    """The cards `card` may lie on: one rank higher, the other colour (none for a King)."""
    if rank(card) == ranks:
        return []
    return [s * 13 + rank(card) for s in range(4) if (s in (1, 2)) != red(card)]


# -- text and LINE ----------------------------------------------------------------------

def read_text(text: str, labels: tuple[str, ...]) -> tuple[list[int], list[tuple[str, str]],
                                                            Columns, tuple[int, ...]]:
    """Read the project's text (``solitaire show``): an optional ``Foundations:`` line
    (``C-5`` or ``5C`` a suit's top, ``C-0`` none), lines labelled one of `labels` (returned
    as (label, the rest), in order), and one line per column, bottom first, face-down cards
    as ``<KS>``, ``-`` if empty. Returns the foundations, the labelled lines, the columns
    and each one's face-down count."""
    foundations, labelled, columns, hidden = [0, 0, 0, 0], [], [], []
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        label, _, rest = line.partition(":")
        label = label.strip().lower()
        if not line:
            continue
        if label == "foundations":
            for token in rest.split():
                if "-" in token:
                    s, r = token.split("-")
                    foundations[SUITS.index(s.upper())] = 0 if r == "0" else RANKS.index(r.upper()) + 1
                else:
                    card = read_card(token)
                    foundations[suit(card)] = rank(card)
        elif label in labels:
            labelled.append((label, rest))
        else:
            tokens = line.lstrip(":").split()
            if tokens == ["-"]:
                tokens = []
            down = sum(t.startswith("<") for t in tokens)
            if any(t.startswith("<") for t in tokens[down:]):
                raise ValueError(f"face-down cards lie above face-up ones: {line!r}")
            columns.append(tuple(read_card(t.strip("<>")) for t in tokens))
            hidden.append(down)
    return foundations, labelled, tuple(columns), tuple(hidden)


def line_fields(foundations: tuple[int, ...], columns: Columns, hidden: tuple[int, ...],
                sort: bool) -> tuple[str, list[str]]:
    """The LINE fields ``FFFF`` (each suit's top rank, ``0`` none) and one a column, its
    face-down count ``/`` its cards (``2/5D9S5C``, ``0/`` empty), sorted if `sort`."""
    cols = [f"{down}/" + "".join(map(card_text, column)) for column, down in zip(columns, hidden)]
    return "".join("0" if r == 0 else RANKS[r - 1] for r in foundations), \
        sorted(cols) if sort else cols


def read_fields(found: str, cols: list[str]) -> tuple[tuple[int, ...], Columns, tuple[int, ...]]:
    """The foundations, columns and face-down counts of the LINE fields (``line_fields``)."""
    if len(found) != 4:
        raise ValueError("the foundations are not four ranks")
    columns, hidden = [], []
    for col in cols:
        down, _, cards = col.partition("/")
        if len(cards) % 2:
            raise ValueError(f"{cards!r} is not a list of cards")
        columns.append(tuple(read_card(cards[i:i + 2]) for i in range(0, len(cards), 2)))
        hidden.append(int(down))
    return tuple(0 if c == "0" else RANKS.index(c) + 1 for c in found), tuple(columns), \
        tuple(hidden)


def check_cards(columns: Columns, hidden: tuple[int, ...], foundations: tuple[int, ...],
                others: tuple[int, ...], variant: dict[str, Any]) -> None:
    """Raise ValueError unless the columns, `others` and the cards home hold the variant's
    deck once, in its number of columns, each column's top card face up."""
    home = [s * 13 + r for s in range(4) for r in range(foundations[s])]
    if sorted([c for column in columns for c in column] + list(others) + home) != \
            deck(variant["ranks"]):
        raise ValueError("the cards are not the deck, each once")
    if len(columns) != variant["columns"] or len(hidden) != len(columns):
        raise ValueError("wrong number of columns")
    for column, down in zip(columns, hidden):
        if not 0 <= down <= max(len(column) - 1, 0):
            raise ValueError("a column's top card must be face up")


# -- moves ------------------------------------------------------------------------------

def raised(foundations: tuple[int, ...], s: int, by: int = 1) -> tuple[int, ...]:
    """The foundations with suit `s` raised `by` (lowered, by -1)."""
    return foundations[:s] + (foundations[s] + by,) + foundations[s + 1:]


def tops_home(columns: Columns, hidden: tuple[int, ...], foundations: tuple[int, ...],
              safe: Callable[[int, tuple[int, ...]], bool]) -> tuple[Columns, tuple[int, ...],
                                                                     tuple[int, ...]]:
    """Send `safe` column top cards home, the first column's first, until none is left
    (the card under each turned up)."""
    while True:
        for i, column in enumerate(columns):
            if column and safe(column[-1], foundations):
                break
        else:
            return columns, hidden, foundations
        foundations = raised(foundations, suit(column[-1]))
        columns = columns[:i] + (column[:-1],) + columns[i + 1:]
        hidden = hidden[:i] + (min(hidden[i], max(len(column) - 2, 0)),) + hidden[i + 1:]


# -- static proofs of loss: the relaxed game's events that never happen ------------------

def facts_fault(columns: Columns, hidden: tuple[int, ...], foundations: tuple[int, ...],
                ranks: int, facts: Any, any_to_empty: bool = False) -> str:
    """"" if `facts` prove the position lost, else why not. FACTS, one of:

    - ``{"never": {"top": CARDS, "left": CARDS, "home": CARDS, "empty": bool}}``: the
      events of the relaxed game that never happen (``never_fault``);
    - ``{"stuck": CARDS}``: these column cards never leave their places (``stuck_events``
      makes them never-events).
    """
    on, face_up = lay_out(columns, hidden)
    try:
        if isinstance(facts, dict) and set(facts) == {"stuck"}:
            stuck = {read_card(t) for t in facts["stuck"].split()}
            if stuck - set(on):
                return f"{card_text(min(stuck - set(on)))} is not in a column"
            top, home = stuck_events(on, stuck, ranks)
            return never_fault(columns, on, face_up, foundations, ranks, any_to_empty, top,
                               stuck, home, False)
        if isinstance(facts, dict) and set(facts) == {"never"}:
            never = facts["never"]
            top, left, home = ({read_card(t) for t in never[k].split()}
                               for k in ("top", "left", "home"))
            return never_fault(columns, on, face_up, foundations, ranks, any_to_empty, top, left,
                               home, never["empty"] is True)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        return f"unreadable facts ({error})"
    return "the facts are neither stuck cards nor never-events"


def lay_out(columns: Columns, hidden: tuple[int, ...]) -> tuple[dict[int, int | None], set[int]]:
    """For each column card, the card lying on it (None for a top card); and the face-up
    column cards."""
    on: dict[int, int | None] = {}
    face_up: set[int] = set()
    for column, down in zip(columns, hidden):
        for j, card in enumerate(column):
            on[card] = column[j + 1] if j + 1 < len(column) else None
            if j >= down:
                face_up.add(card)
    return on, face_up


def never_fault(columns: Columns, on: dict[int, int | None], face_up: set[int],
                foundations: tuple[int, ...], ranks: int, any_to_empty: bool, never_top: set[int],
                never_left: set[int], never_home: set[int], never_empty: bool) -> str:
    """A relaxed game, in which an event once possible stays possible. Its events:
    top(c), c lies on a column's top; left(c), a column card leaves its place; home(c);
    and empty, some column is empty. Every line of play (Klondike's and Yukon's alike)
    makes only events that these rules allow, each needing the events named to have
    happened before (a face-up card moves only with what lies on it; from the stock, the
    waste or a foundation a card goes onto a parent on top or, a King (any card, with
    `any_to_empty`), to an empty column; a face-down card turns up only as a top card):

    1. top(c): c is a top card now, or the card on it has left; off the tableau (stock,
       waste, foundation), c was put on a column: a parent of it was top, or it is a
       King (any card) and a column was empty;
    2. empty: a column is empty now, or a column's bottom card has left;
    3. left(c): c is face up now or was top, and a parent of it was top or it is a King
       (any card) and a column was empty; or c went home;
    4. home(c): c is home now, or the card below it in its suit went home and c is off
       the tableau or was top.

    The facts list events that never happen. If each one listed is one whose every way
    needs another one listed, then none can be the first to happen, so none happens; a
    card that never goes home proves the position lost. (`on` and `face_up` are the
    columns' ``lay_out``.)
    """
    if not never_home:
        return "no card named that never goes home"

    def ever_top(c: int) -> bool:
        return c not in never_top

    def placed(c: int) -> bool:            # a parent top, or a King and an empty column
        return any(ever_top(p) for p in parents(c, ranks)) or \
            (rank(c) == ranks or any_to_empty) and not never_empty

    if never_empty and (any(not column for column in columns) or
                        any(column[0] not in never_left for column in columns if column)):
        return "a column can be empty"
    for c in deck(ranks):
        if c in on:
            if c in never_top and (on[c] is None or on[c] not in never_left):
                return f"{card_text(c)} can become a top card"
            if c in never_left and ((c in face_up or ever_top(c)) and placed(c) or c not in never_home):
                return f"{card_text(c)} can leave its place"
        elif c in never_top and placed(c):
            return f"{card_text(c)} can be put on a column"
        if c in never_home:
            if rank(c) <= foundations[suit(c)]:
                return f"{card_text(c)} is home"
            if (rank(c) == 1 or c - 1 not in never_home) and (c not in on or ever_top(c)):
                return f"{card_text(c)} can go home"
    return ""


def stuck_events(on: dict[int, int | None], stuck: set[int],
                 ranks: int) -> tuple[set[int], set[int]]:
    """Column cards `stuck`, said never to leave their places (left), as the never-events
    that claim makes: the cards they lie on never become top cards (top), and no card of a
    suit from its lowest stuck card up goes home (home: that card would leave first).
    ``never_fault`` checks them as it checks any never-events: the proof is its own."""
    lowest = [min([rank(c) for c in stuck if suit(c) == s], default=ranks + 1) for s in range(4)]
    return {c for c in on if on[c] in stuck}, {c for c in deck(ranks) if rank(c) >= lowest[suit(c)]}
