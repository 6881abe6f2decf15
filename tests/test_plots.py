"""Plots (``solver.app.plots``): each PNG is written with its numbers beside it as CSV, and
the CSV holds the right numbers (the pixels are looked at, not tested)."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
from command_line import runner

from games import find_game
from solver.app import plots
from solver.app.cli import app
from solver.app.graph import explore
from solver.app.record import Verdict
from solver.app.results import read_records, wilson
from solver.game import Status
from solver.search import Result

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
BLACK_HOLE = find_game("black-hole", {"ranks": 4})
TWIN = ["-V", "ranks=4"]


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def rows(path: Path, panel: str, series: str | None = None) -> list[tuple[float, float]]:
    """The (x, y) of one panel (and series) of a plot's CSV, in order."""
    return [(float(r["x"]) if r["x"] not in ("", "won", "lost", "unknown") else r["x"],
             float(r["y"])) for r in read_csv(path)
            if r["panel"] == panel and (series is None or r["series"] == series)]


def verdict(deal: int, status: Status, seconds: float, states: int, **extra) -> Verdict:
    return Verdict(game="black-hole", variant={"ranks": 13}, deal=deal, status=status,
                   states=states, seconds=seconds * 2, cpu_seconds=seconds, extra=extra)


BATCH = [verdict(1, Status.WON, 0.5, 100), verdict(2, Status.LOST, 0.01, 5),
         verdict(3, Status.WON, 0.2, 40), verdict(4, Status.UNKNOWN, 2.0, 9000),
         verdict(5, Status.WON, 0.2, 40), verdict(6, Status.LOST, 0.03, 8)]


# -- the figures' numbers ------------------------------------------------------------------

def test_classify_numbers():
    figure = plots.classify_figure(BATCH, "six deals")
    assert figure.series("verdicts", "won")[1] == [3]
    assert figure.series("verdicts", "lost")[1] == [2]
    assert figure.series("verdicts", "unknown")[1] == [1]
    decided, rate = figure.series("win_rate", "rate")
    assert decided == [1, 2, 3, 4, 5]                 # the unknown deal is not decided
    assert rate == [1.0, 0.5, round(2 / 3, 6), 0.75, 0.6]     # won, lost, won, won, lost
    _, low = figure.series("win_rate", "low")
    _, high = figure.series("win_rate", "high")
    assert (low[-1], high[-1]) == tuple(round(v, 6) for v in wilson(3, 5)[1:])
    # distributions: CPU time (every record has it), equal values merged, ending at 1
    assert figure.series("cpu_seconds", "won") == ([0.2, 0.5], [round(2 / 3, 6), 1.0])
    assert figure.series("cpu_seconds", "lost") == ([0.01, 0.03], [0.5, 1.0])
    assert figure.series("positions", "unknown") == ([9000.0], [1.0])
    assert "difficulty" not in figure.panels()        # no record carries one


def test_classify_draws_the_difficulty_when_records_carry_it():
    batch = [verdict(n, Status.WON, 0.1, 10, difficulty=d)
             for n, d in enumerate([0, 9.9, 10, 55, 100, 99.5], 1)]
    batch.append(verdict(7, Status.LOST, 0.1, 10, difficulty="hard"))    # not a number
    figure = plots.classify_figure(batch, "difficulty")
    starts, counts = figure.series("difficulty", "deals")
    assert starts == [10.0 * i for i in range(10)]
    assert counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]   # 100 falls in the last bin


def test_records_of_keeps_the_first_record_of_each_deal():
    again = verdict(1, Status.LOST, 9.0, 1)
    assert plots.records_of(BATCH + [again]) == BATCH


def test_bench_numbers():
    won = Result(status=Status.WON, cpu_seconds=0.3)
    lost = Result(status=Status.LOST, cpu_seconds=0.1)
    unknown = Result(status=Status.UNKNOWN, cpu_seconds=1.0)
    figure = plots.bench_figure({"dfs": [(1, won), (2, unknown), (3, lost)],
                                 "astar": [(1, unknown), (2, unknown), (3, unknown)]}, "bench")
    assert figure.series("cactus", "dfs") == ([0.1, 0.3], [1, 2])
    assert figure.series("cactus", "astar") == ([], [])
    assert figure.series("deals", "astar")[1] == [3]


def test_analyze_numbers():
    explored = explore(BLACK_HOLE, BLACK_HOLE.deal(3))
    figure = plots.analyze_figure(explored.depth_counts(), explored.strip(), "analyze")
    assert sum(row[3] for row in figure.rows if row[0] == "depth") == explored.summary.positions
    assert figure.series("depth", "won")[1][-1] == explored.summary.won   # wins are deepest
    strip = explored.strip()
    steps, keeps = figure.series("strip", "keeps")
    assert steps == list(range(len(strip.steps))) and min(keeps) >= 1
    _, critical = figure.series("strip", "critical")
    assert [s for s, c in zip(steps, critical) if c] == strip.critical


# -- files and the commands ----------------------------------------------------------------

