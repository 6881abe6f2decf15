"""The bad-input catalogue: every user mistake gets one bounded line, status 2, nothing lost.

Each case runs the real entry point (``solver.app.cli.main``, as the ``solitaire`` script
does) in a scratch folder holding a few prepared files, and checks the four promises:
exit status 2, exactly one line on stderr starting ``error:`` and at most a few hundred
characters long, no traceback, and every file in the folder byte-for-byte as it was (no
results file created, truncated or rewritten). Add a case here whenever a new mistake is
found, so that none comes back.
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from conftest import DATA, run_main
from games.black_hole import GAME as BLACK_HOLE
from games.freecell import GAME as FREECELL
from games.klondike import GAME as KLONDIKE
from solver.app import analyze
from solver.app.cli import MESSAGE_LIMIT
from solver.app.record import Verdict
from solver.search import Budget

TWIN = ["-V", "ranks=4", "-V", "columns=4", "-V", "cells=1"]
JUNK_LINE = "root:x:0:0:root:/root:/bin/bash daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin"


def _records(game, deals, strategy="dfs", **budget) -> str:
    lines = []
    for number in deals:
        spent = Budget(**budget)
        result = analyze.solve(game, game.deal(number), strategy, spent)
        lines.append(json.dumps(Verdict.of(game, number, result, spent, strategy).to_json()))
    return "\n".join(lines) + "\n"


def _dealt(game_name: str, line: str, instead: str) -> bytes:
    """Return deal 1's text of a game with one line written otherwise."""
    from games import find_game

    game = find_game(game_name)
    text = game.format(game.deal(1))
    assert line in text.splitlines()
    return text.replace(line, instead, 1).encode()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> dict[str, bytes]:
    """The scratch folder's files: results of several settings, junk, non-UTF-8 text."""
    from games import find_game

    twin = find_game("freecell", {"ranks": "4", "columns": "4", "cells": "1"})
    good = _records(twin, [1, 2, 3], seconds=60.0, memory=1 << 30)
    first = good.splitlines()[0]
    files = {
        "bh.jsonl": _records(BLACK_HOLE, [1, 2, 6], seconds=60.0, memory=1 << 30).encode(),
        "twin.jsonl": good.encode(),
        "other-budget.jsonl": _records(twin, [1], seconds=5.0, memory=1 << 30).encode(),
        "bad-middle.jsonl": (first + "\n{\"deal\": 2, \"sta\n" + first + "\n").encode(),
        "no-status.jsonl": (first + "\n" + json.dumps({"deal": 9, "game": "freecell"}) + "\n").encode(),
        "odd-status.jsonl": (json.dumps({**json.loads(first), "status": "maybe"}) + "\n").encode(),
        "junk.txt": ("\n".join([JUNK_LINE] * 400) + "\n").encode(),
        "huge.txt": (("XQ " * 1000 + "\n") * 800).encode(),
        "latin1.txt": FREECELL.format(FREECELL.deal(1)).replace("KD", "KD \xe9").encode("latin-1"),
        "deals-zero.jsonl": b'{"deal": 0}\n',
        "deals-list-id.jsonl": b'{"deal": 1, "id": [1, 2]}\n',
        "deals-true.jsonl": b'{"deal": true}\n',
        "deals-text.jsonl": b'{"deal": "5"}\n',
        "deals-repeat.jsonl": b'{"deal": 5}\n{"deal": 5}\n',
        "deals-board-number.jsonl": b'{"board": 17}\n',
        "klondike-unclosed.txt": KLONDIKE.format(KLONDIKE.deal(1)).replace(">", "", 1).encode(),
        "empty.txt": b"",
        # numbers in superscript: they pass str.isdigit() but not int()
        "gaps-superscript.txt": _dealt("gaps", "Redeals: 0", "Redeals: \u00b2"),
        "crescent-superscript.txt": _dealt("crescent", "Redeals: 0", "Redeals: \u00b2"),
        "pairs-superscript.txt": _dealt("chris-cross-pairs", "Round: 1", "Round: \u00b2"),
        "crisscross-superscript.txt": _dealt("crisscross", "Deal: 1", "Deal: \u00b3"),
        "bridge-superscript.txt": _dealt("bridge-solitaire", "Deal: 1", "Deal: \u00b3"),
        "gaps-huge-deal.txt": _dealt("gaps", "Deal: 1", "Deal: 1" + "0" * 22),
    }
    folder = tmp_path_factory.mktemp("prepared")
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return {name: (folder / name).read_bytes() for name in files}


