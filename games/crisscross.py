"""CrissCross (Chris Smyth's domino solitaire): a scored game, tiles left at the end.

Rules (the project's ruling of the rule text): a double-six set of dominoes (28 tiles;
other double-n sets are a variant) is shuffled into the draw pile; the deal is the draw
order, known to the solver (full information; the player's view, ``CrissCrossView``,
knows only the tile drawn and which tiles are left). Tiles are drawn one at a time.

- The first tile drawn starts arm 1 of the cross. Each tile drawn is placed if it can
  be: on the open (outer) end of an arm whose pips it matches, the matching half against
  it, or as the first tile of a new arm while fewer than 4 arms exist, either way round
  (the ends at the centre need not match). Where it can go several ways the player
  chooses; a tile with no place goes face down to the scrap heap.
- When the draw pile is used up and the scrap heap is not empty, the heap is reshuffled
  into a new draw pile. The game ends after a pass through the draw pile places no tile
  (or when no tile is left).
- The score is the number of tiles left (0 is a win). For the engine (higher is better)
  ``score`` is minus the tiles left and ``best_score`` is 0.

Rulings where the text is silent:

- A tile that can be placed must be ("placed if it can be"): it is never scrapped by
  choice. A tile that fits more than one place goes where the player chooses, including a
  new arm while one may be started.
- Reshuffles are fixed by the deal's seed (the deal number for numbered deals):
  reshuffle ``k`` (1, 2, ...) puts the scrap heap's tiles in canonical order (below) and
  shuffles them with ``random.Random(f"crisscross:{seed}:{k}").shuffle``; the first tile
  of the result is drawn first. Deal + seed = one deterministic game.
- A position without a ``Deal:`` line has unknown reshuffles: ``moves`` offers no
  reshuffle and the rule check refuses one, so a line of play ends where the draw pile
  runs out. A win found so is a win. Any other score found counts the tiles that line
  leaves when the pile runs out: the player's game along it ends with no more (a
  reshuffle only places tiles), but may end with fewer, so the score is not proven best
  while a reshuffle may still come: ``solve`` and ``hint`` then say ``unknown`` with
  ``stopped_by`` ``reshuffle-unknown`` and why (``unknown_future``), with the best score
  found.
- A pass that places no tile ends the game even with tiles in the heap: nothing changed
  in it, so every later pass would place nothing too.
- Variants: ``cross_first`` (the first tiles drawn form the cross: while fewer arms than
  ``arms`` exist, a tile must start a new arm, and no tile goes on an arm's end);
  ``no_double_starts`` (a double may not start an arm: with no end to go on it is
  scrapped, even as the first tile); ``arms`` 3 or 5 instead of 4.

Canonical order of tiles: by the higher half, then the lower: 0-0, 1-0, 1-1, 2-0, 2-1,
2-2, 3-0, ... A tile's name is its halves joined by ``-``, higher first (``6-2``).

Numbered deals (1 to 10**12): ``random.Random(number).shuffle`` of the tiles in canonical
order; the first tile of the result is drawn first. The seed of the deal's reshuffles is
`number`.

Symmetry: no rule names an arm once it is started (arm 1 is only the first arm), and only
an arm's open end is ever read again. So positions whose arms' open ends are the same
multiset, with the same draw pile, scrap heap, reshuffle count, placed-this-pass flag and
seed, have the same lines of play (each move on an arm maps to the move on an arm with the
same open end) and the same scores: the key keeps the open ends sorted and nothing else of
the arms. The contract tests check it against random images with the arms shuffled.

Text format (lines ``Label: value``, ``#`` starts a comment)::

    Deal: 7                  # the reshuffles' seed (left out when not known)
    Reshuffles: 0            # reshuffles so far (0 when left out; fewer than the tiles)
    Placed: no               # a tile placed in the pass under way? (no when left out)
    Draw: 6-2 6-1 1-1 ...    # the draw pile, the next tile first (- for none)
    Scrap: 4-3 5-0           # the scrap heap, any order (- for none; left out: none)
    Arm 1: 2-6 6-4           # arm 1 from the centre out, each tile inner half first
    Arm 2: -                 # one line an arm (as many as the variant has), - if not started

Each tile of the set appears exactly once. Arms are started in order; in an arm each
tile's inner half matches the outer half before it.

Notation (one step a line of play; each drawn tile is one step, so a player follows it
tile by tile at the table): ``6-2>1`` places the drawn 6-2 on arm 1 with its 6 inward,
2 now the open end; ``1-6>2`` starts arm 2 (the next arm) with the 1 at the centre;
``4-3 x`` (or ``x``) scraps the drawn tile, which has no place; ``reshuffle`` turns the
scrap heap into the new draw pile. Scraps and reshuffles are forced (each is then the only
legal step), and the solver plays them without being asked.

Test-only small twins: ``double`` 3 and 4 (10 and 15 tiles).
"""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Sequence

