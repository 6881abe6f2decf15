"""Bridge Solitaire's certificates of a lost position and its best score: written by
``BridgeSolitaire.certifier``, checked by ``checker/bridge_solitaire.py``.

Every numbered deal of 1-1,000 scores above 0, so a lost position comes later in a hand:
deal 1 with a poor choice and a contract it cannot make, 7S (best -800), played on for
three cards (``LATE``, best -1,700, 2,752 positions), or deal 2 after a choice of kept
cards whose every contract loses (``KEPT``, best -100)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import rewrite, rewrite_as_is, random_play_positions

from checker import certificate as certificate_file
from checker import bridge_solitaire as ck
from checker.check import check, start_line
from checker.replay import replay
from games.bridge_solitaire import (BridgeSolitaire, State, certificate_line, declarer_score,
                                    honours, house_bid, player_bids)
from solver.certify import certify
from solver.game import Status
from solver.search.scored import scored
from solver.verify import replay_notation

NONE: frozenset[str] = frozenset()
GAME = BridgeSolitaire()
CONTRACT = ["keep:6C+3D+5S+9S+JS+JK", "bid:7S"]          # deal 1: best -800
LATE = CONTRACT + ["5S", "3D", "3C"]                      # then three cards: best -1,700
KEPT = ["keep:9C+6D+8D+TD+QD+6H"]                         # deal 2: every contract loses


def position(number: int, steps: list[str], game: BridgeSolitaire = GAME) -> State:
    return replay_notation(game, game.deal(number), steps)


def options(game: BridgeSolitaire) -> dict[str, Any]:
    return {"vulnerable": game.vulnerable}


def checked(path: Path, state: State, game: BridgeSolitaire = GAME) -> tuple[str, int | None]:
    """The check of the certificate at `path`, confirmed to start at `state`."""
    read = certificate_file.read(path)
    expected = start_line(ck, read, ck.parse(game.format(state), read.variant))
    outcome = check(read, expected, ck)
    return outcome.fault, outcome.best


@pytest.fixture(scope="module")
def late(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bridge") / "late.cert"
    written = certify(GAME, position(1, LATE), path)
    assert (written.status, written.positions, written.best) == ("lost", 2752, -1700)
    return path


def test_a_late_lost_position_is_certified_with_the_searchs_best(late: Path) -> None:
    state = position(1, LATE)
    result = scored(GAME, state)
    assert (result.status, result.score) == (Status.LOST, -1700)
    read = certificate_file.read(late)
    assert read.header["best"] == -1700 and read.reductions == NONE and read.deal is None
    assert checked(late, state) == ("", -1700)


def test_a_won_position_gets_no_certificate(tmp_path: Path) -> None:
    for state in (GAME.deal(1), position(1, CONTRACT[:1] + ["pass"])):
        assert scored(GAME, state).status is Status.WON
        path = tmp_path / "won.cert"
        assert certify(GAME, state, path).status == "won" and not path.exists()


@pytest.mark.slow
@pytest.mark.parametrize("number, steps, best, count", [
    (1, CONTRACT, -800, 29_614),
    (2, KEPT, -100, 1_072_580),
])
def test_after_the_contract_and_after_the_kept_cards(tmp_path: Path, number: int,
                                                     steps: list[str], best: int,
                                                     count: int | None) -> None:
    state = position(number, steps)
    assert (scored(GAME, state).status, scored(GAME, state).score) == (Status.LOST, best)
    written = certify(GAME, state, tmp_path / "c.cert")
    assert (written.status, written.best) == ("lost", best)
    assert count is None or written.positions == count
    assert checked(tmp_path / "c.cert", state) == ("", best)


# -- tampering: each refused in one line ---------------------------------------------------

def tampered(tmp_path: Path, late: Path, change: Any, as_is: bool = False) -> str:
    path = (rewrite_as_is if as_is else rewrite)(late, tmp_path / "t.cert", change)
    fault, best = checked(path, position(1, LATE))
    assert fault and "\n" not in fault and best is None
    return fault


def test_a_position_removed_is_found(tmp_path: Path, late: Path) -> None:
    read = certificate_file.read(late)
    victim = next(line for line in read.positions if line != read.start)
    fault = tampered(tmp_path, late, lambda h, lines: (h, [l for l in lines if l != victim]))
    assert "which is not in the set" in fault and victim in fault


def test_the_start_left_out_is_found(tmp_path: Path, late: Path) -> None:
    start = certificate_file.read(late).start
    fault = tampered(tmp_path, late, lambda h, lines: (h, [l for l in lines if l != start]))
    assert fault.startswith("the start ")


@pytest.mark.parametrize("shift, fault", [
    (-1, "scores -1700, more than the best -1701 claimed"),
    (1, "no play from the start scores the best -1699 claimed"),
])
def test_a_best_claimed_lower_or_higher_is_refused(tmp_path: Path, late: Path, shift: int,
                                                   fault: str) -> None:
    assert fault in tampered(tmp_path, late, lambda h, lines: ({**h, "best": h["best"] + shift},
                                                                lines))


def test_a_won_position_added_is_found(tmp_path: Path, late: Path) -> None:
    result = scored(GAME, GAME.deal(1))                   # deal 1's best line scores 1,100
    won = certificate_line(replay_notation(GAME, GAME.deal(1),
                                           [GAME.notation(m) for m in result.moves]))
    fault = tampered(tmp_path, late, lambda h, lines: (h, lines + [won]))
    assert fault == f"position {won} is won"


def test_another_positions_certificate_is_refused(late: Path) -> None:
    read = certificate_file.read(late)
    other = start_line(ck, read, ck.parse(GAME.format(position(1, LATE[:-1])), read.variant))
    fault = check(read, other, ck).fault
    assert fault.startswith("is not this deal's certificate") and "\n" not in fault


def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path, late: Path) -> None:
    fault = tampered(tmp_path, late, lambda h, lines: ({**h, "reductions": ["only-move"]}, lines))
    assert "'only-move', which the checker does not accept" in fault


# -- the checker's rules against the game's -------------------------------------------------

@pytest.mark.parametrize("vulnerable", [False, True])
def test_deals_text_lines_and_scores_agree_with_the_game(vulnerable: bool) -> None:
    game = BridgeSolitaire(vulnerable)
    v = options(game)
    assert ck.variant_problem(v) == ""
    for number in (1, 2, 3, 1000, 10 ** 9):
        assert ck.deal(number, v) == ck.parse(game.format(game.deal(number)), v)
    ended = 0
    for state in random_play_positions(game, 5 + vulnerable, 600):
        pos = ck.parse(game.format(state), v)
        assert ck.encode(pos, v, NONE) == certificate_line(state)
        assert ck.decode(ck.encode(pos, v, NONE), v) == pos
        assert ck.is_won(pos, v) == game.is_won(state)
        over = state.bid is not None and not game.moves(state)
        assert ck.score(pos, v) == (game.score(state) if over else None)
        ended += over
    assert ended >= 20


def test_the_checkers_successors_are_the_writers() -> None:
    """The same steps (named alike) and the same positions after them."""
    v = options(GAME)
    encode = GAME.certifier.encode
    for state in random_play_positions(GAME, 11, 800):
        pos = ck.decode(certificate_line(state), v)
        steps = GAME.moves(state)
        ours = sorted((GAME.notation(step), encode(GAME.play(state, step))) for step in steps)
        theirs = sorted((name, ck.encode(ck.settle(after, v, NONE), v, NONE))
                        for name, after in ck.moves(pos, v, NONE))
        assert ours == theirs


def test_the_checkers_scoring_is_the_games_for_every_contract() -> None:
    for vulnerable in (False, True):
        for level, strain, doubling in ((l, s, d) for l in range(1, 8) for s in range(5)
                                        for d in (1, 2, 4)):
            for tricks in range(14):
                assert ck.declarer_points(level, strain, doubling, tricks, vulnerable) == \
                    declarer_score(level, strain, doubling, tricks, vulnerable)
    rng = random.Random(2)
    for _ in range(2000):
        cards = rng.sample(range(54), 13)
        names = ck.ordered(ck.DECK[c] for c in cards)
        for strain in range(5):
            assert ck.honours(names, strain) == honours(cards, strain)


def test_the_checkers_house_bid_and_bids_are_the_games() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = sorted(rng.sample(range(54), 13))
        names = ck.ordered(ck.DECK[c] for c in cards)
        assert ck.house_bid(names) == house_bid(cards)
        theirs = [f"{level}{ck.STRAINS[strain]}" for level, strain in player_bids(cards)]
        assert ck.bids(names) == (["pass"] if house_bid(cards) else []) + theirs


def test_text_the_checker_cannot_read_is_refused() -> None:
    v = options(GAME)
    text = GAME.format(position(1, LATE))
    for bad in (text.replace("Stock: AS", "Stock: AC"), text.replace("Contract: 7S", "Contract: 1C"),
                text.replace("Kept: 6C", "Kept: 3C"), text.replace("Hand: ", "Hand: AS "),
                text.replace("Lead: house", "Lead: nobody"), text + "Kept: 6C\n",
                text.replace("Kept: 6C 3D 5S 9S JS JK", "Kept: 6C 3D 5S 9S JS QH")):
        assert bad != text
        with pytest.raises(ValueError):
            ck.parse(bad, v)
    line = certificate_line(position(1, LATE))
    for bad in (line + "|x", line.replace("|7S|", "|8S|"), line.replace("|house", "|him"),
                line.replace("JK", "JJ", 1), "|".join(line.split("|")[:8])):
        with pytest.raises(ValueError):
            ck.decode(bad, v)


# -- solutions and the command line -----------------------------------------------------------

def test_won_deals_replay_with_the_checkers_rules() -> None:
    v = options(GAME)
    for number in (1, 2, 3):
        result = scored(GAME, GAME.deal(number))
        assert result.status is Status.WON
        steps = [GAME.notation(step) for step in result.moves]
        assert replay(ck, ck.deal(number, v), v, steps) == ""
        assert "which is not won" in replay(ck, ck.deal(number, v), v, steps[:-1])


def test_solve_writes_and_check_confirms_the_best_score(tmp_path: Path) -> None:
    from test_cli import run

    board, other = tmp_path / "late.txt", tmp_path / "other.txt"
    board.write_text(GAME.format(position(1, LATE)))
    other.write_text(GAME.format(position(1, LATE[:-1])))
    path = tmp_path / "late.cert"
    result = run("solve", "bridge-solitaire", str(board), "--certificate", str(path))
    assert result.exit_code == 1 and path.exists()
    result = run("check", str(path), "bridge-solitaire", str(board))
    assert result.exit_code == 0
    assert result.output.startswith("valid: bridge-solitaire the position it starts at is lost, "
                                    "best score -1700 (2,752 positions")
    result = run("check", str(path), "bridge-solitaire", str(other))
    assert result.exit_code == 1 and "is not this deal's certificate" in result.output
