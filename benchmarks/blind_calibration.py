"""Fit and check a game's blind calibration: predicted chances that match outcomes.

A blind hint's chance for a plan is its share of sampled worlds that a full-information
search wins after it: an upper bound on the chance of a player who will not see the
hidden cards (on Klondike draw 3, decisions predicted at 0.98 were followed by a won game
half the time). ``solver.app.blind.calibrated`` turns that share into a calibrated chance
with seven weights a game declares (``blind_calibration``): a logistic regression of the
game's outcome (won or lost, as the blind player played it) on the share's logit l, on
v = ln(1 + unseen cards) at the decision, on l·v, v², l² and l·v², and a constant
(``calibration_terms``). The terms were chosen by five-fold cross-validation over games
on the fitting deals (log loss): on Klondike draw 3 (deals 1-350) 0.588 with l, v and l·v
alone, 0.579 adding v², 0.574 adding v², l² and l·v², no better with l²·v too; on
CrissCross (deals 51-350) 0.562, 0.561, 0.559 and 0.559.

This script fits the weights on the records of ``solitaire play GAME ... --blind`` for the
deals up to ``--fit-to`` and checks them on the others (out of sample): the reliability
table of the raw share and of the calibrated chance, the Brier scores, and the largest gap
between predicted and realized in bins of at least ``--bin-min`` decisions (the aim: 5
points). Decisions made by one exact solve (nothing unseen) are left out: they are not
estimates::

    solitaire play crisscross 51-650 --blind --samples 100 --seed 1 -o cc.jsonl
    python benchmarks/blind_calibration.py cc.jsonl --fit-to 350

With ``--folds K`` instead of ``--fit-to``, every game is held out once: the games are dealt
into K folds by deal number (deal mod K), each fold's decisions are predicted by weights
fitted on the other folds, and the table is of those out-of-fold predictions over all the
games, twice as many as a split in halves holds out. It checks the method (seven terms
fitted on the games at hand) rather than one set of weights; the weights a game should
declare are then the ones fitted on all its games, printed last::

    python benchmarks/blind_calibration.py k3-1000.jsonl --folds 5

With ``--declared`` nothing is fitted: every decision is predicted by the weights the game
declares now (``blind_calibration`` of the records' game and variant), the check of shipped
weights on games played after they were fitted::

    python benchmarks/blind_calibration.py k3-more.jsonl --declared

Records of a game that already has weights are refitted from their raw shares, so that a
refit never reads its own output.

A game's decisions share its one outcome, so a bin of a few hundred decisions may hold
only a few dozen games, and its realized share is far noisier than its count suggests.
Each line of the calibrated table therefore gives the 95% interval of the gap (won minus
predicted) by a bootstrap over the held-out games (``--boot`` resamples, seeded): a gap
whose interval holds 0 is within the noise of the sample.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

from difficulty_check import logistic  # noqa: E402
from winnable import read_text  # noqa: E402
from solver.app.blind import calibrated, calibration_terms  # noqa: E402

BINS = 10
RIDGE = 1e-3                  # a small penalty on the slopes, for a well-posed fit
RIDGE_ROUNDS = 12             # Newton's steps (the weights settle to 1e-9 within ten)


def decisions(path: Path) -> list[tuple[int, float, int, int, bool]]:
    """Return (deal, share, worlds, unseen, won) of every estimated decision in a file,
    each deal once (the first record of it)."""
    found, seen = [], set()
    for line in read_text(path).splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue                                  # a torn last line
        if "decisions" not in record or record["deal"] in seen:
            continue
        seen.add(record["deal"])
        won = record["status"] == "won"
        for decision in record["decisions"]:
            if decision.get("exact") or "unseen" not in decision:
                continue
            found.append((record["deal"], float(decision["chance"]), int(decision["samples"]),
                          int(decision["unseen"]), won))
    return found


def declared(paths: list[Path]) -> tuple[float, ...] | None:
    """Return the calibration the records' game declares now (the first record's game and
    variant; None when it declares none, or no record names a game)."""
    from games import find_game

    for path in paths:
        for line in read_text(path).splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "game" in record:
                return find_game(record["game"], record.get("variant") or {}).blind_calibration
    return None


def fit(rows: Iterable[tuple[int, float, int, int, bool]]) -> tuple[float, ...]:
    """Return the logistic regression's weights, one a ``calibration_terms`` term (the
    constant term's last): ``difficulty_check.logistic``, Newton's method on the
    log-likelihood with a small penalty on every weight but the constant's."""
    data = [(list(calibration_terms(share, worlds, unseen)[:-1]), int(won))
            for _, share, worlds, unseen, won in rows]
    bias, *slopes = logistic(data, rounds=RIDGE_ROUNDS, ridge=RIDGE)
    return (*slopes, bias)


def binned(pairs: Iterable[tuple[float, bool]]) -> list[list[float]]:
    """Return, for each bin of predicted chance, [decisions, sum predicted, games won]."""
    bins = [[0.0, 0.0, 0.0] for _ in range(BINS)]
    for p, won in pairs:
        row = bins[min(int(p * BINS), BINS - 1)]
        row[0] += 1
        row[1] += p
        row[2] += won
    return bins


def table(pairs: list[tuple[float, bool]], bin_min: int) -> tuple[list[str], float, float]:
    """Return the reliability table's lines, the Brier score and the largest gap between
    predicted and realized in a bin of at least `bin_min` decisions."""
    lines, gap = [], 0.0
    for index, (n, predicted, won) in enumerate(binned(pairs)):
        if n:
            lines.append(f"  {index / BINS:.1f}-{(index + 1) / BINS:.1f}: {int(n):6d} decisions, "
                         f"predicted {predicted / n:.3f}, won {won / n:.3f}")
            if n >= bin_min:
                gap = max(gap, abs(predicted / n - won / n))
    brier = sum((p - won) ** 2 for p, won in pairs) / len(pairs) if pairs else 0.0
    return lines, brier, gap


