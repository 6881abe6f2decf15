"""`hint --blind` and `play --blind` from the command line: answers, records, resume, bad input."""
from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conftest import records_by_deal as blind_records, run_main
from games import GAMES
from solver.app.record import Verdict
from solver.app.analyze import verify_moves

TWIN = ["-V", "ranks=4", "-V", "columns=5"]          # a small Klondike twin
HIDES_NOTHING = {"freecell", "seahaven", "black-hole", "clock"}


def test_the_games_that_hide_nothing_are_those_whose_rules_show_every_card() -> None:
    # FreeCell, Seahaven Towers and Black Hole deal every card face up; The Clock's
    # face-down piles offer no choice (each card turned decides the next pile).
    assert {name for name, game in GAMES.items() if game.player_view is None} == HIDES_NOTHING


def test_blind_hint_lists_each_choice_with_its_chance(capsys: Any) -> None:
    status, out, _ = run_main(["hint", "klondike", "-d", "1", *TWIN, "--blind", "--samples", "40",
                               "--seed", "3", "--json"], capsys)
    assert status == 0
    answer = json.loads(out)
    assert answer["blind"] and answer["hides"] and answer["samples"] == 40
    assert answer["unseen"] == 10 + 1   # 10 face down (0+1+2+3+4), the 1 stock card of 16
    moves = answer["moves"]
    assert answer["move"] == moves[0]["move"]
    assert sum(m["samples"] for m in moves) == 40
    for m in moves:
        assert 0 <= m["low"] <= m["chance"] <= m["high"] <= 1
        assert m["won"] + m["lost"] + m["undecided"] == m["samples"]


def test_a_choice_line_counts_its_worlds_in_words() -> None:
    from solver.app.blind import Estimate
    from solver.app.cli import _estimate_line

    one = _estimate_line(Estimate(steps=(), notation="d", won=1), False, "    ")
    assert one == "     d: 100% (95%: 21%-100%), 1 world"
    some = _estimate_line(Estimate(steps=(), notation="4>8", won=2, undecided=1), False, "play")
    assert some == "play 4>8: 100% (95%: 34%-100%), 3 worlds, 33% undecided"


def test_a_blind_hint_says_how_its_worlds_were_valued(capsys: Any) -> None:
    # Bridge Solitaire plays each world on by its rule-following player; Klondike solves it
    status, out, _ = run_main(["hint", "bridge-solitaire", "-d", "1", "--blind", "--samples",
                               "900", "--seed", "1"], capsys)
    assert status == 0
    assert "played on by a rule-following player" in out.splitlines()[0]
    assert out.count("keep:") == 792                      # 13 face up, a joker kept: C(12, 5)
    status, out, _ = run_main(["hint", "bridge-solitaire", "-d", "1", "--blind", "--samples",
                               "900", "--seed", "1", "--json"], capsys)
    assert json.loads(out)["valued_by"] == "playout"
    assert json.loads(out)["allocation"] == "halving"     # 792 keeps for 900 worlds
    status, out, _ = run_main(["hint", "bridge-solitaire", "-d", "1", "--blind", "--samples",
                               "900", "--seed", "1"], capsys)
    assert "narrowed by halves" in out.splitlines()[0]
    status, out, _ = run_main(["hint", "klondike", "-d", "1", *TWIN, "--blind", "--samples", "10",
                               "--seed", "1", "--json"], capsys)
    assert json.loads(out)["valued_by"] == "search"


def test_blind_hint_is_the_same_twice_with_a_seed(capsys: Any) -> None:
    args = ["hint", "klondike", "-d", "2", *TWIN, "--blind", "--samples", "30", "--seed", "1",
            "--json"]
    first = json.loads(run_main(args, capsys)[1])
    second = json.loads(run_main(args, capsys)[1])
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_blind_hint_follows_the_moves_played(capsys: Any) -> None:
    status, out, _ = run_main(["hint", "klondike", "-d", "1", "--blind", "--samples", "20",
                               "--moves", "s s s"], capsys)
    assert status == 0
    assert "42 cards unseen" in out           # 21 face down, and 24 - 3 stock cards never turned


