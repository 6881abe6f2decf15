"""FreeCell and Seahaven Towers: our solver against Freecell Solver on the same deals, in CPU seconds.

Usage::

    python benchmarks/vs_fc_solve.py 1-1000 [--game freecell|seahaven] [--seconds 60]
        [--strategy NAME] [--preset tfts --preset lg] [--out FILE.md]

Runs our solver on each deal (the game's default strategy unless ``--strategy`` names
one), timing dealing and solving in processor seconds, then Freecell Solver (Debian
package ``freecell-solver-bin``) with each preset on the same deals, two ways:

- one process a deal: ``fc-solve -l PRESET`` fed each board as we print it, its CPU
  seconds (user + system) read from the child's resource usage. Each process pays for
  starting up and reading the board; that overhead is measured apart, as the median CPU
  of ``fc-solve`` on a board already won (one state), and stated beside the figures.
- range mode (FreeCell only): one ``freecell-solver-range-parallel-solve FIRST LAST 1
  -l PRESET`` process over the whole range, which deals the Microsoft boards itself.
  Its total is the process's CPU seconds; the spread per deal (median, worst) comes
  from its per-deal timestamps, which are wall clock, scaled so they add up to its CPU
  total (on a shared machine wall time also counts other processes' turns).

Both sides are processor time; the ratio of totals is ours / theirs. ``tfts`` is its
atomic (one card per move) preset, the fair comparison for our single-card solutions;
``lg`` is its fastest. If Freecell Solver is not installed, only our figures are printed.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from games import find_game
from solver.app.analyze import default_strategy, solve
from solver.app.batch import read_source
from solver.search import Budget

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
SOLVER = "fc-solve"
GAME_FLAG = {"freecell": [], "seahaven": ["--game", "seahaven_towers"]}
# A position with every card home: fc-solve reads it, checks one state and stops.
WON_BOARD = "Foundations: H-K C-K D-K S-K\n" + ":\n" * 8
QUIET = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


def ours(game: Any, numbers: list[int], strategy: str | None,
         seconds: float) -> dict[int, tuple[str, float, int]]:
    """Return deal -> (status, CPU seconds, positions stored) for our solver.

    The time covers dealing and solving, as Freecell Solver's range mode deals too.
    Processor time, not wall time: on a shared machine wall time measures the other load.
    """
    out = {}
    for number in numbers:
        began = time.process_time()
        result = solve(game, game.deal(number), strategy, Budget(seconds=seconds))
        out[number] = (result.status.value, time.process_time() - began, result.stored)
    return out


def child_cpu() -> float:
    """Return the CPU seconds (user + system) of this process's reaped children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_child(command: list[str], board: str | None = None) -> tuple[str, float]:
    """Run `command` to its end (board text on its input); return its output and CPU s."""
    before = child_cpu()
    text = subprocess.run(command, input=board, capture_output=True, text=True,
                          env=QUIET, check=False).stdout
    return text, child_cpu() - before


def fc_solve_each(game: Any, numbers: list[int], flags: list[str],
                  preset: str) -> dict[int, tuple[str, float]]:
    """Return deal -> (status, CPU seconds) running fc-solve once per deal on our board."""
    out = {}
    for number in numbers:
        text, cpu = run_child([SOLVER, *flags, "-l", preset], game.format(game.deal(number)))
        out[number] = ("won" if "This game is solveable" in text else "lost", cpu)
    return out


def process_overhead(flags: list[str], preset: str, runs: int = 21) -> float:
    """Return the median CPU seconds of one fc-solve process on a board already won."""
    return statistics.median(run_child([SOLVER, *flags, "-l", preset], WON_BOARD)[1]
                             for _ in range(runs))


