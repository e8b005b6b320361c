"""Track Tiles for two players: the game, its options and its immutable state.

(Longer than 400 lines: the game, its options and its state with its notation; the state's
methods are the protocol's, in one class.)

NS wants a path joining the top and bottom sides, WE one joining the left and right sides.
Each player has a current tile kind; on a turn the player to move places it on any empty
cell. The die is explicit: chance nodes roll each player's first kind (``roll=once``, after
which a player's kind steps 1 -> 2 -> 3 -> 1) or the mover's kind before every placement
(``roll=each``). With ``first=random`` a chance node (a coin) first decides who starts.

A state stores the board as a tuple of kinds (0 = empty), the seat that moved first (None
until the coin falls), and each seat's current kind (0 = not rolled yet). Who moves next
follows from the first seat and the number of tiles placed (counted once per state).

Random play (:meth:`Tracks.random_playout`, :meth:`Tracks.rollout`) runs the compact loop of
:mod:`taut.games.tracks.fast`, which draws from the generator as the protocol does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from taut.core.errors import IllegalActionError, MalformedActionError, PositionError
from taut.core.game import Game, State
from taut.core.options import OptionSpec
from taut.core.terms import AGREEMENT, CHANCE_SEAT, JSON, GameInfo, NodeKind, Outcome, Termination
from taut.games.tracks.cells import NS, SEATS, WE, cell_name, cell_names, parse_cell
from taut.games.tracks.fast import NS_TRACK, WE_TRACK, Playout, wiring
from taut.games.tracks.heuristic import evaluate
from taut.games.tracks.paths import tracks, tracks_through
from taut.games.tracks.tiles import EMPTY, KINDS, roll_to_kind

#: Die faces 1..6 are chance outcomes 0..5.
DIE_FACES = 6
#: The coin that picks the first player under ``first=random``: outcome = seat id.
COIN = 2

#: A player's track joins its two sides.
TRACK = Termination("track", "a track joins the two sides")
#: One placement completed both tracks: its placer wins.
BOTH = Termination("both", "one tile completed both tracks")
#: The board filled up without a track: a draw.
FULL = Termination("full", "the board is full")


def placement_outcome(tracks_made: int, placer: int, full: bool) -> Outcome | None:
    """What a placement decided, from the tracks it made (bits :data:`NS_TRACK`,
    :data:`WE_TRACK`), the seat that placed, and whether the board is now full."""
    if tracks_made == NS_TRACK | WE_TRACK:
        return Outcome((placer,), BOTH)
    if tracks_made == NS_TRACK:
        return Outcome((NS,), TRACK)
    if tracks_made == WE_TRACK:
        return Outcome((WE,), TRACK)
    return Outcome((), FULL) if full else None


class Tracks(Game):
    """Track Tiles for two players, NS (joins top and bottom) and WE (joins left and right).

    Options: ``size`` (2..12), ``first`` (``NS``, ``WE`` or ``random``) and ``roll``
    (``once``: roll the first kind, then step it; ``each``: roll before every placement).
    """

    name = "tracks"
    title = "Track Tiles"
    TERMINATIONS = (TRACK, BOTH, FULL)
    OPTIONS = (
        OptionSpec("size", int, 6, "side of the square board", minimum=2, maximum=12),
        OptionSpec(
            "first",
            str,
            "NS",
            "who places first (random: a coin decides, as a chance node)",
            choices=("NS", "WE", "random"),
        ),
        OptionSpec(
            "roll",
            str,
            "once",
            "once: each player rolls a first kind, then steps 1->2->3->1; "
            "each: roll the kind before every placement",
            choices=("once", "each"),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.size: int = int(str(self.options["size"]))
        self.roll_each: bool = self.options["roll"] == "each"
        first = self.options["first"]
        self.first: int | None = None if first == "random" else SEATS.index(str(first))
        cells = self.size * self.size
        # Every node along a game: the coin, the rolls (two, or one per placement) and the
        # placements.
        length = (1 if self.first is None else 0) + (cells if self.roll_each else 2) + cells
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=SEATS,
            simultaneous=False,
            chance=True,
            perfect_information=True,
            num_distinct_actions=cells,
            num_chance_outcomes=DIE_FACES,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=length,
        )

    @property
    def info(self) -> GameInfo:
        """Metadata: two seats taking turns, one action per cell, a six-sided die."""
        return self._info

    def new_initial_state(self) -> TracksState:
        """An empty board; the first node is the coin (``first=random``) or a roll."""
        cells = self.size * self.size
        return TracksState(self, (EMPTY,) * cells, self.first, (0, 0), None)

    def state_from_json(self, data: JSON) -> TracksState:
        """Rebuild a state from :meth:`TracksState.to_json` (the outcome is recomputed)."""
        if not isinstance(data, dict):
            raise PositionError("a Track Tiles position must be a JSON object with 'board'")
        n = self.size
        rows = data.get("board")
        if not isinstance(rows, list) or len(rows) != n:
            raise PositionError(f"'board' must be a list of {n} rows")
        board: list[int] = []
        for i, row in enumerate(rows):
            cells = list(row) if isinstance(row, str) else row
            if not isinstance(cells, list) or len(cells) != n:
                raise PositionError(f"board row {i + 1} must hold {n} cells, got {row!r}")
            for v in cells:
                kind = 0 if v in (".", 0) else (int(v) if str(v) in ("1", "2", "3") else -1)
                if kind < 0:
                    raise PositionError(
                        f"board row {i + 1}: {v!r} is not a kind (1, 2, 3) or empty (.)"
                    )
                board.append(kind)
        # Without a "first" field, the game's own option applies (null under first=random).
        first_name = data.get("first", None if self.first is None else SEATS[self.first])
        first: int | None
        if first_name is None:
            first = None
        elif first_name in SEATS:
            first = SEATS.index(first_name)
        else:
            raise PositionError(f"'first' must be NS, WE or null, got {first_name!r}")
        if self.first is not None and first != self.first:
            raise PositionError(f"this game has first={SEATS[self.first]}; got {first_name!r}")
        raw_tiles = data.get("tiles", {})
        if not isinstance(raw_tiles, dict):
            raise PositionError("'tiles' must map NS and WE to a kind or null")
        kinds = []
        for seat in SEATS:
            v = raw_tiles.get(seat)
            if v is not None and v not in KINDS:
                raise PositionError(f"tile of {seat} must be 1, 2, 3 or null, got {v!r}")
            kinds.append(0 if v is None else int(v))
        last_text = data.get("last")
        last: int | None = None
        if last_text is not None:
            try:
                last = parse_cell(n, str(last_text))
            except MalformedActionError as exc:
                raise PositionError(f"'last': {exc}") from None
            if board[last] == EMPTY:
                raise PositionError(f"'last' names {last_text}, which is empty")
        if first is None and any(board):
            raise PositionError("tiles are on the board but 'first' is not decided")
        state = TracksState(self, tuple(board), first, (kinds[0], kinds[1]), last, judge=True)
        if data.get("reason") == AGREEMENT.name and state.outcome is None:
            state = state.end_by_agreement()
        return state

    def random_playout(self, rng: random.Random) -> tuple[int, Outcome]:
        """One uniform-random game from the start: its number of nodes and its outcome.

        Runs the compact loop of :class:`~taut.games.tracks.fast.Playout`; a test checks it
        against the protocol path move by move.
        """
        play = Playout.start(wiring(self.size), self.roll_each, self.first)
        nodes = play.run(rng, 1 << 62)
        outcome = _played_outcome(play)
        assert outcome is not None  # the loop stops only at the end of the game
        return nodes, outcome

    def rollout(self, state: State, rng: random.Random, limit: int) -> TracksState:
        """Uniform-random play from ``state`` for at most ``limit`` nodes (the compact loop,
        drawing from ``rng`` exactly as :meth:`State.random_joint` would)."""
        assert isinstance(state, TracksState)
        if state.outcome is not None or limit <= 0:
            return state
        play = Playout.from_position(
            wiring(self.size), self.roll_each, state.board, state.first, state.kinds, state.last
        )
        play.run(rng, limit)
        return TracksState(
            self,
            tuple(play.board),
            play.first,
            (play.kinds[0], play.kinds[1]),
            play.last,
            _played_outcome(play),
            placed=play.placed,
        )

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Evaluation from the fewest empty cells each player still needs for a track."""
        assert isinstance(state, TracksState)
        if state.outcome is not None:
            return state.returns()
        v = evaluate(state.board, self.size, state.to_move())
        return (v, -v)


