"""The Game protocol every game implements, the verdicts, and the project's errors.

A game is a frozen dataclass whose fields are its variant options (``FreeCell(cells=2)``)
and whose methods are pure functions over immutable states. The engine only ever talks
to a game through this protocol, so it never needs to know a game by name.

Two kinds of move exist. *Search moves* are what ``moves`` yields and ``play`` takes;
they may be macros (FreeCell's sequence move). *Steps* are moves in the game's own unit
as its rules count them (one card, in FreeCell); ``expand`` turns a search move into
steps, and solutions are printed, counted and verified as steps. In most games the two
are the same and ``expand`` returns ``[move]``.
"""
from __future__ import annotations

import enum
from typing import Any, ClassVar, Hashable, Iterable, Protocol, TypeVar

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class Status(enum.Enum):
    """A verdict: ``lost`` is a proof, ``unknown`` means a budget ran out."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


class Game(Protocol[S, M]):
    """What a game offers the engine (see DESIGN.md, "The Game protocol")."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    summary: ClassVar[str]                  # one line for `solitaire games`
    variants: ClassVar[dict[str, str]]      # option -> what it means and its values
    presets: ClassVar[dict[str, dict[str, Any]]]   # named variants (may be empty)

    def deal(self, number: int) -> S:
        """Return numbered deal `number` (the game's documented generator)."""
        ...

    def parse(self, text: str) -> S:
        """Return the position a text describes; raise DealError listing every problem."""
        ...

    def format(self, state: S) -> str:
        """Return the text of a position; ``parse(format(s)) == s``."""
        ...

    def moves(self, state: S) -> Iterable[M]:
        """Return the legal search moves, the most promising first."""
        ...

    def play(self, state: S, move: M) -> S:
        """Return the position after a legal move (not checked: see illegal_reason)."""
        ...

    def is_won(self, state: S) -> bool:
        """Return whether the position is a win."""
        ...

    def key(self, state: S) -> bytes:
        """Return a canonical key: positions equal up to symmetry give equal keys."""
        ...

    # Optional, read with getattr by the engine:
    #   default_strategy: ClassVar[str]   the strategy used when none is named
    #   verdict_key(state) -> bytes       a coarser key: positions with equal verdict keys
    #       are proven equally winnable, though their shortest wins may differ in length;
    #       dfs and greedy best_first use it, the optimal searches (astar, bfs) use key.
    #   narrow_moves(state) -> Iterable[M]   a subset of moves where wins usually lie; a
    #       search over it may win but never proves a loss (solver.search.base.narrowed)
    #   portfolio: ClassVar[tuple[str, ...]]  the portfolio's members, e.g. ("narrow_dfs",
    #       "dfs"); see solver.search.portfolio
    #   beam_heuristics: tuple of (state) -> int   heuristics the beam's passes take in turn
    #   dead_end(state) -> str            a proof, in one line, that no win is reachable
    #       from `state` ("" when none is found); every strategy asks it of its start
    #       position first (solver.search.checked), so it must be sound, not just likely

    def heuristic(self, state: S) -> int:
        """Return a guess of the distance to a win (smaller is better)."""
        ...

    def lower_bound(self, state: S) -> int:
        """Return a number of steps that every win from here needs at least."""
        ...

    def forced(self, state: S) -> list[M]:
        """Return moves proven safe to play at once (each rule carries its proof)."""
        ...

    def expand(self, state: S, move: M) -> list[M]:
        """Return the steps (the rules' unit of move) that make up a search move."""
        ...

    def notation(self, move: M) -> str:
        """Return a step in the game's standard notation."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """Return the step that `text` names in `state`; raise InvalidMoveError."""
        ...

    def illegal_reason(self, state: S, move: M) -> str:
        """Return why a step is illegal in `state`, or "" when it is legal.

        This is the verifier's rule check: it must not rely on ``moves``.
        """
        ...


# -- errors -------------------------------------------------------------------------


class SolitaireError(Exception):
    """A problem with the user's input: a deal, a move, a name. The CLI prints it in one line."""


