"""Moves as the store keeps them (each acting seat's action in the game's notation, or
``chance``'s outcome), read at the state they were played at and applied once.

A command reads its move three times: to find the chance nodes it reaches, to know whether
it ends the game, then to apply what was written. States are values, so :func:`applied`
keeps what each move made by the state's identity (:class:`~taut.server.play.kept.Kept`).
"""

from __future__ import annotations

from collections.abc import Mapping

from taut.core.game import State
from taut.core.terms import CHANCE_SEAT
from taut.server.play.kept import Kept

#: A joint action: each acting seat's action id (``CHANCE_SEAT`` for chance's outcome).
Joint = dict[int, int]


def parse_joint(state: State, joint_text: Mapping[str, str]) -> Joint:
    """A stored joint action in notation, read at the state it was played at."""
    game = state.game
    joint: Joint = {}
    for name, text in joint_text.items():
        seat = CHANCE_SEAT if name == "chance" else game.seat_index(name)
        joint[seat] = state.string_to_action(seat, text)
    return joint


#: How many moves applied are kept (the moves of a busy server's last few commands, which are
#: read while their events are written).
APPLIED_KEPT = 256
#: The joints last applied, by the state's identity and the joint as stored: the joint read
#: and the state it makes.
_APPLIED: Kept[tuple[Joint, State]] = Kept(APPLIED_KEPT)


def applied(state: State, joint_text: Mapping[str, str]) -> tuple[Joint, State]:
    """The stored joint action ``joint_text`` read at ``state`` and the state it makes. A
    command reads its move three times (to find the chance nodes it reaches, to know whether
    it ends the game, then to apply what was written); states are values, so each move is
    read and applied once."""
    said = tuple(joint_text.items())
    found = _APPLIED.get(state, None, said)[1]
    if found is None:
        joint = parse_joint(state, joint_text)
        found = (joint, state.apply(joint))
        _APPLIED.put(state, None, said, found)
    return found
