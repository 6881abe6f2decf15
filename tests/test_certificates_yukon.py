"""Yukon's certificates of loss: written by ``Yukon.certifier``, checked by
``checker.yukon``, which knows nothing of the solver (``tests/test_certificates.py``
checks its imports).

What is tested: lost deals certified and checked valid (start-position proofs of one line,
lost twins); tampered certificates refused with the fault named; the checker's rules
against the game's (deals, text, successors on random play); each reduction the checker
accepts leaving the verdicts of its own exhaustive search unchanged on twins.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import assert_deals_and_text_agree, checker_won, rewrite, verdicts_kept

import checker.yukon as ck
from checker import certificate as certificate_file
from checker.check import check, start_line
from games.yukon import Yukon
from solver.certify import certify
from solver.game import Status
from solver.search.base import follow, settle
from solver.search.result import Budget

ALL = frozenset(ck.REDUCTIONS)
GAME = Yukon()
TWINS = ({"empty": "kings", "ranks": 4, "columns": 4}, {"empty": "any", "ranks": 4, "columns": 4},
         {"empty": "kings", "ranks": 3, "columns": 4}, {"empty": "kings", "ranks": 4, "columns": 5})
# Twins with lost deals (most small twins are won): 3 ranks, 3 columns (deals 2, 24, 53 of
# 1-60), 2 ranks, 3 columns (19 and 57), 4 ranks, 4 columns (13)
LOSING = ({"empty": "kings", "ranks": 3, "columns": 3}, {"empty": "kings", "ranks": 2, "columns": 3},
          {"empty": "kings", "ranks": 4, "columns": 4})


def game_of(variant: dict[str, Any]) -> Yukon:
    return Yukon(**variant)


def variant(game: Yukon) -> dict[str, Any]:
    return {"empty": game.empty, "ranks": game.ranks, "columns": game.columns}


def fault(path: Path, number: int) -> str:
    read = certificate_file.read(path)
    return check(read, start_line(ck, read, ck.deal(number, read.variant)), ck).fault



def search(var: dict[str, Any], number: int, reductions: frozenset[str]) -> bool:
    """Whether deal `number` is won, by an exhaustive search with the checker's rules."""
    return checker_won(ck, ck.deal(number, var), var, reductions)


LOST_TWINS = ((LOSING[0], 2), (LOSING[0], 24), (LOSING[1], 19), (LOSING[2], 13))


# -- known answers ----------------------------------------------------------------------

@pytest.mark.parametrize("number", [151, 158, 183])
def test_start_position_proofs_are_one_line_certificates(tmp_path: Path, number: int) -> None:
    path = tmp_path / "lost.cert"
    assert certify(GAME, GAME.deal(number), path, deal=number).status == "lost"
    read = certificate_file.read(path)
    assert len(read.positions) == 1 and read.positions[read.start] is not None
    assert fault(path, number) == ""


@pytest.mark.parametrize("var, number", LOST_TWINS)
def test_lost_twins_are_certified_and_checked_valid(tmp_path: Path, var: dict[str, Any],
                                                   number: int) -> None:
    game = game_of(var)
    path = tmp_path / f"{number}.cert"
    assert not search(var, number, ALL)                 # lost by the checker's own search
    assert certify(game, game.deal(number), path, deal=number).status == "lost"
    assert fault(path, number) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    game, path = game_of(TWINS[0]), tmp_path / "won.cert"
    assert search(TWINS[0], 1, ALL)
    assert certify(game, game.deal(1), path, deal=1).status == "won" and not path.exists()


# -- tampering --------------------------------------------------------------------------

TAMPER_VARIANT = LOSING[2]