from solver.game import (DealChecker, DealProblem, Game, InvalidMoveError, check_option, card_list,
                         cut, quote)
from solver.text import number_in, read_number
from solver.view import Remembers, Unseen
from solver.layout import Layout, tokens_pile

if TYPE_CHECKING:
    from solver.certify import Certifier

__all__ = ["GAME", "CrissCross", "CrissCrossView", "State", "Move", "PLACE", "SCRAP", "RESHUFFLE",
           "NO_DEAL", "MAX_DEAL", "tile_name", "tiles_of"]

PLACE = 0           # Move(PLACE, arm, oriented tile): on arm `arm` (0-based), a new one if next
SCRAP = 1           # Move(SCRAP, 0, 0): the drawn tile has no place, to the scrap heap
RESHUFFLE = 2       # Move(RESHUFFLE, 0, 0): the scrap heap becomes the draw pile
NO_DEAL = 0         # State.seed of a position whose deal number is not known
MAX_DEAL = 10 ** 12
UNKNOWN_RESHUFFLES = ("reshuffle-unknown",
                      "the board has no Deal: line, so its reshuffles are unknown")


class State(NamedTuple):
    """A position. A tile is a byte ``high * 16 + low``; on an arm, ``inner * 16 + outer``."""

    arms: tuple[bytes, ...]     # the arms started, in order, each from the centre out
    draw: bytes                 # the draw pile, the next tile first
    scrap: bytes                # the scrap heap, in canonical (sorted) order
    reshuffles: int             # reshuffles so far
    placed: bool                # a tile was placed in the pass under way
    seed: int                   # the reshuffles' seed (the deal number), NO_DEAL if not known


class Move(NamedTuple):
    """One step: ``kind`` (PLACE, SCRAP, RESHUFFLE), the arm and the oriented tile."""

    kind: int
    arm: int
    tile: int


_SCRAP_MOVE = Move(SCRAP, 0, 0)
_RESHUFFLE_MOVE = Move(RESHUFFLE, 0, 0)
_TILE = re.compile(r"([0-9]{1,2})\s*[-|]\s*([0-9]{1,2})")
_PLACE_TEXT = re.compile(r"([0-9]{1,2})\s*[-|]\s*([0-9]{1,2})\s*>\s*([0-9]{1,2})")
_SCRAP_TEXT = re.compile(r"(?:([0-9]{1,2})\s*[-|]\s*([0-9]{1,2})\s*)?x")
_LABELS = ("deal", "reshuffles", "placed", "draw", "scrap")
_ARM_LABEL = re.compile(r"arm\s*([0-9]{1,2})")


def tile_name(tile: int) -> str:
    """Return a tile's name, its halves as stored (``6-2``).

    >>> tile_name(0x62), tile_name(0x26)
    ('6-2', '2-6')
    """
    return f"{tile >> 4}-{tile & 15}"


def tiles_of(double: int) -> list[int]:
    """Return the tiles of a double-`double` set in canonical order (higher half, lower).

    >>> [tile_name(t) for t in tiles_of(1)]
    ['0-0', '1-0', '1-1']
    """
    return [high * 16 + low for high in range(double + 1) for low in range(high + 1)]


def _small(digits: str) -> int:
    """Return the number of one or two ASCII digits that a pattern above matched."""
    return read_number(digits) or 0


def _plain(tile: int) -> int:
    """Return the tile's canonical byte, higher half first."""
    a, b = tile >> 4, tile & 15
    return a * 16 + b if a >= b else b * 16 + a


