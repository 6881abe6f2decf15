"""The difficulty card (`solitaire analyze`): known answers on small twins, the JSON fields,
every game, classify --analyze, an undecided deal's honest card, and bad input."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from command_line import runner

from conftest import quick_first
from games import GAMES, find_game
from solver.app import difficulty
from solver.app.analyze import listed_moves, solve
from solver.app.cli import app
from solver.game import Status, twins
from solver.search import Budget

TWIN = ["-V", "ranks=3", "-V", "columns=4"]


def run(*args: str):
    return runner.invoke(app, list(args))


# -- known answers ----------------------------------------------------------------------

# Black Hole with 4 ranks, deal 4 (Foundations: AS; piles bottom first):
#   3D 4D 3H / 3S 4H 2H / 2C 2S 2D / AC 4C 4S / AH 3C AD
# Its solution's first 12 steps (2H 3H 2D AD 4S 3C 4D 3D 4H 3S 2S AH) leave AH on the
# foundation and two piles, 2C and AC 4C. Either top may go on the Ace (ranks wrap: 2 or
# 4): 4C then AC then 2C wins; 2C first leaves 4C, which goes on neither 2 nor the Ace
# below it, so that game is lost. Step 13 (index 12) is the one critical step. The
# first moves: 2H, 2D and 4S may go on AS (3 legal), and each keeps the deal winnable.
BLACK_HOLE_4 = ("2H 3H 2D AD 4S 3C 4D 3D 4H 3S 2S AH 4C AC 2C").split()


def test_black_hole_twin_has_its_hand_checked_critical_step():
    game = dataclasses.replace(find_game("black-hole"), ranks=4)
    made = difficulty.card(game, game.deal(4), 4, difficulty.Settings(seconds=10))
    assert made.verdict.status is Status.WON
    assert list(made.solution) == BLACK_HOLE_4
    assert made.critical == [12] and made.critical_undecided == []
    assert made.first_moves == {"winning": 3, "lost": 0, "unknown": 0, "legal": 3}
    assert made.shortest is not None and made.shortest["optimal"]
    assert made.least is None and "least" in made.unfilled        # Black Hole has no dial


def test_a_shortest_not_proven_names_its_lower_bound_only_where_it_says_something():
    """A bound of 0 says nothing (a scored game such as Bridge Solitaire has none): the
    card then says the length is not proven, rather than that every win needs 0 moves."""
    game = dataclasses.replace(find_game("black-hole"), ranks=4)
    made = difficulty.card(game, game.deal(4), 4, difficulty.Settings(seconds=10))
    made.shortest = {"length": 17, "steps": 17, "optimal": False, "lower_bound": 15}
    assert "shortest solution: 17 moves (the shortest found; every win needs at least 15)" \
        in difficulty.card_lines(made)
    made.shortest = {"length": 17, "steps": 17, "optimal": False, "lower_bound": 0}
    lines = difficulty.card_lines(made)
    assert "shortest solution: 17 moves (the shortest found, not proven shortest)" in lines
    assert not any("at least 0" in line for line in lines)


def test_random_play_claims_no_way_gone_where_the_start_has_no_lower_bound():
    """Bridge Solitaire's lower bound is 0 from the start (a scored game): its card reports
    random play's wins without a share of the way, which would read 0% on every deal."""
    game = find_game("bridge-solitaire")
    assert game.lower_bound(game.deal(1)) == 0
    made = difficulty.card(game, game.deal(1), 1, difficulty.Settings(
        seconds=1, max_states=3000, random_games=20, guided_games=5, blind_samples=2, least=False,
        shortest=False))
    assert made.random_play is not None and made.random_play["progress"] is None
    line = next(line for line in difficulty.card_lines(made) if line.startswith("random play:"))
    assert line == f"random play: {made.random_play['won']} of 20 games won (seed 0)"
    twin = dataclasses.replace(find_game("black-hole"), ranks=4)
    small = difficulty.card(twin, twin.deal(4), 4, difficulty.Settings(seconds=10))
    assert small.random_play is not None and 0 < small.random_play["progress"] <= 1
    assert any("of the way on average" in line for line in difficulty.card_lines(small))


