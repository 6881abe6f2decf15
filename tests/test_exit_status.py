"""Exit statuses a script can trust: a crash, an unwritable output or a signal is never a verdict.

Status 1 means "lost" (a proof), so nothing else may end with it: an internal error exits 70
with one line asking for a report (``--debug`` shows the traceback), output that cannot be
written exits 74, SIGTERM 143, and a reader that stopped reading ends the command quietly.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import run_main
from command_line import runner

from solver.app import analyze
from solver.app.cli import (EXIT_BROKEN_PIPE, EXIT_BUG, EXIT_OUTPUT, EXIT_TERMINATED, app,
                            main)

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
COMMAND = [sys.executable, "-m", "solver"]



def _broken_solve(*args, **kwargs):
    raise RuntimeError("a search went wrong")


# -- an internal error ------------------------------------------------------------------

def test_an_internal_error_is_status_70_in_one_line_never_1(monkeypatch, capsys):
    monkeypatch.setattr(analyze, "solve", _broken_solve)
    code, out, err = run_main(["solve", "freecell", "--deal", "1"], capsys)
    assert code == EXIT_BUG == 70
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("internal error: RuntimeError: a search went wrong")
    assert "please report it" in err and "--debug" in err
    assert out == ""


def test_debug_anywhere_on_the_line_shows_the_traceback(monkeypatch, capsys):
    monkeypatch.setattr(analyze, "solve", _broken_solve)
    with pytest.raises(RuntimeError, match="a search went wrong"):
        main(["solve", "freecell", "--deal", "1", "--debug"])
    with pytest.raises(RuntimeError):
        main(["--debug", "solve", "freecell", "--deal", "1"])


def test_a_user_mistake_with_debug_is_still_one_line_status_2(capsys):
    code, _, err = run_main(["solve", "freecell", "--deal", "0", "--debug"], capsys)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_a_name_too_long_for_any_file_is_a_users_mistake_in_one_line(tmp_path, capsys):
    """A results file, a replay page or a source named past the system's limit (255 bytes
    a name here) is the user's mistake, status 2, not an internal error."""
    long_name = str(tmp_path / ("a" * 300))
    for args in (["classify", "freecell", "1", "-o", long_name],
                 ["solve", "freecell", "--deal", "1", "--html", long_name + ".html"],
                 ["classify", "freecell", long_name + "/deals.txt", "-o", str(tmp_path / "r.jsonl")]):
        code, _, err = run_main(args, capsys)
        assert code == 2, args
        assert err.startswith("error: ") and err.count("\n") == 1 and "internal" not in err, args


# -- output that cannot be written ------------------------------------------------------

def test_a_full_disk_on_standard_output_is_status_74_in_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run([*COMMAND, "solve", "freecell", "--deal", "1"], env=ENV,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == EXIT_OUTPUT == 74
    assert done.stderr == "error: cannot write the output: No space left on device\n"


def test_a_closed_standard_output_is_status_74_in_one_line():
    done = subprocess.run([*COMMAND, "deal", "freecell", "1"], env=ENV, stderr=subprocess.PIPE,
                          text=True, timeout=120, stdout=subprocess.DEVNULL,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == EXIT_OUTPUT
    assert done.stderr == "error: standard output is closed; nothing could be printed\n"


def test_a_reader_that_went_away_ends_the_command_quietly():
    process = subprocess.Popen([*COMMAND, "solve", "freecell", "--deal", "1", "--boards"],
                               env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()                       # as `| head` does once it has enough
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == EXIT_BROKEN_PIPE == 141
    assert err == ""


# -- signals ----------------------------------------------------------------------------

def busy_for(pid: int, seconds: float, limit: float = 60.0) -> None:
    """Wait until process `pid` has used `seconds` of processor time (its imports and the
    signal handlers behind it, however loaded the machine), or `limit` seconds of wall time;
    where /proc is missing, wait `seconds` of wall time."""
    stat = f"/proc/{pid}/stat"
    if not os.path.exists(stat):
        time.sleep(seconds)
        return
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with open(stat) as source:
            fields = source.read().rpartition(")")[2].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= seconds:     # utime + stime
            return
        time.sleep(0.05)


def test_sigterm_ends_a_search_with_status_143_and_no_traceback():
    process = subprocess.Popen([*COMMAND, "solve", "freecell", "--deal", "5", "--optimal",
                                "--seconds", "300"],
                               env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    busy_for(process.pid, 1.5)                   # well into A* (deal 5 takes minutes)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == EXIT_TERMINATED == 143
    assert err == "terminated\n" and out == ""


# -- continuing a game ------------------------------------------------------------------

PLAYED = ["5h", "5a", "5h", "35"]                # legal from Microsoft deal 3


def test_solve_after_moves_solves_the_position_they_reach():
    result = runner.invoke(app, ["solve", "freecell", "--deal", "3", "--moves", " ".join(PLAYED),
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["played"] == PLAYED and record["status"] == "won"
    # the solution starts where the moves left off: both together win the deal
    whole = runner.invoke(app, ["verify", "freecell", "--deal", "3", "--moves",
                                " ".join(PLAYED + record["moves"])])
    assert whole.exit_code == 0 and "the game is won" in whole.stdout
    alone = runner.invoke(app, ["verify", "freecell", "--deal", "3", "--moves",
                                " ".join(record["moves"])])
    assert alone.exit_code == 2                  # not a solution of the deal itself


def test_hint_after_moves_reads_them_from_a_file(tmp_path):
    played = tmp_path / "played.txt"
    played.write_text(",".join(PLAYED) + "\n")
    result = runner.invoke(app, ["hint", "freecell", "--deal", "3", "--moves", f"@{played}",
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    hint = json.loads(result.stdout)
    assert hint["status"] == "won" and hint["steps"]
    follow = runner.invoke(app, ["verify", "freecell", "--deal", "3", "--moves",
                                 " ".join(PLAYED + hint["steps"])])
    assert follow.exit_code == 1                 # legal, and the game goes on


def test_verify_boards_prints_each_position_ending_with_the_one_reached():
    result = runner.invoke(app, ["verify", "freecell", "--deal", "3", "--moves", "5h 5a",
                                 "--boards"])
    assert result.exit_code == 1
    text = result.stdout
    assert "1. 5h: AH from column 5 to the foundation" in text
    assert "2. 5a: 9H from column 5 to cell a" in text
    last = text.split("2. 5a:")[1]
    assert "Freecells: 9H - - -" in last and ": 6S QS 6H AC\n" in last
    assert text.rstrip().endswith("all 2 moves are legal but the game is not won")
