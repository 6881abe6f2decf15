"""A search's budget and its outcome: the types every strategy takes and returns.

Kept apart from the compiled search loops (``solver.search.base``) because they are
plain data: frozen dataclasses that the command line, batch runs and tests build and read.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar

from solver.game import Status

if TYPE_CHECKING:
    from solver.search.base import Run

M = TypeVar("M")


@dataclass(frozen=True)
class Budget:
    """Limits of one search; None means no limit (memory: a safe share of the machine).

    The one clock of every search: ``start`` fixes a deadline on the budget's clock (wall
    or processor time), ``remaining`` says what is left of it, ``share`` cuts a part that
    ends no later than the whole (a first pass, portfolio members running side by side)
    and ``split`` an equal part for each of several searches run one after another
    (``hint --all``). A search that is handed a started budget keeps its deadline.
    """

    max_states: int | None = None
    seconds: float | None = None
    memory: int | None = None
    cpu: bool = False                 # seconds of processor time, not of the wall clock
    # Called with the Run every 256 expansions (it keeps its own pace); for a progress
    # line. Not part of what a budget allows, so not compared.
    progress: Callable[["Run"], None] | None = field(default=None, compare=False, repr=False)
    # When the seconds run out, on ``clock()`` (None: not started, or no time limit).
    deadline: float | None = field(default=None, compare=False, repr=False)

    def clock(self) -> float:
        """Return the time the `seconds` budget is counted in."""
        return time.process_time() if self.cpu else time.perf_counter()

    def start(self) -> "Budget":
        """Return this budget with its deadline fixed from now (kept if already started).

        >>> budget = Budget(seconds=10.0).start()
        >>> 9.9 < budget.remaining() <= 10.0, budget.start() is budget
        (True, True)
        """
        if self.seconds is None or self.deadline is not None:
            return self
        return dataclasses.replace(self, deadline=self.clock() + self.seconds)

    def remaining(self) -> float | None:
        """Return the seconds left (all of them before ``start``; None: no time limit)."""
        if self.seconds is None:
            return None
        if self.deadline is None:
            return self.seconds
        return max(0.0, self.deadline - self.clock())

    def expired(self) -> bool:
        """Return whether a started budget's seconds have run out."""
        return self.deadline is not None and self.clock() > self.deadline

    def share(self, fraction: float) -> "Budget":
        """Return a started budget for a part: `fraction` of the seconds left and of the
        states, ending no later than this budget (which it starts if it was not).

        >>> part = Budget(max_states=1000, seconds=10.0).share(0.25)
        >>> part.max_states, 2.4 < part.remaining() <= 2.5
        (250, True)
        """
        whole = self.start()
        left = whole.remaining()
        seconds = None if left is None else left * fraction
        return dataclasses.replace(
            whole, seconds=seconds,
            deadline=None if seconds is None else whole.clock() + seconds,
            max_states=None if self.max_states is None else max(1, int(self.max_states * fraction)))

    def split(self, parts: int) -> "Budget":
        """Return the budget of each of `parts` searches run one after another: an equal
        part of the seconds left and of the states, started by each search itself.

        >>> Budget(max_states=10, seconds=6.0).split(4)
        Budget(max_states=2, seconds=1.5, memory=None, cpu=False)
        """
        left = self.remaining()
        return dataclasses.replace(
            self, deadline=None, seconds=None if left is None else left / max(1, parts),
            max_states=None if self.max_states is None else max(1, self.max_states // max(1, parts)))


@dataclass(frozen=True)
class Result(Generic[M]):
    """The outcome of one search: a verdict and, when won, the verified steps."""

    status: Status
    moves: tuple[M, ...] = ()
    optimal: bool = False
    expanded: int = 0
    stored: int = 0
    seconds: float = 0.0              # wall-clock time
    stopped_by: str = ""              # "max-states", "seconds" or "memory" when UNKNOWN
    strategy: str = ""
    peak_memory: int = 0              # growth of resident memory during the search, bytes
    cpu_seconds: float = 0.0          # processor time: what a busy machine does not inflate
    # A scored game's score: won, the best possible; lost, the best reachable (proven);
    # unknown, the best found (None: none found, or a strategy that does not score).
    score: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
