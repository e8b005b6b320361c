"""Checking a finished game: every commitment against its reveal, and every move by the rules.

``taut verify RECORD`` and the page ``/verify`` run :func:`verify_record`. For every
commitment of the record it recomputes the hash from the revealed move and salt, checks
that the revealed move is the one the record plays at that move for that seat, and that
every seat that chose at a node where several seats act committed first (a record without
any commitment cannot show that, so it is not verified); then it replays the whole game
(each move legal, the result the recorded one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taut.core.errors import TautError
from taut.core.game import State
from taut.core.record import GameRecord
from taut.core.record_files import parse_json
from taut.core.terms import NodeKind
from taut.server.play.commit import commitment, valid_hash, valid_salt


@dataclass
class Report:
    """What a check found."""

    ok: bool = False
    problems: list[str] = field(default_factory=list)
    checked: int = 0
    """Commitments whose hash was recomputed."""
    matched: int = 0
    """Commitments whose hash matches the revealed move and salt."""
    moves: int = 0
    result: str | None = None
    readable: bool = False
    """False when the text is not a record at all (as opposed to a record that is wrong)."""

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "ok": self.ok,
            "problems": self.problems,
            "commitments": self.checked,
            "matched": self.matched,
            "moves": self.moves,
            "result": self.result,
            "readable": self.readable,
        }


def verify_record(raw: str | bytes) -> Report:
    """Check a record given as JSON text (see the module docstring)."""
    report = Report()
    try:
        record = GameRecord.from_json(parse_json(raw, "the record"))
    except TautError as exc:
        report.problems.append(str(exc))
        return report
    report.readable = True
    moves = record.moves or []
    report.moves = len(moves)
    try:
        states = [state for _, state in record.positions()]
    except TautError as exc:
        report.problems.append(str(exc))
        return report
    committed = _check_commitments(record, states, moves, report)
    _check_committed(record, states[: len(moves)], committed, report)
    report.result = states[-1].describe_outcome()
    report.ok = not report.problems
    return report


def _check_commitments(
    record: GameRecord, states: list[State], moves: list[Any], report: Report
) -> set[tuple[int, str]]:
    """Each commitment's hash, and its reveal against the move played; the ``(move,
    seat)`` pairs committed."""
    game_id = str(record.meta.get("game_id", ""))
    committed: set[tuple[int, str]] = set()
    for entry in record.commitments:
        move, seat = int(entry["move"]), str(entry["seat"])
        where = f"move {move}, seat {seat}"
        report.checked += 1
        if (move, seat) in committed:
            report.problems.append(f"{where}: committed twice")
            continue
        committed.add((move, seat))
        action, salt, digest = str(entry["action"]), str(entry["salt"]), str(entry["hash"])
        if not valid_hash(digest) or not valid_salt(salt):
            report.problems.append(f"{where}: a hash is 64 and a salt 32 lower-case hex digits")
        elif commitment(game_id, move, seat, action, salt) != digest:
            report.problems.append(f"{where}: the hash does not match")
        else:
            report.matched += 1
        if not 0 <= move < len(moves):
            report.problems.append(f"{where}: no such move in the record")
            continue
        played = moves[move].get(seat)
        if played is None:
            report.problems.append(f"{where}: revealed {action!r}, but the seat played nothing")
        elif action != played:
            # The same move may be written two ways ("S=pull,L=pass" and "L=pass,S=pull"):
            # the rules at that move say whether the two texts name one move. A record whose
            # earlier moves were altered reaches other positions, so text that is the same
            # is a match whatever the position.
            _compare(states[move], seat, action, played, where, report)
    return committed


def _compare(state: State, seat: str, action: str, played: str, where: str, report: Report) -> None:
    """A problem unless ``action`` and ``played`` name the same move at ``state``."""
    try:
        index = state.game.seat_index(seat)
        said = state.action_to_string(index, state.string_to_action(index, action))
    except TautError as exc:
        report.problems.append(
            f"{where}: revealed {action!r}, played {played!r} (the revealed move is not "
            f"one of that position's: {exc})"
        )
        return
    if said != played:
        shown = "" if said == action else f" ({said!r} in the record's notation)"
        report.problems.append(f"{where}: revealed {action!r}{shown}, played {played!r}")


def _check_committed(
    record: GameRecord, states: list[State], committed: set[tuple[int, str]], report: Report
) -> None:
    """Every seat choosing at a node where several act committed first."""
    unsealed = [
        (k, state.seat_name(seat))
        for k, state in enumerate(states)
        if state.kind is NodeKind.SIMULTANEOUS
        for seat in state.acting_seats()
        if (k, state.seat_name(seat)) not in committed
    ]
    if not unsealed:
        return
    if not record.commitments:
        report.problems.append(
            f"the record holds no commitments, so its {len(unsealed)} choices made at the "
            "same time cannot be checked (a record of a game served by taut serve holds them)"
        )
        return
    for k, seat in unsealed:
        report.problems.append(f"move {k}, seat {seat}: played without a commitment")
