"""Pulling Strings' options as the new-game form offers them: plain words, groups, presets."""

from __future__ import annotations

from taut.core.presentation import OptionInfo, OptionPresentation, Preset

_EDITION = "Edition"
_RULES = "Rules of play"
_LEARN = "Learning"
_PUBLISHED = {"edition": ("published",)}


def presentation() -> OptionPresentation:
    """The form's view of :class:`~taut.games.pulling_strings.rules.PullingStrings`."""
    return OptionPresentation(
        options={
            "edition": OptionInfo(
                "Edition",
                "Classic: the 2003 board with fixed letters. Published: the boxed game, with "
                "letter tiles placed at random on the string ends.",
                _EDITION,
            ),
            "tiles": OptionInfo(
                "Tile set",
                "What the tiles show: letters with their ASL handshapes, numbers with Roman "
                "numerals, hiragana with katakana, or element symbols with names.",
                _EDITION,
                shown_when=_PUBLISHED,
            ),
            "break": OptionInfo(
                "When both pull the same end",
                "End: only that end breaks. String: the whole string breaks, both ends.",
                _RULES,
            ),
            "corner": OptionInfo(
                "A stack pulled off two edges in a corner",
                "Split it in two (an odd stack gains a disk), or keep it whole where it is.",
                _RULES,
            ),
            "repeat": OptionInfo(
                "Draw when a position repeats",
                "The game is drawn when the same position comes back this many times. "
                "Empty: never.",
                _RULES,
                advanced=True,
            ),
            "learning": OptionInfo(
                "Learn while playing",
                "Off: pull a string by its letter. Strict: to pull it, give the other face "
                "of its tile (the handshape of a letter); a wrong answer pulls nothing. "
                "Slip: a wrong answer pulls the string it names.",
                _LEARN,
                shown_when=_PUBLISHED,
            ),
            "mistakes": OptionInfo(
                "Computer's mistakes",
                "How often a computer player gives a wrong answer, from 0 (never) to 1 (always).",
                _LEARN,
                shown_when={"edition": ("published",), "learning": ("strict", "slip")},
            ),
            "max_turns": OptionInfo(
                "Turn limit",
                "The game is drawn after this many turns. Empty: no limit.",
                _RULES,
                advanced=True,
            ),
            "seed": OptionInfo(
                "Seed for the letters",
                "A number that places the tiles the same way every time. Empty: at random.",
                _EDITION,
                shown_when=_PUBLISHED,
                advanced=True,
            ),
            "letters": OptionInfo(
                "Letters on the ends",
                "The 20 board faces on ends N0..N4 E0..E4 S0..S4 W0..W4, instead of placing "
                "them at random.",
                _EDITION,
                shown_when=_PUBLISHED,
                advanced=True,
            ),
        },
        groups=(_EDITION, _LEARN, _RULES),
        presets=(
            Preset(
                "Classic 2003 rules",
                "The original board with fixed letters: pull strings to bring disks home.",
                {"edition": "classic"},
            ),
            Preset(
                "Published edition",
                "The boxed game: letter tiles placed at random, chosen by their letter.",
                {"edition": "published", "tiles": "asl", "learning": "off"},
            ),
            Preset(
                "Learn ASL while playing",
                "Published board; to pull a string, sign the handshape of its letter.",
                {"edition": "published", "tiles": "asl", "learning": "strict"},
            ),
        ),
    )
