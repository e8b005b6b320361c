"""Typed errors. Every validation failure says what was wrong and what is allowed."""

from __future__ import annotations


class TautError(Exception):
    """Base class of every error the package raises on purpose."""


class InvalidOptionError(TautError, ValueError):
    """A game option is unknown or has a value outside its allowed set."""


class UnknownGameError(TautError, ValueError):
    """No game is registered under the requested name."""


class ActionError(TautError, ValueError):
    """Base class of errors about actions."""


class MalformedActionError(ActionError):
    """An action could not be parsed: the text or JSON names no action of this game."""


class IllegalActionError(ActionError):
    """An action is well formed but not allowed in the current state."""


class GameOverError(IllegalActionError):
    """An action was applied to a finished game."""


class PositionError(TautError, ValueError):
    """A position (diagram, JSON start position) is malformed or impossible."""


class RecordError(TautError, ValueError):
    """A game record is malformed or does not replay."""