@dataclass(frozen=True)
class CrissCross(Game[State, Move]):
    """CrissCross; ``double`` is the set, the others are the rule text's variations."""

    double: int = 6
    arms: int = 4
    cross_first: bool = False
    no_double_starts: bool = False

    name: ClassVar[str] = "crisscross"
    pieces: ClassVar[str] = "tiles"
    difficulty_checked: ClassVar[str | None] = (  # data/winnable/README.md
        "the score does not grade these deals: every deal of 1-1000 is won and scores 0 (nearly "
        "every first move keeps the deal winnable, and random play wins on every deal)")
    aliases: ClassVar[tuple[str, ...]] = ("criss-cross-dominoes", "crisscross-dominoes")
    summary: ClassVar[str] = ("dominoes: draw each tile onto an arm of a cross or the scrap "
                              "heap; reshuffle the heap; score the tiles left (scored)")
    variants: ClassVar[dict[str, str]] = {
        "double": "the set: double-n, 1..12 (default 6, 28 tiles; 3 and 4 are the tests' twins)",
        "arms": "arms of the cross, 3..5 (default 4)",
        "cross_first": "the first tiles drawn form the cross, one an arm (default false)",
        "no_double_starts": "a double may not start an arm (default false)",
    }
    presets: ClassVar[dict[str, dict[str, Any]]] = {}
    # Small twins (solver.game.twins): the smaller sets win nearly every deal with four arms,
    # so the variations that lose some are twins too (every verdict exercised).
    regression: ClassVar[tuple[tuple[dict[str, Any], int, int, int], ...]] = \
        (({}, 1, 20, 5_000),)
    twins: ClassVar[tuple[dict[str, Any], ...]] = (
        {"double": 3}, {"double": 4}, {"double": 3, "arms": 3},
        {"double": 4, "arms": 3, "no_double_starts": True}, {"double": 4, "cross_first": True})
    default_strategy: ClassVar[str] = "scored"
    best_score: ClassVar[int] = 0

    def __post_init__(self) -> None:
        check_option("double", self.double, range(1, 13))
        check_option("arms", self.arms, range(3, 6))

    @property
    def tiles(self) -> list[int]:
        """Return the set's tiles in canonical order."""
        return tiles_of(self.double)

    # -- deals and text ---------------------------------------------------------------

    def deal(self, number: int) -> State:
        """Return numbered deal `number` (1 to MAX_DEAL): ``random.Random(number).shuffle`` of
        the tiles in canonical order, drawn from the first; `number` seeds the reshuffles.

        >>> GAME.format(GAME.deal(1)).splitlines()[3]
        'Draw: 6-2 6-5 4-1 4-0 6-1 1-0 2-2 6-6 5-4 4-3 3-3 5-2 5-1 0-0 3-1 6-0 3-0 4-2 5-5 4-4 5-0 2-0 3-2 1-1 6-3 6-4 5-3 2-1'
        """
        if not 1 <= number <= MAX_DEAL:
            raise ValueError(f"deal numbers run from 1 to 10**12, got {cut(str(number), 24)}")
        tiles = self.tiles
        random.Random(number).shuffle(tiles)
        return State((), bytes(tiles), b"", 0, False, number)

    def parse(self, text: str) -> State:
        """Return the position a text describes; raise DealError listing every problem.

        >>> GAME.parse(GAME.format(GAME.deal(3))) == GAME.deal(3)
        True
        """
        check = DealChecker(self.name)
        values: dict[str, tuple[int, str]] = {}
        arm_lines: dict[int, tuple[int, str]] = {}
        said = False
        for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            said = True
            label, sep, rest = line.partition(":")
            label = " ".join(label.lower().split())
            arm = _ARM_LABEL.fullmatch(label)
            if not sep or (label not in _LABELS and arm is None):
                check.add(DealProblem.BAD_LINE, f"{quote(line)} is not a line of the format "
                          "(Deal, Reshuffles, Placed, Draw, Scrap, Arm n)", line=number)
            elif arm is not None:
                which = _small(arm.group(1))
                if which in arm_lines or not 1 <= which <= self.arms:
                    check.add(DealProblem.WRONG_PILE_COUNT, f"arm {which}: the cross has arms "
                              f"1..{self.arms}, each once", line=number)
                else:
                    arm_lines[which] = (number, rest.strip())
            elif label in values:
                check.add(DealProblem.BAD_LINE, f"a second {label.capitalize()} line", line=number)
            else:
                values[label] = (number, rest.strip())
        if not said:
            check.add(DealProblem.EMPTY, "the text holds no position")
            check.raise_if_any()
        seed = self._number(check, values, "deal", NO_DEAL, (1, MAX_DEAL))
        reshuffles = self._number(check, values, "reshuffles", 0, (0, len(self.tiles)))
        placed = False
        if "placed" in values:
            where, word = values["placed"]
            if word.lower() in ("yes", "no"):
                placed = word.lower() == "yes"
            else:
                check.add(DealProblem.BAD_LINE, f"placed {quote(word)}: expected yes or no",
                          line=where)
        seen: list[tuple[int, int]] = []              # (tile, line)
        draw = self._tiles(check, values.get("draw"), seen)
        scrap = self._tiles(check, values.get("scrap"), seen)
        if "draw" not in values:
            check.add(DealProblem.BAD_LINE, "no Draw line (write Draw: - for an empty pile)")
        if len(arm_lines) != self.arms and not check.problems & DealProblem.WRONG_PILE_COUNT:
            check.add(DealProblem.WRONG_PILE_COUNT, f"{len(arm_lines)} arm lines; the cross "
                      f"has {self.arms} (write Arm n: - for an arm not started)")
        arms: list[bytes] = []
        ended: int | None = None
        for which in sorted(arm_lines):
            where, rest = arm_lines[which]
            tiles = self._arm(check, where, rest, seen)
            if not tiles:
                ended = ended or which
            elif ended is not None:
                check.add(DealProblem.BAD_LINE, f"arm {which} is started but arm {ended} is "
                          "not: arms are started in order", line=where)
            else:
                arms.append(bytes(tiles))
        self._check_set(check, seen)
        check.raise_if_any()
        return State(tuple(arms), bytes(draw), bytes(sorted(scrap)), reshuffles, placed, seed)

    def _number(self, check: DealChecker, values: dict[str, tuple[int, str]], label: str,
                default: int, bounds: tuple[int, int]) -> int:
        if label not in values:
            return default
        line, word = values[label]
        found = number_in(word, *bounds)
        if found is not None:
            return found
        high = "10**12" if bounds[1] == MAX_DEAL else str(bounds[1])
        check.add(DealProblem.BAD_LINE, f"{label} {quote(word)}: expected a whole number "
                  f"{bounds[0]}..{high}", line=line)
        return default

    def _tile(self, check: DealChecker, token: str, line: int) -> int | None:
        """Return a tile token as written (halves in its order), or None, recorded."""
        found = _TILE.fullmatch(token)
        if found is None or max(_small(found.group(1)), _small(found.group(2))) > self.double:
            check.add(DealProblem.UNREADABLE_CARD, f"unreadable tile {quote(token)} (write "
                      f"halves 0..{self.double} as 6-2)", line=line, card=token)
            return None
        return _small(found.group(1)) * 16 + _small(found.group(2))

    def _tiles(self, check: DealChecker, entry: tuple[int, str] | None,
               seen: list[tuple[int, int]]) -> list[int]:
        if entry is None or entry[1] in ("-", ""):
            return []
        line, rest = entry
        found = []
        for token in rest.split():
            tile = self._tile(check, token, line)
            if tile is not None:
                found.append(_plain(tile))
                seen.append((_plain(tile), line))
        return found

    def _arm(self, check: DealChecker, line: int, rest: str,
             seen: list[tuple[int, int]]) -> list[int]:
        """Return an arm's oriented tiles, recording a tile whose inner half does not
        match the outer half before it."""
        if rest in ("-", ""):
            return []
        tiles: list[int] = []
        for token in rest.split():
            tile = self._tile(check, token, line)
            if tile is None:
                continue
            seen.append((_plain(tile), line))
            if tiles and tiles[-1] & 15 != tile >> 4:
                check.add(DealProblem.BAD_LINE, f"{tile_name(tile)} does not match the open end "
                          f"{tiles[-1] & 15} before it (write each tile inner half first)",
                          line=line)
            tiles.append(tile)
        return tiles

    def _check_set(self, check: DealChecker, seen: list[tuple[int, int]]) -> None:
        """Record tiles given twice (at the line of the second) and tiles of the set left out."""
        count: dict[int, int] = {}
        duplicated: list[int] = []
        where: int | None = None
        for tile, line in seen:
            count[tile] = count.get(tile, 0) + 1
            if count[tile] == 2:
                duplicated.append(tile)
                where = where or line
        if duplicated:
            names = [tile_name(t) for t in duplicated]
            check.add(DealProblem.DUPLICATE_CARD, f"duplicate tiles: {card_list(names)}",
                      line=where)
            check.add_cards(names)
        absent = [t for t in self.tiles if t not in count]
        if absent and not check.problems & DealProblem.UNREADABLE_CARD:
            names = [tile_name(t) for t in absent]
            check.add(DealProblem.MISSING_CARD, f"missing tiles: {card_list(names)}")
            check.add_cards(names)
        elif absent:
            check.problems |= DealProblem.MISSING_CARD

    def drawing(self, state: State) -> Layout:
        """The draw pile (face down but the next tile) and the scrap heap above the
        arms, each from the centre out (``solver.layout``)."""
        draw = [f"<{tile_name(t)}>" for t in state.draw[:0:-1]] + \
            [tile_name(t) for t in state.draw[:1]]
        top = [tokens_pile("draw", draw, "stack"),
               tokens_pile("scrap", [f"<{tile_name(t)}>" for t in state.scrap], "stack")]
        arms = [tokens_pile(f"arm {i + 1}", [tile_name(t) for t in
                                             (state.arms[i] if i < len(state.arms) else b"")])
                for i in range(self.arms)]
        notes = [f"Reshuffles: {state.reshuffles}", f"Tiles left: {len(state.draw) + len(state.scrap)}"]
        return {"rows": [top, *([arm] for arm in arms)], "notes": notes}

    def format(self, state: State) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        arms, draw, scrap, reshuffles, placed, seed = state
        lines = [f"Deal: {seed}"] if seed != NO_DEAL else []
        lines += [f"Reshuffles: {reshuffles}",
                 f"Placed: {'yes' if placed else 'no'}",
                 "Draw: " + (" ".join(map(tile_name, draw)) or "-"),
                 "Scrap: " + (" ".join(map(tile_name, scrap)) or "-")]
        for which in range(self.arms):
            arm = arms[which] if which < len(arms) else b""
            lines.append(f"Arm {which + 1}: " + (" ".join(map(tile_name, arm)) or "-"))
        return "\n".join(lines) + "\n"

    # -- rules ------------------------------------------------------------------------

    def places(self, state: State) -> list[Move]:
        """Return where the drawn tile can go: arm ends it matches (lowest arm first),
        then a new arm (each way round); [] when it has no place or none is drawn."""
        arms, draw = state.arms, state.draw
        if not draw:
            return []
        tile = draw[0]
        high, low = tile >> 4, tile & 15
        found: list[Move] = []
        started = len(arms)
        forming = self.cross_first and started < self.arms
        if not forming:
            for i, arm in enumerate(arms):
                end = arm[-1] & 15
                if end == high:
                    found.append(Move(PLACE, i, high * 16 + low))
                elif end == low:
                    found.append(Move(PLACE, i, low * 16 + high))
        if started < self.arms and not (self.no_double_starts and high == low):
            found.append(Move(PLACE, started, high * 16 + low))
            if high != low:
                found.append(Move(PLACE, started, low * 16 + high))
        return found

    def moves(self, state: State) -> list[Move]:
        """Return the legal steps: the drawn tile's places, else scrap it; with the draw
        pile used up, reshuffle if the pass placed a tile, the heap holds any and the
        deal number is known (else nobody knows what it deals); none when the game is
        over."""
        if state.draw:
            return self.places(state) or [_SCRAP_MOVE]
        if state.scrap and state.placed and state.seed != NO_DEAL:
            return [_RESHUFFLE_MOVE]
        return []

    def play(self, state: State, move: Move) -> State:
        """Return the position after a legal step (not checked: see illegal_reason)."""
        arms, draw, scrap, reshuffles, placed, seed = state
        kind, arm, tile = move
        if kind == PLACE:
            if arm < len(arms):
                arms = arms[:arm] + (arms[arm] + bytes((tile,)),) + arms[arm + 1:]
            else:
                arms = arms + (bytes((tile,)),)
            return State(arms, draw[1:], scrap, reshuffles, True, seed)
        if kind == SCRAP:
            return State(arms, draw[1:], bytes(sorted(scrap + draw[:1])), reshuffles, placed, seed)
        return State(arms, reshuffled(seed, reshuffles + 1, scrap), b"", reshuffles + 1,
                     False, seed)

    def is_won(self, state: State) -> bool:
        """Return whether no tile is left in the draw pile or the scrap heap."""
        return not state.draw and not state.scrap

    def score(self, state: State) -> int:
        """Return minus the tiles left (the rules' score, negated: higher is better)."""
        return -len(state.draw) - len(state.scrap)

    # -- search support ---------------------------------------------------------------

    def key(self, state: State) -> bytes:
        """Return the arms' open ends sorted, the draw pile, the scrap heap, the flag, the
        reshuffle count and the seed (see the module's note on symmetry)."""
        arms, draw, scrap, reshuffles, placed, seed = state
        ends = bytes(sorted(arm[-1] & 15 for arm in arms))
        return (bytes((len(ends),)) + ends + bytes((len(draw),)) + draw + bytes((placed,))
                + scrap + b"/" + f"{reshuffles}:{seed}".encode())

    def heuristic(self, state: State) -> int:
        """Return the tiles left."""
        return len(state.draw) + len(state.scrap)

    def lower_bound(self, state: State) -> int:
        """Return the tiles left: each needs a step that places it."""
        return len(state.draw) + len(state.scrap)

    def unknown_future(self, state: State) -> tuple[str, str] | None:
        """Return why a search from `state` proves no best score, or None when it can.

        A position without its deal number has unknown reshuffles, and ``moves`` offers
        none (``solver.game.Game``): a reshuffle may come while the draw pile or a
        pass that placed a tile leaves tiles to gather.
        """
        if state.seed != NO_DEAL or not (state.draw or state.scrap and state.placed):
            return None
        return UNKNOWN_RESHUFFLES

    def forced(self, state: State) -> list[Move]:
        """Return the only legal step when there is exactly one (else []).

        Proof: every line of play from a position with one legal step begins with it. This
        plays every scrap and reshuffle and every tile with one place.
        """
        found = self.moves(state)
        return found if len(found) == 1 else []

    def expand(self, state: State, move: Move) -> list[Move]:
        """Return `[move]`: every search move is one step."""
        return [move]

    def notation(self, move: Move) -> str:
        """Return a step's notation (a scrap is ``x``: the tile is the one drawn).

        >>> [GAME.notation(m) for m in (Move(PLACE, 0, 0x62), Move(SCRAP, 0, 0),
        ...                             Move(RESHUFFLE, 0, 0))]
        ['6-2>1', 'x', 'reshuffle']
        """
        kind, arm, tile = move
        if kind == PLACE:
            return f"{tile_name(tile)}>{arm + 1}"
        return "x" if kind == SCRAP else "reshuffle"

    def parse_move(self, state: State, text: str) -> Move:
        """Return the step written `text`: ``6-2>1``, ``x`` or ``4-3 x``, ``reshuffle``.

        >>> GAME.parse_move(GAME.deal(1), "2-6 > 1"), GAME.parse_move(GAME.deal(1), "6-2 x")
        (Move(kind=0, arm=0, tile=38), Move(kind=1, arm=0, tile=0))
        """
        written = text.strip().lower()
        if written == "reshuffle":
            return _RESHUFFLE_MOVE
        found = _PLACE_TEXT.fullmatch(written)
        if found is not None:
            inner, outer, arm = (_small(g) for g in found.groups())
            if max(inner, outer) > self.double:
                raise InvalidMoveError(f"{quote(text)}: halves go 0..{self.double}")
            if not 1 <= arm <= self.arms:
                raise InvalidMoveError(f"{quote(text)}: there is no arm {arm} (arms 1-{self.arms})")
            return Move(PLACE, arm - 1, inner * 16 + outer)
        scrap = _SCRAP_TEXT.fullmatch(written)
        if scrap is not None:
            if scrap.group(1) is not None and state.draw:
                named = _plain(_small(scrap.group(1)) * 16 + _small(scrap.group(2)))
                if named != state.draw[0]:
                    raise InvalidMoveError(f"{quote(text)}: the tile drawn is "
                                           f"{tile_name(state.draw[0])}")
            return _SCRAP_MOVE
        raise InvalidMoveError(f"{quote(text)} is not a move: write 6-2>1 (the tile drawn, "
                               "inner half first, on arm 1), x (scrap it) or reshuffle")

    def illegal_reason(self, state: State, move: Move) -> str:
        """Return why a step breaks the rules in `state`, or "" (written apart from
        ``moves``: it checks the rules as the text states them)."""
        arms, draw, scrap, _, placed, _ = state
        kind, arm, tile = move
        if kind == RESHUFFLE:
            if draw:
                return "the draw pile is not used up"
            if not scrap:
                return "the scrap heap is empty"
            if not placed:
                return "this pass placed no tile: the game is over"
            return "" if state.seed != NO_DEAL else \
                "the board has no Deal: line, so its reshuffle is unknown"
        if not draw:
            return "the draw pile is used up"
        drawn = draw[0]
        fits = []
        for i, a in enumerate(arms):
            if not (self.cross_first and len(arms) < self.arms) and (a[-1] & 15) in (drawn >> 4, drawn & 15):
                fits.append(i)
        may_start = len(arms) < self.arms and not (self.no_double_starts and drawn >> 4 == drawn & 15)
        if kind == SCRAP:
            if fits or may_start:
                return f"{tile_name(drawn)} can be placed, so it must be"
            return ""
        if kind != PLACE:
            return "no such move"
        if _plain(tile) != drawn:
            return f"the tile drawn is {tile_name(drawn)}, not {tile_name(tile)}"
        if arm >= self.arms:
            return f"there is no arm {arm + 1} (the cross has {self.arms})"
        if arm < len(arms):
            if self.cross_first and len(arms) < self.arms:
                return "the cross is not formed yet: the tile starts the next arm"
            end = arms[arm][-1] & 15
            if tile >> 4 != end:
                return (f"arm {arm + 1}'s open end is {end}: "
                        + (f"{tile_name(tile)} does not match it" if end not in (tile >> 4, tile & 15)
                           else f"write the tile {end} first ({tile_name((tile & 15) * 16 + end)})"))
            return ""
        if arm > len(arms):
            return f"arm {len(arms) + 1} is the next to start, not arm {arm + 1}"
        if self.no_double_starts and tile >> 4 == tile & 15:
            return "a double may not start an arm"
        return ""

    def describe(self, state: State, step: Move) -> str:
        """Return a step as a player reads it.

        >>> GAME.describe(GAME.deal(1), Move(PLACE, 0, 0x26))
        'start arm 1 with 6-2, 6 open'
        """
        kind, arm, tile = step
        if kind == RESHUFFLE:
            return "reshuffle the scrap heap into the draw pile"
        drawn = tile_name(state.draw[0]) if state.draw else "nothing"
        if kind == SCRAP:
            return f"scrap {drawn}"
        if arm >= len(state.arms):
            return f"start arm {arm + 1} with {tile_name(_plain(tile))}, {tile & 15} open"
        return f"{tile_name(_plain(tile))} on arm {arm + 1}, {tile & 15} open"

    # -- certificates -------------------------------------------------------------------

    @property
    def certifier(self) -> "Certifier[State, Move]":
        """Certificates of a lost deal and its best score (``checker/crisscross.py``): the
        writer follows ``moves`` (every legal step: no move is left out) and ``forced``
        (the only legal step, where there is one), which the checker makes as its
        ``only-move`` reduction; the open ends are written sorted (``arm-order``: the
        symmetry of ``key``)."""
        from solver.certify import Certifier

        return Certifier(("arm-order", "only-move"), certificate_line)

    # -- the player's view ------------------------------------------------------------

    @property
    def blind_calibration(self) -> tuple[float, ...] | None:
        """The weights that calibrate a blind hint's chance (``solver.app.blind.calibrated``),
        for the default rules only: fitted on 600 blind games (deals 51-650, 100 worlds a
        decision, cap 5,000). Checked by five-fold cross-validation over those games (each
        predicted by weights fitted on the other folds): Brier score 0.199, the largest gap
        between predicted and won in a bin of 100+ decisions 5.0 points; fitted on deals
        51-350 alone and checked on 351-650, 0.363 -> 0.204 and 49.5 -> 3.6 points
        (data/crisscross/blind.md, with the commands)."""
        if (self.double, self.arms, self.cross_first, self.no_double_starts) != (6, 4, False, False):
            return None
        return (1.0864, 0.4133, 0.1794, -0.2474, -0.0154, -0.1306, 0.1401)

    @functools.cached_property
    def player_view(self) -> "CrissCrossView":
        """What a player sees: the cross, the tile drawn and the scrap heap's tiles, but
        not the order of the draw pile nor of a reshuffle to come (``CrissCrossView``)."""
        return CrissCrossView(self)


