"""Batch runs on a Dask cluster: ``classify ... --dask ADDRESS`` (or ``--dask local:N``).

The driver (the ``solitaire`` process) reads the deals, sends them to a Dask distributed
scheduler in small chunks, and writes each record to the results file as its chunk comes
back, through the same ``Plan`` as a local run: the same record format, one line per
deal, flushed, so ``--resume`` and ``solitaire merge`` work as they do for a local run.
The workers solve with the driver's ``Worker`` (game, variant, strategy and budget per
deal travel with every chunk), so a deal's record is the one a local run writes apart
from its timings.

Chunks. One Dask task per deal costs a few milliseconds of scheduling, more than a short
deal takes to solve, so deals go in chunks sized from the time deals have taken so far:
the first chunks hold one deal, and later ones as many as take about CHUNK_SECONDS
(at most MAX_CHUNK), so a chunk of hard deals is one deal and a chunk of trivial ones
many. At most twice as many chunks as the cluster has worker threads are in flight, so
that Ctrl-C, or a lost worker, costs little work, and the deals are read lazily.

A worker that dies takes no result with it: the scheduler runs the tasks it held again
on another worker, and its chunk comes back once. A chunk that the scheduler gives up on
(``KilledWorker``: it was held by more dying workers than the scheduler's
``allowed-failures``, 3 by default) is sent again one deal per task, and a deal that then
kills its workers again is recorded ``unknown``, stopped by ``crash``, as a local run
records it. The driver writes each deal once, whatever arrives. Ctrl-C (or SIGTERM) on
the driver cancels the chunks in flight, writes nothing for them and ends the run as a
local run ends.

``distributed`` is an optional dependency (``pip install 'solitaire-solver[cluster]'``):
this module imports it only when a cluster is asked for.
"""
from __future__ import annotations

import itertools
import logging
import re
import signal
import sys
import time
from collections import Counter, deque
from typing import TYPE_CHECKING, Any, Generator, Iterator

from solver.app.pool import describe
from solver.app.record import Verdict
from solver.app.sources import Task
from solver.game import SolitaireError, quote

if TYPE_CHECKING:
    from solver.app.batch import Worker


INSTALL = "pip install 'solitaire-solver[cluster]'"
CONNECT_SECONDS = 3.0             # an unreachable scheduler is reported after this long
CHUNK_SECONDS = 0.25              # the solving time a chunk aims at
MAX_CHUNK = 64                    # deals in one chunk at most
MAX_LOCAL_WORKERS = 256
MAX_DROPPED = 3                   # a deal whose task the scheduler cancels more often: stop
_LOCAL = re.compile(r"local:(\d{1,4})")


def import_distributed() -> Any:
    """Return the ``distributed`` module, or raise a one-line SolitaireError saying how
    to install it."""
    try:
        import distributed
    except ImportError:
        raise SolitaireError(f"--dask needs Dask's distributed package: {INSTALL}") from None
    return distributed


def check_address(address: str) -> None:
    """Refuse an address that is neither ``local:N`` nor a scheduler's address."""
    if address.startswith("local"):
        found = _LOCAL.fullmatch(address)
        if not found or not 1 <= int(found.group(1)) <= MAX_LOCAL_WORKERS:
            raise SolitaireError(f"--dask {quote(address, 40)}: give local:N, N from 1 to "
                                 f"{MAX_LOCAL_WORKERS} worker processes")
    elif not address or any(c.isspace() for c in address):
        raise SolitaireError(f"--dask {quote(address, 40)}: give a scheduler's address "
                             "(like tcp://host:8786) or local:N")


