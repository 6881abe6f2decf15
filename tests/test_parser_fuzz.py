"""Seeded mutations of valid deal texts: no parser, and nothing run on what it accepts, raises
anything but the project's own errors.

For each registered game, the text of a numbered deal and of a position a few random legal
moves into it (so that its labelled lines, Stock, Waste, Foundations, Redeals, Round, are
there) are mutated: tokens and lines deleted, duplicated, swapped, a card swapped for
another or for junk (Unicode digits, superscripts, huge and negative numbers, ``1_000``,
very long tokens), labels emptied or repeated, a BOM, carriage returns and tabs put in.
Each text goes through ``parse``; a position it accepts goes through ``moves``, ``key``,
``play`` of its first moves, ``is_won``, ``heuristic``, ``lower_bound``, ``forced``,
``format``, and must read back from its text with the same key. The notation of its moves
is mutated too and read with ``parse_move``. Only ``SolitaireError`` may come out.

The default run mutates a few hundred texts per game (a few seconds in all); the slow run
many more.
"""
from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from games import GAMES
from solver.game import SolitaireError

NAMES = sorted(GAMES)
FIRST_MOVES = 3              # moves played from each position a mutated text gives
PLAYED = 12                  # random moves into the deal for the mid-game text

JUNK = ("²", "³", "¹⁰", "٣", "۴", "１", "৭", "½", "Ⅻ", "10" + "0" * 29, "-1", "-7", "+3",
        "1_000", "0", "00", "99", "255", "256", "65536", "18446744073709551616", "",
        "-", "--", ":", "x", "XX", "<", ">", "<AS", "AS>", "<<AS>>", "🂡", "10♦", "\x00",
        "\u200b", "A" * 300, "9" * 300, "AS" * 50, "1e5", "0x10", "NaN", "∞", "K-", "-K")
LABELS = ("Deal", "Redeals", "Draws", "Round", "Phase", "Stock", "Waste", "Talon",
          "Foundations", "Freecells", "Aces", "Kings", "Next", "Reshuffles", "Placed",
          "Draw", "Scrap", "Arm 1", "Arm 9", "Played", "Kept", "Contract", "Hand",
          "Tricks", "Lead", "Face up", "Face down", "A", "K", "13")


def _tokens(lines: list[str]) -> list[tuple[int, int]]:
    return [(i, j) for i, line in enumerate(lines) for j in range(len(line.split(" ")))]


def _token_edit(lines: list[str], rng: random.Random,
                edit: Callable[[list[str], int], None]) -> None:
    places = _tokens(lines)
    if not places:
        return
    i, j = rng.choice(places)
    words = lines[i].split(" ")
    edit(words, j)
    lines[i] = " ".join(words)


def _some_junk(rng: random.Random, text: str) -> str:
    if rng.random() < 0.7:
        return rng.choice(JUNK)
    words = text.split()
    word = rng.choice(words) if words else "7"
    return word + rng.choice(JUNK) if rng.random() < 0.5 else rng.choice(JUNK) + word


