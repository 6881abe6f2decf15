"""Batch classification: many deals, one JSON line each, resumable, with a summary.

A run appends one line per deal to its output as soon as that deal is decided, so a
killed run loses at most the deals in flight; ``resume`` skips the deals already in the
output. Deals come from a range of numbers (``1-32000``, also ``1-10,20-30``; each deal
once however the ranges overlap, read lazily so a range of millions costs nothing up
front; numbers up to 2^63-1), a text file of deals separated by blank lines, or JSON
lines (``{"deal": 17}`` or ``{"id": "x", "board": "..."}``).

With ``jobs`` above 1 each deal is solved in a worker process of its own slot, which
holds one deal at a time, so that the run knows which deal a worker held when it died.
A worker that dies (killed by the OOM killer, a crash in compiled code) is replaced at
once and its deal retried once in the fresh worker; a deal that kills its worker twice
is recorded ``unknown`` with ``"stopped_by": "crash"``, and the run goes on. An
exception while solving one deal (a bug in a game) is recorded ``unknown`` with
``"stopped_by": "error"`` and an ``"error"`` line naming it; the run goes on and counts
them (``Plan.errors``, ``Summary.errors``). Neither is ever a verdict.

A results file has one writer: a run holds an exclusive lock on ``<out>.lock`` (which
names the holder's process and start time; the system drops the lock if the process
dies; the file is removed at the end), and a second run on the same file is refused
before it does anything. Before each line is written the run checks that the file is
still the one it opened, at the size it left it: a file replaced (an editor saving it),
truncated or appended to by another program stops the run with an ``OutputError``, as
does a write that fails (a full disk), after cutting a half-written line back off.

A results file says what it holds: every record names its game, variant, strategy and
budget, and a resumed run with other settings is refused, naming the difference, since
its verdicts would not be comparable. Resuming checks every record it reads
(``Verdict.from_json``) and replays each ``won`` record's moves from its deal through
the rules, so an edited record is refused, naming its line. An interrupt (Ctrl-C, or
SIGTERM to the run) is never a verdict: the deals in flight are not written, the
workers are stopped, and the run ends with KeyboardInterrupt.
"""
from __future__ import annotations

import bisect
import contextlib
import dataclasses
import errno
import fcntl
import json
import math
import multiprocessing
import os
import re
import signal
import stat
import sys
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Generator, Iterable, Iterator, Sequence

from solver.game import Game, SolitaireError, Status, quote
from solver.app.record import Verdict, budget_record, variant_of
from solver.search import Budget, find_strategy

MAX_BOARD_BYTES = 64 << 10          # far above any deal's text (a few hundred bytes)
MAX_SOURCE_BYTES = 1 << 30          # a file of deals read whole; larger files are refused
MAX_DEAL_NUMBER = (1 << 63) - 1     # a batch's deal numbers fit a signed 64-bit integer
CRASH_RETRIES = 1                   # a deal that kills its worker is tried once more
SHOWN_MISSING = 5                   # deal ids a summary names among those without a record


class OutputError(SolitaireError):
    """The results file cannot be written, or changed under the run: the run stops."""


class Terminated(KeyboardInterrupt):
    """SIGTERM stopped the run: it unwinds as Ctrl-C does (files closed, workers stopped,
    nothing half-written), and a caller can still tell the two apart."""


@dataclass(frozen=True)
class Task:
    """One deal to classify: a number, or a board text, under an id."""

    deal: int | str
    number: int | None = None
    text: str | None = None


