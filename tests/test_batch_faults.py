"""Batch classification under faults: dying workers, failing deals, a second writer,
a results file changed under the run, records that are not verdicts, a full disk, SIGTERM.

Workers are forked, so a test makes one deal misbehave by replacing
``solver.app.batch.solve_task`` in the test process before the run: the workers inherit
the replacement, and nothing a user runs can reach it. The command-line cases use the
same promises as ``tests/test_bad_input.py``: one ``error:`` line on stderr, no
traceback, files as they were.
"""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import default_signals, run_main

from games import find_game
from solver.app import batch
from solver.app.batch import DealRanges, OutputError, Plan, ResultsLock, read_source
from solver.app.sources import MAX_DEAL_NUMBER
from solver.app.cli import EXIT_BUG, EXIT_OUTPUT, EXIT_TERMINATED, MESSAGE_LIMIT
from solver.game import SolitaireError
from solver.search import Budget

TWIN = ["-V", "ranks=4", "-V", "columns=4", "-V", "cells=1"]
TWIN_GAME = find_game("freecell", {"ranks": "4", "columns": "4", "cells": "1"})
BUDGET = Budget(seconds=30.0, memory=1 << 28)
LOST_DEAL = 10                              # the twin's only lost deal among 1-12
real_solve = batch.solve_task


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_plan(out: Path, deals: str = "1-12", jobs: int = 1, resume: bool = False) -> Plan:
    plan = Plan(TWIN_GAME, read_source(deals), out, strategy="dfs", budget=BUDGET, jobs=jobs,
                resume=resume)
    list(plan.run())
    return plan



def one_error_line(err: str) -> bool:
    return (err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
            and len(err) <= MESSAGE_LIMIT + len("error: \n"))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _kill_worker_at(deal: int, flag: Path | None = None):
    """A solve that kills its own process at `deal` (once only, when `flag` is given)."""
    def solve(game, task, strategy, budget):
        if task.deal == deal and (flag is None or not flag.exists()):
            if flag is not None:
                flag.write_text("killed once")
            os.kill(os.getpid(), signal.SIGKILL)
        return real_solve(game, task, strategy, budget)
    return solve


# -- 1. a worker that dies -------------------------------------------------------------------

def test_a_deal_that_kills_its_worker_twice_is_recorded_as_a_crash(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "solve_task", _kill_worker_at(5))
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    plan = run_plan(out, jobs=2)
    assert time.monotonic() - started < 10
    items = records(out)
    assert sorted(i["deal"] for i in items) == list(range(1, 13))       # each once
    crash = next(i for i in items if i["deal"] == 5)
    assert (crash["status"], crash["stopped_by"]) == ("unknown", "crash")
    assert crash["error"] == "its worker process was killed by SIGKILL, 2 times"
    assert [i["status"] for i in items if i["deal"] != 5].count("won") == 10
    assert (plan.crashes, plan.errors) == (1, 0)
    assert not (tmp_path / "r.jsonl.lock").exists()
    summary = plan.summarize()
    assert (summary.total, summary.crashes, summary.counts["unknown"]) == (12, 1, 1)


def test_a_deal_retried_after_its_worker_died_once_is_recorded_normally(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "solve_task", _kill_worker_at(LOST_DEAL, tmp_path / "flag"))
    out = tmp_path / "r.jsonl"
    plan = run_plan(out, jobs=2)
    items = records(out)
    assert (tmp_path / "flag").read_text() == "killed once"
    assert sorted(i["deal"] for i in items) == list(range(1, 13))
    assert next(i for i in items if i["deal"] == LOST_DEAL)["status"] == "lost"
    assert all("stopped_by" not in i for i in items) and plan.crashes == 0


# -- 2. an exception while solving one deal --------------------------------------------------

