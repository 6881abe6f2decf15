"""Joining results files: ``solitaire merge A.jsonl B.jsonl ... --out ALL.jsonl``.

The parts of a run (``classify --shard I/N`` on many machines, a run resumed elsewhere, a
Dask run and a local one) are joined into one results file with each deal once. A record
is keyed by game, variant, strategy, budget, deal and solver version
(``solver_version``; records written before it was recorded have the version ""). The
files must hold one game and the same settings (variant, strategy, the state, time and
``--cpu`` budgets; the memory budget is not compared, as ``--resume`` does not compare
it: it follows the machine and ``--jobs``); anything else is refused, naming the first
line that differs, and nothing is written.

Two records of one key:

- the same verdict (won and won, lost and lost, unknown and unknown; for a scored game
  decided with the same score): the same answer twice, kept once (the first);
- won against lost (or a scored game's two proven scores that differ): a contradiction,
  since a ``won`` record carries a verified solution and a ``lost`` one a proof. It is
  an error naming both lines (``file:line``), never resolved by choice, and nothing is
  written;
- unknown against won or lost: no contradiction. ``unknown`` says a budget ran out (or
  the program failed on the deal), not that the deal is undecidable, and a time budget
  in wall-clock seconds runs out sooner on a busy machine; the decided record is kept
  and the merge says how many unknown ones it set aside.

A last line cut short by a killed run (no newline, not a whole record) is left out with
a note, as ``--resume`` sets it aside; its deal is without a record unless another file
has it. Any other line that is not a record is an error naming it. Records are copied as
they were written, byte for byte, in the order first seen. The output is written whole
to a temporary file beside it and then renamed, so an interrupted merge leaves no
partial output. The summary covers the merged set, counting each deal once: when a deal
has records under more than one solver version, a decided one counts, and two versions
that decided it differently make it count as unknown, with a note naming the lines.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.app.record import Verdict
from solver.app.results import Settings, Summary, check_out_place, read_record
from solver.game import SolitaireError, Status, quote


@dataclass(frozen=True, slots=True)
class Line:
    """Where a record is (file, 1-based line, byte offset and length) and what it says."""

    file: int
    number: int
    offset: int
    length: int
    status: Status
    score: int | None
    stopped_by: str


@dataclass
class Merged:
    """The merged set: the records kept (by key), and what the merge set aside."""

    inputs: list[Path]
    settings: Settings | None = None
    first: str = ""                    # file:line of the record the settings are read from
    kept: dict[tuple[Any, str], Line] = field(default_factory=dict)
    read: int = 0                      # records read in all inputs
    duplicates: int = 0                # records given twice the same way, kept once
    settled: int = 0                   # unknown records set aside for a decided one
    torn: list[str] = field(default_factory=list)     # file:line of torn last lines
    versions: Counter[str] = field(default_factory=Counter)   # kept records by version
    disputed: list[str] = field(default_factory=list)  # deals versions decided apart

    def where(self, line: Line) -> str:
        return f"{self.inputs[line.file]}:{line.number}"

    def summary(self) -> Summary:
        """Return the counts over the merged set, each deal once (see the module)."""
        by_deal: dict[Any, Line] = {}
        for (deal, _version), line in self.kept.items():
            other = by_deal.get(deal)
            if other is None or (other.status is Status.UNKNOWN
                                 and line.status is not Status.UNKNOWN):
                by_deal[deal] = line
            elif line.status is not Status.UNKNOWN and _differ(other, line):
                self.disputed.append(f"deal {deal}: {other.status.value} in "
                                     f"{self.where(other)}, {line.status.value} in "
                                     f"{self.where(line)}")
                by_deal[deal] = Line(-1, 0, 0, 0, Status.UNKNOWN, None, "disputed")
        summary = Summary()
        for line in by_deal.values():
            summary.add(line.status.value, line.score, line.stopped_by)
        return summary


def _differ(a: Line, b: Line) -> bool:
    """Whether two decided records of one deal contradict each other."""
    return a.status is not b.status or (a.score is not None and b.score is not None
                                        and a.score != b.score)


def merge(inputs: list[Path], out: Path) -> Merged:
    """Merge the results files `inputs` into `out`; return what was merged.

    Every check is made before anything is written: a missing input, an input that is
    `out`, an `out` that already holds results, files of other games or settings, a
    line that is not a record, two contradicting verdicts of one key.
    """
    _check_paths(inputs, out)
    merged = Merged(list(inputs))
    for index, path in enumerate(inputs):
        _read(merged, index, path)
    _write(merged, out)
    return merged


def _check_paths(inputs: list[Path], out: Path) -> None:
    if not inputs:
        raise SolitaireError("merge needs at least one results file")
    check_out_place(out)
    seen: dict[tuple[int, int], Path] = {}
    for path in inputs:
        if not path.exists():
            raise SolitaireError(f"{quote(str(path), 80)}: no such results file")
        if path.is_dir():
            raise SolitaireError(f"{quote(str(path), 80)} is a directory, not a results file")
        if out.exists() and os.path.samefile(path, out):
            raise SolitaireError(f"{quote(str(path), 80)} is both an input and --out: write "
                                 "the merge to another file")
        ident = os.stat(path).st_dev, os.stat(path).st_ino
        if ident in seen:
            raise SolitaireError(f"{quote(str(path), 80)} is given twice (also as "
                                 f"{quote(str(seen[ident]), 80)})")
        seen[ident] = path
    if out.exists() and out.is_file() and out.stat().st_size:
        raise SolitaireError(f"{out} already holds results: choose another --out")


def _read(merged: Merged, index: int, path: Path) -> None:
    """Read one input line by line (a file of a million records is not held whole)."""
    try:
        with path.open("rb") as handle:
            offset = 0
            for number, whole in enumerate(handle, 1):
                start, offset = offset, offset + len(whole)
                raw = whole.rstrip(b"\n")
                if raw.strip():
                    _read_line(merged, index, f"{path}:{number}", number, start, raw,
                               last=not whole.endswith(b"\n"))
    except OSError as error:
        raise SolitaireError(f"cannot read {quote(str(path), 80)}: "
                             f"{error.strerror or error}") from None


def _read_line(merged: Merged, index: int, where: str, number: int, start: int, raw: bytes,
               last: bool) -> None:
    item = read_record(raw)
    if item is None:
        if last:                                  # no newline after it: a write cut short
            merged.torn.append(where)
            return
        raise SolitaireError(f"{where}: not a complete result line; remove or repair it")
    try:
        verdict = Verdict.from_json(item)
    except SolitaireError as error:
        raise SolitaireError(f"{where}: {error}") from None
    merged.read += 1
    _check_settings(merged, verdict, where)
    line = Line(index, number, start, len(raw), verdict.status, verdict.score,
                verdict.stopped_by)
    _keep(merged, (verdict.deal, sys.intern(verdict.version)), line)


def _check_settings(merged: Merged, verdict: Verdict, where: str) -> None:
    if merged.settings is None:
        budget = {k: v for k, v in (verdict.budget or {}).items() if k != "memory"}
        merged.settings = Settings(verdict.game, verdict.variant, verdict.strategy, budget)
        merged.first = where
        return
    differences = merged.settings.differences(verdict)
    if differences:
        raise SolitaireError(f"cannot merge {where} with {merged.first}: {'; '.join(differences[:3])} "
                             "(only results of one game and the same settings merge)")


def _keep(merged: Merged, key: tuple[Any, str], line: Line) -> None:
    other = merged.kept.get(key)
    if other is None:
        merged.kept[key] = line
        return
    if other.status is Status.UNKNOWN and line.status is not Status.UNKNOWN:
        merged.kept[key] = line               # the decided record wins its place
        merged.settled += 1
    elif line.status is Status.UNKNOWN or not _differ(other, line):
        if line.status is Status.UNKNOWN and other.status is not Status.UNKNOWN:
            merged.settled += 1
        else:
            merged.duplicates += 1
    else:
        deal, version = key
        shown = deal if isinstance(deal, int) else quote(deal, 40)
        def said(entry: Line) -> str:
            score = f" (score {entry.score})" if entry.score is not None else ""
            return f"{entry.status.value}{score} in {merged.where(entry)}"
        raise SolitaireError(f"deal {shown} is {said(other)} but {said(line)}, under the same "
                             f"settings and solver version {version or 'unrecorded'}: one "
                             "of them is wrong; nothing was written")


def _write(merged: Merged, out: Path) -> None:
    """Write the kept records to `out` in the order first seen, through a renamed temporary."""
    folder = out.parent if str(out.parent) else Path(".")
    handles = [path.open("rb") for path in merged.inputs]
    temporary = ""
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".part", dir=folder)
        os.fchmod(fd, 0o644)                  # as a results file a run writes
        with os.fdopen(fd, "wb") as sink:
            for (_deal, version), line in merged.kept.items():
                source = handles[line.file]
                source.seek(line.offset)
                sink.write(source.read(line.length).rstrip(b"\r") + b"\n")
                merged.versions[version] += 1
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(temporary, out)
    except OSError as error:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise SolitaireError(f"cannot write {quote(str(out), 80)}: "
                             f"{error.strerror or error}") from None
    except BaseException:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    finally:
        for handle in handles:
            handle.close()
