"""Blind hints and blind play: answers that use only what the player has seen.

A blind hint estimates, for each step open to the player, the chance of winning after
it: it draws worlds that agree with everything seen (``solver.view``), plays the step
in each, and solves the world reached with the exact solver under a small cap of
positions. Worlds are spent where they decide the choice: every step first gets the
same few worlds (so steps are compared on equal terms), then UCB1 (Auer, Cesa-Bianchi
and Fischer 2002) gives the next world to the step whose upper confidence bound is
highest. A world the cap leaves undecided is counted apart, never as lost: a step's
chance is its won worlds over its decided ones.

Everything is computed from the masked position (``Sighted.masked``), never from the
position itself, so two positions that look the same to the player get the same
answer; world `i` is drawn from a generator seeded by (`seed`, `i`), and every step's
`i`-th world is the same world (common random numbers), so with a fixed number of
samples the answer is the same on every run and machine.

Blind play (``play``) plays a deal with the blind hint's choice at each decision, on the
true deal, and records the chance predicted for each choice.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from solver.game import Game, SolitaireError, Status
from solver.search import Budget
from solver.view import Sighted

DEFAULT_CAP = 5_000         # positions each world's solve may store
FIRST_WORLDS = 4            # worlds every step gets before UCB1 chooses
EXPLORE = math.sqrt(2.0)    # UCB1's exploration constant (rewards in [0, 1])
MAX_STEPS = 2_000           # a blind game longer than this is given up as lost
EXACT_CAP = 200_000         # positions for the one solve once nothing is unseen
PLAN_LOOKS = 64             # undoable positions a plan may pass through, at most
Z95 = 1.959963984540054


@dataclass
class Estimate:
    """What the worlds say of one plan (``plans``): wins, losses, worlds left undecided."""

    steps: tuple[Any, ...]        # steps that can be undone, then one that cannot
    notation: str                 # the steps' notations, space-separated
    won: int = 0
    lost: int = 0
    undecided: int = 0
    score_total: int = 0          # a scored game: the sum of the worlds' best scores
    length_total: int = 0         # the won worlds' solution lengths (search moves), summed

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.undecided

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def chance(self) -> float:
        """Won worlds over decided ones (0.5 before any is decided)."""
        return self.won / self.decided if self.decided else 0.5

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the chance."""
        from solver.app.results import wilson

        _, low, high = wilson(self.won, self.decided, Z95)
        return low, high

    @property
    def undecided_share(self) -> float:
        return self.undecided / self.samples if self.samples else 0.0

    @property
    def mean_length(self) -> float:
        """The mean length of the won worlds' solutions: the tie-break between steps of
        equal chance (one that makes progress needs fewer moves after it)."""
        return self.length_total / self.won if self.won else math.inf

    @property
    def mean_score(self) -> float:
        return self.score_total / self.samples if self.samples else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        out = {"move": self.notation, "chance": round(self.chance, 4),
               "low": round(low, 4), "high": round(high, 4), "samples": self.samples,
               "won": self.won, "lost": self.lost, "undecided": self.undecided}
        if self.score_total:
            out["expected_score"] = round(self.mean_score, 3)
        return out


@dataclass(frozen=True)
class BlindHint:
    """A blind hint: every step open to the player with its estimate, best first."""

    estimates: tuple[Estimate, ...]
    samples: int                  # worlds solved in all
    seconds: float
    hides: bool                   # False: the game hides nothing (the answer is exact)

    @property
    def best(self) -> Estimate | None:
        return self.estimates[0] if self.estimates else None

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {"blind": True, "hides": self.hides, "samples": self.samples,
                "seconds": round(self.seconds, 3),
                "move": best.notation if best is not None else None,
                "moves": [e.to_json() for e in self.estimates]}


@dataclass(frozen=True)
class Settings:
    """How a blind hint samples: a fixed number of worlds, or seconds, and the cap."""

    samples: int | None = None    # worlds solved in all; None: as many as `seconds` allow
    seconds: float | None = 3.0
    seed: int = 0
    cap: int = DEFAULT_CAP
    strategy: str | None = None

    def __post_init__(self) -> None:
        if self.samples is not None and self.samples < 1:
            raise SolitaireError(f"--samples must be at least 1, got {self.samples}")
        if self.seed < 0:
            raise SolitaireError(f"--seed must be 0 or more, got {self.seed}")
        if self.samples is None and (self.seconds is None or not self.seconds > 0):
            raise SolitaireError("a blind hint needs --seconds above 0 or --samples")
        if self.cap < 1:
            raise SolitaireError(f"--cap must be at least 1 position, got {self.cap}")

    @property
    def name(self) -> str:
        """The settings as a results file's strategy: what changes the answers."""
        how = f"samples={self.samples}" if self.samples is not None else f"seconds={self.seconds}"
        return f"blind:{how},seed={self.seed},cap={self.cap},strategy={self.strategy or 'default'}"


