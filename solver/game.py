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
import functools
from dataclasses import dataclass, replace
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Concatenate, Generic, Hashable, Iterable,
                    ParamSpec, Protocol, TypeVar, overload)

if TYPE_CHECKING:
    from solver.certify import Certifier
    from solver.layout import Layout
    from solver.search.result import Budget, Result
    from solver.view import View

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
R = TypeVar("R")
P = ParamSpec("P")

DEFAULT_PORTFOLIO = ("best_first", "best_first_newest", "dfs")   # a game's default members
DEFAULT_EQUAL_ROUNDS = 3  # the portfolio's first rounds (caps 2,000, 4,000, 8,000 a member)
QUOTE_LIMIT = 20          # characters of user text an error message quotes at most
TOKEN_LIMIT = 12          # ... of one token of a deal's text (a card is 2 to 4)
SHOWN_PROBLEMS = 5        # problems a DealError's message names; it counts the rest
KEPT_CARDS = 20           # tokens and card names a DealError keeps in ``cards``
BLIND_CAP = 5_000         # positions a blind hint's world may store, unless the game says (``blind_cap``)
NAMED_CARDS = 20          # cards a "missing cards" or "duplicate cards" detail names


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return ``repr(text)`` cut to `limit` characters, ending in "…" when it is cut.

    Every error message that shows the user's text goes through this, so a huge input
    never makes a huge message.

    >>> quote("7H"), quote("x" * 50, 12), len(quote("y" * 10**6))
    ("'7H'", "'xxxxxxxxx…'", 20)
    """
    head = text[:limit]                  # repr only lengthens: never repr a huge text
    shown = repr(head)
    if head == text and len(shown) <= limit:
        return shown
    return shown[:max(limit - 2, 1)] + "…" + shown[-1]


def cut(text: str, limit: int = TOKEN_LIMIT) -> str:
    """Return `text` itself, or its first characters and "…" when longer than `limit`.

    >>> cut("7H"), cut("abcdefghijklmnop")
    ('7H', 'abcdefghijk…')
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def card_list(names: list[str], limit: int = NAMED_CARDS) -> str:
    """Return card names joined by spaces, the first `limit` of them and a count of the rest.

    >>> card_list(["AC", "2C"]), card_list([str(n) for n in range(5)], 3)
    ('AC 2C', '0 1 2 and 2 more')
    """
    shown = " ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


