"""Tutorials: every game has one, its script fits the rules (each move legal where the
learner acts), it ends where its last words say, and the server draws each step from the
learner's view."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from taut.core.registry import games, plugin
from taut.core.tutorial import Lesson, TutorialError, walk
from taut.server.learn.tutorials import first_game_options, tutorial_steps
from tests.test_server_kit import app_client


@pytest.mark.parametrize("name", games())
def test_every_game_has_a_tutorial_whose_script_fits_the_rules(name: str) -> None:
    found = plugin(name)
    tutorial = found.tutorial()
    assert tutorial is not None, f"{name} has no tutorial"
    stops = walk(found, tutorial)
    assert len(stops) == len(tutorial.lessons) + 1
    assert stops[-1].lesson is None
    asked = [s for s in stops if s.lesson is not None and s.lesson.move is not None]
    assert len(asked) >= 3, "a tutorial has the learner make at least three moves"
    for stop in asked:
        assert stop.lesson is not None and stop.lesson.move is not None
        view = stop.state.view(tutorial.learner)
        legal = [
            view.action_to_string(tutorial.learner, a) for a in view.legal_actions(tutorial.learner)
        ]
        assert stop.lesson.move in legal
        # The lesson is a choice: something else could be played there.
        assert len(legal) > 1
        assert stop.lesson.hint, "a move asked for comes with a hint"
    for before, stop in itertools.pairwise(stops):
        # What the previous lesson's moves did is told (narrated) before the next one.
        assert before.lesson is not None
        if before.lesson.move is not None or before.lesson.then:
            assert stop.lines, before.lesson
    assert all(lesson.text.strip() for lesson in tutorial.lessons) and tutorial.finish


def test_games_that_are_played_out_in_their_tutorial_are_won_by_the_learner() -> None:
    for name in games():
        found = plugin(name)
        tutorial = found.tutorial()
        assert tutorial is not None
        end = walk(found, tutorial)[-1].state
        if end.is_terminal():
            assert end.outcome is not None
            assert end.outcome.winners == (tutorial.learner,), name


def test_a_script_that_does_not_fit_names_the_lesson_and_the_move() -> None:
    found = plugin("push-pull")
    tutorial = found.tutorial()
    assert tutorial is not None
    changed = list(tutorial.lessons)
    changed[2] = dataclasses.replace(changed[2], move="L=sideways,M=pass,S=pass")
    with pytest.raises(TutorialError, match=r"lesson 3.*sideways"):
        walk(found, dataclasses.replace(tutorial, lessons=tuple(changed)))
    # A move where the learner does not act (Track Tiles: the other seat's turn).
    tracks = plugin("tracks").tutorial()
    assert tracks is not None
    wrong = dataclasses.replace(
        tracks, lessons=(*tracks.lessons[:1], Lesson("x", then=({0: "a1"}, {0: "a2"})))
    )
    with pytest.raises(TutorialError, match="lesson 2, scripted node 2: the script moves seats"):
        walk(plugin("tracks"), wrong)


def test_the_steps_are_drawn_from_the_learners_view() -> None:
    # Tug of War hides the other hand: the learner's steps must not show it.
    steps = tutorial_steps("tug-of-war")
    tutorial = plugin("tug-of-war").tutorial()
    assert tutorial is not None
    stops = walk(plugin("tug-of-war"), tutorial)
    full = plugin("tug-of-war").render(stops[1].state)
    mine = steps["steps"][1]["board_text"]
    assert "Hand (P1)" in full and "Hand (P1)" not in mine
    for step, stop in zip(steps["steps"], stops, strict=True):
        if stop.lesson is not None and stop.lesson.move is not None:
            assert step["move"] in [m["notation"] for m in step["moves"]]
            assert step["move_words"] != step["move"]  # said in words
            assert "data-move" in step["board"] or "data-part" in step["board"]
        else:
            assert step["moves"] == []
    assert steps["play"]["seats"] == ["me", "easy"]
    assert steps["play"]["options"] == {"players": 2}


def test_the_first_real_game_is_full_size_where_the_tutorial_was_small() -> None:
    tutorial = plugin("tracks").tutorial()
    assert tutorial is not None
    assert tutorial.options["size"] == 3
    assert first_game_options(tutorial) == {"size": 6}


def test_the_tutorial_pages_and_api(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        for name in games():
            body = client.get(f"/api/tutorials/{name}").json()
            assert body["game"] == name and len(body["steps"]) >= 4
            page = client.get(f"/learn/{name}")
            assert page.status_code == 200 and "/static/learn/learn.js" in page.text
        home = client.get("/").text
        assert all(f'href="/learn/{name}"' in home for name in games())
        missing = client.get("/api/tutorials/chess")
        assert missing.status_code == 404
        assert "no game called chess; the games are:" in missing.text
        assert client.get("/learn/chess").status_code == 404
