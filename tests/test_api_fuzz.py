"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis).

For every operation the application declares, generated requests, valid and invalid, must
get no 5xx answer, no stack trace, and an answer the schema declares: a declared status
code, a declared content type and a body that matches the declared model. A second pass
runs the same operations against a real game (one over, one going on), a real player key
and real names, so that the code behind the 404s runs too. What the fuzz found is kept
below as plain cases.
"""

from __future__ import annotations

import atexit
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi import checks as openapi_checks

from taut.core.registry import games, plugin
from taut.learn.registry import tile_sets
from taut.server.answers import MALFORMED, declare_not_found, refusals
from taut.server.web.app import create_app
from taut.server.web.settings import Settings
from tests.test_server_kit import app_client, new_game, sqlite_url, start_server, token_of
from tests.test_server_play import SHORT, seats_of

# What every answer is checked for (schemathesis's own checks): no 5xx; a declared status
# code, content type and headers; a body that matches its declared schema.
CHECKS = [
    schemathesis.checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]

#: Examples per operation in `make test`; the slow set runs many more.
QUICK = 10
THOROUGH = 150


def fuzzed_app() -> Any:
    """The application on a fresh SQLite store of its own (in a temporary folder)."""
    folder = Path(tempfile.mkdtemp(prefix="taut-fuzz-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return create_app(Settings(database=sqlite_url(folder), computer_workers=0))


# Loaded when the module is collected: schemathesis makes one test per operation from it.
# The application starts (its lifespan runs) at the first request.
schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app())


def answered(case: Any) -> Any:
    """Send ``case``; its answer, checked."""
    response = case.call()
    assert "Traceback" not in response.text and 'File "' not in response.text, response.text
    case.validate_response(response, checks=CHECKS)
    return response


SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
}


@schema.parametrize()
@settings(max_examples=QUICK, **SETTINGS)
def test_every_operation_answers_as_declared(case: Any) -> None:
    answered(case)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=THOROUGH, **SETTINGS)
def test_every_operation_answers_as_declared_thoroughly(case: Any) -> None:
    answered(case)


# -- the same operations on real things -----------------------------------------------------

#: Values an option of a new game is given.
ODD_VALUES: list[Any] = [None, True, 0, -1, 2**70, 1e308, -0.5, "", "x", "0", [], {}, [1]]
#: Values a query parameter of a leaderboard is given (an option of the game read as text).
ODD_TEXT = ["", "0", "-1", "3", "1e309", "nan", "inf", "true", "none", "x" * 300, "\x00", "é"]


@dataclass
class World:
    """Real things made through the API before the seeded cases: a player (its key and
    name) and another with no seat, a game going on (one seat open) and a finished one,
    with their seats and tokens."""

    key: str
    name: str
    other_key: str
    live: str
    finished: str
    seats: dict[str, tuple[str, ...]]
    tokens: dict[str, list[str]]


_world: list[World] = []


def call(path: str, method: str, **parts: Any) -> Any:
    """One request made through the schema's own client (the application's event loop)."""
    response = schema[path][method].Case(**parts).call()
    assert response.status_code < 500, response.text
    return response


def world() -> World:
    """The real things, made at the first seeded case."""
    if _world:
        return _world[0]
    player = call("/api/players", "POST", body={"name": "Fuzzer"}).json()
    other = call("/api/players", "POST", body={"name": "Hooked"}).json()
    key = {"X-Taut-Player": player["key"]}
    live = call(
        "/api/games", "POST", headers=key,
        body={"game": "tracks", "options": SHORT["tracks"],
              "seats": [{"kind": "me"}, {"kind": "open"}]},
    ).json()  # fmt: skip
    game = "push-pull"
    n = len(seats_of(game, SHORT[game]))
    finished = call(
        "/api/games", "POST",
        body={"game": game, "options": SHORT[game], "seats": [{"kind": "easy"}] * n},
    ).json()  # fmt: skip
    deadline = time.monotonic() + 60
    positions = "/api/games/{game_id}/positions"
    while call(positions, "GET", path_parameters={"game_id": finished["id"]}).status_code != 200:
        assert time.monotonic() < deadline, "the computer did not finish its game"
        time.sleep(0.05)
    made = World(
        key=player["key"],
        name=player["name"],
        other_key=other["key"],
        live=live["id"],
        finished=finished["id"],
        seats={
            live["id"]: seats_of("tracks", SHORT["tracks"]),
            finished["id"]: seats_of(game, SHORT[game]),
        },
        tokens={
            live["id"]: [token_of(link) for link in [*live["links"].values(), live["spectator"]]],
            finished["id"]: [token_of(finished["spectator"])],
        },
    )
    _world.append(made)
    return made


def seeded(case: Any) -> None:
    """Put real things into ``case`` in place of what was generated, where the operation
    names them: a game id, a seat, a game's or tile set's or player's name, a file, a
    player key, a token, the game or tile set of a body. A generated value is kept now and
    then, so that both kinds of answer are reached."""
    w = world()
    path = case.operation.path
    rng = random.Random(repr((path, case.path_parameters, case.query, case.body)))
    params = case.path_parameters if case.path_parameters is not None else {}
    game_id = rng.choice([w.live, w.finished])
    if "game_id" in params:
        params["game_id"] = game_id
    if "seat" in params:
        params["seat"] = rng.choice([*w.seats[game_id], str(params["seat"])])
    if "name" in params:
        if "player" in path:
            params["name"] = w.name
        elif any(part in path for part in ("tileset", "tiles", "flashcards", "words")):
            params["name"] = rng.choice(list(tile_sets()))
        else:
            params["name"] = rng.choice(games())
    if "file" in params and params.get("name") in games():
        params["file"] = rng.choice([*plugin(params["name"]).static_files(), "none"])
    if path.startswith("/api/leaderboard") or path.startswith("/leaderboard"):
        name = params.get("name")
        if name in games():
            specs = plugin(name).game_class.OPTIONS
            case.query = {
                s.name: rng.choice(ODD_TEXT) for s in rng.sample(specs, min(2, len(specs)))
            }
    if (
        any(p.name.lower() == "x-taut-player" for p in case.operation.headers)
        and rng.random() < 0.9
    ):
        # The other player has no seat: a webhook set for it is never called.
        key = w.other_key if "webhook" in path else w.key
        case.headers = {**(case.headers or {}), "X-Taut-Player": key}
    if isinstance(case.body, dict):
        if "game" in case.body:
            case.body["game"] = rng.choice(games())
            specs = plugin(case.body["game"]).game_class.OPTIONS
            if specs and rng.random() < 0.7:
                # Real option names with odd values, where generated names are refused at once.
                case.body["options"] = {
                    s.name: rng.choice([*ODD_VALUES, s.default])
                    for s in rng.sample(specs, min(3, len(specs)))
                }
        if "set" in case.body:
            case.body["set"] = rng.choice(list(tile_sets()))
        if "token" in case.body and path.endswith("/player"):
            case.body["token"] = rng.choice(w.tokens[game_id])


#: Operations not seeded: revoking the player's own device would end its key for the cases
#: after it.
UNSEEDED = ("/api/me/devices/{device_id}",)


def answered_on_real_things(case: Any) -> None:
    """Send ``case`` with real things in it (:func:`seeded`); its answer, checked."""
    if case.operation.path in UNSEEDED:
        answered(case)
        return
    seeded(case)
    response = answered(case)
    if case.operation.path == "/api/me/name" and response.status_code == 200:
        world().name = response.json()["name"]  # the player's page moved with the name


@schema.parametrize()
@settings(max_examples=QUICK, **SETTINGS)
def test_every_operation_answers_as_declared_on_real_things(case: Any) -> None:
    answered_on_real_things(case)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=THOROUGH, **SETTINGS)
def test_every_operation_answers_as_declared_on_real_things_thoroughly(case: Any) -> None:
    answered_on_real_things(case)


# -- what the fuzz found, as plain cases ---------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The application in this process, for the plain cases."""
    with app_client(tmp_path_factory.mktemp("declared")) as c:
        yield c