class DealRanges(Sequence[Task]):
    """Deal numbers from ranges like ``1-10,20-30``: each number once, in increasing order.

    The ranges are merged, not expanded, so ``1-5000000`` is two integers until iterated.
    Numbers run from 0 to MAX_DEAL_NUMBER (2^63-1), so that ``size`` (and ``len``)
    always fits a machine integer; a larger one is refused.

    >>> ranges = DealRanges([(1, 5), (3, 4), (9, 9)])
    >>> ranges.size, [t.deal for t in ranges], 4 in ranges, 7 in ranges
    (6, [1, 2, 3, 4, 5, 9], True, False)
    """

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for first, last in sorted(spans):
            if merged and first <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        if merged and (merged[0][0] < 0 or merged[-1][1] > MAX_DEAL_NUMBER):
            wrong = merged[0][0] if merged[0][0] < 0 else merged[-1][1]
            raise SolitaireError(f"deal {wrong} is beyond the deal numbers a batch takes "
                                 f"(0 to 2^63-1 = {MAX_DEAL_NUMBER})")
        self.spans = merged
        self._starts = [first for first, _ in merged]
        self._offsets = [0]
        for first, last in merged:
            self._offsets.append(self._offsets[-1] + last - first + 1)

    @property
    def size(self) -> int:
        """The number of deals (what ``len`` gives; it fits a machine integer)."""
        return self._offsets[-1]

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Task]:
        for first, last in self.spans:
            for number in range(first, last + 1):
                yield Task(number, number=number)

    def __getitem__(self, index: int) -> Task:  # type: ignore[override]
        if not -self.size <= index < self.size:
            raise IndexError(index)
        index %= self.size
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

    def find(self, deal: Any) -> Task | None:
        """Return the task of deal id `deal`, None if it is not among these."""
        return Task(deal, number=deal) if deal in self else None


class TaskList(list[Task]):
    """The tasks of a file, in its order; ``in`` looks up a deal id."""

    def __init__(self, tasks: Iterable[Task]) -> None:
        super().__init__(tasks)
        self._ids = {task.deal: task for task in self}

    def __contains__(self, deal: object) -> bool:
        return deal in self._ids

    @property
    def size(self) -> int:
        """The number of deals."""
        return len(self)

    def find(self, deal: Any) -> Task | None:
        """Return the task of deal id `deal`, None if it is not among these."""
        return self._ids.get(deal)

    @property
    def numbers(self) -> tuple[int, int] | None:
        """The smallest and largest deal number among the tasks, None if none is numbered."""
        found = [task.number for task in self if task.number is not None]
        return (min(found), max(found)) if found else None


