"""Batch classification: many deals, one JSON line each, resumable, with a summary.

A run appends one line per deal to its output as soon as that deal is decided, so a
killed run loses at most the deals in flight; ``resume`` skips the deals already in the
output. ``Plan`` checks everything before any search and runs the deals, in process, in
worker processes, or on a Dask cluster. The pieces live beside it: ``solver.app.sources``
(what to solve, and its shards), ``solver.app.results`` (the results file, its lock and
summary), ``solver.app.pool`` (the worker processes) and ``solver.app.cluster`` (Dask). Their public names are importable from here too.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generator, Iterator

from solver.app.pool import Terminated, describe, pooled, sigterm_interrupts
from solver.app.record import Verdict, budget_record, solver_version, variant_of
from solver.app.results import (OutputError, ResultsLock, Scan, ScoreSummary, Settings, Sink,
                                Summary, check_out_place, check_output, ends_with_newline,
                                is_regular, repair, scan_results, summarize, wilson)
from solver.app.sources import (DealRanges, Task, TaskList, check_tasks, parse_shard, read_source,
                                read_text, shard, start_position)
from solver.game import Game, SolitaireError, Status
from solver.search import Budget, find_strategy

if TYPE_CHECKING:
    from solver.app.cluster import Cluster


# -- running ----------------------------------------------------------------------------

class Plan:
    """A checked batch run: every input validated, the output locked, ready to ``run``.

    Building it does all the checks before any deal is searched (a bad deal number,
    board, strategy, output path, a results file of other settings or with a record
    that is not a verdict, a results file another run holds), so a mistake costs
    nothing and writes nothing. The lock it takes is released when ``run`` ends, or by
    ``close``. After the run, `errors` and `crashes` count the deals of this run
    recorded unknown because their search raised or killed its worker. `worker` does
    something other than classify each deal (blind play, ``solver.app.blind``): its
    `strategy` names its settings in the results file. Given a `cluster` (a connected
    ``solver.app.cluster.Cluster``), the deals run there instead of here (`jobs` is then
    unused); the run writes the same records. Given `certificates` (a folder), each deal
    found lost gets its certificate of loss there (``solver.certify``), its file named in
    the record.
    """

    def __init__(self, game: Game[Any, Any], tasks: DealRanges | TaskList, out: Path, *,
                 strategy: str | None = None, budget: Budget = Budget(), jobs: int = 1,
                 resume: bool = False, worker: "Worker | None" = None,
                 cluster: "Cluster | None" = None, certificates: Path | None = None) -> None:
        from solver.app.analyze import default_strategy

        self.lock: ResultsLock | None = None
        self.game, self.tasks, self.out, self.budget, self.jobs = game, tasks, out, budget, jobs
        self.cluster = cluster
        if worker is None:
            self.strategy = default_strategy(game, strategy)
            find_strategy(self.strategy)                  # a bad name fails before work
            check_strategy_budget(self.strategy, budget)
            worker = Worker(game, self.strategy, budget, certificates)
        else:                                             # its settings are its strategy
            self.strategy, self.budget = worker.strategy, worker.budget
        self.worker = worker
        check_tasks(game, tasks)
        check_out_place(out)
        self.settings = Settings.of(game, self.strategy, self.budget)
        if out.exists() and is_regular(out) and out.stat().st_size and not resume:
            raise SolitaireError(f"{out} already holds results: pass --resume to continue it, "
                                 "or choose another --out")
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
            with sigterm_interrupts():
                self.torn = repair(self.out, self.scan)
                sink = Sink(self.out)
                try:
                    if sink.size and sink.regular and not ends_with_newline(self.out):
                        sink.write(b"\n")
                    done = self.scan.done
                    todo = (task for task in self.tasks if task.deal not in done)
                    work = self.worker
                    if self.cluster is not None:
                        results = self.cluster.results(work, todo)
                    elif self.jobs <= 1:
                        results = _in_process(work, todo)
                    else:
                        results = pooled(work, todo, self.jobs)
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


# -- solving, in process or in workers ----------------------------------------------------

def solve_task(game: Game[Any, Any], task: Task, strategy: str, budget: Budget) -> Verdict:
    """Return the verdict on one task's deal."""
    from solver.app.analyze import solve

    result = solve(game, start_position(game, task), strategy, budget)
    return Verdict.of(game, task.deal, result, budget, strategy)