def bootstrap(games: dict[int, list[tuple[float, bool]]], resamples: int,
              seed: int = 0) -> dict[int, tuple[float, float]]:
    """Return, by bin, the 95% interval of (won - predicted) when the games are drawn again
    with replacement `resamples` times (a bin empty in a resample is skipped there)."""
    deals = sorted(games)
    chooser = random.Random(seed)
    gaps: list[list[float]] = [[] for _ in range(BINS)]
    for _ in range(resamples):
        drawn = [chooser.choice(deals) for _ in deals]
        for index, (n, predicted, won) in enumerate(binned(pair for deal in drawn
                                                           for pair in games[deal])):
            if n:
                gaps[index].append((won - predicted) / n)
    out = {}
    for index, found in enumerate(gaps):
        if found:
            found.sort()
            out[index] = (found[int(0.025 * (len(found) - 1))], found[int(0.975 * (len(found) - 1))])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, nargs="+", help="play --blind results files")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--fit-to", type=int,
                     help="fit on deals up to this number, check on the others")
    how.add_argument("--folds", type=int,
                     help="cross-validate: K folds by deal number, each predicted by the others")
    how.add_argument("--declared", action="store_true",
                     help="fit nothing: predict with the weights the game declares now")
    parser.add_argument("--bin-min", type=int, default=100,
                        help="bins with at least this many decisions count for the gap")
    parser.add_argument("--boot", type=int, default=1000,
                        help="bootstrap resamples of the held-out games (0: none)")
    args = parser.parse_args(argv)
    rows = [row for path in args.records for row in decisions(path)]
    if args.declared:
        weights = declared(args.records)
        if weights is None or not rows:
            print("--declared needs records of a game and variant that declare weights",
                  file=sys.stderr)
            return 2
        held, predicted = rows, [calibrated(weights, s, n, u) for _, s, n, u, _ in rows]
        print(f"the declared weights ({', '.join(f'{w:.4f}' for w in weights)}) on "
              f"{len(rows)} decisions of {len({row[0] for row in rows})} games:")
    elif args.folds is not None:
        if args.folds < 2 or len({row[0] for row in rows}) < args.folds:
            print("--folds needs at least 2 folds and a game in each", file=sys.stderr)
            return 2
        held, predicted = rows, cross_validated(rows, args.folds)
        print(f"{args.folds}-fold cross-validation by deal number over {len(rows)} decisions "
              f"of {len({row[0] for row in rows})} games; each game predicted by weights "
              "fitted on the other folds:")
    else:
        train = [row for row in rows if row[0] <= args.fit_to]
        held = [row for row in rows if row[0] > args.fit_to]
        if not train or not held:
            print("both sides of --fit-to need decisions", file=sys.stderr)
            return 2
        weights = fit(train)
        predicted = [calibrated(weights, s, n, u) for _, s, n, u, _ in held]
        print(f"fitted on {len(train)} decisions of {len({row[0] for row in train})} games "
              f"(deals up to {args.fit_to}): weights ({', '.join(f'{w:.4f}' for w in weights)})")
        print(f"checked on {len(held)} decisions of {len({row[0] for row in held})} other games:")
    report(held, predicted, args.bin_min, args.boot)
    if args.folds is not None:
        print(f"fitted on all {len(rows)} decisions: weights "
              f"({', '.join(f'{w:.4f}' for w in fit(rows))})")
    return 0


def cross_validated(rows: list[tuple[int, float, int, int, bool]], folds: int) -> list[float]:
    """Return each decision's calibrated chance under weights fitted on the other folds
    (a game's fold: its deal number mod `folds`)."""
    weights = [fit(row for row in rows if row[0] % folds != k) for k in range(folds)]
    return [calibrated(weights[deal % folds], s, n, u) for deal, s, n, u, _ in rows]


def report(held: list[tuple[int, float, int, int, bool]], predicted: list[float],
           bin_min: int, boot: int) -> None:
    """Print the reliability tables of the raw shares and of the calibrated chances
    (`predicted`, one per decision of `held`), with the bootstrap's gap intervals."""
    games = len({row[0] for row in held})
    for name, pairs in (("raw share of won worlds", [(s, w) for _, s, _, _, w in held]),
                        ("calibrated", [(p, row[4]) for p, row in zip(predicted, held)])):
        lines, brier, gap = table(pairs, bin_min)
        print(f"{name}: Brier {brier:.3f}, largest gap in bins of {bin_min}+ "
              f"decisions {gap * 100:.1f} points")
        if name == "calibrated" and boot:
            by_game: dict[int, list[tuple[float, bool]]] = {}
            for (deal, *_), pair in zip(held, pairs):
                by_game.setdefault(deal, []).append(pair)
            spans = bootstrap(by_game, boot)
            bins_seen = sorted({min(int(p * BINS), BINS - 1) for p, _ in pairs})
            lines = [f"{line}, gap 95% [{spans[b][0] * 100:+.1f}, {spans[b][1] * 100:+.1f}] points"
                     if b in spans else line for line, b in zip(lines, bins_seen)]
            print(f"  (gap intervals: a bootstrap of the {games} held-out games, {boot} "
                  "resamples)")
        print("\n".join(lines))


if __name__ == "__main__":
    raise SystemExit(main())
