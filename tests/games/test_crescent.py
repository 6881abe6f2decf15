"""Crescent: PySolFC's deals, hand-checked positions and rules.

What every game owes the engine (round trips, legal play, keys, twins, bad deals) is in
tests/test_contract.py.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import DATA, quick_first, read_known
from games import find_game
from games.crescent import DOWN, FROM_DOWN, FROM_UP, GAME, REDEAL, UP, Move, State, pysol_order
from solver.cards import card_str, parse_card, pysol_deck_order
from solver.game import DealError, InvalidMoveError, Status
from solver.search import Budget, bfs, dfs, find_strategy, without_forced
from solver.verify import check_solution
from symmetry import Symmetry, bag, shuffled


# -- symmetries (tests/test_contract.py checks the key against them) --------------

SYMMETRY = Symmetry(                # no rule names a pile, a redeal turns them all alike
    lambda s, rng: s._replace(piles=tuple(shuffled(s.piles, rng))),
    lambda s: (bag(s.piles), s.up, s.down, s.redeals))


EMPTY = "-\n"


def cards(text: str) -> bytes:
    return bytes(parse_card(token) for token in text.split())


def made(*piles: str, redeals: int = 0) -> State:
    """Return a full game's position of these piles (the rest empty), the foundations
    holding their bases alone: not every card is placed, which the rules never ask."""
    return GAME.start()._replace(piles=tuple(map(cards, piles)) + (b"",) * (16 - len(piles)),
                                 redeals=redeals)


def position(header: str, *piles: str) -> str:
    """Return a full game's text: `header` lines, the piles given, the rest empty."""
    return header + "".join(pile + "\n" for pile in piles) + EMPTY * (16 - len(piles))


# Clubs: the Ace foundation holds A..Q, the King foundation K..3; the other suits are home.
# Left: KC, 2C and AC in one pile, the AC on top. Only a redeal moves anything. After one
# the KC is on top and goes home (A..K), then the AC tops "2C AC" and a second redeal is
# needed: the 2C and the AC go onto the King foundation (or redeal twice at once: the 2C,
# the KC, the AC go home). Shortest: 5 steps, 2 redeals.
THREE_CLUBS = position("Aces: C-Q D-K H-K S-K\nKings: C-3 D-A H-A S-A\nRedeals: {made}\n",
                       "KC 2C AC")


# -- numbered deals ---------------------------------------------------------------------


def test_deal_1_takes_out_the_first_decks_aces_and_kings_and_deals_round_the_piles():
    """PySolFC deal 1 by hand. In the dealing order of the two shuffled decks
    (``pysol_deck_order(1, decks=2)``, the talon's top card first) the Aces and Kings of
    the first deck are at places 3 (KH), 6 (KC), 20 (KD), 59 (AS), 61 (KS), 70 (AD), 76
    (AH) and 103 (AC); the second deck's AS comes first, at place 10, and stays in the
    piles (taking the first copy instead would deal another layout). The shuffle hook
    moves those eight to the talon's top and they go to the foundations; the other 96
    keep their order, card i to pile ``i % 16``, so pile 1 holds places 0, 16, 17+...
    of what is left: 3D QC 2D QC 6C QD, the QD face up."""
    order = pysol_deck_order(1, decks=2)
    taken = {3, 6, 20, 59, 61, 70, 76, 103}
    assert sorted(card_str(order[i]) for i in taken) == sorted(
        "AC AD AH AS KC KD KH KS".split())
    assert card_str(order[10]) == "AS"
    left = [card for i, card in enumerate(order) if i not in taken]
    assert pysol_order(1) == left
    state = GAME.deal(1)
    assert state.piles[0] == cards("3D QC 2D QC 6C QD") == bytes(left[0::16])
    assert all(len(pile) == 6 for pile in state.piles) and len(state.piles) == 16
    assert (state.up, state.down, state.redeals) == (b"\x01" * 4, b"\x0d" * 4, 0)


