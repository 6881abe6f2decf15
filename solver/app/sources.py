"""Deal sources for batch runs: ranges of deal numbers, files of boards, JSON lines.

Deals come from a range of numbers (``1-32000``, also ``1-10,20-30``; each deal once
however the ranges overlap, read lazily so a range of millions costs nothing up front;
numbers up to 2^63-1), a text file of deals separated by blank lines, or JSON lines
(``{"deal": 17}`` or ``{"id": "x", "board": "..."}``). Every problem is a one-line
``SolitaireError`` naming the file and line, found before any deal is searched.

``shard(tasks, part, parts)`` takes one of `parts` disjoint parts of a source
(``classify --shard I/N``), so that a scheduler can run the parts on many machines and
``solitaire merge`` join their results.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from solver.game import Game, SolitaireError, quote


MAX_BOARD_BYTES = 64 << 10          # far above any deal's text (a few hundred bytes)
MAX_SOURCE_BYTES = 1 << 30          # a file of deals read whole; larger files are refused
MAX_DEAL_NUMBER = (1 << 63) - 1     # a batch's deal numbers fit a signed 64-bit integer


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

    def position(self, deal: int) -> int:
        """Return the index of deal number `deal` (which must be among these)."""
        span = bisect.bisect_right(self._starts, deal) - 1
        return self._offsets[span] + deal - self.spans[span][0]


class ShardedRanges(DealRanges):
    """Part `part` of `parts` (1-based) of deal ranges: the deals at index ``part - 1``,
    ``part - 1 + parts``, ``part - 1 + 2 * parts``, ... of the whole, lazily.

    >>> shard = ShardedRanges(DealRanges([(1, 10)]), 2, 3)
    >>> shard.size, [t.deal for t in shard], 5 in shard, 6 in shard, shard.numbers
    (3, [2, 5, 8], True, False, (2, 8))
    """

    def __init__(self, whole: DealRanges, part: int, parts: int) -> None:
        super().__init__(whole.spans)
        self.whole, self.part, self.parts = whole, part, parts
        count = whole.size - (part - 1)
        self._size = max(0, (count + parts - 1) // parts)

    @property
    def size(self) -> int:
        return self._size

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Task]:
        step, index = self.parts, self.part - 1
        for span, (first, last) in enumerate(self.spans):     # `index` counts across spans
            start = self._offsets[span]
            span_size = last - first + 1
            while index < start + span_size:
                number = first + index - start
                yield Task(number, number=number)
                index += step

    def __getitem__(self, index: int) -> Task:  # type: ignore[override]
        if not -self._size <= index < self._size:
            raise IndexError(index)
        return self.whole[(index % self._size) * self.parts + self.part - 1]

    def __contains__(self, deal: object) -> bool:
        if not super().__contains__(deal):
            return False
        assert isinstance(deal, int)
        return self.position(deal) % self.parts == self.part - 1

    @property
    def numbers(self) -> tuple[int, int]:
        """The smallest and largest deal number (the whole's, for an empty part)."""
        if not self._size:
            return self.whole.numbers
        return self[0].number or 0, self[-1].number or 0


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


# -- shards: one part of a source, the same on every machine ---------------------------

_SHARD = re.compile(r"\s*(\d{1,9})\s*/\s*(\d{1,9})\s*")


def parse_shard(text: str) -> tuple[int, int]:
    """Return (I, N) from ``I/N``, the I-th of N parts (1 <= I <= N); refuse anything else.

    >>> parse_shard("2/5")
    (2, 5)
    """
    found = _SHARD.fullmatch(text)
    if not found:
        raise SolitaireError(f"--shard {quote(text, 30)}: give I/N, the I-th of N parts "
                             "(like 1/4)")
    part, parts = int(found.group(1)), int(found.group(2))
    if parts < 1 or not 1 <= part <= parts:
        raise SolitaireError(f"--shard {quote(text, 30)}: the part must run from 1 to "
                             f"{max(parts, 1)} (1-based), as in 1/{max(parts, 1)}")
    return part, parts


def shard(tasks: DealRanges | TaskList, part: int, parts: int) -> DealRanges | TaskList:
    """Return part `part` of `parts` (1-based) of `tasks`: the deals whose index in the
    source (0-based, in its order: increasing numbers for ranges, the file's order for a
    file) leaves remainder ``part - 1`` when divided by `parts`.

    The split is by index modulo `parts`, not in contiguous blocks, because it is
    balanced twice over: the parts' sizes differ by at most one deal, and their work too
    when the source is ordered by something that goes with difficulty (a file of deals
    sorted by tier, or deal numbers where a game's generator gets harder or easier with
    the number), which contiguous blocks would hand whole to one machine. It depends on
    the source alone, so every machine and every run computes the same parts, and the
    parts of a source are disjoint and together are the source. A part may be empty
    (more parts than deals).

    >>> [t.deal for t in shard(read_source("1-10"), 1, 3)]
    [1, 4, 7, 10]
    """
    if parts == 1:
        return tasks
    if isinstance(tasks, DealRanges):
        return ShardedRanges(tasks, part, parts)
    return TaskList(tasks[part - 1::parts])


# -- reading deal sources ---------------------------------------------------------------

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*")


def read_source(source: str) -> DealRanges | TaskList:
    """Return the tasks a source names: a range of deal numbers or a file of deals."""
    path = Path(source)
    try:
        is_file, is_dir = path.is_file(), path.is_dir()
    except OSError:             # a name no file can have (a long list of deals: too long)
        is_file = is_dir = False
    if is_file:
        return _read_file(path)
    if is_dir:
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


def start_position(game: Game[Any, Any], task: Task) -> Any:
    """Return the first position of a task's deal."""
    if task.number is not None:
        return game.deal(task.number)
    return game.parse(task.text or "")
