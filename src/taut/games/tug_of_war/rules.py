"""Tug of War: the game, its options, its action encoding and its fast random playout.

Action ids (dense, the same for every seat; ``n`` players, ``T`` tiles in the set):

* ``(tile * n + train) * 2 + end`` for ``0 <= id < 2nT``: play ``tile`` on open end ``end``
  (0 or 1) of seat ``train``'s train;
* ``2nT``: draw from the boneyard; ``2nT + 1``: pass;
* ``2nT + 2 + k`` for ``0 <= k <= P``: give ``k`` bonus points to the next opponent in the
  winner's allocation (``P`` is the set's total pips, the most a leftover can be);
* ``2nT + 3 + P``: keep the rest of the bonus (the last allocation step).

The winner of a round hands out the leftover pips one opponent at a time, clockwise from
the winner: each opponent loses the chosen ``k``; whatever is left is then added to the
winner's own score by the final *keep* step (always exactly one legal action). With three
or more players every split in whole points is reachable; with two the leftover is never
split, so the one give step offers only ``k = 0`` (keep it all) or the whole leftover
(take it all from the opponent). The action space stays small, and the keep step means a
one-move look-ahead never reaches the chance nodes of the next deal.

Chance outcomes are oriented tiles (see :mod:`taut.games.tug_of_war.tiles`).
"""

from __future__ import annotations

import random
from typing import Any

from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.options import OptionSpec, OptionValue
from taut.core.terms import JSON, GameInfo, Outcome
from taut.games.tug_of_war.determinize import determinize
from taut.games.tug_of_war.fast import random_playout
from taut.games.tug_of_war.heuristic import evaluate
from taut.games.tug_of_war.scoring import TERMINATIONS, EndRules
from taut.games.tug_of_war.state import TugState
from taut.games.tug_of_war.tiles import DominoSet, domino_set

#: The hand every player is dealt when option ``hand`` is not given (fewer only when a set
#: chosen explicitly is too small for the players).
DEFAULT_HAND = 7
#: The domino sets there are (option ``set``: the highest number on a half).
SETS = (6, 9, 12)


def default_set(players: int) -> int:
    """The set dealt to ``players`` unless one is chosen: the smallest in which a starter
    and a hand of seven for everybody fit (double-six to 3, double-nine to 6, then
    double-twelve)."""
    for top in SETS:
        if players * (DEFAULT_HAND + 1) <= tiles_in(top):
            return top
    return SETS[-1]


def tiles_in(top: int) -> int:
    """The number of tiles of a double-``top`` set."""
    return (top + 1) * (top + 2) // 2


def _check(options: dict[str, OptionValue]) -> None:
    players = int(options["players"] or 0)
    top = options["set"]
    if top is not None and top not in SETS:
        raise InvalidOptionError(
            f"option 'set' got {top}; allowed: 6 | 9 | 12 (double-six, -nine or -twelve)"
        )
    top = int(top) if top is not None else default_set(players)
    tiles = tiles_in(top)
    hand = options["hand"]
    if hand is not None:
        need = players * (int(hand) + 1)
        if need > tiles:
            most = tiles // players - 1
            bigger = [s for s in SETS if s > top and need <= tiles_in(s)]
            raise InvalidOptionError(
                f"{players} players with hands of {hand} need {need} tiles (a starter and a "
                f"hand each) but the double-{top} set has {tiles}; use hand={most} or less"
                + (f" or set={bigger[0]}" if bigger else "")
            )
    elif tiles // players - 1 < 1:
        raise InvalidOptionError(f"the double-{top} set is too small for {players} players")


