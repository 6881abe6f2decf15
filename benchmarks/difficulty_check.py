"""Check the difficulty score against orders that do not come from it, on Microsoft FreeCell.

Two checks (README, "Difficulty"; figures in data/difficulty/README.md):

1. The dial. The score never reads the least free cells a deal needs; this script finds
   them apart (FreeCell with 1 free cell, then with 2) and measures how well the score
   separates the deals won with at most one free cell from those not won with two: the
   area under the ROC curve (1.0: every "not won with two" deal scores harder than every
   "won with one" deal; 0.5: chance). "Not won with two" means proven lost with two cells,
   or undecided within the search's budget (both counts are given).
2. The shortest solution. The Pearson and Spearman correlations of the score with the
   proven-shortest length (A*'s, counted in moves as Microsoft FreeCell counts them),
   over the deals where A* proved it within its budget (Chen 2015 reaches 0.44).

The weights are fitted (logistic regression on the same two classes) on the first deals
(``--fit-to``) and checked on the others, so that the figures on the rest are out of sample.

    python benchmarks/difficulty_check.py run 1-300 --out data/difficulty/freecell-cards.jsonl --jobs 2
    python benchmarks/difficulty_check.py report data/difficulty/freecell-cards.jsonl --fit-to 150

``run`` is resumable (deals already in ``--out`` are skipped); every budget is in
positions and processor seconds. ``report`` prints the figures and the fitted weights
and writes the lists beside the cards file.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.app.difficulty import (GUIDED_GAMES, RANDOM_GAMES, WEIGHTS, Features,  # noqa: E402
                                   Settings, card, graded, guided_play, random_play, score)
from solver.game import Status  # noqa: E402
from solver.search import Budget  # noqa: E402

CARD_SECONDS = 20.0        # processor seconds of each card (shared by its stages)
DIAL_STATES = 300_000      # positions each 1- and 2-cell search may store
DIAL_SECONDS = 8.0         # and its processor seconds
CHEN = 0.44                # Chen (2015): correlation with solution length
RIDGE = 1.0                # the fit's penalty on the squared weights


def measure(deal: int) -> dict[str, Any]:
    """Return one deal's line: the card's features and fields, and the dial found apart."""
    from dataclasses import replace

    from games import find_game
    from solver.app.analyze import solve

    game = find_game("freecell")
    state = game.deal(deal)
    started = time.process_time()
    made = card(game, state, deal, Settings(seconds=CARD_SECONDS, cpu=True, least=False))
    dial: dict[str, str] = {}
    for cells in (1, 2):
        other = replace(game, cells=cells)     # type: ignore[type-var]
        result = solve(other, other.deal(deal), None,
                       Budget(max_states=DIAL_STATES, seconds=DIAL_SECONDS, cpu=True))
        dial[str(cells)] = result.status.value
        if result.status is Status.WON:
            break
    fields = made.fields()
    return {"deal": deal, "status": made.verdict.status.value, "features": fields["features"],
            "difficulty": fields["difficulty"], "shortest": fields["shortest"],
            "first_moves": fields["first_moves"], "critical": fields["critical"],
            "cells": dial, "random_games": RANDOM_GAMES, "guided_games": GUIDED_GAMES,
            "cpu_seconds": round(time.process_time() - started, 2)}


def deals(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = {json.loads(line)["deal"] for line in out.read_text().splitlines() if line.strip()} \
        if out.exists() else set()
    todo = [deal for deal in deals(args.deals) if deal not in done]
    with out.open("a") as sink:
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                for line in pool.imap(measure, todo):
                    sink.write(json.dumps(line) + "\n")
                    sink.flush()
                    print(line["deal"], line["difficulty"], line["cells"], file=sys.stderr)
        else:
            for deal in todo:
                line = measure(deal)
                sink.write(json.dumps(line) + "\n")
                sink.flush()
                print(line["deal"], line["difficulty"], line["cells"], file=sys.stderr)


# -- the figures ------------------------------------------------------------------------

def label(line: dict[str, Any]) -> int | None:
    """1: not won with two free cells (harder); 0: won with at most one; None: neither."""
    cells = line["cells"]
    if cells.get("1") == "won":
        return 0
    if cells.get("2") in ("lost", "unknown"):
        return 1
    return None


def features(line: dict[str, Any]) -> list[float]:
    values = Features(**line["features"]).values()
    return [values[name] for name in FEATURE_NAMES]


FEATURE_NAMES = tuple(name for name in WEIGHTS if name != "bias")     # the score's inputs


def fit(rows: list[tuple[list[float], int]], rounds: int = 50, ridge: float = RIDGE) -> dict[str, float]:
    """Return logistic-regression weights (Newton's method on standardised features; a
    ridge penalty on the weights, not the bias, keeps them small where the classes
    nearly separate), in the features' own units."""
    count = len(rows)
    means = [sum(x[i] for x, _ in rows) / count for i in range(len(FEATURE_NAMES))]
    spreads = [math.sqrt(sum((x[i] - means[i]) ** 2 for x, _ in rows) / count) or 1.0
               for i in range(len(FEATURE_NAMES))]
    scaled = [([(v - m) / sd for v, m, sd in zip(x, means, spreads)], y) for x, y in rows]
    standard = _fit(scaled, rounds, ridge)
    weights = {name: standard[name] / spreads[i] for i, name in enumerate(FEATURE_NAMES)}
    bias = standard["bias"] - sum(weights[name] * means[i] for i, name in enumerate(FEATURE_NAMES))
    return {"bias": bias, **weights}


