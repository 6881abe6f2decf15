"""What one sampled world of a blind hint costs, and how often its capped solve decides it.

A blind hint's worth is the worlds it solves (README, "Blind hints and blind play"): each is
solved under a cap of positions, and a world the cap leaves undecided says nothing. So the
strategy and cap that solve the worlds are chosen by two numbers: processor milliseconds a
world, and the share of worlds decided (won or lost) within the cap. For each deal this
draws the worlds of the first decision (after the moves every world agrees are safe, such
as Klondike's look through its stock), the same worlds for every strategy, and prints, per
strategy, the worlds won, lost and undecided and the CPU ms a world::

    python benchmarks/blind_worlds.py klondike 1-10 -V draw=3 --strategies default,dfs,best_first
    python benchmarks/blind_worlds.py spider 1-3 -V suits=1 --cap 5000 --worlds 40

`default` is the game's ``blind_strategy`` (the one a hint uses unless told otherwise).
A name ``narrow_<strategy>`` searches over the game's ``narrow_moves`` instead (Klondike's:
no foundation card back, no run moved off a face-up card unless the card it uncovers goes
home; the move set lonelybot's worlds use, in our terms): such a search can win, never prove
a loss, so its "lost" column counts the worlds whose narrowed space it exhausted::

    python benchmarks/blind_worlds.py klondike 1-8 -V draw=3 --strategies dfs,narrow_dfs --cap 1000 --worlds 60
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import find_game, parse_variants  # noqa: E402
from solver.app.analyze import solve  # noqa: E402
from solver.app.blind import world  # noqa: E402
from solver.app.sources import read_source  # noqa: E402
from solver.game import Status  # noqa: E402
from solver.search import Budget, find_strategy  # noqa: E402
from solver.search.base import narrowed  # noqa: E402
from solver.view import Sighted  # noqa: E402


NARROW = "narrow_"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="deal numbers, e.g. 1-10")
    parser.add_argument("-V", "--variant", action="append", default=[],
                        help="a variant option, name=value")
    parser.add_argument("--strategies", default="default",
                        help="comma-separated strategies; default: the game's blind_strategy")
    parser.add_argument("--cap", type=int, default=None,
                        help="positions a world's solve may store (default: the game's blind_cap)")
    parser.add_argument("--worlds", type=int, default=150, help="worlds a deal (default 150)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = find_game(args.game, parse_variants(args.variant))
    cap = Budget(max_states=game.blind_cap if args.cap is None else args.cap)
    strategies = args.strategies.split(",")
    totals = {name: [0, 0, 0, 0.0] for name in strategies}
    print(f"{game.name} {dict(parse_variants(args.variant))}: {args.worlds} worlds a deal, "
          f"cap {cap.max_states:,} positions, seed {args.seed}")
    print("deal  strategy      won  lost  undecided  decided  CPU ms a world")
    for task in read_source(args.deals):
        assert task.number is not None
        position = Sighted.of(game, game.deal(task.number))
        while safe := position.safe():         # the moves a player takes without asking
            position = position.play(safe[0])
        masked = position.masked()
        worlds = [world(masked, args.seed, index) for index in range(args.worlds)]
        for name in strategies:
            chosen = game.blind_strategy if name == "default" else name
            counts = {status: 0 for status in Status}
            started = time.process_time()
            narrow = chosen.startswith(NARROW)
            search = find_strategy(chosen[len(NARROW):]) if narrow else None
            for drawn in worlds:
                if search is not None:               # an incomplete search: no verdict checked
                    counts[search(narrowed(game), drawn, cap).status] += 1
                else:
                    counts[solve(game, drawn, chosen, cap).status] += 1
            spent = time.process_time() - started
            won, lost, open_ = counts[Status.WON], counts[Status.LOST], counts[Status.UNKNOWN]
            total = totals[name]
            total[0] += won
            total[1] += lost
            total[2] += open_
            total[3] += spent
            print(f"{task.number:4d}  {name:12s} {won:4d}  {lost:4d}  {open_:9d}  "
                  f"{(won + lost) / len(worlds):7.1%}  {1000 * spent / len(worlds):14.2f}")
    print("all deals:")
    for name, (won, lost, open_, spent) in totals.items():
        count = won + lost + open_
        print(f"      {name:12s} {won:4d}  {lost:4d}  {open_:9d}  {(won + lost) / count:7.1%}  "
              f"{1000 * spent / count:14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
