"""Certificates of loss for FreeCell and Seahaven Towers: the writer (``FreeCell.certifier``)
against the checker's own rules (``checker/freecell.py``), on full deals with fewer cells,
small twins and Seahaven Towers deals that certify in well under a second."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checker_won, rewrite

from checker import certificate as certificate_file, freecell as ck, game_module, seahaven
from checker.check import check, start_line
from checker.replay import replay
from games.freecell import CERTIFICATE_REDUCTIONS, GAME, SEAHAVEN, FreeCell, SeahavenTowers, State
from solver.certify import certify
from solver.game import Status, twins
from solver.search import Budget, dfs
from solver.search.base import follow

ALL = frozenset(ck.REDUCTIONS)
NO_CELLS = FreeCell(cells=0)                         # Microsoft's deals with no free cell
SMALL = FreeCell(ranks=7, columns=6, cells=1)        # a twin: 28 cards in 6 columns
# (game, lost deal): each certifies in well under a second (7: 90 positions, 4: 322, 21: 609)
LOST = [(NO_CELLS, 7), (SMALL, 4), (SEAHAVEN, 21), (SeahavenTowers(cells=2), 5)]


def variant(game: FreeCell) -> dict[str, Any]:
    return dataclasses.asdict(game)


def checked(path: Path, game: FreeCell, number: int) -> str:
    """The checker's verdict on the certificate at `path` as deal `number` of `game`."""
    read = certificate_file.read(path)
    module = game_module(read.game)
    assert module is not None
    return check(read, start_line(module, read, module.deal(number, variant(game))), module).fault


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fc") / "small-4.cert"
    assert certify(SMALL, SMALL.deal(4), path, deal=4).status == "lost"
    return path



# -- known answers -------------------------------------------------------------------------

@pytest.mark.parametrize("game, number", LOST, ids=lambda x: str(x) if isinstance(x, int) else x.name)
def test_a_lost_deal_is_certified_and_checked_valid(tmp_path: Path, game: FreeCell,
                                                    number: int) -> None:
    assert dfs(game, game.deal(number), Budget(max_states=100_000)).status is Status.LOST
    path = tmp_path / "lost.cert"
    written = certify(game, game.deal(number), path, deal=number)
    assert written.status == "lost" and written.positions > 1
    read = certificate_file.read(path)
    assert (read.game, read.variant, read.deal) == (game.name, variant(game), number)
    assert sorted(read.reductions) == sorted(CERTIFICATE_REDUCTIONS)
    assert checked(path, game, number) == ""


def test_every_lost_twin_deal_is_certified_and_checked_valid(tmp_path: Path) -> None:
    count = 0
    for twin in twins(GAME) + twins(SEAHAVEN):
        for number in range(1, 30):
            if dfs(twin, twin.deal(number), Budget(max_states=100_000)).status is Status.LOST:
                path = tmp_path / f"{count}.cert"
                assert certify(twin, twin.deal(number), path, deal=number).status == "lost"
                assert checked(path, twin, number) == "", (twin, number)
                count += 1
    assert count >= 50


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    path = tmp_path / "won.cert"
    assert dfs(SMALL, SMALL.deal(3), Budget(max_states=100_000)).status is Status.WON
    assert certify(SMALL, SMALL.deal(3), path, deal=3).status == "won" and not path.exists()


# -- tampering -----------------------------------------------------------------------------

def test_a_closed_position_removed_is_found(tmp_path: Path, written: Path) -> None:
    read = certificate_file.read(written)
    victim = next(line for line in read.positions if line != read.start)
    fault = checked(rewrite(written, tmp_path / "t.cert",
                            lambda h, lines: (h, [l for l in lines if l != victim])), SMALL, 4)
    assert "which is not in the set" in fault and victim in fault


def test_a_won_position_added_is_found(tmp_path: Path, written: Path) -> None:
    won = "7 7 7 7|-|- - - - - -"
    fault = checked(rewrite(written, tmp_path / "t.cert", lambda h, lines: (h, lines + [won])),
                    SMALL, 4)
    assert fault == f"position {won} is won"


def test_the_start_left_out_is_found(tmp_path: Path, written: Path) -> None:
    start = certificate_file.read(written).start
    fault = checked(rewrite(written, tmp_path / "t.cert",
                            lambda h, lines: (h, [l for l in lines if l != start])), SMALL, 4)
    assert fault == f"the start {start} is not in the set"


