"""The ``solitaire`` command: thin typer commands over the silent library functions.

Every user mistake (a bad deal, move, name, range or results file) is a SolitaireError,
printed as one line on stderr with exit status 2; anything else is a bug and keeps its
traceback.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from games import GAMES, find_game, parse_variants
from solver import analyze, batch
from solver.cards import pretty
from solver.game import SolitaireError, Status
from solver.search import STRATEGIES, Budget

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Solve, hint, verify and classify solitaire deals.")

GameArg = typer.Argument(..., help="game name or alias; `solitaire games` lists them")
FileArg = typer.Argument(None, help="a deal's text (a file, or - for stdin)")
DealOpt = typer.Option(None, "--deal", "-d", help="a numbered deal instead of a file")
VariantOpt = typer.Option([], "--variant", "-V", help="variant option key=value (repeatable)")
StrategyOpt = typer.Option(None, "--strategy", "-s",
                           help=f"one of: {', '.join(STRATEGIES)} (default: the game's own)")
StatesOpt = typer.Option(None, "--max-states", min=1, help="stop after storing this many states")
SecondsOpt = typer.Option(None, "--seconds", min=0.0, help="stop after this many seconds")
MemoryOpt = typer.Option(None, "--memory", help="memory budget, e.g. 2G or 500M (default: 40% of RAM)")
JsonOpt = typer.Option(False, "--json", help="one JSON object instead of human output")
CpuOpt = typer.Option(False, "--cpu", help="count --seconds in processor time (reproducible "
                      "on a busy machine)")


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a SolitaireError into `error: ...` on stderr and exit status 2."""
    try:
        yield
    except SolitaireError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None


def _budget(max_states: Optional[int], seconds: Optional[float], memory: Optional[str],
            jobs: int = 1, cpu: bool = False) -> Budget:
    from solver.table import default_memory

    size = _parse_size(memory) if memory else default_memory(jobs)
    return Budget(max_states=max_states, seconds=seconds, memory=size, cpu=cpu)


def _parse_size(text: str) -> int:
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    number, unit = (cleaned[:-1], cleaned[-1]) if cleaned[-1:] in units else (cleaned, "")
    try:
        return int(float(number) * units[unit])
    except (ValueError, KeyError):
        raise SolitaireError(f"memory size {text!r} is not like 2G or 500M") from None


def _position(game: Any, file: Optional[Path], deal: Optional[int]) -> tuple[Any, Any]:
    text = None
    if file is not None:
        try:
            text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise SolitaireError(f"cannot read {str(file)!r}: {getattr(error, 'strerror', error)}") from None
    state = analyze.load_position(game, text, deal)
    return state, deal if deal is not None else str(file)


@app.command()
def games() -> None:
    """List the games, their aliases, variant options and presets."""
    for game in GAMES.values():
        typer.echo(f"{game.name}: {game.summary}")
        if game.aliases:
            typer.echo(f"  aliases: {', '.join(game.aliases)}")
        for option, meaning in game.variants.items():
            typer.echo(f"  --variant {option}={getattr(game, option)}  ({meaning})")
        for preset, values in game.presets.items():
            settings = " ".join(f"{k}={v}" for k, v in values.items())
            typer.echo(f"  preset {preset}: {settings}")


@app.command()
def deal(game_name: str = GameArg, number: int = typer.Argument(..., help="deal number"),
         variant: list[str] = VariantOpt,
         style: str = typer.Option("auto", "--style", help="cards as 'ascii' (TD, what other "
                                   "solvers read), 'unicode' (10♦) or 'colour' (red suits in red); "
                                   "auto: colour on a terminal, else ascii")) -> None:
    """Print a numbered deal in the game's text format (every style reads back as a deal)."""
    with user_errors():
        if style not in ("auto", "ascii", "unicode", "colour", "color"):
            raise SolitaireError(f"unknown style {style!r}: choose auto, ascii, unicode or colour")
        game = find_game(game_name, parse_variants(variant))
        state, _ = _position(game, None, number)
        text = game.format(state)
        if style == "auto":
            style = "colour" if sys.stdout.isatty() and "NO_COLOR" not in os.environ else "ascii"
        if style != "ascii":
            text = pretty(text, colour=style in ("colour", "color"))
        typer.echo(text, nl=False)


@app.command()
def solve(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
          variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
          optimal: bool = typer.Option(False, "--optimal", help="shortest solution (A*)"),
          max_states: Optional[int] = StatesOpt, seconds: Optional[float] = SecondsOpt,
          memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt, as_json: bool = JsonOpt) -> None:
    """Decide a deal: won (with a verified solution), lost (proven) or unknown."""
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        state, deal_id = _position(game, file, deal)
        chosen = "astar" if optimal and strategy is None else strategy
        result = analyze.solve(game, state, chosen, _budget(max_states, seconds, memory, cpu=cpu))
        item = analyze.record(game, deal_id, result)
        if as_json:
            typer.echo(json.dumps(item))
            return
        _print_verdict(item)
        if result.status is Status.WON:
            typer.echo(" ".join(item["moves"]))


def _print_verdict(item: dict[str, Any]) -> None:
    proven = f"proven: {item['proof']}" if item.get("proof") else \
        "proven: every reachable position was searched"
    words = {"won": "won", "lost": f"lost ({proven})",
             "unknown": f"unknown (the {item.get('stopped_by', '')} budget ran out; not a proof)"}
    length = f", {item['length']} moves{' (optimal)' if item['optimal'] else ''}" \
        if item["status"] == "won" else ""
    typer.echo(f"{item['game']} {item['deal']}: {words[item['status']]}{length}; "
               f"{item['states']} states, {item['seconds']:.2f} s ({item['strategy']}"
               + (f": {item['decided_by']})" if item.get("decided_by") else ")"))