def _fit(rows: list[tuple[list[float], int]], rounds: int, ridge: float) -> dict[str, float]:
    beta = logistic(rows, rounds, ridge)
    return {"bias": beta[0], **{name: beta[i + 1] for i, name in enumerate(FEATURE_NAMES)}}


def logistic(rows: list[tuple[list[float], int]], rounds: int = 50,
             ridge: float = 0.0) -> list[float]:
    """Return the bias and one weight a column of a logistic regression of the labels on
    the rows' columns (Newton's method from zero; `ridge` penalises the weights, not the
    bias). The columns should be standardised."""
    size = len(rows[0][0]) + 1
    beta = [0.0] * size
    for _ in range(rounds):
        gradient = [0.0] * size
        hessian = [[ridge if i == j and i else 0.0 for j in range(size)] for i in range(size)]
        for x, y in rows:
            v = [1.0] + x
            p = 1 / (1 + math.exp(-max(-60.0, min(60.0, sum(b * xi for b, xi in zip(beta, v))))))
            for i in range(size):
                gradient[i] += (y - p) * v[i]
                for j in range(size):
                    hessian[i][j] += p * (1 - p) * v[i] * v[j]
        for i in range(1, size):
            gradient[i] -= ridge * beta[i]
        step = solve_linear(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step)]
    return beta


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def auc(scored: list[tuple[float, int]]) -> float:
    """Area under the ROC curve: the chance a positive scores above a negative (ties half)."""
    positives = [s for s, y in scored if y == 1]
    negatives = [s for s, y in scored if y == 0]
    if not positives or not negatives:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sxy / (sx * sy) if sx and sy else float("nan")


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    for text in path.read_text().splitlines():
        if text.strip():
            yield json.loads(text)


def figures(lines: list[dict[str, Any]], weights: dict[str, float]) -> dict[str, Any]:
    """Return the AUC and the correlations of the score under `weights` over `lines`."""
    won = [line for line in lines if line["status"] == "won"]
    scored = [(score(Features(**line["features"]), weights), label(line)) for line in won]
    labelled = [(s, y) for s, y in scored if y is not None]
    proven = [(score(Features(**line["features"]), weights), line["shortest"]["length"])
              for line in won if line["shortest"] and line["shortest"]["optimal"]]
    xs, ys = [s for s, _ in proven], [float(n) for _, n in proven]
    return {"deals": len(lines), "won": len(won),
            "easy": sum(1 for _, y in labelled if y == 0),
            "hard": sum(1 for _, y in labelled if y == 1),
            "auc": auc(labelled), "proven": len(proven),
            "pearson": pearson(xs, ys), "spearman": pearson(ranks(xs), ranks(ys))}


