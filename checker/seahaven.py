"""The checker's rules for Seahaven Towers: FreeCell's (``checker/freecell.py``), which cover
both games through the variant options (10 columns, building by suit, only a King to an
empty column, PySolFC's deals); this module only answers to the game's own name."""
from __future__ import annotations

from checker.freecell import (REDUCTIONS, decode, deal, encode, is_won, moves, parse, settle,
                              variant_problem)

NAME = "seahaven"
__all__ = ["NAME", "REDUCTIONS", "decode", "deal", "encode", "is_won", "moves", "parse",
           "settle", "variant_problem"]
