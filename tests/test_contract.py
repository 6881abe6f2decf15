"""The contract every registered game owes the engine, checked on each game in ``GAMES``.

A game that registers gets these tests with no test of its own:

1. ``parse(format(s)) == s`` on numbered deals and on positions reached in play;
2. every move ``moves`` (and ``forced``) offers passes the verifier's rule check step by
   step, its steps make the move, and a random line replays through ``solver.verify``;
3. keys are equal exactly when positions are equal up to the game's symmetries;
4. forced moves never change a verdict on the game's small twins;
5. dfs and best-first search give the same verdicts on the twins;
6. each deal in ``data/<game>/bad/`` is refused with the problems, cards and line that
   ``data/<game>/bad-deals.txt`` lists.

What a game declares for them: its small twins (the optional ``twins`` attribute, read by
``solver.game.twins``), its symmetries (``SYMMETRIES`` below, through the documented
``State`` fields) and its bad deals (the files above). Game-specific answers (numbered
deals' verdicts, hand-checked positions, rule examples) stay in ``tests/games/``.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.util
import random
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Hashable

import pytest

from conftest import DATA, random_play, read_known
from symmetry import Symmetry
from games import GAMES, find_game
from solver.game import DealError, DealProblem, Status, twins
from solver.search import Budget, Result, dfs, greedy, without_forced
from solver.verify import check_solution, replay, replay_notation

NAMES = sorted(GAMES)
FRESH_DEALS = range(1, 21)  # numbered deals read back as dealt
PLAYS = (1, 2, 3)           # numbered deals played at random, each with its own seed
PLAY_LENGTH = 60            # search moves per random play (The Clock's whole game is 52)
TWIN_DEALS = range(1, 151)  # numbered deals of each twin decided by exhaustive search
TWIN_BUDGET = Budget(max_states=300_000)    # far above any twin's need: a runaway fails


def variants(game: Any) -> list[Any]:
    """Return the game, its presets and its small twins, each once."""
    found = [game]
    for preset in game.presets:
        variant = find_game(preset)
        if variant not in found:
            found.append(variant)
    return found + [twin for twin in twins(game) if twin not in found]


def variant_id(game: Any) -> str:
    """Return the game's name and the options in which it differs from the registered one."""
    registered = GAMES[game.name]
    changed = [f"{f.name}={getattr(game, f.name)}" for f in dataclasses.fields(game)
               if f.name != "name" and getattr(game, f.name) != getattr(registered, f.name)]
    return ":".join([game.name, *changed])


VARIANTS = [variant for name in NAMES for variant in variants(GAMES[name])]


def positions(game: Any, number: int) -> list[Any]:
    """Return deal `number` and every position of a seeded random play of it."""
    played, final = random_play(game, game.deal(number), PLAY_LENGTH, seed=number)
    return [state for state, _ in played] + [final]


# -- 1. text round trips -------------------------------------------------------------


@pytest.mark.parametrize("game", VARIANTS, ids=variant_id)
def test_numbered_deals_and_positions_in_play_round_trip(game: Any) -> None:
    fresh = [game.deal(number) for number in FRESH_DEALS]
    for state in fresh + [state for number in PLAYS for state in positions(game, number)]:
        assert game.parse(game.format(state)) == state, game.format(state)


# -- 2. random play stays within the rules -------------------------------------------


def assert_legal(game: Any, state: Any, move: Any) -> None:
    """Assert that each step of `move` passes the rule check and the steps make the move."""
    stepped = state
    for step in game.expand(state, move):
        assert game.illegal_reason(stepped, step) == "", (game.notation(step), game.format(stepped))
        stepped = game.play(stepped, step)
    assert stepped == game.play(state, move), game.format(state)


@pytest.mark.parametrize("game", VARIANTS, ids=variant_id)
def test_every_move_offered_in_random_play_is_legal_and_the_line_replays(game: Any) -> None:
    """Every move offered (search moves and forced moves) along seeded random plays; each
    step's notation reads back as the same step; the line, as steps and as notation,
    replays through the verifier to the same end."""
    for number in PLAYS:
        start = game.deal(number)
        played, final = random_play(game, start, PLAY_LENGTH, seed=number)
        for state in [*dict.fromkeys(state for state, _ in played), final]:
            for move in [*game.moves(state), *game.forced(state)]:
                assert_legal(game, state, move)
        for state, step in played:
            text = game.notation(step)
            assert game.play(state, game.parse_move(state, text)) == game.play(state, step), text
        steps = [step for _, step in played]
        assert replay(game, start, steps) == final
        assert replay_notation(game, start, [game.notation(step) for step in steps]) == final


