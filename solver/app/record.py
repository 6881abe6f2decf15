"""The record of one verdict: what ``solve --json`` prints and a results file holds per line.

One typed record, built from a search result, written by ``to_json`` and read back by
``from_json``, serves the command line's JSON and human output, batch classification
(writing and resuming) and summaries, so that no module guesses at another's dict keys.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.app.analyze import verify_moves
from solver.game import Game, IllegalMoveError, SolitaireError, Status, quote
from solver.search import Budget, Result


def variant_of(game: Game[Any, Any]) -> dict[str, Any]:
    """Return a game's variant options and their values (its dataclass fields)."""
    return dataclasses.asdict(game)  # type: ignore[call-overload, no-any-return]


@functools.lru_cache(maxsize=1)
def solver_version() -> str:
    """Return the version of the solver that makes records: the package's version, and
    the git commit its source is checked out at when that is cheaply known.

    The commit (``0.1.0+g872076b``, a local version label) is read from the files of a
    git checkout the package runs from (an editable install), without running git; it
    names the commit, not whether files were changed since. An installed package gives
    its version alone. Computed once per process.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("solitaire-solver")
    except PackageNotFoundError:
        number = "unknown"
    commit = _git_commit(Path(__file__).resolve().parents[2])
    return f"{number}+g{commit[:7]}" if commit else number


def _git_commit(root: Path) -> str:
    """Return the commit checked out in the git work tree at `root` ("" if none or unread)."""
    try:
        dot = root / ".git"
        if dot.is_file():                            # a linked work tree: "gitdir: PATH"
            text = dot.read_text().strip()
            if not text.startswith("gitdir:"):
                return ""
            gitdir = (root / text[len("gitdir:"):].strip()).resolve()
        elif dot.is_dir():
            gitdir = dot
        else:
            return ""
        common = gitdir
        if (gitdir / "commondir").is_file():
            common = (gitdir / (gitdir / "commondir").read_text().strip()).resolve()
        head = (gitdir / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head if _is_commit(head) else ""
        ref = head[len("ref:"):].strip()
        for folder in (gitdir, common):
            if (folder / ref).is_file():
                found = (folder / ref).read_text().strip()
                return found if _is_commit(found) else ""
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref and _is_commit(parts[0]):
                    return parts[0]
    except (OSError, UnicodeDecodeError):
        pass
    return ""


def _is_commit(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


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
    scored game's score (see ``solver.game.Game``): the best possible when won, the
    best reachable (proven) when lost, the best found when unknown; None for a game that
    is not scored, or when no end was reached. For a scored game `moves` is the play that
    reaches the score, won or not, and is replayed through the rules like a win.
    `version` is the solver's that reached it (``solver_version``), written as
    ``solver_version``; "" in records written before it was recorded.
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
    version: str = ""
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
            score = game.best_score
        return cls(game=game.name, variant=variant_of(game), deal=deal, status=result.status,
                   moves=tuple(game.notation(m) for m in result.moves), optimal=result.optimal,
                   strategy=strategy or result.strategy, states=result.stored,
                   expanded=result.expanded, seconds=result.seconds,
                   cpu_seconds=result.cpu_seconds, peak_memory=result.peak_memory,
                   verified=result.status is Status.WON or bool(result.moves),
                   budget=None if budget is None else budget_record(budget),
                   stopped_by=result.stopped_by if result.status is Status.UNKNOWN else "",
                   score=score, version=solver_version(), extra=dict(result.extra))

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
        if self.version:
            out["solver_version"] = self.version
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, item: Any, game: Game[Any, Any] | None = None) -> "Verdict":
        """Return the record a JSON object holds; raise SolitaireError naming what is wrong.

        A record needs its game, variant, deal and a verdict; the rest defaults, so
        records written before a field existed still read. What it holds must be a
        verdict someone could have reached: counts are whole numbers of at least 0,
        times finite, ``moves`` a list of texts as long as ``length`` says, a ``won``
        record carries the moves that win (none only where no position was searched: a
        deal won at its start) and a ``lost`` one no solution (a scored game's records
        carry the play that reaches their score either way). Whether
        the game is scored is read from `game` when given, else from the record (a
        scored game's decided records carry a ``score``). Whether the moves win is
        not checked here: ``replay_check`` does that, given the deal.
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
        known = {f.name for f in dataclasses.fields(cls)} | {"length", "solver_version"}
        version = item.get("solver_version", "")
        if not isinstance(version, str):
            raise SolitaireError(f"solver_version {_shown(version)} is not a text")
        budget = item.get("budget")
        score = item.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int)):
            raise SolitaireError("a score that is not a whole number")
        counts = {name: _count(item, name) for name in ("states", "expanded", "peak_memory")}
        times = {name: _time(item, name) for name in ("seconds", "cpu_seconds")}
        moves = item.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SolitaireError(f"moves {_shown(moves)} are not a list of texts")
        length = item.get("length", len(moves))
        if isinstance(length, bool) or not isinstance(length, int) or length != len(moves):
            raise SolitaireError(f"length {_shown(length)} but {len(moves)} moves")
        scored = game.score is not None if game is not None else score is not None
        if not scored and status == "won" and not moves and counts["states"]:
            # (no moves and no position searched: a deal won at its start)
            raise SolitaireError("a won record without the moves that win")
        if not scored and status == "lost" and moves:
            raise SolitaireError(f"a lost record with a solution's {len(moves)} moves")
        if budget is not None and not isinstance(budget, dict):
            raise SolitaireError(f"budget {_shown(budget)} is not a JSON object")
        try:
            return cls(game=item["game"], variant=item["variant"], deal=deal,
                       status=Status(status), moves=tuple(moves),
                       optimal=bool(item.get("optimal", False)),
                       strategy=str(item.get("strategy", "")), states=counts["states"],
                       expanded=counts["expanded"], seconds=times["seconds"],
                       cpu_seconds=times["cpu_seconds"], peak_memory=counts["peak_memory"],
                       verified=bool(item.get("verified", status == "won")),
                       budget=budget, stopped_by=str(item.get("stopped_by", "")), score=score,
                       version=version, extra={k: v for k, v in item.items() if k not in known})
        except (TypeError, ValueError):
            raise SolitaireError("a field of the wrong type") from None

    def replay_check(self, game: Game[Any, Any], start: Any) -> None:
        """Raise SolitaireError unless the record's moves are legal from `start`, the
        deal's first position, and a ``won`` record's end in a won position.

        A results file is text anyone can edit: a record changed from lost to won, or a
        move dropped, must not be counted. Records without moves pass, unless won (then
        the deal must be won at its start).
        """
        if not self.moves and self.status is not Status.WON:
            return
        try:
            replay = verify_moves(game, start, self.moves)
        except IllegalMoveError as error:
            raise SolitaireError(f"its moves do not replay: {error}") from None
        if self.status is Status.WON and not replay.won:
            raise SolitaireError(f"a won record whose {len(self.moves)} moves "
                                 "do not end in a won position")


def _shown(value: Any) -> str:
    return quote(json.dumps(value), 30)


def _count(item: dict[str, Any], name: str) -> int:
    value = item.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float):
            raise SolitaireError(f"{name} {_shown(value)} is not a whole number")
        raise SolitaireError("a field of the wrong type")
    if value < 0:
        raise SolitaireError(f"{name} {value} is negative")
    return value


def _time(item: dict[str, Any], name: str) -> float:
    value = item.get(name, 0.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SolitaireError("a field of the wrong type")
    if not math.isfinite(value) or value < 0:
        raise SolitaireError(f"{name} {_shown(value)} is not a finite time of at least 0")
    return float(value)
