"""Calibrated blind chances: the map, its fit, and where hints and blind play report it."""
from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import benchmark_script
from games import GAMES
from solver.app.blind import Settings, blind_hint, calibrated, play
from solver.view import Sighted



@pytest.fixture()
def bench() -> ModuleType:
    return benchmark_script("blind_calibration")


def test_the_map_rises_with_the_share_and_falls_with_unseen_cards() -> None:
    weights = (1.2, -0.8, -0.1, 0.0, 0.0, 0.0, 1.5)
    shares = [calibrated(weights, s / 10, 100, 20) for s in range(11)]
    assert shares == sorted(shares) and 0 < shares[0] < shares[-1] < 1
    unseen = [calibrated(weights, 0.9, 100, u) for u in (0, 5, 20, 45)]
    assert unseen == sorted(unseen, reverse=True)


def test_the_fit_recovers_the_weights_that_made_the_outcomes(bench: ModuleType, tmp_path: Path) -> None:
    """Outcomes drawn from known weights: the fit finds the map again (its chances within
    a few points of the true ones), and the calibrated chance is within a few points of
    the outcomes where the raw share is far off."""
    truth = (0.9, -0.7, -0.15, 0.0, 0.0, 0.0, 1.1)
    rng = random.Random(5)
    lines = []
    for deal in range(1, 12001):
        share, unseen = rng.choice([0.1, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0]), rng.randrange(0, 40)
        won = rng.random() < calibrated(truth, share, 100, unseen)
        lines.append(json.dumps({"deal": deal, "status": "won" if won else "lost", "decisions": [
            {"move": "x", "chance": share, "samples": 100, "unseen": unseen}]}))
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n{\"deal\": 12001, \"sta")         # a torn last line
    rows = bench.decisions(path)
    assert len(rows) == 12000
    weights = bench.fit(rows[:8000])
    grid = [(s, u) for s in (0.3, 0.6, 0.9, 1.0) for u in range(0, 40, 3)]
    assert max(abs(calibrated(weights, s, 100, u) - calibrated(truth, s, 100, u))
               for s, u in grid) < 0.05, weights
    held = rows[8000:]
    _, _, raw_gap = bench.table([(s, w) for _, s, _, _, w in held], 200)
    _, _, gap = bench.table([(calibrated(weights, s, n, u), w) for _, s, n, u, w in held], 200)
    assert raw_gap > 0.2 and gap < 0.07     # the true map's own gap here: 0.046


