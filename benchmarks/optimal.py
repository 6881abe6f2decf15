"""Shortest solutions from `solitaire classify -s astar` results, beside published optima.

One row per deal: the win's length in the game's counted moves (FreeCell: a run moved at
once counts as one) and in written steps, whether A* proved it shortest, the published
optimum where one is known, CPU seconds, positions stored and per CPU second, peak memory.

    solitaire classify freecell 1-10 -s astar --seconds 60 --cpu -o opt.jsonl
    python benchmarks/optimal.py opt.jsonl
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decided import read  # noqa: E402  (a sibling script, not a package)

# Paul and Helmert, "Optimal Solitaire Game Solutions using A* Search and Deadlock
# Analysis" (SoCS 2016): the fewest moves of Microsoft FreeCell deals 1-10, a run moved at
# once counting as one move and every move home counted.
PUBLISHED = {"freecell": {1: 82, 2: 73, 3: 70, 4: 79, 5: 85, 6: 75, 7: 76, 8: 74, 9: 81, 10: 80}}
# the variant those figures are for
PUBLISHED_VARIANT = {"freecell": {"cells": 4, "columns": 8, "ranks": 13, "build": "alternate",
                                  "empty": "any", "layout": "microsoft"}}


def published(row: dict[str, Any]) -> int | None:
    """Return the published optimum of the row's deal, if its game and variant have one."""
    variant = PUBLISHED_VARIANT.get(row["game"], {})
    if any(row.get("variant", {}).get(name) != value for name, value in variant.items()):
        return None
    return PUBLISHED.get(row["game"], {}).get(row["deal"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+", help="classify results (JSON lines)")
    args = parser.parse_args(argv)
    print("| deal | moves | steps | proven | published | CPU s | positions | positions / CPU s | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    proven = agree = rows = 0
    for path in args.results:
        for deal, row in sorted(read(path).items(), key=lambda item: str(item[0]).zfill(12)):
            rows += 1
            optimum = published(row)
            moves = row.get("counted_moves", row["length"]) if row["status"] == "won" else None
            proven += bool(row.get("optimal"))
            agree += bool(row.get("optimal")) and moves == optimum
            cpu = row.get("cpu_seconds", 0.0)
            rate = f"{row['states'] / cpu:,.0f}" if cpu else ""
            print(f"| {deal} | {moves if moves is not None else row['status']} | "
                  f"{row['length'] if moves is not None else ''} | "
                  f"{'yes' if row.get('optimal') else 'no'} | {optimum or ''} | {cpu:.1f} | "
                  f"{row['states']:,} | {rate} | {row.get('peak_memory', 0) / 2**20:.0f} |")
    print(f"\n{proven} of {rows} proven shortest; {agree} at the published length.")


if __name__ == "__main__":
    main()
