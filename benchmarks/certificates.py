"""Certificates of loss, written and checked: size, positions and processor seconds per deal.

Usage::

    python benchmarks/certificates.py freecell                      # the 8 unwinnable deals < 1M
    python benchmarks/certificates.py klondike --variant draw=3     # the lost deals of 1-100
    python benchmarks/certificates.py gaps 1-100 --variant suits=3 --variant ranks=5 --variant redeals=0
    python benchmarks/certificates.py bridge-solitaire 2 --assume-lost --moves keep:9C+6D+8D+TD+QD+6H

With no DEALS, a game's known lost deals (below, each list with where it comes from); with
DEALS (``1-100,238``), each deal is first decided by an exhaustive depth-first search within
``--max-states`` (``--assume-lost`` skips that), and only the lost ones are certified. For
each: the certificate is written (``solver.certify``, the writer ``solve --certificate``
uses), read back and checked by the independent checker against the deal its own module
deals (``checker.check``, as ``solitaire check FILE GAME --deal N`` does), and its bytes,
positions (and those closed by a static proof), processor seconds to write and to check (the
best of ``--runs``), the best score a scored game's certificate confirms, and the check's
answer are printed as a Markdown table with totals; ``--out`` writes it with the command.
``--moves`` certifies the position those steps reach from each deal instead (a game whose
lost positions come later in a game, as Bridge Solitaire's do: every numbered deal of
1-1,000 scores above 0), checked against its text as the checker reads it.
Exit status 1 when a certificate is not ``valid``. This measures; it is never run as a test.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker import certificate, game_module  # noqa: E402
from checker.check import check, start_line  # noqa: E402
from games import find_game, parse_variants  # noqa: E402
from solver.certify import certify  # noqa: E402
from solver.game import Game, Status  # noqa: E402
from solver.search import Budget, dfs  # noqa: E402
from solver.verify import replay_notation  # noqa: E402

# -- the known lost deals --------------------------------------------------------------

# The unwinnable Microsoft FreeCell deals below one million (Freecell Solver's and others'
# exhaustive searches agree on these eight).
FREECELL_LOST = [11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948]
# Seahaven Towers deals 1-100 Freecell Solver finds unsolvable (data/seahaven/known.txt).
SEAHAVEN_LOST = [21, 34, 68, 70, 73, 75, 80, 89, 91, 92, 100]
# Klondike's lost deals of PySolFC 1-100 by draw (unlimited passes), as found by
#   solitaire classify klondike 1-100 [-V draw=3] -o d.jsonl --seconds 20 --cpu
# (36 and 54 stay undecided there with draw 1).
KLONDIKE_LOST = {1: [12, 29, 31, 61, 68, 72, 73, 95],
                 3: [7, 10, 12, 14, 23, 29, 30, 31, 35, 38, 41, 49, 58, 61, 64, 66, 67, 68,
                     72, 73, 82, 91, 95, 99]}
# Yukon's lost deals of PySolFC 1-100 (solitaire classify yukon 1-100 --seconds 20 --cpu;
# 28, 64, 67, 78 and 91 stay undecided there).
YUKON_LOST = [10, 77, 96]
# The first one-pass Forty Thieves deals proven lost (none of 1-100 is).
FORTY_THIEVES_ONE_PASS_LOST = [238, 393, 459, 770]
WINNABLE = ROOT / "data" / "winnable"


def known_lost(game: Game[Any, Any]) -> list[int] | None:
    """Return the game's known lost deals (None: give DEALS)."""
    name, options = game.name, vars(game)
    if name == "freecell" and options == vars(find_game("freecell", {})):
        return FREECELL_LOST
    if name == "seahaven" and options == vars(find_game("seahaven", {})):
        return SEAHAVEN_LOST
    if name == "klondike" and options == vars(find_game("klondike", {"draw": options["draw"]})):
        return KLONDIKE_LOST.get(options["draw"])
    if name == "yukon" and options == vars(find_game("yukon", {})):
        return YUKON_LOST
    if name == "forty-thieves" and options == vars(find_game(name, {"redeal": False})):
        return FORTY_THIEVES_ONE_PASS_LOST
    if name == "black-hole" and options == vars(find_game(name, {})):
        return lost_in_range("black-hole", 1000)
    if name == "clock" and options == vars(find_game(name, {})):
        return [n for n in range(1, 101) if not _won_by_play(game, n)]
    return None


def lost_in_range(name: str, last: int) -> list[int]:
    """The deals 1..`last` that ``data/winnable/<game>/`` does not list as won (its files
    cover deals 1..`last`: every deal there is won, every other one was proven lost)."""
    won: set[int] = set()
    for tier in (WINNABLE / name).glob("*.txt"):
        for line in tier.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                won.add(int(line.split()[0]))
    return [number for number in range(1, last + 1) if number not in won]


def _won_by_play(game: Game[Any, Any], number: int) -> bool:
    """The Clock: play its forced moves out (each position has at most one)."""
    state = game.deal(number)
    while game.moves(state):
        state = game.play(state, list(game.moves(state))[0])
    return bool(game.is_won(state))


# -- writing and checking ------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One deal's figures."""

    deal: int
    status: str                  # "lost" (written), "won", or "unknown (budget)"
    positions: int
    by_facts: int
    size: int                    # the file's bytes
    write_seconds: float         # processor seconds, the best of the runs
    check_seconds: float
    best: int | None             # the best score the certificate claims (scored games)
    verdict: str                 # "valid", the checker's fault, or "" (nothing written)


