"""FreeCell and Seahaven Towers: our default solve against Freecell Solver on the same deals.

Usage::

    python benchmarks/vs_fc_solve.py 1-1000 [--game freecell|seahaven] [--seconds 60]
        [--strategy best_first] [--preset tfts --preset lg] [--out FILE.md]

Runs our solver (default strategy and settings) on each deal, then Freecell Solver
(Debian package ``freecell-solver-bin``) with each preset on the same deals. FreeCell:
its ``freecell-solver-range-parallel-solve`` over the MS range, reading its per-deal
timestamps. Seahaven Towers: ``fc-solve --game seahaven_towers`` on each PySolFC deal's
board as we print it, timed per process (so its figures include a few milliseconds of
process start). ``tfts`` is its atomic
(one card per move) preset, the fair comparison for our single-card solutions; ``lg`` is
its fastest. Prints median / worst / total seconds per deal and the ratios. If Freecell
Solver is not installed, only our figures are printed.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from games import find_game
from solver.app.batch import read_source
from solver.search import Budget, find_strategy

RANGE_SOLVER = "freecell-solver-range-parallel-solve"


def ours(game, numbers: list[int], strategy: str, seconds: float) -> dict[int, tuple[str, float, int]]:
    """Return deal -> (status, CPU seconds, states) for our solver.

    Processor time, not wall time: on a shared machine wall time measures the other load.
    """
    solve = find_strategy(strategy)
    out = {}
    for number in numbers:
        result = solve(game, game.deal(number), Budget(seconds=seconds))
        out[number] = (result.status.value, result.cpu_seconds, result.stored)
    return out


def fc_solve(first: int, last: int, preset: str) -> dict[int, tuple[str, float]]:
    """Return deal -> (status, seconds) from Freecell Solver's range solver."""
    text = subprocess.run([RANGE_SOLVER, str(first), str(last), "1", "-l", preset],
                          capture_output=True, text=True, check=True).stdout
    started = float(re.search(r"Started at ([\d.]+)", text).group(1))  # type: ignore[union-attr]
    unsolved = {int(n) for n in re.findall(r"Unsolved Board No. (\d+)", text)}
    out, previous = {}, started
    for number, stamp in re.findall(r"Reached Board No. (\d+) at ([\d.]+)", text):
        out[int(number)] = ("lost" if int(number) in unsolved else "won", float(stamp) - previous)
        previous = float(stamp)
    return out


def fc_solve_each(game, numbers: list[int], preset: str) -> dict[int, tuple[str, float]]:
    """Return deal -> (status, seconds) running fc-solve once per deal on our board text."""
    out = {}
    for number in numbers:
        began = time.perf_counter()
        text = subprocess.run(["fc-solve", "--game", "seahaven_towers", "-l", preset],
                              input=game.format(game.deal(number)), capture_output=True,
                              text=True).stdout
        seconds = time.perf_counter() - began
        out[number] = ("won" if "This game is solveable" in text else "lost", seconds)
    return out


def _ratio(ours: float, theirs: float) -> str:
    """Return ours / theirs with two significant figures, e.g. "1.2x" or "46x"."""
    ratio = ours / max(theirs, 1e-6)
    return f"{ratio:.2g}x" if ratio < 10 else f"{ratio:,.0f}x"


def line(name: str, seconds: list[float], statuses: list[str]) -> str:
    return (f"| {name} | {len(seconds)} | {statuses.count('won')} | {statuses.count('lost')} "
            f"| {statuses.count('unknown')} | {statistics.median(seconds):.4f} | {max(seconds):.3f} "
            f"| {sum(seconds):.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", help="a range of deal numbers, like 1-1000")
    parser.add_argument("--game", default="freecell", choices=["freecell", "seahaven"])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--strategy", default="best_first")
    parser.add_argument("--preset", action="append", default=None)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    numbers = [t.number for t in read_source(args.deals) if t.number is not None]
    began = time.time()
    game = find_game(args.game)
    mine = ours(game, numbers, args.strategy, args.seconds)
    my_seconds = [mine[n][1] for n in numbers]
    rows = ["| solver | deals | won | lost | unknown | median s | worst s | total s |",
            "|---|---|---|---|---|---|---|---|",
            line(f"ours ({args.strategy}, CPU s)", my_seconds, [mine[n][0] for n in numbers])]
    states = sum(mine[n][2] for n in numbers)
    notes = [f"ours: {states / sum(my_seconds):,.0f} states stored per CPU second; "
             f"worst deal {max(numbers, key=lambda n: mine[n][1])}"]
    if shutil.which(RANGE_SOLVER):
        for preset in args.preset or ["tfts", "lg"]:
            theirs = (fc_solve(min(numbers), max(numbers), preset) if args.game == "freecell"
                      else fc_solve_each(game, numbers, preset))
            their_seconds = [theirs[n][1] for n in numbers if n in theirs]
            rows.append(line(f"fc-solve -l {preset}", their_seconds,
                             [theirs[n][0] for n in numbers if n in theirs]))
            notes.append(f"ratio to fc-solve -l {preset} (ours / theirs): median "
                         f"{_ratio(statistics.median(my_seconds), statistics.median(their_seconds))}, "
                         f"total {_ratio(sum(my_seconds), sum(their_seconds))}")
            disagree = [n for n in numbers if n in theirs and mine[n][0] != "unknown"
                        and theirs[n][0] != mine[n][0]]
            if disagree:
                notes.append(f"verdicts differ from fc-solve -l {preset} on {disagree[:20]}")
    else:
        notes.append(f"{RANGE_SOLVER} not installed (apt-get install freecell-solver-bin)")
    report = (f"{game.name} {args.deals}, budget {args.seconds:g} s/deal, "
              f"{time.strftime('%Y-%m-%d')}, {time.time() - began:.0f} s in all\n\n"
              + "\n".join(rows) + "\n\n" + "\n".join(f"- {n}" for n in notes) + "\n")
    print(report)
    if args.out:
        with args.out.open("a", encoding="utf-8") as sink:
            sink.write(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