def _raising_at(deal: int, error: BaseException) -> Any:
    """Return a solve_task that raises `error` at `deal` and solves the others."""
    def solve(game: Any, task: Any, strategy: str, budget: Budget) -> Any:
        if task.deal == deal:
            raise error
        return real_solve(game, task, strategy, budget)
    return solve


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_in_one_deal_is_recorded_as_an_error_and_resume_reads_it(
        tmp_path, monkeypatch, jobs):
    monkeypatch.setattr(batch, "solve_task", _raising_at(4, OverflowError("int too big to convert")))
    out = tmp_path / "r.jsonl"
    plan = run_plan(out, jobs=jobs)
    items = records(out)
    assert sorted(i["deal"] for i in items) == list(range(1, 13))
    failed = next(i for i in items if i["deal"] == 4)
    assert (failed["status"], failed["stopped_by"]) == ("unknown", "error")
    assert failed["error"].startswith("OverflowError: int too big to convert (at test_batch_faults.py:")
    assert plan.errors == 1 and plan.summarize().errors == 1
    monkeypatch.setattr(batch, "solve_task", real_solve)
    again = run_plan(out, "1-13", jobs=jobs, resume=True)         # reads the error record
    assert [i["deal"] for i in records(out)][12:] == [13] and again.errors == 0


def test_a_run_with_an_internal_error_ends_with_status_70_after_every_deal(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(batch, "solve_task", _raising_at(4, OverflowError("int too big to convert")))
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["classify", "freecell", "1-12", "--out", "r.jsonl", "-q",
                               "-s", "dfs", *TWIN], capsys)
    assert code == EXIT_BUG
    assert "12 deals: 10 won, 1 lost, 1 unknown" in out
    assert "of the unknown, 1 hit an internal error" in out
    assert err.count("\n") == 1 and "internal error in 1 deals of this run" in err
    assert len(records(tmp_path / "r.jsonl")) == 12


def test_an_interrupt_while_solving_is_not_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "solve_task", _raising_at(3, KeyboardInterrupt()))
    out = tmp_path / "r.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_plan(out)
    assert [i["deal"] for i in records(out)] == [1, 2]
    assert not (tmp_path / "r.jsonl.lock").exists()


# -- 3. one writer per results file ----------------------------------------------------------

