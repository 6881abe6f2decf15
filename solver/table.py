"""Transposition table: canonical keys hashed to 128-bit xxh3 digests, memory-bounded.

A digest stands for a state. Two different keys sharing a digest would hide a state;
at 128 bits the chance over a billion states is about 1e-21, which is why the same
table may back a ``lost`` proof (README, "Verdicts"). Each entry may carry a
link to the state it was reached from, so strategies rebuild a solution from the table
instead of keeping node objects.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable

import xxhash

# Typed here: the build compiles this module where xxhash is not installed (its type unknown).
_digest: Callable[[bytes], int] = xxhash.xxh3_128_intdigest
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_CHECK_EVERY = 1 << 12
_DIGEST_BYTES = 48                   # a 128-bit int object as the allocator stores it


def resident_bytes() -> int:
    """Return this process's resident memory in bytes (0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):      # no /proc: the peak is what can be read
        return peak_resident_bytes()


def peak_resident_bytes() -> int:
    """Return the most resident memory this process has held so far, in bytes (0 where
    the system does not say)."""
    try:
        import resource
    except ImportError:                  # not on this system (Windows)
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024    # bytes there, KiB elsewhere


def machine_memory() -> int:
    """Return the machine's physical memory in bytes."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def default_memory(jobs: int = 1) -> int:
    """Return a safe memory budget for one search: 40% of the machine shared by `jobs`."""
    return int(machine_memory() * 0.4) // max(1, jobs)


class Table:
    """Seen states, digest -> link (whatever the strategy stores), within a memory budget.

    The budget counts growth of the process's resident memory since the table was made,
    but never less than the table's own size, checked every few thousand new entries;
    ``full`` turns true once it is exceeded.
    """

    def __init__(self, memory: int) -> None:
        self.memory = memory
        self.entries: dict[int, Any] = {}
        self._baseline = resident_bytes()
        self._next_check = _CHECK_EVERY
        self.full = False
        self.peak = 0

    def __len__(self) -> int:
        return len(self.entries)

    def digest(self, key: bytes) -> int:
        """Return the 128-bit digest standing for `key`."""
        return _digest(key)

    def add(self, digest: int, link: Any = None) -> bool:
        """Store `digest` with `link` unless present; return whether it was new."""
        entries = self.entries
        if digest in entries:
            return False
        entries[digest] = link
        if len(entries) >= self._next_check:
            self._next_check += _CHECK_EVERY
            self._check_memory()
        return True

    def _check_memory(self) -> None:
        # Resident growth misses memory the process had freed before and now reuses, so
        # the table's own size (its hash array and a 48-byte digest per entry) is a floor.
        own = sys.getsizeof(self.entries) + _DIGEST_BYTES * len(self.entries)
        used = max(resident_bytes() - self._baseline, own)
        self.peak = max(self.peak, used)
        if used > self.memory:
            self.full = True
