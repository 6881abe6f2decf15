"""The state graph (``solver.app.graph``): its figures on small spaces, checked by hand (The
Clock) and against an independent exhaustive search; files read back; the budget."""
from __future__ import annotations

import json
from typing import Any

import networkx as nx
import pytest
from command_line import runner

from conftest import quick_first
from games import GAMES, find_game
from solver.app.cli import app
from solver.app.graph import LOST, WINNABLE, WON, GraphTooLarge, explore, write
from solver.game import SolitaireError, Status

CLOCK = find_game("the-clock", {"ranks": 3, "suits": 2})
BLACK_HOLE = find_game("black-hole", {"ranks": 4})
GAPS = find_game("gaps", {"redeals": 0, "suits": 3, "ranks": 5})
CHRIS_CROSS = find_game("chris-cross-pairs", {"size": 3, "ranks": 8, "suits": 2})


# -- The Clock: a path, counted by hand ----------------------------------------------------

@pytest.mark.parametrize("deal", range(1, 21))
def test_the_clock_is_a_path_of_its_turns(deal):
    """The Clock has no choices: each move turns one of the 6 cards of this twin, so its
    graph is a path, won after exactly 6 moves (7 positions, one won) or lost at a dead
    end; no position is critical (none has a choice) and every position is its own
    component (no move comes back)."""
    state = CLOCK.deal(deal)
    figures = explore(CLOCK, state).summary
    won = CLOCK.knuth_verdict(state)                  # an independent verdict
    assert figures.start == (WINNABLE if won else LOST)
    assert figures.edges == figures.positions - 1
    assert figures.components == figures.positions and figures.largest_component == 1
    assert figures.critical == 0
    if won:
        assert (figures.positions, figures.won, figures.dead_ends) == (7, 1, 0)
        assert figures.winnable_share == 1.0
    else:
        assert figures.positions < 7 and figures.dead_ends == 1 and figures.lost == figures.positions
        assert figures.winnable_share == 0.0


# -- an independent exhaustive search ------------------------------------------------------

def reference(game: Any, start: Any) -> dict[str, Any]:
    """The figures of a space by a plain depth-first walk and a fixed point, sharing no code
    with ``solver.app.graph``: positions by key, distinct edges, winnable by iteration."""
    moves_of = game.legal_moves or game.moves
    children: dict[bytes, set[bytes]] = {}
    won: set[bytes] = set()
    stack = [start]
    children[game.key(start)] = set()
    while stack:
        state = stack.pop()
        key = game.key(state)
        if game.is_won(state):
            won.add(key)
            continue
        for move in moves_of(state):
            child = game.play(state, move)
            child_key = game.key(child)
            children[key].add(child_key)
            if child_key not in children:
                children[child_key] = set()
                stack.append(child)
    winnable = set(won)
    changed = True
    while changed:                                    # a fixed point, not a backward walk
        changed = False
        for key, targets in children.items():
            if key not in winnable and targets & winnable:
                winnable.add(key)
                changed = True
    reach = {}
    for key in children:                              # mutual reachability: components
        seen, todo = {key}, [key]
        while todo:
            for target in children[todo.pop()]:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        reach[key] = seen
    components = {frozenset(k for k in reach[key] if key in reach[k]) for key in children}
    return {
        "positions": len(children), "edges": sum(map(len, children.values())),
        "won": len(won), "winnable": len(winnable - won), "lost": len(children) - len(winnable),
        "dead_ends": sum(1 for k, t in children.items() if not t and k not in won),
        "critical": sum(1 for k, t in children.items()
                        if k in winnable and k not in won and len(t) > 1
                        and len(t & winnable) == 1),
        "components": len(components),
        "largest_component": max(map(len, components)),
    }


SMALL = [(BLACK_HOLE, deal) for deal in range(1, 7)] + \
        [(GAPS, deal) for deal in range(1, 5)] + [(CHRIS_CROSS, deal) for deal in range(1, 4)]


