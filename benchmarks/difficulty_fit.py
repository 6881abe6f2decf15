"""Fit a game's own difficulty weights against its own dial of resources, and check them.

The difficulty score (``solver.app.difficulty.score``) reads measured features only; its
default weights were fitted on Microsoft FreeCell against the free cells a deal needs
(``benchmarks/difficulty_check.py``). Read on another game's deals they may not grade them
at all: on Klondike (draw 1) random play gets far on nearly every deal, and every won deal
of the first thousand scores under 3 (easy). A game with a dial (``Game.dial``) can have
weights of its own (``Game.difficulty_weights``), fitted here the same way against its
dial: a won deal is *easy* when it is proven won with the dial at ``--easy`` or scarcer (the
card's ``least_tried``), *hard* when it is proven lost at ``--hard``, and unlabelled
otherwise (with ``--hard-unproven``, hard when not won at ``--hard``: lost, or undecided
within the card's time, for a dial whose scarce values are seldom proven lost). Both
default to the dial's scarcest value (Klondike: one pass through the stock);
FreeCell's own check is ``--easy 1 --hard 2`` in these terms, and Seahaven Towers, never won
with no free cell, takes ``--easy 2 --hard 2``. The score never reads the dial; the dial
only labels the deals it is fitted and checked on.

    solitaire classify klondike 1-1000 --analyze -o klondike.jsonl --jobs 2
    python benchmarks/difficulty_fit.py klondike.jsonl --fit-to 500

With ``--scale-only`` only two numbers are fitted, a scale and a shift of the default
weights' sum z (the game's weights are then the default ones times the scale, the bias
shifted): the FreeCell-fitted order of deals is kept and only mapped onto the game's own
dial, which a few hundred labelled deals determine far better than eight weights.

A game without a dial (Bridge Solitaire) is labelled by blind play instead (``--blind``,
records of ``solitaire play GAME ... --blind``): a won deal is *easy* when the blind player
won it and *hard* when it lost it, an order the score never reads either
(``benchmarks/difficulty_vs_blind.py`` checks a score against it without fitting)::

    python benchmarks/difficulty_fit.py bridge-cards.jsonl --fit-to 150 --scale-only --blind bridge-blind.jsonl

The weights are fitted on the deals up to ``--fit-to`` and checked on the others: the area
under the ROC curve of each side (with a 95% interval by a bootstrap over each class's
deals), under the fitted weights and under the game's present ones, and the tiers the
fitted weights give. Paste the printed weights into the game's ``difficulty_weights``, then
``benchmarks/winnable.py --rescore`` tiers a results file under them.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from difficulty_check import auc, features, fit, logistic  # noqa: E402
from winnable import first_by_deal, read_results  # noqa: E402

from games import find_game  # noqa: E402
from solver.app.difficulty import WEIGHTS, Features, graded, score, weighted_sum  # noqa: E402

TIERS = ("easy", "medium", "hard", "very hard")
SCARCEST: Any = object()        # the default of --easy and --hard: the dial's scarcest value


def label(record: dict[str, Any], easy: Any = SCARCEST, hard: Any = SCARCEST,
          unproven: bool = False) -> int | None:
    """0 (easy): proven won with the dial at `easy` or a scarcer value; 1 (hard): proven lost
    at `hard` (with `unproven`, not won there: lost or undecided within the card's time);
    None: neither, or the record is no won card. `easy` and `hard` default to the scarcest
    value tried (the first of ``least_tried``)."""
    tried = record.get("least_tried") or []
    if record.get("status") != "won" or not tried:
        return None
    values = [next(v for k, v in entry.items() if k != "status") for entry in tried]
    statuses = [entry.get("status") for entry in tried]
    easy = values[0] if easy is SCARCEST else easy
    hard = values[0] if hard is SCARCEST else hard
    if easy in values and "won" in statuses[:values.index(easy) + 1]:
        return 0
    if hard in values and statuses[values.index(hard)] in (("lost", "unknown") if unproven
                                                           else ("lost",)):
        return 1
    return None


def blind_labels(paths: list[Path]) -> dict[int, int] | None:
    """Return deal -> 0 (won blind) or 1 (lost blind) from blind play's records (the first
    record of a deal; games not played out are left out), or None after one line of error."""
    records: list[dict[str, Any]] = []
    for path in paths:
        found = read_results(path)
        if found is None:
            return None
        records += found
    return {deal: int(record["status"] == "lost")
            for deal, record in first_by_deal(records).items()
            if record.get("status") in ("won", "lost")}


def by_blind(labels: dict[int, int]) -> Callable[[dict[str, Any]], int | None]:
    """A labeller of won cards by their deal's blind game (``blind_labels``)."""
    def labelled(record: dict[str, Any]) -> int | None:
        return labels.get(record["deal"]) if record.get("status") == "won" else None
    return labelled


def dial_value(text: str) -> Any:
    """A dial value from the command line: a number, or ``none`` (the rules' unlimited)."""
    return None if text.lower() == "none" else int(text)


def scaled(rows: list[tuple[float, int]]) -> dict[str, float]:
    """Return the default weights times a scale, the bias shifted: the scale a and shift b
    of a logistic regression of the labels on the default weights' sum z (`rows`: z and
    label), fitted on z standardised, unpenalised."""
    mean = sum(z for z, _ in rows) / len(rows)
    spread = math.sqrt(sum((z - mean) ** 2 for z, _ in rows) / len(rows)) or 1.0
    b, a = logistic([([(z - mean) / spread], y) for z, y in rows])
    scale, shift = a / spread, b - a * mean / spread
    return {name: scale * value + (shift if name == "bias" else 0.0) for name, value in WEIGHTS.items()}


