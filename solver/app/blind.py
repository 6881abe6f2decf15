"""Blind hints and blind play: answers that use only what the player has seen.

A blind hint estimates, for each step open to the player, the chance of winning after
it: it draws worlds that agree with everything seen (``solver.view``), plays the step
in each, and solves the world reached with the exact solver under a small cap of
positions. Worlds are spent where they decide the choice: every step first gets the
same few worlds (so steps are compared on equal terms; a deadline may end even that
round, and a step left without a world is shown with none), then UCB1 (Auer, Cesa-Bianchi
and Fischer 2002) gives the next world to the step whose upper confidence bound is
highest. When the steps are many for the worlds (their first few worlds would take
more than half of all: Bridge Solitaire's 792 keeps), one world each comes first and
sequential halving spends the rest (``_halve``), seeking the best step rather than
UCB1's low regret over the worlds spent. A world the cap leaves undecided is counted
apart, never as lost: a step's chance is its won worlds over its decided ones.

Steps are ranked, and UCB1 rewarded, by that chance. (lonelybot ranks by the share of
all worlds won within its cap, undecided ones counted against; on Klondike draw 3 that
rule measured no better: ``data/klondike/blind.md``.)

A game may instead declare a rule-following player (``Game.blind_playout``, Bridge
Solitaire's): each world is then played out by it after the step, not solved, and the
step is valued by where that ends. A world's full-information search plays on knowing
the world's hidden cards, so where the rest of the game turns on them it values a step
for a player who sees everything; the playout values it for one who does not, and
choosing by playouts is Bertsekas' rollout, never worse in expectation than the rule
itself. A scored game whose best score is each deal's own has its scores placed within
the range seen for UCB1, which asks for rewards in [0, 1].

Everything is computed from the masked position (``Sighted.masked``), never from the
position itself, so two positions that look the same to the player get the same
answer; world `i` is drawn from a generator seeded by (`seed`, `i`), and every step's
`i`-th world is the same world (common random numbers), so with a fixed number of
samples the answer is the same on every run and machine.

Blind play (``play``) plays a deal with the blind hint's choice at each decision, on the
true deal, and records the chance predicted for each choice. A board read from a file
starts from what its text says the player has seen (``Sighted.read``: the marks of cards
never seen, ``Seen: all``), a numbered deal from its start.
"""
from __future__ import annotations

import dataclasses
import math
import multiprocessing
import os
import queue
import random
import statistics
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from collections import Counter
from typing import Any, Callable, Hashable, Sequence

from solver.app.batch import Worker
from solver.app.pool import describe, worker_signals
from solver.app.record import Verdict, budget_record, solver_version, variant_of
from solver.app.results import read_records, wilson
from solver.app.sources import Task, start_position
from solver.game import Game, SolitaireError, Status
from solver.search import Budget
from solver.table import peak_resident_bytes
from solver.view import Sighted

FIRST_WORLDS = 4            # worlds every step gets before UCB1 chooses
EXPLORE = math.sqrt(2.0)    # UCB1's exploration constant (rewards in [0, 1])
MAX_STEPS = 2_000           # a blind game longer than this is given up as lost
EXACT_CAP = 200_000         # positions for the one solve once nothing is unseen
REVISITS = 2               # a position seen this often is not gone back to
PLAN_LOOKS = 32             # undoable positions explored around a position, at most
WIDE_LOOKS = 1_024          # ... when none of those leads to a plan (blind play)
NAME_LOOKS = 512            # undoable positions explored from a plan's end to name it, at most
NAME_BUDGET = 4_096         # ... and from all ends of a position, before ends get PLAN_LOOKS
LAST_LOOK = 4               # times the worlds of blind play's last look before giving up
DEEP_WORLDS = 8             # worlds whose wins are read for plans further off (``deeper_plans``)
DEEP_CAP = 20_000           # positions for each of those worlds, at least
DEEP_FIRST = 1_000_000_000  # the first of those worlds' numbers (a hint's are numbered from 0)
Z95 = 1.959963984540054
ALLOCATIONS = ("auto", "ucb1", "halving")   # how a hint spends its worlds (``blind_hint``)
HINT_WORKERS = 4            # processes a hint by the clock uses at most, by default


@dataclass
class Estimate:
    """What the worlds say of one plan (``plans``): wins, losses, worlds left undecided."""

    steps: tuple[Any, ...]        # steps that can be undone, then one that cannot
    notation: str                 # the steps' notations, space-separated
    shows: int = 0                # cards the plan shows (unseen before it, seen after)
    left: int = 0                 # the game's heuristic at the plan's end (work left)
    spends: int = 0               # steps of the plan that spend a resource (``blind_spending``)
    won: int = 0
    lost: int = 0
    undecided: int = 0
    score_total: int = 0          # a scored game: the sum of the worlds' scores (best or playout)
    scored: int = 0               # ... over this many worlds (those with a score)
    length_total: int = 0         # the won worlds' solution lengths (search moves), summed
    calibrated: float | None = None   # the chance calibrated (``calibrated``), if the game offers it
    prior: float | None = None    # the decision's pooled chance, where the game pools (``_pool``)
    stage: int = 0                # rounds of sequential halving the plan survived (``_halve``)

    @property
    def samples(self) -> int:
        return self.won + self.lost + self.undecided

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def chance(self) -> float:
        """Won worlds over decided ones (0.5 before any is decided); where the game pools
        (``Game.blind_pooled``), with the decision's pooled chance counted as one more
        decided world (a plan with none decided gets the pooled chance itself)."""
        if self.prior is not None:
            return (self.won + self.prior) / (self.decided + 1)
        return self.won / self.decided if self.decided else 0.5

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the chance."""
        _, low, high = wilson(self.won, self.decided, Z95)
        return low, high

    @property
    def undecided_share(self) -> float:
        return self.undecided / self.samples if self.samples else 0.0

    @property
    def mean_length(self) -> float:
        """The mean length of the won worlds' solutions: a tie-break between plans of
        equal chance (one that makes progress needs fewer moves after it)."""
        return self.length_total / self.won if self.won else math.inf

    @property
    def mean_score(self) -> float:
        """A scored game's expected score: the mean over the worlds that reached one."""
        return self.score_total / self.scored if self.scored else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        out = {"move": self.notation, "chance": round(self.chance, 4),
               "low": round(low, 4), "high": round(high, 4), "samples": self.samples,
               "won": self.won, "lost": self.lost, "undecided": self.undecided}
        if self.scored:
            out["expected_score"] = round(self.mean_score, 3)
        if self.calibrated is not None:
            out["calibrated"] = round(self.calibrated, 4)
        return out