def report(args: argparse.Namespace) -> None:
    path = Path(args.cards)
    lines = sorted(read_lines(path), key=lambda line: line["deal"])
    train = [line for line in lines if line["deal"] <= args.fit_to]
    test = [line for line in lines if line["deal"] > args.fit_to]
    rows = [(features(line), y) for line in train if line["status"] == "won"
            for y in [label(line)] if y is not None]
    fitted = fit(rows)
    print("fitted weights:", json.dumps({k: round(v, 3) for k, v in fitted.items()}))
    print("weights in solver/app/difficulty.py:", json.dumps(WEIGHTS))
    for name, part in (("fit", train), ("check", test), ("all", lines)):
        print(name, "(fitted now)", json.dumps(figures(part, fitted)))
        print(name, "(the module's)", json.dumps(figures(part, WEIGHTS)))
    with path.open("w") as sink:             # the difficulty field under the module's weights
        for line in lines:
            if line["status"] == "won":
                line["difficulty"], line["tier"] = graded(Features(**line["features"]))
            else:
                line["tier"] = line["status"]
            sink.write(json.dumps(line) + "\n")
    folder = path.parent
    command = f"python benchmarks/difficulty_check.py report {args.cards} --fit-to {args.fit_to}"
    hard2 = [line for line in lines if label(line) == 1]
    lists = {
        "freecell-won-with-1-cell.txt": [str(line["deal"]) for line in lines if label(line) == 0],
        "freecell-not-won-with-2-cells.txt":
            [f"{line['deal']} {line['cells']['2']}" for line in hard2],
        "freecell-proven-shortest.txt":
            [f"{line['deal']} {line['shortest']['length']}" for line in lines
             if line["shortest"] and line["shortest"]["optimal"]],
        "freecell-difficulty.txt":
            [f"{line['deal']} {graded(Features(**line['features']))[0]}"
             for line in lines if line["status"] == "won"],
    }
    for name, rows_ in lists.items():
        (folder / name).write_text(f"# {command}\n" + "".join(r + "\n" for r in rows_))
    print("wrote", ", ".join(lists))


def augment(args: argparse.Namespace) -> None:
    """Measure random and guided play on each line that lacks the card's figures (a file
    written before the card measured random play's progress, or guided play): the same
    seeded games as ``card`` plays, so every line then holds what a card would. Only what
    a line lacks is measured."""
    path = Path(args.cards)
    lines = list(read_lines(path))
    todo = [(line["deal"], missing(line)) for line in lines if any(missing(line))]
    with multiprocessing.Pool(args.jobs) as pool:
        found = dict(zip([deal for deal, _ in todo], pool.starmap(play_features, todo)))
    for line in lines:
        if line["deal"] in found:
            line["features"].update(found[line["deal"]])
            line["random_games"], line["guided_games"] = RANDOM_GAMES, GUIDED_GAMES
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def missing(line: dict[str, Any]) -> tuple[bool, bool]:
    """Whether a line lacks the card's random-play figures, and its guided-play figure."""
    return (line.get("random_games") != RANDOM_GAMES or "progress" not in line["features"],
            line.get("guided_games") != GUIDED_GAMES or "guided" not in line["features"])


def play_features(deal: int, random_needed: bool = True,
                  guided_needed: bool = True) -> dict[str, float]:
    """Return a deal's random- and guided-play features (those asked for), as ``card``
    measures them."""
    from games import find_game

    game = find_game("freecell")
    out: dict[str, float] = {}
    if random_needed:
        won, progress = random_play(game, game.deal(deal), RANDOM_GAMES, 0)
        out.update(random=won / RANDOM_GAMES, progress=round(progress, 4))
    if guided_needed:
        out["guided"] = guided_play(game, game.deal(deal), GUIDED_GAMES, 0) / GUIDED_GAMES
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="measure deals (resumable)")
    go.add_argument("deals", help="a range of Microsoft deal numbers, e.g. 1-300")
    go.add_argument("--out", required=True)
    go.add_argument("--jobs", type=int, default=1)
    show = sub.add_parser("report", help="fit, check and write the lists")
    show.add_argument("cards")
    show.add_argument("--fit-to", type=int, default=150,
                      help="fit the weights on deals up to this one, check on the rest")
    again = sub.add_parser("augment", help="measure random and guided play again where they are not the card's")
    again.add_argument("cards")
    again.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    {"run": run, "report": report, "augment": augment}[args.command](args)


if __name__ == "__main__":
    main()
