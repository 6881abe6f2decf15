"""Certificates of loss for Forty Thieves (``checker/forty_thieves.py``, the game's
``certifier``): known answers on small twin deals, tampering, the checker's rules against
the game's, each reduction against the verdict without it, and won solutions replayed
with the checker's rules."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, checker_won, rewrite

from checker import certificate as certificate_file
from checker import forty_thieves as ck
from checker.replay import replay
from games.forty_thieves import FortyThieves
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs
from solver.search.base import follow

ONE_PASS = FortyThieves(suits=2, ranks=4, columns=2, rows=3, redeal=False)
REDEAL = FortyThieves(suits=2, ranks=4, columns=2, rows=3, redeal=True)
LOST = {ONE_PASS: (34, 40, 43), REDEAL: (34, 43, 46)}    # lost twin deals (dfs, exhaustive)


def variant(game: FortyThieves) -> dict[str, Any]:
    return dataclasses.asdict(game)


def checked(path: Path, number: int | None) -> str:
    """Return the checker's fault with the certificate at `path` ("" valid), the deal
    it must be of given by `number` (None: not confirmed)."""
    return str(checked_against(ck, path, number).fault)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ft") / "34.cert"
    assert certify(REDEAL, REDEAL.deal(34), path, deal=34).status == "lost"
    return path


@pytest.mark.parametrize("game", [ONE_PASS, REDEAL], ids=["one-pass", "redeal"])
def test_lost_twin_deals_are_certified_and_checked_valid(tmp_path: Path, game: FortyThieves) -> None:
    for number in LOST[game]:
        assert dfs(game, game.deal(number), Budget(max_states=100_000)).status is Status.LOST
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert written.status == "lost" and written.positions > 1
        assert checked(path, number) == ""


def test_a_start_dead_end_proves_lost_is_certified_by_expanding_it(tmp_path: Path) -> None:
    """The one-pass proof ``dead_end`` gives no FACTS: the writer expands the position
    (an exhaustive search), and the checker needs no second copy of the proof."""
    assert ONE_PASS.dead_end(ONE_PASS.deal(34))
    path = tmp_path / "34.cert"
    written = certify(ONE_PASS, ONE_PASS.deal(34), path, deal=34)
    assert (written.status, written.closed_by_facts) == ("lost", 0) and written.positions > 1
    assert checked(path, 34) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    path = tmp_path / "won.cert"
    assert dfs(REDEAL, REDEAL.deal(1), Budget(max_states=100_000)).status is Status.WON
    assert certify(REDEAL, REDEAL.deal(1), path).status == "won" and not path.exists()


def test_tampering_is_found(tmp_path: Path, written: Path) -> None:
    read = certificate_file.read(written)
    closed = next(line for line in read.positions
                  if line != read.start and len(set(line.split("|")[3:])) > 1)
    won = "4444||||"                    # every card home, every pile empty
    cases = {
        "removed": (lambda h, ls: (h, [l for l in ls if l != closed]), "which is not in the set"),
        "won added": (lambda h, ls: (h, ls + [won]), f"position {won} is won"),
        "start out": (lambda h, ls: (h, [l for l in ls if l != read.start]), "is not in the set"),
        "facts": (lambda h, ls: (h, [l + "\t{}" if l == closed else l for l in ls]),
                  "the checker knows no static proof"),
        "reduction": (lambda h, ls: ({**h, "reductions": h["reductions"] + ["trust-me"]}, ls),
                      "'trust-me', which the checker does not accept"),
        "unsorted": (lambda h, ls: (h, ls + ["|".join(closed.split("|")[:3] +
                                                      sorted(closed.split("|")[3:], reverse=True))]),
                     "canonical form"),
    }
    for name, (change, message) in cases.items():
        fault = checked(rewrite(written, tmp_path / f"{name}.cert", change), 34)
        assert message in fault, name
    assert checked(written, 34) == ""
    assert "is not this deal's certificate" in checked(written, 43)


def random_positions(game: FortyThieves, numbers: range, steps: int) -> list[Any]:
    """Positions of seeded random play (the game's moves and forced moves) from deals."""
    found = []
    for number in numbers:
        state, rng = game.deal(number), random.Random(number)
        for _ in range(steps):
            found.append(state)
            moves = list(game.moves(state))
            if not moves:
                break
            state = follow(game.play, game.forced, state, rng.choice(moves))[1]
    return found


GAMES = [FortyThieves(), FortyThieves(redeal=False)] + [FortyThieves(**t) for t in FortyThieves.twins]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: str(sorted(variant(g).items())))
def test_the_checkers_rules_are_the_games(game: FortyThieves) -> None:
    """Same successors (up to the reductions), the same deals, text read alike."""
    options = variant(game)
    reductions = frozenset(game.certifier.reductions)
    for number in range(1, 6):
        assert ck.deal(number, options) == ck.parse(game.format(game.deal(number)), options)
    for state in random_positions(game, range(1, 8 if game.pysol else 30), 40):
        line = game.certificate_line(state)
        position = ck.parse(game.format(state), options)
        assert ck.encode(position, options, reductions) == line
        assert ck.encode(ck.decode(line, options), options, reductions) == line
        ours = {ck.encode(ck.settle(after, options, reductions), options, reductions)
                for _, after in ck.moves(position, options, reductions)}
        theirs = {game.certificate_line(follow(game.play, game.forced, state, move)[1])
                  for move in game.moves(state)}
        # the game's moves leave out only moves to positions written as this one
        assert theirs <= ours and ours - theirs <= {line}
        assert ck.is_won(position, options) == game.is_won(state)


