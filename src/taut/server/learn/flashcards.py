"""Flash cards and word practice in the browser: the tile sets as JSON, the scheduling
API, and the pages.

The server keeps no flash-card state. The browser keeps the progress (the JSON of
:class:`taut.learn.flashcards.Progress`) in its local storage and sends a set's deck with
each question; the server answers with :mod:`taut.learn.flashcards`, the scheduler the
terminal uses too:

* ``POST /api/flashcards/progress`` ``{"progress"}``: the progress checked, a version 1
  document (Leitner boxes) converted to version 2;
* ``POST /api/flashcards/next`` ``{"set", "deck", "directions", "avoid", "new_seen",
  "seed", "now"}``: the card to ask, why, its choices and the summary (``avoid``: the
  cards asked only when nothing else is left; ``new_seen``: the new cards this sitting
  introduced so far, of :data:`~taut.learn.flashcards.NEW_PER_SITTING`);
* ``POST /api/flashcards/review`` ``{"set", "deck", "card", "given", "now"}``: the deck
  after the answer (FSRS: right is Good, wrong is Again), when the card comes back, and
  the summary.

``now`` (ISO 8601 with a zone) is optional: the server's clock by default. Bad input is
refused with status 400 (or 422 for a body of the wrong shape) and one sentence naming
what is wrong. Word practice (``/words``) serves the sets that carry words
(:attr:`TileSet.words`). The sets come from the plugins
(:func:`taut.learn.registry.tile_sets`); nothing here names one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import ConfigDict, Field, StringConstraints

from taut import __version__
from taut.core.registry import plugins
from taut.learn import flashcards as fc
from taut.learn.registry import tile_sets
from taut.learn.tileset import Face, TileSet
from taut.server.answers import Form, refusals


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


def sign_urls(ts: TileSet) -> dict[str, str] | None:
    """Where the browser loads the recogniser and its model that read ``ts``'s other faces
    from a camera (``/game-files/GAME/FILE`` of the game that brings the set), or None."""
    if len(ts.sign_files) != 2:
        return None
    for p in plugins():
        if any(own.name == ts.name for own in p.tile_sets()):
            files = p.static_files()
            if all(f in files for f in ts.sign_files):
                base = f"/game-files/{p.game_class.name}/"
                return {"recogniser": base + ts.sign_files[0], "model": base + ts.sign_files[1]}
    return None


def word_sets() -> list[TileSet]:
    """The tile sets that carry words and show pictures to spell them with."""
    return [ts for ts in tile_sets().values() if ts.words and ts.picker == "describe"]


# Bounds on the request's text, for a clear 422 instead of reading a megabyte of it; what
# the text must say is checked where it is read (a 400 naming what is allowed).
#: A tile set's name.
SetName = Annotated[str, StringConstraints(max_length=80)]
#: A direction a card is asked in (``fc.ALL_DIRECTIONS``).
Direction = Annotated[
    str,
    StringConstraints(max_length=40),
    Field(json_schema_extra={"enum": list(fc.ALL_DIRECTIONS)}),
]
#: A date and time with a zone, ISO 8601.
Moment = Annotated[
    str, StringConstraints(max_length=64), Field(json_schema_extra={"format": "date-time"})
]


class CardKey(Form):
    """A card of the deck: a tile (numbered from 0) asked one way."""

    model_config = ConfigDict(extra="forbid")
    tile: int = Field(ge=0)
    direction: Direction


class DeckDocument(Form):
    """A deck as :func:`taut.learn.flashcards.deck_json` writes it: its cards' memories and
    the confusions seen (each entry is checked when read; a wrong one is a 400 naming it)."""

    model_config = ConfigDict(extra="forbid")
    cards: list[dict[str, Any]] = Field(max_length=10_000)
    confusions: list[dict[str, Any]] = Field(max_length=10_000)


class ProgressDocument(Form):
    """A whole progress document: its version and a deck per tile set (each checked when
    read; a version 1 document is converted)."""

    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=1, json_schema_extra={"enum": [1, fc.VERSION]})
    sets: dict[str, Any]


class NextRequest(Form):
    """What ``/api/flashcards/next`` takes."""

    model_config = ConfigDict(extra="forbid")
    set: SetName
    deck: DeckDocument
    directions: list[Direction] = Field(
        default_factory=lambda: list(fc.DIRECTIONS),
        min_length=1,
        max_length=len(fc.ALL_DIRECTIONS),
    )
    avoid: list[CardKey] = Field(default_factory=list, max_length=1000)
    new_seen: int = Field(default=0, ge=0, le=10_000)
    seed: str = Field(default="0", max_length=100)
    now: Moment | None = None


class ReviewRequest(Form):
    """What ``/api/flashcards/review`` takes (``given`` null: an answer naming no tile)."""

    model_config = ConfigDict(extra="forbid")
    set: SetName
    deck: DeckDocument
    card: CardKey
    given: int | None = Field(ge=0)
    now: Moment | None = None


class ProgressRequest(Form):
    """What ``/api/flashcards/progress`` takes: a whole progress document."""

    model_config = ConfigDict(extra="forbid")
    progress: ProgressDocument
    now: Moment | None = None


def summary_json(summary: fc.Summary, tiles: TileSet) -> dict[str, Any]:
    """A deck's summary as JSON: the counts, and the sentences the page shows."""
    return {
        "due": summary.due,
        "learning": summary.learning,
        "known": summary.known,
        "unseen": summary.unseen,
        "right": summary.right,
        "wrong": summary.wrong,
        "counts": summary.counts_line(),
        "accuracy": summary.accuracy_line(),
        "practise": summary.practise_lines(tiles),
    }


