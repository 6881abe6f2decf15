"""Pictures of results: PNG files drawn with matplotlib, each with its numbers beside it as CSV.

Three pictures, one per command:

- ``classify_figure`` (``classify --plot``): the verdict mix; the win rate as the deals
  are decided, with its 95% Wilson band; the time and the positions per deal as
  distribution curves (the share of deals done within each amount), one per verdict; and,
  when the records carry a ``difficulty`` (0-100), its histogram.
- ``bench_figure`` (``bench --plot``): a cactus plot, one curve per strategy: how many
  deals it decided (won or lost) within each amount of CPU time per deal.
- ``analyze_figure`` (``analyze --plot``): a deal's positions by depth (the fewest moves
  that reach them), split by their mark, from its state graph (for a space too large,
  the depths found whole, unmarked); and the winnability strip of a solution: at each
  position along it, how many moves keep the game winnable, how many lose it and how
  many a search could not decide in time, critical positions marked.

Each is a ``Figure``: its numbers as rows (panel, series, x, y), which ``save`` writes as
the CSV beside the PNG (``FILE.png`` and ``FILE.csv``) and from which the picture is
drawn, so the CSV is what the picture shows. matplotlib is imported only when a picture
is drawn, with the Agg backend (no screen needed); without it, ``require`` refuses with
one line.
"""
from __future__ import annotations

import csv
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from solver.app.graph import LOST, WINNABLE, check_folder, write_whole
from solver.app.strip import Strip
from solver.app.record import Verdict
from solver.app.results import wilson
from solver.game import SolitaireError, Status, quote
from solver.search import Result

COLOURS = {"won": "#2e7d32", "winnable": "#81c784", "lost": "#c62828", "unknown": "#9e9e9e",
           "positions": "#5c6bc0"}
STRATEGY_COLOURS = ("#1565c0", "#ef6c00", "#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#5d4037")
DIFFICULTY_BINS = 10          # 0-10, 10-20, ... 90-100
FIGURE_SIZE = (11.0, 8.0)     # inches, at 100 dpi: 1100 x 800 pixels
WIDE_FIGURE_SIZE = (15.0, 8.0)   # classify's six panels
DPI = 100
LOG_FLOOR = {"cpu_seconds": 1e-4, "seconds": 1e-4, "positions": 1.0}   # log axes start here


class PlotError(SolitaireError):
    """A plot that cannot be drawn: matplotlib missing, or a file name it cannot take."""


Row = tuple[str, str, float | str, float]      # panel, series, x, y


@dataclass
class Figure:
    """A picture's numbers, row by row, and how to draw them."""

    title: str
    rows: list[Row] = field(default_factory=list)
    draw: Callable[[Any, "Figure"], None] | None = None

    def add(self, panel: str, series: str, x: float | str, y: float) -> None:
        self.rows.append((panel, series, x, y))

    def series(self, panel: str, series: str) -> tuple[list[Any], list[float]]:
        """Return the x and y of one series of one panel, in order."""
        xs, ys = [], []
        for row_panel, row_series, x, y in self.rows:
            if row_panel == panel and row_series == series:
                xs.append(x)
                ys.append(y)
        return xs, ys

    def panels(self) -> list[str]:
        return list(dict.fromkeys(row[0] for row in self.rows))


