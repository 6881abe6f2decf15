"""Certificates of loss: write and check them for a list of lost deals, with the figures.

Usage::

    python benchmarks/certificates.py freecell [--deals 11982,146692] [--runs 3] [--out FILE.md]
    python benchmarks/certificates.py seahaven --deals 21,34,73
    python benchmarks/certificates.py black-hole [--deals 1,25] [--out FILE.md]
    python benchmarks/certificates.py clock --deals 1,2,3

For each deal it writes the certificate (``solver.certify``, the writer ``solve
--certificate`` uses) and checks it with the independent checker (``checker.check``, as
``solitaire check FILE GAME --deal N`` does: reading the file, confirming the deal, the
closure argument), and prints the certificate's size in bytes, its positions, and the
processor seconds to write and to check (the best of `runs`), then the totals. A deal that
is not lost, or a certificate not ``valid``, is named and makes the exit status 1. `--out`
writes the table as Markdown with the command that made it. This measures; it is never
run as a test.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from checker import certificate as certificate_file, game_module
from checker.check import check, start_line
from games import find_game
from solver.certify import certify
from solver.game import Game


@dataclass(frozen=True)
class Figures:
    """One deal's certificate: what writing and checking it came to."""

    deal: int
    status: str              # the writer's: "lost" when a certificate was written
    verdict: str             # the checker's: "valid", or its fault
    bytes: int
    positions: int
    write_seconds: float     # processor seconds, the best of the runs
    check_seconds: float


def certify_and_check(game: Game[Any, Any], number: int, folder: Path, runs: int) -> Figures:
    """Write deal `number`'s certificate `runs` times and check it as often; keep the best
    processor times."""
    path = folder / f"{game.name}-{number}.cert"
    writes, checks, verdict = [], [], ""
    for _ in range(runs):
        began = time.process_time()
        written = certify(game, game.deal(number), path, deal=number)
        writes.append(time.process_time() - began)
        if written.status != "lost":
            return Figures(number, written.status, "no certificate", 0, written.positions,
                           min(writes), 0.0)
    for _ in range(runs):
        began = time.process_time()
        read = certificate_file.read(path)
        module = game_module(read.game)
        assert module is not None, f"the checker has no module for {read.game}"
        outcome = check(read, start_line(module, read, module.deal(number, read.variant)), module)
        checks.append(time.process_time() - began)
        verdict = "valid" if outcome.valid else outcome.fault
    return Figures(number, "lost", verdict, path.stat().st_size, written.positions, min(writes),
                   min(checks))


# -- FreeCell and Seahaven Towers ----------------------------------------------------------

# The unwinnable Microsoft FreeCell deals below one million (Freecell Solver's and others'
# exhaustive searches agree on these eight).
FREECELL_LOST = (11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948)
# Seahaven Towers deals 1-100 Freecell Solver finds unsolvable (data/seahaven/known.txt)
SEAHAVEN_LOST = (21, 34, 68, 70, 73, 75, 80, 89, 91, 92, 100)


def freecell(name: str, deals: list[int] | None, runs: int) -> list[Figures]:
    """FreeCell's (or Seahaven Towers') figures: the given deals, else the known lost ones."""
    game = find_game(name, {})
    chosen = deals or list(FREECELL_LOST if game.name == "freecell" else SEAHAVEN_LOST)
    with tempfile.TemporaryDirectory() as folder:
        return [report(certify_and_check(game, number, Path(folder), runs)) for number in chosen]


# -- Black Hole and The Clock -----------------------------------------------------------------

WINNABLE = Path(__file__).resolve().parent.parent / "data" / "winnable"


def lost_in_range(name: str, last: int) -> list[int]:
    """The deals 1..`last` that ``data/winnable/<game>/`` does not list as won (its files
    cover deals 1..`last`: every deal there is won, every other one was proven lost)."""
    won: set[int] = set()
    for tier in (WINNABLE / name).glob("*.txt"):
        for line in tier.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                won.add(int(line.split()[0]))
    return [number for number in range(1, last + 1) if number not in won]


def black_hole(name: str, deals: list[int] | None, runs: int) -> list[Figures]:
    """Black Hole's figures: the given deals, else every lost deal of PySolFC's 1-1000."""
    game = find_game(name, {})
    chosen = deals or lost_in_range("black-hole", 1000)
    with tempfile.TemporaryDirectory() as folder:
        return [report(certify_and_check(game, number, Path(folder), runs)) for number in chosen]


def clock(name: str, deals: list[int] | None, runs: int) -> list[Figures]:
    """The Clock's figures: the given deals, else the lost ones of deals 1-100 (each is a
    one-line certificate: the play is forced)."""
    game = find_game(name, {})
    chosen = deals or [n for n in range(1, 101) if not _won_by_play(game, n)]
    with tempfile.TemporaryDirectory() as folder:
        return [report(certify_and_check(game, number, Path(folder), runs)) for number in chosen]


def _won_by_play(game: Game[Any, Any], number: int) -> bool:
    state = game.deal(number)
    while game.moves(state):
        state = game.play(state, game.moves(state)[0])
    return bool(game.is_won(state))


GAMES: dict[str, Callable[[str, list[int] | None, int], list[Figures]]] = {
    "freecell": freecell, "seahaven": freecell, "black-hole": black_hole, "clock": clock}


# -- the table -------------------------------------------------------------------------------

def report(row: Figures) -> Figures:
    print(f"deal {row.deal}: {row.status}, {row.verdict}, {row.bytes:,} bytes, "
          f"{row.positions:,} positions, write {row.write_seconds:.2f} s, "
          f"check {row.check_seconds:.2f} s", file=sys.stderr, flush=True)
    return row


def table(rows: list[Figures]) -> str:
    """The figures as a Markdown table with a line of totals."""
    lines = ["| deal | checked | bytes | positions | write (CPU s) | check (CPU s) |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row.deal} | {row.verdict} | {row.bytes:,} | {row.positions:,} | "
                     f"{row.write_seconds:.2f} | {row.check_seconds:.2f} |")
    valid = sum(row.verdict == "valid" for row in rows)
    lines.append(f"| total | {valid} of {len(rows)} valid | {sum(r.bytes for r in rows):,} | "
                 f"{sum(r.positions for r in rows):,} | "
                 f"{sum(r.write_seconds for r in rows):.2f} | "
                 f"{sum(r.check_seconds for r in rows):.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--deals", help="deal numbers, comma-separated (default: the game's "
                                        "known lost deals)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each; the best time counts")
    parser.add_argument("--out", type=Path, help="write the table as Markdown to this file")
    args = parser.parse_args(argv)
    deals = [int(n) for n in args.deals.split(",")] if args.deals else None
    rows = GAMES[args.game](args.game, deals, args.runs)
    text = table(rows)
    print(text, end="")
    if args.out is not None:
        command = "python benchmarks/certificates.py " + " ".join(argv or sys.argv[1:])
        args.out.write_text(f"`{command}`\n\n{text}", encoding="utf-8")
    return 0 if all(row.verdict == "valid" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