# -- 3. keys and symmetries ----------------------------------------------------------


def symmetry_of(game: Any) -> Symmetry:
    """Return the SYMMETRY its own tests declare (``tests/games/test_<module>.py``)."""
    module = type(game).__module__.rsplit(".", 1)[-1]
    path = Path(__file__).resolve().parent / "games" / f"test_{module}.py"
    spec = importlib.util.spec_from_file_location(f"symmetry_of_{module}", path)
    assert spec is not None and spec.loader is not None, path
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)
    declared: Symmetry = tests.SYMMETRY
    return declared




@pytest.mark.parametrize("name", NAMES)
def test_every_game_declares_its_symmetries(name: str) -> None:
    assert isinstance(symmetry_of(GAMES[name]), Symmetry)


@pytest.mark.parametrize("game", VARIANTS, ids=variant_id)
def test_keys_are_equal_exactly_when_positions_are_equal_up_to_symmetry(game: Any) -> None:
    """Positions of random plays and random images of them under the game's symmetries:
    each image has its position's key, and no two positions that differ otherwise share
    a key (nor does one position have two)."""
    symmetry = symmetry_of(game)
    rng = random.Random(7)
    pool = [state for number in PLAYS for state in positions(game, number)]
    pool += [symmetry.image(state, rng) for state in pool for _ in range(2)]
    key_of: dict[Hashable, bytes] = {}
    canonical_of: dict[bytes, Hashable] = {}
    for state in pool:
        key, canonical = game.key(state), symmetry.canonical(state)
        assert key_of.setdefault(canonical, key) == key, game.format(state)
        assert canonical_of.setdefault(key, canonical) == canonical, game.format(state)
    assert len(key_of) > len(PLAYS)


# -- 4 and 5. small twins: forced moves and strategies ---------------------------------


@functools.lru_cache(maxsize=None)
def dfs_result(twin: Any, number: int) -> Result[Any]:
    """Return dfs's result on a twin's numbered deal (both twin tests use it)."""
    return dfs(twin, twin.deal(number), TWIN_BUDGET)


def decided_on_twins(name: str, check: Callable[[Any, int, Result[Any]], None]) -> Counter[Status]:
    """Run `check(twin, number, dfs result)` on every twin deal; return dfs's verdicts.

    A game that cannot have a small twin says why in ``no_twins`` and is skipped with that
    reason (its own tests must then check its search against play through the rules)."""
    reason = GAMES[name].no_twins
    if reason and not twins(GAMES[name]):
        pytest.skip(reason)
    verdicts: Counter[Status] = Counter()
    for twin in twins(GAMES[name]):
        for number in TWIN_DEALS:
            result = dfs_result(twin, number)
            assert result.status is not Status.UNKNOWN, (variant_id(twin), number)
            check(twin, number, result)
            verdicts[result.status] += 1
    return verdicts


@pytest.mark.parametrize("name", NAMES)
def test_forced_moves_never_change_a_verdict_on_twins(name: str) -> None:
    def same_without_forced(twin: Any, number: int, result: Result[Any]) -> None:
        plain = dfs(without_forced(twin), twin.deal(number), TWIN_BUDGET)
        assert plain.status is result.status, (variant_id(twin), number)

    verdicts = decided_on_twins(name, same_without_forced)
    assert verdicts[Status.WON] and verdicts[Status.LOST]        # both verdicts exercised


@pytest.mark.parametrize("name", NAMES)
def test_dfs_and_best_first_agree_on_twins_and_their_wins_replay(name: str) -> None:
    def same_with_best_first(twin: Any, number: int, result: Result[Any]) -> None:
        state = twin.deal(number)
        other = greedy(twin, state, TWIN_BUDGET)
        assert other.status is result.status, (variant_id(twin), number)
        if result.status is Status.WON:
            check_solution(twin, state, result.moves)
            check_solution(twin, state, other.moves)

    verdicts = decided_on_twins(name, same_with_best_first)
    assert verdicts[Status.WON] and verdicts[Status.LOST]


