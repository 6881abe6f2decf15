"""Gaps: PySolFC's layouts and redeals, the rules on hand-written positions, text, notation."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from command_line import runner

from conftest import DATA, read_known
from games import find_game
from games.gaps import GAME, GAP, NO_DEAL, REDEAL, Gaps, Move, State
from solver.app.analyze import solve
from solver.app.cli import app
from solver.cards import make_card, parse_card
from solver.game import DealError, InvalidMoveError, Status
from solver.search import Budget, dfs, portfolio
from solver.verify import check_solution
from symmetry import NO_SYMMETRY


# -- symmetries (tests/test_contract.py checks the key against them) --------------

# rows are dealt in order by a redeal, suits are named by its shuffle: no symmetry (the
# key leaves out the deal number and the stream only where no redeal is left to read them)
SYMMETRY = NO_SYMMETRY


PYSOL_SUIT = (0, 3, 2, 1)           # pysol_cards' suit order is C S H D; ours C D H S


def card(name: str) -> int:
    found = parse_card(name)
    assert found is not None
    return found


# -- PySolFC's code, transcribed ------------------------------------------------------


def pysol_random(number: int):
    """Return PySolFC's generator for deal `number`, after the deal's shuffle, and the talon
    (``Game.shuffle``: MS rearrangement and LCRandom31 up to 32000, MTRandom above)."""
    from pysol_cards.cards import createCards
    from pysol_cards.random import LCRandom31, MTRandom, ms_rearrange

    ms = number <= 32000
    rng = LCRandom31() if ms else MTRandom()
    rng.setSeed(number)
    cards = rng.shuffle(ms_rearrange(createCards(1)) if ms else createCards(1))
    return rng, [make_card(c.rank, PYSOL_SUIT[c.suit]) for c in cards]


def pysol_start(number: int) -> bytes:
    """``Montana.startGame``: the talon's top card to place i, an Ace to the internals."""
    _, talon = pysol_random(number)
    places = []
    for _ in range(52):
        c = talon.pop()
        places.append(GAP if c % 13 == 0 else c)
    return bytes(places)


