"""Every registered game through the same commands: deal, solve, hint, verify, classify.

What every game owes the engine itself (round trips, legal play, keys, twins, bad deals)
is checked in test_contract.py.
"""
from __future__ import annotations

import json
import re

import pytest
from command_line import runner

from conftest import random_play
from games import GAMES
from solver.cards import pretty
from solver.app.cli import app

NAMES = sorted(GAMES)


def random_steps(game, state, count: int, seed: int):
    """Return (steps, final) of a seeded random play of up to `count` search moves."""
    played, final = random_play(game, state, count, seed)
    return [step for _, step in played], final


def test_the_registry_holds_every_game_of_the_rule_texts_so_far():
    assert {"freecell", "seahaven", "black-hole", "clock", "klondike", "yukon", "spider",
            "forty-thieves"} <= set(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_deal_prints_text_that_parses_back(name):
    game = GAMES[name]
    result = runner.invoke(app, ["deal", name, "7"])
    assert result.exit_code == 0, result.stderr
    assert game.parse(result.stdout) == game.deal(7)


@pytest.mark.parametrize("name", NAMES)
def test_deal_in_unicode_reads_back_and_colour_marks_only_red_cards(name):
    game = GAMES[name]
    unicode = runner.invoke(app, ["deal", name, "7", "--style", "unicode"])
    assert unicode.exit_code == 0, unicode.stderr
    assert game.parse(unicode.stdout) == game.deal(7)
    assert not re.search(r"(?<![\w-])(10|[A2-9TJQK])[CDHS](?![\w-])", unicode.stdout)
    coloured = pretty(game.format(game.deal(7)), colour=True)
    assert coloured.replace("\033[31m", "").replace("\033[0m", "") == unicode.stdout
    red = re.findall("\033\\[31m(.*?)\033\\[0m", coloured)
    if not re.search(r"(10|[A2-9TJQK])[CDHS]", game.format(game.deal(7))):
        assert not red and unicode.stdout == game.format(game.deal(7))   # no cards (dominoes)
        return
    assert red and all(card[-1] in "♦♥" for card in red)
    assert len(red) == unicode.stdout.count("♦") + unicode.stdout.count("♥")


@pytest.mark.parametrize("name", NAMES)
def test_verify_replays_a_random_legal_play(name):
    game = GAMES[name]
    steps, final = random_steps(game, game.deal(2), 15, seed=5)
    moves = " ".join(game.notation(s) for s in steps)
    result = runner.invoke(app, ["verify", name, "--deal", "2", "--moves", moves])
    assert result.exit_code == (0 if game.is_won(final) else 1), result.stderr
    assert f"all {len(steps)} moves are legal" in result.stdout


@pytest.mark.parametrize("name", NAMES)
def test_solve_and_hint_answer_within_a_state_budget(name):
    result = runner.invoke(app, ["solve", name, "--deal", "3", "--max-states", "2000", "--json"])
    item = json.loads(result.stdout)
    assert item["status"] in ("won", "lost", "unknown") and item["game"] == name
    assert result.exit_code == {"won": 0, "lost": 1, "unknown": 3}[item["status"]], result.stderr
    if item["status"] == "won":
        replay = runner.invoke(app, ["verify", name, "--deal", "3", "--moves", " ".join(item["moves"])])
        assert replay.exit_code == 0 and "won" in replay.stdout
    hint = runner.invoke(app, ["hint", name, "--deal", "3", "--max-states", "2000", "--json"])
    assert hint.exit_code == result.exit_code and json.loads(hint.stdout)["status"] == item["status"]


@pytest.mark.parametrize("name", NAMES)
def test_classify_writes_a_line_per_deal(name, tmp_path):
    out = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["classify", name, "1-2", "--out", str(out), "-q",
                                 "--max-states", "500"])
    assert result.exit_code == 0, result.stderr
    assert sorted(json.loads(line)["deal"] for line in out.read_text().splitlines()) == [1, 2]
