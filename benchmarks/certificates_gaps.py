"""Certificates of loss for Gaps and Chris-Cross Pairs: certify and check a range of deals.

For each deal of the range: the verdict of the game's default strategy (within a budget of
positions); for each lost deal, its certificate written (``solver.certify``) and checked
by the independent checker (``checker.check``, against the checker's own deal). Printed
as a Markdown table, one row per lost deal: the certificate's positions (of them, closed
by a static proof's facts), its size in bytes (xz), processor seconds to write it and to
check it, and the check's answer; then the totals and the won and undecided deals.

    python benchmarks/certificates_gaps.py gaps 1-100 --variant suits=3 --variant ranks=5 \\
        --variant redeals=0
    python benchmarks/certificates_gaps.py chris-cross-pairs 1-100
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from checker import certificate as certificate_file, game_module
from checker.check import check, start_line
from games import find_game, parse_variants
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, find_strategy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="FIRST-LAST")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--states", type=int, default=1_000_000,
                        help="positions the verdict's search and the writer may store")
    args = parser.parse_args(argv)
    game = find_game(args.game, parse_variants(args.variant))
    module = game_module(game.name)
    first, _, last = args.deals.partition("-")
    strategy = find_strategy(game.default_strategy)
    budget = Budget(max_states=args.states)
    won, unknown, rows = [], [], []
    total = {"positions": 0, "facts": 0, "bytes": 0, "write": 0.0, "check": 0.0}
    print("| deal | positions | of them by facts | bytes | write CPU s | check CPU s | check |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for number in range(int(first), int(last or first) + 1):
            state = game.deal(number)
            status = strategy(game, state, budget).status
            if status is Status.WON:
                won.append(number)
                continue
            if status is not Status.LOST:
                unknown.append(number)
                continue
            path = Path(folder) / f"{number}.cert"
            began = time.process_time()
            written = certify(game, state, path, deal=number, budget=budget)
            wrote = time.process_time() - began
            if written.status != "lost":
                print(f"| {number} | not written: {written.status} {written.stopped_by} |||||")
                unknown.append(number)
                continue
            began = time.process_time()
            read = certificate_file.read(path)
            outcome = check(read, start_line(module, read, module.deal(number, read.variant)), module)
            checked = time.process_time() - began
            answer = "valid" if outcome.valid else f"invalid: {outcome.fault}"
            print(f"| {number} | {written.positions:,} | {written.closed_by_facts:,} | "
                  f"{written.bytes:,} | {wrote:.3f} | {checked:.3f} | {answer} |")
            rows.append(outcome.valid)
            for key, value in (("positions", written.positions), ("facts", written.closed_by_facts),
                               ("bytes", written.bytes), ("write", wrote), ("check", checked)):
                total[key] += value
    print(f"| {len(rows)} lost | {total['positions']:,} | {total['facts']:,} | {total['bytes']:,} | "
          f"{total['write']:.2f} | {total['check']:.2f} | {sum(rows)} valid |")
    print(f"\nwon: {len(won)}; undecided within {args.states:,} positions: {len(unknown)}"
          + (f" (deals {' '.join(map(str, unknown))})" if unknown else ""))
    return 0 if all(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
