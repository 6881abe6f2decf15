"""Check that each game's default strategy decides every deal plain dfs decides.

Usage::

    python benchmarks/dfs_check.py GAME... [--deals 1-100] [--seconds S] [--slack 2]

Runs the game's default strategy and ``dfs`` over the same deals, one after the other
in this one process, each under a budget of processor seconds: dfs gets `S`, the
default ``slack`` times `S` (the rule the default is held to: it decides every deal
dfs alone decides, within twice dfs's budget). The games run in their default variants,
and Gaps also with no redeal (``gaps:redeals=0``: with redeals, dfs proves nothing
lost, so the check is weak there). A game may be named with variants,
``GAME:KEY=VALUE,KEY=VALUE``.

For each game it prints the verdict counts of both and lists the deals where dfs
decides and the default does not (a failure of the rule), with both times; also the
deals the default decides and dfs does not, for contrast. Exit status 1 when any deal
fails the rule. This measures; it is never run as a test.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from games import find_game, parse_variants
from solver.app.analyze import default_strategy, solve
from solver.app.batch import read_source
from solver.game import Game, Status
from solver.search import Budget

DEFAULT_GAMES = ("black-hole", "bridge-solitaire", "chris-cross-pairs", "clock", "crescent",
                 "crisscross", "forty-thieves", "freecell", "gaps", "gaps:redeals=0",
                 "klondike", "seahaven", "spider", "yukon")


def named_game(spec: str) -> Game[Any, Any]:
    """Return the game `spec` names: ``GAME`` or ``GAME:KEY=VALUE,KEY=VALUE``."""
    name, _, variants = spec.partition(":")
    return find_game(name, parse_variants(variants.split(",")) if variants else {})


def decided(status: Status) -> bool:
    """Return whether a verdict is a decision (won or proven lost)."""
    return status is not Status.UNKNOWN


def check(spec: str, deals: str, seconds: float, slack: float) -> int:
    """Print one game's comparison; return the number of deals that fail the rule."""
    game = named_game(spec)
    name = f"default ({default_strategy(game)})"
    counts = {name: dict.fromkeys(Status, 0), "dfs": dict.fromkeys(Status, 0)}
    failures: list[str] = []
    contrast: list[str] = []
    cpu = {name: 0.0, "dfs": 0.0}
    for task in read_source(deals):
        deal = task.deal
        start = game.deal(task.number) if task.number is not None else game.parse(task.text or "")
        default = solve(game, start, None, Budget(seconds=seconds * slack, cpu=True))
        plain = solve(game, start, "dfs", Budget(seconds=seconds, cpu=True))
        counts[name][default.status] += 1
        counts["dfs"][plain.status] += 1
        cpu[name] += default.cpu_seconds
        cpu["dfs"] += plain.cpu_seconds
        line = (f"  {deal}: dfs {plain.status.value} in {plain.cpu_seconds:.2f} s "
                f"({plain.stored:,} states); {name} {default.status.value} in "
                f"{default.cpu_seconds:.2f} s ({default.stored:,} states)")
        if decided(plain.status) and not decided(default.status):
            failures.append(line)
        elif decided(default.status) and not decided(plain.status):
            contrast.append(line)
        print(f"{spec} {deal}: {name} {default.status.value} {default.cpu_seconds:.2f} s, "
              f"dfs {plain.status.value} {plain.cpu_seconds:.2f} s", file=sys.stderr, flush=True)
    print(f"\n{spec}, deals {deals}: dfs {seconds:g} CPU s a deal, {name} {seconds * slack:g}")
    for strategy, tally in counts.items():
        print(f"  {strategy:>20}: {tally[Status.WON]} won, {tally[Status.LOST]} lost, "
              f"{tally[Status.UNKNOWN]} unknown, {cpu[strategy]:.0f} CPU s in all")
    print(f"  decided by dfs, not by {name}: {len(failures)}")
    for line in failures:
        print(line)
    print(f"  decided by {name}, not by dfs: {len(contrast)}")
    for line in contrast:
        print(line)
    return len(failures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES),
                        help="games, GAME or GAME:KEY=VALUE,... (default: every game)")
    parser.add_argument("--deals", default="1-100", help="a range like 1-100")
    parser.add_argument("--seconds", type=float, default=10.0, help="dfs's CPU s a deal")
    parser.add_argument("--slack", type=float, default=2.0,
                        help="the default's budget as a multiple of dfs's (default 2)")
    args = parser.parse_args(argv)
    began = time.process_time()
    failed = sum(check(spec, args.deals, args.seconds, args.slack) for spec in args.games)
    print(f"\n{time.strftime('%Y-%m-%d')}: {failed} deal(s) fail the rule; "
          f"{time.process_time() - began:.0f} CPU s in all")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
