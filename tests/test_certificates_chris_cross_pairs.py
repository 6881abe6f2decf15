"""Chris-Cross Pairs' certificates of loss: written by ``ChrisCrossPairs.certifier``,
checked by ``checker/chris_cross_pairs.py``.

Deal 4 is the first lost deal of the real game (no pair at the start: a certificate of
one line); the twins of a 3 by 3 tableau give losses that take a few turns."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, checker_won, rewrite_as_is

from checker import certificate as certificate_file
from checker import chris_cross_pairs as ck
from checker.replay import replay
from games import find_game
from games.chris_cross_pairs import ChrisCrossPairs
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs
from solver.search.base import follow

SMALL = {"size": 3, "ranks": 8, "suits": 2}
FULL = {"size": 5, "ranks": 13, "suits": 4}
# (variant, lost deal): the real game's deal 4, and twins lost after several turns
LOST = [(FULL, 4), (SMALL, 180), (SMALL, 85), (SMALL, 205)]
NONE: frozenset[str] = frozenset()
BOTH = frozenset(ck.REDUCTIONS)


def game_of(variant: dict[str, Any]) -> ChrisCrossPairs:
    game = find_game("chris-cross-pairs", variant)
    assert isinstance(game, ChrisCrossPairs)
    return game


def options(game: ChrisCrossPairs) -> dict[str, Any]:
    return {"size": game.size, "ranks": game.ranks, "suits": game.suits}


def checked(path: Path, number: int) -> str:
    return str(checked_against(ck, path, number).fault)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], Path]:
    folder = tmp_path_factory.mktemp("ccp")
    found = {}
    for variant, number in LOST:
        game = game_of(variant)
        assert dfs(game, game.deal(number)).status is Status.LOST
        path = folder / f"{variant['size']}-{number}.cert"
        assert certify(game, game.deal(number), path, deal=number).status == "lost"
        found[(variant["size"], number)] = path
    return found


def test_lost_deals_are_certified_and_checked_valid(written: dict[tuple[int, int], Path]) -> None:
    for variant, number in LOST:
        assert checked(written[(variant["size"], number)], number) == ""
    assert certificate_file.read(written[(5, 4)]).header["positions"] == 1
    assert certificate_file.read(written[(3, 180)]).header["positions"] >= 5


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    game = game_of(FULL)
    assert certify(game, game.deal(1), tmp_path / "won.cert").status == "won"
    assert not (tmp_path / "won.cert").exists()


def test_tampering_is_found(tmp_path: Path, written: dict[tuple[int, int], Path]) -> None:
    path = written[(3, 180)]
    read = certificate_file.read(path)

    def drop(line: str) -> Any:
        def change(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
            return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != line]
        return change
    closed = next(line for line in read.positions if line != read.start)
    assert "not in the set" in checked(rewrite_as_is(path, tmp_path / "a.cert", drop(closed)), 180)
    assert "is not in the set" in checked(rewrite_as_is(path, tmp_path / "b.cert", drop(read.start)), 180)
    won = "2|.,.,./.,.,./.,.,.|"

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [won])
    assert checked(rewrite_as_is(path, tmp_path / "c.cert", add), 180) == f"position {won} is won"
    assert "is not this deal's certificate" in checked(path, 85)

    def unknown(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "reductions": ["only-move", "rank-names", "slide-order"]}, lines
    assert "'slide-order', which the checker does not accept" in \
        checked(rewrite_as_is(path, tmp_path / "d.cert", unknown), 180)

    def facts(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return header, [f"{line}\t{{}}" if line == closed else line for line in lines]
    assert "knows no static proof" in checked(rewrite_as_is(path, tmp_path / "e.cert", facts), 180)

    def renamed(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        swap = str.maketrans("A2", "2A")
        return header, sorted(line.translate(swap) if line == closed else line for line in lines)
    assert "not written in its canonical form" in \
        checked(rewrite_as_is(path, tmp_path / "f.cert", renamed), 180)


def random_positions(game: ChrisCrossPairs, count: int, seed: int) -> list[Any]:
    """Positions of seeded random play from the game's deals 1, 2, ... (every legal step)."""
    rng, found, number = random.Random(seed), [], 0
    while len(found) < count:
        number += 1
        state = game.deal(number)
        while len(found) < count:
            found.append(state)
            steps = list(game.legal_moves(state))
            if not steps:
                break
            state = game.play(state, rng.choice(steps))
    return found


@pytest.mark.parametrize("variant", [FULL, *ChrisCrossPairs.twins])
def test_the_checkers_rules_are_the_games(variant: dict[str, Any]) -> None:
    """The same deals (Microsoft's and the Twister's), the text read alike, the same steps
    with the same notation to the same positions, and the same automatic steps."""
    game = game_of(variant)
    certifier, variant = game.certifier, options(game)
    for number in [1, 2, 4, 32000, 32001, 10 ** 12]:
        assert ck.encode(ck.deal(number, variant), variant, BOTH) == certifier.encode(game.deal(number))
        assert ck.deal(number, variant) == ck.parse(game.format(game.deal(number)), variant)
    forced = game.forced
    for state in random_positions(game, 300, seed=3):
        position = ck.parse(game.format(state), variant)
        ours = {(game.notation(m), certifier.encode(follow(game.play, forced, state, m)[1]))
                for m in game.legal_moves(state)}
        assert ours == {(name, ck.encode(ck.settle(after, variant, BOTH), variant, BOTH))
                        for name, after in ck.moves(position, variant, BOTH)}
        plain = {(game.notation(m), ck.encode(ck.parse(game.format(game.play(state, m)), variant),
                                              variant, NONE)) for m in game.legal_moves(state)}
        assert plain == {(name, ck.encode(after, variant, NONE))
                         for name, after in ck.moves(position, variant, NONE)}
        assert ck.is_won(position, variant) == game.is_won(state)
        settled = ck.settle(position, variant, BOTH)
        assert ck.encode(settled, variant, BOTH) == certifier.encode(
            follow(game.play, forced, state, game.forced(state)[0])[1]
            if game.forced(state) else state)


def won_by_the_checker(number: int, variant: dict[str, Any], reductions: frozenset[str]) -> bool:
    """Whether the deal is won, by exhaustive search with the checker's rules alone."""
    return checker_won(ck, ck.deal(number, variant), variant, reductions)


@pytest.mark.parametrize("reduction", sorted(ck.REDUCTIONS))
def test_each_reduction_keeps_the_verdict(reduction: str) -> None:
    """Exhaustive search with the checker's own rules, with and without the reduction, on
    the small twin's deals 1-60 and the deals the certificates are of: the same verdicts,
    both kinds among them, and the game's."""
    game = game_of(SMALL)
    verdicts = set()
    for number in [*range(1, 61), 85, 180, 205]:
        with_it = won_by_the_checker(number, SMALL, frozenset({reduction}))
        assert with_it == won_by_the_checker(number, SMALL, NONE), number
        assert with_it == (dfs(game, game.deal(number)).status is Status.WON), number
        verdicts.add(with_it)
    assert verdicts == {True, False}


def test_won_solutions_replay_with_the_checkers_rules() -> None:
    for variant, number in [(FULL, 1), (FULL, 2), (FULL, 40000), (SMALL, 3)]:
        game = game_of(variant)
        result = dfs(game, game.deal(number), Budget(max_states=200_000))
        assert result.status is Status.WON
        steps = [game.notation(move) for move in result.moves]
        start = ck.deal(number, options(game))
        assert replay(ck, start, options(game), steps) == ""
        assert "is not won" in replay(ck, start, options(game), steps[:-1])
