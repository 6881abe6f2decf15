"""CrissCross: hand-checked games, the rulings, the text format and the scored search."""
from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from command_line import runner

from conftest import DATA, quick_first, read_known
from games import find_game
from games.crisscross import (GAME, NO_DEAL, PLACE, RESHUFFLE, SCRAP, Move, State, reshuffled,
                              tiles_of)
from solver.app.analyze import solve
from solver.app.cli import app
from solver.game import DealError, IllegalMoveError, InvalidMoveError, Status, twins
from solver.search import Budget, dfs
from solver.search.scored import scored
from solver.verify import replay, replay_notation
from symmetry import Symmetry, bag, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

# no rule names an arm once started, and only its open end is read again
SYMMETRY = Symmetry(
    lambda s, rng: s._replace(arms=tuple(shuffled(s.arms, rng))),
    lambda s: (bag(arm[-1] & 15 for arm in s.arms), s.draw, s.scrap, s.reshuffles,
               s.placed, s.seed))


KNOWN = read_known(DATA / "crisscross" / "known.txt")

# double-1 set (0-0, 1-0, 1-1), doubles may not start an arm: 0-0 and 1-1 are scrapped, 1-0
# starts arm 1 with 0 or 1 open; the reshuffle brings back both doubles, and only the one
# matching the open end goes on. The next pass places nothing: one tile left whatever the
# choice and the reshuffle's order.
ONE_LEFT = "Deal: 5\nDraw: 0-0 1-1 1-0\nArm 1: -\nArm 2: -\nArm 3: -\nArm 4: -\n"


def test_a_hand_checked_game_ends_with_one_tile_left_proven():
    game = find_game("crisscross", {"double": 1, "no_double_starts": "true"})
    state = game.parse(ONE_LEFT)
    result = scored(game, state)
    assert (result.status, result.score) == (Status.LOST, -1)
    final = replay(game, state, result.moves)
    assert game.moves(final) == [] and game.score(final) == -1
    assert [game.notation(m) for m in result.moves][:2] == ["x", "x"]
    assert dfs(game, state).status is Status.LOST


# double-2 set, three arms open at 1, 2 and 0. The 1-1 goes on arm 1 (1 still open); then
# the 2-1 fits arm 1 (leaving 2 open: the 2-2 follows on an arm open at 2, a win) or arm 2
# (leaving 1 open: no end is 2 any more, the 2-2 is scrapped for good, one tile left).
CHOICE = "Placed: yes\nDraw: 1-1 2-1 2-2\nArm 1: 0-1\nArm 2: 0-2\nArm 3: 0-0\n"


def test_a_hand_checked_choice_wins_or_leaves_one_tile():
    game = find_game("crisscross", {"double": 2, "arms": 3})
    state = game.play(game.parse(CHOICE), Move(PLACE, 0, 0x11))
    assert [game.notation(m) for m in game.moves(state)] == ["1-2>1", "2-1>2"]
    good, bad = (scored(game, game.play(state, m)) for m in game.moves(state))
    assert (good.status, good.score, bad.status, bad.score) == (Status.WON, 0, Status.LOST, -1)
    result = scored(game, game.parse(CHOICE))
    assert [game.notation(m) for m in result.moves] == ["1-1>1", "1-2>1", "2-2>1"]


@pytest.mark.parametrize("record", KNOWN, ids=[r["id"] for r in KNOWN])
def test_known_answers(record):
    game = find_game("crisscross", json.loads(record.get("variant", "{}")))
    state = game.deal(int(record["deal"])) if "deal" in record else game.parse(
        (DATA / "crisscross" / record["file"]).read_text(encoding="utf-8"))
    result = scored(game, state)
    assert (result.status.value, result.score) == (record["status"], int(record["score"]))
    if "moves" in record:
        final = replay_notation(game, state, record["moves"].split())
        assert game.score(final) == int(record["score"]) and game.moves(final) == []


# -- the rules and rulings ----------------------------------------------------------------

