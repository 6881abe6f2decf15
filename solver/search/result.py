"""A search's budget and its outcome: the types every strategy takes and returns.

Kept apart from the compiled search loops (``solver.search.base``) because they are
plain data: frozen dataclasses that the command line, batch runs and tests build and read.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar

from solver.game import Status

if TYPE_CHECKING:
    from solver.search.base import Run

M = TypeVar("M")


@dataclass(frozen=True)
class Budget:
    """Limits of one search; None means no limit (memory: a safe share of the machine)."""

    max_states: int | None = None
    seconds: float | None = None
    memory: int | None = None
    cpu: bool = False                 # seconds of processor time, not of the wall clock
    # Called with the Run every 256 expansions (it keeps its own pace); for a progress
    # line. Not part of what a budget allows, so not compared.
    progress: Callable[["Run"], None] | None = field(default=None, compare=False, repr=False)

    def clock(self) -> float:
        """Return the time the `seconds` budget is counted in."""
        return time.process_time() if self.cpu else time.perf_counter()


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
