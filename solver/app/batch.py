"""Batch classification: many deals, one JSON line each, resumable, with a summary.

A run appends one line per deal to its output as soon as that deal is decided and
flushes it, so a killed run loses at most the deals in flight; ``resume`` skips the
deals already in the output. Deals come from a range of numbers (``1-32000``, also
``1-10,20-30``; each deal once however the ranges overlap, read lazily so a range of
millions costs nothing up front), a text file of deals separated by blank lines, or JSON
lines (``{"deal": 17}`` or ``{"id": "x", "board": "..."}``). Work runs in a local process
pool.

A results file says what it holds: every record names its game, variant, strategy and
budget, and a resumed run with other settings is refused, naming the difference, since
its verdicts would not be comparable. An interrupt is never a verdict: the deals in
flight are not written, and the run ends with KeyboardInterrupt.
"""
from __future__ import annotations

import bisect
import dataclasses
import json
import math
import multiprocessing
import os
import queue
import re
import signal
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from solver.game import Game, SolitaireError, Status, quote
from solver.app.record import Verdict
from solver.search import Budget, find_strategy

MAX_BOARD_BYTES = 64 << 10          # far above any deal's text (a few hundred bytes)
MAX_SOURCE_BYTES = 1 << 30          # a file of deals read whole; larger files are refused


@dataclass(frozen=True)
class Task:
    """One deal to classify: a number, or a board text, under an id."""

    deal: int | str
    number: int | None = None
    text: str | None = None


class DealRanges(Sequence[Task]):
    """Deal numbers from ranges like ``1-10,20-30``: each number once, in increasing order.

    The ranges are merged, not expanded, so ``1-5000000`` is two integers until iterated.

    >>> ranges = DealRanges([(1, 5), (3, 4), (9, 9)])
    >>> len(ranges), [t.deal for t in ranges], 4 in ranges, 7 in ranges
    (6, [1, 2, 3, 4, 5, 9], True, False)
    """

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        self.spans = merged
        self._starts = [first for first, _ in merged]
        self._offsets = [0]
        for first, last in merged:
            self._offsets.append(self._offsets[-1] + last - first + 1)

    def __len__(self) -> int:
        return self._offsets[-1]

    def __iter__(self) -> Iterator[Task]:
        for first, last in self.spans:
            for number in range(first, last + 1):
                yield Task(number, number=number)

    def __getitem__(self, index: int) -> Task:  # type: ignore[override]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        span = bisect.bisect_right(self._offsets, index) - 1
        number = self.spans[span][0] + index - self._offsets[span]
        return Task(number, number=number)

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int) or isinstance(deal, bool):
            return False
        span = bisect.bisect_right(self._starts, deal) - 1
        return span >= 0 and deal <= self.spans[span][1]

    @property
    def numbers(self) -> tuple[int, int]:
        """The smallest and largest deal number."""
        return self.spans[0][0], self.spans[-1][1]


class TaskList(list[Task]):
    """The tasks of a file, in its order; ``in`` looks up a deal id."""

    def __init__(self, tasks: Iterable[Task]) -> None:
        super().__init__(tasks)
        self._ids = {task.deal for task in self}

    def __contains__(self, deal: object) -> bool:
        return deal in self._ids

    @property
    def numbers(self) -> tuple[int, int] | None:
        """The smallest and largest deal number among the tasks, None if none is numbered."""
        found = [task.number for task in self if task.number is not None]
        return (min(found), max(found)) if found else None


@dataclass
class Summary:
    """Counts by status and the win rate with its Wilson 95% interval; for a scored game,
    the distribution of the scores too."""

    counts: Counter[str] = field(default_factory=Counter)
    scores: Counter[int] = field(default_factory=Counter)     # score -> deals (scored games)
    proven: int = 0                     # scores proven best (won or lost), among `scores`

    def add(self, status: str, score: int | None = None) -> None:
        self.counts[status] += 1
        if score is not None:
            self.scores[score] += 1
            self.proven += status != "unknown"

    def score_summary(self) -> ScoreSummary | None:
        """Return the distribution of the scores, None when no record carried one."""
        return ScoreSummary.of(self.scores) if self.scores else None

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def win_rate(self) -> tuple[float, float, float]:
        """Return (rate, low, high) of won among decided deals (Wilson score, 95%)."""
        won, lost = self.counts["won"], self.counts["lost"]
        return wilson(won, won + lost)