@dataclass(frozen=True)
class BlindHint:
    """A blind hint: every step open to the player with its estimate, best first."""

    estimates: tuple[Estimate, ...]
    samples: int                  # worlds solved in all
    seconds: float
    hides: bool                   # False: the game hides nothing (the answer is exact)
    allocation: str = "ucb1"      # how worlds were spent: "ucb1" or "halving" (``_halve``)

    @property
    def best(self) -> Estimate | None:
        return self.estimates[0] if self.estimates else None

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {"blind": True, "hides": self.hides, "samples": self.samples,
                "seconds": round(self.seconds, 3), "allocation": self.allocation,
                "move": best.notation if best is not None else None,
                "moves": [e.to_json() for e in self.estimates]}


@dataclass(frozen=True)
class Settings:
    """How a blind hint samples: a fixed number of worlds, or seconds, and the cap."""

    samples: int | None = None    # worlds solved in all; None: as many as `seconds` allow
    seconds: float | None = 3.0
    seed: int = 0
    cap: int | None = None        # positions a world's solve may store; None: the game's
    strategy: str | None = None
    allocation: str = "auto"      # how worlds are spent: "ucb1", "halving", or by the plans' count
    workers: int = 1              # processes solving worlds at once (by the clock only)

    def __post_init__(self) -> None:
        if self.allocation not in ALLOCATIONS:
            raise SolitaireError(f"unknown allocation {self.allocation!r}: one of "
                                 f"{', '.join(ALLOCATIONS)}")
        if self.samples is not None and self.samples < 1:
            raise SolitaireError(f"--samples must be at least 1, got {self.samples}")
        if self.seed < 0:
            raise SolitaireError(f"--seed must be 0 or more, got {self.seed}")
        if self.samples is None and (self.seconds is None or not self.seconds > 0):
            raise SolitaireError("a blind hint needs --seconds above 0 or --samples")
        if self.workers < 1:
            raise SolitaireError(f"--jobs must be at least 1, got {self.workers}")
        if self.cap is not None and self.cap < 1:
            raise SolitaireError(f"--cap must be at least 1 position, got {self.cap}")

    def for_game(self, game: Game[Any, Any]) -> "Settings":
        """These settings with the cap and the worlds' strategy made explicit: the game's
        (``blind_cap``, ``blind_strategy``) where none is given."""
        return dataclasses.replace(
            self, cap=game.blind_cap if self.cap is None else self.cap,
            strategy=game.blind_strategy if self.strategy is None else self.strategy)

    def looking_further(self) -> "Settings":
        """These settings with ``LAST_LOOK`` times the worlds (or seconds): blind play's
        last look before it gives up."""
        if self.samples is not None:
            return dataclasses.replace(self, samples=self.samples * LAST_LOOK)
        return dataclasses.replace(self, seconds=(self.seconds or 0.0) * LAST_LOOK)

    @property
    def name(self) -> str:
        """The settings as a results file's strategy: what changes the answers."""
        how = f"samples={self.samples}" if self.samples is not None else f"seconds={self.seconds}"
        spent = "" if self.allocation == "auto" else f",allocation={self.allocation}"
        return f"blind:{how},seed={self.seed},cap={self.cap}," \
            f"strategy={self.strategy or 'default'}{spent}"


def calibration_terms(chance: float, samples: int, unseen: int) -> tuple[float, ...]:
    """Return the inputs of the calibration: ``l``, ``v``, ``l·v``, ``v²``, ``l²``,
    ``l·v²`` and 1, with ``l = logit(s)`` and ``v = ln(1 + u)`` (see ``calibrated``)."""
    share = (chance * samples + 0.5) / (samples + 1)
    logit, hidden = math.log(share / (1 - share)), math.log1p(unseen)
    return (logit, hidden, logit * hidden, hidden * hidden, logit * logit,
            logit * hidden * hidden, 1.0)