@dataclass
class Summary:
    """Counts by status and the win rate with its Wilson 95% interval; for a scored game,
    the distribution of the scores too.

    Every deal asked for is counted: those without a record in the file (a run stopped
    early, a line someone removed or spoiled) as `missing`, the first few named in
    `missing_ids`; `total` includes them. `stopped` counts the unknown verdicts by what
    stopped them: ``error`` (an exception while solving) and ``crash`` (the deal killed
    its worker twice) are failures of the program, not budgets run out.
    """

    counts: Counter[str] = field(default_factory=Counter)
    scores: Counter[int] = field(default_factory=Counter)     # score -> deals (scored games)
    proven: int = 0                     # scores proven best (won or lost), among `scores`
    stopped: Counter[str] = field(default_factory=Counter)    # unknown verdicts by stopped_by
    missing: int = 0                    # deals asked for with no record
    missing_ids: list[int | str] = field(default_factory=list)   # the first few of them

    def add(self, status: str, score: int | None = None, stopped_by: str = "") -> None:
        self.counts[status] += 1
        if status == "unknown":
            self.stopped[stopped_by] += 1
        if score is not None:
            self.scores[score] += 1
            self.proven += status != "unknown"

    @property
    def recorded(self) -> int:
        """The deals with a record."""
        return sum(self.counts.values())

    @property
    def errors(self) -> int:
        """The deals whose search raised an exception (recorded unknown, not a verdict)."""
        return self.stopped["error"]

    @property
    def crashes(self) -> int:
        """The deals that killed their worker process twice (recorded unknown)."""
        return self.stopped["crash"]

    def score_summary(self) -> ScoreSummary | None:
        """Return the distribution of the scores, None when no record carried one."""
        return ScoreSummary.of(self.scores) if self.scores else None

    @property
    def total(self) -> int:
        """Every deal asked for: those with a record and those without."""
        return self.recorded + self.missing

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
    game's numbered deals run from a first to a last number (and a batch's at most to
    2^63-1).
    """
    numbers = tasks.numbers
    if numbers is not None:
        for number in numbers:
            if not 0 <= number <= MAX_DEAL_NUMBER:
                raise SolitaireError(f"deal {number} is beyond the deal numbers a batch takes "
                                     f"(0 to 2^63-1 = {MAX_DEAL_NUMBER})")
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


def scan_results(out: Path, settings: Settings | None = None, *,
                 game: Game[Any, Any] | None = None,
                 tasks: DealRanges | TaskList | None = None) -> Scan:
    """Read a results file; raise a one-line SolitaireError for any line that is wrong.

    A last line with no newline that is not a whole record is what a killed run leaves:
    it is reported as torn (``repair`` sets it aside), not as an error. Any other bad
    line, a record of other settings, or a record that is not a verdict
    (``Verdict.from_json``) is an error naming its line. Given the `game` and the
    `tasks` of the run, each record of one of those deals that carries moves (every
    ``won`` one) is replayed from its deal through the game's rules, once: moves that
    are illegal, or a ``won`` record whose moves do not win, are refused too.

    Only a regular file is read: a device (``/dev/null``) holds no results.
    """
    scan = Scan()
    if not out.exists() or not _regular(out):
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
            verdict = Verdict.from_json(item, game)
        except SolitaireError as error:
            raise SolitaireError(f"{out}, line {number}: {error}") from None
        if settings is not None:
            differences = settings.differences(verdict)
            if differences:
                raise SolitaireError(f"{out} holds other results (line {number}: "
                                     f"{'; '.join(differences[:3])}): choose another --out")
            if verdict.budget is None:
                raise SolitaireError(f"{out}, line {number}: no budget recorded, and a resumed "
                                     "run must have the same: choose another --out")
        check = verdict.moves or verdict.status is Status.WON
        task = tasks.find(verdict.deal) if tasks is not None and check else None
        if game is not None and task is not None:
            try:
                verdict.replay_check(game, _start(game, task))
            except SolitaireError as error:
                deal = verdict.deal if isinstance(verdict.deal, int) else quote(verdict.deal, 30)
                raise SolitaireError(f"{out}, line {number} (deal {deal}): "
                                     f"{error}; remove that line to do the deal again") from None
        scan.done.add(verdict.deal)
    return scan


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _start(game: Game[Any, Any], task: Task) -> Any:
    """Return the first position of a task's deal."""
    if task.number is not None:
        return game.deal(task.number)
    return game.parse(task.text or "")


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


# -- one writer per results file ----------------------------------------------------------

