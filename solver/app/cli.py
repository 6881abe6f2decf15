"""The ``solitaire`` command: thin typer commands over the silent library functions.

Every user mistake (a bad deal, move, name, range, option or results file) is printed as
one bounded line on stderr with exit status 2. Anything else is a bug: one line naming the
error and asking for a report, with its own status (70), so that a script counting exit
statuses never reads a crash as a verdict; ``--debug`` (anywhere on the command line)
shows its traceback instead. Output that cannot be written (a full disk, a closed standard
output) is one line and status 74; a reader that stopped reading (``| head``) ends the
command quietly.

Exit statuses (``EXIT_STATUS`` and the ``EXIT_`` constants): 0 won (or done), 1 lost
(verify: legal but not won), 2 a user's mistake, 3 unknown (a budget ran out), 70 an
internal error (a bug), 74 output that cannot be written, 130 interrupted (Ctrl-C),
143 terminated (SIGTERM).
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import math
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

import typer

from games import GAMES, find_game, parse_variants
from solver.app import analyze, batch, blind, replay_page
from solver.cards import pretty
from solver.text import read_number
from solver.game import BLIND_CAP, Game, SolitaireError, Status, quote
from solver.app.record import Verdict, solver_version, variant_of
from solver.search import OPTIMAL_STRATEGIES, STRATEGIES, Budget, Result, check_strategy

EXIT_STATUS = {Status.WON: 0, Status.LOST: 1, Status.UNKNOWN: 3}
EXIT_ERROR, EXIT_INTERRUPTED = 2, 130
EXIT_BUG = 70                        # an internal error (sysexits' EX_SOFTWARE)
EXIT_OUTPUT = 74                     # output that cannot be written (EX_IOERR)
EXIT_TERMINATED = 143                # SIGTERM (128 + 15, as a shell reports it)
EXIT_BROKEN_PIPE = 141               # the reader went away (128 + SIGPIPE)
DEBUG_FLAG = "--debug"
MESSAGE_LIMIT = 400                  # characters of one error line
MAX_DEAL_BYTES = 1 << 20             # a deal's or a move list's text; far above any real one
DEFAULT_SECONDS = 60.0
MIN_MEMORY = 1 << 20

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Solve, hint, verify and classify solitaire deals.",
                  epilog="Exit status: 0 won (or done), 1 lost (verify: legal but not won), "
                         "2 a mistake in the input, 3 unknown (a budget ran out), "
                         "70 an internal error (a bug: please report it; --debug shows its "
                         "traceback), 74 output cannot be written, 130 interrupted, "
                         "143 terminated.")

def whole_number(text: str) -> int:
    """Return a count or deal number written in ASCII digits (``1_000``, ``²``, ``-5`` refused).

    >>> whole_number("617")
    617
    """
    number = read_number(text.strip(), max_digits=30)
    if number is None:
        raise typer.BadParameter(f"{quote(text, 24)} is not a whole number written in digits 0-9")
    return number


def deal_number(text: str) -> int:
    """Return a deal number as written (the game says which numbers it deals)."""
    written = text.strip()
    if written.startswith("-") and read_number(written[1:], max_digits=30) is not None:
        raise typer.BadParameter(f"deal numbers start at 1; {quote(text, 24)} is not one")
    return whole_number(text)


def positive_number(text: str) -> int:
    """Return a whole number of at least 1 (a count of positions)."""
    number = None if text.strip().startswith("-") else whole_number(text)
    if number is None or number < 1:
        raise typer.BadParameter(f"{quote(text, 24)}: give a number of at least 1")
    return number


def finite_seconds(value: float) -> float:
    """Refuse a time budget that is not a finite number (``inf`` would not be JSON)."""
    if not math.isfinite(value):
        raise typer.BadParameter("give a finite number of seconds (86400 is a day)")
    return value


def _finite_or_none(value: Optional[float]) -> Optional[float]:
    return None if value is None else finite_seconds(value)


GameArg = typer.Argument(..., metavar="GAME",
                         help="game name or alias; `solitaire games` lists them")
FileArg = typer.Argument(None, metavar="[FILE]", help="a deal's text (a file, or - for stdin)")
DealOpt = typer.Option(None, "--deal", "-d", metavar="NUMBER", parser=deal_number,
                       help="a numbered deal instead of a file")
VariantOpt = typer.Option([], "--variant", "-V", metavar="KEY=VALUE",
                          help="variant option (repeatable); `solitaire games` lists them")
StrategyOpt = typer.Option(None, "--strategy", "-s", metavar="STRATEGY",
                           help=f"one of: {', '.join(STRATEGIES)} (default: the game's own); "
                                "options after a colon, like beam:width=32")
StatesOpt = typer.Option(None, "--max-states", metavar="N", parser=positive_number,
                         help="stop after storing this many positions (cpsat stores none)")
MemoryOpt = typer.Option(None, "--memory", metavar="SIZE",
                         help="memory budget, e.g. 2G or 500M (default: 40% of RAM)")
SharedMemoryOpt = typer.Option(None, "--memory", metavar="SIZE",
                               help="memory budget, e.g. 2G or 500M (default: 40% of RAM, "
                                    "shared by --jobs)")
JsonOpt = typer.Option(False, "--json", help="one JSON object instead of human output")
CpuOpt = typer.Option(False, "--cpu", help="count --seconds in processor time (reproducible "
                      "on a busy machine)")
PlayedOpt = typer.Option("", "--moves", "-m", metavar="MOVES",
                         help="moves played already, in notation (spaces or commas; @FILE reads "
                              "a file): start from the position they reach")
HtmlOpt = typer.Option(None, "--html", metavar="FILE",
                       help="write a page that replays the solution in a browser (one "
                            "self-contained HTML file)")
SourceArg = typer.Argument(..., metavar="SOURCE",
                           help="deal range (1-1000), a file of deals, or JSON lines")
OutOpt = typer.Option(..., "--out", "-o", metavar="RESULTS", help="results, one JSON line per deal")
JobsOpt = typer.Option(None, "--jobs", "-j", min=1, max=256, metavar="N",   # None: 1, or --dask's
                       help="worker processes (default 1)", show_default=False)
ShardOpt = typer.Option(None, "--shard", metavar="I/N",
                        help="only the I-th of N disjoint parts of SOURCE (the deals at index "
                             "I-1 modulo N), the same on every machine; join the parts' results "
                             "with `solitaire merge`")
DaskOpt = typer.Option(None, "--dask", metavar="ADDRESS",
                       help="solve on a Dask cluster: a scheduler's address (tcp://host:8786), "
                            "or local:N to start N local worker processes (needs the [cluster] "
                            "extra)")
ProgressOpt = typer.Option(None, "--progress/--no-progress",
                           help="a progress line on stderr (default: on a terminal)")


def _seconds_option(default: float, meaning: str) -> Any:
    return typer.Option(default, "--seconds", min=0.001, metavar="SECONDS",
                        callback=finite_seconds, show_default=False,
                        help=f"{meaning} (default {default:g})")


# -- errors and budgets ---------------------------------------------------------------------

def one_line(message: str) -> str:
    """Return `message` as one line of at most MESSAGE_LIMIT characters."""
    flat = " ".join(message.split())
    return flat if len(flat) <= MESSAGE_LIMIT else flat[:MESSAGE_LIMIT - 1] + "…"


@contextlib.contextmanager
def user_errors(interrupted: str = "interrupted") -> Iterator[None]:
    """Turn a SolitaireError into `error: ...` (status 2; 74 for output that cannot be
    written), Ctrl-C into status 130 and SIGTERM into 143, each saying `interrupted`."""
    try:
        yield
    except batch.OutputError as error:
        typer.echo(f"error: {one_line(str(error))}", err=True)
        raise typer.Exit(EXIT_OUTPUT) from None
    except SolitaireError as error:
        typer.echo(f"error: {one_line(str(error))}", err=True)
        raise typer.Exit(EXIT_ERROR) from None
    except KeyboardInterrupt as stop:
        terminated = isinstance(stop, batch.Terminated)
        typer.echo("terminated" if terminated and interrupted == "interrupted" else interrupted,
                   err=True)
        raise typer.Exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED) from None


def _budget(max_states: Optional[int], seconds: Optional[float], memory: Optional[str],
            jobs: int = 1, cpu: bool = False) -> Budget:
    from solver.table import default_memory

    size = parse_size(memory) if memory is not None else default_memory(jobs)
    return Budget(max_states=max_states, seconds=seconds, memory=size, cpu=cpu)


def parse_size(text: str) -> int:
    """Return the bytes of a size like ``2G``, ``500M``, ``1.5GiB``; at least 1M.

    >>> parse_size("2G"), parse_size("500m"), parse_size("1.5GiB")
    (2147483648, 524288000, 1610612736)
    """
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    found = re.fullmatch(r"\s*([-+]?[0-9.]+(?:e[-+]?[0-9]+)?|inf|nan)\s*([kmgt]?)(?:i?b)?\s*",
                         text, re.IGNORECASE)
    try:
        assert found is not None
        value = float(found.group(1)) * units[found.group(2).upper()]
    except (AssertionError, ValueError):
        raise SolitaireError(f"memory size {quote(text, 20)} is not like 2G or 500M") from None
    if not math.isfinite(value) or value < MIN_MEMORY:
        raise SolitaireError(f"memory size {quote(text, 20)}: give at least 1M, like 2G or 500M")
    return int(value)


def _read_deal(file: Path) -> str:
    if str(file) == "-":
        if sys.stdin is None:
            raise SolitaireError("standard input is closed; give a deal file or --deal NUMBER")
        data = sys.stdin.buffer.read(MAX_DEAL_BYTES + 1)
        if len(data) > MAX_DEAL_BYTES:
            raise SolitaireError("standard input is larger than any deal (1 MiB at most)")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SolitaireError("standard input is not UTF-8 text") from None
    return batch.read_text(file, MAX_DEAL_BYTES, "a deal")


def _position(game: Game[Any, Any], file: Optional[Path], deal: Optional[int]) -> tuple[Any, Any]:
    text = _read_deal(file) if file is not None else None
    state = analyze.load_position(game, text, deal)
    return state, deal if deal is not None else str(file)


def _move_list(moves: str) -> list[str]:
    """Return the notations of a ``--moves`` value (``@FILE`` reads them from a file)."""
    if moves.startswith("@"):
        moves = batch.read_text(Path(moves[1:]), MAX_DEAL_BYTES, "a move list")
    return moves.replace(",", " ").split()


def _continued(game: Game[Any, Any], state: Any, moves: str) -> tuple[Any, list[str]]:
    """Return the position `moves` reach from `state` (each checked), and the moves."""
    played = _move_list(moves)
    return (analyze.verify_moves(game, state, played).final if played else state), played


def _check_budget(game: Game[Any, Any], strategy: Optional[str], budget: Budget) -> None:
    """Refuse, before any search, a strategy the game cannot use or a budget it ignores."""
    name = analyze.default_strategy(game, strategy)
    check_strategy(game, name)
    batch.check_strategy_budget(name, budget)


class SearchProgress:
    """A progress line on stderr for a long search: positions, rate, time against budget.

    Searches call it every 256 expansions; it shows nothing for the first two seconds,
    then refreshes twice a second, and ``close`` clears it.
    """

    def __init__(self, seconds: Optional[float], enabled: Optional[bool]) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.seconds = seconds
        self.began = time.monotonic()
        self.next = self.began + 2.0
        self.stored: dict[int, int] = {}
        self.shown = False

    def __call__(self, run: Any) -> None:
        self.stored[id(run)] = len(run.table)
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + 0.5
        stored, elapsed = sum(self.stored.values()), now - self.began
        limit = f" of {self.seconds:g}" if self.seconds is not None else ""
        sys.stderr.write(f"\rsearching: {stored:,} positions, {stored / elapsed:,.0f}/s, "
                         f"{elapsed:.0f}{limit} s\033[K")
        sys.stderr.flush()
        self.shown = True

    def budget(self, budget: Budget) -> Budget:
        """Return `budget` reporting to this line (unchanged when the line is off)."""
        return dataclasses.replace(budget, progress=self if self.enabled else None)

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


@contextlib.contextmanager
def progress_line(seconds: Optional[float], enabled: Optional[bool]) -> Iterator[SearchProgress]:
    line = SearchProgress(seconds, enabled)
    try:
        yield line
    finally:
        line.close()


def _style(text: str) -> str:
    """Return a position's text as `deal --style auto` shows it."""
    if sys.stdout.isatty() and "NO_COLOR" not in os.environ:
        return pretty(text, colour=True)
    return text


