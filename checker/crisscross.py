"""The checker's rules for CrissCross (Chris Smyth's domino solitaire), written again from
the rule text, to be read beside it (``games/crisscross.py`` quotes the rules and the
project's rulings):

    A double-six set of dominoes (28 tiles; a double-n set is a variant) is shuffled into
    the draw pile. Tiles are drawn one at a time. The first tile drawn starts arm 1 of the
    cross. Each tile drawn is placed if it can be: on the open (outer) end of an arm whose
    pips it matches, the matching half against it, or as the first tile of a new arm while
    fewer than 4 arms exist, either way round. Where it can go several ways the player
    chooses; a tile with no place goes face down to the scrap heap. When the draw pile is
    used up and the scrap heap is not empty, the heap is reshuffled into a new draw pile.
    The game ends after a pass through the draw pile places no tile (or when no tile is
    left). The score is the number of tiles left (0 is a win).

The project's rulings read here: a tile that can be placed must be; reshuffle k (1, 2...)
of deal N puts the heap's tiles in canonical order (by the higher half, then the lower)
and shuffles them with ``random.Random(f"crisscross:{N}:{k}")``; a position without its
deal number has unknown reshuffles (none is offered, and its game is not known to be over
where one would come). Variants: ``cross_first`` (while fewer arms than ``arms`` exist a
tile must start the next arm), ``no_double_starts`` (a double never starts an arm),
``arms`` 3..5, ``double`` the set.

The scores, as the engine counts them (higher is better): minus the tiles left, where the
game is over. A certificate of a lost deal claims the best of them (``check.py``).

No rule reads an arm's tiles but the open end, so a position here is (ends, draw, scrap,
reshuffles, placed, seed): each started arm's open end in the order the arms were started,
the draw pile (the next tile first), the scrap heap in canonical order, the reshuffles so
far, whether the pass under way placed a tile, the deal number (0: not known). A tile is
(high, low), high >= low.

LINE: ``ends|draw|scrap|reshuffles|placed|seed``: ends as digits joined by ``,``, tiles as
``6-2`` joined by spaces, placed ``y`` or ``n``.
"""
from __future__ import annotations

import random
import re
from typing import Any, Iterator

NAME = "crisscross"
REDUCTIONS = {
    "arm-order": "no rule names an arm once it is started and only an arm's open end is read "
                 "again, so positions whose open ends differ only in order have the same plays "
                 "(a move on one arm is the move on the arm with the same end) and the same "
                 "scores: the ends are written sorted",
    "only-move": "a position with one legal move (a scrap, a reshuffle, a tile with one place) "
                 "has the plays, so the ends and scores, of the position after it, so settle "
                 "plays that move (and again while there is one alone)",
}

Tile = tuple[int, int]
Position = tuple[tuple[int, ...], tuple[Tile, ...], tuple[Tile, ...], int, bool, int]


def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != {"double", "arms", "cross_first", "no_double_starts"} \
            or variant["double"] not in range(1, 13) or variant["arms"] not in (3, 4, 5) \
            or not isinstance(variant["cross_first"], bool) \
            or not isinstance(variant["no_double_starts"], bool):
        return "expected double 1..12, arms 3..5, cross_first and no_double_starts true or false"
    return ""


def tiles(variant: dict[str, Any]) -> list[Tile]:
    """The set in canonical order: by the higher half, then the lower (0-0, 1-0, 1-1, 2-0...)."""
    return [(high, low) for high in range(variant["double"] + 1) for low in range(high + 1)]


