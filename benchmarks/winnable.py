"""Lists of winnable deals by difficulty tier, from a ``classify --analyze`` results file, or
its parts (or the cards file of ``benchmarks/difficulty_check.py report``, whose lines carry a
tier too).

Usage::

    solitaire classify seahaven 1-1000 --analyze -o seahaven.jsonl --jobs 2
    python benchmarks/winnable.py seahaven seahaven.jsonl \\
        --command "solitaire classify seahaven 1-1000 --analyze -o seahaven.jsonl --jobs 2"

Writes ``data/winnable/<game>/<tier>.txt`` (``--out`` another folder): one file a tier, the
won deals' numbers in order, after two comment lines naming the game, the tier, how many
deals were analysed and the command that made the results. Prints the count of each tier
and each verdict, the row of ``data/winnable/README.md``'s table. A deal counts in a tier
only when its record is ``won`` with a tier; lost and undecided deals are counted, not
listed. ``--rescore`` first scores each won record again from its features under the game's
present weights (``Game.difficulty_weights``, else the default ones), as ``analyze`` would
now: for results made before the weights changed.

``--by-dial`` lists the won deals by the game's dial instead of the score's tier, for a game
whose cards the score cannot grade (its tiers do not follow the dial out of sample): one file
a least winning value, ``redeals-1.txt`` holding the deals won with one redeal and with none
found with fewer within the card's budget. Each file is a proven fact about its deals (a
verified win with that much of the dial), the least only where the card proved the scarcer
values lost (``least_exact``), an upper bound otherwise.

``--dial-runs FILE...`` takes the least winning value from plain ``classify`` runs of the
same deals at the dial's scarcer values (``-V redeals=0``, ...), not from cards: the least
is then the scarcest value any run won with (a verified win each), for a game whose cards
cost far more than its verdicts (a Crescent card about 40 s, a verdict at one dial value
3 s). Implies ``--by-dial``; every run must be of the same rules but for the dial.

Several results files are read as one run: the parts of a run kept apart (deals 1-500 and
501-1000, gzipped in ``data/``), so no file need be joined first; a deal in two parts is an
error.

``--ungraded`` lists every won deal in one file, ``winnable.txt``, from any ``classify``
results file (cards or not): for a game whose cards cannot grade its deals, where a card
costs far more than a verdict (four-suit Spider: every first move undecided within the
card's cap, every card "very hard"). Each number in it is a verified win, nothing more.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # the project, for the games its lists are read against
TIERS = ("easy", "medium", "hard", "very hard")
K = TypeVar("K")
NUMBERING = {"freecell": "Microsoft"}      # where players number deals otherwise than PySolFC


def won_by(records: list[dict[str, object]],
           group: Callable[[dict[str, object]], K | None]) -> dict[K, list[int]]:
    """Return group -> the won deals' numbers in it, in order, for the records `group`
    names one (None: the record is counted, not listed)."""
    lists: dict[K, list[int]] = {}
    for record in records:
        key, deal = group(record), record.get("deal")
        if record.get("status") == "won" and key is not None and isinstance(deal, int):
            lists.setdefault(key, []).append(deal)
    return {key: sorted(deals) for key, deals in lists.items()}


def tier_lists(records: list[dict[str, object]]) -> dict[str, list[int]]:
    """Return tier -> the won deals' numbers in that tier, in order."""
    def tier(record: dict[str, object]) -> str | None:
        found = record.get("tier")
        return found if isinstance(found, str) else None
    return won_by(records, tier)


def dial_lists(records: list[dict[str, object]]) -> dict[tuple[str, str], list[int]]:
    """Return (dial, least winning value found, as a name) -> the won deals' numbers, in
    order; a value None is ``unlimited`` (Klondike's passes), a yes-or-no one ``true`` or
    ``false`` (Forty Thieves' redeal)."""
    def least(record: dict[str, object]) -> tuple[str, str] | None:
        found = record.get("least")
        if not isinstance(found, dict) or len(found) != 1:
            return None
        [(dial, value)] = found.items()
        return str(dial), "unlimited" if value is None else str(value).lower()
    return dict(sorted(won_by(records, least).items()))


