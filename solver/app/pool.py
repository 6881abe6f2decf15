"""Worker processes for batch runs: one deal per worker, a dead worker noticed at once.

A run appends one line per deal to its output as soon as that deal is decided, so a
killed run loses at most the deals in flight; ``resume`` skips the deals already in the
output. Deals come from a range of numbers (``1-32000``, also ``1-10,20-30``; each deal
once however the ranges overlap, read lazily so a range of millions costs nothing up
front; numbers up to 2^63-1), a text file of deals separated by blank lines, or JSON
lines (``{"deal": 17}`` or ``{"id": "x", "board": "..."}``).

SIGTERM stops a run as Ctrl-C does (``Terminated``, a KeyboardInterrupt): the workers
are stopped, nothing half-written stays, and a worker whose parent vanished exits.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any, Generator, Iterator

from solver.app.record import Verdict
from solver.app.sources import Task

if TYPE_CHECKING:
    from solver.app.batch import Worker


CRASH_RETRIES = 1                   # a deal that kills its worker is tried once more


class Terminated(KeyboardInterrupt):
    """SIGTERM stopped the run: it unwinds as Ctrl-C does (files closed, workers stopped,
    nothing half-written), and a caller can still tell the two apart."""


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


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
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


def pooled(work: Worker, todo: Iterator[Task], jobs: int) -> Generator[Verdict, None, None]:
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


def _serve(work: Worker, pipe: Connection, inherited: list[Connection], parent: int) -> None:
    """A worker process: solve the tasks that come down `pipe` and send back each record.

    Ctrl-C is the parent's to handle; SIGTERM ends the worker at once and quietly (the
    parent stops its workers so). A worker whose parent has gone exits quietly: Linux
    sends it SIGTERM when the parent dies, and elsewhere the closed pipe ends it.
    """
    worker_signals()
    for other in inherited:                  # the parent's ends: the pipe must close with it
        other.close()
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


def worker_signals() -> None:
    """Set a worker process's signals: Ctrl-C is the parent's to handle, SIGTERM ends the
    worker at once and quietly, and so does its parent's death (on Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    _die_with_parent()


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
