"""Pulling Strings rules: the game, its options, and the fast playout.

Both players secretly choose an unbroken string end, then both pulls resolve at once
(a simultaneous node). The state is in ``state.py``; the game holds what every state of
it shares: the letters on the ends and the move plan of every pair of pulls.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from taut.core.errors import (
    InvalidOptionError,
    PositionError,
)
from taut.core.game import Game, State
from taut.core.options import MAX_TURNS, OptionSpec, OptionValue
from taut.core.terms import JSON, GameInfo, Outcome
from taut.games.pulling_strings.board import (
    CELL_END_MASK,
    CENTER,
    CLASSIC_LETTERS,
    NUM_ENDS,
    SIZE,
    end_from_name,
    opposite,
    plans,
)
from taut.games.pulling_strings.heuristic import evaluate
from taut.games.pulling_strings.repeats import REPETITION, RepeatingState, Stacks, stacks_key
from taut.games.pulling_strings.state import (
    _O0,
    _O1,
    _O2,
    _O3,
    _X0,
    _X1,
    _X2,
    _X3,
    HOME,
    START_DISKS,
    STUCK,
    WIN_DISKS,
    O,
    PullingStringsState,
    X,
)
from taut.games.pulling_strings.tilesets import TILE_SETS
from taut.learn.tileset import TileSet
from taut.learn.tileset_file import TileSetOption

if TYPE_CHECKING:
    from taut.core.game import Proxy

__all__ = [
    "HOME",
    "REPETITION",
    "STUCK",
    "WIN_DISKS",
    "O",
    "PullingStrings",
    "PullingStringsState",
    "RepeatingState",
    "X",
]

#: Where the left ends (W0..W4) start among the end ids: they name the rows.
_WEST = 3 * SIZE


def _check(options: dict[str, OptionValue]) -> None:
    published = options["edition"] == "published"
    for name, plain in (("tiles", "asl"), ("learning", "off")):
        if options[name] != plain and not published:
            raise InvalidOptionError(f"option {name!r} applies only to edition=published")
    if options["learning"] == "off" and options["mistakes"]:
        raise InvalidOptionError("option 'mistakes' applies only with learning=strict or slip")
    if options["learning"] != "off" and options["repeat"] is not None:
        raise InvalidOptionError("option 'repeat' cannot be combined with a learning variant")
    if options["letters"] is not None and not published:
        raise InvalidOptionError("option 'letters' applies only to edition=published")


def _read_letters(text: str, tiles: TileSet) -> tuple[str, ...]:
    """The 20 board faces of option ``letters``: separated by spaces or commas, or one
    character each (``ABCDEFGHIJKLMNOPQRST``); InvalidOptionError naming what is wrong."""
    parts = text.replace(",", " ").split() if ("," in text or " " in text) else list(text)
    faces = []
    for part in parts:
        found = tiles.find_board(part)
        if found is None:
            raise InvalidOptionError(
                f"option 'letters': {part!r} is not a {tiles.board_kind} of tile set "
                f"{tiles.name!r}; its {tiles.board_kind}s: {' '.join(tiles.board_faces())}"
            )
        faces.append(tiles.tiles[found].board.text)
    if len(faces) != NUM_ENDS or len(set(faces)) != NUM_ENDS:
        raise InvalidOptionError(
            f"option 'letters' must name 20 distinct {tiles.board_kind}s, one per end in the "
            f"order N0..N4 E0..E4 S0..S4 W0..W4; got {text!r}"
        )
    return tuple(faces)


def _read_stacks(raw: JSON, what: str = "") -> dict[int, int]:
    """``cell -> disks`` from a list of ``[row, col, count]`` (``what`` names where)."""
    if not isinstance(raw, list):
        raise PositionError(f"{what}'stacks' must be a list of [row, col, count]")
    stacks: dict[int, int] = {}
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise PositionError(f"{what}stack {item!r} is not [row, col, count] of integers")
        r, c, n = item
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise PositionError(f"{what}stack {item!r}: row and column must be 0..4")
        if n < 1:
            raise PositionError(f"{what}stack {item!r}: count must be at least 1")
        cell = r * SIZE + c
        if cell in stacks:
            raise PositionError(f"{what}two stacks given on row {r}, column {c}")
        stacks[cell] = n
    return stacks


def _read_seen(raw: JSON, disks: int) -> dict[Stacks, int]:
    """Earlier positions and their counts from ``[{"stacks": [...], "times": n}, ...]``.

    Positions with another number of disks than ``disks`` cannot come back, so they are
    dropped (a position written by the game never has them).
    """
    if not isinstance(raw, list):
        raise PositionError('\'seen\' must be a list of {"stacks": [...], "times": n}')
    seen: dict[Stacks, int] = {}
    for i, entry in enumerate(raw):
        where = f"'seen' entry {i + 1}: "
        if not isinstance(entry, dict) or set(entry) != {"stacks", "times"}:
            raise PositionError(where + 'expected {"stacks": [...], "times": n}')
        times = entry["times"]
        if not isinstance(times, int) or isinstance(times, bool) or times < 1:
            raise PositionError(where + f"'times' must be a positive integer, got {times!r}")
        stacks = _read_stacks(entry["stacks"], where)
        if sum(stacks.values()) == disks:
            at = stacks_key(stacks)
            seen[at] = seen.get(at, 0) + times
    return seen


class PullingStrings(Game):
    """Pulling Strings for two players, X (Eks / squares) and O (Oh / circles).

    Options: ``edition`` (``classic`` fixed letters or ``published`` with 20 of 26 letter
    tiles placed from ``seed`` or given as ``letters``), ``break`` (``end`` or ``string``),
    ``corner`` (``split`` or ``keep``), ``repeat`` (a draw when a position occurs for the
    N-th time; off by default) and ``max_turns``.
    """

    name = "pulling-strings"
    title = "Pulling Strings"
    TERMINATIONS = (HOME, STUCK, REPETITION)
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
        OptionSpec(
            "repeat",
            int,
            None,
            "drawn when the same position (stacks and broken ends) occurs for the N-th "
            "time; none: never",
            minimum=2,
            nullable=True,
        ),
        MAX_TURNS,
        OptionSpec(
            "seed", int, None, "seed that places the published edition's letters", nullable=True
        ),
        OptionSpec(
            "letters",
            str,
            None,
            "published edition: the 20 letters on ends N0..N4 E0..E4 S0..S4 W0..W4 "
            "(other tile sets: their faces, separated by spaces)",
            nullable=True,
        ),
        TileSetOption(
            "tiles",
            str,
            "asl",
            "published edition: the tile set (letters / ASL handshapes, numbers / Roman "
            "numerals, hiragana / katakana, element symbols / names), or a tile set file "
            "(see docs/tilesets.md)",
            choices=tuple(TILE_SETS),
        ),
        OptionSpec(
            "learning",
            str,
            "off",
            "published edition: to pull a string give the other face of its tile; strict: "
            "a wrong answer pulls nothing, slip: it pulls the string it names",
            choices=("off", "strict", "slip"),
        ),
        OptionSpec(
            "mistakes",
            float,
            0.0,
            "learning variants: how often a computer player gives a wrong answer (0..1)",
            minimum=0,
            maximum=1,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        #: The tile set of the published edition (None for the classic letters).
        self.tileset: TileSet | None = None
        #: The tile (index in :attr:`tileset`) on each end, published edition only.
        self.tile_of_end: tuple[int, ...] = ()
        #: ``off``, ``strict`` or ``slip`` (see ``learning.py``).
        self.learning: str = str(self.options["learning"])
        #: How often a computer player answers wrongly in a learning game.
        self.mistakes = float(self.options["mistakes"] or 0.0)
        #: The end labels, one per end id (the board faces of the tiles).
        self.letters: Sequence[str] = CLASSIC_LETTERS
        if self.options["edition"] == "published":
            self._place_tiles()
        self._letter_index: dict[str, int] = {ch: i for i, ch in enumerate(self.letters)}
        # Lower-case lookups too, so "C" and "c" both name the same end.
        self._letter_index.update({ch.lower(): i for i, ch in enumerate(self.letters)})
        self._letter_index.update({ch.upper(): i for i, ch in enumerate(self.letters)})
        if self.tileset is not None:
            # Other spellings of a board face name its end too (a kana's romaji).
            for i, t in enumerate(self.tile_of_end):
                for alias in self.tileset.tiles[t].board.aliases:
                    self._letter_index.setdefault(alias, i)
        self.plans = plans(self.options["corner"] == "keep")
        self.break_string = self.options["break"] == "string"
        mt = self.options["max_turns"]
        self.max_turns: int | None = None if mt is None else int(mt)
        rp = self.options["repeat"]
        #: How many times a position may occur before the game is drawn (None: any).
        self.repeat: int | None = None if rp is None else int(rp)
        self._legal_cache: dict[int, tuple[int, ...]] = {}
        published = self.options["edition"] == "published"
        self.seat_titles = ("Squares", "Circles") if published else ("Eks", "Oh")
        # The 2003 figures mark the homes X and O; the published board draws squares and
        # circles, and its letter tiles include X and O, which must not be read as homes.
        #: How the board marks the homes of X and of O.
        self.home_marks: tuple[str, str] = ("\u25a1", "\u25cb") if published else ("X", "O")
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=("X", "O"),
            simultaneous=True,
            chance=False,
            perfect_information=True,
            num_distinct_actions=NUM_ENDS * self.faces,
            num_chance_outcomes=0,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=self.max_turns,
        )

    _check_options = staticmethod(_check)

    def _place_tiles(self) -> None:
        """Draw (from ``seed``) or read (``letters``) the 20 tiles on the ends."""
        from taut.games.pulling_strings.tilesets import tile_set

        tiles = self.tileset = tile_set(str(self.options["tiles"]))
        given = self.options["letters"]
        if given is None:
            rng = random.Random(self.options["seed"])
            # The same draw as sampling the 26 letters, so seeds keep their layouts.
            chosen = rng.sample(range(len(tiles)), NUM_ENDS)
            faces: tuple[str, ...] = tuple(tiles.tiles[i].board.text for i in chosen)
        else:
            faces = _read_letters(str(given), tiles)
        single = all(len(f) == 1 for f in faces)
        self.options["letters"] = "".join(faces) if single else " ".join(faces)
        self.letters = "".join(faces) if single else faces
        self.tile_of_end = tuple(tiles.find_board(f) or 0 for f in faces)

    @property
    def faces(self) -> int:
        """How many other faces a player may give per end: the tile set's size in a
        learning game, else 1 (an action is just an end)."""
        return len(self.tileset) if self.learning != "off" and self.tileset else 1

    def proxy(self) -> Proxy | None:
        """In a learning game, the same game without the answers: agents choose a string
        there and answer it (see ``learning.py``)."""
        if self.learning == "off":
            return None
        from taut.games.pulling_strings.learning import LearningProxy

        return LearningProxy.of(self)

    @property
    def info(self) -> GameInfo:
        """Metadata: two simultaneous seats X and O, 20 actions (one per end)."""
        return self._info

    def new_initial_state(self) -> PullingStringsState:
        """Five disks on the center, nothing broken."""
        if self.learning != "off":
            from taut.games.pulling_strings.learning import LearningState

            return LearningState(self, {CENTER: START_DISKS}, 0, 0)
        if self.repeat is not None:
            return RepeatingState(self, {CENTER: START_DISKS}, 0, 0)
        return PullingStringsState(self, {CENTER: START_DISKS}, 0, 0)

    def state_from_json(self, data: JSON) -> PullingStringsState:
        """A position ``{"stacks": [[row, col, n], ...], "broken": [letters], "turn": k}``.

        Under the ``repeat`` option ``"seen"`` (as :meth:`RepeatingState.to_json` writes
        it) gives the earlier positions and their counts; without it the count starts here.
        Without the option ``"seen"`` is ignored, as are the fields a position prints but
        does not need (``home``, ``result``).
        """
        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object with 'stacks' and 'broken'")
        # A learning game also reads the last answers and the tallies.
        unknown = set(data) - {
            "stacks",
            "broken",
            "turn",
            "outcome",
            "home",
            "result",
            "seen",
            "answers",
            "tally",
        }
        if unknown:
            raise PositionError(
                f"unknown position field(s) {sorted(unknown)}; allowed: stacks, broken, turn"
                + (", seen" if self.repeat is not None else "")
            )
        stacks = _read_stacks(data.get("stacks", []))
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
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise PositionError(f"'turn' must be a non-negative integer, got {turn!r}")
        if self.repeat is not None:
            seen = _read_seen(data.get("seen", []), sum(stacks.values()))
            return RepeatingState(self, stacks, broken, turn, None, seen)
        if self.learning != "off":
            from taut.games.pulling_strings.learning import LearningState

            return LearningState.from_json(self, stacks, broken, turn, data)
        return PullingStringsState(self, stacks, broken, turn)

    # -- notation --------------------------------------------------------------------------

    def end_index(self, text: str) -> int | None:
        """The end named by a letter (``c``) or a geometric name (``N2``); None if neither."""
        text = text.strip()
        found = self._letter_index.get(text)
        return found if found is not None else end_from_name(text)

    def cell_name(self, cell: int) -> str:
        """An intersection as a player finds it on the board: the letter above its column
        and the letter left of its row, ``(c,w)`` for the centre of the classic board."""
        row, col = divmod(cell, SIZE)
        return f"({self.letters[col]},{self.letters[_WEST + row]})"

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
        if self.learning != "off":
            # Random answers in a learning game: the protocol path draws them.
            out = super().rollout(state, rng, limit)
            assert isinstance(out, PullingStringsState)
            return out
        if self.repeat is not None:
            return self._rollout_counting(state, rng, limit)
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
            # state.move_stacks, inlined: calling it once a turn costs about 8% here.
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
                    broken |= 1 << opposite(p)
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

    def _rollout_counting(
        self, state: PullingStringsState, rng: random.Random, limit: int
    ) -> PullingStringsState:
        """:meth:`rollout` under the ``repeat`` option: state by state, so that every
        position is counted (the same draws from ``rng``)."""
        choice = rng.choice
        for _ in range(limit):
            if state._outcome is not None:
                break
            legal = self.legal_ends(state.broken)
            p = choice(legal)
            q = choice(legal)
            state = state.pull(p, q)
        return state

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Evaluation by closeness of the disks to each side's homes and one-pull threats."""
        assert isinstance(state, PullingStringsState)
        v = evaluate(state)
        return (v, -v)

    def heuristic_matrix(self, state: State) -> Sequence[Sequence[float]] | None:
        """Every child's value for X by the compiled kernel of
        :mod:`~taut.games.pulling_strings.leaves` (None without Numba, and for positions
        of a learning game or under ``repeat``)."""
        if type(state) is not PullingStringsState:
            return None
        from taut.games.pulling_strings.leaves import child_values

        return child_values(state)
