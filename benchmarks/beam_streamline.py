"""The beam's streamlined schedules side by side, deal by deal, on the same machine at once.

For each deal, runs ``beam`` with each ``streamline`` schedule in turn (None is the default
beam) under a CPU-second budget, prints one JSON line per run, then a summary per
schedule: deals decided, median CPU seconds over all deals (an undecided deal counts as
the budget), worst decided, undecided deals, and how many wins came from streamlined
passes. Figures in data/spider/winnability.md ("A streamlined key for the beam").

    python benchmarks/beam_streamline.py spider 61-120 --seconds 20 -s none -s mix
    python benchmarks/beam_streamline.py spider 1-30 --variant suits=2 --seconds 10
"""
from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from games import find_game
from solver.search import Budget, fewer_collections
from solver.search.beam import beam


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="deal numbers: 1-50 or 5,17,34")
    parser.add_argument("--variant", "-V", action="append", default=[], help="key=value")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds a run")
    parser.add_argument("-s", "--streamline", action="append",
                        help="none, first, mix or only (default: none and mix)")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.variant)
    game = find_game(args.game, {k: int(v) for k, v in options.items()})
    schedules = [None if s == "none" else s for s in (args.streamline or ["none", "mix"])]
    runs: dict[str, list[dict[str, Any]]] = {str(s): [] for s in schedules}
    for number in deal_numbers(args.deals):
        for schedule in schedules:
            with fewer_collections():
                result = beam(game, game.deal(number), Budget(seconds=args.seconds, cpu=True),
                              streamline=schedule)
            row = {"streamline": schedule, "deal": number, "status": result.status.value,
                   "cpu_seconds": round(result.cpu_seconds, 2), "width": result.extra["width"],
                   "streamlined": bool(result.extra.get("streamlined")),
                   "stored": result.stored, "length": len(result.moves)}
            runs[str(schedule)].append(row)
            print(json.dumps(row), flush=True)
    for schedule, rows in runs.items():
        decided = [r for r in rows if r["status"] != "unknown"]
        times = [r["cpu_seconds"] if r in decided else args.seconds for r in rows]
        print(f"{schedule}: {len(decided)}/{len(rows)} decided, median "
              f"{statistics.median(times):.2f} CPU s, worst decided "
              f"{max((r['cpu_seconds'] for r in decided), default=0):.1f}, undecided "
              f"{' '.join(str(r['deal']) for r in rows if r not in decided) or '-'}, "
              f"{sum(r['streamlined'] for r in decided)} won by streamlined passes")


def deal_numbers(text: str) -> list[int]:
    """Return the numbers `text` names: ``1-50``, ``5,17,34`` or both mixed."""
    numbers: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers += range(int(low), int(high or low) + 1)
    return numbers


if __name__ == "__main__":
    main()