def summary_directions(deck: fc.Deck) -> tuple[str, ...]:
    """The summary covers both typed directions, and signing once a card was signed."""
    signed = any(d == fc.BOARD_TO_SIGN for _, d in deck.cards)
    return (*fc.DIRECTIONS, fc.BOARD_TO_SIGN) if signed else fc.DIRECTIONS


def _bad(message: str) -> HTTPException:
    return HTTPException(status_code=400, detail=message)


def _now(given: str | None) -> datetime:
    if given is None:
        return fc.now_utc()
    try:
        return fc.parse_time(given, "now")
    except fc.ProgressError as exc:
        raise _bad(str(exc)) from None


def _deck(raw: dict[str, Any], tiles: TileSet) -> fc.Deck:
    try:
        deck = fc.parse_deck(raw, "deck")
        fc.fit(deck, tiles)
    except fc.ProgressError as exc:
        raise _bad(str(exc)) from None
    return deck


def _card(key: CardKey, tiles: TileSet) -> fc.Card:
    if key.direction not in fc.ALL_DIRECTIONS:
        raise _bad(
            f"card.direction: {key.direction!r} is not a direction ({', '.join(fc.ALL_DIRECTIONS)})"
        )
    if key.tile >= len(tiles):
        raise _bad(f"card.tile: {key.tile} is not a tile of {tiles.name!r} (0..{len(tiles) - 1})")
    return fc.Card(tiles.name, key.tile, key.direction)


