"""Crescent's certificates of loss: the checker's rules (``checker/crescent.py``) against the
game's, its one reduction, lost twin deals certified and checked, and tampering refused.

Full Crescent deals are out of reach of exhaustive search (none among the first 200 is
known lost: data/crescent/winnability.md), so the lost deals here are small twins'
(``Crescent.twins``); the full game's deals, text and moves are compared all the same.
"""
from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from certificate_tools import rewrite

from checker import certificate as certificate_file
from checker import crescent as ck
from checker.check import check, start_line
from checker.replay import replay
from games.crescent import GAME, Crescent, State
from solver.certify import certify
from solver.game import Status
from solver.search import Budget, dfs

TWINS = [replace(GAME, **options) for options in GAME.twins]
SMALL = TWINS[0]                     # 2 suits of 4 ranks, 3 piles, 1 redeal
PILE_ORDER = frozenset({"pile-order"})
NONE: frozenset[str] = frozenset()
# every variant the rules tests walk: the full game and its presets, the twins, and twins
# with worry_back or bases_move alone
WALKED = [GAME, replace(GAME, redeals=4), replace(GAME, worry_back=True, bases_move=True),
          *TWINS, replace(SMALL, worry_back=True), replace(SMALL, bases_move=True, redeals=2)]


def variant(game: Crescent) -> dict[str, Any]:
    return dataclasses.asdict(game)