@pytest.mark.parametrize("number", [2, 617, 32000, 32001, 123456])
def test_pysolfc_deals_hold_the_two_decks_but_one_ace_and_king_of_each_suit(number):
    """Both generators (Microsoft's to 32000, Mersenne Twister above) shuffle the same
    cards as ``pysol_deck_order``; the deal is those cards less one A and one K a suit."""
    order = sorted(pysol_deck_order(number, decks=2))
    for base in "AC AD AH AS KC KD KH KS".split():
        order.remove(parse_card(base))
    assert sorted(pysol_order(number)) == order
    assert sorted(b"".join(GAME.deal(number).piles)) == order


KNOWN = read_known(DATA / "crescent" / "known.txt")


@pytest.mark.parametrize("record", quick_first(KNOWN, [r for r in KNOWN if "variant" not in r]),
                         ids=[r["id"] for r in KNOWN])
def test_known_deals_are_won_and_the_solutions_replay(record):
    game = find_game("crescent", dict(o.split("=") for o in record.get("variant", "").split()))
    state = game.deal(int(record["deal"]))
    assert card_str(state.piles[0][-1]) == record["first-top"]
    result = find_strategy("beam")(game, state, Budget(max_states=50_000))
    assert result.status.value == record["status"]
    check_solution(game, state, result.moves)


# -- text ---------------------------------------------------------------------------


def test_a_mid_game_position_reads_its_foundations_and_redeals():
    state = GAME.parse(THREE_CLUBS.format(made=2))
    assert state.up == bytes([12, 13, 13, 13]) and state.down == bytes([3, 1, 1, 1])
    assert state.redeals == 2 and state.piles[0] == cards("KC 2C AC") and not state.piles[1]
    assert GAME.parse(GAME.format(state)) == state
    assert GAME.format(state).splitlines()[:3] == [
        "Aces: C-Q D-K H-K S-K", "Kings: C-3 D-A H-A S-A", "Redeals: 2"]


def test_face_down_markers_are_read_and_ignored():
    text = GAME.format(GAME.deal(5))
    marked = "\n".join(" ".join(f"<{t}>" for t in line.split()[:-1]) + " " + line.split()[-1]
                       if not line.endswith(":") and ":" not in line else line
                       for line in text.splitlines())
    assert "<" in marked and GAME.parse(marked) == GAME.deal(5)


def test_an_empty_base_is_written_zero_and_read_back():
    pysol = find_game("crescent-pysolfc")
    state = pysol.parse(position("Aces: C-0 D-K H-K S-K\nKings: C-0 D-A H-A S-A\n",
                                 "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
                                 "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"))
    assert state.up[0] == 0 and state.down[0] == 14
    assert pysol.format(state).splitlines()[:2] == ["Aces: C-0 D-K H-K S-K",
                                                     "Kings: C-0 D-A H-A S-A"]


# -- rules --------------------------------------------------------------------------


def test_the_redeal_puts_every_piles_bottom_card_on_top():
    state = made("AC 2C 3C", "5H", "9S TS")
    after = GAME.play(state, REDEAL)
    assert after.piles[:4] == (cards("2C 3C AC"), cards("5H"), cards("TS 9S"), b"")
    assert after.redeals == 1 and after.up == state.up and after.down == state.down
    assert GAME.describe(state, REDEAL) == (
        "special redeal: every pile's bottom card to its top (AC onto 3C in pile 1, ...)")
    third = GAME.play(GAME.play(after, REDEAL), REDEAL)
    assert third.piles[0] == cards("AC 2C 3C") and third.redeals == 3
    assert REDEAL not in GAME.moves(third)
    assert GAME.illegal_reason(third, REDEAL) == "all 3 redeals are made"
    four = find_game("crescent-four")
    assert four.illegal_reason(third, REDEAL) == "" and REDEAL in four.moves(third)


