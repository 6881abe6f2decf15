"""The Clock: deals classified per second by Knuth's characterisation, and the win share.

Usage::

    python benchmarks/clock_knuth.py [COUNT]      # default 32000 deals, numbers 1..COUNT

Times (processor time) ``knuth_verdict`` alone over positions dealt beforehand, and dealing plus verdict,
and prints the win share with its Wilson interval (exactly 1/13 = 7.692% in theory).
"""
from __future__ import annotations

import sys
import time

from games.the_clock import GAME
from solver.app.batch import wilson


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 32_000
    began = time.process_time()
    deals = [GAME.deal(n) for n in range(1, count + 1)]
    dealt = time.process_time() - began
    began = time.process_time()
    won = sum(map(GAME.knuth_verdict, deals))
    judged = time.process_time() - began
    share, low, high = wilson(won, count)
    print(f"{count:,} deals: {count / judged:,.0f} verdicts/s by the characterisation alone, "
          f"{count / (dealt + judged):,.0f} deals/s with dealing (PySolFC shuffles)")
    print(f"won {won:,}: {100 * share:.3f}% (95% Wilson {100 * low:.3f}%..{100 * high:.3f}%; "
          f"1/13 = {100 / 13:.3f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