class ResultsLock:
    """An exclusive lock on a results file, held for a whole run.

    The lock is ``fcntl.flock`` on ``<out>.lock``, which holds the holder's process id
    and start time for the message a second run gets; the system drops it when the
    process ends, however it ends, and ``release`` removes the file. A device (or a file
    whose folder takes no new file) is locked itself, without the note of who holds it.
    A second lock on the same results is refused at once with a SolitaireError naming
    the holder, before anything is read or written.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path: Path | None = out.with_name(out.name + ".lock")
        self.fd = -1
        if out.exists() and not _regular(out):
            self.path = None
        for _ in range(10):
            if self._try():
                return
        raise SolitaireError(f"cannot lock {quote(str(out), 80)}: its lock file keeps changing")

    def _try(self) -> bool:
        """Take the lock (True), find the lock file gone under us (False), or raise."""
        target = self.path if self.path is not None else self.out
        flags = os.O_RDWR if self.path is not None else os.O_WRONLY | os.O_APPEND
        try:
            fd = os.open(target, flags | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            if self.path is not None and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                self.path = None                 # a folder that takes no new file
                return False
            raise SolitaireError(f"cannot lock {quote(str(target), 80)}: "
                                 f"{error.strerror or error}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd) if self.path is not None else ""
            os.close(fd)
            raise SolitaireError(f"{quote(str(self.out), 80)} is being written by another run "
                                 f"({holder or 'its lock is held'}): wait for it to end, "
                                 "or choose another --out") from None
        if self.path is not None:
            # A run ending removes its lock file: make sure ours is the one at the path.
            try:
                now, held = os.stat(self.path), os.fstat(fd)
                same = (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
            except OSError:
                same = False
            if not same:
                os.close(fd)
                return False
            note = (f"pid {os.getpid()}, started "
                    f"{time.strftime('%Y-%m-%d %H:%M:%S %Z', time.localtime())}\n").encode()
            try:
                os.ftruncate(fd, 0)
                os.pwrite(fd, note, 0)
            except OSError:
                pass                             # the lock holds without its note
        self.fd = fd
        return True

    def release(self) -> None:
        """Remove the lock file and drop the lock (again: nothing)."""
        if self.fd < 0:
            return
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self.fd)
        self.fd = -1


def _holder(fd: int) -> str:
    try:
        note = os.pread(fd, 200, 0).decode("utf-8", "replace")
    except OSError:
        return ""
    return " ".join(note.split())[:100]


class _Sink:
    """The results file, open for appending, that notices another writer.

    Before each write it checks that the path still names the file it opened (an editor
    saving a file writes a new one in its place) and, for a regular file, that its size
    is what this run left (no one truncated it or appended to it). A write that fails
    part-way is cut back off, so the file ends with a whole record.
    """

    def __init__(self, out: Path) -> None:
        self.out = out
        try:
            self.fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC,
                              0o666)
        except OSError as error:
            raise OutputError(f"cannot write {quote(str(out), 80)}: "
                              f"{error.strerror or error}") from None
        opened = os.fstat(self.fd)
        self.ident = opened.st_dev, opened.st_ino
        self.regular = stat.S_ISREG(opened.st_mode)
        self.size = opened.st_size

    def check(self) -> None:
        """Raise OutputError if the file was replaced, removed, truncated or appended to."""
        name = quote(str(self.out), 80)
        advice = ("the run stops rather than write where no one reads; check the file, "
                  "then rerun with --resume")
        try:
            now = os.stat(self.out)
        except FileNotFoundError:
            raise OutputError(f"{name} was removed during the run: {advice}") from None
        except OSError as error:
            raise OutputError(f"cannot check {name}: {error.strerror or error}") from None
        if (now.st_dev, now.st_ino) != self.ident:
            raise OutputError(f"{name} was replaced by another file during the run (an "
                              f"editor saving it?): {advice}")
        if not self.regular:
            return
        size = os.fstat(self.fd).st_size
        if size < self.size:
            raise OutputError(f"{name} was cut to {size:,} bytes during the run, from "
                              f"{self.size:,}: {advice}")
        if size > self.size:
            raise OutputError(f"{name} grew by {size - self.size:,} bytes this run did not "
                              f"write (another program writes it): {advice}")

    def write(self, data: bytes) -> None:
        """Append `data` whole, or raise OutputError with the file as it was."""
        self.check()
        written = 0
        try:
            while written < len(data):
                step = os.write(self.fd, data[written:])
                if step <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                written += step
        except OSError as error:
            if written and self.regular:
                # Cut the half line off; should that fail too, ``--resume`` sets the
                # torn last line aside, as it does after a killed run.
                with contextlib.suppress(OSError):
                    os.ftruncate(self.fd, self.size)
            raise OutputError(f"cannot write {quote(str(self.out), 80)}: "
                              f"{error.strerror or error}; the results before it are kept "
                              "(rerun with --resume once it can be written)") from None
        self.size += written

    def close(self) -> None:
        os.close(self.fd)


# -- running ----------------------------------------------------------------------------

class Plan:
    """A checked batch run: every input validated, the output locked, ready to ``run``.

    Building it does all the checks before any deal is searched (a bad deal number,
    board, strategy, output path, a results file of other settings or with a record
    that is not a verdict, a results file another run holds), so a mistake costs
    nothing and writes nothing. The lock it takes is released when ``run`` ends, or by
    ``close``. After the run, `errors` and `crashes` count the deals of this run
    recorded unknown because their search raised or killed its worker.
    """

    def __init__(self, game: Game[Any, Any], tasks: DealRanges | TaskList, out: Path, *,
                 strategy: str | None = None, budget: Budget = Budget(), jobs: int = 1,
                 resume: bool = False) -> None:
        from solver.app.analyze import default_strategy

        self.lock: ResultsLock | None = None
        self.game, self.tasks, self.out, self.budget, self.jobs = game, tasks, out, budget, jobs
        self.strategy = default_strategy(game, strategy)
        find_strategy(self.strategy)                      # a bad name fails before work
        check_strategy_budget(self.strategy, budget)
        check_tasks(game, tasks)
        if out.is_dir():
            raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
        self.settings = Settings.of(game, self.strategy, budget)
        if out.exists() and _regular(out) and out.stat().st_size and not resume:
            raise SolitaireError(f"{out} already holds results: pass --resume to continue it, "
                                 "or choose another --out")
        folder = out.parent if str(out.parent) else Path(".")
        if not folder.is_dir():
            raise SolitaireError(f"--out {quote(str(out), 80)}: folder "
                                 f"{quote(str(folder), 80)} does not exist")
        self.lock = ResultsLock(out)
        try:
            self.scan = scan_results(out, self.settings, game=game, tasks=tasks) \
                if resume else Scan()
            check_output(out)
        except BaseException:
            self.close()
            raise
        self.total = tasks.size - sum(1 for deal in self.scan.done if deal in tasks)
        self.torn: Path | None = None
        self.errors = self.crashes = 0

    def close(self) -> None:
        """Release the results file's lock (once the run is over, or if it never runs)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def __del__(self) -> None:
        self.close()

    def run(self) -> Iterator[Verdict]:
        """Classify the deals not yet done, yielding each record once it is written."""
        try:
            with _sigterm_interrupts():
                self.torn = repair(self.out, self.scan)
                sink = _Sink(self.out)
                try:
                    if sink.size and sink.regular and not _ends_with_newline(self.out):
                        sink.write(b"\n")
                    done = self.scan.done
                    todo = (task for task in self.tasks if task.deal not in done)
                    work = _Worker(self.game, self.strategy, self.budget)
                    results = (_in_process(work, todo) if self.jobs <= 1
                               else _pooled(work, todo, self.jobs))
                    try:
                        for item in results:
                            sink.write((json.dumps(item.to_json()) + "\n").encode())
                            self.errors += item.stopped_by == "error"
                            self.crashes += item.stopped_by == "crash"
                            yield item
                    finally:
                        results.close()
                    sink.check()
                finally:
                    sink.close()
        finally:
            self.close()

    def summarize(self) -> Summary:
        """Return the summary of the results file over this run's deals."""
        return summarize(self.out, self.tasks, self.game)


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


