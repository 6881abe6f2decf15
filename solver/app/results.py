"""Results files: one JSON line per deal, one writer, checked when read, summarised.

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
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import math
import os
import stat
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from solver.app.record import Verdict
from solver.app.sources import DealRanges, TaskList, start_position
from solver.game import Game, SolitaireError, Status, quote
from solver.search import Budget


SHOWN_MISSING = 5                   # deal ids a summary names among those without a record


class OutputError(SolitaireError):
    """The results file cannot be written, or changed under the run: the run stops."""


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
    if not out.exists() or not is_regular(out):
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
        item = read_record(raw)
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
                verdict.replay_check(game, start_position(game, task))
            except SolitaireError as error:
                deal = verdict.deal if isinstance(verdict.deal, int) else quote(verdict.deal, 30)
                raise SolitaireError(f"{out}, line {number} (deal {deal}): "
                                     f"{error}; remove that line to do the deal again") from None
        scan.done.add(verdict.deal)
    return scan


def is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _read_results(out: Path) -> bytes:
    if out.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
    try:
        return out.read_bytes()
    except OSError as error:
        raise SolitaireError(f"cannot read {quote(str(out), 80)}: {error.strerror}") from None


def read_record(raw: bytes) -> dict[str, Any] | None:
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


def check_out_place(out: Path) -> None:
    """Raise a one-line SolitaireError when `out` names a folder, or a file in a folder
    that does not exist."""
    if out.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)}: folder "
                             f"{quote(str(folder), 80)} does not exist")


def check_output(out: Path) -> None:
    """Raise a one-line SolitaireError unless results can be appended to `out`."""
    check_out_place(out)
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
        if out.exists() and not is_regular(out):
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


class Sink:
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
    for verdict in read_records(out, game):
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


def read_records(out: Path, game: Game[Any, Any] | None = None) -> Iterator[Verdict]:
    """Yield the records of a results file in order, as ``Verdict.from_json`` reads them
    (`game` tells it whether the game is scored); a line that is not one is skipped."""
    if not is_regular(out):
        return
    with out.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            item = read_record(line.encode()) if line.strip() else None
            try:
                yield Verdict.from_json(item, game)
            except SolitaireError:
                continue


def ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"
