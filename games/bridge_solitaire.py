"""Bridge Solitaire (Stephen Rogers): one hand of contract bridge against the stock, scored.

Rules (the project's ruling of the rule text): 54 cards (52 and two jokers, ``JK``) in a
known order (full information): the first 7 go face down to the player's hand, the next
13 face up, the other 34 are the stock, its top card first.

- The player keeps 6 of the 13 face-up cards (jokers among them must be kept); the hand
  is those 6 and the 7 face-down cards.
- House bid (``house_bid``): per suit, count the player's winning tricks: while the
  player holds cards in the suit, if the player's highest beats the highest card of the
  suit the player lacks and that is not used yet, it is a winner and leaves; otherwise the
  player's lowest card and that highest card both leave. The house bids 6 minus the total
  in the player's shortest suit (ties: the lowest-ranking suit, C < D < H < S), and passes
  when 6 minus the total is 0 or less.
- The player overcalls (becomes declarer) or passes (defends the house's contract); the
  player must bid when the house passed. Notrump only with a 4-3-3-3, 3-3-3-3-★ or
  3-3-3-2-★-★ hand. One joker in the hand doubles the contract, two redouble it.
- The defender leads first. A house lead is the stock's top card. To a player's lead the
  house turns stock cards until one may be played (the suit led, a trump, or a joker);
  the others are out of play. In notrump at most four are turned; with none of them
  legal the player wins the trick. The player follows suit if able, else plays any card
  or a joker. A trick holding a joker goes to the house, except when the player answers
  a joker lead with the other joker. The winner leads next. When the stock runs out,
  each card left in the player's hand is a trick for the player.
- Scoring: one hand scored as contract bridge scores a single deal (duplicate scoring),
  non-vulnerable by default (``vulnerable`` is the variant): trick points, over- and
  undertricks, doubling, the insult bonus, slams, honours in the player's hand, and the
  bonus for the contract bid and made: 50 for a part score, 300 for a game (500
  vulnerable). Without that bonus a part score with overtricks would be worth as much as
  the game bid and made, and the text's object, "accurately predicting the number of
  tricks", would not matter. The rubber the text names as the ultimate goal is a series
  of hands, not scored here.

Rulings where the text and the ruling are silent:

- Trick winner: a joker takes the trick for the house (the exception above aside);
  otherwise a trump beats every card of another suit, and among cards of the suit led
  the higher rank wins (aces high). A card of neither the suit led nor trumps never wins.
  So a house trump on a player's non-trump lead wins, and a player's trump on a house
  lead the player cannot follow wins.
- The player may lead a joker (the text allows it): the house turns its top card, which
  is always a legal answer (a joker has no suit), and the trick goes to the house.
- When the stock runs out while the house turns cards for a player's lead, the player
  wins that trick (no house card answers it), and then the rest of the hand as above.
- Bids: levels 1 to 7, strains C < D < H < S < NT. Overcalling means any higher bid in
  that order (1NT is overcalled by 2C); with the house passing, any bid. No further
  bidding: the house never doubles or bids again; the jokers alone double.
- Score of a hand, from the player's side: the points the player's side scores minus
  those the house scores. Trick points (C, D 20; H, S 30; NT 40 for the first, 30 after;
  times 2 doubled, 4 redoubled); overtricks (undoubled at trick value, doubled 100 each,
  redoubled 200, twice that vulnerable); undertricks to the defenders (undoubled 50 each,
  100 vulnerable; doubled 100, 200, 200, then 300 each, vulnerable 200 then 300 each;
  redoubled twice the doubled); the insult bonus 50 (redoubled 100) for making a doubled
  contract; the contract bonus for making it, 300 for a game (the contract's trick points,
  after doubling, 100 or more: 3NT, 4H, 5C, 2H doubled; 500 vulnerable) and 50 for a part
  score (under 100); slams 500 and 1000 (750 and 1500 vulnerable) for bidding and making
  12 or 13 tricks. Whichever side declares and makes its contract scores these bonuses
  (the house's making one counts against the player). Honours count for the player
  whichever side declares: in a suit contract 4 of the trump A K Q J 10 in the player's
  13 cards 100, all 5 150; in notrump the four aces 150. The text's first worked hand
  (1C doubled, 7 tricks, five club honours) scores 40 + 50 insult + 50 part score + 150
  honours = 290. (An earlier ruling gave no contract bonus: the hand scored 240.)
- ``won`` means the hand is over with a positive score for the player (a contract made
  as declarer or the house's contract defeated, honours included). The best score is the
  deal's answer, not a fixed target, so no position is "won" in the engine's sense of
  reaching the best possible score.

Best play (``search_deal``, the ``scored`` strategy's search for this game through the
engine's ``best_line`` hook): every choice of kept cards and every contract the player
may reach (a bid, or a pass to defend the house's bid), each played out by the trick
tables of ``games._bridge_play``: a memoised search over (cards left, stock position, who
leads), one table per trump shared by all 1,716 choices (the stock fixes the house's
cards, so the player alone chooses and the best line is a longest path). The score never
falls as the player's tricks grow, whether the player declares or defends (the contract
bonus is a step up where the contract is made; a test checks every contract), so each
contract asks only "can the player take t tricks?" for the fewest t that beat the best
score found so far; choices and contracts are taken by falling 13-trick score and left
when that cannot beat the best found. Sharing the tables is what makes a deal cheap (a
fraction of a CPU second; figures in data/bridge_solitaire/winnability.md).

The engine: ``solve``, ``hint``, ``verify`` and ``classify`` reach the game like any
other; a solve answers the best score with the choice, the bid and the play that reach
it, proven best when the search ran to the end. ``won`` is a positive best score (the
note above), ``lost`` a best score of 0 or less, proven. There is no small twin (the
bidding and scoring are those of 13 tricks): the tests check the trick tables against
every line of play through the rules instead.

Hidden cards (what a player can expect, not seeing the face-down cards and the stock):
``unknown_samples`` deals the 41 cards not face up again at random, and
``blind_score`` scores a player who follows stated rules on what the rules show (keep
the lowest or the highest face-up cards, pass to defend, play by ``blind_card``); with
the full-information best of the same samples they bound a player's expected score
(``benchmarks/bridge_figures.py --hidden``). The player's view (``BridgeView``) says
what a player sees at each step, for the blind hint (``solver.app.blind``), whose
expected score is the mean over sampled worlds of where ``by_rule`` (those rules, with
the highest cards kept) ends after each plan (``blind_playout``): a world's
full-information best would value the bid for a player who sees the stock.

Numbered deals: ``random.Random(number).shuffle`` of the 54 cards in the order
AC..KC, AD..KD, AH..KH, AS..KS, JK, JK (52 and 53): the first 7 are the face-down cards,
the next 13 the face-up ones, the last 34 the stock, top first.

Text format (lines ``Label: value``, ``#`` starts a comment)::

    Deal: 7                          # the deal number, 0 when not a numbered deal
    Face up: 5H 9C ... (13 cards)
    Face down: KD JK ... (7 cards)
    Stock: 3C 7D ... (34 cards, the top first)
    Kept: AC KC ... (6 cards; left out before the choice)
    Contract: 2S                     # the player's bid, or "pass" (left out before)
    Played: 5                        # stock cards used so far (0 when left out)
    Hand: AC 8C ...                  # the player's cards left (- for none; left out: all)
    Tricks: 3                        # player's tricks so far (0 when left out)
    Lead: house                      # who leads next (left out: the defender)

Only positions the rules reach are read (``parse``): two jokers, the kept cards face-up
ones holding every face-up joker, a bid open to the player, and ``Played``, ``Hand``,
``Tricks`` and ``Lead`` (only after ``Contract``, itself only after ``Kept``) where some
legal play of the cards gone from the hand ends (``play_reaches``), so that a best score
is never proven for a position no play reaches. ``describe`` tells each step with what
the rules do in answer: the house's bid, the contract, each trick (``solve --boards``).

Notation (one word a step): ``keep:AC+KC+TC+8C+QH+8H`` chooses the kept cards (``keep AC
KC ...`` is read too); ``bid:2S``, ``pass``; a card (``AC``, ``JK``) plays it, leading or
answering (the house's cards are turned by the rules).
"""
from __future__ import annotations

import functools
import itertools
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, NamedTuple, Sequence