def test_tops_build_up_or_down_by_suit_round_the_corner():
    state = made("KC", "AC", "QC", "AD", "QD 2C", "3H")
    legal = {GAME.notation(m) for m in GAME.moves(state)}
    # KC on AC and AC on KC (round the corner), KC on QC and QC on KC, 2C on AC and AC on
    # 2C; nothing onto an empty pile, no suit change (AD, QD), no gap (QC on AC).
    builds = {m for m in legal if m[0].isdigit() and m[-1].isdigit()}
    assert builds == {"1-2", "2-1", "1-3", "3-1", "2-5", "5-2"}
    assert GAME.illegal_reason(state, Move(2, 1)) == (
        "QC cannot go on AC: build up or down by suit, one rank at a time")
    assert GAME.illegal_reason(state, Move(3, 0)).startswith("AD cannot go on KC")
    assert GAME.illegal_reason(state, Move(0, 10)) == (
        "pile 11 is empty, and an empty pile stays empty")
    assert GAME.illegal_reason(state, Move(4, UP)) == ""         # 2C onto the AC base
    assert GAME.illegal_reason(state, Move(2, DOWN)) == ""       # QC onto the KC base
    assert GAME.illegal_reason(state, Move(5, UP)) == "3H does not go on the Ace foundation"
    assert GAME.describe(state, Move(0, 1)) == "KC from pile 1 to pile 2"


def test_foundations_that_meet_trade_top_cards_but_never_their_bases():
    # Clubs: the Ace foundation A..6, the King foundation K..7: they meet.
    state = GAME.parse(position("Aces: C-6 D-A H-A S-A\nKings: C-7 D-K H-K S-K\n",
                                "6C 7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C",
                                "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
                                "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                                "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
                                "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
                                "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
                                "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
                                "AD AH AS KD KH KS"))
    trades = [m for m in GAME.moves(state) if FROM_UP <= m.source < FROM_DOWN + 4]
    assert [GAME.notation(m) for m in trades] == ["aC-k", "kC-a"]
    assert GAME.describe(state, trades[1]) == "7C from the clubs King foundation to the Ace foundation"
    after = GAME.play(state, GAME.parse_move(state, "kC-a"))
    assert (after.up[0], after.down[0]) == (7, 8)
    assert GAME.illegal_reason(after, Move(FROM_UP, UP)) == "the card is on its Ace foundation already"
    assert GAME.illegal_reason(state, Move(FROM_UP, 0)) == (
        "foundation cards never come back to the piles")
    worry = replace(GAME, worry_back=True)
    assert worry.illegal_reason(state, Move(FROM_UP, 0)) == "" and Move(FROM_UP, 0) in worry.moves(state)
    # The bases: the Ace foundation holds its Ace alone, the King foundation K..2.
    bases = GAME.parse(position("Aces: C-A D-K H-K S-K\nKings: C-2 D-A H-A S-A\n",
                                "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"))
    assert GAME.illegal_reason(bases, Move(FROM_UP, DOWN)) == "the base AC stays on its foundation"
    assert [GAME.notation(m) for m in GAME.moves(bases) if FROM_UP <= m.source < FROM_DOWN + 4] == ["kC-a"]
    loose = replace(GAME, bases_move=True)
    assert loose.illegal_reason(bases, Move(FROM_UP, DOWN)) == ""
    emptied = loose.play(bases, Move(FROM_UP, DOWN))
    assert (emptied.up[0], emptied.down[0]) == (0, 1)
    assert loose.format(emptied).splitlines()[:2] == ["Aces: C-0 D-K H-K S-K",
                                                      "Kings: C-A D-A H-A S-A"]


def test_a_position_needing_two_redeals_is_won_in_five_steps_and_lost_with_one_left():
    state = GAME.parse(THREE_CLUBS.format(made=0))
    assert GAME.moves(state) == [REDEAL]
    result = bfs(GAME, state, Budget(max_states=10_000))
    assert result.status is Status.WON and result.optimal
    assert len(result.moves) == 5 and result.moves.count(REDEAL) == 2
    steps = ["r", "1-a", "r", "1-k", "1-k"]             # one of the two shortest wins
    check_solution(GAME, state, [GAME.parse_move(state, m) for m in steps])
    lost = GAME.parse(THREE_CLUBS.format(made=2))
    assert dfs(without_forced(GAME), lost).status is Status.LOST
    assert dfs(GAME, lost).status is Status.LOST


