"""The Tug of War record format: writing it from a game, and checking it by replay.

One record is one JSON object::

    {"game": "tug-of-war", "options": {...every option...}, "players": N, "seed": S,
     "rounds": [{"starters": [[a, b] or null per seat], "hands": [[[a, b], ...] or null],
                 "boneyard": [[a, b], ...], "first": seat,
                 "events": [{"seat": i, "type": "play", "tile": [a, b], "train": j,
                             "end": 0 or 1},
                            {"seat": i, "type": "draw", "tile": [a, b]},
                            {"seat": i, "type": "pass"},
                            {"seat": i, "type": "bonus", "allocation": {"<seat>": k}}],
                 "scores_after": [...]}],
     "final_scores": [...], "winner": seat or null}

A starter is written as laid (its first half is end 0). Hands, the boneyard and drawn tiles
may be written in either orientation; a play's tile is written as laid (the half that meets
the end first), but either order is accepted. ``null`` marks a seat not dealt into the
round (out of the game, or sitting out a tie-break). Starters, hands and the boneyard
together hold every tile of the set exactly once; draws take the boneyard from its start.

:func:`replay_record` checks a record against the rules by feeding its deals and events to
the engine; the first impossible thing raises :class:`ReplayError` naming the record, round
and event (all numbered from 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from taut.core.errors import ActionError, RecordError, TautError
from taut.core.game import CHANCE_SEAT, JSON
from taut.core.registry import make
from taut.games.tug_of_war.state import BONUS, DEAL, OVER, TugState

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar

EVENT_TYPES = ("play", "draw", "pass", "bonus")


class ReplayError(RecordError):
    """A record that does not replay, with where it fails (1-based numbers, or None)."""

    def __init__(
        self,
        detail: str,
        record: int | None = None,
        round_no: int | None = None,
        event: int | None = None,
    ) -> None:
        self.detail = detail
        self.record = record
        self.round = round_no
        self.event = event
        where = []
        if record is not None:
            where.append(f"record {record}")
        if round_no is not None:
            where.append(f"round {round_no}")
        if event is not None:
            where.append(f"event {event}")
        super().__init__(f"{', '.join(where)}: {detail}" if where else detail)


class _Fail(Protocol):
    """Builds the ReplayError of one record (knows the record's number)."""

    def __call__(
        self, detail: str, round_no: int | None = None, event: int | None = None
    ) -> ReplayError: ...


# -- writing -------------------------------------------------------------------------------


class RecordBuilder:
    """Builds the record of a game from its transitions (an observer for any driver).

    Call :meth:`observe` with ``(state before, joint action, state after)`` for every node,
    on full states, then :meth:`finish`. The tiles never drawn end the round's boneyard in
    the order ``rest_order`` gives them (tile id -> rank; by tile id when unset).
    """

    def __init__(self, game: TugOfWar, seed: int | None) -> None:
        self.game = game
        self.record: dict[str, Any] = {
            "game": game.name,
            "options": dict(game.options),
            "players": game.num_players,
            "seed": seed,
            "rounds": [],
            "final_scores": None,
            "winner": None,
        }
        self.rest_order: dict[int, int] | None = None
        self._round: dict[str, Any] | None = None
        self._drawn: list[int] = []

    def observe(self, before: Any, joint: dict[int, int], after: Any) -> None:
        """Note one transition (``before`` and ``after`` are full :class:`TugState`)."""
        assert isinstance(before, TugState) and isinstance(after, TugState)
        assert not before.is_view, "records are written from full states"
        game = self.game
        ds = game.dominoes
        n = game.num_players
        if before.phase == DEAL and before.dealt == 0:
            self._round = {
                "starters": [None] * n,
                "hands": [[] if before.playing[s] else None for s in range(n)],
                "boneyard": [],
                "first": None,
                "events": [],
                "scores_after": None,
            }
            self._drawn = []
        rnd = self._round
        assert rnd is not None
        events: list[dict[str, Any]] = rnd["events"]
        if CHANCE_SEAT in joint:
            a, b = ds.unorient(joint[CHANCE_SEAT])
            if before.phase == DEAL:
                order = before.order
                k = before.dealt
                if k < len(order):
                    rnd["starters"][order[k]] = [a, b]
                else:
                    seat = order[(k - len(order)) // game.hand_size]
                    rnd["hands"][seat].append([a, b])
                if after.phase != DEAL:
                    rnd["first"] = after.first
            else:
                self._drawn.append(ds.index(a, b))
                events.append({"seat": before.current, "type": "draw", "tile": [a, b]})
        else:
            ((seat, action),) = joint.items()
            if action < game.num_plays:
                j = before.action_to_json(seat, action)
                events.append(
                    {
                        "seat": seat,
                        "type": "play",
                        "tile": j["tile"],
                        "train": j["train"],
                        "end": j["end"],
                    }
                )
            elif action == game.PASS:
                events.append({"seat": seat, "type": "pass"})
            elif action == game.KEEP:
                bonus = before.bonus
                assert bonus is not None
                allocation = {str(s): p for s, p in bonus.allocation().items()}
                events.append({"seat": seat, "type": "bonus", "allocation": allocation})
        if after.round != before.round or (after.phase == OVER and before.phase != OVER):
            assert before.stock is not None
            rank = self.rest_order or {}
            rest = sorted(before.stock, key=lambda t: (rank.get(t, t), t))
            rnd["boneyard"] = [list(ds.tiles[t]) for t in (*self._drawn, *rest)]
            rnd["scores_after"] = list(after.scores)
            self.record["rounds"].append(rnd)
            self._round = None

    def finish(self, state: TugState) -> dict[str, Any]:
        """Complete the record with the final scores and winner; return it."""
        if state.is_terminal():
            self.record["final_scores"] = list(state.scores)
            out = state.outcome
            self.record["winner"] = out.winners[0] if out is not None and out.winners else None
        return self.record


# -- checking ------------------------------------------------------------------------------


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def replay_record(data: JSON, index: int | None = None) -> TugState:
    """Check a whole record by replaying it; return the final state.

    ``index`` is the record's number (1-based) for messages. Raises :class:`ReplayError`
    on the first impossible thing: a malformed field, a tile outside the set or dealt
    twice, an illegal play, a draw when a play was possible, a drawn tile that fits but is
    not played, a wrong bonus, a wrong score, winner or number of rounds.
    """

    def fail(detail: str, round_no: int | None = None, event: int | None = None) -> ReplayError:
        return ReplayError(detail, index, round_no, event)

    if not isinstance(data, dict):
        raise fail("a record must be a JSON object")
    if data.get("game") != "tug-of-war":
        raise fail(f"'game' must be \"tug-of-war\", got {data.get('game')!r}")
    options = data.get("options")
    if not isinstance(options, dict):
        raise fail("'options' is missing or not an object")
    try:
        game = make("tug-of-war", **options)
    except TautError as exc:
        raise fail(f"options: {exc}") from None
    from taut.games.tug_of_war.rules import TugOfWar

    assert isinstance(game, TugOfWar)
    n = game.num_players
    if data.get("players") != n:
        raise fail(f"'players' is {data.get('players')!r} but the options say {n}")
    if "seed" in data and data["seed"] is not None and not _is_int(data["seed"]):
        raise fail(f"'seed' must be an integer or null, got {data['seed']!r}")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise fail("'rounds' is missing or not a list")
    state = game.new_initial_state()
    assert isinstance(state, TugState)
    for r, rnd in enumerate(rounds, start=1):
        if state.is_terminal():
            raise fail(
                f"the game is already over ({state.describe_outcome()}) but the record has "
                f"{len(rounds)} rounds",
                r,
            )
        state = _replay_round(game, state, rnd, r, fail)
    if not state.is_terminal():
        who = "" if not rounds else f" after round {len(rounds)}"
        raise fail(f"the record ends{who} but the game is not over")
    final = data.get("final_scores")
    if final != list(state.scores):
        raise fail(f"final_scores {final!r} but the rounds give {list(state.scores)}")
    out = state.outcome
    winner = out.winners[0] if out is not None and out.winners else None
    if "winner" not in data or data["winner"] != winner or isinstance(data["winner"], bool):
        raise fail(f"winner {data.get('winner')!r} but the rules give {winner!r}")
    return state


def _replay_round(game: TugOfWar, state: TugState, rnd: Any, r: int, fail: _Fail) -> TugState:
    ds = game.dominoes
    n = game.num_players
    if not isinstance(rnd, dict):
        raise fail("a round must be a JSON object", r)
    for key in ("starters", "hands", "boneyard", "first", "events", "scores_after"):
        if key not in rnd:
            raise fail(f"field {key!r} is missing", r)
    starters, hands, boneyard = rnd["starters"], rnd["hands"], rnd["boneyard"]
    if not isinstance(starters, list) or len(starters) != n:
        raise fail(f"'starters' must list one starter (or null) per seat ({n})", r)
    if not isinstance(hands, list) or len(hands) != n:
        raise fail(f"'hands' must list one hand (or null) per seat ({n})", r)
    if not isinstance(boneyard, list):
        raise fail("'boneyard' must be a list of tiles", r)
    seen: dict[int, str] = {}

    def tile_of(value: Any, where: str) -> tuple[int, int]:
        try:
            a, b = ds.from_json(value)
        except ValueError as exc:
            raise fail(f"{where}: {exc}", r) from None
        t = ds.index(a, b)
        if t in seen:
            raise fail(f"{where}: tile {ds.name(t)} was already dealt ({seen[t]})", r)
        seen[t] = where
        return a, b

    deal: list[int] = []
    for s in range(n):
        if not state.playing[s]:
            why = "is out of the game" if not state.in_game[s] else "sits out the tie-break"
            if starters[s] is not None:
                raise fail(f"seat {s} {why} but has a starter", r)
            continue
        if starters[s] is None:
            raise fail(f"seat {s} plays this round but its starter is null", r)
        a, b = tile_of(starters[s], f"starter of seat {s}")
        deal.append(ds.oriented(a, b))
    for s in range(n):
        hand = hands[s]
        if not state.playing[s]:
            if hand is not None:
                raise fail(f"seat {s} does not play this round but has a hand", r)
            continue
        if not isinstance(hand, list) or len(hand) != game.hand_size:
            size = len(hand) if isinstance(hand, list) else hand
            raise fail(f"seat {s} must be dealt {game.hand_size} tiles, got {size!r}", r)
        for k, value in enumerate(hand, start=1):
            a, b = tile_of(value, f"tile {k} of seat {s}'s hand")
            deal.append(ds.canonical_outcome(ds.index(a, b)))
    pile: list[int] = []
    for k, value in enumerate(boneyard, start=1):
        a, b = tile_of(value, f"boneyard tile {k}")
        pile.append(ds.index(a, b))
    if len(seen) != ds.size:
        missing = [ds.name(t) for t in range(ds.size) if t not in seen]
        raise fail(
            f"starters, hands and boneyard must hold all {ds.size} tiles of the "
            f"{ds.title()} set; missing: {' '.join(missing)}",
            r,
        )
    for outcome in deal:
        state = _as_tug(state.apply({CHANCE_SEAT: outcome}))
    if rnd["first"] != state.first or not _is_int(rnd["first"]):
        raise fail(f"'first' is {rnd['first']!r} but seat {state.first} has the highest starter", r)
    events = rnd["events"]
    if not isinstance(events, list):
        raise fail("'events' must be a list", r)
    next_draw = 0
    round_no = state.round
    for e, event in enumerate(events, start=1):
        if state.round != round_no or state.is_terminal():
            raise fail("the round is already over; no further event can happen", r, e)
        state, next_draw = _replay_event(game, state, event, pile, next_draw, r, e, fail)
    if state.round == round_no and not state.is_terminal():
        if state.phase == BONUS:
            assert state.bonus is not None
            need = f"seat {state.bonus.winner}'s bonus allocation"
        else:
            need = f"a move by seat {state.current}"
        raise fail(
            f"the events stop before the round is over (next would be {need})", r, len(events)
        )
    scores_after = rnd["scores_after"]
    if scores_after != list(state.scores):
        raise fail(f"scores_after {scores_after!r} but the events give {list(state.scores)}", r)
    return state


def _as_tug(state: Any) -> TugState:
    assert isinstance(state, TugState)
    return state


def _replay_event(
    game: TugOfWar,
    state: TugState,
    event: Any,
    pile: list[int],
    next_draw: int,
    r: int,
    e: int,
    fail: _Fail,
) -> tuple[TugState, int]:
    ds = game.dominoes
    if not isinstance(event, dict):
        raise fail("an event must be a JSON object", r, e)
    kind = event.get("type")
    seat = event.get("seat")
    if kind not in EVENT_TYPES:
        raise fail(f"unknown event type {kind!r}; types are {', '.join(EVENT_TYPES)}", r, e)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.num_players:
        raise fail(f"'seat' must be a seat 0..{game.num_players - 1}, got {seat!r}", r, e)
    acting = state.acting_seats()[0]
    if state.phase == BONUS:
        if kind != "bonus":
            raise fail(
                f"seat {acting} has won the round; the next event must be its bonus, not a {kind}",
                r,
                e,
            )
    elif kind == "bonus":
        raise fail("no bonus is due: the round is not won yet", r, e)
    if seat != acting:
        raise fail(f"it is seat {acting}'s move, not seat {seat}'s", r, e)
    try:
        if kind == "play":
            tile = event.get("tile")
            try:
                a, b = ds.from_json(tile)
            except ValueError as exc:
                raise fail(f"play: {exc}", r, e) from None
            train, end = event.get("train"), event.get("end")
            if (
                not isinstance(train, int)
                or isinstance(train, bool)
                or not 0 <= train < game.num_players
            ):
                raise fail(f"play: 'train' must be a seat's train, got {train!r}", r, e)
            if not isinstance(end, int) or isinstance(end, bool) or end not in (0, 1):
                raise fail(f"play: 'end' must be 0 or 1, got {end!r}", r, e)
            action = game.play_id(ds.index(a, b), train, end)
            if not state.is_legal(seat, action):
                raise fail(
                    f"seat {seat} cannot play {a}-{b} on train {train} end {end}: "
                    + state.illegal_reason(seat, action),
                    r,
                    e,
                )
            return _as_tug(state.apply({seat: action})), next_draw
        if kind == "pass":
            if not state.is_legal(seat, game.PASS):
                raise fail(
                    f"seat {seat} may not pass: " + state.illegal_reason(seat, game.PASS), r, e
                )
            return _as_tug(state.apply({seat: game.PASS})), next_draw
        if kind == "draw":
            if not state.is_legal(seat, game.DRAW):
                raise fail(
                    f"seat {seat} may not draw: " + state.illegal_reason(seat, game.DRAW), r, e
                )
            try:
                a, b = ds.from_json(event.get("tile"))
            except ValueError as exc:
                raise fail(f"draw: {exc}", r, e) from None
            if next_draw >= len(pile):
                raise fail("draw: the record's boneyard has no tile left", r, e)
            expected = pile[next_draw]
            if ds.index(a, b) != expected:
                raise fail(
                    f"seat {seat} draws {a}-{b} but the next boneyard tile is {ds.name(expected)}",
                    r,
                    e,
                )
            state = _as_tug(state.apply({seat: game.DRAW}))
            state = _as_tug(state.apply({CHANCE_SEAT: ds.canonical_outcome(expected)}))
            return state, next_draw + 1
        return _replay_bonus(game, state, event, r, e, fail), next_draw
    except ActionError as exc:  # pragma: no cover - every case is checked above
        raise fail(str(exc), r, e) from None


def _replay_bonus(
    game: TugOfWar, state: TugState, event: dict[str, Any], r: int, e: int, fail: _Fail
) -> TugState:
    bonus = state.bonus
    assert bonus is not None
    allocation = event.get("allocation")
    if not isinstance(allocation, dict):
        raise fail("bonus: 'allocation' must be an object seat -> points", r, e)
    shares: dict[int, int] = {}
    allowed = {bonus.winner, *bonus.targets}
    for key, value in allocation.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) in allowed):
            raise fail(
                f"bonus: {key!r} is not a seat of this round "
                f"(seats: {', '.join(str(s) for s in sorted(allowed))})",
                r,
                e,
            )
        if not _is_int(value) or value < 0:
            raise fail(
                f"bonus: seat {key}'s share must be a whole number >= 0, got {value!r}", r, e
            )
        shares[int(key)] = value
    given = sum(shares.values())
    if given != bonus.total:
        what = "fewest pips in a blocked round" if bonus.blocked else "going out"
        raise fail(
            f"bonus: the shares add up to {given} but seat {bonus.winner} won by {what} and "
            f"the leftover is {bonus.total} pips",
            r,
            e,
        )
    for target in bonus.targets:
        current = state.bonus
        assert current is not None
        if current.target is None:
            break
        state = _as_tug(state.apply({bonus.winner: game.give_id(shares.get(target, 0))}))
    assert state.phase == BONUS
    return _as_tug(state.apply({bonus.winner: game.KEEP}))


def replay_lines(lines: list[str]) -> list[TugState]:
    """Check every non-empty line of a JSON-lines file; return the final states.

    Raises :class:`ReplayError` (record numbers count non-empty lines from 1).
    """
    import json

    out = []
    for i, line in enumerate((ln for ln in lines if ln.strip()), start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"not valid JSON: {exc}", i) from None
        out.append(replay_record(data, i))
    return out


__all__ = ["RecordBuilder", "ReplayError", "replay_lines", "replay_record"]