def test_first_moves_left_when_the_cards_time_is_out_are_unknown_not_solved():
    """Bridge Solitaire's 792 keeps are each solved too quickly to read the clock, so
    together they take more than the stage's part of the time; the card's time up to its
    later stages bounds them, and the keeps it leaves are counted unknown."""
    game = find_game("bridge-solitaire")
    stage = Budget(seconds=0.05)
    counts = difficulty.first_moves(game, game.deal(1), stage, until=Budget(seconds=0.05).start())
    assert counts["legal"] == 792 and counts["unknown"] > 600
    assert counts["winning"] + counts["lost"] + counts["unknown"] == 792
    # a cap of 50 positions decides keeps (a share of a second each search reaches the cap
    # in even on a loaded machine, unlike the 0.05 s above), until the half second is out
    small = difficulty.first_moves(game, game.deal(1), Budget(seconds=1), cap=50,
                                   until=Budget(seconds=0.5).start())
    assert small["legal"] == 792 and small["winning"] > 0 and small["unknown"] < 792


def test_the_first_moves_stop_in_time_for_the_stages_after_them():
    """The first moves may overrun their own share, but stop when only the later stages'
    shares are left (critical steps, random play, the blind chance, and the dial's values
    where there is a dial), so a card keeps to its seconds: Bridge Solitaire's cards,
    whose 1,716 keeps once ran to the card's whole time, took up to 70 s of 60."""
    later = difficulty.SHARES["critical"] + difficulty.SHARES["random_play"] + \
        difficulty.SHARES["blind"]
    settings = difficulty.Settings(seconds=60.0)
    bridge, freecell = find_game("bridge-solitaire"), find_game("freecell")
    assert bridge.dial is None and freecell.dial is not None
    assert difficulty.first_moves_end(bridge, settings) == pytest.approx(60 * (1 - later))
    assert difficulty.first_moves_end(freecell, settings) == \
        pytest.approx(60 * (1 - later - difficulty.SHARES["least"]))
    unasked = dataclasses.replace(settings, least=False)
    assert difficulty.first_moves_end(freecell, unasked) == pytest.approx(60 * (1 - later))
    assert difficulty.first_moves_end(freecell, difficulty.Settings(seconds=None)) is None
    # every stage before the first moves keeps to its share, so they always get their own
    before = sum(difficulty.SHARES[name] for name in ("verdict", "effort", "shortest"))
    assert before + difficulty.SHARES["first_moves"] <= 1 - later - difficulty.SHARES["least"] + 1e-9


def test_the_solutions_own_first_move_counts_winning_without_a_search():
    """A first move to a position on the verdict's verified line is a proven win: with a
    cap too small for any search to decide, it is the one move counted winning; with the
    cap ample the counts are the same either way (the line only saves the search)."""
    game = find_game("freecell")
    start = game.deal(1)
    won = solve(game, start, None, Budget(max_states=200_000))
    assert won.status is Status.WON
    keys = difficulty.line_keys(game, start, won.moves)
    assert len(keys) >= 2 and game.key(start) in keys
    stage = Budget(seconds=600)
    blind = difficulty.first_moves(game, start, stage, cap=1)
    assert blind["winning"] == 0 and blind["unknown"] == blind["legal"]
    seen = difficulty.first_moves(game, start, stage, cap=1, winnable=keys)
    assert seen["winning"] >= 1 and seen["winning"] + seen["unknown"] == seen["legal"]
    assert difficulty.first_moves(game, start, stage, winnable=keys) == \
        difficulty.first_moves(game, start, stage)


def test_declared_weights_are_the_freecell_weights_scaled() -> None:
    """Klondike's and Gaps' own weights (``difficulty_weights``, default rules) are the
    FreeCell-fitted weights times one positive scale, the bias apart: they keep the
    FreeCell order of deals and only map it onto the game's own dial."""
    from games import GAMES

    declared = {name: game.difficulty_weights for name, game in GAMES.items()
                if game.difficulty_weights is not None}
    assert {"klondike", "gaps", "bridge-solitaire"} <= set(declared)
    for name, weights in declared.items():
        assert set(weights) == set(difficulty.WEIGHTS), name
        scale = weights["progress"] / difficulty.WEIGHTS["progress"]    # the largest weight
        assert scale > 0, name
        for key, value in weights.items():        # each written to three decimals
            if key != "bias":
                assert abs(value - scale * difficulty.WEIGHTS[key]) <= 0.0006, (name, key)


