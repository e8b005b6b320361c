"""The Pulling Strings tutorial: one short classic game in which the learner, X, sees a
stack slide, split and meet a broken end, and then brings six disks home."""

from __future__ import annotations

from taut.core.tutorial import Lesson, Tutorial

TUTORIAL = Tutorial(
    title="Learn Pulling Strings",
    options={"edition": "classic"},
    lessons=(
        Lesson(
            "You are X. Five disks sit in one stack in the middle of a grid of strings, and "
            "the letters around the edge are the strings' ends. Your four home crossings are "
            "marked X, your opponent's O. Bring at least five disks home, more than O has, "
            "to win."
        ),
        Lesson(
            "Each turn both players pick one end at the same time, in secret. Every stack on "
            "a pulled string slides one step toward the pulled end. Pull c, the top of the "
            "middle column: the stack will slide up.",
            move="c",
            others={1: "a"},
            hint="Pull c, the end at the top of the middle column.",
        ),
        Lesson(
            "O pulled a, a string with no disks on it, so only your pull moved anything. "
            "Now a stack pulled along both its row and its column splits: an odd stack "
            "first gains a disk, then half goes each way. Pull g, the right end of the "
            "stack's row; O will pull o, the bottom of its column.",
            move="g",
            others={1: "o"},
            hint="Pull g, the right end of the row the stack is on.",
        ),
        Lesson(
            "Five became six, and three went each way. When both players pull the same end, "
            "the stacks on that string still slide, but that end breaks and can never be "
            "pulled again. Pull h; O pulls h too.",
            move="h",
            others={1: "h"},
            hint="Pull h, the right end of the lower stack's row.",
        ),
        Lesson(
            "The end h is gone from the board. The upper stack of three is one step from "
            "your home on the right of its row: pull g to slide it in.",
            move="g",
            others={1: "y"},
            hint="Pull g: the stack of three moves right, onto your home.",
        ),
        Lesson(
            "Three disks are home. The other three are two steps above your home at the "
            "bottom of their column: pull n, that column's bottom end.",
            move="n",
            others={1: "a"},
            hint="Pull n, the bottom end of the column the stack of three is on.",
        ),
        Lesson(
            "One more pull of n brings them home: six disks on your homes, none on O's.",
            move="n",
            others={1: "b"},
            hint="Pull n again.",
        ),
    ),
    finish=(
        "Six disks home, none on O's. In a real game your opponent pulls to stop you, and "
        "a pull that helps you may help them too: watch both players' homes before you "
        "choose."
    ),
)
