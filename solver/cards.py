"""Cards as small ints: parsing, printing and the shared deck vocabulary.

A card is an int ``suit * 13 + rank - 1`` with suits in the order clubs, diamonds,
hearts, spades, so ``0`` is the A♣ and ``51`` the K♠. A two-deck game holds each value
twice: identical cards are equal, which is what its canonical keys want. A pile is a
tuple (or ``bytes``) of cards, bottom card first.

>>> parse_card("10♦"), parse_card("td"), parse_card("AS")
(22, 22, 39)
>>> card_str(22), card_str(22, unicode=True)
('TD', '10♦')
"""
from __future__ import annotations

import functools
import re
from typing import Iterable, Sequence

Card = int
Pile = tuple[Card, ...]
Key = bytes

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = "A23456789TJQK"
DECK: tuple[Card, ...] = tuple(range(52))

# by suit (CDHS): the two suits of the other colour, and the other suit of the same colour
OTHER_COLOUR_SUITS: tuple[tuple[int, int], ...] = ((1, 2), (0, 3), (0, 3), (1, 2))
SAME_COLOUR_SUIT: tuple[int, ...] = (3, 2, 1, 0)
# BYTE[n] == bytes((n,)): for building keys without a bytes() call per piece
BYTE: tuple[bytes, ...] = tuple(bytes((n,)) for n in range(256))

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_INDEX.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SUIT_INDEX.update({s: i for i, s in enumerate("♧♢♡♤")})
_RANK_INDEX = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_INDEX.update({"10": 10, "1": 1, "0": 10})


def make_card(rank: int, suit: int) -> Card:
    """Return the card of `rank` (1 = A .. 13 = K) and `suit` (0..3, CDHS)."""
    return suit * 13 + rank - 1


def rank(card: Card) -> int:
    """Return the rank, 1 (A) to 13 (K)."""
    return card % 13 + 1