def declared(client: TestClient, method: str, template: str, status: int) -> dict[str, Any]:
    """What the schema says of ``status`` for the operation (fails when it says nothing)."""
    responses = client.app.openapi()["paths"][template][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {template} declares {sorted(responses)}"
    answer: dict[str, Any] = responses[str(status)]
    return answer


def resolved(client: TestClient, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with a reference to the schema's components followed."""
    ref = schema.get("$ref")
    if ref is None:
        return schema
    found: dict[str, Any] = client.app.openapi()["components"]["schemas"][ref.split("/")[-1]]
    return found


def media_declared(answer: dict[str, Any], content_type: str) -> bool:
    """Whether a declared answer names the media type an answer came with (or ``*/*``)."""
    kind = content_type.split(";")[0].strip()
    return any(m in (kind, "*/*") for m in answer.get("content", {}))


#: Refusals the routes give, each with what makes it: before the fuzz none of them was in
#: the schema (only 200 and 422 were), and the JSON refusals of pages would have been
#: declared as HTML.
REFUSALS: list[tuple[str, str, dict[str, str], dict[str, Any] | None, int]] = [
    ("get", "/api/games/{game_id}/record", {"game_id": "nope"}, None, 404),
    ("get", "/api/games/{game_id}/analysis", {"game_id": "nope"}, None, 404),
    ("post", "/api/games/{game_id}/claim/{seat}", {"game_id": "nope", "seat": "X"}, None, 404),
    ("get", "/g/{game_id}", {"game_id": "nope"}, None, 404),
    ("get", "/rules/{name}", {"name": "nope"}, None, 404),
    ("get", "/players/{name}", {"name": "nope"}, None, 404),
    ("get", "/leaderboard/{name}", {"name": "nope"}, None, 404),
    ("get", "/api/leaderboard/{name}", {"name": "tracks"}, None, 200),
    ("get", "/api/me", {}, None, 401),
    ("delete", "/api/me/webhook", {}, None, 401),
    ("post", "/api/signin", {}, {"token": "nope"}, 404),
    ("post", "/api/seats", {}, {"game": "nope"}, 404),
    (
        "post",
        "/api/flashcards/next",
        {},
        {"set": "nope", "deck": {"cards": [], "confusions": []}},
        400,
    ),
    ("get", "/api/tilesets/{name}", {"name": "nope"}, None, 404),
    ("get", "/flashcards/{name}", {"name": "nope"}, None, 404),
]


@pytest.mark.parametrize(("method", "template", "params", "body", "status"), REFUSALS)
def test_each_refusal_is_declared_with_its_body(
    client: TestClient,
    method: str,
    template: str,
    params: dict[str, str],
    body: dict[str, Any] | None,
    status: int,
) -> None:
    response = client.request(method.upper(), template.format(**params), json=body)
    assert response.status_code == status, response.text
    answer = declared(client, method, template, status)
    content_type = response.headers["content-type"]
    assert media_declared(answer, content_type), (content_type, answer)
    if content_type.startswith("application/json") and status >= 400:
        shape = resolved(client, answer["content"]["application/json"]["schema"])
        assert shape["required"] == ["detail"] and isinstance(response.json()["detail"], str)


def test_a_malformed_request_is_declared_as_the_error_it_gets(client: TestClient) -> None:
    # The schema said FastAPI's own {"detail": [...]}; the application answers {"error": ...}.
    response = client.post("/api/games", json={})
    assert response.status_code == 422 and isinstance(response.json()["error"], str)
    answer = declared(client, "post", "/api/games", 422)
    shape = resolved(client, answer["content"]["application/json"]["schema"])
    assert shape["required"] == ["error"]


def test_a_body_that_is_not_utf8_gets_a_declared_refusal(client: TestClient) -> None:
    # FastAPI answers 400 for a body it cannot decode; /api/signin did not declare it.
    response = client.post(
        "/api/signin", content=b"8\xe9jb", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400, response.text
    declared(client, "post", "/api/signin", 400)


def test_a_game_file_is_declared_as_whatever_file_it_is(client: TestClient) -> None:
    # The schema said JSON; the file is a script.
    name, file = next((g, f) for g in games() for f in plugin(g).static_files())
    response = client.get(f"/game-files/{name}/{file}")
    assert response.status_code == 200
    answer = declared(client, "get", "/game-files/{name}/{file}", 200)
    assert media_declared(answer, response.headers["content-type"]), answer


def test_the_seats_question_declares_its_body(client: TestClient) -> None:
    # The route reads its body by hand, so the schema said it took none: nothing fuzzed it.
    operation = client.app.openapi()["paths"]["/api/seats"]["post"]
    shape = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(shape["properties"]) == {"game", "options"} and shape["required"] == ["game"]


def test_answers_declare_the_fields_they_carry(client: TestClient) -> None:
    made = client.post("/api/players", json={"name": "Declared"})
    assert made.status_code == 201
    key = made.json()["key"]
    game = new_game(client, "tracks", ["me", "open"], SHORT["tracks"])
    seats = [{"kind": "me"}, {"kind": "invite"}]
    again = {"game": "tracks", "options": SHORT["tracks"], "seats": seats}
    asked = [
        ("post", "/api/players", 201, made),
        ("get", "/api/me", 200, client.get("/api/me", headers={"X-Taut-Player": key})),
        ("post", "/api/games", 200, client.post("/api/games", json=again)),
        ("get", "/api/games/{game_id}/open-seats", 200,
         client.get(f"/api/games/{game['id']}/open-seats")),
        ("post", "/api/seats", 200, client.post("/api/seats", json={"game": "tracks"})),
    ]  # fmt: skip
    for method, template, status, response in asked:
        assert response.status_code == status, response.text
        answer = declared(client, method, template, status)
        shape = resolved(client, answer["content"]["application/json"]["schema"])
        assert set(shape["properties"]) == set(response.json()), (template, shape)


def test_flash_card_text_is_bounded(client: TestClient) -> None:
    # Text fields had no bound: a megabyte of "now" was read and parsed before the refusal.
    deck = {"set": "roman", "deck": {"cards": [], "confusions": []}}
    for field, value in [("now", "9" * 100_000), ("set", "x" * 100_000)]:
        response = client.post("/api/flashcards/next", json={**deck, field: value})
        assert response.status_code == 422, response.text
        assert response.json()["error"].startswith(f"{field}: ")
    many = client.post("/api/flashcards/next", json={**deck, "directions": ["a"] * 10_000})
    assert many.status_code == 422 and "directions" in many.json()["error"]


def test_a_route_that_names_something_declares_its_404() -> None:
    # A route added without its refusals (the tutorials' were) still declares the 404 that
    # every route naming something gives; one that declares its own keeps it.
    app = FastAPI(responses=MALFORMED)

    @app.get("/things/{name}")
    async def thing(name: str) -> dict[str, str]:
        return {"name": name}

    @app.get("/kept/{name}", responses=refusals({404: "no such kept thing"}))
    async def kept(name: str) -> dict[str, str]:
        return {"name": name}

    @app.get("/all")
    async def everything() -> list[str]:
        return []

    declare_not_found(app)
    paths = app.openapi()["paths"]
    assert "404" in paths["/things/{name}"]["get"]["responses"]
    assert paths["/kept/{name}"]["get"]["responses"]["404"]["description"] == "no such kept thing"
    assert "404" not in paths["/all"]["get"]["responses"]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_check_on_a_running_server(tmp_path: Path, seed: int) -> None:
    # schemathesis's own command line with every check it has (status codes, content
    # types, bodies, schema-valid requests accepted, schema-violating ones refused, the
    # methods a path does not document refused with a true Allow header, missing headers,
    # the stateful phase over the links it infers), against a real `taut serve`.
    st = Path(sys.executable).parent / "st"
    if not st.exists():
        pytest.skip("schemathesis's command line (st) is not installed")
    served = start_server(sqlite_url(tmp_path), tmp_path / "serve.log")
    try:
        done = subprocess.run(
            [str(st), "--config-file", str(Path(__file__).parent / "schemathesis.toml"), "run",
             f"{served.base}/openapi.json", "--checks", "all", "--seed", str(seed),
             "--max-examples", "10", "--no-color"],
            capture_output=True, text=True, timeout=600, cwd=tmp_path,
        )  # fmt: skip
    finally:
        served.stop()
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    assert "failures" not in report.split("SUMMARY", 1)[-1].lower(), report[-3000:]
