"""solver.text: the reader every game's parse is built on, on its edge cases.

A small deck (A-3 of clubs and diamonds) keeps the texts short; each test names the
problems the reader records, as flags, details, cards and the line that leads.
"""
from __future__ import annotations

import pytest

from solver.cards import parse_card
from solver.game import DealError, DealProblem
from solver.text import DealReader, foundations_line, labelled, pile_text, split_label

DECK = [parse_card(name) for name in "AC 2C 3C AD 2D 3D".split()]


def cards(text: str) -> list[int]:
    return [parse_card(name) for name in text.split()]  # type: ignore[misc]


def reader(**options) -> DealReader:
    return DealReader("twin", DECK, **options)


def raised(read: DealReader) -> DealError:
    with pytest.raises(DealError) as caught:
        read.raise_if_any()
    return caught.value


# -- lines and labels -----------------------------------------------------------------


def test_blank_lines_comments_a_bom_and_colour_say_nothing_but_keep_line_numbers() -> None:
    read = reader()
    text = "\ufeff# a comment\n\n   \nStock: \x1b[31m2D\x1b[0m\n  # indented comment\n: AC\n"
    assert read.labelled_lines(text, ["Stock"]) == [(4, "Stock", "2D"), (6, "", "AC")]
    assert not read.problems


@pytest.mark.parametrize("text", ["", "\n \n", "# only\n# comments\n", "\ufeff"])
def test_a_text_with_nothing_to_say_is_empty_at_once(text: str) -> None:
    with pytest.raises(DealError) as caught:
        reader().labelled_lines(text, ["Stock"])
    assert caught.value.problems == DealProblem.EMPTY and str(caught.value) == "twin deal: empty text"


def test_an_unknown_label_is_a_bad_line_left_out_and_labels_match_in_any_case() -> None:
    read = reader()
    found = read.labelled_lines("Talon: 2D\nSTOCK: 3D\nfoundations: C-A\n2C", ["Stock", "Foundations"])
    assert found == [(2, "STOCK", "3D"), (3, "foundations", "C-A"), (4, "", "2C")]
    error = raised(read)
    assert error.problems == DealProblem.BAD_LINE and error.line == 1 and error.cards == ()
    assert str(error) == "twin deal, line 1: unknown line label 'Talon' (expected Stock, Foundations)"


def test_without_a_list_every_label_is_taken() -> None:
    read = reader()
    assert read.labelled_lines("K: AC\n10 : 2C\nNext: -", None) == [
        (1, "K", "AC"), (2, "10", "2C"), (3, "Next", "-")]
    assert not read.problems


@pytest.mark.parametrize("line, expected", [
    ("Foundations: H-A", ("Foundations", "H-A")),
    ("Stock:", ("Stock", "")),
    ("Waste :  8S QS ", ("Waste", "8S QS")),
    (": 7H TS", ("", "7H TS")),
    (":", ("", "")),
    ("<7H> TS", ("", "<7H> TS")),
    ("root:x:0:0:root:/root", ("", "root:x:0:0:root:/root")),      # no space: no label
    ("Foundations:H-A", ("", "Foundations:H-A")),
])
def test_split_label(line: str, expected: tuple[str, str]) -> None:
    assert split_label(line) == expected


# -- tokens ---------------------------------------------------------------------------


def test_a_wrong_token_and_a_card_outside_the_deck_are_unreadable_and_named() -> None:
    read = reader()
    assert read.cards_in("AC XS 10C 2d ♦", 3) == cards("AC 2D")
    error = raised(read)
    assert error.problems == DealProblem.UNREADABLE_CARD and error.line == 3
    assert error.details == ("unreadable card 'XS'", "card not in this game's deck: '10C'",
                             "unreadable card '♦'")
    assert error.cards == ("XS", "10C", "♦")
    assert read.card("3C", 4) == parse_card("3C") and read.card("3S", 4) is None


def test_face_down_markers_are_read_only_where_the_game_has_face_down_cards() -> None:
    read = reader(face_down=True)
    assert read.cards_in("<AC> 2C", 1) == cards("AC 2C")       # a stock line drops the marker
    assert read.pile("<AC> <2C> 3C", 2) == (cards("AC 2C 3C"), 2)
    assert not read.problems
    plain = reader()
    assert plain.cards_in("<AC> 2C", 1) == cards("2C")
    assert raised(plain).details == ("unreadable card '<AC>'",)


@pytest.mark.parametrize("token", ["<AC", "AC>", "<<AC>", "<AC>>", "<>"])
def test_an_unbalanced_marker_is_unreadable_not_a_face_up_card(token: str) -> None:
    read = reader(face_down=True)
    assert read.pile(f"2C {token}", 5) == (cards("2C"), 0)
    error = raised(read)
    assert error.problems == DealProblem.UNREADABLE_CARD and error.line == 5
    assert error.cards == (token,) and repr(token) in str(error)


def test_a_marker_round_a_wrong_token_names_the_token_inside() -> None:
    read = reader(face_down=True)
    read.pile("<9X> AC", 2)
    assert raised(read).details == ("unreadable card '9X'",) and read.cards == ["9X"]


# -- piles ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "-"])
def test_a_dash_or_nothing_is_an_empty_pile(text: str) -> None:
    read = reader(face_down=True)
    assert read.pile(text, 1) == ([], 0) and not read.problems and read.piles == 1


