"""``solitaire merge``: each deal once by its key, contradictions refused naming both
lines, unknown giving way to a decided verdict, a torn last line left out, and the
mistakes (other settings, an input that is the output, a missing file) told in one line
with nothing written."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_main

from solver.app.merge import merge
from solver.app.record import solver_version
from solver.game import SolitaireError

BUDGET = {"max_states": None, "seconds": 60.0, "memory": 1 << 30, "cpu": False}


def record(deal: Any, status: str, **changes: Any) -> dict[str, Any]:
    """A Black Hole record as classify writes it (won: a made-up move list; merge does
    not replay moves)."""
    item: dict[str, Any] = {
        "game": "black-hole", "variant": {"ranks": 13}, "deal": deal, "status": status,
        "moves": ["2S", "3H"] if status == "won" else [],
        "strategy": "dfs", "states": 10, "budget": dict(BUDGET),
        "solver_version": "0.1.0"}
    item["length"] = len(item["moves"])
    if status == "unknown":
        item["stopped_by"] = "seconds"
    item.update(changes)
    return item


def write(path: Path, *items: dict[str, Any], tail: str = "") -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items) + tail)
    return path


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_deal_is_kept_once_and_the_records_are_copied_as_written(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"), record(2, "lost"))
    b = write(tmp_path / "b.jsonl", record(2, "lost", states=99), record(3, "won"))
    out = tmp_path / "all.jsonl"
    merged = merge([a, b], out)
    assert [item["deal"] for item in lines(out)] == [1, 2, 3]
    assert lines(out)[1]["states"] == 10               # the first of a duplicate
    assert out.read_text().splitlines()[0] == a.read_text().splitlines()[0]
    assert (merged.read, len(merged.kept), merged.duplicates, merged.settled) == (4, 3, 1, 0)
    summary = merged.summary()
    assert (summary.counts["won"], summary.counts["lost"], summary.total) == (2, 1, 3)


def test_won_against_lost_is_an_error_naming_both_lines(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"), record(2, "won"))
    b = write(tmp_path / "b.jsonl", record(5, "lost"), record(2, "lost"))
    out = tmp_path / "all.jsonl"
    with pytest.raises(SolitaireError) as caught:
        merge([a, b], out)
    message = str(caught.value)
    assert f"{a}:2" in message and f"{b}:2" in message and "deal 2" in message
    assert not out.exists()


def test_an_unknown_gives_way_to_a_decided_verdict_either_way_round(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "unknown"), record(2, "won"))
    b = write(tmp_path / "b.jsonl", record(1, "won"), record(2, "unknown"),
              record(3, "unknown"))
    out = tmp_path / "all.jsonl"
    merged = merge([a, b], out)
    assert {item["deal"]: item["status"] for item in lines(out)} == \
        {1: "won", 2: "won", 3: "unknown"}
    assert merged.settled == 2 and merged.duplicates == 0


def test_other_solver_versions_are_kept_apart_and_counted_once(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "unknown", solver_version="0.1.0"))
    b = write(tmp_path / "b.jsonl", record(1, "lost", solver_version="0.2.0"),
              record(2, "won", solver_version="0.2.0"))
    old = record(3, "won")
    del old["solver_version"]                         # written before versions were
    c = write(tmp_path / "c.jsonl", old)
    out = tmp_path / "all.jsonl"
    merged = merge([a, b, c], out)
    assert len(lines(out)) == 4
    assert dict(merged.versions) == {"0.1.0": 1, "0.2.0": 2, "": 1}
    summary = merged.summary()
    assert (summary.counts["lost"], summary.counts["won"], summary.total) == (1, 2, 3)


def test_a_torn_last_line_is_left_out(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"), tail='{"game": "black-hole", "dea')
    b = write(tmp_path / "b.jsonl", record(2, "lost"))
    merged = merge([a, b], tmp_path / "all.jsonl")
    assert merged.torn == [f"{a}:2"] and len(merged.kept) == 2


def test_a_spoiled_line_before_the_last_is_an_error_naming_it(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    a.write_text(a.read_text() + "not json\n" + json.dumps(record(2, "won")) + "\n")
    with pytest.raises(SolitaireError, match=f"{a}:2"):
        merge([a], tmp_path / "all.jsonl")


@pytest.mark.parametrize("change, said", [
    ({"game": "freecell"}, "game"),
    ({"variant": {"ranks": 5}}, "ranks=5"),
    ({"strategy": "best-first"}, "strategy"),
    ({"budget": dict(BUDGET, max_states=1000)}, "max-states"),
    ({"budget": dict(BUDGET, cpu=True)}, "cpu"),
])
def test_other_games_or_settings_are_refused_naming_the_difference(
        tmp_path: Path, change: dict[str, Any], said: str) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    b = write(tmp_path / "b.jsonl", record(2, "won", **change))
    out = tmp_path / "all.jsonl"
    with pytest.raises(SolitaireError, match=said) as caught:
        merge([a, b], out)
    assert f"{b}:1" in str(caught.value) and not out.exists()


def test_the_memory_budget_is_not_a_setting(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    b = write(tmp_path / "b.jsonl", record(2, "won", budget=dict(BUDGET, memory=5 << 30)))
    assert len(merge([a, b], tmp_path / "all.jsonl").kept) == 2


def one_error(code: int, err: str) -> bool:
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_the_command_refuses_an_input_that_is_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    before = a.read_bytes()
    code, _, err = run_main(["merge", str(a), "--out", str(a)], capsys)
    assert one_error(code, err) and "both an input and --out" in err
    assert a.read_bytes() == before


def test_the_command_refuses_a_missing_input(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    out = tmp_path / "all.jsonl"
    code, _, err = run_main(["merge", str(a), str(tmp_path / "gone.jsonl"), "--out", str(out)],
                            capsys)
    assert one_error(code, err) and "gone.jsonl" in err and not out.exists()


def test_the_command_refuses_other_settings_and_contradictions_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"))
    b = write(tmp_path / "b.jsonl", record(1, "won", game="freecell"))
    c = write(tmp_path / "c.jsonl", record(1, "lost"))
    out = tmp_path / "all.jsonl"
    code, _, err = run_main(["merge", str(a), str(b), "--out", str(out)], capsys)
    assert one_error(code, err) and "freecell" in err
    code, _, err = run_main(["merge", str(a), str(c), "--out", str(out)], capsys)
    assert one_error(code, err) and f"{a}:1" in err and f"{c}:1" in err
    assert not out.exists()


def test_the_command_prints_the_summary_versions_and_settings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", record(1, "won"), record(2, "lost"),
              tail=json.dumps(record(3, "won"))[:20])
    b = write(tmp_path / "b.jsonl", record(2, "lost"), record(4, "unknown"))
    out = tmp_path / "all.jsonl"
    code, printed, err = run_main(["merge", str(a), str(b), "--out", str(out)], capsys)
    assert code == 0 and "cut short" in err
    assert "3 deals: 1 won, 1 lost, 1 unknown" in printed
    assert "win rate 50.000% of 2 decided" in printed
    assert "solver versions: 0.1.0 (3)" in printed and "strategy dfs" in printed


def test_records_carry_the_solver_version(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    assert run_main(["classify", "black-hole", "2", "--out", str(out), "-q"], capsys)[0] == 0
    assert lines(out)[0]["solver_version"] == solver_version()
    assert solver_version().split("+")[0][0].isdigit()