def test_notation_reads_back():
    state = GAME.deal(1)
    for text, move in [("r", REDEAL), ("3-a", Move(2, UP)), ("16-k", Move(15, DOWN)),
                       ("3-12", Move(2, 11)), ("kH-a", Move(FROM_DOWN + 2, UP)),
                       ("aS-7", Move(FROM_UP + 3, 6))]:
        assert GAME.parse_move(state, text) == move and GAME.notation(move) == text
    for bad in ("312", "3-x", "kH-k", "q", "17-a"):
        with pytest.raises(ValueError):
            GAME.parse_move(state, bad)


# -- search support -----------------------------------------------------------------


def test_the_heuristic_counts_cards_out_buried_cards_and_blockers():
    """Spades: the Ace foundation holds A..8, the King foundation K..A (full), so the five
    spades left go up in turn 9, T, J, Q, K. Dealt 9S JS TS QS KS (KS on top) four cards
    lie over a card of an earlier turn (the JS and TS over the 9S, the QS over the TS,
    the KS over both) and the 9S the Ace foundation needs is under 4 cards; the other
    order has no blocker and the 9S on top. Each costs 3 a card out, 1 a blocker (2 in
    the wary heuristic), 1 a card over the 9S."""
    header = "Aces: C-K D-K H-K S-8\nKings: C-A D-A H-A S-A\n"
    stuck = GAME.parse(position(header, "9S JS TS QS KS"))
    ordered = GAME.parse(position(header, "KS QS JS TS 9S"))
    assert GAME.heuristic(stuck) == 3 * 5 + 4 + 4
    assert GAME.wary_heuristic(stuck) == 3 * 5 + 2 * 4 + 4
    assert GAME.heuristic(ordered) == GAME.wary_heuristic(ordered) == 3 * 5
    assert GAME.lower_bound(stuck) == 5


def test_the_heuristic_takes_the_nearer_foundation_and_the_shallower_copy():
    """Hearts: the Ace foundation waits for the 2H, the King foundation for the QH. A
    QH over a 2H is no blocker (each is first in its foundation's turn); a 3H over a 2H
    is. Of the two 2H the one under no card counts as buried by 0."""
    state = made("2H QH", "2H 3H", "5D 2H")
    # Turns: 2H and QH 1, 3H 2. Blockers: the 3H over a 2H. Buried: 2H under 0 (pile 3),
    # QH under 0 (pile 1); the diamonds' 2D and QD are nowhere in the piles.
    assert GAME.heuristic(state) == 3 * 6 + 1 + 0
    assert GAME.wary_heuristic(state) == 3 * 6 + 2 + 0


def test_renumbering_the_piles_commutes_with_every_step():
    """The key sorts the piles. Its proof: no rule names a pile. A card goes onto any
    pile whose top fits, and the redeal turns each pile by itself, the same way (its
    bottom card to its top), whatever its number; so renumbering the piles of a position
    renumbers the piles of the position after each step and changes nothing else, and
    positions equal up to a renumbering have the same futures. Checked here on every
    position of a random walk (redeals included) against a reversal of the piles."""
    import random
    rng = random.Random(7)
    walked = 0
    for number in range(5, 15):
        state = GAME.deal(number)
        for _ in range(100):
            if not GAME.moves(state):
                break
            walked += _check_flipped(state)
            state = GAME.play(state, rng.choice(GAME.moves(state)))
    assert walked > 300