@dataclass(frozen=True)
class CrissCrossView(Remembers):
    """A CrissCross player's view (``solver.view``).

    Unseen: the order of the tiles not yet drawn, all but the first of the draw pile.
    The tile drawn (the draw pile's first) is face up, for the player places it: the
    steps open are its places. Which tiles the draw pile holds is known (the set less
    the cross and the scrap heap, whose tiles were seen as they were scrapped), only not
    their order. A deal's start has 27 of the 28 tiles unseen. A reshuffle's order is a
    future (``Unseen.future``): the mask holds no deal number (``NO_DEAL``), and a world
    draws one at random (1 to 10**12); a reshuffle is ``random.Random`` seeded with the
    number and the reshuffle's count through a hash, so its ``shuffle`` (exact draws
    from the Mersenne Twister) deals the heap in each order alike as far as any sample
    can tell.

    Steps: the game's moves, with the reshuffle wherever the rules allow one, whatever the
    position's deal number (``moves`` offers none without it). Safe: the one step open
    when there is only one (a scrap, a reshuffle, a tile with one place): every line of
    play begins with it, and which steps are open reads only the tile drawn and the cross.
    """

    can_undo: ClassVar[bool] = False     # a tile placed or scrapped stays

    game: CrissCross

    def unseen(self, state: State, seen: Any) -> Unseen[State]:
        """Return the draw pile after the tile drawn, and the reshuffles as a future."""
        draw = state.draw
        head = draw[:1]
        fixed = state._replace(seed=NO_DEAL)

        def fill(placed: Sequence[int]) -> State:
            return fixed._replace(draw=head + bytes(placed))
        return Unseen(tuple(draw[1:]), fill, _random_reshuffles)

    def steps(self, state: State, seen: Any) -> list[Move]:
        """Return the game's legal steps, the reshuffle among them wherever the rules allow
        one (whether one is allowed never reads the deal number)."""
        return self.game.moves(state if state.seed != NO_DEAL else state._replace(seed=MAX_DEAL))

    def safe(self, state: State, seen: Any) -> list[Move]:
        """Return the only step open, if only one is: every line of play begins with it."""
        found = self.steps(state, seen)
        return found if len(found) == 1 else []