def test_a_game_that_declares_its_own_weights_is_scored_by_them():
    """Black Hole with 4 ranks, deal 4, under weights that read nothing but a bias of 2:
    the card's difficulty is 100·σ(2) whatever the features; under the default weights it
    is the FreeCell-fitted score of the same features."""
    base = dataclasses.replace(find_game("black-hole"), ranks=4)
    weights = {name: 0.0 for name in difficulty.WEIGHTS} | {"bias": 2.0}
    kind = type("WeightedBlackHole", (type(base),), {"difficulty_weights": weights})
    game = kind(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)})
    settings = difficulty.Settings(seconds=10)
    own, default = difficulty.card(game, game.deal(4), 4, settings), \
        difficulty.card(base, base.deal(4), 4, settings)
    assert own.features == default.features
    assert own.difficulty == round(100 / (1 + 2.718281828459045 ** -2.0), 1) == 88.1
    assert default.difficulty == round(difficulty.score(default.features), 1)
    assert own.difficulty != default.difficulty and own.tier == "very hard"


def test_a_games_own_weights_are_fitted_against_the_scarcest_value_of_its_dial(
        tmp_path: Path, capsys):
    """benchmarks/difficulty_fit.py labels a won card easy when the dial's scarcest value
    tried was won, hard when it was lost, and not at all when undecided; on records whose
    random games win more often on the easy deals, the fitted weights separate the classes
    on the deals they were not fitted on."""
    from conftest import benchmark_script

    fitting = benchmark_script("difficulty_fit")
    tried = {0: [{"passes": 1, "status": "won"}],
             1: [{"passes": 1, "status": "lost"}, {"passes": 2, "status": "won"}]}
    assert fitting.label({"status": "won", "least_tried": tried[0]}) == 0
    assert fitting.label({"status": "won", "least_tried": tried[1]}) == 1
    assert fitting.label({"status": "won", "least_tried": [
        {"passes": 1, "status": "unknown"}, {"passes": 2, "status": "won"}]}) is None
    assert fitting.label({"status": "lost", "least_tried": tried[1]}) is None
    # --hard-unproven: undecided at the hard value counts as hard, a win there never does
    undecided = [{"passes": 1, "status": "unknown"}, {"passes": 2, "status": "won"}]
    assert fitting.label({"status": "won", "least_tried": undecided}, 1, 1, True) == 1
    assert fitting.label({"status": "won", "least_tried": tried[0]}, 1, 1, True) == 0
    assert fitting.label({"status": "won", "least_tried": undecided}, 1, 2, True) is None
    # thresholds: easy when won at 2 passes or fewer, hard when lost at 2 (FreeCell's own
    # check in these terms is --easy 1 --hard 2)
    assert fitting.label({"status": "won", "least_tried": tried[1]}, 2, 2) == 0
    three = [{"passes": 1, "status": "lost"}, {"passes": 2, "status": "lost"},
             {"passes": 3, "status": "won"}]
    assert fitting.label({"status": "won", "least_tried": three}, 2, 2) == 1
    assert fitting.label({"status": "won", "least_tried": three}, 3, 3) == 0
    assert fitting.dial_value("none") is None and fitting.dial_value("2") == 2
    unlimited = [{"passes": 1, "status": "lost"}, {"passes": None, "status": "won"}]
    assert fitting.label({"status": "won", "least_tried": unlimited}, None, 1) == 0   # --easy none
    assert fitting.label({"status": "won", "least_tried": unlimited}) == 1
    records = []
    for deal in range(1, 201):
        hard = deal % 2
        rate = (0.1 if hard else 0.5) + (deal % 7) / 20
        records.append({"game": "klondike", "variant": {}, "deal": deal, "status": "won",
                        "least_tried": tried[hard], "features": {
                            "effort": 1000, "narrow": 0.0, "critical": 0, "length": 200,
                            "random": rate, "progress": 0.8, "guided": 0.9}})
    path = tmp_path / "k.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert fitting.main([str(path), "--fit-to", "100", "--boot", "0"]) == 0
    out = capsys.readouterr().out
    assert "check (deals after 100): fitted 50 easy / 50 hard, AUC 1.000" in out
    rows = [(fitting.default_z(r), fitting.label(r)) for r in records]
    weights = fitting.scaled(rows)                # the default weights scaled: order kept
    ratios = {name: weights[name] / value for name, value in difficulty.WEIGHTS.items()
              if name != "bias"}
    assert max(ratios.values()) == pytest.approx(min(ratios.values())) and min(ratios.values()) > 0
    assert fitting.main([str(path), "--fit-to", "100", "--boot", "0", "--scale-only"]) == 0
    line = next(text for text in capsys.readouterr().out.splitlines() if text.startswith("all"))
    ours, present = line.split("; the game's present weights ")
    assert ours.split("AUC ")[1][:5] == present.split("AUC ")[1][:5]
    assert fitting.main([str(tmp_path / "missing.jsonl"), "--fit-to", "1"]) == 2
    # --blind: labelled by blind games instead of the dial (lost blind: hard), here the same
    # classes, so the same check; a deal with no blind game played out is left out
    blind = tmp_path / "blind.jsonl"
    blind.write_text("".join(json.dumps({"deal": d, "status": "lost" if d % 2 else "won"}) + "\n"
                             for d in range(1, 200)) + json.dumps({"deal": 200, "status": "unknown"}) + "\n")
    assert fitting.blind_labels([blind])[3] == 1 and 200 not in fitting.blind_labels([blind])
    assert fitting.main([str(path), "--fit-to", "100", "--boot", "0", "--blind", str(blind)]) == 0
    out = capsys.readouterr().out
    assert "easy: won blind, hard: lost blind" in out
    assert "check (deals after 100): fitted 49 easy / 50 hard, AUC 1.000" in out
    assert fitting.main([str(path), "--fit-to", "100", "--easy", "1", "--blind", str(blind)]) == 2
    assert "without --easy" in capsys.readouterr().err