def fc_solve_range(first: int, last: int, preset: str) -> tuple[dict[int, tuple[str, float]], float]:
    """Return (deal -> (status, CPU seconds), the process's CPU seconds) from the range solver.

    Per-deal seconds are the wall intervals between its timestamps, scaled to add up to
    the process's CPU total (the share of each deal is what the timestamps measure).
    """
    text, cpu = run_child([RANGE_SOLVER, str(first), str(last), "1", "-l", preset])
    found = re.search(r"Started at ([\d.]+)", text)
    if found is None:
        raise RuntimeError(f"{RANGE_SOLVER} printed no start time:\n{text[:500]}")
    unsolved = {int(n) for n in re.findall(r"Unsolved Board No. (\d+)", text)}
    intervals, previous = {}, float(found.group(1))
    for number, stamp in re.findall(r"Reached Board No. (\d+) at ([\d.]+)", text):
        intervals[int(number)] = float(stamp) - previous
        previous = float(stamp)
    scale = cpu / max(sum(intervals.values()), 1e-9)
    return ({n: ("lost" if n in unsolved else "won", s * scale) for n, s in intervals.items()},
            cpu)


def _ratio(ours: float, theirs: float) -> str:
    """Return ours / theirs with two significant figures, e.g. "1.2x" or "46x"."""
    ratio = ours / max(theirs, 1e-6)
    return f"{ratio:.2g}x" if ratio < 10 else f"{ratio:,.0f}x"


def line(name: str, seconds: list[float], statuses: list[str]) -> str:
    return (f"| {name} | {len(seconds)} | {statuses.count('won')} | {statuses.count('lost')} "
            f"| {statuses.count('unknown')} | {statistics.median(seconds):.4f} | {max(seconds):.3f} "
            f"| {sum(seconds):.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("deals", help="a range of deal numbers, like 1-1000")
    parser.add_argument("--game", default="freecell", choices=sorted(GAME_FLAG))
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--strategy", default=None,
                        help="our strategy (default: the game's own, as the CLI runs it)")
    parser.add_argument("--preset", action="append", default=None)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    numbers = [t.number for t in read_source(args.deals) if t.number is not None]
    began = time.time()
    game = find_game(args.game)
    strategy = default_strategy(game, args.strategy)
    mine = ours(game, numbers, strategy, args.seconds)
    my_seconds = [mine[n][1] for n in numbers]
    my_total = sum(my_seconds)
    rows = ["| solver (CPU s) | deals | won | lost | unknown | median s | worst s | total s |",
            "|---|---|---|---|---|---|---|---|",
            line(f"ours ({strategy})", my_seconds, [mine[n][0] for n in numbers])]
    states = sum(mine[n][2] for n in numbers)
    notes = [f"ours: {states:,} positions stored, {states / my_total:,.0f} per CPU second; "
             f"worst deal {max(numbers, key=lambda n: mine[n][1])}"]
    flags = GAME_FLAG[args.game]
    if shutil.which(SOLVER):
        for preset in args.preset or ["tfts", "lg"]:
            overhead = process_overhead(flags, preset)
            runs = {"one process a deal": fc_solve_each(game, numbers, flags, preset)}
            range_total = None
            contiguous = numbers == list(range(min(numbers), max(numbers) + 1))
            if args.game == "freecell" and contiguous and shutil.which(RANGE_SOLVER):
                runs["range mode"], range_total = fc_solve_range(min(numbers), max(numbers), preset)
            for mode, theirs in runs.items():
                their_seconds = [theirs[n][1] for n in numbers if n in theirs]
                total = sum(their_seconds) if range_total is None or mode != "range mode" \
                    else range_total
                rows.append(line(f"fc-solve -l {preset}, {mode}", their_seconds,
                                 [theirs[n][0] for n in numbers if n in theirs]))
                notes.append(f"ours / fc-solve -l {preset}, {mode}: total "
                             f"{_ratio(my_total, total)}, median "
                             f"{_ratio(statistics.median(my_seconds), statistics.median(their_seconds))}")
                disagree = [n for n in numbers if n in theirs and mine[n][0] != "unknown"
                            and theirs[n][0] != mine[n][0]]
                if disagree:
                    notes.append(f"verdicts differ from fc-solve -l {preset} ({mode}) "
                                 f"on {disagree[:20]}")
            notes.append(f"fc-solve -l {preset}: {overhead * 1000:.1f} CPU ms a process on a "
                         f"board already won (start-up and reading, in its per-process figures: "
                         f"{overhead * len(numbers):.2f} s over {len(numbers)} deals)")
    else:
        notes.append(f"{SOLVER} not installed (apt-get install freecell-solver-bin)")
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
