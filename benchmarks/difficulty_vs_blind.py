"""Check a game's difficulty order against blind play: deals a blind player wins should
score easier than deals it loses.

The difficulty score (``solitaire analyze``) reads features measured with full sight of
the deal; a game with a dial of resources is checked against that dial
(``benchmarks/difficulty_fit.py``). A game without one (Yukon) has no such order, and
blind play gives another that the score never reads: ``solitaire play GAME ... --blind``
plays each deal seeing only what a player sees, and wins or loses it. Among the deals the
card's full-information search won, a deal is *easy* here when the blind player won it and
*hard* when it lost it (deals the blind run left unplayed or the card did not win are left
out). The area under the ROC curve is the chance that a deal lost blind scores above one
won blind (ties count half), with a 95% interval by a bootstrap over each class's deals;
0.5 is no better than chance. Also printed: the blind win rate in each tier.

    solitaire classify yukon 1-300 --analyze -o yukon-cards.jsonl
    solitaire play yukon 1-50 --blind --samples 100 --seed 1 -o yukon-blind.jsonl
    python benchmarks/difficulty_vs_blind.py yukon-cards.jsonl yukon-blind.jsonl

Several blind files may be given (the first record of a deal counts). Each card is scored
under the weights its record was written with (its ``difficulty`` and ``tier``); with
``--rescore``, under the game's present weights (``Game.difficulty_weights``).

In place of the cards, a folder of tier lists (``data/winnable/GAME``, one file a tier,
``winnable.py``) may be given, for a game whose cards are not kept: each listed deal then
scores its tier's rank (easy 0 to very hard 3), deals of one tier tie (counted half), and
the AUC is that of the tiers, not of the finer score::

    python benchmarks/difficulty_vs_blind.py data/winnable/klondike data/klondike/blind-draw1-1-1000-present.jsonl.gz
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from difficulty_check import auc  # noqa: E402
from difficulty_fit import interval  # noqa: E402
from winnable import TIERS, first_by_deal, read_results  # noqa: E402
from winnable import rescore as rescored  # noqa: E402


def tier_cards(folder: Path) -> dict[int, dict[str, Any]] | None:
    """Return deal -> a stand-in card (won, its tier, the tier's rank as its difficulty) for
    every deal of a folder of tier lists, or None after one line of error (no list there,
    or a line that is not a deal number)."""
    cards: dict[int, dict[str, Any]] = {}
    for rank, tier in enumerate(TIERS):
        path = folder / f"{tier.replace(' ', '-')}.txt"
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not line.isdigit():
                print(f"error: {path}, line {number}: not a deal number: {line[:40]!r}",
                      file=sys.stderr)
                return None
            cards[int(line)] = {"status": "won", "difficulty": float(rank), "tier": tier}
    if not cards:
        print(f"error: {folder}: no tier list ({', '.join(t.replace(' ', '-') + '.txt' for t in TIERS)})",
              file=sys.stderr)
        return None
    return cards


def labelled(cards: dict[int, dict[str, Any]], blind: dict[int, dict[str, Any]],
             rescore: bool = False) -> list[tuple[int, float, str, int]]:
    """Return (deal, difficulty, tier, 1 if lost blind else 0) for every deal whose card
    is a won card and whose blind game was played out (won or lost)."""
    if rescore:                                  # on copies: the caller's records stay
        cards = {deal: dict(card) for deal, card in cards.items()}
        rescored(list(cards.values()), "")
    rows = []
    for deal, card in sorted(cards.items()):
        game = blind.get(deal)
        if card.get("status") != "won" or game is None or game.get("status") not in ("won", "lost"):
            continue
        difficulty, tier = card.get("difficulty"), card.get("tier")
        if isinstance(difficulty, (int, float)) and isinstance(tier, str):
            rows.append((deal, float(difficulty), tier, int(game["status"] == "lost")))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cards", type=Path, help="a classify --analyze results file, or a "
                        "folder of tier lists (data/winnable/GAME)")
    parser.add_argument("blind", type=Path, nargs="+", help="play --blind results files")
    parser.add_argument("--rescore", action="store_true",
                        help="score each card under the game's present weights")
    parser.add_argument("--boot", type=int, default=1000,
                        help="bootstrap resamples for the interval (0: none)")
    args = parser.parse_args(argv)
    by_tier = args.cards.is_dir()
    if by_tier:
        if args.rescore:
            print("error: --rescore needs cards; tier lists hold no features", file=sys.stderr)
            return 2
        cards = tier_cards(args.cards)
        if cards is None:
            return 2
    else:
        card_records = read_results(args.cards)
        if card_records is None:
            return 2
        cards = first_by_deal(card_records)
    blind_records: list[dict[str, Any]] = []
    for path in args.blind:
        found = read_results(path)
        if found is None:
            return 2
        blind_records += found
    rows = labelled(cards, first_by_deal(blind_records), args.rescore)
    won = sum(1 for row in rows if row[3] == 0)
    lost = len(rows) - won
    print(f"{len(rows)} deals won with full information and played blind: "
          f"{won} won blind, {lost} lost")
    for tier in TIERS:
        in_tier = [row for row in rows if row[2] == tier]
        if in_tier:
            share = sum(1 for row in in_tier if row[3] == 0) / len(in_tier)
            print(f"  {tier}: {len(in_tier)} deals, {share:.1%} won blind")
    if not won or not lost:
        print("no AUC: the blind games were all won or all lost")
        return 0
    scored = [(difficulty, hard) for _, difficulty, _, hard in rows]
    low, high = interval(scored, args.boot) if args.boot else (float("nan"), float("nan"))
    what = "tier (deals of one tier tie)" if by_tier else "score"
    print(f"AUC (lost blind scores harder than won blind), by {what}: {auc(scored):.3f} "
          f"(95%: {low:.3f}-{high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