def _played_outcome(play: Playout) -> Outcome | None:
    """The outcome where a compact playout stopped (None if the game goes on)."""
    if play.first is None or not play.placed:
        return None
    return placement_outcome(play.hit, (play.first + play.placed - 1) % 2, play.full)


class TracksState(State):
    """A Track Tiles position: board, first seat, current kinds, last cell, outcome."""

    __slots__ = ("_kind", "_outcome", "_placed", "board", "first", "game", "kinds", "last")

    game: Tracks

    def __init__(
        self,
        game: Tracks,
        board: tuple[int, ...],
        first: int | None,
        kinds: tuple[int, int],
        last: int | None,
        outcome: Outcome | None = None,
        judge: bool = False,
        placed: int | None = None,
    ) -> None:
        self.game = game
        self.board = board
        self.first = first
        self.kinds = kinds
        self.last = last
        # Who moves and what node this is both need the count: keep it, don't recount.
        self._placed = sum(1 for k in board if k) if placed is None else placed
        self._outcome = self._judge_whole() if judge else outcome
        # Asked several times per node (acting seats, legal actions, validation): once here.
        self._kind = self._node_kind()

    # -- derived facts ---------------------------------------------------------------------

    def placed(self) -> int:
        """Number of tiles on the board."""
        return self._placed

    def to_move(self) -> int | None:
        """The seat whose placement (or roll) is next; None before the coin falls."""
        if self.first is None:
            return None
        return (self.first + self._placed) % 2

    def _judge_whole(self) -> Outcome | None:
        # Used when a state is rebuilt from JSON: look at the whole board. The placer of the
        # last tile wins a double completion, as after a placement.
        ns, we = tracks(self.board, self.game.size)
        if ns and we:
            placer = None if self.first is None else (self.first + self.placed() - 1) % 2
            if placer is None:
                raise PositionError("both tracks are complete but nobody has placed a tile")
            return Outcome((placer,), BOTH)
        if ns:
            return Outcome((NS,), TRACK)
        if we:
            return Outcome((WE,), TRACK)
        if all(self.board):
            return Outcome((), FULL)
        return None

    # -- protocol --------------------------------------------------------------------------

    @property
    def kind(self) -> NodeKind:
        """CHANCE for the coin and the rolls, DECISION for placements, then TERMINAL."""
        return self._kind

    def _node_kind(self) -> NodeKind:
        if self._outcome is not None:
            return NodeKind.TERMINAL
        mover = self.to_move()
        if mover is None:
            return NodeKind.CHANCE
        if self.game.roll_each:
            return NodeKind.CHANCE if self.kinds[mover] == 0 else NodeKind.DECISION
        return NodeKind.CHANCE if 0 in self.kinds else NodeKind.DECISION

    def rolling_seat(self) -> int | None:
        """At a die roll, the seat whose kind is being rolled; None elsewhere."""
        if self._outcome is not None:
            return None
        mover = self.to_move()
        if mover is None:
            return None
        if self.game.roll_each:
            return mover if self.kinds[mover] == 0 else None
        for seat in (NS, WE):
            if self.kinds[seat] == 0:
                return seat
        return None

    def acting_seats(self) -> tuple[int, ...]:
        """The mover at a placement, ``(CHANCE_SEAT,)`` at the coin or a roll, else ()."""
        k = self.kind
        if k is NodeKind.TERMINAL:
            return ()
        if k is NodeKind.CHANCE:
            return (CHANCE_SEAT,)
        mover = self.to_move()
        assert mover is not None  # a decision node has a mover
        return (mover,)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._outcome is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The coin (outcome = first seat) or the die (outcome = face - 1), uniform."""
        if self.kind is not NodeKind.CHANCE:
            return []
        if self.first is None:
            return [(NS, 0.5), (WE, 0.5)]
        return [(face, 1.0 / DIE_FACES) for face in range(DIE_FACES)]

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Empty cells for the mover at a placement; nothing for anyone else."""
        if self.kind is not NodeKind.DECISION or seat != self.to_move():
            return ()
        return [i for i, k in enumerate(self.board) if k == EMPTY]

    def legal_action_strings(self, seat: int) -> list[str]:
        """The empty cells' names for the mover at a placement (from the board's names,
        kept once per size); nothing for anyone else."""
        names = cell_names(self.game.size)
        return [names[cell] for cell in self.legal_actions(seat)]

    def is_legal(self, seat: int, action: int) -> bool:
        """True for an empty cell when ``seat`` places now."""
        return (
            self.kind is NodeKind.DECISION
            and seat == self.to_move()
            and 0 <= action < len(self.board)
            and self.board[action] == EMPTY
        )

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain an illegal placement."""
        n = self.game.size
        if self.kind is not NodeKind.DECISION or seat != self.to_move():
            who = self.seat_name(seat)
            return f"it is not {who}'s turn to place a tile"
        if not 0 <= action < len(self.board):
            return f"{action} is not a cell id (0..{n * n - 1})"
        return f"{cell_name(n, action)} already holds a tile; place on an empty cell"

    def apply(self, action: int | Mapping[int, int]) -> TracksState:
        """The state after ``action`` (validated as :meth:`State.apply` does)."""
        return self._apply(self.check_joint(action))

    def _apply(self, joint: dict[int, int]) -> TracksState:
        game = self.game
        if CHANCE_SEAT in joint:
            outcome = joint[CHANCE_SEAT]
            if self.first is None:
                return TracksState(
                    game, self.board, outcome, self.kinds, self.last, placed=self._placed
                )
            seat = self.rolling_seat()
            assert seat is not None  # a die roll always belongs to a seat
            kinds = list(self.kinds)
            kinds[seat] = roll_to_kind(outcome + 1)
            return TracksState(
                game, self.board, self.first, (kinds[0], kinds[1]), self.last, placed=self._placed
            )
        (seat, cell) = next(iter(joint.items()))
        return self.place(seat, cell)

    def place(self, seat: int, cell: int) -> TracksState:
        """The successor after ``seat`` places its current kind on ``cell`` (not validated)."""
        game = self.game
        board = list(self.board)
        kind = self.kinds[seat]
        board[cell] = kind
        new_board = tuple(board)
        kinds = list(self.kinds)
        # roll=each: the next kind comes from a new roll; roll=once: it steps 1->2->3->1.
        kinds[seat] = 0 if game.roll_each else kind % 3 + 1
        ns, we = tracks_through(new_board, game.size, cell)
        made = (NS_TRACK if ns else 0) | (WE_TRACK if we else 0)
        placed = self._placed + 1
        outcome = placement_outcome(made, seat, placed == len(new_board))
        return TracksState(
            game, new_board, self.first, (kinds[0], kinds[1]), cell, outcome, placed=placed
        )

    @property
    def outcome(self) -> Outcome | None:
        """The winner by a track (``track``; ``both`` when one placement made both), or a
        draw on a full board (``full``) or by agreement (``agreement``)."""
        return self._outcome

    def end_by_agreement(self) -> TracksState:
        """The same position, ended as a draw agreed by both players."""
        if self._outcome is not None:
            raise IllegalActionError(
                f"the game is already over ({self.describe_outcome()}); no draw to agree"
            )
        return TracksState(
            self.game,
            self.board,
            self.first,
            self.kinds,
            self.last,
            Outcome((), AGREEMENT),
            placed=self._placed,
        )

    def returns(self) -> tuple[float, ...]:
        """+1 / -1 for a win / loss, 0 for a draw or an unfinished game."""
        out = self._outcome
        if out is None or not out.winners:
            return (0.0, 0.0)
        return (1.0, -1.0) if out.winners[0] == NS else (-1.0, 1.0)

    # -- notation ------------------------------------------------------------------------

    def action_to_string(self, seat: int, action: int) -> str:
        """A cell (``c3``); at chance, the die face (``1``..``6``) or the coin (NS / WE)."""
        if seat == CHANCE_SEAT:
            if self.first is None:
                return SEATS[action]
            return str(action + 1)
        return cell_name(self.game.size, action)

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse a cell (``c3``, ``C3``, ``3c``), or at chance a die face or a coin side."""
        if seat == CHANCE_SEAT:
            t = text.strip()
            if self.first is None:
                if t.upper() in SEATS:
                    return SEATS.index(t.upper())
                raise MalformedActionError(f"the coin shows NS or WE, not {t!r}")
            if t in ("1", "2", "3", "4", "5", "6"):
                return int(t) - 1
            raise MalformedActionError(f"a die shows 1..6, not {t!r}")
        return parse_cell(self.game.size, text)

    def action_to_json(self, seat: int, action: int) -> JSON:
        """``{"cell": "c3", "row": 2, "col": 2}`` (0-based row and column); chance as text."""
        if seat == CHANCE_SEAT:
            return self.action_to_string(seat, action)
        r, c = divmod(action, self.game.size)
        return {"cell": cell_name(self.game.size, action), "row": r, "col": c}

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Accept the object form (``cell``, or ``row`` and ``col``) or a bare string."""
        n = self.game.size
        if isinstance(data, dict):
            if isinstance(data.get("cell"), str):
                return self.string_to_action(seat, data["cell"])
            r, c = data.get("row"), data.get("col")
            if isinstance(r, int) and isinstance(c, int):
                if not (0 <= r < n and 0 <= c < n):
                    raise MalformedActionError(f"row and col must be 0..{n - 1}, got {r}, {c}")
                return r * n + c
            raise MalformedActionError(f"expected {{'cell': 'c3'}} or row and col, got {data!r}")
        if not isinstance(data, str):
            raise MalformedActionError(f"expected a cell such as 'c3', got {data!r}")
        return self.string_to_action(seat, data)

    # -- serialisation ---------------------------------------------------------------------

    def board_rows(self) -> list[str]:
        """The board as strings of kinds, one per row, ``.`` for an empty cell."""
        n = self.game.size
        return [
            "".join(str(k) if k else "." for k in self.board[r * n : (r + 1) * n]) for r in range(n)
        ]

    def to_json(self) -> JSON:
        """``board`` rows, ``first``, each seat's current ``tiles`` (null: not rolled yet),
        the ``last`` cell and the ``result`` (winner, ``draw`` or null)."""
        out = self._outcome
        mover = self.to_move()
        return {
            "board": self.board_rows(),
            "first": None if self.first is None else SEATS[self.first],
            "to_move": None if out is not None or mover is None else SEATS[mover],
            "tiles": {seat: (self.kinds[i] or None) for i, seat in enumerate(SEATS)},
            "last": None if self.last is None else cell_name(self.game.size, self.last),
            "result": None if out is None else ("draw" if out.is_draw else SEATS[out.winners[0]]),
            "reason": None if out is None else out.reason.name,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TracksState):
            return NotImplemented
        return (
            self.game.size == other.game.size
            and self.board == other.board
            and self.first == other.first
            and self.kinds == other.kinds
            and self.last == other.last
            and self._outcome == other._outcome
        )

    def __hash__(self) -> int:
        return hash((self.board, self.first, self.kinds, self.last))

    def __repr__(self) -> str:
        return f"TracksState(board={self.board_rows()}, kinds={self.kinds}, last={self.last})"
