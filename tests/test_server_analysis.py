"""The analysis board: a finished game's moves judged in the worker pool, kept once computed,
shown on the replay page with the evaluation graph, each move's loss and label, and the
engine's move on the board."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from taut.core.registry import games
from tests.browser_kit import (
    WAIT_MS,
    chromium,
    expect,
    live_server,
    open_finished_replay,
    page_errors,
    tap_graph_point,
)
from tests.test_server_kit import app_client, new_game
from tests.test_server_play import SHORT, seats_of

#: Seconds of search per judged move: enough for the shape, short for the suite.
THINK = 0.02


def wait_over(client: Any, game_id: str, limit: float = 120.0) -> None:
    """Wait until the computer seats have played the game to its end."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if client.get(f"/api/games/{game_id}/positions").status_code == 200:
            return
        time.sleep(0.1)
    raise AssertionError("the computer did not finish the game")


def wait_analysis(client: Any, game_id: str, limit: float = 120.0) -> dict[str, Any]:
    """Start the analysis and follow it to its end; every answer on the way is checked."""
    body = client.post(f"/api/games/{game_id}/analysis").json()
    deadline = time.monotonic() + limit
    seen = [body["done"]]
    while body["status"] == "running" and time.monotonic() < deadline:
        assert 0 <= body["done"] <= body["total"]
        time.sleep(0.05)
        body = client.get(f"/api/games/{game_id}/analysis").json()
        seen.append(body["done"])
    assert body["status"] == "done", body
    return body


@pytest.mark.parametrize("game", games())
def test_a_finished_game_is_analysed_once_and_kept(tmp_path: Path, game: str) -> None:
    options = SHORT.get(game, {})
    n = len(seats_of(game, options))
    with app_client(tmp_path, analysis_think=THINK) as client:
        made = new_game(client, game, ["easy"] * n, options)
        early = client.post(f"/api/games/{made['id']}/analysis")
        assert (
            early.status_code == 409
            or client.get(f"/api/games/{made['id']}/positions").status_code == 200
        )  # a very short game may be over already
        wait_over(client, made["id"])
        body = wait_analysis(client, made["id"])
        result = body["analysis"]
        assert result["seats"] == list(seats_of(game, options))
        moves = result["moves"]
        assert moves, "a whole game has choices to judge"
        lo, hi = result["range"]
        for m in moves:
            assert lo - 1e-9 <= m["value"] <= hi + 1e-9 and m["loss"] >= 0
            assert m["seat"] == result["seats"][m["seat_index"]]
            assert m["label"] in (None, "inaccuracy", "mistake", "blunder")
            assert "<svg" in m["engine_board"]
            assert m["action_words"].strip() and m["best_words"].strip()  # said in words
            if m["best"] != m["action"]:  # the one move offered on that board, or its parts
                board = m["engine_board"]
                assert m["best"] in board or all(
                    f'data-part="{part}"' in board for part in m["best"].split(",")
                ), (m["best"], board[:300])
        assert set(result["summary"]) <= set(result["seats"])
        assert sum(s["moves"] for s in result["summary"].values()) == len(moves)
        # Asked again: the same analysis at once, not a second run.
        again = client.post(f"/api/games/{made['id']}/analysis").json()
        assert again == body
    # A new server on the same database finds it kept.
    with app_client(tmp_path, analysis_think=THINK) as client:
        kept = client.get(f"/api/games/{made['id']}/analysis").json()
        assert kept == body


def test_analysis_needs_a_finished_game(tmp_path: Path) -> None:
    with app_client(tmp_path, analysis_think=THINK) as client:
        assert client.get("/api/games/nope/analysis").status_code == 404
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        answer = client.post(f"/api/games/{made['id']}/analysis")
        assert answer.status_code == 409 and "over" in answer.json()["detail"]
        assert client.get(f"/api/games/{made['id']}/analysis").status_code == 409


def test_a_failed_analysis_is_reported_and_can_be_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import taut.server.play.analysis as analysis

    real = analysis.judge_move
    calls = {"n": 0}

    def flaky(*args: Any) -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("the search broke")
        return real(*args)

    monkeypatch.setattr(analysis, "judge_move", flaky)
    with app_client(tmp_path, analysis_think=THINK) as client:
        made = new_game(client, "tracks", ["easy", "easy"], {"size": 3})
        wait_over(client, made["id"])
        body = client.post(f"/api/games/{made['id']}/analysis").json()
        deadline = time.monotonic() + 60
        while body["status"] == "running" and time.monotonic() < deadline:
            time.sleep(0.05)
            body = client.get(f"/api/games/{made['id']}/analysis").json()
        assert body["status"] == "failed" and "the search broke" in body["error"]
        assert wait_analysis(client, made["id"])["analysis"]["moves"]


def test_the_replay_page_becomes_an_analysis_board(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        made = server.new_game("tracks", ["easy", "easy"], {"size": 4})
        page = open_finished_replay(browser, server.url(f"/replay/{made['id']}"))
        page.get_by_role("button", name="Analyse the game").click()
        expect(page.locator("#analysis-result")).to_be_visible(timeout=WAIT_MS * 4)
        points = page.locator("#eval-graph .point")
        assert points.count() > 0
        tap_graph_point(page, points.last)
        expect(page.locator("#judged li").first).to_contain_text("played")
        # A flagged move: its point names the label, and going there shows it in words.
        flagged = page.locator(
            "#eval-graph .point[data-said*='blunder'], #eval-graph .point[data-said*='mistake']"
        )
        if flagged.count():
            label = (flagged.first.get_attribute("data-said") or "").rsplit(", ", 1)[-1]
            tap_graph_point(page, flagged.first)
            expect(page.locator("#judged .label").first).to_have_text(label)
        # The graph is one control: the keys go from judged move to judged move.
        graph = page.locator("#eval-graph svg")
        expect(graph).to_have_attribute("role", "slider")
        said = [p.get_attribute("data-said") or "" for p in points.all()]
        in_order = sorted(said, key=lambda text: int(text.split()[1].rstrip(",")))
        graph.focus()
        graph.press("Home")
        expect(graph).to_have_attribute("aria-valuetext", in_order[0])
        graph.press("ArrowRight")
        expect(graph).to_have_attribute("aria-valuetext", in_order[1])
        graph.press("End")
        expect(graph).to_have_attribute("aria-valuetext", in_order[-1])
        expect(page.locator("#summary-seats th")).to_have_count(2)
        expect(page.locator("#summary tr")).to_have_count(5)  # a row a measure
        # The side panel shows the whole table, and the engine's moves at a readable size.
        box = page.locator("#analysis-result .table-scroll")
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "the summary is cut off"
        shown = page.locator("#engine-board svg")
        wrong = page.locator("#eval-graph .point")
        for i in range(wrong.count()):
            if shown.count():
                break
            tap_graph_point(page, wrong.nth(i))
        if shown.count():
            assert shown.first.bounding_box()["width"] >= 200, shown.first.bounding_box()
        page.screenshot(path=str(tmp_path / "analysis.png"), full_page=True)
        # Kept: a second visit shows the analysis without asking again.
        page.reload()
        expect(page.locator("#analysis-result")).to_be_visible(timeout=WAIT_MS)
        assert page_errors(page) == []