class Cluster:
    """A connected Dask client (and the local cluster it started, for ``local:N``).

    Connecting is done before anything is written: an unreachable scheduler is a
    one-line SolitaireError naming the address within CONNECT_SECONDS. ``close`` ends
    the connection and stops a local cluster; it is safe to call twice.
    """

    def __init__(self, address: str) -> None:
        check_address(address)
        distributed = import_distributed()
        self.address = address
        self.local: Any = None
        self.client: Any = None
        try:
            found = _LOCAL.fullmatch(address)
            if found:
                # Ctrl-C is the driver's to handle: a terminal sends it to the whole
                # process group. The worker processes are started with SIGINT ignored
                # (a disposition they inherit, and Python then keeps), and the local
                # cluster's thread with it blocked, so that it stops the run once,
                # quietly. The driver hears it again once the workers are up.
                blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
                except ValueError:                 # not the main thread: no signals here
                    previous = None
                try:
                    self.local = distributed.LocalCluster(
                        n_workers=int(found.group(1)), threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=logging.CRITICAL)
                finally:
                    if previous is not None:
                        signal.signal(signal.SIGINT, previous)
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                self.client = distributed.Client(self.local, timeout=CONNECT_SECONDS)
            else:
                self.client = distributed.Client(address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as error:
            self.close()
            reason = " ".join(str(error).split()) or type(error).__name__
            raise SolitaireError(f"cannot reach the Dask scheduler at {quote(address, 80)}: "
                                 f"{quote(reason, 120)[1:-1]}") from None
        except BaseException:
            self.close()
            raise

    def threads(self) -> int:
        """The worker threads the scheduler knows now (0 before any worker joins)."""
        try:
            return sum(self.client.nthreads().values())
        except Exception:                      # the scheduler went away: the run says so
            return 0

    def close(self) -> None:
        """Close the connection, and stop the local cluster if there is one."""
        client, local = self.client, self.local
        self.client = self.local = None
        if client is not None:
            try:
                client.close(timeout=2)
            except Exception:
                pass
        if local is not None:
            try:
                local.close(timeout=5)
            except Exception:
                pass

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def results(self, work: Worker, todo: Iterator[Task]) -> Generator[Verdict, None, None]:
        """Yield the record of every task of `todo` once, as its chunk comes back.

        Closing the generator (the run ends, Ctrl-C) cancels the chunks in flight.
        """
        distributed = import_distributed()
        from distributed.scheduler import KilledWorker

        killed: type[BaseException] = KilledWorker
        client = self.client
        tasks = iter(todo)
        single: deque[Task] = deque()        # deals of a chunk the scheduler gave up on
        alone: set[Any] = set()              # their ids: a second loss is a crash
        pending = distributed.as_completed([], with_results=False)
        flight: dict[Any, list[Task]] = {}
        written: set[Any] = set()
        dropped: Counter[Any] = Counter()    # deals whose task the scheduler cancelled
        size, per_deal = 1, 0.0
        if not self.threads():
            print("note: the Dask scheduler has no workers yet; the deals wait for the first",
                  file=sys.stderr)

        def send() -> None:
            limit = max(2, 2 * self.threads())
            while len(flight) < limit:
                if single:
                    chunk = [single.popleft()]
                else:
                    chunk = list(itertools.islice(tasks, size))
                if not chunk:
                    return
                future = client.submit(solve_chunk, work, chunk, pure=False)
                flight[future] = chunk
                pending.add(future)

        try:
            send()
            while flight:
                future = next(pending)
                chunk = flight.pop(future)
                if future.status == "cancelled":       # the scheduler forgot it: again
                    for task in chunk:
                        dropped[task.deal] += 1
                        if dropped[task.deal] > MAX_DROPPED:
                            raise SolitaireError(
                                f"the Dask scheduler at {quote(self.address, 80)} keeps "
                                f"dropping deal {task.deal} (is it still running?): the "
                                "results so far are kept; rerun with --resume")
                    single.extend(chunk)
                    send()
                    continue
                if future.status == "error":
                    error = future.exception()
                    future.release()
                    if not isinstance(error, killed):
                        raise SolitaireError(
                            f"a Dask worker failed on deals {chunk[0].deal}..{chunk[-1].deal}: "
                            f"{describe(error)}; every worker needs solitaire-solver "
                            "installed, the driver's version") from None
                    for task in chunk:
                        if task.deal in alone:
                            if task.deal not in written:
                                written.add(task.deal)
                                yield work.failed(task, "crash", "its Dask workers died "
                                                  "running it, more often than the "
                                                  "scheduler's allowed-failures")
                        else:
                            alone.add(task.deal)
                            single.append(task)
                    send()
                    continue
                verdicts, seconds = future.result()
                future.release()
                took = seconds / max(1, len(chunk))
                per_deal = took if not per_deal else 0.7 * per_deal + 0.3 * took
                size = max(1, min(MAX_CHUNK, 2 * size,
                                  int(CHUNK_SECONDS / per_deal) if per_deal > 0 else MAX_CHUNK))
                send()
                for verdict in verdicts:
                    if verdict.deal not in written:
                        written.add(verdict.deal)
                        yield verdict
        finally:
            if flight:
                try:
                    client.cancel(list(flight), force=True)
                except Exception:
                    pass


def solve_chunk(work: Worker, chunk: list[Task]) -> tuple[list[Verdict], float]:
    """Solve a chunk's deals in a Dask worker; return their records and the time taken."""
    start = time.perf_counter()
    verdicts = [work(task) for task in chunk]
    return verdicts, time.perf_counter() - start
