"""Gaps' certificates of loss: written by ``Gaps.certifier``, checked by ``checker/gaps.py``.

Real Gaps deals are all won within the first hundred with their redeals, and lost deals of
the one-deal game are out of reach of an exhaustive search, so the known answers are small
twins (``Gaps.twins``), with and without redeals."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, rewrite_as_is

from checker import certificate as certificate_file
from checker import gaps as ck
from checker.check import check
from checker.replay import replay
from games import find_game
from games.gaps import Gaps
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs

ONE_DEAL = {"suits": 3, "ranks": 5, "redeals": 0}
REDEAL = {"suits": 2, "ranks": 6, "redeals": 1, "redeal_any_time": True}
SUIT_ROWS = {"suits": 3, "ranks": 5, "redeals": 0, "suit_rows": True}
# (variant, lost deal): a deal the search closes with facts, one with a redeal, one
# whose start is lost by its frozen cards alone (a certificate of one line).
LOST = [(ONE_DEAL, 10), (ONE_DEAL, 12), (REDEAL, 5), (SUIT_ROWS, 5), (ONE_DEAL, 576)]
NONE: frozenset[str] = frozenset()


def game_of(variant: dict[str, Any]) -> Gaps:
    game = find_game("gaps", variant)
    assert isinstance(game, Gaps)
    return game


def options(game: Gaps) -> dict[str, Any]:
    return {"redeals": game.redeals, "redeal_any_time": game.redeal_any_time,
            "suit_rows": game.suit_rows, "suits": game.suits, "ranks": game.ranks}


def checked(path: Path, number: int) -> str:
    return str(checked_against(ck, path, number).fault)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Path]:
    folder = tmp_path_factory.mktemp("gaps")
    found = {}
    for variant, number in LOST:
        game = game_of(variant)
        assert dfs(game, game.deal(number)).status is Status.LOST
        path = folder / f"{sorted(variant.items())}-{number}.cert"
        assert certify(game, game.deal(number), path, deal=number).status == "lost"
        found[(str(sorted(variant.items())), number)] = path
    return found


def path_of(written: dict[tuple[str, int], Path], variant: dict[str, Any], number: int) -> Path:
    return written[(str(sorted(variant.items())), number)]


def test_lost_twin_deals_are_certified_and_checked_valid(written: dict[tuple[str, int], Path]) -> None:
    for variant, number in LOST:
        assert checked(path_of(written, variant, number), number) == ""
    one_line = certificate_file.read(path_of(written, ONE_DEAL, 576))
    assert list(one_line.positions) == [one_line.start] and one_line.positions[one_line.start]
    facts = certificate_file.read(path_of(written, ONE_DEAL, 10))
    assert sum(v is not None for v in facts.positions.values()) > 0
    redealt = certificate_file.read(path_of(written, REDEAL, 5))
    assert any(line.startswith("1|") for line in redealt.positions)   # after the redeal


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    game = game_of(ONE_DEAL)
    won = next(n for n in range(1, 50) if dfs(game, game.deal(n)).status is Status.WON)
    assert certify(game, game.deal(won), tmp_path / "won.cert").status == "won"
    assert not (tmp_path / "won.cert").exists()


def drop(line: str) -> Any:
    def change(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != line]
    return change


def test_tampering_is_found(tmp_path: Path, written: dict[tuple[str, int], Path]) -> None:
    path = path_of(written, ONE_DEAL, 10)
    read = certificate_file.read(path)
    closed = next(l for l, facts in read.positions.items() if facts is None and l != read.start)
    assert "not in the set" in checked(rewrite_as_is(path, tmp_path / "a.cert", drop(closed)), 10)
    assert "is not in the set" in checked(rewrite_as_is(path, tmp_path / "b.cert", drop(read.start)), 10)
    won = "0|||2C3C4C5C--|2D3D4D5D--|2H3H4H5H--"

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [won])
    assert checked(rewrite_as_is(path, tmp_path / "c.cert", add), 10) == f"position {won} is won"
    assert "is not this deal's certificate" in checked(path, 12)

    def unknown(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "reductions": ["forced-fill"]}, lines
    assert "'forced-fill', which the checker does not accept" in \
        checked(rewrite_as_is(path, tmp_path / "d.cert", unknown), 10)


def test_facts_that_do_not_prove_the_loss_are_refused(tmp_path: Path,
                                                       written: dict[tuple[str, int], Path]) -> None:
    path = path_of(written, ONE_DEAL, 10)
    read = certificate_file.read(path)
    line, facts = next((l, f) for l, f in read.positions.items() if f is not None)
    position = ck.decode(line, read.variant)
    assert ck.check_facts(position, read.variant, facts) == ""
    twos = [card for card in facts["frozen"] if card[0] == "2"]
    assert twos, "a frozen set holds Twos: a higher card is frozen only with its predecessor"
    without_a_two = {"frozen": [card for card in facts["frozen"] if card != twos[0]]}
    assert "is not frozen" in ck.check_facts(position, read.variant, without_a_two)
    assert "some won position has it" in ck.check_facts(position, read.variant, {"frozen": []})
    assert "not in the layout" in ck.check_facts(position, read.variant, {"frozen": ["AC"]})
    assert "not {" in ck.check_facts(position, read.variant, ["2C"])
    target = without_a_two

    def change(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        out = [l if l.split("\t")[0] != line else f"{line}\t{json.dumps(target)}" for l in lines]
        return header, out
    assert "its static proof fails" in checked(rewrite_as_is(path, tmp_path / "f.cert", change), 10)


def test_facts_need_no_redeal_left() -> None:
    game = game_of({**ONE_DEAL, "redeals": 1})
    position = ck.deal(576, options(game))
    facts = game_of(ONE_DEAL)._frozen_facts(game_of(ONE_DEAL).deal(576))
    assert facts is not None and game._frozen_facts(game.deal(576)) is None
    assert "a redeal is left" in ck.check_facts(position, options(game), facts)


@pytest.mark.parametrize("variant", [{}, {"redeals": 0}, *Gaps.twins])
def test_the_checkers_rules_are_the_games(variant: dict[str, Any]) -> None:
    """On seeded random play: the same deal, the text read alike, the same steps with
    the same notation to the same positions, and the frozen cards' facts confirmed."""
    game = game_of(variant)
    certifier, rng = game.certifier, random.Random(7)
    for number in [1, 2, 3, 32000, 32001, 10 ** 12]:
        state = game.deal(number)
        assert ck.encode(ck.deal(number, options(game)), options(game), NONE) == certifier.encode(state)
        for _ in range(60):
            position = ck.parse(game.format(state), options(game))
            assert certifier.encode(state) == ck.encode(position, options(game), NONE)
            facts = certifier.dead(state) if certifier.dead else None
            if facts is not None:
                assert ck.check_facts(position, options(game), facts) == ""
                theirs = list(ck.moves(position, options(game), NONE))
                assert not any(ck.is_won(after, options(game)) for _, after in theirs)
                break
            ours = {(game.notation(m), certifier.encode(game.play(state, m))) for m in game.moves(state)}
            assert ours == {(name, ck.encode(after, options(game), NONE))
                            for name, after in ck.moves(position, options(game), NONE)}
            assert ck.is_won(position, options(game)) == game.is_won(state)
            if not ours:
                break
            state = game.play(state, rng.choice(list(game.moves(state))))


