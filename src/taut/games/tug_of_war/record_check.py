"""Checking a game's own record fields by the rules, and the moves they stand for.

:class:`RoundsReplay` feeds a record's deals and events (see :mod:`.record`) to the engine
one step at a time. Every step it takes is a joint action (``{seat: action}``, chance as
``{CHANCE_SEAT: outcome}``), collected in :attr:`RoundsReplay.joints`; the first
impossible thing raises :class:`ReplayError` naming the record, round and event (all
numbered from 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

from taut.core.errors import ActionError, RecordError
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war.model import BONUS, TugModel
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar

EVENT_TYPES = ("play", "draw", "pass", "bonus")
ROUND_FIELDS = ("starters", "hands", "boneyard", "first", "events", "scores_after")

Joint = dict[int, int]

#: A seat number written plainly: digits with no leading zero.
_PLAIN_SEAT = re.compile(r"0|[1-9][0-9]{0,17}", re.ASCII)  # never past int()'s limit


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

    def numbered(self, record: int) -> ReplayError:
        """The same error as found in record number ``record`` of a file."""
        return ReplayError(self.detail, record, self.round, self.event)


def is_int(v: object) -> TypeGuard[int]:
    """True for an int that is not a bool."""
    return isinstance(v, int) and not isinstance(v, bool)


class _Deal:
    """The tiles of one round's deal, each seen once (knows where it was seen first)."""

    def __init__(self, replay: RoundsReplay, r: int) -> None:
        self.replay = replay
        self.ds = replay.game.dominoes
        self.r = r
        self.seen: dict[int, str] = {}

    def tile(self, value: Any, where: str) -> Tile:
        """The tile ``value`` names, which no earlier place of the deal holds."""
        try:
            a, b = self.ds.from_json(value)
        except ValueError as exc:
            raise self.replay.fail(f"{where}: {exc}", self.r) from None
        t = self.ds.index(a, b)
        if t in self.seen:
            raise self.replay.fail(
                f"{where}: tile {self.ds.name(t)} was already dealt ({self.seen[t]})", self.r
            )
        self.seen[t] = where
        return a, b


