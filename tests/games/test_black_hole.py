"""Black Hole: PySolFC deals, black-hole-solver text, the one move, dead positions, CP-SAT.

What every game owes the engine is checked in tests/test_contract.py.
"""
from __future__ import annotations

import random

import pytest

from conftest import DATA, read_known
from games import find_game
from games.black_hole import ACE_OF_SPADES, GAME, BlackHole, Move, State, viable
from solver.cards import card_str, parse_card, pysol_layout
from games._black_hole_cpsat import solve as cpsat_solve
from solver.game import DealError, DealProblem, Status, twins
from solver.search import Budget, dfs
from solver.verify import check_solution, replay_notation
from symmetry import Symmetry, bag, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

def black_hole_image(state: Any, rng: random.Random) -> Any:
    """Piles in another order, and the four suits of each rank exchanged among themselves
    (the rules read ranks only)."""
    suits = {rank: shuffled(range(4), rng) for rank in range(13)}
    recolour = bytes(suits[card % 13][card // 13] * 13 + card % 13 for card in range(52)) \
        + bytes(range(52, 256))
    return state._replace(piles=tuple(pile.translate(recolour) for pile in shuffled(state.piles, rng)),
                          foundation=recolour[state.foundation])


SYMMETRY = Symmetry(
    black_hole_image,
    lambda s: (s.foundation % 13, bag(bytes(c % 13 for c in pile) for pile in s.piles)))


KNOWN = read_known(DATA / "black_hole" / "known.txt")


def cards(text: str) -> bytes:
    return bytes(parse_card(t) for t in text.split())  # type: ignore[misc]


class AllLegalMoves:
    """Black Hole with every legal move searched: no dead-position pruning."""

    def __init__(self, game: BlackHole) -> None:
        self._game = game

    def moves(self, state: State) -> list[Move]:
        return self._game.legal_moves(state)

    def __getattr__(self, name: str):
        return getattr(self._game, name)


# -- deals -----------------------------------------------------------------------------

def test_registry_finds_black_hole_by_alias():
    assert find_game("bh") is GAME and find_game("Black Hole") is GAME


def test_pysolfc_deal_6_layout():
    state = GAME.deal(6)
    assert state.foundation == ACE_OF_SPADES
    assert len(state.piles) == 17 and all(len(p) == 3 for p in state.piles)
    assert state.piles[0] == cards("2H TS 5D")
    assert state.piles[11] == cards("9H KD KC")            # KC on top: the first move
    assert state.piles[16] == cards("AD 5H AH")


def test_numbered_deals_are_pysol_cards_layouts():
    for number in (1, 2, 100, 31999, 32001, 123456):
        lines = pysol_layout("black_hole", number).splitlines()
        assert GAME.format(GAME.deal(number)).splitlines()[1:] == \
            [line.lstrip(": ").strip() for line in lines if line.strip()
             and not line.startswith("Foundations")]


# -- text ------------------------------------------------------------------------------

def test_solver_style_lines_and_bom_crlf_are_read():
    text = GAME.format(GAME.deal(6))
    colons = "\n".join(": " + line if i else line for i, line in enumerate(text.splitlines()))
    assert GAME.parse(colons) == GAME.deal(6)
    assert GAME.parse((DATA / "black_hole" / "utf8-bom-crlf.txt").read_text(encoding="utf-8")) \
        == GAME.deal(6)


def test_a_pile_of_four_is_refused():
    text = GAME.format(GAME.deal(6)).replace("2H TS 5D", "2H TS 5D 7C").replace("7C JD 6D", "JD 6D")
    with pytest.raises(DealError) as caught:
        GAME.parse(text)
    assert caught.value.problems & DealProblem.WRONG_PILE_SIZE


# -- rules -----------------------------------------------------------------------------

def test_a_top_card_one_rank_up_or_down_goes_on_the_foundation_and_k_a_wrap():
    state = GAME.deal(6)                                   # foundation A♠
    playable = {card_str(m.card) for m in GAME.legal_moves(state)}
    tops = {card_str(p[-1]) for p in state.piles}
    assert playable == {t for t in tops if t[0] in "K2"}
    after = GAME.play(state, GAME.parse_move(state, "KC"))
    assert after.foundation == parse_card("KC") and after.piles[11] == cards("9H KD")
    assert "not one rank" in GAME.illegal_reason(after, GAME.parse_move(after, "KD"))
    assert "not one rank" in GAME.illegal_reason(after, GAME.parse_move(after, "6D"))
    assert "not on top" in GAME.illegal_reason(after, GAME.parse_move(after, "9H"))
    queen = next(m for m in GAME.legal_moves(after) if card_str(m.card)[0] in "QA")
    assert GAME.illegal_reason(after, queen) == ""          # K-Q down, K-A round the corner


def test_moves_are_the_legal_moves_less_dead_ends():
    rng = random.Random(3)
    for number in range(1, 30):
        state = GAME.deal(number)
        for _ in range(10):
            legal = GAME.legal_moves(state)
            assert set(GAME.moves(state)) <= set(legal)
            if not legal:
                break
            state = GAME.play(state, rng.choice(legal))


def test_viable_examples():
    # ranks by index (0 = A); foundation on the A
    assert not viable([0, 1, 0, 1] + [0] * 9, 0, 13)       # the 4 cannot be reached
    assert viable([1, 2, 1] + [0] * 10, 0, 13)              # A 2 3 2 A ... walks
    assert viable([0] * 13, 5, 13)                          # nothing left: won


# -- known answers and strategies ------------------------------------------------------

@pytest.mark.parametrize("record", KNOWN, ids=lambda r: r["id"])
def test_known_deals(record):
    state = GAME.deal(int(record["deal"]))
    result = dfs(GAME, state, Budget(seconds=60))
    assert result.status.value == record["status"]
    if result.status is Status.WON:
        check_solution(GAME, state, result.moves)
        assert len(result.moves) == int(record["length"])


def test_deal_6_is_still_won_after_kc_first():
    state = GAME.deal(6)
    after = replay_notation(GAME, state, ["KC"])
    assert dfs(GAME, after, Budget(seconds=60)).status is Status.WON


TWINS = [*twins(GAME), pytest.param(BlackHole(ranks=10), marks=pytest.mark.slow)]


@pytest.mark.parametrize("game", TWINS, ids=lambda g: f"ranks{g.ranks}")
def test_dead_end_pruning_never_changes_a_verdict(game):
    plain = AllLegalMoves(game)
    verdicts = set()
    for number in range(1, 151):
        state = game.deal(number)
        pruned, full = dfs(game, state), dfs(plain, state)
        assert pruned.status == full.status, number
        verdicts.add(full.status)
    assert verdicts == {Status.WON, Status.LOST}


def test_dead_end_pruning_agrees_on_full_deals():
    plain = AllLegalMoves(GAME)
    for number in (1, 6, 8, 12, 17, 25, 27, 29, 34, 38):
        state = GAME.deal(number)
        assert dfs(GAME, state).status == dfs(plain, state).status, number


def test_cpsat_agrees_with_search_on_twins():
    verdicts = set()
    for game in twins(GAME):
        for number in range(1, 31):
            state = game.deal(number)
            model = cpsat_solve(game, state, Budget(seconds=30))
            assert model.status == dfs(game, state).status, (game.ranks, number)
            verdicts.add(model.status)
            if model.status is Status.WON:
                check_solution(game, state, model.moves)
    assert verdicts == {Status.WON, Status.LOST}


def test_cpsat_agrees_on_full_deals():
    for number in (1, 6, 25, 27):
        state = GAME.deal(number)
        assert cpsat_solve(GAME, state, Budget(seconds=60)).status == dfs(GAME, state).status


def test_cpsat_out_of_time_is_unknown():
    result = cpsat_solve(GAME, GAME.deal(10), Budget(seconds=0.001))
    assert result.status is Status.UNKNOWN and result.stopped_by == "seconds"


@pytest.mark.slow
def test_cpsat_agrees_with_search_on_40_full_deals():
    for number in range(1, 41):
        state = GAME.deal(number)
        assert cpsat_solve(GAME, state, Budget(seconds=120)).status == dfs(GAME, state).status


@pytest.mark.slow
def test_win_share_agrees_with_blake_and_gent():
    """Blake & Gent: 86.944% ± 0.022% of random deals are winnable."""
    from solver.app.batch import wilson

    won = lost = 0
    for number in range(1, 401):
        result = dfs(GAME, GAME.deal(number), Budget(seconds=120))
        assert result.status is not Status.UNKNOWN, number
        won += result.status is Status.WON
        lost += result.status is Status.LOST
    _, low, high = wilson(won, won + lost)
    assert low <= 0.86944 <= high


@pytest.mark.parametrize("text", ["²", "٣", "0", "18", "999999", "1" + "0" * 30])
def test_a_pile_number_in_a_move_is_ascii_digits_of_a_pile(text: str) -> None:
    from solver.game import InvalidMoveError

    with pytest.raises(InvalidMoveError, match="there is no pile"):
        GAME.parse_move(GAME.deal(1), text)
    assert GAME.parse_move(GAME.deal(1), "17") == Move(16, GAME.deal(1).piles[16][-1])
