"""Certificates of a scored game's lost deals and their best scores: certify and check deals.

For each deal given: the verdict of the game's default strategy (``scored``, within a
budget of positions); for each lost deal, its certificate written (``solver.certify``),
which claims the deal's best score, and checked by the independent checker
(``checker.check``, against the checker's own deal), which confirms that best. Printed as
a Markdown table, one row per lost deal: the certificate's positions, its size in bytes
(xz), processor seconds to write it and to check it (the best of ``--repeat`` runs), the
best score the search proved, the best the check confirmed, and the check's answer; then
the totals and the won and undecided deals.

    python benchmarks/certificates_scored.py crisscross 1-10000
    python benchmarks/certificates_scored.py crisscross 1-100 --variant arms=3
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


def deals(text: str) -> list[int]:
    """``1-100``, ``6619`` or ``1098,6619,7234``."""
    found: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        found += range(int(first), int(last or first) + 1)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="FIRST-LAST, or numbers and ranges joined by commas")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--states", type=int, default=1_000_000,
                        help="positions the verdict's search and the writer may store")
    parser.add_argument("--repeat", type=int, default=3, help="runs timed, the best kept")
    args = parser.parse_args(argv)
    game = find_game(args.game, parse_variants(args.variant))
    module = game_module(game.name)
    if game.certifier is None or module is None:
        print(f"{game.name} writes no certificates", file=sys.stderr)
        return 2
    strategy = find_strategy(game.default_strategy)
    budget = Budget(max_states=args.states)
    won, unknown, rows = [], [], []
    total = {"positions": 0, "bytes": 0, "write": 0.0, "check": 0.0}
    print("| deal | positions | bytes | write CPU s | check CPU s | best (search) "
          "| best (check) | check |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for number in deals(args.deals):
            state = game.deal(number)
            result = strategy(game, state, budget)
            if result.status is Status.WON:
                won.append(number)
                continue
            if result.status is not Status.LOST:
                unknown.append(number)
                continue
            path = Path(folder) / f"{number}.cert"
            wrote = checked = float("inf")
            for _ in range(args.repeat):
                began = time.process_time()
                written = certify(game, state, path, deal=number, budget=budget)
                wrote = min(wrote, time.process_time() - began)
                if written.status != "lost":
                    break
                began = time.process_time()
                read = certificate_file.read(path)
                outcome = check(read, start_line(module, read, module.deal(number, read.variant)),
                                module)
                checked = min(checked, time.process_time() - began)
            if written.status != "lost":
                print(f"| {number} | not written: {written.status} {written.stopped_by} |||||||")
                unknown.append(number)
                continue
            answer = "valid" if outcome.valid and outcome.best == result.score else \
                f"invalid: {outcome.fault or 'a best other than the search'}"
            print(f"| {number} | {written.positions:,} | {written.bytes:,} | {wrote:.3f} | "
                  f"{checked:.3f} | {result.score} | {outcome.best} | {answer} |")
            rows.append(answer == "valid")
            for key, value in (("positions", written.positions), ("bytes", written.bytes),
                               ("write", wrote), ("check", checked)):
                total[key] += value
    print(f"| {len(rows)} lost | {total['positions']:,} | {total['bytes']:,} | "
          f"{total['write']:.2f} | {total['check']:.2f} | | | {sum(rows)} valid |")
    print(f"\nwon: {len(won)}; undecided within {args.states:,} positions: {len(unknown)}"
          + (f" (deals {' '.join(map(str, unknown))})" if unknown else ""))
    return 0 if all(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
