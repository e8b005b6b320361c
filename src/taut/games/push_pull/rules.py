"""Push-Pull rules: the game, its options and its immutable state.

Every seat secretly chooses, for each piece still on the board, an arrow (pull, push, pass,
and in the free-for-all also left or right); all choices are revealed and applied at once
(a simultaneous node). A piece that leaves the board is scored for the player or team on
that side. The state is three small ints (one location per piece, see ``board.py``), the
turn on which each piece left, and the turn count, so a turn is a few table lookups.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from taut.core.errors import InvalidOptionError, PositionError
from taut.core.game import Game, State
from taut.core.options import MAX_TURNS, OptionSpec, OptionValue
from taut.core.terms import JSON, TURN_LIMIT, GameInfo, NodeKind, Outcome, Termination
from taut.games.push_pull.board import CORNER_SIDES, EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.heuristic import evaluate
from taut.games.push_pull.notation import (
    action_json,
    format_action,
    json_to_text,
    legal_texts,
    parse_action,
)
from taut.games.push_pull.variants import (
    NUM_PIECES,
    PIECES,
    TEAMINGS,
    VARIANTS,
    WIN_LAST,
    Layout,
    layout,
)

#: Why a game ended, as recorded in :class:`~taut.core.terms.Outcome`.
REASON_TWO = Termination("two pieces", "two pieces scored")
REASON_LAST = Termination("last piece", "the last piece scored")


def _check(options: dict[str, OptionValue]) -> None:
    variant = options["variant"]
    if options["shifts"] and variant == "duel":
        raise InvalidOptionError(
            "option 'shifts' needs a four-sided variant (four, four-teams, two-teams): "
            "the duel strip has no sideways direction"
        )
    if options["teams"] is not None and variant not in ("four-teams", "two-teams"):
        raise InvalidOptionError(
            f"option 'teams' applies only to four-teams and two-teams, not {variant}"
        )


def advance(
    locs: list[int],
    when: list[int],
    parts: Sequence[Sequence[int]],
    dest: Sequence[int],
    size: int,
    turn: int,
) -> None:
    """Move every piece on the board by the seats' summed contributions (in place).

    ``parts`` holds each acting seat's per-piece contribution code; ``dest`` maps a square
    and the summed code to the landing square. A piece that lands off the board is marked
    scored on ``turn`` in ``when``. Shared by the protocol path and the playout loop.
    """
    for p in range(NUM_PIECES):
        loc = locs[p]
        if loc < OFF:
            new = dest[loc * size + sum(c[p] for c in parts)]
            locs[p] = new
            if new >= OFF:
                when[p] = turn


class PushPull(Game):
    """Push-Pull: push and pull three pieces off your side of a strip or board.

    Options: ``variant`` (``duel``, ``four``, ``four-teams``, ``two-teams``), ``shifts``
    (free-for-all sideways shifts, four-sided variants only), ``teams`` (``NE-SW`` or
    ``NW-SE``, team variants only) and ``max_turns`` (a draw after that many turns).
    """

    name = "push-pull"
    title = "Push-Pull"
    TERMINATIONS = (REASON_TWO, REASON_LAST)
    OPTIONS = (
        OptionSpec(
            "variant",
            str,
            "duel",
            "duel: two players on a 5-square strip; four: four players; four-teams: "
            "two teams of adjacent sides; two-teams: two players with two sides each",
            choices=VARIANTS,
        ),
        OptionSpec(
            "shifts",
            bool,
            False,
            "free-for-all: players may also shift pieces left or right (four-sided variants)",
        ),
        OptionSpec(
            "teams",
            str,
            None,
            "pairs of adjacent sides that form teams (team variants; default NE-SW)",
            choices=TEAMINGS,
            nullable=True,
        ),
        MAX_TURNS,
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        variant = str(self.options["variant"])
        teams = self.options["teams"]
        self.layout: Layout = layout(
            variant, bool(self.options["shifts"]), "NE-SW" if teams is None else str(teams)
        )
        mt = self.options["max_turns"]
        self.max_turns: int | None = None if mt is None else int(mt)
        lay = self.layout
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=lay.seats,
            simultaneous=True,
            chance=False,
            perfect_information=True,
            num_distinct_actions=lay.num_actions,
            num_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=lay.win != WIN_LAST,
            max_game_length=self.max_turns,
        )

    _check_options = staticmethod(_check)

    @property
    def info(self) -> GameInfo:
        """Metadata: the variant's seats acting simultaneously, actions as in ``variants``."""
        return self._info

    @property
    def variant(self) -> str:
        """The variant name."""
        return self.layout.variant

    def new_initial_state(self) -> PushPullState:
        """All three pieces on the starting square (strip position 2 / board centre)."""
        start = self.layout.start
        return PushPullState(self, (start,) * NUM_PIECES, (0,) * NUM_PIECES, 0)

    # -- positions as JSON -------------------------------------------------------------

    def location_to_json(self, loc: int) -> JSON:
        """A location as JSON: strip position, ``[row, col]``, or the exit (``"W"``, ``"NE"``)."""
        if loc >= OFF:
            return EXIT_NAMES[loc - OFF]
        if self.layout.rows == 1:
            return loc
        return [loc // SIZE, loc % SIZE]

    def location_from_json(self, data: JSON, piece: str) -> int:
        """Inverse of :meth:`location_to_json`; raises PositionError naming what is allowed."""
        lay = self.layout
        if isinstance(data, str):
            name = data.upper()
            if name in EXIT_NAMES:
                code = EXIT_NAMES.index(name)
                if code < 4 and code in lay.side_unit:
                    return OFF + code
                if code >= 4 and lay.rows > 1:
                    a, b = CORNER_SIDES[code]
                    if lay.side_unit[a] == lay.side_unit[b]:
                        return OFF + code
            exits = [EXIT_NAMES[s] for s in lay.sides] + [
                EXIT_NAMES[c]
                for c in CORNER_SIDES
                if lay.rows > 1
                and lay.side_unit[CORNER_SIDES[c][0]] == lay.side_unit[CORNER_SIDES[c][1]]
            ]
            raise PositionError(
                f"piece {piece}: {data!r} is not a way off the board here; "
                f"exits: {', '.join(exits)}"
            )
        if lay.rows == 1:
            if isinstance(data, int) and not isinstance(data, bool) and 0 <= data < SIZE:
                return data
            raise PositionError(
                f"piece {piece}: {data!r} is not a strip position 0..4 nor a side W / E"
            )
        if (
            isinstance(data, list)
            and len(data) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in data)
        ):
            row, col = int(data[0]), int(data[1])
            return row * SIZE + col
        raise PositionError(f"piece {piece}: {data!r} is not [row, col] (0..4) nor an exit")

    def state_from_json(self, data: JSON) -> PushPullState:
        """A position ``{"turn": t, "pieces": {"L": 2, "M": "W", "S": 3}, "scored_on": {...}}``.

        Pieces are strip positions (duel), ``[row, col]`` squares, or the exit a scored piece
        left by. ``scored_on`` gives the turn each scored piece left on (default: ``turn``);
        other fields written by :meth:`PushPullState.to_json` are ignored.
        """
        if not isinstance(data, dict):
            raise PositionError('a position must be a JSON object with "pieces"')
        allowed = {"turn", "pieces", "scored_on", "scores", "result"}
        unknown = set(data) - allowed
        if unknown:
            raise PositionError(
                f"unknown position field(s) {sorted(unknown)}; allowed: turn, pieces, scored_on"
            )
        turn = data.get("turn", 0)
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise PositionError(f"'turn' must be a non-negative integer, got {turn!r}")
        pieces = data.get("pieces")
        if not isinstance(pieces, dict) or set(pieces) != set(PIECES):
            raise PositionError(f'"pieces" must map each of L, M, S to a location, got {pieces!r}')
        scored_on = data.get("scored_on", {})
        if not isinstance(scored_on, dict):
            raise PositionError('"scored_on" must map scored pieces to turn numbers')
        locs: list[int] = []
        when: list[int] = []
        for name in PIECES:
            loc = self.location_from_json(pieces[name], name)
            locs.append(loc)
            if loc < OFF:
                if name in scored_on:
                    raise PositionError(f"piece {name} is on the board but has a scored_on turn")
                when.append(0)
                continue
            t = scored_on.get(name, turn)
            if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t <= turn:
                raise PositionError(f"scored_on[{name}] must be a turn 0..{turn}, got {t!r}")
            when.append(t)
        return PushPullState(self, tuple(locs), tuple(when), turn)

    # -- fast paths ----------------------------------------------------------------------

    def random_playout(self, rng: random.Random) -> tuple[int, Outcome]:
        """Play one uniform-random game from the start; return its length and outcome.

        A compact loop over the same tables as :meth:`PushPullState._apply` (no state
        objects); a test checks it against the protocol path.
        """
        lay = self.layout
        dest, size, contrib, legal = lay.dest, lay.joint_size, lay.contrib, lay.legal
        seats = range(lay.num_seats)
        choice = rng.choice
        state = self.new_initial_state()
        locs = list(state.locs)
        when = [0, 0, 0]
        turn = 0
        limit = -1 if self.max_turns is None else self.max_turns
        options = legal[(1 << NUM_PIECES) - 1]
        while True:
            parts = [contrib[s][choice(options)] for s in seats]
            turn += 1
            advance(locs, when, parts, dest, size, turn)
            # Only a piece leaving the board (or the turn limit) can end the game or change
            # the choices, so the rest of the turns skip the judging.
            if turn in when or turn == limit:
                outcome = judge(self, locs, when, turn)
                if outcome is not None:
                    return turn, outcome
                mask = (locs[0] < OFF) | (locs[1] < OFF) << 1 | (locs[2] < OFF) << 2
                options = legal[mask]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each scoring unit: N+E and S+W (or N+W and S+E) in ``four-teams``,
        every seat alone otherwise (a two-teams player is already a whole team)."""
        return self.layout.unit_seats

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Per seat: on the four-sided board without shifts, its side's exact value against
        random play (``evaluation.py``); otherwise scored pieces and how near the pieces
        are to the seat's own sides (``heuristic.py``)."""
        assert isinstance(state, PushPullState)
        lay = self.layout
        if lay.rows > 1 and not lay.shifts:
            # Imported here: its tables need NumPy, which commands that never evaluate skip.
            from taut.games.push_pull.evaluation import evaluate_board

            return evaluate_board(lay, state.locs, state.outcome, state.returns())
        return evaluate(lay, state.locs, state.outcome, state.returns())


