"""Chris-Cross Pairs: numbered deals, hand-checked positions, the rules of a turn.

What every game owes the engine (round trips, legal play, keys, twins, bad deals) is in
tests/test_contract.py. The main check here is that a turn played as steps reaches
exactly the positions the rules' turn reaches: an independent enumeration of whole turns
(every set of disjoint pairs, every choice of slides, the rows closed) is compared with
the positions the steps reach, on positions of random plays.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from conftest import DATA, random_play, read_known
from games import find_game
from games.chris_cross_pairs import (CLOSE, DEAL, EMPTY, GAME, HOLE, PAIR, PHASE_1, PHASE_2,
                                     ROTATE, SLIDE, START, Move, State)
from solver.cards import card_str, parse_card, pysol_deck_order
from solver.game import DealError, IllegalMoveError, InvalidMoveError, Status, quote, twins
from solver.search import Budget, bfs, dfs, without_forced
from solver.verify import check_solution, replay_notation
from solver.view import Sighted
from symmetry import Symmetry, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

def pairs_image(state: Any, rng: random.Random) -> Any:
    """Ranks renamed one to one, suits exchanged within each rank, another round number
    (the rules compare ranks only for equality and never read the round)."""
    ranks = sorted({cell % 64 % 13 for cell in state.grid if cell < 254} | {c % 13 for c in state.stock})
    suits = sorted({cell % 64 // 13 for cell in state.grid if cell < 254} | {c // 13 for c in state.stock})
    renamed = dict(zip(ranks, shuffled(ranks, rng)))
    recolour = {r: dict(zip(suits, shuffled(suits, rng))) for r in ranks}

    def image(card: int) -> int:
        return recolour[card % 13][card // 13] * 13 + renamed[card % 13]
    grid = bytes(cell if cell >= 254 else (cell & 64) | image(cell & 63) for cell in state.grid)
    return state._replace(grid=grid, stock=bytes(map(image, state.stock)),
                          round=rng.randint(1, 20))


def pairs_canonical(state: Any) -> Hashable:
    """The cells and the stock with ranks named in order of first appearance, the phase."""
    names: dict[int, int] = {}

    def name(card: int) -> int:
        return names.setdefault(card % 13, len(names))
    grid = tuple(cell if cell >= 254 else (cell & 64, name(cell & 63)) for cell in state.grid)
    return grid, tuple(map(name, state.stock)), state.phase


SYMMETRY = Symmetry(pairs_image, pairs_canonical)



def grid(*rows: str, size: int = 5) -> bytes:
    """Return the cells of rows written as card names (a row's cards from the left)."""
    cells = bytearray([EMPTY]) * (size * size)
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            cells[r * size + c] = parse_card(token)  # type: ignore[assignment]
    return bytes(cells)


def made(*rows: str, stock: str = "", phase: int = PHASE_1, round_: int = 1) -> State:
    """Return a full game's position (the cards not named are cast out already)."""
    return State(grid(*rows), bytes(parse_card(t) for t in stock.split()), phase, round_)  # type: ignore[misc]


def place(name: str) -> int:
    return (int(name[1]) - 1) * 5 + "abcde".index(name[0])


def notations(state: State, moves: list[Move]) -> set[str]:
    return {GAME.notation(m) for m in moves}


# -- numbered deals -----------------------------------------------------------------------


def test_deal_1_fills_the_tableau_down_the_columns_and_the_rest_is_the_stock():
    """PySolFC's order for deal 1 (the talon's first card first): JD 2D 9H JC 5D go down
    column 1, 7H 7C 5H KD KC down column 2, ...; the 26th card, 5C, is the stock's next."""
    order = pysol_deck_order(1)
    assert " ".join(map(card_str, order[:10])) == "JD 2D 9H JC 5D 7H 7C 5H KD KC"
    state = GAME.deal(1)
    assert [card_str(state.grid[r * 5 + c]) for c in range(2) for r in range(5)] == \
        "JD 2D 9H JC 5D 7H 7C 5H KD KC".split()
    assert state.stock == bytes(order[25:]) and card_str(state.stock[0]) == "5C"
    assert (state.phase, state.round) == (START, 1)
    assert GAME.format(state).splitlines()[4:] == [
        "JD 7H 9S 3H JS", "2D 7C 5S 2S AS", "9H 5H AD KS AH", "JC KD QC 9D 3C", "5D KC KH QD 4C"]


def test_a_twin_deals_the_same_shuffle_with_its_own_cards():
    twin = replace(GAME, size=3, ranks=8, suits=2)
    order = [c for c in pysol_deck_order(5) if c % 13 < 8 and c // 13 < 2]
    state = twin.deal(5)
    assert [state.grid[r * 3 + c] for c in range(3) for r in range(3)] == order[:9]
    assert state.stock == bytes(order[9:])


KNOWN = read_known(DATA / "chris_cross_pairs" / "known.txt")


@pytest.mark.parametrize("record", KNOWN, ids=[r["id"] for r in KNOWN])
def test_known_deals(record):
    state = GAME.deal(int(record["deal"]))
    result = dfs(GAME, state, Budget(max_states=200_000))
    assert result.status is Status(record["status"])
    if result.status is Status.WON:
        check_solution(GAME, state, result.moves)
    if record.get("pairs") == "none":          # lost at once: the first round finds no pair
        assert GAME.legal_moves(state) == [] and not independent_pairs(state.grid, 5)


def test_every_loss_in_the_first_150_deals_is_a_deal_with_no_pair_at_all():
    """Deals 1-150 by exhaustive search: a deal is lost exactly when its first round finds
    no pair (deals 4 and 106), by the independent pair finder below."""
    lost = []
    for number in range(1, 151):
        state = GAME.deal(number)
        result = dfs(GAME, state, Budget(max_states=200_000))
        assert result.status is not Status.UNKNOWN, number
        if result.status is Status.LOST:
            lost.append(number)
            assert not independent_pairs(state.grid, 5), number
    assert lost == [4, 106]


# -- the rules of a turn, hand-checked --------------------------------------------------------

# Four Aces on the full main diagonal (a1 b2 c3 d4 e5); the 5s at e1 and e5 pair in
# column e; the anti-diagonal (e1 d2 c3 b4 a5) is full too but holds no pair.
ACES = made("AS 2C 3C 4C 5C", "6C AH 7C 8C", "9C TC AD JC", "QC KC 2D AC", "3D 4D 5D 6D 5H")


def test_pairs_in_a_column_and_on_a_full_diagonal():
    assert notations(ACES, GAME.moves(ACES)) == {
        "e1+e5", "a1+b2", "a1+c3", "a1+d4", "b2+c3", "b2+d4", "c3+d4"}


def test_a_diagonal_full_when_the_turn_began_still_counts_after_a_pair_left_it():
    """After e1+e5 the main diagonal has a cast-out place at e5: its Aces still pair this
    turn (more pairs, then the slides into e1 and e5, or the close)."""
    after = GAME.play(ACES, Move(PAIR, place("e1"), place("e5")))
    assert after.phase == PHASE_1
    assert notations(after, GAME.moves(after)) == {
        "a1+b2", "a1+c3", "a1+d4", "b2+c3", "b2+d4", "c3+d4", "close"}
    both = GAME.play(after, Move(PAIR, place("a1"), place("c3")))
    assert notations(both, GAME.legal_moves(both)) == {"b2+d4", "a2-a1", "c2-c3", "c4-c3",
                                                       "close"}
    assert GAME.illegal_reason(both, Move(PAIR, place("b2"), place("c3"))) == "c3 holds no card"


def test_a_diagonal_short_of_a_card_holds_no_pair_and_the_close_shifts_rows_left():
    """Once e5 is gone and the rows close, row 5 has four cards: the main diagonal is not
    full and its Aces do not pair any more."""
    state = ACES
    for step in ("e1+e5", "close"):
        state = GAME.play(state, GAME.parse_move(state, step))
    assert GAME.format(state).splitlines()[4:] == [
        "AS 2C 3C 4C", "6C AH 7C 8C", "9C TC AD JC", "QC KC 2D AC", "3D 4D 5D 6D"]
    assert GAME.illegal_reason(state, GAME.parse_move(state, "a1+b2")) == \
        "the diagonal does not hold five cards"
    assert GAME.legal_moves(state) == [Move(ROTATE, 0, 0)]


def test_the_slide_choices_after_a_pair_and_which_of_them_win():
    """7H a1, 5S b1 / 5H a2 / 7C a3: the 7s pair in column a. Into a1 the 5H may slide up,
    into a3 the 5H may slide down (not both), or neither. Closing with the 5H up puts it
    beside the 5S in row 1 (no pair, and phase 2's rotation keeps them in one row: lost);
    closing without a slide, or with the 5H down, leaves 5S over 5H in column a (won)."""
    start = made("7H 5S", "5H", "7C")
    assert notations(start, GAME.legal_moves(start)) == {"a1+a3"}
    cast = GAME.play(start, Move(PAIR, place("a1"), place("a3")))
    assert notations(cast, GAME.legal_moves(cast)) == {"a2-a1", "a2-a3", "close"}
    verdicts = {}
    for line in ("close", "a2-a1 close", "a2-a3 close"):
        state = cast
        for step in line.split():
            state = GAME.play(state, GAME.parse_move(state, step))
        verdicts[line] = dfs(GAME, state, Budget(max_states=1000)).status
    assert verdicts == {"close": Status.WON, "a2-a1 close": Status.LOST,
                        "a2-a3 close": Status.WON}
    up = GAME.play(cast, Move(SLIDE, place("a2"), place("a1")))
    assert GAME.illegal_reason(up, Move(SLIDE, place("a2"), place("a3"))) == "a2 holds no card"
    assert GAME.illegal_reason(up, Move(PAIR, place("a1"), place("b1"))) == \
        "a card has slid this turn: no more pairs until the rows close"


def test_a_hand_checked_short_game_deal_slide_close_and_win():
    """Phase 2, round 3, 7H 7C side by side in row 1, 9D 9S in the stock. No pair: the
    round ends; round 4 fills a2 and a3 (column a, top down) with 9D and 9S. The 9s pair;
    the 7H slides down into a2 (a3 takes nothing: above it is a cast-out place), the rows
    close: 7C over 7H in column a, the last pair. Closing without the slide leaves the 7s
    in one row, rotated to 7C 7H and still one row: lost. So the only win is these 5
    steps, and the shortest."""
    start = made("7H 7C", stock="9D 9S", phase=PHASE_2, round_=3)
    line = "deal a2+a3 a1-a2 close a1+a2".split()
    after_deal = GAME.play(start, Move(DEAL, 0, 0))
    assert GAME.format(after_deal).splitlines()[:2] == ["Round: 4", "Phase: start"]
    assert GAME.format(after_deal).splitlines()[4:7] == ["7H 7C", "9D", "9S"]
    end = replay_notation(GAME, start, line)      # won: no card left, a1 a2 cast out
    assert GAME.is_won(end) and (end.phase, end.round) == (PHASE_1, 4)
    assert end.grid == bytes([HOLE if p in (0, 5) else EMPTY for p in range(25)])
    assert GAME.legal_moves(end) == [] and GAME.illegal_reason(end, Move(CLOSE, 0, 0)) == \
        "the game is won: no card is left"
    result = bfs(GAME, start, Budget(max_states=10_000))
    assert result.status is Status.WON and [GAME.notation(m) for m in result.moves] == line
    lost = replay_notation(GAME, start, "deal a2+a3 close".split())
    assert GAME.legal_moves(lost) == [Move(ROTATE, 0, 0)]
    rotated = GAME.play(lost, Move(ROTATE, 0, 0))
    assert GAME.format(rotated).splitlines()[1:2] + GAME.format(rotated).splitlines()[4:5] == \
        ["Phase: 2", "7C 7H"]
    assert GAME.legal_moves(rotated) == []            # stock empty: no round follows
    assert GAME.illegal_reason(rotated, Move(DEAL, 0, 0)) == "the stock is empty: no round follows"


def test_phase_2_rotates_rows_of_fewer_than_five_cards_once():
    state = made("AS 2C 3C 4C 5C", "6C 7C 8C", "9C", "", "TC JC")
    rotated = GAME.play(state, Move(ROTATE, 0, 0))
    assert GAME.format(rotated).splitlines()[4:] == ["AS 2C 3C 4C 5C", "7C 8C 6C", "9C", "-",
                                                     "JC TC"]
    assert GAME.illegal_reason(rotated, Move(ROTATE, 0, 0)) == \
        "phase 2 has begun already this round"


def test_a_round_that_finds_no_pair_is_lost_even_with_a_stock():
    state = made("AS 2C", stock="AD 2D", phase=START)
    assert GAME.legal_moves(state) == [] and GAME.forced(state) == []
    assert GAME.illegal_reason(state, Move(ROTATE, 0, 0)) == \
        "no pair went in phase 1: the game is lost"
    assert dfs(GAME, state, Budget(max_states=100)).status is Status.LOST


def test_a_new_round_fills_column_by_column_as_far_as_the_stock_lasts():
    """Empty places a3, a5 (column a), b2, b3, b5 (column b), then c2 takes the last card."""
    state = made("AS 2C 3C", "4C", "", "5C 6C", stock="7C 8C 9C TC JC QC", phase=PHASE_2)
    dealt = GAME.play(state, Move(DEAL, 0, 0))
    assert GAME.format(dealt).splitlines()[4:] == ["AS 2C 3C", "4C 9C QC", "7C TC", "5C 6C",
                                                   "8C JC"]
    assert dealt.stock == b"" and (dealt.phase, dealt.round) == (START, 2)
    assert GAME.illegal_reason(state, Move(DEAL, 0, 0)) == ""
    assert GAME.illegal_reason(made("AS", "AD", phase=PHASE_2, stock="2C"),
                               Move(DEAL, 0, 0)) == "a pair is left to cast out"


def test_illegal_steps_say_why():
    cast = GAME.play(ACES, Move(PAIR, place("e1"), place("e5")))
    reasons = {
        (ACES, "a1+a2"): "AS and 6C are not of one rank",
        (ACES, "a1+e2"): "e2 holds no card",
        (ACES, "close"): "no pair has been cast out this turn",
        (ACES, "rotate"): "a pair is left to cast out",
        (cast, "e2-e1"): "e2 holds no card",
        (cast, "d1-e1"): "d1 is not directly above or below e1",
        (cast, "a1-a2"): "a2 is not a place cast out this turn and still open",
        (cast, "deal"): "a turn is under way: close it first",
        (made("AS 2C", "AD"), "a1+b1"): "AS and 2C are not of one rank",
        (made("AS 2C", "2D"), "b1+a2"): "b1 and a2 are in no one column or diagonal",
    }
    for (state, text), reason in reasons.items():
        assert GAME.illegal_reason(state, GAME.parse_move(state, text)) == reason, text
    with pytest.raises(IllegalMoveError):
        replay_notation(GAME, ACES, ["e1+e5", "close", "a1+b2"])


def test_move_notation_reads_back_and_bad_notation_is_refused():
    assert GAME.parse_move(ACES, "E5+e1") == Move(PAIR, place("e1"), place("e5"))
    assert GAME.parse_move(ACES, " a1 - a2 ") == Move(SLIDE, 0, 5)
    assert GAME.parse_move(ACES, "ROTATE") == Move(ROTATE, 0, 0)
    for text in ("f1+a1", "a6-a5", "a1", "pass", ""):
        with pytest.raises(InvalidMoveError):
            GAME.parse_move(ACES, text)


def test_describe_names_the_cards():
    cast = GAME.play(ACES, Move(PAIR, place("e1"), place("e5")))
    assert GAME.describe(ACES, Move(PAIR, place("e1"), place("e5"))) == \
        "cast out 5C (e1) and 5H (e5)"
    assert GAME.describe(cast, Move(SLIDE, place("d1"), place("d2"))).startswith("slide")
    assert GAME.describe(made("AS"), Move(CLOSE, 0, 0)) == "close the gaps in every row, to the left"


# -- text ---------------------------------------------------------------------------------


def test_a_position_with_a_turn_under_way_reads_with_its_holes_and_slid_cards():
    """A twin of ranks A-7, phase 2: c1 cast out this turn (x), the 7D slid into c2 from
    c3 (now empty), b2 empty where a card slid out of row 2 earlier in the turn."""
    twin = replace(GAME, ranks=7)
    text = ("Round: 2\nPhase: 2\nStock: 7C\n"
            "Waste: 3C 4C 5C 6C AD 3D 4D 5D 6D AH 2H 3H 4H 5H 6H 7H 2S 3S 4S 5S 6S 7S\n"
            "AS 2C x . AC\n2D . 7D*\n-\n-\n-\n")
    state = twin.parse(text)
    assert state.grid[:5] == bytes([parse_card("AS"), parse_card("2C"), HOLE, EMPTY,
                                    parse_card("AC")])
    assert state.grid[5:10] == bytes([parse_card("2D"), EMPTY, 64 | parse_card("7D"),
                                      EMPTY, EMPTY])
    assert (card_str(state.stock[0]), state.phase, state.round) == ("7C", PHASE_2, 2)
    assert twin.format(state) == text
    assert notations(state, twin.legal_moves(state)) == {"close"}    # c1: above none, below slid


def test_a_fresh_deal_reads_without_its_header_lines():
    rows = GAME.format(GAME.deal(7)).splitlines()
    assert GAME.parse("\n".join(rows[2:3] + rows[4:])) == GAME.deal(7)


# -- keys ----------------------------------------------------------------------------------


def test_keys_ignore_suits_rank_names_and_the_round_but_not_the_phase_or_holes():
    a = made("7H 7C 9S", "9D")
    b = made("KS KD 2C", "2S", round_=5)           # 7 -> K, 9 -> 2, other suits
    assert GAME.key(a) == GAME.key(b)
    assert GAME.key(a) != GAME.key(a._replace(phase=PHASE_2))
    assert GAME.key(a) != GAME.key(made("7H 9C 9S", "7D"))
    holed = State(a.grid[:2] + bytes([HOLE]) + a.grid[3:], a.stock, PHASE_1, 1)
    gapped = State(a.grid[:2] + bytes([EMPTY]) + a.grid[3:], a.stock, PHASE_1, 1)
    assert GAME.key(holed) != GAME.key(gapped)


# -- a turn as steps reaches exactly the rules' turns ------------------------------------------


def independent_pairs(cells: bytes, size: int) -> list[tuple[int, int]]:
    """The pairs of a position between turns, from the rule text: equal ranks in a column,
    or on a diagonal all of whose places hold a card."""
    rows = [[cells[r * size + c] for c in range(size) if cells[r * size + c] != EMPTY]
            for r in range(size)]
    lines = [[(r, c) for r in range(size) if c < len(rows[r])] for c in range(size)]
    for diagonal in ([(i, i) for i in range(size)], [(i, size - 1 - i) for i in range(size)]):
        if all(c < len(rows[r]) for r, c in diagonal):
            lines.append(diagonal)
    found = []
    for line in lines:
        for (r1, c1), (r2, c2) in itertools.combinations(line, 2):
            if rows[r1][c1] % 13 == rows[r2][c2] % 13:
                found.append((r1 * size + c1, r2 * size + c2))
    return found


def independent_turns(cells: bytes, size: int) -> set[bytes]:
    """Every tableau a whole turn can leave: a nonempty set of disjoint pairs cast out,
    then for each cast-out place the card directly above or below it (if one is there
    and not cast out) slides in, or none, each card at most once; then the rows close."""
    pairs = independent_pairs(cells, size)
    results: set[bytes] = set()
    for count in range(1, len(pairs) + 1):
        for chosen in itertools.combinations(pairs, count):
            gone = [p for pair in chosen for p in pair]
            if len(set(gone)) != len(gone):
                continue
            options = []
            for h in gone:
                near = [n for n in (h - size, h + size)
                        if 0 <= n < size * size and cells[n] != EMPTY and n not in gone]
                options.append([None] + near)
            for sources in itertools.product(*options):
                used = [s for s in sources if s is not None]
                if len(set(used)) != len(used):
                    continue
                after = list(cells)
                for h in gone:
                    after[h] = EMPTY
                for h, s in zip(gone, sources):
                    if s is not None:
                        after[h], after[s] = cells[s], EMPTY
                closed = []
                for r in range(size):
                    row = [v for v in after[r * size:(r + 1) * size] if v != EMPTY]
                    closed += row + [EMPTY] * (size - len(row))
                results.add(bytes(closed))
    return results


def stepped_turns(game, state: State, offered) -> set[bytes]:
    """Every tableau the steps reach at the turn's close, following `offered` moves (a
    turn that casts out the last cards wins at once: its close, which changes nothing, is
    not offered, and the empty tableau counts as reached)."""
    results: set[bytes] = set()
    seen = set()
    todo = [state]
    while todo:
        current = todo.pop()
        for move in offered(current):
            after = game.play(current, move)
            if move.kind == CLOSE:
                results.add(after.grid)
            elif game.is_won(after):
                results.add(bytes([EMPTY]) * len(after.grid))
            elif after not in seen:
                seen.add(after)
                todo.append(after)
    return results


def turn_starts(game, numbers, limit_pairs: int) -> list[State]:
    """Positions between turns with 1..limit_pairs pairs, from seeded random plays."""
    found = []
    for number in numbers:
        played, final = random_play(game, game.deal(number), 80, seed=number)
        for state, _ in played:
            if (not any(v == HOLE or 64 <= v < HOLE for v in state.grid)
                    and 0 < len(independent_pairs(state.grid, game.size)) <= limit_pairs):
                found.append(state)
    return list(dict.fromkeys(found))


@pytest.mark.parametrize("game", [GAME, *twins(GAME)], ids=lambda g: f"size={g.size}")
def test_a_turn_as_steps_reaches_exactly_the_rules_turns(game):
    """From positions between turns, the tableaux left at the close by the steps (all
    legal steps, and the search's moves with their slides in place order) equal the
    independent enumeration of whole turns."""
    starts = turn_starts(game, range(1, 7), 3)
    assert len(starts) >= 5
    for state in starts:
        expected = independent_turns(state.grid, game.size)
        assert stepped_turns(game, state, game.legal_moves) == expected, game.format(state)
        assert stepped_turns(game, state, game.moves) == expected, game.format(state)


def test_forced_steps_never_change_a_verdict_on_more_twin_deals():
    """Beyond the contract's 150 deals a twin: deals 151-400 of each twin."""
    verdicts = set()
    for twin in twins(GAME):
        for number in range(151, 401):
            state = twin.deal(number)
            with_forced = dfs(twin, state, Budget(max_states=100_000)).status
            assert with_forced is dfs(without_forced(twin), state,
                                      Budget(max_states=100_000)).status, number
            verdicts.add(with_forced)
    assert verdicts == {Status.WON, Status.LOST}


def test_the_game_is_registered_with_its_aliases():
    assert find_game("chris-cross") is GAME and find_game("Chris Cross Pairs") is GAME


def test_the_midgame_file_is_deal_1_after_its_two_steps():
    text = (DATA / "chris_cross_pairs" / "midgame.txt").read_text(encoding="utf-8")
    state = GAME.parse(text)
    assert state == replay_notation(GAME, GAME.deal(1), ["b1+b2", "b3-b2"])
    assert (state.grid[1], state.grid[6], state.grid[11]) == (HOLE, 64 | parse_card("5H"), EMPTY)
    assert notations(state, GAME.legal_moves(state)) == {"close"}    # b1: above none, b2 slid
    closed = GAME.play(state, Move(CLOSE, 0, 0))
    assert GAME.format(closed).splitlines()[4:7] == ["JD 9S 3H JS", "2D 5H 5S 2S AS",
                                                     "9H AD KS AH"]


@pytest.mark.slow
@pytest.mark.parametrize("game", [GAME, *twins(GAME)], ids=lambda g: f"size={g.size}")
def test_a_turn_as_steps_reaches_exactly_the_rules_turns_on_more_positions(game):
    """The same on positions of 200 random plays, with up to 4 pairs to choose from."""
    for state in turn_starts(game, range(1, 201), 4):
        expected = independent_turns(state.grid, game.size)
        assert stepped_turns(game, state, game.legal_moves) == expected, game.format(state)
        assert stepped_turns(game, state, game.moves) == expected, game.format(state)


@pytest.mark.parametrize("value", ["²", "٣", "1_000", "-1", "0", "100", "1" + "0" * 30])
def test_a_round_line_that_is_no_number_of_1_to_99_is_one_line_naming_it(value: str) -> None:
    text = GAME.format(GAME.deal(1)).replace("Round: 1", f"Round: {value}")
    with pytest.raises(DealError) as error:
        GAME.parse(text)
    assert error.value.line == 1
    assert str(error.value) == f"chris-cross-pairs deal, line 1: round {quote(value)}: " \
        "expected a number 1..99"


@pytest.mark.parametrize("text", ["b٣+b4", "b3+b²", "b3-b٤", "b6+b1", "b0+b1"])
def test_places_in_moves_are_ascii_digits_of_a_row(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(GAME.deal(1), text)


# -- the player's view -------------------------------------------------------------------

def test_the_player_sees_the_tableau_and_the_cards_cast_out_not_the_stock():
    position = Sighted.of(GAME, GAME.deal(1))
    state = position.state
    assert position.seen is None
    assert position.unseen().cards == tuple(state.stock) and len(state.stock) == 27
    masked = position.masked().state
    assert masked.grid == state.grid and masked.stock == bytes(sorted(state.stock))
    solution = dfs(GAME, state).moves                  # deal 1 is won with two deals
    deals = 0
    for step in solution:
        before = position.state
        position = position.play(step)
        after = position.state
        assert position.unseen().cards == tuple(after.stock)
        if step.kind == DEAL:
            deals += 1
            dealt = before.stock[:len(before.stock) - len(after.stock)]
            assert dealt and set(dealt) <= set(after.grid)        # dealt face up
            assert not set(dealt) & set(position.unseen().cards)
    assert deals == 2 and GAME.is_won(position.state)
