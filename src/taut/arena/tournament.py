"""Round-robin tournaments between agents, run in parallel and reproducible from a seed.

Every unordered pair of agents plays ``games`` games. Seats alternate fairly: in game *g*
seat *i* goes to the first agent when ``(i + g)`` is even, else to the second (in team
games, team *i* with all its seats), so in a
two-seat game each agent sits first in half the games, and in a game of more seats the
two agents alternate around the table. Game *g* of pair *(i, j)* gets the seed
``derive_seed(seed, i, j, g)``, and results are tallied in schedule order whatever order
the games finish in, so results depend neither on the backend that plays them (see
:mod:`taut.arena.backends`) nor on how many workers it uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.agents import make_agent
from taut.arena.backends import Backend, LocalBackend, make_backend
from taut.arena.match import play_match
from taut.arena.ratings import Ratings
from taut.arena.stats import score, wilson_interval
from taut.core.chance import derive_seed
from taut.core.registry import make


@dataclass(frozen=True)
class GameTask:
    """One game to play: which agent spec sits in each seat, and its seed."""

    game: str
    options: dict[str, Any]
    pair: tuple[int, int]
    seats: tuple[int, ...]  # per seat: index into the tournament's agent list
    specs: tuple[str, ...]  # per seat: the agent spec
    seed: int
    record: bool = False  # whether to bring back the game's record


@dataclass(frozen=True)
class GameResult:
    """What a finished game tells the tournament."""

    task: GameTask
    winners: tuple[int, ...]  # winning seats; empty for a draw
    reason: str
    length: int
    record: dict[str, Any] | None = None  # the game's record (JSON), when asked for


def play_task(task: GameTask) -> GameResult:
    """Play one scheduled game (in a worker process or a Ray task, usually)."""
    game = make(task.game, **task.options)
    agents = [make_agent(spec, game=game) for spec in task.specs]
    seats = dict(zip(game.info.seats, task.specs, strict=True))
    result = play_match(game, agents, seed=task.seed, seats=seats)
    outcome = result.state.outcome
    assert outcome is not None
    moves = result.record.moves or []
    record = result.record.to_json() if task.record else None
    return GameResult(task, outcome.winners, outcome.reason.name, len(moves), record)


def schedule(
    game: str,
    options: dict[str, Any],
    agents: Sequence[str],
    games: int,
    seed: int,
    seats: int | Sequence[Sequence[int]],
    record: bool = False,
) -> list[GameTask]:
    """All games of a round robin between ``agents`` (``games`` per pair).

    ``seats`` is the number of seats, each playing for itself, or the game's teams
    (:meth:`Game.teams`): every seat of a team gets the same agent, and the teams alternate
    between the two agents of a pair the way single seats do.
    """
    teams = [(s,) for s in range(seats)] if isinstance(seats, int) else [tuple(t) for t in seats]
    size = sum(len(t) for t in teams)
    tasks = []
    for i in range(len(agents)):
        for j in range(i + 1, len(agents)):
            for g in range(games):
                seating = [i] * size
                for t, members in enumerate(teams):
                    for s in members:
                        seating[s] = i if (t + g) % 2 == 0 else j
                order = tuple(seating)
                tasks.append(
                    GameTask(
                        game,
                        dict(options),
                        (i, j),
                        order,
                        tuple(agents[k] for k in order),
                        derive_seed(seed, i, j, g),
                        record,
                    )
                )
    return tasks


@dataclass
class PairRecord:
    """Results between two agents."""

    a: str
    b: str
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0


@dataclass
class AgentRecord:
    """One agent's totals over the tournament."""

    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass
