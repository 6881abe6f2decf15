"""What a Dask cluster costs and gives (``classify --dask``), on this machine.

Two figures, each the best of `--repeat` runs (wall time: the cluster's work is spread
over processes, so processor time of the driver alone would leave most of it out; run
it when the machine is quiet):

1. The overhead per deal: a batch of trivial deals (Black Hole deal 1, lost after 8
   positions, under many ids) through a local cluster, minus the same batch in process,
   divided by the deals. The cluster is started before the clock starts: the figure is
   what each deal costs once the cluster is up. Through ``local:1`` it is the cost of
   sending deals and records (one worker does the solving the in-process run does);
   through ``local:2`` the second worker's help is subtracted too (it may be below 0).
2. Two workers against one: Black Hole PySolFC deals 1-1000 (short deals: median 0.026
   CPU s, the worst 23 CPU s) through ``local:2`` and through ``local:1``; the ratio of
   their wall times.

    python benchmarks/cluster.py [--trivial 2000] [--deals 1-1000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Callable

from games import find_game
from solver.app import batch
from solver.app.cluster import Cluster
from solver.search import Budget

GAME = find_game("black-hole", {})
BUDGET = Budget(seconds=60.0)


def timed(run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def batch_run(source: str, cluster: Cluster | None) -> Callable[[], None]:
    def run() -> None:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "r.jsonl"
            plan = batch.Plan(GAME, batch.read_source(source), out, budget=BUDGET,
                              cluster=cluster)
            count = sum(1 for _ in plan.run())
            assert count == plan.total
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trivial", type=int, default=2000, help="trivial deals (figure 1)")
    parser.add_argument("--deals", default="1-1000", help="Black Hole deals (figure 2)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        trivial = Path(folder) / "trivial.jsonl"
        trivial.write_text("".join(json.dumps({"id": f"t{i}", "deal": 1}) + "\n"
                                   for i in range(args.trivial)))
        here = timed(batch_run(str(trivial), None), args.repeat)
        print(f"{args.trivial} trivial deals in process: {here:.3f} s (best of {args.repeat})")
        for workers in (1, 2):
            with Cluster(f"local:{workers}") as cluster:
                there = timed(batch_run(str(trivial), cluster), args.repeat)
            print(f"through local:{workers}: {there:.3f} s, overhead "
                  f"{1000 * (there - here) / args.trivial:.3f} ms a deal (best of {args.repeat})")

    walls = {}
    for workers in (1, 2):
        with Cluster(f"local:{workers}") as cluster:
            walls[workers] = timed(batch_run(args.deals, cluster), args.repeat)
        print(f"Black Hole {args.deals} on local:{workers}: {walls[workers]:.2f} s "
              f"(best of {args.repeat})")
    print(f"two workers against one: {walls[1] / walls[2]:.2f}x")


if __name__ == "__main__":
    main()
