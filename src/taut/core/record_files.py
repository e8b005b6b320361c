"""Records as files: JSON read strictly, files of several records, and records written
whole (a crash or a full disk never leaves half a file)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from taut.core.errors import RecordError
from taut.core.files import WriteError, write_whole
from taut.core.terms import JSON


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def parse_json(text: str | bytes, what: str) -> JSON:
    """Parse JSON strictly (no ``NaN`` or ``Infinity``, no key twice in an object); any
    failure is a RecordError naming ``what`` (deep nesting, huge numbers and undecodable
    bytes included)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except UnicodeDecodeError as exc:
        raise RecordError(f"{what} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError(f"{what} is nested too deeply to read") from None
    except ValueError as exc:  # huge integers, NaN / Infinity
        raise RecordError(f"{what}: {exc}") from None


def read_records(source: str | Path) -> list[JSON]:
    """The records in a file: one JSON object, a JSON list of them, or JSON lines.

    Raises :class:`RecordError` naming the file (and the line) on anything unreadable; a
    file with no record is an error too.
    """
    path = Path(source)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise RecordError(f"{path} holds no record")
    records: list[JSON]
    if len(lines) > 1 and lines[0].lstrip().startswith("{") and lines[0].rstrip().endswith("}"):
        records = [parse_json(ln, f"{path} line {i}") for i, ln in enumerate(lines, start=1)]
    else:
        whole = parse_json(text, str(path))
        records = list(whole) if isinstance(whole, list) else [whole]
    if not records:
        raise RecordError(f"{path} holds no record")
    for i, rec in enumerate(records, start=1):
        if not isinstance(rec, dict):
            raise RecordError(f"{path}: record {i} is not a JSON object")
    return records


def check_writable(path: str | Path) -> Path:
    """``path`` if a file can be written there now; else a RecordError saying why.

    Checked before a game starts, so that nothing is played for a record that cannot be
    saved. Only a regular file is ever replaced (never a device, a directory or a link).
    """
    path = Path(path)
    if str(path) == "":
        raise RecordError("the file name is empty")
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise RecordError(f"{path} exists and is not a regular file; choose another name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise RecordError(f"cannot write {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise RecordError(f"cannot write {path}: the directory {parent} is not writable")
    return path


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a crash never leaves half a file), replacing
    only a regular file; raises RecordError and leaves no temporary file on failure."""
    target = check_writable(path)
    try:
        write_whole(target, text)
    except WriteError as exc:
        raise RecordError(str(exc)) from None
