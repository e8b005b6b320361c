"""Is a rule variant fair? Many games between agents, seats rotated, summarised per variant.

A balance run plays ``games`` games of each *variant* (the game with one set of options; a
sweep of one option gives several variants) between the given agents. Game *g* of every
variant gets the seed ``derive_seed(seed, "balance", g)`` (the variants meet the same luck,
which sharpens their comparison) and seats the agents in rotation: team *t* gets agent
``(t + g) mod k`` of the *k* agents, so each agent sits in each seat equally often when
``games`` is a multiple of *k*.

Each finished game becomes one JSON object (see :func:`play_balance_task`); with a results
file each is appended as a line as soon as it is played, after a header line naming the
settings. Running again with the same file plays only the games it lacks (and more when
``games`` grew); a file made with other settings is refused. Games are played by an arena
backend (:mod:`taut.arena.backends`): a process pool or Ray.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taut.agents import make_agent
from taut.arena.backends import Backend
from taut.arena.balance_stats import lead_changes, leader, settled_at, summarise, team_of, trailed
from taut.arena.match import play_match
from taut.core.chance import derive_seed
from taut.core.errors import TautError
from taut.core.game import Game, State
from taut.core.registry import make, plugin_of
from taut.core.terms import CHANCE_SEAT, NodeKind

#: What the header line of a results file says it is.
RESULTS_KIND = "taut-balance"
#: The results file format this version writes and reads.
RESULTS_FORMAT = 1


class BalanceError(TautError):
    """A balance run cannot go on: bad settings, or a results file that does not fit."""


@dataclass(frozen=True)
class Variant:
    """The game with one set of options: ``label`` (``size=5``, or empty without a sweep)
    and every option's value."""

    label: str
    options: dict[str, Any]


@dataclass(frozen=True)
class BalanceSettings:
    """What a run measures: the game, its variants, the agents and the seed (not the number
    of games, which a resumed run may raise)."""

    game: str
    version: str
    variants: tuple[Variant, ...]
    agents: tuple[str, ...]
    seed: int
    sweep: str | None = None

    def header(self) -> dict[str, Any]:
        """The header line of a results file."""
        return {
            "kind": RESULTS_KIND,
            "format": RESULTS_FORMAT,
            "game": self.game,
            "version": self.version,
            "agents": list(self.agents),
            "seed": self.seed,
            "sweep": self.sweep,
            "variants": [{"label": v.label, "options": v.options} for v in self.variants],
        }


@dataclass(frozen=True)
class BalanceTask:
    """One game to play: its variant, its number, the agents by seat and its seed."""

    game: str
    options: dict[str, Any]
    variant: int
    index: int
    seats: tuple[int, ...]  # per seat: index into the run's agents
    specs: tuple[str, ...]  # per seat: the agent spec
    seed: int


def seating(teams: Sequence[Sequence[int]], agents: int, index: int) -> tuple[int, ...]:
    """The agent (by index) in each seat of game ``index``: team ``t`` gets agent
    ``(t + index) mod agents``."""
    size = sum(len(team) for team in teams)
    out = [0] * size
    for t, team in enumerate(teams):
        for s in team:
            out[s] = (t + index) % agents
    return tuple(out)


def schedule(settings: BalanceSettings, games: int) -> list[BalanceTask]:
    """Every game of the run, variant by variant."""
    tasks = []
    for v, variant in enumerate(settings.variants):
        teams = make(settings.game, **variant.options).teams()
        for g in range(games):
            seats = seating(teams, len(settings.agents), g)
            tasks.append(
                BalanceTask(
                    settings.game,
                    dict(variant.options),
                    v,
                    g,
                    seats,
                    tuple(settings.agents[a] for a in seats),
                    derive_seed(settings.seed, "balance", g),
                )
            )
    return tasks


