"""Give an expired session's memory back: a full collection and a heap trim shortly after.

An expired Flet session is a reference cycle (page <-> session <-> controls <-> handlers), so
reference counting never frees it, and CPython's oldest generation is collected rarely: 50 sockets
that registered with 256 KiB routes and left stayed in the server's RSS after their sessions
expired (+17 MiB per wave of 50, until some later collection), and glibc keeps freed heap pages
unless asked (`malloc_trim`). Measured with benchmarks/memory.py: with this, RSS is back within a
few MiB of the warmed-up server once every session has expired, wave after wave.

Sessions expire in batches (Flet evicts every 10 s), so one collection is run per batch, a second
after the first close, and one more ten seconds later; a full collection of this server's heap takes a few tens of milliseconds
on the event loop, at most once per eviction pass and only when some session expired.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

#: seconds from the first close of a batch to the collection
RECLAIM_DELAY = 1.0
#: seconds to a second collection: some of an expired session is still held for a while after
#: it closed (a storage call or an event worker giving up on its own time); measured: one pass
#: left +18 to +20 MiB of two waves of 50 large registrations, two passes +6 MiB
FOLLOW_UP_DELAY = 10.0

_pending: asyncio.TimerHandle | None = None
_libc: Any = None


def reclaim_soon() -> None:
    """Collect and trim a moment from now (once for every close until then)."""
    global _pending
    if _pending is None:
        _pending = asyncio.get_running_loop().call_later(RECLAIM_DELAY, reclaim, True)


def reclaim_pending() -> bool:
    """A collection is scheduled and has not run yet (/healthz says so)."""
    return _pending is not None


def reclaim(follow_up: bool = False) -> None:
    global _pending
    _pending = None
    if follow_up:
        _pending = asyncio.get_running_loop().call_later(FOLLOW_UP_DELAY, reclaim)
    started = time.perf_counter()
    found = gc.collect()
    trimmed = malloc_trim()
    log.info("reclaimed %d objects in %.0f ms (heap trimmed: %s)", found, (time.perf_counter() - started) * 1000, trimmed)


def malloc_trim() -> bool:
    """Return glibc's free heap pages to the system; False where there is no glibc."""
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        except OSError:
            _libc = False
    trim = getattr(_libc, "malloc_trim", None) if _libc else None
    if trim is None:
        return False
    return bool(trim(0))
