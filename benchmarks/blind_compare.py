"""Compare two blind players game by game, on the deals both played.

Two runs of ``solitaire play --blind`` on the same deals (records files, gzipped when the
name ends ``.gz``), made with different settings (more worlds a decision, another cap or
strategy) or by two versions of the player. Win rates alone hide how much of a difference
is noise: games of one deal by two players are strongly alike (most deals are won by
both or lost by both), so the test of the difference is paired. This prints, on the
deals both runs recorded:

- each run's wins with the 95% Wilson interval, processor seconds and decisions a game;
- the paired counts: won by both, by the first only, by the second only, by neither;
- the exact McNemar test of the difference (two-sided: under "no difference" each game
  won by one run only is the first's or the second's with equal odds), its p-value;
- how often the two played a game move for move alike, and otherwise the decision at
  which they parted (the median).

::

    gunzip -c data/klondike/blind-draw3-1-689-present.jsonl.gz > k3-300.jsonl
    solitaire play klondike 1-100 -V draw=3 --blind --samples 1000 --seed 1 --strategy dfs -o k3-1000w.jsonl
    python benchmarks/blind_compare.py k3-300.jsonl k3-1000w.jsonl --deals 1-100

Records of different games or variants are not compared (one line of error, status 2);
``--json`` prints the figures as one JSON object.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Container

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from winnable import first_by_deal, read_results  # noqa: E402
from solver.app.results import wilson  # noqa: E402
from solver.app.sources import DealRanges, read_source  # noqa: E402
from solver.game import SolitaireError  # noqa: E402


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """The two-sided exact McNemar p-value: the chance, were each discordant game equally
    likely to be either run's, of a split at least as uneven as the one seen."""
    n = first_only + second_only
    if n == 0:
        return 1.0
    low = min(first_only, second_only)
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def parted_at(first: dict[str, Any], second: dict[str, Any]) -> int | None:
    """The index of the first decision whose chosen move differs between two games of one
    deal, or None when they were played alike decision for decision."""
    ones, twos = first.get("decisions") or [], second.get("decisions") or []
    for index, (one, two) in enumerate(zip(ones, twos)):
        if one.get("move") != two.get("move"):
            return index
    return None if len(ones) == len(twos) else min(len(ones), len(twos))


def parse_deals(text: str) -> DealRanges:
    """Read deal ranges as the command line's batches do (``1-100``, ``1-10,20``)."""
    try:
        found = read_source(text)
    except SolitaireError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not isinstance(found, DealRanges):
        raise argparse.ArgumentTypeError(f"not a deal range: {text!r} (say 1-100)")
    return found


def by_deal(records: list[dict[str, Any]], deals: Container[int] | None) -> dict[int, dict[str, Any]]:
    """The games of numbered deals played out (the first record of a deal), among `deals`."""
    return {deal: record for deal, record in first_by_deal(records).items()
            if record.get("status") in ("won", "lost") and (deals is None or deal in deals)}


def compare(first: dict[int, dict[str, Any]], second: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The paired figures of two runs over the deals both recorded (see the module)."""
    deals = sorted(set(first) & set(second))
    pairs = [(first[d]["status"] == "won", second[d]["status"] == "won") for d in deals]
    both = sum(a and b for a, b in pairs)
    first_only = sum(a and not b for a, b in pairs)
    second_only = sum(b and not a for a, b in pairs)
    parted = [parted_at(first[d], second[d]) for d in deals]
    differing = [p for p in parted if p is not None]

    def side(run: dict[int, dict[str, Any]], won: int) -> dict[str, Any]:
        _, low, high = wilson(won, len(deals))
        return {"strategy": run[deals[0]].get("strategy") if deals else None,
                "won": won, "rate": won / len(deals) if deals else 0.0,
                "low": low, "high": high,
                "cpu_seconds": statistics.fmean(float(run[d].get("cpu_seconds") or 0.0)
                                                for d in deals) if deals else 0.0,
                "decisions": statistics.fmean(len(run[d].get("decisions") or [])
                                              for d in deals) if deals else 0.0}

    return {"deals": len(deals), "first": side(first, both + first_only),
            "second": side(second, both + second_only),
            "both": both, "first_only": first_only, "second_only": second_only,
            "neither": len(deals) - both - first_only - second_only,
            "p_value": mcnemar_exact(first_only, second_only),
            "alike": len(deals) - len(differing),
            "parted_median": statistics.median(differing) if differing else None}


def report(figures: dict[str, Any], names: tuple[str, str]) -> str:
    """The figures as lines of text."""
    lines = [f"{figures['deals']} deals played by both"]
    for label, name in zip(("first", "second"), names):
        side = figures[label]
        lines.append(f"{label}: {name} ({side['strategy']}): {side['won']} won, "
                     f"{side['rate']:.1%} (95%: {side['low']:.1%}-{side['high']:.1%}); "
                     f"{side['cpu_seconds']:.1f} CPU s and {side['decisions']:.1f} decisions a game")
    lines.append(f"paired: both won {figures['both']}, the first only {figures['first_only']}, "
                 f"the second only {figures['second_only']}, neither {figures['neither']}; "
                 f"exact McNemar p = {figures['p_value']:.3f}")
    parted = figures["parted_median"]
    lines.append(f"played alike move for move: {figures['alike']} games"
                 + ("" if parted is None else f"; the others parted at decision {parted:g} (median)"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="records of one blind run (.jsonl or .jsonl.gz)")
    parser.add_argument("second", type=Path, help="records of the other, on the same deals")
    parser.add_argument("--deals", type=parse_deals, help="only these deals (1-100, 1-10,20)")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = parser.parse_args(argv)
    runs = []
    for path in (args.first, args.second):
        records = read_results(path)
        if records is None:
            return 2
        runs.append(records)
    kinds = {(r.get("game"), json.dumps(r.get("variant"), sort_keys=True))
             for records in runs for r in records if "game" in r}
    if len(kinds) > 1:
        print(f"error: the two files hold different games or variants: "
              f"{', '.join(sorted(f'{g} {v}' for g, v in kinds))}", file=sys.stderr)
        return 2
    figures = compare(by_deal(runs[0], args.deals), by_deal(runs[1], args.deals))
    if not figures["deals"]:
        print("error: no deal was played to its end in both files", file=sys.stderr)
        return 2
    print(json.dumps(figures) if args.json
          else report(figures, (args.first.name, args.second.name)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
