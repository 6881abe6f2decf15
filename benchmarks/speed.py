"""Positions stored per CPU second for every game, on the regression set's deals and budgets.

The workload is exactly ``benchmarks/pin_regression.py``'s set (every game, fixed state
budgets, no clock), so the figure moves only with the cost per position, never with what
the searches do; run it before and after a change meant to be pure speed. It says which
modules run compiled (built by mypyc at install) and which as plain Python.

    python benchmarks/speed.py                  # every game
    python benchmarks/speed.py freecell yukon   # some
    python benchmarks/speed.py --json           # one JSON object per game
    python benchmarks/speed.py --pure           # also as plain Python, with the speed-up

``--pure`` runs the same measurement again on a copy of the sources without the compiled
extensions (as a fresh process in a scratch folder), so both columns come from one command.
"""
from __future__ import annotations

import argparse
import importlib
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pin_regression import SET  # noqa: E402

from games import find_game  # noqa: E402
from solver.app.analyze import solve  # noqa: E402
from solver.search import Budget  # noqa: E402


def compiled_modules() -> list[str]:
    """Return the project's modules that were loaded from a compiled extension."""
    import games
    import solver

    found = []
    for package in (solver, games):
        for path in sorted(Path(package.__path__[0]).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if name.endswith("__main__"):
                continue
            module = importlib.import_module(name.removesuffix(".__init__"))
            if not str(getattr(module, "__file__", "")).endswith(".py"):
                found.append(module.__name__)
    return found


def measure(game_name: str, options: dict, first: int, last: int, max_states: int) -> dict:
    """Return stored positions, CPU seconds and their ratio over one line of the set, after
    one untimed solve of its first deal (so that a line measured first does not pay for
    the imports and tables every later line finds ready: Klondike draw 1's short line
    measured first read 180,000 positions per CPU second, warmed 295,000)."""
    game = find_game(game_name, options)
    solve(game, game.deal(first), None, Budget(max_states=max_states, memory=8 << 30))
    stored, cpu = 0, 0.0                  # after one untimed solve: no first-call costs counted
    for number in range(first, last + 1):
        state = game.deal(number)
        began = time.process_time()
        result = solve(game, state, None, Budget(max_states=max_states, memory=8 << 30))
        cpu += time.process_time() - began
        stored += result.stored
    label = game_name + "".join(f" {k}={v}" for k, v in options.items())
    return {"game": label, "deals": last - first + 1, "states": stored,
            "cpu_seconds": round(cpu, 3), "states_per_cpu_second": round(stored / cpu) if cpu else 0}


def plain_rows(games: list[str]) -> list[dict]:
    """Return the rows measured as plain Python: this script run on a copy of the sources
    with no compiled extension in it."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for package in ("solver", "games"):
            shutil.copytree(ROOT / package, folder / package,
                            ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        shutil.copytree(ROOT / "benchmarks", folder / "benchmarks",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(ROOT / "data", folder / "data")
        run = subprocess.run([sys.executable, "benchmarks/speed.py", "--json", *games],
                             cwd=folder, capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert not any(row["compiled"] for row in rows), "the plain copy imported compiled code"
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game names (default: every game in the set)")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    parser.add_argument("--pure", action="store_true",
                        help="measure plain Python too, on a copy without compiled modules")
    args = parser.parse_args()
    compiled = compiled_modules()
    rows = [measure(*line) for line in SET if not args.games or line[0] in args.games]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        for row in rows:
            print(json.dumps({**row, "compiled": bool(compiled)}))
        return
    plain = {row["game"]: row for row in plain_rows(args.games)} if args.pure and compiled else {}
    print(f"compiled modules: {', '.join(compiled) if compiled else 'none (plain Python)'}")
    if plain:
        print("| game | deals | states | CPU s | states / CPU s | plain Python | speed-up |")
        print("|---|---|---|---|---|---|---|")
    else:
        print("| game | deals | states | CPU s | states / CPU s |")
        print("|---|---|---|---|---|")
    for row in rows:
        line = (f"| {row['game']} | {row['deals']} | {row['states']:,} | {row['cpu_seconds']:.2f} "
                f"| {row['states_per_cpu_second']:,} |")
        other = plain.get(row["game"])
        if other:
            assert other["states"] == row["states"], f"{row['game']}: plain Python stored other counts"
            rate = other["states_per_cpu_second"]
            line += f" {rate:,} | {row['states_per_cpu_second'] / max(rate, 1):.1f}x |"
        print(line)
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