def pysol_redeal(rng, places: bytes) -> bytes:
    """``Montana_Talon.dealCards`` on our layout with PySolFC's generator `rng`."""
    rows = [list(places[i:i + 13]) for i in range(0, 52, 13)]
    stacks, gaps, talon = [], [], []
    for g in range(4):
        first = rows[g][0]
        in_sequence = first != GAP and first % 13 == 1
        suit = first // 13 if in_sequence else -1
        gap = None
        for j in range(13):
            c = rows[g][j]
            if in_sequence and (c == GAP or c // 13 != suit or c % 13 + 1 != 2 + j):
                in_sequence = False
            if not in_sequence:
                stacks.append((g, j))
                if gap is None:
                    gap = (g, j)
                if c != GAP:
                    talon.append(c)
                    rows[g][j] = GAP
        gaps.append(gap)
    n = len(talon) - 1                      # AShuffleStackMove.redo
    while n > 0:
        j = rng.randint(0, n)
        talon[n], talon[j] = talon[j], talon[n]
        n -= 1
    for g, j in stacks:
        if (g, j) not in gaps:
            rows[g][j] = talon.pop()
    return bytes(c for row in rows for c in row)


@pytest.mark.parametrize("number", [1, 2, 3, 617, 31999, 32001, 1234567])
def test_numbered_deals_are_pysolfc_montana_layouts(number: int) -> None:
    state = GAME.deal(number)
    assert state == State(pysol_start(number), 0, number, 51)
    assert state.places.count(GAP) == 4


def test_deal_1_as_pysolfc_shows_it() -> None:
    rows = GAME.format(GAME.deal(1)).splitlines()[3:]
    assert rows == ["JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S -",
                    "QC KH 3H 2S KS 9D QD JS - - 3C 4C 5C",
                    "TS QH 4H - 4D 7S 3S TD 4S TH 8H 2C JH",
                    "7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"]


@pytest.mark.parametrize("number", [1, 5, 100, 32001, 987654])
def test_redeals_are_pysolfc_redeals_with_its_random_stream(number: int) -> None:
    """Random play to a stuck position, redeal, again, and again with redeals left any
    time: each redeal is PySolFC's, its generator continued from the deal."""
    game = find_game("gaps", {"redeals": 3})
    rng, _ = pysol_random(number)
    choose = random.Random(number)
    state = game.deal(number)
    redeals = 0
    while redeals < 3:
        moves = game.moves(state)
        if moves == [REDEAL]:
            expected = pysol_redeal(rng, state.places)
            state = game.play(state, REDEAL)
            assert state.places == expected
            redeals += 1
            continue
        assert moves and REDEAL not in moves
        state = game.play(state, choose.choice(moves))


# -- rules on a hand-written position ---------------------------------------------------

TWIN = find_game("gaps", {"suits": 2, "ranks": 5, "redeals": 1})
# two rows of five (the Fives play the Kings): a Two-headed clubs row with a gap right
# of it, and a first-place gap
TWIN_TEXT = """\
Deal: 7
2C 3C - 4D 5D
- 3D 4C 2D 5C
"""


def test_legal_moves_on_a_hand_written_position() -> None:
    state = TWIN.parse(TWIN_TEXT)
    assert sorted(TWIN.notation(m) for m in TWIN.moves(state)) == ["2C-2", "2D-2", "4C"]
    assert [TWIN.notation(m) for m in TWIN.moves(state)][0] == "4C"    # extends clubs first


def test_illegal_steps_say_why() -> None:
    state = TWIN.parse(TWIN_TEXT)
    assert TWIN.illegal_reason(state, TWIN.parse_move(state, "4C")) == ""
    assert TWIN.illegal_reason(state, Move(card("3D"), 0)) == "row 1 place 1 is not a gap"
    assert "takes only a Two" in TWIN.illegal_reason(state, Move(card("3D"), 5))
    assert "does not go right of" in TWIN.illegal_reason(state, Move(card("5D"), 2))
    assert "a move is left" in TWIN.illegal_reason(state, REDEAL)
    dead = TWIN.parse("2C 3C 4C 5C -\n2D 3D 4D 5D -\n")
    assert TWIN.illegal_reason(dead, Move(card("5D"), 4)) == "row 1 place 5 is right of a King: dead"
    assert TWIN.moves(dead) == [] and TWIN.illegal_reason(dead, REDEAL) == "the game is won"


def test_redeal_only_when_stuck_unless_any_time() -> None:
    stuck = TWIN.parse("Deal: 7\n3C 5C - 2C 4C\n4D 3D 5D - 2D\n")
    assert TWIN.moves(stuck) == [REDEAL] and TWIN.illegal_reason(stuck, REDEAL) == ""
    after = TWIN.play(stuck, REDEAL)
    assert after.redeals == 1 and TWIN.moves(after) != [] and REDEAL not in TWIN.moves(after)
    assert after.draws == 51 + 7                        # all 8 cards gathered: 7 draws
    assert after.places[0] == GAP and after.places[5] == GAP   # no row kept a sequence
    anytime = find_game("gaps", {"suits": 2, "ranks": 5, "redeal_any_time": True})
    state = anytime.parse(TWIN_TEXT)
    assert REDEAL in anytime.moves(state) and anytime.illegal_reason(state, REDEAL) == ""


def test_redeal_keeps_each_rows_sequence_and_leaves_a_gap_right_of_it() -> None:
    state = TWIN.parse("Deal: 7\n2C 3C 5C - 4C\n3D 5D - 2D 4D\n")     # stuck: both gaps dead
    after = TWIN.play(state, REDEAL)
    assert after.places[:2] == bytes([card("2C"), card("3C")]) and after.places[2] == GAP
    assert after.places[5] == GAP and sorted(after.places[3:5] + after.places[6:]) == \
        sorted(bytes(card(n) for n in ("5C", "4C", "3D", "5D", "2D", "4D")))


def test_suit_rows_take_only_their_two_and_win_in_their_suit() -> None:
    basic = find_game("gaps", {"suits": 2, "ranks": 5, "suit_rows": True, "redeals": 0})
    state = basic.parse(TWIN_TEXT)
    assert sorted(basic.notation(m) for m in basic.moves(state)) == ["2D-2", "4C"]
    assert "takes only the 2D" in basic.illegal_reason(state, Move(card("2C"), 5))
    assert not basic.is_won(basic.parse("2D 3D 4D 5D -\n2C 3C 4C 5C -\n"))
    assert basic.is_won(basic.parse("2C 3C 4C 5C -\n2D 3D 4D 5D -\n"))
    assert TWIN.is_won(TWIN.parse("2D 3D 4D 5D -\n2C 3C 4C 5C -\n"))


def test_key_drops_the_stream_only_once_no_redeal_is_left() -> None:
    state = TWIN.parse(TWIN_TEXT)
    other_seed = state._replace(seed=8)
    assert TWIN.key(state) != TWIN.key(other_seed)
    done = state._replace(redeals=1)
    assert TWIN.key(done) == TWIN.key(done._replace(seed=8, draws=70))


# -- text and notation ------------------------------------------------------------------


def test_a_position_in_play_reads_back_with_its_stream() -> None:
    text = "Deal: 12\nRedeals: 1\nDraws: 90\n" + "\n".join(GAME.format(GAME.deal(12)).splitlines()[3:])
    state = GAME.parse(text)
    assert (state.seed, state.redeals, state.draws) == (12, 1, 90)
    assert GAME.parse(GAME.format(state)) == state
    bare = GAME.parse("\n".join(GAME.format(GAME.deal(12)).splitlines()[3:]))
    assert (bare.seed, bare.redeals, bare.draws) == (0, 0, 51)


@pytest.mark.parametrize("text, why", [("5X", "is not a move"), ("AH", "is not a move"),
                                       ("2H", "name the row"), ("2H-5", "no row 5"),
                                       ("5H-2", "only a Two")])
def test_bad_move_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidMoveError, match=why):
        GAME.parse_move(GAME.deal(1), text)