def test_a_second_run_on_a_locked_results_file_is_refused_and_writes_nothing(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    run_plan(tmp_path / "r.jsonl", "1-3")
    held = ResultsLock(tmp_path / "r.jsonl")             # as another run would hold it
    try:
        before = snapshot(tmp_path)
        code, _, err = run_main(["classify", "freecell", "1-6", "--out", "r.jsonl", "--resume",
                                 "-q", "-s", "dfs", "--seconds", "30", *TWIN], capsys)
        assert code == 2 and one_error_line(err), err
        assert f"'r.jsonl' is being written by another run (pid {os.getpid()}, started " in err
        assert snapshot(tmp_path) == before
    finally:
        held.release()
    assert not (tmp_path / "r.jsonl.lock").exists()
    code, _, err = run_main(["classify", "freecell", "1-6", "--out", "r.jsonl", "--resume",
                             "-q", "-s", "dfs", "--seconds", "30", *TWIN], capsys)
    assert code == 0 and [i["deal"] for i in records(tmp_path / "r.jsonl")] == list(range(1, 7))


def test_a_lock_left_by_a_killed_run_does_not_block_the_next(tmp_path):
    (tmp_path / "r.jsonl.lock").write_text("pid 999999, started long ago\n")   # no flock
    run_plan(tmp_path / "r.jsonl", "1-2")
    assert len(records(tmp_path / "r.jsonl")) == 2
    assert not (tmp_path / "r.jsonl.lock").exists()


def _meddle_at(deal: int, meddle):
    def solve(game, task, strategy, budget):
        if task.deal == deal:
            meddle()
        return real_solve(game, task, strategy, budget)
    return solve


@pytest.mark.parametrize("how,message", [
    ("replaced", "was replaced by another file during the run"),
    ("truncated", "was cut to 0 bytes during the run"),
    ("appended", "grew by 3 bytes this run did not write"),
    ("removed", "was removed during the run"),
])
def test_a_results_file_changed_under_the_run_stops_it(tmp_path, monkeypatch, how, message):
    out = tmp_path / "r.jsonl"

    def meddle() -> None:
        if how == "replaced":                    # what an editor does when it saves
            text = out.read_text()
            (tmp_path / "r.jsonl.new").write_text(text)
            os.replace(tmp_path / "r.jsonl.new", out)
        elif how == "truncated":
            out.write_text("")
        elif how == "appended":
            with out.open("a") as other:
                other.write("{}\n")
        else:
            out.unlink()

    monkeypatch.setattr(batch, "solve_task", _meddle_at(4, meddle))
    with pytest.raises(OutputError, match=message):
        run_plan(out)
    if how != "removed":
        kept = out.read_text()
        assert kept.count("\n") == {"replaced": 3, "truncated": 0, "appended": 4}[how]
    assert not (tmp_path / "r.jsonl.lock").exists()


# -- 4. the summary counts every deal asked for ----------------------------------------------

def test_the_summary_counts_deals_without_a_record_and_names_the_first(tmp_path):
    out = tmp_path / "r.jsonl"
    run_plan(out, "1-12")
    lines = out.read_text().splitlines(keepends=True)
    spoiled = json.loads(lines[2])
    spoiled["states"] = -1                                         # not a verdict: skipped
    out.write_text("".join(lines[:2]) + json.dumps(spoiled) + "\n" + "".join(lines[3:9]))
    summary = batch.summarize(out, read_source("1-20"), TWIN_GAME)
    assert (summary.total, summary.recorded, summary.missing) == (20, 8, 12)
    assert summary.missing_ids == [3, 10, 11, 12, 13]


# -- 5. --resume checks what it reads --------------------------------------------------------

@pytest.fixture(scope="module")
def good_lines() -> list[str]:
    """Records of twin deals 9, 10 (lost) and 11, as a run writes them."""
    lines = []
    for number in (9, LOST_DEAL, 11):
        verdict = real_solve(TWIN_GAME, batch.Task(number, number=number), "dfs", BUDGET)
        lines.append(json.dumps(verdict.to_json()))
    return lines


def _edit(item: dict, change: str, other: dict) -> str:
    if change == "won-without-moves":
        item.update(moves=[], length=0)
    elif change == "won-at-start-claimed":                 # what a won start records
        item.update(moves=[], length=0, states=0, expanded=0)
    elif change == "lost-with-moves":
        item.update(status="lost")
    elif change == "no-budget":
        del item["budget"]
    elif change == "states-infinite":
        return json.dumps({**item, "states": 0}).replace('"states": 0', '"states": 1e999')
    elif change == "states-negative":
        item.update(states=-1)
    elif change == "states-fraction":
        item.update(states=1.5)
    elif change == "seconds-infinite":
        return json.dumps({**item, "seconds": 0}).replace('"seconds": 0', '"seconds": 1e999')
    elif change == "moves-a-text":
        item.update(moves="5h 5a")
    elif change == "length-disagrees":
        item.update(length=item["length"] + 1)
    elif change == "won-one-move-short":
        item.update(moves=item["moves"][:-1], length=item["length"] - 1)
    elif change == "lost-edited-to-won":               # deal 10's line given deal 9's win
        item.update(deal=LOST_DEAL, status="won", moves=other["moves"], length=other["length"])
    elif change == "won-illegal-move":
        item.update(moves=["zz", *item["moves"][1:]])
    return json.dumps(item)


@pytest.mark.parametrize("change,phrase", [
    ("won-without-moves", "a won record without the moves that win"),
    ("won-at-start-claimed", "(deal 9): a won record whose 0 moves do not end in a won"),
    ("lost-with-moves", "a lost record with a solution's"),
    ("no-budget", "no budget recorded"),
    ("states-infinite", "states 'Infinity' is not a whole number"),
    ("states-negative", "states -1 is negative"),
    ("states-fraction", "states '1.5' is not a whole number"),
    ("seconds-infinite", "seconds 'Infinity' is not a finite time"),
    ("moves-a-text", "are not a list of texts"),
    ("length-disagrees", "but {moves} moves"),
    ("won-one-move-short", "moves do not end in a won position"),
    ("lost-edited-to-won", "(deal 10): its moves do not replay: move"),
    ("won-illegal-move", "its moves do not replay: move 1 ('zz')"),
])
def test_resume_refuses_a_record_that_is_not_a_verdict_naming_its_line(
        good_lines, change, phrase, tmp_path, monkeypatch, capsys):
    item = json.loads(good_lines[0])
    line = _edit(item, change, json.loads(good_lines[0]))
    (tmp_path / "r.jsonl").write_text(good_lines[2] + "\n" + line + "\n")
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    code, _, err = run_main(["classify", "freecell", "1-12", "--out", "r.jsonl", "--resume",
                             "-q", "-s", "dfs", "--seconds", "30", "--memory", "256M", *TWIN],
                            capsys)
    assert code == 2 and one_error_line(err), err
    phrase = phrase.format(moves=len(item["moves"]))     # the record's own count
    assert "r.jsonl, line 2" in err and phrase in err, err
    assert snapshot(tmp_path) == before


def test_resume_accepts_the_records_a_run_wrote(good_lines, tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text("\n".join(good_lines) + "\n")
    plan = Plan(TWIN_GAME, read_source("9-12"), out, strategy="dfs", budget=BUDGET, resume=True)
    assert plan.scan.done == {9, LOST_DEAL, 11} and plan.total == 1
    assert [v.deal for v in plan.run()] == [12]


def test_a_board_won_at_its_start_is_recorded_won_and_resumes(tmp_path):
    from games.freecell import GAME

    boards = tmp_path / "won.txt"
    boards.write_text("Foundations: KC KD KH KS\n" + ":\n" * 8)
    out = tmp_path / "r.jsonl"
    plan = Plan(GAME, read_source(str(boards)), out, strategy="dfs", budget=BUDGET)
    assert [(v.status.value, v.moves) for v in plan.run()] == [("won", ())]
    again = Plan(GAME, read_source(str(boards)), out, strategy="dfs", budget=BUDGET, resume=True)
    assert again.scan.done == {"won.txt#1"} and again.summarize().counts["won"] == 1
    again.close()


# -- 6. numbers at their edges ---------------------------------------------------------------

def test_deal_ranges_count_without_len_overflowing_and_refuse_beyond_2_63():
    largest = DealRanges([(1, MAX_DEAL_NUMBER)])
    assert largest.size == len(largest) == (1 << 63) - 1
    assert largest[-1].deal == MAX_DEAL_NUMBER
    with pytest.raises(SolitaireError, match="deal 10000000000000000000 is beyond"):
        read_source("1-10000000000000000000")


def test_a_list_of_deals_longer_than_any_file_name_is_read_as_deals():
    """A list of 475 deal numbers is some 1,800 characters, more than a file's name may
    have: asking whether such a file exists raised OSError ("File name too long"), which
    ended the run as an internal error."""
    deals = [deal for deal in range(1, 501) if deal % 20]
    source = ",".join(map(str, deals))
    assert len(source) > 255
    assert [task.deal for task in read_source(source)] == deals


def test_a_range_beyond_2_63_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(["classify", "gaps", "1-10000000000000000000", "--out", "g.jsonl"],
                            capsys)
    assert code == 2 and one_error_line(err) and "2^63-1" in err, err
    assert list(tmp_path.iterdir()) == []


# -- 7. output that cannot be written --------------------------------------------------------

def test_a_full_device_stops_the_run_with_one_line(tmp_path, monkeypatch, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(["classify", "freecell", "1-3", "--out", "/dev/full", "-q", "-s",
                             "dfs", *TWIN], capsys)
    assert code == EXIT_OUTPUT and one_error_line(err), err
    assert "cannot write '/dev/full': No space left on device" in err
    assert not os.path.exists("/dev/full.lock")


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "solver", "classify", *args]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))


