"""Certificates of loss of a game's numbered deals: written, checked, measured.

Each deal of the range is decided by exhaustive search (``dfs``, within ``--max-states``
stored positions); each one it proves lost gets a certificate (``solver.certify``), which
the independent checker then checks against the deal (``checker.check``). Per lost deal:
the certificate's positions and bytes, CPU seconds to write and to check, and what the
check said; then totals, and how many deals were won or left undecided.

    python benchmarks/certificates_cr.py crescent 1-100 -V suits=2 -V ranks=4 -V piles=3 -V redeals=1

Seconds are processor seconds (``time.process_time``) of this process; the table is
Markdown, for data/<game>/certificates.md.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from checker import certificate as certificate_file, game_module
from checker.check import check, start_line
from games import find_game
from solver.app.cli import parse_variants, variant_of
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def measure(game: Any, numbers: range, max_states: int, folder: Path) -> list[dict[str, Any]]:
    """Decide each deal; certify and check the lost ones. One row per deal."""
    module = game_module(game.name)
    rows = []
    for number in numbers:
        state = game.deal(number)
        verdict = dfs(game, state, Budget(max_states=max_states)).status
        row: dict[str, Any] = {"deal": number, "verdict": verdict.value}
        if verdict is Status.LOST:
            path = folder / f"{number}.cert"
            began = time.process_time()
            written = certify(game, state, path, deal=number,
                              budget=Budget(max_states=max_states))
            row["write"] = time.process_time() - began
            began = time.process_time()
            read = certificate_file.read(path)
            outcome = check(read, start_line(module, read, module.deal(number, read.variant)),
                            module)
            row["check"] = time.process_time() - began
            row.update(written=written.status, positions=written.positions,
                       bytes=written.bytes, result=outcome.fault or "valid")
        rows.append(row)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lost = [row for row in rows if row["verdict"] == "lost"]
    lines = ["| deal | positions | bytes | write CPU s | check CPU s | check |",
             "|---|---|---|---|---|---|"]
    for row in lost:
        lines.append(f"| {row['deal']} | {row['positions']:,} | {row['bytes']:,} | "
                     f"{row['write']:.2f} | {row['check']:.2f} | {row['result']} |")
    valid = sum(row["result"] == "valid" for row in lost)
    lines.append(f"| **{len(lost)} lost** | {sum(r['positions'] for r in lost):,} | "
                 f"{sum(r['bytes'] for r in lost):,} | {sum(r['write'] for r in lost):.2f} | "
                 f"{sum(r['check'] for r in lost):.2f} | {valid} valid |")
    won = sum(row["verdict"] == "won" for row in rows)
    unknown = [str(row["deal"]) for row in rows if row["verdict"] == "unknown"]
    lines.append("")
    lines.append(f"Deals {rows[0]['deal']}-{rows[-1]['deal']}: {won} won, {len(lost)} lost "
                 f"(all certified, {valid} checked valid), {len(unknown)} undecided"
                 + (f" ({', '.join(unknown)})" if unknown else "") + ".")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("deals", type=deal_range, help="FIRST-LAST")
    parser.add_argument("-V", "--variant", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--max-states", type=int, default=2_000_000)
    options = parser.parse_args()
    game = find_game(options.game, parse_variants(options.variant))
    changed = {k: v for k, v in variant_of(game).items()
               if v != variant_of(find_game(options.game, {}))[k]}
    with tempfile.TemporaryDirectory() as folder:
        rows = measure(game, options.deals, options.max_states, Path(folder))
    print(f"{game.name} {changed or '(default rules)'}, deals {options.deals.start}-"
          f"{options.deals.stop - 1}, dfs within {options.max_states:,} positions\n")
    print(table(rows))


if __name__ == "__main__":
    main()