def test_a_card_right_of_a_rows_last_card_has_no_place() -> None:
    state = GAME.deal(1)                                   # 5C ends row 2
    move = GAME.parse_move(state, "6C")
    assert GAME.illegal_reason(state, move) == "5C ends its row: no place right of it"


# -- known answers ----------------------------------------------------------------------

KNOWN = read_known(DATA / "gaps" / "known.txt")


@pytest.mark.parametrize("record", KNOWN, ids=[r["id"] for r in KNOWN])
def test_known_deals(record: dict[str, str]) -> None:
    options = dict(o.split("=") for o in record.get("variant", "").split())
    game = find_game("gaps", options)
    state = game.deal(int(record["deal"]))
    result = portfolio(game, state, Budget(max_states=200_000))
    assert result.status.value == record["status"]
    check_solution(game, state, result.moves)


def test_twin_verdicts_agree_with_any_time_redeals_giving_more_freedom() -> None:
    """Redealing any time only adds choices: no twin deal won under the rule text's
    redeal is lost when the redeal may come any time."""
    strict = find_game("gaps", {"suits": 3, "ranks": 5, "redeals": 1})
    free = find_game("gaps", {"suits": 3, "ranks": 5, "redeals": 1, "redeal_any_time": True})
    for number in range(1, 61):
        a = dfs(strict, strict.deal(number)).status
        b = dfs(free, free.deal(number)).status
        assert not (a is Status.WON and b is Status.LOST), number


# -- proofs with no redeal left: frozen cards, dead ends and forced steps ----------------

ONE_DEAL_TWINS = [find_game("gaps", {"suits": 3, "ranks": 5, "redeals": 0}),
                  find_game("gaps", {"suits": 3, "ranks": 5, "redeals": 0, "suit_rows": True})]


def legal_steps(game, state: State) -> list[Move]:
    """Every legal step by the verifier's rule check alone (not ``moves``)."""
    return [Move(c, t) for c in game.deck() for t in range(len(state.places))
            if state.places[t] == GAP and game.illegal_reason(state, Move(c, t)) == ""]


def winnable(game, state: State, memo: dict[bytes, bool]) -> bool:
    """Exhaustive search over ``legal_steps``, with no pruning or forced step."""
    if state.places not in memo:
        seen, stack, won = {state.places}, [state], False
        while stack and not won:
            here = stack.pop()
            won = game.is_won(here)
            for step in legal_steps(game, here):
                child = game.play(here, step)
                if child.places not in seen:
                    seen.add(child.places)
                    stack.append(child)
        memo[state.places] = won
    return memo[state.places]


