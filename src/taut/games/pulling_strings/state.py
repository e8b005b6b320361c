"""The Pulling Strings state: stacks, broken ends, turn count and the outcome.

The state keeps the stacks as a small dict ``cell -> disks`` and the broken ends as a bit
mask, so one turn costs a table lookup per stack (see ``board.py``); the game
(``rules.py``) holds the move plans and the letters the state reads.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from taut.core.errors import IllegalActionError, MalformedActionError
from taut.core.game import State
from taut.core.terms import AGREEMENT, JSON, TURN_LIMIT, NodeKind, Outcome, Termination
from taut.games.pulling_strings.board import (
    CELL_END_MASK,
    HOME_CELLS,
    NUM_ENDS,
    SIZE,
    Plan,
    end_name,
    opposite,
)

if TYPE_CHECKING:  # annotations only: the rules import this module
    from taut.games.pulling_strings.rules import PullingStrings

X, O = 0, 1
#: Disks needed on a player's homes to win.
WIN_DISKS = 5
#: Disks on the center at the start.
START_DISKS = 5

#: A side brought five disks home (and more than the other).
HOME = Termination("home", "five disks home")
#: Broken ends leave no stack any move: a draw.
STUCK = Termination("stuck", "no stack can move any more")

_X0, _X1, _X2, _X3 = HOME_CELLS[0]
_O0, _O1, _O2, _O3 = HOME_CELLS[1]


def move_stacks(stacks: Mapping[int, int], plan: Plan) -> dict[int, int]:
    """The stacks after every stack follows ``plan`` (splits first, then combines)."""
    new: dict[int, int] = {}
    get = new.get
    for cell, n in stacks.items():
        m = plan[cell]
        if type(m) is int:
            new[m] = get(m, 0) + n
        else:
            h = (n + 1) >> 1
            a, b = m  # type: ignore[misc]
            new[a] = get(a, 0) + h
            new[b] = get(b, 0) + h
    return new


class PullingStringsState(State):
    """A Pulling Strings position: stacks, broken ends, turn count and the outcome."""

    __slots__ = ("_home", "_outcome", "_stacks", "broken", "game", "turn")

    game: PullingStrings

    def __init__(
        self,
        game: PullingStrings,
        stacks: dict[int, int],
        broken: int,
        turn: int,
        outcome: Outcome | None = None,
    ) -> None:
        self.game = game
        self._stacks = stacks
        self.broken = broken
        self.turn = turn
        get = stacks.get
        self._home = (
            get(_X0, 0) + get(_X1, 0) + get(_X2, 0) + get(_X3, 0),
            get(_O0, 0) + get(_O1, 0) + get(_O2, 0) + get(_O3, 0),
        )
        self._outcome = outcome if outcome is not None else self._judge()

    def _judge(self) -> Outcome | None:
        hx, ho = self._home
        if (hx >= WIN_DISKS or ho >= WIN_DISKS) and hx != ho:
            return Outcome((X,) if hx > ho else (O,), HOME)
        broken = self.broken
        if broken:
            for cell in self._stacks:
                if CELL_END_MASK[cell] & ~broken:
                    break
            else:
                return Outcome((), STUCK)
        mt = self.game.max_turns
        if mt is not None and self.turn >= mt:
            return Outcome((), TURN_LIMIT)
        return None

    # -- read access -----------------------------------------------------------------------

    @property
    def stacks(self) -> Mapping[int, int]:
        """Read-only ``cell -> disks`` (cell = row * 5 + col)."""
        return MappingProxyType(self._stacks)

    def stack_list(self) -> list[list[int]]:
        """Stacks as sorted ``[row, col, count]`` triples."""
        return [[c // SIZE, c % SIZE, n] for c, n in sorted(self._stacks.items())]

    def home(self) -> tuple[int, int]:
        """Disks on X's homes and on O's homes."""
        return self._home

    def broken_ends(self) -> list[int]:
        """Ids of broken ends, ascending."""
        return [e for e in range(NUM_ENDS) if self.broken >> e & 1]

    def broken_letters(self) -> list[str]:
        """Letters of broken ends, sorted."""
        return sorted(self.game.letters[e] for e in self.broken_ends())

    def total_disks(self) -> int:
        """Disks on the board."""
        return sum(self._stacks.values())

    # -- protocol ------------------------------------------------------------------------

    @property
    def kind(self) -> NodeKind:
        """SIMULTANEOUS while the game goes on, then TERMINAL."""
        return NodeKind.TERMINAL if self._outcome is not None else NodeKind.SIMULTANEOUS

    def acting_seats(self) -> tuple[int, ...]:
        """Both seats at once, or nobody when the game is over."""
        return () if self._outcome is not None else (X, O)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    def legal_actions(self, seat: int) -> Sequence[int]:
        """The unbroken ends (the same for both seats)."""
        if self._outcome is not None or seat not in (X, O):
            return ()
        return self.game.legal_ends(self.broken)

    def is_legal(self, seat: int, action: int) -> bool:
        """True for an unbroken end while the game goes on."""
        return (
            self._outcome is None
            and seat in (X, O)
            and 0 <= action < NUM_ENDS
            and not self.broken >> action & 1
        )

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain an illegal pull."""
        legal = " ".join(self.game.letters[e] for e in self.legal_actions(seat))
        if not 0 <= action < NUM_ENDS:
            return f"{action} is not an end id (0..19); unbroken ends: {legal}"
        return f"end {self.game.letters[action]} is broken; unbroken ends: {legal}"

    def _apply(self, joint: dict[int, int]) -> PullingStringsState:
        return self.pull(joint[X], joint[O])

    def pull(self, p: int, q: int) -> PullingStringsState:
        """The successor when X pulls end ``p`` and O pulls end ``q`` (not validated).

        This is the hot path of search and playouts; :meth:`apply` validates first.
        """
        game = self.game
        plan = game.plans[p * NUM_ENDS + q]
        # move_stacks, inlined (a call per child is a noticeable share of a search), with
        # membership tests in place of dict.get calls; the same stacks in the same order.
        new: dict[int, int] = {}
        for cell, n in self._stacks.items():
            m = plan[cell]
            if type(m) is int:
                if m in new:
                    new[m] += n
                else:
                    new[m] = n
            else:
                h = (n + 1) >> 1
                a, b = m  # type: ignore[misc]
                if a in new:
                    new[a] += h
                else:
                    new[a] = h
                if b in new:
                    new[b] += h
                else:
                    new[b] = h
        broken = self.broken
        if p == q:
            broken |= 1 << p
            if game.break_string:
                broken |= 1 << opposite(p)
        return PullingStringsState(game, new, broken, self.turn + 1)

    @property
    def outcome(self) -> Outcome | None:
        """Winner by disks home, or a draw (``stuck``, ``max_turns``, ``agreement``)."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """+1 / -1 for a win / loss, 0 for a draw or an unfinished game."""
        out = self._outcome
        if out is None or not out.winners:
            return (0.0, 0.0)
        return (1.0, -1.0) if out.winners[0] == X else (-1.0, 1.0)

    def end_by_agreement(self) -> PullingStringsState:
        """The same position, ended as a draw agreed by both players."""
        if self._outcome is not None:
            raise IllegalActionError(
                f"the game is already over ({self.describe_outcome()}); no draw to agree"
            )
        return PullingStringsState(
            self.game, dict(self._stacks), self.broken, self.turn, Outcome((), AGREEMENT)
        )

    # -- notation ------------------------------------------------------------------------

    def action_to_string(self, seat: int, action: int) -> str:
        """The end's letter."""
        return self.game.letters[action]

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse a letter (either case) or a geometric name such as ``N2``."""
        end = self.game.end_index(text)
        if end is None:
            raise MalformedActionError(
                f"{text.strip()!r} names no string end; ends are {' '.join(self.game.letters)} "
                "(or N0..N4, E0..E4, S0..S4, W0..W4)"
            )
        return end

    def action_to_json(self, seat: int, action: int) -> JSON:
        """``{"end": "N2", "letter": "c"}``."""
        return {"end": end_name(action), "letter": self.game.letters[action]}

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Accept the object form, or a bare letter / end name."""
        if isinstance(data, dict) and isinstance(data.get("end"), str):
            data = data["end"]
        elif isinstance(data, dict) and isinstance(data.get("letter"), str):
            data = data["letter"]
        if not isinstance(data, str):
            raise MalformedActionError(f"expected {{'end': 'N2'}} or a letter, got {data!r}")
        return self.string_to_action(seat, data)

    # -- serialisation ---------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The position in the replay format (stacks and broken ends sorted)."""
        out = self._outcome
        result = (
            None if out is None else ("draw" if out.is_draw else self.seat_name(out.winners[0]))
        )
        return {
            "turn": self.turn,
            "stacks": self.stack_list(),
            "broken": self.broken_letters(),
            "home": {"X": self._home[0], "O": self._home[1]},
            "result": result,
        }

    def key(self) -> tuple[Any, ...]:
        """A hashable key of the position (for transposition tables)."""
        return (tuple(sorted(self._stacks.items())), self.broken)

    def transposition_key(self) -> Hashable:
        """The position without the turn when no turn limit makes the turn matter."""
        if self.game.max_turns is None:
            return self.key()
        return (self.key(), self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PullingStringsState):
            return NotImplemented
        return (
            self.game.letters == other.game.letters
            and self._stacks == other._stacks
            and self.broken == other.broken
            and self.turn == other.turn
            and self._outcome == other._outcome
        )

    def __hash__(self) -> int:
        return hash((self.key(), self.turn))

    def __repr__(self) -> str:
        return (
            f"PullingStringsState(turn={self.turn}, stacks={self.stack_list()}, "
            f"broken={self.broken_letters()})"
        )
