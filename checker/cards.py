"""Playing cards as the checker's game modules write them, stated once for all of them.

A card's text is its rank then its suit: ``TD`` is the ten of diamonds, the ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` (1 to 13) and the suits ``C D H S``; ``10`` reads as ``T``.
Most game modules keep a card as its text. Klondike and Yukon, which compare ranks and
colours on every move, number it: suit * 13 + rank - 1 (clubs 0..12, then diamonds, hearts
and spades), the red suits being diamonds and hearts. A text of ``Label: value`` lines
alone is read by ``labelled``.
"""
from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def token(text: str, ranks: str = RANKS, suits: str = SUITS) -> str:
    """The card `text` names, as its text (``10d`` is ``TD``); ValueError unless it names
    one of `ranks` in one of `suits`."""
    card = text.strip().upper().replace("10", "T")
    if len(card) != 2 or card[0] not in ranks or card[1] not in suits:
        raise ValueError(f"{card!r} is not a card")
    return card


def rank_of(card: str) -> int:
    """A card text's rank, 1 (Ace) to 13 (King)."""
    return RANKS.index(card[0]) + 1


def run_of(text: str) -> list[str]:
    """The cards of a LINE field written run together (``KSQH5C``), as texts."""
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a list of cards")
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def labelled(text: str, labels: tuple[str, ...]) -> dict[str, str]:
    """The ``Label: value`` lines of a text, the values by label (lower case, single
    spaces; ``#`` starts a comment); ValueError at any other line, or a label twice."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        label, colon, rest = line.partition(":")
        label = " ".join(label.lower().split())
        if line and (not colon or label in values or label not in labels):
            raise ValueError(f"cannot read the line {line!r}: the lines are "
                             f"{', '.join(labels)}, each once")
        if line:
            values[label] = rest.strip()
    return values


# -- numbered cards (Klondike, Yukon) ---------------------------------------------------------

def rank(card: int) -> int:
    return card % 13 + 1


def suit(card: int) -> int:
    return card // 13


def red(card: int) -> bool:
    return suit(card) in (1, 2)


def card_text(card: int) -> str:
    return RANKS[rank(card) - 1] + SUITS[suit(card)]


def read_card(text: str) -> int:
    """The number of the card `text` names (``10d``, ``TD``); ValueError if none."""
    card = token(text)
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def deck(ranks: int) -> list[int]:
    """The numbered cards of four suits of `ranks` ranks (Ace up), in order."""
    return [s * 13 + r for s in range(4) for r in range(ranks)]
