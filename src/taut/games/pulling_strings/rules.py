"""Pulling Strings rules: the game, its options and its immutable state.

Both players secretly choose an unbroken string end, then both pulls resolve at once
(a simultaneous node). The state keeps the stacks as a small dict ``cell -> disks`` and the
broken ends as a bit mask, so one turn costs a table lookup per stack (see ``board.py``).
"""

from __future__ import annotations

import random
import string
from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from taut.core.errors import (
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    PositionError,
)
from taut.core.game import JSON, Game, GameInfo, NodeKind, Outcome, State
from taut.core.options import MAX_TURNS, OptionSpec, OptionValue
from taut.core.registry import register
from taut.games.pulling_strings import board
from taut.games.pulling_strings.board import (
    CELL_END_MASK,
    CENTER,
    CLASSIC_LETTERS,
    HOME_CELLS,
    NUM_ENDS,
    SIZE,
)
from taut.games.pulling_strings.heuristic import evaluate

X, O = 0, 1
#: Disks needed on a player's homes to win.
WIN_DISKS = 5
#: Disks on the center at the start.
START_DISKS = 5

_X0, _X1, _X2, _X3 = HOME_CELLS[0]
_O0, _O1, _O2, _O3 = HOME_CELLS[1]


def _check(options: dict[str, OptionValue]) -> None:
    letters = options["letters"]
    if letters is None:
        return
    if options["edition"] != "published":
        raise InvalidOptionError("option 'letters' applies only to edition=published")
    text = str(letters)
    if (
        len(text) != NUM_ENDS
        or len(set(text)) != NUM_ENDS
        or not set(text) <= set(string.ascii_uppercase)
    ):
        raise InvalidOptionError(
            "option 'letters' must be 20 distinct capital letters A-Z, one per end in the "
            f"order N0..N4 E0..E4 S0..S4 W0..W4; got {text!r}"
        )


