"""The certificate file: what it holds and how it is read.

An xz-compressed UTF-8 text file. Line 1 is a JSON header::

    {"format": "solitaire-certificate/1", "game": "black-hole", "variant": {...},
     "deal": 17, "start": LINE, "reductions": [...], "positions": COUNT, "solver": "0.1.0"}

then COUNT lines, sorted, one per position: ``LINE`` (a position every move from which
leads into the set) or ``LINE<TAB>FACTS`` (a position closed by a static proof of loss,
FACTS being compact JSON that the game's ``check_facts`` confirms). LINE is the game's
one-line encoding of a position; ``deal`` is null for a position read from a file.

A scored game's certificate may also claim a best score: ``"best": N`` in the header
(absent for games without scores) says that no play from the start scores more than N and
that some play scores N (``check.py`` says how that is confirmed).
"""
from __future__ import annotations

import json
import lzma
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

FORMAT = "solitaire-certificate/1"
HEADER_FIELDS = ("format", "game", "variant", "deal", "start", "reductions", "positions")


class Unreadable(Exception):
    """The file is not a certificate this checker can read (status 2)."""


@dataclass
class Certificate:
    """A certificate as read: its header and its positions, each LINE with its FACTS
    (None for a position the checker expands)."""

    header: dict[str, Any]
    positions: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return str(self.header["game"])

    @property
    def variant(self) -> dict[str, Any]:
        return dict(self.header["variant"])

    @property
    def deal(self) -> int | None:
        deal = self.header["deal"]
        return deal if isinstance(deal, int) else None

    @property
    def start(self) -> str:
        return str(self.header["start"])

    @property
    def reductions(self) -> frozenset[str]:
        return frozenset(self.header["reductions"])

    @property
    def best(self) -> int | None:
        """The best score claimed, or None where the certificate claims none."""
        best = self.header.get("best")
        return best if isinstance(best, int) else None


def write(path: Path, header: dict[str, Any], lines: Iterable[tuple[str, Any]]) -> int:
    """Write a certificate of `lines` (LINE, FACTS or None), sorted; return its bytes."""
    rows = sorted(dict(lines).items())
    header = {**header, "format": FORMAT, "positions": len(rows)}
    with lzma.open(path, "wt", encoding="utf-8", preset=6) as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for line, facts in rows:
            out.write(line if facts is None else
                      f"{line}\t{json.dumps(facts, separators=(',', ':'))}")
            out.write("\n")
    return path.stat().st_size


def read(path: Path) -> Certificate:
    """Read a certificate; raise Unreadable naming what is wrong with the file."""
    try:
        with lzma.open(path, "rt", encoding="utf-8") as source:
            return _parse(source)
    except (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError) as error:
        raise Unreadable(f"{path}: not a readable certificate ({error})") from None


def _parse(source: Iterable[str]) -> Certificate:
    lines = iter(source)
    try:
        header = json.loads(next(lines))
    except (StopIteration, ValueError):
        raise Unreadable("the header (line 1) is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise Unreadable(f"line 1 does not say format {FORMAT!r}")
    missing = [name for name in HEADER_FIELDS if name not in header]
    if missing:
        raise Unreadable(f"the header lacks {', '.join(missing)}")
    if not isinstance(header["variant"], dict) or not isinstance(header["reductions"], list) \
            or not isinstance(header["positions"], int) or not isinstance(header["start"], str):
        raise Unreadable("the header's variant, reductions, positions or start has the wrong type")
    if "best" in header and (not isinstance(header["best"], int) or isinstance(header["best"], bool)):
        raise Unreadable("the header's best is not a whole number")
    certificate = Certificate(header)
    previous = None
    for number, text in enumerate(lines, start=2):
        if not text.endswith("\n"):
            raise Unreadable(f"line {number} is cut short (a truncated file)")
        line, tab, facts = text[:-1].partition("\t")
        if previous is not None and line <= previous:
            raise Unreadable(f"line {number} is out of order or repeated")
        try:
            certificate.positions[line] = json.loads(facts) if tab else None
        except ValueError:
            raise Unreadable(f"line {number}: its facts are not JSON") from None
        previous = line
    if len(certificate.positions) != header["positions"]:
        raise Unreadable(f"the header says {header['positions']} positions, the file holds "
                         f"{len(certificate.positions)} (a truncated file?)")
    return certificate
