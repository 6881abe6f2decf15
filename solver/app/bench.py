"""Strategies side by side over a set of deals: verdicts, states, seconds, memory.

Used by ``solitaire bench`` and the scripts in ``benchmarks/``; it measures, it never
asserts: speed is measured, not tested.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from solver.app.analyze import solve
from solver.app.batch import Task
from solver.game import Game, Status
from solver.search import Budget, Result


@dataclass(frozen=True)
class Row:
    """One strategy's figures over the deals."""

    strategy: str
    deals: int
    won: int
    lost: int
    unknown: int
    median_seconds: float
    worst_seconds: float
    median_cpu_seconds: float
    worst_deal: Any
    states_per_second: float
    median_states: float
    mean_length: float
    peak_memory_mb: float

    @property
    def decided(self) -> float:
        return (self.won + self.lost) / self.deals if self.deals else 0.0


def run_deals(game: Game[Any, Any], tasks: Iterable[Task], strategy: str, budget: Budget,
              on_deal: Callable[[], None] | None = None) -> list[tuple[Any, Result[Any]]]:
    """Return (deal id, result) for each task, in order; `on_deal` is called after each."""
    results = []
    for task in tasks:
        state = game.deal(task.number) if task.number is not None else game.parse(task.text or "")
        results.append((task.deal, solve(game, state, strategy, budget)))
        if on_deal is not None:
            on_deal()
    return results


def summarize(strategy: str, results: Sequence[tuple[Any, Result[Any]]]) -> Row:
    """Return the figures of one strategy's results."""
    seconds = [r.seconds for _, r in results]
    cpu = [r.cpu_seconds for _, r in results]
    statuses = [r.status for _, r in results]
    worst = max(results, key=lambda pair: pair[1].seconds) if results else (None, None)
    lengths = [len(r.moves) for _, r in results if r.status is Status.WON]
    total_cpu = sum(cpu)
    return Row(
        strategy=strategy, deals=len(results),
        won=statuses.count(Status.WON), lost=statuses.count(Status.LOST),
        unknown=statuses.count(Status.UNKNOWN),
        median_seconds=statistics.median(seconds) if seconds else 0.0,
        worst_seconds=max(seconds) if seconds else 0.0, worst_deal=worst[0],
        median_cpu_seconds=statistics.median(cpu) if cpu else 0.0,
        states_per_second=sum(r.stored for _, r in results) / total_cpu if total_cpu else 0.0,
        median_states=statistics.median(r.stored for _, r in results) if results else 0.0,
        mean_length=statistics.fmean(lengths) if lengths else 0.0,
        peak_memory_mb=max((r.peak_memory for _, r in results), default=0) / 2**20,
    )


def compare(game: Game[Any, Any], tasks: Iterable[Task], strategies: Sequence[str],
            budget: Budget, on_deal: Callable[[], None] | None = None) -> list[Row]:
    """Return one Row per strategy over the same deals (`on_deal`: after each search)."""
    return [summarize(s, run_deals(game, tasks, s, budget, on_deal)) for s in strategies]


def table(rows: Sequence[Row]) -> str:
    """Return the rows as a Markdown table."""
    header = ("| strategy | deals | won | lost | unknown | median s | worst s (deal) "
              "| median CPU s | states/CPU s | median states | mean length | peak MB |")
    lines = [header, "|" + "---|" * 12]
    for r in rows:
        lines.append(f"| {r.strategy} | {r.deals} | {r.won} | {r.lost} | {r.unknown} "
                     f"| {r.median_seconds:.3f} | {r.worst_seconds:.2f} ({r.worst_deal}) "
                     f"| {r.median_cpu_seconds:.3f} "
                     f"| {r.states_per_second:,.0f} | {r.median_states:,.0f} "
                     f"| {r.mean_length:.1f} | {r.peak_memory_mb:.0f} |")
    return "\n".join(lines)