def test_the_critical_step_is_a_choice_with_one_way_on():
    game = dataclasses.replace(find_game("black-hole"), ranks=4)
    state = game.deal(4)
    for notation in BLACK_HOLE_4[:12]:
        state = game.play(state, game.parse_move(state, notation))
    outcomes = {game.notation(m): solve(game, game.play(state, m)).status
                for m in listed_moves(game, state)}
    assert outcomes == {"4C": Status.WON, "2C": Status.LOST}


# FreeCell with 3 ranks, 4 columns (bottom first): 2S 2C 3H / 3C AD 3D / 3S AH 2D / 2H AC AS.
# With no free cell only AS can move (home, or onto 2D); either way AS and AC go home and
# the tops 3H 3D 2D 2H have nowhere to go: lost. With one cell it is won (13 steps).
def test_least_free_cells_of_a_twin_is_one_and_exact():
    game = dataclasses.replace(find_game("freecell"), ranks=3, columns=4, cells=2)
    made = difficulty.card(game, game.deal(5), 5, difficulty.Settings(seconds=10))
    assert made.least == {"cells": 1} and made.least_exact
    assert made.least_tried == [{"cells": 0, "status": "lost"}, {"cells": 1, "status": "won"}]


def test_a_lost_deal_has_a_tier_but_no_difficulty_and_a_freer_least():
    game = dataclasses.replace(find_game("freecell"), ranks=3, columns=4, cells=0)
    made = difficulty.card(game, game.deal(5), 5, difficulty.Settings(seconds=10))
    assert made.verdict.status is Status.LOST
    assert made.difficulty is None and made.tier == "lost" and "difficulty" in made.unfilled
    assert made.first_moves == {"winning": 0, "lost": 2, "unknown": 0, "legal": 2}
    assert made.least == {"cells": 1} and made.least_exact