def calibrated(weights: tuple[float, ...], chance: float, samples: int, unseen: int) -> float:
    """Return a blind chance calibrated against outcomes: ``σ(w · terms)`` over the seven
    ``calibration_terms`` (``l``, ``v``, ``l·v``, ``v²``, ``l²``, ``l·v²``, 1), with
    ``l = logit(s)`` and ``v = ln(1 + u)``.

    `chance` is a plan's share of won worlds over `samples`, a full-information chance:
    a player who will not see the hidden cards wins less often than a clairvoyant, the
    more so the more cards are unseen (`u`, at the decision), and the share says less the
    more is unseen (the product terms). `s` is the share moved off 0 and 1 by half a
    world, ``(chance·samples + ½)/(samples + 1)``, so that every share has a logit. The
    weights (the game's ``blind_calibration``) are a logistic regression of blind games'
    outcomes on those terms (``benchmarks/blind_calibration.py``). The squared terms let
    the map bend: on Klondike draw 3 and CrissCross the first three terms alone left the
    top bins too low (predicted 0.93, won 0.99 on Klondike).

    >>> round(calibrated((1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.75, 2, 10), 4)   # s itself
    0.6667
    """
    terms = calibration_terms(chance, samples, unseen)
    if len(weights) != len(terms):
        raise ValueError(f"a calibration has {len(terms)} weights, not {len(weights)}")
    z = sum(w * t for w, t in zip(weights, terms))
    return 1 / (1 + math.exp(-z)) if z > -700 else 0.0


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
    against going round in circles); `options`, the plans when already listed. By the
    clock, ``Settings.workers`` processes solve worlds at once (``_Farm``): UCB1 gives a
    plan its next few worlds at a time, counting the worlds given and not yet solved as
    tried at the plan's present value.
    """
    started = time.perf_counter()
    masked = position.masked()
    game = masked.game
    spending = game.blind_spending
    estimates = [Estimate(plan, written(masked, plan), *_ends(masked, plan),
                          spends=sum(1 for step in plan if step in spending))
                 for plan in (open_plans(masked, settings, avoid) if options is None
                              else options)]
    if not estimates:
        return BlindHint((), 0, time.perf_counter() - started, masked.hides)
    settings = settings.for_game(game)
    solver = _Worlds(masked, settings)
    score = game.score
    scored = score is not None
    deadline = None if settings.samples is not None or settings.seconds is None \
        else started + settings.seconds
    total = 0

    span = [math.inf, -math.inf]            # the lowest and highest world score seen

    pooled = game.blind_pooled

    def record(estimate: Estimate, outcome: Outcome) -> None:
        nonlocal total
        kind, length, value = outcome
        if kind == WON:
            estimate.won += 1
            estimate.length_total += length
        elif kind == LOST:
            estimate.lost += 1
        else:
            estimate.undecided += 1
        if value is not None:
            estimate.score_total += value
            estimate.scored += 1
            span[0], span[1] = min(span[0], value), max(span[1], value)
        total += 1
        if pooled:
            _pool(estimates)
        if on_sample is not None:
            on_sample(total)

    def more() -> bool:
        if settings.samples is not None:
            return total < settings.samples
        return deadline is not None and time.perf_counter() < deadline

    sampling = time.perf_counter()

    def budget_left() -> int:
        """Worlds still to draw: the samples asked, or the clock's at the rate so far."""
        if settings.samples is not None:
            return settings.samples - total
        now = time.perf_counter()
        rate = total / max(now - sampling, 1e-9)
        return int(rate * max((deadline or now) - now, 0.0))

    # Several worker processes only by the clock: a hint of fixed samples is spent one
    # world at a time, so that it is the same on every machine whatever its cores.
    workers = settings.workers if deadline is not None and _can_fork() else 1
    farm: _Farm | None = None

    def pull(estimate: Estimate) -> None:
        outcome = solver.outcome(estimate.steps, estimate.samples, deadline)
        if outcome is not None:         # None: the deadline came first; the world is dropped
            record(estimate, outcome)

    def hired() -> _Farm:
        nonlocal farm
        farm = farm or _Farm(workers, solver, estimates, record, deadline)
        return farm

    def spend(batch: Sequence[Estimate]) -> None:
        """Give each plan of `batch` its next world, in order (a plan may come more than
        once), while `more()`; with workers, several at once, every world given solved
        before it returns."""
        if workers == 1:
            for estimate in batch:
                if not more():
                    return
                pull(estimate)
            return
        farm = hired()
        index = 0
        while index < len(batch) and more():
            run = 1             # a plan listed again and again (halving): tasks of worlds
            while index + run < len(batch) and batch[index + run] is batch[index] \
                    and run < farm.batch:
                run += 1
            farm.give(batch[index], run)
            index += run
        farm.drain()

    def spend_by(choose: Callable[[Callable[[Estimate], int], int], Estimate]) -> None:
        """While `more()`, give the plan `choose(worlds given to a plan and not solved yet,
        all such worlds)` picks its next world (with workers, its next few:
        ``_Farm.batch``)."""
        if workers == 1:
            while more():
                pull(choose(lambda e: 0, 0))
            return
        farm = hired()
        while more():
            farm.give(choose(farm.given, farm.in_flight), farm.batch)
        farm.drain()

    def upper(given: Callable[[Estimate], int], in_flight: int) -> Estimate:
        return max(estimates, key=lambda e: _upper(e, total + in_flight, scored,
                                                   game.best_score, span, given(e)))

    try:
        spend(estimates)    # a world each, the first round cut short by the clock too
        halving = len(estimates) > 1 and (
            settings.allocation == "halving" or settings.allocation == "auto"
            and 2 * FIRST_WORLDS * len(estimates) > total + budget_left())
        if halving:
            _halve(estimates, spend, spend_by, more, budget_left, scored)
        else:
            for _ in range(FIRST_WORLDS - 1):
                spend(estimates)
            spend_by(upper)
    finally:
        if farm is not None:
            farm.close()
    order = ranked(estimates, scored)
    weights = game.blind_calibration
    if weights is not None:
        unseen = len(masked.unseen().cards)
        for estimate in order:
            estimate.calibrated = calibrated(weights, estimate.chance, estimate.samples, unseen)
    return BlindHint(tuple(order), total, time.perf_counter() - started, masked.hides,
                     "halving" if halving else "ucb1")


