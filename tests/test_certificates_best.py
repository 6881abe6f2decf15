"""Certificates of a best score (a scored game's ``"best"`` in the header), the generic
parts, on a scored Ladder: the toy game (``tests/toy_game.py``) scoring the cards home
when no move is left, its best possible score every card home (a win). A lost deal's
certificate claims the best score its plays reach, and the check confirms it is exact."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

import toy_checker
from checker import certificate as certificate_file
from checker.check import check, start_line
from solver.certify import certify
from solver.search.scored import scored
from solver.game import Status
from certificate_tools import rewrite_as_is
from test_certificates import CertifiedLadder
from toy_game import State


@dataclass(frozen=True)
class ScoredLadder(CertifiedLadder):
    """Ladder scored by the cards home at a play's end; every card home is the best."""

    @property
    def score(self) -> Callable[[State], int]:
        return lambda state: state.home

    @property
    def best_score(self) -> int:
        return self.ranks


GAME = ScoredLadder(ranks=8, columns=3)


def lost_with_scores(count: int) -> dict[int, int]:
    """Lost deals and their proven best scores, some above 0 (a claim to confirm)."""
    found = {}
    for number in range(1, 300):
        result = scored(GAME, GAME.deal(number))
        if result.status is Status.LOST and result.score:
            found[number] = result.score
    assert len(found) >= count, "the scored toy has too few lost deals with a score"
    return dict(list(found.items())[:count])


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, int, Path]:
    folder = tmp_path_factory.mktemp("best")
    number, best = next(iter(lost_with_scores(1).items()))
    path = folder / f"{number}.cert"
    result = certify(GAME, GAME.deal(number), path, deal=number)
    assert (result.status, result.best) == ("lost", best)
    return number, best, path


def checked(path: Path, number: int) -> tuple[str, int | None]:
    read = certificate_file.read(path)
    outcome = check(read, start_line(toy_checker, read, toy_checker.deal(number, read.variant)),
                    toy_checker)
    return outcome.fault, outcome.best


def test_lost_deals_claim_the_searchs_best_score_and_it_is_confirmed(tmp_path: Path) -> None:
    for number, best in lost_with_scores(4).items():
        path = tmp_path / f"{number}.cert"
        assert certify(GAME, GAME.deal(number), path, deal=number).best == best
        assert certificate_file.read(path).header["best"] == best
        assert checked(path, number) == ("", best)


def test_a_game_without_scores_claims_no_best(tmp_path: Path) -> None:
    number = next(iter(lost_with_scores(1)))
    path = tmp_path / "plain.cert"
    assert certify(CertifiedLadder(ranks=8, columns=3), GAME.deal(number), path).best is None
    assert "best" not in certificate_file.read(path).header


@pytest.mark.parametrize("shift, fault", [
    (1, "no play from the start scores the best {claim} claimed"),
    (-1, "scores {best}, more than the best {claim} claimed"),
])
def test_a_best_claimed_higher_or_lower_is_refused(tmp_path: Path, written: tuple[int, int, Path],
                                                   shift: int, fault: str) -> None:
    number, best, path = written

    def claim(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "best": best + shift}, lines
    found, confirmed = checked(rewrite_as_is(path, tmp_path / "t.cert", claim), number)
    assert fault.format(best=best, claim=best + shift) in found and confirmed is None


def test_a_best_scored_only_off_the_starts_plays_is_not_tight(
        tmp_path: Path, written: tuple[int, int, Path]) -> None:
    """A position no play reaches, scoring the claim, does not confirm it."""
    number, best, path = written
    tops = "468" if best + 2 in (5, 7, 9) else "579"     # none next home, none on another
    stuck = f"{best + 1}|" + "|".join(tops)       # no move left, more cards home than any play

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "best": best + 1, "positions": header["positions"] + 1}, \
            sorted(lines + [stuck])
    assert toy_checker.score(toy_checker.decode(stuck, {"ranks": 8, "columns": 3}),
                             {}) == best + 1
    found, _ = checked(rewrite_as_is(path, tmp_path / "t.cert", add), number)
    assert found == f"no play from the start scores the best {best + 1} claimed"


def test_a_position_removed_still_breaks_the_closure(tmp_path: Path,
                                                      written: tuple[int, int, Path]) -> None:
    number, best, path = written
    read = certificate_file.read(path)
    victim = next(line for line in read.positions if line != read.start)

    def drop(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != victim]
    found, _ = checked(rewrite_as_is(path, tmp_path / "t.cert", drop), number)
    assert "not in the set" in found and victim in found


def test_a_best_that_is_not_a_number_is_unreadable(tmp_path: Path,
                                                   written: tuple[int, int, Path]) -> None:
    _, _, path = written

    def claim(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "best": "all of them"}, lines
    with pytest.raises(certificate_file.Unreadable, match="best is not a whole number"):
        certificate_file.read(rewrite_as_is(path, tmp_path / "t.cert", claim))
