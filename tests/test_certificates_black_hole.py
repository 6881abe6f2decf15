"""Black Hole's certificates of loss: written by ``BlackHole.certifier``, checked by
``checker/black_hole.py``; the checker's rules, reductions and static proofs against the
game's and against exhaustive search."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import checked_against, checker_won

from checker import black_hole as ck
from checker import certificate as certificate_file
from checker.check import check, start_line
from games.black_hole import GAME, BlackHole, State
from solver.cards import card_str
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs

ALL = frozenset(ck.REDUCTIONS)
NONE: frozenset[str] = frozenset()
TWIN4, TWIN7 = BlackHole(ranks=4), BlackHole(ranks=7)
REAL_LOST = (1, 25, 27, 29, 34, 858)        # PySolFC deals 1-1000 lost, each certified fast


def variant(game: BlackHole) -> dict[str, Any]:
    return {"ranks": game.ranks}


def lost_twin_deals(game: BlackHole, count: int) -> list[int]:
    found = [n for n in range(1, 300)
             if dfs(game, game.deal(n), Budget(max_states=200_000)).status is Status.LOST]
    assert len(found) >= count
    return found[:count]


def checked(path: Path, game: BlackHole, number: int) -> str:
    return str(checked_against(ck, path, number).fault)


def exact_line(state: State) -> str:
    """The checker's LINE with no reduction, written from the game's own cards."""
    piles = ["".join(map(card_str, pile)) or "-" for pile in state.piles]
    return " ".join([card_str(state.foundation), *piles])


# -- known answers ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [TWIN4, TWIN7], ids=["ranks4", "ranks7"])
def test_lost_twin_deals_are_certified_and_checked_valid(tmp_path: Path, game: BlackHole) -> None:
    for number in lost_twin_deals(game, 4):
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert written.status == "lost", number
        assert checked(path, game, number) == "", number


def test_real_lost_deals_are_certified_and_checked_valid(tmp_path: Path) -> None:
    facts = 0
    for number in REAL_LOST:
        path = tmp_path / f"{number}.cert"
        written = certify(GAME, GAME.deal(number), path, deal=number)
        assert written.status == "lost", number
        assert checked(path, GAME, number) == "", number
        facts += written.closed_by_facts
    assert facts > 0                             # the static proofs were used and confirmed


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    assert certify(GAME, GAME.deal(6), tmp_path / "6.cert", deal=6).status == "won"
    assert not (tmp_path / "6.cert").exists()


# -- tampering ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bh") / "858.cert"
    assert certify(GAME, GAME.deal(858), path, deal=858).status == "lost"
    return path


def fault(certificate: certificate_file.Certificate, number: int = 858) -> str:
    expected = start_line(ck, certificate, ck.deal(number, certificate.variant))
    return check(certificate, expected, ck).fault


def test_tampering_a_closed_position_removed(written: Path) -> None:
    read = certificate_file.read(written)
    line = next(line for line, facts in sorted(read.positions.items())
                if facts is None and line != read.start)
    del read.positions[line]
    assert "which is not in the set" in fault(read)


def test_tampering_a_won_position_added(written: Path) -> None:
    read = certificate_file.read(written)
    read.positions[" ".join(["5"] + ["-"] * 17)] = None
    assert fault(read).endswith("is won")


def test_tampering_the_start_left_out(written: Path) -> None:
    read = certificate_file.read(written)
    del read.positions[read.start]
    assert "is not in the set" in fault(read)


def test_tampering_another_deals_certificate(written: Path) -> None:
    assert "is not this deal's certificate" in fault(certificate_file.read(written), 1)


def test_tampering_facts_changed_so_the_proof_fails(written: Path) -> None:
    read = certificate_file.read(written)
    line, facts = next((line, facts) for line, facts in sorted(read.positions.items())
                       if facts is not None)
    read.positions[line] = {"proof": "unreachable", "rank": line[0]}   # the foundation's own
    assert "its static proof fails" in fault(read)
    read.positions[line] = facts
    assert fault(read) == ""
    read.positions[read.start] = {"proof": "no-walk"}                   # the start has a walk
    assert "its static proof fails: the step counts" in fault(read)


def test_tampering_a_reduction_the_checker_does_not_accept(written: Path) -> None:
    read = certificate_file.read(written)
    read.header["reductions"] = [*read.header["reductions"], "suit-symmetry"]
    assert "does not accept" in fault(read)


def test_a_line_not_in_canonical_form_is_refused(written: Path) -> None:
    read = certificate_file.read(written)
    line = next(line for line, facts in sorted(read.positions.items())
                if facts is None and line != read.start and line.split()[1] == "-")
    head, first, second, *rest = line.split(" ")
    read.positions[" ".join([head, second, first, *rest])] = read.positions.pop(line)
    assert fault(read)


# -- the checker's rules against the game's ----------------------------------------------------


def random_positions(game: BlackHole, deals: range, seed: int) -> list[State]:
    """Positions met by random legal play from the deals, seeded."""
    chooser = random.Random(seed)
    found = []
    for number in deals:
        state = game.deal(number)
        while True:
            found.append(state)
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.play(state, chooser.choice(legal))
    return found


@pytest.mark.parametrize("game", [GAME, TWIN4, TWIN7], ids=["ranks13", "ranks4", "ranks7"])
def test_the_checkers_moves_are_the_writers(game: BlackHole) -> None:
    certifier = game.certifier
    assert certifier.moves is not None and certifier.forced is not None
    for state in random_positions(game, range(1, 40), seed=28):
        position = ck.parse(game.format(state), variant(game))
        assert ck.encode(position, variant(game), NONE) == exact_line(state)
        assert ck.encode(position, variant(game), ALL) == certifier.encode(state)
        assert certifier.forced(state) == []
        for reductions in (NONE, ALL):
            ours = {ck.encode(ck.settle(after, variant(game), reductions), variant(game),
                              reductions)
                    for _, after in ck.moves(position, variant(game), reductions)}
            line = exact_line if reductions == NONE else certifier.encode
            assert ours == {line(game.play(state, move)) for move in certifier.moves(state)}
        assert ck.is_won(position, variant(game)) == game.is_won(state)


@pytest.mark.parametrize("game", [GAME, TWIN4, TWIN7], ids=["ranks13", "ranks4", "ranks7"])
def test_the_checkers_deals_are_the_games(game: BlackHole) -> None:
    numbers = [*range(1, 60), 999, 32000, 32001, 123_456, 10**9]
    for number in numbers:
        assert ck.encode(ck.deal(number, variant(game)), variant(game), NONE) == \
            exact_line(game.deal(number)), number


def test_decode_reads_back_what_encode_writes() -> None:
    for state in random_positions(GAME, range(1, 10), seed=5):
        position = ck.parse(GAME.format(state), variant(GAME))
        for reductions in (NONE, ALL, frozenset({"ranks"}), frozenset({"piles-sorted"})):
            line = ck.encode(position, variant(GAME), reductions)
            assert ck.encode(ck.decode(line, variant(GAME)), variant(GAME), reductions) == line
    for bad in ("", "A", "A " + "AAAA " * 17, "AS " + "X " * 17, "Z" + " -" * 17):
        with pytest.raises(ValueError):
            ck.decode(bad, variant(GAME))


def test_the_writers_facts_are_confirmed_wherever_viable_proves_a_loss() -> None:
    seen = 0
    for game in (GAME, TWIN7):
        for state in random_positions(game, range(1, 200), seed=9):
            facts = game.dead_facts(state)
            if facts is not None:
                seen += 1
                position = ck.parse(game.format(state), variant(game))
                assert ck.check_facts(position, variant(game), facts) == "", facts
    assert seen > 100


# -- reductions and static proofs against exhaustive search with the checker's own rules --------


@pytest.mark.parametrize("game", [TWIN4, TWIN7], ids=["ranks4", "ranks7"])
def test_each_reduction_keeps_the_verdict(game: BlackHole) -> None:
    rules = variant(game)
    verdicts = set()
    for number in range(1, 66):
        start = ck.deal(number, rules)
        each = {checker_won(ck, start, rules, frozenset(r))
                for r in ((), ("ranks",), ("piles-sorted",), ("ranks", "piles-sorted"))}
        assert len(each) == 1, number
        assert each == {dfs(game, game.deal(number)).status is Status.WON}, number
        verdicts |= each
    assert verdicts == {True, False}


def reachable_positions(game: BlackHole, deals: range) -> list[ck.Position]:
    """Every position the checker's rules reach from the deals, one a LINE (no reduction)."""
    rules, found = variant(game), {}
    for number in deals:
        stack = [ck.deal(number, rules)]
        while stack:
            position = stack.pop()
            line = ck.encode(position, rules, NONE)
            if line not in found:
                found[line] = position
                stack.extend(after for _, after in ck.moves(position, rules, NONE))
    return list(found.values())


