"""The `solitaire` command: verdicts, JSON fields, hints, verification, batch runs, bad input."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from command_line import runner

from conftest import DATA, default_signals
from games.freecell import GAME as FREECELL
from solver.app.cli import app
from solver.game import SolitaireError, Status
from solver.search import Budget, greedy
from solver.verify import replay_notation

TWIN = ["--variant", "ranks=4", "--variant", "columns=4", "--variant", "cells=1"]


def run(*args: str):
    return runner.invoke(app, list(args))


# -- solve, hint, verify ---------------------------------------------------------------

def test_solve_prints_a_verified_solution_of_deal_1():
    result = run("solve", "freecell", "--deal", "1")
    assert result.exit_code == 0
    verdict, moves = result.stdout.strip().splitlines()
    assert verdict.startswith("freecell 1: won")
    assert FREECELL.is_won(replay_notation(FREECELL, FREECELL.deal(1), moves.split()))


def test_solve_json_has_the_design_fields():
    result = run("solve", "black-hole", "--deal", "6", "--strategy", "dfs", "--json")
    assert result.exit_code == 0
    item = json.loads(result.stdout)
    for field in ("game", "variant", "deal", "status", "moves", "length", "optimal",
                  "strategy", "states", "seconds"):
        assert field in item
    assert item["game"] == "black-hole" and item["status"] == "won" and item["length"] == 51
    assert item["variant"] == {"ranks": 13} and item["deal"] == 6


def test_unknown_verdict_names_the_budget():
    result = run("solve", "freecell", "--deal", "11982", "--max-states", "100", "--json")
    item = json.loads(result.stdout)
    assert item["status"] == "unknown" and item["stopped_by"] == "max-states"


def test_lost_is_said_to_be_a_proof():
    result = run("solve", "black-hole", "--deal", "1")
    assert result.exit_code == 1 and "lost (proven" in result.stdout


def test_solve_reads_a_board_file(tmp_path):
    board = tmp_path / "deal.txt"
    board.write_text(FREECELL.format(FREECELL.deal(3)))
    assert run("solve", "fc", str(board)).stdout.startswith(f"freecell {board}: won")


def test_optimal_solve_is_marked_optimal():
    result = run("solve", "freecell", "--deal", "1", *TWIN, "--optimal", "--json")
    item = json.loads(result.stdout)
    assert item["strategy"] == "astar"
    assert item["status"] != "won" or item["optimal"]


def test_optimal_solve_out_of_budget_still_answers_with_a_win_not_proven_shortest():
    result = run("solve", "freecell", "--deal", "1", "--optimal", "--max-states", "20000")
    first = result.stdout.splitlines()[0]
    assert first.startswith("freecell 1: won, ") and "(optimal)" not in first
    assert "the budget ran out before this was proven shortest" in first
    plain = run("solve", "black-hole", "--deal", "2", "--optimal").stdout
    assert plain.startswith("black-hole 2: won, 51 moves (optimal)")


def test_hint_names_a_first_move_that_keeps_the_game_won():
    result = run("hint", "freecell", "--deal", "1", "--json")
    item = json.loads(result.stdout)
    assert item["status"] == "won" and item["move"]
    after = replay_notation(FREECELL, FREECELL.deal(1), item["move"].split())
    assert greedy(FREECELL, after, Budget(seconds=60)).status is Status.WON


def test_hint_in_a_scored_game_leads_to_the_best_score_even_when_it_is_a_loss(tmp_path):
    from games.bridge_solitaire import GAME as BRIDGE

    # deal 1, kept cards chosen and a grand slam bid in clubs: every line loses points
    state = replay_notation(BRIDGE, BRIDGE.deal(1), ["keep:6C+3D+5S+9S+JS+JK", "bid:7C"])
    board = tmp_path / "slam.txt"
    board.write_text(BRIDGE.format(state))
    item = json.loads(run("hint", "bridge-solitaire", str(board), "--json").stdout)
    assert item["status"] == "lost" and item["score"] < 0 and item["move"]
    replay_notation(BRIDGE, state, item["move"].split())          # a legal card
    said = run("hint", "bridge-solitaire", str(board))
    assert said.exit_code == 1 and f"score {item['score']} from here, proven best" in said.stdout
    # every card with its best score, the best first; the hint's card is the best one
    rows = json.loads(run("hint", "bridge-solitaire", str(board), "--all", "--json").stdout)
    assert sorted(r["move"] for r in rows) == sorted(BRIDGE.notation(m) for m in BRIDGE.moves(state))
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True) and scores[0] == item["score"]


def test_hint_all_gives_every_move_a_verdict_winnable_first():
    from games.black_hole import GAME as BLACK_HOLE

    result = run("hint", "black-hole", "--deal", "6", "--all", "--json", "--strategy", "dfs")
    rows = json.loads(result.stdout)
    state = BLACK_HOLE.deal(6)
    assert sorted(r["move"] for r in rows) == sorted(BLACK_HOLE.notation(m)
                                                     for m in BLACK_HOLE.moves(state))
    statuses = [r["status"] for r in rows]
    assert "won" in statuses and set(statuses) <= {"won", "lost"}
    assert statuses == sorted(statuses, key=["won", "unknown", "lost"].index)
    assert result.exit_code == 0                  # a move keeps the game winnable


def test_hint_all_exits_as_the_position_stands():
    lost = run("hint", "black-hole", "--deal", "1", "--all", "-s", "dfs")    # deal 1 is lost
    assert lost.exit_code == 1 and lost.stdout.count(" lost\n") == lost.stdout.count("\n") - 1
    unknown = run("hint", "freecell", "--deal", "11982", "--all", "--max-states", "20")
    assert unknown.exit_code == 3 and "unknown" in unknown.stdout


def test_verify_accepts_a_winning_list_and_names_the_first_bad_move():
    solution = json.loads(run("solve", "freecell", "--deal", "3", "--json").stdout)["moves"]
    good = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution))
    assert good.exit_code == 0 and "won" in good.stdout
    bad = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution[:3] + ["1h"]))
    assert bad.exit_code == 2
    assert "move 4 ('1h') is illegal" in bad.stderr
    short = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution[:5]))
    assert short.exit_code == 1 and "not won" in short.stdout


# -- classify ----------------------------------------------------------------------------

def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_classify_writes_one_line_per_deal_and_a_summary(tmp_path):
    out = tmp_path / "r.jsonl"
    result = run("classify", "freecell", "1-40", "--out", str(out), "--quiet", *TWIN)
    assert result.exit_code == 0, result.stderr
    items = read_lines(out)
    assert sorted(i["deal"] for i in items) == list(range(1, 41))
    won = sum(i["status"] == "won" for i in items)
    assert f"40 deals: {won} won" in result.stdout and "95% Wilson interval" in result.stdout


def test_classify_refuses_to_overwrite_and_resume_skips_done_deals(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("classify", "freecell", "1-10", "--out", str(out), "-q", *TWIN).exit_code == 0
    again = run("classify", "freecell", "1-10", "--out", str(out), "-q", *TWIN)
    assert again.exit_code == 2 and "--resume" in again.stderr
    more = run("classify", "freecell", "1-15", "--out", str(out), "-q", "--resume", *TWIN)
    assert more.exit_code == 0
    assert sorted(i["deal"] for i in read_lines(out)) == list(range(1, 16))


def test_a_torn_last_line_is_set_aside_and_its_deal_done_again(tmp_path):
    out = tmp_path / "r.jsonl"
    run("classify", "freecell", "1-5", "--out", str(out), "-q", *TWIN)
    lines = out.read_text().splitlines()
    torn = lines[2][:17]
    out.write_text("\n".join(lines[:2]) + "\n" + torn)          # what a kill leaves
    result = run("classify", "freecell", "1-5", "--out", str(out), "-q", "--resume", *TWIN)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "r.jsonl.torn").read_text() == torn + "\n"   # kept, not lost
    items = read_lines(out)
    assert [i["deal"] for i in items[:2]] == [json.loads(x)["deal"] for x in lines[:2]]
    assert sorted(i["deal"] for i in items) == [1, 2, 3, 4, 5]      # each once
    assert "5 deals" in result.stdout


def test_overlapping_ranges_give_each_deal_once(tmp_path):
    out = tmp_path / "r.jsonl"
    result = run("classify", "freecell", "1-5,3-4,5", "--out", str(out), "-q", *TWIN)
    assert result.exit_code == 0
    assert [i["deal"] for i in read_lines(out)] == [1, 2, 3, 4, 5]
    assert "5 deals:" in result.stdout


def test_a_huge_range_is_not_built_in_memory():
    import tracemalloc

    from solver.app.batch import read_source

    tracemalloc.start()
    tasks = read_source("1-5000000,10-20")
    size, first, inside = len(tasks), tasks[0].deal, 4_999_999 in tasks
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert (size, first, inside, 5_000_001 in tasks) == (5_000_000, 1, True, False)
    assert peak < 1 << 20


def test_records_say_what_they_hold(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("classify", "freecell", "1-2", "--out", str(out), "-q", "--seconds", "7",
               "--max-states", "5000", *TWIN).exit_code == 0
    item = read_lines(out)[0]
    assert item["game"] == "freecell" and item["variant"]["cells"] == 1
    assert item["strategy"] == "portfolio"
    assert item["budget"]["seconds"] == 7.0 and item["budget"]["max_states"] == 5000
    assert item["verified"] is (item["status"] == "won")


def _interrupt_after_first_records(command: list[str], out: Path, records: int,
                                   whole_group: bool) -> subprocess.CompletedProcess:
    """Run `command`, press Ctrl-C once `records` lines are written and half a second more."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=default_signals)
    deadline = time.time() + 300
    while time.time() < deadline and (not out.exists() or out.read_text().count("\n") < records):
        time.sleep(0.05)
    time.sleep(0.5)
    pressed = time.time()
    if whole_group:                      # a terminal's Ctrl-C reaches every process
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=90)
    return subprocess.CompletedProcess(command, process.returncode, stdout,
                                       stderr + f"\n[stopped in {time.time() - pressed:.1f} s]")


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_ctrl_c_under_cpsat_writes_no_verdict_and_stops(tmp_path, jobs):
    """Black Hole deal 10 takes CP-SAT over 20 s; deal 6 a second or two (more on a loaded
    machine: its budget is far above what either needs, so deal 10 is still in flight)."""
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "solver", "classify", "black-hole", "6,10", "--out",
               str(out), "-s", "cpsat", "--seconds", "900", "--quiet", "--jobs", jobs]
    done = _interrupt_after_first_records(command, out, 1, whole_group=jobs == "2")
    assert done.returncode == 130, done.stderr
    assert "rerun with --resume" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert float(done.stderr.rsplit("stopped in ", 1)[1].split()[0]) < 10
    items = read_lines(out)
    assert [i["deal"] for i in items] == [6]                 # deal 10 was in flight
    assert items[0]["status"] == "won"


