"""The checker's rules for Bridge Solitaire (Stephen Rogers), written again from the rule
text and the project's rulings (``games/bridge_solitaire.py`` quotes both), to be read
beside them. One hand of contract bridge against the stock, scored:

    54 cards (52 and two jokers) in a known order: the first 7 go face down to the
    player's hand, the next 13 face up, the other 34 are the stock, its top card first.
    The player keeps 6 of the 13 face-up cards (a face-up joker must be kept); the hand
    is those 6 and the 7 face-down cards. The house counts the player's winning tricks
    and bids; the player overcalls (declares) or passes (defends the house's contract).
    The defender leads first. A house lead is the stock's top card; to a player's lead
    the house turns stock cards until one may be played. The winner of a trick leads the
    next. When the stock runs out, each card left in the player's hand is a trick for
    the player. The hand is scored as contract bridge scores a single deal.

Each rule is stated at the function that applies it. Cards are ``checker.cards``'s texts;
the two jokers are alike, so a joker is the card ``JK`` and a hand holds it once or twice.
A certificate of a lost position claims its best score (``check.py``), 0 or less.
"""
from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, Iterator, NamedTuple

from checker.cards import RANKS, SUITS, labelled, run_of, token
from checker.deals import shuffled

NAME = "bridge-solitaire"
REDUCTIONS: dict[str, str] = {}

STRAINS = ("C", "D", "H", "S", "NT")
JOKER = "JK"
DECK = [r + s for s in SUITS for r in RANKS] + [JOKER, JOKER]
ORDER = {card: index for index, card in enumerate(DECK)}      # cards sorted: AC..KS, JK
SUIT = {card: card[1:] for card in DECK} | {JOKER: ""}       # a joker has no suit
RANK = {card: "23456789TJQKA".index(card[0]) + 2 for card in DECK[:52]}   # aces high
DOWN, UP, STOCK, KEEP = 7, 13, 34, 6
FIELDS = ("face up", "face down", "stock", "kept", "contract", "played", "hand", "tricks", "lead")


class Position(NamedTuple):
    face_up: tuple[str, ...]        # the cards as dealt
    face_down: tuple[str, ...]
    stock: tuple[str, ...]          # its top card first
    kept: tuple[str, ...]           # the 6 kept, sorted; none before the choice
    contract: str                   # "" before the bidding, "pass" (defend), a bid "2S", "3NT"
    played: int                     # the stock cards used
    hand: tuple[str, ...]           # the player's cards left, sorted; none before the bidding
    tricks: int                     # the player's tricks so far
    lead: str                       # who leads next: "player", "house"; "-" before the bidding


def variant_problem(variant: dict[str, Any]) -> str:
    right = set(variant) == {"vulnerable"} and isinstance(variant["vulnerable"], bool)
    return "" if right else "expected vulnerable true or false"


