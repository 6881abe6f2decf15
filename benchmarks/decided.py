"""The issue's speed figures from `solitaire classify` results: share decided within a budget.

For each results file (one JSON line per deal, as `solitaire classify --cpu` writes them):
deals, won, lost, unknown, the share decided within ``--within`` CPU seconds, median and
worst CPU seconds, states per CPU second and peak memory. With several files over the same
deals (say one per strategy) a last row gives their union: what running them all would
decide. A deal won by one run and lost by another is a bug, and is reported as such.

With ``--published P`` (a percentage) it also says whether the published win share lies
inside what the sample allows: the Wilson interval of won among decided deals, and the
wider, honest one that counts every undecided deal first as lost, then as won (from the
low end of won/all to the high end of (won + unknown)/all).

    solitaire classify klondike 1-200 --seconds 60 --cpu -o k1.jsonl
    python benchmarks/decided.py k1.jsonl --within 60 --published 90.48
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from solver.app.batch import wilson


def read(path: Path) -> dict[Any, dict[str, Any]]:
    """Return the results of one file by deal; a torn last line is skipped with a warning."""
    results: dict[Any, dict[str, Any]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            print(f"{path}:{number}: unreadable line skipped", file=sys.stderr)
            continue
        results[row["deal"]] = row
    return results


def figures(name: str, rows: list[dict[str, Any]], within: float) -> str:
    """Return one Markdown table row of a run's figures."""
    status = [r["status"] for r in rows]
    cpu = [r.get("cpu_seconds", r.get("seconds", 0.0)) for r in rows]
    won, lost, unknown = status.count("won"), status.count("lost"), status.count("unknown")
    fast = sum(1 for r, c in zip(rows, cpu) if r["status"] != "unknown" and c <= within)
    worst = max(rows, key=lambda r: r.get("cpu_seconds", 0.0))
    states = sum(r.get("states", 0) for r in rows)
    peak = max((r.get("peak_memory", 0) for r in rows), default=0) / 2**20
    return (f"| {name} | {len(rows)} | {won} | {lost} | {unknown} "
            f"| {100 * fast / len(rows):.1f}% | {statistics.median(cpu):.3f} "
            f"| {max(cpu):.1f} ({worst['deal']}) | {states / max(sum(cpu), 1e-9):,.0f} | {peak:.0f} |")


def published_check(won: int, lost: int, unknown: int, published: float) -> str:
    """Return whether `published` (%) lies inside the sample's intervals."""
    n = won + lost + unknown
    rate, low, high = wilson(won, won + lost)
    honest_low, honest_high = wilson(won, n)[1], wilson(won + unknown, n)[2]
    inside = "inside" if honest_low <= published / 100 <= honest_high else "OUTSIDE"
    return (f"won among decided {100 * rate:.2f}% (Wilson {100 * low:.2f}%..{100 * high:.2f}%); "
            f"counting undecided both ways {100 * honest_low:.2f}%..{100 * honest_high:.2f}%: "
            f"published {published}% is {inside}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path, help="classify results files (JSON lines)")
    parser.add_argument("--within", type=float, default=60.0, help="CPU seconds a deal (default 60)")
    parser.add_argument("--published", type=float, help="a published win share, in percent")
    args = parser.parse_args(argv)
    runs = {str(path): read(path) for path in args.results}
    print(f"| run | deals | won | lost | unknown | decided within {args.within:g} CPU s "
          "| median CPU s | worst CPU s (deal) | states/CPU s | peak MB |")
    print("|" + "---|" * 10)
    for name, results in runs.items():
        print(figures(name, list(results.values()), args.within))
    verdicts: dict[Any, set[str]] = {}
    for results in runs.values():
        for deal, row in results.items():
            verdicts.setdefault(deal, set()).add(row["status"])
    clash = sorted(str(d) for d, v in verdicts.items() if {"won", "lost"} <= v)
    union = {d: "won" if "won" in v else "lost" if "lost" in v else "unknown"
             for d, v in verdicts.items()}
    counts = [list(union.values()).count(s) for s in ("won", "lost", "unknown")]
    if len(runs) > 1:
        print(f"\nunion of {len(runs)} runs over {len(union)} deals: "
              f"{counts[0]} won, {counts[1]} lost, {counts[2]} unknown")
    undecided = sorted((d for d, s in union.items() if s == "unknown"), key=str)
    print("undecided:", " ".join(map(str, undecided)) or "none")
    if args.published is not None:
        print(published_check(*counts, args.published))
    if clash:
        print("BUG: won by one run and lost by another:", " ".join(clash), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
