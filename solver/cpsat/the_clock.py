"""A CP-SAT model of The Clock's play: feasible exactly when the play turns every card.

The Clock has no choices, so the model is not a search for good moves but a second,
independent statement of the rules: a schedule that turns each face-down card at one
step, starting at the pile due, going after each card to the pile of its rank, and
taking each pile's cards from the top down. Such a schedule of all the face-down cards
exists exactly when the play turns them all, that is when the game is won; INFEASIBLE is
a proof that it is lost. It reads the position through the State fields documented in
``games/the_clock.py`` (``piles``: face-down cards bottom first; ``next_pile``: -1 once
play has stopped), so it works from a fresh deal and from any position in play.

>>> from games.the_clock import GAME
>>> solve(GAME, GAME.deal(12), Budget(seconds=10)).status, solve(GAME, GAME.deal(1)).status
(<Status.WON: 'won'>, <Status.LOST: 'lost'>)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.cards import Card, card_str, rank
from solver.game import Game, Status
from solver.search.base import Budget, Result, Run

Slot = tuple[int, int]          # (pile, depth): depth 0 is the pile's top face-down card


@dataclass
class Vars:
    """The model's variables, kept to read a solution back."""

    steps: int                                   # face-down cards, so steps of a win
    card: dict[Slot, Card]                       # the card in each slot
    turn: dict[tuple[int, Slot], cp_model.IntVar]   # (step, slot) -> "this step turns it"


def build_model(game: Game[Any, Any], state: Any) -> tuple[cp_model.CpModel, Vars]:
    """Return the model of play from `state` and its variables (see the module docstring)."""
    piles: tuple[bytes, ...] = state.piles
    model = cp_model.CpModel()
    depth = [len(pile) for pile in piles]
    steps = sum(depth)
    slots = [(p, j) for p in range(len(piles)) for j in range(depth[p])]
    card = {(p, j): piles[p][-1 - j] for p, j in slots}

    # -- variables ------------------------------------------------------------------
    # turn[t, (p, j)]: step t turns the card at depth j of pile p. It needs the j cards
    # above it turned before (t >= j) and the ones below it after (t < steps - below).
    turn: dict[tuple[int, Slot], cp_model.IntVar] = {}
    for p, j in slots:
        below = depth[p] - 1 - j
        for t in range(j, steps - below):
            turn[t, (p, j)] = model.NewBoolVar(f"turn_{t}_{p}_{j}")
    at_step: list[list[Slot]] = [[] for _ in range(steps)]
    of_slot: dict[Slot, list[tuple[int, cp_model.IntVar]]] = {slot: [] for slot in slots}
    for (t, slot), var in turn.items():
        at_step[t].append(slot)
        of_slot[slot].append((t, var))

    # -- constraints: a schedule -------------------------------------------------------
    # Each step turns one card and each face-down card is turned once.
    for t in range(steps):
        model.AddExactlyOne(turn[t, slot] for slot in at_step[t])
    for slot in slots:
        model.AddExactlyOne(var for _, var in of_slot[slot])

    # -- constraints: each pile from the top down -------------------------------------
    # done[t, slot]: the slot's card is turned at step t or before. Depth j may be turned
    # at step t only if depth j - 1 is done by step t - 1. (Implications rather than an
    # inequality of step numbers, so that unit propagation alone replays the play.)
    done: dict[tuple[int, Slot], Any] = {}
    for slot in slots:
        previous: Any = 0
        for t, var in of_slot[slot]:
            done[t, slot] = model.NewBoolVar(f"done_{t}_{slot[0]}_{slot[1]}")
            model.Add(done[t, slot] == previous + var)
            previous = done[t, slot]
    for (t, (p, j)), var in turn.items():
        if j:
            model.AddImplication(var, done[t - 1, (p, j - 1)])

    # -- constraints: the walk ----------------------------------------------------------
    # The first card comes from the pile due; after a card of rank r the next one comes
    # from pile r - 1 (0-based). The pile's top remaining card is the only one the
    # order above allows there, since every card is turned once.
    if steps:
        model.Add(sum(turn[0, slot] for slot in at_step[0] if slot[0] == state.next_pile) == 1)
    for t in range(steps - 1):
        for q in range(len(piles)):
            arrive = [turn[t, s] for s in at_step[t] if rank(card[s]) - 1 == q]
            leave = [turn[t + 1, s] for s in at_step[t + 1] if s[0] == q]
            model.Add(sum(leave) == sum(arrive))

    # -- objective: none; any schedule is the play -------------------------------------
    return model, Vars(steps, card, turn)


def solve(game: Game[Any, Any], state: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return WON with the verified moves, LOST (infeasible) or UNKNOWN (out of time).

    Only ``budget.seconds`` applies (the model is small); CP-SAT runs on one worker,
    which is fastest on a model its presolve settles.
    """
    run = Run(game, state, budget, "cpsat")
    if state.next_pile < 0:                      # play has stopped: nothing to model
        return run.result(Status.LOST if any(state.piles) else Status.WON, [()])
    model, variables = build_model(game, state)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if budget.seconds is not None:
        solver.parameters.max_time_in_seconds = max(budget.seconds, 0.001)
    code = solver.Solve(model)
    stats = {"conflicts": solver.NumConflicts(), "branches": solver.NumBranches(),
             "wall_time": solver.WallTime(), "cpsat_status": solver.StatusName(code)}
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return run.result(Status.WON, [tuple(_moves(game, state, solver, variables))], **stats)
    if code == cp_model.INFEASIBLE:
        return run.result(Status.LOST, **stats)
    return run.result(Status.UNKNOWN, stopped_by="seconds", **stats)


def _moves(game: Game[Any, Any], state: Any, solver: cp_model.CpSolver, variables: Vars) -> list[Any]:
    """Return the solution's moves, named through the game's move notation."""
    order: list[Slot | None] = [None] * variables.steps
    for (t, slot), var in variables.turn.items():
        if solver.BooleanValue(var):
            order[t] = slot
    moves = []
    for slot in order:
        assert slot is not None, "CP-SAT schedule leaves a step empty"
        move = game.parse_move(state, card_str(variables.card[slot]))
        moves.append(move)
        state = game.play(state, move)
    return moves
