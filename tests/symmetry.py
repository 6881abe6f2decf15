"""Symmetries of positions, for the key tests: what each game's tests declare as ``SYMMETRY``.

A game's test module (``tests/games/test_<module>.py``) says how its positions may differ
without mattering, through its State fields, written apart from the game's ``key``:
``tests/test_contract.py`` then checks that positions equal up to that symmetry, and only
those, share a key.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Hashable, NamedTuple


class Symmetry(NamedTuple):
    """How a game's positions may differ without mattering, through its State fields.

    ``image(state, rng)`` is a random position equal to `state` up to symmetry;
    ``canonical(state)`` is the same for two positions exactly when they are.
    """

    image: Callable[[Any, random.Random], Any]
    canonical: Callable[[Any], Hashable]


NO_SYMMETRY = Symmetry(lambda state, rng: state, lambda state: state)


def shuffled(items: Any, rng: random.Random) -> list[Any]:
    items = list(items)
    rng.shuffle(items)
    return items


def columns_in_order(state: Any, order: list[int], **others: Any) -> Any:
    """Return `state` with its columns, each with its face-down count, in `order`."""
    return state._replace(columns=tuple(state.columns[i] for i in order),
                          hidden=bytes(state.hidden[i] for i in order), **others)


def columns_shuffled(state: Any, rng: random.Random) -> Any:
    return columns_in_order(state, shuffled(range(len(state.columns)), rng))


def bag(items: Any) -> tuple[Any, ...]:
    """Return `items` in sorted order: the same for any order of the same items."""
    return tuple(sorted(items))


def by_hidden_column(state: Any) -> tuple[tuple[int, bytes], ...]:
    return bag(zip(state.hidden, state.columns))