# -- commands -------------------------------------------------------------------------------

def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("solitaire-solver")
        except PackageNotFoundError:
            number = "unknown"
        typer.echo(f"solitaire-solver {number}")
        raise typer.Exit()


@app.callback()
def _root(show_version: bool = typer.Option(False, "--version", callback=_version,
                                            is_eager=True, help="print the version and exit")) -> None:
    """Solve, hint, verify and classify solitaire deals."""


@app.command()
def games() -> None:
    """List the games, their aliases, variant options and presets."""
    for game in GAMES.values():
        typer.echo(f"{game.name}: {game.summary}")
        if game.aliases:
            typer.echo(f"  aliases: {', '.join(game.aliases)}")
        values = variant_of(game)
        for option, meaning in game.variants.items():
            typer.echo(f"  --variant {option}={values[option]}  ({meaning})")
        for preset, values in game.presets.items():
            settings = " ".join(f"{k}={v}" for k, v in values.items())
            typer.echo(f"  preset {preset}: {settings}")


@app.command()
def deal(game_name: str = GameArg,
         number: int = typer.Argument(..., metavar="NUMBER", parser=deal_number,
                                      help="deal number (from 1)"),
         variant: list[str] = VariantOpt,
         style: str = typer.Option("auto", "--style", metavar="STYLE", help="cards as 'ascii' (TD, what other "
                                   "solvers read), 'unicode' (10♦) or 'colour' (red suits in red); "
                                   "auto: colour on a terminal, else ascii")) -> None:
    """Print a numbered deal in the game's text format (every style reads back as a deal)."""
    with user_errors():
        if style not in ("auto", "ascii", "unicode", "colour", "color"):
            raise SolitaireError(f"unknown style {quote(style, 20)}: choose auto, ascii, "
                                 "unicode or colour")
        game = find_game(game_name, parse_variants(variant))
        state, _ = _position(game, None, number)
        text = game.format(state)
        if style == "auto":
            style = "colour" if sys.stdout.isatty() and "NO_COLOR" not in os.environ else "ascii"
        if style != "ascii":
            text = pretty(text, colour=style in ("colour", "color"))
        typer.echo(text, nl=not text.endswith("\n"))


@app.command()
def solve(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
          variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
          optimal: bool = typer.Option(False, "--optimal", help="shortest solution (A*)"),
          max_states: Optional[int] = StatesOpt,
          seconds: float = _seconds_option(DEFAULT_SECONDS, "stop after this many seconds"),
          memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt, as_json: bool = JsonOpt,
          boards: bool = typer.Option(False, "--boards", help="print the position after each "
                                      "move of the solution"),
          progress: Optional[bool] = ProgressOpt, moves: str = PlayedOpt,
          html_page: Optional[Path] = HtmlOpt,
          certificate: Optional[Path] = typer.Option(
              None, "--certificate", metavar="FILE",
              help="with a lost verdict, write its certificate of loss to FILE, for "
                   "`solitaire check`")) -> None:
    """Decide a deal (or the position some moves reach): won, lost (proven) or unknown.

    A win comes with a solution replayed through the rules; a loss, with --certificate,
    with a certificate the independent checker verifies. Exit status 0 won, 1 lost,
    3 unknown.
    """
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        if certificate is not None and game.certifier is None:
            raise SolitaireError(f"{game.name} writes no certificates of loss yet")
        start, deal_id = _position(game, file, deal)
        state, played = _continued(game, start, moves)
        if html_page is not None:
            replay_page.check_writable(html_page)
        if certificate is not None:
            replay_page.check_writable(certificate, "the certificate")
        chosen = "astar" if optimal and strategy is None else strategy
        budget = _budget(max_states, seconds, memory, cpu=cpu)
        _check_budget(game, chosen, budget)
        with progress_line(seconds, progress) as line:
            result = analyze.solve(game, state, chosen, line.budget(budget))
        verdict = Verdict.of(game, deal_id, result, budget, analyze.default_strategy(game, chosen))
        if played:                            # the search began after these moves
            verdict.extra["played"] = played
        if html_page is not None:
            _write_page(game, start, played, result, verdict, html_page)
        if certificate is not None:
            _write_certificate(game, state, deal if not played else None, result, certificate,
                               _budget(max_states, seconds, memory, cpu=cpu))
        if as_json:
            typer.echo(json.dumps(verdict.to_json()))
        else:
            _print_verdict(verdict)
            if result.status is Status.WON or verdict.score is not None and verdict.moves:
                typer.echo(" ".join(verdict.moves))
                if boards:
                    _print_boards(game, state, result.moves)
    raise typer.Exit(EXIT_STATUS[result.status])


def _write_page(game: Game[Any, Any], start: Any, played: list[str], result: Result[Any],
                verdict: Verdict, path: Path) -> None:
    """Write the replay page of the moves played and the line found (none unless won or
    scored), from the deal."""
    before = list(analyze.verify_moves(game, start, played).steps) if played else []
    line = list(result.moves) if result.status is Status.WON or verdict.score is not None else []
    outcome = {Status.WON: "won", Status.LOST: "lost", Status.UNKNOWN: "unknown"}[result.status]
    score = f", score {verdict.score}" if verdict.score is not None else ""
    title = f"{game.name} {verdict.deal}: {outcome}{score}"
    replay_page.write_page(game, start, before + line, path, title=title)


