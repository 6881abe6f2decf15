"""``classify --dask``: a real scheduler and two workers, one killed midway; the
records equal a local run's; the mistakes told in one line.

The scheduler and workers are started as separate processes from the environment's
``dask`` command on 127.0.0.1 at free ports, each in its own process group, and a
fixture's finalizer kills them whatever the test does. The tests skip only when
``distributed`` is not importable.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import default_signals, records_by_deal, run_main

pytest.importorskip("distributed", reason="the cluster tests need Dask's distributed "
                                          "(pip install -e '.[cluster]')")

DASK = Path(sys.executable).with_name("dask")
SOURCE = "1-20"                 # Black Hole deals: about 1.5 CPU seconds in all


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(args: list[str], folder: Path, name: str) -> subprocess.Popen[bytes]:
    """Start `dask scheduler ...` or `dask worker ...` (the venv's command; its module
    where the command is not installed beside Python)."""
    command = [str(DASK)] if DASK.exists() else \
        [sys.executable, "-m", f"distributed.cli.dask_{args[0]}"]
    log = (folder / f"{name}.log").open("wb")
    return subprocess.Popen([*command, *(args if DASK.exists() else args[1:])], stdout=log,
                            stderr=subprocess.STDOUT, cwd=folder, start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(10)


def workers_of(address: str) -> int:
    from distributed import Client

    with Client(address, timeout=10) as client:
        return len(client.scheduler_info(n_workers=-1)["workers"])


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two single-threaded workers without nannies (a killed worker
    stays dead); all killed at the end."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(start(["scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--no-dashboard"], tmp_path, "scheduler"))
        workers = []
        for index in range(2):
            worker = start(["worker", address, "--nthreads", "1", "--no-nanny",
                            "--no-dashboard", "--host", "127.0.0.1",
                            "--local-directory", str(tmp_path / f"w{index}")],
                           tmp_path, f"worker{index}")
            started.append(worker)
            workers.append(worker)
        deadline = time.monotonic() + 60
        while True:
            try:
                if workers_of(address) == 2:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the cluster did not start"
            time.sleep(0.3)
        yield address, workers
    finally:
        for process in started:
            stop(process)


def records(path: Path) -> dict[Any, dict[str, Any]]:
    """``records_by_deal``, without the memory budget (shared among a run's workers)."""
    found = records_by_deal(path)
    for item in found.values():
        item["budget"].pop("memory")
    return found


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> dict[Any, dict[str, Any]]:
    """The records of a local run of SOURCE, with the command's default settings."""
    from games import find_game
    from solver.app import batch
    from solver.app.cli import DEFAULT_SECONDS
    from solver.search import Budget

    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    list(batch.classify(find_game("black-hole", {}), batch.read_source(SOURCE), out,
                        budget=Budget(seconds=DEFAULT_SECONDS)))
    return records(out)


@pytest.mark.slow
def test_a_worker_killed_midway_loses_no_deal_and_repeats_none(
        cluster: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path,
        local: dict[Any, dict[str, Any]]) -> None:
    address, workers = cluster
    out = tmp_path / "r.jsonl"
    driver = subprocess.Popen(
        [sys.executable, "-m", "solver", "classify", "black-hole", SOURCE, "--dask", address,
         "--out", str(out), "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() or len(out.read_bytes().splitlines()) < 5:
            assert driver.poll() is None, driver.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert driver.poll() is None                    # midway: the run goes on
        os.kill(workers[0].pid, signal.SIGKILL)
        printed, err = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    assert driver.returncode == 0, err
    assert workers[0].wait(10) == -signal.SIGKILL
    got = records(out)
    assert sorted(got) == list(range(1, 21))
    assert got == local
    assert b"20 deals:" in printed


def test_a_local_cluster_writes_what_a_local_run_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        local: dict[Any, dict[str, Any]]) -> None:
    out = tmp_path / "r.jsonl"
    code, printed, err = run_main(["classify", "black-hole", SOURCE, "--dask", "local:2",
                                   "--out", str(out), "-q"], capsys)
    assert code == 0, err
    won = sum(record["status"] == "won" for record in local.values())
    assert records(out) == local and f"20 deals: {won} won, {20 - won} lost" in printed


def test_blind_play_on_a_local_cluster_writes_what_a_local_run_writes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_blind_cli import TWIN

    def args(out: Path, *more: str) -> list[str]:
        return ["play", "klondike", "1-4", *TWIN, "--blind", "--samples", "6", "-o", str(out),
                "-q", *more]

    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    assert run_main(args(here), capsys)[0] == 0
    code, printed, err = run_main(args(there, "--dask", "local:2"), capsys)
    assert code == 0, err
    assert records_by_deal(there) == records_by_deal(here) and "blind:" in printed


def one_error(code: int, err: str) -> bool:
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1


def test_an_unreachable_scheduler_is_one_line_naming_it_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"            # nothing listens there
    out = tmp_path / "r.jsonl"
    code, _, err = run_main(["classify", "black-hole", "1-5", "--dask", address,
                             "--out", str(out)], capsys)
    assert one_error(code, err) and address in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, said", [
    (["--dask", "local:2", "--jobs", "2"], "--jobs"),
    (["--dask", "local:2", "--jobs", "1"], "--jobs"),
    (["--dask", "local:0"], "local:N"),
    (["--dask", "local:two"], "local:N"),
])
def test_dask_mistakes_are_one_line(args: list[str], said: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    code, _, err = run_main(["classify", "black-hole", "1-5", "--out", str(out)] + args,
                            capsys)
    assert one_error(code, err) and said in err and not out.exists()


def test_without_distributed_dask_says_how_to_install_it(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    script = ("import sys; sys.modules['distributed'] = None\n"
              "from solver.app.cli import main\n"
              f"main(['classify', 'black-hole', '1-5', '--dask', 'local:1', '--out', {str(out)!r}])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "pip install 'solitaire-solver[cluster]'" in done.stderr and not out.exists()


@pytest.mark.slow
def test_ctrl_c_on_the_driver_writes_whole_records_only_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    driver = subprocess.Popen(
        [sys.executable, "-m", "solver", "classify", "black-hole", "1-1000", "--dask",
         "local:1", "--out", str(out), "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=default_signals)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() or len(out.read_bytes().splitlines()) < 5:
            assert driver.poll() is None, driver.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(driver.pid, signal.SIGINT)          # as a terminal's Ctrl-C: the group
        _, err = driver.communicate(timeout=60)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    assert driver.returncode == 130
    assert err.decode().startswith("interrupted: results so far are in")
    assert b"Traceback" not in err
    data = out.read_bytes()
    assert data.endswith(b"\n")
    done = records(out)                               # whole records, each deal once
    assert 5 <= len(done) < 1000