from solver.cards import card_str, parse_card, plain_text
from solver.game import DealChecker, DealProblem, Game, InvalidMoveError, Status, quote
from solver.search.result import Budget, Result
from solver.text import read_number
from solver.table import default_memory, resident_bytes
from solver.verify import replay
from solver.view import Remembers, Unseen, first_steps
from solver.layout import Layout, tokens_pile
from games._bridge_play import HOUSE, NOTRUMP, PLAYER, Tricks, resolve
from games._bridge_play import rank_of as _rank
from games._bridge_play import suit_of as _suit

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["GAME", "BridgeSolitaire", "State", "Move", "Contract", "house_bid", "hand_score",
           "winning_tricks", "card_name", "read_card", "JOKERS", "NOTRUMP", "best_play",
           "search_deal", "contract_options", "max_tricks", "Best", "unknown_samples",
           "blind_keep", "blind_bid", "blind_card", "blind_play", "blind_score",
           "play_reaches", "BridgeView"]

JOKERS = (52, 53)
STRAINS = ("C", "D", "H", "S", "NT")
HIDDEN, FACE_UP, STOCK = 7, 13, 34
KEEP = 6

# Move kinds
KEEP_MOVE, BID, PASS, PLAY = 0, 1, 2, 3


class Contract(NamedTuple):
    """A contract: ``level`` 1..7, ``strain`` 0..4 (C D H S NT), who declares, doubling."""

    level: int
    strain: int
    player_declares: bool
    doubling: int = 1          # 1, 2 (one joker), 4 (two)

    def text(self) -> str:
        """Return ``2S by player`` (``x`` or ``xx`` after the strain when doubled)."""
        x = {1: "", 2: "x", 4: "xx"}[self.doubling]
        return f"{self.level}{STRAINS[self.strain]}{x} by {'player' if self.player_declares else 'house'}"


class State(NamedTuple):
    """A position. Cards are ints 0..51 (``solver.cards``) and 52, 53 for the jokers."""

    number: int            # the deal number (0 when not a numbered deal)
    face_up: bytes         # the 13 face-up cards as dealt
    face_down: bytes       # the 7 face-down cards as dealt
    stock: bytes           # the 34 stock cards, top first
    kept: bytes            # the 6 kept (sorted), b"" before the choice
    bid: tuple[int, int] | None   # the player's bid (level, strain), (0, 0) a pass, None before
    played: int            # stock cards used
    hand: bytes            # the player's cards left, sorted
    tricks: int            # player's tricks so far
    lead: int              # PLAYER or HOUSE: who leads next


class Move(NamedTuple):
    """One step: ``kind`` (KEEP_MOVE, BID, PASS, PLAY) and its cards or bid."""

    kind: int
    cards: bytes = b""     # the kept cards (KEEP_MOVE) or the card played (PLAY)
    level: int = 0
    strain: int = 0


def card_name(card: int) -> str:
    """Return a card's ASCII name, ``JK`` for a joker.

    >>> card_name(0), card_name(52)
    ('AC', 'JK')
    """
    return "JK" if card >= 52 else card_str(card)


def read_card(token: str) -> int | None:
    """Return the card a token names; a joker is ``JK``, ``*`` or ``★`` (None if neither).

    The two jokers are alike: the first read is 52, the caller numbers a second 53.
    """
    if token.upper() in ("JK", "*", "★", "JOKER"):
        return 52
    return parse_card(token)


# -- bidding -----------------------------------------------------------------------


def winning_tricks(hand: Iterable[int], suit: int) -> int:
    """Return the player's winning tricks in `suit` by the house's count.

    >>> winning_tricks([parse_card(c) for c in "AH QH TH 3H 2H".split()], 2)  # type: ignore[misc]
    3
    """
    held = 0
    for c in hand:
        if c < 52 and c // 13 == suit:
            held |= 1 << _rank(c)
    return _winners(held)


@functools.cache
def _winners(held: int) -> int:
    """Return the winning tricks of a suit holding the ranks whose bits are set (2..14);
    a function of the ranks alone, so cached (the 1,716 choices of a deal repeat them)."""
    mine = [r for r in range(14, 1, -1) if held >> r & 1]
    lacking = [r for r in range(14, 1, -1) if not held >> r & 1]
    won = 0
    while mine:
        if not lacking or mine[0] > lacking[0]:
            won += 1
            mine.pop(0)
        else:
            mine.pop()
            lacking.pop(0)
    return won


