"""Tug of War: dominoes where playing on your own train scores and on another's takes away."""

from taut.games.tug_of_war.position import position
from taut.games.tug_of_war.render import render
from taut.games.tug_of_war.rules import TugOfWar
from taut.games.tug_of_war.state import Bonus, TugState
from taut.games.tug_of_war.tiles import DominoSet, domino_set

__all__ = [
    "Bonus",
    "DominoSet",
    "TugOfWar",
    "TugState",
    "domino_set",
    "position",
    "render",
]
