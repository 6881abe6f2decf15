"""Measure how well a blind hint chooses at a deal's start: what its choice loses against
the best one, for each way of spending the worlds (``--allocation``).

For each deal, every plan open at the start is valued on `--eval` worlds of their own
(seeded apart from the hint's), the way the hint values a world: by the game's
rule-following playout where it declares one (a scored game's mean score), else by the
capped solve (the share of decided worlds won). Then the hint chooses, with `--samples`
worlds and `--seed`, under each allocation, and the chosen plan's value is set against
the best plan's: the regret, the chosen plan's rank among all, and how often the best was
chosen. The best by the evaluation worlds is itself an estimate, so a regret near 0 is
within their noise; the allocations are compared on the same deals and the same values.

    python benchmarks/blind_regret.py bridge-solitaire 1-20 --samples 5000 --eval 500

Prints one line a deal and a summary: the mean regret of each allocation with a 95%
interval (normal, over deals) and the mean paired difference with its interval.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import find_game  # noqa: E402
from solver.app.blind import Settings, _value, blind_hint, plans  # noqa: E402
from solver.app.sources import read_source  # noqa: E402
from solver.view import Sighted  # noqa: E402

EVAL_SEED = 777_777        # the evaluation worlds' seed: apart from any hint's


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="deal numbers, as classify takes them: 1-20, 3,7-9")
    parser.add_argument("--samples", type=int, default=5_000, help="the hint's worlds")
    parser.add_argument("--eval", type=int, default=500, help="worlds valuing each plan")
    parser.add_argument("--seed", type=int, default=1, help="the hint's seed")
    parser.add_argument("--allocation", nargs="+", default=["ucb1", "halving"])
    args = parser.parse_args(argv)
    game = find_game(args.game)
    scored = game.score is not None
    regrets: dict[str, list[float]] = {how: [] for how in args.allocation}
    best_chosen = {how: 0 for how in args.allocation}
    started = time.process_time()
    deals = [task.deal for task in read_source(args.deals)]
    for deal in deals:
        position = Sighted.of(game, game.deal(deal))
        options = plans(position.masked())
        values: dict[str, float] = {}
        for plan in options:
            alone = blind_hint(position, Settings(samples=args.eval, seed=EVAL_SEED),
                               options=[plan]).estimates[0]
            values[alone.notation] = _value(alone, scored)     # as the hint ranks it
        order = sorted(values.values(), reverse=True)
        line: dict[str, object] = {"deal": deal, "plans": len(options), "best": round(order[0], 3)}
        for how in args.allocation:
            hint = blind_hint(position, Settings(samples=args.samples, seed=args.seed,
                                                 allocation=how))
            chosen = values[hint.estimates[0].notation]
            regrets[how].append(order[0] - chosen)
            best_chosen[how] += chosen == order[0]
            line[how] = {"value": round(chosen, 3), "rank": order.index(chosen)}
        print(json.dumps(line), flush=True)
    count = len(deals)
    print(f"{args.game}, deals {args.deals}, {args.samples} worlds "
          f"a hint (seed {args.seed}), each plan valued on {args.eval} other worlds; "
          f"{time.process_time() - started:.0f} CPU s")
    for how in args.allocation:
        mean, half = mean_interval(regrets[how])
        print(f"  {how}: mean regret {mean:.3f} +- {half:.3f}, the best plan chosen on "
              f"{best_chosen[how]} of {count} deals")
    if len(args.allocation) == 2:
        first, second = args.allocation
        gaps = [a - b for a, b in zip(regrets[first], regrets[second])]
        mean, half = mean_interval(gaps)
        fewer = sum(gap > 0 for gap in gaps)
        print(f"  {first} minus {second}: {mean:.3f} +- {half:.3f}; {second} lost less on "
              f"{fewer} of {count} deals, more on {sum(gap < 0 for gap in gaps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
