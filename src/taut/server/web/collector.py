"""The garbage collector's settings for a serving process.

A server under load allocates and frees many small containers a command (frames, events,
the ASGI messages). CPython frees almost all of them by reference counting, but its cyclic
collector still runs every 700 net allocations and, now and then, walks the whole heap:
measured at 1,000 clients, about a tenth of the server's CPU time went to collections that
found little. A serving process therefore collects young objects less often and leaves the
objects made while starting (modules, the application, the game catalogue) out of every
collection, as long-running Python services commonly do.
"""

from __future__ import annotations

import gc

#: Net allocations between two collections of the youngest generation (CPython: 700).
YOUNG = 50_000
#: Young collections between two of the middle generation (CPython: 10).
MIDDLE = 20
#: Middle collections between two full ones (CPython: 10; CPython also waits until the
#: objects that would be examined have grown by a quarter).
FULL = 100


def tune_for_serving() -> None:
    """Collect less often, and freeze what exists now (called once the application is
    built, before it serves): frozen objects are never examined again."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
