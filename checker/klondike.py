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
rank home (C D H S), and the redeals made. A card is suit * 13 + rank - 1.

LINE: ``FFFF R W TALON COLUMN...``: the foundations' top ranks (``0`` none), the redeals,
the waste size (``*``: any size on the stock's cycle, see "waste-cycle"), the talon's cards
(``-`` none) and each column as face-down count ``/`` cards (``2/5D9S5C``, ``0/`` empty).

FACTS (a static proof of loss, ``check_facts``), one of:

- ``{"stuck": "KC QD ..."}``: these tableau cards never leave their places. Checked
  card by card: each one waits for another of them (``stuck_fault``).
- ``{"never": {"top": ..., "left": ..., "home": ..., "empty": bool}}``: the events of a
  relaxed Klondike, in which whatever becomes possible stays possible, that never
  happen; some card never goes home. Checked rule by rule: no event listed could be
  the first of them to happen (``_never_fault``).
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.deals import pysol_order

NAME = "klondike"
RANKS = "A23456789TJQK"
SUITS = "CDHS"

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

Position = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int,
                 tuple[int, int, int, int], int]


# -- cards ------------------------------------------------------------------------------

def rank(card: int) -> int:
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def red(card: int) -> bool:
    return suit(card) in (1, 2)


def fits(card: int, below: int) -> bool:
    """Whether `card` may lie on `below` in a column: one rank lower, other colour."""
    return rank(card) + 1 == rank(below) and red(card) != red(below)


def card_text(card: int) -> str:
    return RANKS[rank(card) - 1] + SUITS[suit(card)]


def read_card(token: str) -> int:
    token = token.strip().upper().replace("10", "T")
    if len(token) != 2 or token[0] not in RANKS or token[1] not in SUITS:
        raise ValueError(f"{token!r} is not a card")
    return SUITS.index(token[1]) * 13 + RANKS.index(token[0])


# -- the variant and the deals ----------------------------------------------------------

def _options(variant: dict[str, Any]) -> tuple[int, int | None, int, int]:
    return variant["draw"], variant["passes"], variant["ranks"], variant["columns"]


