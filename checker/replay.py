"""A second referee for wins: replay a solution's moves with the checker's own rules.

The solver replays every solution it prints through the games' rule modules
(``solver.verify``); this replays it again through the checker's independent rules: each
move, in the game's notation, must be one of the moves the checker's rules allow at that
point (no reduction applied: every step is played as written), and the last position must
be won, or, for a scored game's best line, end the game with the score it claims.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Sequence


def replay(module: ModuleType, position: Any, variant: dict[str, Any],
           notations: Sequence[str], score: int | None = None) -> str:
    """Return "" when `notations`, played in turn from `position`, are legal and win (or,
    given the `score` a scored game's line claims, end the game with that score); else
    the first fault (which move, and why)."""
    none: frozenset[str] = frozenset()
    for number, notation in enumerate(notations, start=1):
        after = None
        for name, candidate in module.moves(position, variant, none):
            if name == notation:
                after = candidate
                break
        if after is None:
            return f"move {number} ({notation}) is not legal at {module.encode(position, variant, none)}"
        position = after
    if score is not None and not module.is_won(position, variant):
        if not hasattr(module, "score"):
            return "the checker scores no position of this game"
        reached = module.score(position, variant)
        if reached != score:
            return f"the {len(notations)} moves end at {module.encode(position, variant, none)}, " \
                   f"which scores {'nothing (the game is not over)' if reached is None else reached}, " \
                   f"not {score}"
        return ""
    if not module.is_won(position, variant):
        return f"the {len(notations)} moves end at {module.encode(position, variant, none)}, " \
               "which is not won"
    return ""