@register
class PullingStrings(Game):
    """Pulling Strings for two players, X (Eks / squares) and O (Oh / circles).

    Options: ``edition`` (``classic`` fixed letters or ``published`` with 20 of 26 letter
    tiles placed from ``seed`` or given as ``letters``), ``break`` (``end`` or ``string``),
    ``corner`` (``split`` or ``keep``) and ``max_turns``.
    """

    name = "pulling-strings"
    title = "Pulling Strings"
    OPTIONS = (
        OptionSpec(
            "edition",
            str,
            "classic",
            "2003 fixed letters or the published tiles",
            choices=("classic", "published"),
        ),
        OptionSpec(
            "break",
            str,
            "end",
            "what breaks when both pull the same end",
            choices=("end", "string"),
        ),
        OptionSpec(
            "corner",
            str,
            "split",
            "a stack pulled off both edges in a corner: split (gains a disk if odd) "
            "or keep (unchanged)",
            choices=("split", "keep"),
        ),
        MAX_TURNS,
        OptionSpec(
            "seed", int, None, "seed that places the published edition's letters", nullable=True
        ),
        OptionSpec(
            "letters",
            str,
            None,
            "published edition: the 20 letters on ends N0..N4 E0..E4 S0..S4 W0..W4",
            nullable=True,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["edition"] == "published" and self.options["letters"] is None:
            rng = random.Random(self.options["seed"])
            self.options["letters"] = "".join(rng.sample(string.ascii_uppercase, NUM_ENDS))
        self.letters: str = (
            CLASSIC_LETTERS
            if self.options["edition"] == "classic"
            else str(self.options["letters"])
        )
        self._letter_index = {ch: i for i, ch in enumerate(self.letters)}
        # Lower-case lookups too, so "C" and "c" both name the same end.
        self._letter_index.update({ch.lower(): i for i, ch in enumerate(self.letters)})
        self._letter_index.update({ch.upper(): i for i, ch in enumerate(self.letters)})
        self.plans = board.plans(self.options["corner"] == "keep")
        self.break_string = self.options["break"] == "string"
        mt = self.options["max_turns"]
        self.max_turns: int | None = None if mt is None else int(mt)
        self._legal_cache: dict[int, tuple[int, ...]] = {}
        published = self.options["edition"] == "published"
        self.seat_titles = ("Squares", "Circles") if published else ("Eks", "Oh")
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=("X", "O"),
            simultaneous=True,
            chance=False,
            perfect_information=True,
            num_distinct_actions=NUM_ENDS,
            num_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=self.max_turns,
        )

    _check_options = staticmethod(_check)

    @property
    def info(self) -> GameInfo:
        """Metadata: two simultaneous seats X and O, 20 actions (one per end)."""
        return self._info

    def new_initial_state(self) -> PullingStringsState:
        """Five disks on the center, nothing broken."""
        return PullingStringsState(self, {CENTER: START_DISKS}, 0, 0)

    def state_from_json(self, data: JSON) -> PullingStringsState:
        """A position ``{"stacks": [[row, col, n], ...], "broken": [letters], "turn": k}``."""
        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object with 'stacks' and 'broken'")
        unknown = set(data) - {"stacks", "broken", "turn", "outcome", "home", "result"}
        if unknown:
            raise PositionError(
                f"unknown position field(s) {sorted(unknown)}; allowed: stacks, broken, turn"
            )
        stacks: dict[int, int] = {}
        raw = data.get("stacks", [])
        if not isinstance(raw, list):
            raise PositionError("'stacks' must be a list of [row, col, count]")
        for item in raw:
            if (
                not isinstance(item, list)
                or len(item) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            ):
                raise PositionError(f"stack {item!r} is not [row, col, count] of integers")
            r, c, n = item
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                raise PositionError(f"stack {item!r}: row and column must be 0..4")
            if n < 1:
                raise PositionError(f"stack {item!r}: count must be at least 1")
            cell = r * SIZE + c
            if cell in stacks:
                raise PositionError(f"two stacks given on row {r}, column {c}")
            stacks[cell] = n
        broken = 0
        raw_broken = data.get("broken", [])
        if not isinstance(raw_broken, list):
            raise PositionError("'broken' must be a list of end letters")
        for name in raw_broken:
            end = self.end_index(name) if isinstance(name, str) else None
            if end is None:
                raise PositionError(
                    f"broken end {name!r} is not an end; ends are {' '.join(self.letters)}"
                )
            broken |= 1 << end
        turn = data.get("turn", 0)
        if not isinstance(turn, int) or turn < 0:
            raise PositionError(f"'turn' must be a non-negative integer, got {turn!r}")
        return PullingStringsState(self, stacks, broken, turn)

    # -- notation --------------------------------------------------------------------------

    def end_index(self, text: str) -> int | None:
        """The end named by a letter (``c``) or a geometric name (``N2``); None if neither."""
        text = text.strip()
        if len(text) == 1:
            return self._letter_index.get(text)
        return board.end_from_name(text)

    def legal_ends(self, broken: int) -> tuple[int, ...]:
        """Unbroken ends for a broken-end mask (cached: there are few distinct masks)."""
        legal = self._legal_cache.get(broken)
        if legal is None:
            legal = tuple(e for e in range(NUM_ENDS) if not broken >> e & 1)
            self._legal_cache[broken] = legal
        return legal

    def random_playout(self, rng: random.Random) -> tuple[int, Outcome]:
        """Play one uniform-random game from the start; return its length and outcome.

        Uses the compact loop of :meth:`rollout`; a test checks it against the protocol
        path move by move.
        """
        final = self.rollout(self.new_initial_state(), rng, 1 << 62)
        assert final._outcome is not None
        return final.turn, final._outcome

    def rollout(self, state: State, rng: random.Random, limit: int) -> PullingStringsState:
        """Uniform-random play from ``state`` for at most ``limit`` turns.

        A compact, mutable loop over the same move plans as :meth:`PullingStringsState.pull`
        (no state objects until the end), for benchmarks and search playouts. It draws
        X's pull then O's pull with ``rng.choice``, exactly like the protocol path.
        """
        assert isinstance(state, PullingStringsState)
        if state._outcome is not None or limit <= 0:
            return state
        plans = self.plans
        legal_ends = self.legal_ends
        choice = rng.choice
        break_string = self.break_string
        max_turns = self.max_turns if self.max_turns is not None else -1
        stacks = state._stacks
        broken = state.broken
        legal = legal_ends(broken)
        turn = state.turn
        stop = turn + limit
        while True:
            p = choice(legal)
            q = choice(legal)
            plan = plans[p * NUM_ENDS + q]
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
            stacks = new
            turn += 1
            if p == q:
                broken |= 1 << p
                if break_string:
                    broken |= 1 << board.opposite(p)
                legal = legal_ends(broken)
            hx = get(_X0, 0) + get(_X1, 0) + get(_X2, 0) + get(_X3, 0)
            ho = get(_O0, 0) + get(_O1, 0) + get(_O2, 0) + get(_O3, 0)
            if (hx >= WIN_DISKS or ho >= WIN_DISKS) and hx != ho:
                break
            if broken:
                for cell in stacks:
                    if CELL_END_MASK[cell] & ~broken:
                        break
                else:
                    break
            if turn in (max_turns, stop):
                break
        return PullingStringsState(self, stacks, broken, turn)

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Evaluation by closeness of the disks to each side's homes and one-pull threats."""
        assert isinstance(state, PullingStringsState)
        v = evaluate(state)
        return (v, -v)


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
            return Outcome((X,) if hx > ho else (O,), "home")
        broken = self.broken
        if broken:
            for cell in self._stacks:
                if CELL_END_MASK[cell] & ~broken:
                    break
            else:
                return Outcome((), "stuck")
        mt = self.game.max_turns
        if mt is not None and self.turn >= mt:
            return Outcome((), "max_turns")
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
        new: dict[int, int] = {}
        get = new.get
        for cell, n in self._stacks.items():
            m = plan[cell]
            if type(m) is int:
                new[m] = get(m, 0) + n
            else:
                h = (n + 1) >> 1
                a, b = m  # type: ignore[misc]
                new[a] = get(a, 0) + h
                new[b] = get(b, 0) + h
        broken = self.broken
        if p == q:
            broken |= 1 << p
            if game.break_string:
                broken |= 1 << board.opposite(p)
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
            self.game, dict(self._stacks), self.broken, self.turn, Outcome((), "agreement")
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
        return {"end": board.end_name(action), "letter": self.game.letters[action]}

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

    def __str__(self) -> str:
        from taut.games.pulling_strings.diagram import render

        return render(self)

    def __repr__(self) -> str:
        return (
            f"PullingStringsState(turn={self.turn}, stacks={self.stack_list()}, "
            f"broken={self.broken_letters()})"
        )