def _check_flipped(state):
    """Check one position and its pile-reversed twin step by step; return 1."""
    flipped = state._replace(piles=state.piles[::-1])
    last = len(state.piles) - 1
    assert GAME.key(flipped) == GAME.key(state)
    moves = GAME.moves(state)
    renumbered = [m if m.source >= 16 and m.target >= 16 else
                  Move(last - m.source if m.source < 16 else m.source,
                       last - m.target if m.target < 16 else m.target)
                  for m in moves]
    assert sorted(GAME.moves(flipped)) == sorted(renumbered)
    for move, twin in zip(moves, renumbered):
        child, flipped_child = GAME.play(state, move), GAME.play(flipped, twin)
        assert flipped_child.piles == child.piles[::-1]
        assert flipped_child[1:] == child[1:]
    return 1


def _ordered_key(game):
    """Return `game` keyed with its piles in their order (no symmetry taken)."""
    def key(state):
        return state.up + state.down + bytes([state.redeals, 254]) + b"\xfe".join(state.piles)
    object.__setattr__(game, "key", key)
    return game


@pytest.mark.parametrize("options", [{"suits": 2, "ranks": 4, "piles": 2, "redeals": 1},
                                     {"suits": 1, "ranks": 6, "piles": 2, "redeals": 2},
                                     {"suits": 1, "ranks": 5, "piles": 2, "redeals": 1,
                                      "worry_back": True, "bases_move": True}])
def test_the_sorted_key_gives_the_verdicts_of_the_ordered_one_on_twins(options):
    """Exhaustive search with the key that sorts the piles and with one that keeps them
    in order agree on every twin deal tried, won and lost alike (both occur)."""
    sorted_game = replace(GAME, **options)
    ordered_game = _ordered_key(replace(GAME, **options))
    seen = set()
    for number in range(1, 61):
        state = sorted_game.deal(number)
        verdict = dfs(sorted_game, state).status
        assert dfs(ordered_game, state).status is verdict
        seen.add(verdict)
    assert seen == {Status.WON, Status.LOST}


@pytest.mark.parametrize("value", ["²", "٣", "1_000", "-1", "4", "1" + "0" * 30])
def test_a_redeals_line_that_is_no_number_of_the_range_is_one_line_naming_it(value: str) -> None:
    lines = GAME.format(GAME.deal(1)).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Redeals:"))
    lines[at] = f"Redeals: {value}"
    with pytest.raises(DealError) as error:
        GAME.parse("\n".join(lines))
    assert error.value.line == at + 1 and "\n" not in str(error.value)
    assert str(error.value).startswith(f"crescent deal, line {at + 1}: redeals made ")
    assert str(error.value).endswith(": expected a number 0..3")


