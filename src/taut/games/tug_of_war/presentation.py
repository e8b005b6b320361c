"""Tug of War's options as the new-game form offers them: plain words, groups, presets."""

from __future__ import annotations

from taut.core.presentation import OptionInfo, OptionPresentation, Preset

_TABLE = "Players and tiles"
_END = "How the game ends"


def presentation() -> OptionPresentation:
    """The form's view of :class:`~taut.games.tug_of_war.rules.TugOfWar`."""
    return OptionPresentation(
        options={
            "players": OptionInfo("Players", "How many play, from 2 to 8.", _TABLE),
            "set": OptionInfo(
                "Domino set",
                "Double-six, double-nine or double-twelve. Empty: the size that suits the "
                "number of players (6 for 2-3, 9 for 4-6, 12 for 7-8).",
                _TABLE,
                advanced=True,
            ),
            "hand": OptionInfo(
                "Tiles in each hand",
                "Empty: seven, fewer only when the set is too small (a house rule).",
                _TABLE,
                advanced=True,
            ),
            "end": OptionInfo(
                "The game ends",
                "Target: at the end of a round, reaching the target score wins and falling "
                "to minus the target puts a player out. Rounds: after a number of rounds, "
                "the highest total wins. Round points: each round's best scorer gets a point.",
                _END,
            ),
            "target": OptionInfo(
                "Target score",
                "Reach this score to win; fall to minus this score and you are out.",
                _END,
                shown_when={"end": ("target",)},
            ),
            "out": OptionInfo(
                "When a player is out",
                "Continue: play on (a long game). Stop: the highest score wins at once.",
                _END,
                shown_when={"end": ("target",)},
            ),
            "rounds": OptionInfo(
                "Rounds to play",
                "How many rounds the game lasts.",
                _END,
                shown_when={"end": ("rounds", "round-points")},
            ),
            "round-score": OptionInfo(
                "Round point goes to",
                "Gain: the best score gained in the round. Total: the best total after it.",
                _END,
                shown_when={"end": ("round-points",)},
            ),
            "tiebreak": OptionInfo(
                "A tie for the win",
                "Extra rounds among the tied players only, or among everyone.",
                _END,
                advanced=True,
            ),
        },
        groups=(_TABLE, _END),
        presets=(
            Preset(
                "True Tug of War",
                "Play rounds until someone reaches +50; at -50 a player is out.",
                {"end": "target", "target": 50, "out": "continue"},
            ),
            Preset(
                "Short game",
                "First to +30, and the game stops as soon as someone is out.",
                {"end": "target", "target": 30, "out": "stop"},
            ),
            Preset(
                "Ten rounds",
                "A fixed ten rounds; the highest total wins.",
                {"end": "rounds", "rounds": 10},
            ),
        ),
    )
