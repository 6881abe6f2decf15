"""One budget clock: a deadline started once, shared by the parts of a search."""
from __future__ import annotations

from games import GAMES
from solver.game import Status
from solver.search import Budget, find_strategy


def test_a_started_budget_keeps_its_deadline_and_its_parts_end_no_later():
    whole = Budget(max_states=1_000, seconds=100.0).start()
    assert whole.deadline is not None and whole.start() is whole
    part = whole.share(0.5)
    assert part.deadline is not None and part.deadline <= whole.deadline
    assert part.max_states == 500
    each = whole.split(4)                  # run one after another: each starts its own clock
    assert each.deadline is None and each.max_states == 250
    assert each.seconds is not None and each.seconds <= 25.0
    assert Budget().share(0.5) == Budget() and Budget().split(3).seconds is None


def test_cpsat_counts_processor_seconds_when_asked():
    """Black Hole deal 10 takes CP-SAT well over a second: a one-second processor-time
    budget stops it as unknown, stopped by the seconds (CP-SAT's own limit is wall time)."""
    black_hole = GAMES["black-hole"]
    result = find_strategy("cpsat")(black_hole, black_hole.deal(10),
                                    Budget(seconds=1.0, cpu=True))
    assert (result.status, result.stopped_by) == (Status.UNKNOWN, "seconds")
    assert result.cpu_seconds < 10.0