def _halve(estimates: list[Estimate], spend: Callable[[Sequence[Estimate]], None],
           spend_by: Callable[[Callable[[Callable[[Estimate], int], int], Estimate]], None],
           more: Callable[[], bool], budget_left: Callable[[], int], scored: bool) -> None:
    """Spend the worlds left by sequential halving (Karnin, Koren and Somekh 2013): in
    each of ⌈log₂ K⌉ rounds the plans still in play share that round's part of the
    worlds equally, then the better half by ``ranked``'s order goes on (its `stage` one
    higher); the plan left last is the choice. Every plan in play has seen the same
    worlds when they are compared (common random numbers).

    UCB1 minimises the regret of the worlds spent, as if each were a game played; a hint
    plays one move, and the regret that matters is that of the choice (Bubeck, Munos and
    Stoltz 2009), which halving seeks. With hundreds of plans, UCB1's exploration term
    dwarfs the differences between them and it spreads the worlds almost evenly: on
    Bridge Solitaire's first decision (792 or 1,716 keeps, 5,000 worlds) the keep it chose
    scored 140 points below the best by 500 other worlds, halving's 42 (deals 1-20,
    ``benchmarks/blind_regret.py``; halving lost less on 18 of the 20).

    `spend` gives each plan listed its next world, `spend_by` a world at a time to the
    plan its argument picks (``blind_hint``).
    """
    alive = list(estimates)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    for round_ in range(rounds):
        if len(alive) == 1 or not more():
            break
        share = max(1, budget_left() // (rounds - round_) // len(alive))
        first = 1 if round_ == 0 else 0     # the world each plan got first is round 0's
        target = max(e.samples for e in alive) + share - first
        spend([estimate for estimate in alive for _ in range(target - estimate.samples)])
        if not more() and any(e.samples < target for e in alive):
            break               # the clock ran out in this round: no plan is dropped on it
        alive = ranked(alive, scored)[:math.ceil(len(alive) / 2)]
        for estimate in alive:
            estimate.stage += 1
    # What rounding left: to the plans still in play, the fewest worlds first.
    spend_by(lambda given, _: min(alive, key=lambda e: e.samples + given(e)))


def plans(masked: Sighted[Any, Any], avoid: frozenset[Hashable] = frozenset(),
          limit: int = PLAN_LOOKS) -> list[tuple[Any, ...]]:
    """Return the player's choices at a masked position, as plans: moves that can be
    undone (each leads to a position from which one move leads back, so they show
    nothing and commit to nothing), then one move that cannot (it shows a card, or
    cannot be taken back).

    Choosing among plans, not single moves, is lonelybot's grouping of moves by the
    irreversible move they lead to: shuffling cards back and forth is no decision, and
    a player never wanders among positions that are all equally good. Plans whose ends
    differ only by moves that can be undone are one choice (the shortest is kept): each
    end is named by the first look (in ``repr`` order) among the positions its undoable
    moves reach. Plans
    ending where the player has been (`avoid`) are left out. At most `limit` undoable
    positions are explored from the start, nearest first, and at most ``NAME_LOOKS`` from
    each end to name it (``PLAN_LOOKS`` once ``NAME_BUDGET`` are spent naming).

    Ends are named from whole regions where they fit in ``NAME_LOOKS``: named from a region
    cut short, two ends of one region get different names and stay two plans. With 32
    positions a name, Klondike decisions counted up to 69 plans that were 3 choices (the
    decisions that lost 40 blind games of draw 3 deals 700-796: 482 plans at 32 positions
    a name, 156 at 512), and the worlds were spread over the copies.
    """
    start = masked.look()
    view = masked.game.player_view
    if view is not None and not view.can_undo:
        # No step can be taken back: each is a plan, named by the look it ends in (what
        # the search below finds too, without asking every step whether it undoes).
        single: dict[Hashable, tuple[Any, ...]] = {}
        for step in masked.steps():
            look = masked.play(step).look()
            if look not in avoid and look != start:
                single.setdefault(look, (step,))
        return list(single.values())
    known: dict[Hashable, frozenset[Hashable]] = {}
    around, ends = _undoable_region(masked, limit, known)
    found: dict[Hashable, tuple[Any, ...]] = {}
    names: dict[Hashable, Hashable] = {}
    spent = 0                   # positions explored to name the ends (``NAME_BUDGET``)
    for path, after in ends:
        look = after.look()
        if look in avoid or look == start:
            continue
        name = names.get(look)
        if name is None:
            naming = NAME_LOOKS if spent < NAME_BUDGET else PLAN_LOOKS
            region = _undoable_region(after, naming, known)[0]
            spent += len(region)
            name = min(region, key=repr)
            if len(region) < naming:
                # Whole: a move is undoable exactly when its reverse is, so the region is
                # the same from any of its positions, and so is its name.
                names.update(dict.fromkeys(region, name))
        if name not in found and name not in around:
            found[name] = path
    return list(found.values())


def open_plans(masked: Sighted[Any, Any], settings: Settings,
               avoid: frozenset[Hashable] = frozenset()) -> list[tuple[Any, ...]]:
    """Return the plans a hint weighs: those among the ``PLAN_LOOKS`` positions nearest by
    undoable moves (``plans``), else among ``WIDE_LOOKS``, else read from the wins of a few
    worlds (``deeper_plans``); none only when even those find no move that cannot be
    undone, or every plan ends in `avoid`."""
    return plans(masked, avoid) or plans(masked, avoid, WIDE_LOOKS) or deeper_plans(
        masked, settings.for_game(masked.game), avoid, [])


def deeper_plans(masked: Sighted[Any, Any], settings: Settings, avoid: frozenset[Hashable],
                 have: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Return plans further off than ``plans`` looked, read from the wins of a few worlds:
    each won world's solution, followed from the masked position while its moves are the
    player's and can be undone, up to and including its first move that cannot: a plan
    the player can follow, since moves that can be undone show no card. New plans only
    (none ending where one of `have` ends, or in `avoid`).

    `settings` are resolved for the game (``Settings.for_game``): the worlds are solved by
    its strategy, under at least ``DEEP_CAP`` positions. ``plans`` looks at the positions
    nearest by undoable moves; where cards go home and come back, or runs are shifted to
    and fro, the first move that shows a card may lie further (Klondike: a run of ten
    broken up over three columns and home moves to free a buried two, twenty moves in).
    Blind play asks for these before it calls a game stuck or gives it up: on Klondike
    draw 3 deals 690-1000, 8 games were so ended on a position their true deal still
    won, and 5 of them are won with these plans (``data/klondike/blind.md``).
    """
    from solver.app.analyze import solve

    game = masked.game
    ends = {_reached(masked, plan).look() for plan in have}
    known: dict[Hashable, frozenset[Hashable]] = {}
    found: list[tuple[Any, ...]] = []
    budget = Budget(max_states=max(settings.cap or 0, DEEP_CAP))
    for index in range(DEEP_WORLDS):
        state = world(masked, settings.seed, DEEP_FIRST + index)
        result = solve(game, state, settings.strategy, budget)
        if result.status is not Status.WON:
            continue
        plan = _first_plan(masked, state, result.moves, known)
        if plan is None:
            continue
        end = _reached(masked, plan).look()
        if end not in avoid and end not in ends:
            ends.add(end)
            found.append(plan)
    return found


def _reached(position: Sighted[Any, Any], plan: Sequence[Any]) -> Sighted[Any, Any]:
    """Return the position a plan reaches."""
    for step in plan:
        position = position.play(step)
    return position


def _first_plan(masked: Sighted[Any, Any], state: Any, moves: Sequence[Any],
                known: dict[Hashable, frozenset[Hashable]]) -> tuple[Any, ...] | None:
    """Return the plan that world `state`'s solution `moves` begins with: its moves from
    the masked position while they can be undone, then the first that cannot; None if a
    move is not the player's before that (a search move is taken as its steps where it
    is not one itself)."""
    game = masked.game
    here: Sighted[Any, Any] = masked
    path: tuple[Any, ...] = ()
    steps = here.steps()
    for move in moves:
        for step in [move] if move in steps else game.expand(state, move):
            if step not in steps:
                return None
            after = here.play(step)
            path += (step,)
            if here.look() not in _successors(after, known):
                return path
            here, state = after, game.play(state, step)
            steps = here.steps()
    return None


def _undoable_region(origin: Sighted[Any, Any], limit: int,
                     known: dict[Hashable, frozenset[Hashable]] | None = None) -> tuple[
        dict[Hashable, tuple[Any, ...]], list[tuple[tuple[Any, ...], Sighted[Any, Any]]]]:
    """Return the looks reachable from `origin` by undoable moves (at most `limit`, with
    the shortest path to each), and the moves out of them that cannot be undone (with
    the path ending in each and the position reached), breadth first. A move is undoable
    when one step from the position it reaches leads back; `known` remembers the looks
    one step from each position (``_successors``), across calls."""
    known = {} if known is None else known
    paths: dict[Hashable, tuple[Any, ...]] = {origin.look(): ()}
    frontier = [origin]
    ends: list[tuple[tuple[Any, ...], Sighted[Any, Any]]] = []
    while frontier:
        here = frontier.pop(0)
        look = here.look()
        path = paths[look]
        for move in here.steps():
            after = here.play(move)
            reached = after.look()
            if reached in paths:
                continue
            if look in _successors(after, known):
                if len(paths) < limit:
                    paths[reached] = path + (move,)
                    frontier.append(after)
            else:
                ends.append((path + (move,), after))
    return paths, ends


def written(position: Sighted[Any, Any], plan: tuple[Any, ...]) -> str:
    """Return a plan in notation: its moves as the game's steps, space-separated."""
    game, state, notations = position.game, position.state, []
    for move in plan:
        for step in game.expand(state, move):
            notations.append(game.notation(step))
            state = game.play(state, step)
    return " ".join(notations)


def _ends(position: Sighted[Any, Any], plan: tuple[Any, ...]) -> tuple[int, int]:
    """Return how many unseen cards a plan shows, and the game's heuristic (work left) at
    its end, both read from the masked position: between plans of equal chance, the one
    that shows more leaves the player knowing more for the next choice, and then the one
    that leaves less work makes progress rather than moving cards to and fro."""
    before = len(position.unseen().cards)
    position = _reached(position, plan)
    return before - len(position.unseen().cards), position.game.heuristic(position.masked().state)


def _successors(position: Sighted[Any, Any],
                known: dict[Hashable, frozenset[Hashable]]) -> frozenset[Hashable]:
    """Return the looks one step from `position`, remembered in `known` by its look."""
    look = position.look()
    found = known.get(look)
    if found is None:
        found = known[look] = frozenset(position.play(step).look() for step in position.steps())
    return found


def ranked(estimates: list[Estimate], scored: bool) -> list[Estimate]:
    """Return the plans best first: by the rounds of sequential halving survived (when
    the worlds were spent so: ``_halve``), by expected score (a scored game) or chance, then the
    plan that spends fewer of the game's scarce resources (``Game.blind_spending``), then the
    plan whose worlds the capped search left undecided less often, then the plan that
    shows more cards (the player knows more for the next choice), leaves less work by
    the game's heuristic, needs fewer moves to win in the worlds won, was tried in more
    worlds, and by notation. A plan no world was given (the deadline came first) goes
    after the plans of its chance that were tried.

    The undecided share comes first among equal chances because a chance of 1 is common
    where losses are rarely proven within the cap (Spider: every decided world won, early
    on, after every plan): the plan after which more worlds are won within the cap leaves
    the easier game. Before it, the cards shown broke such ties, and one-suit Spider dealt
    its stock at once (ten cards shown) and buried its columns (``data/spider/blind.md``).
    """
    return sorted(estimates, key=lambda e: (-e.stage, -_value(e, scored), not e.samples,
                                            e.spends, e.undecided_share, -e.shows, e.left,
                                            e.mean_length, -e.samples, e.notation))


def _pool(estimates: Sequence[Estimate]) -> None:
    """Give every plan the decision's pooled chance as its prior: the worlds won over the
    worlds decided, all plans together (0.5 before any is decided)."""
    won = sum(e.won for e in estimates)
    decided = sum(e.decided for e in estimates)
    prior = won / decided if decided else 0.5
    for estimate in estimates:
        estimate.prior = prior


def _value(estimate: Estimate, scored: bool) -> float:
    return estimate.mean_score if scored else estimate.chance


def _upper(estimate: Estimate, total: int, scored: bool, best: int | None,
           span: Sequence[float], pending: int = 0) -> float:
    """UCB1's bound: the value plus the exploration term, the value in [0, 1] as UCB1
    asks: a chance, or a scored game's mean score over its best possible, or (a game
    whose best differs from deal to deal) placed within the range of the scores seen.
    `pending`: worlds the plan is already given whose outcome is not in yet (several
    solved at once), counted as tried at its present value."""
    if not scored:
        value = estimate.chance
    elif best is not None:
        value = estimate.mean_score / (best or 1)
    else:
        low, high = span
        value = (estimate.mean_score - low) / (high - low) if high > low else 0.5
    count = estimate.samples + pending    # undecided worlds count too: they were tried
    if count == 0:
        return math.inf
    return value + EXPLORE * math.sqrt(math.log(max(total, 2)) / count)


WON, LOST, UNDECIDED = 0, 1, 2
Outcome = tuple[int, int, "int | None"]     # WON/LOST/UNDECIDED, won length, score


@dataclass
class _Worlds:
    """Solves a plan in a world of one masked position: what a hint's worker needs."""

    masked: Sighted[Any, Any]
    settings: Settings                  # resolved for the game (``Settings.for_game``)
    drawn: dict[int, Any] = field(default_factory=dict)

    def outcome(self, steps: Sequence[Any], index: int,
                stop: float | None = None) -> Outcome | None:
        """Play `steps` in world `index` and solve (or play out) the world reached; None
        when the hint's deadline `stop` (on ``time.perf_counter``'s clock, which forked
        workers share) ends the solve first: such a world is not counted at all."""
        from solver.app.analyze import solve

        game, settings = self.masked.game, self.settings
        if index not in self.drawn:
            self.drawn[index] = world(self.masked, settings.seed, index)
        after = self.drawn[index]
        for step in steps:
            after = game.play(after, step)
        score = game.score
        if game.is_won(after):
            return WON, 0, None if score is None else score(after)
        playout = game.blind_playout
        if playout is not None:
            end = playout(after)
            return WON if game.is_won(end) else LOST, 0, None if score is None else score(end)
        budget = Budget(max_states=settings.cap) if stop is None else Budget(
            max_states=settings.cap, seconds=max(0.0, stop - time.perf_counter()), deadline=stop)
        result = solve(game, after, settings.strategy, budget)
        if result.stopped_by == "seconds":
            return None
        kind = {Status.WON: WON, Status.LOST: LOST}.get(result.status, UNDECIDED)
        return kind, len(result.moves) if kind == WON else 0, \
            result.score if score is not None else None


_WORK: tuple[_Worlds, list[tuple[Any, ...]]] | None = None   # a forked worker's hint


def _job(task: tuple[int, int, int, float | None]) -> tuple[list[Outcome], float]:
    """Solve (plan, first world, worlds, deadline) of the hint whose worlds this worker was
    forked with: the outcomes of the worlds solved before the deadline, and the seconds
    they took."""
    assert _WORK is not None
    solver, steps = _WORK
    plan, first, count, stop = task
    began = time.perf_counter()
    outcomes: list[Outcome] = []
    for index in range(first, first + count):
        outcome = solver.outcome(steps[plan], index, stop)
        if outcome is None:
            break
        outcomes.append(outcome)
    return outcomes, time.perf_counter() - began


def default_workers() -> int:
    """The processes a blind hint by the clock uses unless told: the machine's cores (those
    this process may run on), at most ``HINT_WORKERS``."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:          # not on every system
        cores = os.cpu_count() or 1
    return max(1, min(cores, HINT_WORKERS))


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


TASK_SECONDS = 0.02          # a worker's task of worlds lasts about this long (``_Farm``)
TASK_WORLDS = 16            # ... and holds at most this many (UCB1 chooses again after each)


class _Farm:
    """Worker processes solving one hint's worlds, a few tasks given at a time (one more
    than the workers, so that none waits for its next), each ended by the hint's deadline
    (a world the deadline cuts short is dropped, so the hint waits for none). A task of
    UCB1's is as many worlds of one plan as take about ``TASK_SECONDS``, at the rate measured so far (one
    at first, at most ``TASK_WORLDS``): a world of Klondike's takes about 2 ms, not much
    more than the round trip of a task to a worker and back (lonelybot gives its plans
    worlds in tens too). A worker that dies (killed, out of memory) ends the hint with
    ``BrokenProcessPool`` rather than leaving it waiting for its worlds."""

    def __init__(self, workers: int, solver: _Worlds, estimates: list[Estimate],
                 record: Callable[[Estimate, Outcome], None], deadline: float | None) -> None:
        global _WORK
        _WORK = (solver, [estimate.steps for estimate in estimates])
        try:        # forked: each worker has the hint's worlds and plans from its start
            self.pool = ProcessPoolExecutor(workers, multiprocessing.get_context("fork"),
                                            initializer=worker_signals)
            self.pool.submit(os.getpid).result()    # forks every worker, _WORK set
        finally:
            _WORK = None
        self.estimates, self.record, self.deadline = estimates, record, deadline
        self.slots = {id(estimate): slot for slot, estimate in enumerate(estimates)}
        self.pending: Counter[int] = Counter()         # a plan's worlds given, not counted
        self.waiting: dict[int, dict[int, Outcome]] = {slot: {} for slot in self.slots.values()}
        self.limit = workers + 1
        self.in_flight = 0                  # worlds given and not counted yet, all plans
        self.tasks = 0                      # tasks given and not back yet
        self.solved = 0
        self.seconds = 0.0                  # the workers' time on the worlds solved
        self.done: queue.SimpleQueue[tuple[int, int, int, Future[Any]]] = queue.SimpleQueue()

    @property
    def batch(self) -> int:
        """Worlds in a task: about ``TASK_SECONDS`` of them, at the rate so far."""
        if not self.solved or not self.seconds:
            return 1
        return max(1, min(TASK_WORLDS, int(TASK_SECONDS * self.solved / self.seconds)))

    def given(self, estimate: Estimate) -> int:
        """Worlds given to `estimate` and not counted yet."""
        return self.pending[self.slots[id(estimate)]]

    def give(self, estimate: Estimate, count: int = 1) -> None:
        """Give `estimate` its next `count` worlds (waiting for room first): the worlds
        after those solved and those given."""
        while self.tasks >= self.limit:
            self._collect()
        slot = self.slots[id(estimate)]
        first = estimate.samples + self.pending[slot]
        self.pending[slot] += count
        self.in_flight += count
        self.tasks += 1
        self.pool.submit(_job, (slot, first, count, self.deadline)).add_done_callback(
            lambda done: self.done.put((slot, first, count, done)))

    def drain(self) -> None:
        """Wait for every world given, and record each."""
        while self.tasks:
            self._collect()

    def _collect(self) -> None:
        """Take in a task's outcomes, and count each plan's worlds in their order: world
        `i` of a plan only once worlds 0 to `i - 1` are counted, so that a plan's worlds
        are always its first ones, however the tasks come back. A task the deadline cut
        short leaves a world never counted, and the plan's later worlds wait for ever."""
        slot, first, count, done = self.done.get()
        outcomes, seconds = done.result()   # a worker's error, or its death, is raised here
        self.tasks -= 1                     # fewer outcomes than `count`: the deadline came
        self.solved += len(outcomes)
        self.seconds += seconds
        waiting = self.waiting[slot]
        waiting.update(enumerate(outcomes, first))
        estimate = self.estimates[slot]
        while estimate.samples in waiting:
            self.pending[slot] -= 1
            self.in_flight -= 1
            self.record(estimate, waiting.pop(estimate.samples))

    def close(self) -> None:
        """Stop the workers: at once when every world given is in, else (an error, Ctrl-C)
        after the task each is on, the tasks not begun dropped."""
        self.pool.shutdown(wait=not self.tasks, cancel_futures=True)