class TugOfWar(Game):
    """Tug of War with dominoes for 2 to 8 players (see ``docs/tug-of-war.md``).

    Options: ``players``; ``set`` (6, 9 or 12; by default 6 for two or three players, 9
    for four to six, 12 for seven or eight); ``hand`` (7, fewer only when a chosen set is
    too small); ``end`` (``target``, ``rounds`` or ``round-points``) with ``target``,
    ``out``, ``rounds``; ``tiebreak`` and ``round-score``.
    """

    name = "tug-of-war"
    title = "Tug of War"
    TERMINATIONS = TERMINATIONS
    OPTIONS = (
        OptionSpec("players", int, 3, "number of players", minimum=2, maximum=8),
        OptionSpec(
            "set",
            int,
            None,
            "domino set: 6, 9 or 12 (double-six, -nine, -twelve); default 6 for 2-3 "
            "players, 9 for 4-6, 12 for 7-8",
            choices=SETS,
            nullable=True,
        ),
        OptionSpec(
            "hand",
            int,
            None,
            "tiles dealt to each hand; default 7 (fewer only when a chosen set is too small)",
            minimum=1,
            nullable=True,
        ),
        OptionSpec(
            "end",
            str,
            "target",
            "how the game ends: target score, fixed rounds, or round points",
            choices=("target", "rounds", "round-points"),
        ),
        OptionSpec("target", int, 50, "end=target: +target wins, -target is out", minimum=1),
        OptionSpec(
            "out",
            str,
            "continue",
            "end=target: when a player goes out, play on (continue) or stop with the "
            "highest score winning (stop)",
            choices=("continue", "stop"),
        ),
        OptionSpec("rounds", int, 10, "end=rounds or round-points: rounds to play", minimum=1),
        OptionSpec(
            "tiebreak",
            str,
            "tied",
            "a tie for the win plays extra rounds among the tied players or all players",
            choices=("tied", "all"),
        ),
        OptionSpec(
            "round-score",
            str,
            "gain",
            "end=round-points: a round point goes to the best gain in the round or the "
            "best total after it",
            choices=("gain", "total"),
        ),
    )

    _check_options = staticmethod(_check)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = int(self.options["players"] or 0)
        if self.options["set"] is None:
            self.options["set"] = default_set(n)
        top = int(self.options["set"] or 0)
        self.dominoes: DominoSet = domino_set(top)
        if self.options["hand"] is None:
            self.options["hand"] = min(DEFAULT_HAND, self.dominoes.size // n - 1)
        self.num_players = n
        self.hand_size = int(self.options["hand"] or 0)
        #: Whether a round's winner may split the leftover (only with three or more players:
        #: in a two-player game it all goes one way).
        self.split_bonus = n > 2
        self.end_rules = EndRules(
            end=str(self.options["end"]),
            target=int(self.options["target"] or 0),
            out=str(self.options["out"]),
            rounds=int(self.options["rounds"] or 0),
            tiebreak=str(self.options["tiebreak"]),
            round_score=str(self.options["round-score"]),
        )
        ds = self.dominoes
        # The action layout documented in the module docstring.
        self.num_plays = 2 * n * ds.size
        self.DRAW = self.num_plays
        self.PASS = self.num_plays + 1
        self.GIVE0 = self.num_plays + 2
        self.KEEP = self.GIVE0 + ds.total_pips + 1
        self.seat_names = tuple(f"P{i}" for i in range(n))
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=self.seat_names,
            simultaneous=False,
            chance=True,
            perfect_information=False,
            num_distinct_actions=self.KEEP + 1,
            num_chance_outcomes=ds.num_oriented,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=None,
        )

    @property
    def info(self) -> GameInfo:
        """Metadata: ``n`` sequential seats, chance deals and draws, hidden hands."""
        return self._info

    # -- action ids ------------------------------------------------------------------------

    def play_id(self, tile: int, train: int, end: int) -> int:
        """The action id of playing ``tile`` on end ``end`` of ``train``."""
        return (tile * self.num_players + train) * 2 + end

    def decode_play(self, action: int) -> tuple[int, int, int]:
        """``(tile, train, end)`` of a play id."""
        rest, end = divmod(action, 2)
        tile, train = divmod(rest, self.num_players)
        return tile, train, end

    def give_id(self, points: int) -> int:
        """The action id of giving ``points`` to the current allocation target."""
        return self.GIVE0 + points

    # -- states ---------------------------------------------------------------------------

    def new_initial_state(self) -> State:
        """Round 1 about to be dealt, every score 0."""
        return TugState.start(self)

    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state (or a view) from :meth:`TugState.to_json`."""
        return TugState.from_json(self, data)

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Scores, opponents' scores and pips in hand, squashed into (-1, 1) per seat."""
        assert isinstance(state, TugState)
        return evaluate(state)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Deal the tiles ``seat`` cannot see at random (see ``determinize.py``)."""
        assert isinstance(state, TugState)
        return determinize(state, seat, rng)

    def random_playout(self, rng: random.Random) -> tuple[int, Outcome]:
        """One uniform-random game by a compact loop over the same rules.

        It draws from ``rng`` exactly as the protocol path does (``random_joint`` at every
        node), so both give the same game; a test checks that.
        """
        return random_playout(self, rng)