def _write_certificate(game: Game[Any, Any], state: Any, deal: Optional[int],
                       result: Result[Any], path: Path, budget: Budget) -> None:
    """Write the certificate of a lost verdict (a note on stderr for any other), under a
    budget of its own as large as the search's."""
    from solver import certify

    if result.status is not Status.LOST:
        typer.echo(f"no certificate: the verdict is {result.status.value}", err=True)
        return
    written = certify.certify(game, state, path, deal=deal, budget=budget,
                              solver_version=solver_version())
    if written.status == "won":
        raise RuntimeError("writing the certificate reached a win the search said was "
                           "not there")
    if written.status != "lost":
        typer.echo(f"no certificate: the {written.stopped_by} budget ran out after "
                   f"{written.positions:,} positions", err=True)
        return
    facts = f", {written.closed_by_facts:,} closed by a static proof" \
        if written.closed_by_facts else ""
    best = f", best score {written.best}" if written.best is not None else ""
    typer.echo(f"certificate written to {path}: {written.positions:,} positions{facts}{best}, "
               f"{written.bytes:,} bytes, {written.seconds:.2f} s", err=True)


def _print_verdict(verdict: Verdict) -> None:
    proven = f"proven: {verdict.proof}" if verdict.proof else \
        "proven: every reachable position was searched"
    stopped = verdict.stopped_by
    limit = (verdict.budget or {}).get(stopped.replace("-", "_"))
    amount = f" ({limit:g} s)" if stopped == "seconds" and limit else \
        f" ({limit:,})" if stopped == "max-states" and limit else ""
    why = verdict.extra.get("reason") or f"the {stopped} budget{amount} ran out"
    words = {Status.WON: "won", Status.LOST: f"lost ({proven})",
             Status.UNKNOWN: f"unknown ({why}; not a proof)"}
    shortest = " (optimal)" if verdict.optimal else \
        f" (not proven shortest: {why})" if "reason" in verdict.extra else \
        " (the budget ran out before this was proven shortest)" \
        if verdict.strategy in OPTIMAL_STRATEGIES else ""
    counted = verdict.extra.get("counted_moves")
    length = "" if verdict.status is not Status.WON else \
        f", {verdict.length} moves{shortest}" if counted in (None, verdict.length) else \
        f", {counted} moves{shortest}, written as {verdict.length} steps"
    if verdict.score is not None:                  # a scored game: the score is what is best
        best = {Status.WON: "proven best" if verdict.optimal else "best possible",
                Status.LOST: "best reachable, proven",
                Status.UNKNOWN: "best found"}[verdict.status]
        length = f", score {verdict.score} ({best}, {verdict.length} moves)"
    decided_by = verdict.extra.get("decided_by")
    played = verdict.extra.get("played")
    after = f" after {len(played)} moves played" if played else ""
    typer.echo(f"{verdict.game} {verdict.deal}{after}: {words[verdict.status]}{length}; "
               f"{verdict.states} states, {verdict.seconds:.2f} s ({verdict.strategy}"
               + (f": {decided_by})" if decided_by else ")"))