def test_another_deals_certificate_is_refused(written: Path) -> None:
    assert "is not this deal's certificate" in checked(written, SMALL, 1)


def test_facts_are_refused(tmp_path: Path, written: Path) -> None:
    """FreeCell has no static proof: a position may not be closed by facts."""
    read = certificate_file.read(written)
    victim = next(line for line in read.positions if line != read.start)
    fault = checked(rewrite(written, tmp_path / "t.cert", lambda h, lines: (
        h, [l + '\t{"stuck":true}' if l == victim else l for l in lines])), SMALL, 4)
    assert "its static proof fails" in fault and victim in fault


@pytest.mark.parametrize("name", ["trust-me", "supermoves"])
def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path, written: Path,
                                                           name: str) -> None:
    fault = checked(rewrite(written, tmp_path / "t.cert", lambda h, lines: (
        {**h, "reductions": [*h["reductions"], name]}, lines)), SMALL, 4)
    assert f"{name!r}, which the checker does not accept" in fault


def test_a_certificate_without_the_safe_moves_home_is_refused(tmp_path: Path, written: Path) -> None:
    """The writer's positions are settled: named without ``safe-home``, the checker's moves
    lead to positions the set does not hold (or the start is another)."""
    fault = checked(rewrite(written, tmp_path / "t.cert", lambda h, lines: (
        {**h, "reductions": ["cells-unordered", "columns-unordered"]}, lines)), SMALL, 4)
    assert fault


def test_an_unknown_variant_is_refused(tmp_path: Path, written: Path) -> None:
    fault = checked(rewrite(written, tmp_path / "t.cert", lambda h, lines: (
        {**h, "variant": {**h["variant"], "cells": 9}}, lines)), SMALL, 4)
    assert fault.startswith("variant") and "cells must be 0-7" in fault


# -- the checker's rules against the game's ---------------------------------------------------

GAMES = [GAME, SEAHAVEN, NO_CELLS, SMALL, FreeCell(build="suit", empty="kings", cells=2),
         FreeCell(ranks=5, columns=5, cells=2, empty="kings")]


def random_positions(game: FreeCell, seed: int, count: int) -> list[State]:
    """Positions of random play (the game's own moves, runs included) from numbered deals."""
    chooser, found = random.Random(seed), []
    while len(found) < count:
        state = game.deal(chooser.randrange(1, 30_000))
        for _ in range(chooser.randrange(0, 80)):
            moves = list(game.moves(state))
            if not moves:
                break
            state = game.play(state, chooser.choice(moves))
        found.append(state)
    return found


def as_checker(game: FreeCell, state: State) -> ck.Position:
    return ck.parse(game.format(state), variant(game))


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_checker_allows_exactly_the_games_single_card_moves(game: FreeCell) -> None:
    """Without reductions, the checker's moves are every step the game's ``illegal_reason``
    allows, to the same position."""
    places = "1234567890"[:game.columns] + "abcdefg"[:game.cells] + "h"
    for state in random_positions(game, 1, 100):
        position = as_checker(game, state)
        ours = {name: after for name, after in ck.moves(position, variant(game), frozenset())}
        theirs = {}
        for step in (a + b for a in places[:-1] for b in places if a != b):
            move = game.parse_move(state, step)
            if not game.illegal_reason(state, move):
                theirs[step] = as_checker(game, game.play(state, move))
        assert ours == theirs


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_the_writer_reaches_what_the_checker_reaches(game: FreeCell) -> None:
    """From random-play positions, the writer's successors (its moves, then ``forced``) and
    the checker's (its moves, then ``settle``) have the same LINEs, and the writer's direct
    encoding is the checker's. The checker also moves a column's only card to an empty
    column, which the game leaves out: that leads back to the position itself (settled),
    which is in the set already."""
    certifier, v = game.certifier, variant(game)
    assert certifier.moves is not None
    for state in random_positions(game, 2, 150):
        position = as_checker(game, state)
        assert certifier.encode(state) == ck.encode(position, v, ALL)
        theirs = {ck.encode(ck.settle(after, v, ALL), v, ALL)
                  for _, after in ck.moves(position, v, ALL)}
        ours = {certifier.encode(follow(game.play, game.forced, state, move)[1])
                for move in certifier.moves(state)}
        itself = ck.encode(ck.settle(position, v, ALL), v, ALL)
        assert ours | {itself} == theirs | {itself}


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_deals_and_text_are_the_games(game: FreeCell) -> None:
    numbers = [1, 2, 617, 11982, 32000, 32001, 1_000_000]
    if game.layout == "microsoft":
        numbers += [2**31 + 5, 2**32 + 7, 2**33 - 1]
    for number in numbers:
        state = game.deal(number)
        assert ck.deal(number, variant(game)) == as_checker(game, state)
    for state in random_positions(game, 3, 30):
        position = as_checker(game, state)
        assert ck.decode(ck.encode(position, variant(game), frozenset()), variant(game)) == position
        assert [card == "-" for card in position[1]] == [c == 255 for c in state.cells]


