"""The Track Tiles tutorial: a game on a 3x3 board in which the learner, NS, places the
three kinds of tile in turn and completes a track from top to bottom."""

from __future__ import annotations

from taut.core.tutorial import Lesson, Tutorial

TUTORIAL = Tutorial(
    title="Learn Track Tiles",
    options={"size": 3},
    seed=3,
    lessons=(
        Lesson(
            "You are NS: you want a track joining the top edge to the bottom edge. WE wants "
            "one from left to right. Every tile joins its four sides in two pairs: kind 1 "
            "joins top with left and bottom with right, kind 2 top with right and bottom "
            "with left, kind 3 goes straight across both ways."
        ),
        Lesson(
            "Your die gave you kind 3, the crossing. Place it on b1: a track can enter from "
            "the top edge and go straight down.",
            move="b1",
            then=({1: "b2"},),
            hint="Place your tile on b1, the top middle cell.",
        ),
        Lesson(
            "After each tile your kind goes up by one (3 comes back to 1), so you now hold "
            "kind 1. WE put kind 2 on b2, and tiles serve anyone: your track now runs from "
            "b1 down into b2 and turns right, toward c2. Place your kind 1 on a1, out of "
            "the way.",
            move="a1",
            then=({1: "c3"},),
            hint="Place your tile on a1, the top left cell.",
        ),
        Lesson(
            "You hold kind 2, which turns a track coming from the left downward. WE's "
            "crossing on c3 goes straight down to the bottom edge. Place your tile on c2 to "
            "join them and complete your track.",
            move="c2",
            hint="Place your tile on c2, right of the middle.",
        ),
    ),
    finish=(
        "A full board without a track is a draw. Real games are "
        "played on 6x6, and a tile you place can complete your opponent's track as well "
        "as yours."
    ),
    play={"size": 6},
)
