"""The player's view (``solver.view``) and the blind hint, checked on every game that has one.

1. every world drawn agrees with everything the player has seen (the same masked look);
2. the worlds are uniform: over the worlds of a small position, a chi-square test;
3. the steps open to the player are legal in the position and in every world drawn;
4. the blind hint reads no hidden card: positions that differ only in unseen cards give
   the same hint with the same seed, and a fixed number of samples gives the same
   answer twice.
"""
from __future__ import annotations

import math
import random
from typing import Any

import pytest

from games import GAMES, find_game
from solver.app.blind import Settings, blind_hint, play
from solver.game import SolitaireError, Status, twins
from solver.view import Sighted, world_count

VIEWED = sorted(name for name, game in GAMES.items() if game.player_view is not None)


def viewed_games() -> list[Any]:
    """Every game with a view, and its small twins."""
    found = []
    for name in VIEWED:
        game = GAMES[name]
        found += [game] + [twin for twin in twins(game) if twin != game]
    return found


def walk(game: Any, deal: int, length: int, seed: int) -> list[Sighted[Any, Any]]:
    """Return the positions of a random line of the player's steps from deal `deal`."""
    rng = random.Random(seed)
    position = Sighted.of(game, game.deal(deal))
    seen = [position]
    for _ in range(length):
        steps = position.steps()
        if not steps or game.is_won(position.state):
            break
        position = position.play(rng.choice(steps))
        seen.append(position)
    return seen


def ids(game: Any) -> str:
    return f"{game.name}-{'-'.join(f'{k}={v}' for k, v in sorted(vars(game).items()) if not callable(v))}"


@pytest.mark.parametrize("game", viewed_games(), ids=ids)
def test_worlds_agree_with_what_was_seen_and_steps_are_legal(game: Any) -> None:
    for deal in (1, 2):
        for position in walk(game, deal, 80, seed=deal)[::7]:
            look = position.look()
            steps = position.steps()
            unseen = position.unseen()
            assert sorted(unseen.cards) == sorted(position.masked().unseen().cards)
            for n in range(3):
                sample = position.sample(random.Random(n))
                drawn = Sighted(game, sample, position.seen)
                assert drawn.look() == look
                assert set(drawn.steps()) == set(steps)
                for move in steps:
                    assert legal(game, sample, move)
            for move in steps:
                assert legal(game, position.state, move)


def legal(game: Any, state: Any, move: Any) -> bool:
    """Whether a move's steps pass the verifier's rule check one after another."""
    for step in game.expand(state, move):
        if game.illegal_reason(state, step):
            return False
        state = game.play(state, step)
    return True


@pytest.mark.parametrize("game", viewed_games(), ids=ids)
def test_worlds_are_uniform(game: Any) -> None:
    """Find a position with 3 to 7 unseen cards on a random line; its worlds come out
    equally often (chi-square at the 0.1% level, with a fixed seed, so the test is
    deterministic). A hidden future (``Unseen.future``) is drawn afresh in every world,
    so worlds are told apart by where their unseen cards lie; each game's own tests check
    its future."""
    for deal in range(1, 30):
        for position in walk(game, deal, 200, seed=deal):
            cards = position.unseen().cards
            if 3 <= len(cards) <= 7 and world_count(cards) <= 720:
                worlds = world_count(cards)
                draws = 40 * worlds
                rng = random.Random(7)
                counts: dict[Any, int] = {}
                future = position.unseen().future is not None
                for _ in range(draws):
                    key = position.sample(rng)
                    if future:    # a world's drawn future is apart: count where cards went
                        key = Sighted(game, key, position.seen).unseen().cards
                    counts[key] = counts.get(key, 0) + 1
                assert len(counts) == worlds
                chi2 = sum((c - 40) ** 2 / 40 for c in counts.values())
                assert chi2 < _chi2_limit(worlds - 1)
                return
    pytest.skip("no position with 3 to 7 unseen cards on the lines tried")


