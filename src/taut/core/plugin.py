"""Game plugins: everything the shared layers need from one game, in one object.

The command line, the agents, the arena, the adapters and the server never name a game:
they ask the registry for plugins and read what a game offers from its plugin. A game
package exports one instance of a :class:`GamePlugin` subclass (conventionally ``plugin``
in ``<package>/plugin.py``) and registers it under the entry point group ``taut.games``::

    [project.entry-points."taut.games"]
    my-game = "my_package.plugin:plugin"

Every hook has a default that works, so a plugin needs only :attr:`GamePlugin.game_class`.
Hooks import the game's heavier modules (rendering, solvers, commands) only when called,
so loading every plugin stays cheap.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from taut.core.game import Game, State
from taut.core.options import option_text
from taut.core.terms import CHANCE_SEAT

if TYPE_CHECKING:
    import click

    from taut.core.observation import Observer
    from taut.core.one_turn import OneTurnGames
    from taut.core.presentation import OptionPresentation
    from taut.core.presenter import Presenter
    from taut.core.record_part import RecordPart
    from taut.core.tutorial import Tutorial
    from taut.learn.tileset import TileSet

Policy = Callable[[State, int], Mapping[int, float]]
"""An exact mixed strategy: ``policy(state, seat) -> {action: probability}``."""

Values = Callable[[State], Sequence[float]]
"""Exact values of positions: ``values(state) -> one value per seat`` (in utility units)."""


@dataclass(frozen=True)
class CameraSigning:
    """How a game's answers can be signed to a camera in the browser (see
    :meth:`GamePlugin.camera_signing`).

    ``recogniser`` and ``model`` name files of :meth:`GamePlugin.static_files`: a plain
    script that defines ``TautSigns`` (``classify(model, points, handedness)`` and
    ``classifyFrames(model, frames, handedness)`` on 21 hand landmarks, each returning
    ``{letter, top}``) and the JSON it reads. A recognised letter fills the part ``slot``
    of the move the board composes (as a click on the board's ``data-part="SLOT=LETTER"``
    would); the part ``right_slot`` (None: none) holds the letter the sign should have been,
    which the page shows beside the sign after the turn.
    """

    recogniser: str
    model: str
    slot: str
    right_slot: str | None = None


#: Where ``max_game_length`` is unbounded, what the OpenSpiel adapter reports (in turns).
NOMINAL_TURNS = 10_000


class GamePlugin:
    """What a game offers the shared layers (subclass it; every hook has a default).

    Identity: :attr:`game_class` (required), :attr:`summary`, :meth:`rules_text`,
    :attr:`seat_range`, :meth:`option_presentation`. Presentation: :meth:`render`,
    :meth:`narrate`, :meth:`describe_move`, :meth:`legend`,
    :meth:`move_help`, :meth:`status`, :meth:`presenter`, :attr:`verb`,
    :attr:`draw_by_agreement`. Records: :meth:`record_part`. Analysis: :meth:`exact_policy`,
    :meth:`unsolved_because`, :meth:`exact_values`, :meth:`one_turn_games`,
    :meth:`seat_stats`, :meth:`game_stats`, :meth:`lead`, :meth:`start_value`. Adapters:
    :meth:`observer`, :meth:`max_game_length`, :meth:`state_key`, :attr:`openspiel_name`,
    :attr:`env_id`.
    Command line: :meth:`commands`. Learning: :meth:`tutorial`, :meth:`hides_moves`,
    :meth:`tile_sets`, :meth:`camera_signing`. Browser files: :meth:`static_files`. Ratings:
    :meth:`rating_pool`.
    """

    #: The game's class (its ``name``, ``title`` and ``OPTIONS`` are read from it): a class
    #: attribute of a subclass, or given to the constructor.
    game_class: type[Game]
    #: One sentence on what the game is, for lists of games.
    summary: ClassVar[str] = ""
    #: The verb a prompt uses for a move (``X pulls>``).
    verb: ClassVar[str] = "plays"
    #: Whether players may agree to a draw (``draw`` at a terminal prompt offers one).
    draw_by_agreement: ClassVar[bool] = False
    #: The fewest and most seats any options give (None: the default game's seat count).
    seat_range: ClassVar[tuple[int, int] | None] = None
    #: How a position is written as JSON, in one line, for ``--start`` help.
    position_help: ClassVar[str] = "the JSON a position prints with --json"
    #: Whether :meth:`svg` marks the place of every move the position could offer with
    #: ``data-offer`` (:mod:`taut.core.svg`), whoever looks: the server then draws a game's
    #: live pictures with no moves offered, once a view, and the page turns the offers of
    #: the frame's legal moves into choices.
    offers: ClassVar[bool] = False
    #: The page's module that draws this game's table from :meth:`table`'s data: the name
    #: of one of :meth:`static_files` (served as ``/game-files/GAME/NAME``), exporting
    #: ``drawTable(data, layout)`` with ``layout`` ``"wide"`` or ``"narrow"`` (null where
    #: :meth:`svg_narrow` is None), which gives exactly the pictures :meth:`svg` and
    #: :meth:`svg_narrow` draw; None: the server draws every picture. A page that has the
    #: module is sent the data in place of the pictures: a move costs the server no drawing.
    table_drawing: ClassVar[str | None] = None

    def __init__(self, game_class: type[Game] | None = None) -> None:
        if game_class is not None:
            self.game_class = game_class
        if not isinstance(getattr(self, "game_class", None), type):
            raise TypeError(f"{type(self).__name__} needs a game_class")

    # -- identity ----------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The registry name, e.g. ``tracks``."""
        return self.game_class.name

    @property
    def title(self) -> str:
        """The human title."""
        return self.game_class.title

    @property
    def openspiel_name(self) -> str:
        """The name the OpenSpiel adapter registers (``taut_`` and the name with ``_``)."""
        return "taut_" + self.name.replace("-", "_")

    @property
    def env_id(self) -> str:
        """The Gymnasium id (``taut/`` and the name in CamelCase, ``-v0``)."""
        return "taut/" + "".join(part.capitalize() for part in self.name.split("-")) + "-v0"

    def seats_possible(self) -> tuple[int, int]:
        """The fewest and most seats the game can have (:attr:`seat_range` or the default)."""
        if self.seat_range is not None:
            return self.seat_range
        n = self.game_class().info.num_seats
        return n, n

    def rules_text(self) -> str:
        """The rules in a few paragraphs (plain text; empty when not written)."""
        return ""

    def seat_title(self, game: Game, seat: int) -> str:
        """How a seat is introduced (``X (Eks, the squares)``), in words that fit the person
        who takes it and the other players alike (the players' list shows every seat's);
        default: its name."""
        return game.info.seats[seat]

    # -- presentation -------------------------------------------------------------------

    def render(self, state: State, markup: bool = False) -> str:
        """A text picture of ``state`` (a view: it shows what the view knows). With
        ``markup``, Rich markup (colours) may be used. Default: the state's JSON."""
        text = json.dumps(state.to_json())
        if markup:
            from taut.core.presenter import escape

            return escape(text)
        return text

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """The position as an SVG picture for the browser, drawn from ``view`` (what ``seat``
        may know; None: a spectator), with ``legal`` (``seat``'s moves now, in notation)
        clickable as :mod:`taut.core.svg` describes. Default: the text picture, nothing to
        click (the page then lists the legal moves as buttons)."""
        from taut.core.svg import text_svg

        return text_svg(self.render(view), f"{self.title}: the position")

    def svg_narrow(self, view: State, seat: int | None, legal: Sequence[str]) -> str | None:
        """The position as :meth:`svg` draws it, laid out for a narrow screen (a phone),
        where :meth:`svg`'s picture is laid out for a wide one and does not fit a phone's
        width; the page draws this one where its board has less room than :meth:`svg`'s
        picture's ``data-touch-width`` (see :mod:`taut.core.svg`). Default: None, the one
        picture fits every width."""
        return None

    def table(self, view: State, seat: int | None, legal: Sequence[str]) -> dict[str, Any] | None:
        """What :attr:`table_drawing` draws the position from, as plain JSON data read from
        ``view`` alone (what ``seat`` may know), with ``legal`` as in :meth:`svg`. Default:
        None (the game has no such module)."""
        return None

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """Plain sentences on what one node did, saying only what everybody may know.

        ``before`` and ``after`` are full states. Default: the actions, by seat.
        """
        if CHANCE_SEAT in joint:
            return []
        moves = "; ".join(
            f"{before.seat_name(s)} {before.action_to_string(s, a)}"
            for s, a in sorted(joint.items())
        )
        return [f"Played: {moves}."]

    def describe_move(self, state: State, seat: int, action_text: str) -> str:
        """``seat``'s move ``action_text`` (in notation) at ``state`` (a view ``seat`` may
        see), said in the game's own words, as a person reads it in a list of moves
        (``NS places kind 2 on c3``). Default: the notation itself."""
        return action_text

    def describe_moves(self, state: State, seat: int, legal: Sequence[str]) -> list[str]:
        """:meth:`describe_move` of each of ``legal`` (a frame lists every move in words).
        Default: one by one; a game whose words are found by a costly key may find them
        all at once."""
        return [self.describe_move(state, seat, m) for m in legal]

    def option_presentation(self, game_class: type[Game]) -> OptionPresentation:
        """How the options of ``game_class`` are offered on a form: plain labels, groups,
        when each applies, presets (see :mod:`taut.core.presentation`). Default: every
        option by its code name, as declared."""
        from taut.core.presentation import default_presentation

        return default_presentation()

    def legend(self, game: Game) -> list[str]:
        """Lines printed before play: the goal and how to enter a move."""
        return [f"{game.title}. Type help for the legal moves, quit to stop."]

    def move_help(self, state: State, seat: int) -> str | None:
        """What ``help`` says about a move (None: list the legal moves)."""
        return None

    def status(self, state: State) -> str | None:
        """One line on the position (``home X 2, O 1``), printed under a replayed board."""
        return None

    def presenter(self, game: Game) -> Presenter:
        """A new terminal presentation for one game of ``game``."""
        from taut.core.presenter import Presenter

        return Presenter(self, game)

    # -- records ---------------------------------------------------------------------------

    def record_part(self, game: Game) -> RecordPart | None:
        """The game's own fields in its records, beside the moves (default: none)."""
        return None

    # -- analysis --------------------------------------------------------------------------

    def exact_policy(self, game: Game) -> Policy | None:
        """An exact optimal policy for ``game`` when one is known (the ``perfect`` agent
        plays it), else None."""
        return None

    def unsolved_because(self, game: Game) -> str:
        """Why :meth:`exact_policy` has nothing for ``game``, in words a player reads after
        "it needs a solved game:" (for example which sizes or variants are solved)."""
        return f"no exact solution of {game.title} is known"

    def exact_values(self, game: Game) -> Values | None:
        """The exact value of every position of ``game`` for each seat (the returns of a
        finished game) when the game is solved, else None (the default). Analysis then
        judges moves exactly instead of by search."""
        return None

    def one_turn_games(self, game: Game) -> OneTurnGames | None:
        """The one-turn matrix games of a solution of ``game``, exact or approximate, where
        one is known (``hard`` then replies to a model of its opponent on them), else None."""
        return None

    def seat_stats(self, state: State) -> dict[str, Sequence[float]]:
        """Numbers per seat of a finished game that self-play averages (``final score``)."""
        return {}

    def game_stats(self, state: State) -> dict[str, float]:
        """Numbers about a finished game that self-play averages (``rounds``)."""
        return {}

    def lead(self, state: State) -> Sequence[float]:
        """Each seat's standing in an unfinished position, for who-is-ahead statistics
        (``taut analyse balance``): larger is better, compared only between the seats of
        one position. Default: the game's heuristic evaluation (:meth:`Game.heuristic`)."""
        return state.game.heuristic(state)

    def start_value(self, game: Game) -> Sequence[float] | None:
        """Each seat's expected result (:meth:`State.returns`) from the start under optimal
        play, where the game is solved; None (the default) where it is not."""
        return None

    # -- adapters --------------------------------------------------------------------------

    def observer(self) -> Observer:
        """How views become numbers (default: the common header only)."""
        from taut.core.observation import Observer

        return Observer()

    def max_game_length(self, game: Game) -> int:
        """A bound on the decisions along a game (a joint move counts once): the game's own,
        or :data:`NOMINAL_TURNS` where the rules set none."""
        bound = game.info.max_game_length
        return NOMINAL_TURNS if bound is None else bound

    def state_key(self, state: State) -> str:
        """A string naming the position (OpenSpiel's ``str(state)``): compact JSON."""
        return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))

    # -- command line ----------------------------------------------------------------------

    def commands(self) -> dict[str, list[click.Command]]:
        """Extra commands by group: ``""`` for top-level ones (``taut NAME``), else the
        group they join (``solve``, ``analyse``). Default: none.

        ``taut --help`` calls this for every game, so the modules that define the commands
        import their heavy dependencies (solvers, NumPy) inside the command functions."""
        return {}

    # -- learning --------------------------------------------------------------------------

    def hides_moves(self, game: Game) -> bool:
        """True when a move is an answer the player must know (a learning game): front
        ends then never list the legal moves, only offer the picture's parts. Default:
        False."""
        return False

    def tile_sets(self) -> Sequence[TileSet]:
        """The tile sets the game plays with (learning variants, flash cards). Default:
        none."""
        return ()

    def camera_signing(self, game: Game) -> CameraSigning | None:
        """How the browser may read a move's answer from the player's hand on camera in
        ``game`` (None, the default: it may not). The video never leaves the browser."""
        return None

    def tutorial(self) -> Tutorial | None:
        """A scripted short game that teaches this game one rule at a time on the real board
        (:mod:`taut.core.tutorial`); None, the default: none."""
        return None

    # -- browser files ---------------------------------------------------------------------

    def static_files(self) -> dict[str, Path]:
        """Files the game's pages load, by the name the server serves them under
        (``/game-files/GAME/NAME``). Default: none."""
        return {}

    # -- ratings ---------------------------------------------------------------------------

    def rating_pool(self, game: Game) -> str:
        """The rating pool a game of ``game`` counts in: games are rated together when
        their pools are equal. Default: every option as ``name=value``, in the order the
        game declares them, joined by ``,`` (any option apart puts games apart); a plugin
        leaves out the options that do not change how the game is played."""
        return ",".join(
            f"{spec.name}={option_text(game.options.get(spec.name))}" for spec in game.OPTIONS
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