def test_a_tile_that_fits_must_be_placed_and_may_go_any_way_it_fits():
    state = GAME.parse("Placed: yes\nDraw: 6-2 " + " ".join(
        f"{h}-{l}" for h in range(7) for l in range(h + 1) if (h, l) not in ((6, 2), (2, 0), (6, 5)))
        + "\nArm 1: 0-2\nArm 2: 5-6\nArm 3: -\nArm 4: -\n")
    assert [GAME.notation(m) for m in GAME.moves(state)] == ["2-6>1", "6-2>2", "6-2>3", "2-6>3"]
    assert "must be" in GAME.illegal_reason(state, Move(SCRAP, 0, 0))
    assert "does not match" in GAME.illegal_reason(state, Move(PLACE, 0, 0x62)) or \
        "first" in GAME.illegal_reason(state, Move(PLACE, 0, 0x62))
    assert GAME.illegal_reason(state, Move(PLACE, 3, 0x62)) != ""   # arm 4 before arm 3


def test_a_tile_with_no_place_is_scrapped_and_the_heap_comes_back_reshuffled():
    game = find_game("crisscross", {"double": 1})
    state = State((b"\x10",) * 4, b"\x11", b"\x10", 0, True, 9)
    assert game.moves(state) == [Move(SCRAP, 0, 0)] == game.forced(state)
    after = game.play(state, Move(SCRAP, 0, 0))
    assert after.draw == b"" and after.scrap == b"\x10\x11"
    assert game.moves(after) == [Move(RESHUFFLE, 0, 0)]
    again = game.play(after, Move(RESHUFFLE, 0, 0))
    assert (again.draw, again.scrap, again.reshuffles, again.placed) == \
        (reshuffled(9, 1, b"\x10\x11"), b"", 1, False)
    assert sorted(again.draw) == [0x10, 0x11]


def test_a_pass_that_places_nothing_ends_the_game():
    game = find_game("crisscross", {"double": 1})
    over = State((b"\x00",) * 4, b"", b"\x11", 2, False, 1)
    assert game.moves(over) == [] and game.score(over) == -1 and not game.is_won(over)
    assert "placed no tile" in game.illegal_reason(over, Move(RESHUFFLE, 0, 0))


def test_reshuffles_depend_on_seed_count_and_tiles_only():
    heap = bytes([0x00, 0x10, 0x11, 0x20, 0x21, 0x22])
    assert reshuffled(3, 2, heap) == reshuffled(3, 2, bytes(reversed(heap)))
    assert len({reshuffled(seed, count, heap) for seed in (1, 2) for count in (1, 2)}) > 1


def test_numbered_deals_are_the_documented_shuffle():
    tiles = tiles_of(6)
    random.Random(42).shuffle(tiles)
    assert GAME.deal(42) == State((), bytes(tiles), b"", 0, False, 42)
    assert len(tiles) == 28 and len(set(tiles)) == 28


def test_variants_cross_first_and_doubles():
    first = find_game("crisscross", {"cross_first": "true"})
    state = first.parse("Placed: yes\nDraw: 6-2 " + " ".join(
        f"{h}-{l}" for h in range(7) for l in range(h + 1) if (h, l) not in ((6, 2), (2, 0)))
        + "\nArm 1: 0-2\nArm 2: -\nArm 3: -\nArm 4: -\n")
    assert [first.notation(m) for m in first.moves(state)] == ["6-2>2", "2-6>2"]
    assert "not formed" in first.illegal_reason(state, Move(PLACE, 0, 0x26))
    no_doubles = find_game("crisscross", {"no_double_starts": "true", "double": 1})
    assert no_doubles.moves(no_doubles.parse("Draw: 1-1 0-0 1-0\nArm 1: -\nArm 2: -\n"
                                             "Arm 3: -\nArm 4: -\n")) == [Move(SCRAP, 0, 0)]
    five = find_game("crisscross", {"arms": 5})
    assert five.parse(five.format(five.deal(3))) == five.deal(3)