class TournamentResult:
    """Everything a tournament measured."""

    game: str
    options: dict[str, Any]
    games_per_pair: int
    agents: list[str]
    totals: dict[str, AgentRecord]
    pairs: list[PairRecord]
    ratings: Ratings
    results: list[GameResult] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The JSON report (see the command's help for the format)."""
        out: dict[str, Any] = {}
        for name in self.agents:
            rec = self.totals[name]
            n = rec.wins + rec.draws + rec.losses
            lo, hi = wilson_interval(rec.wins + 0.5 * rec.draws, n)
            mu, sigma = self.ratings.get(name)
            out[name] = {
                "wins": rec.wins,
                "draws": rec.draws,
                "losses": rec.losses,
                "rating": round(mu, 3),
                "rating_sigma": round(sigma, 3),
                "score": round(score(rec.wins, rec.draws, rec.losses), 4),
                "score_ci95": [round(lo, 4), round(hi, 4)],
            }
        return {
            "game": self.game,
            "options": self.options,
            "games": self.games_per_pair,
            "agents": self.agents,
            "results": out,
            "pairs": [
                {"a": p.a, "b": p.b, "a_wins": p.a_wins, "b_wins": p.b_wins, "draws": p.draws}
                for p in self.pairs
            ],
        }


def run_tournament(
    game: str,
    options: dict[str, Any],
    agents: Sequence[str],
    games: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: Backend | str | None = None,
    records: bool = False,
) -> TournamentResult:
    """Play the round robin and gather totals, pairwise results and ratings.

    ``backend`` says where the games run: a :class:`~taut.arena.backends.Backend`, or the
    name of one (``"local"``, the default: a process pool on this machine; ``"ray"``: Ray
    tasks on a local Ray instance). ``workers`` sizes a backend given by name or the
    default one (for ``local``: processes, default one per core, 1 plays in this process);
    a backend object brings its own. ``progress(done, total)`` is called as games finish.
    The results are the same for every backend and number of workers. With ``records``
    every game's record comes back too (``TournamentResult.results[k].record``, in schedule
    order).
    """
    names = list(agents)
    if len(set(names)) != len(names):
        raise ValueError(f"agent specs must be distinct, got {names}")
    built = make(game, **options)
    for spec in names:
        make_agent(spec, game=built)  # fail early: a bad spec, or an agent that cannot play
    if backend is None:
        runner: Backend = LocalBackend(workers)
    elif isinstance(backend, str):
        runner = make_backend(backend, workers)
    elif workers is not None:
        raise ValueError("give workers to the backend object, not to run_tournament")
    else:
        runner = backend
    tasks = schedule(game, options, names, games, seed, built.teams(), records)
    by_index: dict[int, GameResult] = {}
    finished = runner.run(play_task, tasks)
    try:
        for index, res in finished:
            if index in by_index:
                raise RuntimeError(f"backend {runner.name!r} returned game {index} twice")
            by_index[index] = res
            if progress:
                progress(len(by_index), len(tasks))
    finally:
        # Close the generator at once (not whenever it is collected) so that a backend
        # stops its workers, or its Ray instance, even when a game or the callback fails.
        close = getattr(finished, "close", None)
        if close is not None:
            close()
    if len(by_index) != len(tasks):
        missing = len(tasks) - len(by_index)
        raise RuntimeError(f"backend {runner.name!r} left {missing} of {len(tasks)} games out")
    # Tally in schedule order: ratings are updated game by game, so order matters.
    return summarise(game, options, names, games, [by_index[i] for i in range(len(tasks))])


def summarise(
    game: str, options: dict[str, Any], names: list[str], games: int, results: list[GameResult]
) -> TournamentResult:
    """Totals, pairwise counts and ratings from game results (in schedule order)."""
    totals = {name: AgentRecord() for name in names}
    pairs = {
        (i, j): PairRecord(names[i], names[j])
        for i in range(len(names))
        for j in range(i + 1, len(names))
    }
    ratings = Ratings(names)
    for res in results:
        i, j = res.task.pair
        winners_agents = {res.task.seats[s] for s in res.winners}
        pair = pairs[(i, j)]
        if winners_agents == {i}:
            pair.a_wins += 1
            totals[names[i]].wins += 1
            totals[names[j]].losses += 1
            ratings.update(names[i], names[j], 1.0)
        elif winners_agents == {j}:
            pair.b_wins += 1
            totals[names[j]].wins += 1
            totals[names[i]].losses += 1
            ratings.update(names[i], names[j], 0.0)
        else:  # nobody won, or both agents share the win (a team of mixed agents)
            pair.draws += 1
            totals[names[i]].draws += 1
            totals[names[j]].draws += 1
            ratings.update(names[i], names[j], 0.5)
    return TournamentResult(
        game, dict(options), games, names, totals, list(pairs.values()), ratings, results
    )
