"""Files written whole or not at all.

Every file taut writes for a person (records, plots, puzzles, progress, reports) goes
through :func:`write_whole` or :class:`WholeFile`: the bytes go to a temporary file beside
the target, are flushed to the disk, and only then replace the target. A full disk
(``ENOSPC``), a file-size limit (``EFBIG``, ``ulimit -f``) or a read-only file system
therefore never leaves a truncated file behind under the target's name: the previous file,
if any, is intact, the temporary file is removed, and :class:`WriteError` says what
happened.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO

from taut.core.errors import TautError


class WriteError(TautError, OSError):
    """A file could not be written whole; the target was left as it was."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _permissions(handle: int, target: Path) -> None:
    """Give the temporary file the mode the target has, or a new file would get (mkstemp
    makes it private)."""
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        mode = 0o666 & ~_umask()
    os.fchmod(handle, mode)


class WholeFile:
    """A text file written in pieces (JSON lines as games end) that appears under its name
    only when :meth:`commit` succeeds; :meth:`discard` (or leaving a ``with`` block on an
    error) removes what was written, and the target keeps its previous content."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        folder = self.path.parent if str(self.path.parent) else Path(".")
        try:
            handle, name = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=folder)
        except OSError as exc:
            raise WriteError(f"cannot write {self.path}: {_reason(exc)}") from None
        self._temporary = Path(name)
        with contextlib.suppress(OSError):
            _permissions(handle, self.path)
        self._out: IO[str] | None = os.fdopen(handle, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        """Append ``text`` (flushed, so a failure shows at once, not at the end)."""
        if self._out is None:
            raise WriteError(f"{self.path} is already closed")
        try:
            self._out.write(text)
            self._out.flush()
        except OSError as exc:
            self.discard()
            raise WriteError(f"cannot write {self.path}: {_reason(exc)}") from None

    def commit(self) -> None:
        """Put the file in place under its name (synced to the disk first)."""
        if self._out is None:
            raise WriteError(f"{self.path} is already closed")
        try:
            self._out.flush()
            os.fsync(self._out.fileno())
            self._out.close()
            self._out = None
            os.replace(self._temporary, self.path)
        except OSError as exc:
            self.discard()
            raise WriteError(f"cannot write {self.path}: {_reason(exc)}") from None

    def discard(self) -> None:
        """Remove what was written; the target keeps its previous content."""
        if self._out is not None:
            with contextlib.suppress(OSError):
                self._out.close()
            self._out = None
        with contextlib.suppress(OSError):
            self._temporary.unlink()

    def __enter__(self) -> WholeFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_whole(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` whole or not at all (see the module's docstring)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    except OSError as exc:
        raise WriteError(f"cannot write {target}: {_reason(exc)}") from None
    try:
        _permissions(handle, target)
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.replace(name, target)
    except BaseException as exc:  # Ctrl-C included: no half-written file is left
        with contextlib.suppress(OSError):
            os.unlink(name)
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {target}: {_reason(exc)}") from None
        raise