# -- text and notation ----------------------------------------------------------------------

def test_notation_reads_back_and_a_wrong_tile_is_refused():
    state = GAME.deal(1)                                   # 6-2 is drawn first
    assert GAME.parse_move(state, "2-6>1") == Move(PLACE, 0, 0x26)
    assert GAME.parse_move(state, "6-2 x") == Move(SCRAP, 0, 0)
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(state, "6-3 x")
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(state, "6-2>9")
    with pytest.raises(IllegalMoveError, match="tile drawn is 6-2"):
        replay_notation(GAME, state, ["6-3>1"])
    with pytest.raises(IllegalMoveError, match="can be placed"):
        replay_notation(GAME, state, ["x"])


def test_a_mid_game_position_round_trips_with_its_heap_reshuffles_and_deal():
    text = (DATA / "crisscross" / "midgame.txt").read_text(encoding="utf-8")
    state = GAME.parse(text)
    assert (state.reshuffles, state.placed, state.seed, len(state.arms)) == (1, True, 6619, 4)
    assert GAME.parse(GAME.format(state)) == state


def test_bad_text_is_one_error_naming_every_problem():
    with pytest.raises(DealError) as caught:
        GAME.parse("Draw: 6-2 6-2 9-9\nArm 1: -\n")
    assert "duplicate" in str(caught.value) and "9-9" in str(caught.value)


# -- the scored search against an independent enumeration ------------------------------------

def best_by_enumeration(game, state) -> int:
    """Return the best score by trying every line of play (memo on exact positions only)."""
    @functools.lru_cache(maxsize=None)
    def best(s):
        moves = game.moves(s)
        return game.score(s) if not moves else max(best(game.play(s, m)) for m in moves)
    return best(state)


@pytest.mark.parametrize("twin", quick_first(twins(GAME), twins(GAME)[:1] + twins(GAME)[2:]), ids=lambda t: str(t))
def test_the_scored_search_finds_the_best_score_on_twins(twin):
    scores = set()
    for number in range(1, 41):
        state = twin.deal(number)
        result = scored(twin, state)
        expected = best_by_enumeration(twin, state)
        assert result.score == expected, number
        assert result.status is (Status.WON if expected == 0 else Status.LOST)
        assert twin.score(replay(twin, state, result.moves)) == expected
        scores.add(expected)
    assert scores  # every twin decided


def test_the_scored_search_under_a_tiny_budget_is_unknown_with_the_best_found():
    game = find_game("crisscross", {"double": 4, "arms": 3, "no_double_starts": "true"})
    lost = next(n for n in range(1, 200) if scored(game, game.deal(n)).status is Status.LOST)
    exact = scored(game, game.deal(lost))
    cut = scored(game, game.deal(lost), Budget(max_states=3))
    assert cut.status is Status.UNKNOWN and cut.stopped_by == "max-states"
    assert cut.score is None or cut.score <= exact.score


def test_solve_json_and_classify_carry_the_score(tmp_path):
    result = runner.invoke(app, ["solve", "crisscross", "--deal", "2", "--json"])
    item = json.loads(result.stdout)
    assert item["status"] == "won" and item["score"] == 0 and result.exit_code == 0
    out = tmp_path / "r.jsonl"
    done = runner.invoke(app, ["classify", "crisscross", "1-5", "--out", str(out), "-q",
                               "-V", "double=4", "-V", "arms=3", "-V", "no_double_starts=true"])
    assert done.exit_code == 0, done.stderr
    assert all("score" in json.loads(line) for line in out.read_text().splitlines())
    assert "score over 5 deals" in done.stdout and "scores: " in done.stdout


# -- numbers at their edges ---------------------------------------------------------------