def mutate(text: str, rng: random.Random) -> str:
    """Return `text` with one to three seeded mutations."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        kind = rng.randrange(18)
        if kind == 0:                                   # delete a token
            _token_edit(lines, rng, lambda w, j: w.pop(j))
        elif kind == 1:                                 # duplicate a token
            _token_edit(lines, rng, lambda w, j: w.insert(j, w[j]))
        elif kind == 2:                                 # a token for another of the text
            other = rng.choice(text.split() or ["-"])
            _token_edit(lines, rng, lambda w, j: w.__setitem__(j, other))
        elif kind in (3, 4):                            # a token for junk
            junk = _some_junk(rng, text)
            _token_edit(lines, rng, lambda w, j: w.__setitem__(j, junk))
        elif kind == 5:                                 # junk next to a token
            junk = rng.choice(JUNK)
            _token_edit(lines, rng, lambda w, j: w.__setitem__(j, w[j] + junk))
        elif kind == 6 and lines:                       # delete a line
            lines.pop(rng.randrange(len(lines)))
        elif kind == 7 and lines:                       # duplicate a line
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
        elif kind == 8 and len(lines) > 1:              # swap two lines
            a, b = rng.sample(range(len(lines)), 2)
            lines[a], lines[b] = lines[b], lines[a]
        elif kind == 9:                                 # a labelled line, empty or odd
            value = rng.choice(("", "-", rng.choice(JUNK), _some_junk(rng, text)))
            own = [line.split(":", 1)[0] for line in lines if ":" in line.lstrip(":")]
            label = rng.choice(own) if own and rng.random() < 0.5 else rng.choice(LABELS)
            lines.insert(rng.randrange(len(lines) + 1), f"{label}: {value}")
        elif kind == 10 and lines:                      # a label's value emptied
            k = rng.randrange(len(lines))
            lines[k] = lines[k].split(":", 1)[0] + ":"
        elif kind == 11:                                # swap two tokens
            places = _tokens(lines)
            if len(places) > 1:
                (i, j), (k, m) = rng.sample(places, 2)
                wi, wk = lines[i].split(" "), lines[k].split(" ")
                if i == k:
                    wi[j], wi[m] = wi[m], wi[j]
                    lines[i] = " ".join(wi)
                else:
                    wi[j], wk[m] = wk[m], wi[j]
                    lines[i], lines[k] = " ".join(wi), " ".join(wk)
        elif kind == 12:                                # BOM, CR, CRLF
            text = rng.choice(("\ufeff" + text, text.replace("\n", "\r\n"),
                               text.replace("\n", "\r"), "\ufeff\ufeff" + text))
            continue
        elif kind == 13:                                # tabs, runs of spaces
            text = text.replace(" ", rng.choice(("\t", "  ", " \t ", "\u00a0")),
                                rng.randint(1, 5))
            continue
        elif kind == 14:                                # cut short
            text = text[:rng.randrange(len(text) + 1)]
            continue
        elif kind in (16, 17):                          # a number for another number
            numbers = [(i, j) for i, j in _tokens(lines)
                       if lines[i].split(" ")[j].strip().isdecimal()]
            if numbers:
                i, j = rng.choice(numbers)
                words = lines[i].split(" ")
                value = int(words[j])
                words[j] = rng.choice((str(value + 1), str(max(value - 1, 0)), "0", "1", "2",
                                       "9", "10", "99", "1" + "0" * rng.choice((12, 18, 20, 22, 30)),
                                       str(2 ** 64), str(-value), words[j] + "²", "0" + words[j]))
                lines[i] = " ".join(words)
        else:                                           # a character inserted anywhere
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(("²", "٣", "-", ":", "\n", "#", "<", " ", "0")) + text[at:]
            continue
        text = "\n".join(lines)
    return text


def mid_game(game: Any, number: int, seed: int) -> Any:
    """Return deal `number` after up to PLAYED seeded random moves."""
    rng = random.Random(seed)
    state = game.deal(number)
    for _ in range(PLAYED):
        moves = list(game.moves(state))
        if not moves:
            break
        state = game.play(state, rng.choice(moves))
    return state


def exercise(game: Any, state: Any, rng: random.Random) -> None:
    """Put a parsed position through what a search and the commands ask of it."""
    hooks = game
    again = game.parse(game.format(state))
    assert again == state, game.format(state)
    assert game.key(again) == game.key(state)
    game.is_won(state)
    game.heuristic(state)
    game.lower_bound(state)
    game.forced(state)
    if hooks.dead_end is not None:
        hooks.dead_end(state)
    moves = list(game.moves(state))
    if hooks.score is not None and not moves:    # a play scores its last position
        hooks.score(state)
    for move in moves[:FIRST_MOVES]:
        for step in game.expand(state, move):
            text = game.notation(step)
            game.describe(state, step)
            assert game.parse_move(state, text) == step, text
            read_move(game, state, mutate(text, rng))
        child = game.play(state, move)
        game.key(child)
        game.is_won(child)
        game.heuristic(child)
        assert game.parse(game.format(child)) == child


def read_move(game: Any, state: Any, text: str) -> None:
    """Read a (mutated) move's notation; if it names a step, ask the rules about it."""
    try:
        step = game.parse_move(state, text)
    except SolitaireError:
        return
    if game.illegal_reason(state, step) == "":
        game.play(state, step)
        game.describe(state, step)


def fuzz(name: str, count: int, seed: int) -> tuple[int, int]:
    """Mutate deal 1's text and a mid-game text `count` times each; return (texts read,
    texts accepted)."""
    game = GAMES[name]
    rng = random.Random(f"{name}:{seed}")
    read = accepted = 0
    for base in (game.deal(1), mid_game(game, 2, seed)):
        original = game.format(base)
        for _ in range(count):
            text = mutate(original, rng)
            read += 1
            try:
                state = game.parse(text)
            except SolitaireError:
                continue
            accepted += 1
            exercise(game, state, rng)
    return read, accepted


COUNT = 500                  # mutations of each text in the default run: about 0.3 s a game
SLOW_COUNT = 5000


@pytest.mark.parametrize("name", NAMES)
def test_mutated_deal_texts_raise_only_the_projects_errors(name: str) -> None:
    read, accepted = fuzz(name, COUNT, seed=1)
    assert read == 2 * COUNT
    assert 0 < accepted < read      # the mutations break some texts and leave others readable


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", range(2, 6))
def test_many_more_mutated_deal_texts(name: str, seed: int) -> None:
    read, accepted = fuzz(name, SLOW_COUNT, seed)
    assert 0 < accepted < read == 2 * SLOW_COUNT

