"""Certificates of loss, the generic parts: the file, the closure check, the writer and
``solitaire check``, on the test-only toy game Ladder and its checker module
(``tests/toy_checker.py``). Each game's own certificates are tested beside its rules."""
from __future__ import annotations

import json
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import toy_checker
from certificate_tools import rewrite_as_is
from checker import certificate as certificate_file
from checker.check import check, start_line
from solver.certify import Certifier, certify
from solver.search import Budget, dfs
from solver.game import Status
from toy_game import Ladder, State

REDUCTIONS = ("column-order",)


@dataclass(frozen=True)
class CertifiedLadder(Ladder):
    """Ladder writing certificates in its checker module's encoding."""

    @property
    def certifier(self) -> Certifier[State, Any]:
        variant = {"ranks": self.ranks, "columns": self.columns}
        return Certifier(REDUCTIONS, lambda state: toy_checker.encode(
            toy_checker.parse(self.format(state), variant), variant, frozenset(REDUCTIONS)))


GAME = CertifiedLadder(ranks=8, columns=3)
VARIANT = {"ranks": 8, "columns": 3}


def lost_deals(count: int) -> list[int]:
    found = [number for number in range(1, 200)
             if dfs(GAME, GAME.deal(number), Budget(max_states=100_000)).status is Status.LOST]
    assert len(found) >= count, "the toy game has too few lost deals for the tests"
    return found[:count]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    folder = tmp_path_factory.mktemp("cert")
    written = {number: certify(GAME, GAME.deal(number), folder / f"{number}.cert", deal=number)
               for number in lost_deals(10)}
    number = max(written, key=lambda n: written[n].positions)      # the biggest set
    assert written[number].status == "lost" and written[number].positions >= 5
    return number, folder / f"{number}.cert"



def checked(path: Path, number: int | None = None) -> str:
    read = certificate_file.read(path)
    expected = None if number is None else \
        start_line(toy_checker, read, toy_checker.deal(number, read.variant))
    return check(read, expected, toy_checker).fault


def test_every_lost_deal_is_certified_and_checked_valid(tmp_path: Path) -> None:
    for number in lost_deals(5):
        path = tmp_path / f"{number}.cert"
        assert certify(GAME, GAME.deal(number), path, deal=number).status == "lost"
        assert checked(path, number) == ""


def test_a_won_deal_gets_no_certificate(tmp_path: Path) -> None:
    won = next(n for n in range(1, 200)
               if dfs(GAME, GAME.deal(n), Budget(max_states=100_000)).status is Status.WON)
    path = tmp_path / "won.cert"
    assert certify(GAME, GAME.deal(won), path).status == "won" and not path.exists()


def test_a_budget_that_runs_out_writes_nothing(tmp_path: Path, written: tuple[int, Path]) -> None:
    number, _ = written
    path = tmp_path / "cut.cert"
    result = certify(GAME, GAME.deal(number), path, budget=Budget(max_states=1))
    assert (result.status, result.stopped_by, path.exists()) == ("unknown", "max-states", False)


def test_the_header_names_game_variant_deal_and_reductions(written: tuple[int, Path]) -> None:
    number, path = written
    read = certificate_file.read(path)
    assert (read.game, read.variant, read.deal, sorted(read.reductions)) == \
        ("ladder", VARIANT, number, sorted(REDUCTIONS))
    assert read.start in read.positions and list(read.positions) == sorted(read.positions)


