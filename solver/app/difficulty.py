"""The difficulty card of one deal: how hard it is, where it is decided, and what it needs.

``card(game, state)`` measures a deal through the Game protocol alone, so it works for
every game:

- the verdict, by the game's default strategy (with its usual evidence);
- ``least``: where the game declares a dial (``solver.game.Game.dial``: FreeCell's free
  cells, Klondike's passes, ...), the scarcest value that still wins;
- ``shortest``: the shortest solution A* proves (or the best it found, beside the
  start's lower bound);
- ``first_moves``: of the legal first moves, how many keep the deal winnable (a move to
  a position on the verdict's winning line counts without a search);
- ``critical``: along the solution, the steps played from a position that offers a
  choice where exactly one move, or one group of moves reaching the same position
  (equal ``key``), keeps the game winnable (every other move's position proven lost);
- ``effort``: positions stored by one fixed, documented move order: depth first in the
  game's own move order (``moves``: the most promising first, foundation moves before
  others, as a careful player tries them), forced moves played, up to ``EFFORT_CAP``;
- ``random_play``: of ``RANDOM_GAMES`` random games (seeded), the share won and how far
  they get (the mean share of the start's ``lower_bound`` that the best position of each
  game has gone below): a uniformly random legal move each turn, the game's
  proven-safe forced moves played as an autoplay would, at most ``RANDOM_STEPS`` moves;
- ``guided_play``: of ``GUIDED_GAMES`` games played by a careless follower of the game's
  heuristic (seeded), the share won: each turn the move to the position the game's
  ``heuristic`` rates best among those not yet visited in that game, except that with
  probability ``GUIDED_EPSILON`` the move is a uniformly random legal one (an
  epsilon-greedy rollout); at most ``GUIDED_STEPS`` moves. Random play tells deals a
  blind walker wins from those it does not; guided play tells apart deals that a
  sensible player wins by following obvious moves from deals that need foresight;
- ``blind``: where the game hides cards (``player_view``), the blind hint's best chance
  from the start (``solver.app.blind``): it samples the hidden cards and solves each
  world with full sight of it, so it is an upper bound on what blind play wins (where
  the game declares a rule-following playout, Bridge Solitaire's, the rule's chance);
- ``difficulty`` (0-100) and ``tier``: ``score`` of the measured features, which never
  read the dial (the dial checks the score: ``benchmarks/difficulty_check.py``).

Each stage has its share of the card's time budget and a cap in positions; a stage that
cannot finish leaves its field unfilled and says so in ``unfilled``, never a guess. A
deal whose verdict is unknown gets no difficulty (tier ``unknown``); a lost one's tier is
``lost``. Silent: the CLI prints; ``on_stage`` reports progress.
"""
from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from solver.app.analyze import default_strategy, listed_moves, solve
from solver.app.batch import Worker
from solver.app.pool import describe
from solver.app.record import Verdict, budget_record, variant_of
from solver.app.sources import Task, start_position
from solver.game import Game, SolitaireError, Status
from solver.search import Budget, Result

EFFORT_CAP = 100_000        # positions the fixed-order search may store
RANDOM_GAMES = 500          # random games a card plays
RANDOM_STEPS = 1_000        # moves a random game may make before it counts as lost
CHILD_CAP = 2_000           # positions each critical-position check may store
FIRST_CAP = 20_000          # positions the first moves' checks share (an equal part each)
LEAST_CAP = 200_000         # positions each scarcer dial value's search may store
GUIDED_GAMES = 300          # games the heuristic's follower plays
GUIDED_EPSILON = 0.1        # the chance of a random move at each of its turns
GUIDED_STEPS = 400          # moves a guided game may make before it counts as lost
BLIND_SAMPLES = 16          # worlds the blind chance samples
TIERS = ((25.0, "easy"), (50.0, "medium"), (75.0, "hard"), (math.inf, "very hard"))

