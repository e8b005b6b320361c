"""The write-ahead log's checkpoints, on a thread of their own.

In WAL mode SQLite appends every commit to the log and, by default, the commit that takes
the log past a thousand pages copies the log back into the database file and syncs it to
disk: a checkpoint. The server commits moves on the event loop's thread, so such a commit
would stop every game for as long as the copy and the sync take; under load these pauses
were the slowest commands (p99 about 1.6 times higher with them). The connection that
writes moves therefore never checkpoints, and a :class:`Checkpointer` does it every
second on its own connection and thread (a passive checkpoint: it waits for no reader or
writer, and SQLite releases the interpreter's lock while it copies and syncs).
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger("taut.server")

#: Seconds between two checkpoints.
EVERY = 1.0


class Checkpointer:
    """Checkpoints the SQLite file ``path`` every ``every`` seconds until stopped."""

    def __init__(self, path: str, every: float = EVERY) -> None:
        self.path, self.every = path, every
        self.done = 0
        """Checkpoints run so far."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="taut-checkpoints", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        file = sqlite3.connect(self.path, timeout=30)
        try:
            while not self._stop.wait(self.every):
                self.checkpoint(file)
            self.checkpoint(file)  # the last moves, before the server stops
        finally:
            file.close()

    def checkpoint(self, file: sqlite3.Connection) -> None:
        """One passive checkpoint (logged, not raised, when the file refuses it)."""
        try:
            file.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.done += 1
        except sqlite3.Error as exc:  # a full disk, a locked file: the next one tries again
            log.warning("cannot checkpoint %s: %s", self.path, exc)

    def stop(self) -> None:
        """Run a last checkpoint and stop."""
        self._stop.set()
        self._thread.join()