class Status(enum.Enum):
    """A verdict: ``lost`` is a proof, ``unknown`` means a budget ran out."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


class Game(Protocol[S, M]):
    """What a game offers the engine; CONTRIBUTING.md, "The protocol", explains each method."""

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
        """Return the legal search moves, the most promising first.

        A game may leave out moves into positions it proves dead (no win reachable from
        them), as Black Hole (``viable``) and Yukon (its ``dead_end`` proof) do: searches
        then never store them, and a search that runs out of moves still proves a loss.
        The verifier never relies on ``moves`` (see ``illegal_reason``).
        """
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

    def heuristic(self, state: S) -> int:
        """Return a guess of the distance to a win (smaller is better)."""
        ...

    def lower_bound(self, state: S) -> int:
        """Return a number of steps (of counted moves, for a game with ``move_cost``)
        that every win from here needs at least."""
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

        This is the verifier's rule check: it must not rely on ``moves``. A pile, column,
        cell or foundation that does not exist is named as such ("there is no column 9"),
        not called empty.
        """
        ...

    def describe(self, state: S, step: M) -> str:
        """Return a short phrase a player can follow for a legal step played from `state`.

        One line, naming the card(s) that move by their ASCII names (``card_str``) and
        where: "5H from column 3 to cell a", "9S..7D from column 2 to column 6". A step
        that moves no card says what it does ("turn the stock"), the same whatever it
        turns up, so that a run of such steps reads as one. `state` is not changed.
        """
        ...


    # -- optional hooks, with the defaults a game that declares none gets ----------------
    # A game declares any of these as a method, a property or a class attribute of the
    # same name (a hook that is absent is None). The engine reads them from the game.

    @property
    def default_strategy(self) -> str:
        """The strategy used when none is named."""
        return "portfolio"

    @property
    def verdict_key(self) -> Callable[[S], bytes] | None:
        """A coarser key: positions with equal verdict keys are proven equally winnable,
        though their shortest wins may differ in length. ``dfs``, greedy ``best_first``
        and ``beam`` use it; ``astar`` and ``bfs`` use ``key``."""
        return None

    @property
    def streamlined_key(self) -> Callable[[S], bytes] | None:
        """A coarser key still, merging positions that are alike but not proven equally
        winnable (Solvitaire's streamliners): a search over it may win (the win is
        replayed through the full rules), never prove a loss; ``beam`` can share its
        passes between it and the exact key (``solver.search.beam.plan``)."""
        return None

    @property
    def narrow_moves(self) -> Callable[[S], Iterable[M]] | None:
        """A subset of ``moves`` where wins usually lie: a search over it may win but
        never proves a loss (``solver.search.views.narrowed``)."""
        return None

    @property
    def portfolio(self) -> tuple[str, ...]:
        """The portfolio's members, e.g. ``("narrow_dfs", "dfs")``
        (``solver.search.portfolio``)."""
        return DEFAULT_PORTFOLIO

    @property
    def portfolio_equal_rounds(self) -> int:
        """The portfolio's first rounds (caps doubling from 2,000 positions a member,
        times its ``portfolio_shares``) before its anchor, dfs, is granted as many as the
        other members together (``solver.search.portfolio``). More rounds suit a game
        whose greedy members win where dfs wanders; each adds a fixed cost to what dfs
        alone decides."""
        return DEFAULT_EQUAL_ROUNDS

    @property
    def portfolio_shares(self) -> tuple[int, ...] | None:
        """Each portfolio member's share of a round's positions during the equal rounds,
        one whole number a member of ``portfolio`` (None: one each); afterwards the
        anchor gets as many as the others together."""
        return None

    @property
    def beam_heuristics(self) -> tuple[Callable[[S], int], ...]:
        """Heuristics the beam's passes take in turn (empty: ``heuristic`` alone)."""
        return ()

    @property
    def beam_strata(self) -> Callable[[S], int] | None:
        """The stage of the game a position is at: the beam shares each depth's width
        among the stages, where one heuristic cannot rank positions at different ones."""
        return None

    @property
    def dead_end(self) -> Callable[[S], str] | None:
        """A one-line proof that no win is reachable from a position ("" when none is
        found); every strategy asks it of its start position first
        (``solver.search.checked``), so it must be sound, not just likely."""
        return None

    @property
    def freer(self) -> Callable[[S], tuple[Any, Any]] | None:
        """A variant at least as winnable as this one and the same position in it, so
        that a loss there proves a loss here (every line of play here must be one there
        too); the portfolio's ``freer_`` members search it."""
        return None

    @property
    def cpsat_solve(self) -> Callable[[S, Budget], Result[M]] | None:
        """The verdict of the game's CP-SAT model, for ``--strategy cpsat``: a win is
        replayed through the rules, INFEASIBLE must be a proof of loss. The model is the
        game's own (``games/_<game>_cpsat.py``, on ``solver.cpsat``), imported when
        called."""
        return None

    @property
    def score(self) -> Callable[[S], int] | None:
        """A scored game's score of a play's last position, one with no move left
        (higher is better; equal for positions of equal ``key``); with ``best_score``
        (both or neither). ``moves`` must then leave no move out (a lost line still
        scores); the ``scored`` strategy finds the best score reachable."""
        return None

    @property
    def best_score(self) -> int | None:
        """The best score any play can score: a position is won exactly when the game is
        over with it."""
        return None

    @property
    def score_bound(self) -> Callable[[S], int] | None:
        """An admissible bound of a scored game: no play from a position scores more
        (default: ``best_score``). Branch and bound prunes with it."""
        return None

    @property
    def best_line(self) -> Callable[[S, Budget], Result[M]] | None:
        """A scored game's own search for the best score, where the generic branch and
        bound would be too slow; ``scored`` hands the position to it. It returns the
        score and a play reaching it replayed through the rules, ``optimal`` only when
        proven best."""
        return None

    @property
    def won_line_moves(self) -> Callable[[Callable[[S], Iterable[M]]], Callable[[S], Iterable[M]]] | None:
        """Given a search's ``moves`` (the game's own, or ``narrow_moves``), the same moves
        for positions known to be won, where a check that can only prove a position lost
        is skipped: ``solver.search.base.shortcut`` asks it of the positions on a win.
        It must give exactly the moves ``moves`` gives there (default: ``moves`` itself)."""
        return None

    @property
    def legal_moves(self) -> Callable[[S], Iterable[M]] | None:
        """Every legal search move, where ``moves`` leaves some out (proven dominated, or
        from a position proven lost); ``hint --all`` lists these (default: ``moves``)."""
        return None

    @property
    def move_cost(self) -> Callable[[S, M], int] | None:
        """How many moves a search move counts for, where published lengths count other
        than steps (FreeCell: a run moved at once is one move; default: the steps of
        ``expand``). ``astar`` and ``bfs`` minimise its sum, so ``lower_bound`` must be
        admissible in it."""
        return None

    @property
    def children(self) -> Callable[[S], Iterable[tuple[tuple[M, ...], S | None, bytes]]] | None:
        """Every child of a position from one compiled call: (edge, child, key) for each
        move of ``moves`` in its order, where edge and child are what
        ``solver.search.base.follow`` makes of the move (forced moves played) and key is
        ``key(child)``. The child may be None where the edge is one move and the child is
        not won: the search then makes it with ``play(state, edge[0])``, and only if its
        key is new, since most children are positions seen before. A game whose compiled
        rules can make them without a Python-level call a child, sharing work between
        siblings, offers it (lazily, so that ``dfs`` makes a child's siblings only when it
        comes back to them); ``dfs`` and ``best_first`` use it wherever they search on
        ``key``, and must find exactly what they find without it. A view of the game never
        forwards it."""
        return None

    @property
    def forced_keeps_shortest(self) -> bool:
        """True when the forced moves are proven to keep a shortest win (not only the
        verdict), so that ``astar`` and ``bfs`` may play them; otherwise they do not."""
        return False

    @property
    def unknown_future(self) -> Callable[[S], tuple[str, str] | None] | None:
        """Why no search from a position can prove a loss, as (stopped_by, reason): its
        text leaves part of the game's future unknown (Gaps' redeals, CrissCross'
        reshuffles, fixed by a deal number a board may not give), so ``moves`` leaves
        those moves out. ``solver.app.analyze.solve`` turns a ``lost`` into ``unknown``
        with that reason. None when every line of play is searched."""
        return None

    @property
    def player_view(self) -> "View[S, M] | None":
        """What a player sees of a position (``solver.view``): which cards are unseen,
        what was seen before, the steps open to the player. None when the rules hide
        nothing (every card face up, no unknown future), so that a blind answer is the
        full-information one."""
        return None

    @property
    def blind_playout(self) -> Callable[[S], S] | None:
        """A rule-following player, for blind hints: the position where its game ends when
        it plays on from a full position, each of its choices reading only what a player
        would see. Declared, a blind hint values a plan in a sampled world by where this
        playout ends (won or not, and a scored game's score) instead of by the world's
        full-information search. That search knows the world's hidden cards, so where the
        rest of a game turns on them it values a plan for a player who sees everything
        (Bridge Solitaire's bid, made as if the stock were known), and the choice follows
        it astray. Choosing each step by its playouts is Bertsekas' rollout: in
        expectation never worse than following the rule from the start. None (the
        default): the world's search."""
        return None

    @property
    def blind_pooled(self) -> bool:
        """Whether a blind hint values each plan with the decision's pooled chance as a
        prior worth one world (``solver.app.blind.Estimate.chance``): for a game whose
        capped worlds are mostly left undecided, where a plan none of whose worlds was
        decided would otherwise rank at 0.5 under any plan with one world won, though its
        worlds are merely harder to decide within the cap. False (the default): a plan's
        chance is its won worlds over its decided ones."""
        return False

    @property
    def blind_spending(self) -> frozenset[M]:
        """Steps that spend a scarce resource the player never gets back (Crescent's
        special redeal, Spider's deal of a row), for blind hints: between plans of equal
        chance, the one that spends fewer ranks first (``solver.app.blind.ranked``). A
        world's capped search decides a position more easily when less is left to spend
        (fewer redeals, fewer rows: a smaller space), so without this the share of worlds
        decided draws such steps forward, while what keeping them is worth (spending
        them later, knowing more) no world solved with full sight can show. Empty (the
        default): no step is set apart."""
        return frozenset()

    @property
    def blind_calibration(self) -> tuple[float, ...] | None:
        """Seven weights that turn a blind hint's share of won worlds into a chance
        calibrated against blind games' outcomes (``solver.app.blind.calibrated``): the
        share is a full-information chance, an upper bound on a blind player's. Fitted on
        the game's own blind games by ``benchmarks/blind_calibration.py`` and checked on
        others; None (the default): no calibration is offered."""
        return None

    #: What the game's pieces are called in messages ("tiles" for a game of dominoes).
    pieces: ClassVar[str] = "cards"

    #: How the difficulty score was checked on this game's own deals under its default
    #: rules (against its dial of resources, or blind play), or why it cannot grade them:
    #: one line, which ``difficulty_check`` gives its cards. None: not checked.
    difficulty_checked: ClassVar[str | None] = None

    @property
    def difficulty_check(self) -> str:
        """How far to trust this game's difficulty score, one line for ``analyze``'s card:
        ``difficulty_checked`` under the default rules, and for other rules or a game never
        checked, that the weights were fitted on FreeCell only. A score that orders
        FreeCell deals well may not order another game's (data/winnable/README.md)."""
        if self.difficulty_checked is not None and self == type(self)():
            return self.difficulty_checked
        return ("none on these rules' deals: the weights were fitted on Microsoft FreeCell "
                "against its free cells")

    @property
    def difficulty_weights(self) -> dict[str, float] | None:
        """The difficulty score's weights for this game (``solver.app.difficulty.score``):
        fitted on the game's own deals against its own dial of resources by
        ``benchmarks/difficulty_fit.py`` and checked on others; None (the default): the
        weights fitted on Microsoft FreeCell against its free cells."""
        return None

    @property
    def blind_cap(self) -> int:
        """Positions each sampled world's solve may store in a blind hint (``--cap``'s
        default): small enough that hundreds of worlds fit in a hint's seconds, large
        enough that the game's worlds are mostly decided (``solver.app.blind``)."""
        return BLIND_CAP

    @property
    def blind_strategy(self) -> str | None:
        """The strategy that solves a blind hint's sampled worlds (``--strategy``'s
        default there), where one decides capped worlds sooner than the game's
        ``default_strategy``; None (the default): the game's own."""
        return None

    @property
    def dial(self) -> tuple[str, tuple[Any, ...]] | None:
        """A resource the rules can give more or less of: the variant option and its
        values from scarcest to freest, each at least as winnable as the one before
        (FreeCell's free cells, ``("cells", (0, 1, 2, 3, 4))``). ``solitaire analyze``
        reports the scarcest value that still wins a deal (``solver.app.difficulty``),
        the position carried over by its text (``format``, then the other variant's
        ``parse``) or its deal number. None when the game has no such dial."""
        return None

    @property
    def certifier(self) -> "Certifier[S, M] | None":
        """How a ``lost`` verdict is written as a certificate the independent checker
        (``checker``) verifies (``solver.certify``): the encoding of positions, the
        reductions the checker applies, and the moves the writer follows. None when the
        game writes no certificates yet."""
        return None

    def drawing(self, state: S) -> "Layout":
        """How the position is drawn (``solver.layout``): piles of cards, face up or down,
        in rows, with notes for what the piles do not show; the replay page draws it.

        By default each line of the position's text that holds cards is a pile of its own
        row (``solver.layout.text_layout``); a game whose table has a shape of its own
        (columns under cells and foundations, a grid, a cross) declares it. The cards are
        the position's, each once: the replay page's test compares them with ``format``.
        """
        from solver.layout import text_layout

        return text_layout(self.format(state))

    # -- for the tests: no search reads these ---------------------------------------------

    @property
    def twins(self) -> tuple[dict[str, Any], ...]:
        """Variant options of small twins: the game with fewer ranks, columns or suits,
        so that exhaustive search decides its numbered deals in milliseconds, won and
        lost alike (``solver.game.twins``, ``tests/test_contract.py``)."""
        return ()

    @property
    def regression(self) -> tuple[tuple[dict[str, Any], int, int, int], ...]:
        """The regression set's lines for this game: (variant options, first deal, last
        deal, state budget); ``benchmarks/pin_regression.py`` pins what the default
        strategy does on each deal (verdict, stored positions, length), and
        ``tests/test_regression.py`` checks it."""
        return ()

    @property
    def no_twins(self) -> str:
        """Why the game can have no small twin ("" when it has some): its own tests then
        check its search against play through the rules instead."""
        return ""


