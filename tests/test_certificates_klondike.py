"""Klondike's certificates of loss: written by ``Klondike.certifier``, checked by
``checker.klondike``, which knows nothing of the solver (``tests/test_certificates.py``
checks its imports).

What is tested: lost deals certified and checked valid (start-position proofs of one line,
small searches, twins); tampered certificates refused with the fault named; the checker's
rules against the game's (deals, text, successors on random play); each reduction the
checker accepts leaving the verdicts of its own exhaustive search unchanged on twins.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import assert_deals_and_text_agree, checker_won, rewrite, verdicts_kept

import checker.klondike as ck
from checker import certificate as certificate_file
from checker.check import check, start_line
from games._deadlock import stuck_cards
from games.klondike import Klondike, never_events
from solver.certify import certify
from solver.game import Status
from solver.search.result import Budget
from solver.search.base import follow, settle

ALL = frozenset(ck.REDUCTIONS)
DRAW_1, DRAW_3 = Klondike(), Klondike(draw=3)
# A twin with lost deals among its first ones: 5 ranks, 4 columns, draw 3, one pass
TWIN = Klondike(draw=3, passes=1, ranks=5, columns=4)


def variant(game: Klondike) -> dict[str, Any]:
    return {"draw": game.draw, "passes": game.passes, "ranks": game.ranks, "columns": game.columns}


def written(game: Klondike, number: int, path: Path) -> str:
    """Certify deal `number` into `path`; return the written status."""
    return certify(game, game.deal(number), path, deal=number).status


def fault(path: Path, number: int) -> str:
    """Check the certificate at `path` as deal `number`'s ("" when valid)."""
    read = certificate_file.read(path)
    return check(read, start_line(ck, read, ck.deal(number, read.variant)), ck).fault



def lost_twins(count: int) -> list[int]:
    found = [n for n in range(1, 40) if search(variant(TWIN), n, ALL) is False]
    assert len(found) >= count
    return found[:count]


def search(var: dict[str, Any], number: int, reductions: frozenset[str]) -> bool:
    """Whether deal `number` is won, by an exhaustive search with the checker's rules."""
    return checker_won(ck, ck.deal(number, var), var, reductions)


# -- known answers ----------------------------------------------------------------------

@pytest.mark.parametrize("game, number, positions", [
    (DRAW_1, 29, 1),      # stuck cards at the start: the QH and QD wait for a black King
    (DRAW_1, 95, 1),      # the relaxed game at the start
    (DRAW_3, 29, 1),
    (DRAW_1, 31, 200),    # a small search, relaxed-lost positions closed by facts
])
def test_lost_deals_are_certified_and_checked_valid(tmp_path: Path, game: Klondike, number: int,
                                                   positions: int) -> None:
    path = tmp_path / "lost.cert"
    assert written(game, number, path) == "lost"
    read = certificate_file.read(path)
    assert len(read.positions) == positions and fault(path, number) == ""
    if positions == 1:
        assert read.positions[read.start] is not None      # one line, with its facts


def test_lost_twins_are_certified_and_checked_valid(tmp_path: Path) -> None:
    for number in lost_twins(3):
        path = tmp_path / f"{number}.cert"
        assert written(TWIN, number, path) == "lost"
        assert fault(path, number) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    path = tmp_path / "won.cert"
    assert written(DRAW_1, 1, path) == "won" and not path.exists()


# -- tampering --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def deal_31(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("k") / "31.cert"
    assert written(DRAW_1, 31, path) == "lost"
    return path


def test_a_closed_position_removed_is_found(tmp_path: Path, deal_31: Path) -> None:
    read = certificate_file.read(deal_31)
    victim = next(line for line, facts in read.positions.items()
                  if facts is None and line != read.start)
    found = fault(rewrite(deal_31, tmp_path / "t.cert",
                          lambda h, lines: (h, [l for l in lines if l != victim])), 31)
    assert "which is not in the set" in found and victim[:100] in found


def test_a_won_position_added_is_found(tmp_path: Path, deal_31: Path) -> None:
    won = "KKKK 0 * - " + " ".join(["0/"] * 7)
    found = fault(rewrite(deal_31, tmp_path / "t.cert", lambda h, lines: (h, lines + [won])), 31)
    assert found == f"position {won} is won"


def test_the_start_left_out_is_found(tmp_path: Path, deal_31: Path) -> None:
    start = certificate_file.read(deal_31).start
    found = fault(rewrite(deal_31, tmp_path / "t.cert",
                          lambda h, lines: (h, [l for l in lines if l != start])), 31)
    assert "is not in the set" in found


def test_another_deals_certificate_is_refused(deal_31: Path) -> None:
    assert "is not this deal's certificate" in fault(deal_31, 12)


def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path, deal_31: Path) -> None:
    found = fault(rewrite(deal_31, tmp_path / "t.cert", lambda h, lines: (
        {**h, "reductions": h["reductions"] + ["kings-first"]}, lines)), 31)
    assert "'kings-first', which the checker does not accept" in found


