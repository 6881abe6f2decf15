"""The Clock's certificates of loss: the play is forced, so a lost deal's certificate is its
start with the facts "forced", which ``checker/clock.py`` confirms by playing the game
out with its own rules."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checker import certificate as certificate_file
from checker import clock as ck
from checker.check import check, start_line
from games.the_clock import GAME, TheClock, State
from solver.certify import certify

NONE: frozenset[str] = frozenset()
TWINS = (TheClock(ranks=3, suits=2), TheClock(ranks=4, suits=3), GAME)


def variant(game: TheClock) -> dict[str, Any]:
    return {"ranks": game.ranks, "suits": game.suits}


def played_out(game: TheClock, state: State) -> list[State]:
    """The start and every position the forced play reaches from it."""
    found = [state]
    while game.moves(found[-1]):
        found.append(game.play(found[-1], game.moves(found[-1])[0]))
    return found


def deals(game: TheClock, won: bool, count: int) -> list[int]:
    found = [n for n in range(1, 200) if game.knuth_verdict(game.deal(n)) == won]
    assert len(found) >= count
    return found[:count]


def fault(certificate: certificate_file.Certificate, number: int) -> str:
    expected = start_line(ck, certificate, ck.deal(number, certificate.variant))
    return check(certificate, expected, ck).fault


@pytest.mark.parametrize("game", TWINS, ids=["3x2", "4x3", "full"])
def test_a_lost_deal_is_one_line_checked_valid(tmp_path: Path, game: TheClock) -> None:
    for number in deals(game, won=False, count=5):
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert (written.status, written.positions, written.closed_by_facts) == ("lost", 1, 1)
        read = certificate_file.read(path)
        assert read.positions == {read.start: "forced"} and read.reductions == NONE
        assert fault(read, number) == ""


@pytest.mark.parametrize("game", TWINS, ids=["3x2", "4x3", "full"])
def test_a_won_deal_gets_no_certificate(tmp_path: Path, game: TheClock) -> None:
    for number in deals(game, won=True, count=3):
        assert certify(game, game.deal(number), tmp_path / "c", deal=number).status == "won"
        assert not (tmp_path / "c").exists()


@pytest.fixture(scope="module")
def lost() -> tuple[int, certificate_file.Certificate]:
    number = deals(GAME, won=False, count=1)[0]
    header = {"format": certificate_file.FORMAT, "game": "clock", "variant": variant(GAME),
              "deal": number, "start": GAME.certificate_line(GAME.deal(number)),
              "reductions": [], "positions": 1}
    return number, certificate_file.Certificate(header, {header["start"]: "forced"})


def copied(certificate: certificate_file.Certificate) -> certificate_file.Certificate:
    return certificate_file.Certificate(dict(certificate.header), dict(certificate.positions))


def test_tampering_is_refused(lost: tuple[int, certificate_file.Certificate]) -> None:
    number, certificate = lost
    assert fault(certificate, number) == ""
    won = deals(GAME, won=True, count=1)[0]
    assert "is not this deal's certificate" in fault(certificate, won)
    other = copied(certificate)                 # a won deal's start, claimed lost by "forced"
    other.header["start"] = GAME.certificate_line(GAME.deal(won))
    other.positions = {other.header["start"]: "forced"}
    assert "the forced play wins" in fault(other, won)
    changed = copied(certificate)
    changed.positions[changed.start] = "no-walk"
    assert "names no proof" in fault(changed, number)
    expanded = copied(certificate)              # no facts: the one move leads out of the set
    expanded.positions[expanded.start] = None
    assert "which is not in the set" in fault(expanded, number)
    left_out = copied(certificate)
    left_out.positions = {}
    assert "is not in the set" in fault(left_out, number)
    reduced = copied(certificate)
    reduced.header["reductions"] = ["suits"]
    assert "does not accept" in fault(reduced, number)
    finished = copied(certificate)              # every card face up: won
    end = played_out(GAME, GAME.deal(won))[-1]
    finished.positions[GAME.certificate_line(end)] = None
    assert fault(finished, number).endswith("is won")


@pytest.mark.parametrize("game", TWINS, ids=["3x2", "4x3", "full"])
def test_the_checkers_play_deals_and_text_are_the_games(game: TheClock) -> None:
    rules = variant(game)
    for number in [*range(1, 40), *([32001, 123_456] if game == GAME else [])]:
        assert ck.encode(ck.deal(number, rules), rules, NONE) == \
            game.certificate_line(game.deal(number))
        for state in played_out(game, game.deal(number)):
            position = ck.parse(game.format(state), rules)
            line = game.certificate_line(state)
            assert ck.encode(position, rules, NONE) == line
            assert ck.encode(ck.decode(line, rules), rules, NONE) == line
            assert ck.is_won(position, rules) == game.is_won(state)
            ours = [ck.encode(after, rules, NONE) for _, after in ck.moves(position, rules, NONE)]
            assert ours == [game.certificate_line(game.play(state, m)) for m in game.moves(state)]
        start = ck.deal(number, rules)
        assert (ck.check_facts(start, rules, "forced") == "") == \
            (not game.knuth_verdict(game.deal(number)))


def test_decode_refuses_what_it_cannot_read() -> None:
    rules = variant(GAME)
    for bad in ("", "K", "X" + " |" * 13, "K" + " AC" * 13, "K" + " A|" * 13):
        with pytest.raises(ValueError):
            ck.decode(bad, rules)


def test_solve_writes_and_check_confirms_a_certificate(tmp_path: Path) -> None:
    from test_cli import run

    number = deals(GAME, won=False, count=1)[0]
    path = tmp_path / "clock.cert"
    result = run("solve", "clock", "--deal", str(number), "--certificate", str(path))
    assert result.exit_code == 1 and path.exists()
    result = run("check", str(path), "clock", "--deal", str(number))
    assert result.exit_code == 0 and result.output.startswith(f"valid: clock deal {number} is lost")


@pytest.mark.parametrize("game", TWINS, ids=["3x2", "4x3", "full"])
def test_the_checker_replays_a_win_and_refuses_a_short_one(game: TheClock) -> None:
    from checker.replay import replay

    number = deals(game, won=True, count=1)[0]
    notations = [game.notation(game.moves(state)[0])
                 for state in played_out(game, game.deal(number))[:-1]]
    start = ck.deal(number, variant(game))
    assert replay(ck, start, variant(game), notations) == ""
    assert "not won" in replay(ck, start, variant(game), notations[:-1])
