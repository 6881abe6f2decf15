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
from typer.testing import CliRunner

from conftest import DATA
from games.freecell import GAME as FREECELL
from solver.cli import app
from solver.game import Status
from solver.search import Budget, greedy
from solver.verify import replay_notation

runner = CliRunner()
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
    assert result.exit_code == 0 and "lost (proven" in result.stdout


def test_solve_reads_a_board_file(tmp_path):
    board = tmp_path / "deal.txt"
    board.write_text(FREECELL.format(FREECELL.deal(3)))
    assert run("solve", "fc", str(board)).stdout.startswith(f"freecell {board}: won")


def test_optimal_solve_is_marked_optimal():
    result = run("solve", "freecell", "--deal", "1", *TWIN, "--optimal", "--json")
    item = json.loads(result.stdout)
    assert item["strategy"] == "astar"
    assert item["status"] != "won" or item["optimal"]


def test_hint_names_a_first_move_that_keeps_the_game_won():
    result = run("hint", "freecell", "--deal", "1", "--json")
    item = json.loads(result.stdout)
    assert item["status"] == "won" and item["move"]
    after = replay_notation(FREECELL, FREECELL.deal(1), item["move"].split())
    assert greedy(FREECELL, after, Budget(seconds=60)).status is Status.WON


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


def test_verify_accepts_a_winning_list_and_names_the_first_bad_move():
    solution = json.loads(run("solve", "freecell", "--deal", "3", "--json").stdout)["moves"]
    good = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution))
    assert good.exit_code == 0 and "won" in good.stdout
    bad = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution[:3] + ["1h"]))
    assert bad.exit_code == 2
    assert "move 4 ('1h') is illegal" in bad.stderr
    short = run("verify", "freecell", "--deal", "3", "--moves", " ".join(solution[:5]))
    assert short.exit_code == 1 and "not won" in short.stdout


# -- bad input: one line on stderr, exit status 2 ------------------------------------------

@pytest.mark.parametrize("args,phrase", [
    (["solve", "nosuch", "--deal", "1"], "unknown game 'nosuch'"),
    (["solve", "freecell", "--deal", "1", "--variant", "foo=1"], "no variant option 'foo'"),
    (["solve", "freecell", "--deal", "1", "--variant", "cells=9"], "cells must be 0..7"),
    (["solve", "freecell", "--deal", "1", "--variant", "cells"], "key=value"),
    (["solve", "freecell", "--deal", "0"], "from 1 to 8589934591"),
    (["solve", "freecell"], "either a deal file or --deal"),
    (["solve", "freecell", "/no/such/file"], "cannot read"),
    (["solve", "freecell", str(DATA / "freecell" / "bad" / "duplicate-card.txt")], "duplicate card"),
    (["solve", "freecell", str(DATA / "freecell" / "bad" / "empty.txt")], "empty"),
    (["solve", "freecell", "--deal", "1", "--strategy", "magic"], "unknown strategy 'magic'"),
    (["solve", "freecell", "--deal", "1", "--strategy", "cpsat"], "no CP-SAT model"),
    (["solve", "freecell", "--deal", "1", "--memory", "lots"], "memory size 'lots'"),
    (["verify", "freecell", "--deal", "1", "--moves", "1a zz"], "move 2 ('zz') is illegal"),
    (["classify", "freecell", "5-1", "--out", "x.jsonl"], "ends before it starts"),
    (["classify", "freecell", "abc", "--out", "x.jsonl"], "neither a deal range"),
    (["deal", "freecell", "1", "--style", "fancy"], "unknown style 'fancy'"),
])
def test_user_mistakes_get_one_line_and_status_2(args, phrase, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2, result.stdout
    assert result.stderr.startswith("error: ") and phrase in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


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


def test_resume_refuses_a_truncated_results_file_and_keeps_it(tmp_path):
    out = tmp_path / "r.jsonl"
    run("classify", "freecell", "1-5", "--out", str(out), "-q", *TWIN)
    text = out.read_text()
    lines = text.splitlines()
    out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:17])
    before = out.read_text()
    result = run("classify", "freecell", "1-5", "--out", str(out), "-q", "--resume", *TWIN)
    assert result.exit_code == 2 and "line 3" in result.stderr and "truncated" in result.stderr
    assert out.read_text() == before


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
                               stderr=subprocess.DEVNULL, start_new_session=True)
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