def least_from_runs(records: list[dict[str, object]], runs: list[list[dict[str, object]]]) -> str | None:
    """Set each won record's ``least`` to the scarcest dial value that a record of the
    same deal won with, among `records` (the game's own value) and `runs` (the same rules
    at other values of the dial). A record left undecided at the game's own value but won
    by a run at a scarcer one is won (what wins with less of the dial wins with more: the
    dial's values are resources, scarcest first). Return None, or one line saying why the
    runs cannot be read so (no dial, rules that differ but for the dial)."""
    first = next((r for r in records if isinstance(r.get("variant"), dict)), None)
    if first is None:
        return "the results name no variant"
    variant = first["variant"]
    assert isinstance(variant, dict)
    dial = _game(str(first.get("game")), variant).dial
    if dial is None:
        return f"{first.get('game')} has no dial of resources"
    option, values = dial
    rules = {key: value for key, value in variant.items() if key != option}
    won_at: dict[int, list[int]] = {}
    for record in [*records, *(r for run in runs for r in run)]:
        found, deal = record.get("variant"), record.get("deal")
        if not isinstance(found, dict) or {k: v for k, v in found.items() if k != option} != rules:
            return f"deal {deal}: a run of other rules than {rules} (only {option} may differ)"
        if found.get(option) not in values:
            return f"deal {deal}: {option}={found.get(option)!r} is not a value of the dial {values}"
        if record.get("status") == "won" and isinstance(deal, int):
            won_at.setdefault(deal, []).append(values.index(found[option]))
    own = values.index(variant[option])
    for record in records:
        deal = record.get("deal")
        if not isinstance(deal, int) or deal not in won_at or min(won_at[deal]) > own:
            continue
        record["status"] = "won"            # won with fewer resources, so with more
        record["least"] = {option: values[min(won_at[deal])]}
    return None


def write(game: str, records: list[dict[str, object]], command: str, out: Path) -> dict[str, int]:
    """Write one file a tier under out/<game>/ and return the count of each tier."""
    lists = tier_lists(records)
    for tier, deals in lists.items():
        _write_list(out / game / f"{tier.replace(' ', '-')}.txt", f"{game}: winnable deals of "
                    f"tier {tier!r}", game, deals, len(records), command)
    return {tier: len(lists.get(tier, [])) for tier in TIERS}


def write_by_dial(game: str, records: list[dict[str, object]], command: str,
                  out: Path) -> dict[str, int]:
    """Write one file a least winning value of the dial under out/<game>/ and return the
    count of each (``redeals-1``: deals won with one redeal, none found with fewer)."""
    counts = {}
    for (dial, value), deals in dial_lists(records).items():
        name = f"{dial}-{value}"
        how = "won with none" if value in ("0", "false") else \
            f"won with {value}, with fewer no win found within the budget"
        _write_list(out / game / f"{name}.txt", f"{game}: winnable deals of least {dial}={value}, "
                    f"{how}", game, deals, len(records), command)
        counts[name] = len(deals)
    return counts


def write_ungraded(game: str, records: list[dict[str, object]], command: str,
                   out: Path) -> dict[str, int]:
    """Write every won deal to out/<game>/winnable.txt and return their count."""
    deals = won_by(records, lambda record: "won").get("won", [])
    _write_list(out / game / "winnable.txt", f"{game}: winnable deals, not graded", game,
                deals, len(records), command)
    return {"winnable": len(deals)}


def _write_list(path: Path, title: str, game: str, deals: list[int], analysed: int,
                command: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# {title} ({NUMBERING.get(game, 'PySolFC')} numbering), {len(deals)} of "
                    f"{analysed} deals analysed\n# made by: {command}\n"
                    + "".join(f"{deal}\n" for deal in deals), encoding="utf-8")


def read_text(path: Path) -> str:
    """Return a results file's text; a name ending ``.gz`` is read gzipped (the records
    kept in ``data/``)."""
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    return path.read_text(encoding="utf-8")