@pytest.mark.parametrize("game", [TWIN4, TWIN7], ids=["ranks4", "ranks7"])
def test_each_static_proof_holds_only_at_lost_positions(game: BlackHole) -> None:
    rules = variant(game)
    proven = {"unreachable": 0, "no-walk": 0}
    positions = reachable_positions(game, range(1, 30)) if game.ranks == 4 else \
        [ck.parse(game.format(state), rules)
         for state in random_positions(game, range(1, 120), seed=3)]
    for position in positions:
        claims = [{"proof": "no-walk"}, *({"proof": "unreachable", "rank": r}
                                          for r in ck.RANKS[:game.ranks])]
        for facts in claims:
            if ck.check_facts(position, rules, facts) == "":
                proven[facts["proof"]] += 1
                assert not checker_won(ck, position, rules, ALL), (facts, ck.encode(position, rules, ALL))
    if game.ranks == 7:                 # four ranks: a cycle too short to cut off often
        assert min(proven.values()) > 0, proven


def test_solve_writes_and_check_confirms_a_certificate(tmp_path: Path) -> None:
    from test_cli import run

    path = tmp_path / "29.cert"
    result = run("solve", "black-hole", "--deal", "29", "--certificate", str(path))
    assert result.exit_code == 1 and path.exists()
    result = run("check", str(path), "black-hole", "--deal", "29")
    assert result.exit_code == 0 and result.output.startswith("valid: black-hole deal 29 is lost")
    result = run("check", str(path), "black-hole", "--deal", "25")
    assert result.exit_code == 1 and "is not this deal's certificate" in result.output


def test_the_checker_replays_a_win_and_refuses_a_changed_one() -> None:
    from checker.replay import replay

    for game, number in ((GAME, 6), (TWIN7, 1)):
        result = dfs(game, game.deal(number))
        assert result.status is Status.WON
        notations = [game.notation(move) for move in result.moves]
        start = ck.deal(number, variant(game))
        assert replay(ck, start, variant(game), notations) == ""
        assert "is not legal" in replay(ck, start, variant(game), notations[1:])
        assert "not won" in replay(ck, start, variant(game), notations[:-1])