# -- blind play ---------------------------------------------------------------------------

@dataclass
class PlayedGame:
    """A deal played blind: how it ended, the steps, and each decision's prediction."""

    status: Status
    steps: list[Any] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    samples: int = 0
    reason: str = ""


def play(game: Game[Any, Any], state: Any, settings: Settings = Settings(),
         start: Sighted[Any, Any] | None = None) -> PlayedGame:
    """Play `state` (the true deal) with the blind hint's choice at each decision; `start`
    is `state` as the player first has it (default ``Sighted.of``: a deal's start; a
    board's text says more by its marks, ``Sighted.read``).

    A decision is a position with more than one plan open (``plans``); a single plan, or
    a step the view proves safe in every world (``Sighted.safe``), is played without
    asking. Once nothing is unseen, one exact solve decides the rest. A plan back into
    a position the player has already been in ``REVISITS`` times (as the player sees
    it) is never taken, so that play cannot go round in circles. When no plan is found
    among the ``PLAN_LOOKS`` nearest undoable positions, ``WIDE_LOOKS`` are explored, then
    plans read from the wins of a few worlds (``deeper_plans``), which are also added
    before the player gives up, with ``LAST_LOOK`` times the worlds (the first ones again
    among them: a last look is rare, and its answer then stands on its own). The game is
    lost when no plan is open (either every move open can be undone and none leads
    further, so no card can ever be shown or placed for good, or every plan leads back),
    when the best plan's chance is 0 even with those plans and worlds (the player gives
    up: no world drawn could be won), or after ``MAX_STEPS`` steps.
    """
    position = Sighted.of(game, state) if start is None else start
    looks: Counter[Hashable] = Counter([position.look()])
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
        worn = frozenset(look for look, count in looks.items() if count >= REVISITS)
        options = [] if safe else open_plans(masked, settings, worn)
        if safe:
            plan: tuple[Any, ...] = (safe[0],)
        elif not options:
            played.reason = ("every plan open leads back to a position already seen"
                             if _undoable_region(masked, WIDE_LOOKS)[1] else
                             "stuck: every move open can be undone and none leads further")
            return played
        elif len(options) == 1:
            plan = options[0]
        else:
            hint = blind_hint(position, settings, options=options)
            played.samples += hint.samples
            chosen = hint.best
            assert chosen is not None
            if chosen.decided and chosen.won == 0 and game.score is None:
                # Before giving up: plans further off than those looked at, and a last look
                # with more worlds (every plan saw the same few: none won may be their luck).
                options = options + deeper_plans(masked, settings, worn, options)
                hint = blind_hint(position, settings.looking_further(), options=options)
                played.samples += hint.samples
                chosen = hint.best
                assert chosen is not None
            if chosen.decided and chosen.won == 0 and game.score is None:
                played.reason = "no world drawn could be won"
                played.decisions.append({"move": chosen.notation, "chance": 0.0,
                                         "samples": chosen.samples, "step": len(played.steps),
                                         "unseen": len(unseen.cards)})
                return played
            plan = chosen.steps
            played.decisions.append({"move": chosen.notation, "chance": round(chosen.chance, 4),
                                     "samples": chosen.samples, "step": len(played.steps),
                                     "unseen": len(unseen.cards)})
            if chosen.calibrated is not None:
                played.decisions[-1]["calibrated"] = round(chosen.calibrated, 4)
        for move in plan:
            played.steps += game.expand(position.state, move)
            position = position.play(move)
            looks[position.look()] += 1
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
                             "samples": 0, "exact": True, "step": len(played.steps), "unseen": 0})
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


