"""Flash cards in the browser: the tile sets as JSON, the page that lists them, and the
page that plays one.

The server keeps no flash-card state: a set is served as JSON (``/api/tilesets/NAME``)
and ``static/flashcards.js`` schedules the cards with Leitner boxes in the browser
(``static/leitner.js``, the rule of :mod:`taut.core.flashcards`), keeping the progress in
the browser's local storage. The sets come from the plugins
(:func:`taut.core.registry.tile_sets`); nothing here names one.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.registry import tile_sets
from taut.core.tileset import Face, TileSet


def tileset_entry(ts: TileSet) -> dict[str, Any]:
    """A set for the list: its names, its two kinds of face, how answers are given."""
    return {
        "name": ts.name,
        "title": ts.title,
        "summary": ts.summary,
        "board_kind": ts.board_kind,
        "other_kind": ts.other_kind,
        "picker": ts.picker,
        "size": len(ts),
    }


def face_json(face: Face) -> dict[str, Any]:
    """A face as JSON (``svg`` is null for a text face)."""
    return {
        "text": face.text,
        "name": face.name,
        "description": face.description,
        "svg": face.svg,
        "aliases": list(face.aliases),
    }


def tileset_json(ts: TileSet) -> dict[str, Any]:
    """A whole set: the entry and every tile, in order (cards name tiles by position)."""
    return {
        **tileset_entry(ts),
        "tiles": [{"board": face_json(t.board), "other": face_json(t.other)} for t in ts.tiles],
    }


def add_flashcards(app: FastAPI, templates: Jinja2Templates) -> None:
    """The flash-card routes: ``/flashcards``, ``/flashcards/{name}``, the gallery of a set's
    tiles ``/tiles/{name}`` and the JSON API."""

    def page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.update(version=__version__, sets=list(tile_sets().values()))
        return templates.TemplateResponse(request, name, context, status_code=status)

    def found_or_404(name: str) -> TileSet:
        found = tile_sets().get(name)
        if found is None:
            known = ", ".join(tile_sets()) or "none"
            raise HTTPException(
                status_code=404, detail=f"no tile set called {name}; the sets are: {known}"
            )
        return found

    @app.get("/api/tilesets")
    async def list_sets() -> list[dict[str, Any]]:
        return [tileset_entry(ts) for ts in tile_sets().values()]

    @app.get("/api/tilesets/{name}")
    async def one_set(name: str) -> dict[str, Any]:
        return tileset_json(found_or_404(name))

    @app.get("/flashcards", response_class=HTMLResponse)
    async def sets_page(request: Request) -> HTMLResponse:
        return page(request, "flashcards.html")

    @app.get("/tiles/{name}", response_class=HTMLResponse)
    async def gallery_page(request: Request, name: str) -> HTMLResponse:
        found = tile_sets().get(name)
        if found is None:
            return page(request, "flashcards.html", status=404, missing=name)
        return page(request, "tiles.html", ts=found)

    @app.get("/flashcards/{name}", response_class=HTMLResponse)
    async def set_page(request: Request, name: str) -> HTMLResponse:
        found = tile_sets().get(name)
        if found is None:
            return page(request, "flashcards.html", status=404, missing=name)
        return page(request, "flashcards_play.html", ts=found)