def world(position: Sighted[Any, Any], seed: int, index: int) -> Any:
    """Return world `index` of a masked position: the same on every run and machine."""
    return position.sample(random.Random(seed * 1_000_003 + index))


def blind_hint(position: Sighted[Any, Any], settings: Settings = Settings(),
               on_sample: Callable[[int], None] | None = None,
               avoid: frozenset[Hashable] = frozenset(),
               options: list[tuple[Any, ...]] | None = None) -> BlindHint:
    """Return each plan's chance of winning, estimated from what the player has seen.

    Only the masked position is read (see the module docstring). With a fixed number of
    samples the answer is deterministic; with seconds it stops at the deadline. Plans
    that end in a position whose look is in `avoid` are left out (blind play's guard
    against going round in circles); `options`, the plans when already listed.
    """
    from solver.app.analyze import solve

    started = time.perf_counter()
    masked = position.masked()
    game = masked.game
    estimates = [Estimate(plan, written(masked, plan))
                 for plan in (plans(masked, avoid) if options is None else options)]
    if not estimates:
        return BlindHint((), 0, time.perf_counter() - started, masked.hides)
    worlds: dict[int, Any] = {}
    cap = Budget(max_states=settings.cap)
    scored = game.score is not None
    deadline = None if settings.samples is not None or settings.seconds is None \
        else started + settings.seconds
    total = 0

    def pull(estimate: Estimate) -> None:
        nonlocal total
        index = estimate.samples
        if index not in worlds:
            worlds[index] = world(masked, settings.seed, index)
        after = worlds[index]
        for step in estimate.steps:
            after = game.play(after, step)
        if game.is_won(after):
            estimate.won += 1
            if scored:
                estimate.score_total += game.best_score or 0
        else:
            result = solve(game, after, settings.strategy, cap)
            if result.status is Status.WON:
                estimate.won += 1
                estimate.length_total += len(result.moves)
            elif result.status is Status.LOST:
                estimate.lost += 1
            else:
                estimate.undecided += 1
            if scored and result.score is not None:
                estimate.score_total += result.score
        total += 1
        if on_sample is not None:
            on_sample(total)

    def more() -> bool:
        if settings.samples is not None:
            return total < settings.samples
        return deadline is not None and time.perf_counter() < deadline

    for round_ in range(FIRST_WORLDS):
        for estimate in estimates:
            if not more():
                break
            pull(estimate)
    while more():
        pull(max(estimates, key=lambda e: _upper(e, total, scored, game.best_score)))
    order = sorted(estimates, key=lambda e: (-_value(e, scored), e.mean_length, -e.samples,
                                             e.notation))
    return BlindHint(tuple(order), total, time.perf_counter() - started, masked.hides)


def plans(masked: Sighted[Any, Any], avoid: frozenset[Hashable] = frozenset(),
          limit: int = PLAN_LOOKS) -> list[tuple[Any, ...]]:
    """Return the player's choices at a masked position, as plans: steps that can be
    undone (each leads to a position from which one step leads back, so they show
    nothing and commit to nothing), then one step that cannot (it shows a card, or
    cannot be taken back).

    Choosing among plans, not single steps, is lonelybot's grouping of moves by the
    irreversible move they lead to: shuffling cards back and forth is no decision, and
    a player never wanders among positions that are all equally good. Plans reaching
    the same position (as the player sees it) count once, the shortest kept; a step
    that changes nothing the player sees is no plan. The undoable positions explored
    are at most `limit`, nearest first.
    """
    start = masked.look()
    paths: dict[Hashable, tuple[Any, ...]] = {start: ()}
    frontier = [masked]
    ends: dict[Hashable, tuple[Any, ...]] = {}
    while frontier:
        here = frontier.pop(0)
        path = paths[here.look()]
        for step in here.steps():
            after = here.play(step)
            look = after.look()
            if look in paths:
                continue
            if _undoable(here.look(), after) and len(paths) < limit:
                paths[look] = path + (step,)
                frontier.append(after)
            elif look not in ends and look not in avoid:
                ends[look] = path + (step,)
    return list(ends.values())


def written(position: Sighted[Any, Any], plan: tuple[Any, ...]) -> str:
    """Return a plan in notation: its moves as the game's steps, space-separated."""
    game, state, notations = position.game, position.state, []
    for move in plan:
        for step in game.expand(state, move):
            notations.append(game.notation(step))
            state = game.play(state, step)
    return " ".join(notations)


