"""Bridge Solitaire's figures: best scores and contracts under full information, and the
expected score when the hidden cards are unknown.

Full information, from `solitaire classify` results (each record's moves are replayed to
name the contract):

    solitaire classify bridge-solitaire 1-10000 --seconds 60 --cpu --jobs 1 -o b.jsonl
    python benchmarks/bridge_figures.py b.jsonl [--table 1-40]

Hidden cards (``--hidden 1-100 --samples 20``): for each deal, the 41 cards not face up
are dealt again at random (``unknown_samples``) as the face-down cards and the stock, and
each sample is scored by the full-information best (``best_play``: a player who could
see them, an upper bound on any player's expectation), by two rule-following players who
see only what the rules show (``blind_score``, keeping the lowest or the highest face-up
cards: a lower bound), and by the same choice and bid with the best play knowing the
stock (what those rules leave to the play). Means over all samples, with 95% intervals taken
over the deals' own means (the samples of one deal share its face-up cards).

    python benchmarks/bridge_figures.py --hidden 1-100 --samples 20

The rule-following players alone on the numbered deals (``--blind 1-10000``): each deal is
one draw of what they cannot see, so their mean over many deals is their expected score.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from games.bridge_solitaire import (BLIND_KEEPS, GAME, STRAINS, best_play, blind_score,
                                    unknown_samples)
from solver.verify import replay_notation


def quantiles(values: list[float]) -> str:
    """Return min, quartiles and max of `values`."""
    ordered = sorted(values)
    cut = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return (f"min {ordered[0]:,.0f}, quartiles {cut[0]:,.0f} / {cut[1]:,.0f} / {cut[2]:,.0f}, "
            f"max {ordered[-1]:,.0f}")


def interval(values: list[float]) -> str:
    """Return the mean with a 95% normal interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:,.0f} ± {half:,.0f}"


