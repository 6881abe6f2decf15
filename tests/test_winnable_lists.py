"""The lists of winnable deals by tier (data/winnable/) and the script that writes them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import benchmark_script
from games import find_game
from solver.app.analyze import solve
from solver.game import Status
from solver.search import Budget

winnable = benchmark_script("winnable")
DATA = Path(__file__).resolve().parent.parent / "data" / "winnable"
GAMES = sorted(path.name for path in DATA.iterdir() if path.is_dir())


def listed(game: str) -> dict[str, list[int]]:
    """Return tier file name -> the deals it lists, for one game's folder (lists by the
    dial, ``redeals-1``, are named by the dial and its value)."""
    found = {}
    for path in sorted((DATA / game).glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith((f"# {game}: winnable deals of tier ",
                                    f"# {game}: winnable deals of least ",
                                    f"# {game}: winnable deals, not graded ")), path
        assert lines[1].startswith("# made by: ") and ("classify " in lines[1]
                                                       or "difficulty_check.py" in lines[1]), path
        found[path.stem] = [int(line) for line in lines[2:]]
    return found


def test_the_script_lists_won_deals_by_tier_and_counts_the_rest(tmp_path: Path) -> None:
    records = [{"deal": 5, "status": "won", "tier": "hard"},
               {"deal": 2, "status": "won", "tier": "hard"},
               {"deal": 3, "status": "won", "tier": "very hard"},
               {"deal": 4, "status": "lost", "tier": "lost"},
               {"deal": 1, "status": "unknown"}]
    counts = winnable.write("toy", records, "solitaire classify toy 1-5 --analyze", tmp_path)
    assert counts == {"easy": 0, "medium": 0, "hard": 2, "very hard": 1}
    assert sorted(path.name for path in (tmp_path / "toy").iterdir()) == ["hard.txt",
                                                                           "very-hard.txt"]
    assert (tmp_path / "toy" / "hard.txt").read_text().splitlines() == [
        "# toy: winnable deals of tier 'hard' (PySolFC numbering), 2 of 5 deals analysed",
        "# made by: solitaire classify toy 1-5 --analyze", "2", "5"]
    winnable.write("freecell", records[:1], "x", tmp_path)       # FreeCell's deals are Microsoft's
    assert "(Microsoft numbering)" in (tmp_path / "freecell" / "hard.txt").read_text()


def test_by_dial_lists_won_deals_by_the_least_winning_value_found(tmp_path: Path) -> None:
    records = [{"deal": 4, "status": "won", "tier": "hard", "least": {"redeals": 2}},
               {"deal": 2, "status": "won", "tier": "easy", "least": {"redeals": 0}},
               {"deal": 9, "status": "won", "tier": "easy", "least": {"redeals": 2}},
               {"deal": 3, "status": "unknown", "least": None},
               {"deal": 5, "status": "won", "tier": "hard"},      # no dial: not listed
               {"deal": 6, "status": "won", "least": {"passes": None}}]
    counts = winnable.write_by_dial("toy", records, "solitaire classify toy 1-5 --analyze", tmp_path)
    assert counts == {"passes-unlimited": 1, "redeals-0": 1, "redeals-2": 2}
    lines = (tmp_path / "toy" / "redeals-2.txt").read_text().splitlines()
    assert lines[0].startswith("# toy: winnable deals of least redeals=2, won with 2, with fewer")
    assert lines[0].endswith("(PySolFC numbering), 2 of 6 deals analysed") and lines[2:] == ["4", "9"]
    assert "won with none" in (tmp_path / "toy" / "redeals-0.txt").read_text()


def test_dial_runs_give_the_least_value_any_run_won_with(tmp_path: Path, capsys) -> None:
    """Plain verdicts at the dial's scarcer values stand in for the cards' search: a deal
    is listed under the scarcest value a run won it with; runs of other rules are refused."""
    rules = {"redeals": 3, "worry_back": False, "bases_move": False, "open": False,
             "suits": 4, "ranks": 13, "piles": 16}

    def run(redeals: int, statuses: dict[int, str]) -> Path:
        path = tmp_path / f"r{redeals}.jsonl"
        path.write_text("".join(json.dumps({"game": "crescent", "variant": {**rules, "redeals": redeals},
                                            "deal": deal, "status": status}) + "\n"
                                for deal, status in statuses.items()))
        return path

    main = run(3, {1: "won", 2: "won", 3: "won", 4: "unknown", 5: "unknown"})
    scarcer = [run(0, {1: "unknown", 2: "won"}), run(1, {1: "won", 3: "unknown", 4: "won"})]
    out = tmp_path / "lists"
    assert winnable.main(["crescent", str(main), "--command", "solitaire classify crescent 1-4",
                          "--out", str(out), "--dial-runs", *map(str, scarcer)]) == 0
    listed_here = {path.stem: path.read_text().splitlines()[2:] for path in (out / "crescent").iterdir()}
    # deal 4, undecided with 3 redeals, won with 1: so won with 3 too, and listed
    assert listed_here == {"redeals-0": ["2"], "redeals-1": ["1", "4"], "redeals-3": ["3"]}
    assert "1 of 5 deals analysed" in (out / "crescent" / "redeals-0.txt").read_text()
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"game": "crescent", "variant": {**rules, "redeals": 0, "worry_back": True},
                                 "deal": 1, "status": "won"}) + "\n")
    assert winnable.main(["crescent", str(main), "--command", "x", "--out", str(out),
                          "--dial-runs", str(other)]) == 2
    assert "only redeals may differ" in capsys.readouterr().err


def test_ungraded_lists_every_won_deal_in_one_file_from_plain_verdicts(tmp_path: Path) -> None:
    """No card needed: any classify record that is won is listed, lost and undecided ones
    counted only; a run cannot be listed by the dial and ungraded at once."""
    records = [{"deal": 7, "status": "won"}, {"deal": 3, "status": "won", "tier": "hard"},
               {"deal": 5, "status": "lost"}, {"deal": 6, "status": "unknown"}]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert winnable.main(["toy", str(path), "--command", "solitaire classify toy 3-7",
                          "--out", str(tmp_path), "--ungraded"]) == 0
    assert [p.name for p in (tmp_path / "toy").iterdir()] == ["winnable.txt"]
    assert (tmp_path / "toy" / "winnable.txt").read_text().splitlines() == [
        "# toy: winnable deals, not graded (PySolFC numbering), 2 of 4 deals analysed",
        "# made by: solitaire classify toy 3-7", "3", "7"]
    with pytest.raises(SystemExit):
        winnable.main(["toy", str(path), "--command", "x", "--out", str(tmp_path),
                       "--ungraded", "--by-dial"])


def test_rescore_tiers_won_records_again_under_the_games_present_weights(tmp_path: Path) -> None:
    """A record whose stored tier is stale ("very hard") is scored again from its features:
    random games that nearly always win make any FreeCell-weighted deal easy."""
    from solver.app.difficulty import Features, score

    features = {"effort": 100, "narrow": 0.0, "critical": 0, "length": 90, "random": 0.9,
                "progress": 0.95, "guided": 1.0}
    records = [{"game": "freecell", "deal": 7, "status": "won", "tier": "very hard",
                "difficulty": 99.0, "features": features},
               {"deal": 8, "status": "lost", "tier": "lost"}]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert winnable.main(["freecell", str(path), "--command", "x", "--out", str(tmp_path),
                          "--rescore"]) == 0
    assert (tmp_path / "freecell" / "easy.txt").read_text().splitlines()[2:] == ["7"]
    assert not (tmp_path / "freecell" / "very-hard.txt").exists()
    assert score(Features(**features)) < 25


def test_a_results_file_that_is_not_json_lines_is_one_error(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "r.jsonl"
    bad.write_text('{"deal": 1, "status": "won", "tier": "easy"}\n{"deal": 2, "sta\n')
    assert winnable.main(["toy", str(bad), "--command", "x", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_parts_of_a_run_list_as_one_and_a_deal_in_two_parts_is_one_error(
        tmp_path: Path, capsys) -> None:
    """A run kept in two parts (deals 1-2 and 3, one of them gzipped) lists as the joined
    file would; naming a part twice, or parts that overlap, is one line and status 2."""
    import gzip

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl.gz"
    first.write_text(json.dumps({"deal": 1, "status": "won", "tier": "easy"}) + "\n"
                     + json.dumps({"deal": 2, "status": "lost"}) + "\n")
    second.write_bytes(gzip.compress((json.dumps({"deal": 3, "status": "won", "tier": "hard"})
                                      + "\n").encode()))
    assert winnable.main(["toy", str(first), str(second), "--command", "x",
                          "--out", str(tmp_path / "out")]) == 0
    assert "3 deals analysed" in capsys.readouterr().out
    assert (tmp_path / "out" / "toy" / "easy.txt").read_text().splitlines()[2:] == ["1"]
    assert (tmp_path / "out" / "toy" / "hard.txt").read_text().splitlines()[2:] == ["3"]
    assert winnable.main(["toy", str(first), str(first), "--command", "x",
                          "--out", str(tmp_path / "again")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal 1 is in both" in err
    assert not (tmp_path / "again").exists()


def test_gzipped_records_read_as_plain_ones_and_a_torn_archive_is_one_error(
        tmp_path: Path, capsys) -> None:
    """Records kept in data/ are gzipped: a name ending .gz is read through gzip, to the
    same records; an archive cut short is one line of error, not a traceback."""
    import gzip

    records = [{"deal": 3, "status": "won", "tier": "easy"}, {"deal": 4, "status": "lost"}]
    text = "".join(json.dumps(r) + "\n" for r in records)
    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert winnable.read_results(packed) == records
    torn = tmp_path / "torn.jsonl.gz"
    torn.write_bytes(packed.read_bytes()[:-9])
    assert winnable.read_results(torn) is None
    assert capsys.readouterr().err.count("\n") == 1
    blind = benchmark_script("blind_calibration")
    decided = tmp_path / "b.jsonl.gz"
    decided.write_bytes(gzip.compress(json.dumps({"deal": 1, "status": "won", "decisions": [
        {"move": "c", "chance": 0.5, "samples": 30, "unseen": 7}]}).encode() + b"\n"))
    assert blind.decisions(decided) == [(1, 0.5, 30, 7, True)]


@pytest.mark.parametrize("game", GAMES)
def test_each_listed_deal_is_in_one_tier_and_the_first_of_each_is_won(game: str) -> None:
    """The lists name each deal once, in order, and the solver wins the first deal of each
    tier (a full-information search; the lists are of full-information verdicts)."""
    tiers = listed(game)
    assert tiers and all(deals == sorted(deals) for deals in tiers.values())
    every = [deal for deals in tiers.values() for deal in deals]
    assert len(every) == len(set(every))
    for name, deals in tiers.items():
        dial, _, value = name.rpartition("-")          # a list by the dial: its value in force
        rules = find_game(game, {dial: int(value)} if value.isdigit() else {})
        result = solve(rules, rules.deal(deals[0]), None, Budget(max_states=2_000_000, seconds=60))
        assert result.status is Status.WON, (game, name, deals[0])