def test_classify_takes_a_game_object_and_resumes_by_settings(tmp_path):
    from games import find_game
    from solver.app import batch

    twin = find_game("freecell", {"ranks": 4, "columns": 4, "cells": 1})
    out = tmp_path / "r.jsonl"
    first = list(batch.classify(twin, batch.read_source("1-3"), out, strategy="dfs",
                                budget=Budget(seconds=30)))
    assert [v.deal for v in first] == [1, 2, 3]
    more = list(batch.classify(twin, batch.read_source("1-4"), out, strategy="dfs",
                               budget=Budget(seconds=30), resume=True))
    assert [v.deal for v in more] == [4]
    with pytest.raises(SolitaireError, match="seconds 30, not 10"):
        batch.classify(twin, batch.read_source("1-4"), out, strategy="dfs",
                       budget=Budget(seconds=10), resume=True)


def test_classify_reads_a_file_of_boards_and_json_lines(tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text("\n".join(FREECELL.format(FREECELL.deal(n)) for n in (1, 2, 3)))
    out = tmp_path / "a.jsonl"
    assert run("classify", "freecell", str(boards), "--out", str(out), "-q").exit_code == 0
    assert [i["status"] for i in read_lines(out)] == ["won"] * 3
    numbers = tmp_path / "deals.jsonl"
    numbers.write_text('{"deal": 4}\n{"deal": 5}\n')
    out2 = tmp_path / "b.jsonl"
    assert run("classify", "freecell", str(numbers), "--out", str(out2), "-q").exit_code == 0
    assert sorted(i["deal"] for i in read_lines(out2)) == [4, 5]


def test_a_bad_board_in_a_file_stops_the_run_before_any_work(tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text(FREECELL.format(FREECELL.deal(1)) + "\n"
                      + (DATA / "freecell" / "bad" / "missing-card.txt").read_text())
    out = tmp_path / "r.jsonl"
    result = run("classify", "freecell", str(boards), "--out", str(out), "-q")
    assert result.exit_code == 2 and "boards.txt#2" in result.stderr
    assert not out.exists() or out.read_text() == ""


def test_killed_classify_resumes_without_losing_or_repeating_a_deal(tmp_path):
    out = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "solver", "classify", "freecell", "1-60", "--out", str(out),
               "--quiet", "--jobs", "2"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=default_signals)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = [i["deal"] for i in read_lines(out)]
    assert 3 <= len(done_before) < 60
    resumed = subprocess.run(command + ["--resume"], env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    deals = [i["deal"] for i in read_lines(out)]
    assert sorted(deals) == list(range(1, 61))                  # none lost, none repeated
    assert deals[:len(done_before)] == done_before              # nothing rewritten


def test_games_lists_every_registered_game():
    result = run("games")
    for name in ("freecell", "seahaven", "black-hole", "clock"):
        assert f"\n{name}: " in "\n" + result.stdout


# -- what a player and a script expect ------------------------------------------------------

def test_exit_status_tells_won_lost_and_unknown_apart():
    assert run("solve", "freecell", "--deal", "1").exit_code == 0
    assert run("solve", "black-hole", "--deal", "1").exit_code == 1
    assert run("solve", "freecell", "--deal", "11982", "--max-states", "100").exit_code == 3
    assert run("hint", "black-hole", "--deal", "1").exit_code == 1


def test_version_is_printed():
    from importlib.metadata import version

    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"solitaire-solver {version('solitaire-solver')}\n"


def test_solve_and_hint_have_a_default_time_budget():
    item = json.loads(run("solve", "freecell", "--deal", "1", "--json").stdout)
    assert item["budget"]["seconds"] == 60.0
    assert "default 60" in run("solve", "--help").stdout
    assert "shared equally among the moves" in " ".join(run("hint", "--help").stdout.split())


def test_hint_on_a_won_position_says_so(tmp_path):
    from games.black_hole import GAME as BLACK_HOLE

    solution = json.loads(run("solve", "black-hole", "--deal", "6", "--json").stdout)["moves"]
    board = tmp_path / "won.txt"
    board.write_text(BLACK_HOLE.format(replay_notation(BLACK_HOLE, BLACK_HOLE.deal(6), solution)))
    assert BLACK_HOLE.is_won(BLACK_HOLE.parse(board.read_text()))
    result = run("hint", "black-hole", str(board))
    assert result.exit_code == 0 and "won already" in result.stdout
    assert "budget" not in result.stdout


def test_hint_all_marks_the_move_that_wins_at_once(tmp_path):
    from games.black_hole import GAME as BLACK_HOLE

    solution = json.loads(run("solve", "black-hole", "--deal", "6", "--json").stdout)["moves"]
    last = replay_notation(BLACK_HOLE, BLACK_HOLE.deal(6), solution[:-1])
    board = tmp_path / "last.txt"
    board.write_text(BLACK_HOLE.format(last))
    rows = json.loads(run("hint", "black-hole", str(board), "--all", "--json").stdout)
    assert [(r["move"], r["label"], r["wins_now"]) for r in rows] == [(solution[-1], "wins", True)]
    human = run("hint", "black-hole", "--deal", "6", "--all", "-s", "dfs").stdout
    assert "winnable" in human and " won" not in human


def test_solve_boards_prints_the_position_after_each_move():
    from games.black_hole import GAME as BLACK_HOLE

    result = run("solve", "black-hole", "--deal", "6", "--boards")
    lines = result.stdout.splitlines()
    moves = lines[1].split()
    assert len(moves) == 51
    numbered = [line for line in lines if line[:1].isdigit() and ". " in line]
    assert [line.split(". ", 1)[1].split(":")[0] for line in numbered] == moves
    state = BLACK_HOLE.deal(6)
    boards = result.stdout.split("\n\n")[1:]        # the deal, then one board per move
    assert BLACK_HOLE.parse(boards[0]) == state
    for text, move in zip(boards[1:], moves):
        state = replay_notation(BLACK_HOLE, state, [move])
        assert BLACK_HOLE.parse(text.split("\n", 1)[1]) == state


def test_klondike_turns_of_the_stock_read_as_one_step_with_a_count():
    from solver.app.cli import _grouped

    assert _grouped(["s"] * 8 + ["wf", "6h", "6h"]) == ["s ×8", "wf", "6h ×2"]
    result = run("hint", "klondike", "--deal", "5", "--json")
    steps = json.loads(result.stdout)["steps"]
    assert steps[:-1] == ["s"] * (len(steps) - 1) and len(steps) > 2
    human = run("hint", "klondike", "--deal", "5").stdout
    assert human.startswith(f"play s ×{len(steps) - 1} {steps[-1]}: ")
    assert f"×{len(steps) - 1}, then " in human and "AC" in human


@pytest.mark.parametrize("game", ["black-hole", "clock", "freecell", "klondike"])
def test_deal_ends_with_one_newline_and_every_style_reads_back(game, tmp_path):
    from games import find_game

    plain = run("deal", game, "3", "--style", "ascii").stdout
    assert plain.endswith("\n") and not plain.endswith("\n\n")
    for style in ("unicode", "colour"):
        board = tmp_path / f"{style}.txt"
        board.write_text(run("deal", game, "3", "--style", style).stdout)
        assert find_game(game).parse(board.read_text()) == find_game(game).deal(3)
        assert run("solve", game, str(board), "--max-states", "50").exit_code in (0, 1, 3)


def test_a_long_search_shows_its_progress_on_request(monkeypatch, capsys):
    from solver.app.cli import SearchProgress

    line = SearchProgress(seconds=60, enabled=True)
    line.next = 0.0                                       # as if two seconds had passed

    class FakeRun:
        table = range(123_456)

    line(FakeRun())
    line.close()
    err = capsys.readouterr().err
    assert "123,456 positions" in err and "of 60 s" in err and err.endswith("\r\033[K")
    assert SearchProgress(None, enabled=False).budget(Budget(seconds=1)).progress is None


def test_bench_counts_every_search_for_its_progress_bar():
    from games.black_hole import GAME as BLACK_HOLE
    from solver.app.batch import read_source
    from solver.app.bench import compare

    calls = []
    rows = compare(BLACK_HOLE, read_source("1-3"), ["dfs", "best_first"], Budget(seconds=10),
                   on_deal=lambda: calls.append(1))
    assert len(calls) == 6 and [r.deals for r in rows] == [3, 3]