def test_facts_that_no_longer_hold_are_refused(tmp_path: Path, deal_31: Path) -> None:
    """A never-event's facts with one card fewer never home, and stuck cards with one
    left out, are no proof: each is refused naming the card."""
    def weaken(h: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        changed = []
        for line in lines:
            position, tab, facts = line.partition("\t")
            if tab and "never" in facts:
                never = json.loads(facts)
                cards = never["never"]["home"].split()
                never["never"]["home"] = " ".join(cards[1:])
                line = position + "\t" + json.dumps(never, separators=(",", ":"))
            changed.append(line)
        return h, changed
    found = fault(rewrite(deal_31, tmp_path / "t.cert", weaken), 31)
    assert "its static proof fails: " in found and (" can " in found or "no card" in found)

    path = tmp_path / "29.cert"
    written(DRAW_1, 29, path)
    def unstick(h: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        position, _, facts = lines[0].partition("\t")
        cards = json.loads(facts)["stuck"].split()
        return h, [position + "\t" + json.dumps({"stuck": " ".join(cards[1:])})]
    found = fault(rewrite(path, tmp_path / "u.cert", unstick), 29)
    assert "its static proof fails" in found and "can" in found


# -- the checker's rules against the game's -----------------------------------------------

@pytest.mark.parametrize("game", [DRAW_1, DRAW_3, TWIN, Klondike(ranks=4, columns=5),
                                  Klondike(draw=1, passes=2, ranks=4, columns=5)])
def test_deals_and_text_agree(game: Klondike) -> None:
    assert_deals_and_text_agree(ck, game, variant(game), ALL)


def random_positions(game: Klondike, count: int, seed: int) -> list[Any]:
    """Settled positions of seeded random play (legal moves, forced moves after each)."""
    rng, found = random.Random(seed), []
    for number in range(1, count + 1):
        _, state = settle(game, game.deal(number))
        for _ in range(rng.randrange(0, 60)):
            moves = game.legal_moves(state)
            if not moves or game.is_won(state):
                break
            _, state = follow(game.play, game.forced, state, rng.choice(moves))
        found.append(state)
    return found


@pytest.mark.parametrize("game", [DRAW_1, DRAW_3, Klondike(draw=3, passes=3), TWIN,
                                  Klondike(ranks=4, columns=5)])
def test_the_checker_reaches_the_writers_successors(game: Klondike) -> None:
    """On random play, the checker's successors (moves, then its automatic moves) encode
    to exactly the writer's (the certifier's moves, then the game's forced)."""
    certifier, var = game.certifier, variant(game)
    moves, compared = certifier.moves, 0
    assert moves is not None
    for state in random_positions(game, 200, 7):
        writer = {certifier.encode(follow(game.play, game.forced, state, move)[1])
                  for move in moves(state)}
        position = ck.decode(certifier.encode(state), var)
        checker = {ck.encode(ck.settle(after, var, ALL), var, ALL)
                   for _, after in ck.moves(position, var, ALL)}
        assert checker == writer, game.format(state)
        compared += len(writer)
    assert compared > 200


@pytest.mark.parametrize("game", [DRAW_1, DRAW_3])
def test_static_proofs_are_confirmed_where_the_game_finds_them(game: Klondike) -> None:
    """Where the relaxed game proves a position lost, the never-events the writer gives
    leave a card never home and the checker confirms them; stuck cards likewise."""
    var, relaxed, confirmed = variant(game), game.rules.relaxed, 0
    for state in random_positions(game, 80, 11):
        events = never_events(state, game.ranks)
        lost = relaxed.lost(state.columns, state.hidden, state.foundations)
        assert bool(events["home"]) == lost
        position = ck.decode(game.certifier.encode(state), var)
        if lost:
            assert ck.check_facts(position, var, {"never": events}) == ""
            confirmed += 1
        stuck = stuck_cards(state.columns, state.hidden, game.ranks)
        if stuck:
            facts = {"stuck": " ".join(ck.card_text(c) for c in stuck)}
            assert ck.check_facts(position, var, facts) == ""
    assert confirmed >= 5


# -- each reduction keeps the verdicts ----------------------------------------------------

SMALL_TWINS = ({"draw": 1, "passes": None, "ranks": 4, "columns": 3},
               {"draw": 2, "passes": 1, "ranks": 4, "columns": 3},
               {"draw": 3, "passes": 1, "ranks": 4, "columns": 3},
               {"draw": 3, "passes": None, "ranks": 4, "columns": 3})
LARGER_TWINS = ({"draw": 3, "passes": 1, "ranks": 4, "columns": 4},
                {"draw": 1, "passes": 2, "ranks": 4, "columns": 4},
                {"draw": 3, "passes": None, "ranks": 4, "columns": 4},
                {"draw": 3, "passes": 1, "ranks": 5, "columns": 4})


@pytest.mark.parametrize("reduction", sorted(ALL))
def test_each_reduction_keeps_the_verdicts(reduction: str) -> None:
    assert verdicts_kept(ck, reduction, ALL, ((var, 30) for var in SMALL_TWINS)) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("reduction", sorted(ALL))
def test_each_reduction_keeps_the_verdicts_of_larger_twins(reduction: str) -> None:
    assert verdicts_kept(ck, reduction, ALL, ((var, 30) for var in LARGER_TWINS)) >= 10


@pytest.mark.parametrize("game, number", [(DRAW_1, 1), (DRAW_3, 2), (Klondike(draw=3, passes=3), 2)])
def test_a_win_replays_with_the_checkers_rules(game: Klondike, number: int) -> None:
    """A solution's steps, in the game's notation, are moves of the checker's own rules
    (no reduction) and end in a win; cut short, they do not."""
    from checker.replay import replay
    from solver.search import find_strategy

    result = find_strategy("dfs")(game, game.deal(number), Budget(max_states=200_000))
    assert result.status is Status.WON
    steps = [game.notation(step) for step in result.moves]         # the verified steps
    start = ck.deal(number, variant(game))
    assert replay(ck, start, variant(game), steps) == ""
    assert "which is not won" in replay(ck, start, variant(game), steps[:-1])
