"""What the certificate tests of every game share: rewriting a certificate to tamper with
it, and deciding a deal by exhaustive search with a checker module's own rules."""
from __future__ import annotations

import json
import lzma
import random
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

Change = Callable[[dict[str, Any], list[str]], tuple[dict[str, Any], list[str]]]


def rewrite_as_is(source: Path, target: Path, change: Change) -> Path:
    """Write `target`: the certificate at `source` with ``change(header, lines)`` applied,
    written exactly as it returns them (a count or an order left wrong stays wrong)."""
    with lzma.open(source, "rt", encoding="utf-8") as read:
        header, *lines = read.read().splitlines()
    new_header, lines = change(json.loads(header), lines)
    with lzma.open(target, "wt", encoding="utf-8") as out:
        out.write("\n".join([json.dumps(new_header), *lines]) + "\n")
    return target


def rewrite(source: Path, target: Path, change: Change) -> Path:
    """``rewrite_as_is`` with the lines kept sorted and the header's count following them,
    so that only the change itself can be at fault."""
    def tidy(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        new_header, new_lines = change(header, lines)
        return {**new_header, "positions": len(new_lines)}, sorted(new_lines)
    return rewrite_as_is(source, target, tidy)


def checker_won(module: ModuleType, start: Any, variant: dict[str, Any],
                reductions: frozenset[str]) -> bool:
    """Whether `start` can be won, by an exhaustive search with the checker module's own
    moves and automatic moves under `reductions` (what each reduction test compares)."""
    start = module.settle(start, variant, reductions)
    seen, stack = {module.encode(start, variant, reductions)}, [start]
    while stack:
        position = stack.pop()
        if module.is_won(position, variant):
            return True
        for _, after in module.moves(position, variant, reductions):
            after = module.settle(after, variant, reductions)
            line = module.encode(after, variant, reductions)
            if line not in seen:
                seen.add(line)
                stack.append(after)
    return False


def verdicts_kept(module: ModuleType, reduction: str, everything: frozenset[str],
                  cases: Iterable[tuple[dict[str, Any], int]]) -> int:
    """Assert that the checker's own exhaustive search (``checker_won``) gives every deal
    1..N of each (variant, N) in `cases` the same verdict under `everything` and under
    all of it but `reduction`; return how many of those deals are lost."""
    lost = 0
    for variant, deals in cases:
        for number in range(1, deals + 1):
            start = module.deal(number, variant)
            verdict = checker_won(module, start, variant, everything)
            assert checker_won(module, start, variant, everything - {reduction}) == verdict, \
                (variant, number)
            lost += not verdict
    return lost


def assert_deals_and_text_agree(module: ModuleType, game: Any, variant: dict[str, Any],
                                reductions: frozenset[str], deals: int = 20) -> None:
    """Assert that the checker module deals deals 1..`deals` as the game does, reads the
    game's text of each, encodes it as the game's certifier does, and decodes its own
    encoding back."""
    for number in range(1, deals + 1):
        state = game.deal(number)
        position = module.deal(number, variant)
        assert module.parse(game.format(state), variant) == position
        assert module.encode(position, variant, reductions) == game.certifier.encode(state)
        assert module.decode(module.encode(position, variant, frozenset()), variant) == position


def checked_against(module: ModuleType, path: Path, number: int | None) -> Any:
    """Return the checker's outcome on the certificate at `path` (``checker.check``),
    confirming that it is deal `number`'s (None: not confirmed), as ``solitaire check FILE
    GAME --deal N`` does."""
    from checker import certificate as certificate_file
    from checker.check import check, start_line

    read = certificate_file.read(path)
    expected = None if number is None else start_line(module, read,
                                                     module.deal(number, read.variant))
    return check(read, expected, module)


def random_play_positions(game: Any, seed: int, count: int) -> list[Any]:
    """Positions of seeded random plays from numbered deals, every step taken (the game's
    ``moves``), `count` in all."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.deal(rng.randint(1, 10 ** 6))
        while len(found) < count:
            found.append(state)
            steps = game.moves(state)
            if not steps:
                break
            state = game.play(state, rng.choice(steps))
    return found
