"""benchmarks/blind_compare.py: two blind runs compared game by game."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import benchmark_script


@pytest.fixture()
def bench() -> ModuleType:
    return benchmark_script("blind_compare")


def game(deal: int, won: bool, moves: list[str], variant: dict[str, Any] | None = None,
         strategy: str = "blind:samples=300") -> dict[str, Any]:
    return {"game": "klondike", "variant": variant or {"draw": 3}, "deal": deal,
            "status": "won" if won else "lost", "strategy": strategy, "cpu_seconds": 2.0,
            "decisions": [{"move": m, "chance": 0.5} for m in moves]}


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in records)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


@pytest.mark.parametrize("first_only, second_only, p", [
    (0, 0, 1.0), (0, 1, 1.0), (0, 6, 2 / 64), (6, 0, 2 / 64),
    (2, 8, 2 * (1 + 10 + 45) / 1024), (5, 5, 1.0)])
def test_mcnemar_exact_is_the_two_sided_binomial_tail(bench: ModuleType, first_only: int,
                                                       second_only: int, p: float) -> None:
    assert bench.mcnemar_exact(first_only, second_only) == pytest.approx(p)


def test_games_are_paired_by_deal_and_their_parting_found(bench: ModuleType, tmp_path: Path) -> None:
    first = write(tmp_path / "a.jsonl.gz", [
        game(1, True, ["a", "b", "c"]), game(2, True, ["a", "b"]), game(3, False, ["x"]),
        game(4, False, ["p", "q"]), game(9, True, ["z"])])           # deal 9: the first only
    second = write(tmp_path / "b.jsonl", [
        game(1, True, ["a", "b", "c"], strategy="blind:samples=1000"),
        game(2, False, ["a", "c"]), game(3, True, ["y"]), game(4, False, ["p", "q", "r"])])
    figures = bench.compare(bench.by_deal(bench.read_results(first), None),
                            bench.by_deal(bench.read_results(second), None))
    assert figures["deals"] == 4
    assert (figures["both"], figures["first_only"], figures["second_only"], figures["neither"]) \
        == (1, 1, 1, 1)
    assert figures["first"]["won"] == 2 and figures["second"]["won"] == 2
    assert figures["second"]["strategy"] == "blind:samples=1000"
    assert figures["alike"] == 1                       # deal 1: every decision the same
    assert figures["parted_median"] == 1               # deals 2, 3, 4 part at 1, 0, 2
    assert bench.parted_at(game(5, True, ["a"]), game(5, True, ["a", "b"])) == 1


def test_a_deal_range_and_unfinished_games_are_left_out(bench: ModuleType, tmp_path: Path) -> None:
    records = [game(n, n % 2 == 0, ["m"]) for n in range(1, 11)]
    records.append({"game": "klondike", "variant": {"draw": 3}, "deal": 11, "status": "unknown"})
    first = bench.by_deal(records, bench.parse_deals("3-11"))
    assert sorted(first) == list(range(3, 11))


def test_different_variants_or_no_common_deal_are_one_line_of_error(
        bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    three = write(tmp_path / "three.jsonl", [game(1, True, ["a"])])
    one = write(tmp_path / "one.jsonl", [game(1, True, ["a"], variant={"draw": 1})])
    other = write(tmp_path / "other.jsonl", [game(2, True, ["a"])])
    assert bench.main([str(three), str(one)]) == 2
    assert bench.main([str(three), str(other)]) == 2
    torn = tmp_path / "torn.jsonl"
    torn.write_text(json.dumps(game(1, True, ["a"])) + "\n{\"game\": \"klo")
    assert bench.main([str(three), str(torn)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(line.startswith("error: ") for line in errors)
    assert "different games or variants" in errors[0] and "no deal" in errors[1]
    assert bench.main([str(three), str(three), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["alike"] == 1 and figures["p_value"] == 1.0