@dataclass(frozen=True)
class ScoreSummary:
    """A scored game's scores over many deals: their mean and quantiles.

    Quantiles are scores deals had (the lower one where two are in the middle); an
    unknown verdict counts with the best score found, so the distribution is exact only
    when every deal was decided (the summary says how many were).
    """

    count: int
    mean: float
    quantiles: tuple[int, int, int, int, int]    # min, 25%, median, 75%, max

    @classmethod
    def of(cls, scores: Counter[int]) -> "ScoreSummary":
        """Return the summary of `scores` (score -> deals), which must not be empty.

        >>> s = ScoreSummary.of(Counter({0: 3, -2: 1}))
        >>> s.count, s.mean, s.quantiles
        (4, -0.5, (-2, -2, 0, 0, 0))
        """
        ordered = sorted(scores.elements())
        count = len(ordered)

        def at(share: float) -> int:
            return ordered[max(0, math.ceil(share * count) - 1)]
        quantiles = (ordered[0], at(0.25), at(0.5), at(0.75), ordered[-1])
        return cls(count, sum(ordered) / count, quantiles)


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


def read_source(source: str) -> DealRanges | TaskList:
    """Return the tasks a source names: a range of deal numbers or a file of deals."""
    path = Path(source)
    if path.is_file():
        return _read_file(path)
    if path.is_dir():
        raise SolitaireError(f"{quote(source, 60)} is a directory, not a file of deals")
    parts = source.split(",")
    if not all(_RANGE.fullmatch(p) for p in parts):
        raise SolitaireError(f"{quote(source, 60)} is neither a deal range (like 1-1000) nor a file")
    spans = []
    for part in parts:
        found = _RANGE.fullmatch(part)
        assert found
        first = int(found.group(1))
        last = int(found.group(2)) if found.group(2) else first
        if last < first:
            raise SolitaireError(f"deal range {quote(part.strip(), 40)} is empty: "
                                 "it ends before it starts")
        spans.append((first, last))
    return DealRanges(spans)


def _read_file(path: Path) -> TaskList:
    text = read_text(path, MAX_SOURCE_BYTES, "a file of deals")
    if not text.strip():
        raise SolitaireError(f"{path}: the file is empty")
    if text.lstrip().startswith("{"):
        return TaskList(_read_json_lines(path, text))
    blocks = re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip())
    tasks = []
    for i, block in enumerate(blocks, 1):
        if len(block) > MAX_BOARD_BYTES:
            raise SolitaireError(f"{path}, deal {i}: {len(block):,} characters, "
                                 f"more than any deal ({MAX_BOARD_BYTES:,} at most)")
        tasks.append(Task(f"{path.name}#{i}", text=block))
    return TaskList(tasks)


