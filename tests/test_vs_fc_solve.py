"""benchmarks/vs_fc_solve.py: how it reads Freecell Solver's range output, and that it
prints our figures alone where Freecell Solver is missing (no solver is run for real)."""
from __future__ import annotations

from types import ModuleType

import pytest

from conftest import benchmark_script



@pytest.fixture()
def bench() -> ModuleType:
    return benchmark_script("vs_fc_solve")


RANGE_OUTPUT = """Started at 100.0
Reached Board No. 1 at 100.1 (total_num_iters=10)
Unsolved Board No. 2
Reached Board No. 2 at 100.4 (total_num_iters=30)
Reached Board No. 3 at 100.5 (total_num_iters=31)
"""


def test_range_mode_takes_the_process_cpu_and_spreads_it_by_timestamps(
        bench: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "run_child", lambda command, board=None: (RANGE_OUTPUT, 2.5))
    per_deal, total = bench.fc_solve_range(1, 3, "tfts")
    assert total == 2.5
    assert [per_deal[n][0] for n in (1, 2, 3)] == ["won", "lost", "won"]
    # wall intervals 0.1, 0.3, 0.1 of 0.5 in all, scaled to the 2.5 CPU seconds
    assert [round(per_deal[n][1], 9) for n in (1, 2, 3)] == [0.5, 1.5, 0.5]


def test_without_freecell_solver_only_our_figures_are_printed(
        bench: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.main(["1-2"]) == 0
    out = capsys.readouterr().out
    assert "| ours (portfolio) | 2 | 2 | 0 | 0 |" in out
    assert "fc-solve not installed" in out
    assert "| fc-solve" not in out