class Worker:
    """Solves one task; picklable, so worker processes get the game itself.

    A game travels as its class and variant fields and is built again in the worker,
    so that lookup tables it made for itself (possibly compiled objects) never need
    pickling. An exception while solving becomes an ``unknown`` record, stopped by
    ``error``, naming it; an interrupt is not caught.
    """

    def __init__(self, game: Game[Any, Any], strategy: str, budget: Budget,
                 certificates: Path | None = None) -> None:
        self.game, self.strategy, self.budget = game, strategy, budget
        self.certificates = certificates

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.asdict(self.game)  # type: ignore[call-overload]
        return _rebuilt_worker, (type(self.game), fields, self.strategy, self.budget,
                                 self.certificates)

    def __call__(self, task: Task) -> Verdict:
        try:
            verdict = solve_task(self.game, task, self.strategy, self.budget)
            if self.certificates is not None and verdict.status is Status.LOST:
                verdict.extra.update(write_certificate(self.game, task, self.certificates,
                                                       self.budget))
            return verdict
        except Exception as error:           # a bug in a game or a strategy: not a verdict
            return self.failed(task, "error", describe(error))

    def failed(self, task: Task, stopped_by: str, error: str) -> Verdict:
        """Return the record of a deal the program failed on: unknown, never a verdict."""
        game = self.game
        return Verdict(game=game.name, variant=variant_of(game), deal=task.deal,
                       status=Status.UNKNOWN, strategy=self.strategy,
                       budget=budget_record(self.budget), stopped_by=stopped_by,
                       version=solver_version(), extra={"error": error})


def _rebuilt_worker(kind: Any, fields: dict[str, Any], strategy: str, budget: Budget,
                    certificates: Path | None = None) -> Worker:
    return Worker(kind(**fields), strategy, budget, certificates)


def certificate_name(game: Game[Any, Any], deal: Any) -> str:
    """Return the file name of a deal's certificate in ``classify --certificates DIR``.

    >>> certificate_name(type("G", (), {"name": "black-hole"})(), "deals.txt:3")
    'black-hole-deals.txt_3.cert'
    """
    return f"{game.name}-{re.sub(r'[^A-Za-z0-9._-]', '_', str(deal))}.cert"


def write_certificate(game: Game[Any, Any], task: Task, folder: Path,
                      budget: Budget) -> dict[str, Any]:
    """Write the certificate of a deal found lost into `folder`; return what the record
    says of it: the file's name and positions, or why none was written."""
    from solver import certify

    path = folder / certificate_name(game, task.deal)
    written = certify.certify(game, start_position(game, task), path,
                              deal=task.deal if isinstance(task.deal, int) else None,
                              budget=budget, solver_version=solver_version())
    if written.status == "lost":
        return {"certificate": path.name, "certificate_positions": written.positions}
    if written.status == "won":
        raise RuntimeError("writing the certificate reached a win the search said was not there")
    return {"certificate": None, "certificate_stopped_by": written.stopped_by}


def _in_process(work: Worker, todo: Iterator[Task]) -> Generator[Verdict, None, None]:
    for task in todo:
        yield work(task)


__all__ = ["Task", "DealRanges", "TaskList", "Summary", "ScoreSummary", "Settings", "Plan", "wilson",
           "read_source", "read_text", "check_tasks", "scan_results", "repair", "classify",
           "summarize", "solve_task", "describe", "OutputError", "Terminated", "ResultsLock",
           "Status", "check_output", "shard", "parse_shard"]