@pytest.mark.parametrize("game, number", [(GAME, 1), (SEAHAVEN, 1), (SMALL, 3),
                                          (FreeCell(cells=2, columns=10, empty="kings"), 5)],
                         ids=lambda x: str(x) if isinstance(x, int) else x.name)
def test_a_solution_replays_with_the_checkers_rules(game: FreeCell, number: int) -> None:
    """The solver's single-card steps, in the game's notation, are moves the checker's rules
    allow, and end in a win; without the last, the replay ends short of one."""
    result = dfs(game, game.deal(number), Budget(max_states=200_000))
    assert result.status is Status.WON
    steps = [game.notation(step) for step in result.moves]
    start = ck.deal(number, variant(game))
    assert replay(ck, start, variant(game), steps) == ""
    assert replay(ck, start, variant(game), steps[:-1]).endswith("which is not won")


def test_seahaven_answers_to_its_own_name() -> None:
    assert game_module("seahaven") is seahaven and game_module("freecell") is ck
    assert seahaven.deal(21, variant(SEAHAVEN)) == ck.deal(21, variant(SEAHAVEN))


@pytest.mark.parametrize("line", ["0 0 0|-|-", "0 0 0 0|- -|" + "- " * 7 + "-", "x|y|z",
                                  "0 0 0 0|-|AS 2S 3S 4S AH 2H 3H AH"])
def test_decode_refuses_what_is_not_a_position(line: str) -> None:
    with pytest.raises(ValueError):
        ck.decode(line, variant(FreeCell(ranks=2, columns=8, cells=1)))


# -- each reduction keeps the verdict -----------------------------------------------------------

def checker_verdict(game: FreeCell, number: int, reductions: frozenset[str]) -> bool:
    """Whether deal `number` is won, by exhaustive search with the checker's own rules."""
    v = variant(game)
    return checker_won(ck, ck.deal(number, v), v, reductions)


@pytest.mark.parametrize("left_out", [{name} for name in sorted(ALL)] + [
    {"safe-home", "safe-home-wide"}])
def test_each_reduction_keeps_the_verdict(left_out: set[str]) -> None:
    """On small twin deals of both games, won and lost, the verdict with every reduction is
    the verdict without those `left_out` (each alone, and both safe moves home), and the
    solver's."""
    verdicts = []
    for twin in twins(GAME) + twins(SEAHAVEN):
        for number in range(1, 21):
            full = checker_verdict(twin, number, ALL)
            assert checker_verdict(twin, number, ALL - left_out) == full, (twin, number)
            solver = dfs(twin, twin.deal(number), Budget(max_states=100_000)).status
            assert solver is (Status.WON if full else Status.LOST)
            verdicts.append(full)
    assert any(verdicts) and not all(verdicts)


# -- the big ones ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_microsoft_11982_is_certified_and_checked_valid(tmp_path: Path) -> None:
    path = tmp_path / "11982.cert"
    written = certify(GAME, GAME.deal(11982), path, deal=11982)
    assert (written.status, written.positions) == ("lost", 61_643)
    assert checked(path, GAME, 11982) == ""


def test_solve_writes_and_check_confirms_a_certificate(tmp_path: Path) -> None:
    from test_cli import run

    path = tmp_path / "7.cert"
    solved = run("solve", "freecell", "--deal", "7", "-V", "cells=0", "--certificate", str(path))
    assert solved.exit_code == 1 and "certificate written" in solved.output
    checked_ = run("check", str(path), "freecell", "--deal", "7", "-V", "cells=0")
    assert checked_.exit_code == 0 and checked_.output.startswith("valid: freecell deal 7 is lost")
    other = run("check", str(path), "freecell", "--deal", "8", "-V", "cells=0")
    assert other.exit_code == 1 and "is not this deal's certificate" in other.output