def play_balance_task(task: BalanceTask) -> dict[str, Any]:
    """Play one game and summarise it (in a worker process or a Ray task, usually).

    The summary: ``variant``, ``index``, ``seats`` (agent index per seat), ``winners``
    (seats), ``reason``, ``turns`` (decisions, a joint move counting once; chance is not a
    turn), ``first`` (the seat of the first decision, None where the first decision is
    simultaneous), ``returns``, and the lead: ``changes``, ``settled`` (the turn from which
    the winner led to the end) and ``trailed`` (see :mod:`taut.arena.balance_stats`).
    """
    game = make(task.game, **task.options)
    plugin = plugin_of(game)
    teams = game.teams()
    agents = [make_agent(spec, game=game) for spec in task.specs]
    start = game.new_initial_state()
    leaders: list[int | None] = [_leader(plugin.lead(start), start, teams)]
    first: list[int | None] = []

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        if CHANCE_SEAT in joint:
            return  # nature's move: not a turn, and the next decision shows its effect
        if not first:
            first.append(before.acting_seats()[0] if before.kind is NodeKind.DECISION else None)
        if after.is_terminal():
            leaders.append(None)  # set below from the outcome
        else:
            leaders.append(_leader(plugin.lead(after), after, teams))

    result = play_match(
        game, agents, seed=task.seed, observer=observe, seats=_seat_names(game, task.specs)
    )
    outcome = result.state.outcome
    assert outcome is not None  # play_match plays to the end
    winner = team_of(teams, outcome.winners[0]) if outcome.winners else None
    # The end decides who led last: the winners' team, or nobody after a draw.
    leaders[-1] = winner
    return {
        "variant": task.variant,
        "index": task.index,
        "seats": list(task.seats),
        "winners": list(outcome.winners),
        "reason": outcome.reason.name,
        "turns": len(leaders) - 1,
        "first": first[0] if first else None,
        "returns": [float(r) for r in result.state.returns()],
        "changes": lead_changes(leaders),
        "settled": settled_at(leaders, winner),
        "trailed": trailed(leaders, winner),
    }


def _leader(scores: Sequence[float], state: State, teams: Sequence[Sequence[int]]) -> int | None:
    if len(scores) != len(state.game.info.seats):
        raise BalanceError(f"the lead hook gave {len(scores)} numbers for {len(teams)} seats")
    return leader(scores, teams)


def _seat_names(game: Game, specs: Sequence[str]) -> dict[str, str]:
    return dict(zip(game.info.seats, specs, strict=True))