class UnknownGameError(SolitaireError, LookupError):
    """No game or variant of that name."""


class DealProblem(enum.Flag):
    """What can be wrong with a deal's text; a DealError carries all it found."""

    UNREADABLE_CARD = enum.auto()
    DUPLICATE_CARD = enum.auto()
    MISSING_CARD = enum.auto()
    WRONG_PILE_COUNT = enum.auto()
    WRONG_PILE_SIZE = enum.auto()
    BAD_LINE = enum.auto()
    EMPTY = enum.auto()


class DealError(SolitaireError, ValueError):
    """A text that is not a position of this game; the message lists every problem."""

    def __init__(self, game: str, problems: DealProblem, details: Iterable[str],
                 *, cards: tuple[str, ...] = (), line: int | None = None) -> None:
        self.game, self.problems, self.cards, self.line = game, problems, cards, line
        self.details = tuple(details)
        where = f"{game} deal" + (f", line {line}" if line is not None else "")
        super().__init__(f"{where}: " + "; ".join(self.details))


class InvalidMoveError(SolitaireError, ValueError):
    """A move's text that does not name a move of this game."""


class IllegalMoveError(SolitaireError, ValueError):
    """A move that parses but breaks the rules where it is played."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        self.index, self.move, self.reason = index, move, reason
        super().__init__(f"move {index + 1} ({move!r}) is illegal: {reason}")


class DealChecker:
    """Collects deal problems while a parser reads, then raises one DealError.

    >>> check = DealChecker("freecell")
    >>> check.add(DealProblem.UNREADABLE_CARD, "unreadable card 'XS'", line=3, card="XS")
    >>> check.raise_if_any()
    Traceback (most recent call last):
    ...
    solver.game.DealError: freecell deal, line 3: unreadable card 'XS'
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.problems = DealProblem(0)
        self.details: list[str] = []
        self.cards: list[str] = []
        self.line: int | None = None

    def add(self, problem: DealProblem, detail: str, *, line: int | None = None,
            card: str | None = None) -> None:
        """Record a problem; the first line given leads the message, others follow theirs."""
        if line is not None and self.line not in (None, line):
            detail += f" (line {line})"
        self.problems |= problem
        self.details.append(detail)
        if card is not None:
            self.cards.append(card)
        if self.line is None and line is not None:
            self.line = line

    def lines(self, text: str) -> list[tuple[int, str]]:
        """Return the numbered lines that say something: stripped, without a BOM, blank
        lines or ``#`` comments. An empty text is recorded and raised at once."""
        found = [(number, line.strip())
                 for number, line in enumerate(text.lstrip("\ufeff").splitlines(), 1)
                 if line.strip() and not line.lstrip().startswith("#")]
        if not found:
            self.add(DealProblem.EMPTY, "empty text")
            self.raise_if_any()
        return found

    def check_deck(self, cards: list[int], decks: int = 1,
                   universe: Iterable[int] | None = None) -> None:
        """Record duplicated and missing cards, naming them."""
        from solver.cards import DECK, card_str, deck_problems

        duplicated, missing = deck_problems(cards, decks, DECK if universe is None else universe)
        if duplicated:
            names = [card_str(c) for c in duplicated]
            self.add(DealProblem.DUPLICATE_CARD,
                     ("duplicate card " if len(names) == 1 else "duplicate cards ") + " ".join(names))
            self.cards.extend(names)
        if missing:
            names = [card_str(c) for c in missing]
            self.add(DealProblem.MISSING_CARD,
                     ("missing card " if len(names) == 1 else "missing cards ") + " ".join(names))
            self.cards.extend(names)

    def raise_if_any(self) -> None:
        """Raise a DealError if anything was recorded."""
        if self.problems:
            raise DealError(self.game, self.problems, self.details,
                            cards=tuple(self.cards), line=self.line)
