"""Certify and check the lost deals of Forty Thieves and Spider: the figures of
``data/forty_thieves/certificates.md`` and ``data/spider/certificates.md``.

For each deal listed: decide it with an exhaustive depth-first search (within
--max-states), and for each lost one write its certificate (``solver.certify``) and check
it with the independent checker against the deal it claims (``checker.check``), reporting
the certificate's bytes, positions, CPU seconds to write and to check, and totals, as a
Markdown table. Deals won, or undecided within the budget, are counted and listed apart.

    python benchmarks/certificates_ft.py forty-thieves 1-100 --variant suits=2 ...
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from checker import certificate as certificate_file
from checker import game_module
from checker.check import check, start_line
from games import find_game, parse_variants
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs


def deals(text: str) -> list[int]:
    """Return the deal numbers of ``1-100,238,393``."""
    found: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        found += range(int(first), int(last or first) + 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", type=deals, help="deal numbers: 1-100,238")
    parser.add_argument("--variant", action="append", default=[], help="OPTION=VALUE")
    parser.add_argument("--max-states", type=int, default=2_000_000)
    parser.add_argument("--assume-lost", action="store_true",
                        help="skip the search: certify each deal (its verdict known lost)")
    args = parser.parse_args()
    game = find_game(args.game, parse_variants(args.variant))
    module = game_module(game.name)
    assert module is not None
    lost: list[int] = []
    won: list[int] = []
    undecided: list[int] = []
    rows: list[str] = []
    totals = [0, 0, 0.0, 0.0]
    with tempfile.TemporaryDirectory() as folder:
        for number in args.deals:
            start = game.deal(number)
            if not args.assume_lost:
                status = dfs(game, start, Budget(max_states=args.max_states)).status
                if status is not Status.LOST:
                    (won if status is Status.WON else undecided).append(number)
                    continue
            path = Path(folder) / f"{number}.cert"
            began = time.process_time()
            written = certify(game, start, path, deal=number,
                              budget=Budget(max_states=args.max_states))
            write_seconds = time.process_time() - began
            if written.status != "lost":
                undecided.append(number)
                continue
            read = certificate_file.read(path)
            began = time.process_time()
            outcome = check(read, start_line(module, read, module.deal(number, read.variant)),
                            module)
            check_seconds = time.process_time() - began
            assert outcome.valid, f"deal {number}: {outcome.fault}"
            lost.append(number)
            row = [written.bytes, written.positions, write_seconds, check_seconds]
            totals = [a + b for a, b in zip(totals, row)]
            rows.append(f"| {number} | {row[0]:,} | {row[1]:,} | {row[2]:.2f} | {row[3]:.2f} | valid |")
    print(f"{game.name} {' '.join(args.variant) or '(default variant)'}: "
          f"{len(args.deals)} deals, {len(lost)} lost, {len(won)} won, {len(undecided)} undecided "
          f"(dfs, {args.max_states:,} positions)" + (f"; undecided: {undecided}" if undecided else ""))
    print()
    print("| deal | bytes | positions | write CPU s | check CPU s | check |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"| **all {len(lost)}** | {totals[0]:,} | {totals[1]:,} | {totals[2]:.2f} | "
          f"{totals[3]:.2f} | |")


if __name__ == "__main__":
    main()
