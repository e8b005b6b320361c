"""The new-game form's presentation of options (:mod:`taut.core.presentation`): every game's
metadata agrees with its option specs, every preset builds a game, and a game without
metadata is offered as declared."""

from __future__ import annotations

import pytest

from taut.core.options import OptionSpec
from taut.core.presentation import (
    DEFAULT_GROUP,
    OptionInfo,
    OptionPresentation,
    Preset,
    presentation_problems,
)
from taut.core.registry import games, plugin
from taut.server.play.catalogue import game_entry
from taut.server.tournaments.form import tournament_entry
from tests.toygame.plugin import plugin as rope


@pytest.mark.parametrize("name", games())
def test_the_presentation_agrees_with_the_specs(name: str) -> None:
    found = plugin(name)
    specs = found.game_class.OPTIONS
    shown = found.option_presentation(found.game_class)
    assert presentation_problems(specs, shown) == []
    # Every option of a game with metadata is named in plain words, with a sentence on it.
    assert set(shown.options) == {spec.name for spec in specs}
    for spec in specs:
        info = shown.info(spec)
        assert info.label and info.help and info.group in shown.groups
    assert shown.presets, f"{name} offers no preset"


@pytest.mark.parametrize("name", games())
def test_every_preset_builds_its_game(name: str) -> None:
    found = plugin(name)
    shown = found.option_presentation(found.game_class)
    for preset in shown.presets:
        game = found.game_class(**dict(preset.values))
        for option, value in preset.values.items():
            assert game.options[option] == value, (preset.name, option)


def test_the_first_preset_is_the_default_game() -> None:
    # The form starts with the defaults: a preset matching them is marked, none is forced.
    for name in games():
        found = plugin(name)
        first = found.option_presentation(found.game_class).presets[0]
        defaults = {spec.name: spec.default for spec in found.game_class.OPTIONS}
        assert all(defaults[k] == v for k, v in first.values.items()), name


def test_learning_options_show_only_with_the_published_edition() -> None:
    found = plugin("pulling-strings")
    shown = found.option_presentation(found.game_class)
    for option in ("learning", "tiles", "mistakes", "seed", "letters"):
        assert shown.options[option].shown_when["edition"] == ("published",)
    assert {n for n, i in shown.options.items() if i.advanced} >= {"seed", "letters", "max_turns"}
    names = [p.name for p in shown.presets]
    assert names == ["Classic 2003 rules", "Published edition", "Learn ASL while playing"]


def test_the_check_finds_what_disagrees() -> None:
    specs = (
        OptionSpec("mode", str, "a", "the mode", choices=("a", "b")),
        OptionSpec("count", int, 1, "how many", minimum=1),
    )
    bad = OptionPresentation(
        options={
            "ghost": OptionInfo("Ghost"),
            "count": OptionInfo("Count", shown_when={"mode": ("c",), "nothing": ("x",)}),
            "mode": OptionInfo("Mode", group="Elsewhere"),
        },
        groups=(DEFAULT_GROUP,),
        presets=(Preset("Zero", "none at all", {"count": 0, "colour": "red"}),),
    )
    problems = "\n".join(presentation_problems(specs, bad))
    for part in ("'ghost'", "mode='c'", "'nothing'", "count=0", "'colour'", "'Elsewhere'"):
        assert part in problems
    good = OptionPresentation(
        options={"count": OptionInfo("Count", shown_when={"mode": ("b",)})},
        presets=(Preset("Two", "two of them", {"mode": "b", "count": 2}),),
    )
    assert presentation_problems(specs, good) == []


def test_a_game_without_metadata_is_offered_as_declared() -> None:
    entry = game_entry(rope)
    assert entry["presets"] == []
    assert entry["groups"] == [DEFAULT_GROUP]
    by_name = {o["name"]: o for o in entry["options"]}
    assert by_name["goal"]["label"] == "goal"
    assert by_name["max_turns"]["label"] == "max turns"
    assert by_name["goal"]["help"] == rope.game_class.OPTIONS[0].doc
    assert not any(o["advanced"] or o["shown_when"] for o in entry["options"])


def test_the_catalogue_entry_carries_the_presentation() -> None:
    entry = game_entry(plugin("tug-of-war"))
    by_name = {o["name"]: o for o in entry["options"]}
    assert by_name["target"]["shown_when"] == {"end": ["target"]}
    assert by_name["rounds"]["shown_when"] == {"end": ["rounds", "round-points"]}
    assert by_name["target"]["label"] == "Target score"
    assert entry["presets"][0]["name"] == "True Tug of War"


def test_the_tournament_form_offers_two_seat_games_and_presets() -> None:
    """A game for any number of players is asked for two; presets of more seats are left out."""
    tug = tournament_entry(plugin("tug-of-war"))
    assert tug is not None
    assert {o["name"]: o["default"] for o in tug["options"]}["players"] == 2
    push = tournament_entry(plugin("push-pull"))
    assert push is not None
    assert [p["name"] for p in push["presets"]] == ["Duel"]
    assert len(game_entry(plugin("push-pull"))["presets"]) > 1
    tracks = tournament_entry(plugin("tracks"))
    assert tracks is not None and tracks["presets"] == game_entry(plugin("tracks"))["presets"]
