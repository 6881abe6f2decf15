"""Batch classification: many deals, one JSON line each, resumable, with a summary.

A run appends one line per deal to its output as soon as that deal is decided and
flushes it, so a killed run loses at most the deals in flight; ``resume`` skips the
deals already in the output. Deals come from a range of numbers (``1-32000``, also
``1-10,20-30``), a text file of deals separated by blank lines, or JSON lines
(``{"deal": 17}`` or ``{"id": "x", "board": "..."}``). Work runs in a local process pool.
"""
from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from solver.game import SolitaireError, Status
from solver.search import Budget, find_strategy


@dataclass(frozen=True)
class Task:
    """One deal to classify: a number, or a board text, under an id."""

    deal: int | str
    number: int | None = None
    text: str | None = None


@dataclass
class Summary:
    """Counts by status and the win rate with its Wilson 95% interval."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, status: str) -> None:
        self.counts[status] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def win_rate(self) -> tuple[float, float, float]:
        """Return (rate, low, high) of won among decided deals (Wilson score, 95%)."""
        won, lost = self.counts["won"], self.counts["lost"]
        return wilson(won, won + lost)


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """Return (p, low, high): the Wilson score interval for a binomial proportion.

    >>> [round(x, 4) for x in wilson(869, 1000)]
    [0.869, 0.8467, 0.8885]
    """
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return p, max(0.0, centre - half), min(1.0, centre + half)


# -- reading deal sources ---------------------------------------------------------------

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*")


def read_source(source: str) -> list[Task]:
    """Return the tasks a source names: a range of deal numbers or a file of deals."""
    path = Path(source)
    if path.is_file():
        return _read_file(path)
    parts = source.split(",")
    if all(_RANGE.fullmatch(p) for p in parts):
        tasks: list[Task] = []
        for part in parts:
            found = _RANGE.fullmatch(part)
            assert found
            first = int(found.group(1))
            last = int(found.group(2)) if found.group(2) else first
            if last < first:
                raise SolitaireError(f"deal range {part.strip()!r} is empty: it ends before it starts")
            tasks.extend(Task(n, number=n) for n in range(first, last + 1))
        return tasks
    raise SolitaireError(f"{source!r} is neither a deal range (like 1-1000) nor a file")


def _read_file(path: Path) -> list[Task]:
    text = path.read_text(encoding="utf-8-sig")
    if not text.strip():
        raise SolitaireError(f"{path}: the file is empty")
    if text.lstrip().startswith("{"):
        tasks = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                raise SolitaireError(f"{path}, line {number}: not a JSON object") from None
            if not isinstance(item, dict) or not ("deal" in item or "board" in item):
                raise SolitaireError(f"{path}, line {number}: needs a \"deal\" number or a \"board\" text")
            if "board" in item:
                tasks.append(Task(str(item.get("id", f"{path.name}:{number}")), text=str(item["board"])))
            elif isinstance(item["deal"], int):
                tasks.append(Task(item.get("id", item["deal"]), number=item["deal"]))
            else:
                raise SolitaireError(f"{path}, line {number}: \"deal\" must be a number")
        return tasks
    blocks = re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip())
    return [Task(f"{path.name}#{i}", text=block) for i, block in enumerate(blocks, 1)]


def read_done(out: Path) -> set[Any]:
    """Return the deal ids already in a results file; raise on a truncated or bad line."""
    done: set[Any] = set()
    if not out.exists():
        return done
    with out.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                done.add(item["deal"])
            except (json.JSONDecodeError, KeyError, TypeError):
                raise SolitaireError(
                    f"{out}, line {number}: not a complete result line (truncated?); "
                    "remove or repair that line, then resume") from None
    return done


# -- running ----------------------------------------------------------------------------

def classify(game_name: str, options: dict[str, Any], tasks: Sequence[Task], out: Path, *,
             strategy: str | None = None, budget: Budget = Budget(), jobs: int = 1,
             resume: bool = False) -> Iterator[dict[str, Any]]:
    """Classify `tasks` into `out`, yielding each record as it is written.

    Without `resume` an existing non-empty output is refused (nothing is overwritten);
    with it, deals already there are skipped. Boards are parsed up front, so a bad deal
    in a file stops the run before any work, naming it.
    """
    from games import find_game
    from solver.analyze import default_strategy

    game = find_game(game_name, options)
    find_strategy(default_strategy(game, strategy))          # a bad name fails before work
    for task in tasks:
        if task.text is not None:
            try:
                game.parse(task.text)
            except SolitaireError as error:
                raise SolitaireError(f"deal {task.deal}: {error}") from None
    if out.exists() and out.stat().st_size and not resume:
        raise SolitaireError(f"{out} already holds results: pass --resume to continue it, "
                             "or choose another --out")
    done = read_done(out) if resume else set()
    todo = [t for t in tasks if t.deal not in done]
    work = functools.partial(_classify_one, game_name, dict(options), strategy, budget)
    with out.open("a", encoding="utf-8") as sink:
        if out.stat().st_size and not _ends_with_newline(out):
            sink.write("\n")
        if jobs <= 1:
            results: Iterator[dict[str, Any]] = map(work, todo)
            yield from _write_each(results, sink)
            return
        with multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(jobs) as pool:
            try:
                yield from _write_each(pool.imap_unordered(work, todo, chunksize=1), sink)
            finally:
                pool.terminate()


def remaining(tasks: Sequence[Task], out: Path, resume: bool) -> int:
    """Return how many tasks a run will do (for a progress bar)."""
    done = read_done(out) if resume else set()
    return sum(1 for t in tasks if t.deal not in done)


def summarize(out: Path, tasks: Sequence[Task] | None = None) -> Summary:
    """Return the summary of the results file (only the given tasks' deals, if any)."""
    wanted = None if tasks is None else {t.deal for t in tasks}
    summary = Summary()
    seen: set[Any] = set()
    with out.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                item = json.loads(line)
                if (wanted is None or item["deal"] in wanted) and item["deal"] not in seen:
                    seen.add(item["deal"])
                    summary.add(item["status"])
    return summary


def _write_each(results: Iterator[dict[str, Any]], sink: Any) -> Iterator[dict[str, Any]]:
    for item in results:
        sink.write(json.dumps(item) + "\n")
        sink.flush()
        yield item


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


@functools.lru_cache(maxsize=8)
def _game(game_name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    from games import find_game
    return find_game(game_name, dict(options))


def _classify_one(game_name: str, options: dict[str, Any], strategy: str | None, budget: Budget,
                  task: Task) -> dict[str, Any]:
    from solver.analyze import record, solve

    game = _game(game_name, tuple(sorted(options.items())))
    state = game.deal(task.number) if task.number is not None else game.parse(task.text)
    result = solve(game, state, strategy, budget)
    return record(game, task.deal, result)


__all__ = ["Task", "Summary", "wilson", "read_source", "read_done", "classify", "summarize",
           "remaining", "Status"]
