"""Run strategies side by side over a range of deals and write a table.

Usage::

    python benchmarks/strategies.py GAME RANGE [-s STRATEGY ...] [--seconds T] [--variant K=V ...]
        [--out FILE.md] [--per-deal FILE.csv]

For each strategy: verdicts (won / lost / unknown), median and worst seconds per deal,
states stored per second, median states, mean solution length and peak memory growth.
A per-deal CSV (deal, strategy, status, seconds, states, length) is written on request.
This measures; it never asserts (speed is not tested). Example::

    python benchmarks/strategies.py black-hole 1-200 -s dfs -s best_first --seconds 60
"""
from __future__ import annotations

import argparse
import csv
import platform
import sys
import time
from pathlib import Path

from games import find_game, parse_variants
from solver.app.batch import read_source
from solver.app.bench import run_deals, summarize, table
from solver.search import Budget


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="range like 1-200, or a file of deals")
    parser.add_argument("-s", "--strategy", action="append", default=None)
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per deal")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--out", type=Path, help="append the Markdown table here")
    parser.add_argument("--per-deal", type=Path, help="write per-deal figures as CSV")
    args = parser.parse_args(argv)

    game = find_game(args.game, parse_variants(args.variant))
    tasks = read_source(args.deals)
    strategies = args.strategy or ["best_first"]
    rows, per_deal = [], []
    began = time.time()
    for strategy in strategies:
        results = run_deals(game, tasks, strategy, Budget(seconds=args.seconds))
        rows.append(summarize(strategy, results))
        per_deal += [(deal, strategy, r.status.value, round(r.seconds, 4), r.stored, len(r.moves))
                     for deal, r in results]
    heading = (f"{game.name} {args.deals} {args.variant or ''} budget {args.seconds:g} s/deal; "
               f"{platform.python_implementation()} {platform.python_version()}, "
               f"{time.strftime('%Y-%m-%d')}, {time.time() - began:.0f} s in all")
    report = f"{heading}\n\n{table(rows)}\n"
    print(report)
    if args.out:
        with args.out.open("a", encoding="utf-8") as sink:
            sink.write(report + "\n")
    if args.per_deal:
        with args.per_deal.open("w", newline="", encoding="utf-8") as sink:
            writer = csv.writer(sink)
            writer.writerow(["deal", "strategy", "status", "seconds", "states", "length"])
            writer.writerows(per_deal)
    return 0


if __name__ == "__main__":
    sys.exit(main())
