"""Game records: one JSON format for every game, written by every command, replayed exactly.

A record (format :data:`RECORD_FORMAT`) is a JSON object::

    {"format": 1, "game": "<name>", "version": "1", "options": {...every option...},
     "seed": 7, "seats": {"X": "human", "O": "greedy"},
     "moves": [{"X": "c", "O": "h"}, {"chance": "4"}, ...],
     "result": {"winners": ["X"], "reason": "home"},
     "meta": {...}}

* ``moves`` has one entry per node along the game: each acting seat's name (``"chance"``
  for nature) mapped to its action in the game's notation, so every chance outcome is
  there and a replay never needs the seed;
* ``result`` is null while the game goes on (an unfinished game can be resumed); a draw by
  agreement is a result with no winners and the reason ``agreement`` after the last move;
* ``seed`` and ``seats`` say how the game was played (informational);
* a game may add fields of its own beside these (its plugin's
  :class:`RecordPart`, such as a score sheet); a replay checks them against the moves.

Records written before the format existed are read too: the first generic records (with
``outcome`` and ``agreed_draw``) and records made only of a game's own fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taut.core.errors import ActionError, RecordError, TautError
from taut.core.forfeit import FORFEITS, forfeit
from taut.core.game import Game, State
from taut.core.record_files import read_records, write_text
from taut.core.record_part import Joint, RecordPart
from taut.core.terms import AGREEMENT, CHANCE_SEAT, JSON

#: The record format this version writes and reads.
RECORD_FORMAT = 1

#: Fields of the generic format (anything else belongs to the game's own part).
GENERIC_FIELDS = frozenset(
    {
        "format",
        "game",
        "version",
        "options",
        "seed",
        "seats",
        "moves",
        "result",
        "meta",
        "commitments",
    }
)
#: Fields of the first generic records, read for compatibility.
LEGACY_FIELDS = frozenset({"outcome", "agreed_draw"})


def _result_json(state: State) -> dict[str, Any] | None:
    out = state.outcome
    if out is None:
        return None
    return {"winners": [state.seat_name(s) for s in out.winners], "reason": out.reason.name}


@dataclass
class GameRecord:
    """A complete, replayable record of one game (finished or not)."""

    game: str
    options: dict[str, Any]
    moves: list[dict[str, str]] | None = field(default_factory=list)
    """One entry per node; None when the record holds only its game's own fields."""
    seed: int | None = None
    seats: dict[str, str] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    version: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    part: dict[str, Any] = field(default_factory=dict)
    """The game's own fields (see :class:`RecordPart`)."""
    commitments: list[dict[str, Any]] = field(default_factory=list)
    """Choices made at the same time, committed by hash before they were revealed: one
    ``{"move": k, "seat": name, "hash": ..., "action": ..., "salt": ...}`` per seat and
    move, as the browser server keeps them (``taut verify`` checks every one)."""
    legacy: bool = False
    """True for a record written before the format existed (no ``format`` field)."""
    tracker: RecordPart | None = field(default=None, repr=False, compare=False)

    # -- writing --------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        game: Game,
        seed: int | None = None,
        seats: Mapping[str, str] | None = None,
        **meta: Any,
    ) -> GameRecord:
        """An empty record for a new game of ``game``."""
        from taut.core.registry import plugin_of

        return cls(
            game=game.name,
            options=dict(game.options),
            seed=seed,
            seats=dict(seats or {}),
            version=game.info.version,
            meta=dict(meta),
            tracker=plugin_of(game).record_part(game),
        )

    def add(self, before: State, joint: Mapping[int, int], after: State | None = None) -> None:
        """Append the joint action taken at ``before`` (``after``: the state it led to)."""
        if self.moves is None:
            raise RecordError("this record has no move list to add to")
        self.moves.append(
            {
                (
                    "chance" if seat == CHANCE_SEAT else before.seat_name(seat)
                ): before.action_to_string(seat, action)
                for seat, action in sorted(joint.items())
            }
        )
        if self.tracker is not None:
            self.tracker.observe(before, joint, after if after is not None else before.apply(joint))

    def finish(self, state: State) -> None:
        """Note the outcome of the final ``state`` (None while it goes on)."""
        self.result = _result_json(state)

    @property
    def finished(self) -> bool:
        """True when the record holds a result."""
        return self.result is not None

    # -- JSON -----------------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The record as a JSON object."""
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
        }
        if self.moves is not None:
            out["moves"] = self.moves
        out["result"] = self.result
        out["meta"] = self.meta
        if self.commitments:
            out["commitments"] = self.commitments
        part = self.tracker.fields() if self.tracker is not None else self.part
        out.update(part)
        return out

    @classmethod
    def from_json(cls, data: JSON) -> GameRecord:
        """Parse a record object; raises :class:`RecordError` naming the bad field.

        Long by nature: one check a field, in the order of the format's fields."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        fmt = data.get("format")
        if fmt is not None and not (_is_int(fmt) and fmt >= 1):
            raise RecordError(f"record field 'format' must be a positive integer, got {fmt!r}")
        if fmt is not None and fmt > RECORD_FORMAT:
            raise RecordError(
                f"record format {fmt} is newer than this version of taut reads ({RECORD_FORMAT})"
            )
        for key, kind in (("game", str), ("options", dict)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
        moves = data.get("moves")
        if moves is not None:
            if not isinstance(moves, list):
                raise RecordError("record field 'moves' must be a list")
            for i, move in enumerate(moves, start=1):
                if (
                    not isinstance(move, dict)
                    or not move
                    or not all(isinstance(k, str) and isinstance(v, str) for k, v in move.items())
                ):
                    raise RecordError(
                        f"move {i} must map seat names to action strings, got {move!r}"
                    )
        meta = data.get("meta") or {}
        if not isinstance(meta, dict):
            raise RecordError("record field 'meta' must be an object")
        seed = data.get("seed", meta.get("seed") if fmt is None else None)
        if seed is not None and not _is_int(seed):
            raise RecordError(f"record field 'seed' must be an integer or null, got {seed!r}")
        seats = data.get("seats") or {}
        if not isinstance(seats, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in seats.items()
        ):
            raise RecordError("record field 'seats' must map seat names to who played them")
        result = _read_result(data, fmt)
        version = data.get("version")
        if version is not None and not isinstance(version, str):
            raise RecordError(f"record field 'version' must be text, got {version!r}")
        commitments = data.get("commitments") or []
        if not isinstance(commitments, list) or not all(
            isinstance(c, dict)
            and _is_int(c.get("move"))
            and all(isinstance(c.get(k), str) for k in ("seat", "hash", "action", "salt"))
            for c in commitments
        ):
            raise RecordError(
                "record field 'commitments' must list {move, seat, hash, action, salt} objects"
            )
        skip = GENERIC_FIELDS | (LEGACY_FIELDS if fmt is None else frozenset())
        part = {k: v for k, v in data.items() if k not in skip}
        if moves is None and not part:
            raise RecordError("record field 'moves' is missing")
        return cls(
            game=data["game"],
            options=data["options"],
            moves=moves,
            seed=seed,
            seats=seats,
            result=result,
            version=version,
            meta=meta,
            part=part,
            commitments=commitments,
            legacy=fmt is None,
        )

    # -- replaying -----------------------------------------------------------------------

    def _make_game(self) -> Game:
        from taut.core.registry import make

        try:
            return make(self.game, **self.options)
        except TautError as exc:
            raise RecordError(f"record cannot set up the game: {exc}") from exc

    def positions(self, game: Game | None = None) -> Iterator[tuple[Joint | None, State]]:
        """Replay the record, checking every step: yields ``(None, start)``, then
        ``(joint, state after it)`` for each move; for a draw agreed after the last move,
        a final ``({}, drawn state)``. The result is checked at the end.

        The game is rebuilt from the record's name and options unless ``game`` is given.
        Raises :class:`RecordError` naming the move or field that fails.
        """
        game = game if game is not None else self._make_game()
        implied = self._part_joints(game)
        state = game.new_initial_state()
        yield None, state
        steps: list[Any] = implied if self.moves is None else self.moves  # type: ignore[assignment]
        for i, step in enumerate(steps, start=1):
            joint = step if self.moves is None else self._parse(game, state, i, step)
            if implied is not None and self.moves is not None:
                if i > len(implied):
                    if self.finished:
                        raise RecordError(
                            f"move {i}: the game's own fields end after {len(implied)} moves"
                        )
                elif implied[i - 1] != joint:
                    raise RecordError(
                        f"move {i}: the moves say {self._show(state, joint)} but the game's "
                        f"own fields say {self._show(state, implied[i - 1])}"
                    )
            try:
                state = state.apply(joint)
            except ActionError as exc:
                raise RecordError(f"move {i} {self._show(state, joint)}: {exc}") from exc
            yield joint, state
        if implied is not None and len(steps) < len(implied):
            raise RecordError(
                f"the moves stop after {len(steps)} but the game's own fields go on "
                f"to {len(implied)}"
            )
        final = self._check_result(state)
        if final is not state:
            yield {}, final

    def replay(self, game: Game | None = None) -> State:
        """Replay every move from the start and return the final state (see :meth:`positions`)."""
        final: State | None = None
        for _, state in self.positions(game):
            final = state
        assert final is not None
        return final

    def _part_joints(self, game: Game) -> list[Joint] | None:
        if not self.part:
            return None
        from taut.core.registry import plugin_of

        tracker = plugin_of(game).record_part(game)
        if tracker is None:
            raise RecordError(
                f"unknown record field(s) {', '.join(sorted(self.part))} for {game.title}"
            )
        unknown = set(self.part) - set(tracker.keys)
        if unknown:
            raise RecordError(f"unknown record field(s) {', '.join(sorted(unknown))}")
        data = self.to_json()
        if self.legacy:
            del data["format"]  # the part may read older records differently
        return tracker.replay(data)

    @staticmethod
    def _parse(game: Game, state: State, i: int, move: Mapping[str, str]) -> Joint:
        """The joint action of move ``i`` in notation, read at the state it is played at."""
        joint: Joint = {}
        try:
            for name, text in move.items():
                seat = CHANCE_SEAT if name == "chance" else game.seat_index(name)
                joint[seat] = state.string_to_action(seat, text)
        except ActionError as exc:
            raise RecordError(f"move {i} {dict(move)}: {exc}") from exc
        return joint

    @staticmethod
    def _show(state: State, joint: Mapping[int, int]) -> str:
        parts = []
        for seat, action in sorted(joint.items()):
            try:
                text = state.action_to_string(seat, action)
            except Exception:  # an id the position cannot name: show the id
                text = str(action)
            parts.append(f"{state.seat_name(seat)} {text}")
        return "{" + ", ".join(parts) + "}"

    def _check_result(self, state: State) -> State:
        """The final state, ended by agreement where the record says so; the record's
        result must be the replayed one."""
        reason = (self.result or {}).get("reason")
        if reason == AGREEMENT.name and state.outcome is None:
            try:
                state = state.end_by_agreement()
            except ActionError as exc:
                raise RecordError(f"the record ends in an agreed draw, but {exc}") from exc
        ended = next((t for t in FORFEITS if t.name == reason), None)
        if ended is not None and state.outcome is None and self.result is not None:
            names = state.game.info.seats
            losers = [s for s, name in enumerate(names) if name not in self.result["winners"]]
            if len(losers) != 1:
                raise RecordError("a forfeit names every seat but the one that forfeited")
            state = forfeit(state, losers[0], ended)
        got = _result_json(state)
        if self.result is not None and got != self.result:
            raise RecordError(f"record says the result is {self.result}, replay gives {got}")
        if self.result is None and got is not None and not (self.legacy and self.part):
            # (A record made of a game's own fields alone states its result there.)
            raise RecordError(f"record has no result, but the game is over: {got}")
        return state

    # -- files ----------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (see :func:`write_text`)."""
        write_text(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read the one record in ``path``; raises :class:`RecordError`."""
        records = read_records(path)
        if len(records) != 1:
            raise RecordError(f"{path} holds {len(records)} records; expected one")
        return cls.from_json(records[0])


def _read_result(data: dict[str, Any], fmt: Any) -> dict[str, Any] | None:
    if fmt is None and "result" not in data:
        result = data.get("outcome")
        if result is None and data.get("agreed_draw") is True:
            result = {"winners": [], "reason": AGREEMENT.name}
    else:
        result = data.get("result")
    if result is None:
        return None
    if (
        not isinstance(result, dict)
        or set(result) != {"winners", "reason"}
        or not isinstance(result["winners"], list)
        or not all(isinstance(w, str) for w in result["winners"])
        or not isinstance(result["reason"], str)
    ):
        raise RecordError(
            'record field \'result\' must be null or {"winners": [seat, ...], "reason": "..."}'
        )
    return result


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