@pytest.mark.parametrize("line, expected", [
    ("Deal: ³", "deal '³': expected a whole number 1..10**12"),
    ("Deal: ٣", "deal '٣': expected a whole number 1..10**12"),
    ("Deal: 0", "deal '0': expected a whole number 1..10**12"),
    ("Deal: 1000000000001", "deal '1000000000001': expected a whole number 1..10**12"),
    ("Reshuffles: ²", "reshuffles '²': expected a whole number 0..28"),
    ("Reshuffles: 29", "reshuffles '29': expected a whole number 0..28"),
    ("Reshuffles: -1", "reshuffles '-1': expected a whole number 0..28")])
def test_a_number_line_out_of_its_range_is_one_line_naming_it(line, expected):
    text = f"{line}\n" + "".join(GAME.format(GAME.deal(1)).splitlines(keepends=True)[2:])
    with pytest.raises(DealError) as error:
        GAME.parse(text)
    assert str(error.value) == f"crisscross deal, line 1: {expected}"


def test_digits_of_other_scripts_name_no_arm_and_no_tile():
    text = GAME.format(GAME.deal(1))
    with pytest.raises(DealError, match="'Arm ٣: -' is not a line of the format"):
        GAME.parse(text.replace("Arm 3: -", "Arm ٣: -"))
    with pytest.raises(DealError, match="unreadable tile '٦-2'"):
        GAME.parse(text.replace("Draw: 6-2", "Draw: ٦-2"))
    for move in ("٦-2>1", "6-2>١", "6-٢ x"):
        with pytest.raises(InvalidMoveError):
            GAME.parse_move(GAME.deal(1), move)


@pytest.mark.parametrize("number", [0, -1, 10 ** 12 + 1, 2 ** 64, 10 ** 30])
def test_deal_numbers_outside_1_to_10_to_the_12_are_refused(number):
    with pytest.raises(ValueError, match=r"^deal numbers run from 1 to 10\*\*12, got "):
        GAME.deal(number)


def test_the_largest_deal_number_reads_back_and_reshuffles():
    state = GAME.deal(10 ** 12)
    assert GAME.parse(GAME.format(state)) == state
    assert scored(GAME, state, Budget(max_states=2_000)).score is not None


# -- a position without its deal number: unknown reshuffles ---------------------------------

REASON = "the board has no Deal: line, so its reshuffles are unknown"
THREE_ARMS = find_game("crisscross", {"double": 3, "arms": 3})


def without_deal_line(game, state):
    return "".join(line for line in game.format(state).splitlines(keepends=True)
                   if not line.startswith("Deal:"))


def test_a_position_without_a_deal_line_offers_no_reshuffle_and_reads_back_without_one():
    game = find_game("crisscross", {"double": 1, "no_double_starts": "true"})
    text = ONE_LEFT.replace("Deal: 5\n", "")
    state = game.parse(text)
    assert state.seed == NO_DEAL and game.parse(game.format(state)) == state
    assert "Deal:" not in game.format(state)
    ended = replay_notation(game, state, ["x", "x", "1-0>1"])        # the heap: 0-0, 1-1
    assert game.moves(ended) == [] and game.illegal_reason(ended, Move(RESHUFFLE, 0, 0)) == \
        "the board has no Deal: line, so its reshuffle is unknown"
    assert game.unknown_future(ended) == ("reshuffle-unknown", REASON)
    assert game.unknown_future(ended._replace(placed=False)) is None     # the game is over
    assert game.unknown_future(game.parse(ONE_LEFT)) is None


def test_a_best_score_that_needs_a_reshuffle_is_unknown_without_the_deal_line():
    game = find_game("crisscross", {"double": 1, "no_double_starts": "true"})
    proven = solve(game, game.parse(ONE_LEFT))
    assert (proven.status, proven.score) == (Status.LOST, -1)
    found = solve(game, game.parse(ONE_LEFT.replace("Deal: 5\n", "")))
    assert (found.status, found.score, found.stopped_by, found.extra["reason"]) == \
        (Status.UNKNOWN, -2, "reshuffle-unknown", REASON)
    # double-3 deal 3 with three arms: won with its reshuffles, one tile left without
    deal = THREE_ARMS.deal(3)
    assert solve(THREE_ARMS, deal).status is Status.WON
    unknown = solve(THREE_ARMS, THREE_ARMS.parse(without_deal_line(THREE_ARMS, deal)))
    assert (unknown.status, unknown.score, unknown.stopped_by) == \
        (Status.UNKNOWN, -1, "reshuffle-unknown")