def summarize(out: Path, tasks: DealRanges | TaskList | None = None,
              game: Game[Any, Any] | None = None) -> Summary:
    """Return the summary of the results file (only the given tasks' deals, if any).

    Lines are read as ``Verdict.from_json`` reads them (`game` tells it whether the game
    is scored); a line that is not a record is skipped, so its deal counts as without a
    record. Given `tasks`, every one of them is counted: those without a record as
    ``missing``, the first few named.
    """
    summary = Summary()
    seen: set[Any] = set()
    if _regular(out):
        with out.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                item = _record(line.encode()) if line.strip() else None
                try:
                    verdict = Verdict.from_json(item, game)
                except SolitaireError:
                    continue
                # `in` asks for a deal id (__contains__), though iterating gives Tasks.
                if (tasks is None or verdict.deal in tasks  # type: ignore[comparison-overlap]
                        ) and verdict.deal not in seen:
                    seen.add(verdict.deal)
                    summary.add(verdict.status.value, verdict.score, verdict.stopped_by)
    if tasks is not None:
        summary.missing = tasks.size - len(seen)
        if summary.missing:
            for task in tasks:               # stops after the first few missing
                if task.deal not in seen:
                    summary.missing_ids.append(task.deal)
                    if len(summary.missing_ids) == SHOWN_MISSING:
                        break
    return summary


