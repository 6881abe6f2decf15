"""A CP-SAT model of Black Hole: a route through every card left, one rank apart.

A win plays the cards left one at a time, each one rank above or below the card before
it (the first one next to the foundation's card; ranks wrap K-A), and takes each pile's
cards from the top down. So a win is a Hamiltonian path through the cards that starts
next to the foundation and respects the piles' order: the model is a circuit through
a depot node (``AddCircuit``) whose arcs join cards of adjacent ranks, plus one step
number per card, consecutive along the arcs and increasing down each pile. A route
is exactly a legal play order, so FEASIBLE is a win (replayed before it is shown) and
INFEASIBLE a proof that the position is lost.

It shares nothing with the search's move generator or its dead-position test
(``games.black_hole.viable``), which is why it is a useful second opinion: tests check
that both give the same verdict on every deal tried.

The model reads the position through the State fields documented in
``games/black_hole.py`` (``piles``: bottom card first; ``foundation``: the top card)
and the game's ``ranks`` option. ``BlackHole.cpsat_solve`` offers it to ``--strategy
cpsat`` and imports it only then, so OR-Tools loads only when a model is asked for.

>>> from games.black_hole import GAME
>>> result = solve(GAME, GAME.deal(6), Budget(seconds=30))
>>> result.status, len(result.moves), GAME.notation(result.moves[0]) in ("KC", "2D", "2H", "2C")
(<Status.WON: 'won'>, 51, True)
"""
from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from solver.cards import Card
from solver.game import Game, Status
from solver.cpsat import DEPOT, Route, solve_route
from solver.search.base import Budget, Result, Run



def build_model(game: Game[Any, Any], state: Any) -> tuple[cp_model.CpModel, Route]:
    """Return the model of a win from `state` and its variables (see the module docstring)."""
    ranks: int = game.ranks                        # type: ignore[attr-defined]
    model = cp_model.CpModel()
    route = Route(model, state.piles)
    slots, card, step, arc = route.slots, route.card, route.step, route.arc

    def adjacent(a: Card, b: Card) -> bool:
        return (a % 13 - b % 13) % ranks in (1, ranks - 1)

    # -- constraints: the route starts next to the foundation and ends anywhere ----------
    for i, c in enumerate(card):
        if adjacent(c, state.foundation):
            model.add(step[i] == 0).only_enforce_if(arc(DEPOT, i + 1))
        arc(i + 1, DEPOT)

    # -- constraints: each card is followed by a card one rank away ----------------------
    # Within a pile only the card just below can follow (any other lies under it, or
    # under a card that must come between).
    for i, c in enumerate(card):
        for k, d in enumerate(card):
            follows = slots[k][0] != slots[i][0] or k == i + 1
            if k != i and follows and adjacent(c, d):
                model.add(step[k] == step[i] + 1).only_enforce_if(arc(i + 1, k + 1))

    # -- constraints: every card once (one circuit through the depot) --------------------
    model.add_circuit(route.arcs)

    # -- constraints: each pile from the top down ----------------------------------------
    for i, (p, j) in enumerate(slots):
        if i + 1 < len(slots) and slots[i + 1][0] == p:
            model.add(step[i] < step[i + 1])

    # -- objective: none; any route is a win ---------------------------------------------
    return model, route


def solve(game: Game[Any, Any], state: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return WON with the verified moves, LOST (infeasible) or UNKNOWN (out of time).

    Only ``budget.seconds`` applies; CP-SAT runs on one worker so that batch jobs each
    keep to one core.
    """
    run = Run(game, state, budget, "cpsat")
    if not any(state.piles):
        return run.result(Status.WON, [()])
    model, variables = build_model(game, state)
    return solve_route(run, game, state, model, variables, budget)
