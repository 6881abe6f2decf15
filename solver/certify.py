"""Certificates of loss: the evidence a ``lost`` verdict is written with.

A certificate is a set of positions closed under the rules (``checker.check`` states the
argument): the writer explores every position reachable from the start once more, this
time storing each one exactly, in the encoding the independent checker reads, rather than
as a hash. A game offers certificates through its ``certifier`` hook: which reductions the
checker is to apply, the encoding, and which moves and automatic moves the writer follows
so that its positions are the checker's positions. Positions a static proof closes (the
hook's ``dead``) are written with the proof's facts and not expanded.

Writing costs a second exhaustive search, of the moves the checker accepts (often more
than the solver's own search follows, since the checker accepts few dominance rules);
it answers within the same kind of budget as a search, and says when that ran out.

A scored game's certificate also claims its best score (``"best"`` in the header): the
best score of the positions explored where no move is left, which the checker confirms
is the best any play scores. Exploring stops at a win as for any game: a scored game's
``won`` is its best possible score (``Game.best_score``), which ends the game, so a
certificate is only written where no play reaches it.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterable, TypeVar

from checker import certificate as certificate_file
from solver.game import Game, SolitaireError
from solver.search.base import follow
from solver.search.result import Budget

S = TypeVar("S")
M = TypeVar("M")

BYTES_A_POSITION = 120            # a set entry's overhead beyond its text, for the memory budget


@dataclass(frozen=True)
class Certifier(Generic[S, M]):
    """How a game's positions become a certificate the checker reads.

    `reductions` are the names the checker applies (each must be one its game module
    accepts); `encode` gives the checker's one-line encoding of a position, canonical under
    them; `moves` and `forced` are what the writer follows (default: the game's
    ``legal_moves`` or ``moves``, and its ``forced``), chosen so that the writer reaches every
    position the checker's rules do; `dead` gives the facts of a static proof where one
    closes a position (None: expand it).
    """

    reductions: tuple[str, ...]
    encode: Callable[[S], str]
    moves: Callable[[S], Iterable[M]] | None = None
    forced: Callable[[S], list[M]] | None = None
    dead: Callable[[S], object | None] | None = None


class CertificateError(SolitaireError):
    """No certificate can be written (the game offers none, or the verdict is not lost)."""


@dataclass(frozen=True)
class Written:
    """What writing a certificate came to: `status` is "lost" (written), "won" (the search
    reached a win: no certificate, and the verdict it was asked for was wrong) or
    "unknown" (a budget ran out: `stopped_by` says which)."""

    status: str
    positions: int = 0
    closed_by_facts: int = 0
    bytes: int = 0
    seconds: float = 0.0
    stopped_by: str = ""
    best: int | None = None           # a scored game's best score, claimed in the certificate


def certify(game: Game[Any, Any], start: Any, path: Path, *, deal: int | None = None,
            budget: Budget = Budget(), solver_version: str = "") -> Written:
    """Explore every position reachable from `start` and write them to `path` as a
    certificate that the deal is lost; write nothing unless the exploration is complete."""
    certifier = game.certifier
    if certifier is None:
        raise CertificateError(f"{game.name} does not write certificates of loss yet")
    began, budget = time.perf_counter(), budget.start()
    moves: Callable[[Any], Iterable[Any]] = certifier.moves or game.legal_moves or game.moves
    forced = certifier.forced or game.forced
    play, is_won, encode, dead = game.play, game.is_won, certifier.encode, certifier.dead
    score, best = game.score, None
    first = _settled(game, forced, start)
    found: dict[str, object | None] = {}
    stack = [first]
    found[encode(first)] = None
    size = 0
    while stack:
        state = stack.pop()
        if is_won(state):
            return Written("won", len(found), seconds=time.perf_counter() - began)
        facts = dead(state) if dead is not None else None
        if facts is not None:
            found[encode(state)] = facts
            continue
        over = True
        for move in moves(state):
            over = False
            _, child = follow(play, forced, state, move)
            line = encode(child)
            if line not in found:
                found[line] = None
                size += len(line) + BYTES_A_POSITION
                stack.append(child)
        if over and score is not None:                 # a play's end: it scores
            value = score(state)
            best = value if best is None or value > best else best
        stopped = _over(budget, len(found), size)
        if stopped:
            return Written("unknown", len(found), seconds=time.perf_counter() - began,
                           stopped_by=stopped)
    header = {"game": game.name, "variant": _variant(game), "deal": deal,
              "start": encode(first), "reductions": list(certifier.reductions),
              "solver": solver_version}
    if best is not None:
        header["best"] = best
    written = certificate_file.write(path, header, found.items())
    return Written("lost", len(found), sum(facts is not None for facts in found.values()),
                   written, time.perf_counter() - began, best=best)


def _settled(game: Game[Any, Any], forced: Callable[[Any], list[Any]], state: Any) -> Any:
    """Return `state` with the automatic moves `forced` makes from it played."""
    more = forced(state)
    while more:
        for move in more:
            state = game.play(state, move)
        more = forced(state)
    return state


def _over(budget: Budget, positions: int, size: int) -> str:
    if budget.max_states is not None and positions > budget.max_states:
        return "max-states"
    if budget.memory is not None and size > budget.memory:
        return "memory"
    if budget.deadline is not None and budget.clock() > budget.deadline:
        return "seconds"
    return ""


def _variant(game: Game[Any, Any]) -> dict[str, Any]:
    """Return every option of the game's variant with its value (its dataclass fields)."""
    return dataclasses.asdict(game)  # type: ignore[call-overload, no-any-return]