class FromRules(Generic[P, R]):
    """A game method whose body is a method of the game's compiled rules object.

    Declared in a game class as ``moves = from_rules(Rules.moves)``: the rule is written
    once, where it runs (the rules module, compiled by mypyc), and the game class says in
    one line that it answers with it. Its docstring is the rules method's. ``use_rules``
    binds the rules object's method on each game, so that a search calls the compiled
    code with no Python frame in between; without that binding (a class read, a game not
    yet set up) the descriptor answers with ``game.rules`` itself.
    """

    def __init__(self, method: Callable[Concatenate[Any, P], R], doc: str | None = None) -> None:
        self.method = method
        self.__doc__ = doc if doc is not None else method.__doc__

    def __set_name__(self, owner: type[Any], name: str) -> None:
        # What help() and doctest read of a method: its name and the class it is in (so
        # the doctests of a game's own docstring run with the game module's tests).
        self.__name__ = name
        self.__objclass__ = owner
        self.__module__ = owner.__module__

    @overload
    def __get__(self, game: None, owner: type[Any]) -> "FromRules[P, R]": ...

    @overload
    def __get__(self, game: object, owner: type[Any]) -> Callable[P, R]: ...

    def __get__(self, game: object | None, owner: type[Any]) -> "FromRules[P, R] | Callable[P, R]":
        if game is None:
            return self
        return self.bound(game.rules)  # type: ignore[attr-defined]

    def bound(self, rules: Any) -> Callable[P, R]:
        """Return the rules method bound to `rules`."""
        bound: Callable[P, R] = self.method.__get__(rules, type(rules))
        return bound


