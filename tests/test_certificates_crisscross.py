"""CrissCross's certificates of a lost deal and its best score: written by
``CrissCross.certifier``, checked by ``checker/crisscross.py``.

Every real deal of 1-100 is won; deal 6619 is lost (the first lost deals of 1-10,000 are
1098, 1692, 4427, 6619...), and the twins (``CrissCross.twins``) lose some of 1-100."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, rewrite_as_is, random_play_positions

from checker import certificate as certificate_file
from checker import crisscross as ck
from checker.check import check, start_line
from checker.replay import replay
from games.crisscross import NO_DEAL, CrissCross, certificate_line
from solver.certify import certify
from solver.game import Status
from solver.search.base import follow
from solver.search.scored import scored

REDUCTIONS = frozenset({"arm-order", "only-move"})
NONE: frozenset[str] = frozenset()
VARIANTS = [{}, {"arms": 3}, {"double": 4, "cross_first": True},
            {"double": 4, "arms": 3, "no_double_starts": True},
            {"arms": 3, "cross_first": True, "no_double_starts": True}, {"double": 3}]
# (variant, lost deal, best score): the real game's first lost deal of those the issue
# names, and twins' lost deals.
LOST = [({}, 6619, -1), ({"arms": 3}, 92, -1)]


def options(game: CrissCross) -> dict[str, Any]:
    return {"double": game.double, "arms": game.arms, "cross_first": game.cross_first,
            "no_double_starts": game.no_double_starts}


def checked(path: Path, number: int) -> tuple[str, int | None]:
    outcome = checked_against(ck, path, number)
    return outcome.fault, outcome.best


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("crisscross")
    found = {}
    for variant, number, best in LOST:
        game = CrissCross(**variant)
        result = scored(game, game.deal(number))
        assert (result.status, result.score) == (Status.LOST, best)
        path = folder / f"{number}.cert"
        assert certify(game, game.deal(number), path, deal=number).status == "lost"
        found[number] = path
    return found


def test_lost_deals_are_certified_and_checked_with_their_best_score(
        written: dict[int, Path]) -> None:
    for _, number, best in LOST:
        read = certificate_file.read(written[number])
        assert read.header["best"] == best and sorted(read.reductions) == sorted(REDUCTIONS)
        assert checked(written[number], number) == ("", best)


def test_every_lost_twin_deal_of_1_to_40_certifies_the_searchs_best(tmp_path: Path) -> None:
    certified = 0
    for which, variant in enumerate(VARIANTS[1:]):
        game = CrissCross(**variant)
        for number in range(1, 41):
            result = scored(game, game.deal(number))
            path = tmp_path / f"{which}-{number}.cert"
            written = certify(game, game.deal(number), path, deal=number)
            if result.status is Status.WON:
                assert written.status == "won" and not path.exists()
                continue
            assert (written.status, written.best) == ("lost", result.score)
            assert checked(path, number) == ("", result.score)
            certified += 1
    assert certified >= 3


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    game = CrissCross()
    path = tmp_path / "won.cert"
    assert certify(game, game.deal(1), path, deal=1).status == "won" and not path.exists()


# -- tampering: each refused in one line ---------------------------------------------------

def tampered(tmp_path: Path, written: dict[int, Path], change: Any) -> str:
    fault, best = checked(rewrite_as_is(written[6619], tmp_path / "t.cert", change), 6619)
    assert fault and "\n" not in fault and best is None
    return fault


def test_a_position_removed_is_found(tmp_path: Path, written: dict[int, Path]) -> None:
    read = certificate_file.read(written[6619])
    victim = next(line for line in read.positions if line != read.start)

    def drop(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != victim]
    fault = tampered(tmp_path, written, drop)
    assert "which is not in the set" in fault and victim in fault


def test_a_won_position_added_is_found(tmp_path: Path, written: dict[int, Path]) -> None:
    won = "1,2,3,6|||4|y|6619"

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [won])
    assert tampered(tmp_path, written, add) == f"position {won} is won"


def test_the_start_left_out_is_found(tmp_path: Path, written: dict[int, Path]) -> None:
    start = certificate_file.read(written[6619]).start

    def drop(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != start]
    assert tampered(tmp_path, written, drop).startswith("the start ")


def test_another_deals_certificate_is_refused(written: dict[int, Path]) -> None:
    read = certificate_file.read(written[6619])
    fault = check(read, start_line(ck, read, ck.deal(1098, read.variant)), ck).fault
    assert fault.startswith("is not this deal's certificate") and "\n" not in fault


@pytest.mark.parametrize("shift, fault", [
    (1, "no play from the start scores the best 0 claimed"),
    (-1, "scores -1, more than the best -2 claimed"),
])
def test_a_best_claimed_higher_or_lower_is_refused(tmp_path: Path, written: dict[int, Path],
                                                   shift: int, fault: str) -> None:
    def claim(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "best": header["best"] + shift}, lines
    assert fault in tampered(tmp_path, written, claim)


def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path,
                                                           written: dict[int, Path]) -> None:
    def name(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "reductions": [*header["reductions"], "tile-order"]}, lines
    assert "'tile-order', which the checker does not accept" in tampered(tmp_path, written, name)


def test_a_position_without_its_deal_number_cannot_end_in_a_reshuffle(
        tmp_path: Path, written: dict[int, Path]) -> None:
    """A reshuffle due without the deal number: the game is not over, yet no move is
    offered, so no best score can be claimed past it."""
    stuck = "0,1,2,3||4-3|0|y|0"

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [stuck])
    assert tampered(tmp_path, written, add) == f"position {stuck} has no move, yet its game " \
        "is not over"


# -- the checker's rules against the game's -------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_deals_text_and_lines_agree_with_the_game(variant: dict[str, Any]) -> None:
    game = CrissCross(**variant)
    v = options(game)
    assert ck.variant_problem(v) == ""
    for number in (1, 2, 6619, 10 ** 12):
        assert ck.deal(number, v) == ck.parse(game.format(game.deal(number)), v)
    for state in random_play_positions(game, 7, 300):
        pos = ck.parse(game.format(state), v)
        assert ck.encode(pos, v, REDUCTIONS) == certificate_line(state)
        assert ck.decode(ck.encode(pos, v, NONE), v) == pos
        assert ck.is_won(pos, v) == game.is_won(state)
        over = not game.moves(state)
        assert ck.score(pos, v) == (game.score(state) if over else None)
    unknown = game.deal(5)._replace(seed=NO_DEAL)
    assert ck.parse(game.format(unknown), v)[5] == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_checkers_successors_are_the_writers(variant: dict[str, Any]) -> None:
    """Same steps, written alike, and the same positions after the automatic moves."""
    game = CrissCross(**variant)
    v = options(game)
    play, forced = game.play, game.forced
    for state in random_play_positions(game, 11, 400):
        pos = ck.parse(game.format(state), v)
        steps = game.moves(state)
        assert sorted(name for name, _ in ck.moves(pos, v, NONE)) == \
            sorted(game.notation(step) for step in steps)
        ours = {certificate_line(follow(play, forced, state, step)[1]) for step in steps}
        theirs = {ck.encode(ck.settle(after, v, REDUCTIONS), v, REDUCTIONS)
                  for _, after in ck.moves(ck.decode(certificate_line(state), v), v, REDUCTIONS)}
        assert ours == theirs


def test_text_the_checker_cannot_read_is_refused() -> None:
    v = options(CrissCross())
    text = CrissCross().format(CrissCross().deal(3))
    for bad in (text.replace("Draw: 3-0", "Draw: 3-0 3-0"), text.replace("Arm 1: -", "Arm 1: 9-9"),
                text + "Arm 5: -\n", text.replace("Placed: no", "Placed: maybe")):
        assert bad != text
        with pytest.raises(ValueError):
            ck.parse(bad, v)
    for line in ("1,2|6-2||0|y", "1,2|2-6||0|y|3", "9|6-2||0|n|3", "|||x|n|3"):
        with pytest.raises(ValueError):
            ck.decode(line, v)


# -- each reduction keeps the best score ------------------------------------------------------

def best_by_the_checker(v: dict[str, Any], number: int, reductions: frozenset[str]) -> int:
    """The best score over every play, by the checker's own rules (exhaustive)."""
    start = ck.settle(ck.deal(number, v), v, reductions)
    seen, stack, best = {ck.encode(start, v, reductions)}, [start], -10 ** 6
    while stack:
        pos = stack.pop()
        value = ck.score(pos, v)
        best = max(best, value) if value is not None else best
        for _, after in ck.moves(pos, v, reductions):
            after = ck.settle(after, v, reductions)
            line = ck.encode(after, v, reductions)
            if line not in seen:
                seen.add(line)
                stack.append(after)
    return best


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_each_reduction_keeps_every_best_score(variant: dict[str, Any]) -> None:
    v = options(CrissCross(**variant))
    # 11 and 48 are lost with three arms crossed first and no double starts, 92 with three arms
    for number in (1, 2, 11, 48, 92):
        plain = best_by_the_checker(v, number, NONE)
        for reductions in ({"arm-order"}, {"only-move"}, REDUCTIONS):
            assert best_by_the_checker(v, number, frozenset(reductions)) == plain


# -- solutions and the command line -----------------------------------------------------------

def test_won_deals_replay_with_the_checkers_rules() -> None:
    for variant, number in (({}, 1), ({}, 2), ({"double": 4, "cross_first": True}, 3)):
        game = CrissCross(**variant)
        v = options(game)
        result = scored(game, game.deal(number))
        assert result.status is Status.WON
        steps = [game.notation(step) for step in result.moves]
        assert replay(ck, ck.deal(number, v), v, steps) == ""
        assert "which is not won" in replay(ck, ck.deal(number, v), v, steps[:-1])


def test_solve_writes_and_check_confirms_the_best_score(tmp_path: Path) -> None:
    from test_cli import run

    path = tmp_path / "6619.cert"
    result = run("solve", "crisscross", "--deal", "6619", "--certificate", str(path))
    assert result.exit_code == 1 and path.exists()
    result = run("check", str(path), "crisscross", "--deal", "6619")
    assert result.exit_code == 0
    assert result.output.startswith("valid: crisscross deal 6619 is lost, best score -1 (")
    result = run("check", str(path), "crisscross", "--deal", "1098")
    assert result.exit_code == 1 and "is not this deal's certificate" in result.output