def name(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


# -- the deal and the text ----------------------------------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """``random.Random(number).shuffle`` of the set in canonical order, drawn from the first;
    the number seeds the reshuffles."""
    if not 1 <= number <= 10 ** 12:
        raise ValueError("deal numbers run from 1 to 10**12")
    pile = tiles(variant)
    random.Random(number).shuffle(pile)
    return (), tuple(pile), (), 0, False, number


def reshuffled(seed: int, count: int, scrap: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """Reshuffle `count` (from 1) of deal `seed`: the heap in canonical order, shuffled."""
    pile = sorted(scrap)
    random.Random(f"crisscross:{seed}:{count}").shuffle(pile)
    return tuple(pile)


TILE = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")


def read_tiles(text: str, variant: dict[str, Any]) -> list[Tile]:
    """Tiles as written (``6-2``, halves in the order written); ``-`` or nothing: none."""
    found = []
    for token in [] if text.strip() in ("", "-") else text.split():
        match = TILE.fullmatch(token)
        if match is None or max(int(match[1]), int(match[2])) > variant["double"]:
            raise ValueError(f"cannot read the tile {token!r}")
        found.append((int(match[1]), int(match[2])))
    return found


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the lines ``Deal:``, ``Reshuffles:``, ``Placed:``, ``Draw:``, ``Scrap:`` and
    ``Arm n:`` (each arm's tiles from the centre out, inner half first; ``-``: not started)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            label, colon, rest = line.partition(":")
            label = " ".join(label.lower().split())
            if not colon or label in values:
                raise ValueError(f"cannot read the line {line!r}")
            values[label] = rest.strip()
    arm_labels = [f"arm {n}" for n in range(1, variant["arms"] + 1)]
    known = {"deal", "reshuffles", "placed", "draw", "scrap", *arm_labels}
    if "draw" not in values or not set(values) <= known:
        raise ValueError(f"expected the lines {', '.join(sorted(known))}, Draw among them")
    ends: list[int] = []
    held: list[Tile] = []
    for label in arm_labels:
        arm = read_tiles(values.get(label, "-"), variant)
        for before, tile in zip(arm, arm[1:]):
            if tile[0] != before[1]:
                raise ValueError(f"{label}: {name(tile)} does not match the open end {before[1]}")
        if arm and len(ends) < arm_labels.index(label):
            raise ValueError("arms are started in order")
        if arm:
            ends.append(arm[-1][1])
        held += [(max(t), min(t)) for t in arm]
    draw = [(max(t), min(t)) for t in read_tiles(values["draw"], variant)]
    scrap = [(max(t), min(t)) for t in read_tiles(values.get("scrap", "-"), variant)]
    if sorted(held + draw + scrap) != tiles(variant):
        raise ValueError("each tile of the set must be written exactly once")
    placed = values.get("placed", "no").lower()
    numbers = [values.get("deal", "0"), values.get("reshuffles", "0")]
    if placed not in ("yes", "no") or not all(n.isdigit() for n in numbers):
        raise ValueError("Deal and Reshuffles are whole numbers, Placed yes or no")
    return tuple(ends), tuple(draw), tuple(sorted(scrap)), int(numbers[1]), placed == "yes", \
        int(numbers[0])


def encode(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    ends, draw, scrap, reshuffles, placed, seed = pos
    shown = sorted(ends) if "arm-order" in reductions else ends
    return "|".join([",".join(map(str, shown)), " ".join(map(name, draw)),
                     " ".join(map(name, scrap)), str(reshuffles), "y" if placed else "n",
                     str(seed)])


def decode(line: str, variant: dict[str, Any]) -> Position:
    fields = line.split("|")
    if len(fields) != 6 or fields[4] not in ("y", "n") \
            or not fields[3].isdigit() or not fields[5].isdigit():
        raise ValueError("not ends|draw|scrap|reshuffles|y or n|deal")
    ends = tuple(int(e) for e in fields[0].split(",")) if fields[0] else ()
    draw, scrap = (read_tiles(field, variant) for field in fields[1:3])
    if len(ends) > variant["arms"] or any(e > variant["double"] for e in ends) \
            or any(high < low for high, low in draw + scrap) or scrap != sorted(scrap) \
            or len(set(draw + scrap)) != len(draw + scrap):
        raise ValueError("ends beyond the cross or the set, or tiles unordered or repeated")
    return ends, tuple(draw), tuple(scrap), int(fields[3]), fields[4] == "y", int(fields[5])


# -- the rules ------------------------------------------------------------------------------

def places(pos: Position, variant: dict[str, Any]) -> Iterator[tuple[str, Position]]:
    """Where the drawn tile may go: on an arm's open end it matches (that half inward), or
    as the first tile of the next arm while fewer than ``arms`` exist (either half inward;
    not a double with ``no_double_starts``); with ``cross_first`` only the latter while the
    cross is not formed. The notation: the tile inner half first, ``>``, the arm (from 1)."""
    ends, draw, scrap, reshuffles, _, seed = pos
    high, low = draw[0]
    forming = variant["cross_first"] and len(ends) < variant["arms"]
    for arm, end in enumerate(ends):
        for inner, outer in {(high, low), (low, high)}:
            if end == inner and not forming:
                after = ends[:arm] + (outer,) + ends[arm + 1:]
                yield f"{inner}-{outer}>{arm + 1}", (after, draw[1:], scrap, reshuffles, True, seed)
    if len(ends) < variant["arms"] and not (variant["no_double_starts"] and high == low):
        for inner, outer in sorted({(high, low), (low, high)}):
            yield f"{inner}-{outer}>{len(ends) + 1}", \
                (ends + (outer,), draw[1:], scrap, reshuffles, True, seed)


def moves(pos: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """A tile is drawn and placed where it can be, else scrapped (``x``); with the draw pile
    used up, a pass that placed a tile and a heap not empty, the heap is reshuffled (only
    where the deal number says how); otherwise the game is over."""
    ends, draw, scrap, reshuffles, placed, seed = pos
    if draw:
        found = list(places(pos, variant))
        yield from found
        if not found:
            yield "x", (ends, draw[1:], tuple(sorted(scrap + draw[:1])), reshuffles, placed, seed)
    elif scrap and placed and seed:
        yield "reshuffle", (ends, reshuffled(seed, reshuffles + 1, scrap), (), reshuffles + 1,
                            False, seed)


def settle(pos: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    while "only-move" in reductions:
        found = list(moves(pos, variant, reductions))
        if len(found) != 1:
            break
        pos = found[0][1]
    return pos


def is_won(pos: Position, variant: dict[str, Any]) -> bool:
    """No tile left in the draw pile or the scrap heap."""
    return not pos[1] and not pos[2]


def score(pos: Position, variant: dict[str, Any]) -> int | None:
    """Minus the tiles left, where the game is over: the draw pile used up, and the heap
    empty or the pass placing nothing. None where a move is left, or a reshuffle is due
    whose order nobody knows (no deal number): there the game may go on."""
    _, draw, scrap, _, placed, seed = pos
    if draw or scrap and placed:
        return None
    return -len(scrap)
