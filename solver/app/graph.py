"""The state graph of a deal: every reachable position, each marked won, winnable or lost.

``explore`` walks every position reachable from a deal, breadth first, through the Game
protocol alone (``legal_moves`` where the game has it, else ``moves``; ``play``, ``key``,
``is_won``), and builds a networkx ``DiGraph``: one node per position (positions with
equal ``key`` are one node, as every search stores them), one edge per move between two
positions. A won position ends the game, so no move leaves it. Every position is then
marked by backward induction from the won ones: ``won``; ``winnable`` when some path
leads to a won position; ``lost`` otherwise. A ``lost`` mark is a proof only because the
whole space was walked, so a space with more positions than the budget is refused
(``GraphTooLarge``) rather than drawn in part.

The figures (``GraphSummary``): positions, edges, the share of positions from which the
game is still winnable (won ones included), dead ends (positions not won with no move),
strongly connected components (how much play can go round in circles; a space where
cards only ever leave has one per position), and the critical positions of the whole
space: winnable positions with a choice (two moves or more) where exactly one move keeps
the game winnable. Moves that reach the same position count as one there, as they are
one edge: they are the same choice; a position with one move only is no choice, so The
Clock, which has none, has no critical position.

``write`` saves the graph as GraphML or GEXF, chosen by the file's suffix. Nodes carry
``position`` (the game's text of it), ``status``, ``depth`` (the fewest moves from the
deal), ``critical`` and ``moves`` (its out-degree); edges carry ``move`` (the move in
notation; equal-target moves joined by `` | ``) and ``keeps`` (whether the position it
reaches is still winnable).

Silent library functions: the CLI prints.
"""
from __future__ import annotations

import collections
import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import networkx as nx

from solver.app.strip import Choice, Strip, StripStep
from solver.game import Game, SolitaireError, Status, quote

DEFAULT_MAX_POSITIONS = 200_000   # the positions a graph may hold unless told otherwise
SUFFIXES = (".graphml", ".gexf")
PROGRESS_EVERY = 4096
WON, WINNABLE, LOST = "won", "winnable", "lost"


class GraphTooLarge(SolitaireError):
    """The reachable positions of a deal pass the budget: no graph is built or written.

    `levels` holds what was learnt: the positions at each depth for the depths found
    whole before the budget ran out (breadth first, every position of them).
    """

    def __init__(self, budget: int, levels: dict[int, int] | None = None) -> None:
        super().__init__(f"the deal reaches more than {budget:,} positions, past the graph's "
                         f"budget; no graph was written (a larger --max-states raises it)")
        self.budget = budget
        self.levels = levels or {}


@dataclass(frozen=True)
class GraphSummary:
    """What the state graph of a deal says, as numbers."""

    positions: int
    edges: int
    won: int                  # positions that are a win
    winnable: int             # positions not won from which a win is reachable
    lost: int                 # positions from which no win is reachable
    dead_ends: int            # positions not won without any move
    components: int           # strongly connected components
    largest_component: int    # positions in the largest of them
    critical: int             # winnable positions with a choice where one move keeps it so
    depth: int                # the most moves any position needs to be reached
    start: str                # the deal's own mark: won, winnable or lost

    @property
    def winnable_share(self) -> float:
        """The share of positions from which the game is still winnable (won ones too)."""
        return (self.won + self.winnable) / self.positions

    def to_json(self) -> dict[str, Any]:
        return {"positions": self.positions, "edges": self.edges, "won": self.won,
                "winnable": self.winnable, "lost": self.lost,
                "winnable_share": round(self.winnable_share, 6), "dead_ends": self.dead_ends,
                "components": self.components, "largest_component": self.largest_component,
                "critical": self.critical, "depth": self.depth, "start": self.start}


@dataclass(frozen=True)
class StateGraph:
    """The reachable positions of a deal (node 0 is the deal) and their figures."""

    graph: nx.DiGraph
    summary: GraphSummary

    def depth_counts(self) -> dict[int, dict[str, int]]:
        """Return, for each depth (fewest moves from the deal), its positions by mark."""
        counts: dict[int, dict[str, int]] = {}
        for _, data in self.graph.nodes(data=True):
            row = counts.setdefault(data["depth"], {WON: 0, WINNABLE: 0, LOST: 0})
            row[data["status"]] += 1
        return dict(sorted(counts.items()))

    def solution(self) -> list[int]:
        """Return the positions of a shortest win from the deal (node ids, the deal first),
        or [] when the deal is lost."""
        graph = self.graph
        if graph.nodes[0]["status"] == LOST:
            return []
        parent: dict[int, int] = {0: 0}
        queue = collections.deque([0])
        while queue:
            node = queue.popleft()
            if graph.nodes[node]["status"] == WON:
                path = [node]
                while path[-1] != 0:
                    path.append(parent[path[-1]])
                return path[::-1]
            for child in graph.successors(node):
                if child not in parent and graph.nodes[child]["status"] != LOST:
                    parent[child] = node
                    queue.append(child)
        raise AssertionError("a winnable position with no path to a won one")

    def strip(self) -> Strip:
        """Return the winnability strip of a shortest win: at each of its positions, every
        move with whether the position it reaches is still winnable. Each position's index
        counts the steps played before it, as a solution is written."""
        path = self.solution()
        graph = self.graph
        steps = []
        index = 0
        for node, taken in zip(path, path[1:]):
            choices = tuple(Choice(data["move"], WINNABLE if data["keeps"] else LOST,
                                   child == taken)
                            for child, data in sorted(graph[node].items(),
                                                      key=lambda item: item[1]["move"]))
            steps.append(StripStep(index, choices))
            index += len(graph[node][taken]["move"].split(" | ")[0].split())
        return Strip(tuple(steps), Status.LOST if not path else Status.WON)