class RoundsReplay:
    """Replays a record's rounds by the rules, collecting the joint actions taken."""

    def __init__(self, game: TugOfWar, record: int | None = None) -> None:
        self.game = game
        self.record = record
        #: The joint actions of every step replayed so far, from the start of the game.
        self.joints: list[Joint] = []
        self._pile: list[int] = []
        self._next_draw = 0

    def fail(
        self, detail: str, round_no: int | None = None, event: int | None = None
    ) -> ReplayError:
        """The error naming this record (and the round and event, when given)."""
        return ReplayError(detail, self.record, round_no, event)

    def step(self, state: TugModel, joint: Joint) -> TugModel:
        """Apply ``joint`` (checked by the rules) and note it."""
        after = state.apply(joint)
        assert isinstance(after, TugModel)
        self.joints.append(joint)
        return after

    # -- the whole record -----------------------------------------------------------------

    def check(self, data: Mapping[str, Any], unfinished: bool = False) -> TugModel:
        """Replay the fields of ``data`` and return the final state.

        ``unfinished``: the record is of a game still going on, whose rounds may stop
        before the game is over. Raises :class:`ReplayError` on the first impossible thing:
        a malformed field, a tile outside the set or dealt twice, an illegal play, a draw
        when a play was possible, a drawn tile that fits but is not played, a wrong bonus
        (one split in a two-player game, or with a seat key not written plainly), a wrong
        score, winner or number of rounds.
        """
        n = self.game.num_players
        if data.get("players") != n:
            raise self.fail(f"'players' is {data.get('players')!r} but the options say {n}")
        if "seed" in data and data["seed"] is not None and not is_int(data["seed"]):
            raise self.fail(f"'seed' must be an integer or null, got {data['seed']!r}")
        rounds = data.get("rounds")
        if not isinstance(rounds, list):
            raise self.fail("'rounds' is missing or not a list")
        state = self.game.new_initial_state()
        assert isinstance(state, TugModel)
        for r, rnd in enumerate(rounds, start=1):
            if state.is_terminal():
                raise self.fail(
                    f"the game is already over ({state.describe_outcome()}) but the record has "
                    f"{len(rounds)} rounds",
                    r,
                )
            state = self.round(state, rnd, r)
        self._check_end(data, state, len(rounds), unfinished)
        return state

    def _check_end(
        self, data: Mapping[str, Any], state: TugModel, rounds: int, unfinished: bool
    ) -> None:
        final = data.get("final_scores")
        winner_given = data.get("winner")
        if not state.is_terminal():
            if not unfinished:
                who = "" if not rounds else f" after round {rounds}"
                raise self.fail(f"the record ends{who} but the game is not over")
            if final is not None or winner_given is not None:
                raise self.fail(
                    f"final_scores {final!r} and winner {winner_given!r}, but the game is not over"
                )
            return
        if final != list(state.scores):
            raise self.fail(f"final_scores {final!r} but the rounds give {list(state.scores)}")
        out = state.outcome
        winner = out.winners[0] if out is not None and out.winners else None
        if "winner" not in data or winner_given != winner or isinstance(winner_given, bool):
            raise self.fail(f"winner {winner_given!r} but the rules give {winner!r}")

    # -- one round ------------------------------------------------------------------------

    def round(self, state: TugModel, rnd: Any, r: int) -> TugModel:
        """Replay round ``r`` (its deal, first player, events and scores) from ``state``."""
        if not isinstance(rnd, dict):
            raise self.fail("a round must be a JSON object", r)
        for key in ROUND_FIELDS:
            if key not in rnd:
                raise self.fail(f"field {key!r} is missing", r)
        deal = self._deal(state, rnd, r)
        for outcome in deal:
            state = self.step(state, {CHANCE_SEAT: outcome})
        if rnd["first"] != state.first or not is_int(rnd["first"]):
            raise self.fail(
                f"'first' is {rnd['first']!r} but seat {state.first} has the highest starter", r
            )
        events = rnd["events"]
        if not isinstance(events, list):
            raise self.fail("'events' must be a list", r)
        state = self._events(state, events, r)
        scores_after = rnd["scores_after"]
        if scores_after != list(state.scores):
            raise self.fail(
                f"scores_after {scores_after!r} but the events give {list(state.scores)}", r
            )
        return state

    def _deal(self, state: TugModel, rnd: dict[str, Any], r: int) -> list[int]:
        """The chance outcomes of the deal (starters as laid, then hands), after checking
        that starters, hands and boneyard hold the set; the boneyard is kept for draws."""
        n = self.game.num_players
        ds = self.game.dominoes
        starters, hands, boneyard = rnd["starters"], rnd["hands"], rnd["boneyard"]
        if not isinstance(starters, list) or len(starters) != n:
            raise self.fail(f"'starters' must list one starter (or null) per seat ({n})", r)
        if not isinstance(hands, list) or len(hands) != n:
            raise self.fail(f"'hands' must list one hand (or null) per seat ({n})", r)
        if not isinstance(boneyard, list):
            raise self.fail("'boneyard' must be a list of tiles", r)
        tiles = _Deal(self, r)
        deal = self._starters(state, starters, tiles, r)
        deal.extend(self._hands(state, hands, tiles, r))
        self._pile = [ds.index(*tiles.tile(v, f"boneyard tile {k}")) for k, v in _count(boneyard)]
        self._next_draw = 0
        if len(tiles.seen) != ds.size:
            missing = [ds.name(t) for t in range(ds.size) if t not in tiles.seen]
            raise self.fail(
                f"starters, hands and boneyard must hold all {ds.size} tiles of the "
                f"{ds.title()} set; missing: {' '.join(missing)}",
                r,
            )
        return deal

    def _starters(self, state: TugModel, starters: list[Any], tiles: _Deal, r: int) -> list[int]:
        out = []
        for s in range(self.game.num_players):
            if not state.playing[s]:
                why = "is out of the game" if not state.in_game[s] else "sits out the tie-break"
                if starters[s] is not None:
                    raise self.fail(f"seat {s} {why} but has a starter", r)
                continue
            if starters[s] is None:
                raise self.fail(f"seat {s} plays this round but its starter is null", r)
            a, b = tiles.tile(starters[s], f"starter of seat {s}")
            out.append(self.game.dominoes.oriented(a, b))
        return out

    def _hands(self, state: TugModel, hands: list[Any], tiles: _Deal, r: int) -> list[int]:
        ds = self.game.dominoes
        size = self.game.hand_size
        out = []
        for s in range(self.game.num_players):
            hand = hands[s]
            if not state.playing[s]:
                if hand is not None:
                    raise self.fail(f"seat {s} does not play this round but has a hand", r)
                continue
            if not isinstance(hand, list) or len(hand) != size:
                got = len(hand) if isinstance(hand, list) else hand
                raise self.fail(f"seat {s} must be dealt {size} tiles, got {got!r}", r)
            for k, value in _count(hand):
                a, b = tiles.tile(value, f"tile {k} of seat {s}'s hand")
                out.append(ds.canonical_outcome(ds.index(a, b)))
        return out

    def _events(self, state: TugModel, events: list[Any], r: int) -> TugModel:
        round_no = state.round
        for e, event in _count(events):
            if state.round != round_no or state.is_terminal():
                raise self.fail("the round is already over; no further event can happen", r, e)
            state = self.event(state, event, r, e)
        if state.round == round_no and not state.is_terminal():
            if state.phase == BONUS:
                assert state.bonus is not None
                need = f"seat {state.bonus.winner}'s bonus allocation"
            else:
                need = f"a move by seat {state.current}"
            raise self.fail(
                f"the events stop before the round is over (next would be {need})", r, len(events)
            )
        return state

    # -- one event ------------------------------------------------------------------------

    def event(self, state: TugModel, event: Any, r: int, e: int) -> TugModel:
        """Replay event ``e`` of round ``r``."""
        seat, kind = self._event_header(state, event, r, e)
        try:
            if kind == "play":
                return self._play(state, seat, event, r, e)
            if kind == "pass":
                if not state.is_legal(seat, self.game.PASS):
                    reason = state.illegal_reason(seat, self.game.PASS)
                    raise self.fail(f"seat {seat} may not pass: {reason}", r, e)
                return self.step(state, {seat: self.game.PASS})
            if kind == "draw":
                return self._draw(state, seat, event, r, e)
            return self._bonus(state, event, r, e)
        except ActionError as exc:  # pragma: no cover - every case is checked above
            raise self.fail(str(exc), r, e) from None

    def _event_header(self, state: TugModel, event: Any, r: int, e: int) -> tuple[int, str]:
        """The event's seat and type, checked against who acts now."""
        n = self.game.num_players
        if not isinstance(event, dict):
            raise self.fail("an event must be a JSON object", r, e)
        kind = event.get("type")
        seat = event.get("seat")
        if kind not in EVENT_TYPES:
            raise self.fail(
                f"unknown event type {kind!r}; types are {', '.join(EVENT_TYPES)}", r, e
            )
        if not is_int(seat) or not 0 <= seat < n:
            raise self.fail(f"'seat' must be a seat 0..{n - 1}, got {seat!r}", r, e)
        acting = state.acting_seats()[0]
        if state.phase == BONUS:
            if kind != "bonus":
                raise self.fail(
                    f"seat {acting} has won the round; the next event must be its bonus, "
                    f"not a {kind}",
                    r,
                    e,
                )
        elif kind == "bonus":
            raise self.fail("no bonus is due: the round is not won yet", r, e)
        if seat != acting:
            raise self.fail(f"it is seat {acting}'s move, not seat {seat}'s", r, e)
        return seat, str(kind)

    def _play(self, state: TugModel, seat: int, event: dict[str, Any], r: int, e: int) -> TugModel:
        game = self.game
        ds = game.dominoes
        try:
            a, b = ds.from_json(event.get("tile"))
        except ValueError as exc:
            raise self.fail(f"play: {exc}", r, e) from None
        train, end = event.get("train"), event.get("end")
        if not is_int(train) or not 0 <= train < game.num_players:
            raise self.fail(f"play: 'train' must be a seat's train, got {train!r}", r, e)
        if not is_int(end) or end not in (0, 1):
            raise self.fail(f"play: 'end' must be 0 or 1, got {end!r}", r, e)
        action = game.play_id(ds.index(a, b), train, end)
        if not state.is_legal(seat, action):
            raise self.fail(
                f"seat {seat} cannot play {a}-{b} on train {train} end {end}: "
                + state.illegal_reason(seat, action),
                r,
                e,
            )
        return self.step(state, {seat: action})

    def _draw(self, state: TugModel, seat: int, event: dict[str, Any], r: int, e: int) -> TugModel:
        game = self.game
        ds = game.dominoes
        if not state.is_legal(seat, game.DRAW):
            raise self.fail(
                f"seat {seat} may not draw: " + state.illegal_reason(seat, game.DRAW), r, e
            )
        try:
            a, b = ds.from_json(event.get("tile"))
        except ValueError as exc:
            raise self.fail(f"draw: {exc}", r, e) from None
        if self._next_draw >= len(self._pile):
            raise self.fail("draw: the record's boneyard has no tile left", r, e)
        expected = self._pile[self._next_draw]
        if ds.index(a, b) != expected:
            raise self.fail(
                f"seat {seat} draws {a}-{b} but the next boneyard tile is {ds.name(expected)}",
                r,
                e,
            )
        self._next_draw += 1
        state = self.step(state, {seat: game.DRAW})
        return self.step(state, {CHANCE_SEAT: ds.canonical_outcome(expected)})

    def _bonus(self, state: TugModel, event: dict[str, Any], r: int, e: int) -> TugModel:
        bonus = state.bonus
        assert bonus is not None
        shares = self._shares(state, event.get("allocation"), r, e)
        # One give step per opponent in allocation order, until nothing is left; then keep.
        for target in bonus.targets:
            current = state.bonus
            assert current is not None
            if current.target is None:
                break
            state = self.step(state, {bonus.winner: self.game.give_id(shares.get(target, 0))})
        assert state.phase == BONUS
        return self.step(state, {bonus.winner: self.game.KEEP})

    def _shares(self, state: TugModel, allocation: Any, r: int, e: int) -> dict[int, int]:
        """The allocation's shares by seat, checked: round seats, whole, adding up."""
        bonus = state.bonus
        assert bonus is not None
        if not isinstance(allocation, dict):
            raise self.fail("bonus: 'allocation' must be an object seat -> points", r, e)
        shares: dict[int, int] = {}
        allowed = {bonus.winner, *bonus.targets}
        for key, value in allocation.items():
            seat = _seat_key(key)
            if seat is None or seat not in allowed:
                seats = ", ".join(str(s) for s in sorted(allowed))
                written = (
                    seat is None and isinstance(key, str) and key.strip().lstrip("+").isdecimal()
                )
                what = "the seat number written plainly" if written else "a seat of this round"
                raise self.fail(
                    f"bonus: key {key!r} is not {what}; keys are the seat numbers {seats}, "
                    "each once",
                    r,
                    e,
                )
            if not is_int(value) or value < 0:
                raise self.fail(
                    f"bonus: seat {key}'s share must be a whole number >= 0, got {value!r}", r, e
                )
            shares[seat] = value
        given = sum(shares.values())
        if given != bonus.total:
            what = "fewest pips in a blocked round" if bonus.blocked else "going out"
            raise self.fail(
                f"bonus: the shares add up to {given} but seat {bonus.winner} won by {what} and "
                f"the leftover is {bonus.total} pips",
                r,
                e,
            )
        if not self.game.split_bonus and shares.get(bonus.winner, 0) not in (0, bonus.total):
            (opponent,) = bonus.targets
            raise self.fail(
                f"bonus: in a two-player game the leftover is not split, but the allocation "
                f"gives seat {bonus.winner} {shares.get(bonus.winner, 0)} and takes "
                f"{shares.get(opponent, 0)} from seat {opponent}; seat {bonus.winner} either "
                f"keeps all {bonus.total} or takes all {bonus.total} from seat {opponent}",
                r,
                e,
            )
        return shares


def _seat_key(key: object) -> int | None:
    """The seat an allocation key names when it is a seat number in plain digits (``"1"``;
    not ``"01"``, ``"+1"`` or ``" 1"``), else None."""
    if isinstance(key, str) and _PLAIN_SEAT.fullmatch(key):
        return int(key)
    return None


def _count(items: list[Any]) -> list[tuple[int, Any]]:
    """``items`` numbered from 1."""
    return list(enumerate(items, start=1))