@pytest.mark.parametrize("game", ONE_DEAL_TWINS, ids=["any-two", "suit-rows"])
def test_dead_ends_and_forced_steps_agree_with_exhaustive_search(game) -> None:
    """On positions of random play from twin deals: every position ``dead_end`` calls
    lost is lost, and every forced step keeps the verdict."""
    memo: dict[bytes, bool] = {}
    choose = random.Random(5)
    dead = forced = 0
    for number in range(1, 61):
        state = game.deal(number)
        for _ in range(30):
            if game.dead_end(state):
                dead += 1
                assert not winnable(game, state, memo), game.format(state)
                assert game.moves(state) == []
            for step in game.forced(state):
                forced += 1
                assert winnable(game, state, memo) == \
                    winnable(game, game.play(state, step), memo), game.format(state)
            steps = legal_steps(game, state)
            if not steps:
                break
            state = game.play(state, choose.choice(steps))
    assert dead > 0 and forced > 0


ONE_DEAL_TWIN = ONE_DEAL_TWINS[0]


def test_a_two_in_a_first_place_is_not_locked_while_a_first_place_is_a_gap() -> None:
    """The 2H heads row 1 with the 5H right of it, but row 2's first place is a gap: the
    2H may move there, so nothing is frozen; treating a first place's Two as fixed would
    call this won position lost."""
    state = ONE_DEAL_TWIN.parse("2H 5H 4D 5D 2C\n5C - - 2D 3D\n3C 4C - 3H 4H\n")
    assert not any(ONE_DEAL_TWIN.rules.frozen(state.places))
    assert ONE_DEAL_TWIN.dead_end(state) == ""
    assert dfs(ONE_DEAL_TWIN, state).status is Status.WON


def test_a_frozen_card_out_of_place_is_a_dead_end() -> None:
    """Every first place holds a Two; the 5H stands right of the 2H and can never move
    (the 4H is frozen right of the 3H with the 5C, frozen, right of it)."""
    state = ONE_DEAL_TWIN.parse("2H 5H - 4D 5D\n2D 3D 4C 3H 4H\n2C 3C - 5C -\n")
    assert "5H can never move again" in ONE_DEAL_TWIN.dead_end(state)
    assert ONE_DEAL_TWIN.moves(state) == []
    assert not winnable(ONE_DEAL_TWIN, state, {})
    with_redeal = find_game("gaps", {"suits": 3, "ranks": 5, "redeals": 1})
    assert with_redeal.dead_end(with_redeal.parse(ONE_DEAL_TWIN.format(state))) == ""


def test_forced_step_needs_the_place_right_of_the_card_closed() -> None:
    """The 2D is frozen with a gap right of it, but the 3D has a gap right of it too: the
    win first puts the 4D there, so playing the 3D at once (a looser rule) loses."""
    state = ONE_DEAL_TWIN.parse("2C 3D - 3C 4C\n2D - 4H 5H 5C\n2H 3H 4D 5D -\n")
    looser = ONE_DEAL_TWIN.parse_move(state, "3D")
    assert looser not in ONE_DEAL_TWIN.forced(state)
    assert dfs(ONE_DEAL_TWIN, state).status is Status.WON
    assert dfs(ONE_DEAL_TWIN, ONE_DEAL_TWIN.play(state, looser)).status is Status.LOST
    closed = ONE_DEAL_TWIN.parse("2C - 4D 3C 4C\n2D 3D - 5H 5C\n2H 3H 4H 5D -\n")
    assert [ONE_DEAL_TWIN.notation(m) for m in ONE_DEAL_TWIN.forced(closed)] == ["3C"]


# -- numbers at their edges ---------------------------------------------------------------


@pytest.mark.parametrize("label, value, expected", [
    ("Redeals", "²", "redeals '²': expected a number 0..2"),
    ("Redeals", "٣", "redeals '٣': expected a number 0..2"),
    ("Redeals", "3", "redeals '3': expected a number 0..2"),
    ("Deal", "³", "deal '³': expected a number 1..10**20"),
    ("Deal", "0", "deal '0': expected a number 1..10**20"),
    ("Deal", "1_000", "deal '1_000': expected a number 1..10**20"),
    ("Deal", "1" + "0" * 21, "deal '10000000000000000…': expected a number 1..10**20"),
    ("Draws", "511", "draws '511': expected a number 0..510"),
    ("Draws", "-1", "draws '-1': expected a number 0..510")])