@dataclass
class ResultsFile:
    """A results file: a header line, then one game summary per line (JSON lines)."""

    path: Path
    games: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    def open(self, settings: BalanceSettings, must_exist: bool = False) -> None:
        """Read the games already played (checking the header against ``settings``), or
        start the file with its header. A last line cut short by an interrupted run is
        dropped."""
        header = json.loads(json.dumps(settings.header()))  # as read back: lists, not tuples
        if not self.path.exists() or self.path.stat().st_size == 0:
            if must_exist:
                raise BalanceError(
                    f"there is nothing to resume in {self.path}: it is missing or empty"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("w", encoding="utf-8") as f:
                f.write(json.dumps(header) + "\n")
            return
        text = self.path.read_text(encoding="utf-8")
        if not text.endswith("\n"):
            # An interrupted write: keep the complete lines only, so appending stays valid.
            text = text[: text.rfind("\n") + 1]
            with self.path.open("w", encoding="utf-8") as f:
                f.write(text)
        lines = text.splitlines()
        if not lines:
            raise BalanceError(f"{self.path} is not a balance results file (no header line)")
        try:
            found = json.loads(lines[0])
        except json.JSONDecodeError:
            found = None
        if not isinstance(found, dict) or found.get("kind") != RESULTS_KIND:
            raise BalanceError(
                f"{self.path} is not a balance results file (its first line is not a "
                f"{RESULTS_KIND} header): name a new file or one written by this command"
            )
        differences = _differences(found, header)
        if differences:
            raise BalanceError(
                f"{self.path} was made with other settings ({'; '.join(differences)}): "
                "give the same settings to continue it, or name another results file"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                game = json.loads(line)
                key = (int(game["variant"]), int(game["index"]))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise BalanceError(f"{self.path} line {number} is not a game summary") from exc
            self.games.setdefault(key, game)

    def append(self, game: Mapping[str, Any]) -> None:
        """Add one game's summary at the end of the file (written through at once)."""
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(game) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.games.setdefault((int(game["variant"]), int(game["index"])), dict(game))


def _differences(found: Mapping[str, Any], wanted: Mapping[str, Any]) -> list[str]:
    """What differs between a file's header and this run's, in words."""
    out = []
    for key in ("format", "game", "version", "agents", "seed", "sweep", "variants"):
        if found.get(key) != wanted.get(key):
            out.append(
                f"{key}: the file has {_show(found.get(key))}, this run {_show(wanted[key])}"
            )
    return out


def _show(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return ", ".join(
            str(v.get("label") or json.dumps(v.get("options"), sort_keys=True)) for v in value
        )
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return json.dumps(value)


@dataclass
class BalanceResult:
    """The games of a run by variant (in game order) and their summaries."""

    settings: BalanceSettings
    games: list[list[dict[str, Any]]]
    seats: list[list[str]]
    """Each variant's seat names."""
    summaries: list[dict[str, Any]]
    resumed: int = 0
    """Games read back from the results file rather than played."""

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: the settings and each variant's numbers."""
        return {
            "game": self.settings.game,
            "agents": list(self.settings.agents),
            "seed": self.settings.seed,
            "sweep": self.settings.sweep,
            "games": len(self.games[0]) if self.games else 0,
            "variants": [
                {"label": v.label, "options": v.options, **summary}
                for v, summary in zip(self.settings.variants, self.summaries, strict=True)
            ],
        }


def check_settings(settings: BalanceSettings) -> list[Game]:
    """Each variant's game, once every agent has been built for it (so that a bad spec, or
    an agent that cannot play a variant, is refused before anything is played)."""
    if not settings.agents:
        raise BalanceError("at least one agent is needed")
    built = [make(settings.game, **v.options) for v in settings.variants]
    for game in built:
        for spec in settings.agents:
            make_agent(spec, game=game)
    return built


def run_balance(
    settings: BalanceSettings,
    games: int,
    backend: Backend,
    results: ResultsFile | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> BalanceResult:
    """Play what ``results`` lacks of ``games`` games per variant and summarise.

    ``progress(done, total)`` is called as games finish (games read back count as done).
    The summaries depend neither on the backend nor on how many runs it took.
    """
    if games < 1:
        raise BalanceError(f"games must be at least 1, got {games}")
    built = check_settings(settings)
    tasks = schedule(settings, games)
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if results is not None:
        done = {k: g for k, g in results.games.items() if k[1] < games}
    resumed = len(done)
    todo = [t for t in tasks if (t.variant, t.index) not in done]
    if progress is not None:
        progress(len(done), len(tasks))
    finished: Iterator[tuple[int, dict[str, Any]]] = backend.run(play_balance_task, todo)
    try:
        for _, game in finished:
            key = (int(game["variant"]), int(game["index"]))
            if key in done:
                raise RuntimeError(f"backend {backend.name!r} returned game {key} twice")
            done[key] = game
            if results is not None:
                results.append(game)
            if progress is not None:
                progress(len(done), len(tasks))
    finally:
        # Close at once so that a backend stops its workers even when a game fails.
        close = getattr(finished, "close", None)
        if close is not None:
            close()
    by_variant = [[done[(v, g)] for g in range(games)] for v in range(len(settings.variants))]
    seats = [list(game.info.seats) for game in built]
    summaries = [
        summarise(
            by_variant[v],
            seats[v],
            settings.agents,
            plugin_of(built[v]).start_value(built[v]),
            (built[v].info.min_utility, built[v].info.max_utility),
        )
        for v in range(len(settings.variants))
    ]
    return BalanceResult(settings, by_variant, seats, summaries, resumed)