def test_the_least_of_a_file_is_carried_over_by_its_text():
    game = dataclasses.replace(find_game("freecell"), ranks=3, columns=4, cells=2)
    text = game.format(game.deal(5))
    found, exact, tried = difficulty.least_resources(game, game.parse(text), None, Status.WON,
                                                     Budget(seconds=10))
    assert found == {"cells": 1} and exact and tried[0] == {"cells": 0, "status": "lost"}


def test_the_score_grows_with_effort_and_falls_with_random_wins():
    base = difficulty.Features(effort=1000, narrow=0.2, critical=2, length=100, random=0.1,
                               progress=0.3, guided=0.2)
    harder = dataclasses.replace(base, effort=100_000)
    luckier = dataclasses.replace(base, random=0.9)
    guided = dataclasses.replace(base, guided=0.9)     # a follower of the heuristic wins more
    assert difficulty.score(harder) > difficulty.score(base) > difficulty.score(luckier)
    assert difficulty.score(base) > difficulty.score(guided)
    assert all(0 <= difficulty.score(f) <= 100 for f in (base, harder, luckier))
    assert [difficulty.tier(x) for x in (0, 24.9, 25, 49.9, 50, 74.9, 75, 100)] == \
        ["easy", "easy", "medium", "medium", "hard", "hard", "very hard", "very hard"]


# -- every game ------------------------------------------------------------------------

def small(game):
    found = twins(game)
    return found[0] if found else game


def test_random_play_is_seeded_and_a_won_deal_counts_full_progress():
    game = dataclasses.replace(find_game("freecell"), ranks=3, columns=4, cells=1)
    first = difficulty.random_play(game, game.deal(5), 20, seed=3)
    assert first == difficulty.random_play(game, game.deal(5), 20, seed=3)
    assert first == (20, 1.0)                 # every random game wins this twin
    lost = dataclasses.replace(game, cells=0)
    won, progress = difficulty.random_play(lost, lost.deal(5), 20, seed=3)
    assert won == 0 and 0 < progress < 1      # two cards go home, the rest never do


def test_guided_play_is_seeded_wins_a_twin_every_player_wins_and_never_a_lost_one():
    game = dataclasses.replace(find_game("freecell"), ranks=3, columns=4, cells=1)
    first = difficulty.guided_play(game, game.deal(5), 20, seed=3)
    assert first == difficulty.guided_play(game, game.deal(5), 20, seed=3) == 20
    lost = dataclasses.replace(game, cells=0)
    assert difficulty.guided_play(lost, lost.deal(5), 20, seed=3) == 0
    # On Microsoft deal 1 the heuristic's follower fills the free cells and is stuck:
    # guided play wins none of its games, though the deal is won (and deal 3, easy, is
    # won by about half of them).
    full = find_game("freecell")
    assert difficulty.guided_play(full, full.deal(1), 30) == 0
    assert 5 <= difficulty.guided_play(full, full.deal(3), 30) <= 25


@pytest.mark.parametrize("name", quick_first(sorted(GAMES), set(GAMES) - {"bridge-solitaire"}))
def test_every_game_gets_a_card_that_agrees_with_its_verdict(name):
    game = small(GAMES[name])
    state = game.deal(1)
    settings = difficulty.Settings(seconds=4, max_states=20_000, random_games=3, guided_games=3,
                                   blind_samples=2)
    made = difficulty.card(game, state, 1, settings)
    fields = made.to_json()
    status = made.verdict.status
    if status is Status.WON:
        assert 0 <= fields["difficulty"] <= 100 and fields["tier"] in \
            ("easy", "medium", "hard", "very hard")
        assert all(0 <= i < len(made.solution) for i in fields["critical"] + fields["critical_undecided"])
        assert fields["difficulty_check"] == game.difficulty_check
    else:
        assert fields["difficulty"] is None and fields["tier"] == status.value
        assert "difficulty" in fields["unfilled"] and fields["difficulty_check"] is None
    first = fields["first_moves"]
    assert first["winning"] + first["lost"] + first["unknown"] == first["legal"]
    if status is Status.LOST:
        assert first["winning"] == 0          # no move of a lost deal keeps it winnable
    if game.dial is not None and fields["least"] is not None:
        assert list(fields["least"]) == [game.dial[0]]
    assert (fields["blind"] is None) == (game.player_view is None)
    json.dumps(fields)                       # every field is JSON


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_dial_names_a_variant_option_and_includes_its_default(name):
    game = GAMES[name]
    if game.dial is None:
        return
    option, values = game.dial
    assert option in {f.name for f in dataclasses.fields(game)}
    assert getattr(game, option) in values and len(set(values)) == len(values) > 1
    for value in values:                     # every value is a variant the game accepts
        dataclasses.replace(game, **{option: value})


