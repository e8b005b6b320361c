"""Arrays worth keeping between runs: tables that take seconds to build, kept on disk.

A game may tabulate something expensive once (an evaluation built by value iteration).
:func:`cached_array` keeps such a table in the user's cache folder (``$TAUT_CACHE``, else
``$XDG_CACHE_HOME/taut``, else ``~/.cache/taut``) under a name that includes a digest of
the source files it was computed by, so that a change of the code never reads a stale
table. A file that cannot be read is rebuilt; a folder that cannot be written only costs
the time to build again. ``TAUT_CACHE=off`` turns the disk cache off.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def cache_dir() -> Path | None:
    """The folder cached tables go to (None when ``TAUT_CACHE=off``)."""
    given = os.environ.get("TAUT_CACHE")
    if given == "off":
        return None
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "taut"


def source_digest(paths: Sequence[str | Path]) -> str:
    """A short digest of the contents of ``paths`` (the code a table depends on)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(Path(path).read_bytes())
    return h.hexdigest()[:16]


def cached_array(
    name: str, depends_on: Sequence[str | Path], build: Callable[[], npt.NDArray[np.float64]]
) -> npt.NDArray[np.float64]:
    """The array ``build()`` returns, read from the cache when an earlier run stored it.

    ``name`` tells tables apart (their parameters); ``depends_on`` lists the source files
    whose contents decide the table.
    """
    import numpy as np

    folder = cache_dir()
    if folder is None:
        return build()
    path = folder / f"{name}-{source_digest(depends_on)}.npy"
    try:
        loaded: npt.NDArray[np.float64] = np.load(path, allow_pickle=False)
        return loaded
    except (OSError, ValueError):
        pass
    table = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                np.save(out, table, allow_pickle=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only cache only costs building the table again next time
    return table