def test_a_dash_among_cards_is_unreadable() -> None:
    read = reader()
    assert read.pile("AC - 2C", 1) == (cards("AC 2C"), 0)
    assert raised(read).details == ("unreadable card '-'",)


def test_a_face_down_card_above_a_face_up_one_or_on_top_is_a_bad_line() -> None:
    read = reader(face_down=True)
    read.pile("AD", 1)
    assert read.pile("<AC> 2C <3C>", 2) == (cards("AC 2C 3C"), 2)
    error = raised(read)
    assert error.problems == DealProblem.BAD_LINE and error.line == 2
    assert error.details == ("face-down card '<3C>' above a face-up card",
                             "the top card of column 2 is face down")
    assert error.cards == ("<3C>",)
    quiet = reader(face_down=True, name_misplaced=False, pile="pile")
    quiet.pile("<AC> 2C <3C> 3D", 1)
    assert raised(quiet).cards == () and quiet.details == ["face-down card '<3C>' above a face-up card"]
    quiet.pile("<AD>", 2)
    assert quiet.details[-1] == "the top card of pile 2 is face down (line 2)"


def test_a_wrong_pile_count_is_named_with_the_games_word() -> None:
    read = reader(pile="pile")
    read.check_count(3, 3)
    assert not read.problems
    read.check_count(2, 3)
    error = raised(read)
    assert error.problems == DealProblem.WRONG_PILE_COUNT and error.details == ("2 piles, expected 3",)


# -- foundations ----------------------------------------------------------------------


def test_foundations_in_both_spellings_count_the_cards_they_hold() -> None:
    read = reader()
    assert read.foundations("C-2 d-0", 1) == [(0, 2), (1, 0)]
    assert reader().foundations("2C AD", 1) == [(0, 2), (1, 1)]
    read.cards_in("3C AD 2D 3D", 2)
    read.check_cards()
    assert not read.problems


def test_bad_foundations_are_bad_lines() -> None:
    read = reader()
    assert read.foundations("C-X S-0 D-K C-A C-2", 4) == [(1, 3), (0, 1)]
    error = raised(read)
    assert error.problems == DealProblem.BAD_LINE and error.line == 4
    assert error.details == ("unreadable foundation 'C-X'",
                             "foundation 'S-0': no such suit in this game",
                             "foundation 'D-K' above rank 3",
                             "foundation 'C-2': more than 1 clubs foundation")
    assert error.cards == ("C-X", "S-0", "D-K", "C-2")
    two = DealReader("twin", DECK, 2)
    assert two.foundations("C-A C-0 C-2", 1) == [(0, 1), (0, 0)]
    assert two.details == ["foundation 'C-2': more than 2 clubs foundations"]


# -- duplicate and missing cards ------------------------------------------------------


def test_duplicate_and_missing_cards_are_named_once_each() -> None:
    read = reader()
    read.cards_in("AC 2C 2C", 1)
    read.cards_in("AC AD", 2)
    read.check_cards()
    error = raised(read)
    assert error.problems == DealProblem.DUPLICATE_CARD | DealProblem.MISSING_CARD
    assert str(error) == "twin deal: duplicate cards AC 2C; missing cards 3C 2D 3D"
    assert error.cards == ("AC", "2C", "3C", "2D", "3D") and error.line is None


def test_copies_of_a_two_deck_game_are_not_duplicates() -> None:
    read = DealReader("twin", DECK, 2)
    read.cards_in(" ".join(["AC 2C 3C AD 2D 3D"] * 2), 1)
    read.check_cards()
    assert not read.problems
    read.cards_in("3D", 2)
    read.check_cards()
    assert raised(read).details == ("duplicate card 3D",)


def test_a_duplicate_names_the_line_of_its_surplus_copy_when_asked() -> None:
    """The first line holding a copy too many; a counted card (a foundation's start) is
    taken as the first copy, so the copy in a pile is the surplus one."""
    read = reader(repeat_lines=True)
    read.count(parse_card("AD"))                              # say, the card a foundation starts on
    read.cards_in("AC 2C 3C", 1)
    read.cards_in("2D 3D AC", 2)
    read.cards_in("AD", 3)
    read.check_cards()
    error = raised(read)
    assert error.problems == DealProblem.DUPLICATE_CARD and error.line == 2
    assert error.details == ("duplicate cards AC AD",)


def test_missing_cards_may_be_left_unchecked() -> None:
    read = reader()
    read.cards_in("AC AC", 1)
    read.check_cards(missing=False)
    assert raised(read).details == ("duplicate card AC",)


# -- writing --------------------------------------------------------------------------


def test_what_the_writers_write_the_reader_reads_back() -> None:
    column, tops = cards("AC 2D 3C"), [(1, 1), (0, 0)]
    text = "\n".join([foundations_line(tops), labelled("Stock", []), pile_text(column, 2),
                      pile_text(b""), labelled("", ["3D"])])
    assert text == "Foundations: D-A C-0\nStock:\n<AC> <2D> 3C\n-\n: 3D"
    read = reader(face_down=True)
    lines = read.labelled_lines(text, ["Foundations", "Stock"])
    assert read.foundations(lines[0][2], 1) == tops and read.cards_in(lines[1][2], 2) == []
    assert [read.pile(rest, n) for n, _, rest in lines[2:]] == [(column, 2), ([], 0), (cards("3D"), 0)]
    read.check_cards()
    assert raised(read).details == ("missing card 2C",)