def _print_boards(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> None:
    typer.echo("")
    typer.echo(_style(game.format(state)).rstrip("\n"))
    for stage in analyze.narrate(game, state, steps):
        first, last = stage.first + 1, stage.first + stage.count
        number = f"{first}-{last}" if last > first else f"{first}"
        typer.echo(f"\n{number}. {stage.notation}{_times(stage.count)}: {stage}")
        typer.echo(_style(game.format(stage.after)).rstrip("\n"))


def _times(count: int) -> str:
    return f" ×{count}" if count > 1 else ""


BlindOpt = typer.Option(False, "--blind", help="use only what a player has seen: face-down "
                        "cards, the stock's order and redeals to come are sampled, not read "
                        "(a file marks cards never seen <4H>, or says Seen: all)")
SamplesOpt = typer.Option(None, "--samples", metavar="N", parser=positive_number,
                          help="blind: solve exactly N sampled worlds (with --seed, the same "
                               "answer on every run) instead of for --seconds")
SeedOpt = typer.Option(None, "--seed", metavar="S", parser=whole_number,
                       help="blind: the sampler's seed (default 0)")
CapOpt = typer.Option(None, "--cap", metavar="N", parser=positive_number,
                      help=f"blind: positions each sampled world's solve may store (default: "
                           f"the game's, {BLIND_CAP:,} for most); undecided worlds are "
                           f"counted apart")
AllocationOpt = typer.Option("auto", "--allocation", metavar="HOW",
                             help="blind: how worlds are spent among the choices: ucb1, "
                                  "halving (sequential halving), or auto (halving when the "
                                  "choices are many for the worlds)")


@app.command()
def hint(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
         variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
         all_moves: bool = typer.Option(False, "--all", help="every legal move with its verdict"),
         max_states: Optional[int] = StatesOpt,
         seconds: Optional[float] = typer.Option(
             None, "--seconds", min=0.001, metavar="SECONDS", callback=_finite_or_none,
             show_default=False, help=f"stop after this many seconds in all; with --all, shared "
             f"equally among the moves (default {DEFAULT_SECONDS:g}; "
             f"--blind: {blind.Settings().seconds:g})"),
         memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt, as_json: bool = JsonOpt,
         progress: Optional[bool] = ProgressOpt, moves: str = PlayedOpt,
         blind_: bool = BlindOpt, samples: Optional[int] = SamplesOpt,
         seed: Optional[int] = SeedOpt, cap: Optional[int] = CapOpt,
         allocation: str = AllocationOpt,
         jobs: Optional[int] = typer.Option(
             None, "--jobs", "-j", min=1, max=256, metavar="N", show_default=False,
             help="--blind within --seconds: processes solving worlds at once (default: the "
                  f"machine's cores, at most {blind.HINT_WORKERS}); --samples always uses one, "
                  "so that its answer is the same on every machine")) -> None:
    """Suggest the next move; with --all, say which moves keep the game winnable.

    With --moves, from the position those moves reach ("I played these: what now?").
    With --blind, from what a player has seen only: each choice with its estimated chance
    of winning. Exit status 0 when a winning move is shown (or the game is won; --blind:
    a move is shown), 1 lost, 3 unknown.
    """
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        text = _read_deal(file) if file is not None else None
        start = analyze.load_position(game, text, deal)
        hides_nothing = blind_ and game.player_view is None
        if hides_nothing and not as_json:
            typer.echo(f"{game.name} hides nothing from its player: the blind hint is the "
                       "full-information one")
        if blind_ and not hides_nothing:
            settings = dataclasses.replace(
                _blind_settings(game, samples, seconds, seed, cap, strategy, allocation),
                workers=blind.default_workers() if jobs is None else jobs)
            if strategy is not None:
                _check_budget(game, strategy, Budget(max_states=settings.cap))
            _blind_hint(game, start, moves, settings, as_json, progress, text)
            return
        seconds = DEFAULT_SECONDS if seconds is None else seconds
        state, _ = _continued(game, start, moves)
        budget = _budget(max_states, seconds, memory, cpu=cpu)
        _check_budget(game, strategy, budget)
        if game.is_won(state):
            typer.echo(json.dumps({"status": "won", "move": "", "steps": [], "won_already": True})
                       if as_json else "the game is won already: no move is needed")
            return
        if all_moves:
            raise typer.Exit(EXIT_STATUS[_hint_all(game, state, strategy, budget, as_json,
                                                   progress)])
        with progress_line(seconds, progress) as line:
            result, first = analyze.hint(game, state, strategy, line.budget(budget))
        steps = [game.notation(m) for m in first]
        stages = analyze.narrate(game, state, first)
        said = ", then ".join(str(stage) for stage in stages)
        if as_json:
            typer.echo(json.dumps({"status": result.status.value, "move": " ".join(steps),
                                   **({"blind": True, "hides": False} if hides_nothing else {}),
                                   "steps": steps, "description": said,
                                   "length": len(result.moves),
                                   **({} if result.score is None else {"score": result.score})}))
        elif first:
            shown = " ".join(stage.notation + _times(stage.count) for stage in stages)
            typer.echo(f"play {shown}: {said} ({_outlook(result)})")
        elif result.status is Status.LOST:
            typer.echo("no move wins: the game is lost from here (proven)")
        else:
            why = result.extra.get("reason") or f"the {result.stopped_by} budget ran out"
            typer.echo(f"no winning move found: {why} (unknown, not a proof)")
    raise typer.Exit(EXIT_STATUS[result.status])


def _blind_settings(game: Game[Any, Any], samples: Optional[int], seconds: Optional[float],
                    seed: Optional[int], cap: Optional[int],
                    strategy: Optional[str], allocation: str) -> blind.Settings:
    """Return the blind settings the options give, each absent one at its default (the
    cap: the game's)."""
    default = blind.Settings()
    return blind.Settings(samples=samples, seconds=default.seconds if seconds is None else seconds,
                          seed=default.seed if seed is None else seed, cap=cap,
                          strategy=strategy, allocation=allocation).for_game(game)


def _blind_hint(game: Game[Any, Any], start: Any, moves: str, settings: blind.Settings,
                as_json: bool, progress: Optional[bool], text: Optional[str] = None) -> None:
    """Print the blind hint (``solver.app.blind``) from what the file's text says was seen
    (its marks, ``Sighted.read``) or the deal's start, and what the moves played have
    shown. After moves, the position is printed first with what was seen written in
    (JSON: always, as ``position``), so that it can be saved and read back."""
    from solver.view import Sighted

    position = Sighted.of(game, start) if text is None else Sighted.read(game, text, start)
    played = _move_list(moves)
    for step in analyze.verify_moves(game, start, played).steps:
        position = position.play(step)
    if game.is_won(position.state):
        typer.echo(json.dumps({"blind": True, "move": None, "won_already": True})
                   if as_json else "the game is won already: no move is needed")
        return
    hidden = position.unseen()
    unseen = len(hidden.cards)
    shown = _show_progress(progress)
    ticker = None
    if shown:
        ticker = lambda n: typer.echo(f"\r{n} worlds solved", nl=False, err=True) \
            if n % 50 == 0 else None
    found = blind.blind_hint(position, settings, ticker)
    safe = [game.notation(step) for step in position.safe()]
    if shown:
        typer.echo("\r" + " " * 30 + "\r", nl=False, err=True)
    by_playout = game.blind_playout is not None
    if as_json:
        typer.echo(json.dumps({**found.to_json(), "unseen": unseen, "safe": safe,
                               "valued_by": "playout" if by_playout else "search",
                               "position": position.text()}))
    else:
        if played:
            typer.echo("the position after the moves (cards never seen marked <..>):")
            typer.echo(_style(position.text()).rstrip("\n"))
        future = "" if hidden.future is None else "; what is still to come is sampled too"
        valued = ", each played on by a rule-following player who sees no more than you" \
            if by_playout else ""
        if found.allocation == "halving":
            valued += f"; the {len(found.estimates)} choices narrowed by halves, the better " \
                "half of those still in play going on each round"
        typer.echo(f"from what a player has seen ({unseen} {game.pieces} unseen{future}), "
                   f"{found.samples} sampled worlds in {found.seconds:.1f} s{valued}:")
        for index, estimate in enumerate(found.estimates):
            typer.echo(_estimate_line(estimate, game.score is not None,
                                      "play" if index == 0 else "    "))
        untried = sum(1 for estimate in found.estimates if not estimate.samples)
        if untried:
            typer.echo(f"{untried} of the {len(found.estimates)} choices got no world before "
                       "the deadline (a longer --seconds tries them)")
        if safe:
            typer.echo(f"safe: {safe[0]} loses no win in any world that agrees with what was "
                       "seen (blind play takes it without weighing)")
        if not found.estimates:
            typer.echo(_no_plan(position))
    if not found.estimates:
        raise typer.Exit(EXIT_STATUS[Status.LOST if not position.masked().steps()
                                     else Status.UNKNOWN])


def _no_plan(position: Any) -> str:
    """Why a blind hint has no plan to offer: no move at all (the game is lost), or only
    moves that can be undone, none found leading to one that cannot."""
    if not position.masked().steps():
        return "no move is open: the game is lost"
    return ("no plan found: every move open can be undone, and none found leads to one "
            "that cannot (nor does any win of the worlds drawn)")


def _estimate_line(estimate: blind.Estimate, scored: bool, lead: str) -> str:
    """One choice of a blind hint as a line: its moves, chance, interval and samples."""
    low, high = estimate.interval()
    undecided = f", {estimate.undecided_share:.0%} undecided" if estimate.undecided else ""
    if scored:
        value = f"expected score {round(estimate.mean_score, 1) + 0.0:.1f}"   # never -0.0
        if estimate.calibrated is not None:
            value += f", won {estimate.calibrated:.0%} calibrated ({estimate.chance:.0%} of the worlds)"
    elif estimate.calibrated is not None:
        value = f"{estimate.calibrated:.0%} calibrated; won in {estimate.chance:.0%} of the " \
            f"worlds (95%: {low:.0%}-{high:.0%})"
    else:
        value = f"{estimate.chance:.0%} (95%: {low:.0%}-{high:.0%})"
    worlds = "world" if estimate.samples == 1 else "worlds"
    return f"{lead} {estimate.notation}: {value}, {estimate.samples} {worlds}{undecided}"


def _show_progress(enabled: Optional[bool]) -> bool:
    return sys.stderr.isatty() if enabled is None else enabled


def _outlook(result: Result[Any]) -> str:
    """Return what a hint's line reaches: a win, or a scored game's best score."""
    if result.score is None:
        return f"the game is won from here in {len(result.moves)} moves"
    if result.optimal or result.status is Status.LOST:
        proven = "proven best"
    elif result.status is Status.WON:
        proven = "the best possible"
    elif "reason" in result.extra:
        proven = f"the best found ({result.extra['reason']})"
    else:
        proven = f"the best found before the {result.stopped_by} budget ran out"
    return f"score {result.score} from here, {proven}, in {len(result.moves)} moves"


def _grouped(notations: Sequence[str]) -> list[str]:
    """Return notations with runs of one step written once with a count (``s ×8``)."""
    out: list[str] = []
    count = 0
    for index, text in enumerate(notations):
        count += 1
        if index + 1 == len(notations) or notations[index + 1] != text:
            out.append(text + _times(count))
            count = 0
    return out


def _hint_all(game: Game[Any, Any], state: Any, strategy: Optional[str], budget: Budget,
              as_json: bool, progress: Optional[bool]) -> Status:
    """Print every legal move's verdict; return the position's: won when a move keeps the
    game winnable, unknown when none does but one is unknown, else lost."""
    from tqdm import tqdm

    count = len(analyze.listed_moves(game, state))
    if not count:                             # no move at all: the position's own verdict
        result = analyze.solve(game, state, strategy, budget)
        reason = result.extra.get("reason", "")
        if as_json:
            typer.echo("[]")
        else:
            typer.echo("no legal move from here: " + ("the game is lost (proven)"
                       if result.status is Status.LOST else f"unknown ({reason or 'not a proof'})"))
        return result.status
    bar = tqdm(total=count, unit="move", file=sys.stderr, leave=False,
               disable=(not sys.stderr.isatty()) if progress is None else not progress)
    try:
        verdicts = analyze.all_moves(game, state, strategy, budget, on_move=lambda _: bar.update())
    finally:
        bar.close()
    if as_json:
        typer.echo(json.dumps([{"move": " ".join(v.steps), "status": v.status.value,
                                "label": v.label, "wins_now": v.wins_now,
                                **({} if v.result.score is None else {"score": v.result.score})}
                               for v in verdicts]))
    else:
        each = budget.split(count).seconds
        if each is not None:
            typer.echo(f"{count} legal moves, each searched for up to {each:.3g} s:")
        for verdict in verdicts:
            score = "" if verdict.result.score is None else f" (score {verdict.result.score})"
            typer.echo(f"{' '.join(_grouped(list(verdict.steps))):<24} {verdict.label}{score}")
    statuses = {verdict.status for verdict in verdicts}
    return next(s for s in (Status.WON, Status.UNKNOWN, Status.LOST) if s in statuses)


XZ_MAGIC = b"\xfd7zXZ\x00"


def _starts_with(path: Path, magic: bytes) -> bool:
    """Whether the file at `path` begins with `magic` (False where it cannot be read:
    reading it later says why)."""
    try:
        with path.open("rb") as data:
            return data.read(len(magic)) == magic
    except OSError:
        return False


def _check_solution(path: Path, game_name: Optional[str], file: Optional[Path],
                    deal: Optional[int], variant: list[str]) -> None:
    """Replay a solution's moves with the checker's rules; exit 0 when they win, else 1."""
    from checker import game_module
    from checker.replay import replay

    text = batch.read_text(path, MAX_DEAL_BYTES, "a solution")
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    moves = record.get("moves") if isinstance(record, dict) else text.replace(",", " ").split()
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise SolitaireError(f"{path}: neither a certificate nor a solution (JSON with "
                             "\"moves\", or moves separated by spaces)")
    if game_name is None or file is None and deal is None:
        raise SolitaireError("checking a solution needs GAME and its deal (--deal N or a "
                             "deal file)")
    game = find_game(game_name, parse_variants(variant))
    module = game_module(game.name)
    if module is None:
        raise SolitaireError(f"the checker has no rules for {game.name} yet")
    options = variant_of(game)
    deal_text = _read_deal(file) if file is not None else None
    try:
        start = module.deal(deal, options) if deal_text is None else \
            module.parse(deal_text, options)
    except ValueError as error:
        raise SolitaireError(f"the checker cannot read the deal: {error}") from None
    score = record.get("score") if isinstance(record, dict) else None
    score = score if isinstance(score, int) and record.get("status") != "won" else None
    fault = replay(module, start, options, moves, score)
    which = f"deal {deal}" if deal is not None else str(file)
    if fault:
        typer.echo(f"invalid: {path} ({game.name} {which}): {one_line(fault)}")
        raise typer.Exit(1)
    ends = f"ends with score {score}" if score is not None else "is won"
    typer.echo(f"valid: {game.name} {which} {ends} by the {len(moves)} moves of {path}")
    raise typer.Exit(0)


@app.command()
def check(certificate: Path = typer.Argument(..., metavar="CERTIFICATE",
                                            help="a certificate written by --certificate, or a "
                                                 "solution (solve --json, or its moves)"),
          game_name: Optional[str] = typer.Argument(None, metavar="[GAME]",
                                                    help="the game the deal is of, to confirm "
                                                         "which deal the certificate is of"),
          file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
          variant: list[str] = VariantOpt) -> None:
    """Check a certificate of loss with the independent checker: valid or its first fault.

    The checker shares no code with the solver or the games' rules (``checker/``). With
    GAME and a deal (--deal N or a deal file), it also confirms that the certificate is
    that deal's. Given a solution instead (the JSON of ``solve --json`` or its moves, with
    GAME and the deal), it replays the moves with the same independent rules. Exit status
    0 valid, 1 a fault, 2 an unreadable file or a mistake.
    """
    from checker import certificate as certificate_file, check as closure, game_module

    with user_errors():
        if not _starts_with(certificate, XZ_MAGIC):
            _check_solution(certificate, game_name, file, deal, variant)
        try:
            read = certificate_file.read(certificate)
        except certificate_file.Unreadable as error:
            raise SolitaireError(str(error)) from None
        module = game_module(read.game)
        expected = None
        if game_name is not None:
            game = find_game(game_name, parse_variants(variant))
            if game.name != read.game:
                raise SolitaireError(f"{certificate} is a certificate of {read.game}, not of "
                                     f"{game.name}")
            if file is None and deal is None:
                raise SolitaireError("give the deal to confirm: --deal NUMBER or a deal file")
            ours = variant_of(game)
            if ours != read.variant:
                differ = sorted(k for k in set(ours) | set(read.variant)
                                if ours.get(k) != read.variant.get(k))
                raise SolitaireError(f"{certificate} is of another variant of {game.name} "
                                     f"({', '.join(f'{k}={read.variant.get(k)!r}' for k in differ)})")
            if module is not None:
                text = _read_deal(file) if file is not None else None
                try:
                    position = module.deal(deal, read.variant) if text is None else \
                        module.parse(text, read.variant)
                except ValueError as error:
                    raise SolitaireError(f"the checker cannot read the deal: {error}") from None
                expected = closure.start_line(module, read, position)
        outcome = closure.check(read, expected, module)
    which = f"deal {outcome.deal}" if outcome.deal is not None else "the position it starts at"
    if outcome.valid:
        best = f", best score {outcome.best}" if outcome.best is not None else ""
        counted = "1 position" if outcome.positions == 1 else f"{outcome.positions:,} positions"
        typer.echo(f"valid: {outcome.game} {which} is lost{best} ({counted} checked in "
                   f"{outcome.seconds:.2f} s)")
        raise typer.Exit(0)
    typer.echo(f"invalid: {certificate} ({outcome.game} {which}): {one_line(outcome.fault)}")
    raise typer.Exit(1)


@app.command()
def verify(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
           variant: list[str] = VariantOpt,
           moves: str = typer.Option(..., "--moves", "-m", metavar="MOVES",
                                     help="moves in notation, separated by spaces or commas; "
                                          "@FILE reads a file"),
           boards: bool = typer.Option(False, "--boards", help="print the position after each "
                                       "move, ending with the position reached")) -> None:
    """Replay a move list; say where it first breaks, or whether it wins.

    Exit status 0 legal and won, 1 legal but not won, 2 an illegal move.
    """
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        state, _ = _position(game, file, deal)
        played = _move_list(moves)
        replay = analyze.verify_moves(game, state, played)
        if boards:
            _print_boards(game, state, replay.steps)
        if replay.won:
            typer.echo(f"all {replay.length} moves are legal and the game is won")
            return
        typer.echo(f"all {replay.length} moves are legal but the game is not won")
    raise typer.Exit(1)


@app.command()
def classify(game_name: str = GameArg,
             source: str = SourceArg,
             out: Path = OutOpt,
             variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
             jobs_: Optional[int] = JobsOpt,
             resume: bool = typer.Option(False, "--resume", help="skip the deals already in --out "
                                         "(the same game, variant, strategy and budget)"),
             max_states: Optional[int] = StatesOpt,
             seconds: float = _seconds_option(DEFAULT_SECONDS, "per deal"),
             memory: Optional[str] = SharedMemoryOpt, cpu: bool = CpuOpt,
             analyze_: bool = typer.Option(False, "--analyze", help="add each deal's "
                                           "difficulty card (`solitaire analyze`) to its "
                                           "record; --seconds is then the card's"),
             quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
             plot: Optional[Path] = typer.Option(
                 None, "--plot", metavar="FILE.png",
                 help="draw the batch (verdicts, win rate, time and positions per deal, "
                      "difficulty when recorded) as a PNG, its numbers beside it as CSV"),
             shard_: Optional[str] = ShardOpt,
             dask: Optional[str] = DaskOpt,
             certificates: Optional[Path] = typer.Option(
                 None, "--certificates", metavar="DIR",
                 help="write each lost deal's certificate of loss into DIR (an existing "
                      "folder; on a cluster, one every worker can write), for `solitaire "
                      "check`")) -> None:
    """Classify many deals; resumable; ends with counts and the win rate's 95% interval.

    Exit status 0 when every deal has a record, 70 when a deal hit an internal error (it
    is recorded unknown and the others go on).
    """
    with user_errors(f"interrupted: results so far are in {out}; rerun with --resume"):
        game = find_game(game_name, parse_variants(variant))
        if plot is not None:
            from solver.app import plots

            plots.check_plot_file(plot)
        tasks, jobs = _spread(source, shard_, dask, jobs_)
        budget = _budget(max_states, seconds, memory, jobs, cpu=cpu)
        worker = None
        if certificates is not None:
            _check_certificates(game, certificates, analyze_)
        if analyze_:
            from solver.app.difficulty import CardWorker, Settings as CardSettings

            _check_budget(game, strategy, budget)
            worker = CardWorker(game, CardSettings(seconds=seconds, cpu=cpu, memory=budget.memory,
                                                   max_states=max_states, strategy=strategy))
        with _cluster(dask, game, tasks, out, resume) as cluster:
            plan = batch.Plan(game, tasks, out, strategy=strategy, budget=budget, jobs=jobs,
                              resume=resume, worker=worker, cluster=cluster,
                              certificates=certificates)
            _run_plan(plan, "deal", quiet)
        _print_summary(plan.summarize())
        if plot is not None:
            _plot_batch(game, out, tasks, source, plot)
    _exit_if_errors(plan)


def _spread(source: str, shard_: str | None, dask: str | None,
            jobs_: int | None) -> tuple[Any, int]:
    """Return the tasks of SOURCE (its --shard part only, if given) and the processes that
    share the machine's memory (--jobs, or N of --dask local:N), after checking --dask."""
    part = batch.parse_shard(shard_) if shard_ is not None else None
    if dask is not None:
        from solver.app.cluster import check_address, import_distributed

        if jobs_ is not None:
            raise SolitaireError("--dask and --jobs do not go together: the cluster's "
                                 "workers are its jobs (local:N starts N)")
        check_address(dask)
        import_distributed()
    tasks = batch.read_source(source)
    if part is not None:
        tasks = batch.shard(tasks, *part)
    if dask is not None and dask.startswith("local:"):
        return tasks, int(dask.split(":")[1])         # the memory budget is shared as --jobs
    return tasks, jobs_ or 1


@contextlib.contextmanager
def _cluster(dask: str | None, game: Game[Any, Any], tasks: Any, out: Path,
             resume: bool) -> Iterator[Any]:
    """Yield the Dask cluster --dask names, connected after the plan's cheap checks and
    closed after the run (None without --dask)."""
    if dask is None:
        yield None
        return
    from solver.app.cluster import Cluster

    _check_plan_inputs(game, tasks, out, resume)
    cluster = Cluster(dask)
    try:
        yield cluster
    finally:
        cluster.close()


def _check_certificates(game: Game[Any, Any], folder: Path, analyze_: bool) -> None:
    """Refuse --certificates where no certificate could be written, before any search."""
    if analyze_:
        raise SolitaireError("--certificates does not go with --analyze: classify the deals "
                             "for their certificates, then analyze them")
    if game.certifier is None:
        raise SolitaireError(f"{game.name} writes no certificates of loss yet")
    if not folder.is_dir():
        raise SolitaireError(f"--certificates {quote(str(folder), 80)}: no such folder")
    if not os.access(folder, os.W_OK):
        raise SolitaireError(f"--certificates {quote(str(folder), 80)}: permission denied")


@app.command()
def merge(files: list[Path] = typer.Argument(..., metavar="RESULTS...",
                                             help="results files (classify's --out) to join"),
          out: Path = typer.Option(..., "--out", "-o", metavar="RESULTS",
                                   help="the merged results (a new file)")) -> None:
    """Join results files (the shards of a run, runs on several machines) into one.

    Each deal once, keyed by game, variant, strategy, budget, deal and solver version:
    a record given twice the same way is kept once, an unknown one gives way to a
    decided one, and won against lost is an error naming both lines. Files of other
    games or settings are refused. Ends with the summary of the merged set.
    """
    from solver.app import merge as merging

    with user_errors("interrupted: nothing was written"):
        merged = merging.merge(files, out)
        for where in merged.torn:
            typer.echo(f"note: the last line of {where.rsplit(':', 1)[0]} (line "
                       f"{where.rsplit(':', 1)[1]}) was cut short by a killed run: left out; "
                       "rerun that part with --resume to do its deal", err=True)
        summary = merged.summary()
        for dispute in merged.disputed[:5]:
            typer.echo(f"note: solver versions disagree on {dispute}: counted unknown", err=True)
        typer.echo(f"merged {merged.read} records from {len(files)} files into {out}: "
                   f"{len(merged.kept)} kept, {merged.duplicates} given twice the same way "
                   f"kept once, {merged.settled} unknown set aside for a decided verdict "
                   "of the same deal")
        settings = merged.settings
        if settings is not None:
            variant = " ".join(f"{k}={v}" for k, v in sorted(settings.variant.items()))
            budget = ", ".join(f"{k.replace('_', '-')} {'none' if v is None else v}"
                               for k, v in settings.budget.items())
            typer.echo(f"settings: {settings.game}{' ' + variant if variant else ''}, "
                       f"strategy {settings.strategy}, budget {budget or 'unrecorded'}")
            typer.echo("solver versions: " + ", ".join(
                f"{version or 'unrecorded'} ({count})"
                for version, count in merged.versions.most_common()))
        _print_summary(summary)


def _check_plan_inputs(game: Game[Any, Any], tasks: Any, out: Path, resume: bool) -> None:
    """The checks of a plan that cost nothing, made before a cluster is connected to, so
    that a mistake is told before the wait (the plan makes them again)."""
    batch.check_tasks(game, tasks)
    if out.is_dir():
        raise SolitaireError(f"--out {quote(str(out), 80)} is a directory; name a file")
    if out.exists() and out.is_file() and out.stat().st_size and not resume:
        raise SolitaireError(f"{out} already holds results: pass --resume to continue it, "
                             "or choose another --out")


@app.command()
def play(game_name: str = GameArg,
         source: str = SourceArg,
         out: Path = OutOpt,
         blind_: bool = BlindOpt, variant: list[str] = VariantOpt,
         strategy: Optional[str] = StrategyOpt,
         jobs_: Optional[int] = JobsOpt,
         resume: bool = typer.Option(False, "--resume", help="skip the deals already in --out "
                                     "(the same game, variant and blind settings)"),
         samples: Optional[int] = SamplesOpt,
         seconds: Optional[float] = typer.Option(
             None, "--seconds", min=0.001, metavar="SECONDS", callback=_finite_or_none,
             show_default=False,
             help=f"each decision's time (default {blind.Settings().seconds:g})"),
         seed: Optional[int] = SeedOpt, cap: Optional[int] = CapOpt,
         allocation: str = AllocationOpt,
         as_json: bool = JsonOpt,
         quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
         shard_: Optional[str] = ShardOpt,
         dask: Optional[str] = DaskOpt) -> None:
    """Play whole deals blind: at each decision the --blind hint's choice, on the true deal.

    Each record holds how the game ended, its moves, and each decision's plan and
    predicted chance, beside the deal's full-information verdict. The summary gives the
    blind win rate beside the full-information one and the calibration of the
    predictions. Resumable and Ctrl-C safe, like classify.
    """
    with user_errors(f"interrupted: results so far are in {out}; rerun with --resume"):
        if not blind_:
            raise SolitaireError("play needs --blind (full-information play is `solitaire "
                                 "classify`)")
        game = find_game(game_name, parse_variants(variant))
        settings = _blind_settings(game, samples, seconds, seed, cap, strategy, allocation)
        if strategy is not None:
            _check_budget(game, strategy, Budget(max_states=settings.cap))
        tasks, jobs = _spread(source, shard_, dask, jobs_)
        with _cluster(dask, game, tasks, out, resume) as cluster:
            plan = batch.Plan(game, tasks, out, jobs=jobs, resume=resume,
                              worker=blind.BlindWorker(game, settings), cluster=cluster)
            _run_plan(plan, "game", quiet)
        summary = blind.summarize_blind(out, tasks, game)
        if as_json:
            typer.echo(json.dumps(summary.to_json()))
        else:
            _print_blind_summary(game, summary)
    _exit_if_errors(plan)


def _plot_batch(game: Game[Any, Any], out: Path, tasks: Any, source: str, plot: Path) -> None:
    """Draw the records of `tasks` in the results file `out` (``classify --plot``)."""
    from solver.app import plots
    from solver.app.results import read_records

    records = plots.records_of(verdict for verdict in read_records(out, game)
                               if verdict.deal in tasks)
    plots.save(plots.classify_figure(records, f"{game.name}, deals {quote(source, 40)[1:-1]}: "
                                              f"{len(records):,} records"), plot)
    typer.echo(f"plot written to {plot} (its numbers: {plots.csv_path(plot)})")


def _print_blind_summary(game: Game[Any, Any], summary: blind.BlindSummary) -> None:
    figures = summary.to_json()
    low, high = figures["interval"]
    full = figures["full_information"]
    full_low, full_high = full["interval"]
    if game.player_view is None:
        typer.echo(f"{game.name} hides nothing from its player: blind play is full-information play")
    typer.echo(f"blind: {summary.won} of {summary.games} won, {figures['win_rate']:.1%} "
               f"(95%: {low:.1%}-{high:.1%})")
    typer.echo(f"full information, the same deals: {full['won']} of {full['decided']} decided "
               f"won, {full['win_rate']:.1%} (95%: {full_low:.1%}-{full_high:.1%})")
    if "mean_score" in figures:
        typer.echo(f"mean score: blind {figures['mean_score']}, full information "
                   f"{figures.get('full_information_mean_score', 'unknown')}")
    if figures["lost"]:
        typer.echo(f"lost: {summary.games - summary.won} ({figures['lost_full_information_won']} "
                   "of them won with full information), ended by: " +
                   "; ".join(f"{count} {reason}" for reason, count in figures["lost"].items()))
    if "cpu_seconds" in figures:
        typer.echo(f"processor time a game: mean {figures['cpu_seconds']['mean']:.1f} s, "
                   f"median {figures['cpu_seconds']['median']:.1f} s")
    if "max_resident_mb" in figures:
        typer.echo(f"memory: at most {figures['max_resident_mb']:.0f} MB resident in a process "
                   "playing them")
    which = "chance" if not summary.calibrated else "chance (calibrated where the game offers " \
        f"it: {summary.calibrated} decisions)"
    typer.echo(f"{summary.decisions} decisions, Brier score {figures['brier']:.3f}; predicted "
               f"{which} against the share of those decisions' games won:")
    for row in figures["reliability"]:
        typer.echo(f"  {row['bin']}: {row['decisions']:6d} decisions, predicted "
                   f"{row['predicted']:.2f}, won {row['won']:.2f}")


def _exit_if_errors(plan: batch.Plan) -> None:
    """End with status 70 when a bug hit some deals of the run: say so in the status too."""
    if plan.errors:
        typer.echo(f"internal error in {plan.errors} deals of this run (recorded unknown, "
                   "stopped_by \"error\"): this is a bug; please report it", err=True)
        raise typer.Exit(EXIT_BUG)


def _run_plan(plan: batch.Plan, unit: str, quiet: bool) -> None:
    """Run a batch plan under a progress bar (on stderr; none with `quiet`)."""
    from tqdm import tqdm

    progress = tqdm(total=plan.total, unit=unit, disable=quiet, file=sys.stderr)
    try:
        for item in plan.run():
            progress.update()
            progress.set_postfix_str(f"{item.deal}: {item.status.value}", refresh=False)
    finally:
        progress.close()
        if plan.torn is not None:
            typer.echo(f"note: the last line of {plan.out} was cut short by a killed run; it is "
                       f"kept in {plan.torn} and its deal was done again", err=True)


def _print_summary(summary: batch.Summary) -> None:
    counts = summary.counts
    missing = "" if not summary.missing else \
        (f", {summary.missing} without a record (first: "
         f"{', '.join(map(str, summary.missing_ids))})")
    typer.echo(f"{summary.total} deals: {counts['won']} won, {counts['lost']} lost, "
               f"{counts['unknown']} unknown{missing}")
    if summary.errors or summary.crashes:
        typer.echo(f"of the unknown, {summary.errors} hit an internal error and "
                   f"{summary.crashes} killed their worker twice (see their \"error\" field)")
    rate, low, high = summary.win_rate()
    decided = counts["won"] + counts["lost"]
    if decided:
        typer.echo(f"win rate {100 * rate:.3f}% of {decided} decided "
                   f"(95% Wilson interval {100 * low:.3f}%..{100 * high:.3f}%)")
    scores = summary.score_summary()
    if scores is not None:
        low_q, q1, median, q3, high_q = scores.quantiles
        found = "" if summary.proven == scores.count else \
            f" ({scores.count - summary.proven} of them the best found, not proven)"
        typer.echo(f"score over {scores.count} deals{found}: mean {scores.mean:.3f}, min {low_q}, "
                   f"quartiles {q1} {median} {q3}, max {high_q}; won "
                   f"{100 * counts['won'] / summary.total:.3f}%")
        typer.echo("scores: " + ", ".join(f"{score}: {summary.scores[score]}"
                                          for score in sorted(summary.scores, reverse=True)))


@app.command()
def bench(game_name: str = GameArg,
          source: str = typer.Argument("1-20", metavar="[SOURCE]",
                                       help="deal range or file (default 1-20)"),
          strategy: list[str] = typer.Option([], "--strategy", "-s", metavar="STRATEGY",
                                             help="repeatable (default: the game's own)"),
          variant: list[str] = VariantOpt,
          seconds: float = _seconds_option(DEFAULT_SECONDS, "per deal and strategy"),
          max_states: Optional[int] = StatesOpt, memory: Optional[str] = MemoryOpt,
          cpu: bool = CpuOpt,
          quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
          plot: Optional[Path] = typer.Option(
              None, "--plot", metavar="FILE.png",
              help="draw a cactus plot (deals decided against CPU time, one curve per "
                   "strategy) as a PNG, its numbers beside it as CSV")) -> None:
    """Run strategies side by side over deals and print a table."""
    from tqdm import tqdm

    from solver.app.bench import run_deals, summarize, table

    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        if plot is not None:
            from solver.app import plots

            plots.check_plot_file(plot)
        tasks = batch.read_source(source)
        batch.check_tasks(game, tasks)
        chosen = strategy or [analyze.default_strategy(game)]
        budget = _budget(max_states, seconds, memory, cpu=cpu)
        for name in chosen:                   # every name checked before any search
            _check_budget(game, name, budget)
        with tqdm(total=len(tasks) * len(chosen), unit="deal", disable=quiet,
                  file=sys.stderr, leave=False) as bar:
            results = {name: run_deals(game, tasks, name, budget, on_deal=lambda: bar.update())
                       for name in dict.fromkeys(chosen)}
        typer.echo(table([summarize(name, found) for name, found in results.items()]))
        if plot is not None:
            plots.save(plots.bench_figure(results, f"{game.name}, deals {quote(source, 40)[1:-1]}"
                                                   f": {len(tasks):,} deals, up to {seconds:g} s "
                                                   "each"), plot)
            typer.echo(f"plot written to {plot} (its numbers: {plots.csv_path(plot)})")


# -- analyze: the state graph and its plot ----------------------------------------------------

GraphOpt = typer.Option(None, "--graph", metavar="FILE",
                        help="write every reachable position, marked won, winnable or lost, as "
                             "a graph: GraphML (.graphml) or GEXF (.gexf)")
GraphPlotOpt = typer.Option(None, "--plot", metavar="FILE.png",
                            help="draw the positions by depth and the winnability strip of a "
                                 "shortest win as a PNG, its numbers beside it as CSV")
GraphStatesOpt = typer.Option(None, "--max-states", metavar="N", parser=positive_number,
                              help="the card: the most positions any one search may store; "
                                   "--graph/--plot: the most positions a graph or plot may hold "
                                   "(default 200,000), a deal that reaches more is refused")


@app.command(name="analyze")
def analyze_deal(game_name: str = GameArg, file: Optional[Path] = FileArg,
                 deal: Optional[int] = DealOpt, variant: list[str] = VariantOpt,
                 graph: Optional[Path] = GraphOpt, plot: Optional[Path] = GraphPlotOpt,
                 strategy: Optional[str] = StrategyOpt,
                 max_states: Optional[int] = GraphStatesOpt,
                 seconds: float = _seconds_option(DEFAULT_SECONDS, "the card's time, shared "
                                                  "by its measurements; --plot of a space too "
                                                  "large for the graph: the strip's search time"),
                 memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt, as_json: bool = JsonOpt,
                 seed: Optional[int] = typer.Option(None, "--seed", metavar="S",
                                                    parser=whole_number, help="the card's random "
                                                    "games' and blind samples' seed (default 0)"),
                 progress: Optional[bool] = ProgressOpt,
                 html_page: Optional[Path] = HtmlOpt) -> None:
    """Analyze a deal: its difficulty card; with --graph, its state graph; with --plot, a
    picture of it; with --html, the card's solution as a replay page, its critical steps
    marked.

    The card (README, "Difficulty"): the verdict, the least resources that still win,
    the shortest solution, how narrow the way is (winning first moves, critical steps),
    search effort, random-play and blind win rates, and a difficulty score 0-100 with its
    tier; a deal the budget cannot decide gets an honest card (unknown, and what it could
    not fill).

    The graph holds every position the deal reaches (so it is for small spaces: Black
    Hole and Chris-Cross Pairs twins and small deals, The Clock, small twins), each marked
    won, winnable or lost, and the command reports positions, edges, the share still
    winnable, dead ends, strongly connected components and critical positions. A plot of
    a space too large for the graph draws the depths found whole and the strip of a
    solution found by search, each move there searched for a share of --seconds.
    Exit status 0 when the deal is winnable, 1 lost, 3 when --graph is asked of a space
    past the budget (nothing is written then), the plot's search or the card's verdict
    could not decide.
    """
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        if graph is None and plot is None:
            status = _difficulty_card(game, file, deal, strategy, max_states, seconds, memory,
                                      cpu, as_json, seed, progress, html_page)
            raise typer.Exit(EXIT_STATUS[status])
        if html_page is not None:
            raise SolitaireError("--html writes the card's solution: leave out --graph and --plot")
        status = _graph_and_plot(game, file, deal, graph, plot, max_states, as_json,
                                 Budget(seconds=seconds, cpu=cpu), progress)
    raise typer.Exit(EXIT_STATUS[status])


def _difficulty_card(game: Game[Any, Any], file: Optional[Path], deal: Optional[int],
                     strategy: Optional[str], max_states: Optional[int], seconds: float,
                     memory: Optional[str], cpu: bool, as_json: bool, seed: Optional[int],
                     progress: Optional[bool], html_page: Optional[Path] = None) -> Status:
    """``analyze`` without --graph or --plot: print the deal's difficulty card
    (``solver.app.difficulty``), and write its replay page if asked; return its verdict."""
    from solver.app import difficulty

    if html_page is not None:
        replay_page.check_writable(html_page)
    text = _read_deal(file) if file is not None else None
    state = analyze.load_position(game, text, deal)
    deal_id = deal if deal is not None else str(file)
    budget = _budget(max_states, seconds, memory, cpu=cpu)
    _check_budget(game, strategy, budget)
    settings = difficulty.Settings(seconds=seconds, cpu=cpu, memory=budget.memory,
                                   max_states=max_states, strategy=strategy, seed=seed or 0)
    shown = _show_progress(progress)
    began = time.monotonic()

    def on_stage(name: str, index: int) -> None:
        if shown:
            typer.echo(f"\ranalyzing: {name.replace('_', ' ')} ({index + 1} of "
                       f"{len(difficulty.STAGES)}), {time.monotonic() - began:.0f} of "
                       f"{seconds:g} s\033[K", nl=False, err=True)

    try:
        made = difficulty.card(game, state, deal_id, settings, on_stage, text)
    finally:
        if shown:
            typer.echo("\r\033[K", nl=False, err=True)
    if as_json:
        typer.echo(json.dumps(made.to_json()))
    else:
        for line in difficulty.card_lines(made):
            typer.echo(line)
    if html_page is not None:
        steps = analyze.verify_moves(game, state, made.solution).steps
        replay_page.write_page(game, state, steps, html_page, critical=made.critical or (),
                               title=f"{game.name} {deal_id}: {made.verdict.status.value}")
    return made.verdict.status


def _graph_and_plot(game: Game[Any, Any], file: Optional[Path], deal: Optional[int],
                    graph: Optional[Path], plot: Optional[Path], max_states: Optional[int],
                    as_json: bool, budget: Budget = Budget(),
                    progress: Optional[bool] = None) -> Status:
    """``analyze --graph/--plot``: explore the deal's space, write what is asked, print
    the figures; return the deal's verdict (UNKNOWN when the space passes the budget)."""
    from solver.app import graph as state_graph
    from solver.app import plots

    if graph is not None:
        state_graph.check_graph_file(graph)
    if plot is not None:
        plots.check_plot_file(plot)
    state, deal_id = _position(game, file, deal)
    limit = max_states or state_graph.DEFAULT_MAX_POSITIONS
    shown = _show_progress(progress)
    ticker = None
    if shown:
        ticker = lambda found: typer.echo(f"\rgraph: {found:,} positions of at most {limit:,}",
                                          nl=False, err=True)
    try:
        try:
            explored = state_graph.explore(game, state, limit, ticker)
        finally:
            if shown:
                typer.echo("\r\033[K", nl=False, err=True)
    except state_graph.GraphTooLarge as error:
        if graph is not None or plot is None:
            typer.echo(f"error: {game.name} {deal_id}: {one_line(str(error))}", err=True)
            return Status.UNKNOWN
        return _plot_by_search(game, state, deal_id, plot, error, budget, as_json, progress)
    if graph is not None:
        state_graph.write(explored, graph)
    if plot is not None:
        plots.save(plots.analyze_figure(explored.depth_counts(), explored.strip(),
                                        f"{game.name} {deal_id}: "
                                        f"{explored.summary.positions:,} positions"), plot)
    figures = explored.summary
    if as_json:
        status = "lost" if figures.start == state_graph.LOST else "won"
        typer.echo(json.dumps({"game": game.name, "deal": deal_id, "status": status,
                               "critical": explored.strip().critical,
                               "space": figures.to_json(),
                               **({"graph": str(graph)} if graph is not None else {}),
                               **({"plot": str(plot)} if plot is not None else {})}))
    else:
        typer.echo(f"{game.name} {deal_id}: {figures.positions:,} positions, {figures.edges:,} "
                   f"edges, the deal is {figures.start}; still winnable from "
                   f"{figures.winnable_share:.1%} of the positions")
        typer.echo(f"  {figures.won:,} won, {figures.winnable:,} winnable, {figures.lost:,} "
                   f"lost; {figures.dead_ends:,} dead ends; deepest position {figures.depth} moves")
        largest = figures.largest_component
        typer.echo(f"  {figures.components:,} strongly connected components (the largest: "
                   f"{largest:,} position{'' if largest == 1 else 's'})")
        typer.echo(f"  {figures.critical:,} critical positions (of two moves or more, exactly "
                   "one keeps the game winnable)")
        if graph is not None:
            typer.echo(f"graph written to {graph}")
        if plot is not None:
            typer.echo(f"plot written to {plot} (its numbers: {plots.csv_path(plot)})")
    return Status.LOST if figures.start == state_graph.LOST else Status.WON


def _plot_by_search(game: Game[Any, Any], state: Any, deal_id: Any, plot: Path,
                    too_large: Any, budget: Budget, as_json: bool,
                    progress: Optional[bool]) -> Status:
    """``analyze --plot`` of a space too large for the graph: the depths found whole and
    the strip of a solution by search; return the deal's verdict as far as it is known."""
    from solver.app import plots
    from solver.app.strip import by_search

    shown = _show_progress(progress)
    ticker = None
    if shown:
        ticker = lambda done, total: typer.echo(f"\rstrip: {done} of {total} positions "
                                                "searched", nl=False, err=True)
    strip = by_search(game, state, budget, ticker)
    if shown:
        typer.echo("\r\033[K", nl=False, err=True)
    levels = too_large.levels
    depths = {depth: {"positions": count} for depth, count in levels.items()}
    plots.save(plots.analyze_figure(
        depths, strip, f"{game.name} {deal_id}: more than {too_large.budget:,} positions",
        depth_title=f"Positions by depth, the {len(levels)} depths found whole "
                    "(too many positions to mark)"), plot)
    if as_json:
        typer.echo(json.dumps({"game": game.name, "deal": deal_id, "status": strip.status.value,
                               "critical": strip.critical, "space": None,
                               "depths_whole": len(levels), "plot": str(plot)}))
    else:
        typer.echo(f"{game.name} {deal_id}: more than {too_large.budget:,} positions, too many "
                   f"to mark; the deal is {strip.status.value}")
        if strip.steps:
            unknown = sum(c.status == "unknown" for step in strip.steps for c in step.choices)
            typer.echo(f"  a solution through {len(strip.steps)} positions, "
                       f"{len(strip.critical)} of them critical (steps "
                       f"{', '.join(map(str, strip.critical)) or 'none'}); {unknown} moves "
                       "along it not decided in time")
        typer.echo(f"plot written to {plot} (its numbers: {plots.csv_path(plot)})")
    return strip.status


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Entry point of ``solitaire`` and ``python -m solver``; ends the process with a status.

    Usage mistakes the option parser finds (an unknown option, a value out of range) are
    printed as one line, like every other mistake, with exit status 2. Anything unexpected
    is a bug: one line and status 70 (``--debug`` anywhere in `argv`: the traceback).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in args
    args = [arg for arg in args if arg != DEBUG_FLAG]
    try:
        code = _run(args)
        _flush_stdout()
    except BrokenPipeError:
        _silence_stdout()
        code = EXIT_BROKEN_PIPE
    except OSError as error:                  # stdout on a full disk, say
        if error.errno == errno.ENAMETOOLONG and not debug:    # a user's name, not a bug
            name = quote(os.fsdecode(error.filename or ""), 60)
            typer.echo(f"error: {name}: {error.strerror or 'file name too long'}", err=True)
            code = EXIT_ERROR
        elif debug or not _is_output_error(error):
            if debug:
                raise
            code = _report_bug(error)
        else:
            _silence_stdout()
            typer.echo(f"error: cannot write the output: {error.strerror or error}", err=True)
            code = EXIT_OUTPUT
    except Exception as error:
        if debug:
            raise
        code = _report_bug(error)
    sys.exit(code)


def _run(args: list[str]) -> int:
    """Run the command line `args`; return its exit status (mistakes are one line, 2)."""
    click_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    if sys.stdout is None:                    # started with standard output closed
        typer.echo("error: standard output is closed; nothing could be printed", err=True)
        return EXIT_OUTPUT
    previous = signal.signal(signal.SIGTERM, _terminated) \
        if threading.current_thread() is threading.main_thread() else None
    try:
        code = app(args=args, prog_name="solitaire", standalone_mode=False)
    except click_error as error:                     # type: ignore[misc]
        if type(error).__name__ == "NoArgsIsHelpError":      # bare `solitaire`: the help
            typer.echo(error.format_message())
            return 0
        typer.echo(f"error: {one_line(_usage_message(error))}", err=True)
        return EXIT_ERROR
    except typer.Abort as stop:                      # Ctrl-C outside a command's body
        if isinstance(stop.__cause__, batch.Terminated):
            typer.echo("terminated", err=True)
            return EXIT_TERMINATED
        typer.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except SystemExit as stop:
        # The option parser ends a command whose reader went away (EPIPE) with status 1,
        # which would read as "lost"; it leaves standard output wrapped when it does.
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":
            return EXIT_BROKEN_PIPE
        raise stop
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return code if isinstance(code, int) else 0


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM unwinds the command as Ctrl-C does (files closed, nothing half-written)."""
    raise batch.Terminated()


def _usage_message(error: Any) -> str:
    """Return the option parser's message, made plain where a user's meaning is clear."""
    message: str = error.format_message()
    negative = re.fullmatch(r"No such option: (-[0-9]+)", message)
    if negative:                              # `deal freecell -5`
        return f"deal numbers start at 1; {negative.group(1)} is not one"
    return message


def _report_bug(error: BaseException) -> int:
    """Print an internal error as one line asking for a report; return status 70."""
    typer.echo(f"internal error: {one_line(f'{type(error).__name__}: {error}')} -- this is a "
               f"bug; please report it with the command line (add {DEBUG_FLAG} for the "
               "traceback)", err=True)
    return EXIT_BUG


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _is_output_error(error: OSError) -> bool:
    """Whether `error` is a failed write: a full disk, a quota, an I/O error."""
    return error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EPIPE,
                           errno.EBADF)