# -- solving, in process or in workers ----------------------------------------------------

def solve_task(game: Game[Any, Any], task: Task, strategy: str, budget: Budget) -> Verdict:
    """Return the verdict on one task's deal."""
    from solver.app.analyze import solve

    result = solve(game, _start(game, task), strategy, budget)
    return Verdict.of(game, task.deal, result, budget, strategy)


class _Worker:
    """Solves one task; picklable, so worker processes get the game itself.

    A game travels as its class and variant fields and is built again in the worker,
    so that lookup tables it made for itself (possibly compiled objects) never need
    pickling. An exception while solving becomes an ``unknown`` record, stopped by
    ``error``, naming it; an interrupt is not caught.
    """

    def __init__(self, game: Game[Any, Any], strategy: str, budget: Budget) -> None:
        self.game, self.strategy, self.budget = game, strategy, budget

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.asdict(self.game)  # type: ignore[call-overload]
        return _rebuilt_worker, (type(self.game), fields, self.strategy, self.budget)

    def __call__(self, task: Task) -> Verdict:
        try:
            return solve_task(self.game, task, self.strategy, self.budget)
        except Exception as error:           # a bug in a game or a strategy: not a verdict
            return self.failed(task, "error", describe(error))

    def failed(self, task: Task, stopped_by: str, error: str) -> Verdict:
        """Return the record of a deal the program failed on: unknown, never a verdict."""
        game = self.game
        return Verdict(game=game.name, variant=variant_of(game), deal=task.deal,
                       status=Status.UNKNOWN, strategy=self.strategy,
                       budget=budget_record(self.budget), stopped_by=stopped_by,
                       extra={"error": error})


def describe(error: BaseException) -> str:
    """Return an exception as one bounded line: its type, message and where it was raised.

    >>> describe(ZeroDivisionError("division by zero")).split(" (")[0]
    'ZeroDivisionError: division by zero'
    """
    text = " ".join(f"{type(error).__name__}: {error}".split())
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        text += f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})"
    return text if len(text) <= 300 else text[:299] + "…"


def _rebuilt_worker(kind: Any, fields: dict[str, Any], strategy: str, budget: Budget) -> _Worker:
    return _Worker(kind(**fields), strategy, budget)