def verdict(start: Any, options: dict[str, Any], reductions: frozenset[str]) -> bool:
    """Return whether the checker's own rules win from `start` (exhaustive search)."""
    return checker_won(ck, start, options, reductions)


@pytest.mark.parametrize("game", [ONE_PASS, REDEAL], ids=["one-pass", "redeal"])
def test_each_reduction_keeps_every_verdict(game: FortyThieves) -> None:
    options = variant(game)
    lost = 0
    for number in range(30, 60):
        start = ck.deal(number, options)
        plain = verdict(start, options, frozenset())
        for reductions in ({"column-order"}, {"safe-home"}, set(ck.REDUCTIONS)):
            assert verdict(start, options, frozenset(reductions)) == plain, (number, reductions)
        lost += not plain
    assert lost >= 3                    # the comparison covers lost deals too


def test_won_solutions_replay_with_the_checkers_rules(tmp_path: Path) -> None:
    """``solitaire check SOLUTION forty-thieves --deal N`` replays the game's solutions
    (every step, forced ones included, in the game's notation) with the checker's rules."""
    from test_cli import run

    for game, numbers in ((FortyThieves(), (1, 2)), (ONE_PASS, (1, 2, 3))):
        options = variant(game)
        for number in numbers:
            result = dfs(game, game.deal(number), Budget(max_states=200_000))
            assert result.status is Status.WON
            steps = [game.notation(step) for move in result.moves
                     for step in game.expand(game.deal(number), move)]
            assert replay(ck, ck.deal(number, options), options, steps) == ""
            assert "which is not won" in replay(ck, ck.deal(number, options), options, steps[:-1])
    result = dfs(FortyThieves(), FortyThieves().deal(1), Budget(max_states=200_000))
    solution = tmp_path / "solution-1.txt"
    solution.write_text(" ".join(FortyThieves().notation(m) for m in result.moves))
    out = run("check", str(solution), "forty-thieves", "--deal", "1")
    assert out.exit_code == 0 and out.output.startswith("valid: forty-thieves deal 1 is won")
    solution.write_text(" ".join(FortyThieves().notation(m) for m in result.moves[1:]))
    assert run("check", str(solution), "forty-thieves", "--deal", "1").exit_code == 1