def _read_json_lines(path: Path, text: str) -> list[Task]:
    tasks: list[Task] = []
    seen: dict[int | str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise SolitaireError(f"{where}: not a JSON object") from None
        if not isinstance(item, dict) or not ("deal" in item or "board" in item):
            raise SolitaireError(f"{where}: needs a \"deal\" number or a \"board\" text")
        deal = item.get("deal")
        if "board" in item:
            if not isinstance(item["board"], str):
                raise SolitaireError(f"{where}: \"board\" must be a text")
            if len(item["board"]) > MAX_BOARD_BYTES:
                raise SolitaireError(f"{where}: the board is longer than any deal")
            ident = item.get("id", f"{path.name}:{number}")
            task = Task(_deal_id(ident, where), text=item["board"])
        elif isinstance(deal, int) and not isinstance(deal, bool):
            task = Task(_deal_id(item.get("id", deal), where), number=deal)
        else:
            raise SolitaireError(f"{where}: \"deal\" must be a whole number, not {quote(json.dumps(deal), 20)}")
        if task.deal in seen:
            raise SolitaireError(f"{where}: deal {quote(str(task.deal), 30)} "
                                 f"repeats line {seen[task.deal]}")
        seen[task.deal] = number
        tasks.append(task)
    return tasks


def _deal_id(ident: Any, where: str) -> int | str:
    if isinstance(ident, bool) or not isinstance(ident, (int, str)):
        raise SolitaireError(f"{where}: \"id\" must be a text or a whole number")
    if isinstance(ident, str) and len(ident) > 200:
        raise SolitaireError(f"{where}: \"id\" is longer than 200 characters")
    return ident


def read_text(path: Path, limit: int, what: str) -> str:
    """Return a file's UTF-8 text (a BOM dropped); one-line errors for a user's file.

    Files over `limit` bytes are refused before they are read, so a wrong file (a log,
    a binary) cannot fill memory or an error message.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise SolitaireError(f"cannot read {quote(str(path), 80)}: "
                             f"{error.strerror or error}") from None
    if len(data) > limit:
        raise SolitaireError(f"{quote(str(path), 80)} is larger than {what} can be "
                             f"({_size(limit)} at most)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SolitaireError(f"{quote(str(path), 80)} is not UTF-8 text "
                             f"(byte {error.start + 1} is 0x{data[error.start]:02x})") from None


def _size(count: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):g} {unit}"
    return f"{count} bytes"


def check_tasks(game: Game[Any, Any], tasks: DealRanges | TaskList) -> None:
    """Raise a SolitaireError for the first deal that is not one of the game's.

    Boards are parsed; deal numbers are checked at the smallest and largest, since every
    game's numbered deals run from a first to a last number.
    """
    numbers = tasks.numbers
    if numbers is not None:
        for number in numbers:
            try:
                game.deal(number)
            except ValueError as error:
                raise SolitaireError(f"deal {number}: {error}") from None
    if isinstance(tasks, TaskList):
        for task in tasks:
            if task.text is not None:
                try:
                    game.parse(task.text)
                except SolitaireError as error:
                    raise SolitaireError(f"deal {task.deal}: {error}") from None


# -- results files ------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """What a results file holds: whatever changes the verdicts it records."""

    game: str
    variant: dict[str, Any]
    strategy: str
    budget: dict[str, Any]

    @classmethod
    def of(cls, game: Game[Any, Any], strategy: str, budget: Budget) -> "Settings":
        from solver.app.record import budget_record, variant_of

        return cls(game.name, json.loads(json.dumps(variant_of(game))), strategy,
                   budget_record(budget))

    def differences(self, verdict: Verdict) -> list[str]:
        """Return how a record's settings differ from these, as phrases ([] if alike).

        The memory budget is not compared: it depends on ``--jobs`` and the machine, and
        a deal that ran out of it says so (``stopped_by``).
        """
        if verdict.game != self.game:
            return [f"game {quote(verdict.game, 30)}, not {self.game}"]
        found: list[str] = []
        variant = verdict.variant
        for option in sorted(set(variant) | set(self.variant)):
            if variant.get(option) != self.variant.get(option):
                found.append(f"{option}={_show(variant.get(option))}, "
                             f"not {option}={_show(self.variant.get(option))}")
        if verdict.strategy != self.strategy:
            found.append(f"strategy {quote(verdict.strategy, 30)}, not {self.strategy}")
        budget = verdict.budget
        if budget is not None:
            for name in ("max_states", "seconds", "cpu"):
                if budget.get(name) != self.budget.get(name):
                    found.append(f"{name.replace('_', '-')} {_show(budget.get(name))}, "
                                 f"not {_show(self.budget.get(name))}")
        return found


def _show(value: Any) -> str:
    return "none" if value is None else quote(str(value), 20).strip("'")


@dataclass
class Scan:
    """What a results file holds: the deal ids done, and a torn last line, if any."""

    done: set[Any] = field(default_factory=set)
    torn_at: int | None = None          # byte offset of an incomplete last line
    torn_line: int | None = None        # its line number
    size: int = 0


def scan_results(out: Path, settings: Settings | None = None) -> Scan:
    """Read a results file; raise a one-line SolitaireError for any line that is wrong.

    A last line with no newline that is not a whole record is what a killed run leaves:
    it is reported as torn (``repair`` sets it aside), not as an error. Any other bad
    line, a record of other settings, or a record without a verdict is an error naming
    its line.
    """
    scan = Scan()
    if not out.exists():
        return scan
    data = _read_results(out)
    scan.size = len(data)
    offset = 0
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        last = number == len(lines)
        start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        item = _record(raw)
        if item is None:
            if last:                      # no newline after it: a write cut short
                scan.torn_at, scan.torn_line = start, number
                break
            raise SolitaireError(f"{out}, line {number}: not a complete result line; "
                                 "remove or repair that line, then resume")
        try:
            verdict = Verdict.from_json(item)
        except SolitaireError as error:
            raise SolitaireError(f"{out}, line {number}: {error}") from None
        if settings is not None:
            differences = settings.differences(verdict)
            if differences:
                raise SolitaireError(f"{out} holds other results (line {number}: "
                                     f"{'; '.join(differences[:3])}): choose another --out")
        scan.done.add(verdict.deal)
    return scan


def _read_results(out: Path) -> bytes:
    if out.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
    try:
        return out.read_bytes()
    except OSError as error:
        raise SolitaireError(f"cannot read {quote(str(out), 80)}: {error.strerror}") from None


def _record(raw: bytes) -> dict[str, Any] | None:
    try:
        item = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return item if isinstance(item, dict) else None


def repair(out: Path, scan: Scan) -> Path | None:
    """Move a torn last line into ``<out>.torn`` and cut it from `out`; return that file.

    The torn text is kept (appended, never overwritten) so nothing is lost; its deal
    is then redone.
    """
    if scan.torn_at is None:
        return None
    aside = out.with_name(out.name + ".torn")
    with out.open("rb+") as handle:
        handle.seek(scan.torn_at)
        torn = handle.read()
        with aside.open("ab") as keep:
            keep.write(torn + b"\n")
            keep.flush()
            os.fsync(keep.fileno())
        handle.truncate(scan.torn_at)
    return aside


def check_output(out: Path) -> None:
    """Raise a one-line SolitaireError unless results can be appended to `out`."""
    if out.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)}: folder "
                             f"{quote(str(folder), 80)} does not exist")
    try:
        with out.open("ab"):
            pass
    except OSError as error:
        raise SolitaireError(f"cannot write {quote(str(out), 80)}: "
                             f"{error.strerror or error}") from None


# -- running ----------------------------------------------------------------------------

class Plan:
    """A checked batch run: every input validated, the output open, ready to ``run``.

    Building it does all the checks before any deal is searched (a bad deal number,
    board, strategy, output path, or a results file of other settings), so a mistake
    costs nothing and writes nothing.
    """

    def __init__(self, game: Game[Any, Any], tasks: DealRanges | TaskList, out: Path, *,
                 strategy: str | None = None, budget: Budget = Budget(), jobs: int = 1,
                 resume: bool = False) -> None:
        from solver.app.analyze import default_strategy

        self.game, self.tasks, self.out, self.budget, self.jobs = game, tasks, out, budget, jobs
        self.strategy = default_strategy(game, strategy)
        find_strategy(self.strategy)                      # a bad name fails before work
        check_strategy_budget(self.strategy, budget)
        check_tasks(game, tasks)
        if out.is_dir():
            raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
        self.settings = Settings.of(game, self.strategy, budget)
        if out.exists() and out.stat().st_size and not resume:
            raise SolitaireError(f"{out} already holds results: pass --resume to continue it, "
                                 "or choose another --out")
        self.scan = scan_results(out, self.settings) if resume else Scan()
        check_output(out)
        self.total = len(tasks) - sum(1 for deal in self.scan.done if deal in tasks)
        self.torn: Path | None = None

    def run(self) -> Iterator[Verdict]:
        """Classify the deals not yet done, yielding each record once it is written."""
        self.torn = repair(self.out, self.scan)
        done = self.scan.done
        todo = (task for task in self.tasks if task.deal not in done)
        with self.out.open("a", encoding="utf-8") as sink:
            if self.out.stat().st_size and not _ends_with_newline(self.out):
                sink.write("\n")
            work = _Worker(self.game, self.strategy, self.budget)
            if self.jobs <= 1:
                yield from _write_each(map(work, todo), sink)
            else:
                yield from _write_each(_pooled(work, todo, self.jobs), sink)


def check_strategy_budget(strategy: str, budget: Budget) -> None:
    """Refuse a state budget for a strategy that stores no positions (CP-SAT)."""
    if strategy == "cpsat" and budget.max_states is not None:
        raise SolitaireError("cpsat stores no positions, so --max-states cannot limit it; "
                             "give it --seconds (and --memory)")


def classify(game: Game[Any, Any], tasks: DealRanges | TaskList, out: Path, *,
             strategy: str | None = None, budget: Budget = Budget(), jobs: int = 1,
             resume: bool = False) -> Iterator[Verdict]:
    """Classify `tasks` into `out`, yielding each record as it is written (see ``Plan``)."""
    return Plan(game, tasks, out, strategy=strategy, budget=budget, jobs=jobs,
                resume=resume).run()


def summarize(out: Path, tasks: DealRanges | TaskList | None = None) -> Summary:
    """Return the summary of the results file (only the given tasks' deals, if any)."""
    summary = Summary()
    seen: set[Any] = set()
    with out.open(encoding="utf-8") as lines:
        for line in lines:
            item = _record(line.encode()) if line.strip() else None
            try:
                verdict = Verdict.from_json(item)
            except SolitaireError:
                continue
            # `in` asks for a deal id (__contains__), though iterating gives Tasks.
            if (tasks is None or verdict.deal in tasks  # type: ignore[comparison-overlap]
                    ) and verdict.deal not in seen:
                seen.add(verdict.deal)
                summary.add(verdict.status.value, verdict.score)
    return summary


class _Worker:
    """Solves one task; picklable, so pool workers get the game itself.

    A game travels as its class and variant fields and is built again in the worker,
    so that lookup tables it made for itself (possibly compiled objects) never need
    pickling.
    """

    def __init__(self, game: Game[Any, Any], strategy: str, budget: Budget) -> None:
        self.game, self.strategy, self.budget = game, strategy, budget

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.asdict(self.game)  # type: ignore[call-overload]
        return _rebuilt_worker, (type(self.game), fields, self.strategy, self.budget)

    def __call__(self, task: Task) -> Verdict:
        from solver.app.analyze import solve

        game = self.game
        state = game.deal(task.number) if task.number is not None else game.parse(task.text or "")
        result = solve(game, state, self.strategy, self.budget)
        return Verdict.of(game, task.deal, result, self.budget, self.strategy)


def _rebuilt_worker(kind: Any, fields: dict[str, Any], strategy: str, budget: Budget) -> _Worker:
    return _Worker(kind(**fields), strategy, budget)


def _quiet_worker() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them (no tracebacks), and end
    quietly when it terminates them (SIGTERM's default, not the command line's handler)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _pooled(work: _Worker, todo: Iterator[Task], jobs: int) -> Iterator[Verdict]:
    """Yield results as workers finish, keeping only a few tasks in flight at a time."""
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    finished: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    pool = context.Pool(jobs, initializer=_quiet_worker)
    try:
        in_flight = 0
        for task in todo:
            pool.apply_async(work, (task,), callback=lambda r: finished.put((True, r)),
                             error_callback=lambda e: finished.put((False, e)))
            in_flight += 1
            while in_flight >= 2 * jobs:
                yield _take(finished)
                in_flight -= 1
        while in_flight:
            yield _take(finished)
            in_flight -= 1
    finally:
        pool.terminate()
        pool.join()


def _take(finished: queue.SimpleQueue[tuple[bool, Any]]) -> Verdict:
    ok, value = finished.get()
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def _write_each(results: Iterator[Verdict], sink: Any) -> Iterator[Verdict]:
    for item in results:
        sink.write(json.dumps(item.to_json()) + "\n")
        sink.flush()
        yield item


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


__all__ = ["Task", "DealRanges", "TaskList", "Summary", "ScoreSummary", "Settings", "Plan", "wilson",
           "read_source", "read_text", "check_tasks", "scan_results", "repair", "classify",
           "summarize", "Status"]