@app.command()
def hint(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
         variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
         all_moves: bool = typer.Option(False, "--all", help="every legal move with its verdict"),
         max_states: Optional[int] = StatesOpt, seconds: Optional[float] = SecondsOpt,
         memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt, as_json: bool = JsonOpt) -> None:
    """Suggest the next move; with --all, say which moves keep the game winnable."""
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        state, _ = _position(game, file, deal)
        budget = _budget(max_states, seconds, memory, cpu=cpu)
        if all_moves:
            verdicts = analyze.all_moves(game, state, strategy, budget)
            rows = [{"move": " ".join(v.steps), "status": v.status.value} for v in verdicts]
            for row in rows if not as_json else []:
                typer.echo(f"{row['move']:<24} {row['status']}")
            if as_json:
                typer.echo(json.dumps(rows))
            return
        result, first = analyze.hint(game, state, strategy, budget)
        if as_json:
            typer.echo(json.dumps({"status": result.status.value, "move": " ".join(first)}))
        elif first:
            typer.echo(f"play {' '.join(first)} (the game is won from here in {len(result.moves)} moves)")
        else:
            typer.echo(f"no winning move: {result.status.value}"
                       + (" (proven)" if result.status is Status.LOST else " (budget ran out)"))


@app.command()
def verify(game_name: str = GameArg, file: Optional[Path] = FileArg, deal: Optional[int] = DealOpt,
           variant: list[str] = VariantOpt,
           moves: str = typer.Option(..., "--moves", "-m",
                                     help="moves in notation, separated by spaces or commas; @FILE reads a file")) -> None:
    """Replay a move list; say where it first breaks, or whether it wins."""
    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        state, _ = _position(game, file, deal)
        if moves.startswith("@"):
            try:
                moves = Path(moves[1:]).read_text(encoding="utf-8")
            except OSError as error:
                raise SolitaireError(f"cannot read {moves[1:]!r}: {error.strerror}") from None
        replay = analyze.verify_moves(game, state, moves.replace(",", " ").split())
        if replay.won:
            typer.echo(f"all {replay.length} moves are legal and the game is won")
            return
        typer.echo(f"all {replay.length} moves are legal but the game is not won")
        raise typer.Exit(1)


@app.command()
def classify(game_name: str = GameArg,
             source: str = typer.Argument(..., help="deal range (1-1000), a file of deals, or JSON lines"),
             out: Path = typer.Option(..., "--out", "-o", help="results, one JSON line per deal"),
             variant: list[str] = VariantOpt, strategy: Optional[str] = StrategyOpt,
             jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="worker processes"),
             resume: bool = typer.Option(False, "--resume", help="skip the deals already in --out"),
             max_states: Optional[int] = StatesOpt,
             seconds: Optional[float] = typer.Option(60.0, "--seconds", min=0.0, help="per deal"),
             memory: Optional[str] = MemoryOpt, cpu: bool = CpuOpt,
             quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar")) -> None:
    """Classify many deals; resumable; ends with counts and the win rate's 95% interval."""
    from tqdm import tqdm

    with user_errors():
        options = parse_variants(variant)
        find_game(game_name, options)
        tasks = batch.read_source(source)
        total = batch.remaining(tasks, out, resume)
        budget = _budget(max_states, seconds, memory, jobs, cpu=cpu)
        progress = tqdm(total=total, unit="deal", disable=quiet, file=sys.stderr)
        try:
            for item in batch.classify(game_name, options, tasks, out, strategy=strategy,
                                       budget=budget, jobs=jobs, resume=resume):
                progress.update()
                progress.set_postfix_str(f"{item['deal']}: {item['status']}", refresh=False)
        except KeyboardInterrupt:
            progress.close()
            typer.echo(f"interrupted: results so far are in {out}; rerun with --resume", err=True)
            raise typer.Exit(130) from None
        progress.close()
        _print_summary(batch.summarize(out, tasks))


def _print_summary(summary: batch.Summary) -> None:
    counts = summary.counts
    typer.echo(f"{summary.total} deals: {counts['won']} won, {counts['lost']} lost, "
               f"{counts['unknown']} unknown")
    rate, low, high = summary.win_rate()
    decided = counts["won"] + counts["lost"]
    if decided:
        typer.echo(f"win rate {100 * rate:.3f}% of {decided} decided "
                   f"(95% Wilson interval {100 * low:.3f}%..{100 * high:.3f}%)")


@app.command()
def bench(game_name: str = GameArg,
          source: str = typer.Argument("1-20", help="deal range or file"),
          strategy: list[str] = typer.Option([], "--strategy", "-s",
                                             help="repeatable (default: the game's own)"),
          variant: list[str] = VariantOpt,
          seconds: Optional[float] = typer.Option(60.0, "--seconds", help="per deal"),
          max_states: Optional[int] = StatesOpt, memory: Optional[str] = MemoryOpt,
          cpu: bool = CpuOpt) -> None:
    """Run strategies side by side over deals and print a table."""
    from solver.bench import compare, table

    with user_errors():
        game = find_game(game_name, parse_variants(variant))
        tasks = batch.read_source(source)
        rows = compare(game, tasks, strategy or [analyze.default_strategy(game)],
                       _budget(max_states, seconds, memory, cpu=cpu))
        typer.echo(table(rows))


def main() -> None:
    """Entry point for ``python -m solver``."""
    app()