def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != {"draw", "passes", "ranks", "columns"}:
        return "the options must be draw, passes, ranks and columns"
    draw, passes, ranks, columns = _options(variant)
    if not all(isinstance(n, int) for n in (draw, ranks, columns)) or \
            not (passes is None or isinstance(passes, int) and passes >= 1):
        return "draw, ranks and columns must be numbers, passes a number or null"
    if not (1 <= draw <= 24 and 1 <= ranks <= 13 and 1 <= columns <= 9
            and columns * (columns + 1) // 2 <= 4 * ranks):
        return "draw must be 1..24, ranks 1..13, columns 1..9 (and the deck must fill them)"
    return ""


def deck(variant: dict[str, Any]) -> list[int]:
    return [s * 13 + r for s in range(4) for r in range(variant["ranks"])]


def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's deal `number` (``checker.deals``), or a twin's seeded deal."""
    _, _, ranks, width = _options(variant)
    if ranks == 13 and width == 7:
        cards = [SUITS.index(card[1]) * 13 + RANKS.index(card[0]) for card in pysol_order(number)]
        # PySolFC: rows of 6, 5, .., 1 face-down cards from the left, then a face-up row
        # of 7; then the columns are listed right to left; the rest is the stock.
        columns: list[list[int]] = [[] for _ in range(7)]
        at = 0
        for row in range(6, 0, -1):
            for i in range(row):
                columns[i].append(cards[at])
                at += 1
        for i in range(7):
            columns[i].append(cards[at])
            at += 1
        columns.reverse()
        return (tuple(map(tuple, columns)), tuple(range(7)), tuple(cards[at:]), 0,
                (0, 0, 0, 0), 0)
    if number < 1:
        raise ValueError("deal numbers start at 1")
    cards = deck(variant)
    random.Random(number).shuffle(cards)
    dealt, at = [], 0
    for i in range(width):
        dealt.append(tuple(cards[at:at + i + 1]))
        at += i + 1
    return tuple(dealt), tuple(range(width)), tuple(cards[at:]), 0, (0, 0, 0, 0), 0


def parse(text: str, variant: dict[str, Any]) -> Position:
    """The project's text (``solitaire show klondike``): optional ``Foundations:``,
    ``Talon:`` (or ``Stock:``), ``Waste:`` and ``Redeals:`` (or ``Passes: n/m``) lines, then
    one line per column, bottom first, face-down cards as ``<KS>``, ``-`` if empty."""
    foundations, stock, waste, redeals = [0, 0, 0, 0], [], [], 0
    columns: list[tuple[int, ...]] = []
    hidden: list[int] = []
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
        elif label in ("talon", "stock"):
            stock += [read_card(t) for t in rest.split()]
        elif label == "waste":
            waste += [read_card(t) for t in rest.split()]
        elif label == "redeals":
            redeals = int(rest)
        elif label == "passes":
            redeals = int(rest.split("/")[0]) - 1
        else:
            tokens = line.lstrip(":").split()
            if tokens == ["-"]:
                tokens = []
            down = sum(t.startswith("<") for t in tokens)
            if any(t.startswith("<") for t in tokens[down:]):
                raise ValueError(f"face-down cards lie above face-up ones: {line!r}")
            columns.append(tuple(read_card(t.strip("<>")) for t in tokens))
            hidden.append(down)
    if variant["passes"] is None:
        redeals = 0
    position = (tuple(columns), tuple(hidden), tuple(waste + stock), len(waste),
                (foundations[0], foundations[1], foundations[2], foundations[3]), redeals)
    _check(position, variant)
    return position


def _check(position: Position, variant: dict[str, Any]) -> None:
    """Raise ValueError unless the position holds the variant's deck once, in its columns."""
    columns, hidden, talon, waste, foundations, redeals = position
    home = [s * 13 + r for s in range(4) for r in range(foundations[s])]
    cards = [c for column in columns for c in column] + list(talon) + home
    if sorted(cards) != deck(variant):
        raise ValueError("the cards are not the deck, each once")
    if len(columns) != variant["columns"] or not 0 <= waste <= len(talon) or redeals < 0:
        raise ValueError("wrong number of columns, waste size or redeals")
    for column, down in zip(columns, hidden):
        if not 0 <= down <= max(len(column) - 1, 0):
            raise ValueError("a column's top card must be face up")


# -- LINE -------------------------------------------------------------------------------

def _cycle(talon: int, waste: int, variant: dict[str, Any]) -> bool:
    """Whether turning alone reaches `waste` again from it (unlimited passes)."""
    return variant["passes"] is None and (waste == talon or waste % variant["draw"] == 0)


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    columns, hidden, talon, waste, foundations, redeals = position
    found = "".join("0" if r == 0 else RANKS[r - 1] for r in foundations)
    merged = "waste-cycle" in reductions and "waste-plays" in reductions and \
        _cycle(len(talon), waste, variant)
    cols = [f"{down}/" + "".join(map(card_text, column)) for column, down in zip(columns, hidden)]
    if "columns-sorted" in reductions:
        cols.sort()
    return " ".join([found, str(redeals), "*" if merged else str(waste),
                     "".join(map(card_text, talon)) or "-", *cols])


def decode(line: str, variant: dict[str, Any]) -> Position:
    parts = line.split(" ")
    if len(parts) != 4 + variant["columns"] or len(parts[0]) != 4:
        raise ValueError("not FFFF R W TALON and one field a column")
    found, redeals, waste, talon_text, *cols = parts
    foundations = tuple(0 if c == "0" else RANKS.index(c) + 1 for c in found)
    talon = () if talon_text == "-" else _cards(talon_text)
    columns, hidden = [], []
    for col in cols:
        down, _, cards = col.partition("/")
        columns.append(_cards(cards))
        hidden.append(int(down))
    position = (tuple(columns), tuple(hidden), talon, 0 if waste == "*" else int(waste),
                (foundations[0], foundations[1], foundations[2], foundations[3]), int(redeals))
    _check(position, variant)
    return position


def _cards(text: str) -> tuple[int, ...]:
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a list of cards")
    return tuple(read_card(text[i:i + 2]) for i in range(0, len(text), 2))


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


def _put(columns: tuple[tuple[int, ...], ...], target: int,
         cards: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return columns[:target] + (columns[target] + cards,) + columns[target + 1:]


def _places(card: int, columns: tuple[tuple[int, ...], ...], ranks: int,
            source: int = -1) -> Iterator[int]:
    """The columns (not `source`) that take `card`: on a parent, or a King when empty."""
    for t, column in enumerate(columns):
        if t != source and (fits(card, column[-1]) if column else rank(card) == ranks):
            yield t


def _home(card: int, foundations: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The foundations with `card` home, or None where it does not go there yet."""
    s = suit(card)
    if foundations[s] + 1 != rank(card):
        return None
    raised = list(foundations)
    raised[s] += 1
    return raised[0], raised[1], raised[2], raised[3]


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every move the rules allow, less what the named pruning reductions leave out."""
    columns, hidden, talon, waste, foundations, redeals = position
    ranks = variant["ranks"]
    # the waste's top card (with "waste-plays": after the fewest turns to each waste size)
    if "waste-plays" in reductions:
        reach, seen, now, turns = [], {waste}, (waste, redeals), 0
        if waste:
            reach.append((0, waste, redeals))
        while (after := _turn(len(talon), *now, variant)) is not None and after[0] not in seen:
            turns += 1
            now = after
            seen.add(now[0])
            if now[0]:
                reach.append((turns, now[0], now[1]))
    else:
        reach = [(0, waste, redeals)] if waste else []
        after = _turn(len(talon), waste, redeals, variant)
        if after is not None:
            yield "s", (columns, hidden, talon, after[0], foundations, after[1])
    for turns, w, r in reach:
        card, rest = talon[w - 1], talon[:w - 1] + talon[w:]
        name = f"{turns}s,w" if turns else "w"
        raised = _home(card, foundations)
        if raised is not None:
            yield name + "f", (columns, hidden, rest, w - 1, raised, r)
        for t in _places(card, columns, ranks):
            yield f"{name}{t + 1}", (_put(columns, t, (card,)), hidden, rest, w - 1, foundations, r)
    # column cards: the top card home, a run onto another column
    for i, column in enumerate(columns):
        if not column:
            continue
        raised = _home(column[-1], foundations)
        if raised is not None:
            yield f"{i + 1}f", _take(position, i, 1, raised)
        for start in range(len(column) - 1, hidden[i] - 1, -1):
            if start < len(column) - 1 and not fits(column[start + 1], column[start]):
                break                                   # the cards above are no run
            if _pruned(position, i, start, variant, reductions):
                continue
            for t in _places(column[start], columns, ranks, i):
                run = column[start:]
                cols, hid, tal, w, found, r = _take(position, i, len(run), foundations)
                yield f"{i + 1}{t + 1}", (_put(cols, t, run), hid, tal, w, found, r)
    # a foundation's top card back to a column
    for s in range(4):
        if foundations[s]:
            card = s * 13 + foundations[s] - 1
            lowered = list(foundations)
            lowered[s] -= 1
            for t in _places(card, columns, ranks):
                yield f"f{SUITS[s].lower()}{t + 1}", (_put(columns, t, (card,)), hidden, talon,
                                                    waste, (lowered[0], lowered[1], lowered[2],
                                                            lowered[3]), redeals)


def _take(position: Position, i: int, count: int,
          foundations: tuple[int, int, int, int]) -> Position:
    """The position with `count` cards off column i's top (the card under them turned up)."""
    columns, hidden, talon, waste, _, redeals = position
    left = columns[i][:-count]
    down = min(hidden[i], max(len(left) - 1, 0))
    return (columns[:i] + (left,) + columns[i + 1:], hidden[:i] + (down,) + hidden[i + 1:],
            talon, waste, foundations, redeals)


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
        if any(not column for column in columns):
            return True
        king_waits = any(r == ranks for r in foundations) or \
            any(rank(c) == ranks for c in talon) or \
            any(rank(c) == ranks for col, down in zip(columns, hidden) for c in col[max(down, 1):])
        return not king_waits
    return False


# -- automatic moves --------------------------------------------------------------------

def _safe(card: int, foundations: tuple[int, int, int, int]) -> bool:
    """Whether `card` goes home now and no win needs it out ("safe-home")."""
    r, s = rank(card), suit(card)
    if foundations[s] + 1 != r:
        return False
    other = [f for t, f in enumerate(foundations) if (t in (1, 2)) != (s in (1, 2))]
    same = foundations[3 - s]                         # C<->S, D<->H: the colour's other suit
    if r <= 2:
        return True
    if r == 3:
        return min(other) >= 2
    return min(other) >= r - 1 and same >= r - 2


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
    send safe cards home until none is left (the order does not matter: a card once
    safe stays safe until it goes)."""
    if "safe-home" not in reductions:
        return position
    free_talon = variant["draw"] == 1 and variant["passes"] is None
    if _clear(position, free_talon):
        ranks = variant["ranks"]
        return (tuple(() for _ in position[0]), tuple(0 for _ in position[0]), (), 0,
                (ranks, ranks, ranks, ranks), position[5])
    while True:
        columns, _, talon, waste, foundations, redeals = position
        for i, column in enumerate(columns):
            if column and _safe(column[-1], foundations):
                position = _take(position, i, 1, _home(column[-1], foundations))  # type: ignore[arg-type]
                break
        else:
            for j, card in enumerate(talon if free_talon else ()):
                if _safe(card, foundations):
                    # turned to (the waste then holds the talon up to it) and played
                    position = (columns, position[1], talon[:j] + talon[j + 1:], j,
                                _home(card, foundations), redeals)  # type: ignore[assignment]
                    break
            else:
                return position


# -- static proofs ----------------------------------------------------------------------

def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """"" if the facts prove the position lost (see the module's docstring), else why not."""
    try:
        if isinstance(facts, dict) and set(facts) == {"stuck"}:
            return stuck_fault(position[0], position[1], variant["ranks"],
                               {read_card(t) for t in facts["stuck"].split()})
        if isinstance(facts, dict) and set(facts) == {"never"}:
            never = facts["never"]
            sets = [{read_card(t) for t in never[k].split()} for k in ("top", "left", "home")]
            return _never_fault(position, variant, sets[0], sets[1], sets[2], never["empty"] is True)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        return f"unreadable facts ({error})"
    return "the facts are neither stuck cards nor never-events"


def _parents(card: int, ranks: int) -> list[int]:
    """The cards `card` may lie on: one rank higher, the other colour (none for a King)."""
    if rank(card) == ranks:
        return []
    return [s * 13 + rank(card) for s in range(4) if (s in (1, 2)) != red(card)]


def _lay_out(columns: tuple[tuple[int, ...], ...],
             hidden: tuple[int, ...]) -> tuple[dict[int, int | None], set[int]]:
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


def stuck_fault(columns: tuple[tuple[int, ...], ...], hidden: tuple[int, ...], ranks: int,
                stuck: set[int], any_to_empty: bool = False) -> str:
    """Cards that never leave their places: each card of `stuck` is in a column and
    waits for another card of `stuck` in every way it could leave. A card leaves

    - home, as a top card, after the lower cards of its suit;
    - onto a parent that is a top card, or as a King (any card, with `any_to_empty`) to
      an empty column, face up (a face-down card turns up only as a top card).

    (Klondike and Yukon alike: a face-up card moves with the cards lying on it.)

    A card can become a top card only when the card lying on it leaves, and a parent in
    a column only when the card lying on it does. So if each card of `stuck` (i) is
    covered by a card of `stuck`, or has a lower card of its suit in `stuck`; and (ii)
    is covered by a card of `stuck` and face down, or is no King (nor `any_to_empty`)
    and each of its parents
    is in a column covered by a card of `stuck`; then the first card of `stuck` to
    leave would need another to have left before it: none ever does, and the position
    is lost (empty `stuck` proves nothing).
    """
    on, face_up = _lay_out(columns, hidden)
    if not stuck:
        return "no stuck cards named"
    for card in sorted(stuck):
        name = card_text(card)
        if card not in on:
            return f"{name} is not in a column"
        covered = on[card] in stuck
        if not covered and not any(c in stuck for c in range(card - rank(card) + 1, card)):
            return f"{name} can become a top card and go home"
        if covered and card not in face_up:
            continue
        if rank(card) == ranks or any_to_empty:
            return f"{name} can turn up and go to an empty column"
        for parent in _parents(card, ranks):
            if parent not in on or on[parent] not in stuck:
                return f"{name} can turn up and go onto {card_text(parent)}"
    return ""


def _never_fault(position: Position, variant: dict[str, Any], never_top: set[int],
                 never_left: set[int], never_home: set[int], never_empty: bool) -> str:
    """A relaxed Klondike, in which an event once possible stays possible. Its events:
    top(c), c lies on a column's top; left(c), a column card leaves its place; home(c);
    and empty, some column is empty. Every line of play makes only events that these
    rules allow, each needing the events named to have happened before (a card moves
    only with what lies on it; from the stock, the waste or a foundation a card goes
    onto a parent on top or, a King, to an empty column; a face-down card turns up only
    as a top card):

    1. top(c): c is a top card now, or the card on it has left; off the tableau (stock,
       waste, foundation), c was put on a column: a parent of it was top, or it is a
       King and a column was empty;
    2. empty: a column is empty now, or a column's bottom card has left;
    3. left(c): c is face up now or was top, and a parent of it was top or it is a King
       and a column was empty; or c went home;
    4. home(c): c is home now, or the card below it in its suit went home and c is off
       the tableau or was top.

    The facts list events that never happen. If each one listed is one whose every way
    needs another one listed, then none can be the first to happen, so none happens; a
    card that never goes home proves the position lost.
    """
    columns, hidden, _, _, foundations, _ = position
    on, face_up = _lay_out(columns, hidden)
    ranks = variant["ranks"]
    cards = deck(variant)
    if not never_home:
        return "no card named that never goes home"

    def ever_top(c: int) -> bool:
        return c not in never_top

    def placed(c: int) -> bool:            # a parent top, or a King and an empty column
        return any(ever_top(p) for p in _parents(c, ranks)) or rank(c) == ranks and not never_empty

    if never_empty and (any(not column for column in columns) or
                        any(column[0] not in never_left for column in columns if column)):
        return "a column can be empty"
    for c in cards:
        name = card_text(c)
        if c in on:
            if c in never_top and (on[c] is None or on[c] not in never_left):
                return f"{name} can become a top card"
            if c in never_left and ((c in face_up or ever_top(c)) and placed(c) or c not in never_home):
                return f"{name} can leave its place"
        elif c in never_top and placed(c):
            return f"{name} can be put on a column"
        if c in never_home:
            if rank(c) <= foundations[suit(c)]:
                return f"{name} is home"
            if (rank(c) == 1 or c - 1 not in never_home) and (c not in on or ever_top(c)):
                return f"{name} can go home"
    return ""