# (case id, arguments, a phrase the message must hold)
CASES = [
    # results files that hold something else
    ("resume-other-game", ["classify", "freecell", "1-35", "--out", "bh.jsonl", "--resume"],
     "holds other results"),
    ("resume-other-variant", ["classify", "freecell", "1-5", "--out", "twin.jsonl", "--resume",
                              "-s", "dfs", "-V", "ranks=4", "-V", "columns=4", "-V", "cells=2"],
     "cells=1, not cells=2"),
    ("resume-other-strategy", ["classify", "freecell", "1-5", "--out", "twin.jsonl", "--resume",
                               "-s", "best_first", *TWIN], "strategy"),
    ("resume-other-budget", ["classify", "freecell", "1-5", "--out", "other-budget.jsonl",
                             "--resume", "-s", "dfs", *TWIN], "seconds 5.0, not 60.0"),
    ("resume-bad-middle-line", ["classify", "freecell", "1-5", "--out", "bad-middle.jsonl",
                                "--resume", "-s", "dfs", *TWIN], "line 2"),
    ("resume-no-status", ["classify", "freecell", "1-5", "--out", "no-status.jsonl", "--resume",
                          "-s", "dfs", *TWIN], "line 2: no status"),
    ("resume-odd-status", ["classify", "freecell", "1-5", "--out", "odd-status.jsonl",
                           "--resume", "-s", "dfs", *TWIN], "not won, lost or unknown"),
    ("overwrite", ["classify", "freecell", "1-5", "--out", "twin.jsonl", *TWIN], "--resume"),
    # what error messages may quote
    ("deal-file-of-junk", ["solve", "freecell", "junk-link.txt"], "unreadable card"),
    ("moves-file-of-junk", ["verify", "freecell", "--deal", "1", "--moves", "@junk.txt"],
     "is illegal"),
    ("huge-deal-file", ["solve", "freecell", "huge.txt"], "larger than a deal"),
    ("huge-moves-file", ["verify", "freecell", "--deal", "1", "--moves", "@huge.txt"],
     "larger than a move list"),
    ("huge-batch-board", ["classify", "freecell", "huge.txt", "--out", "new.jsonl"],
     "more than any deal"),
    # mistakes that used to end in a traceback
    ("range-below-first-deal", ["classify", "freecell", "0-2", "--out", "new.jsonl"], "deal 0"),
    ("range-above-last-deal", ["classify", "freecell", "1-8589934592", "--out", "new.jsonl"],
     "deal 8589934592"),
    ("jsonl-deal-zero", ["classify", "freecell", "deals-zero.jsonl", "--out", "new.jsonl"],
     "deal 0"),
    ("jsonl-list-id", ["classify", "freecell", "deals-list-id.jsonl", "--out", "new.jsonl"],
     "\"id\" must be"),
    ("jsonl-deal-true", ["classify", "freecell", "deals-true.jsonl", "--out", "new.jsonl"],
     "whole number"),
    ("jsonl-deal-text", ["classify", "freecell", "deals-text.jsonl", "--out", "new.jsonl"],
     "whole number"),
    ("jsonl-repeated-deal", ["classify", "freecell", "deals-repeat.jsonl", "--out", "new.jsonl"],
     "repeats line 1"),
    ("jsonl-board-not-text", ["classify", "freecell", "deals-board-number.jsonl", "--out",
                              "new.jsonl"], "must be a text"),
    ("deal-file-not-utf8", ["solve", "freecell", "latin1.txt"], "not UTF-8"),
    ("batch-file-not-utf8", ["classify", "freecell", "latin1.txt", "--out", "new.jsonl"],
     "not UTF-8"),
    ("moves-file-not-utf8", ["verify", "freecell", "--deal", "1", "--moves", "@latin1.txt"],
     "not UTF-8"),
    ("moves-file-missing", ["verify", "freecell", "--deal", "1", "--moves", "@nosuch.txt"],
     "cannot read"),
    ("out-folder-missing", ["classify", "freecell", "1-2", "--out", "no/such/r.jsonl"],
     "does not exist"),
    ("out-is-a-directory", ["classify", "freecell", "1-2", "--out", "."], "is a directory"),
    ("out-is-a-directory-resume", ["classify", "freecell", "1-2", "--out", ".", "--resume"],
     "is a directory"),
    ("html-folder-missing", ["solve", "freecell", "--deal", "1", "--html", "no/such/p.html"],
     "no such directory"),
    ("html-is-a-directory", ["solve", "freecell", "--deal", "1", "--html", "."], "is a directory"),
    ("memory-inf", ["solve", "freecell", "--deal", "1", "--memory", "inf"], "at least 1M"),
    ("memory-unit-only", ["solve", "freecell", "--deal", "1", "--memory", "B"], "like 2G"),
    ("memory-overflow", ["solve", "freecell", "--deal", "1", "--memory", "1e400"], "at least 1M"),
    ("memory-words", ["solve", "freecell", "--deal", "1", "--memory", "lots"], "like 2G"),
    # mistakes that used to be accepted
    ("klondike-unclosed-face-down", ["solve", "klondike", "klondike-unclosed.txt"], "'<"),
    ("memory-zero", ["solve", "freecell", "--deal", "1", "--memory", "0"], "at least 1M"),
    ("memory-one-byte", ["solve", "freecell", "--deal", "1", "--memory", "1"], "at least 1M"),
    ("memory-negative", ["solve", "freecell", "--deal", "1", "--memory", "-5G"], "at least 1M"),
    ("bench-negative-seconds", ["bench", "black-hole", "1-2", "--seconds", "-1"], "--seconds"),
    ("solve-zero-seconds", ["solve", "freecell", "--deal", "1", "--seconds", "0"], "--seconds"),
    ("variant-none-for-a-number", ["solve", "freecell", "--deal", "1", "-V", "cells=none"],
     "whole number"),
    ("cpsat-state-budget", ["solve", "black-hole", "--deal", "6", "-s", "cpsat",
                            "--max-states", "5"], "cpsat stores no positions"),
    ("jobs-zero", ["classify", "freecell", "1-2", "--out", "new.jsonl", "--jobs", "0"], "--jobs"),
    ("move-to-a-column-not-there", ["verify", "freecell", "--deal", "1", "--moves", "9a"],
     "there is no column 9"),
    ("pair-at-a-place-not-there", ["verify", "chris-cross-pairs", "--deal", "1", "--moves",
                                   "a1+f1"], "there is no place f1"),
    ("pair-not-of-one-rank", ["verify", "chris-cross-pairs", "--deal", "1", "--moves",
                              "a1+a2"], "JD and 2D are not of one rank"),
    # names, ranges, deals, moves
    ("unknown-game", ["solve", "nosuch", "--deal", "1"], "unknown game 'nosuch'"),
    ("unknown-variant", ["solve", "freecell", "--deal", "1", "-V", "foo=1"],
     "no variant option 'foo'"),
    ("variant-out-of-range", ["solve", "freecell", "--deal", "1", "-V", "cells=9"],
     "cells must be 0..7"),
    ("variant-without-value", ["solve", "freecell", "--deal", "1", "-V", "cells"], "key=value"),
    ("deal-zero", ["solve", "freecell", "--deal", "0"], "from 1 to 8589934591"),
    ("no-deal-given", ["solve", "freecell"], "either a deal file or --deal"),
    ("deal-file-missing", ["solve", "freecell", "nosuch.txt"], "cannot read"),
    ("deal-file-empty", ["solve", "freecell", "empty.txt"], "empty"),
    ("duplicate-card", ["solve", "freecell", str(DATA / "freecell" / "bad" / "duplicate-card.txt")],
     "duplicate card"),
    ("unknown-strategy", ["solve", "freecell", "--deal", "1", "-s", "magic"],
     "unknown strategy 'magic'"),
    ("unknown-strategy-option", ["solve", "freecell", "--deal", "1", "-s", "beam:depth=3"],
     "beam has no option 'depth'"),
    ("bad-strategy-option", ["solve", "freecell", "--deal", "1", "-s", "beam:width=0"],
     "beam's width takes a whole number of at least 1"),
    ("options-of-no-options", ["solve", "freecell", "--deal", "1", "-s", "dfs:width=4"],
     "strategy dfs takes no options"),
    ("no-cpsat-model", ["solve", "freecell", "--deal", "1", "-s", "cpsat"], "no CP-SAT model"),
    ("illegal-move", ["verify", "freecell", "--deal", "1", "--moves", "1a zz"],
     "move 2 ('zz') is illegal"),
    ("empty-range", ["classify", "freecell", "5-1", "--out", "new.jsonl"], "ends before it starts"),
    ("not-a-range", ["classify", "freecell", "abc", "--out", "new.jsonl"], "neither a deal range"),
    ("batch-file-empty", ["classify", "freecell", "empty.txt", "--out", "new.jsonl"], "empty"),
    ("unknown-style", ["deal", "freecell", "1", "--style", "fancy"], "unknown style 'fancy'"),
    ("unknown-option", ["solve", "freecell", "--deal", "1", "--bogus"], "--bogus"),
    ("state-budget-zero", ["solve", "freecell", "--deal", "1", "--max-states", "0"],
     "--max-states"),
    # numbers written in other ways than ASCII digits, and numbers at their edges
    ("deal-negative-argument", ["deal", "freecell", "-5"], "deal numbers start at 1"),
    ("deal-negative-option", ["solve", "freecell", "--deal", "-5"], "deal numbers start at 1"),
    ("deal-with-underscore", ["deal", "freecell", "1_000"], "not a whole number"),
    ("deal-in-superscript", ["solve", "freecell", "--deal", "\u00b3"], "not a whole number"),
    ("deal-in-arabic-digits", ["solve", "freecell", "--deal", "\u0663"], "not a whole number"),
    ("states-with-underscore", ["solve", "freecell", "--deal", "1", "--max-states", "1_000"],
     "not a whole number"),
    ("seconds-infinite", ["solve", "freecell", "--deal", "1", "--seconds", "inf"],
     "finite number of seconds"),
    ("classify-seconds-infinite", ["classify", "freecell", "1-2", "--out", "new.jsonl",
                                   "--seconds", "inf"], "finite number of seconds"),
    ("gaps-redeals-superscript", ["solve", "gaps", "gaps-superscript.txt"], "redeals '\u00b2'"),
    ("crescent-redeals-superscript", ["solve", "crescent", "crescent-superscript.txt"],
     "redeals made '\u00b2'"),
    ("pairs-round-superscript", ["solve", "chris-cross-pairs", "pairs-superscript.txt"],
     "round '\u00b2'"),
    ("crisscross-deal-superscript", ["solve", "crisscross", "crisscross-superscript.txt"],
     "deal '\u00b3'"),
    ("bridge-deal-superscript", ["solve", "bridge-solitaire", "bridge-superscript.txt"],
     "\u00b3"),
    ("gaps-deal-beyond-its-numbers", ["solve", "gaps", "gaps-huge-deal.txt"], "10**20"),
    ("gaps-deal-number-beyond", ["solve", "gaps", "--deal", "1" + "0" * 22], "10**20"),
    ("classify-range-beyond-2-63", ["classify", "freecell", "1-10000000000000000000",
                                    "--out", "new.jsonl"], "2^63-1"),
    # every strategy checked before any runs
    ("bench-strategy-not-for-this-game", ["bench", "freecell", "1-3", "-s", "dfs", "-s", "scored"],
     "not a scored game"),
    ("bench-no-cpsat-model", ["bench", "freecell", "1-3", "-s", "dfs", "-s", "cpsat"],
     "no CP-SAT model"),
    # moves played before a solve or a hint
    ("solve-after-an-illegal-move", ["solve", "freecell", "--deal", "3", "--moves",
                                     "5h 5a 5h 3h"], "move 4 ('3h') is illegal"),
    ("hint-after-an-unreadable-move", ["hint", "freecell", "--deal", "3", "--moves", "5h zz"],
     "move 2 ('zz') is illegal"),
    ("moves-file-missing", ["solve", "freecell", "--deal", "1", "--moves", "@nosuch.txt"],
     "cannot read"),
]



