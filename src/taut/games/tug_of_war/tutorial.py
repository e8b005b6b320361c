"""The Tug of War tutorial: the first turns of a two-player round, in which the learner,
P0, scores on an opponent's train, on their own, and with a double."""

from __future__ import annotations

from taut.core.tutorial import Lesson, Tutorial

TUTORIAL = Tutorial(
    title="Learn Tug of War",
    options={"players": 2},
    seed=2,
    lessons=(
        Lesson(
            "You are P0. Each player has a train that starts with one tile, and a hand of "
            "seven. On your turn you lay a tile from your hand on an open end of any train, "
            "matching numbers; the tile's other half becomes that end's number."
        ),
        Lesson(
            "A tile on another player's train costs them the sum of that train's two open "
            "ends after your play. Play 0-6 on end 0 of P1's train: its ends become 6 and "
            "2, and P1 loses 8.",
            move="0-6@1.0",
            then=({1: "2-5@1.1"},),
            hint="Play the 0-6 on the end of P1's train that shows 0.",
        ),
        Lesson(
            "P1 answered on its own train: a tile on your own train scores you the sum of "
            "its two open ends. Play 0-3 on end 0 of your train: its ends become 0 and 3, "
            "and you score 3.",
            move="3-0@0.0",
            then=({1: "5-5@1.1"},),
            hint="Play the 0-3 on the end of your own train that shows 3.",
        ),
        Lesson(
            "P1 laid a double, 5-5: a double fits an end showing its number and leaves the "
            "same number open. Lay your 0-0 on your train's 0 end: still 0 and 3, 3 more "
            "points, and one tile fewer in your hand.",
            move="0-0@0.0",
            hint="Play the 0-0 on your own train's end that shows 0.",
        ),
        Lesson(
            "If nothing in your hand fits, you draw from the boneyard, and play the drawn "
            "tile if it fits. The round ends when someone lays their last tile: the pips "
            "left in the other hands are theirs to add to their own score or take from an "
            "opponent's. The first to reach the target score wins."
        ),
    ),
    finish=(
        "That is the whole game: build your own train high, pull your opponents' down, and "
        "empty your hand first."
    ),
)