@pytest.mark.parametrize("text", ["٣-a", "3-١٢", "²-k", "17-a", "0-a"])
def test_pile_numbers_in_moves_are_ascii_digits_of_a_pile(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(GAME.deal(1), text)


# -- the player's view ----------------------------------------------------------------

def test_the_view_hides_all_but_each_piles_top_and_remembers_what_it_showed() -> None:
    from solver.view import Sighted

    position = Sighted.of(GAME, GAME.deal(1))
    assert position.seen == bytes([5] * 16)
    unseen = position.unseen()
    assert len(unseen.cards) == 80
    assert sorted(unseen.cards) == sorted(b"".join(p[:5] for p in GAME.deal(1).piles))
    masked = position.masked().state
    assert [p[5] for p in masked.piles] == [p[5] for p in GAME.deal(1).piles]   # tops stay
    redealt = position.play(REDEAL)                 # every bottom card shown on its top
    assert redealt.seen == bytes([4] * 16) and len(redealt.unseen().cards) == 64
    assert redealt.masked().state.piles[0][-1] == GAME.deal(1).piles[0][0]
    # a card played onto a shown card leaves it known: play pile i's top onto pile j
    state = redealt.state
    step = next(m for m in GAME.moves(state) if m.source < 16 and m.target < 16)
    covered = state.piles[step.target][-1]
    onto = redealt.play(step)
    assert onto.seen[step.target] == 4 and onto.seen[step.source] == 4
    moved = state.piles[step.source][-1]
    assert onto.masked().state.piles[step.target][-2:] == bytes((covered, moved))
    # the card under a pile's top shows when the top leaves, and stays known
    back = onto.play(Move(step.target, step.source))
    assert back.seen == onto.seen
    left = back.masked().state.piles[step.source]
    assert left[-1] == state.piles[step.source][-1] and left[-2] == state.piles[step.source][-2]


def test_emptying_a_pile_down_to_its_unseen_cards_shows_them_one_by_one() -> None:
    from solver.view import Sighted

    game = replace(GAME, suits=1, ranks=5, piles=2, redeals=1)
    state = game.parse("Aces: C-A\nKings: C-5\nRedeals: 0\nAC 2C 3C 4C\n2C 3C 4C 5C\n")
    position = Sighted.of(game, state)
    assert position.seen == bytes((3, 3)) and len(position.unseen().cards) == 6
    position = position.play(Move(0, DOWN))         # 4C home on the King foundation
    assert position.seen == bytes((2, 3)) and len(position.unseen().cards) == 5
    assert position.masked().state.piles[0][-1] == parse_card("3C")


def test_open_crescent_plays_the_same_and_hides_nothing() -> None:
    from solver.view import Sighted

    opened = find_game("open-crescent")
    assert opened.open and opened.player_view is None and GAME.player_view is not None
    state = opened.deal(1)
    assert state == GAME.deal(1) and opened.moves(state) == GAME.moves(state)
    assert Sighted.of(opened, state).masked().state == state


# -- what the player has seen, in the text (CrescentView) ----------------------------

def test_pile_cards_marked_never_seen_or_seen_all_are_read_and_change_no_position() -> None:
    from solver.view import Sighted

    deal = GAME.deal(1)
    text = GAME.format(deal)
    assert GAME.parse_seen(text) == (deal, None)                    # no marks: says nothing
    assert Sighted.read(GAME, text).seen == bytes([5] * 16)         # the tops alone, as before
    redealt = Sighted.of(GAME, deal).play(REDEAL)
    written = redealt.text()
    assert "\n<QC> <2D> <QC> <6C> QD 3D\n" in written       # the bottom 3D shown on top, QD under it
    assert GAME.parse_seen(written) == (redealt.state, bytes([4] * 16))
    one = text.replace("\n3D QC", "\n<3D> <QC>")                  # one pile marked: the rest seen
    assert GAME.parse_seen(one) == (deal, bytes([2] + [0] * 15))
    seen_all = GAME.format_seen(deal, bytes(16))
    assert "\nSeen: all\n" in seen_all and GAME.parse_seen(seen_all) == (deal, bytes(16))
    assert GAME.parse(written) == redealt.state and GAME.parse(one) == GAME.parse(seen_all) == deal


@pytest.mark.parametrize("game, change, message", [
    (GAME, lambda t: t.replace("\n3D QC", "\n3D <QC>"), "face-down card '<QC>' above a face-up card"),
    (GAME, lambda t: t.replace("6C QD\n", "6C <QD>\n"), "the top card of pile 1 is face down"),
    (GAME, lambda t: t.replace("Redeals: 0", "Redeals: 3").replace("\n3D QC 2D", "\n<3D> <QC> <2D>"),
     "pile 1: 3 cards marked never seen, at most 2 can be after 3 redeals (6 dealt, the top "
     "one face up, and each redeal shows one)"),
    (GAME, lambda t: t.replace("\n3D QC", "\n<3D> <QC>") + "Seen: all\n",
     "Seen: all, but 2 pile cards are marked never seen"),
    (GAME, lambda t: t + "Seen: most\n", "Seen: 'most': expected all"),
    (find_game("open-crescent"), lambda t: t.replace("\n3D QC", "\n<3D> <QC>"),
     "cards marked never seen in Open Crescent, whose cards are all dealt face up"),
])
def test_marks_the_rules_cannot_produce_are_one_problem(game, change, message) -> None:
    with pytest.raises(DealError) as caught:
        game.parse(change(GAME.format(GAME.deal(1))))
    assert message in str(caught.value) and "\n" not in str(caught.value)
