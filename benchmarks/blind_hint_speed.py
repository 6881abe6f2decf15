"""How long a blind hint takes by default, and how narrow its chosen plan's interval is.

The aim (README, "Blind hints and blind play"): a blind hint in under 5 s of wall time on a
2-core machine by default, with the chosen plan's 95% interval no wider than +-10 points
on a Klondike deal. For each deal this asks the hint from the deal's start, as
``solitaire hint GAME --deal N --blind`` does (its default ``--seconds`` and ``--jobs``),
and prints the wall seconds, the worlds solved, and the chosen plan's chance, interval,
worlds and undecided share; then the largest wall time and the share of deals whose
chosen plan's interval is within +-10 points::

    python benchmarks/blind_hint_speed.py klondike 1-20 -V draw=3
    python benchmarks/blind_hint_speed.py klondike 1-20

Run it on a machine otherwise idle: the hint stops at a wall-clock deadline, so a busy
machine solves fewer worlds in it and widens the intervals.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import find_game, parse_variants  # noqa: E402
from solver.app.blind import Settings, blind_hint, default_workers  # noqa: E402
from solver.app.sources import read_source  # noqa: E402
from solver.view import Sighted  # noqa: E402

AIM_SECONDS = 5.0
AIM_HALF_WIDTH = 0.10


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="deal numbers, e.g. 1-20")
    parser.add_argument("-V", "--variant", action="append", default=[],
                        help="a variant option, name=value")
    parser.add_argument("--seconds", type=float, default=Settings.seconds,
                        help="the hint's budget (default: the command line's)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="processes solving worlds (default: the command line's)")
    args = parser.parse_args(argv)
    game = find_game(args.game, parse_variants(args.variant))
    workers = default_workers() if args.jobs is None else args.jobs
    settings = Settings(seconds=args.seconds, workers=workers)
    print(f"{game.name} {dict(parse_variants(args.variant))}: blind hint from each deal's start, "
          f"--seconds {args.seconds}, --jobs {workers}")
    print("deal  wall s  worlds  chosen: chance  95% interval   +-points  worlds  undecided")
    walls, within, asked = [], 0, 0
    for task in read_source(args.deals):
        assert task.number is not None
        position = Sighted.of(game, game.deal(task.number))
        started = time.perf_counter()
        hint = blind_hint(position, settings)
        wall = time.perf_counter() - started
        walls.append(wall)
        best = hint.best
        if best is None:
            print(f"{task.number:4d}  {wall:6.2f}  {hint.samples:6d}  (no choice)")
            continue
        asked += 1
        low, high = best.interval()
        half = max(best.chance - low, high - best.chance)
        within += half <= AIM_HALF_WIDTH
        print(f"{task.number:4d}  {wall:6.2f}  {hint.samples:6d}  {best.chance:14.3f}  "
              f"{low:.3f}-{high:.3f}  {half * 100:8.1f}  {best.samples:6d}  "
              f"{best.undecided_share:9.0%}")
    if walls:
        print(f"largest wall time {max(walls):.2f} s (aim: under {AIM_SECONDS:.0f} s); "
              f"chosen plan within +-{AIM_HALF_WIDTH * 100:.0f} points on {within} of {asked} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
