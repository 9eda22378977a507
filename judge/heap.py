"""How much freed memory the process keeps for its next allocations (glibc's malloc).

By default glibc gives each block of 128 KB or more its own fresh pages from the kernel and
hands freed memory at the top of the heap back as soon as 128 KB of it is free; a long-running
judge that draws pictures (each reader's picture a text of 100 to 300 KB, a phase's some 2 MB)
then pays the kernel for every page of every picture again, phase after phase: a fifth of the
drawing of a world game's phases (docs/PERFORMANCE.md). `keep_freed_memory` raises both limits
once, at a long-running process's start (`judge serve`), so those pages stay with the process:
it keeps at most TRIM_AT of freed memory it could have returned.
"""

from __future__ import annotations

import ctypes

# mallopt's parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

# Blocks below this come from the heap, not pages of their own; freed memory at its top is
# given back once more than TRIM_AT is free.
OWN_PAGES_FROM = 4 << 20
TRIM_AT = 32 << 20


def keep_freed_memory() -> bool:
    """Raise glibc's limits as above; False where the C library has no mallopt (not glibc)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, OWN_PAGES_FROM)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_AT)
    )