# The score's weights, fitted by logistic regression (standardised features, a ridge
# penalty of 1) on Microsoft FreeCell deals 1-752: won with at most one free cell (easy)
# against not won with two (hard); checked on deals 753-2000 (area under the ROC curve
# 0.964). benchmarks/difficulty_check.py makes the fit; data/difficulty/README.md gives it.
# The score reads as the chance that a FreeCell deal like this one cannot be won with two
# free cells.
WEIGHTS: dict[str, float] = {
    "bias": 4.609,
    "effort": 0.287,        # log10(1 + positions the fixed-order search stored)
    "narrow": 0.444,        # share of the legal first moves not proven to keep a win
    "critical": 0.152,      # log2(1 + critical positions along the solution)
    "length": 0.223,        # log10 of the fixed-order search's solution length
    "random": -26.670,      # share of random games won
    "progress": -41.184,    # how far random games get (share of the start's lower bound)
    "guided": -6.692,       # share of guided (epsilon-greedy) games won
}

# The share of the card's seconds each stage may use (the rest is the verdict's).
SHARES = {"verdict": 0.3, "effort": 0.1, "shortest": 0.15, "first_moves": 0.1,
          "critical": 0.15, "least": 0.15, "random_play": 0.03, "blind": 0.02}


@dataclass(frozen=True)
class Settings:
    """What a card may spend: seconds in all (shared by its stages), memory, the seeds."""

    seconds: float | None = 60.0
    cpu: bool = False                     # seconds of processor time
    memory: int | None = None
    max_states: int | None = None         # positions any one search may store
    strategy: str | None = None           # the verdict's (default: the game's own)
    seed: int = 0
    random_games: int = RANDOM_GAMES
    guided_games: int = GUIDED_GAMES
    blind_samples: int = BLIND_SAMPLES
    shortest: bool = True                 # run A* for the shortest solution
    least: bool = True                    # try the dial's scarcer values

    def budget(self, stage: str, cap: int | None = None) -> Budget:
        """Return the budget of one stage: its share of the seconds, capped in positions
        (the stage's `cap` and ``max_states``, which caps every search of the card)."""
        seconds = None if self.seconds is None else self.seconds * SHARES[stage]
        caps = [c for c in (cap, self.max_states) if c is not None]
        return Budget(max_states=min(caps) if caps else None, seconds=seconds,
                      memory=self.memory, cpu=self.cpu)


@dataclass(frozen=True)
class Features:
    """What the score reads: measured on the deal, never from the dial."""

    effort: int                   # positions the fixed-order search stored (capped)
    narrow: float                 # share of the legal first moves that keep no proven win
    critical: int                 # critical positions proven along the solution
    length: int                   # steps of the fixed-order search's solution (0: none)
    random: float                 # share of random games won
    progress: float               # how far random games get, 0 (nowhere) to 1 (won)
    guided: float                 # share of guided (epsilon-greedy) games won

    def values(self) -> dict[str, float]:
        """Return the transformed inputs of the score, by weight name."""
        return {"effort": math.log10(1 + self.effort), "narrow": self.narrow,
                "critical": math.log2(1 + self.critical),
                "length": math.log10(max(1, self.length)), "random": self.random,
                "progress": self.progress, "guided": self.guided}


def score(features: Features, weights: dict[str, float] | None = None) -> float:
    """Return the difficulty from 0 (easiest) to 100: ``100 * sigmoid(z)``, with
    ``z = bias + sum(weight * value)`` over ``Features.values`` (README, "Difficulty").

    >>> easy = Features(effort=0, narrow=0.0, critical=0, length=1, random=1.0, progress=1.0,
    ...                 guided=1.0)
    >>> hard = Features(effort=10**6, narrow=1.0, critical=30, length=500, random=0.0,
    ...                 progress=0.0, guided=0.0)
    >>> score(easy) < 5 < 95 < score(hard)
    True
    """
    z = weighted_sum(features, weights)
    return 100.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def weighted_sum(features: Features, weights: dict[str, float] | None = None) -> float:
    """Return the score's z: the bias plus each weight times its feature's value
    (``Features.values``), under `weights` (default ``WEIGHTS``)."""
    chosen = WEIGHTS if weights is None else weights
    return chosen["bias"] + sum(chosen[name] * value for name, value in features.values().items())