def test_save_writes_the_png_and_the_csv_beside_it(tmp_path):
    out = tmp_path / "batch.png"
    figure = plots.classify_figure(BATCH, "six deals")
    plots.save(figure, out)
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert rows(tmp_path / "batch.csv", "verdicts") == [("won", 3), ("lost", 2), ("unknown", 1)]
    assert len(read_csv(tmp_path / "batch.csv")) == len(figure.rows)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["batch.csv", "batch.png"]


def test_classify_plot_draws_the_results(tmp_path):
    out, plot = tmp_path / "results.jsonl", tmp_path / "batch.png"
    result = runner.invoke(app, ["classify", "black-hole", "1-8", *TWIN, "--out", str(out),
                                 "-q", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(PNG_MAGIC)
    records = list(read_records(out))
    counted = {s.value: sum(r.status is s for r in records) for s in Status}
    assert dict(rows(plot.with_suffix(".csv"), "verdicts")) == counted
    decided = counted["won"] + counted["lost"]
    assert rows(plot.with_suffix(".csv"), "win_rate", "rate")[-1] == \
        (decided, round(counted["won"] / decided, 6))


def test_bench_plot_draws_a_cactus_per_strategy(tmp_path):
    plot = tmp_path / "bench.png"
    result = runner.invoke(app, ["bench", "black-hole", "1-5", *TWIN, "-s", "dfs", "-s", "bfs",
                                 "-q", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes().startswith(PNG_MAGIC)
    table = {line.split("|")[1].strip(): line.split("|") for line in result.stdout.splitlines()
             if line.startswith("| dfs") or line.startswith("| bfs")}
    for strategy in ("dfs", "bfs"):
        decided = int(table[strategy][3]) + int(table[strategy][4])    # won + lost
        cactus = rows(plot.with_suffix(".csv"), "cactus", strategy)
        assert [count for _, count in cactus] == list(range(1, decided + 1))
        assert [x for x, _ in cactus] == sorted(x for x, _ in cactus)


def test_analyze_plot_and_graph_together(tmp_path):
    plot, graph = tmp_path / "deal.png", tmp_path / "deal.graphml"
    result = runner.invoke(app, ["analyze", "black-hole", "--deal", "3", *TWIN, "--json",
                                 "--plot", str(plot), "--graph", str(graph)])
    assert result.exit_code == 0, result.output
    item = json.loads(result.stdout)
    assert plot.read_bytes().startswith(PNG_MAGIC) and graph.exists()
    depth = rows(plot.with_suffix(".csv"), "depth")
    assert sum(count for _, count in depth) == item["space"]["positions"]
    critical = rows(plot.with_suffix(".csv"), "strip", "critical")
    assert [int(step) for step, c in critical if c] == item["critical"]


@pytest.mark.parametrize("command", [
    ["analyze", "black-hole", "--deal", "3", *TWIN],
    ["classify", "black-hole", "1-2", *TWIN, "--out", "{tmp}/r.jsonl"],
    ["bench", "black-hole", "1-2", *TWIN],
])
def test_a_plot_without_matplotlib_is_one_line_and_status_2(tmp_path, monkeypatch, command):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import matplotlib fails
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    result = runner.invoke(app, [*args, "--plot", str(tmp_path / "p.png")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "matplotlib" in result.stderr
    assert list(tmp_path.iterdir()) == []             # nothing searched, nothing written


def test_a_plot_file_not_png_is_refused(tmp_path):
    result = runner.invoke(app, ["analyze", "the-clock", "--deal", "1",
                                 "--plot", str(tmp_path / "p.jpg")])
    assert result.exit_code == 2 and ".png" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_analyze_plot_of_a_space_too_large_for_the_graph(tmp_path):
    """The plot of a space past the budget draws the depths found whole (unmarked) and a
    solution's strip by search; the graph alone would be refused."""
    plot = tmp_path / "deal.png"
    result = runner.invoke(app, ["analyze", "black-hole", "--deal", "3", "-V", "ranks=7",
                                 "--max-states", "1000", "--plot", str(plot), "--json",
                                 "--seconds", "30"])
    assert result.exit_code == 0, result.output
    item = json.loads(result.stdout)
    assert item["status"] == "won" and item["space"] is None
    numbers = plot.with_suffix(".csv")
    depth = rows(numbers, "depth", "positions")
    assert [d for d, _ in depth] == list(range(item["depths_whole"]))
    assert depth[0] == (0, 1) and sum(count for _, count in depth) < 1000
    twin = find_game("black-hole", {"ranks": 7})
    levels = explore(twin, twin.deal(3)).depth_counts()        # the whole space, for the check
    assert all(sum(levels[d].values()) == count for d, count in depth)
    critical = rows(numbers, "strip", "critical")
    assert [int(step) for step, c in critical if c] == item["critical"]


def test_a_file_in_a_missing_folder_is_refused_before_any_search(tmp_path):
    for option, name in (("--plot", "p.png"), ("--graph", "g.graphml")):
        result = runner.invoke(app, ["classify" if option == "--plot" else "analyze",
                                     "black-hole", *(["1-2", "--out", str(tmp_path / "r.jsonl")]
                                                     if option == "--plot" else ["-d", "1"]),
                                     option, str(tmp_path / "none" / name)])
        assert result.exit_code == 2 and "there is no folder" in result.stderr
        assert list(tmp_path.iterdir()) == []