def test_a_dominoes_hint_counts_tiles_and_prints_no_negative_zero(capsys: Any) -> None:
    """CrissCross's unseen pieces are tiles; its deal 1's best plans score a hair either
    side of 0 over 200 worlds, which printed as "expected score -0.0"."""
    status, out, _ = run_main(["hint", "crisscross", "-d", "1", "--blind", "--samples", "200",
                               "--seed", "1"], capsys)
    assert status == 0
    assert "27 tiles unseen" in out and "cards" not in out.splitlines()[0]
    assert "expected score " in out and "-0.0" not in out


def test_blind_hint_names_a_move_safe_in_every_world(capsys: Any) -> None:
    """Klondike with unlimited passes: a turn of a stock never seen is a free look; with
    three passes it costs a pass and is not named."""
    args = ["hint", "klondike", "-d", "1", "-V", "draw=3", "--blind", "--samples", "12",
            "--seed", "1"]
    answer = json.loads(run_main([*args, "--json"], capsys)[1])
    assert answer["safe"] == ["s"]
    assert "safe: s loses no win in any world" in run_main(args, capsys)[1]
    limited = json.loads(run_main([*args, "-V", "passes=3", "--json"], capsys)[1])
    assert "s" not in limited["safe"]


def test_blind_hint_on_a_game_that_hides_nothing_is_the_full_answer(capsys: Any) -> None:
    status, out, _ = run_main(["hint", "freecell", "-d", "1", "--blind"], capsys)
    assert status == 0
    assert out.startswith("freecell hides nothing from its player")
    assert "play " in out


@pytest.mark.parametrize("args, message", [
    (["--samples", "0"], "--samples"),
    (["--seed", "-1"], "--seed"),
    (["--seconds", "0"], "--seconds"),
    (["--cap", "0"], "--cap"),
    (["--allocation", "greedy"], "unknown allocation"),
    (["--jobs", "0"], "--jobs"),
])
def test_bad_blind_options_are_one_line(args: list[str], message: str, capsys: Any) -> None:
    status, out, err = run_main(["hint", "klondike", "-d", "1", "--blind", *args], capsys)
    assert status == 2 and not out
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("name, variant, allocation", [
    ("klondike", {"draw": 3}, "ucb1"), ("bridge-solitaire", {}, "halving")])
def test_a_hint_by_the_clock_on_two_workers_solves_each_plans_worlds_in_order(
        name: str, variant: dict[str, Any], allocation: str, capsys: Any) -> None:
    """Worker processes solve worlds at once, UCB1 or sequential halving choosing the
    plans: every plan's worlds are still worlds 0, 1, 2, ... of the position (none solved
    twice, none skipped), as a hint in one process draws them; the command prints its
    answer and nothing else."""
    from games import find_game
    from solver.app.blind import Settings, _Worlds, blind_hint, WON, LOST
    from solver.view import Sighted

    game = find_game(name, variant)
    position = Sighted.of(game, game.deal(1))
    settings = Settings(seconds=0.5, seed=2, workers=2, allocation=allocation)
    found = blind_hint(position, settings)
    assert found.allocation == allocation
    assert found.samples == sum(e.samples for e in found.estimates) > 0
    solver = _Worlds(position.masked(), settings.for_game(game))
    for estimate in found.estimates:
        kinds = [solver.outcome(estimate.steps, i)[0] for i in range(estimate.samples)]
        assert (estimate.won, estimate.lost, estimate.undecided) == \
            (kinds.count(WON), kinds.count(LOST), len(kinds) - kinds.count(WON) - kinds.count(LOST))
    status, out, err = run_main(["hint", "klondike", "-d", "1", "-V", "draw=3", "--blind",
                                 "--seconds", "0.5", "--jobs", "2", "--json"], capsys)
    assert status == 0 and json.loads(out)["samples"] > 0 and not err