# -- batches of blind games ------------------------------------------------------------------

FULL_BUDGET = Budget(max_states=1_000_000)   # the full-information verdict beside each game
BINS = 10                                    # the reliability table's bins of predicted chance


class BlindWorker(Worker):
    """Plays one task's deal blind (``play``) and records it beside the deal's
    full-information verdict; picklable, like ``solver.app.batch.Worker``.

    The record is a ``Verdict``: `status` is how the blind game ended (won or lost),
    `moves` the steps of a won game (a win, replayed through the rules like any other),
    `strategy` the blind settings (``Settings.name``), and `extra` holds ``decisions``
    (each with the plan chosen, ``move``, and its predicted ``chance``), ``played`` (the
    steps of a lost game), ``samples``, ``reason`` (why a lost game ended) and
    ``full_information``, the verdict of a search that sees the whole deal, and
    ``max_resident``, the most resident memory the process playing it had held when the
    game ended (bytes; the game's many small solves come and go, and a process's peak is
    what a memory limit meets).
    """

    def __init__(self, game: Game[Any, Any], settings: Settings,
                 full: Budget = FULL_BUDGET) -> None:
        settings = settings.for_game(game)
        super().__init__(game, settings.name, _budget_of(settings))
        self.settings, self.full = settings, full

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.asdict(self.game)  # type: ignore[call-overload]
        return _rebuilt_blind, (type(self.game), fields, self.settings, self.full)

    def __call__(self, task: Task) -> Verdict:
        try:
            return self.play(task)
        except Exception as error:           # a bug in a game or a strategy: not a verdict
            return self.failed(task, "error", describe(error))

    def play(self, task: Task) -> Verdict:
        from solver.app.analyze import solve

        game = self.game
        state = start_position(game, task)
        started, cpu = time.perf_counter(), time.process_time()
        seen = None if task.text is None else Sighted.read(game, task.text, state)
        played = play(game, state, self.settings, seen)
        seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
        full = solve(game, state, None, self.full)
        notations = [game.notation(step) for step in played.steps]
        won = played.status is Status.WON
        scored = game.score is not None
        extra: dict[str, Any] = {"decisions": played.decisions, "samples": played.samples,
                                 "full_information": full.status.value}
        score = None
        if scored:                           # the score of the position the play ends in
            final = state
            for step in played.steps:
                final = game.play(final, step)
            score = game.score(final)        # type: ignore[misc]
            extra["full_information_score"] = full.score
        if not won and not scored:
            extra["played"] = notations
        if not won:
            extra["reason"] = played.reason
        extra["max_resident"] = peak_resident_bytes()
        return Verdict(game=game.name, variant=variant_of(game), deal=task.deal,
                       status=played.status, moves=tuple(notations) if won or scored else (),
                       strategy=self.strategy, seconds=seconds, cpu_seconds=cpu_seconds,
                       verified=won or scored, budget=budget_record(self.budget), score=score,
                       version=solver_version(), extra=extra)


