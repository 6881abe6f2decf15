"""An independent checker of certificates of loss.

A ``lost`` verdict is a claim that no sequence of legal moves wins the deal. The solver
backs it with a certificate (``solitaire solve ... --certificate FILE``), and this package
checks it (``solitaire check FILE``) without trusting the solver: it imports nothing from
``solver`` or ``games`` (a test enforces this), and holds its own plain implementation of
each game's rules, written to be read next to the rule texts rather than to be fast.

What the checker trusts, and nothing more:

- Python and its standard library (``json``, ``lzma``);
- ``check.py``, the closure argument, about a hundred lines;
- for each game, its module here (``black_hole.py``, ``freecell.py``...): the deal
  generator, the moves the rules allow, what wins, and each *reduction* the module accepts
  (a symmetry, or an automatic move shown not to change the verdict), each with its proof
  in the module;
- what the game modules share: the cards, their text and ``Label: value`` lines (``cards.py``), PySolFC's and
  Microsoft's deals (``deals.py``), and Klondike's and Yukon's columns with their static
  proof of loss (``tableau.py``).

The argument (``check.py``): the certificate lists a set of positions. If the start is in
it, no position in it is won, and every legal move from every position in it leads to a
position in it (or the position is closed by a static proof the game module confirms),
then every line of play from the start stays inside the set forever, so no line of play
wins: the deal is lost.
"""
from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["game_module", "module_name"]


def module_name(game: str) -> str:
    """Return the checker module's name for a game's registry name (``black-hole``)."""
    return "checker." + game.replace("-", "_")


def game_module(game: str) -> ModuleType | None:
    """Return the checker module of `game`, or None where the checker has none."""
    if not game.replace("-", "").replace("_", "").isalnum():
        return None
    try:
        module = importlib.import_module(module_name(game))
    except ModuleNotFoundError as missing:
        if missing.name == module_name(game):
            return None
        raise
    return module if getattr(module, "NAME", None) == game else None