def test_a_world_the_deadline_cuts_short_is_not_counted() -> None:
    """A world whose solve the hint's deadline ends is dropped, neither won, lost nor
    undecided: without a deadline the same world has an outcome."""
    import time
    from games import find_game
    from solver.app.blind import Settings, _Worlds, plans
    from solver.view import Sighted

    game = find_game("crescent")
    masked = Sighted.of(game, game.deal(1)).masked()
    solver = _Worlds(masked, Settings().for_game(game))
    plan = plans(masked)[0]
    assert solver.outcome(plan, 0, time.perf_counter() - 1.0) is None
    assert solver.outcome(plan, 0) is not None


@pytest.mark.parametrize("workers", [1, 2])
def test_a_deadline_shorter_than_the_first_round_leaves_plans_without_worlds(
        workers: int, capsys: Any) -> None:
    """The deadline binds the first round too (Crescent's 15 first plans need about half
    a CPU second a world): every plan is still listed, those given no world show none and
    rank after the tried plans of their chance, and the command says how many got none."""
    from games import find_game
    from solver.app.blind import Settings, _value, blind_hint
    from solver.view import Sighted

    game = find_game("crescent")
    found = blind_hint(Sighted.of(game, game.deal(1)), Settings(seconds=0.05, workers=workers))
    assert len(found.estimates) == 15
    assert found.samples == sum(e.samples for e in found.estimates) < 15
    for ahead, behind in zip(found.estimates, found.estimates[1:]):
        if _value(ahead, False) == _value(behind, False):
            assert ahead.samples or not behind.samples
    status, out, _ = run_main(["hint", "crescent", "-d", "1", "--blind", "--seconds", "0.05",
                               "--jobs", str(workers)], capsys)
    untried = sum(1 for line in out.splitlines() if line.endswith(", 0 worlds"))
    assert status == 0 and untried >= 1
    assert f"{untried} of the 15 choices got no world before the deadline" in out


def test_a_hint_whose_worker_dies_fails_at_once_and_does_not_hang() -> None:
    """A worker killed while the hint runs (out of memory, say) ends the hint with an
    error, not a wait for a world that will never come."""
    import multiprocessing
    import os
    import signal
    import threading
    import time
    from concurrent.futures.process import BrokenProcessPool

    from games import find_game
    from solver.app.blind import Settings, blind_hint
    from solver.view import Sighted

    game = find_game("klondike", {"draw": 3})
    killed = []

    def kill_a_worker() -> None:
        while not killed:
            workers = multiprocessing.active_children()
            if workers:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append(workers[0].pid)
            time.sleep(0.05)

    threading.Thread(target=kill_a_worker, daemon=True).start()
    with pytest.raises(BrokenProcessPool):
        blind_hint(Sighted.of(game, game.deal(1)), Settings(seconds=30, workers=2))
    assert killed


def test_a_hint_of_fixed_samples_is_the_same_whatever_the_workers() -> None:
    """Only a hint by the clock uses workers: one of fixed samples is spent a world at a
    time, so its answer is the same on every machine."""
    from games import find_game
    from solver.app.blind import Settings, blind_hint
    from solver.view import Sighted

    game = find_game("klondike", {"draw": 3})
    position = Sighted.of(game, game.deal(2))
    one, two = (blind_hint(position, Settings(samples=50, seed=1, workers=workers))
                for workers in (1, 2))
    assert [(e.notation, e.won, e.lost, e.undecided) for e in one.estimates] == \
        [(e.notation, e.won, e.lost, e.undecided) for e in two.estimates]