def _in_process(work: _Worker, todo: Iterator[Task]) -> Generator[Verdict, None, None]:
    for task in todo:
        yield work(task)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Make SIGTERM stop the run as Ctrl-C does (``Terminated``), while the block runs.

    A CP-SAT solve under way hears SIGTERM itself (``solver.cpsat.interruptible_solve``)
    and returns, so the exception follows at once. Outside the main thread no signal
    arrives: nothing is set.
    """
    def stop(signum: int, frame: Any) -> None:
        raise Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:                       # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@dataclass
class _Slot:
    """A worker process, its pipe, and the task it holds (None: idle)."""

    process: Any
    pipe: Connection
    task: Task | None = None


def _pooled(work: _Worker, todo: Iterator[Task], jobs: int) -> Generator[Verdict, None, None]:
    """Yield results as `jobs` worker processes finish them, one task per worker.

    Each worker has its own pipe, so the parent knows which deal each one holds, and
    the parent waits on the pipes and the processes' sentinels at once, so it sees a
    worker die the moment it does. A dead worker is replaced and its deal tried once
    more (CRASH_RETRIES), then recorded unknown, stopped by ``crash``. A worker killed
    by SIGTERM or SIGINT means the run is being stopped (a signal to the whole process
    group): KeyboardInterrupt, as for Ctrl-C. On any exit the workers are stopped.
    """
    fork = "fork" in multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if fork else "spawn")
    parent = os.getpid()
    slots: list[_Slot] = []
    again: deque[Task] = deque()             # tasks whose worker died, to try once more
    deaths: Counter[Any] = Counter()
    tasks = iter(todo)

    def start() -> _Slot:
        mine, theirs = context.Pipe()
        inherited = [slot.pipe for slot in slots] + [mine] if fork else []
        process = context.Process(target=_serve, args=(work, theirs, inherited, parent),
                                  daemon=True)
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        theirs.close()
        return _Slot(process, mine)

    def hand_out(slot: _Slot) -> None:
        task = again.popleft() if again else next(tasks, None)
        if task is None:
            return
        try:
            slot.pipe.send(task)
        except OSError:                      # the worker died idle: its sentinel tells
            again.appendleft(task)
            return
        slot.task = task

    try:
        for _ in range(jobs):
            slots.append(start())
        for slot in slots:
            hand_out(slot)
        while again or any(slot.task is not None for slot in slots):
            waits: list[Any] = [slot.pipe for slot in slots if slot.task is not None]
            ready = set(wait(waits + [slot.process.sentinel for slot in slots], timeout=1.0))
            for index, slot in enumerate(slots):
                result: Verdict | None = None
                dead = slot.process.sentinel in ready
                if slot.pipe in ready or (dead and slot.task is not None):
                    try:
                        if slot.pipe.poll():
                            result = slot.pipe.recv()
                        else:
                            dead = True
                    except (EOFError, OSError):
                        dead = True
                if result is not None:
                    slot.task = None
                    hand_out(slot)
                    yield result
                    continue
                if not dead:
                    continue
                slot.process.join(5)
                code = slot.process.exitcode
                if code == -signal.SIGTERM:
                    raise Terminated()               # stopped from outside, as the run is
                if code == -signal.SIGINT:
                    raise KeyboardInterrupt
                slot.pipe.close()
                lost, slots[index] = slot.task, start()
                if lost is not None:
                    deaths[lost.deal] += 1
                    if deaths[lost.deal] > CRASH_RETRIES:
                        crash = work.failed(lost, "crash", f"its worker process {_death(code)}, "
                                                           f"{deaths[lost.deal]} times")
                        hand_out(slots[index])
                        yield crash
                        continue
                    again.append(lost)
                hand_out(slots[index])
    finally:
        _stop(slots)


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _death(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def _stop(slots: list[_Slot]) -> None:
    """Stop every worker (SIGTERM, then SIGKILL for one that lingers) and wait for it."""
    for slot in slots:
        if slot.process.is_alive():
            slot.process.terminate()
    deadline = time.monotonic() + 2.0
    for slot in slots:
        slot.process.join(max(0.0, deadline - time.monotonic()))
        if slot.process.is_alive():
            slot.process.kill()
            slot.process.join(1.0)
        slot.pipe.close()


def _serve(work: _Worker, pipe: Connection, inherited: list[Connection], parent: int) -> None:
    """A worker process: solve the tasks that come down `pipe` and send back each record.

    Ctrl-C is the parent's to handle; SIGTERM ends the worker at once and quietly (the
    parent stops its workers so). A worker whose parent has gone exits quietly: Linux
    sends it SIGTERM when the parent dies, and elsewhere the closed pipe ends it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    for other in inherited:                  # the parent's ends: the pipe must close with it
        other.close()
    _die_with_parent()
    if os.getppid() != parent:
        return
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):
            return
        verdict = work(task)
        try:
            pipe.send(verdict)
        except (BrokenPipeError, EOFError, OSError):
            return
        except Exception as error:           # a record that does not pickle: still a record
            pipe.send(work.failed(task, "error", describe(error)))


def _die_with_parent() -> None:
    """Ask Linux to send this process SIGTERM when its parent dies (elsewhere: nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


__all__ = ["Task", "DealRanges", "TaskList", "Summary", "ScoreSummary", "Settings", "Plan", "wilson",
           "read_source", "read_text", "check_tasks", "scan_results", "repair", "classify",
           "summarize", "solve_task", "describe", "OutputError", "Terminated", "ResultsLock",
           "Status"]
