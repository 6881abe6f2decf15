"""Certificates of loss for Spider (``checker/spider.py``, the game's ``certifier``):
known answers on small twin deals of 1, 2 and 4 suits, tampering, the checker's rules
against the game's, the reduction against the verdict without it, and won solutions
replayed with the checker's rules."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, checker_won, rewrite

from checker import certificate as certificate_file
from checker import spider as ck
from checker.replay import replay
from games.spider import Spider
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs

TWO = Spider(suits=2, ranks=4, columns=4, decks=1, deals=1)
FOUR = Spider(suits=4, ranks=3, columns=4, decks=1, deals=1)
ONE = Spider(suits=1, ranks=5, columns=4, decks=1, deals=2)
LOST = {TWO: (1, 14, 17), FOUR: (22, 43, 48), ONE: (48, 57, 63)}   # lost twin deals (dfs)


def variant(game: Spider) -> dict[str, Any]:
    return dataclasses.asdict(game)


def checked(path: Path, number: int | None) -> str:
    """Return the checker's fault with the certificate at `path` ("" valid), the deal
    it must be of given by `number` (None: not confirmed)."""
    return str(checked_against(ck, path, number).fault)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spider") / "17.cert"
    assert certify(TWO, TWO.deal(17), path, deal=17).status == "lost"
    return path


@pytest.mark.parametrize("game", [TWO, FOUR, ONE], ids=["2-suits", "4-suits", "1-suit"])
def test_lost_twin_deals_are_certified_and_checked_valid(tmp_path: Path, game: Spider) -> None:
    for number in LOST[game]:
        assert dfs(game, game.deal(number), Budget(max_states=100_000)).status is Status.LOST
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert written.status == "lost" and written.positions > 1
        assert checked(path, number) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    path = tmp_path / "won.cert"
    assert dfs(TWO, TWO.deal(2), Budget(max_states=100_000)).status is Status.WON
    assert certify(TWO, TWO.deal(2), path).status == "won" and not path.exists()


def test_tampering_is_found(tmp_path: Path, written: Path) -> None:
    read = certificate_file.read(written)
    closed = next(line for line in read.positions
                  if line != read.start and len(set(line.split("|")[1:])) > 1)
    won = "CH|:0:|:0:|:0:|:0:"               # both runs gone, no stock, every column empty
    removed, *chunks = closed.split("|")
    cases = {
        "removed": (lambda h, ls: (h, [l for l in ls if l != closed]), "which is not in the set"),
        "won added": (lambda h, ls: (h, ls + [won]), f"position {won} is won"),
        "start out": (lambda h, ls: (h, [l for l in ls if l != read.start]), "is not in the set"),
        "facts": (lambda h, ls: (h, [l + "\t{}" if l == closed else l for l in ls]),
                  "the checker knows no static proof"),
        "reduction": (lambda h, ls: ({**h, "reductions": h["reductions"] + ["trust-me"]}, ls),
                      "'trust-me', which the checker does not accept"),
        "unsorted": (lambda h, ls: (h, ls + ["|".join([removed, *sorted(chunks, reverse=True)])]),
                     "canonical form"),
    }
    for name, (change, message) in cases.items():
        fault = checked(rewrite(written, tmp_path / f"{name}.cert", change), 17)
        assert message in fault, name
    assert checked(written, 17) == ""
    assert "is not this deal's certificate" in checked(written, 14)


def random_positions(game: Spider, numbers: range, steps: int) -> list[Any]:
    """Positions of seeded random play from deals (Spider has no forced moves)."""
    found = []
    for number in numbers:
        state, rng = game.deal(number), random.Random(number)
        for _ in range(steps):
            found.append(state)
            moves = list(game.moves(state))
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
    return found


GAMES = [Spider(), Spider(suits=2), Spider(suits=1)] + [Spider(**t) for t in Spider.twins]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(sorted(variant(g).items())))
def test_the_checkers_rules_are_the_games(game: Spider) -> None:
    """Same successors (up to the reduction), the same deals, text read alike."""
    options = variant(game)
    reductions = frozenset(game.certifier.reductions)
    for number in range(1, 6):
        assert ck.deal(number, options) == ck.parse(game.format(game.deal(number)), options)
    removed = 0
    for state in random_positions(game, range(1, 6 if game.pysolfc else 40), 80):
        line = game.certificate_line(state)
        position = ck.parse(game.format(state), options)
        assert ck.encode(position, options, reductions) == line
        assert ck.encode(ck.decode(line, options), options, reductions) == line
        ours = {ck.encode(after, options, reductions)
                for _, after in ck.moves(position, options, reductions)}
        theirs = {game.certificate_line(game.play(state, move)) for move in game.moves(state)}
        # the game's moves leave out only moves to positions written as this one
        assert theirs <= ours and ours - theirs <= {line}
        assert ck.is_won(position, options) == game.is_won(state)
        removed += len(state.removed)
    assert game.pysolfc or removed       # complete runs left on the way


def verdict(start: Any, options: dict[str, Any], reductions: frozenset[str]) -> bool:
    """Return whether the checker's own rules win from `start` (exhaustive search)."""
    return checker_won(ck, start, options, reductions)


@pytest.mark.parametrize("game", [TWO, FOUR, ONE], ids=["2-suits", "4-suits", "1-suit"])
def test_column_order_keeps_every_verdict(game: Spider) -> None:
    options = variant(game)
    lost = 0
    for number in [*range(1, 21), *LOST[game]]:
        start = ck.deal(number, options)
        plain = verdict(start, options, frozenset())
        assert verdict(start, options, frozenset({"column-order"})) == plain, number
        lost += not plain
    assert lost >= 1                    # the comparison covers lost deals too


def test_won_solutions_replay_with_the_checkers_rules(tmp_path: Path) -> None:
    """``solitaire check SOLUTION spider --deal N`` replays the game's solutions with the
    checker's rules."""
    from test_cli import run

    for game in (TWO, FOUR, ONE):
        options = variant(game)
        for number in [n for n in range(1, 30) if n not in LOST[game]][:2]:
            result = dfs(game, game.deal(number), Budget(max_states=100_000))
            if result.status is not Status.WON:
                continue
            steps = [game.notation(move) for move in result.moves]
            assert replay(ck, ck.deal(number, options), options, steps) == ""
            assert "which is not won" in replay(ck, ck.deal(number, options), options, steps[:-1])
    game = Spider(suits=1)
    from solver.search import STRATEGIES

    result = STRATEGIES["beam"](game, game.deal(1), Budget(max_states=60_000))
    assert result.status is Status.WON
    solution = tmp_path / "solution-1.txt"
    solution.write_text(" ".join(game.notation(m) for m in result.moves))
    out = run("check", str(solution), "spider", "--deal", "1", "--variant", "suits=1")
    assert out.exit_code == 0 and out.output.startswith("valid: spider deal 1 is won"), out.output
    solution.write_text(" ".join(game.notation(m) for m in result.moves[:-1]))
    assert run("check", str(solution), "spider", "--deal", "1", "--variant", "suits=1").exit_code == 1