def test_play_needs_blind(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "r.jsonl"
    status, _, err = run_main(["play", "klondike", "1-2", "-o", str(out)], capsys)
    assert status == 2 and "--blind" in err and not out.exists()


def test_play_blind_records_each_game_and_resumes(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "r.jsonl"
    game = GAMES["klondike"].__class__(ranks=4, columns=5)
    def args(deals: str, samples: str = "6", *more: str) -> list[str]:
        return ["play", "klondike", deals, *TWIN, "--blind", "--samples", samples, "-o", str(out),
                "-q", *more]

    status, text, _ = run_main(args("1-2"), capsys)
    assert status == 0 and "blind:" in text and "Brier score" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        verdict = Verdict.from_json(record, game)
        assert verdict.strategy.startswith("blind:samples=6")
        assert record["full_information"] in ("won", "lost", "unknown")
        for decision in record["decisions"]:
            assert 0.0 <= decision["chance"] <= 1.0
        played = record["moves"] if record["status"] == "won" else record["played"]
        replay = verify_moves(game, game.deal(record["deal"]), played)
        assert replay.won == (record["status"] == "won")
    status, text, _ = run_main(args("1-3", "6", "--resume", "--json"), capsys)
    assert status == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [record["deal"] for record in records] == [1, 2, 3]
    summary, lost = json.loads(text), [r for r in records if r["status"] == "lost"]
    assert summary["games"] == 3 and summary["won"] == 3 - len(lost)
    assert summary["lost"] == dict(Counter(r["reason"] for r in lost))
    assert summary["lost_full_information_won"] == sum(r["full_information"] == "won" for r in lost)
    assert summary["cpu_seconds"]["median"] == round(statistics.median(
        r["cpu_seconds"] for r in records), 2)
    assert all(record["max_resident"] > 2**20 for record in records)    # megabytes, not KiB
    assert summary["max_resident_mb"] == round(max(r["max_resident"] for r in records) / 2**20, 1)
    status, _, err = run_main(args("1-4", "7", "--resume"), capsys)
    assert status == 2 and "samples=7" in err


def test_play_blind_shards_merge_into_the_whole_run(tmp_path: Path, capsys: Any) -> None:
    """Each deal's game depends on that deal alone: two shards, merged, are the whole run,
    and --resume on the merged file prints the whole run's summary without playing."""
    def args(out: Path, *more: str) -> list[str]:
        return ["play", "klondike", "1-6", *TWIN, "--blind", "--samples", "6", "-o", str(out),
                "-q", *more]

    whole, merged = tmp_path / "whole.jsonl", tmp_path / "merged.jsonl"
    status, summary, _ = run_main(args(whole), capsys)
    assert status == 0
    parts = [tmp_path / f"part{index}.jsonl" for index in (1, 2)]
    for index, part in enumerate(parts, 1):
        assert run_main(args(part, "--shard", f"{index}/2"), capsys)[0] == 0
    assert sorted(blind_records(parts[0])) == [1, 3, 5]
    assert run_main(["merge", *map(str, parts), "-o", str(merged)], capsys)[0] == 0
    assert blind_records(merged) == blind_records(whole)
    status, again, _ = run_main(args(merged, "--resume"), capsys)
    def keep(text: str) -> list[str]:          # without what the machine sets
        return [line for line in text.splitlines()
                if not line.startswith(("processor time", "memory:"))]
    assert status == 0 and keep(summary) == keep(again)


# -- what the player has seen, in a file ---------------------------------------------------

SMALL = {                          # small twins, and moves after which the marks say more
    "klondike": (["-V", "ranks=5", "-V", "columns=4"], ["s"] * 11, "Seen: all"),  # a pass, a redeal
    "forty-thieves": (["-V", "suits=2", "-V", "ranks=5", "-V", "columns=2", "-V", "rows=3"],
                      ["s"] * 13 + ["r"], "Seen: all"),                       # every card drawn
    "crescent": (["-V", "suits=2", "-V", "ranks=4", "-V", "piles=3", "-V", "redeals=1"],
                 ["r"], "<"),                         # the redeal shows each pile's bottom card
}
BLIND = ["--blind", "--samples", "24", "--seed", "4", "--json"]


def written_files(name: str, tmp_path: Path, capsys: Any) -> tuple[dict[str, Any], Path, Path]:
    """Return the blind hint after SMALL's moves from deal 2, and two files of the position
    it prints: with what was seen written in, and the same position without marks."""
    variant, moves, mark = SMALL[name]
    status, out, _ = run_main(["hint", name, "-d", "2", *variant, "--moves", " ".join(moves),
                               *BLIND], capsys)
    assert status == 0
    reached = json.loads(out)
    assert mark in reached["position"]
    marked, plain = tmp_path / "marked.txt", tmp_path / "plain.txt"
    marked.write_text(reached["position"])
    game = GAMES[name].__class__(**{k: _value(v) for k, v in
                                    (item.split("=") for item in variant[1::2])})
    plain.write_text(game.format(game.parse(reached["position"])))
    assert "Seen:" not in plain.read_text() and plain.read_text() != marked.read_text()
    return reached, marked, plain


def _value(text: str) -> Any:
    return {"true": True, "false": False}.get(text, int(text) if text.isdigit() else text)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_file_with_marks_gives_the_blind_hint_of_the_moves_that_reached_it(
        name: str, tmp_path: Path, capsys: Any) -> None:
    reached, marked, plain = written_files(name, tmp_path, capsys)
    status, out, _ = run_main(["hint", name, str(marked), *SMALL[name][0], *BLIND], capsys)
    assert status == 0
    from_file = json.loads(out)
    for answer in (reached, from_file):
        answer.pop("seconds")
    assert from_file == reached                   # the same seen, so the same worlds and answer
    status, out, _ = run_main(["hint", name, str(plain), *SMALL[name][0], *BLIND], capsys)
    assert json.loads(out)["unseen"] > reached["unseen"]     # without marks: as before, less seen


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_full_information_answers_read_past_the_marks(
        name: str, tmp_path: Path, capsys: Any) -> None:
    _, marked, plain = written_files(name, tmp_path, capsys)
    answers = []
    for path in (marked, plain):
        status, out, _ = run_main(["solve", name, str(path), *SMALL[name][0], "--json"], capsys)
        answer = json.loads(out)
        answers.append((status, answer["status"], answer["moves"]))
        status, out, _ = run_main(["hint", name, str(path), *SMALL[name][0], "--json"], capsys)
        answers.append((status, json.loads(out)["status"]))
    assert answers[:2] == answers[2:]


def test_the_blind_hint_prints_the_position_the_moves_reach_with_its_marks(capsys: Any) -> None:
    status, out, _ = run_main(["hint", "crescent", "-d", "2", *SMALL["crescent"][0], "--moves", "r",
                               "--blind", "--samples", "6"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("the position after the moves") and lines[3] == "Redeals: 1"
    assert all(line.count("<") == 2 for line in lines[4:7])   # 4 dealt, a top and a redeal shown


@pytest.mark.parametrize("name, text", [
    ("klondike", "Talon: AD <AH> <AS>\nAC\n"),
    ("forty-thieves", "Foundations: C-0 C-0\nWaste:\nStock: AC <AC>\n-\n"),
    ("crescent", "Aces: C-A\nKings: C-4\nRedeals: 1\n<AC> <2C> 3C 4C\n2C 3C\n"),
])
def test_marks_the_rules_cannot_produce_are_one_line(name: str, text: str, tmp_path: Path,
                                                     capsys: Any) -> None:
    variant = {"klondike": ["-V", "ranks=1", "-V", "columns=1"],
               "forty-thieves": ["-V", "suits=1", "-V", "ranks=1", "-V", "columns=1",
                                 "-V", "rows=1"],
               "crescent": ["-V", "suits=1", "-V", "ranks=4", "-V", "piles=2", "-V",
                            "redeals=1"]}[name]
    path = tmp_path / "contradiction.txt"
    path.write_text(text)
    for command in (["hint", name, str(path), *variant, "--blind", "--samples", "4"],
                    ["solve", name, str(path), *variant]):
        status, out, err = run_main(command, capsys)
        assert status == 2 and not out
        assert len(err.strip().splitlines()) == 1 and "marked never" in err
        assert "missing" not in err and "duplicate" not in err     # the marks are all that is wrong


def test_play_blind_starts_a_board_from_what_its_text_says_was_seen(tmp_path: Path,
                                                                   capsys: Any) -> None:
    _, marked, plain = written_files("forty-thieves", tmp_path, capsys)
    first = {}
    for path in (marked, plain):
        out = tmp_path / f"{path.stem}.jsonl"
        status, _, _ = run_main(["play", "forty-thieves", str(path), *SMALL["forty-thieves"][0],
                                 "--blind", "--samples", "10", "-o", str(out), "-q"], capsys)
        assert status == 0
        first[path.stem] = json.loads(out.read_text())["decisions"][0]
    # every stock card seen, nothing is unseen: one exact solve; without marks, sampled
    assert first["marked"].get("exact") and not first["plain"].get("exact")


def test_a_game_may_name_the_cap_and_strategy_of_its_sampled_worlds(tmp_path: Path,
                                                                    capsys: Any) -> None:
    """Settings resolve the game's cap (``blind_cap``) and world strategy
    (``blind_strategy``) where none is given, and what is given wins; the record names them."""
    from games import find_game
    from solver.app.blind import Settings

    one, four = find_game("spider", {"suits": 1}), find_game("spider")
    assert Settings(samples=4).for_game(one).strategy == "best_first"
    assert Settings(samples=4).for_game(four).strategy == "beam:width=64"   # a narrow beam
    assert Settings(samples=4).for_game(four).cap == 20_000
    assert Settings(samples=4).for_game(one).cap == 5_000
    assert Settings(samples=4).for_game(find_game("crescent")).strategy == "beam:width=32"
    assert Settings(samples=4, strategy="dfs").for_game(one).strategy == "dfs"
    assert Settings(samples=4).for_game(find_game("klondike")).cap == 1_000
    assert Settings(samples=4).for_game(find_game("klondike")).strategy == "dfs"
    assert Settings(samples=4, cap=77).for_game(find_game("klondike")).cap == 77
    out = tmp_path / "sp.jsonl"
    status, _, _ = run_main(["play", "spider", "1", "-V", "suits=1", "-V", "ranks=4",
                             "-V", "columns=4", "-V", "decks=1", "-V", "deals=1", "--blind",
                             "--samples", "6", "-o", str(out), "-q"], capsys)
    record = json.loads(out.read_text())
    assert status in (0, 1) and "strategy=best_first" in record["strategy"]


def test_the_hint_speed_benchmark_reports_each_deal_and_the_aims(capsys) -> None:
    """benchmarks/blind_hint_speed.py asks the default hint from each deal's start and
    prints its wall time, the chosen plan's interval, and how many deals meet the aims."""
    from conftest import benchmark_script

    speed = benchmark_script("blind_hint_speed")
    assert speed.main(["klondike", "1-2", "-V", "ranks=5", "-V", "columns=3",
                       "--seconds", "0.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[2:4]] == ["1", "2"]
    assert lines[-1].startswith("largest wall time ") and " of 2 deals" in lines[-1]


def test_the_regret_benchmark_sets_each_allocation_s_choice_against_the_best(capsys) -> None:
    """benchmarks/blind_regret.py values every plan of a deal's start on worlds of its own
    and prints, for each allocation, the chosen plan's value, its rank, and the summary."""
    from conftest import benchmark_script

    regret = benchmark_script("blind_regret")
    assert regret.main(["bridge-solitaire", "14", "--samples", "400", "--eval", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    line = json.loads(lines[0])
    assert line["deal"] == 14 and line["plans"] == 330
    for how in ("ucb1", "halving"):
        assert 0 <= line[how]["rank"] < line["plans"]
        assert line[how]["value"] <= line["best"]
    assert lines[2].startswith("  ucb1: mean regret ") and lines[3].startswith("  halving: ")
    assert lines[4].startswith("  ucb1 minus halving: ")