def suit_lengths(hand: Iterable[int]) -> list[int]:
    """Return the hand's length in C, D, H, S."""
    lengths = [0, 0, 0, 0]
    for c in hand:
        if c < 52:
            lengths[c // 13] += 1
    return lengths


def house_bid(hand: Iterable[int]) -> tuple[int, int] | None:
    """Return the house's bid (level, strain) for the player's 13 cards, None for a pass."""
    cards = list(hand)
    total = sum(winning_tricks(cards, s) for s in range(4))
    if 6 - total <= 0:
        return None
    lengths = suit_lengths(cards)
    return 6 - total, lengths.index(min(lengths))


def notrump_allowed(hand: Iterable[int]) -> bool:
    """Return whether the hand's shape allows notrump: 4-3-3-3, 3-3-3-3-★, 3-3-3-2-★-★."""
    cards = list(hand)
    jokers = sum(c >= 52 for c in cards)
    shape = tuple(sorted(suit_lengths(cards), reverse=True))
    return shape == {0: (4, 3, 3, 3), 1: (3, 3, 3, 3), 2: (3, 3, 3, 2)}[jokers]


def player_bids(hand: Iterable[int]) -> list[tuple[int, int]]:
    """Return the bids the player may make over the house's bid, lowest first."""
    cards = list(hand)
    return _bids_over(cards, house_bid(cards))


def _bids_over(cards: list[int], house: tuple[int, int] | None) -> list[tuple[int, int]]:
    """Return the player's bids over the house's bid `house` (None: a pass)."""
    floor = -1 if house is None else house[0] * 5 + house[1]
    nt = notrump_allowed(cards)
    return [(level, strain) for level in range(1, 8) for strain in range(5)
            if level * 5 + strain > floor and (strain != NOTRUMP or nt)]


# -- scoring -----------------------------------------------------------------------


def doubling_of(hand: Iterable[int]) -> int:
    """Return the contract's doubling the player's jokers make: 1, 2 (one), 4 (two)."""
    return (1, 2, 4)[sum(c >= 52 for c in hand)]


def honours(hand: Iterable[int], strain: int) -> int:
    """Return the honours the player's 13 cards score in `strain` (100, 150 or 0)."""
    cards = set(hand)
    if strain == NOTRUMP:
        return 150 if all(s * 13 in cards for s in range(4)) else 0
    held = sum(strain * 13 + r in cards for r in (0, 9, 10, 11, 12))
    return 150 if held == 5 else 100 if held == 4 else 0


def declarer_score(level: int, strain: int, doubling: int, tricks: int, vulnerable: bool) -> int:
    """Return the declaring side's duplicate score for `tricks` (negative: the defenders'
    points): trick points, the game (300, 500 vulnerable) or part-score (50) bonus,
    overtricks, the insult bonus and slams when made; undertricks when not. It never falls
    as `tricks` grow (the best-play search relies on it).

    >>> declarer_score(1, 0, 2, 7, False), declarer_score(3, 4, 1, 10, False)
    (140, 430)
    >>> declarer_score(4, 2, 2, 6, False), declarer_score(4, 2, 4, 6, True)
    (-800, -2200)
    """
    need = level + 6
    if tricks < need:
        down = need - tricks
        if doubling == 1:
            return -down * (100 if vulnerable else 50)
        if vulnerable:
            penalty = 200 + 300 * (down - 1)
        else:
            penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -penalty * doubling // 2
    odd = tricks - 6
    per = 20 if strain < 2 else 30
    points = (per * level + (10 if strain == NOTRUMP else 0)) * doubling
    points += (500 if vulnerable else 300) if points >= 100 else 50   # game or part score
    over = odd - level
    if doubling == 1:
        points += over * per
    else:
        points += over * (100 if not vulnerable else 200) * doubling // 2 + 50 * doubling // 2
    if level == 6:
        points += 750 if vulnerable else 500
    elif level == 7:
        points += 1500 if vulnerable else 1000
    return points


def hand_score(hand: Iterable[int], contract: Contract, player_tricks: int,
               vulnerable: bool = False) -> int:
    """Return the player's score for a hand: the player's side's points minus the house's.

    >>> hand = [parse_card(c) or 0 for c in "AC KC QC JC TC 8C QH 8H 7H 9S 4S 3D".split()] + [52]
    >>> hand_score(hand, Contract(1, 0, True, 2), 7)
    290
    """
    return score_row(contract, vulnerable)[player_tricks] + honours(hand, contract.strain)


@functools.cache
def score_row(contract: Contract, vulnerable: bool = False) -> tuple[int, ...]:
    """Return the player's score, honours aside, for each of 0..13 player's tricks: a
    contract's declarer score, or minus it for the house's contract (cached: a deal's
    search asks it of the same few hundred contracts thousands of times)."""
    if contract.player_declares:
        return tuple(declarer_score(contract.level, contract.strain, contract.doubling, t,
                                    vulnerable) for t in range(14))
    return tuple(-declarer_score(contract.level, contract.strain, contract.doubling, 13 - t,
                                 vulnerable) for t in range(14))


# -- the play ----------------------------------------------------------------------


def legal_cards(hand: bytes, stock: bytes, at: int, lead: int) -> list[int]:
    """Return the player's legal cards: any when leading or answering a joker; else the
    suit led if held, otherwise any card (a joker too)."""
    if lead == PLAYER or stock[at] >= 52:
        return list(hand)
    suit = stock[at] // 13
    follow = [c for c in hand if c < 52 and c // 13 == suit]
    return follow or list(hand)


def max_tricks(hand: bytes, stock: bytes, at: int, lead: int, trump: int,
               need: int | None = None) -> int:
    """Return the most tricks the player can take from here (the rest of the hand); with
    `need`, return `need` if at least that many can be taken, else a number below it
    (a target search, which stops at the first line that takes `need`)."""
    table = Tricks(hand, stock, trump)
    if need is None:
        return table.most(hand, at, lead)
    return need if table.reaches(hand, at, lead, need) else need - 1


class Best(NamedTuple):
    """The best result found: the score, the kept cards, the bid ((0, 0) a pass) and
    the player's tricks in the whole hand."""

    score: int
    kept: bytes
    bid: tuple[int, int]
    tricks: int


def contract_options(hand: bytes) -> list[tuple[tuple[int, int], Contract]]:
    """Return the contracts a 13-card hand may reach: each bid open to the player, and
    the pass (bid (0, 0)) to defend the house's bid when the house bids."""
    doubling = doubling_of(hand)
    house = house_bid(hand)
    options = [((level, strain), Contract(level, strain, True, doubling))
               for level, strain in _bids_over(list(hand), house)]
    if house is not None:
        options.append(((0, 0), Contract(house[0], house[1], False, doubling)))
    return options


def search_deal(face_up: bytes, face_down: bytes, stock: bytes, vulnerable: bool = False,
                choices: Iterable[bytes] | None = None,
                stop: Callable[[], bool] | None = None,
                tables: dict[int, Tricks] | None = None) -> tuple[Best | None, bool]:
    """Return the best (score, kept, bid, tricks) over `choices` of kept cards (default:
    every legal one), every contract and every play, and whether the search was whole.

    Branch and bound. A choice's ceiling is its best contract's score with all 13 tricks;
    choices are taken by falling ceiling, so the search ends at the first one that cannot
    beat the best found (a sharper bound than "13 tricks" would need a trick count of a
    hand not yet searched). Within a choice, the contracts are taken by falling ceiling too,
    and each asks its trick table only "can the player take t tricks?" for the fewest t
    that beat the best found (the score grows with the player's tricks whether the player
    declares or defends), then raises t while it can. Ties keep the first found. `stop`
    is asked between choices; when it says so the search ends, not whole. `tables` (one
    ``Tricks`` per trump, shared by every choice) may be given to read their size.
    """
    if choices is None:
        jokers = bytes(c for c in face_up if c >= 52)
        others = [c for c in face_up if c < 52]
        choices = [bytes(sorted(jokers + bytes(rest)))
                   for rest in itertools.combinations(others, KEEP - len(jokers))]
    pool = bytes(sorted(face_up + face_down))
    if tables is None:
        tables = {}
    entries = []
    for kept in choices:
        hand = bytes(sorted(kept + face_down))
        held = [honours(hand, strain) for strain in range(5)]
        options = [(score_row(contract, vulnerable), held[contract.strain], bid, contract)
                   for bid, contract in contract_options(hand)]
        if options:
            entries.append((max(row[13] + extra for row, extra, _, _ in options), kept, hand,
                            options))
    entries.sort(key=lambda entry: -entry[0])          # stable: ties in choice order
    best: Best | None = None
    for top, kept, hand, options in entries:
        if best is not None and top <= best.score:
            break
        if stop is not None and stop():
            return best, False
        known: dict[tuple[int, int], tuple[int, int]] = {}     # (reached, out of reach)
        ceiling = sorted(options, key=lambda option: -(option[0][13] + option[1]))  # stable
        for row, extra, bid, contract in ceiling:
            if best is not None and row[13] + extra <= best.score:
                break
            leader = HOUSE if contract.player_declares else PLAYER
            reached, out = known.get((contract.strain, leader), (0, 14))
            goal = 0
            if best is not None:            # the fewest tricks that beat the best found
                goal = next(t for t in range(14) if row[t] + extra > best.score)
            if goal >= out:
                continue
            if contract.strain not in tables:
                tables[contract.strain] = Tricks(pool, stock, contract.strain)
            table = tables[contract.strain]
            if goal > reached:
                if not table.reaches(hand, 0, leader, goal):
                    known[contract.strain, leader] = (reached, goal)
                    continue
                reached = goal
            reached = table.most(hand, 0, leader, reached)
            known[contract.strain, leader] = (reached, reached + 1)
            value = row[reached] + extra
            if best is None or value > best.score:
                best = Best(value, kept, bid, reached)
    return best, True


def best_play(face_up: bytes, face_down: bytes, stock: bytes,
              vulnerable: bool = False) -> tuple[int, bytes, tuple[int, int], int]:
    """Return the deal's best (score, kept cards, bid ((0, 0) a pass), player's tricks)
    under full information (``search_deal`` over every choice, to the end)."""
    best, _ = search_deal(face_up, face_down, stock, vulnerable)
    assert best is not None
    return tuple(best)  # type: ignore[return-value]


# -- hidden cards -----------------------------------------------------------------------


def unknown_samples(face_up: bytes, count: int, seed: int) -> list[tuple[bytes, bytes]]:
    """Return `count` (face down, stock) deals of the 41 cards not face up, each drawn
    uniformly (``random.Random(f"bridge-hidden:{seed}:{k}")``), jokers numbered after the
    face-up ones."""
    unknown = [c for c in range(52) if c not in face_up] + \
        [j for j in JOKERS[sum(c >= 52 for c in face_up):]]
    found = []
    for k in range(count):
        cards = list(unknown)
        random.Random(f"bridge-hidden:{seed}:{k}").shuffle(cards)
        found.append((bytes(cards[:HIDDEN]), bytes(cards[HIDDEN:])))
    return found


BLIND_KEEPS = ("low", "high")


def blind_keep(face_up: bytes, keep: str) -> bytes:
    """Return the kept cards of a player who sees only the face-up cards: the jokers, then
    the lowest (`keep` "low": a weak hand, so that the house bids high, to defend) or the
    highest ("high") of the others by rank, ties by suit."""
    jokers = [c for c in face_up if c >= 52]
    others = sorted((c for c in face_up if c < 52), key=lambda c: (_rank(c), c // 13),
                    reverse=keep == "high")
    return bytes(sorted(jokers + others[:KEEP - len(jokers)]))


def blind_card(hand: bytes, stock: bytes, at: int, lead: int, trump: int) -> int:
    """Return the card a player who cannot see the stock plays: answering, the lowest card
    that wins the trick if one does, else the lowest legal card (a joker last); leading,
    the highest card of the hand (trumps first among equals), a joker last."""
    legal = legal_cards(hand, stock, at, lead)
    def low(c: int) -> tuple[int, int]:
        return (c >= 52, _rank(c) + (13 if _suit(c) == trump else 0))
    if lead == HOUSE:
        winners = [c for c in legal if resolve(stock, at, HOUSE, c, trump)[1]]
        return min(winners or legal, key=low)
    return max(legal, key=lambda c: (c < 52, _rank(c) if c < 52 else 0, _suit(c) == trump))


def blind_bid(hand: bytes) -> tuple[int, int]:
    """Return the bid of a player who follows the rule: pass ((0, 0)) to defend when the
    house bids, else the lowest bid in the longest suit (ties: the higher suit)."""
    if house_bid(hand) is not None:
        return (0, 0)
    lengths = suit_lengths(hand)
    return (1, max(range(4), key=lambda s: (lengths[s], s)))


def blind_play(hand: bytes, stock: bytes, at: int, lead: int,
               trump: int) -> tuple[bytes, int, int, int]:
    """Play every card by ``blind_card`` until the hand ends; return the cards left in the
    hand (when the stock ran out first), the stock position, the tricks taken and who
    would lead next."""
    left, tricks = bytearray(hand), 0
    while left and at < len(stock):
        card = blind_card(bytes(left), stock, at, lead, trump)
        at, won = resolve(stock, at, lead, card, trump)
        left.remove(card)
        tricks += won
        lead = PLAYER if won else HOUSE
    return bytes(left), at, tricks, lead


def blind_score(face_up: bytes, face_down: bytes, stock: bytes, keep: str,
                vulnerable: bool = False, see_stock: bool = False) -> int:
    """Return the score of a player who sees only what the rules show, playing by rule:
    ``blind_keep``, ``blind_bid``, then ``blind_card`` to the end. With `see_stock` the
    choice and the bid are the same but the play is the best one knowing the stock
    (``Tricks``): what those rules leave to a perfect play."""
    kept = blind_keep(face_up, keep)
    hand = bytes(sorted(kept + face_down))
    doubling = doubling_of(hand)
    bid = blind_bid(hand)
    if bid == (0, 0):
        house = house_bid(hand)
        assert house is not None
        contract = Contract(house[0], house[1], False, doubling)
        lead = PLAYER
    else:
        contract = Contract(bid[0], bid[1], True, doubling)
        lead = HOUSE
    if see_stock:
        tricks = Tricks(hand, stock, contract.strain).most(hand, 0, lead)
    else:
        left, _, won, _ = blind_play(hand, stock, 0, lead, contract.strain)
        tricks = won + len(left)        # the cards left when the stock ran out count
    return hand_score(hand, contract, tricks, vulnerable)

# -- the game ----------------------------------------------------------------------

_LABELS = ("deal", "face up", "face down", "stock", "kept", "contract", "played", "hand",
           "tricks", "lead")
_BID = re.compile(r"([1-7])\s*(NT|N|C|D|H|S)", re.IGNORECASE)
_SUIT_SYMBOLS = str.maketrans("♣♦♥♠♧♢♡♤", "CDHSCDHS")


@dataclass(frozen=True)
class BridgeSolitaire(Game[State, Move]):
    """Bridge Solitaire; ``vulnerable`` scores the hand vulnerable."""

    vulnerable: bool = False

    name: ClassVar[str] = "bridge-solitaire"
    aliases: ClassVar[tuple[str, ...]] = ("you-people-suck",)
    summary: ClassVar[str] = ("one hand of contract bridge against the stock: keep 6 of 13, "
                              "bid over the house, play the tricks (scored)")
    variants: ClassVar[dict[str, str]] = {"vulnerable": "score vulnerable (default false)"}
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    default_strategy: ClassVar[str] = "scored"
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 5, 1_000_000),)   # trick-table entries; < 300,000 a deal
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "FreeCell's weights scaled to blind play on deals 1-150 and checked on deals "
        "301-1000, played blind after the fit: a deal the blind player lost scores above one "
        "it won 72% of the time (area under the ROC curve 0.716; 0.663 on deals 151-300)")
    no_twins: ClassVar[str] = (
        "no small twin: the bidding and scoring are of 13 tricks (a book of 6, levels 1-7), "
        "and a smaller hand makes every deal a win by defending; the trick tables are "
        "checked against every line of play through the rules instead")

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (see the module's note)."""
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        cards = list(range(54))
        random.Random(number).shuffle(cards)
        cards = _number_jokers(cards, deal_order=True)
        return State(number, bytes(cards[HIDDEN:HIDDEN + FACE_UP]), bytes(cards[:HIDDEN]),
                     bytes(cards[HIDDEN + FACE_UP:]), b"", None, 0, b"", 0, PLAYER)

    # -- state helpers

    def full_hand(self, state: State) -> bytes:
        """Return the player's 13 cards (kept and face down), sorted."""
        return bytes(sorted(state.kept + state.face_down))

    def contract(self, state: State) -> Contract | None:
        """Return the contract once the player has bid or passed (None before, or when
        the player passed over a house pass, which the rules do not allow)."""
        if state.bid is None:
            return None
        hand = self.full_hand(state)
        doubling = doubling_of(hand)
        if state.bid != (0, 0):
            return Contract(state.bid[0], state.bid[1], True, doubling)
        house = house_bid(hand)
        return None if house is None else Contract(house[0], house[1], False, doubling)

    def is_over(self, state: State) -> bool:
        """Return whether the play has ended (every card played or the stock used up)."""
        return state.bid is not None and (not state.hand or state.played >= len(state.stock))

    def points(self, state: State) -> int:
        """Return the player's score of a finished hand (``hand_score``)."""
        contract = self.contract(state)
        assert contract is not None
        tricks = state.tricks + len(state.hand)
        return hand_score(self.full_hand(state), contract, tricks, self.vulnerable)

    def score(self, state: State) -> int:
        """Return a finished hand's score (the engine's scored-game hook; ``points``).

        The game declares no ``best_score``: the best possible is each deal's own, which
        ``best_line`` finds."""
        return self.points(state)

    def best_line(self, state: State, budget: Budget) -> Result[Move]:
        """Return the best score reachable from `state` and a play reaching it (the
        ``scored`` strategy's search for this game: ``search_deal`` and ``Tricks``).

        ``won`` when it is positive (the module's note), ``lost`` when the search was
        whole and it is not, ``unknown`` when the budget ran out first (with the best
        found, if any). The best is proven (``optimal``) when the search was whole. The
        budget is checked between choices of kept cards: its states are the entries of the
        trick tables, and memory is the growth of resident memory (at least 100 bytes an
        entry), as the searches' tables count it.
        """
        began, began_cpu = time.perf_counter(), time.process_time()
        budget = budget.start()
        memory = budget.memory if budget.memory is not None else default_memory()
        baseline = resident_bytes()
        tables: dict[int, Tricks] = {}
        peak = [0]

        def stored() -> int:
            return sum(len(t.low) + len(t.high) for t in tables.values())

        stopped: list[str] = []

        def stop() -> bool:
            entries = stored()
            peak[0] = max(peak[0], resident_bytes() - baseline, entries * 100)
            if budget.expired():
                stopped.append("seconds")
            elif budget.max_states is not None and entries >= budget.max_states:
                stopped.append("max-states")
            elif peak[0] >= memory:
                stopped.append("memory")
            return bool(stopped)

        best, whole = self._best(state, stop, tables)
        stop()                                          # the peak at the end too
        steps: tuple[Move, ...] = ()
        value: int | None = None
        if best is not None:
            steps = tuple(self._line(state, best))
            value = self.points(replay(self, state, steps))
            assert value == best.score, "the best line scores otherwise"
        status = Status.UNKNOWN if not whole else Status.WON if value is not None and \
            value > 0 else Status.LOST
        return Result(status, steps, optimal=whole, expanded=stored(), stored=stored(),
                      seconds=time.perf_counter() - began, strategy="scored",
                      stopped_by=stopped[0] if stopped and not whole else "",
                      peak_memory=peak[0],
                      cpu_seconds=time.process_time() - began_cpu, score=value)

    def _best(self, state: State, stop: Callable[[], bool],
              tables: dict[int, Tricks]) -> tuple[Best | None, bool]:
        """Return the best (score, kept, bid, tricks) from `state`, and whether whole."""
        if state.bid is None:
            return search_deal(state.face_up, state.face_down, state.stock, self.vulnerable,
                               [state.kept] if state.kept else None, stop, tables)
        if self.is_over(state):
            return Best(self.points(state), state.kept, state.bid, state.tricks + len(state.hand)), True
        contract = self.contract(state)
        assert contract is not None
        table = tables[contract.strain] = Tricks(state.hand, state.stock, contract.strain)
        tricks = state.tricks + table.most(state.hand, state.played, state.lead)
        return Best(hand_score(self.full_hand(state), contract, tricks, self.vulnerable),
                    state.kept, state.bid, tricks), True

    def _line(self, state: State, best: Best) -> list[Move]:
        """Return the steps from `state` that reach `best`: the choice, the bid, the cards."""
        steps: list[Move] = []
        if not state.kept:
            steps.append(Move(KEEP_MOVE, best.kept))
        if state.bid is None:
            steps.append(Move(PASS) if best.bid == (0, 0) else Move(BID, b"", *best.bid))
        for step in steps:
            state = self.play(state, step)
        contract = self.contract(state)
        assert contract is not None
        if not self.is_over(state):
            table = Tricks(state.hand, state.stock, contract.strain)
            cards = table.line(state.hand, state.played, state.lead, best.tricks - state.tricks)
            steps += [Move(PLAY, bytes((card,))) for card in cards]
        return steps

    @property
    def blind_calibration(self) -> tuple[float, ...] | None:
        """The weights that calibrate a blind hint's chance (``solver.app.blind.calibrated``),
        non-vulnerable only (vulnerable scores move which hands end positive): fitted on
        300 blind games (deals 1-300, 5,000 worlds a decision spent by sequential halving
        where the plans are many, each played on by ``by_rule``). The rule-follower's share
        of won worlds reads low, for the player chooses better than the rule at each later
        step (0.355 predicted, 0.515 won in the 0.3-0.4 bin). Five-fold cross-validation:
        Brier score 0.093 -> 0.080, the largest gap between predicted and won in a bin of
        100+ decisions 24.0 -> 3.3 points; fitted on deals 1-150 and checked on 151-300,
        0.095 -> 0.082 and 19.8 -> 5.3 (data/bridge_solitaire/blind.md)."""
        if self.vulnerable:
            return None
        return (0.8480, -0.5692, 0.4322, 0.3393, -0.0119, -0.1096, -1.1881)

    @property
    def difficulty_weights(self) -> dict[str, float] | None:
        """The difficulty score's weights, not vulnerable (the default rules): the
        FreeCell-fitted weights times a scale, the bias shifted, fitted on PySolFC deals
        1-150 against blind play (``benchmarks/difficulty_fit.py --scale-only --blind``: a
        deal the blind player won is easy, one it lost hard), for the game has no dial of
        resources. The FreeCell weights alone scored 285 deals of 1-300 above 98 and all
        but one "very hard": random play wins few hands of any deal, and no random hand gets
        part of the way (a hand is made or not). These keep their order of the deals (area
        under the ROC curve 0.663 on deals 151-300, 0.716 on deals 301-1000, whose blind
        games came after the fit; data/winnable/README.md), and the score reads as the
        chance that the blind player loses a deal like this one."""
        if self.vulnerable:
            return None
        return {"bias": -4.173, "effort": 0.714, "narrow": 1.105, "critical": 0.378,
                "length": 0.555, "random": -66.366, "progress": -102.483, "guided": -16.653}

    @property
    def blind_playout(self) -> Callable[[State], State]:
        """The blind hint's value of a plan in a sampled world (``Game.blind_playout``):
        ``by_rule``."""
        return self.by_rule

    def by_rule(self, state: State) -> State:
        """Return the end of the hand when the player follows the rules of
        ``blind_score`` from `state`: ``blind_keep`` (the highest cards) before the
        choice, ``blind_bid`` before the contract, then ``blind_card`` for every card.

        Each rule reads only what the player sees (the hand, and the house's card when it
        leads), so in a sampled world this is how a player who cannot see the stock
        fares there. A world's full-information best is not: it plays every trick
        knowing the stock, so the contract it values is the one to bid if the stock were
        known, and blind hints valued that way overbid (``data/bridge_solitaire/blind.md``).
        """
        if not state.kept:
            state = self.play(state, Move(KEEP_MOVE, blind_keep(state.face_up, "high")))
        if state.bid is None:
            level, strain = blind_bid(self.full_hand(state))
            state = self.play(state, Move(PASS) if level == 0 else Move(BID, b"", level, strain))
        contract = self.contract(state)
        assert contract is not None
        left, at, won, lead = blind_play(state.hand, state.stock, state.played, state.lead,
                                         contract.strain)
        return state._replace(hand=left, played=at, tricks=state.tricks + won, lead=lead)

    def is_won(self, state: State) -> bool:
        """Return whether the hand is over with a positive score (module's note)."""
        return self.is_over(state) and self.points(state) > 0

    # -- moves

    def moves(self, state: State) -> list[Move]:
        """Return the legal steps: the choices, the bids and pass, or the cards."""
        if not state.kept:
            jokers = bytes(c for c in state.face_up if c >= 52)
            others = [c for c in state.face_up if c < 52]
            return [Move(KEEP_MOVE, bytes(sorted(jokers + bytes(rest))))
                    for rest in itertools.combinations(others, KEEP - len(jokers))]
        hand = self.full_hand(state)
        if state.bid is None:
            found = [Move(BID, b"", level, strain) for level, strain in player_bids(hand)]
            return found + ([Move(PASS)] if house_bid(hand) is not None else [])
        if self.is_over(state):
            return []
        legal = legal_cards(state.hand, state.stock, state.played, state.lead)
        top_joker = max((c for c in legal if c >= 52), default=0)
        return [Move(PLAY, bytes((c,))) for c in legal if c < 52 or c == top_joker]

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step (not checked: see illegal_reason)."""
        if move.kind == KEEP_MOVE:
            return state._replace(kept=move.cards, hand=bytes(sorted(move.cards + state.face_down)))
        if move.kind in (BID, PASS):
            bid = (move.level, move.strain) if move.kind == BID else (0, 0)
            return state._replace(bid=bid, lead=HOUSE if move.kind == BID else PLAYER)
        contract = self.contract(state)
        assert contract is not None
        card = move.cards[0]
        after, won = resolve(state.stock, state.played, state.lead, card, contract.strain)
        hand = bytearray(state.hand)
        hand.remove(card)
        return state._replace(played=after, hand=bytes(hand), tricks=state.tricks + won,
                              lead=PLAYER if won else HOUSE)

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules in `state`, or "" (checked from the rules,
        not from ``moves``)."""
        if move.kind == KEEP_MOVE:
            if state.kept:
                return "the cards are already chosen"
            if len(move.cards) != KEEP or len(set(move.cards)) != KEEP:
                return f"keep {KEEP} different cards"
            if not set(move.cards) <= set(state.face_up):
                return "kept cards must be face up"
            if not {c for c in state.face_up if c >= 52} <= set(move.cards):
                return "a face-up joker must be kept"
            return ""
        if not state.kept:
            return "choose the kept cards first"
        if move.kind in (BID, PASS):
            if state.bid is not None:
                return "the bidding is over"
            hand = self.full_hand(state)
            if move.kind == PASS:
                return "" if house_bid(hand) is not None else "the house passed: the player must bid"
            if (move.level, move.strain) in player_bids(hand):
                return ""
            if move.strain == NOTRUMP and not notrump_allowed(hand):
                return "notrump needs a 4-3-3-3, 3-3-3-3-JK or 3-3-3-2-JK-JK hand"
            return "the bid does not overcall the house"
        if move.kind != PLAY or len(move.cards) != 1:
            return "no such move"
        if state.bid is None:
            return "bid or pass first"
        if self.is_over(state):
            return "the hand is over"
        card = move.cards[0]
        if card not in state.hand:
            return f"{card_name(card)} is not in the hand"
        if state.lead == HOUSE and state.stock[state.played] < 52:
            led = state.stock[state.played]
            if _suit(card) != led // 13 and any(_suit(c) == led // 13 for c in state.hand):
                return f"follow suit to {card_name(led)}"
        return ""

    def describe(self, state: State, step: Move) -> str:
        """Return a step as a player reads it, in one line under 100 characters, with
        what the rules do in answer: after the choice, the house's count of the player's
        winning tricks and its bid; after the bid or pass, the contract, its declarer,
        its doubling and trump, and who leads; for a card, the trick's number, who led,
        the house's card (and the cards it turned out of play, named when few), who wins
        and the tricks so far. When the stock is used up, the player's cards left count
        as the player's (``player 10 (2 left)``). `step` must be legal in `state`."""
        if step.kind == KEEP_MOVE:
            whole = bytes(sorted(step.cards + state.face_down))
            counted = [winning_tricks(whole, s) for s in range(4)]
            house = house_bid(whole)
            bid = "passes: the player must bid" if house is None else \
                f"bids {_bid_text(house)}"
            return (f"the house counts {sum(counted)} winning tricks (" +
                    ", ".join(f"{STRAINS[s]} {counted[s]}" for s in range(4)) + f") and {bid}")
        if step.kind in (BID, PASS):
            contract = self.contract(self.play(state, step))
            if contract is None:
                return self.notation(step)
            if step.kind == PASS:
                return self.contract_text(contract)
            house = house_bid(self.full_hand(state))
            said = "the house passed" if house is None else f"over the house's {_bid_text(house)}"
            return f"{said}: {self.contract_text(contract)}"
        contract = self.contract(state)
        assert contract is not None
        card = step.cards[0]
        at = state.played
        after, won = resolve(state.stock, at, state.lead, card, contract.strain)
        turned = state.stock[at:after]
        number = len(state.kept) + len(state.face_down) - len(state.hand) + 1
        tricks = state.tricks + won
        left = len(state.hand) - 1 if after >= len(state.stock) else 0
        count = f"player {tricks + left}" + (f" ({left} left)" if left else "") + \
            f", house {number - tricks}"
        taker = "player" if won else "house"
        answered = bool(turned) and state.lead == PLAYER and (
            turned[-1] >= 52 or card >= 52 or turned[-1] // 13 in (card // 13, contract.strain))
        phrases = []
        for named in (True, False):
            out = turned[:-1] if answered else turned
            cards = " ".join(map(card_name, out)) if named or len(out) < 2 else \
                f"{len(out)} cards"
            if state.lead == HOUSE:
                trick = f"house leads {card_name(turned[0])}, player plays {card_name(card)}"
            elif answered:
                trick = f"player leads {card_name(card)}, house plays {card_name(turned[-1])}" + \
                    (f" after {cards}" if out else "")
            elif after >= len(state.stock):
                trick = f"player leads {card_name(card)}, the stock runs out"
            else:
                trick = f"player leads {card_name(card)}, house turns {cards}, none legal"
            phrases.append(f"trick {number}: {trick}: {taker} wins; {count}")
        return phrases[0] if len(phrases[0]) < 100 else phrases[1]

    def contract_text(self, contract: Contract) -> str:
        """Return a contract as a player reads it: ``the house declares 4H doubled, hearts
        trump; the player leads`` (one joker doubles, two redouble)."""
        doubling = {1: " undoubled", 2: " doubled", 4: " redoubled"}[contract.doubling]
        trump = "no trump" if contract.strain == NOTRUMP else \
            f"{('clubs', 'diamonds', 'hearts', 'spades')[contract.strain]} trump"
        declarer, defender = ("player", "house") if contract.player_declares else \
            ("house", "player")
        return (f"the {declarer} declares {_bid_text((contract.level, contract.strain))}"
                f"{doubling}, {trump}; the {defender} leads")

    def key(self, state: State) -> bytes:
        """Return the position's bytes: no two positions are alike (no symmetry)."""
        bid = state.bid if state.bid is not None else (9, 9)
        return b"/".join((state.face_up, state.face_down, state.stock, state.kept,
                          bytes((bid[0], bid[1], state.played, state.tricks, state.lead)),
                          state.hand, str(state.number).encode()))

    def heuristic(self, state: State) -> int:
        """Return the player's cards left (the steps left, roughly)."""
        return len(state.hand) + (state.bid is None) + (not state.kept)

    def lower_bound(self, state: State) -> int:
        """Return 0: a hand can end at once when the stock runs out."""
        return 0

    def forced(self, state: State) -> list[Move]:
        """Return the only legal step when there is exactly one (else []): every line of
        play begins with it."""
        found = self.moves(state)
        return found if len(found) == 1 else []

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """Certificates of a lost position and its best score, 0 or less
        (``checker/bridge_solitaire.py``): the writer follows ``moves`` (every legal step;
        of the two jokers, alike, it offers one, as the checker's ``JK`` is one card) and
        makes no automatic move (the checker accepts no reduction, where ``forced`` would
        play an only step); a position is written by ``certificate_line``. Only the positions after the contract are in reach (a few tens of thousands
        a contract); from the kept cards, some hundreds of thousands; from the deal, the
        1,716 choices times that (data/bridge_solitaire/certificates.md)."""
        from solver.certify import Certifier

        return Certifier((), certificate_line, forced=_no_step)

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return `[move]`: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return ``keep:AC+KC+...``, ``bid:2S``, ``pass`` or a card (``JK``): one word
        each, so that a solution is a line of words."""
        if move.kind == KEEP_MOVE:
            return "keep:" + "+".join(map(card_name, move.cards))
        if move.kind == BID:
            return f"bid:{move.level}{STRAINS[move.strain]}"
        if move.kind == PASS:
            return "pass"
        return card_name(move.cards[0])

    # -- the player's view

    @functools.cached_property
    def player_view(self) -> "BridgeView":
        """What a player sees: the face-up cards, the hand once chosen, the stock cards
        turned (``BridgeView``)."""
        return BridgeView(self)

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step `text` names (``keep:AC+KC+...`` or ``keep AC KC ...``,
        ``bid:2S`` or ``bid 2S``, ``pass``, a card); raise InvalidMoveError."""
        words = text.replace(":", " ").replace("+", " ").strip().split()
        if not words:
            raise InvalidMoveError("an empty move")
        head = words[0].lower()
        if head == "pass" and len(words) == 1:
            return Move(PASS)
        if head == "bid" and len(words) == 2:
            found = _BID.fullmatch(words[1].translate(_SUIT_SYMBOLS))
            if found:
                strain = found.group(2).upper()
                return Move(BID, b"", int(found.group(1)), 4 if strain[0] == "N" else "CDHS".index(strain))
        if head == "keep":
            cards = [read_card(w) for w in words[1:]]
            if None in cards or len(cards) != KEEP:
                raise InvalidMoveError(f"{quote(text)}: keep names {KEEP} cards")
            named = _number_jokers([c for c in cards if c is not None])
            return Move(KEEP_MOVE, bytes(sorted(named)))
        if len(words) == 1:
            card = read_card(words[0])
            if card is not None:
                if card == 52:
                    card = max((c for c in state.hand if c >= 52), default=52)
                return Move(PLAY, bytes((card,)))
        raise InvalidMoveError(f"{quote(text)} is not a move: write keep:AC+KC+... (6 cards), "
                               "bid:2S, pass, or a card (AC, JK)")

    # -- text

    def drawing(self, state: State) -> Layout:
        """The cards dealt before the choice; then the player's hand, the stock face
        down and the cards out of play (``solver.layout``)."""
        def named(cards: Iterable[int], down: bool = False) -> list[str]:
            return [f"<{card_name(c)}>" if down else card_name(c) for c in cards]
        stock = state.stock[state.played:]
        if not state.kept:
            rows = [[tokens_pile("face up", named(state.face_up))],
                    [tokens_pile("face down", named(state.face_down, True))]]
        else:
            held = state.kept + state.face_down
            hand = state.hand if state.bid is not None else held
            left = set(hand)
            rows = [[tokens_pile("hand", named(hand))],
                    [tokens_pile("discarded", named(c for c in state.face_up if c not in state.kept),
                                 "stack"),
                     tokens_pile("played", named([*state.stock[:state.played],
                                                  *(c for c in held if c not in left)]), "stack")]]
        rows.append([tokens_pile("stock", named(stock[::-1], True), "stack")])
        notes = []
        if state.bid is not None:
            contract = "pass (defending)" if state.bid == (0, 0) else \
                f"{state.bid[0]}{STRAINS[state.bid[1]]}"
            notes = [f"Contract: {contract}", f"Tricks: {state.tricks}",
                     f"Lead: {'player' if state.lead == PLAYER else 'house'}"]
        return {"rows": rows, "notes": notes}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        def cards(seq: bytes) -> str:
            return " ".join(map(card_name, seq)) or "-"
        lines = [f"Deal: {state.number}", f"Face up: {cards(state.face_up)}",
                 f"Face down: {cards(state.face_down)}", f"Stock: {cards(state.stock)}"]
        if state.kept:
            lines.append(f"Kept: {cards(state.kept)}")
            if state.bid is not None:
                bid = "pass" if state.bid == (0, 0) else f"{state.bid[0]}{STRAINS[state.bid[1]]}"
                lines += [f"Contract: {bid}", f"Played: {state.played}",
                          f"Hand: {cards(state.hand)}", f"Tricks: {state.tricks}",
                          f"Lead: {'player' if state.lead == PLAYER else 'house'}"]
        return "\n".join(lines) + "\n"

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        Only a position the rules can reach is read: 54 cards with two jokers; 6 kept
        face-up cards holding every face-up joker; a bid the player may make; and the play
        lines (``Played``, ``Hand``, ``Tricks``, ``Lead``, which follow a ``Contract``
        line, itself after ``Kept``) where some legal play of the cards gone from the hand
        ends (``play_reaches``). Numbers are ASCII digits (``solver.text.read_number``).
        """
        check = DealChecker(self.name)
        values = self._lines(check, text)
        groups: dict[str, list[int]] = {}
        for label, size in (("face up", FACE_UP), ("face down", HIDDEN), ("stock", STOCK)):
            groups[label] = self._cards(check, values, label, size)
        dealt = _number_jokers(groups["face up"] + groups["face down"] + groups["stock"])
        face_up, face_down = dealt[:FACE_UP], dealt[FACE_UP:FACE_UP + HIDDEN]
        stock = dealt[FACE_UP + HIDDEN:]
        if not check.problems & (DealProblem.UNREADABLE_CARD | DealProblem.WRONG_PILE_COUNT):
            check.check_deck([c for c in dealt if c < 52])
            jokers = sum(c >= 52 for c in dealt)
            if jokers > len(JOKERS):
                check.add(DealProblem.DUPLICATE_CARD, f"{jokers} jokers: a deal has 2",
                          card="JK")
            elif jokers < len(JOKERS):
                check.add_card_problem(DealProblem.MISSING_CARD, "missing",
                                       ["JK"] * (len(JOKERS) - jokers))
        number = self._number(check, values, "deal")
        played = self._number(check, values, "played")
        tricks = self._number(check, values, "tricks")
        if "contract" in values and "kept" not in values:
            check.add(DealProblem.BAD_LINE, "a Contract line without a Kept line: the cards "
                      "are kept before the bidding", line=values["contract"][0])
        play_lines = [label for label in ("played", "hand", "tricks", "lead") if label in values]
        if play_lines and "contract" not in values:
            names = " and ".join(label.capitalize() for label in play_lines)
            check.add(DealProblem.BAD_LINE, f"{names} without a Contract line: the play "
                      "follows the bidding", line=values[play_lines[0]][0])
        bid = self._bid(check, values)
        lead = PLAYER if bid == (0, 0) else HOUSE            # the defender leads first
        if "lead" in values:
            where, word = values["lead"]
            if word.lower() in ("player", "house"):
                lead = PLAYER if word.lower() == "player" else HOUSE
            else:
                check.add(DealProblem.BAD_LINE, f"lead {quote(word)}: player or house", line=where)
        up_jokers = [c for c in face_up if c >= 52]
        mine = sorted(c for c in face_up + face_down if c >= 52)
        kept: list[int] = []
        if "kept" in values:
            named = self._cards(check, values, "kept", KEEP)
            kept = self._held(check, values, "kept", named, [c for c in face_up if c < 52],
                              up_jokers, "face-up cards")
            if sum(c >= 52 for c in named) < len(up_jokers):
                check.add(DealProblem.BAD_LINE, "a face-up joker must be kept")
        whole = sorted(kept + face_down)
        hand = whole
        if "hand" in values:
            named = self._cards(check, values, "hand", None)
            hand = self._held(check, values, "hand", named,
                              [c for c in whole if c < 52], mine, "kept or face-down cards")
        check.raise_if_any()
        if kept and bid is not None:
            if bid == (0, 0) and house_bid(whole) is None:
                check.add(DealProblem.BAD_LINE, "the house passed: the player must bid",
                          line=values["contract"][0])
            elif bid != (0, 0) and bid not in player_bids(whole):
                check.add(DealProblem.BAD_LINE, f"the bid {bid[0]}{STRAINS[bid[1]]} is not "
                          "open to the player (an overcall; notrump only by shape)",
                          line=values["contract"][0])
        check.raise_if_any()
        if not kept:
            return State(number, bytes(face_up), bytes(face_down), bytes(stock), b"", None, 0,
                         b"", 0, PLAYER)
        if bid is None:
            return State(number, bytes(face_up), bytes(face_down), bytes(stock),
                         bytes(kept), None, 0, bytes(whole), 0, PLAYER)
        state = State(number, bytes(face_up), bytes(face_down), bytes(stock), bytes(kept),
                      bid, played, bytes(hand), tricks, lead)
        problem = self.unreachable(state)
        if problem:
            check.add(DealProblem.BAD_LINE, problem)
            check.raise_if_any()
        return state

    def unreachable(self, state: State) -> str:
        """Return why no legal play from the bid reaches `state`'s play (stock cards used,
        hand, tricks, who leads), or "" when one does; `state` has a legal contract."""
        contract = self.contract(state)
        assert contract is not None
        gone = len(state.kept) + len(state.face_down) - len(state.hand)
        where = (f"Played: {state.played}, Tricks: {state.tricks}, "
                 f"Lead: {'player' if state.lead == PLAYER else 'house'}")
        first = "the player" if not contract.player_declares else "the house"
        if gone == 0 and (state.played, state.tricks) != (0, 0) or \
                gone == 0 and state.lead != (HOUSE if contract.player_declares else PLAYER):
            return (f"no card is played yet ({where}): Played and Tricks are 0 and the "
                    f"defender, {first}, leads")
        if state.played > len(state.stock):
            return f"played {state.played}: the stock holds {len(state.stock)} cards"
        cards = f"{gone} card{'s' if gone != 1 else ''}"
        if state.tricks > gone:
            return f"tricks {state.tricks}: the player has played {cards}"
        if state.played < gone:
            return (f"played {state.played}: the {gone} tricks played used at least {gone} "
                    "stock cards")
        if not play_reaches(self.full_hand(state), state.hand, state.stock, contract.strain,
                            PLAYER if not contract.player_declares else HOUSE, state.played,
                            state.tricks, state.lead):
            return f"no legal play of the {cards} gone from the hand ends at {where}"
        return ""

    def _lines(self, check: DealChecker, text: str) -> dict[str, tuple[int, str]]:
        """Return each labelled line's (line number, value); record bad and repeated lines."""
        values: dict[str, tuple[int, str]] = {}
        for number, raw in enumerate(plain_text(text).splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            label, sep, rest = line.partition(":")
            label = " ".join(label.lower().split())
            if not sep or label not in _LABELS:
                check.add(DealProblem.BAD_LINE, f"{quote(line)} is not a line of the format",
                          line=number)
            elif label in values:
                check.add(DealProblem.BAD_LINE, f"a second {label} line", line=number)
            else:
                values[label] = (number, rest.strip())
        if not values and not check.problems:
            check.add(DealProblem.EMPTY, "the text holds no position")
            check.raise_if_any()
        return values

    def _bid(self, check: DealChecker,
             values: dict[str, tuple[int, str]]) -> tuple[int, int] | None:
        """Return the Contract line's bid ((0, 0) a pass), None when there is none."""
        if "contract" not in values:
            return None
        where, word = values["contract"]
        found = _BID.fullmatch(word.translate(_SUIT_SYMBOLS))
        if word.lower() == "pass":
            return (0, 0)
        if found:
            strain = found.group(2).upper()
            return (int(found.group(1)), 4 if strain[0] == "N" else "CDHS".index(strain))
        check.add(DealProblem.BAD_LINE, f"contract {quote(word)}: write 2S, 3NT or pass",
                  line=where)
        return None

    def _held(self, check: DealChecker, values: dict[str, tuple[int, str]], label: str,
              named: list[int], cards: list[int], jokers: list[int], source: str) -> list[int]:
        """Return the cards a Kept or Hand line names, sorted, its jokers numbered as
        `jokers` (those the line may hold); record a card named twice, one not among
        `cards` and more jokers than there are."""
        line = values[label][0]
        seen: set[int] = set()
        for card in named:
            if card < 52 and card in seen:
                check.add(DealProblem.DUPLICATE_CARD, f"{label}: {card_name(card)} twice",
                          line=line, card=card_name(card))
            elif card < 52 and card not in cards:
                check.add(DealProblem.BAD_LINE, f"{label}: {card_name(card)} is not one of "
                          f"the {source}", line=line, card=card_name(card))
            seen.add(card)
        count = sum(c >= 52 for c in named)
        if count > len(jokers):
            check.add(DealProblem.BAD_LINE, f"{label}: {_jokers(count)}, the {source} hold "
                      f"{_jokers(len(jokers))}", line=line, card="JK")
        return sorted(seen - set(JOKERS) | set(jokers[:count]))

    def _number(self, check: DealChecker, values: dict[str, tuple[int, str]], label: str) -> int:
        if label not in values:
            return 0
        line, word = values[label]
        found = read_number(word, 12)
        if found is not None:
            return found
        check.add(DealProblem.BAD_LINE, f"{label} {quote(word)}: expected a whole number",
                  line=line)
        return 0

    def _cards(self, check: DealChecker, values: dict[str, tuple[int, str]], label: str,
               size: int | None) -> list[int]:
        if label not in values:
            check.add(DealProblem.WRONG_PILE_COUNT, f"no {label.capitalize()} line")
            return []
        line, rest = values[label]
        if rest == "-":
            rest = ""
        found: list[int] = []
        for token in rest.split():
            card = read_card(token)
            if card is None:
                check.add(DealProblem.UNREADABLE_CARD, f"unreadable card {quote(token)}",
                          line=line, card=token)
            else:
                found.append(card)
        if size is not None and len(rest.split()) != size:
            check.add(DealProblem.WRONG_PILE_SIZE, f"{label}: {len(rest.split())} cards, "
                      f"expected {size}", line=line)
        return _number_jokers(found)


@dataclass(frozen=True)
class BridgeView(Remembers):
    """A Bridge Solitaire player's view (``solver.view``).

    Unseen: the 7 face-down cards until the player has chosen the kept cards (the rules
    turn them up then), and the stock cards not yet turned, in their order. The 13 face-up
    cards stay known after the choice (the text lets a player remember the discards), and
    so do the stock cards the house has turned, played or out of play. A house lead is
    the stock's top card, turned before the player answers it (the player follows its
    suit), so it is seen. A deal's start has 41 cards unseen; once the choice is made, 34.
    The deal number is left out of the mask (it would tell the cards). Nothing is seen
    beyond the position (``seen`` is None). The two jokers are alike, numbered 52 and 53
    in the text's order (face up, face down, stock); every seen card comes before every
    unseen one in that order, so the unseen jokers are given as 52 both and ``fill``
    numbers them in turn: a world is a placement of unlike cards.

    Steps: the game's moves (the choices read the face-up cards, the bids the hand, the
    cards the hand and a house lead). Safe: the one step open when there is only one
    (every line of play begins with it).
    """

    can_undo: ClassVar[bool] = False     # a choice, a bid and a card played are for good

    game: BridgeSolitaire

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the face-down cards (before the choice), then the stock not yet turned."""
        stock = state.stock
        if not state.kept:
            cut, down = 0, state.face_down
        else:
            cut, down = state.played, b""
            if state.bid is not None and state.lead == HOUSE and cut < len(stock):
                cut += 1                                # the house's lead, turned
        hidden = down + stock[cut:]
        jokers = bytes(sorted(c for c in hidden if c >= 52))
        cards = hidden.replace(b"\x35", b"\x34") if jokers else hidden
        fixed = state._replace(number=0)
        seen_stock = stock[:cut]
        take = len(down)

        def fill(placed: Sequence[int]) -> State:
            dealt = bytes(placed)
            if jokers:                                  # number the jokers in turn
                first = dealt.find(52)
                if len(jokers) == 1:
                    dealt = dealt[:first] + jokers + dealt[first + 1:]
                else:
                    second = dealt.find(52, first + 1)
                    dealt = dealt[:second] + b"\x35" + dealt[second + 1:]
            if take:
                return fixed._replace(face_down=dealt[:take], stock=dealt[take:])
            return fixed._replace(stock=seen_stock + dealt)
        return Unseen(tuple(cards), fill)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return the game's legal steps: none reads an unseen card."""
        return first_steps(self.game, state)

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return the only step open, if only one is: every line of play begins with it."""
        found = self.steps(state, seen)
        return found if len(found) == 1 else []


_NAMES = [card_name(card) for card in range(54)]


def certificate_line(state: State) -> str:
    """Return the checker's LINE of a position (``checker/bridge_solitaire.py``): the cards
    dealt, the kept ones, the contract, the stock cards used, the hand, the tricks and who
    leads (the last five ``-``, 0, ``-``, 0, ``-`` before the contract). Written directly:
    through the text and the checker's parser a certificate took nine times as long to
    write (29,614 positions, 6.9 CPU s against 0.8); a test compares the two on random play.

    >>> certificate_line(GAME.deal(1)).split("|")[3:]
    ['-', '-', '0', '-', '0', '-']
    """
    def cards(seq: bytes) -> str:
        return "".join([_NAMES[card] for card in seq]) or "-"
    head = [cards(state.face_up), cards(state.face_down), cards(state.stock), cards(state.kept)]
    if state.bid is None:
        return "|".join(head + ["-", "0", "-", "0", "-"])
    bid = "pass" if state.bid == (0, 0) else _bid_text(state.bid)
    return "|".join(head + [bid, str(state.played), cards(state.hand), str(state.tricks),
                            "player" if state.lead == PLAYER else "house"])


def _no_step(state: State) -> list[Move]:
    """Return []: the certificate writer makes no automatic move (``certifier``)."""
    return []


def _bid_text(bid: tuple[int, int]) -> str:
    """Return a bid (level, strain) as ``4H`` or ``3NT``."""
    return f"{bid[0]}{STRAINS[bid[1]]}"


def _jokers(count: int) -> str:
    """Return "no joker", "1 joker", "2 jokers"."""
    return "no joker" if count == 0 else f"{count} joker{'s' if count > 1 else ''}"


def play_reaches(start: bytes, hand: bytes, stock: bytes, trump: int, lead: int,
                 played: int, tricks: int, last: int) -> bool:
    """Return whether some legal play from the first trick (the player holding `start`,
    `lead` to lead) leaves the player holding `hand`, with `played` stock cards used,
    `tricks` taken and `last` to lead: whether the rules reach that play.

    A search over (the player's cards, stock position, leader, tricks), cut where it
    passes the stock position, the player's or the house's tricks, or where the cards
    left to play need more stock cards than are left (each trick uses one at least).
    Jokers are alike: the higher is played first, as ``moves`` does.
    """
    to_play = list(start)
    for card in hand:
        if card not in to_play:
            return False
        to_play.remove(card)
    lost = len(to_play) - tricks
    if lost < 0:
        return False
    keep = set(hand)
    seen: set[tuple[bytes, int, int, int]] = set()

    def search(held: bytes, at: int, leader: int, won: int) -> bool:
        left = len(held) - len(hand)
        if left == 0:
            return at == played and leader == last and won == tricks
        if at >= len(stock) or at + left > played:
            return False
        key = (held, at, leader, won)
        if key in seen:
            return False
        seen.add(key)
        gone = len(start) - len(held)
        joker_left = sum(c >= 52 for c in held) > sum(c >= 52 for c in hand)
        top = max(held)
        for card in dict.fromkeys(legal_cards(held, stock, at, leader)):
            if card >= 52 and (not joker_left or card != top):
                continue
            if card < 52 and card in keep:
                continue
            after, took = resolve(stock, at, leader, card, trump)
            if after > played or won + took > tricks or gone + 1 - won - took > lost:
                continue
            rest = bytearray(held)
            rest.remove(card)
            if search(bytes(rest), after, PLAYER if took else HOUSE, won + took):
                return True
        return False

    return search(bytes(sorted(start)), 0, lead, 0)


def _number_jokers(cards: list[int], deal_order: bool = False) -> list[int]:
    """Return `cards` with the jokers numbered 52, 53 in order (the jokers are alike);
    `deal_order`: `cards` is the deal, face-down first; the numbering follows the text's
    order instead (face up, face down, stock). A text naming more than two jokers has the
    others numbered 53 too (the parser refuses it)."""
    order = cards[HIDDEN:HIDDEN + FACE_UP] + cards[:HIDDEN] + cards[HIDDEN + FACE_UP:] \
        if deal_order else cards
    out: list[int] = []
    jokers = 0
    for c in order:
        if c >= 52:
            c = JOKERS[min(jokers, len(JOKERS) - 1)]
            jokers += 1
        out.append(c)
    if deal_order:
        return out[FACE_UP:FACE_UP + HIDDEN] + out[:FACE_UP] + out[FACE_UP + HIDDEN:]
    return out


GAME = BridgeSolitaire()