def test_a_number_line_out_of_its_range_is_one_line_naming_it(label: str, value: str,
                                                              expected: str) -> None:
    lines = GAME.format(GAME.deal(1)).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{label}:"))
    lines[at] = f"{label}: {value}"
    with pytest.raises(DealError) as error:
        GAME.parse("\n".join(lines))
    assert str(error.value) == f"gaps deal, line {at + 1}: {expected}"
    assert error.value.line == at + 1


@pytest.mark.parametrize("number", [0, -1, 10 ** 20 + 1, 2 ** 72, 10 ** 22, 10 ** 30])
def test_deal_numbers_outside_1_to_10_to_the_20_are_refused(number: int) -> None:
    with pytest.raises(ValueError, match=r"^deal numbers run from 1 to 10\*\*20, got "):
        GAME.deal(number)


@pytest.mark.parametrize("number", [2 ** 64, 10 ** 20])
def test_the_largest_deal_numbers_deal_redeal_and_key(number: int) -> None:
    state = GAME.deal(number)
    assert GAME.parse(GAME.format(state)) == state and state.seed == number
    stuck = TWIN.parse(f"Deal: {number}\n2C 3C 5C - 4C\n3D 5D - 2D 4D\n")
    after = TWIN.play(stuck, REDEAL)
    assert after.draws == 51 + 5 and len(TWIN.key(stuck)) == len(TWIN.key(TWIN.parse(TWIN_TEXT)))
    assert dfs(GAME, state, Budget(max_states=2_000)).status is Status.UNKNOWN


# -- a board without its deal number: unknown redeals --------------------------------------


def without_deal_line(game: Gaps, number: int) -> str:
    return "".join(line for line in game.format(game.deal(number)).splitlines(keepends=True)
                   if not line.startswith("Deal:"))


def test_a_board_without_a_deal_line_offers_no_redeal_and_reads_back_without_one() -> None:
    text = without_deal_line(TWIN, 3)          # twin deal 3: stuck at once, a redeal left
    state = TWIN.parse(text)
    assert state.seed == NO_DEAL and TWIN.format(state) == text
    assert TWIN.moves(state) == [] and TWIN.moves(TWIN.deal(3)) == [REDEAL]
    assert TWIN.illegal_reason(state, REDEAL) == \
        "the board has no Deal: line, so its redeal is unknown"
    assert TWIN.unknown_future(state) == ("redeal-unknown", REASON)
    assert TWIN.unknown_future(TWIN.deal(3)) is None
    assert TWIN.unknown_future(state._replace(redeals=1)) is None     # none left: nothing unknown


REASON = "the board has no Deal: line, so its redeals are unknown"


@pytest.mark.parametrize("strategy", [None, "dfs", "best_first", "astar"])
def test_a_board_won_only_by_a_redeal_is_unknown_without_its_deal_line(strategy: str | None) -> None:
    # twin deal 3 is won with its redeal and lost without one (Gaps One Deal)
    assert dfs(replace(TWIN, redeals=0), TWIN.deal(3)).status is Status.LOST
    assert solve(TWIN, TWIN.deal(3), strategy).status is Status.WON
    result = solve(TWIN, TWIN.parse(without_deal_line(TWIN, 3)), strategy)
    assert (result.status, result.stopped_by, result.extra["reason"], result.moves) == \
        (Status.UNKNOWN, "redeal-unknown", REASON, ())
    lost = solve(TWIN, TWIN.parse(without_deal_line(TWIN, 1)), strategy)   # lost with its deal
    assert solve(TWIN, TWIN.deal(1), strategy).status is Status.LOST
    assert (lost.status, lost.stopped_by) == (Status.UNKNOWN, "redeal-unknown")


