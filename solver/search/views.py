"""Views of a game with one method changed: no forced moves, or narrowed moves.

A view forwards everything else to the game it wraps, so strategies see it as the game.
"""
from __future__ import annotations

from typing import Any

from solver.game import Game


class _View:
    """The same game seen through one changed method; everything else is the game's.

    Forwarding is the view's only attribute lookup on the game: an optional hook the
    view does not declare is the game's own (its default when the game has none).
    """

    # A view changes a method the game's fused expansion (Game.children) would bypass:
    # the view's searches go through moves, play, forced and key one child at a time.
    children = None

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class without_forced(_View):
    """The same game with no forced moves (for optimal search and for the safety tests)."""

    def forced(self, state: Any) -> list[Any]:
        return []


class narrowed(_View):
    """The same game whose search moves are its ``narrow_moves``: a quick, incomplete search.

    A game may offer ``narrow_moves(state)``, a subset of ``moves`` where wins usually
    lie (Klondike leaves out run shuffles and foundation returns). A win found over them
    is a win of the game (every move is legal and the path is replayed through the full
    rules), but an exhausted narrowed search proves nothing: callers must not report
    its ``lost`` as a verdict.
    """

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game)
        narrow = game.narrow_moves
        if narrow is None:
            raise ValueError(f"{game.name} has no narrow_moves")
        self.moves = narrow
