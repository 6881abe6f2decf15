"""A CP-SAT model of The Clock's play: feasible exactly when the play turns every card.

The Clock has no choices, so the model is not a search for good moves but a second,
independent statement of the rules, as a route through the face-down cards: it starts
at the top card of the pile due, goes from each card to a card of the pile of its rank,
visits every card once (a circuit through a depot node) and takes each pile's cards from
the top down (step numbers). Such a route exists exactly when the play turns every card,
that is when the game is won: with the order within piles and every card visited, the
card taken from a pile is always its top face-down one, as in play. INFEASIBLE is a
proof that the game is lost.

The model reads the position through the State fields documented in
``games/the_clock.py`` (``piles``: face-down cards bottom first; ``next_pile``: -1 once
play has stopped), so it works from a fresh deal and from any position in play.
``TheClock.cpsat_solve`` offers it to ``--strategy cpsat`` and imports it only then, so
OR-Tools loads only when a model is asked for.

A first model with one integer per step tied to its inverse by ``AddInverse`` met a
presolve bug of OR-Tools 9.15 (a won deal reported INFEASIBLE, feasible with presolve
off); the circuit model avoids that constraint and is also faster.

>>> from games.the_clock import GAME
>>> solve(GAME, GAME.deal(12), Budget(seconds=10)).status, solve(GAME, GAME.deal(1)).status
(<Status.WON: 'won'>, <Status.LOST: 'lost'>)
"""
from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from solver.cards import rank
from solver.game import Game, Status
from solver.cpsat import DEPOT, Route, solve_route
from solver.search.base import Budget, Result, Run

def build_model(game: Game[Any, Any], state: Any) -> tuple[cp_model.CpModel, Route]:
    """Return the model of play from `state` and its variables (see the module docstring)."""
    piles: tuple[bytes, ...] = state.piles
    model = cp_model.CpModel()
    depth = [len(pile) for pile in piles]
    # Slots (pile, depth): depth 0 is the pile's top face-down card. step[i]: when
    # slots[i] is turned. One literal per allowed arc of the route: depot -> top card of
    # the pile due; card -> depot (it is turned last); card -> any card of the pile of
    # its rank.
    route = Route(model, piles)
    slots, card, step, last, arc = route.slots, route.card, route.step, route.last, route.arc
    node = {slot: i + 1 for i, slot in enumerate(slots)}

    # -- constraints: the route starts at the pile due and ends anywhere ----------------
    if state.next_pile >= 0 and depth[state.next_pile]:
        first = node[state.next_pile, 0]
        model.add(step[first - 1] == 0).only_enforce_if(arc(DEPOT, first))
    for i in range(len(slots)):
        model.add(step[i] == last).only_enforce_if(arc(i + 1, DEPOT))

    # -- constraints: after a card of rank r comes a card of pile r - 1 (0-based) ---------
    for i, c in enumerate(card):
        target = rank(c) - 1
        for j in range(depth[target]):
            k = node[target, j] - 1
            if k != i:
                model.add(step[k] == step[i] + 1).only_enforce_if(arc(i + 1, k + 1))

    # -- constraints: every card once, so the route is one circuit through the depot -----
    model.add_circuit(route.arcs)

    # -- constraints: each pile from the top down ----------------------------------------
    for p, j in slots:
        if j + 1 < depth[p]:
            model.add(step[node[p, j] - 1] < step[node[p, j + 1] - 1])

    # -- objective: none; any route is the play itself ------------------------------------
    return model, route


def solve(game: Game[Any, Any], state: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return WON with the verified moves, LOST (infeasible) or UNKNOWN (out of time).

    Only ``budget.seconds`` applies (the model is small); CP-SAT runs on one worker,
    the fastest on a model that propagation alone settles.
    """
    run = Run(game, state, budget, "cpsat")
    if state.next_pile < 0:                      # play has stopped: nothing to model
        return run.result(Status.LOST if any(state.piles) else Status.WON, [()])
    model, variables = build_model(game, state)
    return solve_route(run, game, state, model, variables, budget)