def require() -> Any:
    """Return matplotlib's pyplot on the Agg backend; refuse with one line without it."""
    try:
        import matplotlib
    except ImportError:
        raise PlotError("plots need matplotlib, which is not installed: pip install "
                        "matplotlib (the project's install brings it)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def check_plot_file(path: Path) -> None:
    """Refuse, before any work, a plot file not named .png or in a folder that is not
    there, or any plot without matplotlib."""
    if path.suffix.lower() != ".png":
        raise PlotError(f"--plot {quote(str(path), 80)}: name a .png file (its numbers go "
                        "beside it, in the same name ending .csv)")
    check_folder(path, "--plot")
    require()


def csv_path(path: Path) -> Path:
    """The CSV written beside the PNG `path`."""
    return path.with_suffix(".csv")


def save(figure: Figure, path: Path) -> None:
    """Write the picture to `path` (PNG) and its numbers to the CSV beside it."""
    check_plot_file(path)
    pyplot = require()

    def write_csv(part: Path) -> None:
        with part.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(["panel", "series", "x", "y"])
            out.writerows(figure.rows)

    def write_png(part: Path) -> None:
        assert figure.draw is not None
        drawn = pyplot.figure(figsize=FIGURE_SIZE, dpi=DPI)
        try:
            figure.draw(drawn, figure)
            drawn.suptitle(figure.title, fontsize=13)
            drawn.tight_layout()
            drawn.savefig(part, format="png")
        finally:
            pyplot.close(drawn)

    write_whole(csv_path(path), write_csv)
    write_whole(path, write_png)


# -- classify --------------------------------------------------------------------------------

def _time_of(verdict: Verdict, cpu: bool) -> float:
    return verdict.cpu_seconds if cpu else verdict.seconds


def _distribution(values: Sequence[float]) -> list[tuple[float, float]]:
    """Return the steps of the empirical distribution: (value, share of values <= it)."""
    ordered = sorted(values)
    count = len(ordered)
    return [(value, (index + 1) / count) for index, value in enumerate(ordered)
            if index + 1 == count or ordered[index + 1] != value]


def _difficulty(verdict: Verdict) -> float | None:
    value = verdict.extra.get("difficulty")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def classify_figure(verdicts: Sequence[Verdict], title: str) -> Figure:
    """Return the picture of a batch's records (one per deal, in the order decided)."""
    figure = Figure(title, draw=_draw_classify)
    counts = Counter(v.status.value for v in verdicts)
    for status in Status:
        figure.add("verdicts", status.value, status.value, counts[status.value])
    won = decided = 0
    for verdict in verdicts:
        if verdict.status is Status.UNKNOWN:
            continue
        decided += 1
        won += verdict.status is Status.WON
        rate, low, high = wilson(won, decided)
        for name, value in (("rate", rate), ("low", low), ("high", high)):
            figure.add("win_rate", name, decided, round(value, 6))
    cpu = any(v.cpu_seconds > 0 for v in verdicts)     # records older than CPU time: wall
    time_panel = "cpu_seconds" if cpu else "seconds"
    for status in Status:
        chosen = [v for v in verdicts if v.status is status]
        for value, share in _distribution([_time_of(v, cpu) for v in chosen]):
            figure.add(time_panel, status.value, value, round(share, 6))
        for value, share in _distribution([float(v.states) for v in chosen]):
            figure.add("positions", status.value, value, round(share, 6))
    difficulties = [d for d in map(_difficulty, verdicts) if d is not None]
    if difficulties:
        width = 100 / DIFFICULTY_BINS
        bins = Counter(min(int(d // width), DIFFICULTY_BINS - 1) for d in difficulties)
        for index in range(DIFFICULTY_BINS):
            figure.add("difficulty", "deals", index * width, bins[index])
    return figure


def _draw_classify(drawn: Any, figure: Figure) -> None:
    panels = figure.panels()
    with_difficulty = "difficulty" in panels
    if with_difficulty:
        drawn.set_size_inches(WIDE_FIGURE_SIZE)
    grid = drawn.subplots(2, 3 if with_difficulty else 2)
    axes = list(grid.flat)
    mix, rate, times, positions = axes[0], axes[1], axes[2], axes[3]

    names, counts = figure.series("verdicts", "won")[0], []
    names = [status.value for status in Status]
    counts = [figure.series("verdicts", name)[1][0] for name in names]
    bars = mix.bar(names, counts, color=[COLOURS[name] for name in names])
    mix.bar_label(bars, labels=[f"{c:,.0f}" for c in counts], padding=2)
    mix.set_title("Verdicts")
    mix.set_ylabel("deals")
    mix.set_ylim(0, max(counts + [1]) * 1.15)

    xs, rates = figure.series("win_rate", "rate")
    if xs:
        _, low = figure.series("win_rate", "low")
        _, high = figure.series("win_rate", "high")
        rate.fill_between(xs, [100 * v for v in low], [100 * v for v in high],
                          color=COLOURS["won"], alpha=0.25, label="95% Wilson interval")
        rate.plot(xs, [100 * v for v in rates], color=COLOURS["won"],
                  label=f"win rate, at the end {100 * rates[-1]:.1f}% "
                        f"({100 * low[-1]:.1f}-{100 * high[-1]:.1f}%)")
        rate.legend(loc="lower right")
    rate.set_ylim(0, 102)
    rate.set_title("Win rate as deals are decided")
    rate.set_xlabel("deals decided")
    rate.set_ylabel("won (%)")

    time_panel = "cpu_seconds" if "cpu_seconds" in panels else "seconds"
    for axis, panel, label in ((times, time_panel, "CPU seconds per deal"
                                if time_panel == "cpu_seconds" else "seconds per deal"),
                               (positions, "positions", "positions stored per deal")):
        floor = LOG_FLOOR[panel]
        for status in Status:
            xs, ys = figure.series(panel, status.value)
            if xs:
                axis.step([max(float(x), floor) for x in xs], [100 * y for y in ys],
                          where="post", color=COLOURS[status.value],
                          label=f"{status.value} ({_count(figure, status.value)})")
        axis.set_xscale("log")
        axis.set_xlabel(f"{label} (log scale)")
        axis.set_ylabel("deals done within it (%)")
        axis.set_ylim(0, 102)
        axis.set_title(("CPU time" if panel == "cpu_seconds" else "Time") + " per deal"
                       if axis is times else "Positions per deal")
        if axis.get_legend_handles_labels()[0]:
            axis.legend(loc="lower right")

    if with_difficulty:
        histogram = axes[4]
        starts, deals = figure.series("difficulty", "deals")
        width = 100 / DIFFICULTY_BINS
        histogram.bar([float(s) + width / 2 for s in starts], deals, width=width * 0.9,
                      color="#5c6bc0")
        histogram.set_xlim(0, 100)
        histogram.set_title("Difficulty")
        histogram.set_xlabel("difficulty score (0 easy - 100 hardest)")
        histogram.set_ylabel("deals")
        axes[5].axis("off")


def _count(figure: Figure, status: str) -> int:
    return int(figure.series("verdicts", status)[1][0])


# -- bench -----------------------------------------------------------------------------------

def bench_figure(results: Mapping[str, Sequence[tuple[Any, Result[Any]]]], title: str) -> Figure:
    """Return the cactus plot of strategies over the same deals: for each, the deals it
    decided (won or lost) within each amount of CPU time per deal."""
    figure = Figure(title, draw=_draw_bench)
    for strategy, pairs in results.items():
        times = sorted(result.cpu_seconds for _, result in pairs
                       if result.status is not Status.UNKNOWN)
        figure.add("deals", strategy, "", len(pairs))
        for count, seconds in enumerate(times, 1):
            figure.add("cactus", strategy, round(seconds, 6), count)
    return figure


def _draw_bench(drawn: Any, figure: Figure) -> None:
    axis = drawn.subplots()
    total = 0.0
    for number, strategy in enumerate(dict.fromkeys(r[1] for r in figure.rows)):
        deals = figure.series("deals", strategy)[1][0]
        total = max(total, deals)
        xs, ys = figure.series("cactus", strategy)
        colour = STRATEGY_COLOURS[number % len(STRATEGY_COLOURS)]
        label = f"{strategy}: {len(xs)} of {deals:.0f} decided"
        if xs:
            axis.step([max(float(x), 1e-4) for x in xs], ys, where="post", color=colour,
                      label=label, marker="o", markersize=3)
        else:
            axis.plot([], [], color=colour, label=label)
    axis.axhline(total, color="#616161", linestyle="--", linewidth=1, label="all deals")
    axis.set_xscale("log")
    axis.set_xlabel("CPU seconds per deal (log scale)")
    axis.set_ylabel("deals decided within that time")
    axis.set_ylim(0, total * 1.08 + 1)
    axis.grid(True, which="major", alpha=0.3)
    axis.legend(loc="lower right")


# -- analyze ---------------------------------------------------------------------------------

def analyze_figure(depths: Mapping[int, Mapping[str, int]], strip: Strip, title: str,
                   depth_title: str = "Positions by depth") -> Figure:
    """Return a deal's positions by depth (by mark, from its state graph: won, winnable,
    lost; or unmarked, ``positions``, where the space was too large to mark) and the
    winnability strip of a solution."""
    figure = Figure(title, draw=_draw_analyze)
    figure.add("titles", depth_title, "", 0)
    for depth, row in depths.items():
        for mark, count in row.items():
            figure.add("depth", mark, depth, count)
    for step in strip.steps:
        statuses = Counter(choice.status for choice in step.choices)
        figure.add("strip", "keeps", step.index, statuses[WINNABLE])
        figure.add("strip", "loses", step.index, statuses[LOST])
        figure.add("strip", "unknown", step.index, statuses["unknown"])
        figure.add("strip", "critical", step.index, int(step.critical))
    figure.add("titles", f"deal {strip.status.value}", "", 0)
    return figure


def _draw_analyze(drawn: Any, figure: Figure) -> None:
    depth, strip = drawn.subplots(2, 1)
    bottom: list[float] = []
    titles = [row[1] for row in figure.rows if row[0] == "titles"]
    for mark in dict.fromkeys(row[1] for row in figure.rows if row[0] == "depth"):
        xs, ys = figure.series("depth", mark)
        bottom = bottom or [0.0] * len(xs)
        depth.bar(xs, ys, bottom=bottom, color=COLOURS.get(mark, "#5c6bc0"), label=mark,
                  width=0.9)
        bottom = [b + y for b, y in zip(bottom, ys)]
    depth.set_title(titles[0])
    depth.set_xlabel("depth (fewest moves from the deal)")
    depth.set_ylabel("positions")
    depth.legend(loc="best")

    xs, keeps = figure.series("strip", "keeps")
    if xs:
        _, loses = figure.series("strip", "loses")
        _, unknown = figure.series("strip", "unknown")
        _, critical = figure.series("strip", "critical")
        width = 0.9 * min([b - a for a, b in zip(xs, xs[1:])] + [1.0])
        strip.bar(xs, keeps, color=COLOURS["winnable"], label="moves that keep it winnable",
                  width=width)
        strip.bar(xs, loses, bottom=keeps, color=COLOURS["lost"], label="moves that lose it",
                  width=width)
        if any(unknown):
            strip.bar(xs, unknown, bottom=[k + l for k, l in zip(keeps, loses)],
                      color=COLOURS["unknown"], label="not decided in time", width=width)
        marks = [x for x, c in zip(xs, critical) if c]
        top = max(k + l + u for k, l, u in zip(keeps, loses, unknown))
        strip.scatter(marks, [top * 1.08 + 0.3] * len(marks), marker="v", color="black",
                      label=f"critical: of several, one keeps it ({len(marks)})", zorder=3)
        strip.set_ylim(0, top * 1.3 + 1)
        strip.legend(loc="upper right", ncols=2)
        strip.set_title(f"Winnability strip of a solution ({len(xs)} positions)")
    else:
        strip.text(0.5, 0.5, "no solution to draw: the " + titles[-1], ha="center",
                   va="center", transform=strip.transAxes)
        strip.set_title("Winnability strip")
    strip.set_xlabel("position along the solution (steps played before it)")
    strip.set_ylabel("legal moves")


def records_of(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """Return one record per deal (the first of each), in file order."""
    seen: set[Any] = set()
    out = []
    for verdict in verdicts:
        if verdict.deal not in seen:
            seen.add(verdict.deal)
            out.append(verdict)
    return out
