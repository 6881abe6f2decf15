"""Write the regression set: verdicts and stored-position counts under fixed state budgets.

``tests/test_regression.py`` replays every line of ``data/regression.jsonl`` and asks for the
same status, the same number of stored positions and the same solution length. The counts
depend on every detail of a game's move order, keys and forced moves, so the set catches any
change in what a search does, not only in what it answers. A change that is meant to alter
them (fewer positions from a new proven pruning, say) regenerates the file with this script
and says why in its commit; a change meant to be pure speed must leave it untouched.

Budgets are in positions only (no clock), so the counts are the same on every machine.

    python benchmarks/pin_regression.py            # rewrites data/regression.jsonl
    python benchmarks/pin_regression.py --check    # compares, prints differences
    python benchmarks/pin_regression.py --check --first 1   # one deal of each line, quickly
    python benchmarks/pin_regression.py --check --first 1 --at-most 15000   # quicker still
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import GAMES, find_game  # noqa: E402
from solver.app.analyze import default_strategy, solve  # noqa: E402
from solver.search import Budget  # noqa: E402

OUT = ROOT / "data" / "regression.jsonl"

# (game, variant options, first deal, last deal, state budget): each game declares its own
# lines (``regression``, a hook of solver.game.Game)
SET: list[tuple[str, dict[str, Any], int, int, int]] = [
    (game.name, options, first, last, max_states)
    for game in GAMES.values() for options, first, last, max_states in game.regression]


def pinned(game_name: str, options: dict[str, Any], number: int, max_states: int) -> dict[str, Any]:
    """Return the line of one deal: its settings and what the default strategy did."""
    game = find_game(game_name, options)
    result = solve(game, game.deal(number), None, Budget(max_states=max_states, memory=8 << 30))
    return {"game": game_name, "options": options, "deal": number,
            "strategy": default_strategy(game), "max_states": max_states,
            "status": result.status.value, "states": result.stored,
            "length": len(result.moves)}


def lines(first_only: int | None = None,
          keep: Callable[[str, dict[str, Any], int], bool] | None = None) -> Iterator[dict[str, Any]]:
    """Yield every line of the regression set, computed now (or the first `first_only`
    deals of each game and variant; only the deals `keep` accepts, if given)."""
    for game_name, options, first, last, max_states in SET:
        if first_only is not None:
            last = min(last, first + first_only - 1)
        for number in range(first, last + 1):
            if keep is None or keep(game_name, options, number):
                yield pinned(game_name, options, number, max_states)


def _where(line: dict[str, Any]) -> tuple[str, str, int]:
    return line["game"], json.dumps(line["options"], sort_keys=True), line["deal"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    parser.add_argument("--first", type=int, metavar="N",
                        help="with --check: only the first N deals of each game and variant")
    parser.add_argument("--at-most", type=int, metavar="STATES",
                        help="with --check: only the deals pinned at no more than STATES positions")
    args = parser.parse_args()
    began = time.process_time()
    wanted = {_where(item): item for item in map(json.loads, OUT.read_text().splitlines())}
    def small(game: str, options: dict[str, Any], number: int) -> bool:
        line = wanted.get((game, json.dumps(options, sort_keys=True), number))
        return line is None or line["states"] <= args.at_most
    found = list(lines(args.first, None if args.at_most is None else small))
    if args.check:
        differences = [(wanted.get(_where(f)), f) for f in found if wanted.get(_where(f)) != f]
        for w, f in differences:
            pinned_as = "nothing" if w is None else f"{w['status']} {w['states']} states"
            print(f"{f['game']} {f['options']} deal {f['deal']}: pinned {pinned_as}, "
                  f"now {f['status']} {f['states']}")
        print(f"{len(differences)} of {len(found)} differ ({time.process_time() - began:.1f} CPU s)")
        whole = args.first is not None or args.at_most is not None or len(wanted) == len(found)
        sys.exit(1 if differences or not whole else 0)
    OUT.write_text("".join(json.dumps(line) + "\n" for line in found))
    print(f"wrote {len(found)} lines to {OUT.relative_to(ROOT)} "
          f"({time.process_time() - began:.1f} CPU s)")


if __name__ == "__main__":
    main()