@pytest.mark.parametrize("game, deal", SMALL, ids=lambda v: getattr(v, "name", str(v)))
def test_figures_match_an_independent_search(game, deal):
    figures = explore(game, game.deal(deal)).summary.to_json()
    expected = reference(game, game.deal(deal))
    assert {name: figures[name] for name in expected} == expected


def test_the_spaces_checked_have_cycles_wins_and_losses():
    """The reference check above means something: its spaces hold won, winnable and lost
    positions, dead ends, critical positions and components of more than one position."""
    found = [explore(game, game.deal(deal)).summary for game, deal in SMALL]
    assert all(sum(getattr(f, name) for f in found) > 0
               for name in ("won", "winnable", "lost", "dead_ends", "critical"))
    assert max(f.largest_component for f in found) > 1
    assert {f.start for f in found} == {WINNABLE, LOST}


def test_a_black_hole_twin_known_figures():
    """Black Hole twin deal 1 (4 ranks): the figures pinned, a space where cards only leave
    (one component per position)."""
    figures = explore(BLACK_HOLE, BLACK_HOLE.deal(1)).summary
    assert (figures.positions, figures.edges, figures.dead_ends, figures.critical) == \
        (504, 966, 8, 16)
    assert figures.components == figures.positions
    assert figures.start == WINNABLE


def test_a_solutions_strip_follows_a_shortest_win():
    explored = explore(BLACK_HOLE, BLACK_HOLE.deal(3))
    path = explored.solution()
    graph = explored.graph
    assert path[0] == 0 and graph.nodes[path[-1]]["status"] == WON
    assert len(path) - 1 == nx.shortest_path_length(graph, 0, path[-1])
    strip = explored.strip()
    assert len(strip.steps) == len(path) - 1
    for step, node in zip(strip.steps, path):
        assert sum(choice.taken for choice in step.choices) == 1
        assert all(choice.keeps for choice in step.choices if choice.taken)
        assert len(step.choices) == graph.out_degree(node)
        assert step.critical == graph.nodes[node]["critical"]
    assert strip.critical == [i for i, node in enumerate(path[:-1]) if graph.nodes[node]["critical"]]


def test_a_lost_deal_has_no_solution_and_an_empty_strip():
    explored = explore(CLOCK, CLOCK.deal(3))
    assert explored.summary.start == LOST
    assert explored.solution() == [] and explored.strip().steps == ()


# -- files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, reader", [(".graphml", nx.read_graphml), (".gexf", nx.read_gexf)])
def test_the_graph_reads_back_through_networkx(tmp_path, suffix, reader):
    explored = explore(CHRIS_CROSS, CHRIS_CROSS.deal(2))
    path = tmp_path / f"space{suffix}"
    write(explored, path)
    back = reader(path)
    graph = explored.graph
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert back.number_of_edges() == graph.number_of_edges()
    for node, data in graph.nodes(data=True):
        read = back.nodes[str(node)]
        assert read["status"] == data["status"] and int(read["depth"]) == data["depth"]
        assert read["critical"] == data["critical"] and read["position"] == data["position"]
    for source, target, data in graph.edges(data=True):
        read = back.edges[str(source), str(target)]
        assert read["move"] == data["move"] and read["keeps"] == data["keeps"]
    assert CHRIS_CROSS.parse(back.nodes["0"]["position"]) == CHRIS_CROSS.deal(2)


def test_an_unknown_suffix_is_refused(tmp_path):
    with pytest.raises(SolitaireError, match=r"\.graphml or \.gexf"):
        write(explore(CLOCK, CLOCK.deal(1)), tmp_path / "space.dot")


# -- the budget ----------------------------------------------------------------------------

def test_a_space_past_the_budget_is_refused():
    positions = explore(BLACK_HOLE, BLACK_HOLE.deal(1)).summary.positions
    assert explore(BLACK_HOLE, BLACK_HOLE.deal(1), positions).summary.positions == positions
    with pytest.raises(GraphTooLarge, match=f"more than {positions - 1:,} positions"):
        explore(BLACK_HOLE, BLACK_HOLE.deal(1), positions - 1)