def full_information(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    status = Counter(row["status"] for row in rows)
    scores = [row["score"] for row in rows if row.get("score") is not None]
    proven = sum(1 for row in rows if row.get("optimal"))
    cpu = [row["cpu_seconds"] for row in rows]
    contracts: Counter[str] = Counter()
    for row in rows:
        if not row.get("moves"):
            continue
        state = GAME.deal(int(row["deal"]))
        after = replay_notation(GAME, state, row["moves"][:2])
        contract = GAME.contract(after)
        assert contract is not None
        side = "declare" if contract.player_declares else "defend"
        contracts[f"{side} {contract.level}{STRAINS[contract.strain]}"] += 1
    print(f"deals {len(rows):,}: {dict(status)}; best proven in {proven:,}")
    print(f"best score: mean {statistics.fmean(scores):,.0f}, median "
          f"{statistics.median(scores):,.0f}; {quantiles(scores)}; positive in "
          f"{sum(s > 0 for s in scores) / len(scores):.2%}")
    print(f"CPU s a deal: median {statistics.median(cpu):.2f}, worst {max(cpu):.2f}, "
          f"all {sum(cpu):,.0f}")
    sides = Counter(name.split()[0] for name in contracts.elements())
    print("side: " + ", ".join(f"{side} {count / sum(sides.values()):.1%}"
                               for side, count in sides.most_common()))
    levels = Counter(name.split()[0] + " " + name.split()[1][0] for name in contracts.elements())
    print("level: " + ", ".join(f"{name} {count:,}" for name, count in sorted(levels.items())))
    print("most common contracts: " + ", ".join(f"{name} {count:,}"
                                                for name, count in contracts.most_common(12)))


def table(path: Path, deals: range) -> None:
    """Print a markdown row for each deal of `deals` in the results: its best score, the
    contract, the player's tricks, the kept cards and the CPU seconds."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows[int(row["deal"])] = row
    print("| deal | best score | contract | player's tricks | kept cards | CPU s |")
    print("|---|---|---|---|---|---|")
    for number in deals:
        row = rows.get(number)
        if row is None or not row.get("moves"):
            continue
        state = GAME.deal(number)
        bid = replay_notation(GAME, state, row["moves"][:2])
        final = replay_notation(GAME, state, row["moves"])
        contract = GAME.contract(bid)
        assert contract is not None
        side = "declare" if contract.player_declares else "defend"
        kept = row["moves"][0].partition(":")[2].replace("+", " ")
        print(f"| {number} | {row['score']:,} | {side} {contract.level}{STRAINS[contract.strain]} "
              f"| {final.tricks + len(final.hand)} | {kept} | {row['cpu_seconds']:.2f} |")


def hidden(deals: range, samples: int) -> None:
    seen: list[float] = []
    players = [(keep, see) for keep in BLIND_KEEPS for see in (False, True)]
    blind: dict[tuple[str, bool], list[float]] = {player: [] for player in players}
    means: dict[object, list[float]] = {player: [] for player in ("seen", *players)}
    began = time.process_time()
    for number in deals:
        state = GAME.deal(number)
        dealt = unknown_samples(state.face_up, samples, number)
        values = [best_play(state.face_up, face_down, stock)[0] for face_down, stock in dealt]
        seen += values
        means["seen"].append(statistics.fmean(values))
        for keep, see in players:
            values = [blind_score(state.face_up, face_down, stock, keep, see_stock=see)
                      for face_down, stock in dealt]
            blind[keep, see] += values
            means[keep, see].append(statistics.fmean(values))
    print(f"deals {deals.start}-{deals.stop - 1}, {samples} samples each "
          f"({len(seen):,} in all), {time.process_time() - began:,.0f} CPU s")
    print(f"seeing the hidden cards (full information): mean {interval(means['seen'])}; "
          f"{quantiles(seen)}")
    for (keep, see), values in blind.items():
        play = "the best play seeing the stock" if see else "playing by rule"
        print(f"keeping the {keep} cards, bidding by rule, {play}: mean "
              f"{interval(means[keep, see])}; {quantiles(values)}; positive in "
              f"{sum(v > 0 for v in values) / len(values):.1%}")


def blind(deals: range) -> None:
    """Score the rule-following players on the numbered deals themselves: each deal is one
    draw of the cards they cannot see, so the mean over many deals is their expected
    score (the full-information results of the same deals give the other bound)."""
    players = [(keep, see) for keep in BLIND_KEEPS for see in (False, True)]
    values: dict[tuple[str, bool], list[float]] = {player: [] for player in players}
    began = time.process_time()
    for number in deals:
        state = GAME.deal(number)
        for keep, see in players:
            values[keep, see].append(blind_score(state.face_up, state.face_down, state.stock,
                                                 keep, see_stock=see))
    print(f"deals {deals.start}-{deals.stop - 1}, {time.process_time() - began:,.0f} CPU s")
    for (keep, see), found in values.items():
        play = "the best play seeing the stock" if see else "playing by rule"
        print(f"keeping the {keep} cards, bidding by rule, {play}: mean {interval(found)}; "
              f"{quantiles(found)}; positive in {sum(v > 0 for v in found) / len(found):.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", type=Path, help="classify results (JSON lines)")
    parser.add_argument("--hidden", help="deals for the hidden-card figures, e.g. 1-100")
    parser.add_argument("--samples", type=int, default=20, help="samples a deal (20)")
    parser.add_argument("--table", help="deals of the results to list one by one, e.g. 1-40")
    parser.add_argument("--blind", help="deals to score the rule-following players on, "
                        "e.g. 1-10000")
    args = parser.parse_args()
    if args.results is None and args.hidden is None and args.blind is None:
        parser.error("give a results file, --hidden or --blind")
    if args.results is not None:
        full_information(args.results)
        if args.table is not None:
            first, _, last = args.table.partition("-")
            table(args.results, range(int(first), int(last or first) + 1))
    if args.blind is not None:
        first, _, last = args.blind.partition("-")
        blind(range(int(first), int(last or first) + 1))
    if args.hidden is not None:
        first, _, last = args.hidden.partition("-")
        hidden(range(int(first), int(last or first) + 1), args.samples)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