def test_a_score_checked_on_a_games_own_deals_says_so_under_its_default_rules_only():
    """The check a game declares was made on its default rules' deals: another variant's
    card (two free cells, a twin) says its score is not checked there."""
    checked = {name for name, game in GAMES.items() if game.difficulty_checked is not None}
    assert checked == {"freecell", "seahaven", "klondike", "gaps", "yukon", "forty-thieves",
                       "chris-cross-pairs", "crisscross", "clock", "crescent", "bridge-solitaire"}
    others = {"bridge-solitaire": {"vulnerable": True}}     # no twin: another variant
    for name in checked:
        game = GAMES[name]
        assert game.difficulty_check == game.difficulty_checked
        other = dataclasses.replace(game, **others[name]) if name in others else small(game)
        assert other.difficulty_check.startswith("none on these rules' deals")
    assert "0.964" in GAMES["freecell"].difficulty_check
    assert dataclasses.replace(GAMES["freecell"], cells=2).difficulty_check.startswith("none")
    assert GAMES["spider"].difficulty_check.startswith("none on these rules' deals")


def test_games_with_a_natural_dial_declare_it():
    dials = {name: game.dial[0] for name, game in GAMES.items() if game.dial is not None}
    assert dials == {"freecell": "cells", "seahaven": "cells", "klondike": "passes",
                     "gaps": "redeals", "crescent": "redeals", "forty-thieves": "redeal"}


# -- the command ------------------------------------------------------------------------

def test_analyze_json_has_the_issue_fields():
    result = run("analyze", "freecell", *TWIN, "-V", "cells=2", "--deal", "5", "--json")
    assert result.exit_code == 0, result.output
    card = json.loads(result.stdout)
    assert card["status"] == "won" and card["verified"] and card["game"] == "freecell"
    assert card["least"] == {"cells": 1} and card["least_exact"] is True
    assert set(card["first_moves"]) >= {"winning", "legal"}
    assert card["first_moves"]["winning"] <= card["first_moves"]["legal"]
    assert isinstance(card["critical"], list) and all(isinstance(i, int) for i in card["critical"])
    assert isinstance(card["difficulty"], float) and card["tier"] in \
        ("easy", "medium", "hard", "very hard")
    assert card["length"] == len(card["moves"]) and card["shortest"]["optimal"]
    assert set(card["features"]) == {"effort", "narrow", "critical", "length", "random", "progress",
                                     "guided"}
    assert card["guided_play"]["games"] == 300 and card["features"]["guided"] == \
        card["guided_play"]["won"] / 300


def test_analyze_text_card():
    result = run("analyze", "black-hole", "-V", "ranks=4", "--deal", "4")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("black-hole 4: won, 15 steps")
    assert lines[1].startswith("difficulty: ")
    assert lines[2] == "  its check: none on these rules' deals: the weights were fitted on " \
        "Microsoft FreeCell against its free cells"
    assert any(line.startswith("critical steps (exactly one way on): 1 of 15: 13")
               for line in lines)
    assert any(line == "first moves: 3 of 3 keep it winnable" for line in lines)


def test_an_undecided_deal_gets_an_honest_card():
    result = run("analyze", "freecell", "--deal", "1", "--max-states", "20", "--json")
    assert result.exit_code == 3, result.output
    card = json.loads(result.stdout)
    assert card["status"] == "unknown" and card["difficulty"] is None
    assert card["tier"] == "unknown" and card["critical"] is None and card["shortest"] is None
    assert {"difficulty", "shortest", "critical"} <= set(card["unfilled"])
    text = run("analyze", "freecell", "--deal", "1", "--max-states", "20")
    assert text.exit_code == 3 and "difficulty: none (unknown)" in text.stdout
    assert "not filled: difficulty: the verdict is unknown" in text.stdout