def from_rules(method: Callable[Concatenate[Any, P], R], doc: str | None = None) -> FromRules[P, R]:
    """Declare a game method answered by its rules object's `method` (see ``FromRules``).

    `doc` is the method's docstring where the game says more than the rules method
    (what it means in this game, examples on its deals); by default the rules method's.

    >>> class Rules:
    ...     def double(self, n: int) -> int:
    ...         "Return twice n."
    ...         return 2 * n
    >>> class Toy:
    ...     rules = Rules()
    ...     double = from_rules(Rules.double)
    >>> Toy().double(4), Toy.double.__doc__
    (8, 'Return twice n.')
    """
    return FromRules(method, doc)


def use_rules(game: Any) -> None:
    """Bind every ``from_rules`` method of `game` to its rules object (``game.rules``).

    Called once from a game's ``__post_init__``: the search then finds the compiled
    method on the game itself. Games travel to batch workers as their variant fields and
    are built again there, so the bound methods are never pickled.
    """
    rules = game.rules
    for kind in reversed(type(game).__mro__):
        for name, value in vars(kind).items():
            if isinstance(value, FromRules):
                object.__setattr__(game, name, value.bound(rules))


def shared_rules(kind: Callable[..., R], *variant: Hashable) -> R:
    """Return ``kind(*variant)``, built once for each `variant` and shared from then on.

    A game's rules object (the one it hands to ``use_rules``) holds lookup tables that
    depend on the variant fields alone, so every game of one variant can use the same
    one: a game built again (``dataclasses.replace``, a batch worker's copy for each
    deal, a test's twin) finds its tables ready instead of computing them again (they
    take milliseconds to build; figures in data/measurements.md). Its tables and caches answer for the
    variant, never for one game, so sharing them changes no answer; nothing is written
    into the frozen game but what ``use_rules`` binds.

    >>> shared_rules(bytearray, 3) is shared_rules(bytearray, 3)
    True
    """
    return _built(kind, variant)  # type: ignore[no-any-return]