@pytest.fixture(scope="module")
def lost_twin(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    """A lost twin's certificate with closed positions beside its start."""
    game, number = game_of(TAMPER_VARIANT), 13
    path = tmp_path_factory.mktemp("y") / "13.cert"
    written = certify(game, game.deal(number), path, deal=number)
    assert written.status == "lost" and written.positions - written.closed_by_facts >= 3
    return number, path


def test_a_closed_position_removed_is_found(tmp_path: Path, lost_twin: tuple[int, Path]) -> None:
    number, path = lost_twin
    read = certificate_file.read(path)
    victim = next(line for line, facts in read.positions.items()
                  if facts is None and line != read.start)
    found = fault(rewrite(path, tmp_path / "t.cert",
                          lambda h, lines: (h, [l for l in lines if l != victim])), number)
    assert "which is not in the set" in found and victim in found


def test_a_won_position_added_is_found(tmp_path: Path, lost_twin: tuple[int, Path]) -> None:
    number, path = lost_twin
    won = "4444 " + " ".join(["0/"] * TAMPER_VARIANT["columns"])
    found = fault(rewrite(path, tmp_path / "t.cert", lambda h, lines: (h, lines + [won])), number)
    assert found == f"position {won} is won"


def test_the_start_left_out_is_found(tmp_path: Path, lost_twin: tuple[int, Path]) -> None:
    number, path = lost_twin
    start = certificate_file.read(path).start
    found = fault(rewrite(path, tmp_path / "t.cert",
                          lambda h, lines: (h, [l for l in lines if l != start])), number)
    assert "is not in the set" in found


def test_another_deals_certificate_is_refused(lost_twin: tuple[int, Path]) -> None:
    number, path = lost_twin
    assert "is not this deal's certificate" in fault(path, number + 1)


def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path,
                                                           lost_twin: tuple[int, Path]) -> None:
    number, path = lost_twin
    found = fault(rewrite(path, tmp_path / "t.cert", lambda h, lines: (
        {**h, "reductions": h["reductions"] + ["partial-run"]}, lines)), number)
    assert "'partial-run', which the checker does not accept" in found


def test_facts_that_no_longer_hold_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "151.cert"
    certify(GAME, GAME.deal(151), path, deal=151)

    def unstick(h: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        position, _, facts = lines[0].partition("\t")
        cards = json.loads(facts)["stuck"].split()
        return h, [position + "\t" + json.dumps({"stuck": " ".join(cards[1:])})]
    found = fault(rewrite(path, tmp_path / "u.cert", unstick), 151)
    assert "its static proof fails: " in found and " can " in found


# -- the checker's rules against the game's -----------------------------------------------

@pytest.mark.parametrize("var", [variant(GAME), *TWINS])
def test_deals_and_text_agree(var: dict[str, Any]) -> None:
    assert_deals_and_text_agree(ck, game_of(var), var, ALL)


@pytest.mark.parametrize("var", [variant(GAME), {"empty": "any", "ranks": 13, "columns": 7},
                                 *TWINS])
def test_the_checker_reaches_the_writers_successors(var: dict[str, Any]) -> None:
    """On seeded random play, from positions no static proof closes, the checker's
    successors (its moves, then its automatic moves) encode to exactly the writer's."""
    game = game_of(var)
    certifier, rng, compared = game.certifier, random.Random(5), 0
    assert certifier.moves is not None and certifier.dead is not None
    for number in range(1, 21):
        _, state = settle(game, game.deal(number))
        for _ in range(rng.randrange(0, 30)):
            if certifier.dead(state) is not None or game.is_won(state):
                break
            writer = {certifier.encode(follow(game.play, game.forced, state, move)[1])
                      for move in certifier.moves(state)}
            position = ck.decode(certifier.encode(state), var)
            checker = {ck.encode(ck.settle(after, var, ALL), var, ALL)
                       for _, after in ck.moves(position, var, ALL)}
            # a whole column to an empty one leads back to the same position
            assert checker - {certifier.encode(state)} == writer - {certifier.encode(state)}
            compared += len(writer)
            if not writer:
                break
            _, state = follow(game.play, game.forced, state, rng.choice(list(certifier.moves(state))))
    assert compared > 200


def test_a_win_replays_with_the_checkers_rules() -> None:
    from checker.replay import replay
    from solver.search import find_strategy

    game = game_of(TWINS[3])
    result = find_strategy("best_first")(game, game.deal(1), Budget(max_states=200_000))
    assert result.status is Status.WON
    steps = [game.notation(step) for step in result.moves]
    start = ck.deal(1, TWINS[3])
    assert replay(ck, start, TWINS[3], steps) == ""
    assert "which is not won" in replay(ck, start, TWINS[3], steps[:-1])


# -- each reduction keeps the verdicts ----------------------------------------------------

@pytest.mark.parametrize("reduction", sorted(ALL))
def test_each_reduction_keeps_the_verdicts(reduction: str) -> None:
    assert verdicts_kept(ck, reduction, ALL, ((LOSING[0], 60), (LOSING[1], 60))) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("reduction", sorted(ALL))
def test_each_reduction_keeps_the_verdicts_of_larger_twins(reduction: str) -> None:
    assert verdicts_kept(ck, reduction, ALL, ((LOSING[2], 30), (TWINS[1], 30), (TWINS[2], 30))) >= 1
