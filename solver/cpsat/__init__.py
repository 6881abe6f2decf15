"""What CP-SAT (OR-Tools) models share: an interruptible solve, and route models solved
and read back as moves.

The models themselves are game-specific, so they live with their games
(``games/_<game>_cpsat.py``), and a game offers its model to ``--strategy cpsat`` as
``cpsat_solve(state, budget) -> Result`` (``solver.game.Game``). Nothing here knows a
game: positions and moves are read through the protocol and the ``Route`` a model keeps.
"""
from __future__ import annotations

import contextlib
import signal
import socket
import threading
from typing import Any, Iterator

from ortools.sat.python import cp_model

from solver.cards import card_str
from solver.game import Game, Status
from solver.search.base import Budget, Result, Run

DEPOT = 0                       # a route model's node for "before the first / after the last"


class Route:
    """A route model's variables: node i + 1 is the slot ``slots[i]`` (pile, depth from the
    pile's top) holding ``card[i]``; ``step[i]`` is when it is played (0 = first); ``arcs``
    are the circuit's literals, made by ``arc``. Node DEPOT stands before the first card
    and after the last."""

    def __init__(self, model: cp_model.CpModel, piles: tuple[bytes, ...]) -> None:
        self.model = model
        self.slots = [(p, j) for p, pile in enumerate(piles) for j in range(len(pile))]
        self.card = [piles[p][-1 - j] for p, j in self.slots]
        self.last = len(self.slots) - 1
        self.step = [model.new_int_var(0, self.last, f"step_{p}_{j}") for p, j in self.slots]
        self.arcs: list[tuple[int, int, cp_model.IntVar]] = []

    def arc(self, tail: int, head: int) -> cp_model.IntVar:
        """Return the literal of the arc tail -> head (the card of head played right after)."""
        literal = self.model.new_bool_var(f"arc_{tail}_{head}")
        self.arcs.append((tail, head, literal))
        return literal


def solve_route(run: Run, game: Game[Any, Any], state: Any, model: cp_model.CpModel,
                variables: Route, budget: Budget) -> Result[Any]:
    """Solve a route model: FEASIBLE is a win (replayed), INFEASIBLE a proof of loss.

    The model is a circuit through a depot whose order is the order cards are played;
    CP-SAT runs on one worker, so batch jobs each keep to one core. It honours
    ``budget.seconds`` and ``budget.memory``; it stores no positions, so a state budget
    cannot apply (the command line refuses one).
    """
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    budget = budget.start()
    left = budget.remaining()
    if left is not None and not budget.cpu:
        solver.parameters.max_time_in_seconds = max(left, 0.001)
    if budget.memory is not None:
        solver.parameters.max_memory_in_mb = max(1, budget.memory >> 20)
    with processor_time_limit(solver, budget):
        code = interruptible_solve(solver, model)
    stats: dict[str, Any] = {"conflicts": solver.num_conflicts, "branches": solver.num_branches,
             "cpsat_status": solver.status_name(code)}
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return run.result(Status.WON, [tuple(route_moves(game, state, solver, variables))],
                          **stats)
    if code == cp_model.INFEASIBLE:
        return run.result(Status.LOST, **stats)
    return run.result(Status.UNKNOWN, stopped_by="seconds", **stats)


@contextlib.contextmanager
def processor_time_limit(solver: cp_model.CpSolver, budget: Budget) -> Iterator[None]:
    """Stop the solve when a processor-time budget (``--cpu``) runs out.

    CP-SAT's own limit counts wall-clock time, which a busy machine inflates; with
    ``budget.cpu`` a thread reads the process's processor time every 20 ms instead and
    stops the search at the budget's deadline.
    """
    if not budget.cpu or budget.deadline is None:
        yield
        return
    over = threading.Event()

    def watch() -> None:
        while not over.wait(0.02):
            if budget.expired():
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        over.set()
        watcher.join()


def interruptible_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Any:
    """Solve, letting Ctrl-C stop the search promptly and still raise KeyboardInterrupt.

    CP-SAT's own SIGINT handling turns an interrupt into an ordinary early stop, which
    would be recorded as a verdict; without it, Python sees the interrupt only after the
    solve returns. So its handler is off, Python's signal wakeup descriptor is watched
    by a thread that stops the search on SIGINT (or SIGTERM, which reaches the wakeup
    descriptor only where the program handles it, as a batch run does), and Python then
    raises the interrupt as usual when ``solve`` returns. Outside the main thread (where
    no signal arrives) it is a plain solve.
    """
    solver.parameters.catch_sigint_signal = False
    try:
        receive, send = socket.socketpair()
    except OSError:
        return solver.solve(model)
    with receive, send:
        send.setblocking(False)
        try:
            previous = signal.set_wakeup_fd(send.fileno(), warn_on_full_buffer=False)
        except ValueError:                     # not the main thread
            return solver.solve(model)

        over = threading.Event()

        def watch() -> None:
            while True:
                data = receive.recv(64)
                if signal.SIGINT in data or signal.SIGTERM in data:
                    # The interrupt may come before the solve has begun, when a stop is
                    # not yet heard: ask again until the solve is over.
                    while not over.is_set():
                        solver.stop_search()
                        over.wait(0.05)
                    return
                if not data or 0 in data:        # closed, or the solve is over
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            return solver.solve(model)
        finally:
            over.set()
            signal.set_wakeup_fd(previous)
            try:
                send.send(b"\0")
            except OSError:
                pass
            watcher.join()


def route_moves(game: Game[Any, Any], state: Any, solver: cp_model.CpSolver,
                variables: Route) -> list[Any]:
    """Return the route's moves in order, each named as the game's notation names it."""
    after = {tail: head for tail, head, literal in variables.arcs if solver.boolean_value(literal)}
    moves = []
    at = after[DEPOT]
    while at != DEPOT:
        pile, _ = variables.slots[at - 1]
        move = game.parse_move(state, card_str(variables.card[at - 1]))
        if move.pile != pile:
            raise AssertionError("the route plays a card from another pile than its own")
        moves.append(move)
        state = game.play(state, move)
        at = after[at]
    return moves
