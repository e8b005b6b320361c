"""The Push-Pull tutorial: a short duel in which the learner, West, meets the arrow rule's
cases one at a time and scores two pieces."""

from __future__ import annotations

from taut.core.tutorial import Lesson, Tutorial

TUTORIAL = Tutorial(
    title="Learn Push-Pull",
    options={"variant": "duel"},
    lessons=(
        Lesson(
            "You are West. Three pieces, Large, Medium and Small, start on the middle "
            "square of a strip of five. A piece pushed or pulled off your end of the strip "
            "is yours; the first player with two pieces wins."
        ),
        Lesson(
            "Each turn both players choose, for every piece, pull (toward themselves), push "
            "(away) or pass, in secret; then both choices show. A single arrow moves a piece "
            "one square. Pull L and pass the others; East passes everything.",
            move="L=pull,M=pass,S=pass",
            others={1: "L=pass,M=pass,S=pass"},
            hint="Choose pull for L and pass for M and S.",
        ),
        Lesson(
            "L moved one square toward you. Opposite arrows cancel, but two arrows the same "
            "way move a piece two squares the other way. Push M (an arrow pointing east) "
            "while East pulls M (also pointing east).",
            move="L=pass,M=push,S=pass",
            others={1: "L=pass,M=pull,S=pass"},
            hint="Choose push for M and pass for L and S.",
        ),
        Lesson(
            "Two arrows east sent M two squares west, to the last square on your side. Pull "
            "M now: it leaves the strip on your side and scores for you.",
            move="L=pass,M=pull,S=pass",
            others={1: "L=pull,M=pass,S=push"},
            hint="Choose pull for M.",
        ),
        Lesson(
            "One piece scored. East pushed S toward you. When a pull meets an opponent's "
            "push, both arrows point the same way, so the piece jumps two squares away from "
            "you: East will push L while you pull it. Pull S as well.",
            move="L=pull,S=pull",
            others={1: "L=push,S=pass"},
            hint="Choose pull for L and for S.",
        ),
        Lesson(
            "L jumped to East's end, S came to your last square. East will pull L off its "
            "side, but pull S and you score your second piece in the same turn.",
            move="L=pass,S=pull",
            others={1: "L=pull,S=pass"},
            hint="Choose pull for S and pass for L.",
        ),
    ),
    finish=(
        "Two pieces to one. In a real game your opponent's arrows are hidden "
        "until both have chosen: guess what they will do, and keep them guessing."
    ),
)