def first_by_deal(records: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Return deal -> its first record (a resumed run may repeat none, but be safe)."""
    found: dict[int, dict[str, Any]] = {}
    for record in records:
        deal = record.get("deal")
        if isinstance(deal, int) and deal not in found:
            found[deal] = record
    return found


def read_results(path: Path) -> list[dict[str, object]] | None:
    """Return a results file's records (JSON lines, gzipped when the name ends ``.gz``), or
    None after one line of error on standard error (a file that cannot be read, or a line
    that is not JSON)."""
    try:
        return [json.loads(line) for line in read_text(path).splitlines() if line.strip()]
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"error: {path}: {error}", file=sys.stderr)
        return None


def read_parts(paths: list[Path]) -> list[dict[str, object]] | None:
    """Return the records of the parts of one run (say deals 1-500 and 501-1000 kept apart)
    as one list, or None after one line of error: a part that cannot be read, or a deal
    that two parts both hold (parts of one run do not overlap, so two records of a deal
    mean the wrong files were named)."""
    records: list[dict[str, object]] = []
    where: dict[object, int] = {}
    for index, path in enumerate(paths):
        part = read_results(path)
        if part is None:
            return None
        for record in part:
            deal = record.get("deal")
            if where.setdefault(deal, index) != index:
                print(f"error: deal {deal} is in both {paths[where[deal]]} and {path}: name the "
                      "parts of one run, which do not overlap", file=sys.stderr)
                return None
        records.extend(part)
    return records


def _game(name: str, variant: dict[str, Any]) -> Any:
    """Return the game `name` with `variant`, importing the project only when asked (the
    lists themselves need none of it)."""
    from games import find_game
    return find_game(name, variant)


def rescore(records: list[dict[str, object]], name: str) -> None:
    """Set each won record's difficulty and tier from its features under its game's
    present weights (the game the record names, else `name`)."""
    from solver.app.difficulty import Features, graded

    for record in records:
        found = record.get("features")
        if record.get("status") != "won" or not isinstance(found, dict):
            continue
        variant = record.get("variant")
        game = _game(str(record.get("game", name)), variant if isinstance(variant, dict) else {})
        record["difficulty"], record["tier"] = graded(Features(**found), game.difficulty_weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("game", help="the folder name under data/winnable, e.g. seahaven")
    parser.add_argument("results", type=Path, nargs="+",
                        help="classify results files, --analyze ones but for --ungraded and "
                             "--dial-runs (JSON lines, .gz read gzipped); "
                             "several are read as one run (the parts of a run kept apart)")
    parser.add_argument("--command", required=True, help="the command that made the results")
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "winnable")
    parser.add_argument("--rescore", action="store_true",
                        help="score the won records again under the game's present weights")
    parser.add_argument("--by-dial", action="store_true",
                        help="list the won deals by the dial's least winning value, not by tier")
    parser.add_argument("--dial-runs", type=Path, nargs="+", default=[], metavar="FILE",
                        help="classify runs of the same deals at the dial's other values: the "
                             "least winning value is read from them (implies --by-dial)")
    parser.add_argument("--ungraded", action="store_true",
                        help="list every won deal in one file, winnable.txt (no cards needed)")
    args = parser.parse_args(argv)
    args.by_dial = args.by_dial or bool(args.dial_runs)
    if args.by_dial and args.ungraded:
        parser.error("--by-dial and --ungraded are two ways of listing: choose one")
    records = read_parts(args.results)
    if records is None:
        return 2
    if args.rescore:
        rescore(records, args.game)
    if args.dial_runs:
        runs = [read_results(path) for path in args.dial_runs]
        if any(run is None for run in runs):
            return 2
        why = least_from_runs(records, [run for run in runs if run is not None])
        if why is not None:
            print(f"error: {why}", file=sys.stderr)
            return 2
    if args.ungraded:
        counts = write_ungraded(args.game, records, args.command, args.out)
    elif args.by_dial:
        counts = write_by_dial(args.game, records, args.command, args.out)
    else:
        counts = write(args.game, records, args.command, args.out)
    verdicts = Counter(str(record.get("status")) for record in records)
    print(f"{args.game}: {len(records)} deals analysed; "
          + ", ".join(f"{name} {count}" for name, count in counts.items())
          + "; " + ", ".join(f"{status} {n}" for status, n in sorted(verdicts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
