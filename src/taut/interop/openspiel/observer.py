"""The Python observer OpenSpiel asks for observations: the shared encoding of one view.

The tensor is :func:`taut.interop.encoding.observe` (one named piece per encoding field in
``observer.dict``) and the string :func:`taut.interop.encoding.observation_string`, both
built from ``state.view(seat)`` only. A public observer (``private_info=NONE``) sees what a
spectator sees (``state.view(None)``); where a game hides something it has a string only.
Perfect-recall observers (information states) are offered for perfect-information games,
as the history of actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from taut.core.game import Game
from taut.interop import encoding

if TYPE_CHECKING:  # annotations only: taut.interop.openspiel.game imports this module
    from taut.interop.openspiel.game import TautState


class TautObserver:
    """The Python observer OpenSpiel asks for observations (``set_from``, ``string_from``).

    ``tensor`` is :func:`taut.interop.encoding.observe` of the state for the player (None
    where this kind of observation has no tensor), and ``dict`` holds one named view of it
    per encoding field.
    """

    def __init__(self, game: Game, iig_obs_type: Any) -> None:
        self.game = game
        self.mode = _mode(game, iig_obs_type)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if self.mode == "seat":
            (size,) = encoding.observation_shape(game)
            self.tensor = np.zeros(size, np.float32)
            for field in encoding.observation_fields(game):
                self.dict[field.name] = self.tensor[field.offset : field.stop]

    def set_from(self, state: TautState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        if self.tensor is not None:
            self.tensor[:] = encoding.observe(self.game, state.taut_state, player)

    def string_from(self, state: TautState, player: int) -> str:
        """``player``'s observation of ``state`` as text."""
        taut_state = state.taut_state
        if self.mode == "seat":
            return encoding.observation_string(self.game, taut_state, player)
        if self.mode == "public":
            return str(taut_state.view(None))
        if self.mode == "full":
            return str(taut_state)
        if self.mode == "history":
            return str(state.history_str())
        return ""


def _mode(game: Game, iig_obs_type: Any) -> str:
    """What an observer of ``iig_obs_type`` shows: ``seat`` (the seat's view), ``public``
    (a spectator's), ``full`` (the whole state), ``history`` (the actions) or ``nothing``."""
    perfect = game.info.perfect_information
    private = iig_obs_type.private_info
    kinds = pyspiel.PrivateInfoType
    if iig_obs_type.perfect_recall:
        if not perfect:
            raise ValueError(
                f"{game.info.title} offers no perfect-recall information states (only observations)"
            )
        return "history"
    if perfect:
        # Nothing is private: everything a seat sees is public.
        return "seat" if iig_obs_type.public_info else "nothing"
    if private == kinds.NONE:
        return "public" if iig_obs_type.public_info else "nothing"
    if not iig_obs_type.public_info:
        raise ValueError(
            f"{game.info.title} has no private-only observations; ask for the public "
            "information too"
        )
    return "seat" if private == kinds.SINGLE_PLAYER else "full"


__all__ = ["TautObserver"]