@functools.cache
def _built(kind: Callable[..., Any], variant: tuple[Hashable, ...]) -> Any:
    return kind(*variant)


def check_option(name: str, value: object, allowed: range | tuple[object, ...]) -> None:
    """Raise ``ValueError`` unless a variant option's `value` is among `allowed`.

    Called from a game's ``__post_init__`` for each option it bounds; the message names the
    option, what it may be and what it got, and the CLI prints it as one line.

    >>> check_option("redeals", 3, range(10))
    >>> check_option("redeals", 10, range(10))
    Traceback (most recent call last):
    ValueError: redeals must be 0..9, got 10
    >>> check_option("empty", "none", ("kings", "any"))
    Traceback (most recent call last):
    ValueError: empty must be 'kings' or 'any', got 'none'
    """
    if value in allowed:
        return
    if isinstance(allowed, range):
        may = f"{allowed.start}..{allowed.stop - 1}"
    else:
        words = [repr(word) if isinstance(word, str) else str(word) for word in allowed]
        may = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    raise ValueError(f"{name} must be {may}, got {value!r}")


# -- small twins (for tests; no search reads them) ---------------------------------------

def twins(game: Any) -> list[Any]:
    """Return the game's small twins: the game with each set of variant options that its
    optional ``twins`` attribute names (a tuple of ``{option: value}`` dicts).

    A small twin has fewer ranks, columns or suits, so that exhaustive search decides
    its numbered deals in milliseconds, won and lost alike. The tests check on twins
    what full deals are too big to check: that forced moves never change a verdict and
    that exhaustive strategies agree (``tests/test_contract.py``). A twin keeps every
    option the twin's dict does not name, so one tuple serves all the games one class
    plays (FreeCell and Seahaven Towers).
    """
    return [replace(game, **options) for options in game.twins]


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
                 *, cards: tuple[str, ...] = (), line: int | None = None, more: int = 0) -> None:
        """`details` are the problems the message names; `more` counts the ones left out."""
        self.game, self.problems, self.cards, self.line = game, problems, cards, line
        self.details = tuple(details)
        self.more = more
        where = f"{game} deal" + (f", line {line}" if line is not None else "")
        rest = f"; and {more} more problem{'s' if more != 1 else ''}" if more else ""
        super().__init__(f"{where}: " + "; ".join(self.details) + rest)