def explore(game: Game[Any, Any], state: Any, max_positions: int = DEFAULT_MAX_POSITIONS,
            on_progress: Callable[[int], None] | None = None) -> StateGraph:
    """Return the state graph of every position reachable from `state`, marked.

    Raise GraphTooLarge as soon as more than `max_positions` positions are found.
    `on_progress(positions)` is called every PROGRESS_EVERY positions found.
    """
    moves_of = game.legal_moves or game.moves
    graph = nx.DiGraph()
    index = {game.key(state): 0}
    graph.add_node(0, position=game.format(state), depth=0)
    queue: collections.deque[tuple[int, Any, int]] = collections.deque([(0, state, 0)])
    won: list[int] = []
    while queue:
        node, position, depth = queue.popleft()
        if game.is_won(position):
            won.append(node)
            continue                          # the game ends: no move leaves a win
        for move in moves_of(position):
            child = game.play(position, move)
            key = game.key(child)
            target = index.get(key)
            if target is None:
                target = len(index)
                if target >= max_positions:            # every depth up to `depth` is whole
                    levels = collections.Counter(d for _, d in graph.nodes(data="depth")
                                                 if d <= depth)
                    raise GraphTooLarge(max_positions, dict(sorted(levels.items())))
                index[key] = target
                if on_progress is not None and target % PROGRESS_EVERY == 0:
                    on_progress(target)
                graph.add_node(target, position=game.format(child), depth=depth + 1)
                queue.append((target, child, depth + 1))
            notation = " ".join(game.notation(step) for step in game.expand(position, move))
            if graph.has_edge(node, target):
                graph[node][target]["move"] += " | " + notation
            else:
                graph.add_edge(node, target, move=notation)
    return StateGraph(graph, _mark(graph, won))


def _mark(graph: nx.DiGraph, won: list[int]) -> GraphSummary:
    """Mark every node won, winnable or lost (backward from the won ones), every edge
    whether it keeps the game winnable, and the critical nodes; return the figures."""
    status = {node: LOST for node in graph}
    for node in won:
        status[node] = WON
    queue = collections.deque(won)
    while queue:                              # every predecessor of a winnable one is winnable
        node = queue.popleft()
        for parent in graph.predecessors(node):
            if status[parent] == LOST:
                status[parent] = WINNABLE
                queue.append(parent)
    nx.set_node_attributes(graph, status, "status")
    for source, target, data in graph.edges(data=True):
        data["keeps"] = status[target] != LOST
    critical = 0
    dead_ends = 0
    for node, data in graph.nodes(data=True):
        data["moves"] = graph.out_degree(node)
        keeping = sum(graph[node][child]["keeps"] for child in graph.successors(node))
        data["critical"] = status[node] == WINNABLE and keeping == 1 and data["moves"] > 1
        critical += data["critical"]
        dead_ends += status[node] != WON and data["moves"] == 0
    components = [len(c) for c in nx.strongly_connected_components(graph)]
    counts = collections.Counter(status.values())
    return GraphSummary(
        positions=graph.number_of_nodes(), edges=graph.number_of_edges(),
        won=counts[WON], winnable=counts[WINNABLE], lost=counts[LOST], dead_ends=dead_ends,
        components=len(components), largest_component=max(components), critical=critical,
        depth=max(depth for _, depth in graph.nodes(data="depth")), start=status[0])


def check_graph_file(path: Path) -> None:
    """Refuse, before any search, a graph file whose suffix names no format we write, or
    whose folder is not there."""
    if path.suffix.lower() not in SUFFIXES:
        raise SolitaireError(f"--graph {quote(str(path), 80)}: name a .graphml or .gexf file "
                             "(the suffix chooses the format)")
    check_folder(path, "--graph")


def check_folder(path: Path, option: str) -> None:
    """Refuse, before any search, a file to be written into a folder that is not there."""
    if not path.parent.is_dir():
        raise SolitaireError(f"{option} {quote(str(path), 80)}: there is no folder "
                             f"{quote(str(path.parent), 80)} to write it in")


def write(state_graph: StateGraph, path: Path) -> None:
    """Write the graph to `path`, as GraphML or GEXF by its suffix."""
    check_graph_file(path)
    writer = nx.write_graphml if path.suffix.lower() == ".graphml" else nx.write_gexf
    write_whole(path, lambda part: writer(state_graph.graph, str(part)))


def write_whole(path: Path, write_to: Callable[[Path], None]) -> None:
    """Write a file whole or not at all: `write_to` fills a file beside `path`, which then
    takes its place, so a failed write leaves whatever `path` held before."""
    part = path.with_name(f".{path.name}.part")
    try:
        write_to(part)
        os.replace(part, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            part.unlink()
        raise SolitaireError(f"cannot write {quote(str(path), 80)}: "
                             f"{error.strerror or error}") from None