def test_a_win_without_a_reshuffle_is_won_without_the_deal_line():
    deal = THREE_ARMS.deal(1)
    state = THREE_ARMS.parse(without_deal_line(THREE_ARMS, deal))
    result = solve(THREE_ARMS, state)
    assert (result.status, result.score) == (Status.WON, 0) and "reason" not in result.extra
    assert THREE_ARMS.is_won(replay(THREE_ARMS, state, result.moves))


def test_the_commands_say_why_the_score_is_not_proven(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(ONE_LEFT.replace("Deal: 5\n", ""))
    variant = ["-V", "double=1", "-V", "no_double_starts=true"]
    solved = runner.invoke(app, ["solve", "crisscross", str(board), *variant])
    assert solved.exit_code == 3
    assert solved.stdout.splitlines()[0].startswith(
        f"crisscross {board}: unknown ({REASON}; not a proof), score -2 (best found, 3 moves)")
    hinted = runner.invoke(app, ["hint", "crisscross", str(board), *variant])
    assert hinted.stdout == f"play x: scrap 0-0 (score -2 from here, the best found ({REASON}), " \
        "in 3 moves)\n"


# -- the player's view ----------------------------------------------------------------

def test_the_view_hides_the_draw_piles_order_and_the_deal_number() -> None:
    from solver.view import Sighted

    state = GAME.deal(1)
    position = Sighted.of(GAME, state)
    unseen = position.unseen()
    assert len(unseen.cards) == 27 and unseen.future is not None    # the tile drawn shows
    masked = position.masked().state
    assert masked.draw == state.draw[:1] + bytes(sorted(state.draw[1:]))
    assert masked.seed == NO_DEAL
    assert position.look() == Sighted.of(GAME, GAME.deal(1)._replace(seed=5)).look()
    step = position.steps()[0]
    after = position.play(step)                     # the next tile drawn shows in its turn
    assert len(after.unseen().cards) == 26
    assert after.masked().state.draw[0] == state.draw[1]


def _heap_of_four() -> tuple[Any, State]:
    """Return the double-3 twin and a position whose pass is over, four tiles in the heap,
    with no deal number."""
    game = find_game("crisscross", {"double": 3})
    arm = bytes((0x00, 0x01, 0x11, 0x12, 0x22, 0x20))
    return game, State((arm,), b"", bytes(sorted((0x30, 0x31, 0x32, 0x33))), 0, True, NO_DEAL)


def test_the_player_may_reshuffle_without_the_deal_number() -> None:
    from solver.view import Sighted

    game, state = _heap_of_four()
    assert game.moves(state) == [] and game.unknown_future(state) is not None
    position = Sighted.of(game, state)
    assert position.steps() == [Move(RESHUFFLE, 0, 0)] == position.safe()
    world = position.sample(random.Random(2))
    assert world.seed != NO_DEAL and game.illegal_reason(world, Move(RESHUFFLE, 0, 0)) == ""


def test_a_reshuffle_in_a_drawn_world_deals_each_order_alike() -> None:
    """Four tiles in the heap (24 orders): the reshuffles of 960 drawn worlds come out
    alike (chi-square at the 0.1% level, 23 degrees of freedom, fixed seed)."""
    from solver.view import Sighted

    game, state = _heap_of_four()
    position = Sighted.of(game, state)
    rng = random.Random(11)
    counts: dict[bytes, int] = {}
    for _ in range(960):
        draw = game.play(position.sample(rng), Move(RESHUFFLE, 0, 0)).draw
        counts[draw] = counts.get(draw, 0) + 1
    assert len(counts) == 24
    assert sum((c - 40) ** 2 / 40 for c in counts.values()) < 49.73   # chi2(23) at 0.001