class InvalidMoveError(SolitaireError, ValueError):
    """A move's text that does not name a move of this game."""


class IllegalMoveError(SolitaireError, ValueError):
    """A move that parses but breaks the rules where it is played."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        self.index, self.move, self.reason = index, move, reason
        super().__init__(f"move {index + 1} ({quote(move)}) is illegal: {reason}")


class DealChecker:
    """Collects deal problems while a parser reads, then raises one DealError.

    The message stays short whatever the text: it names the first SHOWN_PROBLEMS
    problems and counts the rest, games quote tokens with ``quote``, and ``cards`` keeps
    the first KEPT_CARDS tokens and card names, each cut to TOKEN_LIMIT characters.

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
        self.more = 0                    # problems found past the first SHOWN_PROBLEMS
        self.cards: list[str] = []
        self.line: int | None = None

    def add(self, problem: DealProblem, detail: str, *, line: int | None = None,
            card: str | None = None) -> None:
        """Record a problem; the first line given leads the message, others follow theirs."""
        self.problems |= problem
        if len(self.details) < SHOWN_PROBLEMS:
            if line is not None and self.line not in (None, line):
                detail += f" (line {line})"
            self.details.append(cut(detail, 4 * QUOTE_LIMIT + NAMED_CARDS * 4))
        else:
            self.more += 1
        if card is not None:
            self.add_cards([card])
        if self.line is None and line is not None:
            self.line = line

    def add_cards(self, names: Iterable[str]) -> None:
        """Keep tokens or card names for ``DealError.cards`` (the first KEPT_CARDS)."""
        for name in names:
            if len(self.cards) >= KEPT_CARDS:
                break
            self.cards.append(cut(name))

    def check_deck(self, cards: list[int], decks: int = 1,
                   universe: Iterable[int] | None = None, *, line: int | None = None,
                   missing: bool = True) -> None:
        """Record duplicated cards (at `line`, if given) and missing ones (unless not
        `missing`: a position whose played cards are gone), naming them."""
        from solver.cards import DECK, card_str, deck_problems

        duplicated, absent = deck_problems(cards, decks, DECK if universe is None else universe)
        if duplicated:
            self.add_card_problem(DealProblem.DUPLICATE_CARD, "duplicate",
                                  [card_str(c) for c in duplicated], line=line)
        if absent and missing:
            self.add_card_problem(DealProblem.MISSING_CARD, "missing",
                                  [card_str(c) for c in absent])

    def add_card_problem(self, problem: DealProblem, what: str, names: list[str],
                         line: int | None = None) -> None:
        """Record "missing cards AC 2C ..." (`what` = "missing"), naming at most NAMED_CARDS."""
        self.add(problem, f"{what} card{'s' if len(names) > 1 else ''} {card_list(names)}",
                 line=line)
        self.add_cards(names)

    def raise_if_any(self) -> None:
        """Raise a DealError if anything was recorded."""
        if self.problems:
            raise DealError(self.game, self.problems, self.details,
                            cards=tuple(self.cards), line=self.line, more=self.more)