def _undoable(look: Hashable, after: Sighted[Any, Any]) -> bool:
    """Whether one step from `after` leads back to the position seen as `look`."""
    return any(after.play(step).look() == look for step in after.steps())


def _value(estimate: Estimate, scored: bool) -> float:
    return estimate.mean_score if scored else estimate.chance


def _upper(estimate: Estimate, total: int, scored: bool, best: int | None) -> float:
    """UCB1's bound: the value (a scored game's scaled to [0, 1]) plus the exploration term."""
    if scored:
        value = estimate.mean_score / (best or 1)
        count = estimate.samples
    else:
        value, count = estimate.chance, estimate.decided
    if count == 0:
        return math.inf
    return value + EXPLORE * math.sqrt(math.log(max(total, 2)) / count)


# -- blind play ---------------------------------------------------------------------------

@dataclass
class PlayedGame:
    """A deal played blind: how it ended, the steps, and each decision's prediction."""

    status: Status
    steps: list[Any] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    samples: int = 0
    reason: str = ""


def play(game: Game[Any, Any], state: Any, settings: Settings = Settings()) -> PlayedGame:
    """Play `state` (the true deal) with the blind hint's choice at each decision.

    A decision is a position with more than one plan open (``plans``); a single plan, or
    a step the view proves safe in every world (``Sighted.safe``), is played without
    asking. Once nothing is unseen, one exact solve decides the rest. A plan back into
    a position the player has already seen (as the player sees it) is never taken, so
    that play cannot go round in circles. The game is lost when no plan is open, when
    the best plan's chance is 0 (the player gives up: no world drawn could be won), or
    after ``MAX_STEPS`` steps.
    """
    position = Sighted.of(game, state)
    looks: set[Hashable] = {position.look()}
    played = PlayedGame(Status.LOST)
    while not game.is_won(position.state):
        if len(played.steps) >= MAX_STEPS:
            played.reason = f"no win in {MAX_STEPS} steps"
            return played
        masked = position.masked()
        steps = masked.steps()
        if not steps:
            played.reason = "no step open"
            return played
        unseen = position.unseen()
        if not unseen.cards and unseen.future is None and game.score is None:
            if _play_exact(game, position, played, settings):
                return played
        safe = position.safe()
        options = [] if safe else plans(masked, frozenset(looks))
        if safe:
            plan: tuple[Any, ...] = (safe[0],)
        elif not options:
            played.reason = "every plan open leads back to a position already seen"
            return played
        elif len(options) == 1:
            plan = options[0]
        else:
            hint = blind_hint(position, settings, options=options)
            played.samples += hint.samples
            chosen = hint.best
            assert chosen is not None
            if chosen.decided and chosen.won == 0 and game.score is None:
                played.reason = "no world drawn could be won"
                played.decisions.append({"move": chosen.notation, "chance": 0.0,
                                         "samples": chosen.samples})
                return played
            plan = chosen.steps
            played.decisions.append({"move": chosen.notation, "chance": round(chosen.chance, 4),
                                     "samples": chosen.samples})
        for move in plan:
            played.steps += game.expand(position.state, move)
            position = position.play(move)
            looks.add(position.look())
    played.status = Status.WON
    return played


def _play_exact(game: Game[Any, Any], position: Sighted[Any, Any], played: PlayedGame,
                settings: Settings) -> bool:
    """With nothing unseen the player knows the whole position: solve it once, as a
    player who can see everything would, and play the win to the end (one decision of
    chance 1), or give up on a proven loss. Return False, to go on deciding step by
    step, when the solve is undecided within ``EXACT_CAP`` positions."""
    from solver.app.analyze import solve

    result = solve(game, position.state, settings.strategy, Budget(max_states=EXACT_CAP))
    if result.status is Status.UNKNOWN:
        return False
    steps = _steps_of(game, position.state, result.moves)
    first = game.notation(steps[0]) if steps else ""
    played.decisions.append({"move": first, "chance": 1.0 if result.status is Status.WON else 0.0,
                             "samples": 0, "exact": True})
    if result.status is Status.LOST:
        played.reason = "nothing is unseen and the position is proven lost"
        return True
    state = position.state
    for step in steps:
        state = game.play(state, step)
        played.steps.append(step)
    played.status = Status.WON if game.is_won(state) else Status.LOST
    return True


def _steps_of(game: Game[Any, Any], state: Any, moves: Any) -> list[Any]:
    """Return search moves as the game's steps."""
    steps: list[Any] = []
    for move in moves:
        expanded = game.expand(state, move)
        for step in expanded:
            state = game.play(state, step)
        steps += expanded
    return steps
