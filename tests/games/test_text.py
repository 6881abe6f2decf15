"""What every registered game owes a user who reads and writes its texts.

Errors stay short whatever the input (a deal file of junk once made a 565 MB message);
an unclosed face-down marker is an error, not a face-up card; what ``pretty`` prints,
coloured or not, reads back; ``format`` ends with one newline (so ``solitaire deal``
output ends a line); a place that does not exist is called missing, not empty; and
``describe`` says a step in words a player can follow.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from games import GAMES
from games.black_hole import GAME as BLACK_HOLE
from games.forty_thieves import DRAW, FortyThieves
from games.freecell import CELL, GAME as FREECELL, FreeCell
from games.klondike import GAME as KLONDIKE, STOCK, Klondike
from games.spider import DEAL, Spider
from games.the_clock import GAME as CLOCK
from games.yukon import Yukon
from solver.cards import card_str, plain_text, pretty
from solver.game import (DealChecker, DealError, DealProblem, IllegalMoveError, InvalidMoveError,
                         card_list, cut, quote)
from conftest import DATA, WORRY_BACK, random_play

NAMES = sorted(GAMES)
CARD = re.compile(r"(?<![\w<-])<?(10|[A2-9TJQK])[CDHS]>?(?![\w>-])")


def positions(game: Any, number: int, steps: int = 30, seed: int = 0) -> list[Any]:
    """Return the deal and the positions after each step of a seeded random play of it."""
    played, final = random_play(game, game.deal(number), steps, seed)
    return [state for state, _ in played] + [final]


# -- bounded messages -----------------------------------------------------------------


def test_quote_cuts_a_long_text_to_its_limit_and_marks_the_cut() -> None:
    assert quote("7H") == "'7H'"
    assert quote("x" * 50, 12) == "'xxxxxxxxx…'"
    assert len(quote("y" * 10**7)) == 20
    assert quote("\x1b" * 30, 12) == "'\\x1b\\x1b\\…'"    # escapes are counted as shown
    assert cut("abcdefghijklmnop") == "abcdefghijk…" and cut("AS") == "AS"
    assert card_list(["AC", "2C", "3C"], 2) == "AC 2C and 1 more"


def test_a_deal_checker_names_five_problems_and_counts_the_rest() -> None:
    """1,000 unreadable tokens and 52 missing cards: five named, the rest counted; the
    error still carries every kind of problem, the first line and (bounded) cards."""
    check = DealChecker("freecell")
    for n in range(1000):
        token = f"{n:03d}" + "x" * 60
        check.add(DealProblem.UNREADABLE_CARD, f"unreadable card {quote(token)}", line=n + 1,
                  card=token)
    check.add_card_problem(DealProblem.MISSING_CARD, "missing", [card_str(c) for c in range(52)])
    with pytest.raises(DealError) as caught:
        check.raise_if_any()
    error = caught.value
    assert error.problems == DealProblem.UNREADABLE_CARD | DealProblem.MISSING_CARD
    assert error.line == 1
    assert str(error).startswith("freecell deal, line 1: unreadable card '000xxxxxxxxxxxxxx…'; ")
    assert str(error).endswith("; and 996 more problems")
    assert len(error.details) == 5 and error.more == 996
    assert len(error.cards) == 20 and error.cards[0] == "000xxxxxxxx…"
    assert len(str(error)) < 400


def test_missing_cards_are_named_up_to_twenty() -> None:
    check = DealChecker("freecell")
    check.check_deck([])
    with pytest.raises(DealError) as caught:
        check.raise_if_any()
    assert str(caught.value) == ("freecell deal: missing cards "
                                 + " ".join(card_str(c) for c in range(20)) + " and 32 more")


JUNK = "".join(f"user{n}:x:{n}:{n}:A user,,,:/home/user{n}:/bin/bash <7H 10♦> KS\n"
               for n in range(5_000))                        # about 300 KB, like /etc/passwd


@pytest.mark.parametrize("name", NAMES)
def test_a_file_of_junk_gives_a_short_error(name: str) -> None:
    """Thousands of unreadable tokens, then one huge token: a message of a few hundred
    characters that still names the problems it shows, the first line, and the count."""
    game = GAMES[name]
    for text in (JUNK, "Q" * 2_000_000 + "\n"):
        with pytest.raises(DealError) as caught:
            game.parse(text)
        error = caught.value
        assert len(str(error)) < 700, str(error)[:1000]
        assert "\n" not in str(error)
        assert error.problems & (DealProblem.UNREADABLE_CARD | DealProblem.BAD_LINE)
        assert error.line == 1
        assert len(error.cards) <= 20 and all(len(card) <= 12 for card in error.cards)
    with pytest.raises(DealError) as caught:
        game.parse(JUNK)
    assert re.search(r"; and \d{4,} more problems$", str(caught.value))


@pytest.mark.parametrize("name", NAMES)
def test_a_huge_move_text_gives_a_short_error(name: str) -> None:
    game = GAMES[name]
    state = game.deal(1)
    for text in ("x" * 1_000_000, "1" * 5_000, "1" * 5_000 + ">2", "3" + " " * 10_000 + "q",
                 "3f:" + "Q" * 10_000):
        with pytest.raises(InvalidMoveError) as caught:
            game.parse_move(state, text)
        assert len(str(caught.value)) < 200, (text[:10], str(caught.value)[:300])


def test_an_illegal_move_error_quotes_a_bounded_move() -> None:
    error = IllegalMoveError(3, "9" * 10_000, "no such move")
    assert str(error) == "move 4 ('99999999999999999…') is illegal: no such move"


# -- face-down markers ----------------------------------------------------------------


# the games whose text holds playing cards (CrissCross's holds dominoes)
CARD_NAMES = [name for name in NAMES if CARD.search(GAMES[name].format(GAMES[name].deal(1)))]


@pytest.mark.parametrize("name", CARD_NAMES)
def test_an_unbalanced_face_down_marker_is_an_unreadable_card(name: str) -> None:
    """``<7H``, ``7H>`` and ``<<7H>`` are unreadable in every card game (not a face-up 7H)."""
    game = GAMES[name]
    lines = game.format(game.deal(1)).splitlines()
    number, line = next((n, line) for n, line in reversed(list(enumerate(lines, 1)))
                        if CARD.search(line))
    token = CARD.search(line).group(0)  # type: ignore[union-attr]
    card = token.strip("<>")
    for bad in (f"<{card}", f"{card}>", f"<<{card}>", f"<{card}>>"):
        text = "\n".join(lines[:number - 1] + [CARD.sub(bad, line, count=1)] + lines[number:])
        with pytest.raises(DealError) as caught:
            game.parse(text)
        error = caught.value
        assert error.problems & (DealProblem.UNREADABLE_CARD | DealProblem.BAD_LINE), bad
        assert error.line == number, (bad, str(error))
        assert bad in error.cards and repr(bad) in str(error), (bad, str(error))


def test_klondike_reads_an_unclosed_marker_as_an_error_not_a_face_up_card() -> None:
    text = KLONDIKE.format(KLONDIKE.deal(1)).replace("<7H> TS", "<7H TS")
    with pytest.raises(DealError) as caught:
        KLONDIKE.parse(text)
    assert str(caught.value) == ("klondike deal, line 3: unreadable card '<7H': unbalanced < or "
                                 ">; missing card 7H")
    assert caught.value.cards == ("<7H", "7H")


def test_a_talon_card_with_an_unclosed_marker_is_unreadable() -> None:
    text = KLONDIKE.format(KLONDIKE.deal(1)).replace("Talon: 4H", "Talon: <4H")
    with pytest.raises(DealError) as caught:
        KLONDIKE.parse(text)
    assert caught.value.problems == DealProblem.UNREADABLE_CARD | DealProblem.MISSING_CARD
    assert caught.value.line == 1 and caught.value.cards == ("<4H", "4H")
    spider = Spider(suits=4, ranks=4, columns=4, decks=1, deals=1)
    with pytest.raises(DealError) as caught:
        spider.parse("Stock: 2H 4S AS 3H>\n<3S> 4C 3C\n<AC> <2S> <AD> <2D> <3D> <4D> 4H\n"
                     "<AH> 2C\n-\n")
    assert caught.value.cards == ("3H>", "3H") and caught.value.line == 1


# -- coloured and unicode text reads back ---------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_pretty_text_reads_back_with_and_without_colour(name: str) -> None:
    """Deals 1-3 and positions in play (foundations, cells, waste...) in every style."""
    game = GAMES[name]
    for number in (1, 2, 3):
        for state in positions(game, number, steps=20, seed=number)[::5]:
            text = game.format(state)
            coloured = pretty(text, colour=True)
            assert "\x1b[31m" in coloured or not re.search(r"[DH](?![\w-])", text)
            assert game.parse(coloured) == state
            assert game.parse(pretty(text)) == state


def test_plain_text_removes_colour_escapes_and_a_bom_only() -> None:
    assert plain_text("\ufeff\x1b[1;31m7♥\x1b[0m <TS> \x1b[m# note") == "7♥ <TS> # note"


# -- format ends with one newline -----------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_format_ends_with_exactly_one_newline(name: str) -> None:
    game = GAMES[name]
    for number in (1, 2):
        for state in positions(game, number, steps=15, seed=number):
            text = game.format(state)
            assert text.endswith("\n") and not text.endswith("\n\n"), repr(text[-20:])


# -- places that do not exist ---------------------------------------------------------


MISSING_PLACES = [
    (FREECELL, "9a", "there is no column 9"),
    (FREECELL, "0h", "there is no column 10"),
    (FREECELL, "1e", "there is no cell e"),
    (FREECELL, "e1", "there is no cell e"),
    (FreeCell(cells=2), "3c", "there is no cell c"),
    (GAMES["seahaven"], "ea", "there is no cell e"),
    (KLONDIKE, "81", "there is no column 8"),
    (KLONDIKE, "w9", "there is no column 9"),
    (KLONDIKE, "fh8", "there is no column 8"),
    (Yukon(), "8f", "there is no column 8"),
    (Yukon(), "1-9:AS", "there is no column 9"),
    (Yukon(), "19", "there is no column 9"),
    (Spider(), "11>1", "there is no column 11"),
    (Spider(), "1-12", "there is no column 12"),
    (Spider(), "0>1", "there is no column 0"),
    (FortyThieves(columns=4, suits=2, ranks=5, rows=2), "5f", "there is no column 5"),
    (FortyThieves(columns=4, suits=2, ranks=5, rows=2), "w0", "there is no column 10"),
    (BLACK_HOLE, "18", "there is no pile 18"),
    (BLACK_HOLE, "0", "there is no pile 0"),
]


@pytest.mark.parametrize("game, text, reason", MISSING_PLACES,
                         ids=[f"{g.name}-{t}" for g, t, _ in MISSING_PLACES])
def test_a_place_that_does_not_exist_is_named_missing_not_empty(game: Any, text: str,
                                                                 reason: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        game.parse_move(game.deal(1), text)
    assert str(caught.value) == f"{text!r}: {reason}" or str(caught.value).startswith(
        f"{text!r}: {reason} (")
    assert "empty" not in str(caught.value)


def test_the_rule_check_names_a_missing_place_too() -> None:
    """``illegal_reason`` on steps built directly (the verifier's check), in every game
    with places: a column, cell, pile or foundation past the last one."""
    from games.black_hole import Move as BlackHoleMove
    from games.forty_thieves import FOUNDATION as FT_HOME, Move as FortyMove
    from games.freecell import FOUNDATION as FC_HOME, Move as FreeCellMove
    from games.klondike import FOUNDATION as KL_HOME, Move as KlondikeMove
    from games.spider import Move as SpiderMove
    from games.yukon import FOUNDATION as YU_HOME, FROM_FOUNDATION, Move as YukonMove

    twin = FortyThieves(columns=4, suits=2, ranks=5, rows=2)
    yukon = Yukon()
    cases = [
        (FREECELL, FreeCellMove(8, CELL), "there is no column 9"),
        (FREECELL, FreeCellMove(0, 8), "there is no column 9"),
        (FREECELL, FreeCellMove(CELL + 5, FC_HOME), "there is no cell f"),
        (FREECELL, FreeCellMove(0, CELL + 4), "there is no cell e"),
        (KLONDIKE, KlondikeMove(7, KL_HOME), "there is no column 8"),
        (KLONDIKE, KlondikeMove(6, 8), "there is no column 9"),
        (KLONDIKE, KlondikeMove(KL_HOME + 5, 0), "there is no such foundation"),
        (yukon, YukonMove(7, YU_HOME, 1, 0), "there is no column 8"),
        (yukon, YukonMove(0, 7, 1, 15), "there is no column 8"),
        (yukon, YukonMove(FROM_FOUNDATION + 4, 0, 1, 0), "there is no such foundation"),
        (Spider(), SpiderMove(10, 0, 1), "there is no column 11 (columns are 1 to 10)"),
        (twin, FortyMove(4, FT_HOME), "there is no column 5"),
        (twin, FortyMove(0, 6), "there is no column 7"),
        (BLACK_HOLE, BlackHoleMove(17, 12), "there is no pile 18"),
    ]
    for game, move, reason in cases:
        assert game.illegal_reason(game.deal(1), move) == reason, (game.name, move)


def test_an_empty_place_that_exists_is_still_called_empty() -> None:
    state = FREECELL.deal(1)
    assert FREECELL.illegal_reason(state, FREECELL.parse_move(state, "a1")) == "cell a is empty"
    empty = BLACK_HOLE.parse("Foundations: 4H\n" + "-\n" * 16 + ": 5D")
    with pytest.raises(InvalidMoveError, match="pile 1 is empty"):
        BLACK_HOLE.parse_move(empty, "1")


# -- describe -------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_describe_says_every_step_of_a_random_play_in_one_line(name: str) -> None:
    """Each step of seeded random plays of deals 1-3 gets a one-line phrase naming the
    card it moves (when one moves), and the position it is asked about does not change."""
    game = GAMES[name]
    seen = 0
    for number in (1, 2, 3):
        for state, step in random_play(game, game.deal(number), 40, number)[0]:
            before = game.format(state)
            phrase = game.describe(state, step)
            assert game.format(state) == before
            assert phrase and phrase == phrase.strip() and "\n" not in phrase, phrase
            assert len(phrase) < 100 and "no card" not in phrase, phrase
            left = _tops_that_left(state, game.play(state, step))
            assert not left or any(card_str(c) in phrase for c in left), (phrase, left)
            seen += 1
    assert seen >= 20


def _tops_that_left(before: Any, after: Any) -> set[int]:
    """Return the top cards of the columns, piles and cells that lost cards in a step.

    A step moves the top card of its source (with a run under it, in some games), so the
    phrase must name it; a column that loses a completed Spider run names its top card
    too, so the phrase must name one of these, not all.
    """
    left: set[int] = set()
    for field in ("columns", "piles", "cells"):
        for old, new in zip(getattr(before, field, ()), getattr(after, field, ())):
            if isinstance(old, int):             # a FreeCell cell: a card, or 255
                old, new = bytes([old]) if old < 52 else b"", bytes([new]) if new < 52 else b""
            if old and new[:len(old)] != old:
                left.add(old[-1])
    return left


def play(game: Any, state: Any, *texts: str) -> Any:
    """Return the position after the steps written `texts`, each checked legal."""
    for text in texts:
        step = game.parse_move(state, text)
        assert game.illegal_reason(state, step) == "", text
        state = game.play(state, step)
    return state


def said(game: Any, state: Any, text: str) -> str:
    """Return describe() of the legal step written `text`."""
    step = game.parse_move(state, text)
    assert game.illegal_reason(state, step) == "", text
    return game.describe(state, step)


def test_freecell_phrases() -> None:
    """data/freecell/midgame.txt: cells 8D - QC -; column 3 ends 2H, column 7 ends 2C 6S
    6D with the AC home; Seahaven deal 1: 8C (column 7) onto the 9C of column 10."""
    state = FREECELL.parse((DATA / "freecell" / "midgame.txt").read_text())
    assert said(FREECELL, state, "a2") == "8D from cell a to column 2"
    assert said(FREECELL, state, "3b") == "2H from column 3 to cell b"
    parked = play(FREECELL, state, "7b", "7d")
    assert said(FREECELL, parked, "7h") == "2C from column 7 to the foundation"
    seahaven = GAMES["seahaven"]
    assert said(seahaven, seahaven.deal(1), "70") == "8C from column 7 to column 10"
    assert said(seahaven, seahaven.deal(1), "0a") == "9C from column 10 to cell a"


def test_klondike_phrases() -> None:
    """Deal 1: the stock starts 4H AC 4D, the AS tops column 7; the midgame file (draw 3,
    3 passes) has QD JS TD face up on column 6 and QH alone in column 1, and its stock
    turns up 7D, 8D, then 3D, which fits on the 4C of column 4.

    A turn of the stock reads the same whatever it turns, so that the CLI can write a
    run of turns once with a count."""
    state = KLONDIKE.deal(1)
    assert said(KLONDIKE, state, "s") == "turn the stock"
    assert said(KLONDIKE, state, "7f") == "AS from column 7 to the foundation"
    assert said(Klondike(draw=3), state, "s") == "turn the stock"
    turned = play(KLONDIKE, state, *["s"] * 24)
    assert said(KLONDIKE, turned, "s") == "turn the waste over"
    assert said(KLONDIKE, play(KLONDIKE, state, "s", "s"), "wf") == \
        "AC from the waste to the foundation"
    three = Klondike(draw=3, passes=3)
    midgame = three.parse((DATA / "klondike" / "midgame.txt").read_text())
    assert said(three, midgame, "61") == "JS..TD from column 6 to column 1"
    assert said(three, midgame, "72") == "9D from column 7 to column 2"
    macro = next(m for m in three.moves(midgame) if m.source == STOCK and m.target == 3)
    assert three.describe(midgame, macro) == \
        "turn the stock 3 times, then 3D from the waste to column 4"


def test_klondike_and_yukon_phrases_for_a_card_back_from_its_foundation() -> None:
    """WORRY_BACK (conftest): the 4S comes back onto the 5H, which can go home."""
    for game in (Klondike(ranks=6, columns=4), Yukon(ranks=6, columns=4)):
        state = game.parse(WORRY_BACK)
        back = "fs2" if game.name == "klondike" else "f2:4S"
        assert said(game, state, back) == "4S from the foundation to column 2", game.name
        assert said(game, state, "2f") == "5H from column 2 to the foundation", game.name


def test_yukon_phrases() -> None:
    """Deal 1: column 2 is <JD> AS QH TD 7D 8C, column 6 ends QS 2H, column 1 is 3D."""
    yukon = Yukon()
    state = yukon.deal(1)
    assert said(yukon, state, "2-6:AS") == "AS..8C (5 cards) from column 2 to column 6"
    assert said(yukon, state, "6-1:2C") == "2C..2H (3 cards) from column 6 to column 1"


def test_spider_phrases() -> None:
    """A one-deck twin (A-4): the AC onto 4C 3C 2C completes the club run, which leaves."""
    twin = Spider(suits=4, ranks=4, columns=4, decks=1, deals=1)
    state = twin.parse("Stock: 2H 4S AS 3H\n4C 3C 2C\n<2S> <AD> <2D> <3D> <4D> 4H AC\n"
                       "<AH> 3S\n-\n")
    assert said(twin, state, "2>1") == ("AC from column 2 to column 1, completing a run of "
                                        "clubs, which leaves")
    assert said(twin, state, "3>4") == "3S from column 3 to column 4"
    runs = twin.parse("Stock: 2H 4S AS 3H\n<4C> 3C 2C\n<2S> <AD> <2D> <3D> <4D> AC 4H\n"
                      "<AH> 3S\n-\n")
    assert said(twin, runs, "1-2") == "3C..2C from column 1 to column 2"
    spider = Spider()
    assert said(spider, spider.deal(14934), "10:5D>7") == "5D from column 10 to column 7"
    assert spider.describe(spider.deal(14934), DEAL) == "deal a row from the stock"


def test_forty_thieves_black_hole_and_clock_phrases() -> None:
    """Forty Thieves deal 1: the TH of column 8 fits on the JH of column 4, the AH is
    the sixth card drawn (a draw reads the same whatever it draws). Black Hole deal 6: pile 12 is
    9H KD KC. The Clock deal 1: the K pile is AD 5C JH 6H, the 6 pile 7H 9D 7S 6C."""
    forty = FortyThieves()
    state = forty.deal(1)
    assert forty.describe(state, DRAW) == "draw a card from the stock"
    assert said(forty, state, "84") == "TH from column 8 to column 4"
    drawn = play(forty, state, *["s"] * 6)
    assert said(forty, drawn, "wf") == "AH from the waste to the foundation"
    assert said(forty, play(forty, state, *["s"] * 63), "r") == "turn the waste over"
    assert said(BLACK_HOLE, BLACK_HOLE.deal(6), "KC") == "KC from pile 12 to the foundation"
    clock = CLOCK.deal(1)
    assert said(CLOCK, clock, "6H") == "turn 6H from the K pile"
    assert said(CLOCK, play(CLOCK, clock, "6H"), "6C") == "turn 6C from the 6 pile"