def position(state: State) -> ck.Position:
    """The checker's position of a game position, field by field (not through the text)."""
    return (tuple(tuple((c // 13, c % 13 + 1) for c in pile) for pile in state.piles),
            tuple(state.up), tuple(state.down), state.redeals)


def lost_deals(game: Crescent, count: int, most: int = 5_000) -> list[int]:
    """The first `count` deals exhaustive search proves lost storing at most `most` positions."""
    found = []
    for number in range(1, 200):
        result = dfs(game, game.deal(number))
        if result.status is Status.LOST and result.stored <= most:
            found.append(number)
            if len(found) == count:
                return found
    raise AssertionError("too few small lost deals")


def checked(path: Path, game: Crescent, number: int | None) -> str:
    read = certificate_file.read(path)
    expected = None if number is None else start_line(ck, read, ck.deal(number, variant(game)))
    return check(read, expected, ck).fault


# -- the checker's rules against the game's -------------------------------------------------

@pytest.mark.parametrize("number", [*range(1, 21), 31_999, 32_000, 32_001, 123_456])
def test_the_checkers_deals_are_pysolfcs(number: int) -> None:
    """Both sides of 32000: Microsoft's generator up to it, the Mersenne Twister above."""
    assert ck.deal(number, variant(GAME)) == position(GAME.deal(number))


def test_the_checkers_twin_deals_are_the_games() -> None:
    for game in TWINS:
        for number in range(1, 51):
            assert ck.deal(number, variant(game)) == position(game.deal(number))


def walk(game: Crescent, number: int, steps: int, seed: int) -> list[State]:
    """The positions of a seeded random line of play from deal `number`."""
    rng, state, seen = random.Random(seed), game.deal(number), []
    for _ in range(steps):
        seen.append(state)
        moves = list(game.moves(state))
        if not moves:
            break
        state = game.play(state, rng.choice(moves))
    return seen


KINDS = {"home": r"\d+-[ak]", "build": r"\d+-\d+", "meet": r"[ak][CDHS]-[ak]",
         "worry back": r"[ak][CDHS]-\d+", "redeal": r"r"}


@pytest.mark.parametrize("game", WALKED, ids=lambda g: ",".join(
    f"{k}={v}" for k, v in variant(g).items() if v != variant(GAME)[k]) or "default")
def test_the_checker_allows_the_games_steps_and_no_other(game: Crescent) -> None:
    """On random-play positions: the same steps, in the same notation, to the same
    positions; the same encoding as the writer's; text and LINE round trips; the same
    wins. The twins with worry_back and bases_move see every kind of step."""
    options, kinds = variant(game), set()
    for number in range(1, 9):
        for state in walk(game, number, 150, seed=number):
            here = position(state)
            assert ck.parse(game.format(state), options) == here
            assert ck.decode(ck.encode(here, options, NONE), options) == here
            assert ck.encode(here, options, PILE_ORDER) == game.certificate_line(state)
            ours = {game.notation(m): position(game.play(state, m)) for m in game.moves(state)}
            theirs = list(ck.moves(here, options, PILE_ORDER))
            assert dict(theirs) == ours and len(theirs) == len(ours)
            assert {ck.encode(ck.settle(after, options, PILE_ORDER), options, PILE_ORDER)
                    for _, after in theirs} == \
                {game.certificate_line(game.play(state, m)) for m in game.moves(state)}
            assert ck.is_won(here, options) == game.is_won(state)
            kinds |= {kind for kind, form in KINDS.items()
                      for name in ours if re.fullmatch(form, name)}
    if game.worry_back and game.bases_move and game.suits == 2:
        assert kinds == set(KINDS)


def test_the_parser_reads_comments_face_down_markers_and_left_out_lines() -> None:
    text = GAME.format(GAME.deal(1)).splitlines()
    piles = "\n".join(" ".join(f"<{c}>" for c in line.split()[:-1]) + " " + line.split()[-1]
                      for line in text[3:])
    assert ck.parse(f"# deal 1\n{piles}\n", variant(GAME)) == ck.deal(1, variant(GAME))


@pytest.mark.parametrize("change, fault", [
    (lambda lines: lines[:-1], "15 piles, 16 expected"),
    (lambda lines: lines[:3] + ["4D " + lines[3]] + lines[4:], "3 copies of 4D"),
    (lambda lines: ["Aces: C-2 D-A H-A S-A"] + lines[1:], "3 copies of 2C"),
    (lambda lines: lines[:2] + ["Redeals: 4"] + lines[3:], "4 redeals made, at most 3"),
    (lambda lines: lines[:2] + ["Redeals: ٣"] + lines[3:], "unreadable line"),
    (lambda lines: ["Aces: C-A C-A H-A S-A"] + lines[1:], "each of the 4 suits once"),
    (lambda lines: lines[:3] + [lines[3].replace("3D", "3X")] + lines[4:], "unreadable card"),
])
def test_the_parser_refuses_a_text_that_is_no_position(change: Any, fault: str) -> None:
    lines = GAME.format(GAME.deal(1)).splitlines()
    with pytest.raises(ValueError, match=fault):
        ck.parse("\n".join(change(lines)), variant(GAME))


@pytest.mark.parametrize("line", ["", "11/44/0/-/-", "11/44/x/-/-/-", "11/44/0/-/-/2C",
                                  "1Z/44/0/1C2C3C4C/1D2D3D4D/1C2C3C4C", "11/44/0/-/-/-/-"])
def test_decode_refuses_a_line_that_is_no_position(line: str) -> None:
    with pytest.raises(ValueError):
        ck.decode(line, variant(SMALL))


def test_variants_the_checker_does_not_know_are_named() -> None:
    options = variant(GAME)
    assert ck.variant_problem(options) == ""
    assert "knows no option 'decks'" in ck.variant_problem({**options, "decks": 2})
    assert "redeals must be" in ck.variant_problem({**options, "redeals": 10})
    assert "worry_back must be" in ck.variant_problem({**options, "worry_back": 1})


# -- the reduction ---------------------------------------------------------------------------

def checker_search(start: ck.Position, options: dict[str, Any],
                   reductions: frozenset[str]) -> tuple[bool, int]:
    """Exhaustive search with the checker's own rules: (won, positions seen)."""
    seen, stack = {ck.encode(start, options, reductions)}, [start]
    while stack:
        here = stack.pop()
        if ck.is_won(here, options):
            return True, len(seen)
        for _, after in ck.moves(here, options, reductions):
            after = ck.settle(after, options, reductions)
            line = ck.encode(after, options, reductions)
            if line not in seen:
                seen.add(line)
                stack.append(after)
    return False, len(seen)


# The smallest twin by default (its deals both won and lost); the larger two with -m slow.
@pytest.mark.parametrize("game", [pytest.param(TWINS[1], marks=pytest.mark.slow),
                                  pytest.param(TWINS[2], marks=pytest.mark.slow),
                                  replace(GAME, suits=1, ranks=5, piles=3, redeals=0,
                                          worry_back=True)],
                         ids=["2x3-wb-bm", "1x5-wb-bm", "1x5-3piles-wb"])
def test_pile_order_keeps_every_verdict(game: Crescent) -> None:
    """With and without ``pile-order``, the checker's own exhaustive search gives the same
    verdict (the game's too) on every deal tried, won and lost both occurring; on a lost
    deal the reduction never sees more positions."""
    options, verdicts = variant(game), set()
    for number in range(1, 31):
        start = ck.deal(number, options)
        won, with_it = checker_search(start, options, PILE_ORDER)
        won_without, without = checker_search(start, options, NONE)
        assert won_without == won and (won or with_it <= without)
        assert (dfs(game, game.deal(number)).status is Status.WON) == won
        verdicts.add(won)
    assert verdicts == {True, False}


# -- certificates written and checked ---------------------------------------------------

@pytest.mark.parametrize("game", TWINS, ids=["2x4", "2x3-wb-bm", "1x5-wb-bm"])
def test_lost_twin_deals_are_certified_and_checked_valid(game: Crescent, tmp_path: Path) -> None:
    """The certificate holds exactly the positions exhaustive search stores: the same
    steps, and the same symmetry (the piles' order) as the search's key."""
    for number in lost_deals(game, 3):
        path = tmp_path / f"{number}.cert"
        written = certify(game, game.deal(number), path, deal=number)
        assert written.status == "lost" and written.closed_by_facts == 0
        assert written.positions == dfs(game, game.deal(number)).stored
        assert checked(path, game, number) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    won = next(n for n in range(1, 100) if dfs(SMALL, SMALL.deal(n)).status is Status.WON)
    path = tmp_path / "won.cert"
    assert certify(SMALL, SMALL.deal(won), path).status == "won" and not path.exists()


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    number = lost_deals(SMALL, 1)[0]
    path = tmp_path_factory.mktemp("cert") / f"{number}.cert"
    assert certify(SMALL, SMALL.deal(number), path, deal=number).status == "lost"
    return number, path



def test_a_closed_position_removed_is_found(written: tuple[int, Path], tmp_path: Path) -> None:
    number, path = written
    start = certificate_file.read(path).start
    victim = next(line for line in certificate_file.read(path).positions if line != start)
    fault = checked(rewrite(path, tmp_path / "t.cert", lambda h, ls: (h, [l for l in ls if l != victim])),
                    SMALL, number)
    assert "which is not in the set" in fault and victim in fault


def test_a_won_position_added_is_found(written: tuple[int, Path], tmp_path: Path) -> None:
    number, path = written
    won = "44/AA/0/-/-/-"
    assert ck.is_won(ck.decode(won, variant(SMALL)), variant(SMALL))
    fault = checked(rewrite(path, tmp_path / "t.cert", lambda h, ls: (h, ls + [won])), SMALL, number)
    assert fault == f"position {won} is won"


def test_the_start_left_out_is_found(written: tuple[int, Path], tmp_path: Path) -> None:
    number, path = written
    start = certificate_file.read(path).start
    fault = checked(rewrite(path, tmp_path / "t.cert", lambda h, ls: (h, [l for l in ls if l != start])),
                    SMALL, number)
    assert fault.startswith(f"the start {start} is not in the set")


def test_another_deals_certificate_is_refused(written: tuple[int, Path]) -> None:
    number, path = written
    other = next(n for n in range(1, 100) if n != number)
    assert "is not this deal's certificate" in checked(path, SMALL, other)


def test_facts_are_refused_for_crescent_has_no_static_proof(written: tuple[int, Path],
                                                          tmp_path: Path) -> None:
    """Every lost verdict of Crescent comes from exhaustive search; a position closed by
    facts instead of its moves is refused, whatever the facts say."""
    number, path = written
    read = certificate_file.read(path)
    victim = next(line for line in read.positions if line != read.start)
    fault = checked(rewrite(path, tmp_path / "t.cert", lambda h, ls: (
        h, [l + '\t{"dead":true}' if l == victim else l for l in ls])), SMALL, number)
    assert "knows no static proof" in fault


def test_a_reduction_the_checker_does_not_accept_is_refused(written: tuple[int, Path],
                                                            tmp_path: Path) -> None:
    number, path = written
    fault = checked(rewrite(path, tmp_path / "t.cert", lambda h, ls: (
        {**h, "reductions": ["pile-order", "suit-order"]}, ls)), SMALL, number)
    assert "'suit-order', which the checker does not accept" in fault


def test_piles_out_of_order_are_not_canonical(written: tuple[int, Path], tmp_path: Path) -> None:
    number, path = written

    def unsort(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        line = next(l for l in lines if len(set(l.split("/")[3:])) > 1)
        head, piles = line.split("/")[:3], line.split("/")[3:]
        return header, lines + ["/".join(head + sorted(piles, reverse=True))]
    assert "is not written in its canonical form" in checked(
        rewrite(path, tmp_path / "t.cert", unsort), SMALL, number)


def test_another_variants_certificate_is_refused(written: tuple[int, Path],
                                                 tmp_path: Path) -> None:
    """A certificate read as one of another variant (a redeal more, or worry_back) fails:
    the positions it holds are not closed under that variant's rules."""
    number, path = written
    more = rewrite(path, tmp_path / "t.cert", lambda h, ls: ({**h, "variant": {
        **h["variant"], "redeals": 2}}, ls))
    assert "which is not in the set" in checked(more, SMALL, None)
    back = rewrite(path, tmp_path / "u.cert", lambda h, ls: ({**h, "variant": {
        **h["variant"], "worry_back": True}}, ls))
    assert "which is not in the set" in checked(back, SMALL, None)


# -- the command line --------------------------------------------------------------------------

TWIN_OPTIONS = [arg for k, v in GAME.twins[0].items() for arg in ("-V", f"{k}={v}")]


def test_solve_writes_and_check_confirms_a_twins_certificate(written: tuple[int, Path],
                                                             tmp_path: Path) -> None:
    from test_cli import run

    number, _ = written
    path = tmp_path / "cli.cert"
    result = run("solve", "crescent", *TWIN_OPTIONS, "--deal", str(number), "--strategy", "dfs",
                 "--certificate", str(path))
    assert result.exit_code == 1 and path.exists()
    result = run("check", str(path), "crescent", *TWIN_OPTIONS, "--deal", str(number))
    assert result.exit_code == 0 and result.output.startswith(f"valid: crescent deal {number} is lost")
    result = run("check", str(path), "crescent", *TWIN_OPTIONS, "--deal", str(number + 1))
    assert result.exit_code == 1 and "is not this deal's certificate" in result.output


# A full game's position, lost: the clubs' two foundations wait for a 6 and an 8 that lie
# under other clubs, one redeal left.
LOST_CLUBS = """Aces: C-5 D-K H-K S-K
Kings: C-9 D-A H-A S-A
Redeals: 2
5C 7C 4C 6C
AC QC KC
7C 6C 8C
9C TC 8C
3C JC 2C
""" + "-\n" * 11


def test_a_full_games_lost_position_is_certified_from_its_file(tmp_path: Path) -> None:
    """The full rules (16 piles, 13 ranks), a position read from a file: the certificate
    has no deal number, and check confirms it against the file's text."""
    from test_cli import run

    deal, path = tmp_path / "clubs.txt", tmp_path / "clubs.cert"
    deal.write_text(LOST_CLUBS)
    result = run("solve", "crescent", str(deal), "--strategy", "dfs", "--certificate", str(path))
    assert result.exit_code == 1 and certificate_file.read(path).deal is None
    assert len(certificate_file.read(path).positions) == dfs(GAME, GAME.parse(LOST_CLUBS)).stored
    result = run("check", str(path), "crescent", str(deal))
    assert result.exit_code == 0 and result.output.startswith("valid: crescent the position")
    deal.write_text(LOST_CLUBS.replace("Redeals: 2", "Redeals: 3"))
    result = run("check", str(path), "crescent", str(deal))
    assert result.exit_code == 1 and "is not this deal's certificate" in result.output


@pytest.mark.parametrize("options, number", [([], 1), pytest.param(
    ["-V", "worry_back=true", "-V", "bases_move=true"], 2, marks=pytest.mark.slow)])
def test_check_replays_won_deals_with_the_checkers_rules(options: list[str], number: int,
                                                         tmp_path: Path) -> None:
    from test_cli import run

    solved = run("solve", "crescent", *options, "--deal", str(number), "--json")
    assert solved.exit_code == 0
    path = tmp_path / "solution.json"
    path.write_text(solved.stdout)
    result = run("check", str(path), "crescent", *options, "--deal", str(number))
    assert result.exit_code == 0 and result.output.startswith(f"valid: crescent deal {number} is won")
    moves = json.loads(solved.stdout)["moves"]
    path.write_text(" ".join(moves[:-1]))
    assert run("check", str(path), "crescent", *options, "--deal", str(number)).exit_code == 1


def test_twin_solutions_replay_with_the_checkers_rules() -> None:
    for game in TWINS:
        options = variant(game)
        for number in range(1, 41):
            result = dfs(game, game.deal(number))
            if result.status is Status.WON:
                steps = [game.notation(m) for m in result.moves]
                assert replay(ck, ck.deal(number, options), options, steps) == ""


# -- the longer runs ------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", TWINS, ids=["2x4", "2x3-wb-bm", "1x5-wb-bm"])
def test_every_lost_twin_deal_of_the_first_100_is_certified_and_valid(game: Crescent,
                                                                      tmp_path: Path) -> None:
    lost = 0
    for number in range(1, 101):
        if dfs(game, game.deal(number)).status is Status.LOST:
            path = tmp_path / f"{number}.cert"
            assert certify(game, game.deal(number), path, deal=number,
                           budget=Budget(max_states=2_000_000)).status == "lost"
            assert checked(path, game, number) == ""
            lost += 1
    assert lost > 0

