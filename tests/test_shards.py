"""Shards of a deal source (``classify --shard I/N``): disjoint parts that together are
the source, the same on every run, and whose results merged equal the whole run's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_main

from solver.app.sources import DealRanges, TaskList, parse_shard, read_source, shard
from solver.game import SolitaireError


def deals(tasks: DealRanges | TaskList) -> list[object]:
    return [task.deal for task in tasks]


@pytest.mark.parametrize("source", ["1-10", "1-5,8-12,20", "7", "3-40,100-103"])
@pytest.mark.parametrize("parts", [1, 2, 3, 4, 7, 50])
def test_the_parts_of_a_range_are_disjoint_balanced_and_together_the_whole(
        source: str, parts: int) -> None:
    whole = read_source(source)
    pieces = [shard(whole, part, parts) for part in range(1, parts + 1)]
    joined = [deal for piece in pieces for deal in deals(piece)]
    assert sorted(joined) == deals(whole) and len(set(joined)) == len(joined)
    assert max(p.size for p in pieces) - min(p.size for p in pieces) <= 1
    for piece in pieces:
        listed = deals(piece)
        assert piece.size == len(listed) == len(piece)
        assert [piece[i].deal for i in range(piece.size)] == listed
        for task in whole:                   # `in` agrees with iterating
            assert (task.deal in piece) == (task.deal in listed)
        if listed:
            assert piece.numbers == (min(listed), max(listed))


def test_a_part_is_the_deals_at_its_index_modulo_the_parts() -> None:
    assert deals(shard(read_source("1-10"), 1, 3)) == [1, 4, 7, 10]
    assert deals(shard(read_source("1-10"), 3, 3)) == [3, 6, 9]
    assert deals(shard(read_source("1-3,10-12"), 2, 2)) == [2, 10, 12]
    big = shard(read_source("1-5000000000"), 2, 1000)    # lazy: nothing expanded
    assert big.size == 5_000_000 and big[0].deal == 2 and big[-1].deal == 4_999_999_002
    assert 1002 in big and 1003 not in big


def test_the_parts_of_a_file_follow_its_order(tmp_path: Path) -> None:
    source = tmp_path / "deals.jsonl"
    source.write_text("".join(json.dumps({"deal": n}) + "\n" for n in (9, 3, 7, 1, 5)))
    whole = read_source(str(source))
    assert [deals(shard(whole, part, 2)) for part in (1, 2)] == [[9, 7, 5], [3, 1]]
    assert isinstance(shard(whole, 1, 2), TaskList) and 3 in shard(whole, 2, 2)


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b", "1/0", "3", "1/2/3", "-1/3", ""])
def test_a_shard_out_of_range_or_malformed_is_refused(text: str) -> None:
    with pytest.raises(SolitaireError, match="--shard"):
        parse_shard(text)


@pytest.mark.parametrize("text", ["0/3", "4/3", "a/b"])
def test_the_command_refuses_a_bad_shard_in_one_line(text: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    code, _, err = run_main(["classify", "black-hole", "1-10", "--shard", text, "--out",
                             str(out), "-q"], capsys)
    assert code == 2 and err.startswith("error: --shard") and err.count("\n") == 1
    assert not out.exists()


def verdicts(path: Path) -> dict[object, tuple[str, list[str]]]:
    found = {}
    for line in path.read_text().splitlines():
        item = json.loads(line)
        assert item["deal"] not in found
        found[item["deal"]] = (item["status"], item["moves"])
    return found


@pytest.mark.parametrize("kind", ["range", "file"])
def test_shards_merged_equal_the_whole_run(kind: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "range":
        source = "1-24"
    else:
        board_file = tmp_path / "deals.jsonl"
        board_file.write_text("".join(json.dumps({"deal": n}) + "\n"
                                      for n in (30, 2, 17, 5, 41, 8, 12, 33, 1, 27)))
        source = str(board_file)
    common = ["--max-states", "20000", "-q"]
    whole = tmp_path / "whole.jsonl"
    assert run_main(["classify", "black-hole", source, "--out", str(whole)] + common,
                    capsys)[0] == 0
    parts = []
    for part in (1, 2, 3):
        out = tmp_path / f"part{part}.jsonl"
        code, printed, _ = run_main(["classify", "black-hole", source, "--shard", f"{part}/3",
                                     "--out", str(out)] + common, capsys)
        assert code == 0
        parts.append(out)
    assert all(verdicts(p) for p in parts)
    merged = tmp_path / "all.jsonl"
    code, printed, _ = run_main(["merge", *map(str, parts), "--out", str(merged)], capsys)
    assert code == 0
    assert verdicts(merged) == verdicts(whole)
    assert f"\n{len(verdicts(whole))} deals: " in printed
