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

Each rule below is a function, named in its docstring. Cards are written as
``checker.cards`` writes them; the two jokers are alike (the text writes both ``JK``), so
a joker is the card ``JK`` here and a hand holds it once or twice. Cards are sorted as
the deck is ordered: AC..KC, AD..KD, AH..KH, AS..KS, JK.

LINE: a position's nine fields joined by ``|``, cards written together (``ACTDJK``, ``-``
none), the contract ``-`` before the bidding.

The scores, from the player's side (the player's points minus the house's), of a hand
that is over; ``won`` is a hand over with a positive score, as the game rules it. A
certificate of a lost position claims its best score (``check.py``), 0 or less.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any, Iterator, NamedTuple

from checker.cards import RANKS, SUITS, run_of, token

NAME = "bridge-solitaire"
REDUCTIONS: dict[str, str] = {}

STRAINS = ("C", "D", "H", "S", "NT")
JOKER = "JK"
DECK = [r + s for s in SUITS for r in RANKS] + [JOKER, JOKER]
ORDER = {card: index for index, card in enumerate(DECK)}      # the deck's order, JK last
SUIT = {card: card[1:] for card in DECK} | {JOKER: ""}       # a joker has no suit
RANK = {card: "23456789TJQKA".index(card[0]) + 2 for card in DECK[:52]}   # aces high
DOWN, UP, STOCK, KEEP = 7, 13, 34, 6
FIELDS = ("face up", "face down", "stock", "kept", "contract", "played", "hand", "tricks",
          "lead")                                 # the text's labels, LINE's fields


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
    if set(variant) != {"vulnerable"} or not isinstance(variant["vulnerable"], bool):
        return "expected vulnerable true or false"
    return ""