def suit(card: Card) -> int:
    """Return the suit index: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card // 13


def is_red(card: Card) -> bool:
    """Return whether the card is a diamond or a heart."""
    return 13 <= card < 39


def parse_card(token: str) -> Card | None:
    """Return the card a token names (``AS``, ``td``, ``10♦``, ``9♥``), or None.

    >>> parse_card("XS") is None, parse_card("") is None
    (True, True)
    """
    token = token.strip().upper()
    if len(token) < 2:
        return None
    rank_part, suit_part = token[:-1], token[-1]
    r = _RANK_INDEX.get(rank_part)
    s = _SUIT_INDEX.get(suit_part)
    if r is None or s is None:
        return None
    return make_card(r, s)


def card_str(card: Card, unicode: bool = False) -> str:
    """Return the card's text: ``TD`` (ASCII, the solvers' convention) or ``10♦``."""
    r = rank(card)
    if unicode:
        return ("10" if r == 10 else RANKS[r - 1]) + SUIT_SYMBOLS[suit(card)]
    return RANKS[r - 1] + SUITS[suit(card)]


def face_down_token(token: str) -> tuple[str, bool] | None:
    """Return (the card's text, whether it is face down) of ``7H`` or ``<7H>``.

    Return None when a ``<`` or ``>`` is left unbalanced (``<7H``, ``7H>``, ``<<7H>``):
    such a token is unreadable, not a face-up card.

    >>> face_down_token("<7H>"), face_down_token("7H"), face_down_token("<7H")
    (('7H', True), ('7H', False), None)
    """
    face_down = len(token) > 2 and token[0] == "<" and token[-1] == ">"
    inner = token[1:-1] if face_down else token
    if "<" in inner or ">" in inner:
        return None
    return inner, face_down


_SGR = re.compile(r"\x1b\[[0-9;:]*m")


def plain_text(text: str) -> str:
    """Return a position's text without a leading BOM and without ANSI colour escapes.

    Every game's ``parse`` reads its text through this, so that what ``pretty`` prints
    with colour (SGR sequences such as ``ESC[31m``) reads back.

    >>> plain_text("\ufeff\x1b[31m7♥\x1b[0m TS")
    '7♥ TS'
    """
    return _SGR.sub("", text.lstrip("\ufeff"))


_CARD_TOKEN = re.compile(r"(?<![\w-])(10|[A2-9TJQK])([CDHS])(?![\w-])")
_RED, _PLAIN = "\033[31m", "\033[0m"


def pretty(text: str, colour: bool = False) -> str:
    """Return a position's text for people: cards as ``10♦``, red suits red with `colour`.

    Without colour the result still parses (card tokens take suit symbols too); colour
    adds ANSI escapes around red cards, for a terminal only.

    >>> pretty("<7H> TS  Foundations: H-Q")
    '<7♥> 10♠  Foundations: H-Q'
    """
    def card(match: re.Match[str]) -> str:
        rank_text, suit_text = match.groups()
        shown = ("10" if rank_text in ("T", "10") else rank_text) + SUIT_SYMBOLS[_SUIT_INDEX[suit_text]]
        return f"{_RED}{shown}{_PLAIN}" if colour and suit_text in "DH" else shown

    return _CARD_TOKEN.sub(card, text)


_FOUNDATION_TOKEN = re.compile(r"([CDHS])-?(0|10|[A2-9TJQK])", re.IGNORECASE)


def parse_foundation(token: str) -> tuple[int, int] | None:
    """Return (suit, top rank) of a foundation token like ``H-Q`` or ``C-0``, or None.

    The form of Freecell Solver's ``Foundations:`` line, which every game's text uses;
    0 is an empty foundation.

    >>> parse_foundation("H-Q"), parse_foundation("c-0"), parse_foundation("D10"), parse_foundation("AD")
    ((2, 12), (0, 0), (1, 10), None)
    """
    found = _FOUNDATION_TOKEN.fullmatch(token.strip())
    if not found:
        return None
    value = found.group(2).upper()
    return SUITS.index(found.group(1).upper()), 0 if value == "0" else _RANK_INDEX[value]


def foundation_str(suit: int, top: int) -> str:
    """Return the foundation token of a suit whose top rank is `top` (0: empty).

    >>> foundation_str(2, 12), foundation_str(0, 0)
    ('H-Q', 'C-0')
    """
    return f"{SUITS[suit]}-{RANKS[top - 1] if top else '0'}"


def build_reason(card: Card, under: Card, build: str = "alternate") -> str:
    """Return why `card` may not go on `under` in a column, or "" when it may.

    `build` is how the game builds down: "alternate" colours, "suit", or "any" suit.

    >>> build_reason(parse_card("9H"), parse_card("TS")), build_reason(parse_card("9H"), parse_card("TD"))
    ('', '9H cannot go on TD: colours must alternate')
    """
    if rank(under) != rank(card) + 1:
        return f"{card_str(card)} cannot go on {card_str(under)}: ranks must go down by one"
    if build == "alternate" and is_red(under) == is_red(card):
        return f"{card_str(card)} cannot go on {card_str(under)}: colours must alternate"
    if build == "suit" and suit(under) != suit(card):
        return f"{card_str(card)} cannot go on {card_str(under)}: suits must match"
    return ""


def run_str(cards: Sequence[Card]) -> str:
    """Return the cards that move together as a player names them: ``7H``, or ``9S..7D``
    (the bottom card of the run, then its top card).

    >>> run_str(bytes([parse_card("9S"), parse_card("8H"), parse_card("7D")])), run_str([0])
    ('9S..7D', 'AC')
    """
    if not cards:
        return "no card"
    if len(cards) == 1:
        return card_str(cards[0])
    return f"{card_str(cards[0])}..{card_str(cards[-1])}"


def pile_str(pile: Iterable[Card], unicode: bool = False) -> str:
    """Return the cards of a pile separated by spaces, bottom card first."""
    return " ".join(card_str(c, unicode) for c in pile)


def deck_problems(cards: Sequence[Card], decks: int = 1,
                  universe: Iterable[Card] = DECK) -> tuple[list[Card], list[Card]]:
    """Return (duplicated, missing) cards when `cards` should be `decks` full decks.

    `universe` narrows the deck for games that use fewer ranks or suits.

    >>> deck_problems([0, 0] + list(range(2, 52)))
    ([0], [1])
    """
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    wanted = set(universe)
    duplicated = sorted(c for c, n in counts.items() if n > decks or c not in wanted)
    missing = sorted(c for c in wanted if counts.get(c, 0) < decks)
    return duplicated, missing


def pysol_deck_order(number: int, decks: int = 1, microsoft: bool = False) -> list[Card]:
    """Return the cards in the order PySolFC deals them for game `number`.

    PySolFC shuffles a fresh deck with the Microsoft generator for numbers up to
    32000 (or always, with `microsoft`) and a Mersenne Twister above; `pysol_cards`
    reproduces it, so a number gives the layout PySolFC shows. The list is in dealing
    order: the first card PySolFC's talon hands out comes first. Games that
    `pysol_cards` lays out itself (FreeCell, Seahaven, Klondike, Yukon, Black Hole)
    should use `pysol_layout` instead; this is for the others (Spider, Forty Thieves).
    """
    if 1 <= number <= 32000 or microsoft and 1 <= number < 1 << 31:
        return _microsoft_order(number, decks)
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    which = RandomBase.DEALS_MS if microsoft else RandomBase.DEALS_PYSOLFC
    shuffled = shuffle(createCards(decks), number, which)
    shuffled.reverse()
    return [make_card(c.rank, _PYSOL_SUIT[c.suit]) for c in shuffled]


def _microsoft_order(number: int, decks: int) -> list[Card]:
    """Return ``pysol_deck_order`` for the numbers PySolFC shuffles with Microsoft's LCG.

    The same generator as ``pysol_cards`` (seeds below 2**31) on plain ints, because
    building its card objects cost several times as much and mass classification of
    games dealt from a deck order (The Clock, Spider, Forty Thieves) spends its time
    here (figures in data/measurements.md).
    """
    cards = list(_fresh_deck(decks))
    seed = number
    for n in range(len(cards) - 1, 0, -1):
        seed = (seed * 214013 + 2531011) & 0x1FFFFFFFF
        j = ((seed >> 16) & 0x7FFF) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()
    return cards


@functools.lru_cache(maxsize=4)
def _fresh_deck(decks: int) -> tuple[Card, ...]:
    """Return pysol_cards' unshuffled deck in our card ints (rearranged as MS does for 52)."""
    from pysol_cards.cards import createCards
    from pysol_cards.random import ms_rearrange

    return tuple(make_card(c.rank, _PYSOL_SUIT[c.suit]) for c in ms_rearrange(createCards(decks)))


def pysol_layout(game_id: str, number: int, microsoft: bool = False) -> str:
    """Return `pysol_cards`' text layout of a PySolFC game (``"freecell"``, ``"black_hole"``...).

    Lines are piles, bottom card first; face-down cards are written ``<KS>``; extra
    lines (``Foundations:``, ``Freecells:``, ``Talon:``) come first.
    """
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game as PysolGame
    from pysol_cards.random_base import RandomBase

    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    which = RandomBase.DEALS_MS if microsoft else RandomBase.DEALS_PYSOLFC
    try:
        return str(PysolGame(game_id, number, which).calc_layout_string(CardRenderer(True)))
    except ValueError as error:          # pysol_cards: "seed is out of range"
        raise ValueError(f"deal number {number} is out of range ({error})") from None


_PYSOL_SUIT = (0, 3, 2, 1)               # pysol_cards suit order is C S H D; ours C D H S