def default_z(record: dict[str, Any]) -> float:
    """The default weights' sum z for a record (the score is 100·σ(z))."""
    return weighted_sum(Features(**record["features"]))


def interval(scored: list[tuple[float, int]], resamples: int, seed: int = 0) -> tuple[float, float]:
    """The 95% interval of the AUC when each class's deals are drawn again with
    replacement."""
    positives = [s for s in scored if s[1] == 1]
    negatives = [s for s in scored if s[1] == 0]
    chooser, found = random.Random(seed), []
    for _ in range(resamples):
        found.append(auc([chooser.choice(positives) for _ in positives]
                         + [chooser.choice(negatives) for _ in negatives]))
    found.sort()
    return found[int(0.025 * (resamples - 1))], found[int(0.975 * (resamples - 1))]


def check(records: list[dict[str, Any]], weights: dict[str, float] | None, resamples: int,
          labeller: Callable[[dict[str, Any]], int | None]) -> str:
    """Return one line of figures: the classes' sizes and the AUC with its interval, the
    deals labelled by `labeller` (the dial's ``label``, or ``by_blind``)."""
    scored = [(score(Features(**r["features"]), weights), y) for r in records
              for y in [labeller(r)] if y is not None]
    easy_count = sum(1 for _, y in scored if y == 0)
    hard_count = len(scored) - easy_count
    if not easy_count or not hard_count:
        return f"{easy_count} easy / {hard_count} hard: no AUC"
    low, high = interval(scored, resamples) if resamples else (float("nan"), float("nan"))
    return (f"{easy_count} easy / {hard_count} hard, AUC {auc(scored):.3f} "
            f"(95%: {low:.3f}-{high:.3f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a classify --analyze results file (JSON lines)")
    parser.add_argument("--fit-to", type=int, required=True,
                        help="fit on deals up to this number, check on the others")
    parser.add_argument("--easy", type=dial_value, default=SCARCEST,
                        help="easy: won with the dial at this value or scarcer (default: the scarcest)")
    parser.add_argument("--hard", type=dial_value, default=SCARCEST,
                        help="hard: lost with the dial at this value (default: the scarcest)")
    parser.add_argument("--hard-unproven", action="store_true",
                        help="hard: not won at --hard (lost, or undecided within the card's time)")
    parser.add_argument("--blind", type=Path, nargs="+", metavar="FILE",
                        help="label by blind play's records instead of the dial: won blind "
                        "easy, lost blind hard")
    parser.add_argument("--scale-only", action="store_true",
                        help="fit only a scale and shift of the default weights")
    parser.add_argument("--boot", type=int, default=1000,
                        help="bootstrap resamples for the AUC's interval (0: none)")
    args = parser.parse_args(argv)
    found = read_results(args.results)
    if found is None:
        return 2
    records = [r for r in found if r.get("features") and isinstance(r.get("deal"), int)]
    if not records:
        print(f"error: {args.results}: no analysed deals (run classify with --analyze)",
              file=sys.stderr)
        return 2
    game = find_game(records[0]["game"], records[0].get("variant") or {})
    train = [r for r in records if r["deal"] <= args.fit_to]
    held = [r for r in records if r["deal"] > args.fit_to]
    dial = (args.easy, args.hard, args.hard_unproven)
    if args.blind and dial != (SCARCEST, SCARCEST, False):
        print("error: --blind labels by blind play: give it without --easy, --hard or "
              "--hard-unproven", file=sys.stderr)
        return 2
    labeller: Callable[[dict[str, Any]], int | None] = lambda r: label(r, *dial)
    if args.blind:
        labels = blind_labels(args.blind)
        if labels is None:
            return 2
        labeller = by_blind(labels)
    labelled = [(r, y) for r in train for y in [labeller(r)] if y is not None]
    if len({y for _, y in labelled}) < 2:
        print("error: the fitting deals need both easy and hard ones", file=sys.stderr)
        return 2
    weights = scaled([(default_z(r), y) for r, y in labelled]) if args.scale_only \
        else fit([(features(r), y) for r, y in labelled])
    fitted = {name: round(value, 3) for name, value in weights.items()}
    if args.blind:
        print(f"{game.name}: {len(records)} analysed deals; easy: won blind, hard: lost blind "
              f"({', '.join(str(path) for path in args.blind)})")
    else:
        print(f"{game.name}: {len(records)} analysed deals; dial {game.dial}; easy: won at "
              f"{'its scarcest value' if args.easy is SCARCEST else args.easy} or scarcer, hard: "
              f"{'not won' if args.hard_unproven else 'lost'} at "
              f"{'its scarcest value' if args.hard is SCARCEST else args.hard}")
    print("fitted weights:", json.dumps(fitted))
    for name, part in ((f"fit (deals up to {args.fit_to})", train),
                       (f"check (deals after {args.fit_to})", held), ("all", records)):
        print(f"{name}: fitted {check(part, fitted, args.boot, labeller)}; the game's "
              f"present weights {check(part, game.difficulty_weights, args.boot, labeller)}")
    won = [r for r in records if r.get("status") == "won"]
    tiers = [graded(Features(**r["features"]), fitted)[1] for r in won]
    print("tiers of the won deals under the fitted weights: "
          + ", ".join(f"{t} {tiers.count(t)}" for t in TIERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
