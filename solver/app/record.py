"""The record of one verdict: what ``solve --json`` prints and a results file holds per line.

One typed record, built from a search result, written by ``to_json`` and read back by
``from_json``, serves the command line's JSON and human output, batch classification
(writing and resuming) and summaries, so that no module guesses at another's dict keys.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from solver.game import Game, SolitaireError, Status, guidance, quote
from solver.search import Budget, Result


def variant_of(game: Game[Any, Any]) -> dict[str, Any]:
    """Return a game's variant options and their values (its dataclass fields)."""
    return {name: value for name, value in dataclasses.asdict(game).items()  # type: ignore[call-overload]
            if name != "name"}


def budget_record(budget: Budget) -> dict[str, Any]:
    """Return the budget as a JSON object (None: no limit)."""
    return {"max_states": budget.max_states, "seconds": budget.seconds,
            "memory": budget.memory, "cpu": budget.cpu}


@dataclass(frozen=True)
class Verdict:
    """A verdict on one deal, with what it took and the settings it was reached under.

    `strategy` is the strategy asked for; `budget` the limits (None where a record was
    written without them); `verified` says the solution was replayed through the rules
    (every ``won`` verdict is); `extra` holds what a strategy adds (``decided_by``, the
    portfolio member; ``proof``, a static proof of loss; CP-SAT statistics). `score` is a
    scored game's score (see ``solver.game.Guidance``): the best possible when won, the
    best reachable (proven) when lost, the best found when unknown; None for a game that
    is not scored, or when no end was reached. For a scored game `moves` is the play that
    reaches the score, won or not, and is replayed through the rules like a win.
    """

    game: str
    variant: dict[str, Any]
    deal: int | str
    status: Status
    moves: tuple[str, ...] = ()
    optimal: bool = False
    strategy: str = ""
    states: int = 0
    expanded: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_memory: int = 0
    verified: bool = False
    budget: dict[str, Any] | None = None
    stopped_by: str = ""
    score: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game[Any, Any], deal: int | str, result: Result[Any],
           budget: Budget | None = None, strategy: str | None = None) -> "Verdict":
        """Return the record of `result`, a search of `deal` in `game`.

        A win of a scored game by a strategy that does not score (dfs) gets the best
        possible score: a win is exactly that.
        """
        score = result.score
        if score is None and result.status is Status.WON:
            score = guidance(game).best_score
        return cls(game=game.name, variant=variant_of(game), deal=deal, status=result.status,
                   moves=tuple(game.notation(m) for m in result.moves), optimal=result.optimal,
                   strategy=strategy or result.strategy, states=result.stored,
                   expanded=result.expanded, seconds=result.seconds,
                   cpu_seconds=result.cpu_seconds, peak_memory=result.peak_memory,
                   verified=result.status is Status.WON or bool(result.moves),
                   budget=None if budget is None else budget_record(budget),
                   stopped_by=result.stopped_by if result.status is Status.UNKNOWN else "",
                   score=score, extra=dict(result.extra))

    @property
    def length(self) -> int:
        """The number of steps of the solution (0 unless won, or a scored game's play)."""
        return len(self.moves)

    @property
    def proof(self) -> str:
        """The static proof of loss, if the verdict rests on one ("" otherwise)."""
        return str(self.extra.get("proof", ""))

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of the record (field order as users read it)."""
        out: dict[str, Any] = {
            "game": self.game, "variant": self.variant, "deal": self.deal,
            "status": self.status.value, "moves": list(self.moves), "length": self.length,
            "optimal": self.optimal, "strategy": self.strategy, "states": self.states,
            "expanded": self.expanded, "seconds": round(self.seconds, 4),
            "cpu_seconds": round(self.cpu_seconds, 4), "peak_memory": self.peak_memory,
            "verified": self.verified,
        }
        if self.budget is not None:
            out["budget"] = self.budget
        if self.status is Status.UNKNOWN:
            out["stopped_by"] = self.stopped_by
        if self.score is not None:
            out["score"] = self.score
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, item: Any) -> "Verdict":
        """Return the record a JSON object holds; raise SolitaireError naming what is wrong.

        A record needs its game, variant, deal and a verdict; the rest defaults, so
        records written before a field existed still read.
        """
        if not isinstance(item, dict):
            raise SolitaireError("not a JSON object")
        status = item.get("status")
        if status is None:
            raise SolitaireError("no status")
        if status not in {s.value for s in Status}:
            raise SolitaireError(f"status {quote(str(status), 20)} is not won, lost or unknown")
        deal = item.get("deal")
        if isinstance(deal, bool) or not isinstance(deal, (int, str)):
            raise SolitaireError("no deal id")
        if not isinstance(item.get("game"), str) or not isinstance(item.get("variant"), dict):
            raise SolitaireError("no game or variant")
        known = {f.name for f in dataclasses.fields(cls)} | {"length"}
        budget = item.get("budget")
        score = item.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
            raise SolitaireError("a score that is not a whole number")
        try:
            return cls(game=item["game"], variant=item["variant"], deal=deal,
                       status=Status(status), moves=tuple(map(str, item.get("moves", ()))),
                       optimal=bool(item.get("optimal", False)),
                       strategy=str(item.get("strategy", "")), states=int(item.get("states", 0)),
                       expanded=int(item.get("expanded", 0)),
                       seconds=float(item.get("seconds", 0.0)),
                       cpu_seconds=float(item.get("cpu_seconds", 0.0)),
                       peak_memory=int(item.get("peak_memory", 0)),
                       verified=bool(item.get("verified", status == "won")),
                       budget=budget if isinstance(budget, dict) else None,
                       stopped_by=str(item.get("stopped_by", "")), score=score,
                       extra={k: v for k, v in item.items() if k not in known})
        except (TypeError, ValueError):
            raise SolitaireError("a field of the wrong type") from None
