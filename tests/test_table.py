"""The transposition table: digests, first-visit semantics, the memory budget."""
from __future__ import annotations

from solver.table import Table, default_memory, machine_memory


def test_a_key_is_new_once():
    table = Table(memory=1 << 30)
    d = table.digest(b"some state")
    assert table.add(d) is True
    assert table.add(d) is False
    assert len(table) == 1


def test_digests_are_128_bit_and_distinguish_keys():
    table = Table(memory=1 << 30)
    digests = {table.digest(bytes([i, j])) for i in range(256) for j in range(256)}
    assert len(digests) == 65536
    assert max(digests) >= 1 << 100


def test_running_over_the_memory_budget_marks_the_table_full():
    table = Table(memory=1)                  # one byte: any growth is over budget
    ballast = []
    for i in range(100000):
        ballast.append(bytes(200))
        table.add(table.digest(i.to_bytes(4, "little")), ballast[-1])
    assert table.full


def test_default_memory_is_a_share_of_the_machine():
    assert 0 < default_memory(jobs=2) < default_memory() < machine_memory()
