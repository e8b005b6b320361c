"""What the pages and the API show of a tournament: its summary, its rounds and standings."""

from __future__ import annotations

from typing import Any

from taut.core.registry import plugin
from taut.server.players.pool_names import variant_text
from taut.server.players.pools import ratings_of
from taut.server.players.ratings import COMPUTER
from taut.server.tournaments import pairing
from taut.server.tournaments.director import Tournaments, played, rounds_of
from taut.server.tournaments.form import LEVELS, TIEBREAKS


async def summary(tournaments: Tournaments, row: dict[str, Any]) -> dict[str, Any]:
    """A tournament as the list shows it."""
    config = row["config"]
    creator = (await tournaments.players.names([row["creator"]])).get(row["creator"], "a player")
    entrants, _ = await tournaments.store.tournaments.entries(row["id"])
    return {
        "id": row["id"],
        "name": config["name"],
        "page": f"/t/{row['id']}",
        "game": row["game"],
        "title": plugin(row["game"]).title,
        "variant": variant_text(row["game"], config["options"]),
        "options": config["options"],
        "system": config["system"],
        "rounds": config["rounds"],
        "rated": bool(config["rated"]),
        "time_control": config.get("time_control"),
        "starts_at": row["starts_at"],
        "status": row["status"],
        "round": row["round"],
        "creator": creator,
        "entrants": len(entrants),
    }


async def detail(
    tournaments: Tournaments, tournament_id: str, viewer: str | None
) -> dict[str, Any] | None:
    """A tournament with its entrants, rounds (games linked for spectators, and for
    ``viewer`` its own seats) and standings; None if there is none."""
    rows = await tournaments.store.tournaments.rows(tournament_id)
    if not rows:
        return None
    row = rows[0]
    out = await summary(tournaments, row)
    entrants, boards = await tournaments.store.tournaments.entries(tournament_id)
    names = await tournaments.players.names([e for e in entrants if not e.startswith(COMPUTER)])

    def who(entrant: str | None) -> dict[str, Any] | None:
        if entrant is None:
            return None
        if entrant.startswith(COMPUTER):
            level = entrant.removeprefix(COMPUTER)
            return {"name": f"computer ({level})", "kind": "computer", "page": None}
        name = names.get(entrant, "a player")
        return {"name": name, "kind": "player", "page": f"/players/{name}"}

    rounds: dict[int, list[dict[str, Any]]] = {}
    for b in boards:
        game_id = b["game_id"]
        spectator = b["tokens"].get("spectator")
        mine = b["tokens"].get(viewer) if viewer is not None else None
        rounds.setdefault(int(b["round"]), []).append(
            {
                "board": b["board"] + 1,
                "first": who(b["first"]),
                "second": who(b["second"]),
                "bye": b["second"] is None,
                "score": b["score"],
                "result": _result_text(b["score"], b["second"] is None),
                "game": None if game_id is None else f"/g/{game_id}#{spectator}",
                "yours": None if game_id is None or mine is None else f"/g/{game_id}#{mine}",
            }
        )
    system = out["system"]
    rating = await ratings_of(tournaments.store, row["game"], row["config"]["pool"], entrants)
    table = pairing.standings(entrants, played(boards), system, rating)
    out.update(
        entrants=[{**(who(e) or {}), "rating": rating[e]} for e in entrants],
        rounds=[{"round": n, "boards": rounds[n]} for n in sorted(rounds)],
        total_rounds=rounds_of(row, entrants) if len(entrants) >= 2 else 0,
        tiebreak=TIEBREAKS[system],
        standings=[{**standing_json(s), **(who(s.entrant) or {})} for s in table],
        entered=viewer in entrants if viewer is not None else False,
        mine=viewer == row["creator"],
        levels=[lv for lv in LEVELS if COMPUTER + lv not in entrants],
        note=(
            "it ended at its start: fewer than two entrants"
            if row["status"] == "over" and not boards
            else ""
        ),
    )
    return out


def standing_json(s: pairing.Standing) -> dict[str, Any]:
    """One line of the standings (the entrant's name is added by the caller)."""
    return {
        "rank": s.rank,
        "points": s.points,
        "tiebreak": s.tiebreak,
        "played": s.played,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "byes": s.byes,
    }


def _result_text(score: float | None, bye: bool) -> str:
    if bye:
        return "bye"
    if score is None:
        return "playing"
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}.get(score, str(score))