@pytest.mark.parametrize("cut", [0, 60])
def test_a_disk_filling_mid_run_leaves_whole_records_only(tmp_path, good_lines, cut):
    """A file size limit (RLIMIT_FSIZE) plays the full disk: the third record's write fails
    near its start (cut 0) or part-way (cut 60 bytes in), and is cut back off. The limit
    has 32 bytes of slack: the first two records' timings and peak memory are written
    again in this run, and their digits may make them a few bytes longer than the
    measuring run's."""
    out = tmp_path / "r.jsonl"
    run_plan(out, "1-2")
    limit = out.stat().st_size + cut + 32
    out.unlink()

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(_cli("freecell", "1-6", "--out", str(out), "-q", "-s", "dfs",
                               "--seconds", "30", "--memory", "256M", *TWIN),
                          env=_env(), capture_output=True, text=True, preexec_fn=limited,
                          timeout=60)
    assert done.returncode == EXIT_OUTPUT and one_error_line(done.stderr), done.stderr
    assert "cannot write" in done.stderr and "File too large" in done.stderr
    assert out.read_text().endswith("}\n")
    assert [i["deal"] for i in records(out)] == [1, 2]


# -- signals ---------------------------------------------------------------------------------

def _start_and_wait(out: Path, lines: int) -> subprocess.Popen:
    process = subprocess.Popen(_cli("freecell", "1-3000", "--out", str(out), "-q", "--jobs", "2",
                                    "-s", "dfs", "--memory", "256M"),
                               env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=default_signals)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < lines):
        time.sleep(0.05)
    return process


