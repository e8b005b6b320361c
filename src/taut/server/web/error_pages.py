"""Refusals shown to people: a page with the site's navigation instead of JSON.

A browser that asks for a page the server cannot give (``/g/xyz``, ``/new/chess``,
``/nonexistent``) gets an HTML page with the status code kept: what was not found, and
where to go instead (the lobby, the games there are, the tutorials there are). Every other
client gets the JSON refusal as before (``{"detail": SENTENCE}``): the answer is a page only
when the request accepts ``text/html`` (a browser's navigation does; ``fetch`` and API
clients send ``*/*`` or ``application/json``), and never under ``/api/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import Scope

from taut import __version__
from taut.core.registry import games, plugin

#: The media types that ask for a page.
PAGE_TYPES = ("text/html", "application/xhtml+xml")


def wants_page(request: Request) -> bool:
    """Whether a refusal of ``request`` is answered with a page: never under ``/api/``,
    else when the request accepts HTML (with a nonzero ``q``)."""
    path = request.url.path
    if path == "/api" or path.startswith("/api/"):
        return False
    for part in request.headers.get("accept", "").split(","):
        media, *params = (p.strip() for p in part.split(";"))
        if media.lower() not in PAGE_TYPES:
            continue
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False


@dataclass
class Explanation:
    """What a refusal page says: a heading (also the tab's title), sentences, and links,
    each ``(href, text)``; ``listed`` are the things there are instead (the games, the
    tutorials), introduced by ``listed_intro``."""

    heading: str
    sentences: list[str]
    links: list[tuple[str, str]] = field(default_factory=list)
    listed_intro: str = ""
    listed: list[tuple[str, str]] = field(default_factory=list)


#: Where a person who got lost goes next.
LOBBY = ("/lobby", "Find an open game in the lobby")
HOME = ("/", "See every game")
TOURNAMENTS = ("/tournaments", "See the tournaments")


def _games_listed(kind: str) -> list[tuple[str, str]]:
    return [(f"/{kind}/{name}", plugin(name).title) for name in games()]


def _tutorials_listed() -> list[tuple[str, str]]:
    return [(f"/learn/{name}", plugin(name).title) for name in games() if plugin(name).tutorial()]


def _no_game(name: str, kind: str) -> Explanation:
    """No game called ``name``: the games there are, each linked to its page of ``kind``."""
    listed = _tutorials_listed() if kind == "learn" else _games_listed(kind)
    return Explanation(
        heading=f"No game called \u201c{name}\u201d",
        sentences=[f"This server has no game called \u201c{name}\u201d."],
        links=[HOME],
        listed_intro=(
            "These games have a tutorial:" if kind == "learn" else "These are the games there are:"
        ),
        listed=listed,
    )


def not_found(path: str) -> Explanation:
    """What a 404 page says for ``path``, read from the page it names."""
    parts = [p for p in path.split("/") if p]
    kind, name = (parts[0], parts[1]) if len(parts) == 2 else ("", "")
    if kind in ("g", "replay"):
        return Explanation(
            heading=f"No game \u201c{name}\u201d",
            sentences=[
                f"No game on this server has the id \u201c{name}\u201d. Check the link, or ask "
                "whoever sent it for it again; or find another game to play."
            ],
            links=[LOBBY, HOME],
        )
    if kind in ("new", "rules", "leaderboard", "learn") and name not in games():
        return _no_game(name, kind)
    if kind == "learn":
        found = plugin(name)
        return Explanation(
            heading=f"No tutorial for {found.title} yet",
            sentences=[
                f"{found.title} has no tutorial yet: read its rules and play a game, or learn "
                "another game by playing."
            ],
            links=[(f"/rules/{name}", f"The rules of {found.title}"), HOME],
            listed_intro="These games have a tutorial:",
            listed=_tutorials_listed(),
        )
    if kind == "t":
        return Explanation(
            heading=f"No tournament \u201c{name}\u201d",
            sentences=[f"No tournament on this server has the id \u201c{name}\u201d."],
            links=[TOURNAMENTS, HOME],
        )
    if kind == "players":
        return Explanation(
            heading=f"No player called \u201c{name}\u201d",
            sentences=[f"No player on this server is called \u201c{name}\u201d."],
            links=[LOBBY, HOME],
        )
    return Explanation(
        heading="No such page",
        sentences=[f"This server has no page at {path}. Check the address, or go on from here."],
        links=[HOME, LOBBY, TOURNAMENTS],
    )


#: Headings of refusals said better than by the status's own phrase.
HEADINGS = {
    400: "The request is refused",
    405: "This address is not opened that way",
    422: "Something in the address is not right",
}


def explain(path: str, status: int, detail: str) -> Explanation:
    """What a refusal page says for ``path``: the page named for a 404, else the status and
    the server's own sentence (``detail``)."""
    if status == 404:
        return not_found(path)
    if status >= 500:
        return Explanation(
            heading="Something went wrong on the server",
            sentences=["Try again in a moment; if it happens again, the server's log says why."],
            links=[HOME, LOBBY],
        )
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    said = detail.strip().rstrip(".")
    # Starlette's own refusals say only the status's phrase, which the heading says better.
    sentences = [f"{said[:1].upper()}{said[1:]}."] if said and said != phrase else []
    return Explanation(
        heading=HEADINGS.get(status) or phrase or "The request is refused",
        sentences=[*sentences, "Check the address, or go on from here."],
        links=[HOME, LOBBY],
    )


class ErrorPages:
    """Renders refusal pages with the site's templates."""

    def __init__(self, templates: Jinja2Templates) -> None:
        self.templates = templates

    def page(
        self,
        request: Request,
        status: int,
        shown: Explanation,
        headers: Mapping[str, str] | None = None,
    ) -> HTMLResponse:
        """``shown`` as a page answered with ``status``."""
        context: dict[str, Any] = {
            "version": __version__,
            "catalogue": [plugin(n) for n in games()],
            "status": status,
            "shown": shown,
        }
        return self.templates.TemplateResponse(
            request, "error.html", context, status_code=status, headers=headers
        )

    def refusal(self, request: Request, status: int, detail: str) -> HTMLResponse:
        """The page of a refusal with ``status`` and the server's sentence ``detail``."""
        return self.page(request, status, explain(request.url.path, status, detail))


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route of ``app`` answers at the request's path."""
    allowed: set[str] = set()
    for route in app.router.routes:
        methods = getattr(route, "methods", None)
        if methods and route.matches(scope)[0] is not Match.NONE:
            allowed.update(methods)
    return sorted(allowed)


def add_error_pages(app: FastAPI, templates: Jinja2Templates) -> ErrorPages:
    """Answer refused page requests from browsers with pages (the JSON refusal otherwise);
    the renderer, for the application's other handlers."""
    pages = ErrorPages(templates)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 405:
            # Starlette names the methods of the first route on the path; the others on
            # the same path are allowed too (GET and POST /api/games are two routes).
            allowed = ", ".join(allowed_methods(app, request.scope))
            exc = StarletteHTTPException(405, exc.detail, headers={"Allow": allowed})
        if not wants_page(request):
            return await http_exception_handler(request, exc)
        detail = exc.detail if isinstance(exc.detail, str) else ""
        shown = explain(request.url.path, exc.status_code, detail)
        return pages.page(request, exc.status_code, shown, headers=exc.headers)

    return pages


def declare_pages(app: FastAPI) -> None:
    """Declare in the schema that a page's refusals may also come as HTML (to a request
    that accepts it). Called once every route is added."""
    html = {"text/html": {"schema": {"type": "string"}}}
    for route in app.routes:
        if not isinstance(route, APIRoute) or route.response_class is not HTMLResponse:
            continue
        declared: dict[int | str, dict[str, Any]] = {}
        for code, answer in route.responses.items():
            content = answer.get("content", {})
            if str(code).isdigit() and int(code) >= 400 and "text/html" not in content:
                answer = {**answer, "content": {**content, **html}}
            declared[code] = answer
        route.responses = declared