def _budget_of(settings: Settings) -> Budget:
    """The budget a results file records for blind settings: the cap and the seconds."""
    return Budget(max_states=settings.cap,
                  seconds=settings.seconds if settings.samples is None else None)


def _rebuilt_blind(kind: Any, fields: dict[str, Any], settings: Settings,
                   full: Budget) -> BlindWorker:
    return BlindWorker(kind(**fields), settings, full)


@dataclass
class Calibration:
    """Predicted chances against outcomes: the Brier score and a reliability table."""

    bins: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0] for _ in range(BINS)])
    squared: float = 0.0
    count: int = 0

    def add(self, chance: float, won: bool) -> None:
        self.squared += (chance - won) ** 2
        self.count += 1
        row = self.bins[min(int(chance * BINS), BINS - 1)]
        row[0] += 1
        row[1] += chance
        row[2] += won

    @property
    def brier(self) -> float:
        return self.squared / self.count if self.count else 0.0

    def rows(self) -> list[tuple[str, int, float, float]]:
        """(bin, decisions, mean predicted chance, share of their games won), non-empty bins."""
        out = []
        for index, (count, predicted, won) in enumerate(self.bins):
            if count:
                out.append((f"{index / BINS:.1f}-{(index + 1) / BINS:.1f}", int(count),
                            predicted / count, won / count))
        return out