@pytest.mark.parametrize("whole_group", [False, True])
def test_sigterm_ends_a_pooled_run_like_ctrl_c(tmp_path, whole_group):
    out = tmp_path / "r.jsonl"
    process = _start_and_wait(out, 3)
    sent = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signal.SIGTERM)
    else:
        process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert process.returncode == EXIT_TERMINATED, stderr
    assert "Traceback" not in stderr and "rerun with --resume" in stderr, stderr
    assert stderr.count("\n") == 1, stderr
    text = out.read_text()
    assert text.endswith("\n") and len(records(out)) >= 3
    assert not (tmp_path / "r.jsonl.lock").exists()
    with pytest.raises(ProcessLookupError):             # no worker left behind
        os.killpg(process.pid, 0)


def _running_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (a dead one no one reaped yet, a
    zombie, does not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_whose_parent_vanished_exit(tmp_path):
    out = tmp_path / "r.jsonl"
    process = _start_and_wait(out, 3)
    assert len(_running_in_group(process.pid)) == 3          # the parent and two workers
    process.kill()                                       # the parent alone, as SIGKILL does
    process.communicate(timeout=30)
    killed = time.monotonic()
    while _running_in_group(process.pid) and time.monotonic() - killed < 5:
        time.sleep(0.02)
    assert _running_in_group(process.pid) == []
    assert time.monotonic() - killed < 1


@pytest.mark.slow
def test_sigterm_stops_an_in_process_cpsat_search_at_once(tmp_path):
    """With --jobs 1 the search runs in the process SIGTERM reaches; CP-SAT (Black Hole
    deal 10 takes it over 20 s) must stop as it does on Ctrl-C, not run to its limit."""
    out = tmp_path / "r.jsonl"
    process = subprocess.Popen(_cli("black-hole", "10", "--out", str(out), "-q", "-s", "cpsat",
                                    "--seconds", "50"),
                               env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=default_signals)
    time.sleep(3)                                        # well into the solve
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert time.monotonic() - sent < 5, stderr
    assert process.returncode == EXIT_TERMINATED and "Traceback" not in stderr, stderr
    assert out.read_text() == ""