def graded(features: Features, weights: dict[str, float] | None = None) -> tuple[float, str]:
    """Return a won deal's score as cards record it (to one decimal) and the tier of that
    recorded score: the card, a rescore and the validation grade alike, so a tier always
    agrees with the score written beside it."""
    difficulty = round(score(features, weights), 1)
    return difficulty, tier(difficulty)


def tier(difficulty: float) -> str:
    """Return the tier of a score: easy below 25, medium below 50, hard below 75, else
    very hard.

    >>> tier(10), tier(50), tier(99.5)
    ('easy', 'hard', 'very hard')
    """
    return next(name for limit, name in TIERS if difficulty < limit)


@dataclass
class Card:
    """A deal's difficulty card; ``to_json`` is ``analyze --json``."""

    verdict: Verdict
    difficulty: float | None = None
    tier: str = "unknown"
    check: str | None = None                     # how far the score is checked (a won deal's)
    least: dict[str, Any] | None = None          # {option: least winning value}
    least_exact: bool = False                    # every scarcer value proven lost
    least_tried: list[dict[str, Any]] = field(default_factory=list)
    shortest: dict[str, Any] | None = None
    first_moves: dict[str, int] | None = None
    critical: list[int] | None = None            # step indices along the solution
    critical_undecided: list[int] = field(default_factory=list)
    solution: tuple[str, ...] = ()               # the solution the critical steps index
    effort: dict[str, Any] | None = None
    random_play: dict[str, Any] | None = None
    guided_play: dict[str, Any] | None = None
    blind: dict[str, Any] | None = None
    features: Features | None = None
    unfilled: dict[str, str] = field(default_factory=dict)   # field -> why
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Return the card as a JSON object: the verdict's fields, then the card's."""
        out = self.verdict.to_json()
        out.update(self.fields())
        return out

    def fields(self) -> dict[str, Any]:
        """Return the card's own fields (what ``classify --analyze`` adds to a record)."""
        return {
            "difficulty": None if self.difficulty is None else round(self.difficulty, 1),
            "tier": self.tier, "difficulty_check": self.check,
            "least": self.least, "least_exact": self.least_exact,
            "least_tried": self.least_tried,
            "shortest": self.shortest, "first_moves": self.first_moves,
            "critical": self.critical, "critical_undecided": self.critical_undecided,
            "solution": list(self.solution), "effort": self.effort,
            "random_play": self.random_play, "guided_play": self.guided_play,
            "blind": self.blind,
            "features": None if self.features is None else dataclasses.asdict(self.features),
            "unfilled": self.unfilled, "card_seconds": round(self.seconds, 3),
        }


# -- the stages ------------------------------------------------------------------------------

def fixed_order(game: Game[Any, Any], state: Any, budget: Budget) -> Result[Any]:
    """Return the fixed-order search's result (``dfs``: the game's move order, forced
    moves played) within `budget`; its ``stored`` is the effort."""
    return solve(game, state, "dfs", budget)