@dataclass
class BlindSummary:
    """A blind run's figures: blind and full-information win counts, and calibration."""

    games: int = 0
    won: int = 0
    full_won: int = 0
    full_decided: int = 0
    decisions: int = 0
    calibrated: int = 0           # decisions whose prediction is the calibrated chance
    calibration: Calibration = field(default_factory=Calibration)
    scores: list[int] = field(default_factory=list)        # a scored game's blind scores
    full_scores: list[int] = field(default_factory=list)   # ... and full-information best
    ended: Counter[str] = field(default_factory=Counter)   # lost games by how they ended
    lost_full_won: int = 0        # lost blind, won with full information
    cpu_seconds: list[float] = field(default_factory=list)  # processor time of each game
    max_resident: int = 0         # the most resident memory a process playing them held

    def to_json(self) -> dict[str, Any]:
        rate, low, high = wilson(self.won, self.games)
        full, full_low, full_high = wilson(self.full_won, self.full_decided)
        return {"games": self.games, "won": self.won, "win_rate": round(rate, 4),
                "interval": [round(low, 4), round(high, 4)],
                "full_information": {"won": self.full_won, "decided": self.full_decided,
                                     "win_rate": round(full, 4),
                                     "interval": [round(full_low, 4), round(full_high, 4)]},
                **({"mean_score": round(sum(self.scores) / len(self.scores), 2)}
                   if self.scores else {}),
                **({"full_information_mean_score":
                    round(sum(self.full_scores) / len(self.full_scores), 2)}
                   if self.full_scores else {}),
                "lost": dict(self.ended.most_common()),
                "lost_full_information_won": self.lost_full_won,
                **({"cpu_seconds": {"mean": round(statistics.fmean(self.cpu_seconds), 2),
                                    "median": round(statistics.median(self.cpu_seconds), 2)}}
                   if self.cpu_seconds else {}),
                **({"max_resident_mb": round(self.max_resident / 2**20, 1)}
                   if self.max_resident else {}),
                "decisions": self.decisions, "calibrated": self.calibrated,
                "brier": round(self.calibration.brier, 4),
                "reliability": [{"bin": b, "decisions": n, "predicted": round(p, 4),
                                 "won": round(w, 4)} for b, n, p, w in self.calibration.rows()]}


def summarize_blind(out: Path, tasks: Any = None, game: Game[Any, Any] | None = None) -> BlindSummary:
    """Return the blind figures of a results file's records (of `tasks` only, if given)."""
    summary = BlindSummary()
    seen: set[Any] = set()
    for verdict in read_records(out, game):
        if verdict.deal in seen or (tasks is not None and verdict.deal not in tasks) \
                or "decisions" not in verdict.extra:
            continue
        seen.add(verdict.deal)
        won = verdict.status is Status.WON
        summary.games += 1
        summary.won += won
        full = verdict.extra.get("full_information")
        if full in ("won", "lost"):
            summary.full_decided += 1
            summary.full_won += full == "won"
        if not won:
            summary.ended[str(verdict.extra.get("reason", "not recorded"))] += 1
            summary.lost_full_won += full == "won"
        summary.cpu_seconds.append(verdict.cpu_seconds)
        if isinstance(verdict.extra.get("max_resident"), int):
            summary.max_resident = max(summary.max_resident, verdict.extra["max_resident"])
        if verdict.score is not None:
            summary.scores.append(verdict.score)
        if isinstance(verdict.extra.get("full_information_score"), int):
            summary.full_scores.append(verdict.extra["full_information_score"])
        for decision in verdict.extra["decisions"]:
            summary.decisions += 1
            if "calibrated" in decision:
                summary.calibrated += 1
            summary.calibration.add(float(decision.get("calibrated", decision["chance"])), won)
    return summary