def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("args,phrase", [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_a_mistake_gets_one_bounded_line_status_2_and_loses_nothing(
        args, phrase, prepared, tmp_path, monkeypatch, capsys):
    for name, data in prepared.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "junk-link.txt").symlink_to(tmp_path / "junk.txt")
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = run_main(args, capsys)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert len(err) <= MESSAGE_LIMIT + len("error: \n"), len(err)
    assert "Traceback" not in err and phrase in err, err
    assert JUNK_LINE[:20] not in err                       # no file's contents echoed
    assert snapshot(tmp_path) == before                    # nothing written, nothing lost


def test_a_huge_standard_input_is_refused_before_it_is_parsed(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"XQ " * (1 << 19))))
    code, _, err = run_main(["solve", "freecell", "-"], capsys)
    assert code == 2 and "larger than any deal" in err and err.count("\n") == 1


def test_a_read_only_results_file_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    target = Path("/proc/version")
    try:
        with target.open("ab"):
            pytest.skip("needs a file no one may write")
    except OSError:
        pass
    code, _, err = run_main(["classify", "freecell", "1-2", "--out", str(target), "--resume"],
                            capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_a_closed_standard_input_is_a_mistake_not_a_crash(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    code, _, err = run_main(["solve", "freecell", "-"], capsys)
    assert code == 2 and "standard input is closed" in err and err.count("\n") == 1