def certify_and_check(game: Game[Any, Any], number: int, folder: Path, budget: Budget,
                      runs: int, steps: tuple[str, ...] = ()) -> Row:
    """Write deal `number`'s certificate (of the position `steps` reach from it, if any)
    and check it, `runs` times each; keep the best processor times."""
    module = game_module(game.name)
    assert module is not None, f"the checker has no module for {game.name}"
    path = folder / f"{number}.cert"
    writes, checks, verdict, best = [], [], "", None
    state = replay_notation(game, game.deal(number), steps)
    for _ in range(runs):
        began = time.process_time()
        written = certify(game, state, path, deal=None if steps else number, budget=budget)
        writes.append(time.process_time() - began)
        if written.status != "lost":
            status = written.status if written.status == "won" else \
                f"unknown ({written.stopped_by})"
            return Row(number, status, written.positions, 0, 0, min(writes), 0.0, None, "")
    for _ in range(runs):
        began = time.process_time()
        read = certificate.read(path)
        start = module.parse(game.format(state), read.variant) if steps else \
            module.deal(number, read.variant)
        outcome = check(read, start_line(module, read, start), module)
        checks.append(time.process_time() - began)
        verdict, best = ("valid" if outcome.valid else outcome.fault), outcome.best
    size = path.stat().st_size
    path.unlink()
    return Row(number, "lost", written.positions, written.closed_by_facts, size, min(writes),
               min(checks), best, verdict)


def table(rows: list[Row], won: int, undecided: list[int]) -> str:
    """The figures as a Markdown table with a line of totals."""
    scored = any(row.best is not None for row in rows)
    lines = ["| deal | certificate | positions | closed by facts | bytes (xz) | CPU s to write "
             "| CPU s to check |" + (" best |" if scored else "") + " check |",
             "|---:|---|---:|---:|---:|---:|---:|" + ("---:|" if scored else "") + "---|"]
    for r in rows:
        best = f" {r.best} |" if scored else ""
        lines.append(f"| {r.deal} | {r.status} | {r.positions:,} | {r.by_facts:,} | {r.size:,} | "
                     f"{r.write_seconds:.2f} | {r.check_seconds:.2f} |{best} {r.verdict or '-'} |")
    done = [r for r in rows if r.status == "lost"]
    lines.append(f"| total | {len(done)} certified | {sum(r.positions for r in done):,} | "
                 f"{sum(r.by_facts for r in done):,} | {sum(r.size for r in done):,} | "
                 f"{sum(r.write_seconds for r in done):.2f} | "
                 f"{sum(r.check_seconds for r in done):.2f} |" + (" |" if scored else "")
                 + f" {sum(r.verdict == 'valid' for r in done)} valid |")
    if won or undecided:
        lines += ["", f"Not certified: {won} won" + (f", {len(undecided)} undecided within the "
                  f"state budget ({', '.join(map(str, undecided))})" if undecided else "") + "."]
    return "\n".join(lines) + "\n"


def deal_list(text: str) -> list[int]:
    """Return the deal numbers of ``1-100,238,393``."""
    found: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        found.extend(range(int(first), int(last or first) + 1))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("deals", nargs="?", type=deal_list,
                        help="deal numbers, like 1-100,238 (default: the game's known lost "
                             "deals)")
    parser.add_argument("-V", "--variant", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--assume-lost", action="store_true",
                        help="certify DEALS without deciding them first")
    parser.add_argument("--max-states", type=int, default=3_000_000,
                        help="positions the deciding search and the writer may store")
    parser.add_argument("--seconds", type=float, default=600.0,
                        help="CPU seconds the writer may take a deal")
    parser.add_argument("--runs", type=int, default=1, help="runs of each; the best time counts")
    parser.add_argument("--moves", default="", metavar="STEPS",
                        help="certify the position these steps (in notation, separated by "
                             "spaces) reach from each deal")
    parser.add_argument("--out", type=Path, help="write the table as Markdown to this file")
    args = parser.parse_args(argv)
    game = find_game(args.game, parse_variants(args.variant))
    budget = Budget(max_states=args.max_states, seconds=args.seconds, cpu=True)
    chosen, decide = args.deals, not args.assume_lost
    if chosen is None:
        chosen, decide = known_lost(game), False
        if chosen is None:
            parser.error(f"no known lost deals of {game.name} with these options: give DEALS")
    rows, won, undecided = [], 0, []
    with tempfile.TemporaryDirectory() as folder:
        for number in chosen:
            if decide:
                start = replay_notation(game, game.deal(number), args.moves.split())
                status = dfs(game, start, Budget(max_states=args.max_states)).status
                if status is not Status.LOST:
                    won += status is Status.WON
                    undecided += [number] if status is Status.UNKNOWN else []
                    continue
            row = certify_and_check(game, number, Path(folder), budget, args.runs,
                                    tuple(args.moves.split()))
            print(row, file=sys.stderr, flush=True)
            rows.append(row)
    text = table(rows, won, undecided)
    print(text, end="")
    if args.out is not None:
        command = "python benchmarks/certificates.py " + " ".join(argv or sys.argv[1:])
        args.out.write_text(f"`{command}`\n\n{text}", encoding="utf-8")
    return 0 if all(row.verdict == "valid" for row in rows if row.status == "lost") else 1


if __name__ == "__main__":
    sys.exit(main())