def scores(lay: Layout, locs: Sequence[int]) -> list[int]:
    """Pieces scored by each unit (player or team)."""
    out = [0] * len(lay.units)
    for loc in locs:
        if loc >= OFF:
            out[lay.exit_unit(loc - OFF)] += 1
    return out


def judge(game: PushPull, locs: Sequence[int], when: Sequence[int], turn: int) -> Outcome | None:
    """The outcome of a position, or None while the game goes on."""
    lay = game.layout
    if lay.win == WIN_LAST:
        if all(loc >= OFF for loc in locs):
            last = max(when)
            units = {
                lay.exit_unit(loc - OFF) for loc, t in zip(locs, when, strict=True) if t == last
            }
            winners = sorted(s for u in units for s in lay.unit_seats[u])
            return Outcome(tuple(winners), REASON_LAST)
    else:
        for u, n in enumerate(scores(lay, locs)):
            if n >= 2:
                return Outcome(lay.unit_seats[u], REASON_TWO)
    if game.max_turns is not None and turn >= game.max_turns:
        return Outcome((), TURN_LIMIT)
    return None


class PushPullState(State):
    """A Push-Pull position: where each piece is, when scored pieces left, the turn count."""

    __slots__ = ("_mask", "_outcome", "game", "locs", "scored_on", "turn")

    game: PushPull

    def __init__(
        self,
        game: PushPull,
        locs: tuple[int, ...],
        scored_on: tuple[int, ...],
        turn: int,
    ) -> None:
        self.game = game
        self.locs = locs
        """Location of L, M, S: a square, or ``OFF + exit`` once scored (see ``board.py``)."""
        self.scored_on = scored_on
        """The turn on which each piece left the board (0 while it is on it)."""
        self.turn = turn
        self._mask = (locs[0] < OFF) | (locs[1] < OFF) << 1 | (locs[2] < OFF) << 2
        self._outcome = judge(game, locs, scored_on, turn)

    # -- read access -----------------------------------------------------------------------

    @property
    def mask(self) -> int:
        """Bit p set when piece p (L, M, S) is on the board."""
        return self._mask

    def on_board(self) -> tuple[bool, ...]:
        """For L, M, S: whether the piece is still on the board."""
        return tuple(loc < OFF for loc in self.locs)

    def scores(self) -> list[int]:
        """Pieces scored by each scoring unit (``game.layout.units``)."""
        return scores(self.game.layout, self.locs)

    def scorer(self, piece: int) -> str | None:
        """The unit that scored ``piece``, or None while it is on the board."""
        loc = self.locs[piece]
        return None if loc < OFF else self.game.layout.units[self.game.layout.exit_unit(loc - OFF)]

    # -- protocol ------------------------------------------------------------------------

    @property
    def kind(self) -> NodeKind:
        """SIMULTANEOUS while the game goes on, then TERMINAL."""
        return NodeKind.TERMINAL if self._outcome is not None else NodeKind.SIMULTANEOUS

    def acting_seats(self) -> tuple[int, ...]:
        """Every seat at once, or nobody when the game is over."""
        return () if self._outcome is not None else tuple(range(self.game.layout.num_seats))

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Every combination of choices for the pieces on the board (others pass)."""
        if self._outcome is not None or not 0 <= seat < self.game.layout.num_seats:
            return ()
        return self.game.layout.legal[self._mask]

    def is_legal(self, seat: int, action: int) -> bool:
        """True when ``action`` is in range and passes on every piece off the board."""
        lay = self.game.layout
        if self._outcome is not None or not 0 <= seat < lay.num_seats:
            return False
        if not 0 <= action < lay.num_actions:
            return False
        base = lay.piece_base
        for p in range(NUM_PIECES):
            if not self._mask >> p & 1 and action // base ** (NUM_PIECES - 1 - p) % base:
                return False
        return True

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain an illegal action."""
        lay = self.game.layout
        live = ", ".join(PIECES[p] for p in range(NUM_PIECES) if self._mask >> p & 1)
        if not 0 <= action < lay.num_actions:
            return (
                f"{action} is not an action id of {lay.seats[seat]} (0..{lay.num_actions - 1}); "
                f"pieces on the board: {live}"
            )
        return (
            f"{self.action_to_string(seat, action)} chooses for a piece off the board; "
            f"only {live} can be moved (the others pass)"
        )

    def _apply(self, joint: dict[int, int]) -> PushPullState:
        lay = self.game.layout
        parts = [lay.contrib[seat][a] for seat, a in joint.items()]
        dest, size = lay.dest, lay.joint_size
        turn = self.turn + 1
        locs = list(self.locs)
        when = list(self.scored_on)
        advance(locs, when, parts, dest, size, turn)
        return PushPullState(self.game, tuple(locs), tuple(when), turn)

    @property
    def outcome(self) -> Outcome | None:
        """The winners (a player, a team's seats, or the scorers of the last piece)."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """+1 for each winner, -1 for the others; 0 for all in a draw or unfinished game."""
        n = self.game.layout.num_seats
        out = self._outcome
        if out is None or not out.winners:
            return (0.0,) * n
        return tuple(1.0 if s in out.winners else -1.0 for s in range(n))

    # -- notation ------------------------------------------------------------------------

    def _off_names(self) -> list[str]:
        return [self.scorer(p) or "" for p in range(NUM_PIECES)]

    def action_to_string(self, seat: int, action: int) -> str:
        """``L=pull,M=push,S=pass`` for the pieces on the board."""
        return format_action(self.game.layout, seat, action, self._mask)

    def legal_action_strings(self, seat: int) -> list[str]:
        """The notation of every legal action, kept once per layout, seat and pieces on the
        board (positions alike share it)."""
        if not self.legal_actions(seat):
            return []
        return legal_texts(self.game.layout, seat, self._mask)

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse any accepted notation (see ``notation.py``)."""
        return parse_action(self.game.layout, seat, text, self._mask, self._off_names())

    def action_to_json(self, seat: int, action: int) -> JSON:
        """``{"L": "pull", "M": "pass"}`` (per side for a two-teams player)."""
        return action_json(self.game.layout, seat, action, self._mask)

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Accept the object form or any notation string."""
        text = json_to_text(self.game.layout, seat, data)
        return self.string_to_action(seat, text)

    # -- serialisation ---------------------------------------------------------------------

    def to_json(self) -> JSON:
        """Pieces, scored_on, turn, plus the scores and result for readers."""
        game = self.game
        lay = game.layout
        out = self._outcome
        result: JSON = None
        if out is not None:
            result = "draw" if out.is_draw else [lay.seats[s] for s in out.winners]
        return {
            "turn": self.turn,
            "pieces": {PIECES[p]: game.location_to_json(loc) for p, loc in enumerate(self.locs)},
            "scored_on": {
                PIECES[p]: t for p, t in enumerate(self.scored_on) if self.locs[p] >= OFF
            },
            "scores": dict(zip(lay.units, self.scores(), strict=True)),
            "result": result,
        }

    def key(self) -> tuple[int, ...]:
        """A hashable key of the position (locations only: the turn does not matter)."""
        return self.locs

    def transposition_key(self) -> Hashable:
        """The position without the turn when no turn limit makes the turn matter."""
        if self.game.max_turns is None:
            return self.key()
        return (self.key(), self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PushPullState):
            return NotImplemented
        return (
            self.game.layout is other.game.layout
            and self.game.max_turns == other.game.max_turns
            and self.locs == other.locs
            and self.scored_on == other.scored_on
            and self.turn == other.turn
        )

    def __hash__(self) -> int:
        return hash((self.locs, self.scored_on, self.turn))

    def __repr__(self) -> str:
        pieces = self.to_json()["pieces"]
        return f"PushPullState(turn={self.turn}, pieces={pieces})"