def test_a_board_won_without_a_redeal_is_won_without_its_deal_line() -> None:
    state = TWIN.parse(without_deal_line(TWIN, 6))
    result = solve(TWIN, state, "dfs")
    assert result.status is Status.WON and "reason" not in result.extra
    check_solution(TWIN, state, result.moves)
    shortest = solve(TWIN, state, "astar")       # shortest without a redeal; one might be shorter
    assert (shortest.status, shortest.optimal, shortest.extra["reason"]) == \
        (Status.WON, False, REASON)
    assert solve(TWIN, TWIN.deal(6), "astar").optimal


def test_the_commands_say_why_a_board_without_a_deal_line_is_unknown(tmp_path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(without_deal_line(TWIN, 3))
    twin = ["-V", "suits=2", "-V", "ranks=5", "-V", "redeals=1"]
    solved = runner.invoke(app, ["solve", "gaps", str(board), *twin])
    assert solved.exit_code == 3
    assert solved.stdout.startswith(f"gaps {board}: unknown ({REASON}; not a proof); ")
    hinted = runner.invoke(app, ["hint", "gaps", str(board), *twin])
    assert (hinted.exit_code, hinted.stdout) == \
        (3, f"no winning move found: {REASON} (unknown, not a proof)\n")
    every = runner.invoke(app, ["hint", "gaps", str(board), "--all", *twin])
    assert (every.exit_code, every.stdout) == (3, f"no legal move from here: unknown ({REASON})\n")
    item = json.loads(runner.invoke(app, ["solve", "gaps", str(board), "--json", *twin]).stdout)
    assert (item["status"], item["stopped_by"], item["reason"]) == ("unknown", "redeal-unknown", REASON)
    board.write_text(without_deal_line(TWIN, 6))
    every = runner.invoke(app, ["hint", "gaps", str(board), "--all", "--json", *twin])
    assert [(v["move"], v["status"]) for v in json.loads(every.stdout)] == [("4C", "won")]


# -- the player's view ----------------------------------------------------------------

def test_the_view_sees_every_card_but_not_the_deal_number() -> None:
    from solver.view import Sighted

    position = Sighted.of(GAME, GAME.deal(1))
    unseen = position.unseen()
    assert unseen.cards == () and unseen.future is not None
    masked = position.masked().state
    assert masked.places == GAME.deal(1).places and masked.seed == NO_DEAL
    assert position.masked().look() == Sighted.of(GAME, GAME.deal(1)._replace(seed=7)).look()
    world = position.sample(random.Random(3))
    assert world.places == GAME.deal(1).places and world.seed not in (NO_DEAL, 1)


def test_the_player_may_redeal_a_board_without_its_deal_number() -> None:
    from solver.view import Sighted

    stuck = TWIN.parse("3C 5C - 2C 4C\n4D 3D 5D - 2D\n")         # no Deal: line
    assert TWIN.moves(stuck) == [] and TWIN.unknown_future(stuck) is not None
    position = Sighted.of(TWIN, stuck)
    assert position.steps() == [REDEAL] and position.masked().steps() == [REDEAL]
    world = position.sample(random.Random(1))
    assert TWIN.illegal_reason(world, REDEAL) == ""
    redealt = TWIN.play(world, REDEAL)
    assert redealt.redeals == 1 and sorted(redealt.places) == sorted(stuck.places)
    done = TWIN.play(stuck._replace(seed=7), REDEAL)            # no redeal left: no future
    assert Sighted.of(TWIN, done).unseen().future is None


def test_a_redeal_in_a_drawn_world_deals_each_order_alike() -> None:
    """Four cards gathered (24 orders): the redeals of 960 drawn worlds come out alike
    (chi-square at the 0.1% level, 23 degrees of freedom, fixed seed)."""
    from solver.view import Sighted

    game = find_game("gaps", {"suits": 2, "ranks": 6, "redeals": 1, "redeal_any_time": True})
    state = game.parse("2C 3C 4C 5D - 6C\n2D 3D 4D 6D 5C -\n")
    position = Sighted.of(game, state)
    rng = random.Random(11)
    counts: dict[bytes, int] = {}
    for _ in range(960):
        dealt = game.play(position.sample(rng), REDEAL).places
        counts[dealt] = counts.get(dealt, 0) + 1
    assert len(counts) == 24
    assert sum((c - 40) ** 2 / 40 for c in counts.values()) < 49.73   # chi2(23) at 0.001