def _chi2_limit(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty)."""
    z = 3.090232306167813
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("name", VIEWED)
def test_the_hint_reads_no_hidden_card(name: str) -> None:
    game = twins(GAMES[name])[0] if twins(GAMES[name]) else GAMES[name]
    position = walk(game, 3, 6, seed=3)[-1]
    other = Sighted(game, position.sample(random.Random(99)), position.seen)
    assert other.look() == position.look()
    settings = Settings(samples=24, seed=5, cap=2_000)
    first = blind_hint(position, settings).to_json()
    second = blind_hint(other, settings).to_json()
    again = blind_hint(position, settings).to_json()
    for answer in (first, second, again):
        answer.pop("seconds")
    assert first == second == again


def test_klondike_turned_stock_cards_stay_seen() -> None:
    game = GAMES["klondike"]
    position = Sighted.of(game, game.deal(1))
    assert position.seen == 24 and len(position.unseen().cards) == 24 + 21
    turn = game.parse_move(position.state, "s")
    for _ in range(24):
        position = position.play(turn)
    assert position.seen == 0 and len(position.unseen().cards) == 21
    position = position.play(turn)                  # the waste turned over: all known
    assert position.seen == 0 and position.state.waste == 0


KLONDIKES = [find_game("klondike", {"draw": 3}), GAMES["klondike"].__class__(draw=3, passes=3)] + twins(GAMES["klondike"])


@pytest.mark.parametrize("game", KLONDIKES, ids=ids)
def test_a_free_look_at_the_stock_comes_back_to_the_same_position(game: Any) -> None:
    """The safety of Klondike's free look (``KlondikeView.free_look``): from a position
    where it holds, turning the stock on round comes back to the very position before
    the turn, so the turn loses no win; with limited passes it never holds."""
    checked = 0
    for deal in range(1, 6):
        for position in walk(game, deal, 60, seed=deal):
            state, view = position.state, game.player_view
            if not view.free_look(state):
                continue
            assert game.passes is None
            turn = game.parse_move(state, "s")
            after = game.play(state, turn)
            for _ in range(len(state.talon) + 2):
                if after == state:
                    break
                after = game.play(after, turn)
            assert after == state
            checked += 1
    assert checked if game.passes is None else not checked


@pytest.mark.parametrize("game", [twin for twin in twins(GAMES["klondike"]) if twin.passes is None],
                         ids=ids)
def test_a_free_look_at_the_stock_keeps_the_verdict(game: Any) -> None:
    """With and without the free look: the position before the turn and the one after
    it get the same full-information verdict."""
    from solver.app.analyze import solve
    from solver.search import Budget

    compared = 0
    for deal in range(1, 9):
        position = Sighted.of(game, game.deal(deal))
        if not game.player_view.free_look(position.state):
            continue
        safe = position.safe()
        assert safe == [game.parse_move(position.state, "s")]
        before = solve(game, position.state, None, Budget(max_states=200_000)).status
        after = solve(game, game.play(position.state, safe[0]), None,
                      Budget(max_states=200_000)).status
        assert before is not Status.UNKNOWN and before == after
        compared += 1
    assert compared


def test_blind_play_looks_through_the_stock_before_it_chooses() -> None:
    """Klondike with unlimited passes: the player turns the whole stock before the
    first decision, so the first decision sees every stock card."""
    game = find_game("klondike", {"draw": 3})
    position = Sighted.of(game, game.deal(1))
    turns = 0
    while position.seen:
        safe = position.safe()
        assert safe == [game.parse_move(position.state, "s")]
        position = position.play(safe[0])
        turns += 1
    assert turns == 8 and len(position.unseen().cards) == 21


def test_blind_play_of_a_twin_replays_to_its_end() -> None:
    game = twins(GAMES["klondike"])[0]
    outcomes = set()
    for deal in range(1, 3):
        played = play(game, game.deal(deal), Settings(samples=8, seed=1, cap=2_000))
        state = game.deal(deal)
        for step in played.steps:
            assert game.illegal_reason(state, step) == "", game.notation(step)
            state = game.play(state, step)
        assert game.is_won(state) == (played.status is Status.WON)
        assert all(0.0 <= d["chance"] <= 1.0 for d in played.decisions)
        outcomes.add(played.status)
    assert outcomes                                   # at least one game was played


# -- what was seen, in a position's text -------------------------------------------------

MARKED = ("klondike", "forty-thieves", "crescent")   # texts that mark the cards never seen


@pytest.mark.parametrize("name", MARKED)
def test_a_position_written_with_what_was_seen_reads_back_to_it(name: str) -> None:
    """On random lines of play from deals, of the game and its twins: the text that
    ``Sighted.text`` writes reads back (``Sighted.read``) to the same position and the
    same ``seen``; the game's plain ``format`` to the position as first shown
    (``start``), as before; and the full-information ``parse`` of the marked text is the
    position itself."""
    game = GAMES[name]
    family = [game] + [twin for twin in twins(game) if twin != game]
    if name == "klondike":
        family.append(game.__class__(draw=3, passes=3))
    kinds = set()
    for member in family:
        view = member.player_view
        for deal in (1, 2, 3):
            for position in walk(member, deal, 150, seed=deal)[::5]:
                text = position.text()
                back = Sighted.read(member, text)
                assert (back.state, back.seen) == (position.state, position.seen), text
                assert member.parse(text) == position.state
                plain = Sighted.read(member, member.format(position.state))
                assert plain.seen == view.start(position.state)
                kinds.add(position.seen == view.start(position.state))
    assert kinds == {True, False}       # some positions needed their marks to say it


def test_a_game_whose_text_says_all_reads_its_start() -> None:
    spider, freecell = GAMES["spider"], GAMES["freecell"]
    state = spider.deal(1)
    position = Sighted.read(spider, spider.format(state))
    assert position.state == state and position.seen == spider.player_view.start(state)
    assert position.text() == spider.format(state)
    state = freecell.deal(1)
    assert Sighted.read(freecell, freecell.format(state)) == Sighted(freecell, state)


def test_plans_are_ranked_by_chance_then_by_the_cards_they_show() -> None:
    """A plan whose decided worlds were all won ranks above one that won 8 of 10, though
    it left 4 of its 10 worlds undecided (undecided worlds are never counted as lost);
    between equal chances, the plan that shows more unseen cards ranks first."""
    from solver.app.blind import Estimate, ranked

    undecided = Estimate((), "a", won=6, lost=0, undecided=4)
    decided = Estimate((), "b", won=8, lost=2, undecided=0)
    assert [e.notation for e in ranked([decided, undecided], scored=False)] == ["a", "b"]
    shows = Estimate((), "c", shows=1, won=8, lost=2, undecided=0)
    assert [e.notation for e in ranked([decided, shows], scored=False)] == ["c", "b"]


def test_between_equal_chances_the_plan_with_fewer_undecided_worlds_ranks_first() -> None:
    """Every decided world won after both plans, but the capped search left 6 of 10
    undecided after the one that shows ten cards (a Spider deal from the stock) and 2 of
    10 after the other: the second leaves the easier game and ranks first, though it
    shows fewer cards; the shown cards still break a tie of the undecided share."""
    from solver.app.blind import Estimate, ranked

    deal = Estimate((), "d", shows=10, won=4, lost=0, undecided=6)
    build = Estimate((), "9>5", shows=1, won=8, lost=0, undecided=2)
    assert [e.notation for e in ranked([deal, build], scored=False)] == ["9>5", "d"]
    turn = Estimate((), "4>8", shows=1, won=4, lost=0, undecided=6)
    assert [e.notation for e in ranked([turn, deal], scored=False)] == ["d", "4>8"]


def test_between_equal_chances_the_plan_that_spends_less_ranks_first() -> None:
    """A Crescent redeal whose worlds were all won, fewer left undecided, still ranks below
    a move that spends nothing and won all its decided worlds too (``blind_spending``);
    a better chance outranks spending; and the games that declare no spending steps rank
    as before (every plan spends 0)."""
    from games.crescent import GAME as crescent, REDEAL
    from games.freecell import FreeCell
    from solver.app.blind import Estimate, ranked

    assert crescent.blind_spending == frozenset((REDEAL,))
    assert FreeCell().blind_spending == frozenset()
    redeal = Estimate((REDEAL,), "r", shows=16, spends=1, won=7, lost=0, undecided=4)
    move = Estimate((), "3-11", shows=1, won=6, lost=0, undecided=5)
    assert [e.notation for e in ranked([redeal, move], scored=False)] == ["3-11", "r"]
    worse = Estimate((), "11-3", shows=1, won=6, lost=1, undecided=4)
    assert [e.notation for e in ranked([worse, redeal], scored=False)] == ["r", "11-3"]


def test_a_hint_counts_the_spending_steps_of_each_plan() -> None:
    """The hint itself marks the plans that spend (a Crescent twin's redeal) and no other."""
    twin = find_game("crescent", {"suits": 2, "ranks": 4, "piles": 3, "redeals": 1})
    hint = blind_hint(Sighted.of(twin, twin.deal(1)), Settings(samples=12, seed=1))
    spends = {e.notation: e.spends for e in hint.estimates}
    assert spends["r"] == 1 and sum(spends.values()) == 1


def test_a_pooled_plan_borrows_the_decisions_chance_as_one_world() -> None:
    """Where most worlds are left undecided, a plan none of whose worlds was decided gets
    the decision's pooled chance, not 0.5: a Spider deal with one world won no longer
    outranks a build whose eleven worlds were all undecided; the build, keeping the row,
    ranks first (``blind_spending``). A plan's own worlds still weigh in: one lost world
    beside a pooled chance of 0.5 makes (0 + 0.5) / 2."""
    from solver.app.blind import Estimate, _pool, ranked

    deal = Estimate((), "d", spends=1, won=1, lost=0, undecided=10)
    build = Estimate((), "9>5", won=0, lost=0, undecided=11)
    assert [e.notation for e in ranked([build, deal], scored=False)] == ["d", "9>5"]
    _pool([build, deal])
    assert deal.chance == build.chance == 1.0
    assert [e.notation for e in ranked([build, deal], scored=False)] == ["9>5", "d"]
    lost = Estimate((), "1>4", won=0, lost=1)
    _pool([lost, deal])
    assert lost.prior == 0.5 and lost.chance == 0.25 and deal.chance == 0.75


def test_the_games_whose_worlds_are_mostly_undecided_pool_and_their_hints_do() -> None:
    pooled = {name for name, game in GAMES.items() if game.blind_pooled}
    assert pooled == {"crescent", "spider"}          # Spider: its default four suits
    assert not find_game("spider", {"suits": 1}).blind_pooled
    assert find_game("spider", {"suits": 2}).blind_pooled
    twin = find_game("crescent", {"suits": 2, "ranks": 4, "piles": 3, "redeals": 1})
    hint = blind_hint(Sighted.of(twin, twin.deal(1)), Settings(samples=12, seed=1))
    won = sum(e.won for e in hint.estimates)
    decided = sum(e.decided for e in hint.estimates)
    assert decided and all(e.prior == won / decided for e in hint.estimates)
    klondike = find_game("klondike")
    plain = blind_hint(Sighted.of(klondike, klondike.deal(1)), Settings(samples=12, seed=1))
    assert all(e.prior is None for e in plain.estimates)


# Two Klondike draw 3 positions reached by blind play (PySolFC deals 3 and 18), as the player
# saw them: every stock card turned once (``Seen: all``), the face-down cards unseen.
WIDE = """Foundations: C-0 D-A H-6 S-6
Talon:
Waste: AC KH 3C KD 9S
Seen: all
KS QH
8H 7C 6D 5C
-
-
QC JD TS 9D 8S 7H 6C 5D 4C 3D 2C
<2D> <4D> QS JH TC 9H 8C 7D
<KC> <TH> <JS> QD JC TD 9C 8D 7S
"""
STUCK = """Foundations: C-3 D-A H-A S-4
Talon: 3H KH
Waste: 2H KD QC
Seen: all
KC
KS QH JC TH 9S 8H 7S 6H
<2D> JD TC 9D 8C 7D 6S 5H
TD
<4D> <8S> <QS> JH TS 9H
<JS> <9C> 7H 6C 5D 4C 3D
<QD> <5S> 8D 7C 6D 5C 4H
"""

DEEP = """Foundations: C-3 D-5 H-A S-4
Talon:
Waste: QD
Seen: all
KC QH JS TD 9S 8H 7S 6D 5C
KD QS JH TC 9H 8S 7D 6C
KH QC JD TS 9D 8C 7H 6S 5H 4C 3H
-
-
-
<KS> <2H> JC TH 9C 8D 7C 6H 5S 4H
"""


def test_blind_play_reads_plans_further_off_from_the_wins_of_worlds() -> None:
    """The two under the run of ten can be freed only twenty moves in (the run broken
    up, cards sent home and back), beyond the wider region blind play explores: no plan
    is found there, yet the deal is won. Plans read from won worlds' solutions
    (``deeper_plans``) reach it, each a player's plan: moves that can be undone, then one
    that cannot. Blind play, which called this position stuck, wins it."""
    from games import find_game
    from solver.app.blind import WIDE_LOOKS, _successors, deeper_plans, plans

    game = find_game("klondike", {"draw": 3})
    start = Sighted.read(game, DEEP)
    masked = start.masked()
    assert plans(masked, frozenset(), WIDE_LOOKS) == []
    further = deeper_plans(masked, Settings(samples=10, seed=1).for_game(game), frozenset(), [])
    assert further
    for plan in further:
        here = masked
        for index, step in enumerate(plan):
            assert step in here.steps()
            after = here.play(step)
            undoable = here.look() in _successors(after, {})
            assert undoable == (index < len(plan) - 1)
            here = after
        assert len(here.unseen().cards) < len(masked.unseen().cards)
    played = play(game, start.state, Settings(samples=10, seed=1), start=start)
    assert played.status is Status.WON, played.reason


@pytest.mark.parametrize("board, status, first", [
    (DEEP, 0, "play 71 7f 17 1f"),
    (STUCK, 3, "no plan found: every move open can be undone")])
def test_a_blind_hint_reads_plans_further_off_and_says_when_it_finds_none(
        board: str, status: int, first: str, capsys: Any, tmp_path: Any) -> None:
    """The hint weighs the plans blind play does: read from won worlds where none is near
    (it said "no move is open: the game is lost" of a won position before). Where moves
    are open and none leads anywhere it says so, as unknown (status 3), not lost: a move
    that cannot be undone may lie beyond every region looked at."""
    from conftest import run_main

    path = tmp_path / "board.txt"
    path.write_text(board)
    code, out, _ = run_main(["hint", "klondike", str(path), "-V", "draw=3", "--blind",
                             "--samples", "20", "--seed", "1"], capsys)
    assert code == status
    assert out.splitlines()[1].startswith(first)


def test_blind_play_takes_a_last_look_with_more_worlds_before_it_gives_up(
        monkeypatch: Any) -> None:
    """Every plan sees the same worlds, so a few unlucky ones can show no win after any
    plan: before giving up, blind play looks again with ``LAST_LOOK`` times the worlds,
    plays on with the plan that wins there, and gives up only when none does."""
    from solver.app import blind

    game = find_game("klondike", {"draw": 3})
    asked: list[int] = []

    def fake_hint(position: Any, settings: Any, on_sample: Any = None, avoid: Any = frozenset(),
                  options: Any = None) -> Any:
        asked.append(settings.samples)
        estimates = [blind.Estimate(plan, blind.written(position.masked(), plan))
                     for plan in options]
        for estimate in estimates:
            estimate.lost = settings.samples
        if len(asked) == 2:                 # the first last look: the last plan wins once
            estimates[-1].lost, estimates[-1].won = settings.samples - 1, 1
        return blind.BlindHint(tuple(blind.ranked(estimates, False)), 0, 0.0, True)

    monkeypatch.setattr(blind, "blind_hint", fake_hint)
    monkeypatch.setattr(blind, "deeper_plans", lambda *args: [])
    start = Sighted.of(game, game.deal(5))
    played = play(game, start.state, Settings(samples=10, seed=1), start=start)
    assert asked == [10, 10 * blind.LAST_LOOK, 10, 10 * blind.LAST_LOOK]
    assert played.decisions[0]["chance"] == pytest.approx(1 / 40)
    assert played.status is Status.LOST and played.reason == "no world drawn could be won"

SHUFFLES = """Foundations: C-2 D-0 H-2 S-4
Talon: 6C 7H
Waste: TS 9H KS 6D 5C 7C KC
Seen: all
5D
<3H> 9C
KH QS JD TC 9D 8S 7D 6S 5H 4C 3D
-
<JH> KD
<TH> <QC> <AD> QD JC TD 9S 8D 7S 6H 5S 4H 3C 2D
<JS> <8C> <4D> <8H> QH
"""


def test_plans_that_differ_by_undoable_moves_are_one_choice_in_a_large_region(
        monkeypatch: Any) -> None:
    """A losing decision of a blind Klondike game (draw 3 deal 702, step 110): the kings,
    two long runs and the stock's cards move to and fro among hundreds of positions.
    Named from whole regions (up to ``NAME_LOOKS`` positions), its plans are 3 choices;
    named from regions cut at 32 positions they were 69 copies of those."""
    from solver.app import blind

    game = find_game("klondike", {"draw": 3})
    masked = Sighted.read(game, SHUFFLES).masked()
    assert len(blind.plans(masked)) == 3
    monkeypatch.setattr(blind, "NAME_LOOKS", blind.PLAN_LOOKS)
    assert len(blind.plans(masked)) == 69


def test_blind_play_looks_farther_for_a_plan_before_it_gives_up() -> None:
    """With two empty columns the kings move back and forth among thousands of positions
    that can be undone: none of the nearest ``PLAN_LOOKS`` leads out, but the wider region
    blind play explores next does, and from there this position is won (it was lost, with
    no plan found, before blind play looked farther)."""
    from games import find_game
    from solver.app.blind import PLAN_LOOKS, plans

    game = find_game("klondike", {"draw": 3})
    start = Sighted.read(game, WIDE)
    assert plans(start.masked(), frozenset(), PLAN_LOOKS) == []
    played = play(game, start.state, Settings(samples=4, seed=1), start=start)
    assert played.status is Status.WON, played.reason


def test_blind_play_stuck_among_undoable_moves_is_lost_and_says_why() -> None:
    """Every move open here can be undone, and none of the positions they reach has a move
    that cannot: no card can ever be shown or placed for good, so the game is lost."""
    from games import find_game

    game = find_game("klondike", {"draw": 3})
    start = Sighted.read(game, STUCK)
    assert start.masked().steps()                   # moves are open, all of them undoable
    played = play(game, start.state, Settings(samples=10, seed=1), start=start)
    assert played.status is Status.LOST and played.decisions == []
    assert played.reason == "stuck: every move open can be undone and none leads further"


@pytest.mark.parametrize("budget", ["unbounded", "spent"])
def test_plans_named_by_shared_regions_are_the_plans_named_one_by_one(
        budget: str, monkeypatch: Any) -> None:
    """``plans`` names an end by the least look of its undoable region, and reuses a whole
    region's name for every end inside it (a move is undoable exactly when its reverse
    is). Along random Klondike and one-suit Spider games, the plans are those found by
    exploring every end's region afresh, also where regions pass ``NAME_LOOKS`` (two empty
    columns, the kings moving to and fro); with ``NAME_BUDGET`` spent, at ``PLAN_LOOKS``
    an end."""
    from solver.app import blind

    if budget == "unbounded":
        monkeypatch.setattr(blind, "NAME_BUDGET", 10**9)
        naming = blind.NAME_LOOKS
    else:
        monkeypatch.setattr(blind, "NAME_BUDGET", 0)
        naming = blind.PLAN_LOOKS

    def one_by_one(masked: Sighted[Any, Any]) -> list[tuple[Any, ...]]:
        start = masked.look()
        around, ends = blind._undoable_region(masked, blind.PLAN_LOOKS)
        found: dict[Any, tuple[Any, ...]] = {}
        for path, after in ends:
            if after.look() == start:
                continue
            name = min(blind._undoable_region(after, naming)[0], key=repr)
            if name not in found and name not in around:
                found[name] = path
        return list(found.values())

    klondike, spider = find_game("klondike", {"draw": 3}), find_game("spider", {"suits": 1})
    compared = 0
    for position, seed in ((Sighted.of(klondike, klondike.deal(3)), 3),
                           (Sighted.read(klondike, WIDE), 1),
                           (Sighted.of(spider, spider.deal(2)), 2)):
        game, rng = position.game, random.Random(seed)
        for _ in range(40):
            masked = position.masked()
            assert blind.plans(masked) == one_by_one(masked)
            compared += 1
            steps = masked.steps()
            if not steps or game.is_won(position.state):
                break
            position = position.play(rng.choice(steps))
    assert compared >= 80


@pytest.mark.parametrize("name", [n for n in VIEWED if not GAMES[n].player_view.can_undo])
def test_a_view_that_says_no_step_can_be_undone_is_right(name: str) -> None:
    """``can_undo = False`` lets ``plans`` take every step as a plan of its own: along
    random lines of play, no step leads to a position from which a step leads back, and
    the plans are those the search for undoable moves finds."""
    from solver.app import blind

    game = GAMES[name]
    view = type(game.player_view)
    checked = 0
    for deal in (1, 2, 3):
        for position in walk(game, deal, 40, seed=deal):
            masked = position.masked()
            look = masked.look()
            steps = masked.steps()
            for step in steps[:40]:                  # Bridge's first choice has 792
                after = masked.play(step)
                assert all(after.play(back).look() != look for back in after.steps())
            if len(steps) > 100 and deal > 1:
                continue                             # the search is slow there: once is enough
            fast = blind.plans(masked)
            view.can_undo = True                     # type: ignore[misc]
            try:
                searched = blind.plans(masked)
            finally:
                view.can_undo = False                # type: ignore[misc]
            assert fast == searched
            checked += 1
    assert checked >= 30


def test_a_hint_by_the_clock_ends_on_time_even_before_every_plan_has_a_world() -> None:
    """The deadline binds the first round too: Bridge Solitaire's first choice has 792
    plans, far more than a hundredth of a second plays out; every plan is still listed,
    and those given no world rank after the plans of their value that were tried."""
    from solver.app.blind import _value

    game = find_game("bridge-solitaire")
    hint = blind_hint(Sighted.of(game, game.deal(1)), Settings(seconds=0.01, seed=1))
    assert len(hint.estimates) == 792
    assert hint.samples == sum(e.samples for e in hint.estimates) < 792
    assert hint.allocation == "halving"       # far fewer worlds than four a plan in the time
    for ahead, behind in zip(hint.estimates, hint.estimates[1:]):
        if _value(ahead, True) == _value(behind, True):
            assert ahead.samples or not behind.samples


def test_ucb_reads_a_score_without_a_fixed_best_within_the_scores_seen() -> None:
    """UCB1 asks for values in [0, 1]: a game whose best score differs from deal to deal
    (no ``best_score``) has its means placed within the range of world scores seen."""
    from solver.app.blind import Estimate, _upper

    low, high = Estimate((), "a", 0, 0), Estimate((), "b", 0, 0)
    for estimate, total in ((low, -200), (high, 600)):
        estimate.won, estimate.lost, estimate.scored = 1, 1, 2
        estimate.score_total = total
    span = (-400.0, 900.0)
    bonus = math.sqrt(2) * math.sqrt(math.log(100) / 2)
    assert _upper(low, 100, True, None, span) == pytest.approx(300 / 1300 + bonus)
    assert _upper(high, 100, True, None, span) == pytest.approx(700 / 1300 + bonus)
    assert _upper(high, 100, True, 0, span) == pytest.approx(300 + bonus)   # best 0: as is


def _arms(means: list[float], seed: int = 5) -> tuple[list[Any], Any]:
    """Bandit arms as estimates: arm i wins a world with chance means[i] (seeded)."""
    from solver.app.blind import Estimate

    rng = random.Random(seed)
    arms = [Estimate((), f"arm{i:03d}", 0, 0) for i in range(len(means))]
    chance = {arm.notation: mean for arm, mean in zip(arms, means)}

    def pull(arm: Any) -> None:
        if rng.random() < chance[arm.notation]:
            arm.won += 1
        else:
            arm.lost += 1
    return arms, pull


def test_sequential_halving_spends_the_budget_and_keeps_the_best_plan() -> None:
    """Halving spends exactly the worlds given, compares the plans in play on equal
    numbers of worlds, and ends with the clearly best plan ranked first."""
    from solver.app.blind import _halve, ranked

    means = [0.3] * 99 + [0.9]
    arms, pull = _arms(means)
    budget = [3_000]

    def spend(batch: Any) -> None:
        for arm in batch:
            if budget[0] <= 0:
                return
            budget[0] -= 1
            pull(arm)
    def spend_by(choose: Any) -> None:
        while budget[0] > 0:
            spend([choose(lambda arm: 0, 0)])
    spend(arms)
    _halve(arms, spend, spend_by, lambda: budget[0] > 0, lambda: budget[0], scored=False)
    assert budget[0] == 0
    best = ranked(arms, scored=False)[0]
    assert best.notation == "arm099" and best.stage == 7          # ⌈log₂ 100⌉ rounds
    for stage in range(7):         # plans dropped in the same round saw the same worlds
        assert len({arm.samples for arm in arms if arm.stage == stage}) == 1


def test_a_hint_over_many_plans_halves_and_few_plans_use_ucb1() -> None:
    """Bridge Solitaire's 792 keeps at 2,000 worlds are halved (the choice has the most
    worlds, and the answer is the same on every run); a Klondike decision's few plans
    keep UCB1."""
    game = find_game("bridge-solitaire")
    position = Sighted.of(game, game.deal(1))
    hint = blind_hint(position, Settings(samples=2_000, seed=1))
    assert hint.allocation == "halving" and hint.samples == 2_000
    best = hint.estimates[0]
    assert best.samples == max(e.samples for e in hint.estimates)
    assert best.stage == max(e.stage for e in hint.estimates) == 10
    again = blind_hint(position, Settings(samples=2_000, seed=1))
    assert [(e.notation, e.samples, e.score_total) for e in again.estimates] == \
        [(e.notation, e.samples, e.score_total) for e in hint.estimates]
    klondike = find_game("klondike")
    few = blind_hint(Sighted.of(klondike, klondike.deal(1)), Settings(samples=60, seed=1))
    assert few.allocation == "ucb1" and few.samples == 60
    forced = blind_hint(position, Settings(samples=2_000, seed=1, allocation="ucb1"))
    assert forced.allocation == "ucb1" and max(e.stage for e in forced.estimates) == 0
    halved = blind_hint(Sighted.of(klondike, klondike.deal(1)),
                        Settings(samples=60, seed=1, allocation="halving"))
    assert halved.allocation == "halving" and halved.samples == 60


def test_an_unknown_allocation_is_refused() -> None:
    with pytest.raises(SolitaireError, match="unknown allocation 'greedy'"):
        Settings(samples=10, allocation="greedy")