def test_won_solutions_replay_with_the_checkers_rules() -> None:
    for variant, number in [({}, 1), ({}, 40000), ({"redeals": 0}, 7), (REDEAL, 1)]:
        game = game_of(variant)
        result = dfs(game, game.deal(number), Budget(max_states=200_000))
        assert result.status is Status.WON
        steps = [game.notation(move) for move in result.moves]
        start = ck.deal(number, options(game))
        assert replay(ck, start, options(game), steps) == ""
        assert "is not won" in replay(ck, start, options(game), steps[:-1])


def test_a_board_without_its_deal_number_is_refused_while_a_redeal_is_left(tmp_path: Path) -> None:
    """Without the deal number nobody knows what a redeal deals, so the writer cannot
    follow it (``moves`` offers none) and the checker refuses such a position."""
    game = game_of(REDEAL)
    text = "\n".join(line for line in game.format(game.deal(5)).splitlines()
                     if not line.startswith("Deal:"))
    path = tmp_path / "no-deal.cert"
    assert certify(game, game.parse(text), path).status == "lost"   # redeal left out
    read = certificate_file.read(path)
    assert "a redeal is left but the deal number" in check(read, None, ck).fault


@pytest.mark.slow
def test_lost_deals_of_a_four_by_six_twin_are_certified_and_checked_valid(tmp_path: Path) -> None:
    game = game_of({"suits": 4, "ranks": 6, "redeals": 0})
    for number in (23, 28, 29):
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert written.status == "lost" and written.closed_by_facts > 1000
        assert checked(path, number) == ""