def line_keys(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> set[bytes]:
    """Return the keys of the positions along a verified winning line from `state`: each
    is winnable (the rest of the line wins it), so no search need prove it again."""
    keys = {game.key(state)}
    for step in steps:
        state = game.play(state, step)
        keys.add(game.key(state))
    return keys


def first_moves(game: Game[Any, Any], state: Any, budget: Budget,
                cap: int = FIRST_CAP, until: Budget | None = None,
                winnable: frozenset[bytes] | set[bytes] = frozenset()) -> dict[str, int]:
    """Return how many legal first moves keep the deal winnable: ``winning``, ``lost``
    (proven), ``unknown`` and ``legal``; each move's position gets an equal part of
    `budget`, at most `cap` positions. A move to a position whose key is in `winnable`
    (the positions of the verdict's winning line, ``line_keys``) is winning without a
    search: on Crescent or four-suit Spider no first move's search decides within its
    part, yet the solution's own first move is a proven win. The moves left once `until`
    (a started budget: the card's time up to its later stages, ``first_moves_end``) has
    run out are unknown: a search too quick to read its clock, such as Bridge Solitaire's
    for each of its 792 keeps, takes more than its part, and without this the card would
    run past its time."""
    moves = listed_moves(game, state)
    share = budget.split(len(moves))
    share = dataclasses.replace(share, max_states=min(cap, share.max_states or cap))
    counts = {"winning": 0, "lost": 0, "unknown": 0, "legal": len(moves)}
    for move in moves:
        child = game.play(state, move)
        if winnable and game.key(child) in winnable:
            counts["winning"] += 1
            continue
        if until is not None and until.expired():
            counts["unknown"] += 1
            continue
        status = Status.WON if game.is_won(child) else solve(game, child, None, share).status
        counts[{Status.WON: "winning", Status.LOST: "lost", Status.UNKNOWN: "unknown"}[status]] += 1
    return counts


def search_moves(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> list[tuple[int, Any, Any]]:
    """Return the solution `steps` cut into search moves: (index of its first step, the
    position it is played from, the move), the longest legal search move matching the
    steps that follow each time (a single step where none matches)."""
    out: list[tuple[int, Any, Any]] = []
    index = 0
    while index < len(steps):
        best: tuple[Any, list[Any]] | None = None
        for move in listed_moves(game, state):
            expanded = game.expand(state, move)
            if list(steps[index:index + len(expanded)]) == expanded and \
                    (best is None or len(expanded) > len(best[1])):
                best = (move, expanded)
        move, expanded = best if best is not None else (steps[index], [steps[index]])
        out.append((index, state, move))
        for step in expanded:
            state = game.play(state, step)
        index += len(expanded)
    return out


def critical_steps(game: Game[Any, Any], state: Any, steps: Sequence[Any], budget: Budget,
                   cap: int = CHILD_CAP) -> tuple[list[int], list[int], bool]:
    """Return the critical steps of a winning line (their indices), the steps whose
    positions could not be decided either way, and whether every position was checked.

    A position on the line is critical when it offers a choice (legal moves reaching at
    least two positions of different ``key``) and every legal move from it but the
    line's own (and those reaching the same position) leads to a position proven lost.
    A position with a single way on is no decision, so it is not counted. The line's own move keeps the game winnable: the rest of the line wins. Each
    other move is searched with at most `cap` positions; the first winnable one clears
    the position. `budget`'s seconds are for the whole line.
    """
    budget = budget.start()
    critical: list[int] = []
    undecided: list[int] = []
    per_child = dataclasses.replace(budget, max_states=min(cap, budget.max_states or cap))
    for index, position, move in search_moves(game, state, steps):
        if budget.expired():
            return critical, undecided, False
        own = game.key(game.play(position, move))
        seen = {own}
        unknown = False
        winnable = False
        for other in listed_moves(game, position):
            child = game.play(position, other)
            key = game.key(child)
            if key in seen:
                continue
            seen.add(key)
            if game.is_won(child):
                winnable = True
                break
            status = solve(game, child, None, per_child).status
            if status is Status.WON:
                winnable = True
                break
            unknown = unknown or status is Status.UNKNOWN
        if not winnable and len(seen) > 1:      # a choice, and one way on
            (undecided if unknown else critical).append(index)
    return critical, undecided, True


def least_resources(game: Game[Any, Any], state: Any, deal: int | None, verdict: Status,
                    budget: Budget, cap: int = LEAST_CAP) -> tuple[dict[str, Any] | None, bool,
                                                                  list[dict[str, Any]]]:
    """Return the scarcest dial value that wins (``{option: value}``; None when no value
    tried wins), whether it is exact, and every value tried with its verdict, scarcest
    first.

    Values are tried scarcest first until one wins; the game's own value reuses
    `verdict`. The position is carried to another value by its deal number, else by its
    text (a value whose rules cannot read it is reported ``not comparable``). A least
    value after an undecided one is only an upper bound: it is exact when every scarcer
    value was proven lost.
    """
    dial = game.dial
    if dial is None:
        return None, False, []
    option, values = dial
    own = variant_of(game)[option]      # the dial's option is a variant field (its hook says so)
    trying = [value for value in values if value != own]
    share = budget.split(max(1, len(trying)))
    share = dataclasses.replace(share, max_states=min(cap, share.max_states or cap))
    tried: list[dict[str, Any]] = []
    exact = True
    for value in values:
        if value == own:
            status = verdict
        else:
            try:
                other = dataclasses.replace(game, **{option: value})  # type: ignore[type-var]
                there = other.deal(deal) if deal is not None else other.parse(game.format(state))
            except (SolitaireError, ValueError) as error:
                tried.append({option: value, "status": "not comparable", "why": str(error)[:80]})
                continue
            status = solve(other, there, None, share).status
        tried.append({option: value, "status": status.value})
        if status is Status.WON:
            return {option: value}, exact, tried
        exact = exact and status is Status.LOST
    return None, False, tried


def _play_out(game: Game[Any, Any], state: Any, steps: int,
              turn: Callable[[Any, list[Any]], Any | None], bound: bool = False) -> tuple[bool, int]:
    """Play one game from `state`: each turn the game's proven-safe forced moves as an
    autoplay would, then `turn(position, legal moves)` gives the next position (None: the
    player stops). Return whether it was won within `steps` turns, and (with `bound`) the
    least ``lower_bound`` its positions reached (0 for a win)."""
    from solver.search.base import settle

    position = state
    least = game.lower_bound(state) if bound else 0
    for _ in range(steps):
        _, position = settle(game, position)
        if bound:
            least = min(least, game.lower_bound(position))
        if game.is_won(position):
            return True, 0
        moves = listed_moves(game, position)
        if not moves:
            break
        position = turn(position, moves)
        if position is None:
            break
    return False, least


def random_play(game: Game[Any, Any], state: Any, games: int = RANDOM_GAMES, seed: int = 0,
                steps: int = RANDOM_STEPS) -> tuple[int, float]:
    """Return how many of `games` random games are won, and how far they get: the mean,
    over the games, of the share of the start's ``lower_bound`` that the game's best
    position went below (1 for a win; 0 when the start's bound is 0).

    Each turn a uniformly random legal move (``listed_moves``), after the game's
    proven-safe forced moves are played as an autoplay would; a game ends lost with no
    move left or after `steps` moves.
    """
    won, progress = 0, 0.0
    start = game.lower_bound(state)
    for index in range(games):
        chooser = random.Random(seed * 1_000_003 + index)
        ended_won, least = _play_out(
            game, state, steps,
            lambda position, moves: game.play(position, moves[chooser.randrange(len(moves))]),
            bound=True)
        won += ended_won
        progress += 1.0 - least / start if start > 0 else 0.0
    return won, progress / max(1, games)


def guided_play(game: Game[Any, Any], state: Any, games: int = GUIDED_GAMES, seed: int = 0,
                epsilon: float = GUIDED_EPSILON, steps: int = GUIDED_STEPS) -> int:
    """Return how many of `games` epsilon-greedy games are won.

    Each turn, after the proven-safe forced moves: with probability `epsilon` a uniformly
    random legal move; otherwise the move to the child with the least ``heuristic`` (plus
    a random half point, so that ties and near ties vary between games) among children not
    yet visited in this game. A game ends lost with no move left, every child visited, or
    after `steps` moves.
    """
    won = 0
    for index in range(games):
        chooser = random.Random(seed * 1_000_003 + index)
        visited: set[bytes] = set()

        def turn(position: Any, moves: list[Any]) -> Any | None:
            visited.add(game.key(position))
            if chooser.random() < epsilon:
                return game.play(position, moves[chooser.randrange(len(moves))])
            best: tuple[float, Any] | None = None
            for move in moves:
                child = game.play(position, move)
                if game.key(child) in visited:
                    continue
                rating = game.heuristic(child) + chooser.random() * 0.5
                if best is None or rating < best[0]:
                    best = (rating, child)
            return None if best is None else best[1]

        won += _play_out(game, state, steps, turn)[0]
    return won


def blind_chance(game: Game[Any, Any], state: Any, samples: int, seed: int,
                 text: str | None = None) -> dict[str, Any] | None:
    """Return the blind hint's best chance from the start, where the game hides cards:
    from what the position's `text` says was seen (its marks, ``Sighted.read``), else
    from what a deal's start shows."""
    if game.player_view is None:
        return None
    from solver.app.blind import Settings as BlindSettings, blind_hint
    from solver.view import Sighted

    position = Sighted.of(game, state) if text is None else Sighted.read(game, text, state)
    found = blind_hint(position, BlindSettings(samples=samples, seed=seed))
    best = found.best
    if best is None:
        return {"chance": 0.0, "samples": found.samples, "move": None}
    low, high = best.interval()
    note = "an upper bound on blind play: each sampled world is solved with full sight" \
        if game.blind_playout is None else \
        "a rule-following player's chance: each sampled world is played on by the rule"
    return {"chance": round(best.chance, 4), "low": round(low, 4), "high": round(high, 4),
            "samples": found.samples, "move": best.notation, "note": note}


# -- the card -------------------------------------------------------------------------------

STAGES = ("verdict", "effort", "shortest", "first_moves", "critical", "least", "random_play",
          "guided_play", "blind")


def first_moves_end(game: Game[Any, Any], settings: Settings) -> float | None:
    """Return the seconds into the card by which the first moves' checks must stop: the
    card's seconds less the shares of the stages after them that will run (critical
    steps, the dial's values where the game has a dial, random play, the blind chance),
    so that those stages still have their time (None: no time limit). The first moves may
    run past their own share, for a search too quick to read its clock takes more than
    its part (``first_moves``). Random and guided play and the blind chance are fixed
    numbers of games and worlds: their shares are kept for them, not imposed on them."""
    if settings.seconds is None:
        return None
    later = ["critical", "random_play", "blind"]
    if settings.least and game.dial is not None:
        later.append("least")
    return settings.seconds * (1.0 - sum(SHARES[name] for name in later))


def card(game: Game[Any, Any], state: Any, deal: int | str | None = None,
         settings: Settings = Settings(),
         on_stage: Callable[[str, int], None] | None = None, text: str | None = None) -> Card:
    """Return the difficulty card of `state` (numbered deal `deal`, or a file's name).

    `on_stage(name, index)` is called as each stage starts (for a progress line); `text`,
    the position's text where it was read from one, says what the player has seen for
    the blind chance.
    """
    first_until = Budget(seconds=first_moves_end(game, settings), cpu=settings.cpu).start()
    began = first_until.clock()           # the card's start, on the clock its budgets count

    def stage(name: str) -> None:
        if on_stage is not None:
            on_stage(name, STAGES.index(name))

    stage("verdict")
    budget = settings.budget("verdict")
    result = solve(game, state, settings.strategy, budget)
    verdict = Verdict.of(game, deal if deal is not None else "-", result, budget,
                         default_strategy(game, settings.strategy))
    made = Card(verdict)
    status = result.status
    number = deal if isinstance(deal, int) else None

    stage("effort")
    effort_budget = settings.budget("effort", EFFORT_CAP)
    effort = fixed_order(game, state, effort_budget)
    made.effort = {"order": "dfs in the game's move order, forced moves played",
                   "positions": effort.stored, "cap": effort_budget.max_states,
                   "won": effort.status is Status.WON, "length": len(effort.moves)}
    if status is Status.UNKNOWN and effort.status is not Status.UNKNOWN:
        result, status = effort, effort.status        # the fixed order decided it
        made.verdict = Verdict.of(game, verdict.deal, effort, budget, "dfs")

    solution: tuple[Any, ...] = result.moves if status is Status.WON else ()
    if status is Status.WON and settings.shortest:
        stage("shortest")
        try:
            short = solve(game, state, "astar", settings.budget("shortest", None))
        except SolitaireError as error:
            made.unfilled["shortest"] = str(error)
        else:
            if short.status is Status.WON:
                counted = int(short.extra.get("counted_moves", len(short.moves)))
                made.shortest = {"length": counted, "steps": len(short.moves),
                                 "optimal": short.optimal,
                                 "lower_bound": game.lower_bound(state)}
                if len(short.moves) <= len(solution) or not solution:
                    solution = short.moves
            else:
                made.unfilled["shortest"] = f"A* found no win ({short.stopped_by or 'lost'})"
    elif status is Status.WON:
        made.unfilled["shortest"] = "not asked for"
    made.solution = tuple(game.notation(step) for step in solution)

    stage("first_moves")
    made.first_moves = first_moves(game, state, settings.budget("first_moves", FIRST_CAP),
                                   until=first_until, winnable=line_keys(game, state, solution))

    if status is Status.WON:
        stage("critical")
        critical, undecided, whole = critical_steps(game, state, solution,
                                                    settings.budget("critical", CHILD_CAP))
        made.critical, made.critical_undecided = critical, undecided
        if not whole:
            made.unfilled["critical"] = "the time ran out before the whole solution was checked"
        if undecided:
            made.unfilled.setdefault("critical", f"{len(undecided)} positions undecided "
                                     f"within {CHILD_CAP:,} positions a move")

    stage("least")
    if not settings.least:
        made.unfilled["least"] = "not asked for"
    elif game.dial is None:
        made.unfilled["least"] = f"{game.name} has no dial of resources"
    else:
        made.least, made.least_exact, made.least_tried = least_resources(
            game, state, number, status, settings.budget("least", LEAST_CAP))
        if made.least is None:
            made.unfilled["least"] = "no value of the dial was won within the budget"

    stage("random_play")
    won, progress = random_play(game, state, settings.random_games, settings.seed)
    made.random_play = {"games": settings.random_games, "won": won,
                        "rate": round(won / max(1, settings.random_games), 4),
                        # None: the game's lower bound is 0 at the start, so it measures
                        # no way to go (a scored game such as Bridge Solitaire)
                        "progress": round(progress, 4) if game.lower_bound(state) > 0 else None,
                        "seed": settings.seed, "max_moves": RANDOM_STEPS}

    stage("guided_play")
    guided = guided_play(game, state, settings.guided_games, settings.seed)
    made.guided_play = {"games": settings.guided_games, "won": guided,
                        "rate": round(guided / max(1, settings.guided_games), 4),
                        "epsilon": GUIDED_EPSILON, "seed": settings.seed,
                        "max_moves": GUIDED_STEPS}

    stage("blind")
    if game.player_view is None:
        made.unfilled["blind"] = f"{game.name} hides nothing: the blind chance is the verdict"
    else:
        made.blind = blind_chance(game, state, settings.blind_samples, settings.seed, text)

    legal = made.first_moves["legal"]
    made.features = Features(
        effort=effort.stored, critical=len(made.critical or ()),
        narrow=1.0 - made.first_moves["winning"] / legal if legal else 0.0,
        length=len(effort.moves) if effort.status is Status.WON else len(result.moves),
        random=won / max(1, settings.random_games), progress=round(progress, 4),
        guided=guided / max(1, settings.guided_games))
    if status is Status.WON:
        made.difficulty, made.tier = graded(made.features, game.difficulty_weights)
        made.check = game.difficulty_check
    else:
        made.tier = status.value
        made.unfilled["difficulty"] = "the deal is lost: no win to grade" \
            if status is Status.LOST else "the verdict is unknown: no difficulty without a win"
        if status is Status.UNKNOWN:
            for name in ("shortest", "critical"):
                made.unfilled.setdefault(name, "the verdict is unknown")
    made.seconds = settings.budget("verdict").clock() - began
    return made


def card_lines(made: Card) -> list[str]:
    """Return the card as the lines ``solitaire analyze`` prints."""
    verdict = made.verdict
    out = [f"{verdict.game} {verdict.deal}: {verdict.status.value}"
           + (f", {verdict.length} steps" if verdict.status is Status.WON else "")
           + f" ({verdict.strategy}, {verdict.states:,} positions)"]
    if made.difficulty is not None:
        out.append(f"difficulty: {made.difficulty:.0f} of 100 ({made.tier})")
        if made.check:
            out.append(f"  its check: {made.check}")
    else:
        out.append(f"difficulty: none ({made.tier})")
    if made.least is not None:
        (option, value), = made.least.items()
        shown = "unlimited" if value is None else value
        bound = "" if made.least_exact else " (at most: a scarcer value was undecided)"
        out.append(f"least {option} that win: {shown}{bound}")
    if made.least_tried:
        out.append("  tried: " + ", ".join(
            f"{_value(next(iter(t.values())))} {t['status']}" for t in made.least_tried))
    if made.shortest is not None:
        short = made.shortest
        proven = "proven shortest" if short["optimal"] else \
            f"the shortest found; every win needs at least {short['lower_bound']}" \
            if short["lower_bound"] > 0 else "the shortest found, not proven shortest"
        steps = "" if short["steps"] == short["length"] else f", {short['steps']} steps"
        out.append(f"shortest solution: {short['length']} moves{steps} ({proven})")
    if made.first_moves is not None:
        first = made.first_moves
        unknown = f", {first['unknown']} undecided" if first["unknown"] else ""
        out.append(f"first moves: {first['winning']} of {first['legal']} keep it winnable{unknown}")
    if made.critical is not None:
        where = ", ".join(str(i + 1) for i in made.critical) or "none"
        out.append(f"critical steps (exactly one way on): {len(made.critical)} of "
                   f"{len(made.solution)}: {where}"
                   + (f"; {len(made.critical_undecided)} undecided" if made.critical_undecided
                      else ""))
    if made.effort is not None:
        effort = made.effort
        out.append(f"search effort (dfs, the game's move order): {effort['positions']:,} positions"
                   + ("" if effort["won"] else f" (no win within {effort['cap']:,})"))
    if made.random_play is not None:
        rand = made.random_play
        way = "" if rand["progress"] is None else f", {rand['progress']:.0%} of the way on average"
        out.append(f"random play: {rand['won']} of {rand['games']} games won{way} "
                   f"(seed {rand['seed']})")
    if made.guided_play is not None:
        guided = made.guided_play
        out.append(f"guided play (the heuristic's move, a random one {guided['epsilon']:.0%} "
                   f"of the time): {guided['won']} of {guided['games']} games won")
    if made.blind is not None:
        out.append(f"blind chance from the start: {made.blind['chance']:.0%} of "
                   f"{made.blind['samples']} sampled worlds (an upper bound on blind play)")
    for name, why in made.unfilled.items():
        out.append(f"not filled: {name}: {why}")
    if made.solution:
        out.append("solution: " + " ".join(made.solution))
    return out


def _value(value: Any) -> str:
    return "unlimited" if value is None else str(value)


# -- classify --analyze ---------------------------------------------------------------------

class CardWorker(Worker):
    """Classifies one task's deal and adds its card to the record (``classify --analyze``);
    picklable, like ``solver.app.batch.Worker``. Its strategy names the card's settings,
    so a results file is never resumed with other ones."""

    def __init__(self, game: Game[Any, Any], settings: Settings) -> None:
        strategy = f"analyze:{default_strategy(game, settings.strategy)}"
        super().__init__(game, strategy, Budget(max_states=settings.max_states,
                                                seconds=settings.seconds, memory=settings.memory,
                                                cpu=settings.cpu))
        self.settings = settings

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.asdict(self.game)  # type: ignore[call-overload]
        return _rebuilt_card_worker, (type(self.game), fields, self.settings)

    def __call__(self, task: Task) -> Verdict:
        try:
            game = self.game
            made = card(game, start_position(game, task), task.deal, self.settings)
            verdict = dataclasses.replace(made.verdict, strategy=self.strategy,
                                          budget=budget_record(self.budget))
            extra = {**verdict.extra, **made.fields()}
            return dataclasses.replace(verdict, extra=extra)
        except Exception as error:           # a bug in a game or a strategy: not a verdict
            return self.failed(task, "error", describe(error))


def _rebuilt_card_worker(kind: Any, fields: dict[str, Any], settings: Settings) -> CardWorker:
    return CardWorker(kind(**fields), settings)
