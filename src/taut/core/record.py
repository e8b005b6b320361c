"""Game records: a JSON document that replays exactly to the same final state.

A record holds the game name, its resolved options and one entry per node along the game:
a mapping from seat name (``"chance"`` for nature) to the action in the game's notation.
A draw agreed by the players is recorded as ``"agreed_draw": true`` after the moves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taut.core.errors import ActionError, RecordError, TautError
from taut.core.game import CHANCE_SEAT, JSON, Game, State
from taut.core.registry import make


@dataclass
class GameRecord:
    """A complete, replayable record of one game."""

    game: str
    options: dict[str, Any]
    moves: list[dict[str, str]] = field(default_factory=list)
    agreed_draw: bool = False
    outcome: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, game: Game, **meta: Any) -> GameRecord:
        """An empty record for a new game of ``game``."""
        return cls(game=game.name, options=dict(game.options), meta=dict(meta))

    def add(self, state: State, joint: dict[int, int]) -> None:
        """Append the joint action taken at ``state`` (before it is applied)."""
        self.moves.append(
            {
                (
                    "chance" if seat == CHANCE_SEAT else state.seat_name(seat)
                ): state.action_to_string(seat, action)
                for seat, action in sorted(joint.items())
            }
        )

    def finish(self, state: State) -> None:
        """Note the outcome of the final ``state``."""
        out = state.outcome
        self.outcome = (
            None
            if out is None
            else {"winners": [state.seat_name(s) for s in out.winners], "reason": out.reason}
        )
        self.agreed_draw = out is not None and out.reason == "agreement"

    def replay(self, game: Game | None = None) -> State:
        """Replay every move from the start and return the final state.

        The game is rebuilt from the record's name and options unless ``game`` is given
        (for games that are not in the registry, such as wrapped views). Raises
        :class:`RecordError` naming the move that fails.
        """
        if game is None:
            try:
                game = make(self.game, **self.options)
            except TautError as exc:
                raise RecordError(f"record cannot set up the game: {exc}") from exc
        state = game.new_initial_state()
        for i, move in enumerate(self.moves, start=1):
            try:
                joint: dict[int, int] = {}
                for name, text in move.items():
                    seat = CHANCE_SEAT if name == "chance" else game.seat_index(name)
                    joint[seat] = state.string_to_action(seat, text)
                state = state.apply(joint)
            except ActionError as exc:
                raise RecordError(f"move {i} {move}: {exc}") from exc
        if self.agreed_draw:
            state = state.end_by_agreement()
        if self.outcome is not None:
            out = state.outcome
            got = (
                None
                if out is None
                else {
                    "winners": [state.seat_name(s) for s in out.winners],
                    "reason": out.reason,
                }
            )
            if got != self.outcome:
                raise RecordError(f"record says the outcome is {self.outcome}, replay gives {got}")
        return state

    def to_json(self) -> JSON:
        """The record as a JSON object."""
        return {
            "game": self.game,
            "options": self.options,
            "moves": self.moves,
            "agreed_draw": self.agreed_draw,
            "outcome": self.outcome,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: JSON) -> GameRecord:
        """Parse a record object; raises :class:`RecordError` naming the bad field."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        for key, kind in (("game", str), ("options", dict), ("moves", list)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
        moves = data["moves"]
        for i, move in enumerate(moves, start=1):
            if not isinstance(move, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in move.items()
            ):
                raise RecordError(f"move {i} must map seat names to action strings, got {move!r}")
        return cls(
            game=data["game"],
            options=data["options"],
            moves=moves,
            agreed_draw=bool(data.get("agreed_draw", False)),
            outcome=data.get("outcome"),
            meta=data.get("meta") or {},
        )

    def save(self, path: str | Path) -> None:
        """Write the record as JSON (atomically, so a crash never leaves half a file)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record written by :meth:`save`."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read record {path}: {exc}") from exc
        return cls.from_json(data)
