"""The text of a position: the pieces every game's format shares, read and written.

A position's text is lines. A labelled line starts with a word, a colon and a space
(``Foundations: H-A C-0``, ``Stock: 4H AC``, ``Freecells: 8D -``); any other line is a
pile, bottom card first, maybe after a ``:`` (Freecell Solver's style), with ``-`` or
nothing for an empty pile and, in games with face-down cards, those written ``<KS>``.
Blank lines and ``#`` comments say nothing, and a BOM or colour escapes are ignored.
This is the format of ``solver.cards.pysol_layout`` too, so a numbered deal from
PySolFC's layout goes through the same reader.

``DealReader`` reads these pieces into cards and records every problem on the way, so
that a game's ``parse`` says only what is particular to its layout: which labels it
reads, how many piles, and its own rules. ``labelled`` and ``pile_text`` write them.

>>> read = DealReader("twin", [0, 1, 13, 14], face_down=True)
>>> [(label, rest) for _, label, rest in read.labelled_lines("Stock: 2D\\n<AD> 2C\\n-", ["Stock"])]
[('Stock', '2D'), ('', '<AD> 2C'), ('', '-')]
>>> read.cards_in("2D", 1), read.pile("<AD> 2C", 2), read.pile("-", 3)
([14], ([13, 1], 1), ([], 0))
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from solver.cards import (SUIT_NAMES, Card, card_str, face_down_token, foundation_str, make_card,
                          parse_card, parse_foundation, plain_text, rank, suit)
from solver.game import DealChecker, DealProblem, quote

_LABEL = re.compile(r"([A-Za-z0-9]+)\s*:(?!\S)\s*")
EMPTY_PILE = "-"                       # how a pile line says that the pile is empty


def read_number(text: str, max_digits: int = 18) -> int | None:
    """Return the whole number `text` writes in ASCII digits, or None if it writes none.

    Deal texts and move lists write numbers in ASCII digits only. ``str.isdigit`` also
    accepts superscripts and other scripts' digits, some of which ``int`` refuses, so every
    parser reads its numbers here: no sign, no ``_``, no spaces, at most `max_digits` digits
    (a bound, so that no number a parser accepts can overflow a packed key).

    >>> read_number("12"), read_number("007"), read_number("²"), read_number("٣")
    (12, 7, None, None)
    >>> read_number("1_000"), read_number("-3"), read_number(" 7"), read_number("9" * 19)
    (None, None, None, None)
    """
    if not 0 < len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def number_in(text: str, low: int, high: int) -> int | None:
    """Return the number `text` writes (``read_number``) if it lies in low..high, else None.

    Most numbers a text or a move writes have a range (a row, a count of redeals); a
    parser names that range in its message when this answers None.

    >>> number_in("3", 1, 4), number_in("5", 1, 4), number_in("03", 1, 4), number_in("³", 1, 4)
    (3, None, 3, None)
    >>> number_in("1" + "0" * 20, 1, 10 ** 20), number_in("1" + "0" * 21, 1, 10 ** 20)
    (100000000000000000000, None)
    """
    found = read_number(text, max(18, len(str(high))))
    return found if found is not None and low <= found <= high else None


def split_label(line: str) -> tuple[str, str]:
    """Return (label, rest) of a labelled line, or ("", the pile) of a pile line.

    A label is a word of letters or digits and a colon at the start of the line, then a
    space or the end of the line (``root:x:0`` is no label), kept as written; a pile
    line's leading ``:`` is dropped.

    >>> split_label("Foundations: H-A C-0"), split_label(": 7H TS"), split_label("<7H> TS")
    (('Foundations', 'H-A C-0'), ('', '7H TS'), ('', '<7H> TS'))
    >>> split_label("K: AD 5C"), split_label(":"), split_label("Waste:"), split_label("a:b c")
    (('K', 'AD 5C'), ('', ''), ('Waste', ''), ('', 'a:b c'))
    """
    found = _LABEL.match(line)
    if found:
        return found.group(1), line[found.end():].strip()
    return "", line.lstrip(":").strip()


class DealReader(DealChecker):
    """A DealChecker that reads a deal's lines, cards, piles and foundations.

    `deck` is the game's cards (each once) and `copies` how many of each a deal holds;
    a card outside the deck is unreadable. Every card read, and every card a foundation
    holds, is counted for ``check_cards``. Options where games differ:

    - `face_down`: the game writes face-down cards ``<KS>``; a ``<`` or ``>`` left
      unbalanced makes a token unreadable, and without this option any marker does.
    - `pile`: what the game calls a pile line, for messages ("column", "pile").
    - `repeat_lines`: a duplicate card's problem names the line of its surplus copy.
    - `name_misplaced`: a face-down card above a face-up one is kept in ``cards``.

    >>> read = DealReader("twin", [0, 1, 13, 14])
    >>> read.cards_in("AC XX 2S", 1), read.foundations("D-2", 2)
    ([0], [(1, 2)])
    >>> read.check_cards(); read.raise_if_any()
    Traceback (most recent call last):
    ...
    solver.game.DealError: twin deal, line 1: unreadable card 'XX'; card not in this game's \
deck: '2S'; missing card 2C
    """

    def __init__(self, game: str, deck: Iterable[Card], copies: int = 1, *,
                 face_down: bool = False, pile: str = "column", repeat_lines: bool = False,
                 name_misplaced: bool = True) -> None:
        super().__init__(game)
        self.deck = sorted(set(deck))
        self.in_deck = bytes(c in self.deck for c in range(52))
        self.top_rank = [max((rank(c) for c in self.deck if suit(c) == s), default=0)
                         for s in range(4)]
        self.copies, self.face_down, self.pile_name = copies, face_down, pile
        self.repeat_lines, self.name_misplaced = repeat_lines, name_misplaced
        self.where: dict[Card, list[int | None]] = {}      # card -> the lines it was read on
        self.piles = 0                                      # pile lines read

    def labelled_lines(self, text: str, labels: Iterable[str] | None) -> list[tuple[int, str, str]]:
        """Return (line number, label, rest) of each line that says something.

        Blank lines and ``#`` comments say nothing; a BOM and colour escapes are dropped
        (``solver.cards.plain_text``). The label is one of `labels` as the text writes it
        (they match in any case), or "" for a pile line; `labels` None takes any label. A
        line with another label is recorded as a bad line and left out. A text with
        nothing to say is raised at once as empty.

        >>> read = DealReader("twin", [])
        >>> read.labelled_lines("# a comment\\n\\nTalon: AS\\nSTOCK: 2S\\n: 3S", ["Stock"])
        [(4, 'STOCK', '2S'), (5, '', '3S')]
        >>> read.details
        ["unknown line label 'Talon' (expected Stock)"]
        """
        known = None if labels is None else {label.lower() for label in labels}
        lines = [(number, line.strip()) for number, line in enumerate(plain_text(text).splitlines(), 1)
                 if line.strip() and not line.lstrip().startswith("#")]
        if not lines:
            self.add(DealProblem.EMPTY, "empty text")
            self.raise_if_any()
        found = []
        for number, line in lines:
            label, rest = split_label(line)
            if label and known is not None and label.lower() not in known:
                self.add(DealProblem.BAD_LINE, f"unknown line label {quote(label)} (expected "
                         f"{', '.join(labels or ())})", line=number)
                continue
            found.append((number, label, rest))
        return found

    def card(self, token: str, line: int) -> Card | None:
        """Return the card a token names (``7H``, ``10♦``; ``<7H>`` with `face_down`, its
        marker dropped), counted; record an unreadable token and return None."""
        return self._read(token, line)[0]

    def cards_in(self, text: str, line: int) -> list[Card]:
        """Return the readable cards of a line's text (a stock, a waste, cells), counted.

        >>> DealReader("twin", [0, 13], face_down=True).cards_in("AC <AD> <AC", 1)
        [0, 13]
        """
        found = (self._read(token, line)[0] for token in text.split())
        return [card for card in found if card is not None]

    def pile(self, text: str, line: int) -> tuple[list[Card], int]:
        """Return the cards of a pile line's text, bottom first, and how many at its bottom
        are face down. ``-`` or nothing is an empty pile; a face-down card above a face-up
        one, or on top, is a bad line.

        >>> read = DealReader("twin", [0, 1, 2], face_down=True)
        >>> read.pile("<AC> 2C <3C>", 7)
        ([0, 1, 2], 2)
        >>> read.details
        ["face-down card '<3C>' above a face-up card", 'the top card of column 1 is face down']
        """
        cards: list[Card] = []
        down = 0
        top_down = False                    # whether the last token is marked face down
        for token in text.split() if text != EMPTY_PILE else ():
            card, top_down = self._read(token, line)
            if card is None:
                continue
            if top_down:
                if down < len(cards):
                    self.add(DealProblem.BAD_LINE, f"face-down card {quote(token)} above a "
                             "face-up card", line=line, card=token if self.name_misplaced else None)
                down += 1
            cards.append(card)
        self.piles += 1
        if top_down:
            self.add(DealProblem.BAD_LINE, f"the top card of {self.pile_name} {self.piles} is "
                     "face down", line=line)
        return cards, down

    def foundations(self, text: str, line: int) -> list[tuple[int, int]]:
        """Return (suit, top rank) of each token of a ``Foundations:`` line, counting the
        cards each holds: ``H-Q``, ``C-0`` (empty) or the top card, ``QH``.

        A suit outside the deck, or more foundations of a suit than `copies`, is a bad
        line (the token is left out); so is a rank above the suit's top rank (the
        foundation is taken as full).

        >>> read = DealReader("twin", [0, 1, 13, 14])
        >>> read.foundations("C-A 2D H-0 C-3", 1), read.details
        ([(0, 1), (1, 2)], ["foundation 'H-0': no such suit in this game", \
"foundation 'C-3': more than 1 clubs foundation"])
        """
        found: list[tuple[int, int]] = []
        for token in text.split():
            parsed = parse_foundation(token)
            card = parse_card(token) if parsed is None else None
            if card is not None:
                parsed = (suit(card), rank(card))
            if parsed is None:
                self.add(DealProblem.BAD_LINE, f"unreadable foundation {quote(token)}", line=line,
                         card=token)
                continue
            s, top = parsed
            if not self.top_rank[s] or sum(s == t for t, _ in found) >= self.copies:
                why = (f"more than {self.copies} {SUIT_NAMES[s]} foundation"
                       f"{'s' if self.copies > 1 else ''}" if self.top_rank[s] else
                       "no such suit in this game")
                self.add(DealProblem.BAD_LINE, f"foundation {quote(token)}: {why}", line=line,
                         card=token)
                continue
            if top > self.top_rank[s]:
                self.add(DealProblem.BAD_LINE, f"foundation {quote(token)} above rank "
                         f"{self.top_rank[s]}", line=line, card=token)
                top = self.top_rank[s]
            for r in range(1, top + 1):
                self.count(make_card(r, s), line)
            found.append((s, top))
        return found

    def count(self, card: Card, line: int | None = None) -> None:
        """Count a card the text holds without naming it (one that started a foundation)."""
        self.where.setdefault(card, []).append(line)

    def check_count(self, found: int, expected: int) -> None:
        """Record a wrong number of piles."""
        if found != expected:
            self.add(DealProblem.WRONG_PILE_COUNT,
                     f"{found} {self.pile_name}s, expected {expected}")

    def check_cards(self, missing: bool = True) -> None:
        """Record duplicated cards, and missing ones unless `missing` is False (a position
        whose played cards are not written), naming them."""
        line = None
        if self.repeat_lines:                    # the first line holding a surplus copy
            surplus = [sorted(lines, key=lambda n: -1 if n is None else n)[self.copies]
                       for lines in self.where.values() if len(lines) > self.copies]
            line = min((n for n in surplus if n is not None), default=None)
        self.check_deck([c for c, lines in self.where.items() for _ in lines], self.copies,
                        self.deck, line=line, missing=missing)

    def _read(self, token: str, line: int) -> tuple[Card | None, bool]:
        """Return a token's card (None once recorded unreadable), counted, and whether it
        is marked face down."""
        marked = face_down_token(token) if self.face_down else (token, False)
        if marked is None:
            self.add(DealProblem.UNREADABLE_CARD, f"unreadable card {quote(token)}: unbalanced "
                     "< or >", line=line, card=token)
            return None, False
        name, face_down = marked
        card = parse_card(name)
        if card is None or not self.in_deck[card]:
            why = "unreadable card" if card is None else "card not in this game's deck:"
            self.add(DealProblem.UNREADABLE_CARD, f"{why} {quote(name)}", line=line, card=name)
            return None, face_down
        self.count(card, line)
        return card, face_down


def labelled(label: str, words: Iterable[str]) -> str:
    """Return a labelled line, ``Stock: 4H AC`` (``Stock:`` with no words); an empty
    label gives Freecell Solver's pile line, ``: 7H TS``.

    >>> labelled("Waste", ["8S", "QS"]), labelled("Stock", []), labelled("", ["7H"])
    ('Waste: 8S QS', 'Stock:', ': 7H')
    """
    return f"{label}: {' '.join(words)}".rstrip()


def foundations_line(tops: Iterable[tuple[int, int]]) -> str:
    """Return the ``Foundations:`` line of (suit, top rank) pairs, in the order given.

    >>> foundations_line([(2, 1), (0, 0)])
    'Foundations: H-A C-0'
    """
    return labelled("Foundations", (foundation_str(s, top) for s, top in tops))


def pile_text(cards: Sequence[Card], hidden: int = 0, empty: str = EMPTY_PILE) -> str:
    """Return a pile line, bottom card first, the first `hidden` written face down;
    `empty` for a pile without cards.

    >>> pile_text(bytes([13, 50, 9]), 1), pile_text(b"")
    ('<AD> QS TC', '-')
    """
    if not cards:
        return empty
    return " ".join(f"<{card_str(c)}>" if i < hidden else card_str(c) for i, c in enumerate(cards))