def add_flashcards(app: FastAPI, templates: Jinja2Templates) -> None:
    """The flash-card routes: ``/flashcards``, ``/flashcards/{name}``, the gallery of a set's
    tiles ``/tiles/{name}`` and the JSON API.

    Long by nature: each route is a few lines, registered here over the same objects."""

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

    def set_or_400(name: str) -> TileSet:
        found = tile_sets().get(name)
        if found is None:
            raise _bad(f"set: no tile set called {name!r}; the sets are: {', '.join(tile_sets())}")
        return found

    @app.post(
        "/api/flashcards/progress",
        responses=refusals({400: "the progress document or the time is refused"}),
    )
    async def check_progress(body: ProgressRequest) -> dict[str, Any]:
        try:
            progress = fc.Progress.from_json(body.progress.model_dump(), _now(body.now))
        except fc.ProgressError as exc:
            raise _bad(str(exc)) from None
        return {"progress": progress.to_json(), "converted": progress.converted}

    @app.post(
        "/api/flashcards/next",
        responses=refusals({400: "the set, the deck, a card, a direction or the time is refused"}),
    )
    async def next_card(body: NextRequest) -> dict[str, Any]:
        tiles = set_or_400(body.set)
        deck = _deck(body.deck.model_dump(), tiles)
        now = _now(body.now)
        avoid = [_card(k, tiles).key for k in body.avoid]
        try:
            pick = fc.next_card(
                deck,
                tiles,
                body.directions,
                now=now,
                seed=body.seed,
                new_left=max(0, fc.NEW_PER_SITTING - body.new_seen),
                avoid=avoid,
            )
            summary = fc.summarize(deck, tiles, summary_directions(deck), now=now)
        except fc.ProgressError as exc:
            raise _bad(f"directions: {exc}") from None
        state = deck.cards.get(pick.card.key)
        return {
            "card": {"tile": pick.card.tile, "direction": pick.card.direction},
            "reason": pick.reason,
            "due": None if state is None else state.due.isoformat(),
            "choices": fc.choices(deck, tiles, pick.card, body.seed),
            "summary": summary_json(summary, tiles),
        }

    @app.post(
        "/api/flashcards/review",
        responses=refusals({400: "the set, the deck, the card, the answer or the time is refused"}),
    )
    async def review(body: ReviewRequest) -> dict[str, Any]:
        tiles = set_or_400(body.set)
        deck = _deck(body.deck.model_dump(), tiles)
        card = _card(body.card, tiles)
        if body.given is not None and body.given >= len(tiles):
            raise _bad(f"given: {body.given} is not a tile of {tiles.name!r} (0..{len(tiles) - 1})")
        now = _now(body.now)
        deck = fc.record(deck, card, body.given, now)
        state = deck.cards[card.key]
        summary = fc.summarize(deck, tiles, summary_directions(deck), now=now)
        return {
            "deck": fc.deck_json(deck),
            "right": body.given == card.tile,
            "state": state.memory.state,
            "due": state.due.isoformat(),
            "again": fc.until(state.due, now),
            "summary": summary_json(summary, tiles),
        }

    @app.get("/api/words/{name}", responses=refusals({404: "no such tile set, or none with words"}))
    async def words(name: str) -> dict[str, Any]:
        found = found_or_404(name)
        if found not in word_sets():
            raise HTTPException(status_code=404, detail=f"tile set {name} has no words to spell")
        return {"set": tileset_json(found), "words": list(found.words)}

    @app.get("/words", response_class=HTMLResponse)
    async def words_list(request: Request) -> HTMLResponse:
        return page(request, "words.html", word_sets=word_sets())

    @app.get(
        "/words/{name}",
        response_class=HTMLResponse,
        responses=refusals({404: "no tile set with words of that name"}, html=(404,)),
    )
    async def words_page(request: Request, name: str) -> HTMLResponse:
        found = next((ts for ts in word_sets() if ts.name == name), None)
        if found is None:
            return page(request, "words.html", status=404, word_sets=word_sets(), missing=name)
        return page(request, "words_play.html", ts=found, signing=sign_urls(found))

    @app.get("/api/tilesets")
    async def list_sets() -> list[dict[str, Any]]:
        return [tileset_entry(ts) for ts in tile_sets().values()]

    @app.get("/api/tilesets/{name}", responses=refusals({404: "no such tile set"}))
    async def one_set(name: str) -> dict[str, Any]:
        return tileset_json(found_or_404(name))

    @app.get("/flashcards", response_class=HTMLResponse)
    async def sets_page(request: Request) -> HTMLResponse:
        return page(request, "flashcards.html")

    @app.get(
        "/tiles/{name}",
        response_class=HTMLResponse,
        responses=refusals({404: "no such tile set"}, html=(404,)),
    )
    async def gallery_page(request: Request, name: str) -> HTMLResponse:
        found = tile_sets().get(name)
        if found is None:
            return page(request, "flashcards.html", status=404, missing=name)
        return page(request, "tiles.html", ts=found)

    @app.get(
        "/calibrate",
        response_class=HTMLResponse,
        responses=refusals({404: "no tile set is read from a camera here"}, html=(404,)),
    )
    async def calibrate_page(request: Request) -> HTMLResponse:
        """Teaching the camera a learner's hand (the first set read from a camera)."""
        for ts in tile_sets().values():
            signing = sign_urls(ts)
            if signing is not None:
                tiles = [
                    {"letter": t.board.text, "svg": t.other.svg, "description": t.other.description}
                    for t in ts.tiles
                    if t.other.svg
                ]
                return page(
                    request, "calibrate.html", ts=ts, signing=signing, tiles=tiles, per_letter=3
                )
        raise HTTPException(status_code=404, detail="no tile set here is read from a camera")

    @app.get(
        "/flashcards/{name}",
        response_class=HTMLResponse,
        responses=refusals({404: "no such tile set"}, html=(404,)),
    )
    async def set_page(request: Request, name: str) -> HTMLResponse:
        found = tile_sets().get(name)
        if found is None:
            return page(request, "flashcards.html", status=404, missing=name)
        return page(request, "flashcards_play.html", ts=found, signing=sign_urls(found))