def _random_reshuffles(state: State, rng: random.Random) -> State:
    """Return `state` with a deal number drawn at random (``CrissCrossView``)."""
    return state._replace(seed=rng.randint(1, MAX_DEAL))


def certificate_line(state: State) -> str:
    """Return the checker's LINE of a position (``checker/crisscross.py``): the open ends
    sorted, the draw pile, the scrap heap, the reshuffles, the flag and the seed.

    >>> certificate_line(GAME.play(GAME.deal(1), Move(PLACE, 0, 0x26)))[:20]
    '6|6-5 4-1 4-0 6-1 1-'
    """
    arms, draw, scrap, reshuffles, placed, seed = state
    return "|".join([",".join(str(e) for e in sorted(arm[-1] & 15 for arm in arms)),
                     " ".join(map(tile_name, draw)), " ".join(map(tile_name, scrap)),
                     str(reshuffles), "y" if placed else "n", str(seed)])


def reshuffled(seed: int, count: int, scrap: bytes) -> bytes:
    """Return the draw pile of reshuffle `count` (from 1) of a game with `seed`: the heap's
    tiles in canonical order, shuffled by ``random.Random(f"crisscross:{seed}:{count}")``.

    >>> [tile_name(t) for t in reshuffled(1, 1, bytes([0x00, 0x10, 0x11]))]
    ['1-0', '1-1', '0-0']
    """
    tiles = sorted(scrap)
    random.Random(f"crisscross:{seed}:{count}").shuffle(tiles)
    return bytes(tiles)


GAME = CrissCross()