# -- 6. bad deals --------------------------------------------------------------------


def data_folder(game: Any) -> Path:
    """Return the game's folder under data/: named after the game (black-hole: black_hole),
    or else after its module (clock: the_clock)."""
    by_name = DATA / game.name.replace("-", "_")
    return by_name if by_name.is_dir() else DATA / type(game).__module__.rpartition(".")[2]


def bad_deals(name: str) -> list[dict[str, str]]:
    """Return the records of the game's bad-deals.txt (none when it has no such file)."""
    listing = data_folder(GAMES[name]) / "bad-deals.txt"
    return read_known(listing) if listing.is_file() else []


BAD_DEALS = [(name, record) for name in NAMES for record in bad_deals(name)]
# the problems every game's bad deals must show between them
COMMON_PROBLEMS = (DealProblem.DUPLICATE_CARD | DealProblem.MISSING_CARD
                   | DealProblem.UNREADABLE_CARD | DealProblem.WRONG_PILE_COUNT | DealProblem.EMPTY)


def problems(record: dict[str, str]) -> DealProblem:
    return functools.reduce(lambda a, b: a | b, (DealProblem[flag] for flag in record["problems"].split()))


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_bad_deals_and_lists_each_one(name: str) -> None:
    folder = data_folder(GAMES[name])
    files = {path.name for path in (folder / "bad").iterdir()}
    listed = [record["file"] for record in bad_deals(name)]
    assert files and sorted(listed) == sorted(files)
    shown = functools.reduce(lambda a, b: a | b, (problems(r) for r in bad_deals(name)))
    assert shown & COMMON_PROBLEMS == COMMON_PROBLEMS


@pytest.mark.parametrize("name, record", BAD_DEALS, ids=[f"{n}-{r['file']}" for n, r in BAD_DEALS])
def test_a_bad_deal_is_refused_with_its_problems_cards_and_line(name: str,
                                                                 record: dict[str, str]) -> None:
    game = GAMES[name]
    text = (data_folder(game) / "bad" / record["file"]).read_text(encoding="utf-8")
    with pytest.raises(DealError) as caught:
        game.parse(text)
    error = caught.value
    cards = tuple(record["cards"].split()) if record["cards"] != "-" else ()
    line = int(record["line"]) if record["line"] != "-" else None
    assert (error.problems, error.cards, error.line) == (problems(record), cards, line)
    where = f"{name} deal" + (f", line {line}" if line is not None else "")
    assert str(error).startswith(where + ": ") and "\n" not in str(error)


# -- a new game needs no list: the toy game of tests/toy_game.py --------------------------


def test_a_toy_game_meets_the_contract(tmp_path) -> None:
    """A game written as CONTRIBUTING's "Adding a game" says, and nothing more, is solved,
    hinted, verified and classified by the engine as it stands: no list names it."""
    from solver.app import analyze, batch
    from solver.game import DealError
    from toy_game import GAME as LADDER

    verdicts: Counter[Status] = Counter()
    for number in range(1, 61):
        state = LADDER.deal(number)
        assert LADDER.parse(LADDER.format(state)) == state
        exhaustive = dfs(LADDER, state)
        assert greedy(LADDER, state).status is exhaustive.status is not Status.UNKNOWN
        if exhaustive.status is Status.WON:
            check_solution(LADDER, state, exhaustive.moves)
            written = [LADDER.notation(m) for m in exhaustive.moves]
            assert analyze.verify_moves(LADDER, state, written).won
        verdicts[exhaustive.status] += 1
    assert verdicts[Status.WON] and verdicts[Status.LOST]        # both kinds of deal occur
    result, first = analyze.hint(LADDER, LADDER.deal(1))
    assert result.status is Status.WON and first
    plan = batch.Plan(LADDER, batch.read_source("1-20"), tmp_path / "r.jsonl", strategy="dfs",
                      budget=Budget(seconds=30.0, memory=1 << 28))
    assert len(list(plan.run())) == 20 and plan.summarize().total == 20
    with pytest.raises(DealError):
        LADDER.parse("Home: 0\n1 2\n")