def test_a_position_removed_is_found(tmp_path: Path, written: tuple[int, Path]) -> None:
    number, path = written
    read = certificate_file.read(path)
    victim = next(line for line in read.positions if line != read.start)

    def drop(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, [l for l in lines if l != victim]
    fault = checked(rewrite_as_is(path, tmp_path / "t.cert", drop), number)
    assert "not in the set" in fault and victim in fault


def test_a_won_position_added_is_found(tmp_path: Path, written: tuple[int, Path]) -> None:
    number, path = written
    won = f"{VARIANT['ranks']}" + "|" * VARIANT["columns"]

    def add(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [won])
    assert checked(rewrite_as_is(path, tmp_path / "t.cert", add), number) == f"position {won} is won"


def test_the_start_left_out_is_found(tmp_path: Path, written: tuple[int, Path]) -> None:
    number, path = written
    read = certificate_file.read(path)

    def drop(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "positions": header["positions"] - 1}, \
            [line for line in lines if line != read.start]
    assert "is not in the set" in checked(rewrite_as_is(path, tmp_path / "t.cert", drop), number)


def test_another_deals_certificate_is_refused(tmp_path: Path) -> None:
    first, second = lost_deals(2)
    path = tmp_path / "first.cert"
    certify(GAME, GAME.deal(first), path, deal=first)
    assert checked(path, first) == ""
    assert "is not this deal's certificate" in checked(path, second)


def test_a_reduction_the_checker_does_not_accept_is_refused(tmp_path: Path,
                                                           written: tuple[int, Path]) -> None:
    number, path = written

    def name(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return {**header, "reductions": ["column-order", "trust-me"]}, lines
    fault = checked(rewrite_as_is(path, tmp_path / "t.cert", name), number)
    assert "'trust-me', which the checker does not accept" in fault


def test_a_position_not_in_canonical_form_is_refused(tmp_path: Path,
                                                     written: tuple[int, Path]) -> None:
    number, path = written

    def swap(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        home, *columns = lines[-1].split("|")
        assert columns != sorted(columns, reverse=True)
        twin = "|".join([home, *sorted(columns, reverse=True)])     # the same position, unsorted
        return {**header, "positions": header["positions"] + 1}, sorted(lines + [twin])
    fault = checked(rewrite_as_is(path, tmp_path / "t.cert", swap), number)
    assert "is not written in its canonical form" in fault


@pytest.mark.parametrize("damage, message", [
    (lambda data: data[:len(data) // 2], "not a readable certificate"),
    (lambda data: data[:20] + bytes(b ^ 0xFF for b in data[20:40]) + data[40:],
     "not a readable certificate"),
    (lambda data: lzma.compress(b'{"format": "something else"}\n'), "does not say format"),
    (lambda data: b"", "not a readable certificate"),
])
def test_a_damaged_file_is_unreadable(tmp_path: Path, written: tuple[int, Path],
                                      damage: Any, message: str) -> None:
    _, path = written
    bad = tmp_path / "bad.cert"
    bad.write_bytes(damage(path.read_bytes()))
    with pytest.raises(certificate_file.Unreadable, match=message):
        certificate_file.read(bad)


def test_a_file_cut_at_a_line_end_is_unreadable(tmp_path: Path, written: tuple[int, Path]) -> None:
    _, path = written

    def cut(header: dict[str, Any], lines: list[str]) -> tuple[dict[str, Any], list[str]]:
        return header, lines[:-1]
    with pytest.raises(certificate_file.Unreadable, match="truncated"):
        certificate_file.read(rewrite_as_is(path, tmp_path / "t.cert", cut))


def test_the_checker_imports_nothing_of_the_solver() -> None:
    """The checker is independent: its modules import the standard library and each
    other only (read from their source, imports inside functions included)."""
    import ast
    import sys

    root = Path(__file__).resolve().parent.parent / "checker"
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                top = name.partition(".")[0]
                assert top == "checker" or top in sys.stdlib_module_names or top == "__future__", \
                    f"{path.name} imports {name}"


def test_check_says_valid_or_names_the_fault_with_its_status(tmp_path: Path,
                                                            written: tuple[int, Path]) -> None:
    from test_cli import run

    _, path = written
    # the toy game is not in the registry, so the checker has no module for it
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.output.startswith("invalid: ") and "has no rules for the game 'ladder'" \
        in result.output
    damaged = tmp_path / "damaged.cert"
    damaged.write_bytes(path.read_bytes()[:40])
    result = run("check", str(damaged))
    assert result.exit_code == 2 and "not a readable certificate" in result.output
    assert run("check", str(tmp_path / "missing.cert")).exit_code == 2


def test_a_won_solution_replays_with_the_checkers_rules_and_a_bad_one_does_not() -> None:
    from checker.replay import replay

    won = next(n for n in range(1, 200)
               if dfs(GAME, GAME.deal(n), Budget(max_states=100_000)).status is Status.WON)
    steps = [GAME.notation(move) for move in dfs(GAME, GAME.deal(won)).moves]
    start = toy_checker.deal(won, VARIANT)
    assert replay(toy_checker, start, VARIANT, steps) == ""
    assert "which is not won" in replay(toy_checker, start, VARIANT, steps[:-1])
    bad = next(f"{a}{b}" for a in "123" for b in "123h" if a != b and
               f"{a}{b}" not in dict(toy_checker.moves(start, VARIANT, frozenset())))
    assert replay(toy_checker, start, VARIANT, [bad] + steps).startswith(f"move 1 ({bad}) is not legal")


def test_check_of_a_file_that_is_neither_is_one_line_status_2(tmp_path: Path) -> None:
    from test_cli import run

    junk = tmp_path / "junk.json"
    junk.write_text('{"moves": 3}')
    result = run("check", str(junk), "freecell", "--deal", "1")
    assert result.exit_code == 2 and "neither a certificate nor a solution" in result.output
    moves = tmp_path / "moves.txt"
    moves.write_text("6a 5b")
    result = run("check", str(moves))
    assert result.exit_code == 2 and "needs GAME and its deal" in result.output


def test_classify_writes_a_certificate_for_each_lost_deal_and_check_finds_it_valid(
        tmp_path: Path) -> None:
    from test_cli import run

    folder = tmp_path / "certs"
    folder.mkdir()
    out = tmp_path / "r.jsonl"
    result = run("classify", "black-hole", "1-12", "--out", str(out), "--certificates",
                 str(folder), "--quiet")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    lost = [r for r in records if r["status"] == "lost"]
    assert lost and {r["certificate"] for r in lost} == {p.name for p in folder.iterdir()}
    assert all("certificate" not in r for r in records if r["status"] != "lost")
    for record in lost:
        checked = run("check", str(folder / record["certificate"]), "black-hole", "--deal",
                      str(record["deal"]))
        assert checked.exit_code == 0 and checked.output.startswith("valid: "), checked.output


@pytest.fixture
def without_certificates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game writes certificates: Bridge Solitaire is made to write none here."""
    from games.bridge_solitaire import BridgeSolitaire

    monkeypatch.setattr(BridgeSolitaire, "certifier", property(lambda self: None))


@pytest.mark.parametrize("args, message", [
    (["black-hole", "1-3", "--certificates", "nowhere"], "no such folder"),
    (["bridge-solitaire", "1-3", "--certificates", "."], "writes no certificates of loss yet"),
    (["black-hole", "1-3", "--certificates", ".", "--analyze"], "does not go with --analyze"),
])
def test_classify_refuses_certificates_it_cannot_write(tmp_path: Path, args: list[str],
                                                       message: str,
                                                       without_certificates: None) -> None:
    from test_cli import run

    out = tmp_path / "r.jsonl"
    result = run("classify", *args, "--out", str(out))
    assert result.exit_code == 2 and message in result.output and not out.exists()


def test_solve_refuses_a_certificate_for_a_game_without_one(tmp_path: Path,
                                                            without_certificates: None) -> None:
    from test_cli import run

    result = run("solve", "bridge-solitaire", "--deal", "1", "--certificate",
                 str(tmp_path / "x.cert"))
    assert result.exit_code == 2 and "writes no certificates of loss yet" in result.output


@pytest.mark.parametrize("decks", [1, 2])
def test_the_checkers_pysolfc_deals_are_the_projects(decks: int) -> None:
    """``checker.deals`` is written apart from ``solver.cards`` (and pysol_cards, which
    the project uses above 32000): both give the same cards in the same order."""
    from checker.deals import pysol_order
    from solver.cards import card_str, pysol_deck_order

    for number in (1, 2, 617, 11982, 31999, 32000, 32001, 123456, 10 ** 9, 2 ** 40):
        assert pysol_order(number, decks) == \
            [card_str(card) for card in pysol_deck_order(number, decks)], number
    with pytest.raises(ValueError, match="numbered 1 to"):
        pysol_order(0)


def test_check_replays_a_scored_games_best_line_and_its_score(tmp_path: Path) -> None:
    """CrissCross deal 6619 is lost with the best score -1 (one tile left): its line, as
    ``solve --json`` writes it, replays to that score, and a record claiming more fails."""
    from test_cli import run

    solved = run("solve", "crisscross", "--deal", "6619", "--json")
    record = json.loads(solved.stdout)
    assert (record["status"], record["score"]) == ("lost", -1)
    line = tmp_path / "line.json"
    line.write_text(json.dumps(record))
    result = run("check", str(line), "crisscross", "--deal", "6619")
    assert result.exit_code == 0 and "ends with score -1" in result.output
    line.write_text(json.dumps({**record, "score": 0}))
    result = run("check", str(line), "crisscross", "--deal", "6619")
    assert result.exit_code == 1 and "which scores -1, not 0" in result.output