def test_cross_validation_predicts_each_game_by_weights_fitted_without_its_fold(
        bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every decision is predicted by the weights of the other folds (deal mod K): a game's
    prediction changes when its own outcome is flipped only through the other folds' fits,
    which its fold does not enter, so it stays the same; and the report runs end to end."""
    truth = (0.9, -0.7, -0.15, 0.0, 0.0, 0.0, 1.1)
    rng = random.Random(3)
    rows = []
    for deal in range(1, 3001):
        share, unseen = rng.choice([0.1, 0.45, 0.75, 1.0]), rng.randrange(0, 40)
        rows.append((deal, share, 100, unseen, rng.random() < calibrated(truth, share, 100, unseen)))
    predicted = bench.cross_validated(rows, 5)
    flipped = [(d, s, n, u, not w) if d == 7 else (d, s, n, u, w) for d, s, n, u, w in rows]
    again = bench.cross_validated(flipped, 5)
    assert again[6] == predicted[6]                      # deal 7: its own fold left out
    assert again[7] != predicted[7]                      # deal 8 (fold 3) read deal 7
    assert max(abs(p - calibrated(truth, s, n, u)) for p, (_, s, n, u, _) in
               zip(predicted, rows)) < 0.1
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"deal": d, "status": "won" if w else "lost", "decisions": [
        {"move": "x", "chance": s, "samples": n, "unseen": u}]}) + "\n" for d, s, n, u, w in rows))
    assert bench.main([str(path), "--folds", "5", "--boot", "0"]) == 0
    out = capsys.readouterr().out
    assert "5-fold cross-validation" in out and "fitted on all 3000 decisions" in out
    assert bench.main([str(path), "--folds", "1"]) == 2


def test_exact_decisions_and_old_records_are_left_out_of_the_fit(bench: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"deal": 1, "status": "won", "decisions": [
        {"move": "a", "chance": 1.0, "samples": 0, "exact": True, "unseen": 0},
        {"move": "b", "chance": 0.5, "samples": 30},                       # before "unseen"
        {"move": "c", "chance": 0.5, "samples": 30, "unseen": 7}]}) + "\n")
    assert bench.decisions(path) == [(1, 0.5, 30, 7, True)]


def calibrated_game(weights: tuple[float, ...]) -> Any:
    """A small Klondike twin that declares `weights` as its calibration."""
    base = GAMES["klondike"].__class__(ranks=4, columns=5)
    kind = type("CalibratedKlondike", (type(base),), {"blind_calibration": weights})
    return kind(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)})


def test_a_game_with_weights_gets_calibrated_chances_and_the_same_choice() -> None:
    weights = (1.0, -0.5, -0.1, 0.05, -0.02, 0.01, 0.2)
    plain = GAMES["klondike"].__class__(ranks=4, columns=5)
    game = calibrated_game(weights)
    settings = Settings(samples=40, seed=2, cap=2_000)
    for deal in (1, 2):
        with_map = blind_hint(Sighted.of(game, game.deal(deal)), settings)
        without = blind_hint(Sighted.of(plain, plain.deal(deal)), settings)
        assert [e.notation for e in with_map.estimates] == [e.notation for e in without.estimates]
        unseen = len(Sighted.of(game, game.deal(deal)).unseen().cards)
        for estimate in with_map.estimates:
            assert estimate.calibrated == calibrated(weights, estimate.chance, estimate.samples, unseen)
            assert estimate.to_json()["calibrated"] == round(estimate.calibrated, 4)
        assert all(e.calibrated is None and "calibrated" not in e.to_json()
                   for e in without.estimates)


def test_blind_play_records_each_decisions_calibrated_chance_and_what_was_unseen() -> None:
    weights = (1.0, -0.5, -0.1, 0.05, -0.02, 0.01, 0.2)
    game = calibrated_game(weights)
    played = play(game, game.deal(1), Settings(samples=15, seed=1, cap=2_000))
    estimated = [d for d in played.decisions if not d.get("exact")]
    assert estimated
    for decision in estimated:
        assert decision["calibrated"] == pytest.approx(calibrated(
            weights, decision["chance"], decision["samples"], decision["unseen"]), abs=1e-3)
        assert 0 <= decision["step"] <= len(played.steps)


def test_crisscross_hints_print_and_give_the_calibrated_chance(capsys: Any) -> None:
    """CrissCross declares weights for its default rules: the text names the calibrated
    chance of every plan, and --json gives it beside the share."""
    from conftest import run_main

    status, out, _ = run_main(["hint", "crisscross", "--deal", "5", "--blind", "--samples", "40",
                               "--seed", "1"], capsys)
    plans = [line for line in out.splitlines() if line.startswith(("play", "    "))]
    assert status == 0 and plans and all("calibrated" in line for line in plans)
    status, out, _ = run_main(["hint", "crisscross", "--deal", "5", "--blind", "--samples", "40",
                               "--seed", "1", "--json"], capsys)
    moves = json.loads(out)["moves"]
    assert status == 0 and all(0 < m["calibrated"] < 1 for m in moves)
    status, out, _ = run_main(["hint", "crisscross", "--deal", "5", "-V", "arms=3", "--blind",
                               "--samples", "40", "--seed", "1", "--json"], capsys)
    assert status == 0 and all("calibrated" not in m for m in json.loads(out)["moves"])


def test_a_calibration_has_seven_weights_and_bends_where_three_terms_cannot() -> None:
    """The squared terms: with weight on v² alone the map falls faster with more unseen
    cards than any map linear in v; a tuple of the wrong length is refused."""
    bent = (1.0, 0.0, 0.0, -0.2, 0.0, 0.0, 2.0)
    drops = [calibrated(bent, 0.9, 100, u) for u in (0, 7, 20, 54)]
    logits = [math.log(p / (1 - p)) for p in drops]
    hidden = [math.log1p(u) for u in (0, 7, 20, 54)]
    slopes = [(b - a) / (y - x) for a, b, x, y in zip(logits, logits[1:], hidden, hidden[1:])]
    assert slopes == sorted(slopes, reverse=True) and slopes[-1] < slopes[0] - 0.3
    with pytest.raises(ValueError):
        calibrated((1.0, 0.0, 0.0, 0.0), 0.5, 10, 3)


def test_klondike_draw_3_and_draw_1_are_calibrated_and_its_other_variants_are_not() -> None:
    """Each set of weights was fitted on its own variant's games, unlimited passes
    (data/klondike/blind.md): no other variant may borrow them."""
    from games import find_game

    three, one = find_game("klondike", {"draw": 3}), find_game("klondike")
    assert three.blind_calibration is not None and one.blind_calibration is not None
    assert three.blind_calibration != one.blind_calibration
    assert find_game("klondike", {"draw": 3, "passes": 3}).blind_calibration is None
    assert find_game("klondike", {"draw": 2}).blind_calibration is None


def test_the_bootstrap_interval_holds_a_true_gap_and_excludes_a_false_one(bench: ModuleType) -> None:
    """Games whose outcomes follow the prediction give gap intervals around 0; games won 20
    points more often than predicted give intervals that exclude 0; a bin of many decisions
    from few games is as wide as its games make it."""
    rng = random.Random(9)
    fair = {deal: [(0.55, rng.random() < 0.55)] for deal in range(400)}
    biased = {deal: [(0.55, rng.random() < 0.75)] for deal in range(400)}
    low, high = bench.bootstrap(fair, 300)[5]
    assert low < 0 < high and high - low < 0.15
    low, high = bench.bootstrap(biased, 300)[5]
    assert 0.1 < low < 0.2 < high < 0.3
    few = {deal: [(0.55, deal % 2 == 0)] * 50 for deal in range(10)}      # 500 decisions, 10 games
    low, high = bench.bootstrap(few, 300)[5]
    assert high - low > 0.4


def test_the_declared_weights_are_checked_as_shipped(bench: ModuleType, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """--declared predicts every decision with the weights the records' game and variant
    declare now, fitting nothing; a variant without weights is a clear error."""
    from games import find_game

    weights = find_game("klondike", {"draw": 3}).blind_calibration
    assert weights is not None
    rng = random.Random(11)
    lines = []
    for deal in range(1, 201):
        share, unseen = rng.choice([0.2, 0.5, 0.9]), rng.randrange(0, 30)
        won = rng.random() < calibrated(weights, share, 300, unseen)
        lines.append({"game": "klondike", "variant": {"draw": 3, "passes": None},
                      "deal": deal, "status": "won" if won else "lost",
                      "decisions": [{"move": "s", "chance": share, "samples": 300,
                                     "unseen": unseen}]})
    path = tmp_path / "k3.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert bench.declared([path]) == weights
    assert bench.main([str(path), "--declared", "--boot", "0"]) == 0
    out = capsys.readouterr().out
    assert f"the declared weights ({weights[0]:.4f}, " in out and "200 decisions of 200 games" in out
    brier = sum((calibrated(weights, d["decisions"][0]["chance"], 300, d["decisions"][0]["unseen"])
                 - (d["status"] == "won")) ** 2 for d in lines) / len(lines)
    assert f"calibrated: Brier {brier:.3f}" in out
    two = tmp_path / "k2.jsonl"
    two.write_text("".join(json.dumps({**line, "variant": {"draw": 2}}) + "\n" for line in lines))
    assert bench.declared([two]) is None
    assert bench.main([str(two), "--declared"]) == 2
    assert "--declared needs records" in capsys.readouterr().err


def test_chris_cross_pairs_is_calibrated_and_its_twins_are_not(capsys: Any) -> None:
    """The full game's weights (data/chris_cross_pairs/blind.md) bring a share of every world
    won down toward the nine in ten games its blind player went on to win; a twin (a smaller
    tableau, fewer ranks) was never played and borrows nothing."""
    from conftest import run_main
    from games import find_game

    game = find_game("chris-cross-pairs")
    weights = game.blind_calibration
    assert weights is not None
    assert 0.85 < calibrated(weights, 1.0, 100, 20) < 0.97
    assert calibrated(weights, 0.5, 100, 20) < calibrated(weights, 1.0, 100, 20)
    for twin in game.twins:
        assert dataclasses.replace(game, **twin).blind_calibration is None
    status, out, _ = run_main(["hint", "chris-cross-pairs", "--deal", "5", "--blind",
                               "--samples", "30", "--seed", "1"], capsys)
    assert status == 0 and "% calibrated; won in " in out


def test_bridge_solitaire_is_calibrated_when_not_vulnerable(capsys: Any) -> None:
    """Its weights (data/bridge_solitaire/blind.md) lift the rule-follower's share, which
    reads low (the player chooses better than the rule later on), the more so early, and
    keep the order of the shares; the vulnerable game was never played and borrows
    nothing."""
    from conftest import run_main
    from games import find_game

    game = find_game("bridge-solitaire")
    weights = game.blind_calibration
    assert weights is not None
    assert find_game("bridge-solitaire", {"vulnerable": True}).blind_calibration is None
    for share in (0.2, 0.35, 0.5):
        assert calibrated(weights, share, 100, 30) > share
    assert calibrated(weights, 0.35, 8, 41) > calibrated(weights, 0.35, 100, 30)
    shares = [calibrated(weights, share, 100, 30) for share in (0.1, 0.3, 0.5, 0.7, 0.9)]
    assert shares == sorted(shares)
    status, out, _ = run_main(["hint", "bridge-solitaire", "--deal", "5", "--blind",
                               "--samples", "900", "--seed", "1"], capsys)
    assert status == 0 and "% calibrated (" in out
