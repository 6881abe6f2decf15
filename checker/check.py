"""The closure check: is a certificate's set of positions a proof that the deal is lost?

The argument, for a set P of positions (each a line of the certificate):

1. the start (the deal, with the named reductions' automatic moves made) is in P;
2. no position in P is won;
3. from every position in P without facts, every move the game's rules allow (after the
   named reductions) leads to a position in P;
4. every position in P with facts is lost by the static proof the facts describe, which
   the game's own ``check_facts`` confirms.

Then every line of play from the start stays in P (by 1 and 3, or ends at a position of
4), and none of those positions is won (2): the deal cannot be won. The reductions only
change which positions stand for which: each game module proves each one it accepts
keeps the verdict, and a certificate that names any other is refused.

A best score claimed (``"best": N``, a scored game; its module's ``score(pos, variant)``
gives the score of a position where the game is over, None where it is not):

5. no position in P is closed by facts (a static proof bounds no score), and every
   position of P without a move left has a score (its game is over);
6. no position in P scores more than N;
7. some position reached from the start by moves inside P scores exactly N.

By 1, 3 and 5 every play from the start stays in P and ends at a position of P, which
scores N or less (6); by 7 some play scores N: N is the best score, exactly.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from checker import game_module
from checker.certificate import Certificate


@dataclass(frozen=True)
class Outcome:
    """What the check found: `fault` is empty when the certificate is valid."""

    game: str
    deal: int | None
    positions: int
    fault: str
    seconds: float
    best: int | None = None           # the best score confirmed (a valid claim of one)

    @property
    def valid(self) -> bool:
        return not self.fault


def check(certificate: Certificate, expected_start: str | None = None,
          module: ModuleType | None = None) -> Outcome:
    """Check `certificate`; `expected_start`, where given, is the LINE its start must be
    (the deal it claims to be, encoded by the game's checker module). `module` is the
    game's checker module (default: the one named after the certificate's game)."""
    began = time.perf_counter()
    fault = _fault(certificate, expected_start, module or game_module(certificate.game))
    return Outcome(certificate.game, certificate.deal, len(certificate.positions), fault,
                   time.perf_counter() - began, None if fault else certificate.best)


def start_line(module: ModuleType, certificate: Certificate, position: Any) -> str:
    """Return the LINE of `position` as the start of a game under the certificate's
    variant and reductions: its automatic moves made, encoded canonically."""
    variant, reductions = certificate.variant, certificate.reductions
    return str(module.encode(module.settle(position, variant, reductions), variant, reductions))


def _fault(certificate: Certificate, expected_start: str | None,
           module: ModuleType | None) -> str:
    if module is None:
        return f"the checker has no rules for the game {certificate.game!r}"
    variant, reductions = certificate.variant, certificate.reductions
    problem = module.variant_problem(variant)
    if problem:
        return f"variant {variant}: {problem}"
    unknown = sorted(reductions - set(module.REDUCTIONS))
    if unknown:
        return f"names the reduction {unknown[0]!r}, which the checker does not accept " \
               f"for {certificate.game} (it accepts: {', '.join(sorted(module.REDUCTIONS)) or 'none'})"
    if expected_start is not None and certificate.start != expected_start:
        return f"is not this deal's certificate: it starts at {_short(certificate.start)}, " \
               f"the deal at {_short(expected_start)}"
    positions = certificate.positions
    if certificate.start not in positions:
        return f"the start {_short(certificate.start)} is not in the set"
    has_facts = hasattr(module, "check_facts")
    best = certificate.best
    score: Any = getattr(module, "score", None)
    if best is not None and score is None:
        return f"claims a best score, but the checker scores no position of {certificate.game}"

    def visit(line: str, facts: Any) -> tuple[str, list[str], int | None]:
        """The fault at one position (or ""), the LINEs its moves lead to and its score."""
        try:
            position = module.decode(line, variant)
        except ValueError as error:
            return f"position {_short(line)} cannot be read: {error}", [], None
        if module.encode(position, variant, reductions) != line:
            return f"position {_short(line)} is not written in its canonical form", [], None
        if module.is_won(position, variant):
            return f"position {_short(line)} is won", [], None
        if facts is not None:
            why = module.check_facts(position, variant, facts) if has_facts else \
                "the checker knows no static proof for this game"
            if why:
                return f"position {_short(line)}: its static proof fails: {why}", [], None
            if best is not None:
                return f"position {_short(line)} is closed by a static proof, which bounds " \
                       "no score: a best score needs every position", [], None
            return "", [], None
        children = []
        for move, after in module.moves(position, variant, reductions):
            child = module.encode(module.settle(after, variant, reductions), variant, reductions)
            if child not in positions:
                return f"position {_short(line)}: the move {move} leads to {_short(child)}, " \
                       "which is not in the set", [], None
            children.append(child)
        value = score(position, variant) if best is not None else None
        if best is not None and value is None and not children:
            return f"position {_short(line)} has no move, yet its game is not over", [], None
        if best is not None and value is not None and value > best:
            return f"position {_short(line)} scores {value}, more than the best {best} " \
                   "claimed", [], None
        return "", children, value

    # With a best claimed, the positions the start reaches are visited first, from it, so
    # that the best is confirmed on a position some play reaches (7); then the others.
    reached = {certificate.start}
    order, tight = [certificate.start], False
    for line in order if best is not None else ():        # order grows as it is read
        fault, children, value = visit(line, positions[line])
        if fault:
            return fault
        tight = tight or value == best
        for child in children:
            if child not in reached:
                reached.add(child)
                order.append(child)
    for line, facts in positions.items():
        if best is None or line not in reached:
            fault, _, _ = visit(line, facts)
            if fault:
                return fault
    if best is not None and not tight:
        return f"no play from the start scores the best {best} claimed"
    return ""


def _short(line: str, limit: int = 160) -> str:
    return line if len(line) <= limit else line[:limit - 1] + "…"
