"""Track Tiles' options as the new-game form offers them: plain words, presets."""

from __future__ import annotations

from taut.core.presentation import OptionInfo, OptionPresentation, Preset

_BOARD = "Board and turns"


def presentation() -> OptionPresentation:
    """The form's view of :class:`~taut.games.tracks.rules.Tracks`."""
    return OptionPresentation(
        options={
            "size": OptionInfo("Board size", "Cells on each side of the square board.", _BOARD),
            "first": OptionInfo(
                "Who places first",
                "NS (north-south), WE (west-east), or a coin toss.",
                _BOARD,
            ),
            "roll": OptionInfo(
                "Dice",
                "Once: each player rolls a first kind of tile, then takes the kinds in turn "
                "(1, 2, 3, 1, ...). Each: roll the kind before every placement.",
                _BOARD,
            ),
        },
        groups=(_BOARD,),
        presets=(
            Preset("Standard game", "A 6 by 6 board, one roll each.", {"size": 6, "roll": "once"}),
            Preset(
                "Quick game", "A small 4 by 4 board, for a first try.", {"size": 4, "roll": "once"}
            ),
            Preset(
                "Dice every turn",
                "A 6 by 6 board; roll the kind of tile before every placement.",
                {"size": 6, "roll": "each"},
            ),
        ),
    )
