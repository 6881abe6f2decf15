"""Certificates of loss, written and checked: size, positions and processor seconds per deal.

For each deal: the certificate is written (``solver.certify``, CPU seconds to write), read
back and checked by the independent checker against the deal its own module deals
(``checker.check``, CPU seconds to check, reading the file included). Each game's deals and
variants are a function here, chosen on the command line:

    python benchmarks/certificates.py klondike --out data/klondike/certificates.md

A deal whose writing runs out of the budget (``--max-states``, ``--seconds``) is reported
with the positions it reached.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker import certificate, game_module  # noqa: E402
from checker.check import check, start_line  # noqa: E402
from solver.certify import certify  # noqa: E402
from solver.game import Game  # noqa: E402
from solver.search.result import Budget  # noqa: E402


@dataclass(frozen=True)
class Row:
    """One deal's figures."""

    deal: int
    status: str                  # "lost" (written), "won", or "unknown" (budget: stopped_by)
    positions: int
    by_facts: int
    size: int                    # the file's bytes
    write_seconds: float
    check_seconds: float
    verdict: str                 # "valid", the checker's fault, or "" (nothing written)


def certify_deals(game: Game[Any, Any], deals: list[int], budget: Budget,
                  report: Callable[[Row], None] = lambda row: None) -> list[Row]:
    """Write and check a certificate for each deal; return the figures."""
    module = game_module(game.name)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for number in deals:
            path = Path(folder) / f"{number}.cert"
            began = time.process_time()
            written = certify(game, game.deal(number), path, deal=number, budget=budget)
            wrote = time.process_time() - began
            verdict, checking = "", 0.0
            if written.status == "lost":
                began = time.process_time()
                read = certificate.read(path)
                expected = start_line(module, read, module.deal(number, read.variant))
                outcome = check(read, expected, module)
                checking = time.process_time() - began
                verdict = "valid" if outcome.valid else outcome.fault
                path.unlink()
            row = Row(number, written.status if written.status != "unknown" else
                      f"unknown ({written.stopped_by})", written.positions,
                      written.closed_by_facts, written.bytes, wrote, checking, verdict)
            report(row)
            rows.append(row)
    return rows


def table(rows: list[Row]) -> list[str]:
    """The figures as a Markdown table, with a totals line for the certified deals."""
    lines = ["| deal | certificate | positions | closed by facts | bytes (xz) | CPU s to write "
             "| CPU s to check | check |",
             "|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r.deal} | {r.status} | {r.positions:,} | {r.by_facts:,} | "
                     f"{r.size:,} | {r.write_seconds:.2f} | {r.check_seconds:.2f} | "
                     f"{r.verdict or '-'} |")
    done = [r for r in rows if r.status == "lost"]
    lines.append(f"| total ({len(done)} certified) | | {sum(r.positions for r in done):,} | "
                 f"{sum(r.by_facts for r in done):,} | {sum(r.size for r in done):,} | "
                 f"{sum(r.write_seconds for r in done):.2f} | "
                 f"{sum(r.check_seconds for r in done):.2f} | "
                 f"{sum(r.verdict == 'valid' for r in done)} valid |")
    return lines


# -- Klondike --------------------------------------------------------------------------

# The lost deals of PySolFC 1-100, and the undecided ones (36 and 54), as found by
#   solitaire classify klondike 1-100 -o d1.jsonl --seconds 20 --cpu
#   solitaire classify klondike 1-100 -V draw=3 -o d3.jsonl --seconds 20 --cpu
KLONDIKE_LOST = {
    1: [12, 29, 31, 61, 68, 72, 73, 95],
    3: [7, 10, 12, 14, 23, 29, 30, 31, 35, 38, 41, 49, 58, 61, 64, 66, 67, 68, 72, 73, 82,
        91, 95, 99],
}
KLONDIKE_UNDECIDED = [36, 54]


def klondike(budget: Budget, deals: list[int] | None, undecided: bool) -> list[str]:
    """Klondike draw 1 and draw 3 (unlimited passes): the lost deals of 1-100."""
    from games.klondike import Klondike

    out = ["# Klondike: certificates of loss, PySolFC deals 1-100", ""]
    for draw, lost in KLONDIKE_LOST.items():
        chosen = deals or lost + (KLONDIKE_UNDECIDED if undecided else [])
        print(f"draw {draw}: deals {chosen}", flush=True)
        rows = certify_deals(Klondike(draw=draw), chosen, budget, report=lambda r: print(r, flush=True))
        out += [f"## Draw {draw}, unlimited passes", "", *table(rows), ""]
    return out


# -- Yukon -----------------------------------------------------------------------------

# The lost deals of PySolFC 1-100 and the undecided ones (deal 28 is lost: 5.0 million
# positions by dfs, data/yukon/winnability.md), as found by
#   solitaire classify yukon 1-100 -o y.jsonl --seconds 20 --cpu
YUKON_LOST = [10, 77, 96]
YUKON_UNDECIDED = [28, 64, 67, 78, 91]


def yukon(budget: Budget, deals: list[int] | None, undecided: bool) -> list[str]:
    """Yukon (Kings to empty columns): the lost deals of 1-100."""
    from games.yukon import Yukon

    chosen = deals or YUKON_LOST + (YUKON_UNDECIDED if undecided else [])
    rows = certify_deals(Yukon(), chosen, budget, report=lambda r: print(r, flush=True))
    return ["# Yukon: certificates of loss, PySolFC deals 1-100", "", *table(rows), ""]


GAMES: dict[str, Callable[[Budget, list[int] | None, bool], list[str]]] = {
    "klondike": klondike, "yukon": yukon}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--deals", type=lambda text: [int(n) for n in text.split(",")],
                        help="these deals instead of the game's list (comma-separated)")
    parser.add_argument("--undecided", action="store_true",
                        help="try the deals classify left undecided too")
    parser.add_argument("--max-states", type=int, default=3_000_000)
    parser.add_argument("--seconds", type=float, default=600.0, help="CPU seconds a deal")
    parser.add_argument("--out", type=Path, help="write the Markdown here (else print it)")
    args = parser.parse_args()
    budget = Budget(max_states=args.max_states, seconds=args.seconds, cpu=True)
    lines = GAMES[args.game](budget, args.deals, args.undecided)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
