"""The one protocol every game follows.

(Longer than 400 lines: :class:`Game`, :class:`State` and :class:`Proxy` refer to one
another, so they share this module.)

A :class:`Game` holds validated options and metadata (:class:`GameInfo`); a :class:`State` is
an immutable value: ``state.apply(action)`` returns a new state and never changes ``state``.
A state says who acts now through :attr:`State.kind` and :meth:`State.acting_seats`:

* ``DECISION`` - one seat acts;
* ``SIMULTANEOUS`` - several seats act at once and their actions are applied together as a
  *joint action* (a mapping ``seat -> action``);
* ``CHANCE`` - nature acts (:data:`CHANCE_SEAT`), with the outcomes and probabilities of
  :meth:`State.chance_outcomes`;
* ``TERMINAL`` - nobody acts; :meth:`State.returns` and :attr:`State.outcome` give the result.

Actions have three faces that round-trip: a dense integer id below
``GameInfo.num_distinct_actions`` (for search and learning), a short string in the game's
own notation, and a JSON value.

A :class:`Proxy` stands a simpler game in for this one when agents choose. The vocabulary
they need first is in :mod:`taut.core.terms`.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

from taut.core.chance import sample_index
from taut.core.errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
)
from taut.core.numbers import whole
from taut.core.options import OptionSpec, OptionValue, resolve_options
from taut.core.terms import (
    AGREEMENT,
    CHANCE_SEAT,
    JSON,
    TURN_LIMIT,
    GameInfo,
    NodeKind,
    Outcome,
    Termination,
)


class Game(ABC):
    """A game with its options fixed. Create one with :func:`taut.make`."""

    name: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    #: The ways this game can end (besides :data:`AGREEMENT` and :data:`TURN_LIMIT`).
    TERMINATIONS: ClassVar[tuple[Termination, ...]] = ()

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, OptionValue] = resolve_options(
            self.name, self.OPTIONS, options, self._check_options
        )

    def _check_options(self, options: dict[str, OptionValue]) -> None:
        """Hook for checks that involve several options; raise InvalidOptionError."""

    @property
    @abstractmethod
    def info(self) -> GameInfo:
        """The game's metadata."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state a new game starts from."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state from :meth:`State.to_json`."""

    def seat_index(self, name: str | int) -> int:
        """The seat id for a seat name (or id); raises ValueError listing the seats."""
        seats = self.info.seats
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < len(seats):
            return name
        text = str(name)
        for i, seat in enumerate(seats):
            if seat.lower() == text.lower():
                return i
        number = whole(text)
        if number is not None and number < len(seats):
            return number
        raise IllegalActionError(f"{self.title} has no seat {name!r}; seats are {', '.join(seats)}")

    def termination(self, name: str) -> Termination:
        """The termination called ``name``; raises ValueError listing this game's."""
        known = (*self.TERMINATIONS, AGREEMENT, TURN_LIMIT)
        for t in known:
            if t.name == name:
                return t
        raise ValueError(
            f"{self.title} has no way of ending called {name!r}; "
            f"known: {', '.join(t.name for t in known)}"
        )

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Seats that win and lose together (a tournament gives a team to one agent).

        The default: every seat plays for itself.
        """
        return tuple((seat,) for seat in range(self.info.num_seats))

    def heuristic(self, state: State) -> tuple[float, ...]:
        """A quick evaluation of ``state`` for each seat, in ``[min_utility, max_utility]``.

        Agents may inject their own evaluator; this default only scores finished games.
        """
        if state.is_terminal():
            return state.returns()
        return tuple(0.0 for _ in self.info.seats)

    def heuristic_matrix(self, state: State) -> Sequence[Sequence[float]] | None:
        """Seat 0's value of every child of a two-seat simultaneous ``state`` at once: row
        ``i`` for seat 0's ``i``-th legal action, column ``j`` for seat 1's ``j``-th; a
        finished child's ``returns()[0]``, else ``heuristic(child)[0]``.

        A search that scores the last turn it looks at may ask for this instead of making
        and scoring each child. None (the default) where the game has no faster way; a
        game that gives one answers exactly what the children would (a test checks it).
        """
        return None

    def random_playout(self, rng: random.Random) -> tuple[int, Outcome]:
        """Play one game with uniformly random actions (chance by its odds).

        Returns the number of nodes played and the outcome. Games may override this with a
        compact loop over the same rules (then a test checks the two agree).
        """
        state = self.new_initial_state()
        nodes = 0
        while not state.is_terminal():
            state = state.apply(state.random_joint(rng))
            nodes += 1
        outcome = state.outcome
        assert outcome is not None  # a terminal state always has an outcome
        return nodes, outcome

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state drawn at random among those ``seat`` cannot tell from ``state``.

        ``state`` is usually ``view(full, seat)``. Information-set search samples one per
        iteration. Perfect-information games return ``state``; games with hidden
        information override this.
        """
        if self.info.perfect_information:
            return state
        raise NotImplementedError(f"{self.title} cannot sample its hidden information")

    def rollout(self, state: State, rng: random.Random, limit: int) -> State:
        """Random play from ``state`` for at most ``limit`` nodes; returns the last state.

        Search uses this for playouts. Games may override it with a compact loop over the
        same rules (a test then checks the two agree).
        """
        for _ in range(limit):
            if state.is_terminal():
                break
            state = state.apply_unchecked(state.random_joint(rng))
        return state

    def proxy(self) -> Proxy | None:
        """A simpler game whose agents play this one's seats (see :class:`Proxy`);
        None, the default, when agents play the game itself."""
        return None

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State(ABC):
    """An immutable game position. Subclasses implement the abstract methods."""

    game: Game

    # -- who acts ---------------------------------------------------------------------

    @property
    @abstractmethod
    def kind(self) -> NodeKind:
        """What kind of node this is."""

    @abstractmethod
    def acting_seats(self) -> tuple[int, ...]:
        """Seats that act now: one for DECISION, several for SIMULTANEOUS,
        ``(CHANCE_SEAT,)`` for CHANCE, none for TERMINAL."""

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.kind is NodeKind.TERMINAL

    def is_chance(self) -> bool:
        """True when nature acts."""
        return self.kind is NodeKind.CHANCE

    # -- actions ----------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[int]:
        """Legal action ids of ``seat`` here, ascending; empty if the seat does not act."""

    def is_legal(self, seat: int, action: int) -> bool:
        """True when ``seat`` may play ``action`` now."""
        return action in self.legal_actions(seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` pairs at a chance node; empty elsewhere."""
        return []

    def is_chance_outcome(self, outcome: int) -> bool:
        """True when chance may pick ``outcome`` here (one of :meth:`chance_outcomes`); a
        game may answer without listing them all."""
        return any(o == outcome for o, _ in self.chance_outcomes())

    def chance_observation(self, seat: int, outcome: int) -> object:
        """What ``seat`` learns when chance picks ``outcome`` here (None: nothing).

        By default chance is public. Games override it for private chance, such as a tile
        dealt to another player's hand.
        """
        return outcome

    def sample_chance(self, rng: random.Random) -> int:
        """Draw a chance outcome with its probability (raises ValueError elsewhere)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ValueError("not a chance node")
        return outcomes[sample_index([p for _, p in outcomes], rng)][0]

    def random_joint(self, rng: random.Random) -> dict[int, int]:
        """A uniformly random joint action (chance drawn by its odds)."""
        if self.kind is NodeKind.CHANCE:
            return {CHANCE_SEAT: self.sample_chance(rng)}
        return {seat: rng.choice(self.legal_actions(seat)) for seat in self.acting_seats()}

    @abstractmethod
    def _apply(self, joint: dict[int, int]) -> State:
        """Return the successor for a validated joint action."""

    def apply(self, action: int | Mapping[int, int]) -> State:
        """Return the state after ``action``; ``self`` is unchanged.

        ``action`` is an int when one seat (or chance) acts, or a mapping ``seat -> action``
        with one entry for every acting seat. Raises :class:`IllegalActionError`
        (or its subclass :class:`GameOverError`) naming what was wrong.
        """
        return self._apply(self.check_joint(action))

    def apply_unchecked(self, joint: dict[int, int]) -> State:
        """The fast path of :meth:`apply` for search: no validation at all.

        Only for joint actions built from :meth:`legal_actions` / :meth:`chance_outcomes`
        of this very state (one entry per acting seat); anything else is undefined.
        """
        return self._apply(joint)

    def check_joint(self, action: int | Mapping[int, int]) -> dict[int, int]:
        """Validate ``action`` as :meth:`apply` does and return it as a joint mapping."""
        seats = self.acting_seats()
        if not seats:
            raise GameOverError(f"the game is over ({self.describe_outcome()}); no action applies")
        if isinstance(action, Mapping):
            joint = dict(action)
            if set(joint) != set(seats):
                names = ", ".join(self.seat_name(s) for s in seats)
                given = ", ".join(self.seat_name(s) for s in joint) or "none"
                raise IllegalActionError(f"expected one action for each of {names}; got {given}")
        else:
            if len(seats) != 1:
                names = ", ".join(self.seat_name(s) for s in seats)
                raise IllegalActionError(f"{names} act at once here: pass a mapping seat -> action")
            joint = {seats[0]: action}
        for seat, a in joint.items():
            if isinstance(a, bool) or not isinstance(a, int):
                raise MalformedActionError(
                    f"action for {self.seat_name(seat)} must be an int id, got {a!r}"
                )
            if seat == CHANCE_SEAT:
                if not self.is_chance_outcome(a):
                    raise IllegalActionError(f"{a} is not a chance outcome here")
            elif not self.is_legal(seat, a):
                raise IllegalActionError(self.illegal_reason(seat, a))
        return joint

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain why ``action`` is illegal for ``seat``; games override for better text."""
        legal = ", ".join(self.action_to_string(seat, a) for a in self.legal_actions(seat))
        return f"{self.seat_name(seat)} cannot play action {action}; legal: {legal}"

    # -- the three faces of an action ---------------------------------------------------

    @abstractmethod
    def action_to_string(self, seat: int, action: int) -> str:
        """The action in the game's notation."""

    @abstractmethod
    def string_to_action(self, seat: int, text: str) -> int:
        """Parse notation; raises :class:`MalformedActionError` naming what is allowed."""

    def legal_action_strings(self, seat: int) -> list[str]:
        """:meth:`action_to_string` of each of ``seat``'s :meth:`legal_actions`, in their
        order (a new list: the caller's own). A game whose positions share their lists may
        keep them."""
        return [self.action_to_string(seat, a) for a in self.legal_actions(seat)]

    def action_to_json(self, seat: int, action: int) -> JSON:
        """The action as a JSON value (by default its notation string)."""
        return self.action_to_string(seat, action)

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Inverse of :meth:`action_to_json`."""
        if not isinstance(data, str):
            raise MalformedActionError(f"expected an action string, got {data!r}")
        return self.string_to_action(seat, data)

    # -- results ------------------------------------------------------------------------

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Utility of each seat (all zero while the game goes on)."""

    def describe_outcome(self) -> str:
        """A one-line human summary of the outcome."""
        out = self.outcome
        if out is None:
            return "in progress"
        if out.is_draw:
            return f"draw ({out.reason})"
        names = " and ".join(self.seat_name(s) for s in out.winners)
        return f"{names} won ({out.reason})"

    def end_by_agreement(self) -> State:
        """The same position, finished as a draw agreed by all seats.

        Games without draw by agreement raise :class:`IllegalActionError`.
        """
        raise IllegalActionError(f"{self.game.title} has no draw by agreement")

    def transposition_key(self) -> Hashable:
        """A key shared by states with the same future (search shares their statistics).

        The default is the state itself (states compare by value where the game defines
        equality). A game whose future does not depend on the turn number may drop it, so
        that a search sees a position repeated at a later turn as the same node.
        """
        return self

    # -- information ----------------------------------------------------------------------

    def view(self, seat: int | None) -> State:
        """What ``seat`` may know, as a state of the same game (None: a spectator).

        Perfect-information games return ``self``. Games with hidden information return a
        state whose hidden parts are removed; its JSON carries no secret.
        """
        return self

    @abstractmethod
    def to_json(self) -> JSON:
        """The full state as JSON (hidden parts included unless this is a view)."""

    def seat_name(self, seat: int) -> str:
        """The short name of ``seat`` (``"chance"`` for nature)."""
        if seat == CHANCE_SEAT:
            return "chance"
        return self.game.info.seats[seat]

    def __str__(self) -> str:
        """The game's text picture of this state (from its plugin), else its JSON."""
        if _drawer is None:
            return json.dumps(self.to_json(), default=str)
        return _drawer(self)


# Proxies: a simpler game whose agents play for the seats of another.
#
# Some options add choices that matter to a person but not to a strategy. In a learning
# game a player gives the other face of a tile (a handshape, a Roman numeral) to pull its
# string: a computer player should choose *which* string as in the plain game and answer
# correctly (or, for a gentler partner, err now and then). A game with such options returns
# a :class:`Proxy` from :meth:`~taut.core.game.Game.proxy`: the agents search the proxy's
# game, at its speed and with its exact solvers, and :meth:`Proxy.lift` turns their choice
# into an action of the real game. :func:`taut.agents.make_agent` wraps agents this way
# whenever it is given such a game.


class Proxy(ABC):
    """Maps the positions of a game onto a simpler game, and its actions back."""

    #: The game the agents play instead.
    game: Game

    @abstractmethod
    def state(self, state: State) -> State:
        """The position of :attr:`game` that stands for ``state``."""

    @abstractmethod
    def lift(self, state: State, seat: int, action: int, rng: random.Random) -> int:
        """The action of the real game at ``state`` for the proxy's ``action`` of ``seat``
        (``rng`` draws anything the lift leaves to chance, such as a mistake)."""

    @abstractmethod
    def lift_policy(self, state: State, seat: int, policy: Mapping[int, float]) -> dict[int, float]:
        """The mixed strategy of the real game that playing ``policy`` through
        :meth:`lift` amounts to."""


#: How a state is drawn as text. The registry, which knows the plugins, installs it when
#: it is imported (and :mod:`taut.core` imports the registry): the protocol names no
#: registry, and the registry, which sits above it, hands its drawing down.
_drawer: Callable[[State], str] | None = None


def draw_states_with(drawer: Callable[[State], str]) -> None:
    """Draw every state's ``str()`` with ``drawer`` from now on."""
    global _drawer
    _drawer = drawer