@pytest.mark.parametrize("args, said", [
    (["analyze", "freecell"], "give either a deal file or --deal NUMBER"),
    (["analyze", "no-such-game", "--deal", "1"], "unknown game"),
    (["analyze", "freecell", "--deal", "1", "--seconds", "0"], "0"),
    (["analyze", "freecell", "--deal", "1", "--strategy", "nope"], "nope"),
    (["analyze", "freecell", "--deal", "1", "-V", "cells=9"], "cells"),
])
def test_analyze_refuses_bad_input_in_one_line(args, said, capsys):
    from solver.app.cli import main

    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and len(err.splitlines()) == 1


def test_analyze_refuses_a_bad_deal_file(tmp_path: Path, capsys):
    from solver.app.cli import main

    bad = tmp_path / "bad.txt"
    bad.write_text("XX YY\n")
    with pytest.raises(SystemExit) as stop:
        main(["analyze", "freecell", str(bad)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: freecell deal") and len(err.splitlines()) == 1


def test_classify_analyze_adds_the_card_to_each_record(tmp_path: Path):
    out = tmp_path / "cards.jsonl"
    result = run("classify", "freecell", "1-3", *TWIN, "-V", "cells=1", "--out", str(out),
                 "--analyze", "--seconds", "5", "--quiet")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in records] == [1, 2, 3]
    for record in records:
        assert {"difficulty", "tier", "least", "first_moves", "critical"} <= set(record)
        assert record["strategy"].startswith("analyze:")
    again = run("classify", "freecell", "1-4", *TWIN, "-V", "cells=1", "--out", str(out),
                "--analyze", "--seconds", "5", "--quiet", "--resume")
    assert again.exit_code == 0, again.output
    assert len(out.read_text().splitlines()) == 4


def test_the_blind_chance_of_a_file_reads_what_its_marks_say_was_seen():
    """A Klondike twin after a pass through its stock, written with ``Seen: all``: the
    card's blind chance is the blind hint of the position as its text says it was seen,
    and without the line, of the position as first shown."""
    from solver.app.blind import Settings as BlindSettings, blind_hint
    from solver.view import Sighted

    game = find_game("klondike", {"ranks": 5, "columns": 4})
    position = Sighted.of(game, game.deal(2))
    for _ in range(11):                      # a pass through the stock, and the redeal
        position = position.play(game.parse_move(position.state, "s"))
    text = position.text()
    assert "Seen: all" in text
    state = game.parse(text)
    for given, sighted in ((text, Sighted.read(game, text, state)), (None, Sighted.of(game, state))):
        expected = blind_hint(sighted, BlindSettings(samples=12, seed=3)).best
        found = difficulty.blind_chance(game, state, 12, 3, given)
        assert expected is not None and found is not None
        assert (found["move"], found["chance"]) == (expected.notation, round(expected.chance, 4))
    assert Sighted.read(game, text, state).unseen().cards != Sighted.of(game, state).unseen().cards


def test_blind_outcomes_check_the_difficulty_order(tmp_path: Path, capsys):
    """benchmarks/difficulty_vs_blind.py labels a deal the card won by its blind game (won:
    easy, lost: hard), leaves out deals the card did not win or the blind run did not play
    out, and measures how well the score separates the two; with --rescore the cards are
    graded again under the game's present weights, from their features."""
    from conftest import benchmark_script

    check = benchmark_script("difficulty_vs_blind")
    cards = [{"game": "yukon", "variant": {}, "deal": 1, "status": "won", "difficulty": 10.0,
              "tier": "easy", "features": {"effort": 10, "narrow": 0.0, "critical": 0,
                                           "length": 90, "random": 0.5, "progress": 0.6,
                                           "guided": 0.6}},
             {"game": "yukon", "variant": {}, "deal": 2, "status": "won", "difficulty": 80.0,
              "tier": "very hard", "features": {"effort": 100000, "narrow": 0.5,
                                                "critical": 6, "length": 200, "random": 0.0,
                                                "progress": 0.01, "guided": 0.0}},
             {"game": "yukon", "variant": {}, "deal": 3, "status": "won", "difficulty": 30.0,
              "tier": "medium", "features": {"effort": 500, "narrow": 0.0, "critical": 1,
                                             "length": 120, "random": 0.1, "progress": 0.3,
                                             "guided": 0.2}},
             {"game": "yukon", "variant": {}, "deal": 4, "status": "lost", "tier": "lost"},
             {"game": "yukon", "variant": {}, "deal": 5, "status": "won", "difficulty": 5.0,
              "tier": "easy", "features": {"effort": 10, "narrow": 0.0, "critical": 0,
                                           "length": 90, "random": 0.5, "progress": 0.6,
                                           "guided": 0.6}}]
    blind = [{"deal": 1, "status": "won"}, {"deal": 2, "status": "lost"},
             {"deal": 3, "status": "lost"}, {"deal": 4, "status": "lost"},
             {"deal": 5, "status": "unknown"}, {"deal": 1, "status": "lost"}]
    cards_path, blind_path = tmp_path / "cards.jsonl", tmp_path / "blind.jsonl"
    cards_path.write_text("".join(json.dumps(r) + "\n" for r in cards))
    blind_path.write_text("".join(json.dumps(r) + "\n" for r in blind))
    rows = check.labelled(check.first_by_deal(cards), check.first_by_deal(blind))
    assert rows == [(1, 10.0, "easy", 0), (2, 80.0, "very hard", 1), (3, 30.0, "medium", 1)]
    assert check.main([str(cards_path), str(blind_path), "--boot", "0"]) == 0
    out = capsys.readouterr().out
    assert "3 deals won with full information and played blind: 1 won blind, 2 lost" in out
    assert "AUC (lost blind scores harder than won blind), by score: 1.000" in out
    rescored = check.labelled(check.first_by_deal(cards), check.first_by_deal(blind), True)
    weights = find_game("yukon").difficulty_weights
    assert [row[1] for row in rescored] == [
        difficulty.graded(difficulty.Features(**cards[i]["features"]), weights)[0]
        for i in (0, 1, 2)]
    # a deal won blind that scores harder than every deal lost blind turns the order over
    blind_path.write_text("".join(json.dumps(r) + "\n" for r in [
        {"deal": 1, "status": "lost"}, {"deal": 2, "status": "won"}, {"deal": 3, "status": "won"}]))
    assert check.main([str(cards_path), str(blind_path), "--boot", "0"]) == 0
    assert "AUC (lost blind scores harder than won blind), by score: 0.000" in capsys.readouterr().out


def test_blind_outcomes_check_the_tiers_of_a_folder_of_lists(tmp_path: Path, capsys):
    """In place of cards, the tier lists of ``data/winnable/GAME``: a deal scores its tier's
    rank, deals of one tier tie (counted half), and a deal in no list is left out."""
    from conftest import benchmark_script

    check = benchmark_script("difficulty_vs_blind")
    folder = tmp_path / "klondike"
    folder.mkdir()
    (folder / "easy.txt").write_text("# klondike: winnable deals of tier 'easy'\n1\n2\n")
    (folder / "very-hard.txt").write_text("# the command\n3\n4\n")
    blind = tmp_path / "blind.jsonl"
    blind.write_text("".join(json.dumps({"deal": d, "status": s}) + "\n" for d, s in
                             [(1, "won"), (2, "lost"), (3, "lost"), (4, "lost"), (9, "won")]))
    assert check.main([str(folder), str(blind), "--boot", "0"]) == 0
    out = capsys.readouterr().out
    assert "4 deals won with full information and played blind: 1 won blind, 3 lost" in out
    assert "easy: 2 deals, 50.0% won blind" in out and "very hard: 2 deals, 0.0% won blind" in out
    # the lost easy deal ties the won one (half), the very hard two score above it (one each)
    assert "by tier (deals of one tier tie): 0.833" in out
    (folder / "hard.txt").write_text("5\nfive\n")
    assert check.main([str(folder), str(blind)]) == 2
    assert check.main([str(folder), str(blind), "--rescore"]) == 2
    assert check.main([str(tmp_path / "nothing"), str(blind)]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3 and all(line.startswith("error: ") for line in errors)
