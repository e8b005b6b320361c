"""Tutorials in the browser: ``/learn/{game}`` walks a learner through a game's scripted
short game (:mod:`taut.core.tutorial`) on the real board, and ``/api/tutorials/{game}``
gives the page every step at once.

Each step is drawn from the learner's view, as a game's frames are: the board (with every
legal move clickable, so that a wrong click can be explained), the moves in words, and the
move the lesson asks for. The steps are computed once per game and kept: a tutorial is
the same for everybody.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.errors import UnknownGameError
from taut.core.forfeit import drawable
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin
from taut.core.tutorial import Tutorial, walk
from taut.server.answers import refusals
from taut.server.play.frames import boards

#: Options only a tutorial needs, never passed on to the first real game.
SCRIPT_ONLY = ("seed", "letters")


def _found(name: str) -> tuple[GamePlugin, Tutorial]:
    try:
        found = plugin(name)
    except UnknownGameError:
        known = ", ".join(games())
        raise HTTPException(
            status_code=404, detail=f"no game called {name}; the games are: {known}"
        ) from None
    tutorial = found.tutorial()
    if tutorial is None:
        raise HTTPException(status_code=404, detail=f"{found.title} has no tutorial yet")
    return found, tutorial


def first_game_options(tutorial: Tutorial) -> dict[str, Any]:
    """The options of the real game offered at the end of ``tutorial``."""
    if tutorial.play is not None:
        return dict(tutorial.play)
    return {k: v for k, v in tutorial.options.items() if k not in SCRIPT_ONLY}


@cache
def tutorial_steps(name: str) -> dict[str, Any]:
    """What the tutorial page shows for game ``name``, every step drawn from the learner's
    view (raises ``HTTPException`` 404 for an unknown game or one without a tutorial)."""
    found, tutorial = _found(name)
    seat = tutorial.learner
    steps = []
    for stop in walk(found, tutorial):
        view = stop.state.view(seat)
        acting = seat in view.acting_seats() and not view.is_terminal()
        legal = [view.action_to_string(seat, a) for a in view.legal_actions(seat)] if acting else []
        lesson = stop.lesson
        move = None if lesson is None else lesson.move
        board = drawable(view)
        steps.append(
            {
                "text": tutorial.finish if lesson is None else lesson.text,
                "hint": "" if lesson is None else lesson.hint,
                "move": move,
                "move_words": None if move is None else found.describe_move(view, seat, move),
                "moves": [
                    {"notation": m, "words": found.describe_move(view, seat, m)}
                    for m in (legal if move is not None else [])
                ],
                # The board, and a phone's where the game lays it out apart.
                **boards(found, board, seat, legal if move is not None else []),
                "board_text": found.render(board),
                "status": found.status(board),
                "lines": list(stop.lines),
                "result": None if view.outcome is None else view.describe_outcome(),
            }
        )
    return {
        "game": found.name,
        "title": tutorial.title,
        "seat": found.seat_title(found.game_class(**dict(tutorial.options)), seat),
        "steps": steps,
        "play": {
            "game": found.name,
            "options": (options := first_game_options(tutorial)),
            # The learner, and the easy level in every other seat.
            "seats": ["me"] + ["easy"] * (found.game_class(**options).info.num_seats - 1),
        },
    }


def add_tutorials(app: FastAPI, templates: Jinja2Templates) -> None:
    """The tutorial page ``/learn/{name}`` and its JSON ``/api/tutorials/{name}``."""

    @app.get(
        "/learn/{name}",
        response_class=HTMLResponse,
        responses=refusals({404: "no such game, or no tutorial for it"}),
    )
    async def learn(request: Request, name: str) -> HTMLResponse:
        found, tutorial = _found(name)
        context = {
            "version": __version__,
            "catalogue": [plugin(n) for n in games()],
            "game": found,
            "tutorial": tutorial,
        }
        return templates.TemplateResponse(request, "learn.html", context)

    @app.get("/api/tutorials/{name}")
    async def steps(name: str) -> dict[str, Any]:
        return tutorial_steps(name)
