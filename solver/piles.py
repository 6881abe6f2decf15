"""Piles of a position changed by a move, built with as few allocations as compiled code allows.

A position's piles are a tuple of ``bytes`` (its cards, bottom first), and a move changes
one or two of them. Copying the tuple to a list and back costs about three times the
instructions of one tuple display, which compiled code builds in a single allocation, so
the usual pile counts (7 for Klondike, 8 for FreeCell, 10 for Seahaven Towers) get a
display each and other counts the list. Compiled by mypyc (``setup.py``); the same source
runs as plain Python.
"""
from __future__ import annotations

from typing import Final

BYTE: Final = tuple(bytes((n,)) for n in range(256))    # BYTE[n] == bytes((n,)), made once


def replaced(piles: tuple[bytes, ...], i: int, a: bytes, j: int, b: bytes
             ) -> tuple[bytes, ...]:
    """Return `piles` with pile i replaced by `a` and pile j by `b` (-1: none; where i
    and j are the same pile, `b` is put there)."""
    n = len(piles)
    if n == 8:
        c0, c1, c2, c3, c4, c5, c6, c7 = piles
        return (b if j == 0 else a if i == 0 else c0, b if j == 1 else a if i == 1 else c1,
                b if j == 2 else a if i == 2 else c2, b if j == 3 else a if i == 3 else c3,
                b if j == 4 else a if i == 4 else c4, b if j == 5 else a if i == 5 else c5,
                b if j == 6 else a if i == 6 else c6, b if j == 7 else a if i == 7 else c7)
    if n == 7:
        c0, c1, c2, c3, c4, c5, c6 = piles
        return (b if j == 0 else a if i == 0 else c0, b if j == 1 else a if i == 1 else c1,
                b if j == 2 else a if i == 2 else c2, b if j == 3 else a if i == 3 else c3,
                b if j == 4 else a if i == 4 else c4, b if j == 5 else a if i == 5 else c5,
                b if j == 6 else a if i == 6 else c6)
    if n == 10:
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = piles
        return (b if j == 0 else a if i == 0 else c0, b if j == 1 else a if i == 1 else c1,
                b if j == 2 else a if i == 2 else c2, b if j == 3 else a if i == 3 else c3,
                b if j == 4 else a if i == 4 else c4, b if j == 5 else a if i == 5 else c5,
                b if j == 6 else a if i == 6 else c6, b if j == 7 else a if i == 7 else c7,
                b if j == 8 else a if i == 8 else c8, b if j == 9 else a if i == 9 else c9)
    changed = list(piles)
    if i >= 0:
        changed[i] = a
    if j >= 0:
        changed[j] = b
    return tuple(changed)


def raised(made: dict[bytes, list[bytes]], foundations: bytes, s: int) -> bytes:
    """Return `foundations` (a top rank a suit, one byte each) with suit `s` one card higher.

    The results for every suit are made once per foundations and kept in `made` (at most
    14 ** 4 of them in a game of 52 cards): looked up for less than they cost to build,
    and the positions that reach the same foundations share one object."""
    higher = made.get(foundations)
    if higher is None:
        higher = [foundations[:t] + BYTE[foundations[t] + 1] + foundations[t + 1:]
                  for t in range(len(foundations))]
        made[foundations] = higher
    return higher[s]
