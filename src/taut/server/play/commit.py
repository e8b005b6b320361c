"""Commitments of simultaneous choices: what a browser sends before it may reveal its move.

A seat first sends ``SHA-256("taut-commit:v1|GAME|MOVE|SEAT|ACTION|SALT")`` (UTF-8, hex),
where ``GAME`` is the game's id, ``MOVE`` the number of moves played before this one,
``SEAT`` the seat's name, ``ACTION`` the move in the game's notation and ``SALT`` 32
lower-case hex digits (128 random bits) chosen by the client. Only when every seat that
acts has committed are the choices revealed as ``(ACTION, SALT)``; each must hash to its
commitment. The browser computes the same string with WebCrypto, and ``taut verify``
checks every commitment of a finished game's record again.
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: The prefix that names this commitment scheme and its version.
SCHEME = "taut-commit:v1"

_SALT = re.compile(r"[0-9a-f]{32}")
_HASH = re.compile(r"[0-9a-f]{64}")


def commitment(game_id: str, move: int, seat: str, action: str, salt: str) -> str:
    """The commitment (hex SHA-256) to ``action`` by ``seat`` at move ``move``."""
    text = f"{SCHEME}|{game_id}|{move}|{seat}|{action}|{salt}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_salt() -> str:
    """A fresh salt: 128 random bits as 32 hex digits."""
    return secrets.token_hex(16)


def valid_salt(salt: str) -> bool:
    """True for 32 lower-case hex digits."""
    return _SALT.fullmatch(salt) is not None


def valid_hash(value: str) -> bool:
    """True for 64 lower-case hex digits."""
    return _HASH.fullmatch(value) is not None
