"""Push-Pull's options as the new-game form offers them: plain words, groups, presets."""

from __future__ import annotations

from taut.core.presentation import OptionInfo, OptionPresentation, Preset

_GAME = "Game"
_FOUR = ("four", "four-teams", "two-teams")


def presentation() -> OptionPresentation:
    """The form's view of :class:`~taut.games.push_pull.rules.PushPull`."""
    return OptionPresentation(
        options={
            "variant": OptionInfo(
                "Variant",
                "Duel: two players on a strip of five squares. Four: four players on a 5 by "
                "5 board. Four-teams: two teams of adjacent sides. Two-teams: two players "
                "with two sides each.",
                _GAME,
            ),
            "shifts": OptionInfo(
                "Sideways shifts",
                "Players may also shift a piece left or right (free-for-all).",
                _GAME,
                shown_when={"variant": _FOUR},
            ),
            "teams": OptionInfo(
                "Teams",
                "Which adjacent sides play together. Empty: north-east against south-west.",
                _GAME,
                shown_when={"variant": ("four-teams", "two-teams")},
            ),
            "max_turns": OptionInfo(
                "Turn limit",
                "The game is drawn after this many turns. Empty: no limit.",
                _GAME,
                advanced=True,
            ),
        },
        groups=(_GAME,),
        presets=(
            Preset("Duel", "Two players on a strip of five squares.", {"variant": "duel"}),
            Preset(
                "Four players",
                "Everyone for themselves on a 5 by 5 board.",
                {"variant": "four", "shifts": False},
            ),
            Preset(
                "Two teams",
                "Two teams of two adjacent sides each.",
                {"variant": "four-teams", "shifts": False},
            ),
        ),
    )
