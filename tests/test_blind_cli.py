"""`hint --blind` and `play --blind` from the command line: answers, records, resume, bad input."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_main
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
])
def test_bad_blind_options_are_one_line(args: list[str], message: str, capsys: Any) -> None:
    status, out, err = run_main(["hint", "klondike", "-d", "1", "--blind", *args], capsys)
    assert status == 2 and not out
    assert len(err.strip().splitlines()) == 1 and message in err


def test_play_needs_blind(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "r.jsonl"
    status, _, err = run_main(["play", "klondike", "1-2", "-o", str(out)], capsys)
    assert status == 2 and "--blind" in err and not out.exists()


def test_play_blind_records_each_game_and_resumes(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "r.jsonl"
    game = GAMES["klondike"].__class__(ranks=4, columns=5)
    def args(deals: str, samples: str = "10", *more: str) -> list[str]:
        return ["play", "klondike", deals, *TWIN, "--blind", "--samples", samples, "-o", str(out),
                "-q", *more]

    status, text, _ = run_main(args("1-2"), capsys)
    assert status == 0 and "blind:" in text and "Brier score" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        record = json.loads(line)
        verdict = Verdict.from_json(record, game)
        assert verdict.strategy.startswith("blind:samples=10")
        assert record["full_information"] in ("won", "lost", "unknown")
        for decision in record["decisions"]:
            assert 0.0 <= decision["chance"] <= 1.0
        played = record["moves"] if record["status"] == "won" else record["played"]
        replay = verify_moves(game, game.deal(record["deal"]), played)
        assert replay.won == (record["status"] == "won")
    status, text, _ = run_main(args("1-3", "10", "--resume"), capsys)
    assert status == 0
    assert [json.loads(line)["deal"] for line in out.read_text().splitlines()] == [1, 2, 3]
    status, _, err = run_main(args("1-4", "11", "--resume"), capsys)
    assert status == 2 and "samples=11" in err
