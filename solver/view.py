"""The player's view: what a player has seen at a position, and the worlds that agree with it.

Every search in the project reads the whole deal: face-down cards, the stock's order,
what a redeal will bring. A player has less. A game whose rules hide something declares
a ``View`` (``Game.player_view``) saying three things:

- what the player knows beyond the position itself (``start``, ``after``): a small
  value, ``seen``, carried beside the position as play goes on. Klondike's is how many
  cards at the end of the stock have never been turned; most games need none (None);
- which cards the player has not seen there, and how to put other cards in their places
  (``unseen``): from it come the *mask*, the position with its unseen cards put back in
  sorted order, the same for every position that looks the same to the player, and the
  *samples*, the unseen cards shuffled into their places, each arrangement equally
  likely (a uniform draw among the worlds that agree with everything seen);
- the moves open to the player (``steps``), whose legality and effect never depend on
  an unseen card.

A position read from a file carries ``seen`` too, when its text says it (``read``): in
the games whose rules hide cards that play shows (Klondike's stock, Forty Thieves' stock,
Crescent's piles), the text marks the cards the player has never seen as face-down
cards are marked, ``<7S>``, and a ``Seen: all`` line says that every such card has been
seen. A text without either says nothing, and its position counts as first shown
(``start``), as it always did. ``write`` gives the text back with those marks, so that
what a player has seen survives a round trip through a file (``Sighted.read``,
``Sighted.text``).

A blind answer is computed from the mask alone (``Sighted.masked``), so that two
positions that look the same to the player give the same answer: nothing downstream of
the mask can read a hidden card. A game whose rules hide nothing (FreeCell, Black Hole)
declares no view, and its blind answer is its full-information one.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generic, Hashable, Protocol, Sequence, TypeVar, cast

from solver.cards import face_down_token
from solver.game import Game, SolitaireError

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class ContradictionError(SolitaireError):
    """What a position says was seen cannot be: a card shown twice, a history the rules
    cannot produce."""


@dataclass(frozen=True)
class Unseen(Generic[S]):
    """The cards a player has not seen at a position, and the position with others there.

    `cards` are the unseen cards in the order `fill` places them; ``fill(c)``, for any
    arrangement `c` of the same cards, is the position with `c` in those places and
    everything the player has seen unchanged. Cards must be orderable (the mask sorts
    them).

    A game whose hidden part is a future rather than cards in places (Gaps' redeals,
    shuffles to come) also gives `future`: ``fill`` then leaves that future in one fixed
    form (the same whatever the true one is), and ``future(position, rng)`` draws one at
    random, each as likely as the rules make it.
    """

    cards: tuple[Any, ...]
    fill: Callable[[Sequence[Any]], S]
    future: Callable[[S, random.Random], S] | None = None


class View(Protocol[S, M]):
    """What a game's player sees; see the module's docstring."""

    # False when no step can ever be taken back (each plays a card or tile for good, or
    # commits to a choice), so that each step is a plan of its own (``solver.app.blind``
    # then need not look for moves that undo it). True is always safe.
    can_undo: ClassVar[bool]

    def start(self, state: S) -> Hashable:
        """Return what a player knows beyond `state` when first shown it: a deal's start,
        or a position read from a file (then as little as its text allows)."""
        ...

    def after(self, state: S, seen: Hashable, step: M, next_state: S) -> Hashable:
        """Return what the player knows after playing `step` from `state`."""
        ...

    def unseen(self, state: S, seen: Hashable) -> Unseen[S]:
        """Return the cards not seen at `state`, given what was seen before."""
        ...

    def steps(self, state: S, seen: Hashable) -> list[M]:
        """Return the legal moves open to the player, the same for every position that
        looks the same (their legality and effect read no unseen card): single steps,
        or search moves (``expand``) where what they do is known to the player."""
        ...

    def safe(self, state: S, seen: Hashable) -> list[M]:
        """Return steps of a masked position proven to lose no win in any world that
        agrees with it (a player plays them without asking), or []."""
        ...

    def read(self, text: str, state: S) -> Hashable | None:
        """Return what a position's text says the player has seen beyond `state` (the
        position `text` describes): its marks of cards never seen, or its ``Seen: all``
        line; None when it says nothing, and then ``start`` answers. Marks the rules
        cannot produce are the game's ``DealError`` (its ``parse`` raises it too).
        ``Remembers`` gives the default, None."""
        ...

    def write(self, state: S, seen: Hashable) -> str | None:
        """Return the text of `state` with what was seen written in (the marks ``read``
        reads back to `seen`), or None when the game's ``format`` says it all (the
        default, ``Remembers``)."""
        ...


def first_steps(game: Game[S, M], state: S, extra: Sequence[M] = ()) -> list[M]:
    """Return the distinct first steps of the game's legal search moves, then `extra`
    (those legal only), in that order: the steps open to a player, for a game whose
    search moves may be macros (``expand``)."""
    legal = game.legal_moves or game.moves
    found: dict[M, None] = {}
    for move in legal(state):
        steps = game.expand(state, move)
        if steps:
            found.setdefault(steps[0], None)
    for step in extra:
        if step not in found and not game.illegal_reason(state, step):
            found[step] = None
    return list(found)


@dataclass(frozen=True)
class Sighted(Generic[S, M]):
    """A position as a player has it: the position and what was seen before (``View``).

    For a game that hides nothing, `seen` is None and every method answers as if the
    whole position were seen.
    """

    game: Game[S, M]
    state: S
    seen: Hashable = None

    @classmethod
    def of(cls, game: Game[S, M], state: S) -> "Sighted[S, M]":
        """Return `state` as first shown to a player (a deal's start or a file)."""
        view = game.player_view
        return cls(game, state, None if view is None else view.start(state))

    @classmethod
    def read(cls, game: Game[S, M], text: str, state: S | None = None) -> "Sighted[S, M]":
        """Return the position a text describes as a player has it: what its marks say
        was seen (``View.read``), else what ``of`` counts as first shown. `state`, when
        given, is ``game.parse(text)`` already read."""
        if state is None:
            state = game.parse(text)
        view = game.player_view
        if view is None:
            return cls(game, state)
        seen = view.read(text, state)
        return cls(game, state, view.start(state) if seen is None else seen)

    def text(self) -> str:
        """Return the position's text with what was seen written in: ``read`` of it
        gives this position and `seen` back."""
        view = self.game.player_view
        written = None if view is None else view.write(self.state, self.seen)
        return self.game.format(self.state) if written is None else written

    @property
    def hides(self) -> bool:
        """Whether the game's rules hide anything at all."""
        return self.game.player_view is not None

    def unseen(self) -> Unseen[S]:
        """Return the unseen cards and how to place others (none if nothing is hidden)."""
        view = self.game.player_view
        if view is None:
            state = self.state
            return Unseen((), lambda cards: state)
        return view.unseen(self.state, self.seen)

    def masked(self) -> "Sighted[S, M]":
        """Return the position with its unseen cards in sorted order: equal for every
        position that looks the same to the player."""
        unseen = self.unseen()
        return Sighted(self.game, unseen.fill(sorted(unseen.cards)), self.seen)

    def sample(self, rng: random.Random) -> S:
        """Return a full position that agrees with everything seen, drawn uniformly:
        the unseen cards shuffled into their places."""
        unseen = self.unseen()
        cards = sorted(unseen.cards)
        rng.shuffle(cards)
        world = unseen.fill(cards)
        return world if unseen.future is None else unseen.future(world, rng)

    def steps(self) -> list[M]:
        """Return the steps open to the player."""
        view = self.game.player_view
        if view is None:
            return first_steps(self.game, self.state)
        return view.steps(self.state, self.seen)

    def safe(self) -> list[M]:
        """Return steps proven to lose no win in any world agreeing with what is seen
        (asked of the masked position); for a game that hides nothing, its ``forced``."""
        masked = self.masked()
        view = self.game.player_view
        if view is None:
            forced = self.game.forced(masked.state)
            return [self.game.expand(masked.state, move)[0] for move in forced[:1]]
        return view.safe(masked.state, masked.seen)

    def play(self, step: M) -> "Sighted[S, M]":
        """Return the position after `step` (legal: not checked) and what is seen then."""
        after = self.game.play(self.state, step)
        view = self.game.player_view
        seen = None if view is None else view.after(self.state, self.seen, step, after)
        return Sighted(self.game, after, seen)

    def look(self) -> tuple[Hashable, Hashable]:
        """Return what the player sees, as a value: equal for positions that look alike."""
        return _look(cast(Hashable, self.game), self.state, self.seen)


@functools.lru_cache(maxsize=1 << 16)
def _look(game: Any, state: Any, seen: Hashable) -> tuple[Hashable, Hashable]:
    """``Sighted.look``, remembered: a blind player's choice of plans asks the look of the
    same positions over and over (whether each move can be undone), and masking costs a
    position's unseen cards sorted back into it. A pure function of its arguments."""
    return game.key(Sighted(game, state, seen).masked().state), seen


def world_count(cards: Sequence[Any]) -> int:
    """Return how many distinct arrangements of `cards` exist (a multiset's permutations).

    >>> world_count([1, 2, 3]), world_count([1, 1, 2])
    (6, 3)
    """
    from collections import Counter
    from math import factorial

    total = factorial(len(cards))
    for count in Counter(cards).values():
        total //= factorial(count)
    return total


class Remembers:
    """Defaults for a view whose rules never hide a card again once shown, so that the
    position says all a player knows (``seen`` is None), and that proves no move safe.
    A game's view subclasses it and overrides what differs."""

    can_undo: ClassVar[bool] = True

    def start(self, state: Any) -> Hashable:
        """Return None: the position says all a player knows."""
        return None

    def after(self, state: Any, seen: Hashable, step: Any, next_state: Any) -> Hashable:
        """Return None: what a step shows stays face up in the position after it."""
        return None

    def safe(self, state: Any, seen: Hashable) -> list[Any]:
        """Return []: no move is proven safe in every world."""
        return []

    def read(self, text: str, state: Any) -> Hashable | None:
        """Return None: the text says nothing beyond the position."""
        return None

    def write(self, state: Any, seen: Hashable) -> str | None:
        """Return None: the game's ``format`` says it all."""
        return None


SEEN_LABEL = "Seen"                  # the line that says every card the rules hide was seen


def unseen_marks(text: str) -> list[bool]:
    """Return, token by token, whether a line's card is marked never seen (``<7S>``).

    A token with an unbalanced marker counts as unmarked: the reader reports it.

    >>> unseen_marks("4H AC <4D> <7S"), unseen_marks("")
    ([False, False, True, False], [])
    """
    return [bool(found and found[1]) for found in map(face_down_token, text.split())]


def without_marks(text: str) -> str:
    """Return a line's text with its balanced marks dropped (``<7S>`` becomes ``7S``).

    >>> without_marks("4H <AC> <4D")
    '4H AC <4D'
    """
    return " ".join(found[0] if found else token
                    for token, found in zip(text.split(), map(face_down_token, text.split())))


def whole_or_none(marks: Sequence[bool], said_all: bool, verb: str) -> str:
    """Return what is wrong with a stock's marks where the rules make the cards never
    seen the whole stock or none of it (Klondike's and Forty Thieves' first pass and
    redeals), or "": `marks` are the stock cards' (``unseen_marks``), `said_all` whether a
    ``Seen: all`` line was given, `verb` how a stock card is seen ("turned", "drawn").

    >>> whole_or_none([True, False], False, "turned")
    '1 of the 2 stock cards marked never turned: in the first pass none has been turned, after a redeal all have, so mark all or none'
    """
    marked = sum(marks)
    if said_all and marked:
        return f"Seen: all, but {marked} stock card{'s are' if marked > 1 else ' is'} marked " \
               f"never {verb}"
    if marked and marked < len(marks):
        return f"{marked} of the {len(marks)} stock cards marked never {verb}: in the first " \
               f"pass none has been {verb}, after a redeal all have, so mark all or none"
    return ""


def all_seen(text: str) -> bool:
    """Return whether the rest of a ``Seen:`` line says ``all`` (any case); anything else
    is the reader's bad line."""
    return text.strip().lower() == "all"


def face_down(columns: Sequence[bytes], hidden: bytes) -> bytes:
    """Return the face-down cards of columns (``hidden[i]`` at the bottom of column i),
    column by column: the order ``face_down_filled`` puts cards back in."""
    return b"".join([column[:down] for column, down in zip(columns, hidden) if down])


def face_down_filled(columns: Sequence[bytes], hidden: bytes,
                     placed: Sequence[int]) -> tuple[tuple[bytes, ...], int]:
    """Return the columns with `placed`'s first cards face down in place of theirs, and
    how many of `placed` they took (the rest is for the game's other unseen places)."""
    at, filled = 0, []
    for column, down in zip(columns, hidden):
        if down:
            filled.append(bytes(placed[at:at + down]) + column[down:])
            at += down
        else:
            filled.append(column)
    return tuple(filled), at