def ordered(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def whole(pos: Position) -> tuple[str, ...]:       # the player's 13 cards
    return ordered(pos.kept + pos.face_down)


def deal(number: int, variant: dict[str, Any]) -> Position:
    """``random.Random(number).shuffle`` of the deck in its order: the first 7 cards are
    face down, the next 13 face up, the last 34 the stock, its top first."""
    cards = shuffled(DECK, number)
    return Position(tuple(cards[DOWN:DOWN + UP]), tuple(cards[:DOWN]), tuple(cards[DOWN + UP:]),
                    (), "", 0, (), 0, "-")


def read_cards(words: list[str]) -> tuple[str, ...]:
    """Cards (``-``: none), each a ``checker.cards.token`` or a joker: ``JK`` (``*``, ``★``,
    ``JOKER``)."""
    return tuple(word if word in ORDER else JOKER if word.upper() in ("JK", "*", "★", "JOKER")
                 else token(word) for word in words if words != ["-"])


def parse(text: str, variant: dict[str, Any]) -> Position:
    """The lines ``Deal``, ``Face up``, ``Face down``, ``Stock``, then ``Kept``; after it
    ``Contract``; after that ``Played``, ``Hand``, ``Tricks`` and ``Lead`` (left out: 0,
    every card, 0, the defender), written as LINE and read by ``decode``. No rule reads the
    deal number."""
    given = labelled(text, ("deal", *FIELDS))
    if "contract" in given and "kept" not in given or \
            "contract" not in given and {"played", "hand", "tricks", "lead"} & set(given):
        raise ValueError("a Contract line follows Kept, and the play's lines a Contract")
    bid = given.pop("contract", "").upper().replace(" ", "")
    values = dict.fromkeys(FIELDS, "-") | {"played": "0", "tricks": "0"}
    if bid:                                       # the player's 13 cards; the defender leads
        values |= {"contract": "pass" if bid == "PASS" else bid,
                   "hand": given.get("kept", "") + " " + given.get("face down", ""),
                   "lead": "player" if bid == "PASS" else "house"}
    values |= given
    for label in ("face up", "face down", "stock", "kept", "hand"):
        values[label] = "".join(read_cards(values[label].split())) or "-"
    return decode("|".join(values[label] for label in FIELDS), variant)


def decode(line: str, variant: dict[str, Any]) -> Position:
    """A LINE, its kept cards and hand sorted; ValueError, naming the rule, if no position."""
    fields = line.split("|")
    if len(fields) != len(FIELDS) or not fields[5].isdigit() or not fields[7].isdigit():
        raise ValueError("not nine fields: " + "|".join(FIELDS))
    up, down, stock, kept, hand = (read_cards(run_of(fields[at].strip("-")))
                                   for at in (0, 1, 2, 3, 6))
    pos = Position(up, down, stock, ordered(kept), fields[4].strip("-"), int(fields[5]),
                   ordered(hand), int(fields[7]), fields[8].lower())
    if (len(up), len(down)) != (UP, DOWN) or sorted(up + down + stock) != sorted(DECK):
        raise ValueError("the deal is 13 face up, 7 face down and 34 stock cards: the 54 cards")
    if kept and (len(kept) != KEEP or Counter(kept) - Counter(up)
                 or up.count(JOKER) != kept.count(JOKER)):
        raise ValueError("the kept cards are 6 face-up cards, every face-up joker among them")
    if pos.contract and (not kept or pos.contract not in bids(whole(pos))):
        raise ValueError(f"the contract {pos.contract!r} is not open to the player")
    if pos.contract and (Counter(hand) - Counter(whole(pos)) or pos.played > STOCK
                         or pos.tricks > UP - len(hand) or pos.lead not in ("player", "house")):
        raise ValueError("the hand is part of the player's cards, Played at most 34, Tricks at "
                         "most the cards played, Lead player or house")
    if not pos.contract and (pos.played, hand, pos.tricks, pos.lead) != (0, (), 0, "-"):
        raise ValueError("no card is played before the contract")
    return pos


def encode(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """LINE: the nine fields in order joined by ``|``, the cards written together (``ACTDJK``,
    ``-`` none), the kept cards and hand sorted (LINE is canonical), no contract ``-``."""
    fields = pos._replace(kept=ordered(pos.kept), hand=ordered(pos.hand))
    return "|".join("".join(f) or "-" if isinstance(f, tuple) else str(f) or "-" for f in fields)


# -- the bidding ------------------------------------------------------------------------------

def winners(held: list[int]) -> int:
    """The house's count of the player's winning tricks in one suit, of the ranks held:
    while the player holds cards in it, if the player's highest beats the highest rank
    the player lacks and the count has not used yet, it is a winner and leaves;
    otherwise the player's lowest card and that highest lacking rank both leave."""
    mine, lacking = sorted(held, reverse=True), [r for r in range(14, 1, -1) if r not in held]
    won = 0
    while mine:
        if not lacking or mine[0] > lacking[0]:
            won, mine = won + 1, mine[1:]
        else:
            mine, lacking = mine[:-1], lacking[1:]
    return won


def house_bid(cards: tuple[str, ...]) -> tuple[int, int] | None:
    """The house bids 6 minus the player's winning tricks (all suits) in the player's shortest
    suit, the lowest-ranking of those tied (C < D < H < S); it passes (None) at 0 or less."""
    total = sum(winners([RANK[c] for c in cards if SUIT[c] == s]) for s in SUITS)
    lengths = [sum(SUIT[c] == s for c in cards) for s in SUITS]
    return (6 - total, lengths.index(min(lengths))) if total < 6 else None


def bids(cards: tuple[str, ...]) -> list[str]:
    """The contracts open to the player: ``pass`` where the house bids (defend its
    contract; the player must bid where it passed), and every bid above the house's in
    the order 1C < 1D < 1H < 1S < 1NT < 2C ... 7NT; notrump only with a 4-3-3-3,
    3-3-3-3 and a joker, or 3-3-3-2 and two jokers."""
    house = house_bid(cards)
    floor, found = (-1, []) if house is None else (house[0] * 5 + house[1], ["pass"])
    shape = sorted((sum(SUIT[c] == s for c in cards) for s in SUITS), reverse=True)
    notrump = shape == ([4, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 2])[cards.count(JOKER)]
    return found + [f"{level}{STRAINS[strain]}" for level in range(1, 8) for strain in range(5)
                    if level * 5 + strain > floor and (strain < 4 or notrump)]


def contract(pos: Position) -> tuple[int, int, bool, int]:
    """(level, strain 0..4, whether the player declares, doubling): the player's bid,
    or the house's on a pass; one joker among the player's 13 cards doubles, two redouble."""
    cards = whole(pos)
    doubling = (1, 2, 4)[cards.count(JOKER)]
    if pos.contract == "pass":
        level, strain = house_bid(cards) or (0, 0)
        return level, strain, False, doubling
    return int(pos.contract[0]), STRAINS.index(pos.contract[1:]), True, doubling


# -- the play ----------------------------------------------------------------------------------

def beats(card: str, other: str, led: str, trump: str) -> bool:
    """Whether `card` beats `other` in a trick led in the suit `led` (no jokers): a trump beats
    any card of another suit; in the suit led the higher rank wins; others never win."""
    if SUIT[card] == SUIT[other]:
        return RANK[card] > RANK[other]
    return SUIT[card] == trump or SUIT[card] == led and SUIT[other] != trump


def trick(pos: Position, card: str, trump: str) -> tuple[int, bool]:
    """Play `card` (`trump` a suit or ``NT``): the stock cards used after the trick, and
    whether the player takes it. A house lead is the stock's top card. To a player's lead
    the house turns stock cards until one is of the suit led, a trump or a joker (to a
    joker, its top card), at most four in notrump, the others out of play; with none
    legal, or the stock run out, the player takes it. A joker takes a trick for the house,
    unless the player answers a joker led with the other; else the higher card (``beats``)."""
    at = pos.played
    if pos.lead == "house":
        led = pos.stock[at]
        if JOKER in (led, card):
            return at + 1, led == card == JOKER
        return at + 1, beats(card, led, SUIT[led], trump)
    last = STOCK if trump != "NT" else min(STOCK, at + 4)
    for turned in range(at, last):
        answer = pos.stock[turned]
        if JOKER in (card, answer):
            return turned + 1, False
        if SUIT[answer] in (SUIT[card], trump):
            return turned + 1, not beats(answer, card, SUIT[card], trump)
    return last, True


def moves(pos: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """First the choice of kept cards (``keep:AC+KC+...``), then a bid (``bid:2S``) or
    ``pass`` (the defender leads first), then a card to each trick (its name), the
    trick's winner leading the next, until the hand is over. The player plays any card
    when leading or answering a joker; else one of the suit led if the hand holds it,
    otherwise any card (a joker too). Alike cards are one move."""
    if not pos.kept:
        jokers = (JOKER,) * pos.face_up.count(JOKER)         # every face-up joker is kept
        for rest in itertools.combinations(ordered(set(pos.face_up) - {JOKER}), KEEP - len(jokers)):
            kept = ordered(rest + jokers)
            yield "keep:" + "+".join(kept), pos._replace(kept=kept)
    elif not pos.contract:
        for bid in bids(whole(pos)):
            yield (bid if bid == "pass" else "bid:" + bid), pos._replace(
                contract=bid, hand=whole(pos), lead="player" if bid == "pass" else "house")
    elif pos.hand and pos.played < STOCK:         # the hand is not over (``score``)
        trump = STRAINS[contract(pos)[1]]
        led = SUIT[pos.stock[pos.played]] if pos.lead == "house" else ""
        follow = [c for c in pos.hand if led and SUIT[c] == led]
        for card in dict.fromkeys(follow or pos.hand):
            played, won = trick(pos, card, trump)
            hand = list(pos.hand)
            hand.remove(card)
            yield card, pos._replace(played=played, hand=tuple(hand), tricks=pos.tricks + won,
                                     lead="player" if won else "house")


def settle(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """No automatic moves: the checker accepts no reduction."""
    return pos


# -- the score ---------------------------------------------------------------------------------

def declarer_points(level: int, strain: int, doubling: int, tricks: int, vulnerable: bool) -> int:
    """The declaring side's duplicate score for its `tricks` (negative: the defenders').
    Made: trick points (C, D 20 a trick over six; H, S 30; NT 40 for the first, 30 after;
    times the doubling), a game's bonus (trick points 100 or more) 300 (500 vulnerable) or
    a part score's 50, overtricks (undoubled at trick value; doubled 100 each, 200
    vulnerable, redoubled twice that), the insult 50 (100 redoubled), slams 500 and 1000
    (750, 1500). Down: undoubled 50 a trick (100 vulnerable); doubled 100, 200, 200, then
    300 each (vulnerable 200, then 300 each); redoubled twice that."""
    down = level + 6 - tricks
    if down > 0 and doubling == 1:
        return -down * (100 if vulnerable else 50)
    if down > 0:
        each = (200, 300, 300, 300) if vulnerable else (100, 200, 200, 300)
        return -sum(each[min(n, 3)] for n in range(down)) * doubling // 2
    per = 20 if strain < 2 else 30
    points = (per * level + (10 if strain == 4 else 0)) * doubling
    points += (500 if vulnerable else 300) if points >= 100 else 50
    extra = tricks - 6 - level
    points += extra * per if doubling == 1 else \
        (extra * (200 if vulnerable else 100) + 50) * doubling // 2
    return points + {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)


def honours(cards: tuple[str, ...], strain: int) -> int:
    """The player's honours, whichever side declares: the four aces in notrump 150; in a
    suit contract 4 of the trump A K Q J T 100, all 5 150."""
    if strain == 4:
        return 150 if all("A" + s in cards for s in SUITS) else 0
    held = sum(r + SUITS[strain] in cards for r in "AKQJT")
    return 150 if held == 5 else 100 if held == 4 else 0


def score(pos: Position, variant: dict[str, Any]) -> int | None:
    """The player's score of a hand that is over, every card played or the stock run out
    (None before): the player's tricks are those taken and every card left in the hand;
    the declarer's points, minus them where the house declares (counting its tricks, 13
    less the player's), and the honours."""
    if not pos.contract or pos.hand and pos.played < STOCK:
        return None
    level, strain, mine, doubling = contract(pos)
    tricks = pos.tricks + len(pos.hand)
    points = declarer_points(level, strain, doubling, tricks if mine else 13 - tricks,
                             variant["vulnerable"])
    return (points if mine else -points) + honours(whole(pos), strain)


def is_won(pos: Position, variant: dict[str, Any]) -> bool:
    """Won: the hand is over with a positive score for the player."""
    return (score(pos, variant) or 0) > 0