def test_the_command_refuses_a_space_past_the_budget_in_one_line(tmp_path):
    out = tmp_path / "space.graphml"
    result = runner.invoke(app, ["analyze", "black-hole", "--deal", "3", "--graph", str(out),
                                 "--max-states", "1000"])
    assert result.exit_code == 3
    assert len(result.stderr.strip().splitlines()) == 1
    assert "more than 1,000 positions" in result.stderr and "no graph was written" in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_the_command_writes_the_graph_and_reports_its_figures(tmp_path):
    out = tmp_path / "space.gexf"
    result = runner.invoke(app, ["analyze", "black-hole", "--deal", "1", "-V", "ranks=4",
                                 "--graph", str(out), "--json"])
    assert result.exit_code == 0
    item = json.loads(result.stdout)
    expected = explore(BLACK_HOLE, BLACK_HOLE.deal(1))
    assert item["space"] == expected.summary.to_json() and item["status"] == "won"
    assert item["critical"] == expected.strip().critical
    assert nx.read_gexf(out).number_of_nodes() == item["space"]["positions"]


def test_the_command_says_a_lost_deal_is_lost(tmp_path):
    result = runner.invoke(app, ["analyze", "black-hole", "--deal", "1",
                                 "--graph", str(tmp_path / "g.graphml")])
    assert result.exit_code == 1
    assert "8 positions" in result.stdout and "the deal is lost" in result.stdout


def test_without_graph_or_plot_the_command_gives_the_difficulty_card():
    result = runner.invoke(app, ["analyze", "the-clock", "--deal", "1", "--json"])
    assert result.exit_code in (0, 1), result.output
    card = json.loads(result.stdout)
    assert "tier" in card and "first_moves" in card and "space" not in card


# -- every game ----------------------------------------------------------------------------

def _small(game: Any) -> Any:
    """The game's first small twin, or the game itself where it declares none."""
    from solver.game import twins

    try:
        return twins(game)[0]
    except (ValueError, IndexError):
        return game


@pytest.mark.parametrize("name", quick_first(sorted(GAMES), set(GAMES) - {"bridge-solitaire"}))
def test_every_game_gives_a_graph_that_agrees_with_search(name):
    """Through the Game protocol alone, every game's small twin gives a graph whose marks
    add up and whose verdict on the deal is the solver's (a game without twins may be
    refused instead)."""
    from solver.app.analyze import solve

    game = _small(GAMES[name])
    state = game.deal(1)
    try:
        explored = explore(game, state, 50_000)
    except GraphTooLarge:                 # refused, as it must be: only a game with no small
        assert GAMES[name].no_twins       # twin (Bridge Solitaire) has so large a deal 1 here
        return
    figures = explored.summary
    assert figures.won + figures.winnable + figures.lost == figures.positions
    assert figures.positions == explored.graph.number_of_nodes()
    verdict = solve(game, state).status
    assert verdict is not Status.UNKNOWN
    assert (figures.start == LOST) == (verdict is Status.LOST)


@pytest.mark.slow
def test_a_strip_by_search_agrees_with_the_graph():
    """Along a solution found by search, every move the strip's searches decided has the
    mark the whole graph gives the position it reaches."""
    from solver.app.strip import UNKNOWN, by_search
    from solver.search import Budget

    game = find_game("black-hole", {"ranks": 7})
    start = game.deal(3)
    explored = explore(game, start)
    mark = {game.key(game.parse(data["position"])): data["status"]
            for _, data in explored.graph.nodes(data=True)}
    strip = by_search(game, start, Budget(max_states=200_000))
    assert strip.status.value == "won" and strip.steps
    state = start
    decided = 0
    for step in strip.steps:
        assert sum(choice.taken for choice in step.choices) == 1
        for choice in step.choices:
            child = game.play(state, game.parse_move(state, choice.move))
            if choice.status != UNKNOWN:
                decided += 1
                assert (mark[game.key(child)] != LOST) == choice.keeps
            if choice.taken:
                taken = child
        state = taken
    assert game.is_won(state) and decided > len(strip.steps)