def ordered(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def whole(pos: Position) -> tuple[str, ...]:
    """The player's 13 cards: the kept and the face-down ones."""
    return ordered(pos.kept + pos.face_down)


# -- the deal, the text and LINE ----------------------------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """``random.Random(number).shuffle`` of the deck in its order: the first 7 cards are
    face down, the next 13 face up, the last 34 the stock, its top first."""
    if number < 1:
        raise ValueError("deal numbers start at 1")
    cards = list(DECK)
    random.Random(number).shuffle(cards)
    return Position(tuple(cards[DOWN:DOWN + UP]), tuple(cards[:DOWN]), tuple(cards[DOWN + UP:]),
                    (), "", 0, (), 0, "-")


def read_cards(words: list[str]) -> tuple[str, ...]:
    """Cards (``-``: none), each as ``checker.cards.token`` reads it or a joker: ``JK``, in
    the text also ``*``, ``★`` or ``JOKER``."""
    return tuple(JOKER if word.upper() in ("JK", "*", "★", "JOKER") else token(word)
                 for word in words if word != "-")


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the lines ``Deal``, ``Face up``, ``Face down``, ``Stock``, then ``Kept``; after
    it ``Contract``; after that ``Played``, ``Hand``, ``Tricks`` and ``Lead`` (left out: 0,
    every card, 0, the defender). The deal number is not read: no rule reads it. The
    lines are written as LINE and read as LINE is (``decode``, ``fault``)."""
    given: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        label, colon, rest = line.partition(":")
        label = " ".join(label.lower().split())
        if line and (not colon or label in given or label not in ("deal", *FIELDS)):
            raise ValueError(f"cannot read the line {line!r}: the lines are Deal, "
                             f"{', '.join(FIELDS).capitalize()}, each once")
        if line:
            given[label] = rest.strip()
    bid = given.pop("contract", "").upper().replace(" ", "")
    if not bid and {"played", "hand", "tricks", "lead"} & set(given):
        raise ValueError("the lines Played, Hand, Tricks and Lead follow a Contract line")
    values = dict.fromkeys(FIELDS, "-") | {"played": "0", "tricks": "0"}
    if bid:                                       # the player's 13 cards; the defender leads
        values |= {"contract": "pass" if bid == "PASS" else bid,
                   "hand": given.get("kept", "") + " " + given.get("face down", ""),
                   "lead": "player" if bid == "PASS" else "house"}
    values |= given
    fields = [values[label] for label in FIELDS]
    for at in (0, 1, 2, 3, 6):
        fields[at] = "".join(read_cards(fields[at].split())) or "-"
    return decode("|".join(fields), variant)


def decode(line: str, variant: dict[str, Any]) -> Position:
    """A LINE, its kept cards and hand sorted (a certificate's line is canonical)."""
    fields = line.split("|")
    if len(fields) != len(FIELDS) or not fields[5].isdigit() or not fields[7].isdigit():
        raise ValueError("not nine fields: " + "|".join(FIELDS))
    up, down, stock, kept, hand = (read_cards(run_of(fields[at].strip("-")))
                                   for at in (0, 1, 2, 3, 6))
    pos = Position(up, down, stock, ordered(kept), fields[4].strip("-"), int(fields[5]),
                   ordered(hand), int(fields[7]), fields[8])
    problem = fault(pos)
    if problem:
        raise ValueError(problem)
    return pos


def fault(pos: Position) -> str:
    """What makes `pos` no position of the game ("" if nothing), each rule in its message."""
    if (len(pos.face_up), len(pos.face_down), len(pos.stock)) != (UP, DOWN, STOCK) or \
            sorted(pos.face_up + pos.face_down + pos.stock) != sorted(DECK):
        return "the deal must be 13 face up, 7 face down and 34 in the stock: the 54 cards"
    if pos.kept and (len(pos.kept) != KEEP or Counter(pos.kept) - Counter(pos.face_up)
                     or pos.face_up.count(JOKER) != pos.kept.count(JOKER)):
        return "the kept cards are 6 of the face-up cards, every face-up joker among them"
    if pos.contract and (not pos.kept or pos.contract not in bids(whole(pos))):
        return f"the contract {pos.contract!r} is not open to the player"
    if pos.contract and (Counter(pos.hand) - Counter(whole(pos)) or pos.played > STOCK
                         or pos.tricks > UP - len(pos.hand) or pos.lead not in ("player", "house")):
        return "the hand is part of the player's cards, Played at most 34, Tricks at most " \
               "the cards played, Lead player or house"
    if not pos.contract and (pos.played, pos.hand, pos.tricks, pos.lead) != (0, (), 0, "-"):
        return "no card is played before the contract"
    return ""


def encode(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    cards = ["".join(cards) or "-" for cards in (pos.face_up, pos.face_down, pos.stock,
                                                 ordered(pos.kept), ordered(pos.hand))]
    return "|".join(cards[:4] + [pos.contract or "-", str(pos.played), cards[4],
                                 str(pos.tricks), pos.lead])


# -- the bidding ------------------------------------------------------------------------------

def winners(held: list[int]) -> int:
    """The house's count of the player's winning tricks in one suit, of the ranks held:
    while the player holds cards in it, if the player's highest beats the highest rank
    the player lacks and the count has not used yet, it is a winner and leaves;
    otherwise the player's lowest card and that highest lacking rank both leave."""
    mine = sorted(held, reverse=True)
    lacking = [r for r in range(14, 1, -1) if r not in held]
    won = 0
    while mine:
        if not lacking or mine[0] > lacking[0]:
            won += 1
            mine.pop(0)
        else:
            mine.pop()
            lacking.pop(0)
    return won


def house_bid(cards: tuple[str, ...]) -> tuple[int, int] | None:
    """The house bids 6 minus the player's winning tricks (all suits) in the player's
    shortest suit, the lowest-ranking of those tied (C < D < H < S); it passes (None)
    when that is 0 or less."""
    total = sum(winners([RANK[c] for c in cards if SUIT[c] == s]) for s in SUITS)
    lengths = [sum(SUIT[c] == s for c in cards) for s in SUITS]
    return (6 - total, lengths.index(min(lengths))) if total < 6 else None


def bids(cards: tuple[str, ...]) -> list[str]:
    """The contracts open to the player: ``pass`` where the house bids (defend its
    contract; the player must bid where it passed), and every bid above the house's in
    the order 1C < 1D < 1H < 1S < 1NT < 2C ... 7NT; notrump only with a 4-3-3-3,
    3-3-3-3 and a joker, or 3-3-3-2 and two jokers."""
    house = house_bid(cards)
    floor = -1 if house is None else house[0] * 5 + house[1]
    shape = sorted((sum(SUIT[c] == s for c in cards) for s in SUITS), reverse=True)
    notrump = shape == ([4, 3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 2])[cards.count(JOKER)]
    found = ["pass"] if house is not None else []
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
    """Whether `card` beats `other` in a trick led in the suit `led` (no jokers): a trump
    beats every card of another suit; of the suit led the higher rank wins; a card of
    neither never wins."""
    if SUIT[card] == SUIT[other]:
        return RANK[card] > RANK[other]
    return SUIT[card] == trump or SUIT[card] == led and SUIT[other] != trump


def trick(pos: Position, card: str, trump: str) -> tuple[int, bool]:
    """Play `card` (`trump` a suit letter or ``NT``); return the stock cards used after
    the trick and whether the player takes it. A house lead is the stock's top card. To a
    player's lead the house turns cards from the stock until one is of the suit led, a
    trump or a joker (to a joker led, its top card: a joker has no suit), at most four in
    notrump, the others out of play; with none legal, or the stock run out, the player
    takes it. A joker takes a trick for the house, unless the player answers a joker led
    with the other joker; otherwise the higher card takes it (``beats``)."""
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


def over(pos: Position) -> bool:
    """The hand is over when every card is played or the stock has run out."""
    return bool(pos.contract) and (not pos.hand or pos.played >= STOCK)


def moves(pos: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """First the choice of kept cards (``keep:AC+KC+...``), then a bid (``bid:2S``) or
    ``pass`` (the defender leads first), then a card to each trick (its name), the
    trick's winner leading the next, until the hand is over. The player plays any card
    when leading or answering a joker; else one of the suit led if the hand holds it,
    otherwise any card (a joker too). Alike cards are one move."""
    if not pos.kept:
        jokers = tuple(c for c in pos.face_up if c == JOKER)
        others = ordered(c for c in pos.face_up if c != JOKER)
        for rest in itertools.combinations(others, KEEP - len(jokers)):
            kept = ordered(rest + jokers)
            yield "keep:" + "+".join(kept), pos._replace(kept=kept)
    elif not pos.contract:
        for bid in bids(whole(pos)):
            yield (bid if bid == "pass" else "bid:" + bid), pos._replace(
                contract=bid, hand=whole(pos), lead="player" if bid == "pass" else "house")
    elif not over(pos):
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
    vulnerable, twice that redoubled), the insult 50 (100 redoubled), a small slam 500
    (750), a grand slam 1000 (1500). Down: undoubled 50 a trick (100 vulnerable); doubled
    100, 200, 200, then 300 each (vulnerable 200, then 300 each); redoubled twice that."""
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
    if doubling == 1:
        points += extra * per
    else:
        points += (extra * (200 if vulnerable else 100) + 50) * doubling // 2
    return points + {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)


def honours(cards: tuple[str, ...], strain: int) -> int:
    """The player's honours, whichever side declares: the four aces in notrump 150; in a
    suit contract 4 of the trump A K Q J T 100, all 5 150."""
    if strain == 4:
        return 150 if all("A" + s in cards for s in SUITS) else 0
    held = sum(r + SUITS[strain] in cards for r in "AKQJT")
    return 150 if held == 5 else 100 if held == 4 else 0


def score(pos: Position, variant: dict[str, Any]) -> int | None:
    """The player's score of a hand that is over (None before): the player's tricks are
    those taken and every card left in the hand; the declarer's points, minus them where
    the house declares (counting its tricks, 13 less the player's), and the honours."""
    if not over(pos):
        return None
    level, strain, mine, doubling = contract(pos)
    tricks = pos.tricks + len(pos.hand)
    points = declarer_points(level, strain, doubling, tricks if mine else 13 - tricks,
                             variant["vulnerable"])
    return (points if mine else -points) + honours(whole(pos), strain)


def is_won(pos: Position, variant: dict[str, Any]) -> bool:
    """Won: the hand is over with a positive score for the player."""
    value = score(pos, variant)
    return value is not None and value > 0
